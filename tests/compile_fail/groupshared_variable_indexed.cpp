// groupshared_variable_indexed.cpp -- must not compile: GroupShared<uint32_t> is HLSL's
// `groupshared uint Total;`, one element, used without [ ]; the first error says so and names
// GroupShared<T, Count> for an array.
// expect-first: is one element, used without [ ]
#include "emulator/emulator.h"

using namespace waveemu;

struct Kernel {
  static constexpr uint3 numthreads{8, 1, 1};
  void main(SV_GroupIndex<8> gi) const {
    GroupShared<uint32_t> Total;
    Total[0] = gi;
  }
};
void Run() { Dispatch(Kernel{}, uint3{1, 1, 1}); }
