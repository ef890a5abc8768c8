// test_nan_math.cpp -- the profile policies probe_nan_math measured (docs/gpu_runs/
// 2026-11-23-h100-run10/): float-to-int conversions (`float_to_int`), the NaN of f32tof16 and of
// the math functions a driver computes in software (`library_nan`, `nan_result`). The expected
// values are hand-worked tables from the rules as the devices showed them, not computed by the
// emulator's code.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>

using namespace waveemu;

namespace {

float FromBits(uint32_t b) { return std::bit_cast<float>(b); }

struct Conversion {
  uint32_t in;                         // float bits
  int32_t d3d_int;                     // D3D ftoi: NaN 0, saturating (spec, the H100)
  uint32_t d3d_uint;                   // D3D ftou
  uint32_t x86_int, x86_uint;          // cvttps2dq / cvttps2udq (lavapipe)
};

constexpr uint32_t kIntMin = 0x80000000u, kAllOnes = 0xffffffffu;
constexpr Conversion kConversions[] = {
    {0x7fa01234u, 0, 0u, kIntMin, kAllOnes},                       // signalling NaN
    {0xffc05678u, 0, 0u, kIntMin, kAllOnes},                       // negative quiet NaN
    {0x7f800000u, 2147483647, kAllOnes, kIntMin, kAllOnes},        // +inf
    {0xff800000u, -2147483647 - 1, 0u, kIntMin, kAllOnes},         // -inf
    {0x80000000u, 0, 0u, 0u, 0u},                                  // -0
    {0x3fc00000u, 1, 1u, 1u, 1u},                                  // 1.5
    {0xbfc00000u, -1, 0u, kAllOnes, kAllOnes},                     // -1.5: (uint) -1 on x86
    {0xbf000000u, 0, 0u, 0u, 0u},                                  // -0.5 truncates to -0
    {0xbf7fffffu, 0, 0u, 0u, 0u},                                  // -0.99999994
    {0xc0000000u, -2, 0u, 0xfffffffeu, kAllOnes},                  // -2
    {0x4f000000u, 2147483647, 0x80000000u, kIntMin, 0x80000000u},  // 2^31
    {0x4effffffu, 2147483520, 2147483520u, 2147483520u, 2147483520u},  // below 2^31
    {0xcf000000u, -2147483647 - 1, 0u, kIntMin, kAllOnes},         // -2^31: fits int
    {0xcf000001u, -2147483647 - 1, 0u, kIntMin, kAllOnes},         // below -2^31
    {0x4f7fffffu, 2147483647, 4294967040u, kIntMin, 4294967040u},  // below 2^32
    {0x4f800000u, 2147483647, kAllOnes, kIntMin, kAllOnes},        // 2^32
};
constexpr int kC = int(sizeof(kConversions) / sizeof(kConversions[0]));

struct Converted {
  Int<kC> to_int;
  Uint<kC> to_uint;
};

Converted Convert() {
  Float<kC> x;
  for (int t = 0; t < kC; ++t) x.set_lane(t, FromBits(kConversions[t].in));
  return {Int<kC>(x), Uint<kC>(x)};
}

}  // namespace

TEST_CASE("(int) and (uint) of fp32 lanes saturate with NaN 0 (D3D), or give x86's 0x80000000 and 0xffffffff under lavapipe") {
  Converted spec, nvidia, lavapipe;
  test::RunGroup<kC>(4, [&] { spec = Convert(); }, SpecProfile());
  test::RunGroup<kC>(4, [&] { nvidia = Convert(); }, NvidiaProfile());
  test::RunGroup<kC>(4, [&] { lavapipe = Convert(); }, LavapipeProfile());
  const Converted outside = Convert();
  for (int t = 0; t < kC; ++t) {
    const Conversion& c = kConversions[t];
    INFO(fmt::format("float {:#010x}", c.in));
    CHECK(spec.to_int.lane(t) == c.d3d_int);
    CHECK(spec.to_uint.lane(t) == c.d3d_uint);
    CHECK(nvidia.to_int.lane(t) == c.d3d_int);
    CHECK(nvidia.to_uint.lane(t) == c.d3d_uint);
    CHECK(outside.to_int.lane(t) == c.d3d_int);
    CHECK(outside.to_uint.lane(t) == c.d3d_uint);
    CHECK(uint32_t(lavapipe.to_int.lane(t)) == c.x86_int);
    CHECK(lavapipe.to_uint.lane(t) == c.x86_uint);
  }
  // Other conversions keep D3D's rule under lavapipe (nothing measured them).
  Int<4> from_double;
  test::RunGroup<4>(4, [&] { from_double = Int<4>(Double<4>(1e300)); }, LavapipeProfile());
  CHECK(from_double.lane(0) == 2147483647);
}

TEST_CASE("float_to_int reaches uniform floats and vector casts") {
  const float nan = FromBits(0x7fc00000u);
  Uint<4> uniform_nan, uniform_nan_spec;
  Int<4> uniform_big;
  Int3<4> vector_cast;
  test::RunGroup<4>(4, [&] {
    uniform_nan = Uint<4>(nan);  // a plain float, converted as a per-thread one would be
    uniform_big = Int<4>(3e9f);
    vector_cast = Int3<4>(Float3<4>(nan, -2.0f, 3e9f));
  }, LavapipeProfile());
  test::RunGroup<4>(4, [&] { uniform_nan_spec = Uint<4>(nan); }, SpecProfile());
  CHECK(uniform_nan.lane(0) == kAllOnes);
  CHECK(uint32_t(uniform_big.lane(0)) == kIntMin);
  CHECK(uint32_t(vector_cast.lane(0)[0]) == kIntMin);
  CHECK(vector_cast.lane(0)[1] == -2);
  CHECK(uint32_t(vector_cast.lane(0)[2]) == kIntMin);
  CHECK(uniform_nan_spec.lane(0) == 0u);
}

TEST_CASE("f32tof16 of a NaN: x86's half under spec, 0x7e00 with the sign under lavapipe, 0x7fff under nvidia") {
  // sNaN 0x7fa01234: x86 keeps the sign and the fraction's top ten bits (0x100) and sets the
  // quiet bit (0x200): 0x7f00. -qNaN 0xffc05678: 0xfe00 | 0x02 = 0xfe02.
  struct Case {
    uint32_t in;
    uint32_t spec, lavapipe, nvidia;
  };
  constexpr Case kCases[] = {
      {0x7fa01234u, 0x7f00u, 0x7e00u, 0x7fffu},
      {0xffc05678u, 0xfe02u, 0xfe00u, 0x7fffu},
      {0x7fc00000u, 0x7e00u, 0x7e00u, 0x7fffu},
      {0x3f800000u, 0x3c00u, 0x3c00u, 0x3c00u},  // 1
      {0xff800000u, 0xfc00u, 0xfc00u, 0xfc00u},  // -inf
      {0x477ff000u, 0x7c00u, 0x7c00u, 0x7c00u},  // 65520 rounds to inf
      {0x33400000u, 0x0001u, 0x0001u, 0x0001u},  // 1.5 * 2^-25: the smallest denormal
  };
  constexpr int kN = int(sizeof(kCases) / sizeof(kCases[0]));
  Float<kN> x;
  for (int t = 0; t < kN; ++t) x.set_lane(t, FromBits(kCases[t].in));
  Uint<kN> spec, lavapipe, nvidia;
  test::RunGroup<kN>(4, [&] { spec = f32tof16(x); }, SpecProfile());
  test::RunGroup<kN>(4, [&] { lavapipe = f32tof16(x); }, LavapipeProfile());
  test::RunGroup<kN>(4, [&] { nvidia = f32tof16(x); }, NvidiaProfile());
  for (int t = 0; t < kN; ++t) {
    INFO(fmt::format("float {:#010x}", kCases[t].in));
    CHECK(spec.lane(t) == kCases[t].spec);
    CHECK(lavapipe.lane(t) == kCases[t].lavapipe);
    CHECK(nvidia.lane(t) == kCases[t].nvidia);
  }
}

TEST_CASE("log2, log, log10, sin, cos and tan give 0x7fc00000 for NaN results under lavapipe; exp2, rsqrt and asin keep x86's NaN") {
  // sNaN, -qNaN, -inf, -1: NaNs from log2, log, log10 and rsqrt for all four, from sin, cos and
  // tan for the first three, from exp2 and asin for the two NaNs.
  constexpr uint32_t kIn[] = {0x7fa01234u, 0xffc05678u, 0xff800000u, 0xbf800000u};
  Float<4> x;
  for (int t = 0; t < 4; ++t) x.set_lane(t, FromBits(kIn[t]));
  struct Out {
    Float<4> log2_, log_, log10_, sin_, cos_, tan_, exp2_, rsqrt_, asin_;
  };
  const auto run = [&] {
    return Out{log2(x), log(x), log10(x), sin(x), cos(x), tan(x), exp2(x), rsqrt(x), asin(x)};
  };
  Out lavapipe, spec, nvidia;
  test::RunGroup<4>(4, [&] { lavapipe = run(); }, LavapipeProfile());
  test::RunGroup<4>(4, [&] { spec = run(); }, SpecProfile());
  test::RunGroup<4>(4, [&] { nvidia = run(); }, NvidiaProfile());
  const auto bits = [](const Float<4>& v, int t) { return std::bit_cast<uint32_t>(v.lane(t)); };
  for (int t = 0; t < 4; ++t) {
    INFO(fmt::format("float {:#010x}", kIn[t]));
    for (const Float<4>* v : {&lavapipe.log2_, &lavapipe.log_, &lavapipe.log10_})
      CHECK(bits(*v, t) == 0x7fc00000u);
    if (t < 3)
      for (const Float<4>* v : {&lavapipe.sin_, &lavapipe.cos_, &lavapipe.tan_})
        CHECK(bits(*v, t) == 0x7fc00000u);
    CHECK(bits(nvidia.log2_, t) == 0x7fffffffu);
    CHECK(bits(nvidia.rsqrt_, t) == 0x7fffffffu);
  }
  CHECK(lavapipe.sin_.lane(3) == doctest::Approx(-0.8414709848).epsilon(1e-7));  // sin(-1)
  CHECK(bits(nvidia.exp2_, 1) == 0x7fffffffu);
  CHECK(bits(nvidia.asin_, 0) == 0x7fffffffu);
  // A NaN operand's payload, quieted (x86), where the policy does not reach: exp2 and asin
  // under lavapipe, and every function under spec.
  CHECK(bits(lavapipe.exp2_, 0) == 0x7fe01234u);
  CHECK(bits(lavapipe.exp2_, 1) == 0xffc05678u);
  CHECK(bits(lavapipe.rsqrt_, 0) == 0x7fe01234u);
  CHECK(bits(lavapipe.asin_, 0) == 0x7fe01234u);
  CHECK(bits(spec.log2_, 0) == 0x7fe01234u);
  CHECK(bits(spec.sin_, 1) == 0xffc05678u);
  // Numbers are untouched: log2(8) is 3 everywhere.
  Float<4> three;
  test::RunGroup<4>(4, [&] { three = log2(Float<4>(8.0f)); }, LavapipeProfile());
  CHECK(three.lane(0) == 3.0f);
}
