// wave_op_int8_argument.cpp -- must not compile: HLSL has no 8-bit scalar, so a uniform int8_t
// argument to a wave op is refused with a message that says so (it once reached the bool
// overload and failed with "takes numeric values, not bool").
// expect: wave ops take HLSL scalars, and this C++ type has none
#include "intrinsics/intrinsics.h"

#include <cstdint>

using namespace waveemu;

Int<8> F() { return WaveActiveSum<8>(int8_t{1}); }
