// bool_in_if.cpp -- must not compile: a per-thread comparison has no single truth value, so
// `if (x > 0u)` is rejected and the message points to if_.
// expect: does not convert to bool
#include "emulator/emulator.h"

using namespace waveemu;

int F(const Uint<8>& x) {
  if (x > 0u) return 1;
  return 0;
}
