// test_wave_fast_paths.cpp -- the vector fast paths for 32-bit integers of WavePrefixSum
// (core::ScanSum32Segments: masked load, in-vector log-step scan, carry across vectors) and of the
// wave reductions Sum, Product, BitAnd, BitOr, BitXor, Min and Max (core::Reduce32Vectors: the
// op's identity in inactive lanes, a long wave's vectors combined, an xor butterfly within each
// wave) against plain scalar loops written from the spec text, at every wave size, full and
// partial waves, every mask pattern, int and uint with values that wrap; and padding lanes past
// the group's last thread that hold values other than the op's identity.
#include "emulator/emulator.h"
#include "intrinsics/wave_reduce.h"
#include "intrinsics/wave_scan.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
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

enum class FastOp { kPrefixSum, kSum, kProduct, kBitAnd, kBitOr, kBitXor, kMin, kMax };

const char* FastOpName(FastOp op) {
  constexpr const char* kNames[] = {"WavePrefixSum",    "WaveActiveSum",   "WaveActiveProduct",
                                    "WaveActiveBitAnd", "WaveActiveBitOr", "WaveActiveBitXor",
                                    "WaveActiveMin",    "WaveActiveMax"};
  return kNames[int(op)];
}

/// One step of a reduction: + and * wrap modulo 2^32; Min and Max compare as T (signed or not).
template <FastOp kOp, class T>
T Combine(T a, T b) {
  const uint32_t ua = uint32_t(a), ub = uint32_t(b);
  if constexpr (kOp == FastOp::kSum) return T(ua + ub);
  else if constexpr (kOp == FastOp::kProduct) return T(ua * ub);
  else if constexpr (kOp == FastOp::kBitAnd) return T(ua & ub);
  else if constexpr (kOp == FastOp::kBitOr) return T(ua | ub);
  else if constexpr (kOp == FastOp::kBitXor) return T(ua ^ ub);
  else if constexpr (kOp == FastOp::kMin) return std::min(a, b);
  else return std::max(a, b);
}

/// Spec (WaveActive<Op>): the op "of all the values in the active lanes" of the wave, on every
/// lane of the wave: folded here from the first active lane on, with no identity. A wave with no
/// active lane has no result; the core gives 0 there (PerWave), as does this loop.
template <FastOp kOp, class T, int N>
Arr<T, N> ScalarWaveReduce(const Arr<T, N>& x, const Mask<N>& mask, int W) {
  Arr<T, N> out{};
  for (int first = 0; first < N; first += W) {
    std::optional<T> acc;
    for (int t = first; t < N && t < first + W; ++t)
      if (mask.Test(t)) acc = acc ? Combine<kOp>(*acc, x[t]) : x[t];
    for (int t = first; t < N && t < first + W; ++t) out[t] = acc.value_or(T(0));
  }
  return out;
}

/// The intrinsic of kOp, inside the group.
template <FastOp kOp, class T, int N>
Lanes<T, N> Intrinsic(const Lanes<T, N>& in) {
  if constexpr (kOp == FastOp::kPrefixSum) return WavePrefixSum(in);
  else if constexpr (kOp == FastOp::kSum) return WaveActiveSum(in);
  else if constexpr (kOp == FastOp::kProduct) return WaveActiveProduct(in);
  else if constexpr (kOp == FastOp::kBitAnd) return WaveActiveBitAnd(in);
  else if constexpr (kOp == FastOp::kBitOr) return WaveActiveBitOr(in);
  else if constexpr (kOp == FastOp::kBitXor) return WaveActiveBitXor(in);
  else if constexpr (kOp == FastOp::kMin) return WaveActiveMin(in);
  else return WaveActiveMax(in);
}

/// The core function behind kOp, which writes every existing lane, active or not.
template <FastOp kOp, class T, int N>
Lanes<T, N> Core(const Lanes<T, N>& in, const Mask<N>& mask, int W) {
  const core::WaveFloatPolicy policy{};
  if constexpr (kOp == FastOp::kPrefixSum) return core::PrefixSum(in, mask, W, policy);
  else if constexpr (kOp == FastOp::kSum) return core::ActiveSum(in, mask, W, policy);
  else if constexpr (kOp == FastOp::kProduct) return core::ActiveProduct(in, mask, W, policy);
  else if constexpr (kOp == FastOp::kBitAnd) return core::Reduce<core::BitAndOp>(in, mask, W, {});
  else if constexpr (kOp == FastOp::kBitOr) return core::Reduce<core::BitOrOp>(in, mask, W, {});
  else if constexpr (kOp == FastOp::kBitXor) return core::Reduce<core::BitXorOp>(in, mask, W, {});
  else return core::ActiveMinMax<kOp == FastOp::kMax>(in, mask, W, policy, [](int) {});
}

/// One fast path against its scalar loop, through the intrinsic (inactive lanes keep the
/// sentinel: assignment is masked) and through the core (every existing lane: the prefix sum
/// over the active lanes below; a reduction's wave result, 0 in a wave with no active lane).
template <FastOp kOp, class T, int N>
void SweepFastPath() {
  constexpr bool kPrefix = kOp == FastOp::kPrefixSum;
  const T sentinel = T(0x5eed5eedu);
  for (uint32_t seed : kPrefix ? std::array{11u, 12u} : std::array{31u, 32u}) {
    const Arr<T, N> x = WrappingInputs<T, N>(seed + uint32_t(N));
    for (int W : kWaveSizes)
      for (const auto& p : AllMaskPatterns<N>()) {
        const Arr<T, N> expected = kPrefix ? ScalarPrefixSum<T, N>(x, p.mask, W)
                                           : ScalarWaveReduce<kOp, T, N>(x, p.mask, W);
        const std::string context =
            fmt::format("{}<{}>, group {}, wave size {}, mask '{}'", FastOpName(kOp),
                        std::is_signed_v<T> ? "int" : "uint", N, W, p.name);
        Lanes<T, N> actual(sentinel);
        const Lanes<T, N> in(x);
        RunGroup<N>(W, [&] {
          if_(Bool<N>::FromMask(p.mask), [&] { actual = Intrinsic<kOp>(in); });
        });
        CheckLanes<T, N, T>(actual, expected, p.mask, sentinel, x, context);
        CheckLanes<T, N, T>(Core<kOp>(in, p.mask, W), expected, Mask<N>::All(), sentinel, x,
                            context + " (core, every lane)");
      }
  }
}

/// Whole waves of every size, several per group; a partial last wave at every size
/// (100 = 3 * 32 + 4); a group smaller than waves of 32, 64 and 128; a vector's fraction.
template <FastOp kOp, class T>
void SweepGroupSizes() {
  SweepFastPath<kOp, T, 256>();
  SweepFastPath<kOp, T, 100>();
  SweepFastPath<kOp, T, 24>();
  SweepFastPath<kOp, T, 4>();
}

/// Padding lanes (the storage past N, "computed and never observed") hold whatever the
/// arithmetic before left there, e.g. the 1 of `x + 1u`, not the op's identity. With every
/// thread active, where the fast paths skip their mask, no real thread may see them. N = 6 and
/// 102 leave padding on every target (4, 8 and 16 lanes a vector).
template <FastOp kOp, class T, int N>
void CheckGarbagePadding() {
  static_assert(Lanes<T, N>::kPadded > N, "a group size that leaves padding lanes");
  const Arr<T, N> x = WrappingInputs<T, N>(77u + uint32_t(N));
  Lanes<T, N> in(x);
  for (int t = N; t < Lanes<T, N>::kPadded; ++t) in.data()[t] = T(0x9e3779b9u * uint32_t(t + 1));
  const Mask<N> all = Mask<N>::All();
  for (int W : kWaveSizes) {
    const Arr<T, N> expected = kOp == FastOp::kPrefixSum ? ScalarPrefixSum<T, N>(x, all, W)
                                                         : ScalarWaveReduce<kOp, T, N>(x, all, W);
    CheckLanes<T, N, T>(Core<kOp>(in, all, W), expected, all, T(0), x,
                        fmt::format("{}, group {}, wave size {}, every thread active, nonzero "
                                    "padding lanes",
                                    FastOpName(kOp), N, W));
  }
}

template <FastOp kOp>
void CheckGarbagePaddingSizes() {
  CheckGarbagePadding<kOp, uint32_t, 6>();
  CheckGarbagePadding<kOp, uint32_t, 102>();
  CheckGarbagePadding<kOp, int32_t, 102>();
}

TEST_CASE("Padding lanes past the group's last thread never reach a thread's result, with every "
          "thread active") {
  CheckGarbagePaddingSizes<FastOp::kPrefixSum>();
  CheckGarbagePaddingSizes<FastOp::kSum>();
  CheckGarbagePaddingSizes<FastOp::kProduct>();
  CheckGarbagePaddingSizes<FastOp::kBitAnd>();
  CheckGarbagePaddingSizes<FastOp::kBitOr>();
  CheckGarbagePaddingSizes<FastOp::kBitXor>();
  CheckGarbagePaddingSizes<FastOp::kMin>();
  CheckGarbagePaddingSizes<FastOp::kMax>();
}

TEST_CASE_TEMPLATE(
    "32-bit integer WaveActiveSum, Product, Min and Max equal a scalar fold over the wave's "
    "active lanes, with wrap-around, at every wave size, full and partial waves and every mask",
    T, int32_t, uint32_t) {
  SweepGroupSizes<FastOp::kSum, T>();
  SweepGroupSizes<FastOp::kProduct, T>();
  SweepGroupSizes<FastOp::kMin, T>();
  SweepGroupSizes<FastOp::kMax, T>();
}

TEST_CASE("uint WaveActiveBitAnd, BitOr and BitXor equal a scalar fold over the wave's active "
          "lanes at every wave size, full and partial waves and every mask") {
  SweepGroupSizes<FastOp::kBitAnd, uint32_t>();
  SweepGroupSizes<FastOp::kBitOr, uint32_t>();
  SweepGroupSizes<FastOp::kBitXor, uint32_t>();
}

TEST_CASE_TEMPLATE(
    "32-bit integer WavePrefixSum equals a scalar running sum over the active lanes below, with "
    "wrap-around, at every wave size, full and partial waves and every mask",
    T, int32_t, uint32_t) {
  SweepGroupSizes<FastOp::kPrefixSum, T>();
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
