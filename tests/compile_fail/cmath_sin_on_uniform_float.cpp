// cmath_sin_on_uniform_float.cpp -- must not compile: at global scope with `using namespace
// waveemu`, an unqualified sin() on a uniform float also finds <math.h>'s ::sin(float), whose
// result differs from lavapipe's under the lavapipe profile (MathLibrary::kLlvmpipe). The call is
// ambiguous, not silently the C library's; waveemu::sin(x) or std::sin(x) says which one is meant.
// expect-first: ambiguous
#include "emulator/emulator.h"

#include <math.h>

using namespace waveemu;

float F(float x) { return sin(x); }
