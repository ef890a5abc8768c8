// registry.cpp -- the example ports, registered in one place (see emulator_backend.h for the
// registry and tests/pipelines/ports/ for the test pipelines' ports).
#include "tools/waveemu/ports/ports.h"

namespace waveemu::oracle {

void RegisterExamplePorts(std::vector<Port>& ports) {
  RegisterNiagaraFreeIDsPorts(ports);
  RegisterWaveSpecPorts(ports);
  RegisterTexturePipelinePorts(ports);
}

}  // namespace waveemu::oracle
