// division_literals.hlsl -- run 12, evidence only: a / literal, which a compiler may fold into a
// multiplication by the literal's reciprocal. In: probe_division.yaml's regions (A = region 0).
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float a = asfloat(In[tid]);
  Out[0 * 64 + tid] = asuint(a / 3.0f);
  Out[1 * 64 + tid] = asuint(a / 28.0f);
  Out[2 * 64 + tid] = asuint(a / 10.0f);
  Out[3 * 64 + tid] = asuint(a / 0.1f);
  Out[4 * 64 + tid] = asuint(a / 7.0f);
  Out[5 * 64 + tid] = asuint(a * (1.0f / 3.0f));
}
