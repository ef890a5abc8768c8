// test_numeric_rules.cpp -- HLSL's integer and conversion rules (DESIGN §2 rule 3), one by one,
// with hand-worked values, plus sweeps of every float -> integer conversion against the D3D
// ftoi/ftou rule written out in the test.
#include "emulator/emulator.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace waveemu;

namespace {
constexpr int kN = 20;

template <class T, int N>
void CheckAll(const Lanes<T, N>& x, T want, const char* what) {
  for (int t = 0; t < N; ++t) CHECK_MESSAGE(x.lane(t) == want, what, " thread ", t);
}
}  // namespace

TEST_CASE("shift counts are masked to the bit width minus one") {
  // DXC: x << 33 on uint32 is x << 1; int16/uint16 mask with 15, 64-bit types with 63.
  CheckAll(Uint<kN>(5u) << 33u, 10u, "uint << 33");
  CheckAll(Uint<kN>(0x80000000u) >> 33u, 0x40000000u, "uint >> 33");
  CheckAll(Uint<kN>(1u) << 32u, 1u, "uint << 32");
  CheckAll(Int<kN>(-8) >> 33, -4, "int >> 33 (arithmetic)");
  CheckAll(Uint16<kN>(uint16_t(3)) << uint16_t(17), uint16_t(6), "uint16 << 17");
  CheckAll(Int16<kN>(int16_t(-32768)) >> int16_t(17), int16_t(-16384), "int16 >> 17");
  CheckAll(Uint16<kN>(uint16_t(0x8001)) << uint16_t(16), uint16_t(0x8001), "uint16 << 16");
  CheckAll(Uint64<kN>(uint64_t(1)) << uint64_t(65), uint64_t(2), "uint64 << 65");
  CheckAll(Int64<kN>(int64_t(-1)) >> int64_t(64 + 63), int64_t(-1), "int64 >> 127");
}

TEST_CASE("per-thread operands of two types convert as HLSL does: int with uint to uint, an "
          "integer with a float type to the float type, a shift keeps its left type") {
  std::array<int32_t, kN> si{};
  std::array<uint32_t, kN> ui{};
  std::array<uint16_t, kN> u16{};
  for (int t = 0; t < kN; ++t) {
    si[t] = t % 2 ? -3 * t : 7 * t;
    ui[t] = uint32_t(t) * 1000003u;
    u16[t] = uint16_t(t * 3);
  }
  const Int<kN> s(si);
  const Uint<kN> u(ui);
  const Uint16<kN> h(u16);
  const Float<kN> f(0.25f);
  const Double<kN> d(-1.5);
  const Uint<kN> sum = s + u;
  const Uint<kN> diff = u - s;
  const Bool<kN> less = s < u;
  const Float<kN> scaled = f * s;
  const Float<kN> scaled_u = u * f;
  const Double<kN> wide = d + h;
  const Int<kN> shifted = s << Uint<kN>(3u);
  const Uint16<kN> shifted16 = h >> Uint<kN>(1u);
  for (int t = 0; t < kN; ++t) {
    CAPTURE(t);
    // The plain C++ of each: conversions written out, so no rule of waveemu's is reused.
    CHECK(sum.lane(t) == uint32_t(si[t]) + ui[t]);
    CHECK(diff.lane(t) == ui[t] - uint32_t(si[t]));
    CHECK(less.lane(t) == (uint32_t(si[t]) < ui[t]));
    CHECK(scaled.lane(t) == 0.25f * float(si[t]));
    CHECK(scaled_u.lane(t) == float(ui[t]) * 0.25f);
    CHECK(wide.lane(t) == -1.5 + double(u16[t]));
    CHECK(shifted.lane(t) == int32_t(uint32_t(si[t]) << 3));
    CHECK(shifted16.lane(t) == uint16_t(u16[t] >> 1));
  }
  // int(-1) < 1u is false in HLSL, as in C: the int converts to 0xFFFFFFFF.
  const Bool<kN> minus_one_less = Int<kN>(-1) < Uint<kN>(1u);
  for (int t = 0; t < kN; ++t) CHECK_FALSE(minus_one_less.lane(t));
}

TEST_CASE("unsigned division and remainder by zero give all ones") {
  CheckAll(Uint<kN>(7u) / 0u, 0xFFFFFFFFu, "7u / 0");
  CheckAll(Uint<kN>(7u) % 0u, 0xFFFFFFFFu, "7u % 0");
  CheckAll(Uint16<kN>(uint16_t(7)) / uint16_t(0), uint16_t(0xFFFF), "uint16 7 / 0");
  CheckAll(Uint64<kN>(uint64_t(7)) % uint64_t(0), ~uint64_t(0), "uint64 7 % 0");
  CheckAll(Uint<kN>(7u) / 2u, 3u, "7u / 2");
  CheckAll(Uint<kN>(7u) % 2u, 1u, "7u % 2");
}

TEST_CASE("signed division truncates toward zero; % takes the dividend's sign") {
  CheckAll(Int<kN>(-7) / 2, -3, "-7 / 2");
  CheckAll(Int<kN>(-7) % 2, -1, "-7 % 2");
  CheckAll(Int<kN>(7) % -2, 1, "7 % -2");
  CheckAll(Int16<kN>(int16_t(-32768)) / int16_t(2), int16_t(-16384), "int16 min / 2");
}

TEST_CASE("signed division by zero is poisoned and reported under spec, -1 under nvidia") {
  Int<kN> q, r, ok;
  {
    DispatchShared shared;
    test::RunGroup<kN>(
        8,
        [&] {
          q = Int<kN>(5) / 0;
          r = Int<kN>(std::numeric_limits<int32_t>::min()) % -1;
        },
        SpecProfile(), &shared);
    CheckAll(q, Poison<int32_t>(), "spec: 5 / 0");
    CheckAll(r, Poison<int32_t>(), "spec: INT_MIN % -1");
    const auto kept = shared.diagnostics.kept();
    REQUIRE(kept.size() == 2);
    CHECK(kept[0].rule.find("signed division by zero") != std::string::npos);
    CHECK(kept[1].rule.find("signed remainder") != std::string::npos);
  }
  {
    DispatchShared shared;
    test::RunGroup<kN>(
        8,
        [&] {
          q = Int<kN>(5) / 0;
          r = Int<kN>(std::numeric_limits<int32_t>::min()) / -1;
          ok = Int<kN>(6) / 3;
        },
        NvidiaProfile(), &shared);
    CheckAll(q, -1, "nvidia: 5 / 0");
    CheckAll(r, -1, "nvidia: INT_MIN / -1");
    CheckAll(ok, 2, "nvidia: 6 / 3");
    CHECK(shared.diagnostics.count() == 0);
  }
  {
    // A uniform value computes as one thread of the running group and follows its profile: the
    // same -1 under nvidia, poison and a report under spec.
    const int3 n{7, 7, 7}, d{1, 0, 1};
    int3 nvidia_q{}, spec_q{};
    DispatchShared nvidia_shared, spec_shared;
    test::RunGroup<kN>(8, [&] { nvidia_q = n / d; }, NvidiaProfile(), &nvidia_shared);
    test::RunGroup<kN>(8, [&] { spec_q = n / d; }, SpecProfile(), &spec_shared);
    CHECK(nvidia_q == int3{7, -1, 7});
    CHECK(nvidia_shared.diagnostics.count() == 0);
    CHECK(spec_q == int3{7, Poison<int32_t>(), 7});
    const auto kept = spec_shared.diagnostics.kept();
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].rule.find("signed division by zero") != std::string::npos);
    CHECK(kept[0].details.find("a uniform value") != std::string::npos);
  }
  {
    // Only active threads count: a zero divisor on an inactive thread is not reported.
    DispatchShared shared;
    Int<kN> divisor(1);
    divisor.set_lane(kN - 1, 0);
    test::RunGroup<kN>(
        8,
        [&] {
          if_(Bool<kN>::FromMask(Mask<kN>::Range(0, kN - 1)), [&] { q = Int<kN>(5) / divisor; });
        },
        SpecProfile(), &shared);
    CHECK(shared.diagnostics.count() == 0);
  }
}

TEST_CASE("float to integer truncates, saturates, and gives 0 for NaN (D3D ftoi/ftou)") {
  CheckAll(Int<kN>(Float<kN>(std::numeric_limits<float>::quiet_NaN())), 0, "(int)NaN");
  CheckAll(Uint<kN>(Float<kN>(std::numeric_limits<float>::quiet_NaN())), 0u, "(uint)NaN");
  CheckAll(Int<kN>(Float<kN>(3e9f)), std::numeric_limits<int32_t>::max(), "(int)3e9f");
  CheckAll(Int<kN>(Float<kN>(-3e9f)), std::numeric_limits<int32_t>::min(), "(int)-3e9f");
  CheckAll(Uint<kN>(Float<kN>(-1.5f)), 0u, "(uint)-1.5f");
  CheckAll(Uint<kN>(Float<kN>(5e9f)), 0xFFFFFFFFu, "(uint)5e9f");
  CheckAll(Int<kN>(Float<kN>(-2.7f)), -2, "(int)-2.7f");
  CheckAll(Int<kN>(Float<kN>(2.7f)), 2, "(int)2.7f");
  CheckAll(Int<kN>(Float<kN>(std::numeric_limits<float>::infinity())),
           std::numeric_limits<int32_t>::max(), "(int)inf");
  CheckAll(Int16<kN>(Float<kN>(40000.0f)), int16_t(32767), "(int16_t)40000.0f");
  CheckAll(Uint16<kN>(Float<kN>(70000.0f)), uint16_t(65535), "(uint16_t)70000.0f");
  CheckAll(Int64<kN>(Double<kN>(1e19)), std::numeric_limits<int64_t>::max(), "(int64_t)1e19");
  CheckAll(Uint64<kN>(Double<kN>(2e19)), std::numeric_limits<uint64_t>::max(), "(uint64_t)2e19");
  CheckAll(Int<kN>(Half<kN>(half(-2.75f))), -2, "(int)-2.75h");
  CheckAll(Uint<kN>(Half<kN>(half::FromBits(0xFC00))), 0u, "(uint)-inf h");
  CheckAll(Int<kN>(Double<kN>(2147483647.9)), 2147483647, "(int)2147483647.9");
}

namespace {
/// D3D ftoi/ftou written out: NaN -> 0; truncate toward zero; below the range -> min; above -> max.
template <class I>
I RefFloatToInt(double f) {
  if (std::isnan(f)) return 0;
  const double t = std::trunc(f);
  constexpr int bits = sizeof(I) * 8;
  const double lo = std::is_signed_v<I> ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hi_exclusive = std::ldexp(1.0, std::is_signed_v<I> ? bits - 1 : bits);
  if (t < lo) return std::numeric_limits<I>::min();
  if (t >= hi_exclusive) return std::numeric_limits<I>::max();
  return static_cast<I>(t);
}

template <class F, class I>
void SweepFloatToInt() {
  constexpr int N = 64;
  std::mt19937_64 rng(42);
  for (int round = 0; round < 50; ++round) {
    Lanes<F, N> in;
    std::array<double, N> src;
    for (int t = 0; t < N; ++t) {
      F f;
      const uint64_t r = rng();
      if constexpr (std::is_same_v<F, half>) f = half::FromBits(uint16_t(r));
      else if constexpr (std::is_same_v<F, float>)
        f = (r & 1) ? std::bit_cast<float>(uint32_t(r >> 1))
                    : float(double(int64_t(r) >> (r & 63)) / 3.0);
      else
        f = (r & 1) ? std::bit_cast<double>(r) : double(int64_t(r) >> (r & 63)) / 3.0;
      in.set_lane(t, f);
      src[t] = std::is_same_v<F, half> ? double(float(f)) : double(f);
    }
    const Lanes<I, N> out(in);
    for (int t = 0; t < N; ++t) {
      if (out.lane(t) != RefFloatToInt<I>(src[t])) {
        FAIL_CHECK("(", typeid(I).name(), ")", src[t], " gave ", out.lane(t), " expected ",
                   RefFloatToInt<I>(src[t]));
        return;
      }
    }
  }
  CHECK(true);
}
}  // namespace

TEST_CASE_TEMPLATE("every float to integer conversion follows ftoi/ftou on random inputs", I,
                   int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t) {
  SweepFloatToInt<half, I>();
  SweepFloatToInt<float, I>();
  SweepFloatToInt<double, I>();
}

TEST_CASE("integer to float rounds to nearest even; integer to integer wraps") {
  // 16777217 = 2^24 + 1 is halfway between 2^24 and 2^24 + 2: even mantissa wins (2^24).
  CheckAll(Float<kN>(Int<kN>(16777217)), 16777216.0f, "(float)16777217");
  CheckAll(Float<kN>(Int<kN>(16777219)), 16777220.0f, "(float)16777219");
  CheckAll(Float<kN>(Uint<kN>(0xFFFFFFFFu)), 4294967296.0f, "(float)0xFFFFFFFFu");
  CheckAll(Double<kN>(Int64<kN>(int64_t(-3))), -3.0, "(double)-3ll");
  CheckAll(Uint<kN>(Int<kN>(-1)), 0xFFFFFFFFu, "(uint)-1");
  CheckAll(Int16<kN>(Int<kN>(0x12345)), int16_t(0x2345), "(int16_t)0x12345");
  CheckAll(Uint16<kN>(Int<kN>(-1)), uint16_t(0xFFFF), "(uint16_t)-1");
  CheckAll(Int<kN>(Uint16<kN>(uint16_t(0xFFFF))), 65535, "(int)(uint16_t)0xFFFF");
  CheckAll(Int<kN>(Int16<kN>(int16_t(-2))), -2, "(int)(int16_t)-2 sign-extends");
  CheckAll(Uint<kN>(-1), 0xFFFFFFFFu, "uint x = -1 (literal)");
  CheckAll(Int<kN>(2.9f), 2, "int x = 2.9f (literal, ftoi)");
}

TEST_CASE("double to float rounds to nearest; double to half rounds once") {
  // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: to even, 1.
  CheckAll(Float<kN>(Double<kN>(1.0 + std::ldexp(1.0, -24))), 1.0f, "(float)(1 + 2^-24)");
  CheckAll(Float<kN>(Double<kN>(1e300)), std::numeric_limits<float>::infinity(), "(float)1e300");
  // 1 + 2^-11 + 2^-40: just above halfway between 1 and 1 + 2^-10, so 1 + 2^-10 (0x3C01).
  // Through float it would first become 1 + 2^-11 (a tie) and then 1.0.
  const Half<kN> h(Double<kN>(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)));
  for (int t = 0; t < kN; ++t) CHECK(h.lane(t).bits() == 0x3C01);
}

TEST_CASE("unsigned negation and ~ wrap; integer overflow wraps") {
  CheckAll(-Uint<kN>(1u), 0xFFFFFFFFu, "-1u");
  CheckAll(~Uint<kN>(0u), 0xFFFFFFFFu, "~0u");
  CheckAll(~Uint16<kN>(uint16_t(0x00F0)), uint16_t(0xFF0F), "~(uint16_t)0xF0");
  CheckAll(-Int<kN>(std::numeric_limits<int32_t>::min()), std::numeric_limits<int32_t>::min(),
           "-INT_MIN");
  CheckAll(Int<kN>(std::numeric_limits<int32_t>::max()) + 1, std::numeric_limits<int32_t>::min(),
           "INT_MAX + 1");
  CheckAll(Uint16<kN>(uint16_t(65535)) * uint16_t(65535), uint16_t(1), "65535 * 65535 (uint16)");
  CheckAll(Int16<kN>(int16_t(32767)) + int16_t(1), int16_t(-32768), "int16 32767 + 1");
  CheckAll(Int64<kN>(std::numeric_limits<int64_t>::max()) * int64_t(2), int64_t(-2),
           "INT64_MAX * 2");
}

TEST_CASE("float comparisons: NaN compares false except !=, and +0 == -0") {
  const Float<kN> nan(std::numeric_limits<float>::quiet_NaN()), one(1.0f);
  CHECK((nan == nan).mask().Empty());
  CHECK((nan != nan).mask().IsAll());
  CHECK((nan < one).mask().Empty());
  CHECK((nan >= one).mask().Empty());
  CHECK((one != nan).mask().IsAll());
  CHECK((Float<kN>(0.0f) == Float<kN>(-0.0f)).mask().IsAll());
  const Half<kN> hnan(half::FromBits(0x7E00)), hone(half(1.0f));
  CHECK((hnan == hnan).mask().Empty());
  CHECK((hnan != hone).mask().IsAll());
  CHECK((hnan <= hone).mask().Empty());
  CHECK((Half<kN>(half::FromBits(0x8000)) == Half<kN>(half::FromBits(0))).mask().IsAll());
}
