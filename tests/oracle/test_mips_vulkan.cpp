// test_mips_vulkan.cpp -- issue 6's proof on lavapipe: MiniEngine's GenerateMipsCS.hlsl, compiled
// by glslang and run dispatch by dispatch through the same host loop, against the emulator's port
// with the lavapipe profile: every chain must be bit-exact (power-of-two and odd sizes, RGBA32F,
// RGBA16F, R8G8B8A8 with sRGB on and off); the spec profile (D3D's defaults) must stay within
// D3D's filtering tolerance of the device. Each level's largest difference is printed. Skips without Vulkan or glslang (WAVEEMU_REQUIRE_VULKAN=1: fails).
#if defined(WAVEEMU_ORACLE_TESTS) && WAVEEMU_HAVE_VULKAN_BACKEND

#include "tools/waveemu/hlsl_compile.h"
#include "tools/waveemu/mips_vulkan.h"
#include "tools/waveemu/vulkan_backend.h"
#include "tests/oracle/vulkan_test_support.h"

#include "emulator/profile.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace waveemu::oracle {
namespace {


// Level 0: smooth gradients in R and G, a 3x3 checkerboard in B, alpha ramp; every value k / 255,
// so UNORM and float textures start from the same numbers.
Texture2DResource Source(Format format, uint32_t w, uint32_t h) {
  Texture2DResource t(format, w, h, 0);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const auto unit = [](uint32_t k) { return float(k % 256) / 255.0f; };
      t.WriteFloat(0, x, y,
                   {unit(x * 255 / std::max(w - 1, 1u)), unit(y * 255 / std::max(h - 1, 1u)),
                    ((x / 3 + y / 3) % 2) ? 1.0f : 0.0f, unit((x * 7 + y * 13) % 256)},
                   format);
    }
  return t;
}

struct Chains {
  Texture2DResource emulated, device;
};

// The chain on the device and on the emulator with `profile`; `device` reuses a device chain.
Chains Run(Format format, uint32_t w, uint32_t h, bool srgb, const char* profile = "lavapipe",
           const Texture2DResource* device = nullptr) {
  Chains c{Source(format, w, h), device ? *device : Source(format, w, h)};
  DispatchOptions options;
  options.profile = ProfileByName(profile);
  examples::GenerateMips(c.emulated, srgb, options);
  if (!device) GenerateMipsOnVulkan(c.device, srgb);
  return c;
}

// A level's values in linear light (UNORM: /255; sRGB: the sRGB decode), as D3D's tolerance is
// stated on filtered values.
double Linear(const Texture2DResource& t, uint32_t mip, uint32_t x, uint32_t y, int c, bool srgb) {
  const Format view = srgb ? Format::R8G8B8A8_UNORM_SRGB : t.format();
  return t.ReadFloat(mip, x, y, view)[size_t(c)];
}

// The tolerance of level m in linear light. D3D11.3 §7.18.16.1: texel coordinates are snapped to
// at least 8 fraction bits, so a bilinear weight may be off by 2^-8 and a filtered value in [0, 1]
// by 2^-8; each store then rounds once more: 1/255 for UNORM (float -> UNORM may round half up or
// to even), up to 2.3/255 for sRGB (the decode's steepest step, at 1.0), 2^-11 for half. Level m
// is filtered from level m-1 of its own chain, so the bound grows by one step per level.
double Tolerance(Format f, bool srgb_channel, uint32_t mip) {
  const double store = f == Format::R8G8B8A8_UNORM ? (srgb_channel ? 2.3 : 1.0) / 255.0
                       : f == Format::R16G16B16A16_FLOAT ? std::ldexp(1.0, -11)
                                                         : 0.0;
  return mip * (std::ldexp(1.0, -8) + store);
}

// The largest linear-light difference of the chain relative to its level's tolerance (<= 1:
// within), and the worst absolute difference, for the message.
struct Worst {
  double ratio = 0, difference = 0;
  uint32_t mip = 0;
};
Worst WorstLevel(const Chains& c, bool srgb) {
  Worst w;
  for (uint32_t m = 1; m < c.emulated.mip_levels(); ++m)
    for (uint32_t y = 0; y < c.emulated.Height(m); ++y)
      for (uint32_t x = 0; x < c.emulated.Width(m); ++x)
        for (int ch = 0; ch < 4; ++ch) {
          const bool s = srgb && ch < 3;
          const double d = std::fabs(Linear(c.emulated, m, x, y, ch, s) -
                                     Linear(c.device, m, x, y, ch, s));
          const double r = d / Tolerance(c.emulated.format(), s, m);
          if (r > w.ratio) w = {r, d, m};
        }
  return w;
}

std::string Levels(const Chains& c) {
  std::string s;
  for (const LevelDifference& d : CompareMipChains(c.emulated, c.device))
    s += "\n  " + Describe(d, "emulator", "lavapipe");
  return s;
}

TEST_SUITE("mips_vulkan") {

TEST_CASE("GenerateMipsCS on lavapipe: power-of-two RGBA32F chains are bit-exact with the "
          "emulator's lavapipe profile") {
  WAVEEMU_REQUIRE_LAVAPIPE_OR_SKIP();
  for (auto [w, h] : {std::pair{16u, 16u}, {64u, 32u}, {8u, 1u}}) {
    const Chains c = Run(Format::R32G32B32A32_FLOAT, w, h, false);
    const auto levels = CompareMipChains(c.emulated, c.device);
    MESSAGE(fmt::format("R32G32B32A32_FLOAT {}x{}:{}", w, h, Levels(c)));
    for (const LevelDifference& d : levels) {
      INFO(Describe(d, "emulator", "lavapipe"));
      CHECK(d.max_distance == 0);
    }
  }
}

TEST_CASE("GenerateMipsCS on lavapipe: odd sizes, RGBA16F and R8G8B8A8 with and without sRGB are "
          "bit-exact with the lavapipe profile, and the spec profile is within D3D's filtering "
          "tolerance") {
  WAVEEMU_REQUIRE_LAVAPIPE_OR_SKIP();
  struct Case {
    Format format;
    uint32_t w, h;
    bool srgb;
  };
  const Case cases[] = {
      {Format::R32G32B32A32_FLOAT, 3, 5, false},  {Format::R32G32B32A32_FLOAT, 17, 9, false},
      {Format::R8G8B8A8_UNORM, 16, 16, false},    {Format::R8G8B8A8_UNORM, 3, 5, false},
      {Format::R8G8B8A8_UNORM, 33, 20, false},    {Format::R8G8B8A8_UNORM, 16, 16, true},
      {Format::R8G8B8A8_UNORM, 33, 20, true},     {Format::R16G16B16A16_FLOAT, 12, 7, false},
  };
  for (const Case& k : cases) {
    const std::string name = fmt::format("{} {}x{}{}", InfoOf(k.format).name, k.w, k.h,
                                         k.srgb ? " sRGB" : "");
    const Chains c = Run(k.format, k.w, k.h, k.srgb);
    MESSAGE(fmt::format("{}, lavapipe profile:{}", name, Levels(c)));
    for (const LevelDifference& d : CompareMipChains(c.emulated, c.device)) {
      INFO(name, ": ", Describe(d, "emulator", "lavapipe"));
      CHECK(d.max_distance == 0);
    }
    const Chains spec = Run(k.format, k.w, k.h, k.srgb, "spec", &c.device);
    const Worst worst = WorstLevel(spec, k.srgb);
    MESSAGE(fmt::format("{}, spec profile: worst linear difference {:.3g} at level {}, {:.0f}% of "
                        "that level's tolerance", name, worst.difference, worst.mip,
                        100 * worst.ratio));
    INFO(name, ", spec profile:", Levels(spec));
    CHECK(worst.ratio <= 1.0);
  }
}

}  // TEST_SUITE

}  // namespace
}  // namespace waveemu::oracle

#endif
