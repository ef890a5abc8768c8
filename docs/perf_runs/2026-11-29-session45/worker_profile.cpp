// worker_profile.cpp -- session 45's probe (not part of the build): REPS two-core dispatches of
// the key row's kernel (free IDs, wave 8, free 0.5, 2^24 IDs, 64 groups in flight per worker),
// counting the groups each thread ran, for a perf profile split by thread:
//   perf record -e cpu-clock -F 5000 -o worker.data ./worker_profile 40
//   perf report -i worker.data --no-children --sort pid,srcline --stdio -g none
// (perf's "pid" column holds the thread id.) Prints the calling thread's and the worker's
// thread ids and group counts, so that each thread's samples can be divided by its groups.
// Built as two_core_split.cpp is.
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>
#include <sys/syscall.h>
#include <vector>
using namespace waveemu;
// One counter per thread, each on a cache line of its own and written by its thread alone (see
// two_core_split.cpp).
struct alignas(64) GroupCount {
  std::atomic<uint64_t> n{0};
  void Add() { n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
};
static GroupCount g_caller_groups, g_worker_groups;
alignas(64) static std::atomic<long> g_worker_tid{0};
static std::thread::id g_caller;
struct Counted : examples::ComputeFreeIDsWave<64> {
  void main(SV_GroupID GroupId, const SV_GroupThreadID<N>& GroupThreadId,
            const SV_DispatchThreadID<N>& DispatchThreadId) const {
    examples::ComputeFreeIDsWave<64>::main(GroupId, GroupThreadId, DispatchThreadId);
    if (std::this_thread::get_id() == g_caller) {
      g_caller_groups.Add();
    } else {
      g_worker_groups.Add();
      if (g_worker_tid.load(std::memory_order_relaxed) == 0) g_worker_tid = syscall(SYS_gettid);
    }
  }
};
int main(int argc, char** argv) {
  g_caller = std::this_thread::get_id();
  const int reps = argc > 1 ? atoi(argv[1]) : 40;
  const std::vector<int32_t> table = examples::MakeRandomIDTable(size_t(1) << 24, 0.5, 42);
  std::vector<int32_t> list(table.size()), sizes(1);
  const size_t count = examples::ReferenceFreeIDs(table).size();
  Counted k;
  k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
  k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  DispatchOptions o;
  o.wave_size = 8;
  o.groups_in_flight = 64;
  for (int r = 0; r < reps; ++r) {
    sizes[0] = 0;
    DispatchInlined(k, uint3{uint32_t(table.size() / 64), 1, 1}, o);
    if (size_t(sizes[0]) != count) {
      printf("WRONG\n");
      return 1;
    }
  }
  printf("calling thread %ld: %llu groups; worker %ld: %llu groups\n", long(getpid()),
         (unsigned long long)g_caller_groups.n.load(), g_worker_tid.load(),
         (unsigned long long)g_worker_groups.n.load());
}
