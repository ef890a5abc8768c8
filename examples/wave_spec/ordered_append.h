// ordered_append.h -- port of ordered_append.hlsl: the wave-intrinsics spec's "Ordered Append".
// Each thread appends NumberOfItemsToAppend items at base + WavePrefixSum(NumberOfItemsToAppend),
// base being one InterlockedAdd of the wave's WaveActiveSum from its first lane. A wave's items
// land together, lane after lane. OrderedAppendAsWritten keeps the spec's reservation (one slot
// per lane with items) to show what goes wrong with it; README.md explains.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::examples {

template <int kThreads, bool kAsWritten = false>
struct OrderedAppendKernel {
  static constexpr int N = kThreads;
  static constexpr uint3 numthreads{kThreads, 1, 1};  // HLSL: [numthreads(64, 1, 1)]

  StructuredBuffer<uint32_t> ItemCounts;    // t0: NumberOfItemsToAppend per thread
  StructuredBuffer<uint32_t> Input;         // t1: myData per thread
  RWStructuredBuffer<uint32_t> bufferSize;  // u0: [0] = items appended so far
  RWStructuredBuffer<uint2> buffer;         // u1: per item, (myData, which of its items)
  uint32_t NumInputs = 0;                   // b0: Constants.NumInputs

  void main(SV_DispatchThreadID<N> DTid) const {
    if_(DTid.x >= NumInputs, [&] { return_(); });
    Uint<N> NumberOfItemsToAppend = ItemCounts[DTid.x];
    Uint<N> myData = Input[DTid.x];

    // ---- spec
    // HLSL: (NumberOfItemsToAppend) ? 1 : 0
    Bool<N> doesThisLaneHaveAnAppendItem = NumberOfItemsToAppend != 0u;

    // compute number of items to append for the whole wave
    // (the spec: WaveActiveCountBits( doesThisLaneHaveAnAppendItem ), fixed; see README.md)
    Uint<N> appendCount = kAsWritten ? WaveActiveCountBits(doesThisLaneHaveAnAppendItem)
                                     : WaveActiveSum(NumberOfItemsToAppend);

    // compute number of locations filled before this one
    Uint<N> laneAppendOffset = WavePrefixSum(NumberOfItemsToAppend);

    // update the output location for this whole wave
    Uint<N> appendOffset;
    // HLSL: if; a wave op's result is per-thread here (waves of a group may differ), hence if_.
    if_(WaveIsFirstLane<N>(), [&] {  // execute only once per wave
      // this way, we only issue one atomic for the entire wave, which reduces contention
      // and keeps the output data for each lane in this wave together in the output buffer

      InterlockedAdd(bufferSize[0], appendCount, appendOffset);
    });
    appendOffset = WaveReadLaneFirst(appendOffset);  // broadcast value
    appendOffset += laneAppendOffset;                // and add in the offset for this lane
    if_(doesThisLaneHaveAnAppendItem, [&] {
      Uint<N> i = 0u;
      for_([&] { return i < NumberOfItemsToAppend; }, [&] { ++i; }, [&] {
        // write to the offset location for this lane
        buffer[appendOffset + i] = Uint2<N>(myData, i);
      });
    });
    // ---- end spec
  }
};

/// The spec's example, fixed: the wave reserves WaveActiveSum(NumberOfItemsToAppend) slots.
template <int kThreads>
using OrderedAppend = OrderedAppendKernel<kThreads, false>;

/// The spec's reservation as written, WaveActiveCountBits(doesThisLaneHaveAnAppendItem): one
/// slot per lane with items, too few as soon as a lane has two.
template <int kThreads>
using OrderedAppendAsWritten = OrderedAppendKernel<kThreads, true>;

}  // namespace waveemu::examples
