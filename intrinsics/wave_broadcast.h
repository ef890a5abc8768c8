// wave_broadcast.h -- wave broadcast intrinsics (SM 6.0): WaveReadLaneFirst, WaveReadLaneAt.
#pragma once

#include "emulator/emulator.h"

namespace waveemu {

namespace core {

/// The value of the lowest lane in `mask` of each wave, on every lane of that wave.
template <class T, int N>
Lanes<T, N> ReadLaneFirst(const Lanes<T, N>& x, const Mask<N>& mask, int W) {
  Lanes<T, N> r = x;
  ForEachWave(mask, W, [&](const WaveSlice& w) {
    const int lane = w.lanes.First();
    if (lane < 0) return;
    const T v = x.lane(w.first_thread + lane);
    for (int l = 0; l < w.lanes_present; ++l) r.set_lane(w.first_thread + l, v);
  });
  return r;
}

}  // namespace core

// ------------------------------ WaveReadLaneFirst

/// expr of the first active lane of the wave.
template <class T, int N>
Lanes<T, N> WaveReadLaneFirst(const Lanes<T, N>& expr) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::ReadLaneFirst(expr, s.wave_active(), s.wave_size());
}

}  // namespace waveemu
