// free_ids_wave.hlsl -- Unreal Engine Niagara ComputeFreeIDs, wave-intrinsic version, as quoted in
// seed 000 (a Zhihu note on NiagaraComputeFreeIDs.usf). Everything below the marker line is the
// seed's code block, byte for byte (Chinese comments are the note author's; README translates
// them). Only these lines above the marker were added, so glslang and DXC accept the file.

// THREAD_COUNT comes from the C++ side in Unreal ("the C++ is responsible for ensuring THREAD_COUNT
// is the size of a wave"); 64 is a default for stand-alone compiles. Override with -D.
#ifndef THREAD_COUNT
#define THREAD_COUNT 64
#endif

// The seed calls WaveReadFirstLane, a name from the 2017 draft spec that DXC never accepted
// ("undeclared identifier"); the HLSL intrinsic is WaveReadLaneFirst. Unreal's own TODO below says
// the same and maps the name with a define, as this one does.
#define WaveReadFirstLane WaveReadLaneFirst

// ---- seed 000, verbatim ----
//输出空闲的粒子ID


Buffer<int> IDToIndexTable;

// Output list of free IDs.
RWBuffer<int> RWFreeIDList;

// Buffer containing the current size of each list that's currently being processed.
// Multiple invocations of this shader might be running concurrently, for independent emitters.
RWBuffer<int> RWFreeIDListSizes;
// Index of the free list that's being computed by this invocation. The current size of the
// list is at RWFreeIDListSizes[FreeIDListIndex].
//这次计算的List对应的ID
uint FreeIDListIndex;

// Note: The C++ is responsible for ensuring THREAD_COUNT is the size of a wave

[numthreads(THREAD_COUNT, 1, 1)]
void ComputeFreeIDs(uint3 GroupId : SV_GroupID, uint3 GroupThreadId : SV_GroupThreadID, uint3 DispatchThreadId : SV_DispatchThreadID)
{
	uint InputStart = GroupId.x * THREAD_COUNT;
	uint Thread = GroupThreadId.x;

	uint ParticleID = InputStart + Thread;
	uint IsFree = (IDToIndexTable[ParticleID] == -1) ? 1 : 0;
	
	// Count how many predicates are true across all lanes.
	// 整个warp有多少个空闲的粒子
	uint NumGroupFreeIDs = WaveActiveCountBits(IsFree);

	// Compute a prefix sum on the predicate bit mask. This gives us the
	// local write offset for each lane.
	// 在这个前程之前的线程中有多少个空闲的粒子
	uint WriteOffset = WavePrefixCountBits(IsFree);

	// Skip the whole wave if all the IDs are in use.
	//如果整个warp的粒子都不空闲就跳过
	if(NumGroupFreeIDs > 0)
	{
		uint GroupWriteStart;	//warp的起始位置
		if(WaveIsFirstLane())
		{
			// Add to the global write offset. The previous offset is where we start writing in the output buffer.
			// We can reduce the number of atomic adds by processing multiple sub-groups in the shader, such that each lane
			// computes the offsets and counts of a sub-group. However, this doesn't seem to be the bottleneck right now,
			// so it's not worth the effort.

			// 原子操作 加法，并返回原来的值
			// void InterlockedAdd(in  R dest,in  T value,out T original_value);
			InterlockedAdd(RWFreeIDListSizes[FreeIDListIndex], NumGroupFreeIDs, GroupWriteStart);
		}

		// Broadcast the global write offset to all lanes.
		// TODO: WaveReadFirstLane is actually called WaveReadLaneFirst in HLSL, despite what the docs say, so we need to change our defines for
		// other platforms to use the HLSL name or we'll run into trouble when we'll compile for SM6.
		//第一个线程的GroupWriteStart变量通过InterlockedAdd得到了warp的起始位置
		GroupWriteStart = WaveReadFirstLane(GroupWriteStart);

		if(IsFree)
		{
			//GroupWriteStart + WriteOffset就是全局的输出位置
			RWFreeIDList[GroupWriteStart + WriteOffset] = ParticleID;
		}
	}
}
