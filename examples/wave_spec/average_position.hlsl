// average_position.hlsl -- the HLSL wave-intrinsics spec's WaveActiveSum example (seeds 002/004:
// "sum positions in wave", "compute average of these positions"), completed into a compute
// shader: each wave writes the average of its threads' positions. The spec leaves `count`
// undefined; it is the number of active lanes, WaveActiveCountBits(true). README.md says what
// else was added.

StructuredBuffer<float3>   Positions   : register(t0);
RWStructuredBuffer<float3> WaveCenters : register(u0);  // one per wave

cbuffer Constants : register(b0)
{
    uint NumPoints;  // threads at or past this index have no position
};

[numthreads(64, 1, 1)]
void main(uint3 Gid : SV_GroupID, uint3 DTid : SV_DispatchThreadID, uint GI : SV_GroupIndex)
{
    if (DTid.x >= NumPoints)
        return;
    float3 position = Positions[DTid.x];
    // Waves of this dispatch, numbered group by group: the group's waves, then lane GI's wave.
    uint wavesPerGroup = (64 + WaveGetLaneCount() - 1) / WaveGetLaneCount();
    uint waveIndex = Gid.x * wavesPerGroup + GI / WaveGetLaneCount();
    uint count = WaveActiveCountBits( true ); // number of active lanes in the wave

    // ---- spec
    float3 total = WaveActiveSum( position ); // sum positions in wave
    float3 center = total/count; // compute average of these positions
    // ---- end spec

    if (WaveIsFirstLane())
        WaveCenters[waveIndex] = center;
}
