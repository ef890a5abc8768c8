// wave_ops.hlsl -- one SM 6.0 wave reduction, scan or broadcast per compile, for the benchmark:
// each thread loads In[i], applies OP (with all threads active, or, with EVERY_OTHER, only the
// threads of even SV_GroupIndex), and stores the result (0 for threads that skipped it).
// -D OP=<number below>, TYPE=uint|float, EVERY_OTHER=0|1, GRID_X=<groups per row of the grid>,
// GROUP_SIZE=<threads per group> (the benchmark passes kWaveOpGroupSize of wave_ops.h).
#ifndef OP
#define OP 0
#endif
#ifndef TYPE
#define TYPE uint
#endif
#ifndef EVERY_OTHER
#define EVERY_OTHER 0
#endif
#ifndef GRID_X
#define GRID_X 1024
#endif
#ifndef GROUP_SIZE
#define GROUP_SIZE 64
#endif

StructuredBuffer<TYPE> In : register(t0);
RWStructuredBuffer<TYPE> Out : register(u1);

TYPE Apply(TYPE x)
{
#if OP == 0
	return WaveActiveSum(x);
#elif OP == 1
	return WaveActiveProduct(x);
#elif OP == 2
	return WaveActiveMin(x);
#elif OP == 3
	return WaveActiveMax(x);
#elif OP == 4
	return WaveActiveBitAnd(x);
#elif OP == 5
	return WaveActiveBitOr(x);
#elif OP == 6
	return WaveActiveBitXor(x);
#elif OP == 7
	return WaveActiveAllEqual(x) ? 1 : 0;
#elif OP == 8
	return WaveActiveCountBits((x & 1) != 0);
#elif OP == 9
	return WaveActiveAnyTrue(x > 0xfff00000u) ? 1 : 0;
#elif OP == 10
	return WaveActiveAllTrue(x > 0x00100000u) ? 1 : 0;
#elif OP == 11
	uint4 b = WaveActiveBallot((x & 1) != 0);
	return b.x ^ b.y ^ b.z ^ b.w;
#elif OP == 12
	return WavePrefixSum(x);
#elif OP == 13
	return WavePrefixProduct(x);
#elif OP == 14
	return WavePrefixCountBits((x & 1) != 0);
#elif OP == 15
	return WaveReadLaneFirst(x);
#elif OP == 16
	return WaveReadLaneAt(x, 2);
#endif
}

[numthreads(GROUP_SIZE, 1, 1)]
void main(uint3 GroupId : SV_GroupID, uint GroupIndex : SV_GroupIndex)
{
	uint i = (GroupId.y * GRID_X + GroupId.x) * GROUP_SIZE + GroupIndex;
	TYPE x = In[i];
	TYPE r = 0;
#if EVERY_OTHER
	if ((GroupIndex & 1) == 0)
#endif
	{
		r = Apply(x);
	}
	Out[i] = r;
}
