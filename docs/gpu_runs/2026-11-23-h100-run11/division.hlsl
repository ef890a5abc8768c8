// division.hlsl -- measurement, not a golden probe: what the H100 returns for fp32 division,
// rcp, sqrt and rsqrt, over every significand (run 11, README.md). Thread i of 2^24:
//   Rcp:   rcp(x), x = 1.m for i < 2^23 (every significand); above, the same significand with a
//          hashed exponent in [-126, 127] and sign.
//   Sqrt, Rsqrt: of asfloat(0x3f800000 + i), every float in [1, 4).
//   DivQ = DivA / DivB: hashed significands, exponents in [-20, 20] (one in 16: [-126, 127]).
RWStructuredBuffer<uint> Rcp   : register(u0);
RWStructuredBuffer<uint> Sqrt  : register(u1);
RWStructuredBuffer<uint> Rsqrt : register(u2);
RWStructuredBuffer<uint> DivA  : register(u3);
RWStructuredBuffer<uint> DivB  : register(u4);
RWStructuredBuffer<uint> DivQ  : register(u5);

// lowbias32 (Chris Wellons' hash-prospector): well mixed, cheap, and easy to repeat in numpy.
uint Hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// A float with significand bits h & 0x7fffff, sign from bit 31 of g and exponent from g.
float Make(uint h, uint g, bool wide) {
  int e = wide ? int(g % 254u) - 126 : int(g % 41u) - 20;
  return asfloat((g & 0x80000000u) | (uint(e + 127) << 23) | (h & 0x7fffffu));
}

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex) {
  uint i = (gid.y * 2048u + gid.x) * 64u + gi;
  uint m = i & 0x7fffffu;
  float x = i < 0x800000u ? asfloat(0x3f800000u | m) : Make(m, Hash(i), true);
  Rcp[i] = asuint(rcp(x));
  float s = asfloat(0x3f800000u + i);
  Sqrt[i] = asuint(sqrt(s));
  Rsqrt[i] = asuint(rsqrt(s));
  uint ha = Hash(i ^ 0x9e3779b9u), hb = Hash(i ^ 0x85ebca6bu);
  bool wide = (Hash(i) & 15u) == 0u;
  float a = Make(ha, Hash(ha), wide), b = Make(hb, Hash(hb), wide);
  DivA[i] = asuint(a);
  DivB[i] = asuint(b);
  DivQ[i] = asuint(a / b);
}
