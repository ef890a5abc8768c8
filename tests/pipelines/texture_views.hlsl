// texture_views.hlsl -- the pipeline texture bindings end to end (docs/pipelines.md, "Textures
// and samplers"): Load from two levels of an RGBA32F SRV, a point SampleLevel of level 1, an
// sRGB view's decode, stores through a UAV of level 1 and through an R8G8B8A8_UNORM UAV, and a
// UAV's GetDimensions. Every expected value is exact (texture_views.yaml works them out).
Texture2D<float4> Src : register(t0);      // 4x4 R32G32B32A32_FLOAT, 2 levels
Texture2D<float4> Srgb : register(t1);     // 2x1 R8G8B8A8_UNORM_SRGB
RWTexture2D<float4> Dst : register(u0);    // level 1 (2x2) of Out, 4x4 with 2 levels
RWTexture2D<float4> Bytes : register(u1);  // 2x2 R8G8B8A8_UNORM
RWStructuredBuffer<float4> Samples : register(u2);
SamplerState PointClamp : register(s0);

[numthreads(2, 2, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    uint i = DTid.y * 2 + DTid.x;
    Dst[DTid.xy] = Src.Load(int3(DTid.xy * 2, 0)) + Src.Load(int3(DTid.xy, 1));
    Samples[i] = Src.SampleLevel(PointClamp, (float2(DTid.xy) + 0.5) / 2.0, 1);
    Samples[4 + i] = Srgb.Load(int3(DTid.x, 0, 0));
    Bytes[DTid.xy] = float4(0.75, 0.25, DTid.x, 1.0);
    uint w, h;
    Dst.GetDimensions(w, h);
    Samples[8 + i] = float4(w, h, 0, 0);
}
