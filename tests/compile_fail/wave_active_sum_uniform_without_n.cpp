// wave_active_sum_uniform_without_n.cpp -- must not compile: a uniform argument (1u) carries no
// group size, so HLSL's WaveActiveSum(1) is WaveActiveSum<N>(1u); the first error says so (not
// "no matching function").
// expect-first: WaveActiveSum<N>(1u)
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

void F() { auto sum = WaveActiveSum(1u); (void)sum; }
