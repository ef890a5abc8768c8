// test_math.cpp -- HLSL per-thread math intrinsics (emulator/math.h) against hand-worked values
// and scalar loops that spell out each rule.
#include "emulator/emulator.h"
#include "tests/support/half_reference.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace waveemu;

namespace {
constexpr int kN = 33;
const float kNan = std::numeric_limits<float>::quiet_NaN();

template <class T>
Lanes<T, kN> Random(uint64_t seed) {
  std::mt19937_64 rng(seed);
  Lanes<T, kN> x;
  for (int t = 0; t < kN; ++t) {
    const uint64_t r = rng();
    if constexpr (std::is_same_v<T, float>) {
      // Mostly ordinary numbers, some NaN, inf and -0.
      const float specials[] = {kNan, INFINITY, -INFINITY, -0.0f, 0.0f, 1.0f};
      x.set_lane(t, r % 5 == 0 ? specials[(r >> 8) % 6] : float(int64_t(r % 2001) - 1000) / 7.0f);
    } else {
      x.set_lane(t, T(r));
    }
  }
  return x;
}
}  // namespace

TEST_CASE("min and max ignore a NaN operand and otherwise pick the smaller or larger") {
  const Float<kN> a = Random<float>(1), b = Random<float>(2);
  const Float<kN> mn = min(a, b), mx = max(a, b);
  for (int t = 0; t < kN; ++t) {
    const float x = a.lane(t), y = b.lane(t);
    // D3D: min(x, NaN) = min(NaN, x) = x; both NaN: NaN.
    const float want_min = std::isnan(x) ? y : std::isnan(y) ? x : (y < x ? y : x);
    const float want_max = std::isnan(x) ? y : std::isnan(y) ? x : (x < y ? y : x);
    INFO("thread ", t, " a=", x, " b=", y);
    if (std::isnan(want_min)) CHECK(std::isnan(mn.lane(t)));
    else CHECK(mn.lane(t) == want_min);
    if (std::isnan(want_max)) CHECK(std::isnan(mx.lane(t)));
    else CHECK(mx.lane(t) == want_max);
  }
  CHECK(min(Float<kN>(kNan), 3.0f).lane(0) == 3.0f);
  CHECK(max(-2.0f, Float<kN>(kNan)).lane(5) == -2.0f);
  CHECK(min(Int<kN>(-5), 3).lane(0) == -5);
  CHECK(min(Uint<kN>(0xFFFFFFFFu), 3u).lane(0) == 3u);  // unsigned compare
  CHECK(max(Int16<kN>(int16_t(-1)), int16_t(1)).lane(0) == 1);
  CHECK(max(Uint64<kN>(~uint64_t(0)), uint64_t(1)).lane(0) == ~uint64_t(0));
  CHECK(min(Half<kN>(half::FromBits(0x7E00)), half(2.0f)).lane(0).bits() == half(2.0f).bits());
  CHECK(min(3u, 4u) == 3u);
  CHECK(max(1.0f, kNan) == 1.0f);
  const Float3<kN> v(1.0f, -2.0f, kNan);
  const Float3<kN> m = min(v, 0.0f);
  CHECK(m.lane(0) == std::array<float, 3>{0.0f, -2.0f, 0.0f});
}

TEST_CASE("a +0/-0 tie in min and max gives the second operand, for every float type") {
  // lavapipe's rule (tests/golden/lavapipe/probe_minmax): x86 minps/maxps return the second
  // operand when the two compare equal. Half lanes take the scalar path, float and double SIMD.
  const uint32_t pz = 0x00000000u, nz = 0x80000000u;
  auto bits = [](float x) { return std::bit_cast<uint32_t>(x); };
  const Float<kN> fp(0.0f), fn(-0.0f);
  CHECK(bits(min(fp, fn).lane(0)) == nz);
  CHECK(bits(min(fn, fp).lane(0)) == pz);
  CHECK(bits(max(fp, fn).lane(0)) == nz);
  CHECK(bits(max(fn, fp).lane(0)) == pz);
  CHECK(bits(saturate(fn).lane(0)) == pz);  // max(-0, +0) is +0
  const Double<kN> dp(0.0), dn(-0.0);
  CHECK(std::signbit(min(dp, dn).lane(1)));
  CHECK(!std::signbit(min(dn, dp).lane(1)));
  CHECK(std::signbit(max(dp, dn).lane(1)));
  CHECK(!std::signbit(max(dn, dp).lane(1)));
  const Half<kN> hp(half::FromBits(0x0000)), hn(half::FromBits(0x8000));
  CHECK(min(hp, hn).lane(2).bits() == 0x8000);
  CHECK(min(hn, hp).lane(2).bits() == 0x0000);
  CHECK(max(hp, hn).lane(2).bits() == 0x8000);
  CHECK(max(hn, hp).lane(2).bits() == 0x0000);
  CHECK(saturate(hn).lane(2).bits() == 0x0000);
  // Uniform scalars follow the same rule.
  CHECK(bits(waveemu::min(0.0f, -0.0f)) == nz);
  CHECK(bits(waveemu::max(-0.0f, 0.0f)) == pz);
  CHECK(bits(waveemu::saturate(-0.0f)) == pz);
  CHECK(waveemu::min(half::FromBits(0x0000), half::FromBits(0x8000)).bits() == 0x8000);
}

namespace {
// The H100's min/max on one pair of floats, spelled out case by case from its recorded bits
// (docs/gpu_runs/2026-11-23-h100-run7/results.md; run 8 recorded tests/golden/nvidia/probe_minmax).
uint32_t H100MinMaxBits(bool is_max, float a, float b) {
  const auto flushed = [](float v) {
    return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
  };
  a = flushed(a);
  b = flushed(b);
  if (std::isnan(a) && std::isnan(b)) return 0x7fffffffu;
  if (std::isnan(a)) return std::bit_cast<uint32_t>(b);
  if (std::isnan(b)) return std::bit_cast<uint32_t>(a);
  if (a == 0.0f && b == 0.0f) {  // -0 below +0
    const bool negative = is_max ? std::signbit(a) && std::signbit(b)
                                 : std::signbit(a) || std::signbit(b);
    return negative ? 0x80000000u : 0u;
  }
  return std::bit_cast<uint32_t>(is_max ? (a < b ? b : a) : (b < a ? b : a));
}
}  // namespace

TEST_CASE("the nvidia profile's float min and max flush denormals, put -0 below +0 and give 0x7fffffff for two NaNs") {
  const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
                               0xff800000u, 0x7fc00000u, 0x7f800001u /* signalling */,
                               0x00000001u, 0x80400000u, 0x007fffffu, 0x00800000u /* FLT_MIN */,
                               0x80800000u};
  constexpr int kS = 13, kPairs = kS * kS;
  Float<kPairs> a, b;
  for (int t = 0; t < kPairs; ++t) {
    a.set_lane(t, std::bit_cast<float>(specials[t / kS]));
    b.set_lane(t, std::bit_cast<float>(specials[t % kS]));
  }
  Float<kPairs> mn, mx, sat, clamped, uniform_min{NoInit{}}, uniform_max{NoInit{}};
  test::RunGroup<kPairs>(32, [&] {
    mn = min(a, b);
    mx = max(a, b);
    sat = saturate(a);
    clamped = clamp(a, -abs(b), abs(b));
    for (int t = 0; t < kPairs; ++t) {  // plain floats: one thread of the same code
      uniform_min.set_lane(t, waveemu::min(a.lane(t), b.lane(t)));
      uniform_max.set_lane(t, waveemu::max(a.lane(t), b.lane(t)));
    }
  }, NvidiaProfile());
  const auto bits = [](float v) { return std::bit_cast<uint32_t>(v); };
  for (int t = 0; t < kPairs; ++t) {
    const float x = a.lane(t), y = b.lane(t);
    INFO(fmt::format("thread {}: a = {:#010x}, b = {:#010x}", t, bits(x), bits(y)));
    CHECK(bits(mn.lane(t)) == H100MinMaxBits(false, x, y));
    CHECK(bits(mx.lane(t)) == H100MinMaxBits(true, x, y));
    CHECK(bits(uniform_min.lane(t)) == H100MinMaxBits(false, x, y));
    CHECK(bits(uniform_max.lane(t)) == H100MinMaxBits(true, x, y));
    // saturate and clamp are min(max(x, lo), hi) with the same rule at each step.
    const auto step = [&](bool is_max, float p, float q) {
      return std::bit_cast<float>(H100MinMaxBits(is_max, p, q));
    };
    CHECK(bits(sat.lane(t)) == bits(step(false, step(true, x, 0.0f), 1.0f)));
    const float m = std::fabs(y);
    CHECK(bits(clamped.lane(t)) == bits(step(false, step(true, x, -m), m)));
  }
  // Hand-worked cases of each policy.
  CHECK(bits(mn.lane(0 * kS + 1)) == 0x80000000u);  // min(+0, -0) = -0
  CHECK(bits(mx.lane(1 * kS + 0)) == 0x00000000u);  // max(-0, +0) = +0
  CHECK(bits(mn.lane(2 * kS + 8)) == 0x00000000u);  // min(1, 2^-149) = +0 (flushed)
  CHECK(bits(mx.lane(6 * kS + 6)) == 0x7fffffffu);  // max(NaN, NaN)
  CHECK(bits(sat.lane(1 * kS)) == 0x00000000u);     // saturate(-0) = +0
  // half and double keep the default rule: the second operand on a tie, denormals kept.
  Double<4> dmin;
  Half<4> hmin;
  test::RunGroup<4>(4, [&] {
    dmin = min(Double<4>(0.0), Double<4>(-0.0));
    hmin = min(Half<4>(half::FromBits(0x0001)), Half<4>(half(1.0f)));
  }, NvidiaProfile());
  CHECK(std::signbit(dmin.lane(0)));
  CHECK(hmin.lane(0).bits() == 0x0001);
  // Other profiles and code outside a group: lavapipe's rule.
  Float<4> lavapipe_min;
  test::RunGroup<4>(4, [&] { lavapipe_min = min(Float<4>(-0.0f), Float<4>(0.0f)); },
                    LavapipeProfile());
  CHECK(bits(lavapipe_min.lane(0)) == 0u);
  CHECK(bits(min(Float<4>(1.0f), Float<4>(std::bit_cast<float>(1u))).lane(0)) == 1u);
}

TEST_CASE("abs, clamp and saturate follow HLSL") {
  CHECK(abs(Int<kN>(-7)).lane(0) == 7);
  CHECK(abs(Int<kN>(std::numeric_limits<int32_t>::min())).lane(0) ==
        std::numeric_limits<int32_t>::min());  // wraps
  CHECK(std::bit_cast<uint32_t>(abs(Float<kN>(-0.0f)).lane(0)) == 0u);
  CHECK(std::isnan(abs(Float<kN>(-kNan)).lane(0)));
  CHECK(abs(Half<kN>(half(-1.5f))).lane(0).bits() == half(1.5f).bits());
  CHECK(abs(Int16<kN>(int16_t(-32768))).lane(0) == int16_t(-32768));
  CHECK(clamp(Int<kN>(12), 0, 10).lane(0) == 10);
  CHECK(clamp(Int<kN>(-3), 0, 10).lane(0) == 0);
  CHECK(clamp(Float<kN>(kNan), 0.0f, 10.0f).lane(0) == 0.0f);  // max(NaN, 0) = 0
  CHECK(saturate(Float<kN>(kNan)).lane(0) == 0.0f);
  CHECK(saturate(Float<kN>(1.5f)).lane(0) == 1.0f);
  CHECK(saturate(Float<kN>(-0.5f)).lane(0) == 0.0f);
  CHECK(saturate(Float<kN>(0.25f)).lane(0) == 0.25f);
  CHECK(saturate(Double<kN>(2.0)).lane(0) == 1.0);
  CHECK(saturate(kNan) == 0.0f);
  const Float3<kN> c = clamp(Float3<kN>(-1.0f, 0.5f, 9.0f), 0.0f, Float3<kN>(1.0f, 1.0f, 2.0f));
  CHECK(c.lane(3) == std::array<float, 3>{0.0f, 0.5f, 2.0f});
}

TEST_CASE("mad fuses only when the group's profile says so") {
  // a*b = 1 - 2^-46 exactly; rounded to float it is 1, so unfused gives 0 and fused -2^-46.
  const Float<kN> a(1.0f + std::ldexp(1.0f, -23)), b(1.0f - std::ldexp(1.0f, -23)), c(-1.0f);
  Float<kN> spec, lavapipe, nvidia;
  test::RunGroup<kN>(32, [&] { spec = mad(a, b, c); }, SpecProfile());
  test::RunGroup<kN>(8, [&] { lavapipe = mad(a, b, c); }, LavapipeProfile());
  test::RunGroup<kN>(32, [&] { nvidia = mad(a, b, c); }, NvidiaProfile());
  const Float<kN> outside = mad(a, b, c);
  // Plain a * b + c is two operations, two roundings, whatever -ffp-contract says.
  const Float<kN> expression = a * b + c;
  CHECK(expression.lane(0) == 0.0f);
  for (int t = 0; t < kN; ++t) {
    CHECK(spec.lane(t) == 0.0f);
    CHECK(lavapipe.lane(t) == 0.0f);
    CHECK(outside.lane(t) == 0.0f);
    CHECK(nvidia.lane(t) == -std::ldexp(1.0f, -46));
  }
  // Doubles the same way: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104.
  const Double<kN> da(1.0 + std::ldexp(1.0, -52)), db(1.0 - std::ldexp(1.0, -52)), dc(-1.0);
  Double<kN> dn;
  test::RunGroup<kN>(32, [&] { dn = mad(da, db, dc); }, NvidiaProfile());
  CHECK(mad(da, db, dc).lane(0) == 0.0);
  CHECK(dn.lane(0) == -std::ldexp(1.0, -104));
  // half: (1 + 2^-10)(1 - 2^-10) = 1 - 2^-20, rounds to 1 in half.
  const Half<kN> ha(half(1.0f + std::ldexp(1.0f, -10))), hb(half(1.0f - std::ldexp(1.0f, -10)));
  Half<kN> hn_fused;
  test::RunGroup<kN>(32, [&] { hn_fused = mad(ha, hb, Half<kN>(half(-1.0f))); }, NvidiaProfile());
  CHECK(mad(ha, hb, Half<kN>(half(-1.0f))).lane(0).bits() == 0);
  CHECK(float(hn_fused.lane(0)) == -std::ldexp(1.0f, -20));
  // Integers wrap.
  CHECK(mad(Uint<kN>(0x80000000u), 2u, 5u).lane(0) == 5u);
  CHECK(mad(Int<kN>(std::numeric_limits<int32_t>::max()), 1, 1).lane(0) ==
        std::numeric_limits<int32_t>::min());
}

TEST_CASE("bit casts reinterpret bits") {
  CHECK(asuint(Float<kN>(1.0f)).lane(0) == 0x3F800000u);
  CHECK(asuint(Int<kN>(-1)).lane(0) == 0xFFFFFFFFu);
  CHECK(asint(Float<kN>(-2.0f)).lane(0) == int32_t(0xC0000000u));
  CHECK(asfloat(Uint<kN>(0x40490FDBu)).lane(0) == 3.14159274101257324f);
  CHECK(asfloat(Int<kN>(0)).lane(0) == 0.0f);
  const Double<kN> d = asdouble(Uint<kN>(0u), Uint<kN>(0x3FF00000u));
  CHECK(d.lane(0) == 1.0);
  Uint<kN> lo, hi;
  asuint(Double<kN>(-2.5), lo, hi);
  CHECK(((uint64_t(hi.lane(0)) << 32) | lo.lane(0)) == std::bit_cast<uint64_t>(-2.5));
  CHECK(asuint(1.0f) == 0x3F800000u);
  CHECK(asdouble(0u, 0x40000000u) == 2.0);
  const Uint2<kN> v = asuint(Float2<kN>(1.0f, -0.0f));
  CHECK(v.lane(0) == std::array<uint32_t, 2>{0x3F800000u, 0x80000000u});
}

TEST_CASE("countbits, firstbitlow, firstbithigh and reversebits match bit-by-bit loops") {
  const Uint<kN> x = Random<uint32_t>(7);
  Uint<kN> xs = x;
  xs.set_lane(0, 0u);
  xs.set_lane(1, 0xFFFFFFFFu);
  xs.set_lane(2, 0x80000000u);
  xs.set_lane(3, 1u);
  const Int<kN> si(xs);
  const Uint<kN> cb = countbits(xs), lo = firstbitlow(xs), hi = firstbithigh(xs),
                 shi = firstbithigh(si), rev = reversebits(xs);
  for (int t = 0; t < kN; ++t) {
    const uint32_t v = xs.lane(t);
    uint32_t count = 0, low = 0xFFFFFFFFu, high = 0xFFFFFFFFu, reversed = 0;
    for (int i = 0; i < 32; ++i) {
      if ((v >> i) & 1u) {
        ++count;
        if (low == 0xFFFFFFFFu) low = uint32_t(i);
        high = uint32_t(i);
        reversed |= 1u << (31 - i);
      }
    }
    // Signed: the highest bit that differs from the sign bit (none for 0 and -1).
    uint32_t shigh = 0xFFFFFFFFu;
    const uint32_t sign = v >> 31;
    for (int i = 30; i >= 0; --i)
      if (((v >> i) & 1u) != sign) {
        shigh = uint32_t(i);
        break;
      }
    INFO(fmt::format("thread {} x={:#x}", t, v));
    CHECK(cb.lane(t) == count);
    CHECK(lo.lane(t) == low);
    CHECK(hi.lane(t) == high);
    CHECK(shi.lane(t) == shigh);
    CHECK(rev.lane(t) == reversed);
  }
  CHECK(firstbithigh(Int<kN>(-1)).lane(0) == 0xFFFFFFFFu);
  CHECK(firstbithigh(Int<kN>(-2)).lane(0) == 0u);
  CHECK(firstbithigh(Int<kN>(0x7FFFFFFF)).lane(0) == 30u);
  CHECK(firstbitlow(0u) == 0xFFFFFFFFu);
  CHECK(countbits(Uint64<kN>(~uint64_t(0))).lane(0) == 64u);
  CHECK(firstbithigh(Uint64<kN>(uint64_t(1) << 40)).lane(0) == 40u);
  CHECK(reversebits(Uint16<kN>(uint16_t(1))).lane(0) == uint16_t(0x8000));
}

TEST_CASE("sqrt, floor, ceil, frac, lerp and sign") {
  const Float<kN> x(-2.5f);
  CHECK(floor(x).lane(0) == -3.0f);
  CHECK(ceil(x).lane(0) == -2.0f);
  CHECK(frac(x).lane(0) == 0.5f);  // x - floor(x)
  CHECK(frac(Float<kN>(2.25f)).lane(0) == 0.25f);
  CHECK(sqrt(Float<kN>(2.0f)).lane(0) == std::sqrt(2.0f));
  CHECK(std::isnan(sqrt(Float<kN>(-1.0f)).lane(0)));
  CHECK(sqrt(Float<kN>(Double<kN>(9.0))).lane(0) == 3.0f);  // HLSL: double converts to float
  CHECK(floor(Half<kN>(half(-0.5f))).lane(0).bits() == half(-1.0f).bits());
  CHECK(lerp(Float<kN>(2.0f), 6.0f, 0.25f).lane(0) == 3.0f);  // 2 + 0.25 * (6 - 2)
  CHECK(lerp(Float<kN>(2.0f), 6.0f, Float<kN>(1.0f)).lane(0) == 6.0f);
  CHECK(sign(Float<kN>(-3.0f)).lane(0) == -1);
  CHECK(sign(Float<kN>(0.0f)).lane(0) == 0);
  CHECK(sign(Float<kN>(-0.0f)).lane(0) == 0);
  CHECK(sign(Float<kN>(kNan)).lane(0) == 0);
  CHECK(sign(Int<kN>(42)).lane(0) == 1);
  const Float3<kN> v(1.5f, -1.5f, 4.0f);
  const Float3<kN> f = floor(v);
  CHECK(f.lane(0) == std::array<float, 3>{1.0f, -2.0f, 4.0f});
  const Int3<kN> s = sign(v);
  CHECK(s.lane(0) == std::array<int32_t, 3>{1, -1, 1});
  const Float3<kN> l = lerp(v, Float3<kN>(0.0f), 0.5f);
  CHECK(l.lane(0) == std::array<float, 3>{0.75f, -0.75f, 2.0f});
}

// ------------------------------------------------------------------------------------------------
// Classification, rounding, rcp/rsqrt, fmod, step/smoothstep, exponentials, trigonometry,
// conversions, geometry. Expected values are worked by hand (the comment says how) or written out
// as DXC's expansion with std:: functions, one lane at a time.

namespace {

/// Same bits, or both NaN.
bool SameFloat(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

Uint<kN> ThreadIndex() {
  Uint<kN> t;
  for (int i = 0; i < kN; ++i) t.set_lane(i, uint32_t(i));
  return t;
}

/// Positive float values with a good spread (no NaN or inf), for logs and roots.
Float<kN> RandomPositive(uint64_t seed) {
  std::mt19937_64 rng(seed);
  Float<kN> x;
  for (int t = 0; t < kN; ++t) x.set_lane(t, float(rng() % 100000 + 1) / 997.0f);
  return x;
}

}  // namespace

TEST_CASE("isnan, isinf and isfinite classify every lane") {
  const float nan_payload = std::bit_cast<float>(0x7FC0DEADu);
  const float values[] = {nan_payload, -kNan, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-45f,
                          std::numeric_limits<float>::max(), -1.0f};
  const bool want_nan[] = {true, true, false, false, false, false, false, false, false};
  const bool want_inf[] = {false, false, true, true, false, false, false, false, false};
  Float<kN> x(2.0f);
  for (int i = 0; i < 9; ++i) x.set_lane(i, values[i]);
  const Bool<kN> n = isnan(x), in = isinf(x), f = isfinite(x);
  for (int t = 0; t < kN; ++t) {
    INFO("thread ", t, " x=", x.lane(t));
    const bool wn = t < 9 && want_nan[t], wi = t < 9 && want_inf[t];
    CHECK(n.lane(t) == wn);
    CHECK(in.lane(t) == wi);
    CHECK(f.lane(t) == (!wn && !wi));
  }
  // half: 0x7E00 NaN, 0x7C00 inf, 0x7BFF the largest finite.
  CHECK(isnan(Half<kN>(half::FromBits(0x7E00))).lane(0));
  CHECK(isinf(Half<kN>(half::FromBits(0xFC00))).lane(0));
  CHECK(isfinite(Half<kN>(half::FromBits(0x7BFF))).lane(0));
  CHECK_FALSE(isfinite(Half<kN>(half::FromBits(0x7C00))).lane(0));
  const Bool3<kN> v = isnan(Float3<kN>(1.0f, kNan, INFINITY));
  CHECK(v.lane(0) == std::array<bool, 3>{false, true, false});
  CHECK(waveemu::isnan(nan_payload));
  CHECK(waveemu::isinf(-INFINITY));
  CHECK_FALSE(waveemu::isfinite(kNan));
}

TEST_CASE("round is to nearest with ties to even, trunc toward zero") {
  // Hand-worked: ties go to the even neighbour, the sign of zero is kept.
  CHECK(round(Float<kN>(2.5f)).lane(0) == 2.0f);
  CHECK(round(Float<kN>(3.5f)).lane(0) == 4.0f);
  CHECK(round(Float<kN>(-1.5f)).lane(0) == -2.0f);
  CHECK(std::bit_cast<uint32_t>(round(Float<kN>(-0.5f)).lane(0)) == 0x80000000u);
  CHECK(round(Float<kN>(0.49999997f)).lane(0) == 0.0f);
  CHECK(round(Float<kN>(8388609.0f)).lane(0) == 8388609.0f);  // already an integer (2^23 + 1)
  CHECK(std::isnan(round(Float<kN>(kNan)).lane(0)));
  CHECK(trunc(Float<kN>(-2.7f)).lane(0) == -2.0f);
  CHECK(std::bit_cast<uint32_t>(trunc(Float<kN>(-0.3f)).lane(0)) == 0x80000000u);
  CHECK(trunc(Float<kN>(INFINITY)).lane(0) == INFINITY);
  CHECK(round(Half<kN>(half(2.5f))).lane(0).bits() == half(2.0f).bits());
  CHECK(round(Half<kN>(half(0.5f))).lane(0).bits() == 0);
  CHECK(trunc(Half<kN>(half(-1.75f))).lane(0).bits() == half(-1.0f).bits());
  CHECK(waveemu::round(-2.5f) == -2.0f);
  CHECK(waveemu::trunc(2.9f) == 2.0f);
  // Every lane against ties-to-even spelled out from floor (|x| < 2^22 here).
  Float<kN> x = Random<float>(11);
  const float ties[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 1048576.5f, -3.5f};
  for (int t = 0; t < 8; ++t) x.set_lane(t, ties[t]);
  const Float<kN> r = round(x), tr = trunc(x);
  for (int t = 0; t < kN; ++t) {
    const float v = x.lane(t);
    float want = v, want_trunc = v;
    if (std::isfinite(v)) {
      const float f = std::floor(v), d = v - f;
      want = d < 0.5f ? f : d > 0.5f ? f + 1.0f : (std::fmod(f, 2.0f) == 0.0f ? f : f + 1.0f);
      if (want == 0.0f) want = std::copysign(0.0f, v);
      want_trunc = v < 0.0f ? -std::floor(-v) : std::floor(v);
      if (want_trunc == 0.0f) want_trunc = std::copysign(0.0f, v);
    }
    INFO("thread ", t, " x=", v);
    CHECK(SameFloat(r.lane(t), want));
    CHECK(SameFloat(tr.lane(t), want_trunc));
  }
  const Float3<kN> v3 = round(Float3<kN>(0.5f, 1.5f, -2.5f));
  CHECK(v3.lane(0) == std::array<float, 3>{0.0f, 2.0f, -2.0f});
}

TEST_CASE("rcp is one division and rsqrt a division of the rounded square root") {
  const Float<kN> x = Random<float>(12);
  const Float<kN> r = rcp(x), rs = rsqrt(abs(x));
  for (int t = 0; t < kN; ++t) {
    const float v = x.lane(t);
    INFO("thread ", t, " x=", v);
    CHECK(SameFloat(r.lane(t), 1.0f / v));
    CHECK(SameFloat(rs.lane(t), 1.0f / std::sqrt(std::fabs(v))));
  }
  CHECK(rcp(Float<kN>(0.0f)).lane(0) == INFINITY);
  CHECK(rcp(Float<kN>(-0.0f)).lane(0) == -INFINITY);
  CHECK(rcp(Double<kN>(3.0)).lane(0) == 1.0 / 3.0);
  CHECK(rsqrt(Float<kN>(4.0f)).lane(0) == 0.5f);
  CHECK(rsqrt(Float<kN>(-0.0f)).lane(0) == -INFINITY);  // 1 / sqrt(-0) = 1 / -0, as D3D's rsq
  CHECK(std::isnan(rsqrt(Float<kN>(-1.0f)).lane(0)));
  CHECK(rcp(Half<kN>(half(4.0f))).lane(0).bits() == half(0.25f).bits());
  CHECK(waveemu::rcp(8.0) == 0.125);
}

TEST_CASE("fmod is DXC's frac expansion, not the exact remainder") {
  // -7 / 3 rounds to -0x1.2aaaaap+1 = -9786709 / 2^22; its fraction is 1398101 / 2^22, times 3
  // is 4194303 / 2^22 = 1 - 2^-22 exactly; the sign is x's.
  CHECK(fmod(Float<kN>(-7.0f), 3.0f).lane(0) == -(1.0f - std::ldexp(1.0f, -22)));
  // 5 / -3 = -0x1.aaaaaap+0; fraction 0x0.aaaaaap+0 = 11184810 / 2^24; -f * -3 = 2 - 2^-23.
  CHECK(fmod(Float<kN>(5.0f), -3.0f).lane(0) == 2.0f - std::ldexp(1.0f, -23));
  CHECK(fmod(Float<kN>(7.5f), 2.0f).lane(0) == 1.5f);  // 3.75 -> 0.75 * 2
  CHECK(fmod(Float<kN>(6.0f), 3.0f).lane(0) == 0.0f);
  CHECK(std::bit_cast<uint32_t>(fmod(Float<kN>(-0.0f), 3.0f).lane(0)) == 0u);  // +0: frac(|-0|)
  CHECK(std::isnan(fmod(Float<kN>(1.0f), 0.0f).lane(0)));  // frac(inf) = inf - inf
  // HLSL's % on floats is the exact remainder.
  CHECK((Float<kN>(-7.0f) % 3.0f).lane(0) == -1.0f);
  CHECK(waveemu::fmod(-7.0f, 3.0f) == -(1.0f - std::ldexp(1.0f, -22)));
  CHECK(fmod(Half<kN>(half(7.5f)), half(2.0f)).lane(0).bits() == half(1.5f).bits());
  const Float<kN> x = Random<float>(13), y = Random<float>(14);
  const Float<kN> r = fmod(x, y);
  for (int t = 0; t < kN; ++t) {
    const float a = x.lane(t), b = y.lane(t);
    const float d = a / b, ad = std::fabs(d), f = ad - std::floor(ad);
    const float want = (d >= -d ? f : -f) * b;
    INFO("thread ", t, " x=", a, " y=", b);
    CHECK(SameFloat(r.lane(t), want));
  }
  const Float2<kN> v = fmod(Float2<kN>(7.5f, -7.5f), 2.0f);
  CHECK(v.lane(0) == std::array<float, 2>{1.5f, -1.5f});
}

TEST_CASE("step and smoothstep follow DXC's expansions") {
  CHECK(step(Float<kN>(0.5f), 0.5f).lane(0) == 1.0f);  // x >= y
  CHECK(step(Float<kN>(0.5f), 0.4f).lane(0) == 0.0f);
  CHECK(step(Float<kN>(kNan), 1.0f).lane(0) == 1.0f);  // x < NaN is false, so 1
  CHECK(step(0.0f, Float<kN>(-0.0f)).lane(0) == 1.0f);
  // smoothstep(1, 3, 2.5): s = 1.5 / 2 = 0.75; 3 - 1.5 = 1.5; 0.75 * 1.5 = 1.125;
  // 0.75 * 1.125 = 0.84375.
  CHECK(smoothstep(1.0f, 3.0f, Float<kN>(2.5f)).lane(0) == 0.84375f);
  CHECK(smoothstep(Float<kN>(0.0f), 1.0f, 0.5f).lane(0) == 0.5f);
  CHECK(smoothstep(0.0f, 1.0f, Float<kN>(-3.0f)).lane(0) == 0.0f);
  CHECK(smoothstep(0.0f, 1.0f, Float<kN>(7.0f)).lane(0) == 1.0f);
  CHECK(waveemu::smoothstep(1.0f, 3.0f, 2.5f) == 0.84375f);
  CHECK(waveemu::step(2.0f, 1.0f) == 0.0f);
  const Float<kN> a = Random<float>(15), b = Random<float>(16), x = Random<float>(17);
  const Float<kN> r = smoothstep(a, b, x);
  for (int t = 0; t < kN; ++t) {
    const float lo = a.lane(t), hi = b.lane(t), v = x.lane(t);
    const float q = (v - lo) / (hi - lo);
    const float s = std::isnan(q) ? 0.0f : std::min(std::max(q, 0.0f), 1.0f);  // saturate
    const float want = s * (s * (3.0f - s * 2.0f));
    INFO("thread ", t, " a=", lo, " b=", hi, " x=", v);
    CHECK(SameFloat(r.lane(t), want));
  }
  const Float3<kN> v = smoothstep(0.0f, 2.0f, Float3<kN>(1.0f, -1.0f, 3.0f));
  CHECK(v.lane(0) == std::array<float, 3>{0.5f, 0.0f, 1.0f});
  const Float3<kN> w = smoothstep(Float3<kN>(0.0f), Float3<kN>(2.0f, 4.0f, 8.0f), Float<kN>(1.0f));
  // s = 0.5, 0.25, 0.125: 0.5; 0.25 * 0.25 * 2.5 = 0.15625; 0.125 * 0.125 * 2.75 = 0.04296875
  CHECK(w.lane(0) == std::array<float, 3>{0.5f, 0.15625f, 0.04296875f});
}

TEST_CASE("exp, log, log10 and pow use DXC's constants and expansions around exp2 and log2") {
  // exp2/log2 of exact cases.
  CHECK(exp2(Float<kN>(3.0f)).lane(0) == 8.0f);
  CHECK(exp2(Float<kN>(-INFINITY)).lane(0) == 0.0f);
  CHECK(log2(Float<kN>(8.0f)).lane(0) == 3.0f);
  CHECK(log2(Float<kN>(0.0f)).lane(0) == -INFINITY);
  CHECK(std::isnan(log2(Float<kN>(-1.0f)).lane(0)));
  CHECK(exp2(Half<kN>(half(3.0f))).lane(0).bits() == half(8.0f).bits());
  CHECK(ldexp(Float<kN>(3.0f), 4.0f).lane(0) == 48.0f);
  CHECK(ldexp(Float<kN>(1.0f), -149.0f).lane(0) == std::numeric_limits<float>::denorm_min());
  CHECK(std::isnan(pow(Float<kN>(-2.0f), 3.0f).lane(0)));  // exp2(3 * log2(-2)): NaN
  const float x3 = 3.0000002f;
  CHECK(pow(Float<kN>(x3), 2.0f).lane(0) == x3 * x3);  // a plain 2 is x * x, as in DXC
  CHECK(waveemu::pow(x3, 2.0f) == x3 * x3);
  const Float<kN> x = RandomPositive(18), y = Random<float>(19);
  const Float<kN> e = exp(y), l = log(x), l10 = log10(x), p = pow(x, y), p2 = pow(x, 2.0f);
  for (int t = 0; t < kN; ++t) {
    const float a = x.lane(t), b = y.lane(t);
    INFO("thread ", t, " x=", a, " y=", b);
    // The constants as typed from lib/HLSL/HLOperationLower.cpp, rounded to float.
    CHECK(SameFloat(e.lane(t), std::exp2(1.442695f * b)));
    CHECK(SameFloat(l.lane(t), 0.693147182f * std::log2(a)));
    CHECK(SameFloat(l10.lane(t), 0.30103f * std::log2(a)));
    CHECK(SameFloat(p.lane(t), std::exp2(std::log2(a) * b)));
    CHECK(p2.lane(t) == a * a);
    // Close to the true functions (the expansions lose a few ulps, not more).
    if (std::isfinite(b) && std::fabs(b) < 80.0f) CHECK(e.lane(t) == doctest::Approx(std::exp(b)).epsilon(1e-5));
    CHECK(l.lane(t) == doctest::Approx(std::log(a)).epsilon(1e-5));
    CHECK(l10.lane(t) == doctest::Approx(std::log10(double(a))).epsilon(1e-5));
    const double want_pow = std::pow(double(a), double(b));
    if (std::isfinite(want_pow) && want_pow > 1e-30 && want_pow < 1e30)
      CHECK(p.lane(t) == doctest::Approx(want_pow).epsilon(1e-4));
  }
  const Float2<kN> v = exp2(Float2<kN>(1.0f, -1.0f));
  CHECK(v.lane(0) == std::array<float, 2>{2.0f, 0.5f});
  CHECK(waveemu::log2(0.25f) == -2.0f);
}

TEST_CASE("trigonometry: std:: per lane, atan2 as DXC expands it, degrees and radians") {
  const Float<kN> x = Random<float>(20);
  const Float<kN> s = sin(x), c = cos(x), ta = tan(x), sh = sinh(x * 0.01f), th = tanh(x);
  const Float<kN> u = x * 0.001f;  // inside [-1, 1] for asin, acos
  const Float<kN> as = asin(u), ac = acos(u), at = atan(x), ch = cosh(u);
  Float<kN> ss, cc;
  sincos(x, ss, cc);
  for (int t = 0; t < kN; ++t) {
    const float v = x.lane(t), w = u.lane(t);
    INFO("thread ", t, " x=", v);
    CHECK(SameFloat(s.lane(t), std::sin(v)));
    CHECK(SameFloat(c.lane(t), std::cos(v)));
    CHECK(SameFloat(ta.lane(t), std::tan(v)));
    CHECK(SameFloat(sh.lane(t), std::sinh(v * 0.01f)));
    CHECK(SameFloat(th.lane(t), std::tanh(v)));
    CHECK(SameFloat(as.lane(t), std::asin(w)));
    CHECK(SameFloat(ac.lane(t), std::acos(w)));
    CHECK(SameFloat(at.lane(t), std::atan(v)));
    CHECK(SameFloat(ch.lane(t), std::cosh(w)));
    CHECK(SameFloat(ss.lane(t), std::sin(v)));
    CHECK(SameFloat(cc.lane(t), std::cos(v)));
    // The same against double arithmetic, which the implementation does not call: within a
    // few float ulps of the true values.
    if (std::isfinite(v)) {
      const auto near = [](double want) { return doctest::Approx(want).epsilon(1e-6); };
      CHECK(s.lane(t) == near(std::sin(double(v))));
      CHECK(c.lane(t) == near(std::cos(double(v))));
      CHECK(ta.lane(t) == near(std::tan(double(v))));
      CHECK(sh.lane(t) == near(std::sinh(double(v * 0.01f))));
      CHECK(th.lane(t) == near(std::tanh(double(v))));
      CHECK(as.lane(t) == near(std::asin(double(w))));
      CHECK(ac.lane(t) == near(std::acos(double(w))));
      CHECK(at.lane(t) == near(std::atan(double(v))));
      CHECK(ch.lane(t) == near(std::cosh(double(w))));
    }
  }
  // Hand-worked: sin(pi/6) = 1/2, cos(pi/3) = 1/2, atan(1) = pi/4, tan(pi/4) = 1.
  CHECK(sin(Float<kN>(0.52359878f)).lane(0) == doctest::Approx(0.5).epsilon(1e-6));
  CHECK(cos(Float<kN>(1.04719755f)).lane(0) == doctest::Approx(0.5).epsilon(1e-6));
  CHECK(atan(Float<kN>(1.0f)).lane(0) == doctest::Approx(0.78539816339744831).epsilon(1e-7));
  CHECK(tan(Float<kN>(0.78539816f)).lane(0) == doctest::Approx(1.0).epsilon(1e-6));
  const float pi = 3.14159274f, half_pi = 1.57079637f;  // M_PI, M_PI / 2 rounded to float
  CHECK(atan2(Float<kN>(1.0f), -1.0f).lane(0) == std::atan(-1.0f) + pi);
  CHECK(atan2(Float<kN>(-1.0f), -1.0f).lane(0) == std::atan(1.0f) - pi);
  CHECK(atan2(Float<kN>(-1.0f), 0.0f).lane(0) == -half_pi);
  CHECK(atan2(Float<kN>(0.0f), 0.0f).lane(0) == half_pi);   // y >= 0, x == 0
  CHECK(atan2(Float<kN>(-0.0f), -0.0f).lane(0) == half_pi);  // -0 >= 0 and -0 == 0
  CHECK(waveemu::atan2(2.0f, 2.0f) == std::atan(1.0f));
  const Float<kN> y = Random<float>(21), xx = Random<float>(22);
  const Float<kN> a2 = atan2(y, xx);
  for (int t = 0; t < kN; ++t) {
    const float b = y.lane(t), a = xx.lane(t);
    float want = std::atan(b / a);
    if (a < 0 && b >= 0) want = want + pi;
    if (a < 0 && b < 0) want = want - pi;
    if (a == 0 && b < 0) want = -half_pi;
    if (a == 0 && b >= 0) want = half_pi;
    INFO("thread ", t, " y=", b, " x=", a);
    CHECK(SameFloat(a2.lane(t), want));
    if (std::isfinite(a) && std::isfinite(b) && a != 0.0f && b != 0.0f)
      CHECK(std::fabs(a2.lane(t) - std::atan2(b, a)) < 1e-6f);  // a real atan2
  }
  CHECK(degrees(Float<kN>(pi)).lane(0) == 57.2957802f * pi);
  CHECK(radians(Float<kN>(180.0f)).lane(0) == 0.0174532924f * 180.0f);
  CHECK(sin(Half<kN>(half(0.0f))).lane(0).bits() == 0);
  const Float2<kN> v = cos(Float2<kN>(0.0f, 0.0f));
  CHECK(v.lane(0) == std::array<float, 2>{1.0f, 1.0f});
  float us = 0, uc = 0;
  sincos(0.0f, us, uc);
  CHECK((us == 0.0f && uc == 1.0f));
}

TEST_CASE("f32tof16 rounds to nearest even into the low 16 bits; f16tof32 reads them back") {
  const float one = 1.0f, ulp = std::ldexp(1.0f, -10);  // half's ulp at 1
  CHECK(f32tof16(Float<kN>(one)).lane(0) == 0x3C00u);
  CHECK(f32tof16(Float<kN>(-2.0f)).lane(0) == 0xC000u);
  CHECK(f32tof16(Float<kN>(-0.0f)).lane(0) == 0x8000u);
  CHECK(f32tof16(Float<kN>(65504.0f)).lane(0) == 0x7BFFu);
  CHECK(f32tof16(Float<kN>(65520.0f)).lane(0) == 0x7C00u);  // halfway to 65536: even is inf
  CHECK(f32tof16(Float<kN>(one + ulp / 2)).lane(0) == 0x3C00u);      // tie: 0x3C00 is even
  CHECK(f32tof16(Float<kN>(one + 3 * ulp / 2)).lane(0) == 0x3C02u);  // tie: 0x3C02 is even
  CHECK(f32tof16(Float<kN>(one + ulp / 2 + std::ldexp(1.0f, -20))).lane(0) == 0x3C01u);
  CHECK(f32tof16(Float<kN>(std::ldexp(1.0f, -24))).lane(0) == 0x0001u);   // smallest denormal
  CHECK(f32tof16(Float<kN>(std::ldexp(1.0f, -25))).lane(0) == 0x0000u);   // tie with 0
  CHECK(f32tof16(Float<kN>(std::ldexp(3.0f, -25))).lane(0) == 0x0002u);   // tie 1|2: 2
  // The tests' own converter (the oracle of the masked sweep below) on the same worked cases.
  CHECK(test::RoundToHalf(one).bits() == 0x3C00u);
  CHECK(test::RoundToHalf(-2.0f).bits() == 0xC000u);
  CHECK(test::RoundToHalf(-0.0f).bits() == 0x8000u);
  CHECK(test::RoundToHalf(65504.0f).bits() == 0x7BFFu);
  CHECK(test::RoundToHalf(65520.0f).bits() == 0x7C00u);
  CHECK(test::RoundToHalf(one + ulp / 2).bits() == 0x3C00u);
  CHECK(test::RoundToHalf(one + 3 * ulp / 2).bits() == 0x3C02u);
  CHECK(test::RoundToHalf(one + ulp / 2 + std::ldexp(1.0f, -20)).bits() == 0x3C01u);
  CHECK(test::RoundToHalf(std::ldexp(1.0f, -24)).bits() == 0x0001u);
  CHECK(test::RoundToHalf(std::ldexp(1.0f, -25)).bits() == 0x0000u);
  CHECK(test::RoundToHalf(std::ldexp(3.0f, -25)).bits() == 0x0002u);
  CHECK(test::RoundToHalf(std::ldexp(1.0f, -14)).bits() == 0x0400u);  // smallest normal
  CHECK(test::RoundToHalf(1.0f / 3.0f).bits() == 0x3555u);  // 0x3555 = 0.333251953125, nearest
  const uint32_t nan16 = f32tof16(Float<kN>(std::bit_cast<float>(0x7FC0DEADu))).lane(0);
  CHECK((nan16 & 0x7C00u) == 0x7C00u);
  CHECK((nan16 & 0x03FFu) != 0u);
  CHECK(nan16 <= 0xFFFFu);
  CHECK(f16tof32(Uint<kN>(0x3C00u)).lane(0) == 1.0f);
  CHECK(f16tof32(Uint<kN>(0xFFFF3C00u)).lane(0) == 1.0f);  // high bits ignored
  CHECK(f16tof32(Uint<kN>(0xC000u)).lane(0) == -2.0f);
  CHECK(f16tof32(Uint<kN>(0x0001u)).lane(0) == std::ldexp(1.0f, -24));
  CHECK(f16tof32(Uint<kN>(0x7C00u)).lane(0) == INFINITY);
  CHECK(std::isnan(f16tof32(Uint<kN>(0x7E00u)).lane(0)));
  CHECK(waveemu::f32tof16(1.5f) == 0x3E00u);
  CHECK(waveemu::f16tof32(0x3E00u) == 1.5f);
  const Uint2<kN> v = f32tof16(Float2<kN>(1.0f, 0.5f));
  CHECK(v.lane(0) == std::array<uint32_t, 2>{0x3C00u, 0x3800u});
  // Every non-NaN half survives f16tof32 then f32tof16, kN at a time.
  bool all_round_trip = true;
  for (uint32_t base = 0; base < 0x10000u; base += kN) {
    Uint<kN> h;
    for (int t = 0; t < kN; ++t) h.set_lane(t, (base + uint32_t(t)) & 0xFFFFu);
    const Uint<kN> back = f32tof16(f16tof32(h));
    for (int t = 0; t < kN; ++t) {
      const uint32_t bits = h.lane(t);
      const bool is_nan = (bits & 0x7C00u) == 0x7C00u && (bits & 0x3FFu) != 0;
      if (!is_nan && back.lane(t) != bits) all_round_trip = false;
    }
  }
  CHECK(all_round_trip);
}

TEST_CASE("length, distance, normalize, cross, reflect, refract and faceforward") {
  const Float3<kN> ex(1.0f, 0.0f, 0.0f), ey(0.0f, 1.0f, 0.0f), ez(0.0f, 0.0f, 1.0f);
  CHECK(cross(ex, ey).lane(0) == std::array<float, 3>{0.0f, 0.0f, 1.0f});
  CHECK(cross(ey, ez).lane(0) == std::array<float, 3>{1.0f, 0.0f, 0.0f});
  CHECK(cross(ez, ex).lane(0) == std::array<float, 3>{0.0f, 1.0f, 0.0f});
  CHECK(cross(ey, ex).lane(0) == std::array<float, 3>{0.0f, 0.0f, -1.0f});
  CHECK(length(Float3<kN>(3.0f, 4.0f, 0.0f)).lane(0) == 5.0f);
  CHECK(length(Float<kN>(-2.0f)).lane(0) == 2.0f);
  CHECK(distance(Float3<kN>(1.0f, 2.0f, 3.0f), Float3<kN>(4.0f, 6.0f, 3.0f)).lane(0) == 5.0f);
  CHECK(distance(Float<kN>(1.0f), Float<kN>(4.0f)).lane(0) == 3.0f);
  CHECK(waveemu::distance(1.0f, -2.0f) == 3.0f);
  const float r25 = 1.0f / std::sqrt(25.0f);
  CHECK(normalize(Float3<kN>(3.0f, 0.0f, 4.0f)).lane(0) ==
        std::array<float, 3>{3.0f * r25, 0.0f, 4.0f * r25});
  CHECK(reflect(Float3<kN>(1.0f, -1.0f, 0.0f), ey).lane(0) ==
        std::array<float, 3>{1.0f, 1.0f, 0.0f});
  // eta = 1 passes straight through: t = 1 - (1 - 1) * 1 = 1, r = i - (-1 + 1) * n = i.
  CHECK(refract(Float3<kN>(0.0f, -1.0f, 0.0f), ey, 1.0f).lane(0) ==
        std::array<float, 3>{0.0f, -1.0f, 0.0f});
  // Total internal reflection: d = -0.6, t = 1 - 0.64 * 2.25 = -0.44 < 0 gives 0.
  CHECK(refract(Float3<kN>(0.8f, -0.6f, 0.0f), ey, Float<kN>(1.5f)).lane(0) ==
        std::array<float, 3>{0.0f, 0.0f, 0.0f});
  CHECK(faceforward(ey, Float3<kN>(0.0f, -1.0f, 0.0f), ey).lane(0) ==
        std::array<float, 3>{0.0f, 1.0f, 0.0f});
  CHECK(faceforward(ey, ey, ey).lane(0) == std::array<float, 3>{-0.0f, -1.0f, -0.0f});
  // Every lane against the expansions written out with floats.
  const Float3<kN> a(Random<float>(23), Random<float>(24), Random<float>(25));
  const Float3<kN> b(Random<float>(26), Random<float>(27), Random<float>(28));
  const Float<kN> eta = Random<float>(29) * 0.01f;
  const Float3<kN> cr = cross(a, b), nm = normalize(a), rf = reflect(a, b),
                   rr = refract(a, b, eta), ff = faceforward(a, b, -b);
  const Float<kN> len = length(a), dist = distance(a, b);
  for (int t = 0; t < kN; ++t) {
    const auto A = a.lane(t), B = b.lane(t);
    const float e = eta.lane(t);
    const float dab = A[0] * B[0] + A[1] * B[1] + A[2] * B[2];
    const float daa = A[0] * A[0] + A[1] * A[1] + A[2] * A[2];
    const float d0 = A[0] - B[0], d1 = A[1] - B[1], d2 = A[2] - B[2];
    const float rs = 1.0f / std::sqrt(daa);
    const float k = 1.0f - (1.0f - dab * dab) * (e * e);
    const float m = e * dab + std::sqrt(k);
    const float bb = -(B[0] * B[0]) - B[1] * B[1] - B[2] * B[2];  // dot(b, -b)
    const float sign_ff = bb < 0.0f ? 1.0f : -1.0f;
    INFO("thread ", t);
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, l = (i + 2) % 3;
      CHECK(SameFloat(cr.lane(t)[i], A[j] * B[l] - A[l] * B[j]));
      CHECK(SameFloat(nm.lane(t)[i], A[i] * rs));
      CHECK(SameFloat(rf.lane(t)[i], A[i] - (2.0f * dab) * B[i]));
      CHECK(SameFloat(rr.lane(t)[i], k >= 0.0f ? A[i] * e - m * B[i] : 0.0f));
      CHECK(SameFloat(ff.lane(t)[i], sign_ff * A[i]));
    }
    CHECK(SameFloat(len.lane(t), std::sqrt(daa)));
    CHECK(SameFloat(dist.lane(t), std::sqrt(d0 * d0 + d1 * d1 + d2 * d2)));
  }
  const Half3<kN> hc = cross(Half3<kN>(half(1.0f), half(0.0f), half(0.0f)),
                             Half3<kN>(half(0.0f), half(1.0f), half(0.0f)));
  CHECK(hc.lane(0)[2].bits() == half(1.0f).bits());
}

TEST_CASE("math functions under if_ write only the active threads") {
  const Uint<kN> t = ThreadIndex();
  const Float<kN> x = Random<float>(30);
  const Float3<kN> v(Random<float>(31), Random<float>(32), Random<float>(33));
  Float<kN> r(-99.0f), l(-99.0f), s(-99.0f), c(-99.0f);
  Float3<kN> n(-99.0f);
  Bool<kN> nan_mask(false);
  Uint<kN> h(7u);
  for (const int wave : {8, 32}) {
    test::RunGroup<kN>(wave, [&] {
      if_(t % 3u == 0u, [&] {
        r = round(x);
        l = length(v);
        n = normalize(v);
        nan_mask = isnan(x);
        h = f32tof16(x);
        sincos(x, s, c);
      });
    });
    for (int i = 0; i < kN; ++i) {
      const bool on = i % 3 == 0;
      const float xv = x.lane(i);
      const auto V = v.lane(i);
      INFO("wave ", wave, " thread ", i, " active ", on, " x=", xv);
      CHECK(SameFloat(r.lane(i), on ? std::nearbyint(xv) : -99.0f));
      CHECK(SameFloat(l.lane(i), on ? std::sqrt(V[0] * V[0] + V[1] * V[1] + V[2] * V[2]) : -99.0f));
      CHECK(SameFloat(n.lane(i)[1],
                      on ? V[1] * (1.0f / std::sqrt(V[0] * V[0] + V[1] * V[1] + V[2] * V[2]))
                         : -99.0f));
      CHECK(nan_mask.lane(i) == (on && std::isnan(xv)));
      if (on && std::isnan(xv)) {
        CHECK((h.lane(i) & 0x7C00u) == 0x7C00u);  // a NaN half: exponent all ones,
        CHECK((h.lane(i) & 0x03FFu) != 0u);       // mantissa not zero
      } else {
        CHECK(h.lane(i) == (on ? uint32_t(test::RoundToHalf(xv).bits()) : 7u));
      }
      CHECK(SameFloat(s.lane(i), on ? std::sin(xv) : -99.0f));
      CHECK(SameFloat(c.lane(i), on ? std::cos(xv) : -99.0f));
    }
  }
}

namespace {

/// Buffer and groupshared elements passed straight to math functions, as HLSL allows.
struct MathReferenceKernel {
  static constexpr int N = 8;
  static constexpr uint3 numthreads{8, 1, 1};
  RWBuffer<float> Data;
  RWStructuredBuffer<float3> Normals;
  RWBuffer<float> Out;
  RWBuffer<float> Sines;
  void main(SV_GroupIndex<N> gi) const {
    GroupShared<float, N> Shared;
    Shared[gi] = Data[gi] * 2.0f;
    GroupMemoryBarrierWithGroupSync();
    if_(gi != 3u, [&] {
      Out[gi] = max(Data[gi], 0.0f) + length(Normals[gi]) + round(Shared[gi]) +
                clamp(Shared[gi], -1.0f, 1.0f) + dot(normalize(Normals[gi]), Float3<N>(0.0f, 0.0f, 1.0f));
      Float<N> s, c;
      sincos(Data[gi], s, c);
      Sines[gi] = s + pow(Shared[gi], 2.0f) + fmod(Data[gi], 1.0f);
    });
  }
};

}  // namespace

TEST_CASE("math functions take RWBuffer, RWStructuredBuffer and groupshared elements directly") {
  std::vector<float> data = {-1.25f, 0.75f, 2.5f, -0.25f, 1.25f, 3.0f, -2.0f, 0.5f};
  std::vector<float3> normals = {{3, 4, 0}, {0, 0, 2}, {1, 2, 2}, {0, 3, 4},
                                 {2, 3, 6}, {0, 0, -5}, {6, 0, 8}, {4, 4, 7}};
  std::vector<float> out(8, -7.0f), sines(8, -7.0f);
  const MathReferenceKernel k{RWBuffer<float>(std::span<float>(data)),
                              RWStructuredBuffer<float3>(std::span<float3>(normals)),
                              RWBuffer<float>(std::span<float>(out)),
                              RWBuffer<float>(std::span<float>(sines))};
  Dispatch(k, uint3{1, 1, 1});
  for (int i = 0; i < 8; ++i) {
    INFO("thread ", i);
    if (i == 3) {  // inactive: nothing written
      CHECK(out[i] == -7.0f);
      CHECK(sines[i] == -7.0f);
      continue;
    }
    const float d = data[i], sh = d * 2.0f;
    const float nx = normals[i].x, ny = normals[i].y, nz = normals[i].z;
    const float dd = nx * nx + ny * ny + nz * nz;
    // Every length here is an integer (3-4-5, 1-2-2-3, 2-3-6-7, 4-4-7-9...).
    const float want = std::max(d, 0.0f) + std::sqrt(dd) + std::nearbyint(sh) +
                       std::min(std::max(sh, -1.0f), 1.0f) +
                       (nx * (1.0f / std::sqrt(dd)) * 0.0f + ny * (1.0f / std::sqrt(dd)) * 0.0f +
                        nz * (1.0f / std::sqrt(dd)) * 1.0f);
    const float q = d / 1.0f, f = std::fabs(q) - std::floor(std::fabs(q));
    const float want_s = std::sin(d) + sh * sh + (q >= -q ? f : -f) * 1.0f;
    CHECK(SameFloat(out[i], want));
    CHECK(SameFloat(sines[i], want_s));
  }
}
