// probe_sampler_formats.hlsl -- measures format decoding (docs/textures.md): UNORM8 -> float and
// sRGB8 -> linear float on Load, and that sRGB decodes before filtering. Unorm and Srgb are 256x1
// R8G8B8A8 textures holding texel i = (i, 255 - i, (i * 7) % 256, i) (Srgb as _SRGB). 256
// threads; thread i writes Out[i] = Unorm.Load(i), Out[256 + i] = Srgb.Load(i) and
// Out[512 + i] = Srgb sampled halfway between texels i and i + 1 (clamped at 255).
Texture2D<float4> Unorm : register(t0);
Texture2D<float4> Srgb : register(t1);
SamplerState LinearClamp : register(s2);
RWStructuredBuffer<float4> Out : register(u3);

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    uint i = DTid.x;
    Out[i] = Unorm.Load(int3(i, 0, 0));
    Out[256 + i] = Srgb.Load(int3(i, 0, 0));
    Out[512 + i] = Srgb.SampleLevel(LinearClamp, float2((i + 1.0) / 256.0, 0.5), 0);
}
