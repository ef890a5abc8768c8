// probe_sampler_weights.hlsl -- measures how a device turns a texture coordinate into bilinear
// weights: sub-texel bits, rounding (ties included), x and y, float and UNORM textures, and the
// float arithmetic of u * size - 0.5 (docs/textures.md). 4096 threads; thread i writes
// Out[slot * 4096 + i]:
//   0: WX, 2x1 R32_FLOAT [0, 1], at u = (i / 4096 + 0.5) / 2: the ideal texel coordinate
//      u * 2 - 0.5 is i / 4096, so the result is the weight the device gave texel 1
//   1: the same in y (WY, 1x2)
//   2: the same on UX, 2x1 R8G8B8A8_UNORM [0, 255] (red)
//   3: Ramp, 5x1 R32_FLOAT [0, 1, 2, 3, 4], at u = i / 4096: the device's fixed-point texel
//      coordinate (index + weight) after u * 5 - 0.5 in float, clamped at both edges
Texture2D<float> WX : register(t0);
Texture2D<float> WY : register(t1);
Texture2D<float4> UX : register(t2);
Texture2D<float> Ramp : register(t3);
SamplerState LinearClamp : register(s4);
RWStructuredBuffer<float> Out : register(u5);

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    uint i = DTid.x;
    float f = i / 4096.0;
    float u = (f + 0.5) / 2.0;
    Out[i] = WX.SampleLevel(LinearClamp, float2(u, 0.5), 0);
    Out[4096 + i] = WY.SampleLevel(LinearClamp, float2(0.5, u), 0);
    Out[2 * 4096 + i] = UX.SampleLevel(LinearClamp, float2(u, 0.5), 0).r;
    Out[3 * 4096 + i] = Ramp.SampleLevel(LinearClamp, float2(f, 0.5), 0);
}
