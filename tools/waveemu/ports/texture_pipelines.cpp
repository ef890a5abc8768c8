// texture_pipelines.cpp -- ports of the texture test pipelines in tests/pipelines/ (textures,
// views and samplers bound from the pipeline: docs/pipelines.md, "Textures and samplers").
// Registers follow the HLSL; the kernels mirror it statement for statement.
#include "tools/waveemu/ports/ports.h"

#include "emulator/texture.h"
#include "intrinsics/intrinsics.h"

namespace waveemu::oracle {

namespace {

// ------------------------------ texture_views.hlsl
struct TextureViews {
  static constexpr int N = 4;
  static constexpr uint3 numthreads{2, 2, 1};

  Texture2D<float4> Src;                // t0
  Texture2D<float4> Srgb;               // t1
  RWTexture2D<float4> Dst;              // u0
  RWTexture2D<float4> Bytes;            // u1
  RWStructuredBuffer<float4> Samples;   // u2
  SamplerState PointClamp{};            // s0

  void main(SV_DispatchThreadID<N> DTid) const {
    Uint<N> i = DTid.y * 2u + DTid.x;
    const Int<N> zero(0), one(1);
    Dst[DTid.xy()] = Src.Load(Int3<N>(Int2<N>(DTid.xy() * 2u), zero)) +
                     Src.Load(Int3<N>(Int2<N>(DTid.xy()), one));
    Samples[i] = Src.SampleLevel(PointClamp, (Float2<N>(DTid.xy()) + 0.5f) / 2.0f, 1.0f);
    Samples[4u + i] = Srgb.Load(Int3<N>(Int<N>(DTid.x), zero, zero));
    Bytes[DTid.xy()] = Float4<N>(Float<N>(0.75f), Float<N>(0.25f), Float<N>(DTid.x), Float<N>(1.0f));
    uint32_t w = 0, h = 0;
    Dst.GetDimensions(w, h);
    Samples[8u + i] = Float4<N>(Float<N>(float(w)), Float<N>(float(h)), Float<N>(0.0f),
                                Float<N>(0.0f));
  }
};

}  // namespace

void RegisterTexturePipelinePorts(std::vector<Port>& ports) {
  ports.push_back(MakePort<TextureViews>(
      "texture_views.hlsl", "main", "tools/waveemu/ports/texture_pipelines.cpp",
      [](PortContext& ctx, TextureViews& k) {
        k.Src = ctx.Bind<Texture2D<float4>>("t0", "Src");
        k.Srgb = ctx.Bind<Texture2D<float4>>("t1", "Srgb");
        k.Dst = ctx.Bind<RWTexture2D<float4>>("u0", "Dst");
        k.Bytes = ctx.Bind<RWTexture2D<float4>>("u1", "Bytes");
        k.Samples = ctx.Bind<RWStructuredBuffer<float4>>("u2", "Samples");
        k.PointClamp = ctx.Bind<SamplerState>("s0", "PointClamp");
      }));
}

}  // namespace waveemu::oracle
