// probe_special.hlsl -- device-profile probe (DESIGN §3): denormals in float wave reductions, the
// NaN a reduction produces, all-NaN min/max, a*b+c contraction (mad and plain), WaveReadLaneAt of
// an inactive lane, and a switch default reached by several values.
// In[region * 64 + tid] holds raw bits (regions in probe_special.yaml); Out[slot * 64 + tid].
// Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint tid) { return asfloat(In[region * 64 + tid]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  uint lane = WaveGetLaneIndex();
  float den = F(0, tid);
  Out[0 * 64 + tid] = asuint(WaveActiveSum(den));
  Out[1 * 64 + tid] = asuint(WavePrefixSum(den));
  Out[2 * 64 + tid] = asuint(WaveActiveMin(den));
  float nan1 = F(1, tid);
  Out[3 * 64 + tid] = asuint(WaveActiveSum(nan1));
  Out[4 * 64 + tid] = asuint(WaveActiveProduct(nan1));
  Out[5 * 64 + tid] = asuint(WaveActiveSum(F(2, tid)));
  float all_nan = F(3, tid);
  Out[6 * 64 + tid] = asuint(WaveActiveMin(all_nan));
  Out[7 * 64 + tid] = asuint(WaveActiveMax(all_nan));
  // glslang 12 emits GLSL.std.450 Fma for both (its legalization passes contract the plain one).
  float a = F(4, tid), b = F(5, tid), c = F(6, tid);
  Out[8 * 64 + tid] = asuint(mad(a, b, c));
  Out[9 * 64 + tid] = asuint(a * b + c);
  // Even lanes read their odd neighbour, which is inactive.
  uint v = In[7 * 64 + tid];
  if ((lane & 1) == 0) Out[10 * 64 + tid] = WaveReadLaneAt(v, lane + 1);
  // The default is reached by selector values 2, 3 and 4: one group or one per value?
  switch (tid % 5) {
    case 0:
      Out[11 * 64 + tid] = 0xc0000000u | WaveActiveBallot(true).x;
      break;
    case 1:
      Out[11 * 64 + tid] = 0xc1000000u | WaveActiveBallot(true).x;
      break;
    default:
      Out[11 * 64 + tid] = WaveActiveBallot(true).x;
      Out[12 * 64 + tid] = WaveActiveSum(tid);
      break;
  }
}
