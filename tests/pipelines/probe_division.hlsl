// probe_division.hlsl -- device-profile probe (DESIGN §3): fp32 division, rcp, sqrt and rsqrt,
// which the H100 computes from tables (docs/gpu_runs/2026-11-23-h100-run11/), and the functions
// built on them. (Division by a literal is folded by compilers: docs/gpu_runs/2026-11-23-h100-run12/
// division_literals.hlsl.) In: regions 0-3 A, B, X, Y and 4-6 the components of V
// (probe_division.yaml); Out[slot * 64 + tid], raw bits. Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint i) { return asfloat(In[region * 64 + i]); }
float3 V(uint i) { return float3(F(4, i), F(5, i), F(6, i)); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float a = F(0, tid), b = F(1, tid), x = F(2, tid), y = F(3, tid);
  float3 v = V(tid);
  Out[0 * 64 + tid] = asuint(a / b);
  Out[1 * 64 + tid] = asuint(a / F(1, (tid * 7 + 3) % 64));
  Out[2 * 64 + tid] = asuint(F(0, (tid * 13 + 5) % 64) / b);
  Out[3 * 64 + tid] = asuint(rcp(x));
  Out[4 * 64 + tid] = asuint(sqrt(y));
  Out[5 * 64 + tid] = asuint(rsqrt(y));
  Out[6 * 64 + tid] = asuint(rcp(a));
  Out[7 * 64 + tid] = asuint(sqrt(abs(a)));
  Out[8 * 64 + tid] = asuint(rsqrt(abs(b)));
  float3 n = normalize(v);
  Out[9 * 64 + tid] = asuint(n.x);
  Out[10 * 64 + tid] = asuint(n.y);
  Out[11 * 64 + tid] = asuint(n.z);
  Out[12 * 64 + tid] = asuint(length(v));
  Out[13 * 64 + tid] = asuint(distance(v, V(tid ^ 5)));
  Out[14 * 64 + tid] = asuint(a * rcp(b));
}
