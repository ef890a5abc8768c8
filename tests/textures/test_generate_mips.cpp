// test_generate_mips.cpp -- the GenerateMipsCS port driven by MiniEngine's host loop, level by
// level against plain loops: (1) power-of-two sizes of small integers against a 2x2 box average
// chain (exact in float); (2) every size against a scalar model of what the D3D rules make the
// shader compute: bilinear-clamp taps per NON_POWER_OF_TWO case over the whole dispatched grid
// (threads past the edge sample clamped texels, and their values reach the next levels), then
// 2x2 averages inside each 8x8 group. The model is written here from the D3D formulas, not from
// the emulator's sampler.
#include "examples/generate_mips/generate_mips_host.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace waveemu;
using namespace waveemu::examples;

namespace {

using Rgba = std::array<float, 4>;

struct Image {
  uint32_t w = 0, h = 0;
  std::vector<Rgba> px;
  Rgba& at(uint32_t x, uint32_t y) { return px[size_t(y) * w + x]; }
  const Rgba& at(uint32_t x, uint32_t y) const { return px[size_t(y) * w + x]; }
};

Image Pattern(uint32_t w, uint32_t h, int kind) {
  Image im{w, h, std::vector<Rgba>(size_t(w) * h)};
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      float checker = ((x / 4 + y / 4) % 2) ? 255.0f : 0.0f;
      if (kind == 0) im.at(x, y) = {float(x % 256), float(y % 256), checker, 255.0f};  // gradients
      else im.at(x, y) = {checker, float((x * 7 + y * 13) % 256), float((x ^ y) % 256), 128.0f};
    }
  return im;
}

/// D3D bilinear with CLAMP on one level (semantics.md §4.1): scaled = u*size - 0.5 in float, 8
/// fraction bits rounded to nearest even, weights k/256, result Σ texel · wU · wV.
Rgba RefBilinear(const Image& src, float u, float v) {
  auto axis = [](float c, uint32_t size, int64_t& i0, float& w1) {
    double fixed = std::nearbyint(double(c * float(size) - 0.5f) * 256.0);
    i0 = int64_t(std::floor(fixed / 256.0));
    w1 = float((fixed - double(i0) * 256.0) / 256.0);
  };
  int64_t x0, y0;
  float wu, wv;
  axis(u, src.w, x0, wu);
  axis(v, src.h, y0, wv);
  auto tap = [&](int64_t x, int64_t y) {
    return src.at(uint32_t(std::clamp<int64_t>(x, 0, src.w - 1)),
                  uint32_t(std::clamp<int64_t>(y, 0, src.h - 1)));
  };
  Rgba a = tap(x0, y0), b = tap(x0 + 1, y0), c = tap(x0, y0 + 1), d = tap(x0 + 1, y0 + 1);
  Rgba r{};
  for (size_t k = 0; k < 4; ++k)
    r[k] = a[k] * ((1 - wu) * (1 - wv)) + b[k] * (wu * (1 - wv)) + c[k] * ((1 - wu) * wv) +
           d[k] * (wu * wv);
  return r;
}

Rgba Add(const Rgba& a, const Rgba& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]}; }
Rgba Scale(float s, const Rgba& a) { return {s * a[0], s * a[1], s * a[2], s * a[3]}; }

/// The reference chain for an RGBA32F texture: levels 1.. from level 0, dispatch by dispatch.
std::vector<Image> ReferenceChain(const Image& level0, uint32_t levels) {
  std::vector<Image> chain{level0};
  for (const MipDispatch& d : PlanMipDispatches(level0.w, level0.h, levels)) {
    const Image& src = chain[d.top_mip];
    // The whole grid of threads the dispatch runs: groups * 8 per axis.
    uint32_t gw = d.groups.x * 8, gh = d.groups.y * 8;
    Image grid{gw, gh, std::vector<Rgba>(size_t(gw) * gh)};
    const float tx = 1.0f / float(d.dst_width), ty = 1.0f / float(d.dst_height);
    for (uint32_t y = 0; y < gh; ++y)
      for (uint32_t x = 0; x < gw; ++x) {
        auto s = [&](float ox, float oy) {
          return RefBilinear(src, tx * (float(x) + ox), ty * (float(y) + oy));
        };
        Rgba v;
        switch (d.non_power_of_two) {
          case 0: v = s(0.5f, 0.5f); break;
          case 1: v = Scale(0.5f, Add(s(0.25f, 0.5f), s(0.75f, 0.5f))); break;  // two taps in x
          case 2: v = Scale(0.5f, Add(s(0.5f, 0.25f), s(0.5f, 0.75f))); break;  // two taps in y
          default:
            v = Scale(0.25f, Add(Add(Add(s(0.25f, 0.25f), s(0.75f, 0.25f)), s(0.25f, 0.75f)),
                                 s(0.75f, 0.75f)));
        }
        grid.at(x, y) = v;
      }
    for (uint32_t n = 1; n <= d.num_mips; ++n) {
      const uint32_t step = 1u << (n - 1);  // grid spacing of level n's values
      const uint32_t half = step / 2;  // spacing of level n-1's values
      if (n > 1)
        for (uint32_t y = 0; y < gh; y += step)
          for (uint32_t x = 0; x < gw; x += step)
            grid.at(x, y) = Scale(0.25f, Add(Add(Add(grid.at(x, y), grid.at(x + half, y)),
                                                 grid.at(x, y + half)),
                                             grid.at(x + half, y + half)));
      const uint32_t mip = d.top_mip + n;
      Image out{std::max(1u, level0.w >> mip), std::max(1u, level0.h >> mip), {}};
      out.px.resize(size_t(out.w) * out.h);
      for (uint32_t y = 0; y < out.h; ++y)
        for (uint32_t x = 0; x < out.w; ++x) out.at(x, y) = grid.at(x * step, y * step);
      chain.push_back(out);
    }
  }
  return chain;
}

Texture2DResource Upload(const Image& im, Format f) {
  Texture2DResource t(f, im.w, im.h, 0);
  for (uint32_t y = 0; y < im.h; ++y)
    for (uint32_t x = 0; x < im.w; ++x) t.WriteFloat(0, x, y, im.at(x, y), f);
  return t;
}

/// Every texel of every level equal (bit for bit) to the reference.
void CheckChain(const Texture2DResource& t, const std::vector<Image>& ref) {
  REQUIRE(ref.size() == t.mip_levels());
  for (uint32_t m = 1; m < t.mip_levels(); ++m) {
    uint64_t bad = 0;
    for (uint32_t y = 0; y < ref[m].h; ++y)
      for (uint32_t x = 0; x < ref[m].w; ++x) {
        Rgba got = t.ReadFloat(m, x, y, t.format());
        if (got != ref[m].at(x, y) && bad++ < 3)
          FAIL_CHECK(fmt::format("mip {} texel ({}, {}): expected ({}) got ({})", m, x, y,
                                 fmt::join(ref[m].at(x, y), ", "), fmt::join(got, ", ")));
      }
    CHECK_MESSAGE(bad == 0, fmt::format("mip {} ({}x{}): {} texels differ", m, ref[m].w, ref[m].h, bad));
  }
}

DispatchOptions Options() {
  DispatchOptions o;
  o.wave_size = 32;
  o.max_threads = 2;
  return o;
}

}  // namespace

TEST_CASE("MiniEngine's host loop plans the case and the levels per dispatch from the size") {
  // 256x256: 9 levels; dispatches write 1-4, 5-8 (each a clean 2:1 chain from 128 and 8).
  auto p = PlanMipDispatches(256, 256, 9);
  REQUIRE(p.size() == 2);
  CHECK((p[0].top_mip == 0 && p[0].num_mips == 4 && p[0].non_power_of_two == 0));
  CHECK((p[1].top_mip == 4 && p[1].num_mips == 4 && p[1].dst_width == 8));
  // 257x129: dst 128x64 but the source is odd both ways -> case 3; then 128x64 -> 4 levels...
  p = PlanMipDispatches(257, 129, 9);
  REQUIRE(p.size() == 3);
  CHECK((p[0].non_power_of_two == 3 && p[0].num_mips == 4 && p[0].dst_width == 128));
  CHECK((p[1].top_mip == 4 && p[1].non_power_of_two == 0 && p[1].num_mips == 3));  // 16x8 -> 2x1
  CHECK((p[2].top_mip == 7 && p[2].num_mips == 1 && p[2].dst_width == 1 && p[2].dst_height == 1));
  // 3x5: 3 levels: 3x5 -> 1x2 (case 3, then 1x2 -> 1x1 in the same dispatch).
  p = PlanMipDispatches(3, 5, 3);
  REQUIRE(p.size() == 1);
  CHECK((p[0].non_power_of_two == 3 && p[0].num_mips == 2));
  // 6x4: width even, height even -> case 0; 5x4 -> case 1; 4x5 -> case 2.
  CHECK(PlanMipDispatches(5, 4, 3)[0].non_power_of_two == 1);
  CHECK(PlanMipDispatches(4, 5, 3)[0].non_power_of_two == 2);
  CHECK(PlanMipDispatches(1, 1, 1).empty());  // a 1x1 texture has nothing to generate
}

TEST_CASE("square power-of-two RGBA32F sources give exactly the 2x2 box-average chain") {
  // Square only: when one side reaches 1 inside a multi-level dispatch (64x32 -> ... 2x1 -> 1x1),
  // MiniEngine's threads past that side sample clamped texels and bias the last level (README).
  for (uint32_t size : {8u, 64u, 128u}) {
    for (int kind : {0, 1}) {
      const Image im = Pattern(size, size, kind);
      auto t = Upload(im, Format::R32G32B32A32_FLOAT);
      GenerateMips(t, false, Options());
      // Plain box chain: every texel the mean of its 2x2 block of the level above.
      Image prev = im;
      for (uint32_t m = 1; m < t.mip_levels(); ++m) {
        Image next{std::max(1u, prev.w / 2), std::max(1u, prev.h / 2), {}};
        next.px.resize(size_t(next.w) * next.h);
        for (uint32_t y = 0; y < next.h; ++y)
          for (uint32_t x = 0; x < next.w; ++x) {
            auto p = [&](uint32_t dx, uint32_t dy) {
              return prev.at(std::min(2 * x + dx, prev.w - 1), std::min(2 * y + dy, prev.h - 1));
            };
            Rgba s{};
            for (size_t k = 0; k < 4; ++k)
              s[k] = (p(0, 0)[k] + p(1, 0)[k] + p(0, 1)[k] + p(1, 1)[k]) / 4.0f;
            next.at(x, y) = s;
          }
        for (uint32_t y = 0; y < next.h; ++y)
          for (uint32_t x = 0; x < next.w; ++x) {
            INFO("size " << size << " kind " << kind << " mip " << m << " (" << x << "," << y << ")");
            CHECK(t.ReadFloat(m, x, y, t.format()) == next.at(x, y));
          }
        prev = next;
      }
    }
  }
}

TEST_CASE("each NON_POWER_OF_TWO case and odd sizes match the D3D-rule reference level by level") {
  struct Size { uint32_t w, h; };
  // 1x1 (nothing to do), 3x5 (case 3), 5x4 (case 1), 4x5 (case 2), 6x8 (case 0), 257x129, and a
  // wide 40x2 whose clamped height keeps 4 levels in one dispatch.
  for (Size s : {Size{1, 1}, Size{3, 5}, Size{5, 4}, Size{4, 5}, Size{6, 8}, Size{257, 129},
                 Size{40, 2}, Size{33, 17}}) {
    for (int kind : {0, 1}) {
      INFO("size " << s.w << "x" << s.h << " pattern " << kind);
      const Image im = Pattern(s.w, s.h, kind);
      auto t = Upload(im, Format::R32G32B32A32_FLOAT);
      GenerateMips(t, false, Options());
      CheckChain(t, ReferenceChain(im, t.mip_levels()));
    }
  }
}

TEST_CASE("R8G8B8A8_UNORM mips store the reference's values rounded half up to 8 bits") {
  for (auto [w, h] : {std::pair{64u, 32u}, std::pair{257u, 129u}, std::pair{3u, 5u}}) {
    INFO("size " << w << "x" << h);
    Image im = Pattern(w, h, 1);
    for (auto& p : im.px)
      for (auto& c : p) c /= 255.0f;  // exact codes
    auto t = Upload(im, Format::R8G8B8A8_UNORM);
    GenerateMips(t, false, Options());
    // The reference runs in float on the decoded codes, level by level through the stored
    // (rounded) levels, like the GPU: each dispatch reads what the previous one stored.
    std::vector<Image> stored{im};
    for (const MipDispatch& d : PlanMipDispatches(w, h, t.mip_levels())) {
      Image top = stored[d.top_mip];
      auto ref = ReferenceChain(top, d.num_mips + 1);  // top as level 0, then its next levels
      // ReferenceChain plans from `top`'s own size; the plan from a sub-level is the same while
      // the levels stay exact 2:1 (which is why the host loop splits there).
      for (uint32_t n = 1; n <= d.num_mips; ++n) {
        Image q = ref[n];
        for (auto& p : q.px)
          for (auto& c : p) c = float(std::floor(double(std::clamp(c, 0.0f, 1.0f) * 255.0f) + 0.5)) / 255.0f;
        stored.push_back(q);
      }
    }
    REQUIRE(stored.size() == t.mip_levels());
    for (uint32_t m = 1; m < t.mip_levels(); ++m)
      for (uint32_t y = 0; y < stored[m].h; ++y)
        for (uint32_t x = 0; x < stored[m].w; ++x) {
          INFO("mip " << m << " (" << x << "," << y << ")");
          CHECK(t.ReadFloat(m, x, y, t.format()) == stored[m].at(x, y));
        }
  }
}

TEST_CASE("sRGB mips decode the source, average in linear and encode with MiniEngine's curve") {
  // A 2x2 black/white checkerboard in sRGB: the 1x1 mip is linear 0.5, which MiniEngine's
  // approximate curve 1.13005*sqrt(0.5 - 0.00228) - 0.13448*0.5 + 0.005719 = 0.7355 encodes; the
  // exact curve gives 0.7354. Either way * 255 = 187.55 -> 188 (and 0.5 stored linearly is 128).
  Texture2DResource t(Format::R8G8B8A8_UNORM, 2, 2, 0);
  for (uint32_t i = 0; i < 4; ++i) {
    float c = (i == 0 || i == 3) ? 1.0f : 0.0f;
    t.WriteFloat(0, i % 2, i / 2, {c, c, c, 1}, t.format());
  }
  Texture2DResource linear = t;
  GenerateMips(t, true, Options());
  GenerateMips(linear, false, Options());
  // Expected 188 by hand: the shader's curve at 0.5 is 1.13005 * sqrt(0.5 - 0.00228)
  // - 0.13448 * 0.5 + 0.005719 = 0.73572, and floor(0.73572 * 255 + 0.5) = 188.
  CHECK(t.ReadFloat(1, 0, 0, Format::R8G8B8A8_UNORM)[0] == 188.0f / 255);
  CHECK(t.ReadFloat(1, 0, 0, Format::R8G8B8A8_UNORM)[3] == 1.0f);
  CHECK(linear.ReadFloat(1, 0, 0, Format::R8G8B8A8_UNORM)[0] == 128.0f / 255);
}

TEST_CASE("threads past a level's edge are dropped stores, counted, and leave no diagnostic") {
  auto t = Upload(Pattern(20, 12, 0), Format::R32G32B32A32_FLOAT);
  auto r = GenerateMips(t, false, Options());
  // First dispatch: dst 10x6 in 2x1 groups of 8x8 = 16x8 threads -> 128 - 60 dropped at mip 1;
  // mip 2 (5x3) from the 8x4 even threads: 32 - 15 = 17 dropped. Later dispatches likewise.
  CHECK(r.out_of_bounds_writes >= 128 - 60 + 32 - 15);
  CHECK(t.out_of_bounds_writes() == r.out_of_bounds_writes);
  CHECK(r.diagnostics == 0);
}
