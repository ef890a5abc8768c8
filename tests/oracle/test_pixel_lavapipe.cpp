// test_pixel_lavapipe.cpp -- issue 5's pixel oracle: the same triangles drawn by lavapipe
// (tools/waveemu/vulkan_fragment.h) and by waveemu's rasterizer and pixel dispatch. Coverage
// (top-left rule, shared edges) first; then tests/pixel/helper_lanes.hlsl against its port,
// record by record, with lavapipe's measured quad packing and derivative rule
// (LavapipePixelOptions). Skips without Vulkan or glslang (WAVEEMU_REQUIRE_VULKAN=1: fails).
#if defined(WAVEEMU_ORACLE_TESTS) && WAVEEMU_HAVE_VULKAN_BACKEND

#include "emulator/pixel.h"
#include "tests/pixel/helper_lanes_port.h"
#include "tools/waveemu/hlsl_compile.h"
#include "tools/waveemu/vulkan_backend.h"
#include "tools/waveemu/vulkan_fragment.h"
#include "tests/oracle/vulkan_test_support.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace waveemu::oracle {
namespace {

namespace fs = std::filesystem;
using test::kRecordWords;

// Only lavapipe, unless the caller chose ICDs: the measured packing is lavapipe's.
const bool kIcdChosen = vktest::PreferLavapipe();

fs::path PixelShaderPath(const std::string& name) {
  return fs::path(__FILE__).parent_path().parent_path() / "pixel" / name;
}

std::string ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr int kWidth = 32, kHeight = 16;

// The scene: kScene's corner triangle, a thin skewed one, and two that share the edge
// (17, 2.25)-(30, 8.75), which runs through the 7 pixel centres (17.5 + 2k, 2.5 + k), k = 0..6
// (slope 1/2, neither end on a centre): the top-left rule alone decides them, and the pixels
// along it have quad partners in the other triangle (helpers of their own primitive). Every
// vertex is a multiple of 1/256 pixel, so the NDC trip is exact and no snapping is involved.
const Triangle kTriangles[] = {
    {{0, 0}, {4, 0}, {0, 4}},
    {{5.5f, 1.25f}, {15, 6}, {7, 14.5f}},
    {{17, 2.25f}, {31, 1}, {30, 8.75f}},         // clockwise on screen
    {{17, 2.25f}, {20.5f, 14.5f}, {30, 8.75f}},  // shares (17,2.25)-(30,8.75); counter-clockwise
};
// The pixels whose centres lie on that shared edge: (17 + 2k, 2 + k).
constexpr int kSharedEdgeCentres = 7;
// Extra coverage cases: a square split along a diagonal through pixel centres, both windings.
const Triangle kSquare[] = {
    {{1, 1}, {9, 1}, {9, 9}}, {{1, 1}, {1, 9}, {9, 9}},
    {{17, 1}, {17, 9}, {25, 1}}, {{25, 1}, {17, 9}, {25, 9}},
};

FragmentDraw Draw(const std::string& file, std::span<const Triangle> triangles, size_t words) {
  FragmentDraw d;
  const fs::path path = PixelShaderPath(file);
  d.hlsl = ReadText(path);
  d.hlsl_path = path.string();
  d.defines = {fmt::format("WIDTH={}", kWidth)};
  d.width = kWidth;
  d.height = kHeight;
  d.clear = {-1, -1, -1, -1};
  for (const Triangle& t : triangles)
    for (const float2& v : {t.v0, t.v1, t.v2}) d.vertices.push_back({v.x, v.y});
  d.buffers.push_back(std::vector<uint32_t>(words, 0));
  return d;
}

// The words of one record, named for mismatch reports (tests/pixel/helper_lanes.hlsl).
constexpr const char* kFields[kRecordWords] = {
    "WaveGetLaneIndex", "WaveGetLaneCount", "ballot.x", "ballot.yzw",
    "WaveActiveCountBits", "WavePrefixCountBits", "WaveActiveSum", "code (own)",
    "QuadReadAcrossX(code)", "QuadReadAcrossY(code)", "QuadReadAcrossDiagonal(code)",
    "QuadReadAcrossX(pos.x)",
    "ddx(l)", "ddy(l)", "ddx_coarse(l)", "ddy_coarse(l)",
    "ddx_fine(l)", "ddy_fine(l)", "ddx(q)", "ddy(q)",
    "ddx_coarse(q)", "ddy_coarse(q)", "ddx_fine(q)", "ddy_fine(q)",
    "fwidth(q)", "Partner(X): lane<<8 | helper", "Partner(Y)", "Partner(Diagonal)",
    "ballot2.x", "WaveActiveCountBits after discard", "Partner(X) after discard",
    "Partner(Y) after discard",
    "Partner(Diagonal) after discard", "WaveActiveSum after discard", "ddx_fine(q2)",
    "ddy_fine(q2)",
    "written", "x", "y", "0"};

// Word k of the quad-level part of a record: positions through quad reads, derivatives and
// discard. These must match whatever the packing; the rest (lanes, partners' lanes, ballots,
// counts, sums) are wave-level and match only when the emulator packs quads as the driver does.
bool QuadLevel(int k) { return (k >= 7 && k <= 24) || k >= 34; }

// helper_lanes.hlsl's Discarded(p), from its text: the top-left pixel of quads with
// (qx + qy) % 3 == 0, the bottom-right pixel of those with (qx + qy) % 3 == 1.
bool Discarded(int x, int y) {
  const int quad = (x >> 1) + (y >> 1);
  return ((x & 1) == 0 && (y & 1) == 0 && quad % 3 == 0) ||
         ((x & 1) == 1 && (y & 1) == 1 && quad % 3 == 1);
}

// What the run could not promise (e.g. a feature it did not enable), printed with the results.
void ShowNotes(const FragmentResult& r) {
  for (const std::string& note : r.notes) MESSAGE("vulkan_fragment note: " << note);
}

}  // namespace

TEST_CASE("lavapipe covers the same pixels as waveemu's rasterizer, shared edges exactly once") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  for (std::span<const Triangle> scene : {std::span<const Triangle>(kTriangles),
                                          std::span<const Triangle>(kSquare)}) {
    const FragmentResult r = RunFragmentOnVulkan(
        Draw("coverage_count.hlsl", scene, size_t(kWidth) * kHeight));
    // lavapipe snaps to 8 sub-pixel bits, as waveemu's rasterizer (kSubPixelBits) does.
    CHECK(r.sub_pixel_precision_bits == uint32_t(kSubPixelBits));
    std::vector<int> expected(size_t(kWidth) * kHeight, 0);
    for (const Triangle& t : scene) {
      const Coverage c = Rasterize(std::span<const Triangle>(&t, 1), kWidth, kHeight);
      for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) expected[size_t(y) * kWidth + x] += c.Test(x, y);
    }
    int covered = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) {
        const size_t p = size_t(y) * kWidth + x;
        covered += expected[p] > 0;
        INFO(fmt::format("pixel ({}, {}): lavapipe drew it {} time(s), waveemu {}", x, y,
                         r.buffers[0][p], expected[p]));
        CHECK(r.buffers[0][p] == uint32_t(expected[p]));
        CHECK(r.target[p][0] == (expected[p] ? 1.0f : -1.0f));
      }
    CHECK(covered > 100);  // the scene covers something worth comparing
  }
  // The shared edge of kTriangles[2] and [3]. Hand-worked: it is a left edge of the upper
  // triangle (not horizontal; the upper one lies to its right: at y = 5, from x = 22.5 on) and
  // a right edge of the lower one, so its 7 centres are the upper's alone. Drawn alone on
  // lavapipe the upper gives each a count of 1 (the scene above gives 1 for both together).
  const FragmentResult r = RunFragmentOnVulkan(Draw("coverage_count.hlsl",
                                                    std::span<const Triangle>(kTriangles + 2, 1),
                                                    size_t(kWidth) * kHeight));
  const Coverage upper = Rasterize(std::span<const Triangle>(kTriangles + 2, 1), kWidth, kHeight);
  const Coverage lower = Rasterize(std::span<const Triangle>(kTriangles + 3, 1), kWidth, kHeight);
  for (int k = 0; k < kSharedEdgeCentres; ++k) {
    const int x = 17 + 2 * k, y = 2 + k;
    // (x + .5, y + .5) is on the line y' = 2.25 + (x' - 17) / 2 through both shared vertices.
    REQUIRE(4 * y + 2 == 9 + (2 * x + 1) - 34);  // 4y' = 9 + 2(x' - 17), x' = x + .5, y' = y + .5
    INFO(fmt::format("centre ({}.5, {}.5) on the shared edge: waveemu upper {} lower {}, lavapipe "
                     "upper alone drew it {} time(s)",
                     x, y, upper.Test(x, y), lower.Test(x, y),
                     r.buffers[0][size_t(y) * kWidth + x]));
    CHECK(upper.Test(x, y));
    CHECK_FALSE(lower.Test(x, y));
    CHECK(r.buffers[0][size_t(y) * kWidth + x] == 1u);
  }
}

TEST_CASE("helper_lanes.hlsl on lavapipe matches its port on waveemu's pixel dispatch, pixel by "
          "pixel") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  const size_t words = size_t(kRecordWords) * kWidth * kHeight;
  const FragmentResult gpu = RunFragmentOnVulkan(Draw("helper_lanes.hlsl", kTriangles, words));
  ShowNotes(gpu);
  REQUIRE_MESSAGE(gpu.demote, "glslang --target-env vulkan1.3 should compile discard to "
                              "OpDemoteToHelperInvocation");
  REQUIRE_MESSAGE(gpu.device.subgroup_size == 8,
                  "LavapipePixelOptions reproduce lavapipe's packing at wave 8; this device "
                  "reports wave " << gpu.device.subgroup_size);

  std::vector<uint4> records(words / 4, uint4{0, 0, 0, 0});
  test::HelperLanesPort<8> port;
  port.WIDTH = kWidth;
  port.Out = RWStructuredBuffer<uint4>(std::span<uint4>(records));
  RenderTarget target(kWidth, kHeight, float4{-1, -1, -1, -1});
  DrawTriangles(port, kTriangles, target, LavapipePixelOptions());

  int mismatches = 0, compared = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const size_t base = size_t(kRecordWords) * (size_t(y) * kWidth + x);
      std::string report;
      for (int k = 0; k < kRecordWords; ++k) {
        const uint4& v = records[(base + size_t(k)) / 4];
        const uint32_t emu = k % 4 == 0 ? v.x : k % 4 == 1 ? v.y : k % 4 == 2 ? v.z : v.w;
        const uint32_t dev = gpu.buffers[0][base + size_t(k)];
        if (emu != dev)
          report += fmt::format("  word {:2} {:<34} {}  lavapipe 0x{:08x} ({})  waveemu 0x{:08x} "
                                "({})\n",
                                k, kFields[k], QuadLevel(k) ? "quad" : "wave", dev,
                                std::bit_cast<float>(dev), emu, std::bit_cast<float>(emu));
      }
      const std::array<float, 4>& t = gpu.target[size_t(y) * kWidth + x];
      const float4 e = target.at(x, y);
      if (t[0] != e.x || t[1] != e.y || t[2] != e.z || t[3] != e.w)
        report += fmt::format("  SV_Target lavapipe ({}, {}, {}, {}) waveemu ({}, {}, {}, {})\n",
                              t[0], t[1], t[2], t[3], e.x, e.y, e.z, e.w);
      compared += gpu.buffers[0][base + 36] == test::kRecordWritten;
      if (!report.empty()) {
        ++mismatches;
        INFO(fmt::format("pixel ({}, {}):\n{}", x, y, report));
        CHECK(report.empty());
      }
    }
  CHECK(mismatches == 0);
  CHECK(compared > 100);  // covered, not discarded pixels with a full record

  // Independent of the port, and built only from values HLSL defines (helper_lanes.hlsl's
  // header): a non-helper reads its partners' positions and lanes through quad reads, and finds
  // a partner's lane missing from its own ballot exactly where its triangle does not cover the
  // partner (before discard) or does not cover it or discarded it (after): helpers stay out of
  // wave ops. Partner lanes are lane ^ 1, ^ 2, ^ 3 (the quad order both sides use).
  for (const Triangle& tri : kTriangles) {
    const Coverage c = Rasterize(std::span<const Triangle>(&tri, 1), kWidth, kHeight);
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) {
        if (!c.Test(x, y)) continue;
        const uint32_t* rec = &gpu.buffers[0][size_t(kRecordWords) * (size_t(y) * kWidth + x)];
        const int partners[3][2] = {{x ^ 1, y}, {x, y ^ 1}, {x ^ 1, y ^ 1}};
        const bool survived = !Discarded(x, y);
        CHECK(rec[36] == (survived ? test::kRecordWritten : 0u));
        for (int k = 0; k < 3; ++k) {
          const int px = partners[k][0], py = partners[k][1];
          const uint32_t code = rec[8 + k], before = rec[25 + k], after = rec[30 + k];
          INFO(fmt::format("pixel ({}, {}) lane {} reads partner ({}, {}): code 0x{:08x}, "
                           "lane<<8|helper before discard 0x{:x}, after 0x{:x}; covered {}, "
                           "discarded {}",
                           x, y, rec[0], px, py, code, before, after, c.Test(px, py),
                           Discarded(px, py)));
          CHECK(code == (0x80000000u | (uint32_t(py) << 12) | uint32_t(px)));
          CHECK((before >> 8) == (rec[0] ^ uint32_t(k + 1)));
          CHECK((before & 0xFF) == uint32_t(!c.Test(px, py)));
          if (survived) {
            CHECK((after >> 8) == (rec[0] ^ uint32_t(k + 1)));
            CHECK((after & 0xFF) == uint32_t(!c.Test(px, py) || Discarded(px, py)));
          }
        }
      }
  }
}

TEST_CASE("lavapipe runs discard compiled as OpKill like demote (Vulkan leaves it undefined)") {
  // glslang --target-env vulkan1.1 emits OpKill: the invocation terminates, and Vulkan leaves
  // quad reads and derivatives that need it undefined. lavapipe 22.3 keeps computing the lane
  // as a helper (SIMD masking), so the records equal the demote run's; a driver change here
  // means docs/execution_model.md §12's table needs a new line.
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  const size_t words = size_t(kRecordWords) * kWidth * kHeight;
  FragmentDraw kill = Draw("helper_lanes.hlsl", kTriangles, words);
  kill.target_env = "vulkan1.1";
  const FragmentResult killed = RunFragmentOnVulkan(kill);
  ShowNotes(killed);
  const FragmentResult demoted = RunFragmentOnVulkan(Draw("helper_lanes.hlsl", kTriangles, words));
  CHECK(killed.kill);
  CHECK_FALSE(killed.demote);
  int differing = 0;
  for (size_t p = 0; p < size_t(kWidth) * kHeight; ++p)
    for (int k = 0; k < kRecordWords; ++k) {
      const size_t w = p * kRecordWords + size_t(k);
      if (killed.buffers[0][w] != demoted.buffers[0][w]) {
        ++differing;
        INFO(fmt::format("pixel ({}, {}) word {} {}: OpKill 0x{:08x}, demote 0x{:08x}",
                         p % kWidth, p / kWidth, k, kFields[k], killed.buffers[0][w],
                         demoted.buffers[0][w]));
        CHECK(killed.buffers[0][w] == demoted.buffers[0][w]);
      }
    }
  CHECK(differing == 0);
}

TEST_CASE("the pixel oracle refuses a vertex the viewport transform would round") {
  FragmentDraw d;
  d.hlsl_path = "x.hlsl";
  d.width = 6;  // 2 * 1 / 6 - 1 = -2/3 has no exact float
  d.height = 4;
  d.vertices = {{1, 0}, {4, 0}, {0, 4}};
  CHECK_THROWS_WITH_AS(FragmentVertexShader(d),
                       doctest::Contains("does not survive the viewport transform exactly"),
                       VulkanBackendError);
  d.width = 8;
  CHECK(FragmentVertexShader(d).find("SV_VertexID") != std::string::npos);
}

TEST_CASE("the pixel oracle refuses a zero-size target, as the emulator does") {
  FragmentDraw d;
  d.hlsl_path = "x.hlsl";
  d.width = 0;
  d.height = 4;
  d.vertices = {{1, 0}, {4, 0}, {0, 4}};
  CHECK_THROWS_WITH_AS(FragmentVertexShader(d),
                       "x.hlsl: the target is 0 x 4 pixels: width and height must be at least 1 "
                       "(a zero-size target draws nothing; it is most likely a mistake)",
                       VulkanBackendError);
  CHECK_THROWS_AS(RenderTarget(0, 4), UsageError);  // the emulator side (tests/pixel too)
}

}  // namespace waveemu::oracle

#endif  // WAVEEMU_ORACLE_TESTS && WAVEEMU_HAVE_VULKAN_BACKEND
