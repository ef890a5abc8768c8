// wave_active_bit_and_float.cpp -- must not compile: HLSL's WaveActiveBitAnd takes unsigned
// integers only, so a float argument is rejected.
// requires: intrinsics/wave_reduce.h ------------------------------ WaveActiveBitAnd
// expect: WaveActiveBitAnd
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

Float<8> F(const Float<8>& x) { return WaveActiveBitAnd(x); }
