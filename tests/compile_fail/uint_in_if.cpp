// uint_in_if.cpp -- must not compile: HLSL's `if (x)` on a per-thread uint has no single truth
// value in lockstep; the first error points to if_ and to select.
// expect-first: is a per-thread value and does not convert to bool
// expect: if_(x != 0u
#include "emulator/emulator.h"

using namespace waveemu;

int F(const Uint<8>& x) {
  if (x) return 1;
  return 0;
}
