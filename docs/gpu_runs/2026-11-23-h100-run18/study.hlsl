// study.hlsl -- measurement, not a golden probe: what the H100 returns for exp2, log2, exp, log,
// log10, pow, sin and cos (run 18, README.md). Thread i of 2^24 writes its inputs and results:
//   X: |X| in [2^-24, 256) with a random sign and significand (one in 8: any bit pattern);
//      Exp2 = exp2(X), Exp = exp(X), Sin = sin(X), Cos = cos(X).
//   Y: positive, any exponent field (denormals, zero, inf and NaN included), random significand
//      (one in 8: any bit pattern); Log2, Log, Log10 of Y.
//   B, E: pow(B, E), B positive with exponent in [-10, 10] (one in 8: any bit pattern), |E| in
//      [2^-24, 32) with a random sign.
RWStructuredBuffer<uint> X     : register(u0);
RWStructuredBuffer<uint> Y     : register(u1);
RWStructuredBuffer<uint> B     : register(u2);
RWStructuredBuffer<uint> E     : register(u3);
RWStructuredBuffer<uint> Exp2  : register(u4);
RWStructuredBuffer<uint> Exp   : register(u5);
RWStructuredBuffer<uint> Sin   : register(u6);
RWStructuredBuffer<uint> Cos   : register(u7);
RWStructuredBuffer<uint> Log2  : register(u8);
RWStructuredBuffer<uint> Log   : register(u9);
RWStructuredBuffer<uint> Log10 : register(u10);
RWStructuredBuffer<uint> Pow   : register(u11);

// lowbias32 (Chris Wellons' hash-prospector), as run 11: easy to repeat in numpy.
uint Hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Sign from bit 31 of s, exponent lo + g % span, significand from m.
uint Make(uint s, uint g, int lo, uint span, uint m) {
  return (s & 0x80000000u) | (uint(int(g % span) + lo + 127) << 23) | (m & 0x7fffffu);
}

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex) {
  uint i = (gid.y * 2048u + gid.x) * 64u + gi;
  uint h = Hash(i), g = Hash(h ^ 0x9e3779b9u), k = Hash(g ^ 0x85ebca6bu), l = Hash(k);
  bool any = (h & 7u) == 0u;
  uint x = any ? g : Make(h, g >> 8, -24, 32u, k);
  uint y = any ? ~k : ((g & 0xff000000u) >> 1) | (l & 0x7fffffu);
  uint b = any ? l : Make(0u, k >> 9, -10, 21u, g);
  uint e = Make(l, h >> 12, -24, 29u, h ^ l);
  X[i] = x; Y[i] = y; B[i] = b; E[i] = e;
  float fx = asfloat(x), fy = asfloat(y);
  Exp2[i] = asuint(exp2(fx));
  Exp[i] = asuint(exp(fx));
  Sin[i] = asuint(sin(fx));
  Cos[i] = asuint(cos(fx));
  Log2[i] = asuint(log2(fy));
  Log[i] = asuint(log(fy));
  Log10[i] = asuint(log10(fy));
  Pow[i] = asuint(pow(asfloat(b), asfloat(e)));
}
