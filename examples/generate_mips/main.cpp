// main.cpp -- runs the GenerateMipsCS port through MiniEngine's host loop on two synthetic
// images and prints each dispatch and level. A square power-of-two RGBA32F source must equal the
// plain 2x2 box-average chain exactly (every bilinear tap lands on a 2x2 block's shared corner);
// the 257x129 source shows the odd-size cases (NON_POWER_OF_TWO 3, then 0).
#include "examples/generate_mips/generate_mips_host.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

using namespace waveemu;
using namespace waveemu::examples;

namespace {

std::array<float, 4> Texel(uint32_t x, uint32_t y) {
  const float checker = ((x / 8 + y / 8) % 2) ? 1.0f : 0.0f;
  return {float(x % 256) / 255.0f, float(y % 256) / 255.0f, checker, 1.0f};
}

Texture2DResource Make(uint32_t w, uint32_t h, Format f) {
  Texture2DResource t(f, w, h, 0);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) t.WriteFloat(0, x, y, Texel(x, y), f);
  return t;
}

void PrintChain(const Texture2DResource& t, const GenerateMipsResult& r) {
  for (const auto& d : r.plan)
    fmt::print("  dispatch: mip {} -> mips {}..{}, NON_POWER_OF_TWO {}, TexelSize ({}, {}), {}x{} "
               "groups\n",
               d.top_mip, d.top_mip + 1, d.top_mip + d.num_mips, d.non_power_of_two,
               d.texel_size.x, d.texel_size.y, d.groups.x, d.groups.y);
  for (uint32_t m = 0; m < t.mip_levels(); ++m) {
    auto v = t.ReadFloat(m, 0, 0, t.format());
    fmt::print("  mip {} {:>3}x{:<3} texel (0,0) = ({:.6f}, {:.6f}, {:.6f}, {:.6f})\n", m,
               t.Width(m), t.Height(m), v[0], v[1], v[2], v[3]);
  }
  fmt::print("  stores past a level's edge (dropped): {}\n", r.out_of_bounds_writes);
}

}  // namespace

int main() {
  DispatchOptions options;
  options.wave_size = 32;

  fmt::print("256x256 R32G32B32A32_FLOAT (gradient + 8x8 checker):\n");
  auto square = Make(256, 256, Format::R32G32B32A32_FLOAT);
  PrintChain(square, GenerateMips(square, false, options));
  // The 2x2 box chain, level by level from the emulator's previous level.
  uint64_t mismatches = 0;
  for (uint32_t m = 1; m < square.mip_levels(); ++m)
    for (uint32_t y = 0; y < square.Height(m); ++y)
      for (uint32_t x = 0; x < square.Width(m); ++x) {
        std::array<float, 4> box{};
        for (uint32_t k = 0; k < 4; ++k) {
          const uint32_t sx = std::min(2 * x + k % 2, square.Width(m - 1) - 1);
          const uint32_t sy = std::min(2 * y + k / 2, square.Height(m - 1) - 1);
          auto p = square.ReadFloat(m - 1, sx, sy, square.format());
          for (size_t c = 0; c < 4; ++c) box[c] += p[c];
        }
        for (auto& c : box) c *= 0.25f;
        if (box != square.ReadFloat(m, x, y, square.format())) ++mismatches;
      }
  fmt::print("  box-average chain: {}\n\n",
             mismatches == 0 ? "every level matches" : fmt::format("{} texels DIFFER", mismatches));

  fmt::print("257x129 R8G8B8A8_UNORM, sRGB:\n");
  auto odd = Make(257, 129, Format::R8G8B8A8_UNORM);
  PrintChain(odd, GenerateMips(odd, true, options));
  return mismatches == 0 ? 0 : 1;
}
