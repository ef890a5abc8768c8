// mips_vulkan.h -- the mip generator on a Vulkan device and the level-by-level comparison of two
// mip chains: `waveemu mips --backend vulkan` and `--compare` (mips_command.cpp), and the
// lavapipe test, which checks the emulator's chain against the original HLSL's.
#pragma once

#include "emulator/texture.h"
#include "examples/generate_mips/generate_mips_host.h"

#include <cstdint>
#include <string>
#include <vector>

#if WAVEEMU_HAVE_VULKAN_BACKEND
#include "tools/waveemu/vulkan_backend.h"
#endif

namespace waveemu::oracle {

#if WAVEEMU_HAVE_VULKAN_BACKEND
struct VulkanMipsResult {
  std::vector<examples::MipDispatch> plan;  // examples::PlanMipDispatches, as the emulator runs it
  VulkanDeviceInfo device;
  std::vector<std::string> notes;  // the runs' notes, each once
};

/// Fills levels 1.. of `tex` from level 0 by running examples/generate_mips/GenerateMipsCS.hlsl
/// (compiled into the binary) on Vulkan, one RunOnVulkan per dispatch of MiniEngine's host loop:
/// -DNON_POWER_OF_TWO=n and, with `srgb`, -DCONVERT_TO_SRGB; the chain bound as Texture2D (an
/// R8G8B8A8_UNORM_SRGB view with `srgb`) at t0, levels top+1.. as RWTexture2D at u0..u3 (the
/// unused ones at the last level, never written), CB0 {SrcMipLevel, NumMipLevels, TexelSize} at
/// b0 and a linear clamp sampler at s0; shifts t+0, u+16, b+32, s+48.
VulkanMipsResult GenerateMipsOnVulkan(Texture2DResource& tex, bool srgb,
                                      const VulkanRunOptions& options = {});
#endif

/// How one level of two chains differs: the largest distance over every channel of every texel,
/// in ULPs for float formats (ordered bit patterns, so +0 and -0 are 0 apart) or units for
/// R8G8B8A8, and the first texel where it occurs.
struct LevelDifference {
  uint32_t mip = 0, width = 0, height = 0;
  uint64_t max_distance = 0;  // 0: bit-exact
  uint64_t differing = 0;     // channels that differ at all
  uint64_t values = 0;        // channels in the level
  uint32_t x = 0, y = 0, channel = 0;
  double a = 0, b = 0;  // the two values there (UNORM: the byte values)
  const char* unit = "ULP";
};

/// Compares every level of two textures of the same format and size.
std::vector<LevelDifference> CompareMipChains(const Texture2DResource& a,
                                              const Texture2DResource& b);

/// "level 2 (64x32): bit-exact" or "level 2 (64x32): max 3 ULP at (5, 7) channel 0 (emulator
/// 0.25, vulkan 0.2500002), 12 of 8192 values differ".
std::string Describe(const LevelDifference& d, const std::string& a_name,
                     const std::string& b_name);

}  // namespace waveemu::oracle
