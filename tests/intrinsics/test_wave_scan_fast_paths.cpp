// test_wave_scan_fast_paths.cpp -- the vector fast paths of 32-bit integer WavePrefixSum
// (core::ScanSum32Segments: masked load, in-vector log-step scan, carry across vectors) and
// WaveActiveSum (core::Sum32Segments: the same scan's last lane per wave, or a wave's vectors
// added) against plain scalar loops written from the spec text, at every wave size, full and
// partial waves, every mask pattern, int and uint with values that wrap.
#include "emulator/emulator.h"
#include "intrinsics/wave_reduce.h"
#include "intrinsics/wave_scan.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>

namespace {

using namespace waveemu;
using namespace waveemu::test;

template <class T, int N>
using Arr = std::array<T, size_t(N)>;

/// Values near the wrap points (0, 2^31, 2^32 as unsigned), so sums wrap more than once.
template <class T, int N>
Arr<T, N> WrappingInputs(uint32_t seed) {
  std::mt19937 rng(seed);
  const uint32_t kNear[] = {0xffffffffu, 0x80000000u, 0x7fffffffu, 0xfffffff0u, 1u, 0u};
  Arr<T, N> a{};
  for (auto& v : a) {
    const uint32_t base = kNear[rng() % 6];
    v = T(base - uint32_t(rng() % 16));  // conversion to int32 is modular (C++20)
  }
  return a;
}

/// Spec (WavePrefixSum): "the sum of all the values in the active lanes with smaller indices
/// than this one", 0 on the first active lane; integers wrap modulo 2^32. Lane t is lane t % W of
/// wave t / W; a lane past N does not exist.
template <class T, int N>
Arr<T, N> ScalarPrefixSum(const Arr<T, N>& x, const Mask<N>& mask, int W) {
  Arr<T, N> out{};
  for (int first = 0; first < N; first += W) {
    uint32_t sum = 0;
    for (int t = first; t < N && t < first + W; ++t) {
      out[t] = T(sum);
      if (mask.Test(t)) sum += uint32_t(x[t]);
    }
  }
  return out;
}

/// Spec (WaveActiveSum): "the sum of all the values in the active lanes" of the wave, on every
/// lane of the wave; integers wrap modulo 2^32; a wave with no active lane sums nothing (0).
template <class T, int N>
Arr<T, N> ScalarWaveSum(const Arr<T, N>& x, const Mask<N>& mask, int W) {
  Arr<T, N> out{};
  for (int first = 0; first < N; first += W) {
    uint32_t sum = 0;
    for (int t = first; t < N && t < first + W; ++t)
      if (mask.Test(t)) sum += uint32_t(x[t]);
    for (int t = first; t < N && t < first + W; ++t) out[t] = T(sum);
  }
  return out;
}

enum class SumKind { kPrefix, kActive };

/// One fast path against its scalar loop, through the intrinsic (inactive lanes keep the
/// sentinel: assignment is masked) and through the core, which writes every existing lane,
/// active or not (the prefix: the sum over the active lanes below; the active sum: the wave's
/// total, 0 in a wave with no active lane).
template <SumKind kKind, class T, int N>
void SweepFastPath() {
  constexpr bool kPrefix = kKind == SumKind::kPrefix;
  const T sentinel = T(0x5eed5eedu);
  for (uint32_t seed : kPrefix ? std::array{11u, 12u} : std::array{31u, 32u}) {
    const Arr<T, N> x = WrappingInputs<T, N>(seed + uint32_t(N));
    for (int W : kWaveSizes)
      for (const auto& p : AllMaskPatterns<N>()) {
        const Arr<T, N> expected =
            kPrefix ? ScalarPrefixSum<T, N>(x, p.mask, W) : ScalarWaveSum<T, N>(x, p.mask, W);
        const std::string context =
            fmt::format("{}<{}>, group {}, wave size {}, mask '{}'",
                        kPrefix ? "WavePrefixSum" : "WaveActiveSum",
                        std::is_signed_v<T> ? "int" : "uint", N, W, p.name);
        Lanes<T, N> actual(sentinel);
        const Lanes<T, N> in(x);
        RunGroup<N>(W, [&] {
          if_(Bool<N>::FromMask(p.mask),
              [&] { actual = kPrefix ? WavePrefixSum(in) : WaveActiveSum(in); });
        });
        CheckLanes<T, N, T>(actual, expected, p.mask, sentinel, x, context);
        const core::WaveFloatPolicy policy{};
        const Lanes<T, N> core = kPrefix ? core::PrefixSum(in, p.mask, W, policy)
                                         : core::ActiveSum(in, p.mask, W, policy);
        CheckLanes<T, N, T>(core, expected, Mask<N>::All(), sentinel, x,
                            context + " (core, every lane)");
      }
  }
}

TEST_CASE_TEMPLATE(
    "32-bit integer WaveActiveSum equals a scalar sum over the wave's active lanes, with "
    "wrap-around, at every wave size, full and partial waves and every mask",
    T, int32_t, uint32_t) {
  SweepFastPath<SumKind::kActive, T, 256>();
  SweepFastPath<SumKind::kActive, T, 100>();
  SweepFastPath<SumKind::kActive, T, 24>();
  SweepFastPath<SumKind::kActive, T, 4>();
}

TEST_CASE_TEMPLATE(
    "32-bit integer WavePrefixSum equals a scalar running sum over the active lanes below, with "
    "wrap-around, at every wave size, full and partial waves and every mask",
    T, int32_t, uint32_t) {
  // Whole waves of every size, several per group; a partial last wave at every size
  // (100 = 3 * 32 + 4); a group smaller than waves of 32, 64 and 128; a vector's fraction.
  SweepFastPath<SumKind::kPrefix, T, 256>();
  SweepFastPath<SumKind::kPrefix, T, 100>();
  SweepFastPath<SumKind::kPrefix, T, 24>();
  SweepFastPath<SumKind::kPrefix, T, 4>();
}

TEST_CASE("Hand-worked: uint WavePrefixSum wraps past 2^32 and skips inactive lanes at wave 32") {
  constexpr int N = 32;
  Arr<uint32_t, N> x{};
  x.fill(0x80000000u);
  x[3] = 5u;
  Mask<N> mask = Mask<N>::All();
  mask.Set(1, false);  // lane 1 inactive: lane 2 sees only lane 0
  Uint<N> r(7u);
  RunGroup<N>(32, [&] { if_(Bool<N>::FromMask(mask), [&] { r = WavePrefixSum(Uint<N>(x)); }); });
  CHECK(r.lane(0) == 0u);
  CHECK(r.lane(1) == 7u);           // inactive: untouched
  CHECK(r.lane(2) == 0x80000000u);  // lane 0 only
  CHECK(r.lane(3) == 0u);           // 2 * 2^31 wraps to 0
  CHECK(r.lane(4) == 5u);
  CHECK(r.lane(5) == 0x80000005u);
  CHECK(r.lane(31) == 0x80000005u);  // 29 halves (lanes 0, 2, 4..30) wrap to 2^31, plus 5
}

}  // namespace
