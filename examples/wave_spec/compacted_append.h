// compacted_append.h -- port of compacted_append.hlsl: the wave-intrinsics spec's compacted
// append with WavePrefixCountBits. Each thread with an item (myData != 0) writes it to
// base + WavePrefixCountBits(...), base being one InterlockedAdd per wave from its first lane,
// broadcast with WaveReadLaneFirst. A wave's items land together, in lane order.
// CompactedAppendAsWritten keeps the spec's unguarded final store, to show what goes wrong with
// it; README.md explains.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::examples {

template <int kThreads, bool kAsWritten = false>
struct CompactedAppendKernel {
  static constexpr int N = kThreads;
  static constexpr uint3 numthreads{kThreads, 1, 1};  // HLSL: [numthreads(64, 1, 1)]

  StructuredBuffer<uint32_t> Input;         // t0: one myData per thread; 0 means "no item"
  RWStructuredBuffer<uint32_t> bufferSize;  // u0: [0] = elements appended so far
  RWStructuredBuffer<uint32_t> buffer;      // u1: the compacted stream
  uint32_t NumInputs = 0;                   // b0: Constants.NumInputs

  void main(SV_DispatchThreadID<N> DTid) const {
    if_(DTid.x >= NumInputs, [&] { return_(); });
    Uint<N> myData = Input[DTid.x];

    // ---- spec
    Bool<N> bDoesThisLaneHaveAnAppendItem = myData != 0u;
    // compute number of items to append for the whole wave
    Uint<N> laneAppendOffset = WavePrefixCountBits(bDoesThisLaneHaveAnAppendItem);
    Uint<N> appendCount = WaveActiveCountBits(bDoesThisLaneHaveAnAppendItem);
    // update the output location for this whole wave
    Uint<N> appendOffset;
    // HLSL: if; a wave op's result is per-thread here (waves of a group may differ), hence if_.
    if_(WaveIsFirstLane<N>(), [&] {
      // this way, we only issue one atomic for the entire wave, which reduces contention
      // and keeps the output data for each lane in this wave together in the output buffer
      InterlockedAdd(bufferSize[0], appendCount, appendOffset);
    });
    appendOffset = WaveReadLaneFirst(appendOffset);  // broadcast value
    appendOffset += laneAppendOffset;                // and add in the offset for this lane
    if constexpr (kAsWritten) {
      buffer[appendOffset] = myData;  // the spec: every lane stores, item or not
    } else {
      if_(bDoesThisLaneHaveAnAppendItem, [&] {
        buffer[appendOffset] = myData;  // write to the offset location for this lane
      });
    }
    // ---- end spec
  }
};

/// The spec's example, fixed: only lanes with an item store.
template <int kThreads>
using CompactedAppend = CompactedAppendKernel<kThreads, false>;

/// The spec's final store as written: lanes without an item store too, into the next item's
/// slot or past the wave's range.
template <int kThreads>
using CompactedAppendAsWritten = CompactedAppendKernel<kThreads, true>;

}  // namespace waveemu::examples
