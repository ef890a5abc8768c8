// probe_geometry.hlsl -- device-profile probe (DESIGN §3): the order and rounding of the vector
// functions a device compiles itself: dot of 2, 3 and 4 components, length, distance and
// normalize of 2 and 4 (probe_division has float3), cross, lerp, smoothstep, reflect and refract.
// In: regions 0-3 the components of A, 4-7 those of B, 8 T, 9 E0, 10 E1, 11 X, 12 ETA
// (probe_geometry.yaml); Out[slot * 64 + tid], raw bits. Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint i) { return asfloat(In[region * 64 + i]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float4 a = float4(F(0, tid), F(1, tid), F(2, tid), F(3, tid));
  float4 b = float4(F(4, tid), F(5, tid), F(6, tid), F(7, tid));
  float t = F(8, tid), e0 = F(9, tid), e1 = F(10, tid), x = F(11, tid), eta = F(12, tid);
  Out[0 * 64 + tid] = asuint(dot(a.xy, b.xy));
  Out[1 * 64 + tid] = asuint(dot(a.xyz, b.xyz));
  Out[2 * 64 + tid] = asuint(dot(a, b));
  Out[3 * 64 + tid] = asuint(length(a.xy));
  Out[4 * 64 + tid] = asuint(length(a));
  float2 n2 = normalize(a.xy);
  Out[5 * 64 + tid] = asuint(n2.x);
  Out[6 * 64 + tid] = asuint(n2.y);
  float4 n4 = normalize(a);
  Out[7 * 64 + tid] = asuint(n4.x);
  Out[8 * 64 + tid] = asuint(n4.y);
  Out[9 * 64 + tid] = asuint(n4.z);
  Out[10 * 64 + tid] = asuint(n4.w);
  Out[11 * 64 + tid] = asuint(distance(a.xy, b.xy));
  Out[12 * 64 + tid] = asuint(distance(a, b));
  float3 c = cross(a.xyz, b.xyz);
  Out[13 * 64 + tid] = asuint(c.x);
  Out[14 * 64 + tid] = asuint(c.y);
  Out[15 * 64 + tid] = asuint(c.z);
  Out[16 * 64 + tid] = asuint(lerp(a.x, b.x, t));
  Out[17 * 64 + tid] = asuint(smoothstep(e0, e1, x));
  float3 r = reflect(a.xyz, b.xyz);
  Out[18 * 64 + tid] = asuint(r.x);
  Out[19 * 64 + tid] = asuint(r.y);
  Out[20 * 64 + tid] = asuint(r.z);
  float3 f = refract(normalize(a.xyz), normalize(b.xyz), eta);
  Out[21 * 64 + tid] = asuint(f.x);
  Out[22 * 64 + tid] = asuint(f.y);
  Out[23 * 64 + tid] = asuint(f.z);
  Out[24 * 64 + tid] = asuint(dot(a.xyz, a.xyz));
  Out[25 * 64 + tid] = asuint(length(a.xyz));
}
