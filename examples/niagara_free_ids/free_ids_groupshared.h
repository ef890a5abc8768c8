// free_ids_groupshared.h -- port of free_ids_groupshared.hlsl: Niagara ComputeFreeIDs with an
// exclusive Hillis-Steele scan in double-buffered groupshared memory and one InterlockedAdd per
// group. Statement for statement; "HLSL:" comments mark where C++ must differ.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::examples {

template <uint32_t THREAD_COUNT>
struct ComputeFreeIDsGroupShared {
  static constexpr int N = int(THREAD_COUNT);  // threads per group: the lockstep width
  static constexpr uint3 numthreads{THREAD_COUNT, 1, 1};

  Buffer<int> IDToIndexTable;       // binding 0 (t0)
  RWBuffer<int> RWFreeIDList;       // binding 1 (u0)
  RWBuffer<int> RWFreeIDListSizes;  // binding 2 (u1)
  uint32_t FreeIDListIndex = 0;     // binding 3 ($Globals, b0)

  void main(SV_GroupID GroupId, const SV_GroupThreadID<N>& GroupThreadId,
            const SV_DispatchThreadID<N>& /*DispatchThreadId*/) const {
    // HLSL: groupshared variables are declared at file scope; here they are locals of main(),
    // which runs once per group.
    GroupShared<uint32_t, 2 * THREAD_COUNT> GroupWriteOffsets;
    GroupShared<uint32_t> GroupWriteStart;

    uint32_t InputStart = GroupId.x * THREAD_COUNT;
    Uint<N> Thread = GroupThreadId.x;

    Uint<N> ParticleID = InputStart + Thread;

    // Evaluate predicate for each input slot, then shift down by one position because we need an
    // exclusive sum.
    if_(Thread > 0u, [&] {
      Uint<N> IsFree = select(IDToIndexTable[ParticleID - 1u] == -1, 1u, 0u);
      GroupWriteOffsets[Thread] = IsFree;
    }).else_([&] {
      GroupWriteOffsets[0] = 0;
    });
    GroupMemoryBarrierWithGroupSync();

    int OutBuffer = 0, InBuffer = 1;

    // HLSL: [unroll]. The loop is uniform (the same trip count on every thread): a plain for.
    for (uint32_t Offset = 1; Offset < THREAD_COUNT; Offset = Offset << 1) {
      // Swap the input and output buffers.
      OutBuffer = 1 - OutBuffer;
      InBuffer = 1 - InBuffer;
      if_(Thread >= Offset, [&] {
        GroupWriteOffsets[OutBuffer * THREAD_COUNT + Thread] =
            GroupWriteOffsets[InBuffer * THREAD_COUNT + Thread - Offset] +
            GroupWriteOffsets[InBuffer * THREAD_COUNT + Thread];
      }).else_([&] {
        GroupWriteOffsets[OutBuffer * THREAD_COUNT + Thread] =
            GroupWriteOffsets[InBuffer * THREAD_COUNT + Thread];
      });
      GroupMemoryBarrierWithGroupSync();
    }

    if_(Thread == 0u, [&] {
      // Add the value of the last predicate to get the total number of IDs that this group will
      // write.
      uint32_t LastIsFree = (IDToIndexTable[InputStart + THREAD_COUNT - 1] == -1) ? 1 : 0;
      uint32_t NumGroupFreeIDs = GroupWriteOffsets[(OutBuffer + 1) * THREAD_COUNT - 1] + LastIsFree;
      // Add to the global write offset. The previous offset is where we start writing in the
      // output buffer.
      InterlockedAdd(RWFreeIDListSizes[FreeIDListIndex], NumGroupFreeIDs, GroupWriteStart);
    });
    GroupMemoryBarrierWithGroupSync();

    if_(IDToIndexTable[ParticleID] == -1, [&] {
      // This is a free ID, output it.
      Uint<N> WriteOffset = GroupWriteStart + GroupWriteOffsets[OutBuffer * THREAD_COUNT + Thread];

      RWFreeIDList[WriteOffset] = ParticleID;
    });
  }
};

}  // namespace waveemu::examples
