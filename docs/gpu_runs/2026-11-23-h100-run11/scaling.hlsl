// scaling.hlsl -- run 11, second pipeline: do sqrt and rsqrt of x * 4^j follow from the [1, 4)
// tables of division.hlsl, and what do denormal operands give? Thread i of 2^24, k = i % 2^24:
//   x = asfloat(0x3f800000 + k) * 4^j, j hashed in [-63, 63], or (one in 16) a denormal with
//   significand k & 0x7fffff; Sqrt2 = sqrt(x), Rsqrt2 = rsqrt(x), X2 = x.
//   DivA2 / DivB2 = DivQ2: one operand denormal (hashed), the other as division.hlsl's narrow one.
RWStructuredBuffer<uint> X2     : register(u0);
RWStructuredBuffer<uint> Sqrt2  : register(u1);
RWStructuredBuffer<uint> Rsqrt2 : register(u2);
RWStructuredBuffer<uint> DivA2  : register(u3);
RWStructuredBuffer<uint> DivB2  : register(u4);
RWStructuredBuffer<uint> DivQ2  : register(u5);

uint Hash(uint x) {  // lowbias32, as division.hlsl
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

[numthreads(64, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex) {
  uint i = (gid.y * 2048u + gid.x) * 64u + gi;
  uint h = Hash(i + 0x1234567u);
  int j = int(h % 127u) - 63;
  uint bits = (h & 0xf0u) == 0u ? (i & 0x7fffffu) : uint(int(0x3f800000u + i) + j * (2 << 23));
  float x = asfloat(bits);
  X2[i] = bits;
  Sqrt2[i] = asuint(sqrt(x));
  Rsqrt2[i] = asuint(rsqrt(x));
  uint g = Hash(h);
  float n = asfloat((g & 0x80000000u) | (uint(int(g % 41u) - 20 + 127) << 23) | (h >> 9));
  float d = asfloat((h & 0x80000000u) | (g & 0x7fffffu));
  bool denormal_first = (g & 0x100u) != 0u;
  float a = denormal_first ? d : n, b = denormal_first ? n : d;
  DivA2[i] = asuint(a);
  DivB2[i] = asuint(b);
  DivQ2[i] = asuint(a / b);
}
