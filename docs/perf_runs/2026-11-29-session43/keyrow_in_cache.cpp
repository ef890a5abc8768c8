// keyrow_in_cache.cpp -- session 43's timing probe (not part of the build): the fastest of REPS
// (default 48) one-thread dispatches of the free-ID wave kernel at wave 8 over 2^16 IDs (in
// cache), in ns per group of 64 IDs; the output's count is checked against the reference.
// alternate.sh runs two builds of it in turns. Built as statement_stages.cpp is.
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace waveemu;
int main() {
  const size_t n = size_t(1) << 16;
  auto table = examples::MakeRandomIDTable(n, 0.5, 42);
  const size_t count = examples::ReferenceFreeIDs(table).size();
  std::vector<int32_t> list(n), sizes(1);
  examples::ComputeFreeIDsWave<64> k;
  k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
  k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  DispatchOptions o; o.wave_size = 8; o.max_threads = 1;
  double best = 1e9;
  const int reps = getenv("REPS") ? atoi(getenv("REPS")) : 48;
  for (int r = 0; r < reps; ++r) {
    sizes[0] = 0;
    auto t0 = std::chrono::steady_clock::now();
    DispatchInlined(k, uint3{uint32_t(n / 64), 1, 1}, o);
    auto t1 = std::chrono::steady_clock::now();
    if (size_t(sizes[0]) != count) { printf("WRONG\n"); return 1; }
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / (n / 64));
  }
  printf("%.1f\n", best);
}
