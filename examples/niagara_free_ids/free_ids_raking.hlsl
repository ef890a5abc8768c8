// free_ids_raking.hlsl -- the raking variant of Niagara ComputeFreeIDs' groupshared version from
// seed 001: each thread counts COUNTER_PER_THREAD = 8 consecutive IDs, the group scans the
// per-thread counts, and each thread then writes its own free IDs in order. Seed 001 quotes only
// the counting loop; lines marked "Assembled:" are not in the seeds (README.md says why).

// THREAD_COUNT comes from the C++ side in Unreal; 64 is a default for stand-alone compiles.
#ifndef THREAD_COUNT
#define THREAD_COUNT 64
#endif
// Seed 001 measures COUNTER_PER_THREAD = 8 ("COUNTER_PER_THREAD选为 8").
#ifndef COUNTER_PER_THREAD
#define COUNTER_PER_THREAD 8
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

// ---- seed 001's groupshared version ----
groupshared uint GroupWriteOffsets[2*THREAD_COUNT];
groupshared uint GroupWriteStart;

[numthreads(THREAD_COUNT, 1, 1)]
void ComputeFreeIDs(uint3 GroupId : SV_GroupID, uint3 GroupThreadId : SV_GroupThreadID, uint3 DispatchThreadId : SV_DispatchThreadID)
{
	// Assembled: a group covers THREAD_COUNT * COUNTER_PER_THREAD IDs, and thread Thread owns
	// IDs ParticleID .. ParticleID + COUNTER_PER_THREAD - 1, so per-thread order is ID order.
	uint InputStart = GroupId.x * THREAD_COUNT * COUNTER_PER_THREAD;
	uint Thread = GroupThreadId.x;

	uint ParticleID = InputStart + Thread * COUNTER_PER_THREAD;

    // ---- seed 001, raking fragment (verbatim) ----
    uint IsFreeArray[COUNTER_PER_THREAD];
    uint NumFreeInThread = 0;

    [unroll]
    for (uint i = 0; i < COUNTER_PER_THREAD; i++) 
    {
        uint IsFree = IDToIndexTable[ParticleID + i] == -1 ? 1 : 0;
        IsFreeArray[i] = IsFree;
        NumFreeInThread += IsFree;
    }

    GroupWriteOffsets[Thread] = NumFreeInThread;
    // Assembled: as in the groupshared version, the scan reads other threads' counts.
    GroupMemoryBarrierWithGroupSync();

    // ---- seed 001, fragment 2 (verbatim): "然后和上面的方式类似" (then as above) ----
    // The counts were not shifted down by one, so this scan is inclusive.
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

    if(Thread == 0)
    {
        // Assembled: the inclusive scan's last element is already the group's total, so the
        // last-predicate fix-up of the groupshared version is not needed.
        uint NumGroupFreeIDs = GroupWriteOffsets[(OutBuffer + 1)*THREAD_COUNT - 1];
        // Add to the global write offset. The previous offset is where we start writing in the output buffer.
        InterlockedAdd(RWFreeIDListSizes[FreeIDListIndex], NumGroupFreeIDs, GroupWriteStart);
    }
    GroupMemoryBarrierWithGroupSync();

    // Assembled: inclusive sum minus the thread's own count is its exclusive offset; the thread
    // then writes its free IDs in ascending order.
    uint WriteOffset = GroupWriteStart + GroupWriteOffsets[OutBuffer*THREAD_COUNT + Thread] - NumFreeInThread;
    [unroll]
    for (uint j = 0; j < COUNTER_PER_THREAD; j++)
    {
        if (IsFreeArray[j])
        {
            RWFreeIDList[WriteOffset] = ParticleID + j;
            WriteOffset++;
        }
    }
}
