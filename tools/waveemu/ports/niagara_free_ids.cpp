// niagara_free_ids.cpp -- ports of examples/niagara_free_ids/*.hlsl for the emulator backend.
// Registers as the HLSL declares them (no explicit registers: DXC's declaration order):
// IDToIndexTable t0, RWFreeIDList u0, RWFreeIDListSizes u1, FreeIDListIndex in $Globals b0.
// THREAD_COUNT and COUNTER_PER_THREAD are the .hlsl files' defaults (64 and 8).
#include "tools/waveemu/ports/ports.h"

#include "examples/niagara_free_ids/free_ids_groupshared.h"
#include "examples/niagara_free_ids/free_ids_raking.h"
#include "examples/niagara_free_ids/free_ids_wave.h"

namespace waveemu::oracle {

namespace {

template <class K>
Port FreeIDsPort(const char* file) {
  return MakePort<K>(file, "ComputeFreeIDs", "tools/waveemu/ports/niagara_free_ids.cpp",
                     [](PortContext& ctx, K& k) {
                       k.IDToIndexTable = ctx.Bind<Buffer<int>>("t0", "IDToIndexTable");
                       k.RWFreeIDList = ctx.Bind<RWBuffer<int>>("u0", "RWFreeIDList");
                       k.RWFreeIDListSizes = ctx.Bind<RWBuffer<int>>("u1", "RWFreeIDListSizes");
                       k.FreeIDListIndex = ctx.Constant<uint32_t>("b0", "$Globals", 0);
                     });
}

}  // namespace

void RegisterNiagaraFreeIDsPorts(std::vector<Port>& ports) {
  using namespace waveemu::examples;
  ports.push_back(FreeIDsPort<ComputeFreeIDsWave<64>>("free_ids_wave.hlsl"));
  ports.push_back(FreeIDsPort<ComputeFreeIDsGroupShared<64>>("free_ids_groupshared.hlsl"));
  ports.push_back(FreeIDsPort<ComputeFreeIDsRaking<64, 8>>("free_ids_raking.hlsl"));
}

}  // namespace waveemu::oracle
