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
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

using namespace waveemu;

namespace {

float FromBits(uint32_t b) { return std::bit_cast<float>(b); }

struct Conversion {
  uint32_t in;                         // float bits
  int32_t d3d_int;                     // D3D ftoi: NaN 0, saturating (spec, the H100)
  uint32_t d3d_uint;                   // D3D ftou
  uint32_t x86_int, x86_uint;          // cvttps2dq / cvttps2udq (lavapipe on an AVX-512 host)
  uint32_t avx2_uint;  // the low half of a 64-bit cvttss2si, 0 out of its range (AVX2 host)
};

constexpr uint32_t kIntMin = 0x80000000u, kAllOnes = 0xffffffffu;
constexpr Conversion kConversions[] = {
    {0x7fa01234u, 0, 0u, kIntMin, kAllOnes, 0u},                       // signalling NaN
    {0xffc05678u, 0, 0u, kIntMin, kAllOnes, 0u},                       // negative quiet NaN
    {0x7f800000u, 2147483647, kAllOnes, kIntMin, kAllOnes, 0u},        // +inf
    {0xff800000u, -2147483647 - 1, 0u, kIntMin, kAllOnes, 0u},         // -inf
    {0x80000000u, 0, 0u, 0u, 0u, 0u},                                  // -0
    {0x3fc00000u, 1, 1u, 1u, 1u, 1u},                                  // 1.5
    {0xbfc00000u, -1, 0u, kAllOnes, kAllOnes, kAllOnes},               // -1.5: (uint) -1 on x86
    {0xbf000000u, 0, 0u, 0u, 0u, 0u},                                  // -0.5 truncates to -0
    {0xbf7fffffu, 0, 0u, 0u, 0u, 0u},                                  // -0.99999994
    {0xc0000000u, -2, 0u, 0xfffffffeu, kAllOnes, 0xfffffffeu},         // -2
    {0x4f000000u, 2147483647, 0x80000000u, kIntMin, 0x80000000u, 0x80000000u},  // 2^31
    {0x4effffffu, 2147483520, 2147483520u, 2147483520u, 2147483520u, 2147483520u},  // < 2^31
    {0xcf000000u, -2147483647 - 1, 0u, kIntMin, kAllOnes, kIntMin},    // -2^31: fits int
    // -2^31 - 256: 2^32 - 2147483904 = 0x7fffff00 is the 64-bit value's low half.
    {0xcf000001u, -2147483647 - 1, 0u, kIntMin, kAllOnes, 0x7fffff00u},
    {0x4f7fffffu, 2147483647, 4294967040u, kIntMin, 4294967040u, 4294967040u},  // below 2^32
    {0x4f800000u, 2147483647, kAllOnes, kIntMin, kAllOnes, 0u},        // 2^32: low half 0
    {0x7f7fffffu, 2147483647, kAllOnes, kIntMin, kAllOnes, 0u},        // FLT_MAX: beyond 2^63
    {0xff7fffffu, -2147483647 - 1, 0u, kIntMin, kAllOnes, 0u},         // -FLT_MAX
    {0x5e800000u, 2147483647, kAllOnes, kIntMin, kAllOnes, 0u},        // 2^62: low half 0
    {0x4f800001u, 2147483647, kAllOnes, kIntMin, kAllOnes, 512u},      // 2^32 + 512
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

DeviceProfile WithFloatToInt(FloatToInt rule) {
  DeviceProfile p = SpecProfile();
  p.float_to_int = rule;
  return p;
}

/// Whether /proc/cpuinfo's flags list avx512f, as `grep -w` reads it for the CMake CPU-flag gates:
/// a reading of the host independent of the emulator's own (nullopt where there is none).
std::optional<bool> CpuinfoHasAvx512f() {
  std::ifstream in("/proc/cpuinfo");
  if (!in) return std::nullopt;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line);
    for (std::string w; words >> w;)
      if (w == "avx512f") return true;
    return false;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("(int) and (uint) of fp32 lanes saturate with NaN 0 (D3D), or give x86's 0x80000000 and 0xffffffff, or an AVX2 host's low half of 64 bits") {
  Converted spec, nvidia, x86, avx2;
  test::RunGroup<kC>(4, [&] { spec = Convert(); }, SpecProfile());
  test::RunGroup<kC>(4, [&] { nvidia = Convert(); }, NvidiaProfile());
  test::RunGroup<kC>(4, [&] { x86 = Convert(); }, WithFloatToInt(FloatToInt::kX86));
  test::RunGroup<kC>(4, [&] { avx2 = Convert(); }, WithFloatToInt(FloatToInt::kX86Avx2));
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
    CHECK(uint32_t(x86.to_int.lane(t)) == c.x86_int);
    CHECK(x86.to_uint.lane(t) == c.x86_uint);
    CHECK(uint32_t(avx2.to_int.lane(t)) == c.x86_int);
    CHECK(avx2.to_uint.lane(t) == c.avx2_uint);
  }
  // Other conversions keep D3D's rule under lavapipe (nothing measured them).
  Int<4> from_double;
  test::RunGroup<4>(4, [&] { from_double = Int<4>(Double<4>(1e300)); }, LavapipeProfile());
  CHECK(from_double.lane(0) == 2147483647);
}

TEST_CASE("the lavapipe profile converts float to int as llvmpipe does on this host") {
  const std::optional<bool> avx512f = CpuinfoHasAvx512f();
  if (!avx512f) {
    MESSAGE("not checked: no flags line in /proc/cpuinfo to read the host from");
    return;
  }
  MESSAGE(fmt::format("this host {} AVX-512F", *avx512f ? "has" : "lacks"));
  CHECK(LavapipeProfile().float_to_int == (*avx512f ? FloatToInt::kX86 : FloatToInt::kX86Avx2));
  Converted lavapipe;
  test::RunGroup<kC>(4, [&] { lavapipe = Convert(); }, LavapipeProfile());
  for (int t = 0; t < kC; ++t) {
    const Conversion& c = kConversions[t];
    INFO(fmt::format("float {:#010x}", c.in));
    CHECK(uint32_t(lavapipe.to_int.lane(t)) == c.x86_int);
    CHECK(lavapipe.to_uint.lane(t) == (*avx512f ? c.x86_uint : c.avx2_uint));
  }
}

TEST_CASE("float_to_int reaches uniform floats and vector casts") {
  const float nan = FromBits(0x7fc00000u);
  struct Result {
    Uint<4> uniform_nan, uniform_minus_two;
    Int<4> uniform_big;
    Int3<4> vector_cast;
    Uint3<4> vector_cast_uint;
  };
  const auto run = [&](const DeviceProfile& profile) {
    Result r;
    test::RunGroup<4>(4, [&] {
      r.uniform_nan = Uint<4>(nan);  // a plain float, converted as a per-thread one would be
      r.uniform_minus_two = Uint<4>(-2.0f);
      r.uniform_big = Int<4>(3e9f);
      r.vector_cast = Int3<4>(Float3<4>(nan, -2.0f, 3e9f));
      r.vector_cast_uint = Uint3<4>(Float3<4>(nan, -2.0f, 3e9f));
    }, profile);
    return r;
  };
  const Result x86 = run(WithFloatToInt(FloatToInt::kX86));
  const Result avx2 = run(WithFloatToInt(FloatToInt::kX86Avx2));
  const Result spec = run(SpecProfile());
  for (const Result* r : {&x86, &avx2}) {
    CHECK(uint32_t(r->uniform_big.lane(0)) == kIntMin);
    CHECK(uint32_t(r->vector_cast.lane(0)[0]) == kIntMin);
    CHECK(r->vector_cast.lane(0)[1] == -2);
    CHECK(uint32_t(r->vector_cast.lane(0)[2]) == kIntMin);
    CHECK(r->vector_cast_uint.lane(0)[2] == 3000000000u);
  }
  CHECK(x86.uniform_nan.lane(0) == kAllOnes);
  CHECK(x86.uniform_minus_two.lane(0) == kAllOnes);
  CHECK(x86.vector_cast_uint.lane(0)[0] == kAllOnes);
  CHECK(x86.vector_cast_uint.lane(0)[1] == kAllOnes);
  CHECK(avx2.uniform_nan.lane(0) == 0u);
  CHECK(avx2.uniform_minus_two.lane(0) == 0xfffffffeu);
  CHECK(avx2.vector_cast_uint.lane(0)[0] == 0u);
  CHECK(avx2.vector_cast_uint.lane(0)[1] == 0xfffffffeu);
  CHECK(spec.uniform_nan.lane(0) == 0u);
  CHECK(spec.uniform_minus_two.lane(0) == 0u);
  CHECK(spec.vector_cast_uint.lane(0)[1] == 0u);
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
