// bounding_box.hlsl -- the HLSL wave-intrinsics spec's WaveActiveMin / WaveActiveMax examples
// (seeds 002/004), completed into a compute shader: each wave folds its points' minimum and
// maximum into its own bounding box. The lines between the "spec" markers are the spec's two
// examples, one after the other; README.md says what was added around them.

struct Point
{
    float3 position;
};

struct Box
{
    float3 min;
    float3 max;
};

StructuredBuffer<Point> Points    : register(t0);
RWStructuredBuffer<Box> WaveBoxes : register(u0);  // one per wave; the host fills them with
                                                   // min = +inf, max = -inf (or earlier boxes)

cbuffer Constants : register(b0)
{
    uint NumPoints;  // threads at or past this index have no point
};

[numthreads(64, 1, 1)]
void main(uint3 Gid : SV_GroupID, uint3 DTid : SV_DispatchThreadID, uint GI : SV_GroupIndex)
{
    if (DTid.x >= NumPoints)
        return;
    Point myPoint = Points[DTid.x];
    // Waves of this dispatch, numbered group by group: the group's waves, then lane GI's wave.
    uint wavesPerGroup = (64 + WaveGetLaneCount() - 1) / WaveGetLaneCount();
    uint waveIndex = Gid.x * wavesPerGroup + GI / WaveGetLaneCount();
    Box BoundingBox = WaveBoxes[waveIndex];

    // ---- spec
    float3 minPos = WaveActiveMin( myPoint.position );
    BoundingBox.min = min( minPos, BoundingBox.min );
    float3 maxPos = WaveActiveMax( myPoint.position );
    BoundingBox.max = max( maxPos, BoundingBox.max );
    // ---- end spec

    if (WaveIsFirstLane())
        WaveBoxes[waveIndex] = BoundingBox;
}
