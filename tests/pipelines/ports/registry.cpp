// registry.cpp -- ports of the test pipelines' HLSL (tests/pipelines/*.hlsl), registered with
// the emulator backend. Each port lives in its own file beside this one.
#include "tests/pipelines/ports/ports.h"

namespace waveemu::oracle {

void RegisterTestPipelinePorts(std::vector<Port>& ports) {
  RegisterWaveUintPorts(ports);
  RegisterWaveArithPorts(ports);
  RegisterProbePorts(ports);
  RegisterSamplerProbePorts(ports);
}

}  // namespace waveemu::oracle
