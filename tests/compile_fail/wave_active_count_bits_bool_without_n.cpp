// wave_active_count_bits_bool_without_n.cpp -- must not compile: HLSL's WaveActiveCountBits(true)
// counts the active lanes, but a plain bool carries no group size; the first error says that it
// is missing and names the spelling WaveActiveCountBits<N>(true).
// expect-first: is missing its group size
// expect: WaveActiveCountBits<N>(true)
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

void F() { auto count = WaveActiveCountBits(true); (void)count; }
