// probe_sampler_address.hlsl -- measures the address modes at and past the edges, point and
// linear (docs/textures.md). Row is a 4x1 R32_FLOAT texture [2, 4, 8, 16]; sampler k (s1..s10)
// is mode k / 2 (WRAP, MIRROR, CLAMP, BORDER with opaque white, MIRROR_ONCE), point filtering
// for even k, linear for odd k. 64 threads; thread i samples at u = (i - 24) / 16 (-1.5 .. 2.44)
// with sampler k and writes Out[k * 64 + i].
Texture2D<float> Row : register(t0);
SamplerState S0 : register(s1);
SamplerState S1 : register(s2);
SamplerState S2 : register(s3);
SamplerState S3 : register(s4);
SamplerState S4 : register(s5);
SamplerState S5 : register(s6);
SamplerState S6 : register(s7);
SamplerState S7 : register(s8);
SamplerState S8 : register(s9);
SamplerState S9 : register(s10);
RWStructuredBuffer<float> Out : register(u11);

[numthreads(64, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    uint i = DTid.x;
    float2 uv = float2((float(i) - 24.0) / 16.0, 0.5);
    Out[0 * 64 + i] = Row.SampleLevel(S0, uv, 0);
    Out[1 * 64 + i] = Row.SampleLevel(S1, uv, 0);
    Out[2 * 64 + i] = Row.SampleLevel(S2, uv, 0);
    Out[3 * 64 + i] = Row.SampleLevel(S3, uv, 0);
    Out[4 * 64 + i] = Row.SampleLevel(S4, uv, 0);
    Out[5 * 64 + i] = Row.SampleLevel(S5, uv, 0);
    Out[6 * 64 + i] = Row.SampleLevel(S6, uv, 0);
    Out[7 * 64 + i] = Row.SampleLevel(S7, uv, 0);
    Out[8 * 64 + i] = Row.SampleLevel(S8, uv, 0);
    Out[9 * 64 + i] = Row.SampleLevel(S9, uv, 0);
}
