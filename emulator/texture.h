// texture.h -- HLSL Texture2D<T>, RWTexture2D<T>, SamplerState and SampleLevel over host memory
// (Texture2DResource: one format, a chain of mip levels).
//
// Views bind a resource like descriptors (pointer semantics, so a const kernel writes through an
// RWTexture2D). Per-thread coordinates gather/scatter for active threads only; out-of-bounds
// reads give 0 and writes are dropped (D3D), counted on the resource and on the dispatch.
// Filtering follows D3D11.3 §7.18 (semantics.md §4.1); the device-dependent parts (sub-texel
// bits, rounding, weight quantisation) are the dispatch profile's SamplerModel (docs/textures.md).
#pragma once

#include "emulator/error.h"
#include "emulator/exec.h"
#include "emulator/format.h"
#include "emulator/lanes.h"
#include "emulator/resource_element.h"
#include "emulator/resource_ref.h"
#include "emulator/vector.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace waveemu {

// ------------------------------------------------------------------------------------------------
// Which sampler model a view uses (SamplerModel lives in profile.h: it is device data).

/// What a view is created with. Without `model`, reads, SampleLevel and stores inside a dispatch
/// (uniform coordinates too) use the dispatch profile's `sampler`, and host calls outside a
/// dispatch the D3D defaults
/// (`SamplerModel{}`); with it, that model everywhere (tests, a what-if run).
struct TextureOptions {
  std::optional<SamplerModel> model{};
};

// ------------------------------------------------------------------------------------------------
// SamplerState

enum class Filter : uint8_t {
  MIN_MAG_MIP_POINT,
  MIN_MAG_LINEAR_MIP_POINT,
  MIN_MAG_MIP_LINEAR,
};

enum class TextureAddressMode : uint8_t { WRAP, MIRROR, CLAMP, BORDER, MIRROR_ONCE };

/// HLSL SamplerState: the static description of a D3D12 sampler.
struct SamplerState {
  Filter filter = Filter::MIN_MAG_MIP_LINEAR;
  TextureAddressMode address_u = TextureAddressMode::CLAMP;
  TextureAddressMode address_v = TextureAddressMode::CLAMP;
  std::array<float, 4> border_color{0, 0, 0, 0};
  float min_lod = 0.0f;
  float max_lod = 3.402823466e+38f;
};

// ------------------------------------------------------------------------------------------------
// Texture2DResource: the memory.

/// A 2-D texture: a format and mip levels 0..levels-1, level m of size max(1, w >> m) ×
/// max(1, h >> m), rows tightly packed. Texels start at zero.
class Texture2DResource {
 public:
  /// Largest side accepted (D3D12's D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION).
  static constexpr uint32_t kMaxDimension = 16384;

  /// mip_levels = 0 asks for the full chain down to 1×1.
  Texture2DResource(Format format, uint32_t width, uint32_t height, uint32_t mip_levels = 1)
      : format_(format), width_(width), height_(height) {
    if (width == 0 || height == 0 || width > kMaxDimension || height > kMaxDimension)
      throw UsageError(fmt::format("Texture2DResource: {}x{} is outside 1..{} per side", width,
                                   height, kMaxDimension));
    uint32_t full = FullChain(width, height);
    if (mip_levels == 0) mip_levels = full;
    if (mip_levels > full)
      throw UsageError(fmt::format("Texture2DResource: {}x{} has at most {} mip levels, not {}",
                                   width, height, full, mip_levels));
    levels_.resize(mip_levels);
    for (uint32_t m = 0; m < mip_levels; ++m)
      levels_[m].assign(size_t(Width(m)) * Height(m) * InfoOf(format).bytes_per_texel,
                        std::byte{0});
  }

  /// A copy holds its own texels and its own out-of-bounds counters (views of the original keep
  /// pointing at the original, like descriptors).
  Texture2DResource(const Texture2DResource& o)
      : format_(o.format_), width_(o.width_), height_(o.height_), levels_(o.levels_) {}
  Texture2DResource& operator=(const Texture2DResource& o) {
    if (this != &o) {
      format_ = o.format_;
      width_ = o.width_;
      height_ = o.height_;
      levels_ = o.levels_;
      counters_ = std::make_shared<AccessCounters>();
    }
    return *this;
  }
  Texture2DResource(Texture2DResource&&) = default;
  Texture2DResource& operator=(Texture2DResource&&) = default;

  /// 1 + floor(log2(max(w, h))): the number of levels down to 1×1.
  static uint32_t FullChain(uint32_t w, uint32_t h) {
    uint32_t n = 1;
    for (uint32_t m = std::max(w, h); m > 1; m >>= 1) ++n;
    return n;
  }

  Format format() const { return format_; }
  uint32_t mip_levels() const { return uint32_t(levels_.size()); }
  uint32_t Width(uint32_t mip = 0) const { return std::max(1u, width_ >> mip); }
  uint32_t Height(uint32_t mip = 0) const { return std::max(1u, height_ >> mip); }
  std::span<std::byte> Level(uint32_t mip) { return levels_.at(mip); }
  std::span<const std::byte> Level(uint32_t mip) const { return levels_.at(mip); }
  AccessCounters& counters() const { return *counters_; }
  uint64_t out_of_bounds_reads() const { return counters_->reads.load(); }
  uint64_t out_of_bounds_writes() const { return counters_->writes.load(); }

  /// Texel (x, y) of a mip read through `view` (the resource's format or its sRGB/UNORM twin)
  /// as floats: UNORM c/255, sRGB decoded, half widened; missing channels (0, 0, 1) as D3D.
  /// The decoding follows D3D, or the model's `unorm_decode` and `srgb_decode`.
  std::array<float, 4> ReadFloat(uint32_t mip, uint32_t x, uint32_t y, Format view,
                                 const SamplerModel& model = {}) const {
    const std::byte* p = Address(mip, x, y);
    std::array<float, 4> r{0, 0, 0, 1};
    switch (view) {
      case Format::R8G8B8A8_UNORM:
        for (int c = 0; c < 4; ++c) r[size_t(c)] = UnormToFloat(uint8_t(p[c]), model.unorm_decode);
        break;
      case Format::R8G8B8A8_UNORM_SRGB:
        for (int c = 0; c < 3; ++c) r[size_t(c)] = SrgbToFloat(uint8_t(p[c]), model.srgb_decode);
        r[3] = UnormToFloat(uint8_t(p[3]), model.unorm_decode);  // alpha is never gamma-encoded
        break;
      case Format::R16G16B16A16_FLOAT:
        for (int c = 0; c < 4; ++c) {
          uint16_t h;
          std::memcpy(&h, p + 2 * c, 2);
          r[size_t(c)] = HalfBitsToFloat(h);
        }
        break;
      case Format::R32G32B32A32_FLOAT: std::memcpy(r.data(), p, 16); break;
      case Format::R32_FLOAT: std::memcpy(r.data(), p, 4); break;
      case Format::R32_UINT: {
        uint32_t u;
        std::memcpy(&u, p, 4);
        r[0] = float(u);
        break;
      }
    }
    return r;
  }
  /// The bytes of an R8G8B8A8 texel (the codes llvmpipe's fixed-point filter works on).
  std::array<uint8_t, 4> ReadCodes(uint32_t mip, uint32_t x, uint32_t y) const {
    const std::byte* p = Address(mip, x, y);
    return {uint8_t(p[0]), uint8_t(p[1]), uint8_t(p[2]), uint8_t(p[3])};
  }
  std::array<uint32_t, 4> ReadUint(uint32_t mip, uint32_t x, uint32_t y) const {
    std::array<uint32_t, 4> r{0, 0, 0, 1};
    std::memcpy(&r[0], Address(mip, x, y), 4);
    return r;
  }

  /// Stores floats through `view`: float -> UNORM/sRGB/half by the model's rounding.
  void WriteFloat(uint32_t mip, uint32_t x, uint32_t y, const std::array<float, 4>& v, Format view,
                  const SamplerModel& model = {}) {
    std::byte* p = Address(mip, x, y);
    switch (view) {
      case Format::R8G8B8A8_UNORM:
        for (int c = 0; c < 4; ++c) p[c] = std::byte(FloatToUnorm8(v[size_t(c)], model.unorm_rounding));
        break;
      case Format::R8G8B8A8_UNORM_SRGB:
        for (int c = 0; c < 3; ++c) p[c] = std::byte(FloatToSrgb8(v[size_t(c)], model.unorm_rounding));
        p[3] = std::byte(FloatToUnorm8(v[3], model.unorm_rounding));
        break;
      case Format::R16G16B16A16_FLOAT:
        for (int c = 0; c < 4; ++c) {
          uint16_t h = FloatToHalfBits(v[size_t(c)], model.half_rounding);
          std::memcpy(p + 2 * c, &h, 2);
        }
        break;
      case Format::R32G32B32A32_FLOAT: std::memcpy(p, v.data(), 16); break;
      case Format::R32_FLOAT: std::memcpy(p, v.data(), 4); break;
      case Format::R32_UINT: {
        // A float stored to a uint texture: HLSL would have converted in the shader already.
        uint32_t u = std::isnan(v[0]) || v[0] <= 0 ? 0u : v[0] >= 4294967040.0f ? UINT32_MAX : uint32_t(v[0]);
        std::memcpy(p, &u, 4);
        break;
      }
    }
  }
  void WriteUint(uint32_t mip, uint32_t x, uint32_t y, const std::array<uint32_t, 4>& v) {
    std::memcpy(Address(mip, x, y), &v[0], 4);
  }

  bool InBounds(uint32_t mip, uint32_t x, uint32_t y) const {
    return mip < mip_levels() && x < Width(mip) && y < Height(mip);
  }

 private:
  std::byte* Address(uint32_t mip, uint32_t x, uint32_t y) {
    return levels_[mip].data() + (size_t(y) * Width(mip) + x) * InfoOf(format_).bytes_per_texel;
  }
  const std::byte* Address(uint32_t mip, uint32_t x, uint32_t y) const {
    return levels_[mip].data() + (size_t(y) * Width(mip) + x) * InfoOf(format_).bytes_per_texel;
  }

  Format format_;
  uint32_t width_, height_;
  std::vector<std::vector<std::byte>> levels_;
  std::shared_ptr<AccessCounters> counters_ = std::make_shared<AccessCounters>();
};

/// A view format must reinterpret the resource's bytes: the same format, or the UNORM/sRGB twin.
inline bool ViewCompatible(Format resource, Format view) {
  auto rgba8 = [](Format f) {
    return f == Format::R8G8B8A8_UNORM || f == Format::R8G8B8A8_UNORM_SRGB;
  };
  return resource == view || (rgba8(resource) && rgba8(view));
}

// ------------------------------------------------------------------------------------------------
// The sampler arithmetic, one thread at a time (host code and tests call it directly).

namespace texture_detail {

/// A scaled coordinate (a float times 2^bits, exact in double) rounded to an integer.
inline double ToFixed(double fx, FixedRounding rounding) {
  switch (rounding) {
    case FixedRounding::kNearestEven: return std::nearbyint(fx);
    case FixedRounding::kFloor: return std::floor(fx);
    case FixedRounding::kHalfUp: return std::floor(fx + 0.5);  // fx + 0.5 is exact here
  }
  return fx;
}

/// One axis of linear addressing: the two texel indices (before addressing) and the weight of
/// the second. D3D §7.18.8: scaled = u·size − 0.5 in float, to fixed point with `bits` fraction
/// bits, tFloor = integer part, weight = fraction.
struct LinearTaps {
  int64_t t0;
  float w1;
};

inline LinearTaps LinearAxis(float u, uint32_t size, const SamplerModel& m) {
  float scaled = u * float(size) - 0.5f;
  if (std::isnan(scaled)) scaled = 0.0f;
  // Keep the fixed-point value in range (D3D requires 2^16 texels; far outside, wrap/mirror
  // results are unspecified anyway).
  scaled = std::clamp(scaled, -16777216.0f, 16777216.0f);
  if (!m.quantise_weights) {
    float fl = std::floor(scaled);
    return {int64_t(fl), scaled - fl};
  }
  double one = std::ldexp(1.0, m.subtexel_bits);
  double fx = double(scaled) * one;  // exact: a float times a power of two
  int64_t f = int64_t(ToFixed(fx, m.coordinate_rounding));
  int64_t ones = int64_t(1) << m.subtexel_bits;
  int64_t t0 = f >= 0 ? f / ones : -((-f + ones - 1) / ones);  // floor division
  int64_t frac = f - t0 * ones;
  return {t0, float(double(frac) / one)};
}

/// The point-sampled texel index on one axis: floor of u·size, with the same fixed point.
inline int64_t PointAxis(float u, uint32_t size, const SamplerModel& m) {
  float scaled = u * float(size);
  if (std::isnan(scaled)) scaled = 0.0f;
  scaled = std::clamp(scaled, -16777216.0f, 16777216.0f);
  double one = std::ldexp(1.0, m.subtexel_bits);
  double fx = double(scaled) * one;
  return int64_t(std::floor(ToFixed(fx, m.coordinate_rounding) / one));
}

/// A texel index after the address mode, or -1 for a border texel.
inline int64_t Address(int64_t i, uint32_t size, TextureAddressMode mode) {
  int64_t n = size;
  switch (mode) {
    case TextureAddressMode::WRAP: return ((i % n) + n) % n;
    case TextureAddressMode::MIRROR: {
      int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case TextureAddressMode::CLAMP: return std::clamp<int64_t>(i, 0, n - 1);
    case TextureAddressMode::BORDER: return i < 0 || i >= n ? -1 : i;
    case TextureAddressMode::MIRROR_ONCE: return std::clamp<int64_t>(i < 0 ? -1 - i : i, 0, n - 1);
  }
  return 0;
}

/// D3D §7.18.6: CLAMP, BORDER and MIRROR_ONCE first clamp the normalised coordinate to [-10, 10].
inline float ReduceRange(float u, TextureAddressMode mode) {
  if (mode == TextureAddressMode::WRAP || mode == TextureAddressMode::MIRROR) return u;
  return std::clamp(u, -10.0f, 10.0f);
}

/// The four R8G8B8A8_UNORM codes of texel (x, y) of level `mip` after addressing; a BORDER
/// texel outside the level gives the border colour's codes (rounded to nearest even).
inline std::array<int64_t, 4> TexelCodes(const Texture2DResource& tex, uint32_t mip,
                                         const SamplerState& s, int64_t x, int64_t y) {
  const int64_t ax = Address(x, tex.Width(mip), s.address_u);
  const int64_t ay = Address(y, tex.Height(mip), s.address_v);
  std::array<int64_t, 4> r{};
  if (ax < 0 || ay < 0) {
    for (size_t c = 0; c < 4; ++c)
      r[c] = FloatToUnorm8(s.border_color[c], UnormRounding::kNearestEven);
    return r;
  }
  const auto codes = tex.ReadCodes(mip, uint32_t(ax), uint32_t(ay));
  for (size_t c = 0; c < 4; ++c) r[c] = codes[c];
  return r;
}

/// Bilinear filtering of R8G8B8A8_UNORM codes in 8-bit fixed point (UnormFilter::kFixed8, Mesa
/// llvmpipe's AoS path): weights k/256 rounded to nearest even whatever `subtexel_bits` says,
/// a + ((k·(b − a) + 128) >> 8) along U for both rows, then along V; the code decoded last.
inline std::array<float, 4> FilterFixed8(const Texture2DResource& tex, uint32_t mip,
                                         const SamplerState& s, const SamplerModel& m, float u,
                                         float v) {
  SamplerModel eight = m;
  eight.subtexel_bits = 8;
  eight.quantise_weights = true;
  eight.coordinate_rounding = FixedRounding::kNearestEven;
  const LinearTaps tu = LinearAxis(u, tex.Width(mip), eight), tv = LinearAxis(v, tex.Height(mip), eight);
  const int ku = int(tu.w1 * 256.0f), kv = int(tv.w1 * 256.0f);  // exact: k/256 with k < 256
  auto codes = [&](int64_t x, int64_t y) { return TexelCodes(tex, mip, s, x, y); };
  // C++20: >> on a negative integer is an arithmetic shift (floor division by 256).
  auto lerp = [](int64_t k, int64_t a, int64_t b) { return a + ((k * (b - a) + 128) >> 8); };
  const auto a = codes(tu.t0, tv.t0), b = codes(tu.t0 + 1, tv.t0);
  const auto c = codes(tu.t0, tv.t0 + 1), d = codes(tu.t0 + 1, tv.t0 + 1);
  std::array<float, 4> r{};
  for (size_t k = 0; k < 4; ++k) {
    const int64_t code = lerp(kv, lerp(ku, a[k], b[k]), lerp(ku, c[k], d[k]));
    r[k] = UnormToFloat(uint8_t(code), m.unorm_decode);
  }
  return r;
}

/// kExactSplitWeights' four weights (k00, k10, k01, k11) out of 2^bits from the quantised
/// weights U and V of the second texel on each axis.
inline std::array<int64_t, 4> SplitWeights(int64_t U, int64_t V, int bits) {
  const int64_t one = int64_t(1) << bits;
  const int64_t k11 = (U * V + one / 2) >> bits;
  return {one - U - V + k11, U - k11, V - k11, k11};
}

/// hi + lo (|lo| at most half an ulp of hi, as TwoSum leaves it) rounded to float, ties away from
/// zero.
inline float RoundToFloatTiesAway(double hi, double lo) {
  float f = float(hi);
  if (!std::isfinite(hi) || !std::isfinite(f)) return f;
  const double r = (hi - double(f)) + lo;  // hi − f is exact
  if (r == 0.0) return f;
  const float up = std::nextafter(f, INFINITY), down = std::nextafter(f, -INFINITY);
  const double half_up = (double(up) - double(f)) / 2, half_down = (double(f) - double(down)) / 2;
  if (r > 0 && (r > half_up || (r == half_up && f >= 0))) return up;
  if (r < 0 && (-r > half_down || (-r == half_down && f <= 0))) return down;
  return f;
}

/// Σ t_i·k_i / 2^bits, exact (each product fits a double; TwoSum keeps the error), rounded once
/// to float with ties away from zero.
inline float ExactWeightedSum(const std::array<float, 4>& t, const std::array<int64_t, 4>& k,
                              int bits) {
  double hi = 0.0, lo = 0.0;
  for (size_t i = 0; i < 4; ++i) {
    const double p = double(t[i]) * double(k[i]);
    const double s = hi + p;
    const double bp = s - hi;
    lo += (hi - (s - bp)) + (p - bp);
    hi = s;
  }
  const double s = hi + lo;  // renormalise
  lo = lo - (s - hi);
  hi = s;
  if (std::isnan(hi)) return float(hi);
  return RoundToFloatTiesAway(std::ldexp(hi, -bits), std::ldexp(lo, -bits));
}

/// HalfFilter::kHalfResult with the split weights (NVIDIA H100, probe_sampler_precision: 16384 of
/// 16384): the taps with a non-zero weight truncated toward zero to multiples of 2^(E−14), E the
/// largest one's exponent; Σ tap·k / 2^bits (exact in double: every term is a multiple of
/// 2^(E−14−bits) below 2^(E+1)) rounded to a half, ties away. nullopt for inf/NaN taps.
inline std::optional<float> HalfTapSum(const std::array<float, 4>& t,
                                       const std::array<int64_t, 4>& k, int bits) {
  int e_max = INT32_MIN;
  for (size_t i = 0; i < 4; ++i) {
    if (!std::isfinite(t[i])) return std::nullopt;
    if (k[i] != 0 && t[i] != 0.0f) e_max = std::max(e_max, std::ilogb(t[i]));
  }
  if (e_max == INT32_MIN) return 0.0f;
  const double q = std::ldexp(1.0, e_max - 14);
  double sum = 0.0;
  for (size_t i = 0; i < 4; ++i) sum += std::trunc(double(t[i]) / q) * double(k[i]);
  return RoundToHalfTiesAway(std::ldexp(sum * q, -bits));
}

/// R8G8B8A8_UNORM filtered with the split weights on the codes into a 16-bit UNORM result
/// (UnormFilter::kUnorm16Result, NVIDIA H100): ((257·Σ code·k + 128) >> 8) / 65535.
inline std::array<float, 4> FilterUnorm16(const Texture2DResource& tex, uint32_t mip,
                                          const SamplerState& s, const SamplerModel& m, float u,
                                          float v) {
  SamplerModel eight = m;
  eight.subtexel_bits = 8;
  eight.quantise_weights = true;
  const LinearTaps tu = LinearAxis(u, tex.Width(mip), eight), tv = LinearAxis(v, tex.Height(mip), eight);
  const auto k = SplitWeights(int64_t(tu.w1 * 256.0f), int64_t(tv.w1 * 256.0f), 8);
  auto codes = [&](int64_t x, int64_t y) { return TexelCodes(tex, mip, s, x, y); };
  const std::array<std::array<int64_t, 4>, 4> taps = {codes(tu.t0, tv.t0), codes(tu.t0 + 1, tv.t0),
                                                       codes(tu.t0, tv.t0 + 1),
                                                       codes(tu.t0 + 1, tv.t0 + 1)};
  std::array<float, 4> r{};
  for (size_t c = 0; c < 4; ++c) {
    int64_t sum = 0;
    for (size_t i = 0; i < 4; ++i) sum += taps[i][c] * k[i];
    const int64_t code16 = (257 * sum + 128) >> 8;
    r[c] = float(double(code16) / 65535.0);  // code16 / 65535 correctly rounded: 16-bit quotient
  }
  return r;
}

}  // namespace texture_detail

/// Refuses a model whose bit counts the arithmetic cannot take: 1 << bits and the U*V products
/// of the split weights need small counts; 24 covers every device measured (8) and a float's
/// mantissa.
inline void CheckSamplerModel(const SamplerModel& m) {
  if (m.subtexel_bits < 1 || m.subtexel_bits > 24 || m.lod_fraction_bits < 0 ||
      m.lod_fraction_bits > 24)
    throw UsageError(fmt::format("SamplerModel: subtexel_bits {} must be 1..24 and "
                                 "lod_fraction_bits {} 0..24", m.subtexel_bits,
                                 m.lod_fraction_bits));
}

namespace texture_detail {
/// SampleLevelTexel without the model check, for the per-thread loop of a group's
/// SampleLevel, which checks the model once per call.
inline std::array<float, 4> SampleLevelTexelUnchecked(const Texture2DResource& tex, Format view,
                                                      uint32_t first_mip, uint32_t mip_count,
                                                      const SamplerState& s,
                                                      const SamplerModel& m, float u, float v,
                                                      float lod) {
  u = ReduceRange(u, s.address_u);
  v = ReduceRange(v, s.address_v);
  auto fetch = [&](uint32_t mip, int64_t x, int64_t y) -> std::array<float, 4> {
    int64_t ax = Address(x, tex.Width(mip), s.address_u);
    int64_t ay = Address(y, tex.Height(mip), s.address_v);
    if (ax < 0 || ay < 0) return s.border_color;
    return tex.ReadFloat(mip, uint32_t(ax), uint32_t(ay), view, m);
  };
  bool linear = s.filter != Filter::MIN_MAG_MIP_POINT;
  auto point_axis = [&](float c, uint32_t size, TextureAddressMode mode) -> int64_t {
    if (m.mirror_point_by_coordinate &&
        (mode == TextureAddressMode::MIRROR || mode == TextureAddressMode::MIRROR_ONCE)) {
      // llvmpipe: MIRROR folds c to |2·(c/2 − round(c/2))| in [0, 1], MIRROR_ONCE to |c|; then
      // c·size truncated and clamped to the last texel.
      float folded = mode == TextureAddressMode::MIRROR
                         ? std::fabs(2.0f * (c * 0.5f - std::nearbyint(c * 0.5f)))
                         : std::fabs(c);
      if (std::isnan(folded)) folded = 0.0f;
      float scaled = std::min(folded * float(size), float(size - 1));
      return int64_t(scaled);
    }
    return PointAxis(c, size, m);
  };
  auto sample_mip = [&](uint32_t mip) -> std::array<float, 4> {
    uint32_t w = tex.Width(mip), h = tex.Height(mip);
    if (!linear) return fetch(mip, point_axis(u, w, s.address_u), point_axis(v, h, s.address_v));
    if (view == Format::R8G8B8A8_UNORM && m.unorm_filter == UnormFilter::kFixed8)
      return FilterFixed8(tex, mip, s, m, u, v);
    if (view == Format::R8G8B8A8_UNORM && m.unorm_filter == UnormFilter::kUnorm16Result)
      return FilterUnorm16(tex, mip, s, m, u, v);
    // An sRGB view's alpha is UNORM: the same 16-bit path; its colours filter as floats below.
    const bool srgb_alpha16 =
        view == Format::R8G8B8A8_UNORM_SRGB && m.unorm_filter == UnormFilter::kUnorm16Result;
    LinearTaps tu = LinearAxis(u, w, m), tv = LinearAxis(v, h, m);
    auto a = fetch(mip, tu.t0, tv.t0), b = fetch(mip, tu.t0 + 1, tv.t0);
    auto c = fetch(mip, tu.t0, tv.t0 + 1), d = fetch(mip, tu.t0 + 1, tv.t0 + 1);
    float wu1 = tu.w1, wu0 = 1.0f - wu1, wv1 = tv.w1, wv0 = 1.0f - wv1;
    std::array<float, 4> r{};
    for (size_t k = 0; k < 4; ++k) {
      switch (m.arithmetic) {
        case FilterArithmetic::kWeightedSum:
          r[k] = a[k] * (wu0 * wv0) + b[k] * (wu1 * wv0) + c[k] * (wu0 * wv1) + d[k] * (wu1 * wv1);
          break;
        case FilterArithmetic::kLerpUThenV: {
          float top = a[k] * wu0 + b[k] * wu1, bottom = c[k] * wu0 + d[k] * wu1;
          r[k] = top * wv0 + bottom * wv1;
          break;
        }
        case FilterArithmetic::kFusedLerpUThenV: {
          float top = std::fma(wu1, b[k] - a[k], a[k]), bottom = std::fma(wu1, d[k] - c[k], c[k]);
          r[k] = std::fma(wv1, bottom - top, top);
          break;
        }
        case FilterArithmetic::kExactSplitWeights: {
          // Needs quantised weights; with float ones, fall back to 24 fraction bits.
          const int bits = m.quantise_weights ? m.subtexel_bits : 24;
          const double one = std::ldexp(1.0, bits);
          const auto kw = SplitWeights(int64_t(double(wu1) * one), int64_t(double(wv1) * one), bits);
          r[k] = ExactWeightedSum({a[k], b[k], c[k], d[k]}, kw, bits);
          break;
        }
      }
    }
    if (srgb_alpha16) r[3] = FilterUnorm16(tex, mip, s, m, u, v)[3];
    if (view == Format::R16G16B16A16_FLOAT && m.half_filter == HalfFilter::kHalfResult) {
      if (m.arithmetic == FilterArithmetic::kExactSplitWeights && m.quantise_weights) {
        const int bits = m.subtexel_bits;
        const double one = std::ldexp(1.0, bits);
        const auto kw = SplitWeights(int64_t(double(wu1) * one), int64_t(double(wv1) * one), bits);
        for (size_t k = 0; k < 4; ++k)
          r[k] = HalfTapSum({a[k], b[k], c[k], d[k]}, kw, bits).value_or(RoundToHalfTiesAway(r[k]));
      } else {
        for (float& x : r) x = RoundToHalfTiesAway(x);
      }
    }
    return r;
  };
  // LOD: clamp to the sampler's range and the view's levels, then to fixed point.
  // The sampler's [MinLOD, MaxLOD] first, then the view's levels: std::clamp with the two ranges
  // merged would be undefined when they do not overlap (e.g. MaxLOD < 0).
  float max_level = float(mip_count - 1);
  if (std::isnan(lod)) lod = 0.0f;
  lod = std::min(std::max(lod, s.min_lod), s.max_lod);
  lod = std::clamp(lod, 0.0f, max_level);
  double one = std::ldexp(1.0, m.lod_fraction_bits);
  double fixed_lod = std::floor(double(lod) * one);
  if (s.filter != Filter::MIN_MAG_MIP_LINEAR) {
    uint32_t level = uint32_t(std::floor(fixed_lod / one + 0.5));  // nearest mip: +0.5, truncate
    level = std::min(level, mip_count - 1);
    return sample_mip(first_mip + level);
  }
  uint32_t l0 = uint32_t(std::floor(fixed_lod / one));
  float f = float(fixed_lod / one - double(l0));
  auto r0 = sample_mip(first_mip + l0);
  if (f == 0.0f || l0 + 1 >= mip_count) return r0;
  auto r1 = sample_mip(first_mip + l0 + 1);
  for (size_t k = 0; k < 4; ++k) r0[k] = r0[k] * (1.0f - f) + r1[k] * f;
  return r0;
}
}  // namespace texture_detail

/// SampleLevel on one thread: texel values of `view` at normalised (u, v), mip level `lod`
/// (relative to the view's most detailed mip `first_mip`, `mip_count` levels).
inline std::array<float, 4> SampleLevelTexel(const Texture2DResource& tex, Format view,
                                             uint32_t first_mip, uint32_t mip_count,
                                             const SamplerState& s, const SamplerModel& m,
                                             float u, float v, float lod) {
  CheckSamplerModel(m);
  return texture_detail::SampleLevelTexelUnchecked(tex, view, first_mip, mip_count, s, m, u, v,
                                                 lod);
}

// ------------------------------------------------------------------------------------------------
// Views

namespace texture_detail {

template <class T>
using ComponentOf = std::conditional_t<kIsLaneType<T>, T,
                                       typename VectorElementTraits<std::conditional_t<
                                           kIsLaneType<T>, float2, T>>::component_type>;

template <class T>
constexpr int ComponentsOf() {
  if constexpr (kIsLaneType<T>) return 1;
  else return kVectorComponents<T>;
}

template <class T>
constexpr void CheckTexel() {
  static_assert(kIsLaneType<T> || kIsShortVector<T>,
                "Texture2D<T>: T is a scalar or a vector of up to 4 components (float, float4, "
                "uint, uint4...)");
  using C = ComponentOf<T>;
  static_assert(std::is_same_v<C, float> || std::is_same_v<C, uint32_t>,
                "Texture2D<T>: T's components are float or uint");
}

/// The first components of a 4-channel texel as T.
template <class T, class C>
T MakeTexel(const std::array<C, 4>& a) {
  if constexpr (kIsLaneType<T>) {
    return T(a[0]);
  } else {
    T e{};
    using E = typename VectorElementTraits<T>::component_type;
    e.x = E(a[0]);
    e.y = E(a[1]);
    if constexpr (kVectorComponents<T> >= 3) e.z = E(a[2]);
    if constexpr (kVectorComponents<T> >= 4) e.w = E(a[3]);
    return e;
  }
}

template <class C, class T>
std::array<C, 4> SplitTexel(const T& e) {
  std::array<C, 4> a{0, 0, 0, 1};
  if constexpr (kIsLaneType<T>) {
    a[0] = C(e);
  } else {
    a[0] = C(e.x);
    a[1] = C(e.y);
    if constexpr (kVectorComponents<T> >= 3) a[2] = C(e.z);
    if constexpr (kVectorComponents<T> >= 4) a[3] = C(e.w);
  }
  return a;
}

/// The model a view with override `o` uses: the override, else the running group's profile (a
/// uniform-coordinate call in a kernel too), else (host code outside a dispatch) the D3D defaults.
inline const SamplerModel& ModelHere(const std::optional<SamplerModel>& o) {
  if (o) return *o;
  if (const GroupBase* g = GroupBase::Current()) return g->profile().sampler;
  static const SamplerModel kDefaults{};
  return kDefaults;
}

inline MemoryBinding CountingBinding(const Texture2DResource& tex, const char* kind) {
  return MemoryBinding{nullptr, 0, 1, 0, MemorySpace::kDevice, &tex.counters(), kind};
}

template <class T>
constexpr bool kUintTexel = std::is_same_v<ComponentOf<T>, uint32_t>;

template <class T>
void CheckFormat(Format view, const char* kind) {
  if (kUintTexel<T> != InfoOf(view).is_uint)
    throw UsageError(fmt::format("{}: a {} view of {} does not match the texel type's {} "
                                 "components (uint textures read as uint, others as float)",
                                 kind, InfoOf(view).name, InfoOf(view).name,
                                 kUintTexel<T> ? "uint" : "float"));
}

}  // namespace texture_detail

/// HLSL Texture2D<T> (SRV): mips first_mip .. first_mip + mip_count − 1 of a resource.
template <class T>
class Texture2D {
 public:
  using element_type = T;

  Texture2D() { texture_detail::CheckTexel<T>(); }
  explicit Texture2D(const Texture2DResource& tex, TextureOptions options = {})
      : Texture2D(tex, tex.format(), 0, tex.mip_levels(), options) {}
  /// A view with its own format (R8G8B8A8_UNORM_SRGB over a UNORM resource decodes sRGB) and
  /// mip range.
  Texture2D(const Texture2DResource& tex, Format view, uint32_t first_mip, uint32_t mip_count,
            TextureOptions options = {})
      : tex_(&tex), view_(view), first_mip_(first_mip), mip_count_(mip_count),
        model_(options.model) {
    texture_detail::CheckTexel<T>();
    if (!ViewCompatible(tex.format(), view))
      throw UsageError(fmt::format("Texture2D: a {} view cannot read a {} texture",
                                   InfoOf(view).name, InfoOf(tex.format()).name));
    // By subtraction: first_mip + mip_count could wrap around uint32.
    if (mip_count == 0)
      throw UsageError("Texture2D: a view reads at least one mip (mip_count is 0)");
    if (first_mip >= tex.mip_levels() || mip_count > tex.mip_levels() - first_mip)
      throw UsageError(fmt::format("Texture2D: mips {}..{} are outside the texture's {} levels, "
                                   "0..{}",
                                   first_mip, uint64_t(first_mip) + mip_count - 1,
                                   tex.mip_levels(), tex.mip_levels() - 1));
    texture_detail::CheckFormat<T>(view, "Texture2D");
  }

  /// The explicit model of TextureOptions, if any (otherwise the dispatch profile's is used).
  const std::optional<SamplerModel>& model_override() const { return model_; }

  // ------------------------------ GetDimensions
  void GetDimensions(uint32_t& width, uint32_t& height) const {
    width = tex_->Width(first_mip_);
    height = tex_->Height(first_mip_);
  }
  void GetDimensions(uint32_t mip, uint32_t& width, uint32_t& height,
                     uint32_t& number_of_levels) const {
    // Out-of-range mip: D3D leaves the sizes undefined; 0 here.
    width = mip < mip_count_ ? tex_->Width(first_mip_ + mip) : 0;
    height = mip < mip_count_ ? tex_->Height(first_mip_ + mip) : 0;
    number_of_levels = mip_count_;
  }

  // ------------------------------ Load
  /// Load(int3(x, y, mip)): out of bounds (coordinates or mip) reads 0.
  template <class I, int N>
  PerThreadOf<T, N> Load(const Vector<I, 3, N>& location) const {
    static_assert(std::is_integral_v<I>, "Texture2D::Load takes int3 or uint3 coordinates");
    return LoadEach<N>([&](int t) {
      return std::array<uint32_t, 3>{uint32_t(location.x.lane(t)), uint32_t(location.y.lane(t)),
                                     uint32_t(location.z.lane(t))};
    });
  }
  T Load(const int3& location) const {
    return LoadOne(uint32_t(location.x), uint32_t(location.y), uint32_t(location.z),
                   texture_detail::ModelHere(model_));
  }

  // ------------------------------ operator[]
  template <class I, int N>
  PerThreadOf<T, N> operator[](const Vector<I, 2, N>& pos) const {
    static_assert(std::is_integral_v<I>, "Texture2D[] takes uint2 coordinates");
    return LoadEach<N>([&](int t) {
      return std::array<uint32_t, 3>{uint32_t(pos.x.lane(t)), uint32_t(pos.y.lane(t)), 0u};
    });
  }
  T operator[](const uint2& pos) const {
    return LoadOne(pos.x, pos.y, 0, texture_detail::ModelHere(model_));
  }

  // ------------------------------ SampleLevel
  template <int N, class L>
  PerThreadOf<T, N> SampleLevel(const SamplerState& s, const Float2<N>& uv, const L& lod) const {
    static_assert(!texture_detail::kUintTexel<T>, "SampleLevel needs a float texture");
    const Lanes<float, N> lods(lod);  // HLSL converts the uint/float LOD to float
    const SamplerModel& model = texture_detail::ModelHere(model_);
    CheckSamplerModel(model);  // once per call, not per thread
    PerThreadOf<T, N> r{};
    CurrentMask<N>().ForEach([&](int t) {
      auto texel = texture_detail::SampleLevelTexelUnchecked(*tex_, view_, first_mip_, mip_count_,
                                                           s, model, uv.x.lane(t), uv.y.lane(t),
                                                           lods.lane(t));
      SetLane<T, N>(r, t, texture_detail::MakeTexel<T>(texel));
    });
    return r;
  }
  /// Uniform coordinates, one texel for the group (or host code): the model of ModelHere.
  T SampleLevel(const SamplerState& s, const float2& uv, float lod) const {
    return texture_detail::MakeTexel<T>(SampleLevelTexel(*tex_, view_, first_mip_, mip_count_, s,
                                                         texture_detail::ModelHere(model_), uv.x,
                                                         uv.y, lod));
  }

 private:
  /// `model` decodes UNORM and sRGB (its unorm_decode, srgb_decode).
  T LoadOne(uint32_t x, uint32_t y, uint32_t mip, const SamplerModel& model) const {
    if (mip >= mip_count_ || !tex_->InBounds(first_mip_ + mip, x, y)) {
      detail::RecordUniformOutOfBounds(texture_detail::CountingBinding(*tex_, "Texture2D"),
                                       AccessKind::kRead, x);
      return T{};
    }
    if constexpr (texture_detail::kUintTexel<T>)
      return texture_detail::MakeTexel<T>(tex_->ReadUint(first_mip_ + mip, x, y));
    else return texture_detail::MakeTexel<T>(tex_->ReadFloat(first_mip_ + mip, x, y, view_, model));
  }

  template <int N, class F>
  PerThreadOf<T, N> LoadEach(F coords) const {
    PerThreadOf<T, N> r{};
    uint64_t oob = 0;
    int first = -1;
    const SamplerModel& model = texture_detail::ModelHere(model_);
    CurrentMask<N>().ForEach([&](int t) {
      auto [x, y, mip] = coords(t);
      if (mip >= mip_count_ || !tex_->InBounds(first_mip_ + mip, x, y)) {
        if (oob++ == 0) first = t;
        SetLane<T, N>(r, t, T{});
        return;
      }
      SetLane<T, N>(r, t, LoadOne(x, y, mip, model));
    });
    detail::RecordOutOfBounds(texture_detail::CountingBinding(*tex_, "Texture2D"),
                              AccessKind::kRead, oob, first, 0);
    return r;
  }

  const Texture2DResource* tex_ = nullptr;
  Format view_ = Format::R32G32B32A32_FLOAT;
  uint32_t first_mip_ = 0, mip_count_ = 0;
  std::optional<SamplerModel> model_{};
};

template <class T, int N>
class TextureRef;

/// HLSL RWTexture2D<T> (UAV): one mip of a resource.
template <class T>
class RWTexture2D {
 public:
  using element_type = T;

  RWTexture2D() { texture_detail::CheckTexel<T>(); }
  /// A view of `mip` through `view` (the resource's format, or the UNORM twin of an sRGB
  /// resource, as D3D compute requires: sRGB is not a typed-UAV format. The emulator also accepts
  /// an sRGB view and encodes on store).
  explicit RWTexture2D(Texture2DResource& tex, uint32_t mip = 0, TextureOptions options = {})
      : RWTexture2D(tex, tex.format(), mip, options) {}
  RWTexture2D(Texture2DResource& tex, Format view, uint32_t mip, TextureOptions options = {})
      : tex_(&tex), view_(view), mip_(mip), model_(options.model) {
    texture_detail::CheckTexel<T>();
    if (!ViewCompatible(tex.format(), view))
      throw UsageError(fmt::format("RWTexture2D: a {} view cannot write a {} texture",
                                   InfoOf(view).name, InfoOf(tex.format()).name));
    if (mip >= tex.mip_levels())
      throw UsageError(fmt::format("RWTexture2D: mip {} is outside the texture's {} levels", mip,
                                   tex.mip_levels()));
    texture_detail::CheckFormat<T>(view, "RWTexture2D");
  }

  // ------------------------------ GetDimensions
  void GetDimensions(uint32_t& width, uint32_t& height) const {
    width = tex_->Width(mip_);
    height = tex_->Height(mip_);
  }

  // ------------------------------ operator[]
  template <class I, int N>
  TextureRef<T, N> operator[](const Vector<I, 2, N>& pos) const {
    static_assert(std::is_integral_v<I>, "RWTexture2D[] takes uint2 coordinates");
    return TextureRef<T, N>(this, Uint<N>(pos.x), Uint<N>(pos.y));
  }

  // ------------------------------ Load
  template <class I, int N>
  PerThreadOf<T, N> Load(const Vector<I, 2, N>& pos) const {
    return (*this)[pos];
  }

  /// One texel (host code, tests, or a kernel: the model of ModelHere); out of bounds
  /// reads 0.
  T Read(uint32_t x, uint32_t y) const { return Read(x, y, texture_detail::ModelHere(model_)); }
  T Read(uint32_t x, uint32_t y, const SamplerModel& model) const {
    if (!tex_->InBounds(mip_, x, y)) {
      detail::RecordOutOfBounds(texture_detail::CountingBinding(*tex_, "RWTexture2D"),
                                AccessKind::kRead, 1, 0, x);
      return T{};
    }
    if constexpr (texture_detail::kUintTexel<T>)
      return texture_detail::MakeTexel<T>(tex_->ReadUint(mip_, x, y));
    else return texture_detail::MakeTexel<T>(tex_->ReadFloat(mip_, x, y, view_, model));
  }
  /// One thread's store; out of bounds is dropped and counted. `model` rounds float -> UNORM,
  /// sRGB and half (the model of ModelHere).
  void Write(uint32_t x, uint32_t y, const T& value) const {
    Write(x, y, value, texture_detail::ModelHere(model_));
  }
  void Write(uint32_t x, uint32_t y, const T& value, const SamplerModel& model) const {
    if (!tex_->InBounds(mip_, x, y)) {
      detail::RecordOutOfBounds(texture_detail::CountingBinding(*tex_, "RWTexture2D"),
                                AccessKind::kWrite, 1, 0, x);
      return;
    }
    if constexpr (texture_detail::kUintTexel<T>)
      tex_->WriteUint(mip_, x, y, texture_detail::SplitTexel<uint32_t>(value));
    else tex_->WriteFloat(mip_, x, y, texture_detail::SplitTexel<float>(value), view_, model);
  }

  /// The explicit model of TextureOptions, if any (otherwise the dispatch profile's is used).
  const std::optional<SamplerModel>& model_override() const { return model_; }

 private:
  Texture2DResource* tex_ = nullptr;
  Format view_ = Format::R32G32B32A32_FLOAT;
  uint32_t mip_ = 0;
  std::optional<SamplerModel> model_{};
};

/// tex[pos] on an RWTexture2D: reads as the per-thread texel, assignment is a masked store
/// (threads write in ascending order, so the last active thread wins a shared texel).
template <class T, int N>
class TextureRef {
 public:
  TextureRef(const RWTexture2D<T>* tex, Uint<N> x, Uint<N> y) : tex_(tex), x_(x), y_(y) {}

  operator PerThreadOf<T, N>() const {  // NOLINT: reads like the texel
    const SamplerModel& model = texture_detail::ModelHere(tex_->model_override());
    PerThreadOf<T, N> r{};
    CurrentMask<N>().ForEach(
        [&](int t) { SetLane<T, N>(r, t, tex_->Read(x_.lane(t), y_.lane(t), model)); });
    return r;
  }
  const TextureRef& operator=(const PerThreadOf<T, N>& value) const {
    const SamplerModel& model = texture_detail::ModelHere(tex_->model_override());
    CurrentWriteMask<N>().ForEach(
        [&](int t) { tex_->Write(x_.lane(t), y_.lane(t), GetLane<T, N>(value, t), model); });
    return *this;
  }
  template <class E>
    requires(!std::is_same_v<E, PerThreadOf<T, N>> && std::is_constructible_v<PerThreadOf<T, N>, const E&>)
  const TextureRef& operator=(const E& value) const {
    return *this = PerThreadOf<T, N>(value);
  }

 private:
  const RWTexture2D<T>* tex_;
  Uint<N> x_, y_;
};

}  // namespace waveemu
