// test_math.cpp -- HLSL per-thread math intrinsics (emulator/math.h) against hand-worked values
// and scalar loops that spell out each rule.
#include "emulator/emulator.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

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
    INFO("thread ", t, " x=0x", std::hex, v);
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
  CHECK(sqrt(Double<kN>(9.0)).lane(0) == 3.0);
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
