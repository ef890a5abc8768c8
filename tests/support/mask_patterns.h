// mask_patterns.h -- the execution masks every intrinsic is tested under (DESIGN §6).
#pragma once

#include "emulator/mask.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace waveemu::test {

/// The wave sizes one binary must test.
inline constexpr int kWaveSizes[] = {4, 8, 16, 32, 64, 128};

template <int N>
struct MaskPattern {
  std::string name;
  Mask<N> mask;
};

/// The mask whose thread t is set where pred(t).
template <int N>
Mask<N> MaskWhere(auto pred) {
  Mask<N> m;
  for (int t = 0; t < N; ++t) m.Set(t, pred(t));
  return m;
}

/// all, every other, every third, first n (n = 1, 5, N/2), last thread only, and three random
/// masks with fixed seeds. Given the wave size W, also the first lane of each wave and the last
/// lane of each wave (N - 1 for a partial last wave): one active lane per wave, at the wave's
/// edges, so an op that drops a wave's first or last lane (lane 63 at W = 64) changes every wave.
template <int N>
std::vector<MaskPattern<N>> AllMaskPatterns(int W = 0) {
  std::vector<MaskPattern<N>> p;
  auto add = [&](std::string name, auto pred) {
    p.push_back({std::move(name), MaskWhere<N>(pred)});
  };
  add("all", [](int) { return true; });
  add("every other (even)", [](int t) { return t % 2 == 0; });
  add("every other (odd)", [](int t) { return t % 2 == 1; });
  add("every third", [](int t) { return t % 3 == 0; });
  add("first 1", [](int t) { return t < 1; });
  add("first 5", [](int t) { return t < 5; });
  add("first half", [](int t) { return t < N / 2; });
  add("last thread only", [](int t) { return t == N - 1; });
  if (W > 0) {
    add("first lane of each wave", [W](int t) { return t % W == 0; });
    add("last lane of each wave", [W](int t) { return t % W == W - 1 || t == N - 1; });
  }
  for (uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);  // MaskWhere asks for threads in ascending order
    add("random seed " + std::to_string(seed), [&rng](int) { return (rng() & 1u) != 0; });
  }
  return p;
}

}  // namespace waveemu::test
