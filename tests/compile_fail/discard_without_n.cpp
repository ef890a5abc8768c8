// discard_without_n.cpp -- must not compile: discard has no argument to deduce the group size
// from, so it is spelled discard<N>().
// expect-first: write discard<N>()
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

void F() { discard(); }
