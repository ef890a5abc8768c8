// swizzle_index_write.cpp -- must not compile: v.zyx()[0] = x would write a swizzle's copy and
// leave v unchanged, so a swizzle's components are read only (write v.z = x).
// expect: discards qualifiers
#include "emulator/emulator.h"

using namespace waveemu;

void F(Uint3<8>& v) { v.zyx()[0] = Uint<8>(9u); }
