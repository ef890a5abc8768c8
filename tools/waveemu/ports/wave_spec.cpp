// wave_spec.cpp -- ports of examples/wave_spec/*.hlsl for the emulator backend, bound at the
// registers the HLSL declares. Structured buffers of float3 use glslang's std430 layout: each
// float3 starts on a 16-byte boundary, so Point records are 16 bytes and Box records 32 (min at
// 0, max at 16), while the host structs pack them (12 and 24 bytes).
#include "tools/waveemu/ports/ports.h"

#include "examples/wave_spec/average_position.h"
#include "examples/wave_spec/bounding_box.h"
#include "examples/wave_spec/compacted_append.h"
#include "examples/wave_spec/ordered_append.h"

namespace waveemu::oracle {

void RegisterWaveSpecPorts(std::vector<Port>& ports) {
  using namespace waveemu::examples;
  constexpr const char* kSource = "tools/waveemu/ports/wave_spec.cpp";
  ports.push_back(MakePort<CompactedAppend<64>>(
      "compacted_append.hlsl", "main", kSource, [](PortContext& ctx, CompactedAppend<64>& k) {
        k.Input = ctx.Bind<StructuredBuffer<uint32_t>>("t0", "Input");
        k.bufferSize = ctx.Bind<RWStructuredBuffer<uint32_t>>("u0", "bufferSize");
        k.buffer = ctx.Bind<RWStructuredBuffer<uint32_t>>("u1", "buffer");
        k.NumInputs = ctx.Constant<uint32_t>("b0", "Constants", 0);
      }));
  ports.push_back(MakePort<OrderedAppendKernel<64>>(
      "ordered_append.hlsl", "main", kSource, [](PortContext& ctx, OrderedAppendKernel<64>& k) {
        k.ItemCounts = ctx.Bind<StructuredBuffer<uint32_t>>("t0", "ItemCounts");
        k.Input = ctx.Bind<StructuredBuffer<uint32_t>>("t1", "Input");
        k.bufferSize = ctx.Bind<RWStructuredBuffer<uint32_t>>("u0", "bufferSize");
        k.buffer = ctx.Bind<RWStructuredBuffer<uint2>>("u1", "buffer");
        k.NumInputs = ctx.Constant<uint32_t>("b0", "Constants", 0);
      }));
  ports.push_back(MakePort<BoundingBoxKernel<64>>(
      "bounding_box.hlsl", "main", kSource, [](PortContext& ctx, BoundingBoxKernel<64>& k) {
        k.Points = ctx.Bind<StructuredBuffer<Point>>("t0", "Points", {{0, 0, 12}});
        k.WaveBoxes = ctx.Bind<RWStructuredBuffer<Box>>("u0", "WaveBoxes",
                                                        {{0, 0, 12}, {12, 16, 12}});
        k.NumPoints = ctx.Constant<uint32_t>("b0", "Constants", 0);
      }));
  ports.push_back(MakePort<AveragePosition<64>>(
      "average_position.hlsl", "main", kSource, [](PortContext& ctx, AveragePosition<64>& k) {
        k.Positions = ctx.Bind<StructuredBuffer<float3>>("t0", "Positions", {{0, 0, 12}});
        k.WaveCenters = ctx.Bind<RWStructuredBuffer<float3>>("u0", "WaveCenters", {{0, 0, 12}});
        k.NumPoints = ctx.Constant<uint32_t>("b0", "Constants", 0);
      }));
}

}  // namespace waveemu::oracle
