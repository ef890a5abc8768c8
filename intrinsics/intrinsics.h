// intrinsics.h -- every HLSL wave, quad and pixel intrinsic, plus the execution model.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/pixel.h"
#include "intrinsics/quad.h"
#include "intrinsics/wave_broadcast.h"
#include "intrinsics/wave_multi.h"
#include "intrinsics/wave_query.h"
#include "intrinsics/wave_reduce.h"
#include "intrinsics/wave_scan.h"
#include "intrinsics/wave_vote.h"
