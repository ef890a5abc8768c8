// wave_ops.h -- port of tools/bench/hlsl/wave_ops.hlsl (one SM 6.0 wave reduction, scan or
// broadcast per instantiation) and the scalar reference it is checked against, written from the
// HLSL spec text: lane t % W of wave t / W, inactive threads store 0.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace waveemu::bench {

/// The OP numbers of wave_ops.hlsl, in its order.
enum WaveOp : int {
  kActiveSum, kActiveProduct, kActiveMin, kActiveMax, kActiveBitAnd, kActiveBitOr,
  kActiveBitXor, kActiveAllEqual, kActiveCountBits, kActiveAnyTrue, kActiveAllTrue,
  kActiveBallot, kPrefixSum, kPrefixProduct, kPrefixCountBits, kReadLaneFirst, kReadLaneAt,
  kWaveOpCount
};

inline const char* WaveOpName(int op) {
  static const char* const kNames[] = {
      "WaveActiveSum",    "WaveActiveProduct",  "WaveActiveMin",       "WaveActiveMax",
      "WaveActiveBitAnd", "WaveActiveBitOr",    "WaveActiveBitXor",    "WaveActiveAllEqual",
      "WaveActiveCountBits", "WaveActiveAnyTrue", "WaveActiveAllTrue", "WaveActiveBallot",
      "WavePrefixSum",    "WavePrefixProduct",  "WavePrefixCountBits", "WaveReadLaneFirst",
      "WaveReadLaneAt"};
  return kNames[op];
}

/// Ops whose argument is a bool predicate or an integer bit pattern: uint only.
inline bool WaveOpTakesFloat(int op) {
  return op <= kActiveMax || op == kActiveAllEqual || op == kPrefixSum || op == kPrefixProduct ||
         op == kReadLaneFirst || op == kReadLaneAt;
}

inline constexpr uint32_t kAnyTrueAbove = 0xfff00000u, kAllTrueAbove = 0x00100000u;

/// Threads per group of the wave-op kernel (wave_ops.hlsl's GROUP_SIZE), the same for both
/// contenders. 64, as in the earlier tables: 256 measured faster in cache (2^18 lanes) but no
/// faster at 2^24, where memory traffic dominates (docs/performance.md).
inline constexpr int kWaveOpGroupSize = 64;

template <int kOp, class T, bool kEveryOther, int kGroupSize = kWaveOpGroupSize>
struct WaveOpKernel {
  static constexpr int N = kGroupSize;
  static constexpr uint3 numthreads{uint32_t(kGroupSize), 1, 1};

  StructuredBuffer<T> In;     // t0
  RWStructuredBuffer<T> Out;  // u1
  uint32_t GRID_X = 1024;     // HLSL: a -D define

  Lanes<T, N> Apply(const Lanes<T, N>& x) const {
    if constexpr (kOp == kActiveSum) return WaveActiveSum(x);
    else if constexpr (kOp == kActiveProduct) return WaveActiveProduct(x);
    else if constexpr (kOp == kActiveMin) return WaveActiveMin(x);
    else if constexpr (kOp == kActiveMax) return WaveActiveMax(x);
    else if constexpr (kOp == kActiveBitAnd) return WaveActiveBitAnd(x);
    else if constexpr (kOp == kActiveBitOr) return WaveActiveBitOr(x);
    else if constexpr (kOp == kActiveBitXor) return WaveActiveBitXor(x);
    else if constexpr (kOp == kActiveAllEqual) return select(WaveActiveAllEqual(x), T(1), T(0));
    else if constexpr (kOp == kActiveCountBits) return WaveActiveCountBits((x & 1u) != 0u);
    else if constexpr (kOp == kActiveAnyTrue)
      return select(WaveActiveAnyTrue(x > kAnyTrueAbove), 1u, 0u);
    else if constexpr (kOp == kActiveAllTrue)
      return select(WaveActiveAllTrue(x > kAllTrueAbove), 1u, 0u);
    else if constexpr (kOp == kActiveBallot) {
      Uint4<N> b = WaveActiveBallot((x & 1u) != 0u);
      return b.x ^ b.y ^ b.z ^ b.w;
    } else if constexpr (kOp == kPrefixSum) return WavePrefixSum(x);
    else if constexpr (kOp == kPrefixProduct) return WavePrefixProduct(x);
    else if constexpr (kOp == kPrefixCountBits) return WavePrefixCountBits((x & 1u) != 0u);
    else if constexpr (kOp == kReadLaneFirst) return WaveReadLaneFirst(x);
    else return WaveReadLaneAt(x, 2u);
  }

  void main(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    Uint<N> i = (GroupId.y * GRID_X + GroupId.x) * uint32_t(N) + GroupIndex;
    Lanes<T, N> x = In[i];
    Lanes<T, N> r = T(0);
    if constexpr (kEveryOther) {
      if_((GroupIndex & 1u) == 0u, [&] { r = Apply(x); });
    } else {
      r = Apply(x);
    }
    Out[i] = r;
  }
};

/// What wave_ops.hlsl stores for every thread, by a plain loop over waves of W lanes in groups
/// of kWaveOpGroupSize threads; `every_other`: only even thread indices of a group take part.
template <class T>
std::vector<T> ReferenceWaveOp(int op, std::span<const T> in, int W, bool every_other) {
  std::vector<T> out(in.size(), T(0));
  for (size_t wave_start = 0; wave_start < in.size(); wave_start += size_t(W)) {
    const size_t end = std::min(in.size(), wave_start + size_t(W));
    auto active = [&](size_t t) { return !every_other || (t % kWaveOpGroupSize) % 2 == 0; };
    // Whole-wave values over the active lanes.
    T sum = 0, product = 1, lo = 0, hi = 0, band = T(~0u), bor = 0, bxor = 0;
    uint32_t count = 0, ballot_xor = 0;
    bool any = false, all = true, all_equal = true, first = true;
    T first_value = 0;
    T lane2 = in[wave_start + 2 < end ? wave_start + 2 : wave_start];
    for (size_t t = wave_start; t < end; ++t) {
      if (!active(t)) continue;
      const T x = in[t];
      sum += x;
      product *= x;
      if (first) { lo = hi = first_value = x; first = false; }
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      all_equal &= x == first_value;
      if constexpr (std::is_integral_v<T>) {
        band &= x;
        bor |= x;
        bxor ^= x;
        const bool odd = (x & 1u) != 0;
        count += odd;
        if (odd) ballot_xor ^= 1u << ((t - wave_start) % 32);
        any |= x > kAnyTrueAbove;
        all &= x > kAllTrueAbove;
      }
    }
    T prefix_sum = 0, prefix_product = 1;
    uint32_t prefix_count = 0;
    for (size_t t = wave_start; t < end; ++t) {
      if (!active(t)) continue;
      const T x = in[t];
      T r = 0;
      switch (op) {
        case kActiveSum: r = sum; break;
        case kActiveProduct: r = product; break;
        case kActiveMin: r = lo; break;
        case kActiveMax: r = hi; break;
        case kActiveBitAnd: r = band; break;
        case kActiveBitOr: r = bor; break;
        case kActiveBitXor: r = bxor; break;
        case kActiveAllEqual: r = all_equal ? T(1) : T(0); break;
        case kActiveCountBits: r = T(count); break;
        case kActiveAnyTrue: r = any ? T(1) : T(0); break;
        case kActiveAllTrue: r = all ? T(1) : T(0); break;
        case kActiveBallot: r = T(ballot_xor); break;
        case kPrefixSum: r = prefix_sum; break;
        case kPrefixProduct: r = prefix_product; break;
        case kPrefixCountBits: r = T(prefix_count); break;
        case kReadLaneFirst: r = first_value; break;
        case kReadLaneAt: r = lane2; break;
      }
      out[t] = r;
      prefix_sum += x;
      prefix_product *= x;
      if constexpr (std::is_integral_v<T>) prefix_count += (x & 1u) != 0;
    }
  }
  return out;
}

}  // namespace waveemu::bench
