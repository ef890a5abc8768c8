// probe_nan_math.hlsl -- device-profile probe (DESIGN §3): what the math library gives for NaNs
// with payloads, infinities and zeros of both signs (the NaN rule probe_denormals_ops measured for
// + - * / sqrt, here for abs, the rounding functions, frac, saturate, sign, rcp, the C-library
// functions and the conversions). In: region 0 x = X[tid % 16], region 1 s = S[tid % 8]
// and region 2 r = R[tid % 16], the conversions' edges
// (probe_nan_math.yaml); Out[slot * 64 + tid], raw bits. Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint tid) { return asfloat(In[region * 64 + tid]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float x = F(0, tid), s = F(1, tid), r = F(2, tid);
  Out[0 * 64 + tid] = asuint(abs(x));
  Out[1 * 64 + tid] = asuint(floor(x));
  Out[2 * 64 + tid] = asuint(ceil(x));
  Out[3 * 64 + tid] = asuint(round(x));
  Out[4 * 64 + tid] = asuint(trunc(x));
  Out[5 * 64 + tid] = asuint(frac(x));
  Out[6 * 64 + tid] = asuint(saturate(x));
  Out[7 * 64 + tid] = asuint((int)sign(x));  // glslang: sign(float) is a float
  Out[8 * 64 + tid] = asuint(rcp(x));
  Out[9 * 64 + tid] = f32tof16(x);
  Out[10 * 64 + tid] = asuint((int)x);
  Out[11 * 64 + tid] = (uint)x;
  Out[12 * 64 + tid] = asuint(exp2(s));
  Out[13 * 64 + tid] = asuint(log2(s));
  Out[14 * 64 + tid] = asuint(exp(s));
  Out[15 * 64 + tid] = asuint(log(s));
  Out[16 * 64 + tid] = asuint(sin(s));
  Out[17 * 64 + tid] = asuint(cos(s));
  Out[18 * 64 + tid] = asuint(rsqrt(s));
  Out[19 * 64 + tid] = asuint((int)r);
  Out[20 * 64 + tid] = (uint)r;
  Out[21 * 64 + tid] = f32tof16(r);
  Out[22 * 64 + tid] = asuint(tan(s));
  Out[23 * 64 + tid] = asuint(log10(s));
}
