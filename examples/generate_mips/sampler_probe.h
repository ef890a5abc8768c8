// sampler_probe.h -- port of SamplerProbe.hlsl: 4096 threads sample a 2x1 [0, 1] texture at
// fractional positions i / 4096; each result is the weight the sampler model gives texel 1.
#pragma once

#include "emulator/emulator.h"
#include "emulator/texture.h"  // until emulator.h includes it

#include <cstdint>

namespace waveemu::examples {

struct SamplerProbe {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  Texture2D<float> Src;                 // t0
  SamplerState LinearClamp{};           // s0 (MIN_MAG_MIP_LINEAR, CLAMP)
  RWStructuredBuffer<float> Weights;    // u0

  void main(SV_DispatchThreadID<N> DTid) const {
    // HLSL: DTid.x / 4096.0 is a float division of the converted uint (4096.0 is a float literal).
    Float<N> u = (Float<N>(DTid.x) / 4096.0f + 0.5f) / 2.0f;
    Weights[DTid.x] = Src.SampleLevel(LinearClamp, Float2<N>(u, Float<N>(0.5f)), 0.0f);
  }
};

}  // namespace waveemu::examples
