// vulkan_fragment.h -- the pixel oracle (issue 5): draws triangles with an HLSL pixel shader on a
// Vulkan device (lavapipe in CI) and reads back the colour target and the storage buffers the
// shader wrote, so the emulator's PixelDispatch can be compared with a real driver's quads.
// Plain Vulkan C API inside; this header does not include vulkan.h.
#pragma once

#include "tools/waveemu/vulkan_backend.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace waveemu::oracle {

/// One draw: a pixel shader, a width x height R32G32B32A32_SFLOAT target cleared to `clear`,
/// triangles in pixel coordinates (y down, pixel (x, y) spans [x, x+1) x [y, y+1), as
/// waveemu::Triangle), and storage buffers (RWStructuredBuffer / RWByteAddressBuffer) at
/// descriptor set 0, binding i = register(u<i>).
struct FragmentDraw {
  std::string hlsl;       // the pixel shader's HLSL text
  std::string hlsl_path;  // where it came from: messages and #include
  std::string entry = "main";
  // glslang's target: vulkan1.3 (SPIR-V 1.6) compiles `discard` to OpDemoteToHelperInvocation,
  // HLSL SM 6.x's demote; vulkan1.1 compiles it to OpKill, which terminates the invocation.
  std::string target_env = "vulkan1.3";
  std::vector<std::string> defines;  // -D for the pixel shader
  int width = 0, height = 0;
  std::array<float, 4> clear = {0, 0, 0, 0};
  // Three per triangle. Each must survive the trip to NDC and back through the viewport
  // transform exactly (NDC = 2 * p / size - 1 in float): true for multiples of 1/256 pixel on a
  // power-of-two target; anything else is refused rather than rounded.
  std::vector<std::array<float, 2>> vertices;
  std::vector<std::vector<uint32_t>> buffers;  // initial contents; read back after the draw
};

struct FragmentResult {
  std::vector<std::array<float, 4>> target;    // width * height texels, row-major
  std::vector<std::vector<uint32_t>> buffers;  // every FragmentDraw buffer after the draw
  VulkanDeviceInfo device;
  uint32_t sub_pixel_precision_bits = 0;  // VkPhysicalDeviceLimits::subPixelPrecisionBits
  bool demote = false;  // the module uses OpDemoteToHelperInvocation (HLSL discard as demote)
  bool kill = false;    // the module uses OpKill (discard terminates)
  std::string vertex_hlsl;         // the generated vertex shader
  std::vector<std::string> notes;  // what the run could not promise
  double draw_ms = 0;              // submit to fence signalled
};

/// The vertex shader the draw uses: the vertices in NDC as bit-exact constants, picked by
/// SV_VertexID, so no vertex buffer is needed. Throws VulkanBackendError(kPipeline) when a vertex
/// would not land exactly where it was asked (see FragmentDraw::vertices).
std::string FragmentVertexShader(const FragmentDraw& draw);

/// Compiles the shaders with glslang, draws on the device `options` picks (vulkan_backend.h:
/// index, name, else the first GPU, else the first device) and reads everything back. Throws
/// HlslToolMissing/HlslCompileError (hlsl_compile.h) or VulkanBackendError; kUnsupported when the
/// device lacks fragment-shader stores or subgroup operations in fragment shaders.
FragmentResult RunFragmentOnVulkan(const FragmentDraw& draw, const VulkanRunOptions& options = {});

}  // namespace waveemu::oracle
