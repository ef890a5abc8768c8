// float_edges.hlsl -- run 13, evidence only: fp32 operands the earlier runs left out: sqrt of
// negative denormals, rcp of +-2^126 (its rule gives exactly +-2^-126, a normal), rsqrt of the
// same. X = float_edges.yaml's In; Out[slot * 16 + i] for i < 16, raw bits.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

[numthreads(16, 1, 1)]
void main(uint i : SV_GroupIndex) {
  float x = asfloat(In[i]);
  Out[0 * 16 + i] = asuint(sqrt(x));
  Out[1 * 16 + i] = asuint(rcp(x));
  Out[2 * 16 + i] = asuint(rsqrt(x));
  Out[3 * 16 + i] = asuint(asfloat(In[16]) / x);
}
