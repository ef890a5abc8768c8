// system_values.h -- compute-shader system values as parameter types of a kernel's main().
//
// Dispatch looks at main()'s parameter types and passes each one its value, so a port keeps the
// HLSL signature: `void main(SV_GroupID GroupId, SV_GroupThreadID<N> GroupThreadId) const`.
// SV_GroupID is the same for the whole group (a plain uint3); the others are per thread.
#pragma once

#include "emulator/exec.h"
#include "emulator/vector.h"

namespace waveemu {

struct SV_GroupID : uint3 {};

template <int N>
struct SV_GroupThreadID : Uint3<N> {};

template <int N>
struct SV_DispatchThreadID : Uint3<N> {};

template <int N>
struct SV_GroupIndex : Uint<N> {
  SV_GroupIndex() = default;
  explicit SV_GroupIndex(const Uint<N>& v) : Uint<N>(v) {}
};

/// [WaveSize(N)] (SM 6.6) or [WaveSize(min, max[, preferred])] (SM 6.8) on a kernel:
/// `static constexpr WaveSize wave_size{32};`. Dispatch refuses a wave size outside it.
struct WaveSize {
  int min = 0, max = 0, preferred = 0;
  constexpr WaveSize(int exact) : min(exact), max(exact), preferred(exact) {}  // NOLINT
  constexpr WaveSize(int lo, int hi, int pref = 0) : min(lo), max(hi), preferred(pref) {}
  constexpr bool Allows(int w) const { return w >= min && w <= max; }
};

}  // namespace waveemu
