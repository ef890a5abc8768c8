// helper_lanes.hlsl -- the pixel shader of issue 5's lavapipe comparison (tests/oracle/
// test_pixel_lavapipe.cpp draws it with tools/waveemu/vulkan_fragment.h; tests/pixel/
// helper_lanes_port.h is its C++ port). Each covered pixel writes a record of what its wave and
// its quad saw, before and after one lane of some quads is discarded. Helper lanes cannot store
// (D3D11.3 §16.13; Vulkan too), so helpers are seen only through their quad partners' reads.
//
// Every stored value is defined by HLSL, so the comparison cannot match by luck. Defined on a
// helper lane: its inputs (SV_Position, WaveGetLaneIndex, WaveGetLaneCount) and arithmetic on
// them, and quad reads and derivatives, which include helpers. NOT defined on a helper: the
// result of a wave op (ballot, count, sum: helpers are excluded and HLSL leaves what they receive
// open). So what partners read from a helper (`code`, the lane index, positions) uses inputs
// only; a helper flag is never computed on the lane it describes. glslang 12 lacks IsHelperLane,
// QuadAny and QuadAll, so a non-helper derives each partner's flag from its OWN ballot (defined:
// it stores, so it is not a helper): "the partner's lane bit is missing from my ballot", the
// partner's lane read through a quad read. The comparison checks the flags against coverage.
#ifndef WIDTH
#define WIDTH 16  // the target's width in pixels: records are indexed y * WIDTH + x
#endif

RWStructuredBuffer<uint4> Out : register(u0);  // kRecordWords / 4 uint4 per pixel

// A quad member as its partners see it: valid bit and pixel position (inputs only: defined on
// helpers too).
uint Code(uint2 p) { return 0x80000000u | (p.y << 12) | p.x; }

uint HelperFromBallot(uint4 ballot, uint lane) {
  return ((ballot[lane / 32] >> (lane % 32)) & 1u) ^ 1u;
}

// What a non-helper knows of a quad partner: its lane (bits 8..15) and whether that lane is a
// helper (bit 0: its bit is missing from this lane's own ballot).
uint Partner(uint4 my_ballot, uint partner_lane) {
  return (partner_lane << 8) | HelperFromBallot(my_ballot, partner_lane);
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
  const uint4 ballot = WaveActiveBallot(true);  // undefined on helpers: never read from them
  const uint code = Code(p);
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
  Out[i + 6] = uint4(asuint(fwidth(q)), Partner(ballot, QuadReadAcrossX(lane)),
                     Partner(ballot, QuadReadAcrossY(lane)),
                     Partner(ballot, QuadReadAcrossDiagonal(lane)));
  // discard demotes the lane (HLSL; glslang --target-env vulkan1.3 emits
  // OpDemoteToHelperInvocation): it stays in its quad and its stores are dropped.
  if (Discarded(p)) discard;
  // The partners again, now reading a demoted lane's index through quad reads.
  const uint4 ballot2 = WaveActiveBallot(true);
  const float q2 = pos.x * pos.y + 1.0;
  Out[i + 7] = uint4(ballot2.x, WaveActiveCountBits(true), Partner(ballot2, QuadReadAcrossX(lane)),
                     Partner(ballot2, QuadReadAcrossY(lane)));
  Out[i + 8] = uint4(Partner(ballot2, QuadReadAcrossDiagonal(lane)), WaveActiveSum(value),
                     asuint(ddx_fine(q2)), asuint(ddy_fine(q2)));
  Out[i + 9] = uint4(0x600Du, p.x, p.y, 0);
  return float4(pos.x, pos.y, float(lane), 1.0);
}
