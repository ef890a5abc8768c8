// Per thread: WaveGetLaneCount, WaveGetLaneIndex, and the SV_GroupIndex of its wave's first
// active lane (which threads share a wave). NUMTHREADS_X/Y are -D defines of the test.
#ifndef NUMTHREADS_X
#define NUMTHREADS_X 8
#define NUMTHREADS_Y 1
#endif
RWStructuredBuffer<uint> Count : register(u0);
RWStructuredBuffer<uint> Lane : register(u1);
RWStructuredBuffer<uint> First : register(u2);

[numthreads(NUMTHREADS_X, NUMTHREADS_Y, 1)]
void main(uint gi : SV_GroupIndex) {
  Count[gi] = WaveGetLaneCount();
  Lane[gi] = WaveGetLaneIndex();
  First[gi] = WaveReadLaneFirst(gi);
}
