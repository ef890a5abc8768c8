// probe_denormals.hlsl -- device-profile probe (DESIGN §3): whether per-thread float arithmetic
// and comparisons keep fp32 denormals (DXIL's fp32-denorm-mode defaults to `any`). In region 0
// holds a = D[tid / 8], region 1 b = D[tid % 8] (all 64 ordered pairs of the values D in
// probe_denormals.yaml: zeros, denormals, the smallest normals, 0.5), region 2 the constant 1.0f,
// read with asfloat so nothing folds; Out[slot * 64 + tid], raw bits.
// Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint tid) { return asfloat(In[region * 64 + tid]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float a = F(0, tid), b = F(1, tid);
  float one = F(2, 0);
  Out[0 * 64 + tid] = asuint(a + b);
  Out[1 * 64 + tid] = asuint(a - b);
  Out[2 * 64 + tid] = asuint(a * b);
  Out[3 * 64 + tid] = asuint(a * one);
  Out[4 * 64 + tid] = a == b ? 1u : 0u;
  Out[5 * 64 + tid] = a < b ? 1u : 0u;
  Out[6 * 64 + tid] = asuint(-a);
  Out[7 * 64 + tid] = asuint(abs(a));
}
