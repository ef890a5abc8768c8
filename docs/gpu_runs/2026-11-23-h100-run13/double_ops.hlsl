// double_ops.hlsl -- run 13, evidence only: fp64 division, sqrt, rcp and mad, which the emulator
// computes as IEEE operations (correctly rounded; mad fused as the profile says). Inputs and
// slots: double_ops.yaml; Out[slot * 64 + tid].
StructuredBuffer<double>   A   : register(t0);
StructuredBuffer<double>   B   : register(t1);
StructuredBuffer<double>   C   : register(t2);
RWStructuredBuffer<double> Out : register(u3);

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
  double a = A[tid], b = B[tid], c = C[tid];
  Out[0 * 64 + tid] = a / b;
  Out[1 * 64 + tid] = sqrt(abs(a));
  Out[2 * 64 + tid] = rcp(b);
  Out[3 * 64 + tid] = mad(a, b, c);
}
