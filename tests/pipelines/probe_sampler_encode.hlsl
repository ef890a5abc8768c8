// probe_sampler_encode.hlsl -- measures the float -> texel conversions of typed UAV stores
// (docs/textures.md): how float -> UNORM8 rounds (D3D: +0.5 and truncate; Vulkan: nearest, either
// way within 0.6 ulp) and float -> half (D3D: toward zero; most GPUs: nearest even, overflow to
// inf). 256 threads; thread i stores In[i] to Unorm8 (256x1 R8G8B8A8_UNORM) and In[256 + i] to
// Half (256x1 R16G16B16A16_FLOAT); the inputs sit on and next to the rounding boundaries
// (gen_sampler_probes.py).
StructuredBuffer<float4> In : register(t0);
RWTexture2D<float4> Unorm8 : register(u1);
RWTexture2D<float4> Half : register(u2);

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    uint i = DTid.x;
    Unorm8[uint2(i, 0)] = In[i];
    Half[uint2(i, 0)] = In[256 + i];
}
