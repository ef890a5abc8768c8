// ports.h -- registration functions of the test pipelines' ports, one per file; registry.cpp
// calls them all.
#pragma once

#include "tools/waveemu/emulator_backend.h"

#include <vector>

namespace waveemu::oracle {

void RegisterWaveUintPorts(std::vector<Port>& ports);   // wave_uint.cpp
void RegisterWaveArithPorts(std::vector<Port>& ports);  // wave_arith.cpp: int, float, double
void RegisterProbePorts(std::vector<Port>& ports);      // probes.cpp: device-profile probes
void RegisterSamplerProbePorts(std::vector<Port>& ports);  // probe_sampler.cpp: sampler model

}  // namespace waveemu::oracle
