// probe_minmax.hlsl -- device-profile probe (DESIGN §3): what per-thread min, max, saturate and
// clamp return for signed-zero ties (+0/-0 in either order), NaN operands and denormals.
// In region 0 holds a = S[tid / 8], region 1 b = S[tid % 8] (all 64 ordered pairs of the special
// values S in probe_minmax.yaml), region 2 the constants 0.0f and 1.0f, all read with asfloat so
// nothing folds; Out[slot * 64 + tid], raw bits. Every clamp has lo <= hi (clamp with lo > hi is
// undefined). Slots 5 and 12 take their bounds from In: with literal bounds the H100's compiler
// rewrites them (probe_minmax_literals.hlsl).
// Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

float F(uint region, uint tid) { return asfloat(In[region * 64 + tid]); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  float a = F(0, tid), b = F(1, tid);
  float zero = F(2, 0), one = F(2, 1);
  Out[0 * 64 + tid] = asuint(min(a, b));
  Out[1 * 64 + tid] = asuint(max(a, b));
  Out[2 * 64 + tid] = asuint(saturate(a));
  Out[3 * 64 + tid] = asuint(clamp(a, 0.0f, 1.0f));
  Out[4 * 64 + tid] = asuint(clamp(a, -1.0f, 1.0f));
  Out[5 * 64 + tid] = asuint(clamp(a, -zero, zero));
  // One operand a literal zero of either sign.
  Out[6 * 64 + tid] = asuint(min(a, 0.0f));
  Out[7 * 64 + tid] = asuint(min(a, -0.0f));
  Out[8 * 64 + tid] = asuint(max(a, 0.0f));
  Out[9 * 64 + tid] = asuint(max(a, -0.0f));
  // Bounds that are not literals: [-|b|, |b|] (b = NaN gives [-1, 1], keeping lo <= hi).
  float m = isnan(b) ? 1.0f : abs(b);
  Out[10 * 64 + tid] = asuint(clamp(a, -m, m));
  // saturate written out, in clamp's order (max first) and in the other order (min first).
  Out[11 * 64 + tid] = asuint(min(max(a, 0.0f), 1.0f));
  Out[12 * 64 + tid] = asuint(max(min(a, one), zero));
}
