// thread_timeline.cpp -- session 36: when each OS thread starts and stops its groups in a
// two-core dispatch of the key row's kernel (wave 8, 2^24 IDs, free 0.5, DispatchInlined), and
// how many it runs; alternate dispatches on one thread. Not part of the build; README.md here
// has the command. Reading the TSC twice per group makes every group slower (about 92 ns on one
// thread against about 72 ns in the benchmark), so compare its threads with each other only.
// The output is not checked: the benchmark checks this kernel's.
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include "tools/bench/free_ids_runs.h"
#include <fmt/format.h>
#include <x86intrin.h>
#include <atomic>
#include <chrono>
using namespace waveemu; using namespace waveemu::bench;
using Wave64 = examples::ComputeFreeIDsWave<64>;
std::atomic<int> next_slot{0};
thread_local int slot = -1;
struct alignas(128) Rec { uint64_t first=0,last=0,count=0; } rec[4];
struct K {
  static constexpr int N = 64; static constexpr uint3 numthreads = Wave64::numthreads;
  Wave64 k;
  void main(SV_GroupID g, const SV_GroupThreadID<N>& t, const SV_DispatchThreadID<N>& d) const {
    if (slot < 0) slot = next_slot++;
    Rec& r = rec[slot]; uint64_t now = __rdtsc(); if (!r.count) r.first = now; r.count++;
    k.main(g, t, d); r.last = __rdtsc();
  }
};
int main(int argc, char** argv) {
  const size_t size = size_t(1) << 24;
  auto table = examples::MakeRandomIDTable(size, 0.5, 42);
  std::vector<int32_t> list(size), sizes(64);
  K kernel; kernel.k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  kernel.k.RWFreeIDList = RWBuffer<int>(std::span<int>(list));
  kernel.k.RWFreeIDListSizes = RWBuffer<int>(std::span<int>(sizes));
  const int gif = argc > 1 ? atoi(argv[1]) : 64;
  // tsc rate
  auto t0 = std::chrono::steady_clock::now(); uint64_t c0 = __rdtsc();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(100)) {}
  double per_ms = (__rdtsc() - c0) / 100.0;
  for (int rep = 0; rep < 40; ++rep) {
    for (auto& r : rec) r = Rec{};
    sizes[0] = 0;
    DispatchOptions o; o.wave_size = 8; o.max_threads = rep % 2 ? 2 : 1; o.groups_in_flight = gif;
    uint64_t s = __rdtsc();
    DispatchInlined(kernel, uint3{uint32_t(size / 64), 1, 1}, o);
    uint64_t e = __rdtsc();
    fmt::print("thr {} total {:.2f} ms |", o.max_threads, (e - s) / per_ms);
    for (int i = 0; i < 2; ++i) if (rec[i].count)
      fmt::print(" t{}: start +{:.3f} end -{:.3f} groups {} ({:.1f} ns/group)|", i, (rec[i].first - s) / per_ms, (e - rec[i].last) / per_ms, rec[i].count, (rec[i].last - rec[i].first) / per_ms * 1e6 / rec[i].count);
    fmt::print("\n");
  }
}
