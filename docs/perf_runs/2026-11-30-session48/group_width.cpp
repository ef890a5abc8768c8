// group_width.cpp (session 48): the free-ID wave kernel's cost per ID against its lockstep width.
//
// ComputeFreeIDsWave<T> has no groupshared memory and no barrier, and each wave claims its own
// output range, so THREAD_COUNT only decides how many waves run as one lockstep program: at a
// given wave size, <8> runs each wave of 8 alone and <512> runs 64 of them together; the output
// is the same multiset of free IDs either way (checked on every run). The key row is <64>.
//
//   WIDTH=T STAGE=time|count ./group_width LOG2 REPS WAVE
//     time:  prints the fastest of REPS one-thread dispatches over 2^LOG2 IDs, in ns per ID;
//     count: runs REPS dispatches, for callgrind (the difference between two REPS gives the
//            instructions per dispatch without the setup).
//
// Built from the repository root after `cmake --build --preset default --target waveemu`:
//   g++ -O3 -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -I. \
//     docs/perf_runs/2026-11-30-session48/group_width.cpp build/default/libwaveemu.a \
//     -ltbb -lhwy -lboost_context -lfmt -lz -o /tmp/group_width
#include "emulator/emulator.h"
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::examples;

template <uint32_t T>
int Run(int log2, int reps, int wave, bool timed) {
  const size_t n = size_t(1) << log2;
  const std::vector<int32_t> table = MakeRandomIDTable(n, 0.5, 42);
  std::vector<int32_t> expected = ReferenceFreeIDs(table);
  std::vector<int32_t> list(n), sizes(1);
  ComputeFreeIDsWave<T> k;
  k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
  k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  DispatchOptions options;
  options.wave_size = wave;
  options.max_threads = 1;
  const uint32_t groups = uint32_t(n / T);
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    sizes[0] = 0;
    const auto start = std::chrono::steady_clock::now();
    DispatchInlined(k, uint3{groups, 1, 1}, options);
    const double ns = std::chrono::duration<double, std::nano>(
                          std::chrono::steady_clock::now() - start).count();
    best = std::min(best, ns);
    if (timed) {  // outside the count: callgrind runs skip the check
      std::vector<int32_t> got(list.begin(), list.begin() + sizes[0]);
      std::sort(got.begin(), got.end());
      if (got != expected) {
        std::printf("WRONG output at width %u\n", T);
        return 1;
      }
    }
  }
  if (timed) std::printf("width %4u wave %2d: %.2f ns per ID\n", T, wave, best / double(n));
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const int log2 = std::atoi(argv[1]), reps = std::atoi(argv[2]), wave = std::atoi(argv[3]);
  const char* w = std::getenv("WIDTH");
  const bool timed = std::string(std::getenv("STAGE") ? std::getenv("STAGE") : "time") == "time";
  switch (w ? std::atoi(w) : 64) {
    case 8: return Run<8>(log2, reps, wave, timed);
    case 16: return Run<16>(log2, reps, wave, timed);
    case 32: return Run<32>(log2, reps, wave, timed);
    case 64: return Run<64>(log2, reps, wave, timed);
    case 128: return Run<128>(log2, reps, wave, timed);
    case 256: return Run<256>(log2, reps, wave, timed);
    case 512: return Run<512>(log2, reps, wave, timed);
    case 1024: return Run<1024>(log2, reps, wave, timed);
  }
  return 2;
}
