// test_lanes.cpp -- every Lanes<T, N> operator for every lane type, against a plain scalar loop
// that spells out the HLSL rule; and masked assignment (only active threads change) for Lanes and
// Bool under if_ in every mask pattern.
#include "emulator/emulator.h"
#include "tests/support/check_lanes.h"
#include "tests/support/half_reference.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace waveemu;
using waveemu::test::BitsOf;
using waveemu::test::CheckLanes;

namespace {

// A thread count that is not a multiple of any vector width, so padding is exercised.
constexpr int kN = 45;

/// Values every operator must survive: zero, ones, extremes, and for floats NaN, inf, -0,
/// denormals.
template <class T>
std::vector<T> Specials() {
  if constexpr (std::is_integral_v<T>) {
    using L = std::numeric_limits<T>;
    return {T(0), T(1), T(2), T(3), T(7), T(-1), T(-2), L::min(), L::max(), T(L::max() - 1),
            T(L::min() + 1), T(sizeof(T) * 8), T(sizeof(T) * 8 + 1)};
  } else if constexpr (std::is_same_v<T, half>) {
    std::vector<T> v;
    for (uint16_t b : {0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x7BFF, 0x0001,
                       0x8001, 0x03FF, 0x0400, 0x4000, 0x3555})
      v.push_back(half::FromBits(b));
    return v;
  } else {
    using L = std::numeric_limits<T>;
    return {T(0), -T(0), T(1), T(-1), T(2), T(0.5), L::infinity(), -L::infinity(),
            L::quiet_NaN(), L::max(), L::lowest(), L::min(), L::denorm_min(), -L::denorm_min(),
            T(3e9), T(-3e9), T(-2.7), T(1.5)};
  }
}

/// Random value: half the time a special, else random bits (floats: any bit pattern, so NaN,
/// inf and denormals turn up too) or a small number.
template <class T>
T RandomValue(std::mt19937_64& rng) {
  const auto specials = Specials<T>();
  const uint64_t r = rng();
  switch (r % 4) {
    case 0:
      return specials[(r >> 8) % specials.size()];
    case 1: {  // small magnitude, so arithmetic stays in range sometimes
      const int64_t small = int64_t((r >> 8) % 41) - 20;
      if constexpr (std::is_same_v<T, half>) return half(float(small) / 4.0f);
      else if constexpr (std::is_floating_point_v<T>) return T(small) / T(4);
      else return T(small);
    }
    default: {
      const uint64_t bits = rng();
      if constexpr (std::is_same_v<T, half>) return half::FromBits(uint16_t(bits));
      else if constexpr (sizeof(T) == 2) return std::bit_cast<T>(uint16_t(bits));
      else if constexpr (sizeof(T) == 4) return std::bit_cast<T>(uint32_t(bits));
      else return std::bit_cast<T>(bits);
    }
  }
}

template <class T, int N>
std::array<T, N> RandomArray(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::array<T, N> a;
  for (auto& x : a) x = RandomValue<T>(rng);
  return a;
}

/// The value as a double (exact for every float type; half through float).
template <class T>
double Wide(T x) {
  if constexpr (std::is_same_v<T, half>) return double(float(x));
  else return double(x);
}

template <class T>
bool IsNan(T x) {
  if constexpr (std::is_integral_v<T>) return false;
  else return std::isnan(Wide(x));
}

/// Floats compare by bits, except that any NaN matches any NaN for ops whose NaN payload is not
/// specified (HLSL: "NaN in, NaN out", bit pattern not preserved).
template <class T>
bool SameValue(T a, T b) {
  if (IsNan(a) && IsNan(b)) return true;
  return BitsOf(a) == BitsOf(b);
}

template <class T, int N>
void CheckValues(const Lanes<T, N>& actual, const std::array<T, N>& expected,
                 const std::array<T, N>& a, const std::array<T, N>& b, const std::string& what) {
  for (int t = 0; t < N; ++t) {
    if (!SameValue(actual.lane(t), expected[t])) {
      std::string rows;
      for (int u = 0; u < N; ++u)
        rows += fmt::format("  thread {:2}: a={} b={} expected={} actual={}{}\n", u,
                            test::Show(a[u]), test::Show(b[u]), test::Show(expected[u]),
                            test::Show(actual.lane(u)), u == t ? "  <--" : "");
      FAIL_CHECK(fmt::format("{}: first mismatch at thread {}\n{}", what, t, rows));
      return;
    }
  }
  CHECK(true);
}

// ------------------------------ reference rules, written out from the HLSL/D3D spec text

/// Integer + - * wrap modulo 2^bits (D3D iadd/imul keep the low bits): computed in uint64_t.
template <class T>
T RefWrap(T a, T b, char op) {
  const uint64_t x = uint64_t(a), y = uint64_t(b);  // sign-extends, then wraps mod 2^64
  const uint64_t r = op == '+' ? x + y : op == '-' ? x - y : x * y;
  return T(r);  // low bits (C++20 integral conversion is modular)
}

/// Float + - * / as one IEEE operation, correctly rounded. half: exact in double, rounded once.
template <class T>
T RefFloat(T a, T b, char op) {
  if constexpr (std::is_same_v<T, half>) {
    const double x = float(a), y = float(b);
    return test::RoundToHalf(op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y);
  } else {
    volatile T x = a, y = b;  // volatile: keep each operation a single rounding
    return op == '+' ? T(x + y) : op == '-' ? T(x - y) : op == '*' ? T(x * y) : T(x / y);
  }
}

/// HLSL % on floats: fmod (result has the dividend's sign); exact, so one rounding.
template <class T>
T RefFmod(T a, T b) {
  if constexpr (std::is_same_v<T, half>)
    return test::RoundToHalf(std::fmod(double(float(a)), double(float(b))));
  else return std::fmod(a, b);
}

/// Unsigned x / 0 and x % 0 are 0xFFFF... (D3D udiv). Signed by 0 or MIN / -1: undefined; the
/// given profile value (poison or -1).
template <class T>
T RefDivMod(T a, T b, bool mod, T undefined) {
  if constexpr (std::is_unsigned_v<T>) {
    if (b == 0) return T(~T(0));
    return mod ? T(a % b) : T(a / b);
  } else {
    if (b == 0 || (a == std::numeric_limits<T>::min() && b == T(-1))) return undefined;
    return mod ? T(int64_t(a) % int64_t(b)) : T(int64_t(a) / int64_t(b));
  }
}

/// Shift count masked to bit width - 1; << in unsigned; >> arithmetic for signed.
template <class T>
T RefShift(T a, T b, bool left) {
  const unsigned bits = sizeof(T) * 8;
  const unsigned n = unsigned(uint64_t(b) % bits);
  if (left) return T(uint64_t(a) << n);
  if constexpr (std::is_signed_v<T>) return T(int64_t(a) >> n);  // C++20: arithmetic
  else return T(uint64_t(a) >> n);
}

template <class T>
bool RefCompare(T a, T b, const std::string& op) {
  if constexpr (std::is_integral_v<T>) {
    return op == "==" ? a == b : op == "!=" ? a != b : op == "<" ? a < b : op == "<=" ? a <= b
         : op == ">" ? a > b : a >= b;
  } else {
    // IEEE: every comparison with NaN is false except !=; +0 == -0.
    const double x = Wide(a), y = Wide(b);
    if (std::isnan(x) || std::isnan(y)) return op == "!=";
    return op == "==" ? x == y : op == "!=" ? x != y : op == "<" ? x < y : op == "<=" ? x <= y
         : op == ">" ? x > y : x >= y;
  }
}

template <class T, int N, class Op, class Ref>
void CheckBinary(const std::string& name, uint64_t seed, Op op, Ref ref) {
  const auto a = RandomArray<T, N>(seed), b = RandomArray<T, N>(seed * 7 + 1);
  std::array<T, N> expected;
  for (int t = 0; t < N; ++t) expected[t] = ref(a[t], b[t]);
  CheckValues<T, N>(op(Lanes<T, N>(a), Lanes<T, N>(b)), expected, a, b,
                    fmt::format("{} on {}", name, typeid(T).name()));
}

template <class T, int N>
void CheckCompare(const std::string& name, uint64_t seed, Bool<N> (*op)(const Lanes<T, N>&,
                                                                         const Lanes<T, N>&)) {
  const auto a = RandomArray<T, N>(seed), b = RandomArray<T, N>(seed * 5 + 3);
  // Make some lanes equal so == is exercised.
  auto b2 = b;
  for (int t = 0; t < N; t += 3) b2[t] = a[t];
  const Bool<N> r = op(Lanes<T, N>(a), Lanes<T, N>(b2));
  for (int t = 0; t < N; ++t) {
    const bool want = RefCompare(a[t], b2[t], name);
    if (r.lane(t) != want) {
      FAIL_CHECK(fmt::format("{} on {} at thread {}: a={} b={} expected {} got {}", name,
                             typeid(T).name(), t, test::Show(a[t]), test::Show(b2[t]), want,
                             r.lane(t)));
      return;
    }
  }
  for (int t = N; t < Mask<N>::kWords * 64; ++t) REQUIRE_FALSE(r.mask().Test(t));  // padding
}

}  // namespace

#define LANE_TYPES int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, half, float, double

TEST_CASE_TEMPLATE("arithmetic on every lane type matches the HLSL rule lane by lane", T,
                   LANE_TYPES) {
  constexpr int N = kN;
  using L = Lanes<T, N>;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    if constexpr (std::is_integral_v<T>) {
      CheckBinary<T, N>("+", seed, [](L a, L b) { return a + b; },
                        [](T a, T b) { return RefWrap(a, b, '+'); });
      CheckBinary<T, N>("-", seed, [](L a, L b) { return a - b; },
                        [](T a, T b) { return RefWrap(a, b, '-'); });
      CheckBinary<T, N>("*", seed, [](L a, L b) { return a * b; },
                        [](T a, T b) { return RefWrap(a, b, '*'); });
      // Outside a group: signed undefined division gives the poison pattern (spec default).
      CheckBinary<T, N>("/", seed, [](L a, L b) { return a / b; },
                        [](T a, T b) { return RefDivMod(a, b, false, Poison<T>()); });
      CheckBinary<T, N>("%", seed, [](L a, L b) { return a % b; },
                        [](T a, T b) { return RefDivMod(a, b, true, Poison<T>()); });
      CheckBinary<T, N>("&", seed, [](L a, L b) { return a & b; },
                        [](T a, T b) { return T(a & b); });
      CheckBinary<T, N>("|", seed, [](L a, L b) { return a | b; },
                        [](T a, T b) { return T(a | b); });
      CheckBinary<T, N>("^", seed, [](L a, L b) { return a ^ b; },
                        [](T a, T b) { return T(a ^ b); });
      CheckBinary<T, N>("<<", seed, [](L a, L b) { return a << b; },
                        [](T a, T b) { return RefShift(a, b, true); });
      CheckBinary<T, N>(">>", seed, [](L a, L b) { return a >> b; },
                        [](T a, T b) { return RefShift(a, b, false); });
      CheckBinary<T, N>("unary -", seed, [](L a, L) { return -a; },
                        [](T a, T) { return RefWrap(T(0), a, '-'); });
      CheckBinary<T, N>("~", seed, [](L a, L) { return ~a; },
                        [](T a, T) { return T(~uint64_t(a)); });
    } else {
      for (char op : {'+', '-', '*', '/'}) {
        CheckBinary<T, N>(std::string(1, op), seed,
                          [op](L a, L b) {
                            return op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b
                                                                                     : a / b;
                          },
                          [op](T a, T b) { return RefFloat(a, b, op); });
      }
      CheckBinary<T, N>("%", seed, [](L a, L b) { return a % b; },
                        [](T a, T b) { return RefFmod(a, b); });
      // -x flips the sign bit, bit-exactly (fneg): -(+0) is -0.
      const auto a = RandomArray<T, N>(seed);
      const L neg = -L(a);
      for (int t = 0; t < N; ++t) {
        const auto want = BitsOf(a[t]) ^ (decltype(BitsOf(a[t]))(1) << (sizeof(T) * 8 - 1));
        CHECK_MESSAGE(BitsOf(neg.lane(t)) == want, "thread ", t, " input ", test::Show(a[t]));
      }
    }
  }
}

// All six comparisons against the scalar ones, for seeds 1..seeds (CheckCompare also requires
// the bits past the group clear). `!=`, and `<=`/`>=` on integers, invert each word of mask bits,
// so every group size whose last word or last vector is partial must still come back with those
// bits clear: the padding lanes of both operands hold equal values, so their inverted bits are
// set before Mask::Normalize clears them.
template <class T, int N>
void CheckComparisons(uint64_t seeds) {
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    CheckCompare<T, N>("==", seed, &Equal<T, N>);
    CheckCompare<T, N>("!=", seed, &NotEqual<T, N>);
    CheckCompare<T, N>("<", seed, &Less<T, N>);
    CheckCompare<T, N>("<=", seed, &LessEqual<T, N>);
    CheckCompare<T, N>(">", seed, &Greater<T, N>);
    CheckCompare<T, N>(">=", seed, &GreaterEqual<T, N>);
  }
}

TEST_CASE_TEMPLATE("comparisons on every lane type follow IEEE (NaN: only != is true)", T,
                   LANE_TYPES) {
  constexpr int N = kN;
  CheckComparisons<T, N>(20);
  // The operator spellings reach the same functions.
  Lanes<T, N> one(T(1)), two(T(2));
  CHECK((one < two).mask().IsAll());
  CHECK((one != two).mask().IsAll());
  CHECK((two >= one).mask().IsAll());
  CHECK((one == two).mask().Empty());
}

TEST_CASE_TEMPLATE("comparisons at group sizes around a vector and a word keep the bits past "
                   "the group clear",
                   T, uint16_t, int32_t, uint32_t, int64_t, float) {
  CheckComparisons<T, 1>(4);
  CheckComparisons<T, 7>(4);
  CheckComparisons<T, 9>(4);
  CheckComparisons<T, 64>(4);
  CheckComparisons<T, 65>(4);
  CheckComparisons<T, 100>(4);  // a second word that ends inside it
  CheckComparisons<T, 128>(4);
  CheckComparisons<T, 256>(4);
}

TEST_CASE_TEMPLATE("operators with a plain scalar on either side broadcast it", T, LANE_TYPES) {
  constexpr int N = kN;
  std::array<T, N> in;
  for (int t = 0; t < N; ++t) in[t] = T(t % 7);
  const Lanes<T, N> x(in);
  const Lanes<T, N> r1 = x + T(3), r2 = T(3) + x, r3 = T(10) - x, r4 = x * T(2);
  const Bool<N> c1 = x < T(3), c2 = T(3) > x;
  for (int t = 0; t < N; ++t) {
    const int v = t % 7;
    CHECK(Wide(r1.lane(t)) == v + 3);
    CHECK(Wide(r2.lane(t)) == v + 3);
    CHECK(Wide(r3.lane(t)) == 10 - v);
    CHECK(Wide(r4.lane(t)) == 2 * v);
    CHECK(c1.lane(t) == (v < 3));
    CHECK(c2.lane(t) == (v < 3));
  }
}

TEST_CASE_TEMPLATE("compound assignment and ++/-- update every thread outside a group", T,
                   LANE_TYPES) {
  constexpr int N = kN;
  Lanes<T, N> x(T(5));
  x += T(2);
  x *= T(3);
  x -= T(1);
  ++x;
  x--;
  Lanes<T, N> old = x++;
  for (int t = 0; t < N; ++t) {
    CHECK(Wide(old.lane(t)) == 20);
    CHECK(Wide(x.lane(t)) == 21);
  }
}

template <class T, int N>
void CheckSelect() {
  const auto a = RandomArray<T, N>(11), b = RandomArray<T, N>(12);
  for (const auto& p : test::AllMaskPatterns<N>()) {
    const Lanes<T, N> r = select(Bool<N>::FromMask(p.mask), Lanes<T, N>(a), Lanes<T, N>(b));
    std::array<T, N> want;
    for (int t = 0; t < N; ++t) want[t] = p.mask.Test(t) ? a[t] : b[t];
    CheckValues<T, N>(r, want, a, b, fmt::format("select, N {}, mask {}", N, p.name));
  }
}

TEST_CASE_TEMPLATE("select picks a where cond, else b, on every thread", T, LANE_TYPES) {
  CheckSelect<T, kN>();
  CheckSelect<T, 100>();  // a second mask word that ends inside it
  CheckSelect<T, 256>();  // four whole words
}

// ------------------------------ masked assignment

template <class T, int N>
void CheckMaskedAssignment() {
  const T sentinel = T(99);
  const auto values = RandomArray<T, N>(77);
  for (const auto& p : test::AllMaskPatterns<N>()) {
    Lanes<T, N> x(sentinel);
    Lanes<T, N> y(sentinel);
    Lanes<T, N> z(sentinel);
    test::RunGroup<N>(32, [&] {
      if_(Bool<N>::FromMask(p.mask), [&] {
        x = Lanes<T, N>(values);  // plain assignment
        y += T(1);                // compound assignment
        z = T(7);                 // scalar assignment (broadcast, then masked)
      });
    });
    std::array<T, N> want_y, want_z;
    for (int t = 0; t < N; ++t) {
      want_y[t] = T(100);  // 99 + 1
      want_z[t] = T(7);
    }
    CheckLanes<T, N>(x, values, p.mask, sentinel, values, "x = values under " + p.name);
    CheckLanes<T, N>(y, want_y, p.mask, sentinel, values, "y += 1 under " + p.name);
    CheckLanes<T, N>(z, want_z, p.mask, sentinel, values, "z = 7 under " + p.name);
  }
}

TEST_CASE_TEMPLATE("assignment inside if_ changes only the active threads, for every lane type", T,
                   LANE_TYPES) {
  // 45: padding; 64 and 128: whole words; 16: smaller than one AVX-512 vector of 16-bit lanes.
  CheckMaskedAssignment<T, 45>();
  CheckMaskedAssignment<T, 64>();
  CheckMaskedAssignment<T, 128>();
  CheckMaskedAssignment<T, 16>();
}

TEST_CASE("Bool assignment inside if_ changes only the active threads") {
  constexpr int N = 70;
  for (const auto& p : test::AllMaskPatterns<N>()) {
    std::mt19937 rng(5);
    Mask<N> start, value;
    for (int t = 0; t < N; ++t) {
      start.Set(t, rng() & 1);
      value.Set(t, rng() & 1);
    }
    Bool<N> b = Bool<N>::FromMask(start);
    Bool<N> c = Bool<N>::FromMask(start);
    test::RunGroup<N>(16, [&] {
      if_(Bool<N>::FromMask(p.mask), [&] {
        b = Bool<N>::FromMask(value);
        c |= Bool<N>(true);
      });
    });
    for (int t = 0; t < N; ++t) {
      INFO("mask ", p.name, ", thread ", t);
      CHECK(b.lane(t) == (p.mask.Test(t) ? value.Test(t) : start.Test(t)));
      CHECK(c.lane(t) == (p.mask.Test(t) ? true : start.Test(t)));
    }
  }
}

TEST_CASE("self-assignment under a mask keeps the value") {
  constexpr int N = 40;
  std::array<uint32_t, N> in;
  for (int t = 0; t < N; ++t) in[t] = uint32_t(t * 3);
  Uint<N> x(in);
  Uint<N>& alias = x;
  test::RunGroup<N>(8, [&] { if_(Bool<N>::FromMask(Mask<N>::Range(0, 20)), [&] { x = alias; }); });
  x = alias;  // outside a group: every thread, still the same value
  for (int t = 0; t < N; ++t) CHECK(x.lane(t) == in[t]);
}

TEST_CASE("&& and || take a uniform bool on either side, as HLSL's per-thread && does") {
  // `x > 0u && flag` with a plain bool was ambiguous (the built-in && competed).
  constexpr int N = 16;
  const Uint<N> x(std::array<uint32_t, N>{0, 1, 2, 0, 3, 0, 0, 4, 5, 0, 6, 7, 0, 0, 8, 9});
  for (const bool flag : {false, true}) {
    const Bool<N> and_right = x > 0u && flag, and_left = flag && x > 0u;
    const Bool<N> or_right = x > 0u || flag, or_left = flag || x > 0u;
    for (int t = 0; t < N; ++t) {
      INFO("flag ", flag, ", thread ", t);
      const bool positive = x.lane(t) > 0u;
      CHECK(and_right.lane(t) == (positive && flag));
      CHECK(and_left.lane(t) == (positive && flag));
      CHECK(or_right.lane(t) == (positive || flag));
      CHECK(or_left.lane(t) == (positive || flag));
    }
  }
}

TEST_CASE("Bool operators and conversions agree with per-thread bools") {
  constexpr int N = 77;
  std::mt19937 rng(9);
  std::array<bool, N> a, b;
  Bool<N> A, B;
  for (int t = 0; t < N; ++t) {
    a[t] = rng() & 1;
    b[t] = rng() & 1;
    A.set_lane(t, a[t]);
    B.set_lane(t, b[t]);
  }
  const Bool<N> and_ = A && B, or_ = A || B, xor_ = A ^ B, not_ = !A, eq = A == B, ne = A != B;
  const Uint<N> as_uint(A);
  const Bool<N> back(as_uint);
  const Bool<N> sel = select(A, B, !B);
  for (int t = 0; t < N; ++t) {
    INFO("thread ", t);
    CHECK(and_.lane(t) == (a[t] && b[t]));
    CHECK(or_.lane(t) == (a[t] || b[t]));
    CHECK(xor_.lane(t) == (a[t] != b[t]));
    CHECK(not_.lane(t) == !a[t]);
    CHECK(eq.lane(t) == (a[t] == b[t]));
    CHECK(ne.lane(t) == (a[t] != b[t]));
    CHECK(as_uint.lane(t) == (a[t] ? 1u : 0u));  // (uint)true == 1
    CHECK(back.lane(t) == a[t]);
    CHECK(sel.lane(t) == (a[t] ? b[t] : !b[t]));
  }
  CHECK((!A).mask().Count() == N - A.mask().Count());  // no bits beyond N
}
