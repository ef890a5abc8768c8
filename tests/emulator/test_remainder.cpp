// test_remainder.cpp -- % and fmod of floats under each profile's FunctionExpansion. DXC compiles
// % to DXIL FRem (C's fmod: exact, the dividend's sign) and expands fmod itself; glslang compiles
// both to OpFMod, which lavapipe computes as x - y * floor(x / y), each step rounded, and the H100
// as mad(-y, floor(x / y), x), fused, with its table division (fp32) or IEEE division (fp64).
// The device words are copied out of tests/golden/{lavapipe,nvidia}/probe_remainder/ and run 15's
// double_remainder records (docs/gpu_runs/2026-11-23-h100-run15/), not computed by the emulator;
// test_golden replays the whole fp32 probe.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <bit>
#include <cstdint>

using namespace waveemu;

namespace {

template <class Bits>
struct Pair {
  int tid;                 // the thread of the probe
  Bits a, b;               // dividend and divisor
  Bits llvmpipe, h100;     // the devices' a % b (and fmod(a, b) for fp32)
};

// probe_remainder's threads: random pairs where the two devices differ (0, 13, 17, 25: the fused
// product; 28, 39: the H100's table division puts floor(a / b) elsewhere), -0 (49), a zero
// divisor (50), a denormal the H100 flushes (57, 58: on lavapipe 7 / 1.04e-40 overflows, so
// 7 - inf).
constexpr Pair<uint32_t> kFloat[] = {
    {0, 0x461ee570u, 0x4258e00eu, 0x41f38c00u, 0x41f38b8cu},
    {13, 0xbf6bac8du, 0xb7f7fde3u, 0xb74f0000u, 0xb74f1f28u},
    {17, 0xc1ca2e7bu, 0x36db4925u, 0x36000000u, 0x35ca4cacu},
    {25, 0x40c958e4u, 0x3c7322e3u, 0x00000000u, 0x32000000u},
    {28, 0xc2887e0eu, 0xbe969cc0u, 0x00000000u, 0xbe969cc0u},
    {39, 0xc3a758d0u, 0xbf0f47c3u, 0xbf0f4600u, 0x37c10000u},
    {49, 0x80000000u, 0x40400000u, 0x00000000u, 0x00000000u},
    {50, 0x40a00000u, 0x00000000u, 0xffc00000u, 0x7fffffffu},
    {57, 0x00012345u, 0x40400000u, 0x00012345u, 0x00000000u},
    {58, 0x40e00000u, 0x00012345u, 0xff800000u, 0x7fffffffu},
};

// double_remainder's threads: the fused product (1, 5, 9, 25), and FLT_MAX-like 1.8e308 % 1.5,
// where lavapipe's y * floor(x / y) overflows (63).
constexpr Pair<uint64_t> kDouble[] = {
    {1, 0xbe787b3d90b7563eull, 0x3d84473248e39f26ull, 0x3d7f22cc88dc0000ull, 0x3d7f22cc88dc0eacull},
    {5, 0x405f8821a9786d85ull, 0xbfbf7f3a6924e350ull, 0xbfbb61738420f400ull, 0xbfbb61738420f2a0ull},
    {9, 0x41f6d17abe13ef0cull, 0xbfaf0a9fed2548e9ull, 0xbfa31a4000000000ull, 0xbfa31a34fa23a5f7ull},
    {25, 0x40c6d940c60a91c0ull, 0x404bfca2a1bc1aa4ull, 0x0000000000000000ull, 0x3d4c000000000000ull},
    {63, 0x7fefffffffffffffull, 0x3ff8000000000000ull, 0xfff0000000000000ull, 0xfc90000000000000ull},
};

struct FloatResults {
  uint32_t mod, fmod;
};

FloatResults Float32(uint32_t a, uint32_t b, const DeviceProfile& profile) {
  FloatResults r{};
  test::RunGroup<1>(1, [&] {
    const Float<1> x(std::bit_cast<float>(a)), y(std::bit_cast<float>(b));
    r.mod = std::bit_cast<uint32_t>((x % y).lane(0));
    r.fmod = std::bit_cast<uint32_t>(fmod(x, y).lane(0));
  }, profile);
  return r;
}

uint64_t Double64(uint64_t a, uint64_t b, const DeviceProfile& profile) {
  uint64_t r = 0;
  test::RunGroup<1>(1, [&] {
    const Double<1> x(std::bit_cast<double>(a)), y(std::bit_cast<double>(b));
    r = std::bit_cast<uint64_t>((x % y).lane(0));
  }, profile);
  return r;
}

}  // namespace

TEST_CASE("fp32 % and fmod give each device's words") {
  for (const auto& p : kFloat) {
    for (const auto& [profile, name, want] :
         {std::tuple{NvidiaProfile(), "nvidia", p.h100}, {LavapipeProfile(), "lavapipe", p.llvmpipe}}) {
      const FloatResults got = Float32(p.a, p.b, profile);
      INFO(fmt::format("{} thread {}: {:#010x} % {:#010x}, device {:#010x}", name, p.tid, p.a, p.b,
                       want));
      CHECK(got.mod == want);
      CHECK(got.fmod == want);
    }
  }
}

TEST_CASE("fp64 % gives each device's words") {
  for (const auto& p : kDouble) {
    INFO(fmt::format("thread {}: {:#018x} % {:#018x}", p.tid, p.a, p.b));
    CHECK(Double64(p.a, p.b, NvidiaProfile()) == p.h100);
    CHECK(Double64(p.a, p.b, LavapipeProfile()) == p.llvmpipe);
  }
}

TEST_CASE("OpFMod takes the divisor's sign; DXIL FRem the dividend's (hand-worked)") {
  // -7 % 3: OpFMod = -7 - 3 * floor(-7 / 3) = -7 + 9 = 2; FRem = -7 - 3 * trunc(-7 / 3) = -1.
  // 7 % -3: -2 and 1. -7 % -3: -1 both. -0 % 3: OpFMod -0 - 3 * -0 = +0; FRem keeps -0.
  struct Case {
    float a, b, opfmod, frem;
  };
  for (const Case c : {Case{-7, 3, 2, -1}, Case{7, -3, -2, 1}, Case{-7, -3, -1, -1},
                       Case{-0.0f, 3, 0.0f, -0.0f}}) {
    INFO(c.a, " % ", c.b);
    for (const DeviceProfile& device : {NvidiaProfile(), LavapipeProfile()}) {
      const FloatResults f = Float32(std::bit_cast<uint32_t>(c.a), std::bit_cast<uint32_t>(c.b), device);
      CHECK(f.mod == std::bit_cast<uint32_t>(c.opfmod));
      CHECK(f.fmod == std::bit_cast<uint32_t>(c.opfmod));
      CHECK(Double64(std::bit_cast<uint64_t>(double(c.a)), std::bit_cast<uint64_t>(double(c.b)),
                     device) == std::bit_cast<uint64_t>(double(c.opfmod)));
    }
    const FloatResults spec = Float32(std::bit_cast<uint32_t>(c.a), std::bit_cast<uint32_t>(c.b), SpecProfile());
    CHECK(spec.mod == std::bit_cast<uint32_t>(c.frem));
    CHECK(Double64(std::bit_cast<uint64_t>(double(c.a)), std::bit_cast<uint64_t>(double(c.b)),
                   SpecProfile()) == std::bit_cast<uint64_t>(double(c.frem)));
  }
}

TEST_CASE("what tells the devices apart: the fused product, then the H100's division") {
  // The nvidia profile without fused mad: thread 0 loses the H100's word (the product y * q
  // rounded before the subtraction gives lavapipe's); with DXC's expansion both profiles lose
  // theirs (FRem is exact and takes the dividend's sign).
  DeviceProfile unfused = NvidiaProfile();
  unfused.fuse_multiply_add = false;
  CHECK(Float32(kFloat[0].a, kFloat[0].b, unfused).mod == kFloat[0].llvmpipe);
  CHECK(Double64(kDouble[0].a, kDouble[0].b, unfused) == kDouble[0].llvmpipe);
  // Thread 39: lavapipe's quotient floors to 597, the H100's table quotient to 598. With IEEE
  // division the fused form keeps 597, and a - 597 b is exact: the exact remainder 0xbf0f4641
  // (worked out with fractions), neither device's word.
  DeviceProfile ieee_division = NvidiaProfile();
  ieee_division.divide_sqrt = DivideSqrt::kCorrectlyRounded;
  CHECK(Float32(kFloat[5].a, kFloat[5].b, ieee_division).mod == 0xbf0f4641u);
  // Thread 17 (-25.27 % 6.5e-6): FRem's exact remainder takes the dividend's sign, negative,
  // where both devices' words (0x35ca4cac, 0x36000000) are positive.
  for (DeviceProfile device : {NvidiaProfile(), LavapipeProfile()}) {
    device.function_expansion = FunctionExpansion::kDxc;
    CHECK(std::bit_cast<float>(Float32(kFloat[2].a, kFloat[2].b, device).mod) < 0);
  }
  // A profile with Mesa's form and fused mad still rounds each step: thread 0's lavapipe word.
  DeviceProfile mesa_fused = LavapipeProfile();
  mesa_fused.fuse_multiply_add = true;
  CHECK(Float32(kFloat[0].a, kFloat[0].b, mesa_fused).mod == kFloat[0].llvmpipe);
}

TEST_CASE("a uniform fmod follows the running group's profile") {
  float device = 0, spec = 0;
  test::RunGroup<1>(1, [&] { device = waveemu::fmod(-7.0f, 3.0f); }, LavapipeProfile());
  test::RunGroup<1>(1, [&] { spec = waveemu::fmod(-7.0f, 3.0f); }, SpecProfile());
  CHECK(device == 2.0f);
  // DXC's expansion: -frac(7 / 3) * 3 with 7 / 3 rounded, so not exactly -1 but -(1 - 2^-22)
  // (docs/quick_reference.md, fmod).
  CHECK(spec == -(1 - 0x1p-22f));
}

TEST_CASE("half keeps FRem and DXC's fmod; uniform vectors follow the profile") {
  // glslang's half is a 32-bit float, so nothing measured a 16-bit OpFMod: half keeps kDxc's
  // forms under every profile. -7 % 3 = -1 (FRem); fmod(-7, 3) = -frac(7 / 3) * 3 rounded in
  // half steps: 7 / 3 rounds to 2.333984375, frac 0.333984375, times 3 = 1.001953125 (exact in
  // half), so -1.001953125.
  for (const DeviceProfile& device : {NvidiaProfile(), LavapipeProfile()}) {
    float mod = 0, fm = 0;
    float3 v{};
    test::RunGroup<1>(1, [&] {
      const Half<1> x(half(-7.0f)), y(half(3.0f));
      mod = float((x % y).lane(0));
      fm = float(fmod(x, y).lane(0));
      v = float3{-7.0f, 7.0f, -0.0f} % float3{3.0f, -3.0f, 3.0f};
    }, device);
    CHECK(mod == -1.0f);
    CHECK(fm == -1.001953125f);
    // Uniform float3 % float3 is OpFMod too (hand-worked above): 2, -2, +0.
    CHECK(v.x == 2.0f);
    CHECK(v.y == -2.0f);
    CHECK(std::bit_cast<uint32_t>(v.z) == 0u);
  }
}
