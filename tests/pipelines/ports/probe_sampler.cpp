// probe_sampler.cpp -- registers the sampler-model probes' ports (probe_sampler.h) with the
// emulator backend: tests/pipelines/probe_sampler_*.yaml bind their textures, samplers and Out.
#include "tests/pipelines/ports/ports.h"
#include "tests/pipelines/ports/probe_sampler.h"

namespace waveemu::oracle {

void RegisterSamplerProbePorts(std::vector<Port>& ports) {
  const char* source = "tests/pipelines/ports/probe_sampler.h";
  ports.push_back(MakePort<ProbeSamplerWeights>(
      "probe_sampler_weights.hlsl", "main", source, [](PortContext& ctx, ProbeSamplerWeights& k) {
        k.WX = ctx.Bind<Texture2D<float>>("t0", "WX");
        k.WY = ctx.Bind<Texture2D<float>>("t1", "WY");
        k.UX = ctx.Bind<Texture2D<float4>>("t2", "UX");
        k.Ramp = ctx.Bind<Texture2D<float>>("t3", "Ramp");
        k.LinearClamp = ctx.Bind<SamplerState>("s4", "LinearClamp");
        k.Out = ctx.Bind<RWStructuredBuffer<float>>("u5", "Out");
      }));
  ports.push_back(MakePort<ProbeSamplerArithmetic>(
      "probe_sampler_arithmetic.hlsl", "main", source,
      [](PortContext& ctx, ProbeSamplerArithmetic& k) {
        k.F = ctx.Bind<Texture2D<float4>>("t0", "F");
        k.U = ctx.Bind<Texture2D<float4>>("t1", "U");
        k.LinearClamp = ctx.Bind<SamplerState>("s2", "LinearClamp");
        k.Out = ctx.Bind<RWStructuredBuffer<float4>>("u3", "Out");
      }));
  ports.push_back(MakePort<ProbeSamplerFormats>(
      "probe_sampler_formats.hlsl", "main", source, [](PortContext& ctx, ProbeSamplerFormats& k) {
        k.Unorm = ctx.Bind<Texture2D<float4>>("t0", "Unorm");
        k.Srgb = ctx.Bind<Texture2D<float4>>("t1", "Srgb");
        k.LinearClamp = ctx.Bind<SamplerState>("s2", "LinearClamp");
        k.Out = ctx.Bind<RWStructuredBuffer<float4>>("u3", "Out");
      }));
  ports.push_back(MakePort<ProbeSamplerAddress>(
      "probe_sampler_address.hlsl", "main", source, [](PortContext& ctx, ProbeSamplerAddress& k) {
        k.Row = ctx.Bind<Texture2D<float>>("t0", "Row");
        SamplerState* samplers[] = {&k.S0, &k.S1, &k.S2, &k.S3, &k.S4,
                                    &k.S5, &k.S6, &k.S7, &k.S8, &k.S9};
        for (int i = 0; i < 10; ++i)
          *samplers[i] = ctx.Bind<SamplerState>(fmt::format("s{}", i + 1), fmt::format("S{}", i));
        k.Out = ctx.Bind<RWStructuredBuffer<float>>("u11", "Out");
      }));
  ports.push_back(MakePort<ProbeSamplerEncode>(
      "probe_sampler_encode.hlsl", "main", source, [](PortContext& ctx, ProbeSamplerEncode& k) {
        k.In = ctx.Bind<StructuredBuffer<float4>>("t0", "In");
        k.Unorm8 = ctx.Bind<RWTexture2D<float4>>("u1", "Unorm8");
        k.Half = ctx.Bind<RWTexture2D<float4>>("u2", "Half");
      }));
  ports.push_back(MakePort<ProbeSamplerPrecision>(
      "probe_sampler_precision.hlsl", "main", source,
      [](PortContext& ctx, ProbeSamplerPrecision& k) {
        k.In = ctx.Bind<StructuredBuffer<float4>>("t0", "In");
        k.H = ctx.Bind<Texture2D<float4>>("t1", "H");
        k.F = ctx.Bind<Texture2D<float4>>("t2", "F");
        k.LinearClamp = ctx.Bind<SamplerState>("s3", "LinearClamp");
        k.Unorm8 = ctx.Bind<RWTexture2D<float4>>("u4", "Unorm8");
        k.Out = ctx.Bind<RWStructuredBuffer<float4>>("u5", "Out");
      }));
}

}  // namespace waveemu::oracle
