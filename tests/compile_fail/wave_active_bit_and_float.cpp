// wave_active_bit_and_float.cpp -- must not compile: HLSL's WaveActiveBitAnd takes unsigned
// integers only, so a float argument is rejected.
// expect: WaveActiveBitAnd takes uint or uint64_t
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

Float<8> F(const Float<8>& x) { return WaveActiveBitAnd(x); }
