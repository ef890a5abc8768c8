// wave_scan.h -- wave prefix operations (SM 6.0): WavePrefixCountBits, WavePrefixSum,
// WavePrefixProduct. All are exclusive: the first active lane gets the identity.
#pragma once

#include "emulator/emulator.h"

namespace waveemu {

namespace core {

/// For each lane, how many lanes below it in its wave have x true and are in `mask`.
template <int N>
Uint<N> PrefixCountBits(const Bool<N>& x, const Mask<N>& mask, int W) {
  Uint<N> r;
  ForEachWave(x.mask() & mask, W, [&](const WaveSlice& w) {
    for (int lane = 0; lane < w.lanes_present; ++lane)
      r.set_lane(w.first_thread + lane, uint32_t(w.lanes.CountBelow(lane)));
  });
  return r;
}

}  // namespace core

// ------------------------------ WavePrefixCountBits

/// Number of active lanes below this one in its wave where bBit is true.
template <int N>
Uint<N> WavePrefixCountBits(const Bool<N>& bBit) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::PrefixCountBits(bBit, s.wave_active(), s.wave_size());
}

}  // namespace waveemu
