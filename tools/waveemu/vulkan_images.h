// vulkan_images.h -- textures and samplers for the Vulkan runners (docs/pipelines.md, "Textures and
// samplers"): a VkImage per texture buffer with every level, views per binding, samplers from
// SamplerDesc, and the staging copies in and out recorded into the run's command buffer.
// Internal to tools/waveemu, like vulkan_context.h.
#pragma once

#include "tools/waveemu/pipeline.h"
#include "tools/waveemu/vulkan_context.h"

#include <cstddef>
#include <span>
#include <string>

namespace waveemu::oracle::vk {

/// The VkFormat of a texture or view format (R8G8B8A8_UNORM_SRGB: VK_FORMAT_R8G8B8A8_SRGB).
VkFormat VkFormatOf(Format f);

/// One texture on the device. The image's format is the texture's, except that both R8G8B8A8
/// formats make an R8G8B8A8_UNORM image with MUTABLE_FORMAT (sRGB images cannot be storage
/// images; views choose UNORM or sRGB).
struct DeviceImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  TextureDesc desc;
  std::string what;  // "texture 'Src'" for messages
};

/// Creates the image (sampled, storage, transfer source and destination; device-local memory
/// where there is some) after checking that the device supports the format for sampling and
/// storage. Throws VulkanBackendError(kUnsupported) naming the format otherwise.
DeviceImage CreateImage(Session& s, const Caps& caps, const VulkanDeviceInfo& info,
                        const TextureDesc& desc, const std::string& what);

/// A 2-D view of levels base .. base + count - 1 through `view` (compatible with the image).
VkImageView CreateView(Session& s, const DeviceImage& image, Format view, uint32_t base_mip,
                       uint32_t count);

/// A sampler as D3D12 would describe it: normalized coordinates, no anisotropy, no comparison,
/// mipLodBias 0, the filters, address modes, border colour and LOD clamp of `desc`. MirrorOnce
/// needs VK_KHR_sampler_mirror_clamp_to_edge (enabled by CreateDevice when the device has it).
VkSampler CreateSampler(Session& s, const Caps& caps, const VulkanDeviceInfo& info,
                        const SamplerDesc& desc);

/// Records into `cmd`: UNDEFINED -> TRANSFER_DST, a copy of every level from a staging buffer
/// holding `data` (TextureDesc order), then -> GENERAL for compute shader reads and writes.
void RecordUpload(Session& s, const Caps& caps, VkCommandBuffer cmd, const DeviceImage& image,
                  std::span<const std::byte> data);

/// Records into `cmd`, after compute work: a barrier, a copy of every level (GENERAL) into a
/// staging buffer, and a host-read barrier. Read the returned buffer's bytes after the submit
/// finished; they are in TextureDesc order.
HostBuffer RecordReadback(Session& s, const Caps& caps, VkCommandBuffer cmd,
                          const DeviceImage& image);

}  // namespace waveemu::oracle::vk
