// probe_order.hlsl -- device-profile probe (DESIGN §3): the order in which float WaveActiveSum,
// WaveActiveProduct and the exclusive scans combine lanes, over full waves and under sparse masks.
// Inputs have mixed magnitudes, so a sequential fold and an xor butterfly round differently.
// Output Out[slot * 64 + tid] holds raw float bits; port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   X   : register(t0);  // mixed magnitudes, for sums
StructuredBuffer<uint>   Y   : register(t1);  // near 1, for products
RWStructuredBuffer<uint> Out : register(u2);

void Masked(uint slot, uint tid, float x) {
  Out[slot * 64 + tid] = asuint(WaveActiveSum(x));
  Out[(slot + 6) * 64 + tid] = asuint(WavePrefixSum(x));
}

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float x = asfloat(X[tid]);
  float y = asfloat(Y[tid]);
  uint lane = WaveGetLaneIndex();
  Out[0 * 64 + tid] = asuint(WaveActiveSum(x));
  Out[1 * 64 + tid] = asuint(WaveActiveProduct(y));
  Out[2 * 64 + tid] = asuint(WavePrefixSum(x));
  Out[3 * 64 + tid] = asuint(WavePrefixProduct(y));
  // Sparse masks (slots 4-9 reductions, 10-15 prefix sums): odd lanes, even lanes, lanes >= 5,
  // lanes % 3 == 1, lanes < 13, a fixed random mask.
  if ((lane & 1) == 1) Masked(4, tid, x);
  if ((lane & 1) == 0) Masked(5, tid, x);
  if (lane >= 5) Masked(6, tid, x);
  if (lane % 3 == 1) Masked(7, tid, x);
  if (lane < 13) Masked(8, tid, x);
  if (((0x9E3779B9u >> (lane & 31)) & 1) == 1) Masked(9, tid, x);
}
