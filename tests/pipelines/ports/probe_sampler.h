// probe_sampler.h -- ports of the sampler-model probes tests/pipelines/probe_sampler_*.hlsl
// (docs/textures.md), statement for statement. The kernels are here so tests/textures can
// dispatch them directly; probe_sampler.cpp registers them with the emulator backend.
#pragma once

#include "emulator/emulator.h"
#include "emulator/texture.h"
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::oracle {

// ------------------------------ probe_sampler_weights.hlsl
struct ProbeSamplerWeights {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  Texture2D<float> WX;              // t0
  Texture2D<float> WY;              // t1
  Texture2D<float4> UX;             // t2
  Texture2D<float> Ramp;            // t3
  SamplerState LinearClamp{};       // s4 (MIN_MAG_MIP_LINEAR, CLAMP)
  RWStructuredBuffer<float> Out;    // u5

  void main(SV_DispatchThreadID<N> DTid) const {
    Uint<N> i = DTid.x;
    // HLSL: i / 4096.0 converts the uint to float (4096.0 is a float literal).
    Float<N> f = Float<N>(i) / 4096.0f;
    Float<N> u = (f + 0.5f) / 2.0f;
    const Float<N> half(0.5f);
    Out[i] = WX.SampleLevel(LinearClamp, Float2<N>(u, half), 0.0f);
    Out[4096u + i] = WY.SampleLevel(LinearClamp, Float2<N>(half, u), 0.0f);
    Out[2u * 4096u + i] = UX.SampleLevel(LinearClamp, Float2<N>(u, half), 0.0f).r();
    Out[3u * 4096u + i] = Ramp.SampleLevel(LinearClamp, Float2<N>(f, half), 0.0f);
  }
};

// ------------------------------ probe_sampler_arithmetic.hlsl
struct ProbeSamplerArithmetic {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  Texture2D<float4> F;               // t0
  Texture2D<float4> U;               // t1
  SamplerState LinearClamp{};        // s2
  RWStructuredBuffer<float4> Out;    // u3

  void main(SV_DispatchThreadID<N> DTid) const {
    Uint<N> i = DTid.x;
    Float2<N> w = Float2<N>(Float<N>(i % 32u), Float<N>(i / 32u)) / 32.0f;
    Float2<N> uv = (w + 0.5f) / 2.0f;
    Out[i] = F.SampleLevel(LinearClamp, uv, 0.0f);
    Out[1024u + i] = U.SampleLevel(LinearClamp, uv, 0.0f);
  }
};

// ------------------------------ probe_sampler_formats.hlsl
struct ProbeSamplerFormats {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  Texture2D<float4> Unorm;           // t0
  Texture2D<float4> Srgb;            // t1
  SamplerState LinearClamp{};        // s2
  RWStructuredBuffer<float4> Out;    // u3

  void main(SV_DispatchThreadID<N> DTid) const {
    Uint<N> i = DTid.x;
    const Int<N> zero(0);
    Out[i] = Unorm.Load(Int3<N>(Int<N>(i), zero, zero));
    Out[256u + i] = Srgb.Load(Int3<N>(Int<N>(i), zero, zero));
    Out[512u + i] = Srgb.SampleLevel(
        LinearClamp, Float2<N>((Float<N>(i) + 1.0f) / 256.0f, Float<N>(0.5f)), 0.0f);
  }
};

// ------------------------------ probe_sampler_address.hlsl
struct ProbeSamplerAddress {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  /// Sampler k of the probe: mode k / 2, point for even k, linear for odd k, opaque white border.
  static SamplerState Make(int k) {
    constexpr TextureAddressMode kModes[] = {
        TextureAddressMode::WRAP, TextureAddressMode::MIRROR, TextureAddressMode::CLAMP,
        TextureAddressMode::BORDER, TextureAddressMode::MIRROR_ONCE};
    SamplerState s;
    s.filter = k % 2 == 0 ? Filter::MIN_MAG_MIP_POINT : Filter::MIN_MAG_MIP_LINEAR;
    s.address_u = s.address_v = kModes[k / 2];
    s.border_color = {1, 1, 1, 1};
    return s;
  }

  Texture2D<float> Row;                                            // t0
  SamplerState S0 = Make(0), S1 = Make(1), S2 = Make(2), S3 = Make(3), S4 = Make(4);  // s1..s5
  SamplerState S5 = Make(5), S6 = Make(6), S7 = Make(7), S8 = Make(8), S9 = Make(9);  // s6..s10
  RWStructuredBuffer<float> Out;                                   // u11

  void main(SV_DispatchThreadID<N> DTid) const {
    Uint<N> i = DTid.x;
    Float2<N> uv((Float<N>(i) - 24.0f) / 16.0f, Float<N>(0.5f));
    Out[0u * 64u + i] = Row.SampleLevel(S0, uv, 0.0f);
    Out[1u * 64u + i] = Row.SampleLevel(S1, uv, 0.0f);
    Out[2u * 64u + i] = Row.SampleLevel(S2, uv, 0.0f);
    Out[3u * 64u + i] = Row.SampleLevel(S3, uv, 0.0f);
    Out[4u * 64u + i] = Row.SampleLevel(S4, uv, 0.0f);
    Out[5u * 64u + i] = Row.SampleLevel(S5, uv, 0.0f);
    Out[6u * 64u + i] = Row.SampleLevel(S6, uv, 0.0f);
    Out[7u * 64u + i] = Row.SampleLevel(S7, uv, 0.0f);
    Out[8u * 64u + i] = Row.SampleLevel(S8, uv, 0.0f);
    Out[9u * 64u + i] = Row.SampleLevel(S9, uv, 0.0f);
  }
};

// ------------------------------ probe_sampler_encode.hlsl
struct ProbeSamplerEncode {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<float4> In;   // t0
  RWTexture2D<float4> Unorm8;    // u1
  RWTexture2D<float4> Half;      // u2

  void main(SV_DispatchThreadID<N> DTid) const {
    Uint<N> i = DTid.x;
    const Uint<N> zero(0u);
    Unorm8[Uint2<N>(i, zero)] = Float4<N>(In[i]);
    Half[Uint2<N>(i, zero)] = Float4<N>(In[256u + i]);
  }
};

// ------------------------------ probe_sampler_precision.hlsl
struct ProbeSamplerPrecision {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<float4> In;       // t0
  Texture2D<float4> H;               // t1
  Texture2D<float4> F;               // t2
  SamplerState LinearClamp{};        // s3
  RWTexture2D<float4> Unorm8;        // u4
  RWStructuredBuffer<float4> Out;    // u5

  void main(SV_DispatchThreadID<N> DTid) const {
    Uint<N> i = DTid.x;
    Unorm8[Uint2<N>(i % 1024u, i / 1024u)] = Float4<N>(In[i % 1024u]);
    Float2<N> w = Float2<N>(Float<N>(i % 256u), Float<N>((i / 256u) * 16u + i % 16u)) / 256.0f;
    Float2<N> uv = (w + 0.5f) / 2.0f;
    Out[i] = H.SampleLevel(LinearClamp, uv, 0.0f);
    Out[4096u + i] = F.SampleLevel(LinearClamp, uv, 0.0f);
  }
};

}  // namespace waveemu::oracle
