// waves.h -- how a group's threads split into waves, for the intrinsics.
//
// Thread SV_GroupIndex = t is lane t % W of wave t / W. A group smaller than W, or not a multiple
// of it, leaves a partial last wave whose missing lanes are inactive. Lanes of one wave are a
// 128-bit set (WaveLanes), so ballots, counts and "first lane" are word operations.
#pragma once

#include "emulator/exec.h"
#include "emulator/mask.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace waveemu {

/// A set of lanes of one wave: lane i is bit i % 64 of word i / 64 (the ballot layout).
struct WaveLanes {
  uint64_t word[2] = {0, 0};

  bool Test(int lane) const { return (word[lane >> 6] >> (lane & 63)) & 1u; }
  int Count() const { return std::popcount(word[0]) + std::popcount(word[1]); }
  bool Any() const { return (word[0] | word[1]) != 0; }
  /// Lowest lane in the set, or -1.
  int First() const {
    if (word[0]) return std::countr_zero(word[0]);
    if (word[1]) return 64 + std::countr_zero(word[1]);
    return -1;
  }
  /// Number of lanes in the set below `lane`.
  int CountBelow(int lane) const {
    if (lane < 64) return std::popcount(word[0] & ((uint64_t{1} << lane) - 1));
    return std::popcount(word[0]) + std::popcount(word[1] & ((uint64_t{1} << (lane - 64)) - 1));
  }
  template <class F>
  void ForEach(F&& f) const {
    for (int w = 0; w < 2; ++w)
      for (uint64_t bits = word[w]; bits; bits &= bits - 1) f(w * 64 + std::countr_zero(bits));
  }
  /// The ballot: 4 x 32 bits, lane i in component i / 32.
  uint32_t Component(int c) const { return uint32_t(word[c >> 1] >> ((c & 1) * 32)); }
  friend bool operator==(const WaveLanes&, const WaveLanes&) = default;
};

/// One wave of a group: its first thread, how many of its lanes exist in the group, and which of
/// them are in `mask`.
struct WaveSlice {
  int index;
  int first_thread;
  int lanes_present;
  WaveLanes lanes;
};

/// The lanes of wave `wave` (of size W) that are set in `m`.
template <int N>
inline WaveLanes LanesOfWave(const Mask<N>& m, int wave, int W) {
  WaveLanes r;
  const int first = wave * W;
  if (W <= 64) {
    // Bits at or beyond N are zero, so W bits hold exactly the present lanes.
    r.word[0] = m.Bits64(first, W);
    return r;
  }
  const int present = std::min(W, N - first);
  {
    r.word[0] = m.Bits64(first, std::min(64, present));
    if (present > 64) r.word[1] = m.Bits64(first + 64, present - 64);
  }
  return r;
}

/// Calls f(WaveSlice) for each wave of the group, with `m` restricted to that wave.
template <int N, class F>
void ForEachWave(const Mask<N>& m, int W, F&& f) {
  for (int w = 0, first = 0; first < N; ++w, first += W)
    f(WaveSlice{w, first, std::min(W, N - first), LanesOfWave(m, w, W)});
}

}  // namespace waveemu
