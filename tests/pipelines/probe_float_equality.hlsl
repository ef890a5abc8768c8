// probe_float_equality.hlsl -- device-profile probe (DESIGN §3): how WaveActiveAllEqual compares
// floats (NaN payloads, +0/-0, a NaN in some lanes, which lane is the reference).
// Out[k * 64 + tid] = WaveActiveAllEqual(region k of In); regions in probe_float_equality.yaml.
// Port: tests/pipelines/ports/probes.cpp.
StructuredBuffer<uint>   In  : register(t0);
RWStructuredBuffer<uint> Out : register(u1);

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  for (uint k = 0; k < 6; ++k)
    Out[k * 64 + tid] = WaveActiveAllEqual(asfloat(In[k * 64 + tid])) ? 1u : 0u;
}
