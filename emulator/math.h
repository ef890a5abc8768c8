// math.h -- HLSL's per-thread math intrinsics (min, max, abs, clamp, saturate, mad, asuint, ...).
// (Being written; this placeholder keeps emulator.h complete.)
#pragma once

#include "emulator/lanes.h"
