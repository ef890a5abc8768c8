// bounding_box.h -- port of bounding_box.hlsl: the wave-intrinsics spec's WaveActiveMin /
// WaveActiveMax examples. Each wave folds the minimum and maximum of its threads' positions into
// its own box in WaveBoxes, stored once per wave from the first active lane.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::examples {

struct Point {
  float3 position;
};

struct Box {
  float3 min;
  float3 max;
};

/// HLSL's local `Box BoundingBox` as a per-thread value, so the spec's lines read unchanged.
template <int N>
struct BoxLanes {
  Float3<N> min;
  Float3<N> max;
};

template <int kThreads>
struct BoundingBoxKernel {
  static constexpr int N = kThreads;
  static constexpr uint3 numthreads{kThreads, 1, 1};  // HLSL: [numthreads(64, 1, 1)]

  StructuredBuffer<Point> Points;    // t0
  RWStructuredBuffer<Box> WaveBoxes;  // u0: one per wave; the host fills them with
                                      // min = +inf, max = -inf (or earlier boxes)
  uint32_t NumPoints = 0;             // b0: Constants.NumPoints

  void main(SV_GroupID Gid, SV_DispatchThreadID<N> DTid, SV_GroupIndex<N> GI) const {
    if_(DTid.x >= NumPoints, [&] { return_(); });
    // HLSL: Point myPoint = Points[DTid.x]; a struct element reads as PerThread<Point, N>.
    PerThread<Point, N> myPoint = Points[DTid.x];
    // Waves of this dispatch, numbered group by group: the group's waves, then lane GI's wave.
    uint32_t wavesPerGroup = (kThreads + WaveGetLaneCount() - 1) / WaveGetLaneCount();
    Uint<N> waveIndex = Gid.x * wavesPerGroup + GI / WaveGetLaneCount();
    // HLSL: Box BoundingBox = WaveBoxes[waveIndex];
    BoxLanes<N> BoundingBox{WaveBoxes[waveIndex].field(&Box::min),
                            WaveBoxes[waveIndex].field(&Box::max)};

    // ---- spec
    // HLSL: myPoint.position
    Float3<N> minPos = WaveActiveMin(myPoint.field(&Point::position));
    BoundingBox.min = min(minPos, BoundingBox.min);
    Float3<N> maxPos = WaveActiveMax(myPoint.field(&Point::position));
    BoundingBox.max = max(maxPos, BoundingBox.max);
    // ---- end spec

    // HLSL: if; a wave op's result is per-thread here (waves of a group may differ), hence if_.
    if_(WaveIsFirstLane<N>(), [&] {
      // HLSL: WaveBoxes[waveIndex] = BoundingBox;
      WaveBoxes[waveIndex].field(&Box::min) = BoundingBox.min;
      WaveBoxes[waveIndex].field(&Box::max) = BoundingBox.max;
    });
  }
};

}  // namespace waveemu::examples
