// generate_mips_host.h -- MiniEngine's ColorBuffer::GenerateMipMaps as host code: walks the chain,
// and per dispatch picks the NON_POWER_OF_TWO case from the source size and how many levels (1-4)
// it can write while every step stays an exact 2:1, then dispatches GenerateMipsCS.
#pragma once

#include "emulator/dispatch.h"
#include "emulator/texture.h"
#include "examples/generate_mips/generate_mips.h"

#include <bit>
#include <cstdint>
#include <vector>

namespace waveemu::examples {

/// One dispatch of the chain: what MiniEngine's loop computes before Context.Dispatch2D.
struct MipDispatch {
  uint32_t top_mip = 0;           // SrcMipLevel
  uint32_t num_mips = 1;          // NumMipLevels: levels top_mip+1 .. top_mip+num_mips
  uint32_t non_power_of_two = 0;  // (SrcWidth & 1) | (SrcHeight & 1) << 1
  uint32_t dst_width = 1, dst_height = 1;
  float2 texel_size{};  // 1 / dst (after clamping to 1)
  uint3 groups{};       // ceil(dst / 8)
};

/// MiniEngine's loop: for (TopMip = 0; TopMip < NumMipMaps; TopMip += NumMips). NumMipMaps is
/// the chain length minus one (ColorBuffer: m_NumMipMaps = ComputeNumMips - 1).
inline std::vector<MipDispatch> PlanMipDispatches(uint32_t width, uint32_t height,
                                                  uint32_t mip_levels) {
  std::vector<MipDispatch> plan;
  const uint32_t num_mip_maps = mip_levels - 1;
  for (uint32_t top = 0; top < num_mip_maps;) {
    MipDispatch d;
    d.top_mip = top;
    uint32_t src_w = width >> top, src_h = height >> top;
    uint32_t dst_w = src_w >> 1, dst_h = src_h >> 1;
    // Determine if the first downsample is more than 2:1. This happens whenever the source width
    // or height is odd.
    d.non_power_of_two = (src_w & 1) | (src_h & 1) << 1;
    // We can downsample up to four times, but only while the ratio between levels is exactly
    // 2:1: count the zeros in the low bits. (MiniEngine: _BitScanForward, whose result is
    // undefined on 0; that happens only on the last level, where NumMips is cut to 1 anyway.)
    uint32_t bits = (dst_w == 1 ? dst_h : dst_w) | (dst_h == 1 ? dst_w : dst_h);
    uint32_t additional = bits == 0 ? 0 : uint32_t(std::countr_zero(bits));
    d.num_mips = 1 + (additional > 3 ? 3 : additional);
    if (top + d.num_mips > num_mip_maps) d.num_mips = num_mip_maps - top;
    // Clamped to 1 after computing additional mips, because clamped dimensions should not limit
    // us from downsampling multiple times (16x1 -> 8x1 -> 4x1 -> 2x1 -> 1x1).
    if (dst_w == 0) dst_w = 1;
    if (dst_h == 0) dst_h = 1;
    d.dst_width = dst_w;
    d.dst_height = dst_h;
    d.texel_size = float2{1.0f / float(dst_w), 1.0f / float(dst_h)};
    d.groups = uint3{(dst_w + 7) / 8, (dst_h + 7) / 8, 1};
    plan.push_back(d);
    top += d.num_mips;
  }
  return plan;
}

struct GenerateMipsResult {
  std::vector<MipDispatch> plan;
  uint64_t out_of_bounds_writes = 0;  // threads past a level's edge (dropped, as on a GPU)
  uint64_t diagnostics = 0;
};

namespace detail_mips {

template <int NPOT, bool SRGB>
DispatchResult RunOne(Texture2DResource& tex, const MipDispatch& d, Format srv, Format uav,
                      const DispatchOptions& options, const TextureOptions& texture_options) {
  GenerateMipsCS<NPOT, SRGB> k;
  // SRV over every level (SampleLevel picks SrcMipLevel); one UAV per written level.
  k.SrcMip = Texture2D<float4>(tex, srv, 0, tex.mip_levels(), texture_options);
  RWTexture2D<float4>* outs[4] = {&k.OutMip1, &k.OutMip2, &k.OutMip3, &k.OutMip4};
  for (uint32_t i = 0; i < d.num_mips; ++i)
    *outs[i] = RWTexture2D<float4>(tex, uav, d.top_mip + 1 + i, texture_options);
  k.SrcMipLevel = d.top_mip;
  k.NumMipLevels = d.num_mips;
  k.TexelSize = d.texel_size;
  return Dispatch(k, d.groups, options);
}

template <bool SRGB>
DispatchResult RunCase(Texture2DResource& tex, const MipDispatch& d, Format srv, Format uav,
                       const DispatchOptions& options, const TextureOptions& texture_options) {
  switch (d.non_power_of_two) {
    case 0: return RunOne<0, SRGB>(tex, d, srv, uav, options, texture_options);
    case 1: return RunOne<1, SRGB>(tex, d, srv, uav, options, texture_options);
    case 2: return RunOne<2, SRGB>(tex, d, srv, uav, options, texture_options);
    default: return RunOne<3, SRGB>(tex, d, srv, uav, options, texture_options);
  }
}

}  // namespace detail_mips

/// Fills levels 1.. of `tex` from level 0. `srgb` (R8G8B8A8 textures only): reads decode sRGB
/// through an _SRGB view and the shader encodes with its own curve into a UNORM view, as
/// MiniEngine's gamma PSOs do (compute shaders cannot store sRGB through a typed UAV).
inline GenerateMipsResult GenerateMips(Texture2DResource& tex, bool srgb,
                                       const DispatchOptions& options = {},
                                       const TextureOptions& texture_options = {}) {
  Format srv = tex.format(), uav = tex.format();
  if (srgb) {
    if (tex.format() != Format::R8G8B8A8_UNORM && tex.format() != Format::R8G8B8A8_UNORM_SRGB)
      throw UsageError(fmt::format("GenerateMips: sRGB needs an R8G8B8A8 texture, not {}",
                                   InfoOf(tex.format()).name));
    srv = Format::R8G8B8A8_UNORM_SRGB;
    uav = Format::R8G8B8A8_UNORM;
  }
  GenerateMipsResult result;
  result.plan = PlanMipDispatches(tex.Width(0), tex.Height(0), tex.mip_levels());
  for (const MipDispatch& d : result.plan) {
    DispatchResult r = srgb ? detail_mips::RunCase<true>(tex, d, srv, uav, options, texture_options)
                            : detail_mips::RunCase<false>(tex, d, srv, uav, options, texture_options);
    result.out_of_bounds_writes += r.out_of_bounds_writes;
    result.diagnostics += r.diagnostic_count;
  }
  return result;
}

}  // namespace waveemu::examples
