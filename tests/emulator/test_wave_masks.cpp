// test_wave_masks.cpp -- the word-at-a-time (SWAR) wave mask operations of waves.h and the
// word-wise Mask operations give what a plain loop over threads gives: every wave size, group
// sizes that fill, straddle and underfill 64-bit words and waves, every mask pattern; and
// FillWave writes exactly its range.
#include "emulator/mask.h"
#include "emulator/waves.h"
#include "tests/support/mask_patterns.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

namespace {

/// The mask patterns of the suite plus "none", which the SWAR paths must also get right.
template <int N>
std::vector<MaskPattern<N>> Patterns() {
  std::vector<MaskPattern<N>> p = AllMaskPatterns<N>();
  p.push_back({"none", Mask<N>()});
  return p;
}

template <int N>
std::string Bits(const Mask<N>& m) {
  std::string s;
  for (int t = 0; t < N; ++t) s += m.Test(t) ? '1' : '0';
  return s;
}

template <int N>
void CheckWaveMasks(int W) {
  for (const auto& pattern : Patterns<N>()) {
    const Mask<N>& m = pattern.mask;
    // Reference: thread by thread, from the wave partition (thread t is lane t % W of wave
    // t / W; a partial last wave has only the threads below N).
    Mask<N> any, first;
    std::vector<uint32_t> block(static_cast<size_t>(N)), count(static_cast<size_t>(N));
    for (int t = 0; t < N; ++t) {
      const int start = t / W * W, end = std::min(start + W, N);
      int lowest = -1;
      uint32_t bits = 0, n = 0;
      for (int u = start; u < end; ++u) {
        if (!m.Test(u)) continue;
        if (lowest < 0) lowest = u;
        if (u - start < 32) bits |= 1u << (u - start);
        ++n;
      }
      any.Set(t, lowest >= 0);
      first.Set(t, lowest == t);
      block[size_t(t)] = bits;
      count[size_t(t)] = n;
    }
    INFO("N ", N, ", wave ", W, ", mask ", pattern.name, ": ", Bits(m));
    CHECK_MESSAGE(WavesWithAny(m, W) == any,
                  fmt::format("WavesWithAny: want {} got {}", Bits(any), Bits(WavesWithAny(m, W))));
    CHECK_MESSAGE(FirstOfWaves(m, W) == first,
                  fmt::format("FirstOfWaves: want {} got {}", Bits(first),
                              Bits(FirstOfWaves(m, W))));
    if (W <= 32) {
      constexpr int kPadded = (N + 15) / 16 * 16;
      alignas(64) uint32_t got_bits[kPadded], got_count[kPadded];
      WaveBlockBits<false>(m, W, got_bits, kPadded);
      WaveBlockBits<true>(m, W, got_count, kPadded);
      std::string bad;
      for (int t = 0; t < N; ++t) {
        if (got_bits[t] != block[size_t(t)])
          bad += fmt::format(" thread {}: ballot want {:#x} got {:#x};", t, block[size_t(t)],
                             got_bits[t]);
        if (got_count[t] != count[size_t(t)])
          bad += fmt::format(" thread {}: count want {} got {};", t, count[size_t(t)],
                             got_count[t]);
      }
      CHECK_MESSAGE(bad.empty(), bad);
    }
  }
}

template <int N>
void CheckAllWaveSizes() {
  for (int W : kWaveSizes) CheckWaveMasks<N>(W);
}

template <int N>
void CheckRanges() {
  for (int begin = 0; begin <= N; ++begin) {
    for (int end = begin; end <= N; end += std::max(1, N / 13)) {
      Mask<N> want;
      for (int t = begin; t < end; ++t) want.Set(t, true);
      Mask<N> got = Mask<N>::Range(begin, end);
      INFO("N ", N, ", range [", begin, ", ", end, ")");
      CHECK_MESSAGE(got == want, fmt::format("want {} got {}", Bits(want), Bits(got)));
      CHECK(got.IsAll() == (begin == 0 && end == N));
    }
  }
}

/// One 64-bit word whose W-bit blocks are each empty, full, one bit, or random: the cases where a
/// carry or borrow could leave a block.
uint64_t RandomBlocks(std::mt19937_64& rng, int W) {
  uint64_t x = 0;
  const uint64_t ones = W >= 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
  for (int b = 0; b < 64; b += W) {
    uint64_t block = 0;
    switch (rng() % 4) {
      case 0: block = 0; break;
      case 1: block = ones; break;
      case 2: block = uint64_t{1} << (rng() % unsigned(W)); break;
      default: block = rng() & ones; break;
    }
    x |= block << b;
  }
  return x;
}

}  // namespace

TEST_CASE("FirstInWaves and SpreadAnyInWaves match a bit loop on words of mixed blocks") {
  std::mt19937_64 rng(7);
  for (int W = 4; W <= 64; W *= 2) {
    for (int i = 0; i < 4000; ++i) {
      const uint64_t x = RandomBlocks(rng, W);
      uint64_t first = 0, any = 0;
      for (int b = 0; b < 64; b += W) {
        for (int l = 0; l < W; ++l) {
          if ((x >> (b + l)) & 1u) {
            first |= uint64_t{1} << (b + l);
            for (int k = 0; k < W; ++k) any |= uint64_t{1} << (b + k);
            break;
          }
        }
      }
      INFO("wave ", W, ", word ", fmt::format("{:#018x}", x));
      CHECK(FirstInWaves(x, W) == first);
      CHECK(SpreadAnyInWaves(x, W) == any);
    }
  }
}

TEST_CASE("wave vote masks, first lanes, ballots and counts match a per-thread loop") {
  CheckAllWaveSizes<1>();
  CheckAllWaveSizes<8>();
  CheckAllWaveSizes<24>();
  CheckAllWaveSizes<64>();
  CheckAllWaveSizes<100>();
  CheckAllWaveSizes<128>();
  CheckAllWaveSizes<200>();
  CheckAllWaveSizes<256>();
}

TEST_CASE("Mask::Range sets exactly [begin, end) and IsAll holds only for the whole group") {
  CheckRanges<1>();
  CheckRanges<24>();
  CheckRanges<64>();
  CheckRanges<100>();
  CheckRanges<128>();
  CheckRanges<200>();
}

TEST_CASE("Masks differing in one thread compare unequal, in any word") {
  const Mask<200> all = Mask<200>::All();
  for (int t = 0; t < 200; ++t) {
    Mask<200> m = all;
    m.Set(t, false);
    INFO("thread ", t);
    CHECK_FALSE(m == all);
    CHECK_FALSE(m.IsAll());
    m.Set(t, true);
    CHECK(m == all);
  }
}

namespace {

template <class T>
bool BitsEqual(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// FillWave(p + offset, count, v) against the plain definition: the range holds v, every other
/// element keeps its sentinel.
template <class T>
void CheckFillWave(T v, T sentinel) {
  for (int offset : {0, 1, 4, 16}) {
    for (int count : {1, 3, 4, 5, 8, 12, 16, 24, 32, 40, 64, 100, 128}) {
      std::vector<T> buf(200, sentinel);
      FillWave(buf.data() + offset, count, v);
      bool exact = true;
      for (int i = 0; i < int(buf.size()); ++i) {
        const bool inside = i >= offset && i < offset + count;
        exact &= BitsEqual(buf[size_t(i)], inside ? v : sentinel);
      }
      INFO("offset ", offset, ", count ", count);
      CHECK(exact);
    }
  }
}

}  // namespace

TEST_CASE("FillWave writes its value over exactly [p, p + count), for every lane type") {
  CheckFillWave<uint32_t>(0xA5A5A5A5u, 7u);
  CheckFillWave<int32_t>(-5, 9);
  CheckFillWave<float>(-1.5f, 2.0f);
  CheckFillWave<uint64_t>(0x0123456789ABCDEFull, 3u);
  CheckFillWave<int64_t>(-7, 11);
  CheckFillWave<double>(0.25, -8.0);
  CheckFillWave<uint16_t>(0xBEEF, 1);
  CheckFillWave<int16_t>(-300, 2);
  CheckFillWave<half>(half(1.5f), half(-2.0f));
}
