// wave_int.hlsl -- every arithmetic wave intrinsic on int under full and divergent masks (the body
// is wave_arith_body.hlsli; its port is tests/pipelines/ports/wave_arith.cpp).
typedef int T;
StructuredBuffer<T>   In  : register(t0);
RWStructuredBuffer<T> Out : register(u1);
#include "wave_arith_body.hlsli"
