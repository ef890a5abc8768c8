// probe_transcendentals.hlsl -- device-profile probe (DESIGN §3): the fp32 transcendentals, which
// DXC emits as DXIL primitives and glslang as GLSL.std.450 instructions that each driver computes
// in its own way (MathLibrary). In: regions 0 A (mixed: edges and wide ranges), 1 B (small:
// |x| <= 1.1 and |x| <= 12), 2 Y (exponents and edges) (probe_transcendentals.yaml);
// Out[slot * 64 + tid], raw bits. Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint i) { return asfloat(In[region * 64 + i]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float a = F(0, tid), b = F(1, tid), y = F(2, tid);
  Out[0 * 64 + tid] = asuint(exp2(a));
  Out[1 * 64 + tid] = asuint(log2(a));
  Out[2 * 64 + tid] = asuint(sin(a));
  Out[3 * 64 + tid] = asuint(cos(a));
  Out[4 * 64 + tid] = asuint(exp(a));
  Out[5 * 64 + tid] = asuint(log(a));
  Out[6 * 64 + tid] = asuint(log10(a));
  Out[7 * 64 + tid] = asuint(pow(a, y));
  Out[8 * 64 + tid] = asuint(tan(a));
  Out[9 * 64 + tid] = asuint(asin(b));
  Out[10 * 64 + tid] = asuint(acos(b));
  Out[11 * 64 + tid] = asuint(atan(a));
  Out[12 * 64 + tid] = asuint(atan2(y, a));
  Out[13 * 64 + tid] = asuint(sinh(b));
  Out[14 * 64 + tid] = asuint(cosh(b));
  Out[15 * 64 + tid] = asuint(tanh(b));
  Out[16 * 64 + tid] = asuint(atan(b));
  Out[17 * 64 + tid] = asuint(pow(abs(b), y));
  Out[18 * 64 + tid] = asuint(pow(b, 4.0));
  Out[19 * 64 + tid] = asuint(pow(2.0, y));
  float s, c;
  sincos(b, s, c);
  Out[20 * 64 + tid] = asuint(s);
  Out[21 * 64 + tid] = asuint(c);
}
