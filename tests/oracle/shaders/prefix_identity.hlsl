// The run-time proof of the prefix rewrite: HLSL prefix ops are exclusive, so the first lane
// must read the identity (0 for a sum, 1 for a product) and lane 3 the fold of lanes 0..2.
RWStructuredBuffer<uint> Sums : register(u0);
RWStructuredBuffer<float> Products : register(u1);
RWStructuredBuffer<uint> Lanes : register(u2);

[numthreads(8, 1, 1)]
void main(uint gi : SV_GroupIndex) {
  const uint lane = WaveGetLaneIndex();
  Lanes[gi] = lane;
  Sums[gi] = WavePrefixSum(lane + 1);
  Products[gi] = WavePrefixProduct(float(lane + 2));
}
