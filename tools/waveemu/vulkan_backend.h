// vulkan_backend.h -- the oracle's GPU side (DESIGN §4): lists Vulkan devices and runs a
// Pipeline's HLSL on one of them (glslang -> prefix-scan rewrite -> compute dispatch), returning
// every buffer. Plain Vulkan C API inside; this header does not include vulkan.h.
#pragma once

#include "tools/waveemu/pipeline.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace waveemu::oracle {

/// Every failure of the Vulkan backend; `kind` lets the CLI choose words and exit codes.
class VulkanBackendError : public std::runtime_error {
 public:
  enum class Kind {
    kNoDevice,     // no loader, no ICD, no physical device, or the chosen one does not exist
    kUnsupported,  // the device lacks a feature the shader or pipeline needs
    kPipeline,     // the pipeline and the shader disagree (missing binding, wrong kind, size)
    kVulkanCall,   // a Vulkan call failed: `call` and `result` say which and how
    kTimeout,      // the dispatch did not finish in time
  };
  VulkanBackendError(Kind kind, const std::string& what, std::string call = {},
                     std::string result = {})
      : std::runtime_error(what), kind(kind), call(std::move(call)), result(std::move(result)) {}
  Kind kind;
  std::string call;    // e.g. "vkCreateComputePipelines"
  std::string result;  // e.g. "VK_ERROR_OUT_OF_DEVICE_MEMORY"
};

struct VulkanDeviceInfo {
  uint32_t index = 0;  // position in vkEnumeratePhysicalDevices
  std::string name;    // deviceName
  std::string type;    // "discrete GPU", "integrated GPU", "CPU", ...
  std::string driver_name, driver_info;  // VkPhysicalDeviceDriverProperties (empty if absent)
  uint32_t driver_version = 0;           // raw VkPhysicalDeviceProperties::driverVersion
  std::string driver_version_text;       // decoded the vendor's way (NVIDIA: 580.65.6)
  uint32_t api_version = 0;
  std::string api_version_text;  // "1.3.230"
  uint32_t vendor_id = 0, device_id = 0;
  uint32_t subgroup_size = 0;
  std::vector<std::string> subgroup_stages;      // "compute", "fragment", ...
  std::vector<std::string> subgroup_operations;  // "basic", "vote", "arithmetic", ...
  bool subgroup_quad_all_stages = false;
  bool subgroup_size_control = false;  // VK_EXT_subgroup_size_control (or 1.3) usable in compute
  bool compute_full_subgroups = false;
  uint32_t min_subgroup_size = 0, max_subgroup_size = 0;  // when subgroup_size_control
  bool robustness2 = false;       // robustBufferAccess2 from VK_EXT_robustness2
  bool null_descriptor = false;   // nullDescriptor from VK_EXT_robustness2
  bool shader_float64 = false, shader_int64 = false, shader_int16 = false;
  bool subgroup_extended_types = false;
};

/// Every physical device the loader finds (with VK_DRIVER_FILES honoured as usual). Throws
/// VulkanBackendError(kNoDevice) when Vulkan itself cannot start.
std::vector<VulkanDeviceInfo> ListVulkanDevices();

/// Multi-line human-readable description of one device (for `waveemu devices`).
std::string Describe(const VulkanDeviceInfo& device);

struct VulkanRunReport;

struct VulkanRunOptions {
  // Which device: by index, or the first whose name contains this text (case-insensitive).
  // Neither: the first GPU, else the first device (so a CPU driver installed beside a GPU
  // driver is not picked by accident).
  std::optional<uint32_t> device_index;
  std::string device_name;
  bool rewrite_prefix_scans = true;  // DESIGN §4: glslang 12's InclusiveScan -> ExclusiveScan
  int timeout_seconds = 60;          // fence wait; past it the run fails with kTimeout
  // Validation layers: on when this is set or WAVEEMU_VULKAN_VALIDATION=1, and only if
  // VK_LAYER_KHRONOS_validation is installed (otherwise a note says it is absent).
  bool validation = false;
  std::vector<std::string> include_dirs;  // extra -I for glslang
  std::vector<std::string> defines;       // -DNAME[=VALUE] for glslang (RunOnVulkan)
  VulkanRunReport* report = nullptr;      // filled when not null
};

/// What a run used and decided; the CLI prints it beside the results.
struct VulkanRunReport {
  VulkanDeviceInfo device;
  std::string robustness;  // "robustBufferAccess2 + nullDescriptor (VK_EXT_robustness2)" or
                           // "robustBufferAccess (Vulkan 1.0: out-of-bounds values unspecified)"
  bool robustness2 = false;
  size_t prefix_scans_rewritten = 0;
  size_t storage_images_rewritten = 0;  // storage image types given ImageFormat Unknown
  std::string binding_shifts;  // glslang options that move registers to VulkanBindings, or ""
  std::array<uint32_t, 3> local_size = {0, 0, 0};
  std::optional<int> requested_wave_size;  // the pipeline's WaveSize hint
  bool wave_size_honoured = false;         // requiredSubgroupSize was set to it
  bool full_subgroups = false;             // computeFullSubgroups was required
  uint32_t subgroup_size = 0;              // the size the run used (required or the default)
  std::vector<std::string> notes;          // warnings: unhonoured hints, stride mismatches...
  double dispatch_ms = 0;                  // submit to fence signalled
};

/// Runs the pipeline on a Vulkan device and returns every buffer after the dispatch (buffers
/// that no binding uses come back unchanged; a texture comes back as all its levels, in
/// TextureDesc order). Throws HlslToolMissing/HlslCompileError (see
/// hlsl_compile.h), SpirvError, or VulkanBackendError.
BufferContents RunOnVulkan(const Pipeline& pipeline, const VulkanRunOptions& options = {});

/// The same with SPIR-V the caller already has (no glslang; the rewrite option still applies).
BufferContents RunSpirvOnVulkan(const Pipeline& pipeline, std::vector<uint32_t> spirv,
                                const VulkanRunOptions& options = {});

}  // namespace waveemu::oracle
