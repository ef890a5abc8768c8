// study2.hlsl -- measurement, not a golden probe: what the H100 returns for tan, sinh and cosh,
// which its compiler builds on MUFU.SIN, COS and EX2 (run 18, README.md). Thread i of 2^24, with
// study.hlsl's hash: X as study.hlsl's (|X| in [2^-24, 256), one in 8 any bit pattern), Tan =
// tan(X); Z with |Z| in [2^-24, 128) (one in 8 any bit pattern), Sinh = sinh(Z), Cosh = cosh(Z).
RWStructuredBuffer<uint> Tan  : register(u0);
RWStructuredBuffer<uint> Sinh : register(u1);
RWStructuredBuffer<uint> Cosh : register(u2);

uint Hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

uint Make(uint s, uint g, int lo, uint span, uint m) {
  return (s & 0x80000000u) | (uint(int(g % span) + lo + 127) << 23) | (m & 0x7fffffu);
}

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex) {
  uint i = (gid.y * 2048u + gid.x) * 64u + gi;
  uint h = Hash(i), g = Hash(h ^ 0x9e3779b9u), k = Hash(g ^ 0x85ebca6bu), l = Hash(k);
  bool any = (h & 7u) == 0u;
  float x = asfloat(any ? g : Make(h, g >> 8, -24, 32u, k));
  float z = asfloat(any ? l : Make(g, k >> 3, -24, 31u, h));
  Tan[i] = asuint(tan(x));
  Sinh[i] = asuint(sinh(z));
  Cosh[i] = asuint(cosh(z));
}
