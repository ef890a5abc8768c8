// compacted_append.hlsl -- the HLSL wave-intrinsics spec's WavePrefixCountBits example (seeds
// 002/004: "Use WavePrefixCountBits() to implement a compacted write to an ordered stream where
// the number of elements written per lane is either 1 or 0"), completed into a compute shader.
// The body between the "spec" markers is the spec's text with three fixes; README.md lists them.

StructuredBuffer<uint>   Input      : register(t0);  // one myData per thread; 0 means "no item"
RWStructuredBuffer<uint> bufferSize : register(u0);  // [0]: elements appended so far
RWStructuredBuffer<uint> buffer     : register(u1);  // the compacted stream

cbuffer Constants : register(b0)
{
    uint NumInputs;  // threads at or past this index have no input
};

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    if (DTid.x >= NumInputs)
        return;
    uint myData = Input[DTid.x];

    // ---- spec
    bool bDoesThisLaneHaveAnAppendItem = myData != 0;
    // compute number of items to append for the whole wave
    uint laneAppendOffset = WavePrefixCountBits( bDoesThisLaneHaveAnAppendItem );
    uint appendCount = WaveActiveCountBits( bDoesThisLaneHaveAnAppendItem);
    // update the output location for this whole wave
    uint appendOffset;
    if ( WaveIsFirstLane () )
    {
        // this way, we only issue one atomic for the entire wave, which reduces contention
        // and keeps the output data for each lane in this wave together in the output buffer
        InterlockedAdd(bufferSize[0], appendCount, appendOffset);
    }
    appendOffset = WaveReadLaneFirst( appendOffset ); // broadcast value
    appendOffset += laneAppendOffset; // and add in the offset for this lane
    if (bDoesThisLaneHaveAnAppendItem)
        buffer[appendOffset] = myData; // write to the offset location for this lane
    // ---- end spec
}
