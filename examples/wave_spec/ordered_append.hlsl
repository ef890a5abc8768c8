// ordered_append.hlsl -- the HLSL wave-intrinsics spec's "Example: Ordered Append" (seeds
// 002/004: "a compacted write to an ordered stream where the number of elements written varies
// per lane"), completed into a compute shader. The body between the "spec" markers is the spec's
// text with four fixes; README.md lists them (the spec reserves one slot per lane with items,
// not one per item).

StructuredBuffer<uint>   ItemCounts : register(t0);  // NumberOfItemsToAppend per thread
StructuredBuffer<uint>   Input      : register(t1);  // myData per thread
RWStructuredBuffer<uint> bufferSize : register(u0);  // [0]: items appended so far
RWStructuredBuffer<uint2> buffer    : register(u1);  // the ordered stream: per item, the
                                                     // appending thread's myData and which of
                                                     // its items it is (0, 1, ...)

cbuffer Constants : register(b0)
{
    uint NumInputs;  // threads at or past this index have no input
};

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    if (DTid.x >= NumInputs)
        return;
    uint NumberOfItemsToAppend = ItemCounts[DTid.x];
    uint myData = Input[DTid.x];

    // ---- spec
    bool doesThisLaneHaveAnAppendItem = (NumberOfItemsToAppend) ? 1 : 0;

    // compute number of items to append for the whole wave
    uint appendCount = WaveActiveSum( NumberOfItemsToAppend );

    // compute number of locations filled before this one
    uint laneAppendOffset = WavePrefixSum( NumberOfItemsToAppend );

    // update the output location for this whole wave
    uint appendOffset;
    if ( WaveIsFirstLane() ) // execute only once per wave
    {
        // this way, we only issue one atomic for the entire wave, which reduces contention
        // and keeps the output data for each lane in this wave together in the output buffer

        InterlockedAdd(bufferSize[0], appendCount, appendOffset);
    }
    appendOffset = WaveReadLaneFirst(appendOffset); // broadcast value
    appendOffset += laneAppendOffset; // and add in the offset for this lane
    if (doesThisLaneHaveAnAppendItem)
    {
        for (uint i = 0; i < NumberOfItemsToAppend; ++i)
            buffer[appendOffset + i] = uint2(myData, i); // write to the offset location for this lane
    }
    // ---- end spec
}
