// mask.h -- Mask<N>: one bit per thread of a group, the emulator's execution-mask type.
//
// Bit t is thread SV_GroupIndex == t. Words are 64 bits, so a wave of up to 64 lanes lies inside
// one word and a wave of 128 lanes in two aligned words; ballots and prefix counts are popcounts.
// Bits at or beyond N are always zero (every operation keeps that invariant).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace waveemu {

template <int N>
class Mask {
  static_assert(N > 0,
                "a group has at least one thread; N = 0 here usually means an intrinsic whose "
                "arguments are all uniform is missing its group size: write WaveIsFirstLane<N>(), "
                "WaveActiveCountBits<N>(true), WaveActiveSum<N>(1u), IsHelperLane<N>(), ...");

 public:
  static constexpr int kWords = (N + 63) / 64;

  constexpr Mask() = default;

  static constexpr Mask None() { return Mask(); }
  static constexpr Mask All() {
    Mask m;
    for (int w = 0; w < kWords; ++w) m.words_[w] = ~uint64_t{0};
    m.Normalize();
    return m;
  }
  /// Threads [begin, end).
  static constexpr Mask Range(int begin, int end) {
    Mask m;
    m.SetRange(begin, end);
    return m;
  }

  /// Sets threads [begin, end) (0 <= begin <= end <= N), a word at a time.
  constexpr void SetRange(int begin, int end) {
    for (int w = begin >> 6; w < kWords && w * 64 < end; ++w) {
      const int lo = std::max(begin - w * 64, 0), hi = std::min(end - w * 64, 64);
      words_[w] |= BitsBelow(hi) & ~BitsBelow(lo);
    }
  }

  constexpr bool Test(int t) const { return (words_[t >> 6] >> (t & 63)) & 1u; }
  constexpr void Set(int t, bool on) {
    const uint64_t bit = uint64_t{1} << (t & 63);
    words_[t >> 6] = on ? (words_[t >> 6] | bit) : (words_[t >> 6] & ~bit);
  }

  constexpr uint64_t word(int w) const { return words_[w]; }
  constexpr uint64_t& word(int w) { return words_[w]; }

  constexpr bool Any() const {
    uint64_t acc = 0;
    for (int w = 0; w < kWords; ++w) acc |= words_[w];
    return acc != 0;
  }
  constexpr bool Empty() const { return !Any(); }
  constexpr bool IsAll() const {
    for (int w = 0; w + 1 < kWords; ++w)
      if (~words_[w] != 0) return false;
    return words_[kWords - 1] == BitsBelow(N - (kWords - 1) * 64);
  }
  constexpr int Count() const {
    int c = 0;
    for (int w = 0; w < kWords; ++w) c += std::popcount(words_[w]);
    return c;
  }
  /// Lowest set thread, or -1.
  constexpr int First() const {
    for (int w = 0; w < kWords; ++w)
      if (words_[w]) return w * 64 + std::countr_zero(words_[w]);
    return -1;
  }

  /// Bits of lanes [first, first + width) of this mask, shifted down to bit 0. width <= 64.
  constexpr uint64_t Bits64(int first, int width) const {
    const uint64_t word_bits = words_[first >> 6] >> (first & 63);
    return width >= 64 ? word_bits : word_bits & ((uint64_t{1} << width) - 1);
  }

  /// Calls f(i, word) for each vector of L threads from thread 0 up to `padded` (a multiple of
  /// L): i its first thread, word the mask word that holds its threads (thread i is bit i & 63,
  /// so `word >> (i & 63)` is Bits64(i, 64)). The loop over a word's vectors has a constant trip
  /// count, so GCC unrolls it at every N and i & 63 is a constant in each copy. A plain loop over
  /// i, calling Bits64(i, ...), stays a loop from 128 threads on, with the word's load and a
  /// variable shift for every vector.
  template <int L, int padded, class F>
  constexpr void ForEachVectorWord(F&& f) const {
    static_assert(64 % L == 0 && padded % L == 0 && padded >= N && padded <= kWords * 64);
    constexpr int kPerWord = std::min(padded, 64) / L;  // vectors a word holds
    for (int w = 0; w < kWords; ++w) {
      const uint64_t word = words_[w];
      for (int j = 0; j < kPerWord; ++j) {
        const int i = w * 64 + j * L;
        if (padded > 64 && padded % 64 != 0 && i >= padded) break;  // the last word's end
        f(i, word);
      }
    }
  }

  /// The mask whose threads [i, i + L) are the bits of f(i) (which has none above the low L),
  /// for each vector of L threads from thread 0 up to `padded` (as ForEachVectorWord walks them);
  /// with kInverted, the threads whose bits f leaves clear. Bits of threads at or beyond N are
  /// dropped. Each word is gathered in a register, inverted there and written once. Always
  /// inlined: GCC otherwise called an out-of-line copy from plain Dispatch's kernel. The loop is
  /// ForEachVectorWord's, written out again: a walk shared by the two through a helper taking a
  /// lambda made CompareLanes cost more under AVX2 (the free-ID kernel 952 -> 967 instructions
  /// per 64 IDs at 64 threads, 1664 -> 1836 at 256; session 49).
  template <int L, int padded, bool kInverted = false, class F>
  [[gnu::always_inline]] static constexpr Mask FromVectorBits(F&& f) {
    static_assert(64 % L == 0 && padded % L == 0 && padded >= N && padded <= kWords * 64);
    constexpr int kPerWord = std::min(padded, 64) / L;
    Mask m;
    for (int w = 0; w < kWords; ++w) {
      uint64_t word = 0;
      for (int j = 0; j < kPerWord; ++j) {
        const int i = w * 64 + j * L;
        if (padded > 64 && padded % 64 != 0 && i >= padded) break;
        word |= uint64_t(f(i)) << (j * L);
      }
      m.words_[w] = kInverted ? ~word : word;
    }
    m.Normalize();
    return m;
  }

  /// Calls f(t) for every set thread t, in ascending order.
  template <class F>
  constexpr void ForEach(F&& f) const {
    for (int w = 0; w < kWords; ++w)
      for (uint64_t bits = words_[w]; bits; bits &= bits - 1) f(w * 64 + std::countr_zero(bits));
  }

  friend constexpr Mask operator&(Mask a, const Mask& b) { return a &= b; }
  friend constexpr Mask operator|(Mask a, const Mask& b) { return a |= b; }
  friend constexpr Mask operator^(Mask a, const Mask& b) { return a ^= b; }
  constexpr Mask operator~() const {
    Mask m;
    for (int w = 0; w < kWords; ++w) m.words_[w] = ~words_[w];
    m.Normalize();
    return m;
  }
  /// a & ~b in one pass.
  friend constexpr Mask AndNot(const Mask& a, const Mask& b) {
    Mask m;
    for (int w = 0; w < kWords; ++w) m.words_[w] = a.words_[w] & ~b.words_[w];
    return m;
  }
  constexpr Mask& operator&=(const Mask& o) {
    for (int w = 0; w < kWords; ++w) words_[w] &= o.words_[w];
    return *this;
  }
  constexpr Mask& operator|=(const Mask& o) {
    for (int w = 0; w < kWords; ++w) words_[w] |= o.words_[w];
    return *this;
  }
  constexpr Mask& operator^=(const Mask& o) {
    for (int w = 0; w < kWords; ++w) words_[w] ^= o.words_[w];
    return *this;
  }
  // Word by word: the defaulted std::array comparison calls memcmp, a function call per test.
  friend constexpr bool operator==(const Mask& a, const Mask& b) {
    uint64_t diff = 0;
    for (int w = 0; w < kWords; ++w) diff |= a.words_[w] ^ b.words_[w];
    return diff == 0;
  }

  /// Clears the bits at or beyond N.
  constexpr void Normalize() {
    if constexpr (N % 64 != 0) words_[kWords - 1] &= (uint64_t{1} << (N % 64)) - 1;
  }

 private:
  /// Bits [0, n) of a word, n in [0, 64].
  static constexpr uint64_t BitsBelow(int n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

  std::array<uint64_t, kWords> words_{};
};

}  // namespace waveemu
