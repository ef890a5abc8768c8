// wave_double.hlsl -- every arithmetic wave intrinsic on double under full and divergent masks (the body
// is wave_arith_body.hlsli; its port is tests/pipelines/ports/wave_arith.cpp).
typedef double T;
StructuredBuffer<T>   In  : register(t0);
RWStructuredBuffer<T> Out : register(u1);
#include "wave_arith_body.hlsli"
