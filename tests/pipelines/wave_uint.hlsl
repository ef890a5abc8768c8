// wave_uint.hlsl -- wave query, vote, ballot, bit and count intrinsics on uint and bool, plus the
// arithmetic ones, under full and divergent masks. Out[slot * 64 + tid]; slots 0-15 all
// threads, 16-31 threads with tid % 3 != 0, 32-47 even threads (see wave_arith_body.hlsli for
// why conditions hold no wave op). Port: tests/pipelines/ports/wave_uint.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

void Bits(uint tid, uint pattern, uint x)
{
    uint base = pattern * 16 * 64 + tid;
    bool odd = (x & 1) != 0;
    Out[base + 0 * 64] = WaveActiveBitAnd(x);
    Out[base + 1 * 64] = WaveActiveBitOr(x);
    Out[base + 2 * 64] = WaveActiveBitXor(x);
    Out[base + 3 * 64] = WaveActiveCountBits(odd);
    Out[base + 4 * 64] = WavePrefixCountBits(odd);
    Out[base + 5 * 64] = WaveActiveBallot(odd).x;
    Out[base + 6 * 64] = WaveActiveBallot(odd).y;
    Out[base + 7 * 64] = WaveActiveAnyTrue(x > 90) ? 1 : 0;
    Out[base + 8 * 64] = WaveActiveAllTrue(x > 2) ? 1 : 0;
    Out[base + 9 * 64] = WaveIsFirstLane() ? 1 : 0;
    Out[base + 10 * 64] = WaveActiveSum(x);
    Out[base + 11 * 64] = WaveActiveProduct(x);
    Out[base + 12 * 64] = WaveActiveMin(x);
    Out[base + 13 * 64] = WaveActiveMax(x);
    Out[base + 14 * 64] = WavePrefixSum(x);
    Out[base + 15 * 64] = WavePrefixProduct(x);
}

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex)
{
    uint x = In[tid];
    Bits(tid, 0, x);
    if (tid % 3 != 0)
        Bits(tid, 1, x);
    if ((tid & 1) == 0)
        Bits(tid, 2, x);
    // Queries and broadcasts, all threads.
    Out[48 * 64 + tid] = WaveGetLaneCount();
    Out[49 * 64 + tid] = WaveGetLaneIndex();
    Out[50 * 64 + tid] = WaveReadLaneFirst(x);
    Out[51 * 64 + tid] = WaveReadLaneAt(x, 3);
    Out[52 * 64 + tid] = WaveActiveAllEqual(x) ? 1 : 0;
    Out[53 * 64 + tid] = WaveActiveAllEqual(tid / 8) ? 1 : 0;
    Out[54 * 64 + tid] = QuadReadAcrossX(x);
    Out[55 * 64 + tid] = QuadReadAcrossY(x);
    Out[56 * 64 + tid] = QuadReadAcrossDiagonal(x);
    Out[57 * 64 + tid] = QuadReadLaneAt(x, 1);
}
