// nvidia_tables.h -- the H100's fp32 rcp, sqrt and rsqrt (DivideSqrt::kH100Tables) and its
// exp2, log2, sin and cos (MathLibrary::kH100), bit for bit, and the tanh NVIDIA's compiler builds
// on them.
//
// None of the three is correctly rounded on the H100, and no formula found reproduces them (a
// quadratic per segment of 2^7..2^10 significands, rounded once, misses by up to 0.6 ulp), so
// they are tables: run 11 (docs/gpu_runs/2026-11-23-h100-run11/) recorded every significand,
// and its records hold exactly that a result scales with the operand's exponent (rcp: all
// 2^23 significands at hashed exponents; sqrt and rsqrt: 15.7 million operands at x * 4^j) and
// that a / b is a * rcp(b) rounded once (16.7 million pairs). The tables are emulator/data/
// h100_*.z, each entry the device's bits minus a correctly rounded reference's, decoded on
// first use (2 MiB for rcp, 4 MiB each for sqrt and rsqrt).
//
// exp2, log2, sin and cos are the H100's special-function unit (MUFU.EX2, LG2, SIN, COS; what
// NVIDIA's Vulkan compiler emits for GLSL.std.450 Exp2, Log2, Sin and Cos, with sin and cos first
// multiplied by 1/2pi rounded toward zero). Run 18 (docs/gpu_runs/2026-11-23-h100-run18/) found
// how each turns its operand into a table entry, and held those rules, with tables the device
// filled, to the device over all 2^32 fp32 bit patterns: no word differs. The tables
// (emulator/data/h100_{ex2,lg2,sin}.z) are decoded on first use (the first thread to need one
// inflates it, about 0.1 s): exp2's as 2-bit differences from a reference (2 MiB), log2's and
// sin's as the device's words (64 MiB and 32 MiB).
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

// The special-function unit's results for an fp32 operand whose denormals are already flushed
// (the nvidia profile's float_denormals; they assume it); every NaN they give is 0x7fffffff,
// and results below 2^-126 are +0.
/// exp2(x): x taken to fixed point with 23 fraction bits (the magnitude truncated; a negative x
/// with a nonzero fraction takes the ones' complement, so 2^-f is read at 1 - f - 2^-23), the
/// table's 2^f times 2^i. x >= 128 gives +inf, x <= -128 +0.
float H100Exp2(float x);
/// log2(x) of x = 2^e * m, m in [1, 2): e + the table's log2(m) for e >= 0, e + 1 + its
/// log2(m / 2) for e < 0, rounded toward zero. log2(0.5) is -(1 - 2^-23). ±0 gives -inf, +inf
/// +inf, a negative x or NaN a NaN.
float H100Log2(float x);
/// sin(x) and cos(x): r = x * 0.159154937f (1/2pi) rounded toward zero, the fraction of a turn of
/// |r| truncated to 25 bits (a quadrant and 23 bits in it), the table's sin or cos of the first
/// quadrant; sin takes x's sign. ±inf and NaN give a NaN.
float H100Sin(float x);
float H100Cos(float x);
// What NVIDIA's compiler builds on them, every step flushing denormals: tan = sin(x) * rcp(cos(x))
// (the device's division), sinh = (exp(x) - exp(-x)) * 0.5 and cosh = (exp(x) + exp(-x)) * 0.5
// with exp(x) = exp2(x * 1.44269502f) (run 18), and tanh, CUDA's tanhf (run 19): on H100Exp2
// and H100Rcp from |x| >= 0.6, an odd polynomial in fused steps below.
float H100Tan(float x);
float H100Sinh(float x);
float H100Cosh(float x);
float H100Tanh(float x);

}  // namespace waveemu::detail
