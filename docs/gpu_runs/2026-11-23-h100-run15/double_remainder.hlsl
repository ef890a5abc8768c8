// double_remainder.hlsl -- run 15, evidence only: HLSL's % on doubles, which glslang compiles
// to an fp64 OpFMod (fmod, floor, ceil, frac, trunc, round, lerp and saturate of a double are
// converted to float by glslang, and HLSL declares all but saturate for float_like only). Inputs:
// double_remainder.yaml; Out[tid] = A[tid] % B[tid].
StructuredBuffer<double>   A   : register(t0);
StructuredBuffer<double>   B   : register(t1);
RWStructuredBuffer<double> Out : register(u2);

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  Out[tid] = A[tid] % B[tid];
}
