// SamplerProbe.hlsl -- measures a device's bilinear weight quantisation (DESIGN §3: profiles are
// measured, not guessed). Src is a 2x1 R32_FLOAT texture holding [0, 1]; thread i samples at
// u = (i / 4096 + 0.5) / 2, so the ideal texel coordinate u * 2 - 0.5 is i / 4096 and the result
// is exactly the weight the hardware used for texel 1. With 8 sub-texel bits and round-to-nearest
// the results are round(i / 16) / 256 (ties to even); 4096 threads show the bits and the rounding.
Texture2D<float> Src : register(t0);
SamplerState LinearClamp : register(s0);
RWStructuredBuffer<float> Weights : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    float u = (DTid.x / 4096.0 + 0.5) / 2.0;
    Weights[DTid.x] = Src.SampleLevel(LinearClamp, float2(u, 0.5), 0);
}
