// atomics.h -- The Interlocked* family on RW buffers and groupshared memory.
// (Being written; this placeholder keeps emulator.h complete.)
#pragma once

#include "emulator/lanes.h"
