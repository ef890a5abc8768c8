// wave_spec_host.h -- the host side of the four spec examples: bind inputs and outputs, dispatch
// enough groups to cover the input, read back. Shared by main.cpp and
// tests/examples/test_wave_spec.cpp.
#pragma once

#include "examples/wave_spec/average_position.h"
#include "examples/wave_spec/bounding_box.h"
#include "examples/wave_spec/compacted_append.h"
#include "examples/wave_spec/ordered_append.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace waveemu::examples {

/// What an append buffer holds before the dispatch; no kernel writes it, so an entry that still
/// holds it was not written.
// Named apart from niagara_free_ids' kUnwritten: two inline variables of one name in one
// namespace are one variable to the linker, and the first definition linked would win.
inline constexpr uint32_t kUnwrittenItem = 0xdeadbeefu;

/// Thread groups that cover `count` threads, kThreads per group.
template <int kThreads>
uint32_t GroupsFor(size_t count) {
  return uint32_t((count + kThreads - 1) / kThreads);
}

/// Waves of a dispatch of `groups` groups of kThreads at wave size W: the per-wave outputs.
template <int kThreads>
uint32_t WavesFor(uint32_t groups, int W) {
  return groups * uint32_t((kThreads + W - 1) / W);
}

// ------------------------------ compacted append

struct CompactedAppendResult {
  uint32_t size = 0;             // bufferSize[0] after the dispatch
  std::vector<uint32_t> buffer;  // kUnwrittenItem where nothing was written
  DispatchResult dispatch;
};

/// Appends every nonzero element of `input` (one per thread) with CompactedAppend<kThreads> (or,
/// with kAsWritten, the spec's unguarded store) into a buffer of `capacity` elements (0: as
/// long as the input).
template <int kThreads, bool kAsWritten = false>
CompactedAppendResult RunCompactedAppend(std::span<const uint32_t> input,
                                         const DispatchOptions& options, size_t capacity = 0) {
  CompactedAppendResult r;
  std::vector<uint32_t> size(1, 0u);
  r.buffer.assign(capacity ? capacity : input.size(), kUnwrittenItem);
  CompactedAppendKernel<kThreads, kAsWritten> kernel;
  kernel.Input = StructuredBuffer<uint32_t>(input);
  kernel.bufferSize = RWStructuredBuffer<uint32_t>(std::span<uint32_t>(size));
  kernel.buffer = RWStructuredBuffer<uint32_t>(std::span<uint32_t>(r.buffer));
  kernel.NumInputs = uint32_t(input.size());
  r.dispatch = Dispatch(kernel, uint3{GroupsFor<kThreads>(input.size()), 1, 1}, options);
  r.size = size[0];
  return r;
}

// ------------------------------ ordered append

struct OrderedAppendResult {
  uint32_t size = 0;          // bufferSize[0] after the dispatch
  std::vector<uint2> buffer;  // `capacity` items, (kUnwrittenItem, kUnwrittenItem) where not written
  DispatchResult dispatch;
};

/// Thread t appends counts[t] items (data[t], 0), (data[t], 1), ... with OrderedAppend<kThreads>
/// (or, with kAsWritten, the spec's reservation as written) into a buffer of `capacity` items.
template <int kThreads, bool kAsWritten = false>
OrderedAppendResult RunOrderedAppend(std::span<const uint32_t> counts,
                                     std::span<const uint32_t> data, size_t capacity,
                                     const DispatchOptions& options) {
  OrderedAppendResult r;
  std::vector<uint32_t> size(1, 0u);
  r.buffer.assign(capacity, uint2{kUnwrittenItem, kUnwrittenItem});
  OrderedAppendKernel<kThreads, kAsWritten> kernel;
  kernel.ItemCounts = StructuredBuffer<uint32_t>(counts);
  kernel.Input = StructuredBuffer<uint32_t>(data);
  kernel.bufferSize = RWStructuredBuffer<uint32_t>(std::span<uint32_t>(size));
  kernel.buffer = RWStructuredBuffer<uint2>(std::span<uint2>(r.buffer));
  kernel.NumInputs = uint32_t(counts.size());
  r.dispatch = Dispatch(kernel, uint3{GroupsFor<kThreads>(counts.size()), 1, 1}, options);
  r.size = size[0];
  return r;
}

// ------------------------------ bounding box

struct PerWaveResult {
  uint32_t groups = 0;
  int wave_size = 0;
  DispatchResult dispatch;
};

/// The box a wave with no points keeps: the empty box, min = +inf, max = -inf.
inline Box EmptyBox() {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  return Box{float3{kInf, kInf, kInf}, float3{-kInf, -kInf, -kInf}};
}

struct BoundingBoxResult : PerWaveResult {
  std::vector<Box> boxes;  // one per wave of the dispatch, EmptyBox() where no thread ran
};

/// Per-wave bounding boxes of `points` (one per thread) with BoundingBoxKernel<kThreads>.
template <int kThreads>
BoundingBoxResult RunBoundingBox(std::span<const Point> points, const DispatchOptions& options) {
  BoundingBoxResult r;
  r.groups = GroupsFor<kThreads>(points.size());
  r.wave_size = ResolveWaveSize<BoundingBoxKernel<kThreads>>(options);
  r.boxes.assign(WavesFor<kThreads>(r.groups, r.wave_size), EmptyBox());
  BoundingBoxKernel<kThreads> kernel;
  kernel.Points = StructuredBuffer<Point>(points);
  kernel.WaveBoxes = RWStructuredBuffer<Box>(std::span<Box>(r.boxes));
  kernel.NumPoints = uint32_t(points.size());
  r.dispatch = Dispatch(kernel, uint3{r.groups, 1, 1}, options);
  return r;
}

// ------------------------------ average position

/// What WaveCenters holds before the dispatch (a NaN no arithmetic produces).
inline float3 UnwrittenCenter() {
  const float nan = std::bit_cast<float>(0x7fc0beefu);
  return float3{nan, nan, nan};
}

struct AveragePositionResult : PerWaveResult {
  std::vector<float3> centers;  // one per wave; UnwrittenCenter() where no thread ran
};

/// Per-wave average positions of `positions` (one per thread) with AveragePosition<kThreads>.
template <int kThreads>
AveragePositionResult RunAveragePosition(std::span<const float3> positions,
                                         const DispatchOptions& options) {
  AveragePositionResult r;
  r.groups = GroupsFor<kThreads>(positions.size());
  r.wave_size = ResolveWaveSize<AveragePosition<kThreads>>(options);
  r.centers.assign(WavesFor<kThreads>(r.groups, r.wave_size), UnwrittenCenter());
  AveragePosition<kThreads> kernel;
  kernel.Positions = StructuredBuffer<float3>(positions);
  kernel.WaveCenters = RWStructuredBuffer<float3>(std::span<float3>(r.centers));
  kernel.NumPoints = uint32_t(positions.size());
  r.dispatch = Dispatch(kernel, uint3{r.groups, 1, 1}, options);
  return r;
}

}  // namespace waveemu::examples
