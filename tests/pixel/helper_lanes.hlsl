// helper_lanes.hlsl -- the pixel shader of issue 5's lavapipe comparison (tests/oracle/
// test_pixel_lavapipe.cpp draws it with tools/waveemu/vulkan_fragment.h; tests/pixel/
// helper_lanes_port.h is its C++ port). Each covered pixel writes a record of what its wave and
// its quad saw, before and after one lane of some quads is discarded. Helper lanes cannot store
// (D3D11.3 §16.13; Vulkan too), so helpers are seen only through their quad partners' reads.
// glslang 12 lacks IsHelperLane, QuadAny and QuadAll: the helper flag is "my bit is missing
// from WaveActiveBallot(true)", which the comparison checks against coverage, pixel by pixel.
#ifndef WIDTH
#define WIDTH 16  // the target's width in pixels: records are indexed y * WIDTH + x
#endif

RWStructuredBuffer<uint4> Out : register(u0);  // kRecordWords / 4 uint4 per pixel

// A quad member as its partners see it: valid bit, helper flag, pixel position.
uint Code(uint2 p, uint helper) { return 0x80000000u | (helper << 24) | (p.y << 12) | p.x; }

uint HelperFromBallot(uint4 ballot, uint lane) {
  return ((ballot[lane / 32] >> (lane % 32)) & 1u) ^ 1u;
}

// Top-left pixel of every third quad, and bottom-right pixel of the quads after those.
bool Discarded(uint2 p) {
  const uint quad = (p.x >> 1) + (p.y >> 1);
  return ((p.x & 1) == 0 && (p.y & 1) == 0 && quad % 3 == 0) ||
         ((p.x & 1) == 1 && (p.y & 1) == 1 && quad % 3 == 1);
}

float4 main(float4 pos : SV_Position) : SV_Target {
  const uint2 p = uint2(pos.xy);
  const uint i = 10 * (p.y * WIDTH + p.x);
  const uint lane = WaveGetLaneIndex();
  const uint4 ballot = WaveActiveBallot(true);
  const uint helper = HelperFromBallot(ballot, lane);
  const uint code = Code(p, helper);
  const uint value = p.x + 16 * p.y + 1;
  Out[i + 0] = uint4(lane, WaveGetLaneCount(), ballot.x, ballot.y | ballot.z | ballot.w);
  Out[i + 1] = uint4(WaveActiveCountBits(true), WavePrefixCountBits(true), WaveActiveSum(value),
                     code);
  Out[i + 2] = uint4(QuadReadAcrossX(code), QuadReadAcrossY(code), QuadReadAcrossDiagonal(code),
                     asuint(QuadReadAcrossX(pos.x)));
  // Derivatives: exact for the linear function; for x*y coarse and fine differ (D3D: coarse
  // may come from the quad's top row / left column, fine from the pixel's own row / column).
  const float l = 3.0 * pos.x + 5.0 * pos.y;
  const float q = pos.x * pos.y;
  Out[i + 3] = uint4(asuint(ddx(l)), asuint(ddy(l)), asuint(ddx_coarse(l)), asuint(ddy_coarse(l)));
  Out[i + 4] = uint4(asuint(ddx_fine(l)), asuint(ddy_fine(l)), asuint(ddx(q)), asuint(ddy(q)));
  Out[i + 5] = uint4(asuint(ddx_coarse(q)), asuint(ddy_coarse(q)), asuint(ddx_fine(q)),
                     asuint(ddy_fine(q)));
  Out[i + 6] = uint4(asuint(fwidth(q)), 0, 0, 0);
  // discard demotes the lane (HLSL; glslang --target-env vulkan1.3 emits
  // OpDemoteToHelperInvocation): it stays in its quad and its stores are dropped.
  if (Discarded(p)) discard;
  const uint4 ballot2 = WaveActiveBallot(true);
  const uint code2 = Code(p, HelperFromBallot(ballot2, lane));
  const float q2 = pos.x * pos.y + 1.0;
  Out[i + 7] = uint4(ballot2.x, WaveActiveCountBits(true), QuadReadAcrossX(code2),
                     QuadReadAcrossY(code2));
  Out[i + 8] = uint4(QuadReadAcrossDiagonal(code2), WaveActiveSum(value), asuint(ddx_fine(q2)),
                     asuint(ddy_fine(q2)));
  Out[i + 9] = uint4(0x600Du, p.x, p.y, 0);
  return float4(pos.x, pos.y, float(lane), 1.0);
}
