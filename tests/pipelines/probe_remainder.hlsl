// probe_remainder.hlsl -- device-profile probe (DESIGN §3): fp32 % and fmod. DXC compiles % to
// DXIL FRem (the remainder with the dividend's sign) and expands fmod itself; glslang compiles
// both to OpFMod (the divisor's sign), which each driver computes in its own way. In: regions 0
// A and 1 B (probe_remainder.yaml); Out[slot * 64 + tid], raw bits. Port:
// tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint i) { return asfloat(In[region * 64 + i]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float a = F(0, tid), b = F(1, tid);
  Out[0 * 64 + tid] = asuint(a % b);
  Out[1 * 64 + tid] = asuint(fmod(a, b));
  Out[2 * 64 + tid] = asuint(a % F(1, (tid * 7 + 3) % 64));
  Out[3 * 64 + tid] = asuint(fmod(F(0, (tid * 13 + 5) % 64), b));
}
