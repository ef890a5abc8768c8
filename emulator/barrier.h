// barrier.h -- GroupMemoryBarrierWithGroupSync and the other barriers.
// (Being written; this placeholder keeps emulator.h complete.)
#pragma once

#include "emulator/lanes.h"
