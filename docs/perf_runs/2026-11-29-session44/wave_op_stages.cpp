// wave_op_stages.cpp -- session 44's probe (not part of the build): the bench's wave-op kernel
// (tools/bench/wave_ops.h) for uint at wave 32, all threads active, as STAGE 0 (a copy, Out[i] =
// In[i], through the same kernel shape), 1 (WaveActiveSum), 2 (WavePrefixSum), 3 (an empty
// main: the dispatch alone) and 4 (Out[i] = i: the index and the store). SIZE_LOG2 lanes
// (default 16: in cache), REPS dispatches through DispatchInlined on one thread; prints the
// fastest dispatch's ns per group of 64 and checks the output against a scalar loop. Run it
// under callgrind (count_instructions.sh) for instructions per group. STREAMING_MIN_BYTES, where
// set, moves the streaming-store threshold (SetStreamingStoreMinBytes; an older tree has no
// streaming stores to move); PREFILL, where set, fills the output before each dispatch, as the
// bench does.
// Built from the repository root:
//   g++ -O3 -g -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -I. wave_op_stages.cpp -o wave_op_stages \
//     build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt
#include "tools/bench/wave_ops.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#if __has_include("emulator/streaming_stores.h")
#include "emulator/streaming_stores.h"
#define HAVE_STREAMING_STORES 1
#endif
using namespace waveemu;
template <int S>
struct K {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};
  StructuredBuffer<uint32_t> In;
  RWStructuredBuffer<uint32_t> Out;
  uint32_t GRID_X = 1024;
  void main(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    if constexpr (S == 3) return;
    Uint<N> i = (GroupId.y * GRID_X + GroupId.x) * uint32_t(N) + GroupIndex;
    if constexpr (S == 4) { Out[i] = i; return; }
    Uint<N> x = In[i];
    Uint<N> r = 0u;
    if constexpr (S == 0) r = x;
    if constexpr (S == 1) r = WaveActiveSum(x);
    if constexpr (S == 2) r = WavePrefixSum(x);
    Out[i] = r;
  }
};
template <int S>
int Run(int reps, int size_log2) {
  const size_t n = size_t(1) << size_log2;
  std::vector<uint32_t> in(n), out(n, 7), want(n);
  for (size_t t = 0; t < n; ++t) in[t] = uint32_t(t * 2654435761u) >> 8;
  for (size_t w = 0; w < n; w += 32) {
    uint32_t sum = 0;
    for (size_t t = w; t < w + 32; ++t) {
      want[t] = S == 0 ? in[t] : S == 3 ? 7 : S == 4 ? uint32_t(t) : sum;
      sum += in[t];
    }
    if (S == 1) std::fill(want.begin() + w, want.begin() + w + 32, sum);
  }
  K<S> k;
  k.In = StructuredBuffer<uint32_t>(std::span<const uint32_t>(in));
  k.Out = RWStructuredBuffer<uint32_t>(std::span<uint32_t>(out));
  const uint32_t groups = uint32_t(n / 64), grid_x = std::min(groups, 1024u);
  k.GRID_X = grid_x;
  DispatchOptions o; o.wave_size = 32; o.max_threads = 1;
  double best = 1e9;
  const bool prefill = getenv("PREFILL") != nullptr;
  for (int r = 0; r < reps; ++r) {
    if (prefill) std::fill(out.begin(), out.end(), 0x7fu);  // as the bench does before each run
    auto t0 = std::chrono::steady_clock::now();
    DispatchInlined(k, uint3{grid_x, groups / grid_x, 1}, o);
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / groups);
  }
  if (out != want) { printf("stage %d: WRONG\n", S); return 1; }
  printf("stage %d: %.1f ns a group, %.3g lanes/s\n", S, best, 64e9 / best);
  return 0;
}
int main() {
#ifdef HAVE_STREAMING_STORES
  if (const char* min = getenv("STREAMING_MIN_BYTES"))
    SetStreamingStoreMinBytes(strtoull(min, nullptr, 10));
#endif
  const int reps = getenv("REPS") ? atoi(getenv("REPS")) : 48;
  const int size_log2 = getenv("SIZE_LOG2") ? atoi(getenv("SIZE_LOG2")) : 16;
  switch (atoi(getenv("STAGE") ? getenv("STAGE") : "2")) {
    case 0: return Run<0>(reps, size_log2);
    case 1: return Run<1>(reps, size_log2);
    case 3: return Run<3>(reps, size_log2);
    case 4: return Run<4>(reps, size_log2);
    default: return Run<2>(reps, size_log2);
  }
}
