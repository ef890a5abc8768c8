// spirv_rewrite.h -- the SPIR-V word-stream pass the oracle applies to glslang's output
// (WavePrefixSum/WavePrefixProduct become exclusive scans, DESIGN §4), and a small reflection
// of what a compute module needs from a device: capabilities, workgroup size, descriptors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace waveemu::oracle {

/// Malformed SPIR-V: bad magic, a word count that runs past the end, an operand missing.
class SpirvError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Changes the GroupOperation of every OpGroupNonUniform{IAdd,FAdd,IMul,FMul} from
/// InclusiveScan to ExclusiveScan, in place, and returns how many were changed. Validates the
/// header and every instruction's word count first (nothing changes when it throws).
size_t RewritePrefixScansToExclusive(std::vector<uint32_t>& words);

/// Sets the ImageFormat of every storage image (OpTypeImage Sampled=2, Dim not Buffer) to
/// Unknown and adds the StorageImageWriteWithoutFormat capability (and ReadWithoutFormat when the
/// module has an OpImageRead: lavapipe 22.3 lacks that feature), so that
/// one RWTexture2D<float4> can be bound to any format's view; returns how many types changed.
/// Validates the module first (nothing changes when it throws).
size_t RewriteStorageImagesToUnknownFormat(std::vector<uint32_t>& words);

/// How many OpGroupNonUniform{IAdd,FAdd,IMul,FMul} use each GroupOperation (for tests/logs).
struct ScanCounts {
  size_t inclusive = 0, exclusive = 0, reduce = 0, other = 0;
};
ScanCounts CountArithmeticGroupOps(std::span<const uint32_t> words);

/// A descriptor the shader declares, as Vulkan must provide it.
enum class SpirvDescriptorType {
  kStorageBuffer,       // Uniform + BufferBlock, or StorageBuffer storage class
  kUniformBuffer,       // Uniform + Block (cbuffer / ConstantBuffer)
  kUniformTexelBuffer,  // OpTypeImage Dim=Buffer, Sampled=1 (HLSL Buffer<T>)
  kStorageTexelBuffer,  // OpTypeImage Dim=Buffer, Sampled=2 (HLSL RWBuffer<T>)
  kSampledImage,        // OpTypeImage Sampled=1, not Buffer (HLSL Texture2D<T>)
  kStorageImage,        // OpTypeImage Sampled=2, not Buffer (HLSL RWTexture2D<T>)
  kSampler,             // OpTypeSampler (HLSL SamplerState)
  kOther,               // combined image-samplers, acceleration structures, ...: not supported
};
const char* ToString(SpirvDescriptorType t);

struct SpirvResource {
  std::string name;  // the HLSL name (the variable's OpName, or its block type's for cbuffers)
  uint32_t set = 0, binding = 0;
  SpirvDescriptorType type = SpirvDescriptorType::kOther;
  uint32_t array_stride = 0;   // storage buffers: ArrayStride of the runtime array (0 if none)
  uint32_t image_format = 0;   // texel buffers and images: SPIR-V ImageFormat (0 = Unknown)
  uint32_t image_dim = 0;      // images: SPIR-V Dim (1 = 2D)
};

struct SpirvModuleInfo {
  uint32_t version = 0;                 // 0x00010300 for SPIR-V 1.3
  std::vector<uint32_t> capabilities;   // OpCapability operands
  std::vector<std::string> extensions;  // OpExtension names
  std::optional<std::array<uint32_t, 3>> local_size;  // OpExecutionMode LocalSize of `entry`
  std::vector<SpirvResource> resources;
  // A group op works on an 8/16/64-bit integer or 16-bit float: needs
  // shaderSubgroupExtendedTypes (VK_KHR_shader_subgroup_extended_types).
  bool group_ops_on_extended_types = false;
  bool has_entry = false;  // an OpEntryPoint GLCompute with the requested name exists
};

/// Reads what the Vulkan backend checks before running: throws SpirvError on malformed input.
SpirvModuleInfo ReflectSpirv(std::span<const uint32_t> words, const std::string& entry);

/// Name of a SPIR-V capability ("GroupNonUniformArithmetic"), or "Capability<number>".
std::string SpirvCapabilityName(uint32_t capability);

/// Name of a SPIR-V ImageFormat ("R32ui"), or "ImageFormat<number>".
std::string SpirvImageFormatName(uint32_t format);

/// Bytes of a .spv file as words (little-endian host); throws SpirvError when the size is not
/// a multiple of 4.
std::vector<uint32_t> SpirvWordsFromBytes(std::span<const std::byte> bytes);

}  // namespace waveemu::oracle
