// test_denormals.cpp -- per-thread fp32 arithmetic under the profile's `float_denormals` and
// `nan_result`: under `nvidia` every operation but the rounding functions flushes denormal
// operands and results to a zero of their sign, and every NaN it gives is 0x7fffffff (the H100's
// rules, docs/gpu_runs/2026-11-23-h100-run8/ and -run9/); under `spec`, `lavapipe` and outside a
// group they are IEEE's, with x86's NaNs. Expected values come from scalar float arithmetic in
// this file, with the flush and the NaN written on the bits.
#include "emulator/emulator.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>

using namespace waveemu;

namespace {

// +0, -0, 1, -1, 0.5, 3, +inf, -inf, a quiet NaN, the denormals 2^-149, -2^-127 and the largest
// one, +-FLT_MIN, and 1.5 * FLT_MIN (whose difference with FLT_MIN, and half of FLT_MIN, are
// denormal results of normal operands).
constexpr uint32_t kValues[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u,
                                0x40400000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u,
                                0x80400000u, 0x007fffffu, 0x00800000u, 0x80800000u, 0x00c00000u};
constexpr int kV = int(sizeof(kValues) / sizeof(kValues[0]));
// lavapipe's log2 of each of kValues (MathLibrary::kLlvmpipe), recorded by running
// `Out[t] = asuint(log2(asfloat(In[t])))` over them on this machine's lavapipe (Mesa 22.3.6,
// session 31): a denormal reads its exponent field as -127 (2^-149 gives -127, 0x007fffff -126),
// -0 gives -inf, a negative or NaN 0x7fc00000.
constexpr uint32_t kLavapipeLog2[kV] = {
    0xff800000u, 0xff800000u, 0x00000000u, 0x7fc00000u, 0xbf800000u, 0x3fcae00du, 0x7f800000u,
    0x7fc00000u, 0x7fc00000u, 0xc2fe0000u, 0x7fc00000u, 0xc2fc0000u, 0xc2fc0000u, 0x7fc00000u,
    0xc2fad480u};
constexpr int kPairs = kV * kV;

uint32_t Bits(float v) { return std::bit_cast<uint32_t>(v); }

/// The H100's flush, on the bits: a zero exponent with a non-zero fraction keeps only its sign.
float Flushed(float v, bool flush) {
  const uint32_t b = Bits(v);
  return flush && (b & 0x7f800000u) == 0 ? std::bit_cast<float>(b & 0x80000000u) : v;
}

/// The H100's result: flushed, and any NaN (all-ones exponent, non-zero fraction) 0x7fffffff.
float DeviceResult(float v, bool nvidia) {
  const uint32_t b = Bits(v);
  if (nvidia && (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) != 0)
    return std::bit_cast<float>(0x7fffffffu);
  return Flushed(v, nvidia);
}

struct Results {
  Float<kPairs> add, sub, mul, div, mod, neg, abs_a, mad_a, sqrt_a, floor_a, ceil_a, frac_a, log2_a;
  Bool<kPairs> eq, ne, lt, le, gt, ge;
  Float<kPairs> uniform_mul{NoInit{}}, uniform_sqrt{NoInit{}};
};

Results Run(const Float<kPairs>& a, const Float<kPairs>& b) {
  Results r;
  r.add = a + b;
  r.sub = a - b;
  r.mul = a * b;
  r.div = a / b;
  r.mod = a % b;
  r.neg = -a;
  r.abs_a = abs(a);
  r.mad_a = mad(a, b, a);
  r.sqrt_a = sqrt(a);
  r.floor_a = floor(a);
  r.ceil_a = ceil(a);
  r.frac_a = frac(a);
  r.log2_a = log2(a);
  r.eq = a == b;
  r.ne = a != b;
  r.lt = a < b;
  r.le = a <= b;
  r.gt = a > b;
  r.ge = a >= b;
  for (int t = 0; t < kPairs; ++t) {  // uniform values: one thread of the same group
    r.uniform_mul.set_lane(t, (Float<1>(a.lane(t)) * Float<1>(b.lane(t))).lane(0));
    r.uniform_sqrt.set_lane(t, waveemu::sqrt(a.lane(t)));
  }
  return r;
}

/// Checks every result against scalar float arithmetic; `nvidia`: each operand and result
/// flushed (but for floor and ceil) and NaN results 0x7fffffff; `fused`: whether mad rounds once;
/// `opfmod`: % is glslang's OpFMod, x - y * floor(x / y) (test_remainder.cpp), not C's fmod;
/// `llvmpipe_log2`: log2 is lavapipe's (MathLibrary::kLlvmpipe): the reference is then the
/// driver's words, kLavapipeLog2.
void CheckAll(const Float<kPairs>& a, const Float<kPairs>& b, const Results& r, bool nvidia,
              bool fused, bool opfmod, bool llvmpipe_log2 = false) {
  const auto f = [&](float v) { return DeviceResult(v, nvidia); };
  for (int t = 0; t < kPairs; ++t) {
    const float x = Flushed(a.lane(t), nvidia), y = Flushed(b.lane(t), nvidia);
    INFO(fmt::format("thread {}: a = {:#010x}, b = {:#010x}, nvidia {}", t, Bits(a.lane(t)),
                     Bits(b.lane(t)), nvidia));
    CHECK(Bits(r.add.lane(t)) == Bits(f(x + y)));
    CHECK(Bits(r.sub.lane(t)) == Bits(f(x - y)));
    CHECK(Bits(r.mul.lane(t)) == Bits(f(x * y)));
    CHECK(Bits(r.div.lane(t)) == Bits(f(x / y)));
    const float quotient = std::floor(f(x / y));
    volatile float y_times_quotient = f(y * quotient);
    const float opfmod_xy = fused ? f(std::fma(-y, quotient, x)) : f(x - y_times_quotient);
    CHECK(Bits(r.mod.lane(t)) == Bits(opfmod ? opfmod_xy : f(std::fmod(x, y))));
    CHECK(Bits(r.neg.lane(t)) == Bits(f(std::bit_cast<float>(Bits(x) ^ 0x80000000u))));
    CHECK(Bits(r.abs_a.lane(t)) == Bits(f(std::bit_cast<float>(Bits(x) & 0x7fffffffu))));
    volatile float product = f(x * y);  // kept apart so that nothing contracts it
    CHECK(Bits(r.mad_a.lane(t)) == Bits(fused ? f(std::fma(x, y, x)) : f(product + x)));
    CHECK(Bits(r.sqrt_a.lane(t)) == Bits(f(std::sqrt(x))));
    // The rounding functions keep a denormal operand (floor(-2^-127) is -1 on the H100).
    const float floor_a = std::floor(a.lane(t));
    CHECK(Bits(r.floor_a.lane(t)) == Bits(f(floor_a)));
    CHECK(Bits(r.ceil_a.lane(t)) == Bits(f(std::ceil(a.lane(t)))));
    CHECK(Bits(r.frac_a.lane(t)) == Bits(f(x - f(floor_a))));  // frac(x) = x - floor(x)
    const uint32_t log2_a = llvmpipe_log2 ? kLavapipeLog2[t / kV] : Bits(f(std::log2(x)));
    CHECK(Bits(r.log2_a.lane(t)) == log2_a);
    CHECK(r.eq.lane(t) == (x == y));
    CHECK(r.ne.lane(t) == (x != y));
    CHECK(r.lt.lane(t) == (x < y));
    CHECK(r.le.lane(t) == (x <= y));
    CHECK(r.gt.lane(t) == (x > y));
    CHECK(r.ge.lane(t) == (x >= y));
    CHECK(Bits(r.uniform_mul.lane(t)) == Bits(f(x * y)));
    CHECK(Bits(r.uniform_sqrt.lane(t)) == Bits(f(std::sqrt(x))));
  }
}

void Pairs(Float<kPairs>& a, Float<kPairs>& b) {
  for (int t = 0; t < kPairs; ++t) {
    a.set_lane(t, std::bit_cast<float>(kValues[t / kV]));
    b.set_lane(t, std::bit_cast<float>(kValues[t % kV]));
  }
}

}  // namespace

TEST_CASE("the nvidia profile flushes fp32 denormals in per-thread arithmetic, comparisons and math, and gives 0x7fffffff for every NaN result") {
  Float<kPairs> a, b;
  Pairs(a, b);
  Results r;
  // The flushing and NaN rules alone, against IEEE arithmetic and the C library: the H100's own
  // division and sqrt tables are test_divide_sqrt.cpp's, its log2 test_h100_math.cpp's.
  DeviceProfile nvidia = NvidiaProfile();
  nvidia.divide_sqrt = DivideSqrt::kCorrectlyRounded;
  nvidia.math_library = MathLibrary::kHost;
  test::RunGroup<kPairs>(32, [&] { r = Run(a, b); }, nvidia);
  CheckAll(a, b, r, /*nvidia=*/true, /*fused=*/true, /*opfmod=*/true);
  // Hand-worked cases of the rule.
  const auto at = [](int i, int j) { return i * kV + j; };
  CHECK(Bits(r.add.lane(at(9, 0))) == 0u);            // 2^-149 + 0 = +0
  CHECK(Bits(r.sub.lane(at(14, 12))) == 0u);          // 1.5 FLT_MIN - FLT_MIN = +0, not 2^-127
  CHECK(Bits(r.mul.lane(at(12, 4))) == 0u);           // FLT_MIN * 0.5 = +0, not 2^-127
  CHECK(Bits(r.neg.lane(at(9, 0))) == 0x80000000u);   // -(2^-149) = -0
  CHECK(Bits(r.abs_a.lane(at(10, 0))) == 0u);         // abs(-2^-127) = +0
  CHECK(r.eq.lane(at(9, 0)));                         // 2^-149 == 0
  CHECK(!r.lt.lane(at(0, 9)));                        // 0 < 2^-149 is false
  CHECK(Bits(r.floor_a.lane(at(10, 0))) == 0xbf800000u);  // floor(-2^-127) = -1: not flushed
  CHECK(Bits(r.frac_a.lane(at(10, 0))) == 0x3f800000u);   // -0 - floor(-2^-127) = 1
  CHECK(Bits(r.ceil_a.lane(at(9, 0))) == 0x3f800000u);    // ceil(2^-149) = 1
  CHECK(std::isinf(r.log2_a.lane(at(9, 0))));         // log2(2^-149) = -inf, not -149
  CHECK(Bits(r.div.lane(at(0, 0))) == 0x7fffffffu);   // 0 / 0
  CHECK(Bits(r.add.lane(at(8, 2))) == 0x7fffffffu);   // NaN + 1, whatever the NaN's bits
  CHECK(Bits(r.neg.lane(at(8, 0))) == 0x7fffffffu);   // -NaN
  CHECK(Bits(r.sub.lane(at(6, 6))) == 0x7fffffffu);   // inf - inf
  CHECK(Bits(r.mod.lane(at(2, 9))) == 0x7fffffffu);   // 1 % 2^-149: the divisor flushes to 0
}

TEST_CASE("spec, lavapipe and code outside a group keep fp32 denormals and x86's NaNs; half, double, selects and bit casts keep denormals under nvidia") {
  Float<kPairs> a, b;
  Pairs(a, b);
  Results spec, lavapipe;
  test::RunGroup<kPairs>(32, [&] { spec = Run(a, b); }, SpecProfile());
  test::RunGroup<kPairs>(8, [&] { lavapipe = Run(a, b); }, LavapipeProfile());
  const Results outside = Run(a, b);
  CheckAll(a, b, spec, /*nvidia=*/false, /*fused=*/false, /*opfmod=*/false);
  CheckAll(a, b, lavapipe, /*nvidia=*/false, /*fused=*/false, /*opfmod=*/true,
           /*llvmpipe_log2=*/true);
  CheckAll(a, b, outside, /*nvidia=*/false, /*fused=*/false, /*opfmod=*/false);
  CHECK(Bits(lavapipe.mul.lane(12 * kV + 4)) == 0x00400000u);  // FLT_MIN * 0.5 = 2^-127
  CHECK(Bits(lavapipe.sub.lane(6 * kV + 6)) == 0xffc00000u);   // inf - inf: x86's NaN
  // log2(2^-149) on lavapipe: the exponent field reads -127 and y = 2^-23 / (2 + 2^-23), so
  // -127 + 1.7e-7, which rounds to -127; the host's log2 gives -149.
  CHECK(Bits(lavapipe.log2_a.lane(9 * kV)) == Bits(-127.0f));
  CHECK(Bits(spec.log2_a.lane(9 * kV)) == Bits(-149.0f));
  // 1 % 2^-149 (OpFMod): 1 / 2^-149 overflows to inf, so 1 - 2^-149 * inf = -inf (as lavapipe's
  // 7 % 1.04e-40 in probe_remainder); C's fmod gives +0 (spec).
  CHECK(Bits(lavapipe.mod.lane(2 * kV + 9)) == 0xff800000u);
  CHECK(Bits(spec.mod.lane(2 * kV + 9)) == 0u);

  const float denormal = std::bit_cast<float>(0x00400000u);
  Float<4> kept, selected;
  Uint<4> bits;
  Half<4> h;
  Double<4> d;
  test::RunGroup<4>(4, [&] {
    const Float<4> x(denormal);
    kept = x;
    selected = select(Bool<4>(true), x, Float<4>(1.0f));
    bits = asuint(x);
    h = Half<4>(half::FromBits(0x0001)) * Half<4>(half(1.0f));
    d = Double<4>(std::ldexp(1.0, -1060)) * Double<4>(1.0);
  }, NvidiaProfile());
  CHECK(Bits(kept.lane(0)) == 0x00400000u);
  CHECK(Bits(selected.lane(0)) == 0x00400000u);
  CHECK(bits.lane(0) == 0x00400000u);
  CHECK(h.lane(0).bits() == 0x0001);
  CHECK(d.lane(0) == std::ldexp(1.0, -1060));
}

TEST_CASE("float vectors flush component by component under nvidia") {
  const float denormal = std::bit_cast<float>(0x00400000u), smallest = std::bit_cast<float>(0x00800000u);
  Float3<4> sum, product;
  test::RunGroup<4>(4, [&] {
    const Float3<4> v(denormal, smallest, 1.0f);
    sum = v + Float3<4>(0.0f, 0.0f, 0.0f);
    product = v * Float3<4>(1.0f, 0.5f, 0.5f);
  }, NvidiaProfile());
  CHECK(Bits(sum.lane(0)[0]) == 0u);
  CHECK(Bits(sum.lane(0)[1]) == 0x00800000u);
  CHECK(Bits(product.lane(0)[1]) == 0u);  // FLT_MIN * 0.5
  CHECK(product.lane(0)[2] == 0.5f);
}
