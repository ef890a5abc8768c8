// average_position.h -- port of average_position.hlsl: the wave-intrinsics spec's WaveActiveSum
// example. Each wave sums its threads' positions, divides by its active lane count
// (WaveActiveCountBits(true)) and stores the average once, from its first active lane.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::examples {

template <int kThreads>
struct AveragePosition {
  static constexpr int N = kThreads;
  static constexpr uint3 numthreads{kThreads, 1, 1};  // HLSL: [numthreads(64, 1, 1)]

  StructuredBuffer<float3> Positions;      // t0
  RWStructuredBuffer<float3> WaveCenters;  // u0: one per wave
  uint32_t NumPoints = 0;                  // b0: Constants.NumPoints

  void main(SV_GroupID Gid, SV_DispatchThreadID<N> DTid, SV_GroupIndex<N> GI) const {
    if_(DTid.x >= NumPoints, [&] { return_(); });
    Float3<N> position = Positions[DTid.x];
    // Waves of this dispatch, numbered group by group: the group's waves, then lane GI's wave.
    uint32_t wavesPerGroup = (kThreads + WaveGetLaneCount() - 1) / WaveGetLaneCount();
    Uint<N> waveIndex = Gid.x * wavesPerGroup + GI / WaveGetLaneCount();
    Uint<N> count = WaveActiveCountBits<N>(true);  // number of active lanes in the wave

    // ---- spec
    Float3<N> total = WaveActiveSum(position);  // sum positions in wave
    Float3<N> center = total / count;           // compute average of these positions
    // ---- end spec

    // HLSL: if; a wave op's result is per-thread here (waves of a group may differ), hence if_.
    if_(WaveIsFirstLane<N>(), [&] { WaveCenters[waveIndex] = center; });
  }
};

}  // namespace waveemu::examples
