// emulator.h -- everything a kernel port needs from the execution model.
#pragma once

#include "emulator/config.h"
#include "emulator/control_flow.h"
#include "emulator/dispatch.h"
#include "emulator/error.h"
#include "emulator/exec.h"
#include "emulator/half.h"
#include "emulator/lanes.h"
#include "emulator/mask.h"
#include "emulator/profile.h"
#include "emulator/system_values.h"
#include "emulator/vector.h"
#include "emulator/waves.h"
