// wave_query.h -- wave query intrinsics (SM 6.0): WaveGetLaneCount, WaveGetLaneIndex,
// WaveIsFirstLane.
//
// Intrinsics with no per-thread argument cannot deduce the group size N, so they take it
// explicitly: WaveIsFirstLane<N>(). That is the one systematic difference from HLSL spelling.
#pragma once

#include "emulator/emulator.h"

namespace waveemu {

namespace core {

/// Lane index of every thread: t % W.
template <int N>
Uint<N> LaneIndex(int W) {
  Uint<N> r{NoInit{}};
  for (int t = 0; t < Uint<N>::kPadded; ++t) r.set_lane(t, uint32_t(t % W));
  return r;
}

/// True on the lowest lane of each wave that is in `mask`.
template <int N>
Bool<N> FirstLane(const Mask<N>& mask, int W) {
  return Bool<N>::FromMask(FirstOfWaves(mask, W));
}

}  // namespace core

template <int N>
inline constexpr bool kNeedsGroupSize = N > 0;

// ------------------------------ WaveGetLaneCount

/// Lanes per wave (the dispatch's wave size), the same on every thread.
inline uint32_t WaveGetLaneCount() {
  return uint32_t(CurrentGroupBase("WaveGetLaneCount()").wave_size());
}

// ------------------------------ WaveGetLaneIndex

/// This thread's lane in its wave: SV_GroupIndex % WaveGetLaneCount().
template <int N = 0>
Uint<N> WaveGetLaneIndex() {
  static_assert(kNeedsGroupSize<N>,
                "write WaveGetLaneIndex<N>(), N = threads per group: C++ cannot deduce it from an "
                "empty argument list");
  return core::LaneIndex<N>(CurrentGroup<N>().wave_size());
}

// ------------------------------ WaveIsFirstLane

/// True on the active lane with the lowest index of each wave; false on helper lanes.
template <int N = 0>
HWY_INLINE Bool<N> WaveIsFirstLane() {
  static_assert(kNeedsGroupSize<N>,
                "write WaveIsFirstLane<N>(), N = threads per group: C++ cannot deduce it from an "
                "empty argument list");
  const GroupState<N>& s = CurrentGroup<N>();
  return core::FirstLane(s.wave_active(), s.wave_size());
}

}  // namespace waveemu
