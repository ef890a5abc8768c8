// wave_vote.h -- wave vote intrinsics (SM 6.0): WaveActiveAnyTrue, WaveActiveAllTrue,
// WaveActiveBallot.
//
// Results are uniform within a wave but may differ between the waves of a group, so they are
// per-thread values. Helper lanes neither vote nor get a defined result.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/wave_query.h"

namespace waveemu {

namespace core {

/// True on every lane of a wave where some lane in `mask` has x true.
template <int N>
Bool<N> AnyTrue(const Bool<N>& x, const Mask<N>& mask, int W) {
  return Bool<N>::FromMask(WavesWithAny(x.mask() & mask, W));
}

/// True on every lane of a wave where every lane in `mask` has x true (vacuously true for a wave
/// with no lane in `mask`).
template <int N>
Bool<N> AllTrue(const Bool<N>& x, const Mask<N>& mask, int W) {
  // False on the waves where some lane of the mask votes false.
  return Bool<N>::FromMask(AndNot(Mask<N>::All(), WavesWithAny(AndNot(mask, x.mask()), W)));
}

/// The ballot of each wave on every lane of it: bit l % 32 of component l / 32 is set when lane
/// l is in `mask` and has x true.
template <int N>
Uint4<N> Ballot(const Bool<N>& x, const Mask<N>& mask, int W) {
  Uint4<N> r;
  if (W <= 32) {
    // Only component x is non-zero: each thread's W-bit block of the mask, with vector shifts.
    WaveBlockBits</*kPopcount=*/false>(x.mask() & mask, W, r[0].data(), Uint<N>::kPadded);
    return r;
  }
  ForEachWave(x.mask() & mask, W, [&](const WaveSlice& w) {
    for (int c = 0; c < W / 32; ++c)
      FillWave(r[c].data() + w.first_thread, w.lanes_present, w.lanes.Component(c));
  });
  return r;
}

}  // namespace core

// ------------------------------ WaveActiveAnyTrue

/// True if expr is true on any active lane of the wave.
template <int N>
Bool<N> WaveActiveAnyTrue(const Bool<N>& expr) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::AnyTrue(expr, s.wave_active(), s.wave_size());
}
/// HLSL converts a numeric argument to bool: expr != 0.
template <class T, int N>
Bool<N> WaveActiveAnyTrue(const Lanes<T, N>& expr) {
  return WaveActiveAnyTrue(Bool<N>(expr));
}
/// Uniform argument: write WaveActiveAnyTrue<N>(true).
template <int N = 0>
Bool<N> WaveActiveAnyTrue(bool expr) {
  static_assert(kNeedsGroupSize<N>,
                "write WaveActiveAnyTrue<N>(expr) for a uniform bool, N = threads per group: C++ "
                "cannot deduce it from a plain bool");
  return WaveActiveAnyTrue(Bool<N>(expr));
}

// ------------------------------ WaveActiveAllTrue

/// True if expr is true on every active lane of the wave.
template <int N>
Bool<N> WaveActiveAllTrue(const Bool<N>& expr) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::AllTrue(expr, s.wave_active(), s.wave_size());
}
/// HLSL converts a numeric argument to bool: expr != 0.
template <class T, int N>
Bool<N> WaveActiveAllTrue(const Lanes<T, N>& expr) {
  return WaveActiveAllTrue(Bool<N>(expr));
}
/// Uniform argument: write WaveActiveAllTrue<N>(true).
template <int N = 0>
Bool<N> WaveActiveAllTrue(bool expr) {
  static_assert(kNeedsGroupSize<N>,
                "write WaveActiveAllTrue<N>(expr) for a uniform bool, N = threads per group: C++ "
                "cannot deduce it from a plain bool");
  return WaveActiveAllTrue(Bool<N>(expr));
}

// ------------------------------ WaveActiveBallot

/// uint4 mask of the active lanes where expr is true: lane i is bit i % 32 of component i / 32.
template <int N>
Uint4<N> WaveActiveBallot(const Bool<N>& expr) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::Ballot(expr, s.wave_active(), s.wave_size());
}
/// HLSL converts a numeric argument to bool: expr != 0.
template <class T, int N>
Uint4<N> WaveActiveBallot(const Lanes<T, N>& expr) {
  return WaveActiveBallot(Bool<N>(expr));
}
/// Uniform argument: write WaveActiveBallot<N>(true) (the mask of active lanes).
template <int N = 0>
Uint4<N> WaveActiveBallot(bool expr) {
  static_assert(kNeedsGroupSize<N>,
                "write WaveActiveBallot<N>(expr) for a uniform bool, N = threads per group: C++ "
                "cannot deduce it from a plain bool");
  return WaveActiveBallot(Bool<N>(expr));
}

// Buffer and groupshared elements as arguments (see WAVEEMU_TAKES_REFERENCES).
WAVEEMU_TAKES_REFERENCES(WaveActiveAllTrue)
WAVEEMU_TAKES_REFERENCES(WaveActiveAnyTrue)
WAVEEMU_TAKES_REFERENCES(WaveActiveBallot)

}  // namespace waveemu
