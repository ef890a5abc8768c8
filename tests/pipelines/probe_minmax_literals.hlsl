// probe_minmax_literals.hlsl -- device-profile probe (DESIGN §3): per-thread clamp and min/max
// chains whose bounds are literals, where a compiler may rewrite the expression instead of
// running min and max (run 7 on the H100: clamp(a, -0.0f, 0.0f) gave -0 for every a, and
// max(min(NaN, 1.0f), 0.0f) gave +0). In region 0 holds a = S[tid / 8] (probe_minmax.yaml's S);
// Out[slot * 64 + tid], raw bits. probe_minmax.hlsl has the same expressions with bounds read
// from a buffer.
// Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float a = asfloat(In[tid]);
  Out[0 * 64 + tid] = asuint(clamp(a, -0.0f, 0.0f));
  Out[1 * 64 + tid] = asuint(min(max(a, -0.0f), 0.0f));  // the same clamp written out
  Out[2 * 64 + tid] = asuint(max(min(a, 1.0f), 0.0f));
}
