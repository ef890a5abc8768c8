// long_vector_swizzle.cpp -- must not compile: HLSL gives long vectors (SM 6.9, more than 4
// components) no swizzles, and neither does waveemu; the message names v[i] and slice instead.
// expect: long vectors (more than 4 components) have no swizzles
#include "emulator/emulator.h"

using namespace waveemu;

Float2<8> F(const Vector<float, 8, 8>& v) { return v.xy(); }
