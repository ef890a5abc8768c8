// format.h -- texel formats and their conversions, as D3D defines them (semantics.md §4.2):
// UNORM8 -> float c/255 exact, float -> UNORM8 NaN->0, clamp, scale, round (+0.5 and truncate by
// default, a parameter), sRGB decode/encode with the exact piecewise curve, float -> half.
// The parameters that differ between devices live in SamplerModel (texture.h), not here.
#pragma once

#include "emulator/half.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace waveemu {

/// The DXGI formats a texture may hold. R8G8B8A8_UNORM_SRGB decodes to linear on every read
/// (before filtering) and encodes on every write.
enum class Format : uint8_t {
  R8G8B8A8_UNORM,
  R8G8B8A8_UNORM_SRGB,
  R16G16B16A16_FLOAT,
  R32G32B32A32_FLOAT,
  R32_FLOAT,
  R32_UINT,
};

/// How float -> UNORM rounds after scaling: D3D's "+0.5, truncate" (round half up, the default)
/// or round-to-nearest-even (what Vulkan's "should round to nearest" allows).
/// kHalfDown: ties go down. kFixed12HalfDown (NVIDIA H100, probe_sampler_precision): x is first
/// truncated to 12 fraction bits, q = floor(x·4096), then q·255/4096 rounds with ties down, so
/// 0.5 + 2^-17 (127.502 after scaling) stores 127; sRGB stores round their curve value half down.
enum class UnormRounding : uint8_t { kHalfUp, kNearestEven, kHalfDown, kFixed12HalfDown };
/// How float -> half (R16G16B16A16_FLOAT stores) rounds: D3D's format rule is toward zero;
/// most GPUs round to nearest even.
enum class HalfRounding : uint8_t { kTowardZero, kNearestEven };
/// How a UNORM8 code becomes a float on reads: D3D's c / 255 correctly rounded, or the code times
/// the float nearest 1/255 (one multiply, off by an ulp for about half the codes; Mesa llvmpipe).
enum class UnormDecode : uint8_t { kExact, kTimesReciprocal };
/// How an sRGB8 code becomes linear on reads: the exact curve rounded once, or Mesa llvmpipe's
/// approximation (code · fl(1/(12.6·255)) up to code 15, else the cubic 0.0023 + 0.0030·x +
/// 0.6935·x² + 0.3012·x³ in x = code/255 with fused multiply-adds; within 2.5% of the curve).
/// kNvidiaTable: the 256 values an NVIDIA H100 returned (8 significant bits each, within 0.6% of
/// the curve; docs/textures.md).
enum class SrgbDecode : uint8_t { kExact, kLlvmpipePolynomial, kNvidiaTable };

struct FormatInfo {
  const char* name;
  uint32_t bytes_per_texel;
  int channels;
  bool is_uint;  // read as uint (Texture2D<uint>), else as float
};

inline constexpr FormatInfo InfoOf(Format f) {
  switch (f) {
    case Format::R8G8B8A8_UNORM: return {"R8G8B8A8_UNORM", 4, 4, false};
    case Format::R8G8B8A8_UNORM_SRGB: return {"R8G8B8A8_UNORM_SRGB", 4, 4, false};
    case Format::R16G16B16A16_FLOAT: return {"R16G16B16A16_FLOAT", 8, 4, false};
    case Format::R32G32B32A32_FLOAT: return {"R32G32B32A32_FLOAT", 16, 4, false};
    case Format::R32_FLOAT: return {"R32_FLOAT", 4, 1, false};
    case Format::R32_UINT: return {"R32_UINT", 4, 1, true};
  }
  return {"?", 4, 1, false};
}

// ------------------------------ UNORM8

/// UNORM -> float: c / 255, correctly rounded (D3D: integer <-> float conversions are exact to
/// full float precision), or c times fl(1/255).
inline float UnormToFloat(uint8_t c, UnormDecode decode = UnormDecode::kExact) {
  if (decode == UnormDecode::kTimesReciprocal) return float(c) * (1.0f / 255.0f);
  return float(c) / 255.0f;
}

/// float -> UNORM8: NaN -> 0, clamp to [0, 1], scale by 255 in float (a GPU's float pipeline;
/// the product may land exactly on k + 0.5, where the rounding rule decides), round.
inline uint8_t FloatToUnorm8(float f, UnormRounding rounding = UnormRounding::kHalfUp) {
  if (std::isnan(f)) return 0;
  float c = f <= 0.0f ? 0.0f : f >= 1.0f ? 1.0f : f;
  if (rounding == UnormRounding::kFixed12HalfDown) {
    const uint32_t q = uint32_t(c * 4096.0f);  // exact product; truncation is the rule
    return uint8_t((q * 255u + 2047u) >> 12);   // ceil(q·255/4096 − 1/2)
  }
  double scaled = double(c * 255.0f);
  double r = rounding == UnormRounding::kHalfUp      ? std::floor(scaled + 0.5)
             : rounding == UnormRounding::kHalfDown ? std::ceil(scaled - 0.5)
                                                    : std::nearbyint(scaled);
  return uint8_t(r);
}

// ------------------------------ sRGB

/// The exact sRGB -> linear curve on a value in [0, 1] (IEC 61966-2-1), in double.
inline double SrgbToLinearExact(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
/// The exact linear -> sRGB curve on a value in [0, 1], in double.
inline double LinearToSrgbExact(double l) {
  return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

/// sRGB UNORM8 -> linear float: the exact curve rounded once to float (D3D allows 0.5 ULP on the
/// sRGB side; 0 and 255 give exactly 0 and 1).
inline float SrgbToFloat(uint8_t c) {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) t[size_t(i)] = float(SrgbToLinearExact(double(i) / 255.0));
    return t;
  }();
  return table[c];
}

/// sRGB UNORM8 -> linear float as Mesa llvmpipe computes it (lp_build_srgb_to_linear in Mesa
/// 22.3: the 1/255 is folded into the constants; the polynomial's even and odd halves are
/// evaluated with fused multiply-adds). Measured bit for bit on lavapipe (docs/textures.md).
inline float SrgbToFloatLlvmpipe(uint8_t c) {
  const float x = float(c);
  if (c <= 15) return x * (1.0f / (12.6f * 255.0f));
  const float c0 = 0.0023f, c1 = 0.0030f / 255.0f, c2 = 0.6935f / (255.0f * 255.0f),
              c3 = 0.3012f / (255.0f * 255.0f * 255.0f);
  const float x2 = x * x;
  const float odd = std::fma(x2, c3, c1), even = std::fma(x2, c2, c0);
  return std::fma(odd, x, even);
}

/// sRGB UNORM8 -> linear float as an NVIDIA H100 (driver 580) returns it from Load, recorded by
/// tests/pipelines/probe_sampler_formats.yaml (docs/gpu_runs/2026-11-21-h100-run3/).
inline float SrgbToFloatNvidia(uint8_t c) {
  static constexpr float kTable[256] = {
    0.0f, 0x1.4p-12f, 0x1.4p-11f, 0x1.ep-11f, 0x1.4p-10f, 0x1.9p-10f, 0x1.ep-10f, 0x1.18p-9f,
    0x1.4p-9f, 0x1.68p-9f, 0x1.9p-9f, 0x1.b8p-9f, 0x1.ep-9f, 0x1.08p-8f, 0x1.2p-8f, 0x1.38p-8f,
    0x1.54p-8f, 0x1.7p-8f, 0x1.8cp-8f, 0x1.acp-8f, 0x1.ccp-8f, 0x1.ecp-8f, 0x1.06p-7f, 0x1.18p-7f,
    0x1.2cp-7f, 0x1.3ep-7f, 0x1.52p-7f, 0x1.68p-7f, 0x1.7cp-7f, 0x1.92p-7f, 0x1.aap-7f, 0x1.cp-7f,
    0x1.d8p-7f, 0x1.f4p-7f, 0x1.06p-6f, 0x1.14p-6f, 0x1.22p-6f, 0x1.3p-6f, 0x1.3ep-6f, 0x1.4cp-6f,
    0x1.5cp-6f, 0x1.6cp-6f, 0x1.7cp-6f, 0x1.8cp-6f, 0x1.9cp-6f, 0x1.aep-6f, 0x1.cp-6f, 0x1.d2p-6f,
    0x1.e4p-6f, 0x1.f8p-6f, 0x1.06p-5f, 0x1.1p-5f, 0x1.1ap-5f, 0x1.24p-5f, 0x1.2ep-5f, 0x1.38p-5f,
    0x1.44p-5f, 0x1.5p-5f, 0x1.5ap-5f, 0x1.66p-5f, 0x1.72p-5f, 0x1.7ep-5f, 0x1.8ap-5f, 0x1.98p-5f,
    0x1.a4p-5f, 0x1.bp-5f, 0x1.cp-5f, 0x1.ccp-5f, 0x1.d8p-5f, 0x1.e8p-5f, 0x1.f4p-5f, 0x1.02p-4f,
    0x1.0ap-4f, 0x1.1p-4f, 0x1.18p-4f, 0x1.2p-4f, 0x1.28p-4f, 0x1.3p-4f, 0x1.38p-4f, 0x1.4p-4f,
    0x1.48p-4f, 0x1.52p-4f, 0x1.5ap-4f, 0x1.62p-4f, 0x1.6cp-4f, 0x1.74p-4f, 0x1.7ep-4f, 0x1.86p-4f,
    0x1.9p-4f, 0x1.9ap-4f, 0x1.a2p-4f, 0x1.acp-4f, 0x1.b6p-4f, 0x1.cp-4f, 0x1.cap-4f, 0x1.d4p-4f,
    0x1.ep-4f, 0x1.e8p-4f, 0x1.f4p-4f, 0x1.0p-3f, 0x1.04p-3f, 0x1.0ap-3f, 0x1.1p-3f, 0x1.16p-3f,
    0x1.1cp-3f, 0x1.22p-3f, 0x1.28p-3f, 0x1.2ep-3f, 0x1.34p-3f, 0x1.3ap-3f, 0x1.4p-3f, 0x1.46p-3f,
    0x1.4cp-3f, 0x1.52p-3f, 0x1.58p-3f, 0x1.6p-3f, 0x1.66p-3f, 0x1.6cp-3f, 0x1.74p-3f, 0x1.7ap-3f,
    0x1.8p-3f, 0x1.88p-3f, 0x1.8ep-3f, 0x1.96p-3f, 0x1.9cp-3f, 0x1.a4p-3f, 0x1.acp-3f, 0x1.b2p-3f,
    0x1.bap-3f, 0x1.c2p-3f, 0x1.cap-3f, 0x1.dp-3f, 0x1.d8p-3f, 0x1.ep-3f, 0x1.e8p-3f, 0x1.fp-3f,
    0x1.f8p-3f, 0x1.0p-2f, 0x1.04p-2f, 0x1.08p-2f, 0x1.0cp-2f, 0x1.1p-2f, 0x1.14p-2f, 0x1.1ap-2f,
    0x1.1ep-2f, 0x1.22p-2f, 0x1.26p-2f, 0x1.2ap-2f, 0x1.3p-2f, 0x1.34p-2f, 0x1.38p-2f, 0x1.3cp-2f,
    0x1.42p-2f, 0x1.46p-2f, 0x1.4ap-2f, 0x1.5p-2f, 0x1.54p-2f, 0x1.5ap-2f, 0x1.5ep-2f, 0x1.64p-2f,
    0x1.68p-2f, 0x1.6cp-2f, 0x1.72p-2f, 0x1.78p-2f, 0x1.7cp-2f, 0x1.82p-2f, 0x1.86p-2f, 0x1.8cp-2f,
    0x1.9p-2f, 0x1.96p-2f, 0x1.9cp-2f, 0x1.a2p-2f, 0x1.a6p-2f, 0x1.acp-2f, 0x1.b2p-2f, 0x1.b6p-2f,
    0x1.bcp-2f, 0x1.c2p-2f, 0x1.c8p-2f, 0x1.cep-2f, 0x1.d4p-2f, 0x1.dap-2f, 0x1.ep-2f, 0x1.e4p-2f,
    0x1.ecp-2f, 0x1.fp-2f, 0x1.f8p-2f, 0x1.fcp-2f, 0x1.02p-1f, 0x1.04p-1f, 0x1.08p-1f, 0x1.0ap-1f,
    0x1.0ep-1f, 0x1.12p-1f, 0x1.14p-1f, 0x1.18p-1f, 0x1.1ap-1f, 0x1.1ep-1f, 0x1.22p-1f, 0x1.24p-1f,
    0x1.28p-1f, 0x1.2cp-1f, 0x1.2ep-1f, 0x1.32p-1f, 0x1.36p-1f, 0x1.38p-1f, 0x1.3cp-1f, 0x1.4p-1f,
    0x1.42p-1f, 0x1.46p-1f, 0x1.4ap-1f, 0x1.4ep-1f, 0x1.52p-1f, 0x1.54p-1f, 0x1.58p-1f, 0x1.5cp-1f,
    0x1.6p-1f, 0x1.64p-1f, 0x1.66p-1f, 0x1.6ap-1f, 0x1.6ep-1f, 0x1.72p-1f, 0x1.76p-1f, 0x1.7ap-1f,
    0x1.7ep-1f, 0x1.82p-1f, 0x1.86p-1f, 0x1.8ap-1f, 0x1.8ep-1f, 0x1.92p-1f, 0x1.96p-1f, 0x1.9ap-1f,
    0x1.9ep-1f, 0x1.a2p-1f, 0x1.a6p-1f, 0x1.aap-1f, 0x1.aep-1f, 0x1.b2p-1f, 0x1.b6p-1f, 0x1.bap-1f,
    0x1.bep-1f, 0x1.c2p-1f, 0x1.c6p-1f, 0x1.cap-1f, 0x1.dp-1f, 0x1.d4p-1f, 0x1.d8p-1f, 0x1.dcp-1f,
    0x1.ep-1f, 0x1.e4p-1f, 0x1.e8p-1f, 0x1.ecp-1f, 0x1.f4p-1f, 0x1.f8p-1f, 0x1.fcp-1f, 0x1.0p+0f,
  };
  return kTable[c];
}

inline float SrgbToFloat(uint8_t c, SrgbDecode decode) {
  switch (decode) {
    case SrgbDecode::kLlvmpipePolynomial: return SrgbToFloatLlvmpipe(c);
    case SrgbDecode::kNvidiaTable: return SrgbToFloatNvidia(c);
    case SrgbDecode::kExact: break;
  }
  return SrgbToFloat(c);
}

/// linear float -> sRGB UNORM8: NaN -> 0, clamp, the exact curve, scale, round.
inline uint8_t FloatToSrgb8(float f, UnormRounding rounding = UnormRounding::kHalfUp) {
  if (std::isnan(f)) return 0;
  double l = f <= 0.0f ? 0.0 : f >= 1.0f ? 1.0 : double(f);
  double scaled = LinearToSrgbExact(l) * 255.0;
  const bool down = rounding == UnormRounding::kHalfDown ||
                    rounding == UnormRounding::kFixed12HalfDown;  // not measured apart for sRGB
  double r = rounding == UnormRounding::kHalfUp ? std::floor(scaled + 0.5)
             : down                             ? std::ceil(scaled - 0.5)
                                                : std::nearbyint(scaled);
  return uint8_t(r < 0 ? 0 : r > 255 ? 255 : r);
}

// ------------------------------ half

/// float -> binary16 bits with the chosen rounding. Toward zero: overflow gives the largest
/// finite half (D3D §3.2.2), NaN stays NaN, denormals kept where representable.
inline uint16_t FloatToHalfBits(float f, HalfRounding rounding) {
  if (rounding == HalfRounding::kNearestEven) {
    return half(f).bits();
  }
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  uint16_t sign = uint16_t((u >> 16) & 0x8000u);
  uint32_t exp = (u >> 23) & 0xFFu;
  uint32_t man = u & 0x7FFFFFu;
  if (exp == 0xFF) return uint16_t(sign | 0x7C00u | (man ? 0x200u | (man >> 13) : 0u));
  int e = int(exp) - 127 + 15;
  if (e >= 31) return uint16_t(sign | 0x7BFFu);  // max finite
  if (e <= 0) {
    if (e < -10) return sign;
    uint32_t full = man | 0x800000u;  // with the implicit bit
    return uint16_t(sign | (full >> (14 - e)));
  }
  return uint16_t(sign | uint32_t(e) << 10 | (man >> 13));
}

inline float HalfBitsToFloat(uint16_t bits) {
  half h = half::FromBits(bits);
  return float(h);
}

/// f rounded to the nearest half value (subnormals included), ties away from zero, as a float:
/// what the NVIDIA H100 returns from filtering an R16G16B16A16_FLOAT texture (HalfFilter).
/// Beyond the largest half the result is ±infinity (not measured).
inline float RoundToHalfTiesAway(double f) {
  if (!std::isfinite(f) || f == 0.0) return float(f);
  const int e = std::max(std::ilogb(f), -14);
  const double q = std::ldexp(1.0, e - 10);  // the half ulp at f's binade
  const double r = std::round(f / q) * q;    // std::round: ties away from zero; exact
  return std::fabs(r) > 65504.0 ? float(std::copysign(INFINITY, f)) : float(r);
}

}  // namespace waveemu
