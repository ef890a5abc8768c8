// ports.h -- registration functions of the test pipelines' ports, one per file.
#pragma once

#include "tools/waveemu/emulator_backend.h"

#include <vector>

namespace waveemu::oracle {}  // namespace waveemu::oracle
