// in_flight_rounds.cpp -- session 45's probe (not part of the build): the free-ID wave kernel
// (wave 8, free 0.5, 2^24 IDs: the key row) on one thread, and on both cores with 1, 4, 8, 16
// and 64 groups in flight per worker (DispatchOptions::groups_in_flight), the six one after the
// other in each round, so that each round's contenders meet the same phase of the VM. Prints
// each round's ns a group (median of 3 dispatches each), then, over the rounds, the median of
// each contender's time relative to 64 in flight in the same round, and of its speed-up over
// one thread. Every output's count is checked. Argument: rounds (default 15).
// Built from the repository root:
//   g++ -O3 -g -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -I. in_flight_rounds.cpp \
//     -o in_flight_rounds build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace waveemu;
int main(int argc, char** argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 15;
  const std::vector<int32_t> table = examples::MakeRandomIDTable(size_t(1) << 24, 0.5, 42);
  std::vector<int32_t> list(table.size()), sizes(1);
  const size_t count = examples::ReferenceFreeIDs(table).size();
  examples::ComputeFreeIDsWave<64> k;
  k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
  k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  const uint32_t groups = uint32_t(table.size() / 64);
  const auto run = [&](int threads, int in_flight) {  // median of 3, ns a group
    DispatchOptions o;
    o.wave_size = 8;
    o.max_threads = threads;
    o.groups_in_flight = in_flight;
    double t[3];
    for (double& x : t) {
      sizes[0] = 0;
      const auto t0 = std::chrono::steady_clock::now();
      DispatchInlined(k, uint3{groups, 1, 1}, o);
      const auto t1 = std::chrono::steady_clock::now();
      if (size_t(sizes[0]) != count) {
        printf("WRONG\n");
        exit(1);
      }
      x = std::chrono::duration<double, std::nano>(t1 - t0).count() / groups;
    }
    std::sort(t, t + 3);
    return t[1];
  };
  const std::vector<int> ks{1, 4, 8, 16, 64};
  std::vector<std::vector<double>> rel(ks.size()), speedup(ks.size());
  run(0, 64);  // untimed: starts oneTBB's worker and maps its fiber stacks
  for (int r = 0; r < rounds; ++r) {
    const double one = run(1, 1);
    std::vector<double> all;
    for (int kf : ks) all.push_back(run(0, kf));
    printf("round %2d: one thread %.1f |", r, one);
    for (size_t i = 0; i < ks.size(); ++i) {
      printf(" k=%d %.1f", ks[i], all[i]);
      rel[i].push_back(all[i] / all.back());
      speedup[i].push_back(one / all[i]);
    }
    printf("\n");
    fflush(stdout);
  }
  for (size_t i = 0; i < ks.size(); ++i) {
    std::sort(rel[i].begin(), rel[i].end());
    std::sort(speedup[i].begin(), speedup[i].end());
    printf("k=%-3d two-core time / k=64's: median %.3f (min %.3f, max %.3f); speed-up over one "
           "thread: median %.2fx (min %.2f, max %.2f)\n",
           ks[i], rel[i][rel[i].size() / 2], rel[i].front(), rel[i].back(),
           speedup[i][speedup[i].size() / 2], speedup[i].front(), speedup[i].back());
  }
}
