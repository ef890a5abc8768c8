// sqrt_double.cpp -- must not compile: HLSL declares sqrt for float_like (half, float), so DXC and
// glslang convert a double argument to float; both devices return float(sqrt(float(x)))
// (docs/gpu_runs/2026-11-23-h100-run13/double_ops.yaml). waveemu refuses rather than compute a
// double square root no device gives.
// expect: sqrt takes half or float
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

Double<8> F(const Double<8>& x) { return sqrt(x); }
