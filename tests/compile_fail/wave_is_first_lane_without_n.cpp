// wave_is_first_lane_without_n.cpp -- must not compile: WaveIsFirstLane has no per-thread
// argument to deduce the group size from, so it must be spelled WaveIsFirstLane<N>().
// expect: write WaveIsFirstLane<N>()
// expect-first: WaveIsFirstLane<N>()
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

void F() { auto first = WaveIsFirstLane(); (void)first; }
