// pinned_split.cpp -- session 46's probe (not part of the build): session 45's two_core_split.cpp
// with each thread pinned to a vCPU, to tell whether the two-core dispatch's uneven split of the
// key row's groups follows the thread's role or the vCPU it runs on. The thread that calls
// Dispatch runs its groups one by one; the oneTBB worker keeps 64 in flight on fibers. Each
// round runs, at 2^24 IDs or the size given (free 0.5, wave 8): one thread (on vCPU 0, then on vCPU 1), then two
// cores with the caller on vCPU 0 and the worker on vCPU 1, then swapped. Each thread pins
// itself on its first group after the layout changes (sched_setaffinity). Prints per layout the
// groups each thread ran and ns a group (median of 3 dispatches), and at the end the medians
// over rounds. Every output's count is checked.
// Arguments: rounds (default 10), log2 of the IDs (default 24), groups in flight on the worker
// (DispatchOptions::groups_in_flight, default 64 as in the bench; 1: groups one by one). Built from the repository root:
//   g++ -O3 -g -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -I. pinned_split.cpp -o pinned_split \
//     build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt -lz
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <sched.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
using namespace waveemu;
// One counter per thread on a line of its own, written by its thread alone (as session 45's).
struct alignas(64) GroupCount {
  std::atomic<uint64_t> n{0};
  void Add() { n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
};
static GroupCount g_caller_groups, g_worker_groups;
static std::thread::id g_caller;
// Which vCPU the calling thread and the worker go to; the layout's number, so that each thread
// pins itself once per layout.
static std::atomic<int> g_layout{0}, g_caller_cpu{0}, g_worker_cpu{1};
static int g_in_flight = 64;
static void PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) {
    perror("sched_setaffinity");
    exit(1);
  }
}
static void PinForLayout(bool caller) {
  thread_local int pinned_layout = -1;
  const int layout = g_layout.load(std::memory_order_relaxed);
  if (pinned_layout == layout) return;
  pinned_layout = layout;
  PinTo(caller ? g_caller_cpu.load() : g_worker_cpu.load());
}
struct Counted : examples::ComputeFreeIDsWave<64> {
  void main(SV_GroupID GroupId, const SV_GroupThreadID<N>& GroupThreadId,
            const SV_DispatchThreadID<N>& DispatchThreadId) const {
    const bool caller = std::this_thread::get_id() == g_caller;
    PinForLayout(caller);
    examples::ComputeFreeIDsWave<64>::main(GroupId, GroupThreadId, DispatchThreadId);
    (caller ? g_caller_groups : g_worker_groups).Add();
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
  // Median of reps dispatches, ns a group; the last one's split between the threads.
  double Emu(int threads, int reps, uint64_t* split) {
    DispatchOptions o;
    o.wave_size = 8;
    o.max_threads = threads;
    o.groups_in_flight = g_in_flight;
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      sizes[0] = 0;
      g_caller_groups.n = 0;
      g_worker_groups.n = 0;
      const auto t0 = std::chrono::steady_clock::now();
      DispatchInlined(k, uint3{uint32_t(table.size() / 64), 1, 1}, o);
      const auto t1 = std::chrono::steady_clock::now();
      if (size_t(sizes[0]) != count) {
        printf("WRONG\n");
        exit(1);
      }
      t.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / (table.size() / 64));
    }
    split[0] = g_caller_groups.n.load();
    split[1] = g_worker_groups.n.load();
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};
static void Layout(int caller_cpu, int worker_cpu) {
  g_caller_cpu = caller_cpu;
  g_worker_cpu = worker_cpu;
  g_layout.fetch_add(1);
  PinTo(caller_cpu);  // the calling thread, before the dispatch
}
int main(int argc, char** argv) {
  g_caller = std::this_thread::get_id();
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  const int lg = argc > 2 ? atoi(argv[2]) : 24;
  g_in_flight = argc > 3 ? atoi(argv[3]) : 64;
  Setup s(lg);
  printf("2^%d IDs, %zu groups, %d in flight on the worker\n", lg, s.table.size() / 64,
         g_in_flight);
  uint64_t split[2];
  // oneTBB sizes its pool from the process's affinity when it first starts: start it (with a
  // two-core dispatch) before any thread is pinned to one vCPU.
  s.Emu(0, 1, split);
  std::vector<double> one0, one1, a01, a10, share_cpu0_01, share_cpu0_10;
  for (int r = 0; r < rounds; ++r) {
    Layout(0, 1);
    const double t0 = s.Emu(1, 3, split);
    Layout(1, 0);
    const double t1 = s.Emu(1, 3, split);
    Layout(0, 1);
    const double t01 = s.Emu(0, 3, split);
    const double caller_share_01 = double(split[0]) / double(split[0] + split[1]);
    const uint64_t c01 = split[0], w01 = split[1];
    Layout(1, 0);
    const double t10 = s.Emu(0, 3, split);
    const double caller_share_10 = double(split[0]) / double(split[0] + split[1]);
    printf("round %d: one thread on 0 %.1f, on 1 %.1f | caller 0 + worker 1: [%llu, %llu] %.1f "
           "(%.2fx of the faster one) | caller 1 + worker 0: [%llu, %llu] %.1f (%.2fx)\n",
           r, t0, t1, (unsigned long long)c01, (unsigned long long)w01, t01,
           std::min(t0, t1) / t01, (unsigned long long)split[0], (unsigned long long)split[1],
           t10, std::min(t0, t1) / t10);
    fflush(stdout);
    one0.push_back(t0);
    one1.push_back(t1);
    a01.push_back(t01);
    a10.push_back(t10);
    share_cpu0_01.push_back(caller_share_01);       // vCPU 0 is the caller's
    share_cpu0_10.push_back(1.0 - caller_share_10);  // vCPU 0 is the worker's
  }
  const auto med = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  printf("medians: one thread on vCPU 0 %.1f, on vCPU 1 %.1f ns a group; caller 0 + worker 1 "
         "%.1f, vCPU 0's share %.2f; caller 1 + worker 0 %.1f, vCPU 0's share %.2f\n",
         med(one0), med(one1), med(a01), med(share_cpu0_01), med(a10), med(share_cpu0_10));
}
