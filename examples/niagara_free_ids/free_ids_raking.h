// free_ids_raking.h -- port of free_ids_raking.hlsl: the raking variant of Niagara ComputeFreeIDs'
// groupshared version. Each thread counts COUNTER_PER_THREAD consecutive IDs, the group scans the
// per-thread counts (an inclusive Hillis-Steele scan in double-buffered groupshared memory), and
// each thread writes its free IDs in order. "HLSL:" comments mark where C++ must differ.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::examples {

template <uint32_t THREAD_COUNT, uint32_t COUNTER_PER_THREAD = 8>
struct ComputeFreeIDsRaking {
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

    uint32_t InputStart = GroupId.x * THREAD_COUNT * COUNTER_PER_THREAD;
    Uint<N> Thread = GroupThreadId.x;

    Uint<N> ParticleID = InputStart + Thread * COUNTER_PER_THREAD;

    Uint<N> IsFreeArray[COUNTER_PER_THREAD];
    Uint<N> NumFreeInThread = 0u;

    // HLSL: [unroll]. The loop is uniform (the same trip count on every thread): a plain for.
    for (uint32_t i = 0; i < COUNTER_PER_THREAD; i++) {
      Uint<N> IsFree = select(IDToIndexTable[ParticleID + i] == -1, 1u, 0u);
      IsFreeArray[i] = IsFree;
      NumFreeInThread += IsFree;
    }

    GroupWriteOffsets[Thread] = NumFreeInThread;
    GroupMemoryBarrierWithGroupSync();

    // The counts were not shifted down by one, so this scan is inclusive.
    int OutBuffer = 0, InBuffer = 1;

    // HLSL: [unroll]; uniform, so a plain for.
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
      // The inclusive scan's last element is already the group's total.
      uint32_t NumGroupFreeIDs = GroupWriteOffsets[(OutBuffer + 1) * THREAD_COUNT - 1];
      // Add to the global write offset. The previous offset is where we start writing in the
      // output buffer.
      InterlockedAdd(RWFreeIDListSizes[FreeIDListIndex], NumGroupFreeIDs, GroupWriteStart);
    });
    GroupMemoryBarrierWithGroupSync();

    // Inclusive sum minus the thread's own count is its exclusive offset.
    Uint<N> WriteOffset =
        GroupWriteStart + GroupWriteOffsets[OutBuffer * THREAD_COUNT + Thread] - NumFreeInThread;
    // HLSL: [unroll]; uniform, so a plain for.
    for (uint32_t j = 0; j < COUNTER_PER_THREAD; j++) {
      if_(IsFreeArray[j], [&] {
        RWFreeIDList[WriteOffset] = ParticleID + j;
        WriteOffset++;
      });
    }
  }
};

}  // namespace waveemu::examples
