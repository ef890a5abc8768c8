// mixed_sizes_without_conversion.cpp -- must not compile: int16_t with int is a pair whose HLSL
// result type waveemu does not guess (16-bit promotion differs between compilers); the first
// error asks for the conversion written out.
// expect-first: for other pairs write the conversion
#include "emulator/emulator.h"

using namespace waveemu;

Int<8> F(const Int16<8>& a, const Int<8>& b) { return a + b; }
