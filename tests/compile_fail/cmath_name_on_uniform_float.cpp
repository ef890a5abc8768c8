// cmath_name_on_uniform_float.cpp -- must not compile: at global scope with `using namespace
// waveemu`, an unqualified round() on a uniform float also finds <cmath>'s ::round(float), which
// rounds ties away from zero where HLSL rounds them to even. The call is ambiguous, not silently
// the C library's; waveemu::round(x) or std::round(x) says which one is meant.
// expect-first: ambiguous
#include "emulator/emulator.h"

#include <math.h>

using namespace waveemu;

float F(float x) { return round(x); }
