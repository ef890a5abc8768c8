// test_wave_scan.cpp -- WavePrefixCountBits, WavePrefixSum, WavePrefixProduct against the scalar
// oracle in reduce_scan_reference.h (sequential for spec/lavapipe, Hillis-Steele for nvidia), for
// every type, wave size, mask pattern and built-in profile; plus hand-worked cases.
#include "tests/intrinsics/reduce_scan_reference.h"

namespace {

using namespace waveemu;
using namespace waveemu::test;
using namespace waveemu::test::ref;

#define WAVEEMU_ALL_TYPES int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t, half, float, double

template <class T, int N>
void SweepPrefix(Op op) {
  const bool product = op == Op::kProduct;
  Sweep<T, T, N>(
      product ? "WavePrefixProduct" : "WavePrefixSum", ArithmeticInputs<T, N>(product),
      [product](const Lanes<T, N>& x) {
        return product ? WavePrefixProduct(x) : WavePrefixSum(x);
      },
      [op](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof, int&) {
        Arr<T, N> out{};
        for (int wave = 0; wave < WaveCount<N>(W); ++wave) ScanWave(op, in, mask, wave, W, prof, out);
        return out;
      });
}

TEST_CASE_TEMPLATE(
    "WavePrefixSum is the exclusive sum over the active lanes below, in the profile's scan order",
    T, WAVEEMU_ALL_TYPES) {
  SweepPrefix<T, 256>(Op::kSum);
  SweepPrefix<T, 24>(Op::kSum);
}

TEST_CASE_TEMPLATE(
    "WavePrefixProduct is the exclusive product over the active lanes below, in the profile's "
    "scan order",
    T, WAVEEMU_ALL_TYPES) {
  SweepPrefix<T, 256>(Op::kProduct);
  SweepPrefix<T, 24>(Op::kProduct);
}

template <int N>
void SweepPrefixCountBits() {
  std::vector<Arr<uint32_t, N>> sets;
  for (uint32_t seed : {71u, 72u}) {
    std::mt19937 rng(seed);
    Arr<uint32_t, N> a{};
    for (auto& v : a) v = rng() % 3 != 0;
    sets.push_back(a);
  }
  Arr<uint32_t, N> ones;
  ones.fill(1u);
  sets.push_back(ones);
  Sweep<uint32_t, uint32_t, N>(
      "WavePrefixCountBits", sets,
      [](const Uint<N>& x) { return WavePrefixCountBits(Bool<N>(x)); },
      [](const Arr<uint32_t, N>& in, const Mask<N>& mask, int W, const DeviceProfile&, int&) {
        Arr<uint32_t, N> out{};
        for (int wave = 0; wave < WaveCount<N>(W); ++wave) {
          uint32_t below = 0;  // true bools among the active lanes seen so far
          for (int t : ActiveThreads(mask, wave, W)) {
            out[t] = below;
            below += in[t] != 0;
          }
        }
        return out;
      });
}

TEST_CASE("WavePrefixCountBits counts the true bools of the active lanes below") {
  SweepPrefixCountBits<256>();
  SweepPrefixCountBits<24>();
}

TEST_CASE_TEMPLATE("WavePrefixSum and WavePrefixProduct of vectors work component by component", T,
                   WAVEEMU_ALL_TYPES) {
  constexpr int N = 256;
  const std::array<Arr<T, N>, 2> comps{Mixed<T, N>(81), Factors<T, N>(82)};
  const auto patterns = AllMaskPatterns<N>();
  for (const DeviceProfile& prof : Profiles())
    for (int W : kWaveSizes)
      for (const auto& p : patterns) {
        const Vector<T, 2, N> x{Lanes<T, N>(comps[0]), Lanes<T, N>(comps[1])};
        Vector<T, 2, N> sum(Sentinel<T>()), product(Sentinel<T>());
        RunGroup<N>(
            W,
            [&] {
              if_(Bool<N>::FromMask(p.mask), [&] {
                sum = WavePrefixSum(x);
                product = WavePrefixProduct(x);
              });
            },
            prof);
        for (int c = 0; c < 2; ++c)
          for (Op op : {Op::kSum, Op::kProduct}) {
            Arr<T, N> expected{};
            for (int wave = 0; wave < WaveCount<N>(W); ++wave)
              ScanWave(op, comps[c], p.mask, wave, W, prof, expected);
            CheckLanes<T, N, T>(op == Op::kSum ? sum[c] : product[c], expected, p.mask,
                                Sentinel<T>(), comps[c],
                                fmt::format("WavePrefix{}<{}2> component {}, wave size {}, mask "
                                            "'{}', profile {}",
                                            op == Op::kSum ? "Sum" : "Product", TypeName<T>(), c,
                                            W, p.name, prof.name));
          }
      }
}

// ------------------------------------------------------------------------------------------------
// Hand-worked cases

TEST_CASE("Hand-worked: wave 8 with x = 1..8 gives WavePrefixSum 0,1,3,6,10,15,21,28") {
  constexpr int N = 8;
  const Uint<N> x(std::array<uint32_t, N>{1, 2, 3, 4, 5, 6, 7, 8});
  Uint<N> sum, product;
  Float<N> fsum;
  for (const DeviceProfile& prof : Profiles()) {
    RunGroup<N>(8, [&] {
      sum = WavePrefixSum(x);
      product = WavePrefixProduct(x);
      fsum = WavePrefixSum(Float<N>(x));  // small integers: every order gives the same bits
    }, prof);
    const uint32_t want_sum[] = {0, 1, 3, 6, 10, 15, 21, 28};
    const uint32_t want_product[] = {1, 1, 2, 6, 24, 120, 720, 5040};
    for (int t = 0; t < N; ++t) {
      CHECK(sum.lane(t) == want_sum[t]);
      CHECK(product.lane(t) == want_product[t]);
      CHECK(fsum.lane(t) == float(want_sum[t]));
    }
  }
}

TEST_CASE("Hand-worked: under a mask the first active lane gets the identity and inactive lanes "
          "are skipped") {
  constexpr int N = 8;
  const Int<N> x(std::array<int32_t, N>{1, 2, 3, 4, 5, 6, 7, 8});
  Int<N> sum(-99), product(-99);
  RunGroup<N>(8, [&] {
    if_(WaveGetLaneIndex<N>() >= 2u && WaveGetLaneIndex<N>() != 4u, [&] {  // lanes 2,3,5,6,7
      sum = WavePrefixSum(x);
      product = WavePrefixProduct(x);
    });
  });
  const int32_t want_sum[] = {-99, -99, 0, 3, -99, 7, 13, 20};
  const int32_t want_product[] = {-99, -99, 1, 3, -99, 12, 72, 504};
  for (int t = 0; t < N; ++t) {
    CHECK(sum.lane(t) == want_sum[t]);
    CHECK(product.lane(t) == want_product[t]);
  }
}

TEST_CASE("Uniform arguments take N explicitly: WavePrefixSum<N>(1u) is the lane's rank among the "
          "active lanes") {
  constexpr int N = 24;
  Uint<N> rank(99u), count(99u), powers(99u);
  RunGroup<N>(16, [&] {
    if_(WaveGetLaneIndex<N>() % 2u == 1u, [&] {
      rank = WavePrefixSum<N>(1u);
      count = WavePrefixCountBits<N>(true);
      powers = WavePrefixProduct<N>(2u);
    });
  });
  for (int t = 0; t < N; ++t) {
    const bool active = t % 2 == 1;
    const uint32_t r = uint32_t((t % 16) / 2);  // odd lanes below this one in its wave
    CHECK(rank.lane(t) == (active ? r : 99u));
    CHECK(count.lane(t) == (active ? r : 99u));
    CHECK(powers.lane(t) == (active ? (1u << r) : 99u));
  }
}

TEST_CASE("Integer prefix sums wrap modulo 2^bits") {
  constexpr int N = 4;
  const Int16<N> x(std::array<int16_t, N>{INT16_MAX, 1, INT16_MIN, -1});
  const Uint64<N> y(std::array<uint64_t, N>{~uint64_t{0}, 2, 0, 0});
  Int16<N> sx;
  Uint64<N> sy, py;
  RunGroup<N>(4, [&] {
    sx = WavePrefixSum(x);
    sy = WavePrefixSum(y);
    py = WavePrefixProduct(y);
  });
  CHECK(sx.lane(2) == INT16_MIN);  // 32767 + 1
  CHECK(sx.lane(3) == 0);          // + (-32768) wraps to 0
  CHECK(sy.lane(2) == 1u);         // 2^64 - 1 + 2
  CHECK(py.lane(2) == ~uint64_t{0} - 1);  // (2^64 - 1) * 2 = 2^65 - 2
}

}  // namespace
