// lerp_double_uniform.cpp -- must not compile: HLSL declares lerp for float_like (half, float),
// so DXC and glslang compute a double lerp in float (glslang's OpFConvert around GLSL.std.450
// FMix: docs/gpu_runs/2026-11-23-h100-run15/README.md). waveemu's uniform double lerp is deleted,
// with a comment that says how to write the float call, so that C++20's std::lerp, which
// libstdc++'s <math.h> brings to global scope, does not compute it in double in silence.
// expect: use of deleted function
// expect: waveemu::lerp(double, double, double)
// expect: ambiguous
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

#include <math.h>

using namespace waveemu;

namespace user {
double F(double a, double b, double s) { return waveemu::lerp(a, b, s); }
}  // namespace user

double G(double a, double b, double s) { return lerp(a, b, s); }
