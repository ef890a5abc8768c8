// swizzle_repeated_write.cpp -- must not compile: HLSL rejects a write through a swizzle that
// names a component twice (v.xxy = ...), and so does waveemu, with a message that says why.
// expect: repeats a component
#include "emulator/emulator.h"

using namespace waveemu;

void F(Float3<8>& v) { v.xxy() = Float3<8>(1.0f); }
