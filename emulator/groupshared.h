// groupshared.h -- groupshared arrays, one per thread group.
// (Being written; this placeholder keeps emulator.h complete.)
#pragma once

#include "emulator/lanes.h"
