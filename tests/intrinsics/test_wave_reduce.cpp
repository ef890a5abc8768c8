// test_wave_reduce.cpp -- WaveActiveAllEqual, CountBits, Sum, Product, BitAnd/Or/Xor, Min, Max
// against the scalar oracle in reduce_scan_reference.h, for every allowed type, wave size, mask
// pattern and built-in profile; full groups of 256 threads (two waves at W = 128) and a partial
// group of 24; plus hand-worked cases, vectors and uniform arguments.
#include "tests/intrinsics/reduce_scan_reference.h"

namespace {

using namespace waveemu;
using namespace waveemu::test;
using namespace waveemu::test::ref;

#define WAVEEMU_ALL_TYPES int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, half, float, double

template <class T, int N>
void SweepArithmetic(Op op) {
  const bool product = op == Op::kProduct;
  Sweep<T, T, N>(
      product ? "WaveActiveProduct" : "WaveActiveSum", ArithmeticInputs<T, N>(product),
      [product](const Lanes<T, N>& x) {
        return product ? WaveActiveProduct(x) : WaveActiveSum(x);
      },
      [op](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof,
           int&) {
        return PerWave<T>(mask, W, [&](int wave) { return ReduceWave(op, in, mask, wave, W, prof); });
      });
}

TEST_CASE_TEMPLATE("WaveActiveSum is the sum over the wave's active lanes in the profile's order",
                   T, WAVEEMU_ALL_TYPES) {
  SweepArithmetic<T, 256>(Op::kSum);
  SweepArithmetic<T, 24>(Op::kSum);
}

TEST_CASE_TEMPLATE(
    "WaveActiveProduct is the product over the wave's active lanes in the profile's order", T,
    WAVEEMU_ALL_TYPES) {
  SweepArithmetic<T, 256>(Op::kProduct);
  SweepArithmetic<T, 24>(Op::kProduct);
}

template <class T, int N>
void SweepBits(Op op, const char* name) {
  std::vector<Arr<T, N>> sets;
  for (uint32_t seed : {21u, 22u}) {
    std::mt19937 rng(seed);
    Arr<T, N> a{};
    // AND of random words is almost always 0; denser words keep bits alive in small waves.
    for (auto& v : a) {
      const uint64_t r = (uint64_t(rng()) << 32) | rng();
      v = T(op == Op::kBitAnd && seed == 21u ? r | (uint64_t(rng()) << 32 | rng()) : r);
    }
    sets.push_back(a);
  }
  Sweep<T, T, N>(
      name, sets,
      [op](const Lanes<T, N>& x) {
        return op == Op::kBitAnd ? WaveActiveBitAnd(x)
               : op == Op::kBitOr ? WaveActiveBitOr(x)
                                  : WaveActiveBitXor(x);
      },
      [op](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof,
           int&) {
        return PerWave<T>(mask, W, [&](int wave) { return ReduceWave(op, in, mask, wave, W, prof); });
      });
}

TEST_CASE_TEMPLATE("WaveActiveBitAnd, BitOr and BitXor combine the bits of the active lanes", T,
                   uint32_t, uint64_t) {
  SweepBits<T, 256>(Op::kBitAnd, "WaveActiveBitAnd");
  SweepBits<T, 256>(Op::kBitOr, "WaveActiveBitOr");
  SweepBits<T, 256>(Op::kBitXor, "WaveActiveBitXor");
  SweepBits<T, 24>(Op::kBitAnd, "WaveActiveBitAnd");
  SweepBits<T, 24>(Op::kBitOr, "WaveActiveBitOr");
  SweepBits<T, 24>(Op::kBitXor, "WaveActiveBitXor");
}

/// Min/max inputs: random values (floats with NaN lanes), a small set with many ties (and +-0,
/// NaN for floats), and denormals for floats.
template <class T, int N>
std::vector<Arr<T, N>> MinMaxInputs() {
  std::vector<Arr<T, N>> sets;
  auto mixed = Mixed<T, N>(31);
  if constexpr (kFloat<T>)
    for (int t = 3; t < N; t += 7) mixed[t] = FromBits<T>(std::is_same_v<T, half> ? 0x7e01 : std::is_same_v<T, float> ? 0x7fc00001 : 0x7ff8000000000001ull);
  sets.push_back(mixed);
  std::mt19937 rng(32);
  Arr<T, N> ties{};
  for (auto& v : ties) {
    const uint32_t r = rng() % 5;
    if constexpr (kFloat<T>) {
      const float choices[] = {0.0f, -0.0f, 1.0f, -1.0f, std::numeric_limits<float>::quiet_NaN()};
      v = T(choices[r]);
    } else {
      v = std::is_signed_v<T> ? T(int(r) - 2) : T(r == 4 ? T(~T(0)) : T(r));
    }
  }
  sets.push_back(ties);
  if constexpr (kFloat<T>) {
    const auto tiny = Tiny<T, N>(33);
    sets.push_back(tiny);
  }
  return sets;
}

template <class T, int N>
void SweepMinMax(bool is_max) {
  Sweep<T, T, N>(
      is_max ? "WaveActiveMax" : "WaveActiveMin", MinMaxInputs<T, N>(),
      [is_max](const Lanes<T, N>& x) { return is_max ? WaveActiveMax(x) : WaveActiveMin(x); },
      [is_max](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof,
               int& diagnostics) {
        return PerWave<T>(mask, W, [&](int wave) {
          return MinMaxWave(is_max, in, mask, wave, W, prof, diagnostics);
        });
      });
}

TEST_CASE_TEMPLATE(
    "WaveActiveMin and WaveActiveMax ignore NaN lanes, order by the type's signedness, and treat "
    "all-NaN waves per profile",
    T, WAVEEMU_ALL_TYPES) {
  SweepMinMax<T, 256>(false);
  SweepMinMax<T, 256>(true);
  SweepMinMax<T, 24>(false);
  SweepMinMax<T, 24>(true);
}

/// AllEqual inputs: constant, constant but for one thread (for several threads), random; for
/// floats also all the same NaN, NaNs with one other payload, +0 with some -0, one NaN.
template <class T, int N>
std::vector<Arr<T, N>> AllEqualInputs() {
  std::vector<Arr<T, N>> sets;
  const T c = Mixed<T, 1>(41)[0];
  const T other = Mixed<T, 1>(42)[0];
  Arr<T, N> constant;
  constant.fill(c);
  sets.push_back(constant);
  for (int k : {0, 5, 37, 130, 255}) {
    auto one_off = constant;
    one_off[k % N] = other;
    sets.push_back(one_off);
  }
  sets.push_back(Mixed<T, N>(43));
  if constexpr (kFloat<T>) {
    const T nan = FromBits<T>(std::is_same_v<T, half> ? 0x7e01 : std::is_same_v<T, float> ? 0x7fc00001 : 0x7ff8000000000001ull);
    const T nan2 = FromBits<T>(std::is_same_v<T, half> ? 0x7e02 : std::is_same_v<T, float> ? 0x7fc00002 : 0x7ff8000000000002ull);
    Arr<T, N> nans;
    nans.fill(nan);
    sets.push_back(nans);
    auto two_payloads = nans;
    two_payloads[37 % N] = nan2;
    sets.push_back(two_payloads);
    Arr<T, N> zeros;
    for (int t = 0; t < N; ++t) zeros[t] = T(t % 5 == 2 ? -0.0f : 0.0f);
    sets.push_back(zeros);
    auto one_nan = constant;
    one_nan[130 % N] = nan;
    sets.push_back(one_nan);
  }
  return sets;
}

template <class T, int N>
void SweepAllEqual() {
  Sweep<uint32_t, T, N>(
      "WaveActiveAllEqual", AllEqualInputs<T, N>(),
      [](const Lanes<T, N>& x) { return select(WaveActiveAllEqual(x), Uint<N>(1u), Uint<N>(0u)); },
      [](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof, int&) {
        return PerWave<uint32_t>(mask, W, [&](int wave) {
          return AllEqualWave(in, mask, wave, W, prof) ? 1u : 0u;
        });
      });
}

TEST_CASE_TEMPLATE(
    "WaveActiveAllEqual is true when every active lane holds the same value, floats compared per "
    "profile",
    T, WAVEEMU_ALL_TYPES) {
  SweepAllEqual<T, 256>();
  SweepAllEqual<T, 24>();
}

template <int N>
void SweepBoolLanes(const char* what, bool all_equal) {
  std::vector<Arr<uint32_t, N>> sets;
  for (uint32_t seed : {51u, 52u}) {
    std::mt19937 rng(seed);
    Arr<uint32_t, N> a{};
    for (auto& v : a) v = rng() % 4 != 0;  // mostly true
    sets.push_back(a);
  }
  sets.push_back({});  // all false
  Arr<uint32_t, N> ones;
  ones.fill(1u);
  sets.push_back(ones);
  Sweep<uint32_t, uint32_t, N>(
      what, sets,
      [all_equal](const Uint<N>& x) {
        const Bool<N> b(x);
        return all_equal ? select(WaveActiveAllEqual(b), Uint<N>(1u), Uint<N>(0u))
                         : WaveActiveCountBits(b);
      },
      [all_equal](const Arr<uint32_t, N>& in, const Mask<N>& mask, int W,
                  const DeviceProfile&, int&) {
        return PerWave<uint32_t>(mask, W, [&](int wave) {
          const std::vector<int> active = ActiveThreads(mask, wave, W);
          uint32_t count = 0;
          for (int t : active) count += in[t] != 0;
          if (!all_equal) return count;
          return count == 0 || count == active.size() ? 1u : 0u;
        });
      });
}

TEST_CASE("WaveActiveCountBits counts the active lanes whose bool is true") {
  SweepBoolLanes<256>("WaveActiveCountBits", false);
  SweepBoolLanes<100>("WaveActiveCountBits", false);  // a second mask word that ends inside it
  SweepBoolLanes<24>("WaveActiveCountBits", false);
}

TEST_CASE("WaveActiveAllEqual on bools is true when the active lanes are all true or all false") {
  SweepBoolLanes<256>("WaveActiveAllEqual(bool)", true);
  SweepBoolLanes<24>("WaveActiveAllEqual(bool)", true);
}

// ------------------------------------------------------------------------------------------------
// Vectors: component-wise, each component checked against the scalar oracle.

template <class T, int N, class Call, class Ref>
void SweepVector3(const char* what, Call call, Ref ref) {
  const std::array<Arr<T, N>, 3> comps{Mixed<T, N>(61), Factors<T, N>(62), Mixed<T, N>(63)};
  const auto patterns = AllMaskPatterns<N>();
  for (const DeviceProfile& prof : Profiles())
    for (int W : kWaveSizes)
      for (const auto& p : patterns) {
        const Vector<T, 3, N> x{Lanes<T, N>(comps[0]), Lanes<T, N>(comps[1]),
                                Lanes<T, N>(comps[2])};
        using R = typename decltype(call(x))::value_type;
        Vector<R, 3, N> out(Sentinel<R>());
        RunGroup<N>(W, [&] { if_(Bool<N>::FromMask(p.mask), [&] { out = call(x); }); }, prof);
        for (int c = 0; c < 3; ++c)
          CheckLanes<R, N, T>(out[c], ref(comps[c], p.mask, W, prof), p.mask, Sentinel<R>(), comps[c],
                     fmt::format("{}<{}3> component {}, wave size {}, mask '{}', profile {}", what,
                                 TypeName<T>(), c, W, p.name, prof.name));
      }
}

TEST_CASE_TEMPLATE("Wave reductions of vectors work component by component", T,
                   WAVEEMU_ALL_TYPES) {
  constexpr int N = 256;
  for (Op op : {Op::kSum, Op::kProduct}) {
    SweepVector3<T, N>(
        op == Op::kSum ? "WaveActiveSum" : "WaveActiveProduct",
        [op](const Vector<T, 3, N>& x) {
          return op == Op::kSum ? WaveActiveSum(x) : WaveActiveProduct(x);
        },
        [op](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof) {
          return PerWave<T>(mask, W, [&](int w) { return ReduceWave(op, in, mask, w, W, prof); });
        });
  }
  for (bool is_max : {false, true}) {
    SweepVector3<T, N>(
        is_max ? "WaveActiveMax" : "WaveActiveMin",
        [is_max](const Vector<T, 3, N>& x) { return is_max ? WaveActiveMax(x) : WaveActiveMin(x); },
        [is_max](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof) {
          int unused = 0;
          return PerWave<T>(mask, W,
                            [&](int w) { return MinMaxWave(is_max, in, mask, w, W, prof, unused); });
        });
  }
  if constexpr (kIsUintOnly<T>) {
    for (Op op : {Op::kBitAnd, Op::kBitOr, Op::kBitXor}) {
      SweepVector3<T, N>(
          "WaveActiveBit*",
          [op](const Vector<T, 3, N>& x) {
            return op == Op::kBitAnd ? WaveActiveBitAnd(x)
                   : op == Op::kBitOr ? WaveActiveBitOr(x)
                                      : WaveActiveBitXor(x);
          },
          [op](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof) {
            return PerWave<T>(mask, W, [&](int w) { return ReduceWave(op, in, mask, w, W, prof); });
          });
    }
  }
}

TEST_CASE("WaveActiveAllEqual of a vector gives one bool per component") {
  constexpr int N = 16;
  Float3<N> v(1.0f);  // x: all equal; y: lane 5 differs; z: all equal but -0 vs +0
  v.y.set_lane(5, 2.0f);
  for (int t = 0; t < N; ++t) v.z.set_lane(t, t % 2 ? -0.0f : 0.0f);
  Bool3<N> r;
  DeviceProfile bitwise = SpecProfile();
  bitwise.float_equality = FloatEquality::kBitwise;
  RunGroup<N>(8, [&] { r = WaveActiveAllEqual(v); }, bitwise);
  for (int t = 0; t < N; ++t) {
    CHECK(r.x.lane(t));
    CHECK(r.y.lane(t) == (t >= 8));  // wave 0 holds lane 5
    CHECK_FALSE(r.z.lane(t));        // bitwise: -0 != +0
  }
  RunGroup<N>(8, [&] { r = WaveActiveAllEqual(v); }, NvidiaProfile());
  for (int t = 0; t < N; ++t) CHECK(r.z.lane(t));  // ordered: -0 == +0
}

// ------------------------------------------------------------------------------------------------
// Hand-worked cases

TEST_CASE("Hand-worked: wave 8 with x = 1..8 gives WaveActiveSum 36 and Product 40320") {
  constexpr int N = 8;
  const Uint<N> x(std::array<uint32_t, N>{1, 2, 3, 4, 5, 6, 7, 8});
  Uint<N> sum, product, and_, or_, xor_;
  RunGroup<N>(8, [&] {
    sum = WaveActiveSum(x);
    product = WaveActiveProduct(x);
    and_ = WaveActiveBitAnd(x | 0xf0u);
    or_ = WaveActiveBitOr(x);
    xor_ = WaveActiveBitXor(x);
  });
  for (int t = 0; t < N; ++t) {
    CHECK(sum.lane(t) == 36u);
    CHECK(product.lane(t) == 40320u);
    CHECK(and_.lane(t) == 0xf0u);  // 1..8 share no bit
    CHECK(or_.lane(t) == 0xfu);
    CHECK(xor_.lane(t) == 8u);     // 1^2^3 = 0, 4^5^6^7 = 0, ^8
  }
}

TEST_CASE("Hand-worked: Min/Max follow the type's signedness and integer sums wrap") {
  constexpr int N = 4;
  const Int<N> i(std::array<int32_t, N>{-1, 5, INT32_MAX, 3});
  const Uint<N> u = Uint<N>(i);
  const Int16<N> s(std::array<int16_t, N>{INT16_MAX, 1, 0, 0});
  Int<N> imin, imax, isum;
  Uint<N> umin, umax;
  Int16<N> ssum;
  RunGroup<N>(4, [&] {
    imin = WaveActiveMin(i);
    imax = WaveActiveMax(i);
    umin = WaveActiveMin(u);
    umax = WaveActiveMax(u);
    isum = WaveActiveSum(i);
    ssum = WaveActiveSum(s);
  });
  CHECK(imin.lane(0) == -1);
  CHECK(imax.lane(0) == INT32_MAX);
  CHECK(umin.lane(0) == 3u);
  CHECK(umax.lane(0) == 0xffffffffu);
  CHECK(isum.lane(0) == INT32_MIN + 6);  // -1 + 5 + (2^31 - 1) + 3 wraps to -2^31 + 6
  CHECK(ssum.lane(0) == INT16_MIN);      // 32767 + 1 wraps
}

TEST_CASE("Uniform arguments take N explicitly: WaveActiveSum<N>(1u) and CountBits<N>(true) count "
          "the active lanes") {
  constexpr int N = 24;
  Uint<N> sum(99u), count(99u), product(99u);
  Float<N> fsum(-1.0f);
  RunGroup<N>(16, [&] {
    if_(WaveGetLaneIndex<N>() % 3u == 0u, [&] {
      sum = WaveActiveSum<N>(1u);
      count = WaveActiveCountBits<N>(true);
      product = WaveActiveProduct<N>(2u);
      fsum = WaveActiveSum<N>(0.5f);
    });
  });
  // Wave 0 (threads 0-15): lanes 0,3,...,15 = 6 lanes; wave 1 (threads 16-23): lanes 0,3,6 = 3.
  for (int t = 0; t < N; ++t) {
    const bool active = (t % 16) % 3 == 0;
    const uint32_t n = t < 16 ? 6u : 3u;
    CHECK(sum.lane(t) == (active ? n : 99u));
    CHECK(count.lane(t) == (active ? n : 99u));
    CHECK(product.lane(t) == (active ? (1u << n) : 99u));
    CHECK(fsum.lane(t) == (active ? 0.5f * float(n) : -1.0f));
  }
}

TEST_CASE("Every reduction takes a uniform argument with N: Min, Max, BitAnd/Or/Xor, AllEqual") {
  // A uniform value reduces to itself on the active lanes; inactive lanes keep their sentinel.
  // WaveActiveMin<N>(3) once matched the bool overload and failed with "not bool".
  constexpr int N = 24;
  static_assert(std::is_same_v<decltype(WaveActiveMin<N>(3)), Int<N>>);
  static_assert(std::is_same_v<decltype(WaveActiveMax<N>(2.5f)), Float<N>>);
  Int<N> min(99), max(99);
  Float<N> fmax(-1.0f);
  Uint<N> band(99u), bor(99u), bxor(99u);
  Lanes<uint64_t, N> bor64(uint64_t{99});
  Bool<N> equal(false), nan_equal(true);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  RunGroup<N>(16, [&] {
    if_(WaveGetLaneIndex<N>() % 3u == 0u, [&] {
      min = WaveActiveMin<N>(-3);
      max = WaveActiveMax<N>(7);
      fmax = WaveActiveMax<N>(2.5f);
      band = WaveActiveBitAnd<N>(0xF0u);
      bor = WaveActiveBitOr<N>(0x0Fu);
      bxor = WaveActiveBitXor<N>(0x5u);  // the same value on an even or odd number of lanes
      bor64 = WaveActiveBitOr<N>(uint64_t{1} << 40);
      equal = WaveActiveAllEqual<N>(4u);
      nan_equal = WaveActiveAllEqual<N>(nan);  // spec compares with IEEE ==: NaN != NaN
    });
  });
  for (int t = 0; t < N; ++t) {
    INFO("thread ", t);
    const bool active = (t % 16) % 3 == 0;
    const bool odd_count = t >= 16;  // wave 0 has 6 active lanes, wave 1 has 3
    CHECK(min.lane(t) == (active ? -3 : 99));
    CHECK(max.lane(t) == (active ? 7 : 99));
    CHECK(fmax.lane(t) == (active ? 2.5f : -1.0f));
    CHECK(band.lane(t) == (active ? 0xF0u : 99u));
    CHECK(bor.lane(t) == (active ? 0x0Fu : 99u));
    CHECK(bxor.lane(t) == (active ? (odd_count ? 0x5u : 0u) : 99u));
    CHECK(bor64.lane(t) == (active ? uint64_t{1} << 40 : uint64_t{99}));
    CHECK(equal.lane(t) == active);
    CHECK(nan_equal.lane(t) == !active);
  }
}

TEST_CASE("A uniform C++ integer HLSL lacks reduces as the HLSL type of its size and sign") {
  // 1ull is unsigned long long, not uint64_t, here: WaveActiveSum<N>(1ull) once fell through to
  // the bool overload's "not bool" assertion. Wave 8, 12 threads: waves of 8 and 4 lanes.
  constexpr int N = 12;
  static_assert(std::is_same_v<decltype(WaveActiveSum<N>(1ull)), Lanes<uint64_t, N>>);
  static_assert(std::is_same_v<decltype(WaveActiveMin<N>(-1ll)), Lanes<int64_t, N>>);
  Lanes<uint64_t, N> sum, bor, prefix;
  Lanes<int64_t, N> min;
  RunGroup<N>(8, [&] {
    sum = WaveActiveSum<N>(0x100000000ull);
    bor = WaveActiveBitOr<N>(1ull << 40);
    min = WaveActiveMin<N>(-5ll);
    prefix = WavePrefixSum<N>(3ull);
  });
  for (int t = 0; t < N; ++t) {
    const uint64_t lanes = t < 8 ? 8 : 4;
    CHECK(sum.lane(t) == lanes << 32);
    CHECK(bor.lane(t) == uint64_t{1} << 40);
    CHECK(min.lane(t) == -5);
    CHECK(prefix.lane(t) == 3u * uint64_t(t % 8));
  }
}

TEST_CASE("Helper lanes take no part in wave reductions") {
  constexpr int N = 8;
  const Uint<N> x(std::array<uint32_t, N>{1, 2, 4, 8, 16, 32, 64, 128});
  Uint<N> sum;
  Uint<N> min;
  RunGroup<N>(8, [&] {
    CurrentGroup<N>().set_helper(Mask<N>::Range(0, 2));
    sum = WaveActiveSum(x);
    min = WaveActiveMin(x);
  });
  CHECK(sum.lane(7) == 252u);
  CHECK(min.lane(7) == 4u);
}

TEST_CASE("An all-NaN WaveActiveMin under the spec profile is poisoned and reported once per wave") {
  constexpr int N = 16;
  const Float<N> x(std::numeric_limits<float>::quiet_NaN());
  Float<N> r;
  DispatchShared shared;
  RunGroup<N>(8, [&] { r = WaveActiveMin(x); }, SpecProfile(), &shared);
  CHECK(BitsOf(r.lane(0)) == BitsOf(Poison<float>()));
  REQUIRE(shared.diagnostics.count() == 2u);
  CHECK(shared.diagnostics.kept()[0].rule.find("WaveActiveMin") != std::string::npos);
}

}  // namespace
