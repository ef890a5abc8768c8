// independent_threads.cpp -- session 46's probe (not part of the build): does one vCPU slow the
// other down when both run? Each workload runs on one thread pinned to vCPU 0, then on one
// pinned to vCPU 1, then on both at once (two std::threads, each pinned, each with its own data:
// nothing shared, no atomics, no oneTBB, no fibers). Prints each thread's rate alone and beside
// the other, and the two-thread speed-up (the sum of both rates over the faster single rate).
// Workloads:
//   keyrow: the free-ID wave kernel (wave 8, free 0.5) over 2^16 IDs (in L2; or 2^LG) through
//           DispatchInlined with max_threads = 1, 2^24 IDs' worth of dispatches; ns a group
//   alu:    16 independent chains of VPADDD, meant to fill the vector ports; it runs at about
//           10 ns an iteration here, far from that, so it only shows the cores' own scaling
//   chain:  one chain of 64-bit multiplies (latency-bound, ports idle)
// Arguments: rounds (default 5), LG (default 16), SHARE (default 0, below). Built from the repository root:
//   g++ -O3 -g -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -I. independent_threads.cpp \
//     -o independent_threads build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt -lz
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <immintrin.h>
#include <sched.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>
using namespace waveemu;
using Clock = std::chrono::steady_clock;
static void PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) {
    perror("sched_setaffinity");
    exit(1);
  }
}
// SHARE (third argument): 0, each thread its own counter and list (checked after every
// dispatch); 1, both threads claim from one counter and write into one list, as a two-core
// Dispatch's groups do; 2, one counter, each thread its own list. With a shared counter, main
// zeroes it before each phase and checks after it that it reached every dispatch's count.
static int g_share = 0;
static std::vector<int32_t> g_shared_counter(16, 0), g_shared_list;
struct KeyRow {
  std::vector<int32_t> table, own_list, own_counter;
  size_t count;
  examples::ComputeFreeIDsWave<64> k;
  int reps;
  explicit KeyRow(int lg)
      : table(examples::MakeRandomIDTable(size_t(1) << lg, 0.5, 42)), own_counter(16, 0),
        reps(std::max(1, 1 << (24 - lg))) {
    count = examples::ReferenceFreeIDs(table).size();
    // A shared counter runs on across a phase's dispatches of both threads: room for all.
    own_list.resize(g_share == 2 ? 2 * size_t(reps) * table.size() : table.size());
    if (g_share == 1 && g_shared_list.empty()) g_shared_list.resize(2 * size_t(reps) * table.size());
    k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
    k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(g_share == 1 ? g_shared_list : own_list));
    k.RWFreeIDListSizes =
        RWBuffer<int>(std::span<int32_t>(g_share == 0 ? own_counter : g_shared_counter));
  }
  double operator()() {  // ns a group over reps dispatches
    DispatchOptions o;
    o.wave_size = 8;
    o.max_threads = 1;
    const auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) {
      if (g_share == 0) own_counter[0] = 0;
      DispatchInlined(k, uint3{uint32_t(table.size() / 64), 1, 1}, o);
      if (g_share == 0 && size_t(own_counter[0]) != count) {
        printf("WRONG\n");
        exit(1);
      }
    }
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() /
           (double(reps) * double(table.size() / 64));
  }
};
// With a shared counter: zero it before a phase, check after it (expected: dispatches x count).
static void StartPhase() { g_shared_counter[0] = 0; }
static void EndPhase(const KeyRow& k, int dispatches) {
  if (g_share != 0 && size_t(g_shared_counter[0]) != size_t(dispatches) * k.count) {
    printf("WRONG shared counter %d, expected %zu\n", g_shared_counter[0],
           size_t(dispatches) * k.count);
    exit(1);
  }
}
__attribute__((noinline)) double Alu() {  // ns per iteration of 16 adds
  __m256i a[16];
  for (int i = 0; i < 16; ++i) a[i] = _mm256_set1_epi32(i);
  const __m256i k = _mm256_set1_epi32(3);
  const long iters = 20'000'000;
  const auto t0 = Clock::now();
  for (long n = 0; n < iters; ++n) {
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) a[i] = _mm256_add_epi32(a[i], k);
    asm volatile("" : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]), "+x"(a[3]), "+x"(a[4]), "+x"(a[5]),
                 "+x"(a[6]), "+x"(a[7]));
    asm volatile("" : "+x"(a[8]), "+x"(a[9]), "+x"(a[10]), "+x"(a[11]), "+x"(a[12]),
                 "+x"(a[13]), "+x"(a[14]), "+x"(a[15]));
  }
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / iters;
  __m256i s = a[0];
  for (int i = 1; i < 16; ++i) s = _mm256_add_epi32(s, a[i]);
  volatile int sink = _mm256_extract_epi32(s, 0);
  (void)sink;
  return ns;
}
__attribute__((noinline)) double Chain() {  // ns per multiply step
  unsigned long x = 1;
  const long iters = 60'000'000;
  const auto t0 = Clock::now();
  for (long n = 0; n < iters; ++n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    x ^= x >> 29;
  }
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / iters;
  volatile unsigned long sink = x;
  (void)sink;
  return ns;
}
// Runs f on vCPU cpu in a thread of its own; returns its time per unit.
static double Alone(int cpu, const std::function<double()>& f) {
  double t = 0;
  std::thread th([&] {
    PinTo(cpu);
    t = f();
  });
  th.join();
  return t;
}
static void Together(const std::function<double()>& f0, const std::function<double()>& f1,
                     double* t0, double* t1) {
  std::thread a([&] {
    PinTo(0);
    *t0 = f0();
  });
  std::thread b([&] {
    PinTo(1);
    *t1 = f1();
  });
  a.join();
  b.join();
}
int main(int argc, char** argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 5;
  const int lg = argc > 2 ? atoi(argv[2]) : 16;
  g_share = argc > 3 ? atoi(argv[3]) : 0;
  printf("keyrow at 2^%d IDs a table; %s\n", lg,
         g_share == 0   ? "each thread its own counter and list"
         : g_share == 1 ? "one counter and one list for both threads"
                        : "one counter, a list each");
  KeyRow k0(lg), k1(lg);  // each thread its own table, list and counter
  struct Work {
    const char* name;
    std::function<double()> f0, f1;
  };
  const std::vector<Work> works{{"keyrow", std::ref(k0), std::ref(k1)},
                                {"alu", Alu, Alu},
                                {"chain", Chain, Chain}};
  std::vector<std::vector<double>> speedups(works.size());
  for (int r = 0; r < rounds; ++r) {
    for (size_t w = 0; w < works.size(); ++w) {
      const bool keyrow = w == 0;
      StartPhase();
      const double a0 = Alone(0, works[w].f0);
      if (keyrow) EndPhase(k0, k0.reps);
      StartPhase();
      const double a1 = Alone(1, works[w].f1);
      if (keyrow) EndPhase(k0, k0.reps);
      double b0, b1;
      StartPhase();
      Together(works[w].f0, works[w].f1, &b0, &b1);
      if (keyrow) EndPhase(k0, 2 * k0.reps);
      const double speedup = (1 / b0 + 1 / b1) / (1 / std::min(a0, a1));
      printf("round %d %-6s: alone %.2f / %.2f, together %.2f / %.2f ns a unit: %.2fx\n", r,
             works[w].name, a0, a1, b0, b1, speedup);
      speedups[w].push_back(speedup);
    }
    fflush(stdout);
  }
  for (size_t w = 0; w < works.size(); ++w) {
    std::sort(speedups[w].begin(), speedups[w].end());
    printf("%-6s: median two-thread speed-up %.2fx (min %.2f, max %.2f)\n", works[w].name,
           speedups[w][speedups[w].size() / 2], speedups[w].front(), speedups[w].back());
  }
}
