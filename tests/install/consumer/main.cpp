// main.cpp -- consumer of an installed waveemu: dispatches a small kernel that counts, per wave,
// the threads whose SV_GroupIndex is a multiple of 3, and checks it against a count by hand.
// Exits non-zero on any mismatch.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

struct CountMultiplesOf3 {
  static constexpr uint3 numthreads{24, 1, 1};
  static constexpr int N = 24;
  uint32_t* out;  // one value per thread of the grid

  void main(SV_GroupID Gid, SV_GroupIndex<N> GI) const {
    const Uint<N> count = WaveActiveCountBits(GI % 3u == 0u);
    // No buffer types here on purpose: read the per-thread result lane by lane.
    for (int t = 0; t < N; ++t) out[Gid.x * N + t] = count.lane(t);
  }
};

int main() {
  constexpr int kGroups = 2, kN = CountMultiplesOf3::N, kWave = 8;
  // By hand: wave 0 = threads 0-7 holds 0, 3, 6; wave 1 = 8-15 holds 9, 12, 15; wave 2 = 16-23
  // holds 18, 21.
  constexpr uint32_t kExpectedPerWave[3] = {3, 3, 2};
  std::vector<uint32_t> out(kGroups * kN, 0xdeadbeef);
  DispatchOptions options;
  options.wave_size = kWave;
  Dispatch(CountMultiplesOf3{out.data()}, uint3{kGroups, 1, 1}, options);

  int failures = 0;
  for (int g = 0; g < kGroups; ++g) {
    for (int t = 0; t < kN; ++t) {
      const uint32_t expected = kExpectedPerWave[t / kWave];
      if (out[g * kN + t] != expected) {
        std::printf("group %d thread %d: expected %u, got %u\n", g, t, expected, out[g * kN + t]);
        ++failures;
      }
    }
  }
  std::printf("waveemu consumer: %s\n", failures ? "MISMATCH" : "ok");
  return failures ? 1 : 0;
}
