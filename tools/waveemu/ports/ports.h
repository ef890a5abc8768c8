// ports.h -- what a port file includes, and the registration functions of the example ports
// (one per file, so each compiles on its own). New example: write its Register function in a
// file here and call it from registry.cpp.
#pragma once

#include "tools/waveemu/emulator_backend.h"

#include <vector>

namespace waveemu::oracle {

void RegisterNiagaraFreeIDsPorts(std::vector<Port>& ports);  // niagara_free_ids.cpp
void RegisterWaveSpecPorts(std::vector<Port>& ports);        // wave_spec.cpp
void RegisterTexturePipelinePorts(std::vector<Port>& ports);  // texture_pipelines.cpp

}  // namespace waveemu::oracle
