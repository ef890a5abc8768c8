// wave_active_sum_uniform_without_n.cpp -- must not compile: a uniform argument (1u) carries no
// group size, so HLSL's WaveActiveSum(1) is WaveActiveSum<N>(1u); the first error (Mask<0>'s)
// says that a group size is missing (not "no matching function").
// expect-first: is missing its group size
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

void F() { auto sum = WaveActiveSum(1u); (void)sum; }
