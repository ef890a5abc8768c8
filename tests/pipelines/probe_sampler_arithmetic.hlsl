// probe_sampler_arithmetic.hlsl -- measures how a device combines the four bilinear taps
// (Σ texel·wU·wV, or lerps along U then V, with or without fma) and at what precision it filters
// UNORM texels (docs/textures.md). F is a 2x2 R32G32B32A32_FLOAT texture whose 16 values have
// full mantissas, so different arithmetic rounds differently; U a 2x2 R8G8B8A8_UNORM texture of
// scattered codes. 1024 threads; thread i samples at weights (wU, wV) = (i % 32, i / 32) / 32,
// exact in any fixed point of 5 or more bits, and writes Out[i] (F) and Out[1024 + i] (U).
Texture2D<float4> F : register(t0);
Texture2D<float4> U : register(t1);
SamplerState LinearClamp : register(s2);
RWStructuredBuffer<float4> Out : register(u3);

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    uint i = DTid.x;
    float2 w = float2(i % 32, i / 32) / 32.0;
    float2 uv = (w + 0.5) / 2.0;
    Out[i] = F.SampleLevel(LinearClamp, uv, 0);
    Out[1024 + i] = U.SampleLevel(LinearClamp, uv, 0);
}
