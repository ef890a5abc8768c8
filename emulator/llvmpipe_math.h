// llvmpipe_math.h -- lavapipe's fp32 transcendentals, bit for bit (MathLibrary::kLlvmpipe).
//
// glslang compiles HLSL's exp2, log2, sin, cos, pow, tan, asin, acos, atan, atan2, sinh, cosh and
// tanh to GLSL.std.450 instructions (exp, log and log10 to Exp, Log and Log2 * 0.30103001f).
// Mesa 22.3 (Debian 12's lavapipe, LLVM 15) computes Exp2, Log2, Sin, Cos and Pow with gallivm's
// own polynomials (src/gallium/auxiliary/gallivm/lp_bld_arit.c: lp_build_exp2, lp_build_log2_safe,
// lp_build_sin_or_cos, lp_build_pow) and builds the others from them in NIR
// (src/compiler/spirv/vtn_glsl450.c, src/compiler/nir/nir_builtin_builder.c). What decides the
// bits, read in that source and confirmed on this machine's lavapipe
// (docs/lavapipe_transcendentals.md):
//   * gallivm's own multiply-adds (the polynomials, sin/cos's reduction) are llvm.fmuladd, which
//     LLVM fuses on an FMA host: std::fma here. Every other product and sum rounds alone (NIR's
//     ffma is lowered to fmul + fadd by llvmpipe's lower_ffma32);
//   * x86's minps/maxps (a NaN operand gives the second), truncating cvttps2dq (a NaN or an
//     out-of-range value gives INT32_MIN), unordered compares in the edge-case selects;
//   * where two NaNs meet (log2(-1) * NaN, e^NaN + e^-NaN), the one lavapipe returned is chosen
//     explicitly, not left to how the host compiler orders the operands (cosh's varies on the
//     device too: docs/lavapipe_transcendentals.md §9).
// Every other product and sum must round alone: the file needs -ffp-contract=off (CMake sets it
// for everything that links waveemu; clang's default contraction changes asin and atan).
#pragma once

#include "emulator/lanes.h"  // detail::X86Truncate

#include <bit>
#include <cmath>
#include <cstdint>

namespace waveemu::detail::llvmpipe {

inline float Bits(uint32_t u) { return std::bit_cast<float>(u); }
inline uint32_t BitsOf(float f) { return std::bit_cast<uint32_t>(f); }
inline float MinPs(float a, float b) { return a < b ? a : b; }  // a NaN gives b
inline float MaxPs(float a, float b) { return a > b ? a : b; }
inline float Sign(float x) {  // lp_build_sgn: +0 for +-0 and NaN
  return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
}
inline float Quiet(float x) { return Bits(BitsOf(x) | 0x00400000u); }  // x86's NaN result
inline constexpr uint32_t kNan = 0x7fc00000u;    // the NaN gallivm's selects produce
inline constexpr uint32_t kHalfPi = 0x3fc90fdbu;  // float(M_PI_2)

/// lp_build_polynomial: the even and the odd coefficients as two Horner chains in x^2 from the
/// highest down, each step fused, joined by one more: fma(odd, x, even).
template <int kCount>
float Polynomial(float x, const uint32_t (&c)[kCount]) {
  static_assert(kCount >= 2);
  const float x2 = x * x;
  const int top_even = (kCount - 1) & ~1, top_odd = (kCount - 2) | 1;
  float even = Bits(c[top_even]), odd = Bits(c[top_odd]);
  for (int i = top_even - 2; i >= 0; i -= 2) even = std::fma(x2, even, Bits(c[i]));
  for (int i = top_odd - 2; i >= 1; i -= 2) odd = std::fma(x2, odd, Bits(c[i]));
  return std::fma(odd, x, even);
}

/// lp_build_exp2: clamp to [-126.99999, 128], 2^floor(x) from the exponent bits times a degree-5
/// polynomial of the fraction. Below -126 the result is +0 (never a denormal).
inline float Exp2(float x) {
  static constexpr uint32_t kC[6] = {0x3f800000u, 0x3f31727bu, 0x3e75ead4u,
                                     0x3d64aa23u, 0x3c134806u, 0x3af61905u};
  x = MinPs(Bits(0x43000000u), x);  // 128
  x = MaxPs(Bits(0xc2fdffffu), x);  // -126.99999
  const float whole = std::floor(x);
  const float fraction = x - whole;
  const float two_to_whole = Bits(uint32_t(X86Truncate<int32_t>(whole) + 127) << 23);
  return two_to_whole * Polynomial(fraction, kC);
}

/// lp_build_log2_safe: exponent + y * P(y^2), y = (m - 1) / (m + 1) for the significand m in
/// [1, 2); then +inf, 0 and negative inputs (unordered: a NaN gives 0x7fc00000). A denormal is not
/// zero here: its exponent field is read as -127.
inline float Log2(float x) {
  static constexpr uint32_t kC[5] = {0x4038aa3bu, 0x3f7637f9u, 0x3f13d321u, 0x3ece8316u,
                                     0x3ed03d59u};
  const uint32_t i = BitsOf(x);
  const float exponent = float(int32_t((i & 0x7f800000u) >> 23) - 127);
  const float m = Bits((i & 0x007fffffu) | 0x3f800000u);
  const float y = (m - 1.0f) / (m + 1.0f);
  float r = std::fma(y, Polynomial(y * y, kC), exponent);
  if (!(x < INFINITY)) r = INFINITY;
  if (x == 0.0f || std::isnan(x)) r = -INFINITY;
  if (!(x >= 0.0f)) r = Bits(kNan);
  return r;
}

/// lp_build_sin_or_cos (Cephes's sinf/cosf): octant j from |x| * 4/pi truncated, a three-part
/// Cody-Waite reduction, both polynomials, clamped to [-1, 1]; inf and NaN give 0x7fc00000. Past
/// |x| * 4/pi >= 2^31 the octant is INT32_MIN: a value in [-1, 1], not the sine.
inline float SinOrCos(float a, bool cosine) {
  const uint32_t ai = BitsOf(a);
  const float ax = Bits(ai & 0x7fffffffu);
  const int32_t j = X86Truncate<int32_t>(ax * Bits(0x3fa2f983u));  // 4/pi
  const uint32_t j1 = uint32_t(j) + 1u, j2 = j1 & ~1u;
  const float octant = float(int32_t(j2));
  const uint32_t e = cosine ? j2 - 2u : j2;
  const uint32_t sign = cosine ? ((~e) & 4u) << 29 : (ai ^ (j1 << 29)) & 0x80000000u;
  float x = std::fma(octant, Bits(0xbf490000u), ax);
  x = std::fma(octant, Bits(0xb97da000u), x);
  x = std::fma(octant, Bits(0xb3222169u), x);
  const float z = x * x;
  const float c = std::fma(std::fma(z, Bits(0x37ccf5ceu), Bits(0xbab6061au)), z, Bits(0x3d2aaaa5u));
  const float cos_poly = ((c * z) * z - z * 0.5f) + 1.0f;
  const float s = std::fma(std::fma(z, Bits(0xb94ca1f9u), Bits(0x3c08839eu)), z, Bits(0xbe2aaaa3u));
  const float sin_poly = std::fma(s * z, x, x);
  float r = Bits(BitsOf((e & 2u) == 0 ? sin_poly : cos_poly) ^ sign);
  r = MaxPs(MinPs(r, 1.0f), -1.0f);
  return (ai & 0x7f800000u) == 0x7f800000u ? Bits(kNan) : r;
}
inline float Sin(float x) { return SinOrCos(x, false); }
inline float Cos(float x) { return SinOrCos(x, true); }

/// lp_build_pow: exp2(log2(x) * y), then +0 where x == 0 or x is NaN (an unordered compare).
inline float Pow(float x, float y) {
  if (x == 0.0f || std::isnan(x)) return 0.0f;
  const float log = Log2(x);
  return Exp2(std::isnan(log) ? log : log * y);  // log2's NaN wins over y's
}

/// nir_fexp, nir_flog (vtn_glsl450's Exp and Log): through exp2 and log2 with M_LOG2E.
inline float Exp(float x) { return Exp2(x * Bits(0x3fb8aa3bu)); }
inline float Tan(float x) { return Sin(x) / Cos(x); }  // nir_ftan
// e^x - e^-x: of two NaNs the first, e^x's (x quieted). e^x + e^-x is commutative, so which NaN
// the JIT returns depends on the shader around it: e^-x's (x's sign flipped) in
// probe_transcendentals, which is what waveemu gives, e^x's in a larger shader.
inline float Sinh(float x) { return std::isnan(x) ? Quiet(x) : (Exp(x) - Exp(-x)) * 0.5f; }
inline float Cosh(float x) { return std::isnan(x) ? Quiet(-x) : (Exp(x) + Exp(-x)) * 0.5f; }

/// vtn_glsl450's Tanh: (e^c - e^-c) / (e^c + e^-c) with c = clamp(x, -10, 10); +-0 and NaN
/// give x itself (NIR folds its x * 1: a signalling NaN stays signalling).
inline float Tanh(float x) {
  if (!(0.0f < std::fabs(x))) return x;
  const float c = MinPs(MaxPs(x, -10.0f), 10.0f);
  const float up = Exp(c), down = Exp(-c);
  return (up - down) / (up + down);
}

/// vtn_glsl450's build_asin: sign(x) * (pi/2 - sqrt(1 - |x|) * P(|x|)), and for asin below
/// |x| = 0.5 the series x + x * p(x^2) / q(x^2). Every product and sum rounds alone. A NaN gives
/// |x| quieted (the tail's NaN, not the negated root's).
inline float BuildAsin(float x, float p0, float p1, bool piecewise) {
  const float ax = std::fabs(x);
  if (std::isnan(x)) return Quiet(ax);
  const float tail =
      ax * (ax * (ax * p1 + p0) + Bits(0xbe5bc094u)) + Bits(kHalfPi);  // pi/4 - 1, pi/2
  // NIR's -sqrt(1 - |x|) * tail + pi/2, which LLVM turns into pi/2 - sqrt(1 - |x|) * tail: the
  // same value, and for |x| > 1 the root's NaN 0xffc00000 keeps its sign.
  const float far = Sign(x) * (Bits(kHalfPi) - std::sqrt(1.0f - ax) * tail);
  if (!piecewise || !(ax < 0.5f)) return far;
  const float x2 = x * x;
  const float p = x2 * (x2 * (x2 * Bits(0xbc0dd36bu) + Bits(0xbd2f13bau)) + Bits(0x3e2aaa75u));
  const float q = x2 * Bits(0xbf34e5aeu) + 1.0f;
  return x * (p / q) + x;
}
inline float Asin(float x) { return BuildAsin(x, 0.086566724f, -0.03102955f, true); }
inline float Acos(float x) {
  return std::isnan(x) ? Quiet(std::fabs(x))
                       : Bits(kHalfPi) - BuildAsin(x, 0.08132463f, -0.02363318f, false);
}

/// nir_atan: an odd degree-11 polynomial of min(|x|, 1) / max(|x|, 1), summed left to right
/// (nir_opt_algebraic turns the last term x^11 * c into (x^9 * c) * x^2), pi/2 - 2t + t above 1,
/// times sign(x): atan(NaN) and atan(-0) are +0.
inline float Atan(float x) {
  const float ax = std::fabs(x);
  const float r = MinPs(ax, 1.0f) / MaxPs(ax, 1.0f);
  const float r2 = r * r, r3 = r2 * r, r5 = r3 * r2, r7 = r5 * r2, r9 = r7 * r2;
  float t = r * Bits(0x3f7ffea5u);
  t = t + r3 * Bits(0xbeaa5476u);
  t = t + r5 * Bits(0x3e468bc1u);
  t = t + r7 * Bits(0xbdf0555du);
  t = t + r9 * Bits(0x3d5be101u);
  t = t + (r9 * Bits(0xbc46c6a5u)) * r2;
  t = (1.0f < ax ? 1.0f : 0.0f) * (t * -2.0f + Bits(kHalfPi)) + t;
  return t * Sign(x);
}

/// nir_atan2: rotate the left half-plane by pi/2, atan(|s / t|) (1 where |x| == |y|, so
/// atan2(0, 0) is pi/2 + atan(1), about 3pi/4), the sign from min(y, 1 / t) < 0.
inline float Atan2(float y, float x) {
  const bool flip = 0.0f >= x;
  const float s = flip ? std::fabs(x) : y, t = flip ? y : std::fabs(x);
  const float scale = std::fabs(t) >= 1e18f ? 0.25f : 1.0f;
  const float rcp = 1.0f / (t * scale);
  const float ratio = (s * scale) * rcp;
  const float tangent = std::fabs(x) == std::fabs(y) ? 1.0f : std::fabs(ratio);
  const float arc = (flip ? 1.0f : 0.0f) * Bits(kHalfPi) + Atan(tangent);
  // fmin of two unknown operands: a NaN one gives the other.
  const float least = std::isnan(y) ? rcp : std::isnan(rcp) ? y : MinPs(y, rcp);
  return least < 0.0f ? -arc : arc;
}

}  // namespace waveemu::detail::llvmpipe
