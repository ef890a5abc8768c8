// wave_reduce.h -- wave reductions (SM 6.0): WaveActiveAllEqual, WaveActiveCountBits,
// WaveActiveSum, WaveActiveProduct, WaveActiveBitAnd/Or/Xor, WaveActiveMin/Max.
//
// Results are uniform within a wave but may differ between the waves of a group, so they are
// per-thread values.
#pragma once

#include "emulator/emulator.h"

namespace waveemu {

namespace core {

/// Number of threads of each wave where x is true and `mask` is set, on every lane of the wave.
template <int N>
Uint<N> CountBits(const Bool<N>& x, const Mask<N>& mask, int W) {
  Uint<N> r;
  ForEachWave(x.mask() & mask, W, [&](const WaveSlice& w) {
    const uint32_t count = uint32_t(w.lanes.Count());
    for (int lane = 0; lane < w.lanes_present; ++lane) r.set_lane(w.first_thread + lane, count);
  });
  return r;
}

}  // namespace core

// ------------------------------ WaveActiveCountBits

/// Number of active lanes of the wave where bBit is true.
template <int N>
Uint<N> WaveActiveCountBits(const Bool<N>& bBit) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::CountBits(bBit, s.wave_active(), s.wave_size());
}

}  // namespace waveemu
