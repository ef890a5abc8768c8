// probe_denormals_ops.hlsl -- device-profile probe (DESIGN §3), probe_denormals continued: whether
// the operations it left out flush fp32 denormals too (division, frac, mad, the other
// comparisons, floor, ceil, round, trunc, sqrt), and the NaN that per-thread arithmetic gives.
// The same inputs: In region 0 holds a = D[tid / 8], region 1 b = D[tid % 8] (zeros, denormals,
// the smallest normals, 0.5), region 2 c = C[tid % 8] (NaNs with payloads, infinities, ±1, 0, 2:
// probe_denormals_ops.yaml); Out[slot * 64 + tid], raw bits. Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint tid) { return asfloat(In[region * 64 + tid]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float a = F(0, tid), b = F(1, tid), c = F(2, tid);
  Out[0 * 64 + tid] = asuint(a / b);
  Out[1 * 64 + tid] = asuint(frac(a));
  Out[2 * 64 + tid] = asuint(mad(a, b, a));
  Out[3 * 64 + tid] = a != b ? 1u : 0u;
  Out[4 * 64 + tid] = a <= b ? 1u : 0u;
  Out[5 * 64 + tid] = a > b ? 1u : 0u;
  Out[6 * 64 + tid] = a >= b ? 1u : 0u;
  Out[7 * 64 + tid] = asuint(floor(a));
  Out[8 * 64 + tid] = asuint(sqrt(abs(a)));
  Out[9 * 64 + tid] = asuint(ceil(a));
  Out[10 * 64 + tid] = asuint(round(a));
  Out[11 * 64 + tid] = asuint(trunc(a));
  Out[12 * 64 + tid] = asuint(c + b);
  Out[13 * 64 + tid] = asuint(c * a);
  Out[14 * 64 + tid] = asuint(sqrt(c));
  Out[15 * 64 + tid] = asuint(-c);
  Out[16 * 64 + tid] = asuint(c + F(2, tid ^ 1));
}
