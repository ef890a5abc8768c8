// probe_sampler_precision.hlsl -- measures two conversions the other probes leave open
// (docs/textures.md): float -> UNORM8 stores of values just above and below a tie k + 0.5 (the
// H100 stored 0.5 + 2^-17, 127.502 after scaling, as 127), and bilinear filtering of
// R16G16B16A16_FLOAT texels (H) next to the same values as R32G32B32A32_FLOAT (F): whether a half
// texture filters in float, in half or in fixed point. 4096 threads; thread i stores In[i % 1024]
// to Unorm8[i % 1024, i / 1024] and samples H and F at the 8-bit weights
// (i % 256, (i / 256) * 16 + i % 16) / 256: Out[i] (H), Out[4096 + i] (F).
StructuredBuffer<float4> In : register(t0);
Texture2D<float4> H : register(t1);
Texture2D<float4> F : register(t2);
SamplerState LinearClamp : register(s3);
RWTexture2D<float4> Unorm8 : register(u4);
RWStructuredBuffer<float4> Out : register(u5);

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    uint i = DTid.x;
    Unorm8[uint2(i % 1024, i / 1024)] = In[i % 1024];
    float2 w = float2(i % 256, (i / 256) * 16 + i % 16) / 256.0;
    float2 uv = (w + 0.5) / 2.0;
    Out[i] = H.SampleLevel(LinearClamp, uv, 0);
    Out[4096 + i] = F.SampleLevel(LinearClamp, uv, 0);
}
