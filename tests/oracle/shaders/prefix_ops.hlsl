// Every HLSL wave op that glslang lowers to OpGroupNonUniform{IAdd,FAdd,IMul,FMul}, as a scan
// (WavePrefixSum/Product: 4 InclusiveScans before the rewrite) or a reduction (2 Reduces that
// must stay), plus WavePrefixCountBits (a ballot op, already exclusive since glslang issue 2929).
RWStructuredBuffer<uint> Out : register(u0);
RWStructuredBuffer<float> OutF : register(u1);

[numthreads(8, 1, 1)]
void main(uint gi : SV_GroupIndex) {
  Out[gi * 4 + 0] = WavePrefixSum(gi + 1);
  Out[gi * 4 + 1] = uint(WavePrefixProduct(int(gi) - 3));
  Out[gi * 4 + 2] = WaveActiveSum(gi);
  Out[gi * 4 + 3] = WavePrefixCountBits(gi % 2 == 0);
  OutF[gi * 3 + 0] = WavePrefixSum(float(gi) * 0.5f);
  OutF[gi * 3 + 1] = WavePrefixProduct(float(gi) + 1.0f);
  OutF[gi * 3 + 2] = WaveActiveProduct(float(gi) + 1.0f);
}
