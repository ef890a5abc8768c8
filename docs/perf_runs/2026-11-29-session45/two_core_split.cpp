// two_core_split.cpp -- session 45's probe (not part of the build): the free-ID wave kernel
// (wave 8, free 0.5) on one thread and on both cores, at 2^18..2^24 IDs, in alternating rounds,
// and how the groups of one more two-core dispatch split between the thread that called
// Dispatch (which runs its groups one by one) and the oneTBB worker (which keeps IN_FLIGHT
// groups in flight on fibers). Prints, per size, [groups run by the calling thread, by the
// worker], then one-thread / two-core ns a group and the speed-up (each the median of 9
// dispatches, 3 at 2^24); then the median speed-up per size. Every output's count is checked.
// Arguments: rounds (default 10), IN_FLIGHT (DispatchOptions::groups_in_flight, default 64).
// Built from the repository root:
//   g++ -O3 -g -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -I. two_core_split.cpp -o two_core_split \
//     build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
using namespace waveemu;
// One counter per thread, each on a cache line of its own and written by its thread alone (a
// plain load and store, no locked instruction): counters that shared a line, or a lock per
// group, would themselves move a line between the cores for every group.
struct alignas(64) GroupCount {
  std::atomic<uint64_t> n{0};
  void Add() { n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
};
static GroupCount g_caller_groups, g_worker_groups;
static std::thread::id g_caller;
// The kernel, counting which thread ran each group (plain C++ in main: uniform code).
struct Counted : examples::ComputeFreeIDsWave<64> {
  void main(SV_GroupID GroupId, const SV_GroupThreadID<N>& GroupThreadId,
            const SV_DispatchThreadID<N>& DispatchThreadId) const {
    examples::ComputeFreeIDsWave<64>::main(GroupId, GroupThreadId, DispatchThreadId);
    (std::this_thread::get_id() == g_caller ? g_caller_groups : g_worker_groups).Add();
  }
};
struct Setup {
  std::vector<int32_t> table, list, sizes;
  size_t count;
  Counted k;
  explicit Setup(int lg)
      : table(examples::MakeRandomIDTable(size_t(1) << lg, 0.5, 42)), list(table.size()),
        sizes(1) {
    count = examples::ReferenceFreeIDs(table).size();
    k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
    k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
    k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  }
  double Emu(int threads, int in_flight, int reps) {  // median of reps, ns a group
    DispatchOptions o;
    o.wave_size = 8;
    o.max_threads = threads;
    o.groups_in_flight = in_flight;
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      sizes[0] = 0;
      const auto t0 = std::chrono::steady_clock::now();
      DispatchInlined(k, uint3{uint32_t(table.size() / 64), 1, 1}, o);
      const auto t1 = std::chrono::steady_clock::now();
      if (size_t(sizes[0]) != count) {
        printf("WRONG\n");
        exit(1);
      }
      t.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / (table.size() / 64));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};
int main(int argc, char** argv) {
  g_caller = std::this_thread::get_id();
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  const int in_flight = argc > 2 ? atoi(argv[2]) : 64;
  const std::vector<int> lgs{18, 20, 22, 24};
  std::vector<Setup*> s;
  for (int lg : lgs) s.push_back(new Setup(lg));
  std::vector<std::vector<double>> sp(lgs.size());
  for (int r = 0; r < rounds; ++r) {
    printf("round %d:", r);
    for (size_t i = 0; i < lgs.size(); ++i) {
      const int reps = lgs[i] >= 24 ? 3 : 9;
      const double one = s[i]->Emu(1, 1, reps), all = s[i]->Emu(0, in_flight, reps);
      g_caller_groups.n = 0;
      g_worker_groups.n = 0;
      s[i]->Emu(0, in_flight, 1);
      printf("  2^%d [%llu, %llu] %.1f/%.1f=%.2fx", lgs[i],
             (unsigned long long)g_caller_groups.n.load(),
             (unsigned long long)g_worker_groups.n.load(), one, all, one / all);
      sp[i].push_back(one / all);
    }
    printf("\n");
    fflush(stdout);
  }
  for (size_t i = 0; i < lgs.size(); ++i) {
    std::sort(sp[i].begin(), sp[i].end());
    printf("2^%d: median speed-up %.2fx (min %.2f, max %.2f)\n", lgs[i], sp[i][sp[i].size() / 2],
           sp[i].front(), sp[i].back());
  }
}
