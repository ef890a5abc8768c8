// free_ids_raking_2d.hlsl -- the benchmark's entry for examples/niagara_free_ids/free_ids_raking.hlsl:
// 2^24 IDs need more than D3D's 65535 groups per dimension, so the dispatch is a 2-D grid of
// GRID_X x rows, and this entry turns it back into the 1-D group index the seed's code expects.
// The seed's entry is renamed and called unchanged.
#ifndef GRID_X
#define GRID_X 1024
#endif

#define ComputeFreeIDs ComputeFreeIDsSeed
#include "../../../examples/niagara_free_ids/free_ids_raking.hlsl"
#undef ComputeFreeIDs

[numthreads(THREAD_COUNT, 1, 1)]
void ComputeFreeIDs2D(uint3 GroupId : SV_GroupID, uint3 GroupThreadId : SV_GroupThreadID,
                      uint3 DispatchThreadId : SV_DispatchThreadID)
{
	ComputeFreeIDsSeed(uint3(GroupId.y * GRID_X + GroupId.x, 0, 0), GroupThreadId, DispatchThreadId);
}
