// demo.cpp -- waveemu-demo, the README's first command: the three Niagara ComputeFreeIDs ports at
// every wave size on 2^22 IDs, each checked against a scalar loop, then one group of three waves
// of 8 lanes traced lane by lane so the active mask can be seen at work.
//
// Exits non-zero when any row does not match the reference.
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

using namespace waveemu;
using namespace waveemu::examples;

namespace {

constexpr size_t kIDs = size_t(1) << 22;
constexpr uint32_t kSeed = 2024;
// 128 threads per group: 2^22 / 128 = 32768 groups, within D3D's 65535 groups per dimension
// (64 would need 65536).
constexpr uint32_t kThreads = 128;

/// A run lists exactly the free IDs: the count is right and each listed ID is free and listed
/// once (with the count right, that is the whole set).
bool Matches(const FreeIDsResult& r, const std::vector<int32_t>& table, size_t free_count) {
  if (r.count < 0 || size_t(r.count) != free_count) return false;
  std::vector<uint8_t> seen(table.size(), 0);
  for (int32_t i = 0; i < r.count; ++i) {
    const int32_t id = r.list[size_t(i)];
    if (id < 0 || size_t(id) >= table.size() || table[size_t(id)] != -1 || seen[size_t(id)]++)
      return false;
  }
  return true;
}

template <class K>
bool Row(const char* name, int W, const std::vector<int32_t>& table, size_t free_count) {
  DispatchOptions options;
  options.wave_size = W;
  const FreeIDsResult r = RunFreeIDs<K>(table, options);
  const bool ok = Matches(r, table, free_count);
  fmt::print("{:<12} {:>4} {:>10} {:>9} {:>14.1f}\n", name, W, r.count, ok ? "yes" : "NO",
             double(table.size()) / r.seconds / 1e6);
  return ok;
}

// ------------------------------------------------------------------------------------------------
// The lane table: free_ids_wave.h's statements plus debug buffers, as one adds a debug UAV to a
// shader on a GPU. Each Debug* buffer gets one value per thread; WaveActiveBallot<N>(true) inside
// a branch is the HLSL way to see which lanes run it.

constexpr uint32_t kNotWritten = 0xffffffffu;

struct TracedComputeFreeIDsWave {
  static constexpr int N = 24;  // three waves of 8
  static constexpr uint3 numthreads{24, 1, 1};

  Buffer<int> IDToIndexTable;
  RWBuffer<int> RWFreeIDList;
  RWBuffer<int> RWFreeIDListSizes;
  uint32_t FreeIDListIndex = 0;
  // Debug outputs, indexed by SV_DispatchThreadID.x.
  RWBuffer<uint32_t> DebugIsFree, DebugWriteOffset, DebugBallot, DebugOuterMask, DebugAddMask,
      DebugStartBefore, DebugStartAfter, DebugFreeMask, DebugSlot;

  void main(SV_GroupID GroupId, SV_GroupThreadID<N> GroupThreadId,
            SV_DispatchThreadID<N> DispatchThreadId) const {
    const Uint<N>& Me = DispatchThreadId.x;
    uint32_t InputStart = GroupId.x * 24;
    Uint<N> Thread = GroupThreadId.x;
    Uint<N> ParticleID = InputStart + Thread;
    Uint<N> IsFree = select(IDToIndexTable[ParticleID] == -1, 1u, 0u);
    Uint<N> NumGroupFreeIDs = WaveActiveCountBits(IsFree != 0u);
    Uint<N> WriteOffset = WavePrefixCountBits(IsFree != 0u);
    DebugIsFree[Me] = IsFree;
    DebugWriteOffset[Me] = WriteOffset;
    DebugBallot[Me] = WaveActiveBallot(IsFree != 0u).x;
    if_(NumGroupFreeIDs > 0u, [&] {
      DebugOuterMask[Me] = WaveActiveBallot<N>(true).x;
      Uint<N> GroupWriteStart;
      if_(WaveIsFirstLane<N>(), [&] {
        DebugAddMask[Me] = WaveActiveBallot<N>(true).x;
        InterlockedAdd(RWFreeIDListSizes[FreeIDListIndex], NumGroupFreeIDs, GroupWriteStart);
        DebugStartBefore[Me] = GroupWriteStart;
      });
      GroupWriteStart = WaveReadLaneFirst(GroupWriteStart);
      DebugStartAfter[Me] = GroupWriteStart;
      if_(IsFree, [&] {
        DebugFreeMask[Me] = WaveActiveBallot<N>(true).x;
        DebugSlot[Me] = GroupWriteStart + WriteOffset;
        RWFreeIDList[GroupWriteStart + WriteOffset] = ParticleID;
      });
    });
  }
};

/// A wave-uniform debug value: what any lane of the wave starting at `first` wrote.
uint32_t AnyLane(const std::vector<uint32_t>& column, int first) {
  for (int t = first; t < first + 8; ++t)
    if (column[size_t(t)] != kNotWritten) return column[size_t(t)];
  return kNotWritten;
}

std::string Cell(uint32_t v, bool hex = false) {
  if (v == kNotWritten) return "-";
  return hex ? fmt::format("0x{:02x}", v) : fmt::format("{}", v);
}

/// Runs the traced kernel on one group of 24 IDs (wave 8, deterministic) and prints a lane table
/// per wave. Returns whether the traced kernel listed what the real port lists.
bool LaneTable() {
  // Wave 0: IDs 1, 2, 6 free. Wave 1: none free, so it skips the whole if_. Wave 2: 16, 19, 20, 23.
  const std::vector<int32_t> table = MakeIDTable(24, [](size_t id) {
    return id == 1 || id == 2 || id == 6 || id == 16 || id == 19 || id == 20 || id == 23;
  });
  std::vector<int32_t> list(24, kUnwritten), sizes(1, 0);
  std::vector<std::vector<uint32_t>> debug(9, std::vector<uint32_t>(24, kNotWritten));
  TracedComputeFreeIDsWave k;
  k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
  k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  RWBuffer<uint32_t>* outs[] = {&k.DebugIsFree,      &k.DebugWriteOffset, &k.DebugBallot,
                                &k.DebugOuterMask,   &k.DebugAddMask,     &k.DebugStartBefore,
                                &k.DebugStartAfter,  &k.DebugFreeMask,    &k.DebugSlot};
  for (size_t i = 0; i < 9; ++i) *outs[i] = RWBuffer<uint32_t>(std::span<uint32_t>(debug[i]));
  DispatchOptions options;
  options.wave_size = 8;
  options.deterministic = true;
  Dispatch(k, uint3{1, 1, 1}, options);
  enum { kIsFree, kWriteOffset, kBallot, kOuter, kAdd, kBefore, kAfter, kFree, kSlot };

  fmt::print(
      "\nOne group of 24 threads = three waves of 8 lanes (wave version, deterministic).\n"
      "A branch body runs once for the whole group, with only its lanes active; the masks below\n"
      "are WaveActiveBallot<N>(true).x taken inside each branch (bit i = lane i).\n");
  for (int wave = 0; wave < 3; ++wave) {
    const int first = wave * 8;
    fmt::print("\nwave {} (threads {}-{}): WaveActiveBallot(IsFree != 0u).x = {}\n", wave, first,
               first + 7, Cell(debug[kBallot][size_t(first)], true));
    fmt::print("  if_(NumGroupFreeIDs > 0u) active: {}   if_(WaveIsFirstLane<N>()) active: {}   "
               "if_(IsFree) active: {}\n",
               Cell(AnyLane(debug[kOuter], first), true), Cell(AnyLane(debug[kAdd], first), true),
               Cell(AnyLane(debug[kFree], first), true));
    fmt::print("  {:>4} {:>10} {:>6} {:>11} {:>14} {:>22} {:>21} {:>17}\n", "lane", "ParticleID",
               "IsFree", "WriteOffset", "InterlockedAdd", "GroupWriteStart before",
               "after WaveReadLaneFirst", "RWFreeIDList slot");
    for (int lane = 0; lane < 8; ++lane) {
      const int t = first + lane;
      fmt::print("  {:>4} {:>10} {:>6} {:>11} {:>14} {:>22} {:>21} {:>17}\n", lane, t,
                 Cell(debug[kIsFree][t]), Cell(debug[kWriteOffset][t]),
                 debug[kAdd][t] != kNotWritten ? "this lane" : "",
                 Cell(debug[kBefore][t]), Cell(debug[kAfter][t]), Cell(debug[kSlot][t]));
    }
  }
  fmt::print(
      "\n'-': not written, because the lane was not active there. Only the lane that did the\n"
      "InterlockedAdd holds the old list size (HLSL leaves GroupWriteStart uninitialised on the\n"
      "others) until WaveReadLaneFirst copies it to every lane. Wave 1 has no free ID, so the\n"
      "if_(NumGroupFreeIDs > 0u) body ran without its lanes: no atomic, no broadcast.\n"
      "RWFreeIDListSizes[0] = {}; RWFreeIDList:",
      sizes[0]);
  for (int i = 0; i < sizes[0]; ++i) fmt::print(" {}", list[size_t(i)]);
  fmt::print("\n");

  // The traced copy must list exactly what the real port lists.
  const FreeIDsResult real = RunFreeIDs<ComputeFreeIDsWave<24>>(table, options);
  return real.list == list && real.count == sizes[0];
}

}  // namespace

int main() {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int32_t> table = MakeRandomIDTable(kIDs, 0.5, kSeed);
  const size_t free_count = ReferenceFreeIDs(table).size();

  fmt::print("waveemu demo: Niagara ComputeFreeIDs on {} IDs (half free, seed {}), {} threads per "
             "group,\nprofile spec, parallel dispatch on {} hardware threads; reference: {} free "
             "IDs from a scalar loop.\n"
             "Throughput is measured over Dispatch() alone.\n\n",
             kIDs, kSeed, kThreads, std::thread::hardware_concurrency(), free_count);
  fmt::print("{:<12} {:>4} {:>10} {:>9} {:>14}\n", "variant", "wave", "free IDs", "matches",
             "M IDs/s");
  bool ok = true;
  for (int W : {4, 8, 16, 32, 64, 128})
    ok &= Row<ComputeFreeIDsWave<kThreads>>("wave", W, table, free_count);
  for (int W : {4, 8, 16, 32, 64, 128})
    ok &= Row<ComputeFreeIDsGroupShared<kThreads>>("groupshared", W, table, free_count);
  for (int W : {4, 8, 16, 32, 64, 128})
    ok &= Row<ComputeFreeIDsRaking<kThreads>>("raking", W, table, free_count);

  const bool traced_ok = LaneTable();
  if (!traced_ok) fmt::print("the traced kernel's list differs from the port's\n");
  ok &= traced_ok;

  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("\n{} in {:.1f} s\n", ok ? "all rows match the reference" : "MISMATCH", elapsed);
  return ok ? 0 : 1;
}
