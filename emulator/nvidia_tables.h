// nvidia_tables.h -- the H100's fp32 rcp, sqrt and rsqrt, bit for bit (DivideSqrt::kH100Tables).
//
// None of the three is correctly rounded on the H100, and no formula found reproduces them (a
// quadratic per segment of 2^7..2^10 significands, rounded once, misses by up to 0.6 ulp), so
// they are tables: run 11 (docs/gpu_runs/2026-11-23-h100-run11/) recorded every significand,
// and its records hold exactly that a result scales with the operand's exponent (rcp: all
// 2^23 significands at hashed exponents; sqrt and rsqrt: 15.7 million operands at x * 4^j) and
// that a / b is a * rcp(b) rounded once (16.7 million pairs). The tables are emulator/data/
// h100_*.z, each entry the device's bits minus a correctly rounded reference's, decoded on
// first use (2 MiB for rcp, 4 MiB each for sqrt and rsqrt).
#pragma once

namespace waveemu::detail {

/// The H100's rcp(x) for an fp32 operand whose denormals are already flushed: ±0 gives ±inf,
/// ±inf ±0, NaN the quiet NaN 0x7fc00000 (the caller's nan_result decides what is stored); a
/// result below 2^-126 is a zero of x's sign.
float H100Rcp(float x);
/// The H100's sqrt(x) (x flushed as for H100Rcp): sqrt(±0) = ±0, sqrt(+inf) = +inf; negative x
/// and NaN give a NaN.
float H100Sqrt(float x);
/// The H100's rsqrt(x) (x flushed as for H100Rcp): rsqrt(±0) = ±inf, rsqrt(+inf) = +0; negative
/// x and NaN give a NaN.
float H100Rsqrt(float x);

}  // namespace waveemu::detail
