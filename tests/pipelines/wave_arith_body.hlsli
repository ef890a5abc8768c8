// wave_arith_body.hlsli -- the body shared by wave_int/float/double.hlsl: every arithmetic wave
// intrinsic on T, under three masks. The includer defines T and declares In and Out.
// Out holds 16 slots per mask pattern, each slot one element per thread: Out[slot * 64 + tid].
// Patterns: 0 = all threads, 1 = tid % 3 != 0, 2 = even tid (divergent masks). Slots a pattern
// does not write keep the pipeline's fill value. Conditions hold no wave op: glslang evaluates
// both sides of && and ?:, DXC would not (DESIGN §4).

void Arith(uint tid, uint pattern, T x)
{
    uint base = pattern * 16 * 64 + tid;
    Out[base + 0 * 64] = WaveActiveSum(x);
    Out[base + 1 * 64] = WaveActiveProduct(x);
    Out[base + 2 * 64] = WaveActiveMin(x);
    Out[base + 3 * 64] = WaveActiveMax(x);
    Out[base + 4 * 64] = WavePrefixSum(x);
    Out[base + 5 * 64] = WavePrefixProduct(x);
    Out[base + 6 * 64] = WaveReadLaneFirst(x);
    Out[base + 7 * 64] = WaveActiveAllEqual(x) ? (T)1 : (T)0;
    Out[base + 8 * 64] = WaveActiveAllEqual(WaveReadLaneFirst(x)) ? (T)1 : (T)0;
    // A lane every active thread can read: the first active one, chosen at run time.
    Out[base + 9 * 64] = WaveReadLaneAt(x, WaveReadLaneFirst(WaveGetLaneIndex()));
}

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex)
{
    T x = In[tid];
    Arith(tid, 0, x);
    // Quad reads with every lane active; 1-D groups, so quads are 4 consecutive threads.
    Out[10 * 64 + tid] = QuadReadAcrossX(x);
    Out[11 * 64 + tid] = QuadReadAcrossY(x);
    Out[12 * 64 + tid] = QuadReadAcrossDiagonal(x);
    Out[13 * 64 + tid] = QuadReadLaneAt(x, 2);
    if (tid % 3 != 0)
        Arith(tid, 1, x);
    if ((tid & 1) == 0)
        Arith(tid, 2, x);
}
