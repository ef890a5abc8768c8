// transcendentals_wide.hlsl -- the fp32 transcendentals over 2^16 input pairs (x, y), which CI
// checks against lavapipe word for word (MathLibrary::kLlvmpipe; probe_transcendentals holds the
// NaNs and the golden words). In: pairs (transcendentals_wide.yaml, gen_transcendentals_wide.py);
// Out[16 * pair + k], raw bits. Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  float x = asfloat(In[2 * id.x]), y = asfloat(In[2 * id.x + 1]);
  uint o = 16 * id.x;
  Out[o + 0] = asuint(exp2(x));
  Out[o + 1] = asuint(log2(x));
  Out[o + 2] = asuint(sin(x));
  Out[o + 3] = asuint(cos(x));
  Out[o + 4] = asuint(exp(x));
  Out[o + 5] = asuint(log(x));
  Out[o + 6] = asuint(log10(x));
  Out[o + 7] = asuint(pow(x, y));
  Out[o + 8] = asuint(tan(x));
  Out[o + 9] = asuint(asin(x));
  Out[o + 10] = asuint(acos(x));
  Out[o + 11] = asuint(atan(x));
  Out[o + 12] = asuint(atan2(y, x));
  Out[o + 13] = asuint(sinh(x));
  Out[o + 14] = asuint(cosh(x));
  Out[o + 15] = asuint(tanh(x));
}
