// waves.h -- how a group's threads split into waves, for the intrinsics.
//
// Thread SV_GroupIndex = t is lane t % W of wave t / W. A group smaller than W, or not a multiple
// of it, leaves a partial last wave whose missing lanes are inactive. Lanes of one wave are a
// 128-bit set (WaveLanes), so ballots, counts and "first lane" are word operations.
#pragma once

#include "emulator/config.h"
#include "emulator/exec.h"
#include "emulator/lanes.h"  // kIsSimdType, for FillWave
#include "emulator/mask.h"
#include "emulator/simd.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

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

/// f.template operator()<kW>() with the run-time wave size W as the constant kW: the per-vector
/// loops of a wave op then unroll, with no loop bounds or tests left to compute per group. Six
/// instantiations per call, code size traded for speed. W must be valid (dispatch checks it):
/// any other value runs as 128.
template <class F>
HWY_INLINE decltype(auto) WithWaveSize(int W, F&& f) {
  static_assert(kMinWaveSize == 4 && kMaxWaveSize == 128, "one case per wave size below");
  switch (W) {
    case 4: return f.template operator()<4>();
    case 8: return f.template operator()<8>();
    case 16: return f.template operator()<16>();
    case 32: return f.template operator()<32>();
    case 64: return f.template operator()<64>();
    default: return f.template operator()<128>();
  }
}

// ------------------------------------------------------------------------------------------------
// Whole-group mask operations, a 64-bit word at a time (SWAR): waves of W <= 64 lanes are aligned
// W-bit blocks of a mask word, waves of 128 lanes aligned pairs of words. They replace per-wave,
// per-lane loops in the vote, query and broadcast intrinsics.

/// Bit 0 of every W-bit block of a word (W a power of two, 4 <= W <= 64).
constexpr uint64_t WaveLowBits(int W) {
  uint64_t r = 0;
  for (int b = 0; b < 64; b += W) r |= uint64_t{1} << b;
  return r;
}
/// Every bit of the even-numbered W-bit blocks of a word (blocks 0, 2, 4, ...; W < 64).
constexpr uint64_t WaveEvenBlocks(int W) {
  uint64_t r = 0;
  for (int b = 0; b < 64; b += 2 * W) r |= ((uint64_t{1} << W) - 1) << b;
  return r;
}
namespace detail {
inline constexpr uint64_t kWaveLowBits[7] = {0, 0, WaveLowBits(4), WaveLowBits(8),
                                             WaveLowBits(16), WaveLowBits(32), WaveLowBits(64)};
inline constexpr uint64_t kWaveEvenBlocks[6] = {0, 0, WaveEvenBlocks(4), WaveEvenBlocks(8),
                                                WaveEvenBlocks(16), WaveEvenBlocks(32)};
}  // namespace detail

// The two below work on all blocks at once with one add each, not a loop of log2(W) steps: an
// add inside a block either cannot carry out of it or only does so where the result is masked
// off, so the blocks stay independent.

/// Every bit of each W-bit block (W <= 64) of `x` that has a bit set.
HWY_INLINE uint64_t SpreadAnyInWaves(uint64_t x, int W) {
  if (W >= 64) return x ? ~uint64_t{0} : 0;
  const uint64_t top = detail::kWaveLowBits[std::countr_zero(unsigned(W))] << (W - 1);
  // A block's bits below its top plus all ones there reach the top bit exactly when one of them
  // is set, and stay below 2^W: no carry into the next block.
  const uint64_t any = (((x & ~top) + ~top) | x) & top;  // the top bit of each non-empty block
  return any | (any - (any >> (W - 1)));  // and the bits below it (no borrow between blocks)
}

/// The lowest set bit of each W-bit block (W <= 64) of `x`.
HWY_INLINE uint64_t FirstInWaves(uint64_t x, int W) {
  if (W >= 64) return x & (~x + 1);
  const int log_w = std::countr_zero(unsigned(W));
  const uint64_t low = detail::kWaveLowBits[log_w], even = detail::kWaveEvenBlocks[log_w];
  // A block f's lowest set bit is f & (~f + 1). ~f + 1 carries out of the block only when f is 0;
  // adding the even and the odd blocks apart, such a carry lands on bit 0 of a block that is 0
  // in both operands, where `x &` either drops it or keeps that block's own lowest bit.
  const uint64_t in_even = (~x & even) + (low & even);
  const uint64_t in_odd = (~x & ~even) + (low & ~even);
  return x & (in_even | in_odd);
}

/// Every present lane of each wave that has a lane in `m`.
template <int N>
HWY_INLINE Mask<N> WavesWithAny(const Mask<N>& m, int W) {
  Mask<N> r;
  if (W <= 64) {
    for (int w = 0; w < Mask<N>::kWords; ++w) r.word(w) = SpreadAnyInWaves(m.word(w), W);
  } else {
    for (int w = 0; w < Mask<N>::kWords; w += 2) {
      const uint64_t hi = w + 1 < Mask<N>::kWords ? m.word(w + 1) : 0;
      const uint64_t any = (m.word(w) | hi) ? ~uint64_t{0} : 0;
      r.word(w) = any;
      if (w + 1 < Mask<N>::kWords) r.word(w + 1) = any;
    }
  }
  r.Normalize();  // a partial last wave has no lanes at or beyond N
  return r;
}

/// The lowest lane in `m` of each wave.
template <int N>
HWY_INLINE Mask<N> FirstOfWaves(const Mask<N>& m, int W) {
  Mask<N> r;
  if (W <= 64) {
    for (int w = 0; w < Mask<N>::kWords; ++w) r.word(w) = FirstInWaves(m.word(w), W);
  } else {
    for (int w = 0; w < Mask<N>::kWords; w += 2) {
      const uint64_t lo = m.word(w);
      if (lo) r.word(w) = lo & (~lo + 1);
      else if (w + 1 < Mask<N>::kWords) r.word(w + 1) = m.word(w + 1) & (~m.word(w + 1) + 1);
    }
  }
  return r;
}

/// p[0 .. count) = v, and nothing else written: whole vectors when count is a multiple of the
/// vector length, else a fixed-length fill for the whole-wave counts.
template <class T>
HWY_INLINE void FillWave(T* p, int count, T v) {
  if constexpr (kIsSimdType<T>) {
    // Whole vectors where the wave fills them: the next statement loads the result a whole
    // vector at a time, and a load that spans two narrower stores (GCC fills with 256-bit
    // ones) waits for them to reach the cache instead of taking their data.
    const hn::ScalableTag<T> d;
    const int L = int(hn::Lanes(d));
    if (count % L == 0) {
      const auto splat = hn::Set(d, v);
      for (int i = 0; i < count; i += L) hn::StoreU(splat, d, p + i);
      return;
    }
  }
  switch (count) {
    case 4: std::fill_n(p, 4, v); return;
    case 8: std::fill_n(p, 8, v); return;
    case 16: std::fill_n(p, 16, v); return;
    case 32: std::fill_n(p, 32, v); return;
    case 64: std::fill_n(p, 64, v); return;
    case 128: std::fill_n(p, 128, v); return;
    default: std::fill_n(p, count, v); return;
  }
}

/// For waves of W <= 32 lanes and the vector of threads t0, t0 + 1, ... (32-bit lanes, t0 a
/// multiple of the vector length): each lane's W-bit block of `bits` holding its thread's wave,
/// shifted down to bit 0 (the wave's ballot). A vector's threads lie in one 32-bit half of a
/// mask word; the loop-invariant splats fold away when callers inline this in their loop.
template <class D, int N>
HWY_INLINE hn::Vec<D> WaveBlocksAt(D d, const Mask<N>& bits, int W, int t0) {
  static_assert(std::is_same_v<hn::TFromD<D>, uint32_t>, "one 32-bit lane per thread");
  static_assert(32 % hn::MaxLanes(D()) == 0,
                "a vector of threads must lie in one 32-bit half of a mask word");
  // Thread t's wave starts at bit (t & 31) & ~(W - 1) of its 32-bit half (W a power of two
  // <= 32, so waves never straddle halves): AND-ing the thread's bit with this gives the shift.
  const auto wave_start = hn::Set(d, uint32_t(~(W - 1) & 31));
  const auto block = hn::Set(d, W >= 32 ? ~0u : (1u << W) - 1);
  const uint32_t half = uint32_t(bits.word(t0 >> 6) >> (t0 & 32));
  const auto shift = hn::And(IotaFrom(d, uint32_t(t0 & 31)), wave_start);
  return hn::And(hn::Shr(hn::Set(d, half), shift), block);
}

namespace detail {
/// Per-lane bit counts of a byte of a mask, for vectors of 8 lanes without a vector popcount
/// (AVX2, where Highway's PopulationCount takes about 12 instructions a vector): row b, lane l.
/// kSegment 8: the set bits of b below bit l. kSegment 4: the same within l's nibble (waves of
/// 4). kWhole: every bit of l's segment rather than those below l.
template <int kSegment, bool kWhole>
constexpr std::array<std::array<uint8_t, 8>, 256> MakeByteCounts() {
  std::array<std::array<uint8_t, 8>, 256> table{};
  for (uint32_t b = 0; b < 256; ++b)
    for (uint32_t l = 0; l < 8; ++l) {
      const uint32_t start = l & ~uint32_t(kSegment - 1);
      const uint32_t end = kWhole ? start + kSegment : l;
      for (uint32_t i = start; i < end; ++i) table[b][l] += uint8_t((b >> i) & 1u);
    }
  return table;
}
inline constexpr auto kBitsBelowInByte = MakeByteCounts<8, false>();
inline constexpr auto kBitsBelowInNibble = MakeByteCounts<4, false>();
inline constexpr auto kBitsInNibble = MakeByteCounts<4, true>();

/// Row `byte` of a byte-count table as 8 lanes of 32 bits (one zero-extending load).
template <class D>
HWY_INLINE hn::Vec<D> ByteCountsAt(D d, const std::array<std::array<uint8_t, 8>, 256>& table,
                                   uint32_t byte) {
  static_assert(hn::MaxLanes(D()) == 8 && std::is_same_v<hn::TFromD<D>, uint32_t>);
  return hn::PromoteTo(d, hn::LoadU(hn::Rebind<uint8_t, D>(), table[byte].data()));
}
}  // namespace detail

/// For waves of W <= 32 lanes: out[t] = the W-bit block of `bits` holding thread t's wave,
/// shifted down to bit 0 (its ballot), or with kPopcount the number of bits in it, for every
/// t < padded (a multiple of the vector length, at most Uint<N>::kPadded; padding threads see
/// their padding block).
template <bool kPopcount, int N>
HWY_INLINE void WaveBlockBits(const Mask<N>& bits, int W, uint32_t* out, int padded) {
  const hn::ScalableTag<uint32_t> d;
  constexpr int L = int(hn::MaxLanes(d));
  if constexpr (kPopcount && L == 8) {
    // One wave's count per vector from a scalar popcount, or (waves of 4, two to a vector) from
    // a byte table. A wave of up to 32 lanes lies in the mask word that holds t0.
    bits.template ForEachVectorWord<L, Lanes<uint32_t, N>::kPadded>([&](int t0, uint64_t word) {
      if (t0 >= padded) return;
      const auto counts =
          W == 4 ? detail::ByteCountsAt(d, detail::kBitsInNibble,
                                        uint32_t(word >> (t0 & 63)) & 0xFFu)
                 : hn::Set(d, uint32_t(std::popcount((word >> (t0 & 63 & ~(W - 1))) &
                                                     ((uint64_t{1} << W) - 1))));
      hn::Store(counts, d, out + t0);
    });
    return;
  }
  for (int t0 = 0; t0 < padded; t0 += L) {
    auto v = WaveBlocksAt(d, bits, W, t0);
    if constexpr (kPopcount) v = PopulationCount32(v);
    hn::Store(v, d, out + t0);
  }
}

/// Calls f(WaveSlice) for each wave of the group, with `m` restricted to that wave.
template <int N, class F>
void ForEachWave(const Mask<N>& m, int W, F&& f) {
  for (int w = 0, first = 0; first < N; ++w, first += W)
    f(WaveSlice{w, first, std::min(W, N - first), LanesOfWave(m, w, W)});
}

}  // namespace waveemu
