// free_ids_groupshared.hlsl -- Unreal Engine Niagara ComputeFreeIDs, groupshared-memory version:
// an exclusive Hillis-Steele scan over a double-buffered groupshared array and one InterlockedAdd
// per group. Seed 001 quotes only the body's four fragments; they are copied verbatim (indented
// one level) and joined with the declarations and prologue of seed 000's wave version. Lines
// marked "Assembled:" are not in either seed; README.md says why each is needed.

// THREAD_COUNT comes from the C++ side in Unreal; 64 is a default for stand-alone compiles.
#ifndef THREAD_COUNT
#define THREAD_COUNT 64
#endif

// ---- declarations: seed 000, verbatim ----
Buffer<int> IDToIndexTable;

// Output list of free IDs.
RWBuffer<int> RWFreeIDList;

// Buffer containing the current size of each list that's currently being processed.
// Multiple invocations of this shader might be running concurrently, for independent emitters.
RWBuffer<int> RWFreeIDListSizes;
// Index of the free list that's being computed by this invocation. The current size of the
// list is at RWFreeIDListSizes[FreeIDListIndex].
uint FreeIDListIndex;

// Assembled: the fragments index GroupWriteOffsets[OutBuffer*THREAD_COUNT + Thread] with OutBuffer
// in {0, 1} (two buffers of THREAD_COUNT), and every thread reads GroupWriteStart after thread 0's
// InterlockedAdd and a barrier, so both are groupshared.
groupshared uint GroupWriteOffsets[2*THREAD_COUNT];
groupshared uint GroupWriteStart;

// ---- entry point: seed 000's signature and prologue, verbatim ----
[numthreads(THREAD_COUNT, 1, 1)]
void ComputeFreeIDs(uint3 GroupId : SV_GroupID, uint3 GroupThreadId : SV_GroupThreadID, uint3 DispatchThreadId : SV_DispatchThreadID)
{
	uint InputStart = GroupId.x * THREAD_COUNT;
	uint Thread = GroupThreadId.x;

	uint ParticleID = InputStart + Thread;

    // ---- seed 001, fragment 1 (verbatim) ----
    // Evaluate predicate for each input slot, then shift down by one position because we need an exclusive sum.
    if(Thread > 0)
    {
        uint IsFree = (IDToIndexTable[ParticleID - 1] == -1) ? 1 : 0;
        GroupWriteOffsets[Thread] = IsFree;
    }
    else
    {
        GroupWriteOffsets[0] = 0;
    }
    GroupMemoryBarrierWithGroupSync();

    // ---- seed 001, fragment 2 (verbatim) ----
    int OutBuffer = 0, InBuffer = 1;

    [unroll]
    for(uint Offset = 1; Offset < THREAD_COUNT; Offset = Offset << 1)
    {
        // Swap the input and output buffers.
        OutBuffer = 1 - OutBuffer;
        InBuffer = 1 - InBuffer;
        if(Thread >= Offset)
        {
            GroupWriteOffsets[OutBuffer*THREAD_COUNT + Thread] = GroupWriteOffsets[InBuffer*THREAD_COUNT + Thread - Offset] + GroupWriteOffsets[InBuffer*THREAD_COUNT + Thread];
        }
        else
        {
            GroupWriteOffsets[OutBuffer*THREAD_COUNT + Thread] = GroupWriteOffsets[InBuffer*THREAD_COUNT + Thread];
        }
        GroupMemoryBarrierWithGroupSync();
    }

    // ---- seed 001, fragment 3 (verbatim) ----
    if(Thread == 0)
    {
        // Add the value of the last predicate to get the total number of IDs that this group will write.
        uint LastIsFree = (IDToIndexTable[InputStart + THREAD_COUNT - 1] == -1) ? 1 : 0;
        uint NumGroupFreeIDs = GroupWriteOffsets[(OutBuffer + 1)*THREAD_COUNT - 1] + LastIsFree;
        // Add to the global write offset. The previous offset is where we start writing in the output buffer.
        InterlockedAdd(RWFreeIDListSizes[FreeIDListIndex], NumGroupFreeIDs, GroupWriteStart);
    }
    GroupMemoryBarrierWithGroupSync();

    // ---- seed 001, fragment 4 (verbatim) ----
    if(IDToIndexTable[ParticleID] == -1)
    {
        // This is a free ID, output it.
        // GroupWriteStarts 是全局的，当前线程组的起始输出位置
        uint WriteOffset = GroupWriteStart + GroupWriteOffsets[OutBuffer*THREAD_COUNT + Thread];

        RWFreeIDList[WriteOffset] = ParticleID;
    }
}
