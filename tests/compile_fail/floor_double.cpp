// floor_double.cpp -- must not compile: HLSL declares floor (and ceil, frac, round, trunc) for
// float_like (half, float), so DXC and glslang convert a double argument to float and return
// float(floor(float(x))) (glslang's OpFConvert around GLSL.std.450 Floor:
// docs/gpu_runs/2026-11-23-h100-run15/README.md). waveemu refuses rather than compute in double.
// expect: floor takes half or float
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

Double<8> F(const Double<8>& x) { return floor(x); }
