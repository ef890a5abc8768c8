// wave_float.hlsl -- every arithmetic wave intrinsic on float under full and divergent masks (the body
// is wave_arith_body.hlsli; its port is tests/pipelines/ports/wave_arith.cpp).
typedef float T;
StructuredBuffer<T>   In  : register(t0);
RWStructuredBuffer<T> Out : register(u1);
#include "wave_arith_body.hlsli"
