// coverage_count.hlsl -- counts the fragments of each pixel (tests/oracle/test_pixel_lavapipe.cpp):
// with triangles that share edges through pixel centres, a pixel drawn twice or missed shows up
// as a count of 2 or 0 where waveemu's rasterizer (top-left rule) says 1.
#ifndef WIDTH
#define WIDTH 32
#endif

RWStructuredBuffer<uint> Count : register(u0);  // one per pixel: y * WIDTH + x

float4 main(float4 pos : SV_Position) : SV_Target {
  const uint2 p = uint2(pos.xy);
  InterlockedAdd(Count[p.y * WIDTH + p.x], 1u);
  return float4(1.0, 1.0, 1.0, 1.0);
}
