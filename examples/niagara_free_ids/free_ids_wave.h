// free_ids_wave.h -- port of free_ids_wave.hlsl: Niagara ComputeFreeIDs with wave intrinsics.
//
// Statement for statement, same names and order; "HLSL:" comments mark where C++ must differ.
// Unreal makes THREAD_COUNT the wave size; waveemu runs any wave size W, so a group holds
// THREAD_COUNT / W waves (or one partial wave), and each wave claims its own output range.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::examples {

template <uint32_t THREAD_COUNT>
struct ComputeFreeIDsWave {
  static constexpr int N = int(THREAD_COUNT);  // threads per group: the lockstep width
  static constexpr uint3 numthreads{THREAD_COUNT, 1, 1};

  Buffer<int> IDToIndexTable;  // binding 0 (t0)

  // Output list of free IDs.
  RWBuffer<int> RWFreeIDList;  // binding 1 (u0)

  // Buffer containing the current size of each list that's currently being processed.
  // Multiple invocations of this shader might be running concurrently, for independent emitters.
  RWBuffer<int> RWFreeIDListSizes;  // binding 2 (u1)
  // Index of the free list that's being computed by this invocation. The current size of the
  // list is at RWFreeIDListSizes[FreeIDListIndex].
  uint32_t FreeIDListIndex = 0;  // binding 3 ($Globals, b0)

  void main(SV_GroupID GroupId, const SV_GroupThreadID<N>& GroupThreadId,
            const SV_DispatchThreadID<N>& /*DispatchThreadId*/) const {
    uint32_t InputStart = GroupId.x * THREAD_COUNT;
    Uint<N> Thread = GroupThreadId.x;

    Uint<N> ParticleID = InputStart + Thread;
    Uint<N> IsFree = select(IDToIndexTable[ParticleID] == -1, 1u, 0u);

    // Count how many predicates are true across all lanes.
    Uint<N> NumGroupFreeIDs = WaveActiveCountBits(IsFree != 0u);  // HLSL: uint to bool is implicit

    // Compute a prefix sum on the predicate bit mask. This gives us the
    // local write offset for each lane.
    Uint<N> WriteOffset = WavePrefixCountBits(IsFree != 0u);

    // Skip the whole wave if all the IDs are in use.
    // HLSL: a wave op's result is per-thread (waves of a group may differ), so `if` becomes if_.
    if_(NumGroupFreeIDs > 0u, [&] {
      Uint<N> GroupWriteStart;
      if_(WaveIsFirstLane<N>(), [&] {
        // Add to the global write offset. The previous offset is where we start writing in the
        // output buffer.
        InterlockedAdd(RWFreeIDListSizes[FreeIDListIndex], NumGroupFreeIDs, GroupWriteStart);
      });

      // Broadcast the global write offset to all lanes.
      // HLSL: the seed spells it WaveReadFirstLane, which DXC rejects (see README.md).
      GroupWriteStart = WaveReadLaneFirst(GroupWriteStart);

      if_(IsFree, [&] {
        RWFreeIDList[GroupWriteStart + WriteOffset] = ParticleID;
      });
    });
  }
};

}  // namespace waveemu::examples
