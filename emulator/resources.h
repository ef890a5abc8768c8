// resources.h -- StructuredBuffer, RWStructuredBuffer, Buffer, RWBuffer, ByteAddressBuffer, RWByteAddressBuffer: masked gathers and scatters over host memory, out-of-bounds reads give 0 and writes are dropped (counted).
// (Being written; this placeholder keeps emulator.h complete.)
#pragma once

#include "emulator/lanes.h"
