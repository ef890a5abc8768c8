// fiber_cost.cpp -- session 47's probe (not part of the build): what keeping groups in flight
// on fibers costs one thread, with no second thread and no shared cache line. The free-ID wave
// kernel (wave 8, free 0.5) through DispatchInlined with max_threads = 1, built against a
// scratch dispatch.h (fibers_on_one_thread.diff) that lets the calling thread keep groups in
// flight, so that it runs the two-core worker's path; in flight 1 runs groups one by one, the
// calling thread's path. Every dispatch's count is checked, and so is the number of fibers used.
// Arguments: groups in flight (default 64), log2 of the IDs (default 16, in cache), dispatches
// (default 48). Prints the median and the fastest ns a group. Built from the repository root,
// with the diff's dispatch.h in /tmp/x/emulator/ (D is this folder):
//   D=docs/perf_runs/2026-11-29-session47; mkdir -p /tmp/x/emulator
//   cp emulator/dispatch.h /tmp/x/emulator/ && patch -d /tmp/x -p1 < $D/fibers_on_one_thread.diff
//   g++ -O3 -g -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -no-pie -fno-pie -I/tmp/x -I. \
//     $D/fiber_cost.cpp -o fc build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt -lz
// With $D/jump_without_fpu_control.S added after fiber_cost.cpp on that line, the program uses
// that jump_fcontext instead of the library's.
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
  const int in_flight = argc > 1 ? atoi(argv[1]) : 64;
  const int lg = argc > 2 ? atoi(argv[2]) : 16;
  const int reps = argc > 3 ? atoi(argv[3]) : 48;
  const size_t n = size_t(1) << lg;
  auto table = examples::MakeRandomIDTable(n, 0.5, 42);
  const size_t count = examples::ReferenceFreeIDs(table).size();
  std::vector<int32_t> list(n), sizes(1);
  examples::ComputeFreeIDsWave<64> k;
  k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
  k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  DispatchOptions o; o.wave_size = 8; o.max_threads = 1; o.groups_in_flight = in_flight;
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    sizes[0] = 0;
    auto t0 = std::chrono::steady_clock::now();
    DispatchResult res = DispatchInlined(k, uint3{uint32_t(n / 64), 1, 1}, o);
    auto t1 = std::chrono::steady_clock::now();
    if (size_t(sizes[0]) != count || res.groups_in_flight != std::min<int>(in_flight, int(n / 64))) { printf("WRONG %d\n", res.groups_in_flight); return 1; }
    t.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / (n / 64));
  }
  std::sort(t.begin(), t.end());
  printf("in flight %d, 2^%d: median %.1f best %.1f ns a group\n", in_flight, lg, t[t.size()/2], t[0]);
}
