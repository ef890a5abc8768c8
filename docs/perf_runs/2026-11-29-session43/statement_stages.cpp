// statement_stages.cpp -- session 43's probe (not part of the build): the free-ID wave kernel
// (examples/niagara_free_ids/free_ids_wave.h) built up statement by statement. STAGE=0..6 runs
// the kernel up to that statement (0: the index alone; 6: the whole kernel) with whatever it has
// computed stored to a sink buffer, so nothing is dropped; REPS dispatches of 1024 groups of 64
// threads at wave 8, one thread, 2^16 IDs (in cache). It prints the fastest dispatch's ns per
// group; count_instructions.sh runs it under callgrind for instructions per group, and
// per_line.py attributes those to the kernel's lines. Built from the repository root:
//   g++ -O3 -g -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -I. statement_stages.cpp -o stages \
//     build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace waveemu;
template <int S>
struct K {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};
  Buffer<int> IDToIndexTable;
  RWBuffer<int> RWFreeIDList;
  RWBuffer<int> RWFreeIDListSizes;
  RWBuffer<int> Sink;
  uint32_t FreeIDListIndex = 0;
  void main(SV_GroupID GroupId, const SV_GroupThreadID<N>& GroupThreadId) const {
    uint32_t InputStart = GroupId.x * 64;
    Uint<N> Thread = GroupThreadId.x;
    Uint<N> ParticleID = InputStart + Thread;
    if constexpr (S == 0) { Sink[ParticleID] = ParticleID; return; }
    Uint<N> IsFree = select(IDToIndexTable[ParticleID] == -1, 1u, 0u);
    if constexpr (S == 1) { Sink[ParticleID] = IsFree; return; }
    Uint<N> NumGroupFreeIDs = WaveActiveCountBits(IsFree != 0u);
    if constexpr (S == 2) { Sink[ParticleID] = NumGroupFreeIDs; return; }
    Uint<N> WriteOffset = WavePrefixCountBits(IsFree != 0u);
    if constexpr (S == 3) { Sink[ParticleID] = WriteOffset + NumGroupFreeIDs; return; }
    if_(NumGroupFreeIDs > 0u, [&] {
      Uint<N> GroupWriteStart;
      if_(WaveIsFirstLane<N>(), [&] {
        InterlockedAdd(RWFreeIDListSizes[FreeIDListIndex], NumGroupFreeIDs, GroupWriteStart);
      });
      if constexpr (S == 4) { Sink[ParticleID] = GroupWriteStart + WriteOffset; return; }
      GroupWriteStart = WaveReadLaneFirst(GroupWriteStart);
      if constexpr (S == 5) { Sink[ParticleID] = GroupWriteStart + WriteOffset; return; }
      if_(IsFree, [&] {
        RWFreeIDList[GroupWriteStart + WriteOffset] = ParticleID;
      });
    });
  }
};
template <int S>
void Run(int reps) {
  const size_t n = size_t(1) << 16;
  auto table = examples::MakeRandomIDTable(n, 0.5, 42);
  std::vector<int32_t> list(n), sizes(1), sink(n);
  K<S> k;
  k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
  k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  k.Sink = RWBuffer<int>(std::span<int32_t>(sink));
  DispatchOptions o; o.wave_size = 8; o.max_threads = 1;
  double best = 1e9;
  for (int r = 0; r < reps; ++r) {
    sizes[0] = 0;
    auto t0 = std::chrono::steady_clock::now();
    DispatchInlined(k, uint3{uint32_t(n / 64), 1, 1}, o);
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / (n / 64));
  }
  printf("stage %d: %.1f ns\n", S, best);
}
int main() {
  const int reps = getenv("REPS") ? atoi(getenv("REPS")) : 48;
  switch (atoi(getenv("STAGE"))) {
    case 0: Run<0>(reps); break; case 1: Run<1>(reps); break; case 2: Run<2>(reps); break;
    case 3: Run<3>(reps); break; case 4: Run<4>(reps); break; case 5: Run<5>(reps); break;
    case 6: Run<6>(reps); break;
  }
}
