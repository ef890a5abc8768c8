// probe_special_functions.hlsl -- device-profile probe (DESIGN §3): the fp32 functions the H100
// computes with its special-function unit (exp2, log2, sin, cos: MUFU.EX2, LG2, SIN, COS, run 18)
// and those its compiler builds on them (tanh: run 19). In: regions 0 E (exp2's edges and
// rules), 1 L (log2's), 2 S (sin's), 3 Y (exponents) (probe_special_functions.yaml);
// Out[slot * 64 + tid], raw bits.
// Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint i) { return asfloat(In[region * 64 + i]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float e = F(0, tid), l = F(1, tid), s = F(2, tid), y = F(3, tid);
  Out[0 * 64 + tid] = asuint(exp2(e));
  Out[1 * 64 + tid] = asuint(exp(e));
  Out[2 * 64 + tid] = asuint(log2(l));
  Out[3 * 64 + tid] = asuint(log(l));
  Out[4 * 64 + tid] = asuint(log10(l));
  Out[5 * 64 + tid] = asuint(pow(l, y));
  Out[6 * 64 + tid] = asuint(sin(s));
  Out[7 * 64 + tid] = asuint(cos(s));
  Out[8 * 64 + tid] = asuint(tan(s));
  Out[9 * 64 + tid] = asuint(sinh(y));
  Out[10 * 64 + tid] = asuint(cosh(y));
  Out[11 * 64 + tid] = asuint(tanh(y));
  Out[12 * 64 + tid] = asuint(tanh(s));
}
