// vulkan_backend.cpp -- runs a Pipeline on a Vulkan device: one instance, one device with
// robust buffer access (robustness2 when present: D3D's out-of-bounds rules), one host-visible
// buffer per BufferDesc and one image per texture (vulkan_images.h), descriptors by ResourceKind,
// uploads, one dispatch and readbacks in one command buffer, a fence wait with a limit.
#include "tools/waveemu/vulkan_backend.h"

#include "tools/waveemu/hlsl_compile.h"
#include "tools/waveemu/spirv_rewrite.h"
#include "tools/waveemu/vulkan_context.h"
#include "tools/waveemu/vulkan_images.h"

#include <fmt/format.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <set>

namespace waveemu::oracle {

using namespace vk;  // the shared plumbing (vulkan_context.h)

namespace {

const char* KindName(ResourceKind k) {
  switch (k) {
    case ResourceKind::kStructuredBuffer: return "StructuredBuffer";
    case ResourceKind::kRWStructuredBuffer: return "RWStructuredBuffer";
    case ResourceKind::kBuffer: return "Buffer";
    case ResourceKind::kRWBuffer: return "RWBuffer";
    case ResourceKind::kByteAddressBuffer: return "ByteAddressBuffer";
    case ResourceKind::kRWByteAddressBuffer: return "RWByteAddressBuffer";
    case ResourceKind::kConstantBuffer: return "ConstantBuffer";
    case ResourceKind::kTexture2D: return "Texture2D";
    case ResourceKind::kRWTexture2D: return "RWTexture2D";
    case ResourceKind::kSampler: return "Sampler";
  }
  return "?";
}

VkDescriptorType DescriptorTypeOf(ResourceKind k) {
  switch (k) {
    case ResourceKind::kBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    case ResourceKind::kRWBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    case ResourceKind::kConstantBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    case ResourceKind::kTexture2D: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    case ResourceKind::kRWTexture2D: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case ResourceKind::kSampler: return VK_DESCRIPTOR_TYPE_SAMPLER;
    default: return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  }
}

SpirvDescriptorType SpirvTypeOf(ResourceKind k) {
  switch (k) {
    case ResourceKind::kBuffer: return SpirvDescriptorType::kUniformTexelBuffer;
    case ResourceKind::kRWBuffer: return SpirvDescriptorType::kStorageTexelBuffer;
    case ResourceKind::kConstantBuffer: return SpirvDescriptorType::kUniformBuffer;
    case ResourceKind::kTexture2D: return SpirvDescriptorType::kSampledImage;
    case ResourceKind::kRWTexture2D: return SpirvDescriptorType::kStorageImage;
    case ResourceKind::kSampler: return SpirvDescriptorType::kSampler;
    default: return SpirvDescriptorType::kStorageBuffer;
  }
}

// One component's VkFormat for a DataFormat, as a typed buffer view reads it.
VkFormat ComponentFormat(DataFormat f) {
  switch (f) {
    case DataFormat::kBool: case DataFormat::kUInt32: case DataFormat::kHex32:
      return VK_FORMAT_R32_UINT;
    case DataFormat::kInt32: return VK_FORMAT_R32_SINT;
    case DataFormat::kFloat32: return VK_FORMAT_R32_SFLOAT;
    case DataFormat::kInt16: return VK_FORMAT_R16_SINT;
    case DataFormat::kUInt16: case DataFormat::kHex16: return VK_FORMAT_R16_UINT;
    case DataFormat::kFloat16: return VK_FORMAT_R16_SFLOAT;
    case DataFormat::kInt64: return VK_FORMAT_R64_SINT;
    case DataFormat::kUInt64: case DataFormat::kHex64: return VK_FORMAT_R64_UINT;
    case DataFormat::kFloat64: return VK_FORMAT_R64_SFLOAT;
    case DataFormat::kHex8: return VK_FORMAT_R8_UINT;
  }
  return VK_FORMAT_UNDEFINED;
}

// The format with `components` channels of the same type as a one-channel format.
VkFormat WithComponents(VkFormat one, uint32_t components) {
  static const std::map<VkFormat, std::array<VkFormat, 4>> kFamilies = {
      {VK_FORMAT_R32_UINT, {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32_UINT,
                            VK_FORMAT_R32G32B32A32_UINT}},
      {VK_FORMAT_R32_SINT, {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32_SINT,
                            VK_FORMAT_R32G32B32A32_SINT}},
      {VK_FORMAT_R32_SFLOAT, {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT,
                              VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT}},
      {VK_FORMAT_R16_UINT, {VK_FORMAT_R16_UINT, VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16B16_UINT,
                            VK_FORMAT_R16G16B16A16_UINT}},
      {VK_FORMAT_R16_SINT, {VK_FORMAT_R16_SINT, VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16B16_SINT,
                            VK_FORMAT_R16G16B16A16_SINT}},
      {VK_FORMAT_R16_SFLOAT, {VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_SFLOAT,
                              VK_FORMAT_R16G16B16_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT}},
      {VK_FORMAT_R64_UINT, {VK_FORMAT_R64_UINT, VK_FORMAT_R64G64_UINT, VK_FORMAT_R64G64B64_UINT,
                            VK_FORMAT_R64G64B64A64_UINT}},
      {VK_FORMAT_R64_SINT, {VK_FORMAT_R64_SINT, VK_FORMAT_R64G64_SINT, VK_FORMAT_R64G64B64_SINT,
                            VK_FORMAT_R64G64B64A64_SINT}},
      {VK_FORMAT_R64_SFLOAT, {VK_FORMAT_R64_SFLOAT, VK_FORMAT_R64G64_SFLOAT,
                              VK_FORMAT_R64G64B64_SFLOAT, VK_FORMAT_R64G64B64A64_SFLOAT}},
      {VK_FORMAT_R8_UINT, {VK_FORMAT_R8_UINT, VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8B8_UINT,
                           VK_FORMAT_R8G8B8A8_UINT}},
  };
  auto it = kFamilies.find(one);
  if (it == kFamilies.end() || components < 1 || components > 4) return VK_FORMAT_UNDEFINED;
  return it->second[components - 1];
}

// The VkFormat a SPIR-V ImageFormat names (only the formats typed buffers use).
VkFormat FormatOfSpirv(uint32_t image_format) {
  switch (image_format) {
    case 1: return VK_FORMAT_R32G32B32A32_SFLOAT;
    case 2: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case 3: return VK_FORMAT_R32_SFLOAT;
    case 6: return VK_FORMAT_R32G32_SFLOAT;
    case 7: return VK_FORMAT_R16G16_SFLOAT;
    case 9: return VK_FORMAT_R16_SFLOAT;
    case 21: return VK_FORMAT_R32G32B32A32_SINT;
    case 22: return VK_FORMAT_R16G16B16A16_SINT;
    case 24: return VK_FORMAT_R32_SINT;
    case 25: return VK_FORMAT_R32G32_SINT;
    case 26: return VK_FORMAT_R16G16_SINT;
    case 28: return VK_FORMAT_R16_SINT;
    case 30: return VK_FORMAT_R32G32B32A32_UINT;
    case 31: return VK_FORMAT_R16G16B16A16_UINT;
    case 33: return VK_FORMAT_R32_UINT;
    case 35: return VK_FORMAT_R32G32_UINT;
    case 36: return VK_FORMAT_R16G16_UINT;
    case 38: return VK_FORMAT_R16_UINT;
    case 39: return VK_FORMAT_R8_UINT;
    case 40: return VK_FORMAT_R64_UINT;
    case 41: return VK_FORMAT_R64_SINT;
    default: return VK_FORMAT_UNDEFINED;
  }
}

uint32_t FormatBytes(VkFormat f) {
  switch (f) {
    case VK_FORMAT_R8_UINT: return 1;
    case VK_FORMAT_R8G8_UINT: case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_SINT:
    case VK_FORMAT_R16_SFLOAT: return 2;
    case VK_FORMAT_R8G8B8_UINT: return 3;
    case VK_FORMAT_R8G8B8A8_UINT: case VK_FORMAT_R16G16_UINT: case VK_FORMAT_R16G16_SINT:
    case VK_FORMAT_R16G16_SFLOAT: case VK_FORMAT_R32_UINT: case VK_FORMAT_R32_SINT:
    case VK_FORMAT_R32_SFLOAT: return 4;
    case VK_FORMAT_R16G16B16_UINT: case VK_FORMAT_R16G16B16_SINT:
    case VK_FORMAT_R16G16B16_SFLOAT: return 6;
    case VK_FORMAT_R16G16B16A16_UINT: case VK_FORMAT_R16G16B16A16_SINT:
    case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R32G32_SINT:
    case VK_FORMAT_R32G32_SFLOAT: case VK_FORMAT_R64_UINT: case VK_FORMAT_R64_SINT:
    case VK_FORMAT_R64_SFLOAT: return 8;
    case VK_FORMAT_R32G32B32_UINT: case VK_FORMAT_R32G32B32_SINT:
    case VK_FORMAT_R32G32B32_SFLOAT: return 12;
    case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT:
    case VK_FORMAT_R32G32B32A32_SFLOAT: case VK_FORMAT_R64G64_UINT: case VK_FORMAT_R64G64_SINT:
    case VK_FORMAT_R64G64_SFLOAT: return 16;
    case VK_FORMAT_R64G64B64_UINT: case VK_FORMAT_R64G64B64_SINT:
    case VK_FORMAT_R64G64B64_SFLOAT: return 24;
    case VK_FORMAT_R64G64B64A64_UINT: case VK_FORMAT_R64G64B64A64_SINT:
    case VK_FORMAT_R64G64B64A64_SFLOAT: return 32;
    default: return 0;
  }
}

std::string FormatName(VkFormat f) {
  static const std::map<VkFormat, const char*> kNames = {
      {VK_FORMAT_R8_UINT, "R8_UINT"}, {VK_FORMAT_R16_UINT, "R16_UINT"},
      {VK_FORMAT_R16_SINT, "R16_SINT"}, {VK_FORMAT_R16_SFLOAT, "R16_SFLOAT"},
      {VK_FORMAT_R32_UINT, "R32_UINT"}, {VK_FORMAT_R32_SINT, "R32_SINT"},
      {VK_FORMAT_R32_SFLOAT, "R32_SFLOAT"}, {VK_FORMAT_R32G32_UINT, "R32G32_UINT"},
      {VK_FORMAT_R32G32_SINT, "R32G32_SINT"}, {VK_FORMAT_R32G32_SFLOAT, "R32G32_SFLOAT"},
      {VK_FORMAT_R32G32B32_UINT, "R32G32B32_UINT"}, {VK_FORMAT_R32G32B32_SINT, "R32G32B32_SINT"},
      {VK_FORMAT_R32G32B32_SFLOAT, "R32G32B32_SFLOAT"},
      {VK_FORMAT_R32G32B32A32_UINT, "R32G32B32A32_UINT"},
      {VK_FORMAT_R32G32B32A32_SINT, "R32G32B32A32_SINT"},
      {VK_FORMAT_R32G32B32A32_SFLOAT, "R32G32B32A32_SFLOAT"},
      {VK_FORMAT_R64_UINT, "R64_UINT"}, {VK_FORMAT_R64_SINT, "R64_SINT"},
      {VK_FORMAT_R64_SFLOAT, "R64_SFLOAT"},
  };
  auto it = kNames.find(f);
  return it != kNames.end() ? it->second : fmt::format("VkFormat({})", int(f));
}

// ------------------------------ pipeline checks
// Messages about the shader name the HLSL file; messages about buffers name the pipeline file.
std::string Where(const Pipeline& p) {
  if (!p.hlsl_path.empty()) return p.hlsl_path;
  if (!p.path.empty()) return p.path;
  return "pipeline";
}
std::string PipelineFile(const Pipeline& p) { return p.path.empty() ? Where(p) : p.path; }

// The device features a SPIR-V capability needs beyond subgroup operations.
void CheckCapabilities(const Pipeline& p, const SpirvModuleInfo& m, const Caps& c,
                       const VulkanDeviceInfo& dev, std::vector<std::string>& notes) {
  bool any_subgroup = false;
  for (uint32_t cap : m.capabilities) {
    const auto sf = std::find_if(std::begin(kSubgroupFeatures), std::end(kSubgroupFeatures),
                                 [&](const SubgroupFeature& f) { return f.capability == cap; });
    if (sf != std::end(kSubgroupFeatures)) {
      any_subgroup = true;
      if (!(c.subgroup.supportedOperations & sf->bit))
        throw VulkanBackendError(Kind::kUnsupported, fmt::format(
            "{}: the shader needs subgroup operations '{}' (SPIR-V capability {}), which device "
            "'{}' does not support (it supports: {})",
            Where(p), sf->name, SpirvCapabilityName(cap), dev.name,
            Join(dev.subgroup_operations)));
      continue;
    }
    struct Need {
      uint32_t cap;
      bool ok;
      const char* feature;
    };
    const Need needs[] = {
        {10, bool(c.features.shaderFloat64), "shaderFloat64"},
        {11, bool(c.features.shaderInt64), "shaderInt64"},
        {22, bool(c.features.shaderInt16), "shaderInt16"},
        {9, c.has_f16i8 && c.f16i8.shaderFloat16, "shaderFloat16"},
        {39, c.has_f16i8 && c.f16i8.shaderInt8, "shaderInt8"},
        {4433, bool(c.storage16.storageBuffer16BitAccess), "storageBuffer16BitAccess"},
        {4434, bool(c.storage16.uniformAndStorageBuffer16BitAccess),
         "uniformAndStorageBuffer16BitAccess"},
        {55, bool(c.features.shaderStorageImageReadWithoutFormat),
         "shaderStorageImageReadWithoutFormat"},
        {56, bool(c.features.shaderStorageImageWriteWithoutFormat),
         "shaderStorageImageWriteWithoutFormat"},
    };
    const auto need = std::find_if(std::begin(needs), std::end(needs),
                                   [&](const Need& n) { return n.cap == cap; });
    if (need != std::end(needs)) {
      if (!need->ok)
        throw VulkanBackendError(Kind::kUnsupported, fmt::format(
            "{}: the shader uses SPIR-V capability {}, which needs the device feature {}; "
            "device '{}' does not have it", Where(p), SpirvCapabilityName(cap), need->feature,
            dev.name));
      continue;
    }
    // Shader, SampledBuffer, ImageBuffer, ImageQuery: core; anything else is left to the driver.
    if (cap != 1 && cap != 46 && cap != 47 && cap != 50)
      notes.push_back(fmt::format("SPIR-V capability {} is not checked against the device",
                                  SpirvCapabilityName(cap)));
  }
  if (any_subgroup && !(c.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT))
    throw VulkanBackendError(Kind::kUnsupported, fmt::format(
        "{}: the shader uses subgroup operations, which device '{}' does not support in compute "
        "shaders", Where(p), dev.name));
  if (m.group_ops_on_extended_types && !dev.subgroup_extended_types)
    throw VulkanBackendError(Kind::kUnsupported, fmt::format(
        "{}: the shader uses wave operations on 8/16/64-bit values, which need "
        "shaderSubgroupExtendedTypes (VK_KHR_shader_subgroup_extended_types); device '{}' does "
        "not have it", Where(p), dev.name));
}

void CheckLimits(const Pipeline& p, const std::array<uint32_t, 3>& local, const Caps& c) {
  const auto& lim = c.props.limits;
  const char* axis = "xyz";
  uint64_t total = 1;
  for (int i = 0; i < 3; ++i) {
    total *= local[i];
    if (local[i] > lim.maxComputeWorkGroupSize[i])
      throw VulkanBackendError(Kind::kUnsupported, fmt::format(
          "{}: numthreads {} = {} exceeds the device's maxComputeWorkGroupSize {}", Where(p),
          axis[i], local[i], lim.maxComputeWorkGroupSize[i]));
    if (p.dispatch[i] > lim.maxComputeWorkGroupCount[i])
      throw VulkanBackendError(Kind::kUnsupported, fmt::format(
          "{}: DispatchGroupCount {} = {} exceeds the device's maxComputeWorkGroupCount {}",
          Where(p), axis[i], p.dispatch[i], lim.maxComputeWorkGroupCount[i]));
  }
  if (total > lim.maxComputeWorkGroupInvocations)
    throw VulkanBackendError(Kind::kUnsupported, fmt::format(
        "{}: a group of {} threads exceeds the device's maxComputeWorkGroupInvocations {}",
        Where(p), total, lim.maxComputeWorkGroupInvocations));
}

// One descriptor the run writes: a pipeline binding, its buffer, what the shader says about it.
struct Slot {
  const ResourceBinding* binding = nullptr;
  size_t buffer = 0;   // index into pipeline.buffers (textures too); unused for samplers
  size_t sampler = 0;  // index into pipeline.samplers (Kind: Sampler)
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  VkFormat format = VK_FORMAT_UNDEFINED;  // texel buffers
  const SpirvResource* shader = nullptr;   // null when the shader does not use this binding
};

std::vector<Slot> ResolveBindings(const Pipeline& p, const SpirvModuleInfo& m,
                                  std::vector<std::string>& notes) {
  std::vector<Slot> slots;
  std::map<std::pair<uint32_t, uint32_t>, const ResourceBinding*> by_slot;
  for (const ResourceBinding& b : p.bindings) {
    auto [it, fresh] = by_slot.emplace(std::pair(b.set, b.binding), &b);
    if (!fresh)
      throw VulkanBackendError(Kind::kPipeline, fmt::format(
          "{}: buffers '{}' and '{}' are both bound at descriptor set {}, binding {}", PipelineFile(p),
          it->second->name, b.name, b.set, b.binding));
    Slot s;
    s.binding = &b;
    s.type = DescriptorTypeOf(b.kind);
    if (b.kind == ResourceKind::kSampler) {
      const auto smp = std::find_if(p.samplers.begin(), p.samplers.end(),
                                    [&](const SamplerDesc& d) { return d.name == b.name; });
      if (smp == p.samplers.end())
        throw VulkanBackendError(Kind::kPipeline, fmt::format(
            "{}: the sampler at descriptor set {}, binding {} names '{}', which Samplers does "
            "not define", PipelineFile(p), b.set, b.binding, b.name));
      s.sampler = size_t(smp - p.samplers.begin());
      slots.push_back(s);
      continue;
    }
    const auto buf = std::find_if(p.buffers.begin(), p.buffers.end(),
                                  [&](const BufferDesc& d) { return d.name == b.name; });
    if (buf == p.buffers.end())
      throw VulkanBackendError(Kind::kPipeline, fmt::format(
          "{}: the resource at descriptor set {}, binding {} names buffer '{}', which Buffers "
          "does not define", PipelineFile(p), b.set, b.binding, b.name));
    s.buffer = size_t(buf - p.buffers.begin());
    s.type = DescriptorTypeOf(b.kind);
    slots.push_back(s);
  }
  for (const SpirvResource& r : m.resources) {
    auto it = std::find_if(slots.begin(), slots.end(), [&](const Slot& s) {
      return s.binding->set == r.set && s.binding->binding == r.binding;
    });
    if (it == slots.end())
      throw VulkanBackendError(Kind::kPipeline, fmt::format(
          "{}: the shader's resource '{}' ({}, descriptor set {}, binding {}) has no binding in "
          "the pipeline: add a Resources entry for it with VulkanBinding Binding: {} in "
          "DescriptorSets[{}]", Where(p), r.name, ToString(r.type), r.set, r.binding, r.binding,
          r.set));
    if (r.type == SpirvDescriptorType::kOther)
      throw VulkanBackendError(Kind::kUnsupported, fmt::format(
          "{}: the shader's resource '{}' (set {}, binding {}) is neither a buffer, a 2-D "
          "texture nor a sampler; the Vulkan oracle cannot bind it", Where(p), r.name, r.set,
          r.binding));
    if ((r.type == SpirvDescriptorType::kSampledImage ||
         r.type == SpirvDescriptorType::kStorageImage) && r.image_dim != 1)
      throw VulkanBackendError(Kind::kUnsupported, fmt::format(
          "{}: the shader's resource '{}' (set {}, binding {}) is an image of SPIR-V Dim {}; "
          "the Vulkan oracle binds 2-D textures only", Where(p), r.name, r.set, r.binding,
          r.image_dim));
    if (r.type != SpirvTypeOf(it->binding->kind))
      throw VulkanBackendError(Kind::kPipeline, fmt::format(
          "{}: {} '{}' is bound as {} (a {}) at set {}, binding {}, but the shader declares "
          "'{}' there as a {}", Where(p),
          it->binding->kind == ResourceKind::kSampler ? "sampler"
          : IsTextureKind(it->binding->kind)          ? "texture"
                                                      : "buffer",
          it->binding->name, KindName(it->binding->kind),
          ToString(SpirvTypeOf(it->binding->kind)), r.set, r.binding, r.name, ToString(r.type)));
    it->shader = &r;
    if (it->binding->kind == ResourceKind::kSampler) continue;
    const BufferDesc& buf = p.buffers[it->buffer];
    // Without Stride a record is one element of Format: a shader with wider elements reads
    // several records as one, and that deserves the same note.
    if (r.type == SpirvDescriptorType::kStorageBuffer && r.array_stride != 0 &&
        r.array_stride != buf.RecordSize() &&
        (it->binding->kind == ResourceKind::kStructuredBuffer ||
         it->binding->kind == ResourceKind::kRWStructuredBuffer))
      notes.push_back(fmt::format(
          "buffer '{}' has {} but the shader's '{}' has array stride {} (glslang lays "
          "structured buffers out as std430: 3-component elements take 16 bytes)", buf.name,
          buf.stride ? fmt::format("Stride {}", buf.stride)
                     : fmt::format("{}-byte records ({}, no Stride)", buf.RecordSize(),
                                   ToString(buf.format)),
          r.name, r.array_stride));
  }
  return slots;
}

}  // namespace

// ------------------------------ ListVulkanDevices
std::vector<VulkanDeviceInfo> ListVulkanDevices() {
  WAVEEMU_IGNORE_DRIVER_LEAKS();
  Session s;
  CreateInstance(s, false, nullptr);
  std::vector<VulkanDeviceInfo> out;
  const auto devices = PhysicalDevices(s.instance);
  for (uint32_t i = 0; i < devices.size(); ++i) {
    auto caps = std::make_unique<Caps>();
    QueryCaps(*caps, devices[i], s.instance_api);
    out.push_back(InfoOf(*caps, i));
  }
  return out;
}

std::string Describe(const VulkanDeviceInfo& d) {
  std::string s = fmt::format("device {}: {} ({})\n", d.index, d.name, d.type);
  s += fmt::format("  driver: {} {} (version {}, raw 0x{:08x})\n",
                   d.driver_name.empty() ? "?" : d.driver_name, d.driver_info,
                   d.driver_version_text, d.driver_version);
  s += fmt::format("  Vulkan {}, vendor 0x{:04x}, device 0x{:04x}\n", d.api_version_text,
                   d.vendor_id, d.device_id);
  s += fmt::format("  subgroup size {}", d.subgroup_size);
  if (d.subgroup_size_control)
    s += fmt::format(" (size control: {}..{}{})", d.min_subgroup_size, d.max_subgroup_size,
                     d.compute_full_subgroups ? ", full subgroups" : "");
  s += fmt::format("\n  subgroup stages: {}\n  subgroup operations: {}\n",
                   Join(d.subgroup_stages), Join(d.subgroup_operations));
  s += fmt::format("  robustness2: {}, nullDescriptor: {}\n", d.robustness2 ? "yes" : "no",
                   d.null_descriptor ? "yes" : "no");
  s += fmt::format("  shaderFloat64 {}, shaderInt64 {}, shaderInt16 {}, subgroup extended types "
                   "{}\n", d.shader_float64 ? "yes" : "no", d.shader_int64 ? "yes" : "no",
                   d.shader_int16 ? "yes" : "no", d.subgroup_extended_types ? "yes" : "no");
  return s;
}

// ------------------------------ RunOnVulkan
namespace {

// glslang numbers a resource's binding by its register, whatever the class, so t0 and u0 collide.
// Pipelines that give resources both a DirectXBinding and a VulkanBinding say how registers map
// to bindings; when that is one shift per class (docs/pipelines.md: t+0, u+16, b+32), glslang
// applies it with --hlsl-iomap and the --stb/--suavb/--sib/--scb/--ssb shifts. Returns those options, or
// nothing when every shift is 0; a class with several shifts gets a note and no shift.
std::vector<std::string> BindingShiftArgs(const Pipeline& p, std::vector<std::string>& notes) {
  std::map<char, std::set<int64_t>> shifts;
  for (const ResourceBinding& b : p.bindings)
    if (b.has_dx_binding && b.has_vulkan_binding)
      shifts[RegisterClass(b.kind)].insert(int64_t(b.binding) - int64_t(b.dx_register));
  bool any = false;
  std::map<char, int64_t> chosen;
  for (const auto& [cls, values] : shifts) {
    if (values.size() != 1 || *values.begin() < 0) {
      notes.push_back(fmt::format(
          "register class '{}': VulkanBinding - DirectXBinding.Register is not one non-negative "
          "number across its resources, so glslang keeps binding = register for it", cls));
      continue;
    }
    chosen[cls] = *values.begin();
    any = any || chosen[cls] != 0;
  }
  if (!any) return {};
  return {"--hlsl-iomap", "--auto-map-bindings",
          "--shift-texture-binding", std::to_string(chosen['t']),
          "--shift-uav-binding", std::to_string(chosen['u']),
          "--shift-cbuffer-binding", std::to_string(chosen['b']),
          // RWTexture2D is an image to glslang, SamplerState a sampler: same u shift, own s.
          "--shift-image-binding", std::to_string(chosen['u']),
          "--shift-sampler-binding", std::to_string(chosen['s'])};
}

}  // namespace

BufferContents RunOnVulkan(const Pipeline& pipeline, const VulkanRunOptions& options) {
  HlslCompileOptions compile;
  compile.entry = pipeline.entry;
  compile.first_line = pipeline.hlsl_first_line;
  compile.include_dirs = options.include_dirs;
  compile.defines = options.defines;
  std::vector<std::string> shift_notes;
  compile.extra_args = BindingShiftArgs(pipeline, shift_notes);
  const std::string path = !pipeline.hlsl_path.empty() ? pipeline.hlsl_path : "shader.hlsl";
  VulkanRunReport local_report;
  VulkanRunOptions run_options = options;
  if (!run_options.report) run_options.report = &local_report;
  VulkanRunReport& report = *run_options.report;
  report = VulkanRunReport{};
  BufferContents out;
  try {
    std::vector<uint32_t> spirv = CompileHlsl(pipeline.hlsl_source, path, compile);
    out = RunSpirvOnVulkan(pipeline, std::move(spirv), run_options);
  } catch (...) {
    // A shift that could not be inferred often explains a binding error: keep the note.
    report.notes.insert(report.notes.begin(), shift_notes.begin(), shift_notes.end());
    throw;
  }
  report.notes.insert(report.notes.begin(), shift_notes.begin(), shift_notes.end());
  for (const std::string& a : compile.extra_args)
    report.binding_shifts += (report.binding_shifts.empty() ? "" : " ") + a;
  return out;
}

BufferContents RunSpirvOnVulkan(const Pipeline& p, std::vector<uint32_t> spirv,
                                const VulkanRunOptions& options) {
  WAVEEMU_IGNORE_DRIVER_LEAKS();
  VulkanRunReport local_report;
  VulkanRunReport& rep = options.report ? *options.report : local_report;
  rep = VulkanRunReport{};
  std::vector<std::string>& notes = rep.notes;

  if (options.rewrite_prefix_scans) rep.prefix_scans_rewritten = RewritePrefixScansToExclusive(spirv);
  else notes.push_back("prefix-scan rewrite is off: WavePrefixSum/Product run as glslang "
                       "emitted them (inclusive)");
  // glslang types every RWTexture2D<float4> Rgba32f; views of other formats need Unknown.
  rep.storage_images_rewritten = RewriteStorageImagesToUnknownFormat(spirv);
  const SpirvModuleInfo module = ReflectSpirv(spirv, p.entry);
  if (!module.has_entry)
    throw VulkanBackendError(Kind::kPipeline, fmt::format(
        "{}: the SPIR-V has no compute entry point '{}'", Where(p), p.entry));
  if (!module.local_size)
    throw VulkanBackendError(Kind::kPipeline, fmt::format(
        "{}: the SPIR-V gives no literal LocalSize for '{}' (numthreads)", Where(p), p.entry));
  const std::array<uint32_t, 3> local = *module.local_size;
  // glslang accepts numthreads(0, ...) and a driver may then run anything; DXC and Vulkan both
  // require every dimension to be at least 1.
  if (local[0] == 0 || local[1] == 0 || local[2] == 0)
    throw VulkanBackendError(Kind::kPipeline, fmt::format(
        "{}: numthreads({}, {}, {}) has a dimension of 0; each must be at least 1", Where(p),
        local[0], local[1], local[2]));
  rep.local_size = local;
  const uint32_t group_threads = local[0] * local[1] * local[2];

  Session s;
  CreateInstance(s, ValidationRequested(options.validation), &notes);
  const DeviceChoice choice = ChooseDevice(s, options);
  const Caps& caps = choice.chosen();
  rep.device = choice.info();
  const VulkanDeviceInfo& dev = rep.device;

  CheckCapabilities(p, module, caps, dev, notes);
  CheckLimits(p, local, caps);
  std::vector<Slot> slots = ResolveBindings(p, module, notes);

  // Wave size: requiredSubgroupSize when the device can pin it; full subgroups when allowed
  // (VUIDs 02757/02759: x must be a multiple of the size in play).
  uint32_t required = 0;
  rep.subgroup_size = caps.subgroup.subgroupSize;
  rep.requested_wave_size = p.wave_size;
  if (p.wave_size) {
    const int w = *p.wave_size;
    const bool pow2 = w > 0 && (w & (w - 1)) == 0;
    if (!SizeControlInCompute(caps)) {
      notes.push_back(fmt::format(
          "WaveSize {} is not honoured: device '{}' cannot require a subgroup size in compute "
          "shaders (VK_EXT_subgroup_size_control); it runs at its subgroup size {}", w, dev.name,
          caps.subgroup.subgroupSize));
    } else if (!pow2 || uint32_t(w) < caps.size_props.minSubgroupSize ||
               uint32_t(w) > caps.size_props.maxSubgroupSize) {
      notes.push_back(fmt::format(
          "WaveSize {} is not honoured: device '{}' supports subgroup sizes {}..{}; it runs at {}",
          w, dev.name, caps.size_props.minSubgroupSize, caps.size_props.maxSubgroupSize,
          caps.subgroup.subgroupSize));
    } else if (uint64_t(group_threads) >
               uint64_t(caps.size_props.maxComputeWorkgroupSubgroups) * uint32_t(w)) {
      notes.push_back(fmt::format(
          "WaveSize {} is not honoured: {} threads would need more than the device's {} "
          "subgroups per group", w, group_threads, caps.size_props.maxComputeWorkgroupSubgroups));
    } else {
      required = uint32_t(w);
      rep.wave_size_honoured = true;
      rep.subgroup_size = required;
    }
  }
  const uint32_t full_multiple =
      required ? required
               : (caps.has_size_control ? caps.size_props.maxSubgroupSize
                                        : caps.subgroup.subgroupSize);
  rep.full_subgroups = caps.has_size_control && caps.size_control.computeFullSubgroups &&
                       full_multiple != 0 && local[0] % full_multiple == 0;
  // Vulkan leaves the thread-to-lane mapping to the driver; lavapipe 22.3 gives each row of x
  // threads its own waves (numthreads(2,2,1): lanes 0,1,0,1), where D3D numbers by SV_GroupIndex.
  if (!rep.full_subgroups && (group_threads > rep.subgroup_size || local[1] * local[2] > 1))
    notes.push_back(fmt::format(
        "full subgroups are not required (numthreads x = {} is not a multiple of {}, or the "
        "device lacks computeFullSubgroups): the driver chooses how threads map to lanes, and "
        "may differ from D3D's lane = SV_GroupIndex % wave size (lavapipe starts a new wave at "
        "every row)", local[0], full_multiple));

  if (!caps.features.robustBufferAccess)
    notes.push_back("the device lacks robustBufferAccess: out-of-bounds accesses are undefined");
  rep.robustness2 = caps.has_robustness2;
  rep.robustness = caps.has_robustness2
                       ? std::string("robustBufferAccess2") +
                             (caps.robustness2.nullDescriptor ? " + nullDescriptor" : "") +
                             " (VK_EXT_robustness2: out-of-bounds reads give 0, writes are "
                             "dropped, as D3D)"
                       : caps.features.robustBufferAccess
                             ? "robustBufferAccess only (out-of-bounds reads give 0 or any "
                               "value of the buffer; writes may land anywhere in it)"
                             : "none";

  // ---- device and queue
  DeviceRequest request;
  request.queue_flags = VK_QUEUE_COMPUTE_BIT;
  request.features = AvailableComputeFeatures(caps);
  CreateDevice(s, caps, dev, request);

  // ---- buffers: one per BufferDesc, host-visible, filled with its data
  const auto& limits = caps.props.limits;
  const bool null_descriptor = caps.has_robustness2 && caps.robustness2.nullDescriptor;
  std::vector<HostBuffer> buffers(p.buffers.size());
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const BufferDesc& b = p.buffers[i];
    if (b.data.empty()) continue;  // bound as a null descriptor (or refused) below
    if (b.texture) continue;       // an image, below
    buffers[i] = CreateHostBuffer(
        s, caps, b.data.size(),
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
            VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        fmt::format("creating buffer '{}' ({} bytes)", b.name, b.data.size()));
    std::memcpy(buffers[i].mapped, b.data.data(), b.data.size());
  }

  // ---- images: one per texture buffer that a resource binds, all levels
  std::map<size_t, DeviceImage> images;  // by index into p.buffers
  for (const Slot& sl : slots) {
    if (!IsTextureKind(sl.binding->kind) || images.count(sl.buffer)) continue;
    const BufferDesc& b = p.buffers[sl.buffer];
    images[sl.buffer] = CreateImage(s, caps, dev, *b.texture, fmt::format("texture '{}'", b.name));
  }

  // ---- descriptor set layouts (sets 0..max, empty where nothing is bound)
  uint32_t set_count = 0;
  for (const Slot& sl : slots) set_count = std::max(set_count, sl.binding->set + 1);
  std::vector<std::vector<VkDescriptorSetLayoutBinding>> layout_bindings(set_count);
  std::map<VkDescriptorType, uint32_t> type_counts;
  for (const Slot& sl : slots) {
    VkDescriptorSetLayoutBinding lb{};
    lb.binding = sl.binding->binding;
    lb.descriptorType = sl.type;
    lb.descriptorCount = 1;
    lb.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    layout_bindings[sl.binding->set].push_back(lb);
    ++type_counts[sl.type];
  }
  std::vector<VkDescriptorSetLayout> set_layouts(set_count, VK_NULL_HANDLE);
  for (uint32_t i = 0; i < set_count; ++i) {
    VkDescriptorSetLayoutCreateInfo li = Make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    li.bindingCount = uint32_t(layout_bindings[i].size());
    li.pBindings = layout_bindings[i].data();
    Check(vkCreateDescriptorSetLayout(s.device, &li, nullptr, &set_layouts[i]),
          "vkCreateDescriptorSetLayout", fmt::format("descriptor set {}", i));
    s.Defer([l = set_layouts[i]](VkDevice d) { vkDestroyDescriptorSetLayout(d, l, nullptr); });
  }
  std::vector<VkDescriptorSet> sets(set_count, VK_NULL_HANDLE);
  if (set_count) {
    std::vector<VkDescriptorPoolSize> sizes;
    for (auto [type, count] : type_counts) sizes.push_back({type, count});
    VkDescriptorPoolCreateInfo pi = Make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pi.maxSets = set_count;
    pi.poolSizeCount = uint32_t(sizes.size());
    pi.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    Check(vkCreateDescriptorPool(s.device, &pi, nullptr, &pool), "vkCreateDescriptorPool");
    s.Defer([pool](VkDevice d) { vkDestroyDescriptorPool(d, pool, nullptr); });
    VkDescriptorSetAllocateInfo si = Make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    si.descriptorPool = pool;
    si.descriptorSetCount = set_count;
    si.pSetLayouts = set_layouts.data();
    Check(vkAllocateDescriptorSets(s.device, &si, sets.data()), "vkAllocateDescriptorSets");
  }

  // ---- descriptors
  std::vector<VkDescriptorBufferInfo> buffer_infos(slots.size());
  std::vector<VkDescriptorImageInfo> image_infos(slots.size());
  std::vector<VkBufferView> slot_views(slots.size(), VK_NULL_HANDLE);
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t k = 0; k < slots.size(); ++k) {
    Slot& sl = slots[k];
    if (sl.binding->kind == ResourceKind::kSampler || IsTextureKind(sl.binding->kind)) {
      VkWriteDescriptorSet w = Make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      w.dstSet = sets[sl.binding->set];
      w.dstBinding = sl.binding->binding;
      w.descriptorCount = 1;
      w.descriptorType = sl.type;
      const ResourceBinding& rb = *sl.binding;
      if (rb.kind == ResourceKind::kSampler) {
        image_infos[k].sampler = CreateSampler(s, caps, dev, p.samplers[sl.sampler]);
      } else {
        const DeviceImage& img = images.at(sl.buffer);
        const bool srv = rb.kind == ResourceKind::kTexture2D;
        image_infos[k].imageView =
            CreateView(s, img, rb.view_format.value_or(img.desc.format),
                       srv ? rb.most_detailed_mip : rb.mip_slice,
                       srv ? (rb.mip_count ? rb.mip_count : img.desc.mip_levels - rb.most_detailed_mip)
                           : 1u);
        image_infos[k].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
      }
      w.pImageInfo = &image_infos[k];
      writes.push_back(w);
      continue;
    }
    const BufferDesc& b = p.buffers[sl.buffer];
    const std::string label = fmt::format("buffer '{}' ({} at set {}, binding {})", b.name,
                                          KindName(sl.binding->kind), sl.binding->set,
                                          sl.binding->binding);
    if (b.data.empty() && !null_descriptor)
      throw VulkanBackendError(Kind::kUnsupported, fmt::format(
          "{}: {} is empty, and device '{}' has no nullDescriptor (VK_EXT_robustness2) to bind "
          "an empty buffer", PipelineFile(p), label, dev.name));
    VkWriteDescriptorSet w = Make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    w.dstSet = sets[sl.binding->set];
    w.dstBinding = sl.binding->binding;
    w.descriptorCount = 1;
    w.descriptorType = sl.type;
    if (sl.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || sl.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER) {
      const uint32_t max_range = sl.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                     ? limits.maxUniformBufferRange
                                     : limits.maxStorageBufferRange;
      if (b.data.size() > max_range)
        throw VulkanBackendError(Kind::kUnsupported, fmt::format(
            "{}: {} is {} bytes; device '{}' allows at most {} bytes for this descriptor type",
            PipelineFile(p), label, b.data.size(), dev.name, max_range));
      buffer_infos[k] = {buffers[sl.buffer].buffer, 0, b.data.empty() ? VK_WHOLE_SIZE : b.data.size()};
      w.pBufferInfo = &buffer_infos[k];
    } else {
      // Typed buffer: the format comes from the data's Format and Stride (components per
      // element); the shader's declared format wins when both have the same texel size.
      const uint32_t elem = uint32_t(ElementSize(b.format));
      const uint32_t stride = b.stride ? b.stride : elem;
      if (elem == 0 || stride % elem != 0 || stride / elem < 1 || stride / elem > 4)
        throw VulkanBackendError(Kind::kPipeline, fmt::format(
            "{}: {} has Stride {}, which is not 1 to 4 elements of its Format ({} bytes each)",
            PipelineFile(p), label, stride, elem));
      VkFormat format = WithComponents(ComponentFormat(b.format), stride / elem);
      const VkFormat shader_format =
          sl.shader ? FormatOfSpirv(sl.shader->image_format) : VK_FORMAT_UNDEFINED;
      if (shader_format != VK_FORMAT_UNDEFINED && shader_format != format) {
        if (FormatBytes(shader_format) != FormatBytes(format))
          throw VulkanBackendError(Kind::kPipeline, fmt::format(
              "{}: {} holds {} texels ({} bytes) but the shader's '{}' reads {} ({} bytes)",
              Where(p), label, FormatName(format), FormatBytes(format), sl.shader->name,
              SpirvImageFormatName(sl.shader->image_format), FormatBytes(shader_format)));
        notes.push_back(fmt::format("buffer '{}': view format {} (the shader's {}) instead of {} "
                                    "(its Format)", b.name, FormatName(shader_format),
                                    SpirvImageFormatName(sl.shader->image_format),
                                    FormatName(format)));
        format = shader_format;
      }
      sl.format = format;
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(caps.physical, format, &fp);
      const VkFormatFeatureFlags need = sl.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                            ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT
                                            : VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
      if (!(fp.bufferFeatures & need))
        throw VulkanBackendError(Kind::kUnsupported, fmt::format(
            "{}: device '{}' does not support {} as a {} texel buffer format ({})", PipelineFile(p),
            dev.name, FormatName(format),
            sl.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ? "uniform" : "storage", label));
      const uint32_t texel = FormatBytes(format);
      if (!b.data.empty()) {
        if (b.data.size() % texel != 0)
          throw VulkanBackendError(Kind::kPipeline, fmt::format(
              "{}: {} is {} bytes, not a whole number of {}-byte {} texels", PipelineFile(p), label,
              b.data.size(), texel, FormatName(format)));
        if (b.data.size() / texel > limits.maxTexelBufferElements)
          throw VulkanBackendError(Kind::kUnsupported, fmt::format(
              "{}: {} has {} texels; device '{}' allows {}", PipelineFile(p), label, b.data.size() / texel,
              dev.name, limits.maxTexelBufferElements));
        VkBufferViewCreateInfo vi = Make<VkBufferViewCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO);
        vi.buffer = buffers[sl.buffer].buffer;
        vi.format = format;
        vi.offset = 0;
        vi.range = b.data.size();
        Check(vkCreateBufferView(s.device, &vi, nullptr, &slot_views[k]), "vkCreateBufferView",
              label);
        s.Defer([v = slot_views[k]](VkDevice d) { vkDestroyBufferView(d, v, nullptr); });
      }
      w.pTexelBufferView = &slot_views[k];
    }
    writes.push_back(w);
  }
  if (!writes.empty())
    vkUpdateDescriptorSets(s.device, uint32_t(writes.size()), writes.data(), 0, nullptr);

  // ---- pipeline
  VkPipelineLayoutCreateInfo pli = Make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  pli.setLayoutCount = set_count;
  pli.pSetLayouts = set_layouts.data();
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  Check(vkCreatePipelineLayout(s.device, &pli, nullptr, &pipeline_layout),
        "vkCreatePipelineLayout");
  s.Defer([pipeline_layout](VkDevice d) { vkDestroyPipelineLayout(d, pipeline_layout, nullptr); });
  VkShaderModuleCreateInfo mi = Make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  mi.codeSize = spirv.size() * sizeof(uint32_t);
  mi.pCode = spirv.data();
  VkShaderModule module_handle = VK_NULL_HANDLE;
  Check(vkCreateShaderModule(s.device, &mi, nullptr, &module_handle), "vkCreateShaderModule",
        Where(p));
  s.Defer([module_handle](VkDevice d) { vkDestroyShaderModule(d, module_handle, nullptr); });
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required_info = Make<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
  required_info.requiredSubgroupSize = required;
  VkComputePipelineCreateInfo ci = Make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.pNext = required ? &required_info : nullptr;
  ci.stage.flags = rep.full_subgroups ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT
                                      : 0;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module_handle;
  ci.stage.pName = p.entry.c_str();
  ci.layout = pipeline_layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  Check(vkCreateComputePipelines(s.device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline),
        "vkCreateComputePipelines", Where(p));
  s.Defer([pipeline](VkDevice d) { vkDestroyPipeline(d, pipeline, nullptr); });

  // ---- record, submit, wait
  VkCommandBuffer cmd = BeginOneShot(s);
  for (const auto& [index, img] : images) RecordUpload(s, caps, cmd, img, p.buffers[index].data);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (set_count)
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, set_count,
                            sets.data(), 0, nullptr);
  vkCmdDispatch(cmd, p.dispatch[0], p.dispatch[1], p.dispatch[2]);
  VkMemoryBarrier barrier = Make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                       1, &barrier, 0, nullptr, 0, nullptr);
  std::map<size_t, HostBuffer> readbacks;
  for (const auto& [index, img] : images) readbacks[index] = RecordReadback(s, caps, cmd, img);
  rep.dispatch_ms = SubmitAndWait(s, cmd, options.timeout_seconds, Where(p), dev.name);
  if (!s.validation_messages.empty())
    notes.push_back(fmt::format("{} validation message(s); the first: {}",
                                s.validation_messages.size(), s.validation_messages.front()));

  BufferContents out;
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const BufferDesc& b = p.buffers[i];
    std::vector<std::byte> bytes(b.data.size());
    const void* from = readbacks.count(i) ? readbacks[i].mapped : buffers[i].mapped;
    if (b.texture && !readbacks.count(i)) from = b.data.data();  // not bound: unchanged
    if (!bytes.empty()) std::memcpy(bytes.data(), from, bytes.size());
    out[b.name] = std::move(bytes);
  }
  return out;
}

}  // namespace waveemu::oracle
