// helper_lanes.hlsl -- the fragment shader of issue 5's lavapipe comparison, for the Vulkan
// backend once it draws (see the pixel report): triangle (0,0) (4,0) (0,4) on a 4x4 target, the
// scene of tests/pixel/test_pixel.cpp. Helper stores have no effect, so every covered pixel
// records what its quad's helpers saw through quad reads. Lane order inside a wave and quad order
// are implementation-defined (a fragment wave on lavapipe need not pack quads as waveemu does):
// compare counts, popcounts and quad-relative values, not ballot bit positions.
RWStructuredBuffer<uint4> Out : register(u0);  // two elements per pixel: 2 * (y * 4 + x) + 0..1

float4 main(float4 pos : SV_Position) : SV_Target {
  const uint2 p = uint2(pos.xy);
  // Wave ops exclude helpers: popcount = covered pixels of the wave; 6 when one wave holds the
  // three launched quads (waveemu at W >= 16). A lane's own ballot bit is 0 exactly on helpers:
  // the same as IsHelperLane(), which glslang's HLSL front end lacks.
  const uint4 ballot = WaveActiveBallot(true);
  const uint lane = WaveGetLaneIndex();
  const uint helper = ((ballot[lane / 32] >> (lane % 32)) & 1u) ^ 1u;
  const uint count = WaveActiveCountBits(true);
  // Quad reads include helpers: the helper flags of the three other quad members (bit 0 = X,
  // bit 1 = Y, bit 2 = diagonal partner), and the x centre of the X neighbour.
  const uint quad_helpers = QuadReadAcrossX(helper) | (QuadReadAcrossY(helper) << 1) |
                            (QuadReadAcrossDiagonal(helper) << 2);
  const float across_x = QuadReadAcrossX(pos.x);
  // Derivatives of x*y: coarse ddx = the quad's top row y, fine ddx = the pixel's own row y.
  const float q = pos.x * pos.y;
  const uint i = 2 * (p.y * 4 + p.x);
  Out[i] = uint4(countbits(ballot.x) + countbits(ballot.y) + countbits(ballot.z) +
                     countbits(ballot.w),
                 count, quad_helpers, asuint(across_x));
  Out[i + 1] = uint4(asuint(ddx_coarse(q)), asuint(ddx_fine(q)), asuint(ddy_coarse(q)),
                     asuint(ddy_fine(q)));
  return float4(pos.x, pos.y, 0, 1);
}
