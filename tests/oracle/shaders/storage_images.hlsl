// storage_images.hlsl -- two RWTexture2D<float4> (glslang types both Rgba32f), one read and one
// written, a Texture2D and a RWBuffer (a texel buffer, Dim Buffer: left alone by the rewrite).
RWTexture2D<float4> Dst : register(u0);
RWTexture2D<float4> Acc : register(u1);
Texture2D<float4> Src : register(t0);
RWBuffer<float> Flat : register(u2);

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Dst[id.xy] = Src.Load(int3(id.xy, 0)) + Acc[id.xy];
    Flat[id.x] = 1.0;
}
