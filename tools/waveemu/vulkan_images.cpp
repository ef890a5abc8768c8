// vulkan_images.cpp -- textures and samplers on a Vulkan device (vulkan_images.h): images with
// every level, views, samplers, and the staging copies in and out, all in GENERAL layout while
// the compute shader runs so one image can be sampled and stored in one dispatch.
#include "tools/waveemu/vulkan_images.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

namespace waveemu::oracle::vk {

namespace {

bool IsRgba8(Format f) { return f == Format::R8G8B8A8_UNORM || f == Format::R8G8B8A8_UNORM_SRGB; }

VkImageSubresourceRange AllLevels(const DeviceImage& image) {
  return {VK_IMAGE_ASPECT_COLOR_BIT, 0, image.desc.mip_levels, 0, 1};
}

std::vector<VkBufferImageCopy> LevelCopies(const DeviceImage& image) {
  std::vector<VkBufferImageCopy> regions;
  for (uint32_t m = 0; m < image.desc.mip_levels; ++m) {
    VkBufferImageCopy c{};
    c.bufferOffset = image.desc.LevelOffset(m);
    c.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, 0, 1};
    c.imageExtent = {image.desc.Width(m), image.desc.Height(m), 1};
    regions.push_back(c);
  }
  return regions;
}

}  // namespace

VkFormat VkFormatOf(Format f) {
  switch (f) {
    case Format::R8G8B8A8_UNORM: return VK_FORMAT_R8G8B8A8_UNORM;
    case Format::R8G8B8A8_UNORM_SRGB: return VK_FORMAT_R8G8B8A8_SRGB;
    case Format::R16G16B16A16_FLOAT: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case Format::R32G32B32A32_FLOAT: return VK_FORMAT_R32G32B32A32_SFLOAT;
    case Format::R32_FLOAT: return VK_FORMAT_R32_SFLOAT;
    case Format::R32_UINT: return VK_FORMAT_R32_UINT;
  }
  return VK_FORMAT_UNDEFINED;
}

// ------------------------------ CreateImage
DeviceImage CreateImage(Session& s, const Caps& caps, const VulkanDeviceInfo& info,
                        const TextureDesc& desc, const std::string& what) {
  DeviceImage img;
  img.desc = desc;
  img.what = what;
  const bool rgba8 = IsRgba8(desc.format);
  img.format = rgba8 ? VK_FORMAT_R8G8B8A8_UNORM : VkFormatOf(desc.format);
  VkFormatProperties fp;
  vkGetPhysicalDeviceFormatProperties(caps.physical, img.format, &fp);
  const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                    VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT |
                                    VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                    VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if ((fp.optimalTilingFeatures & need) != need)
    throw VulkanBackendError(Kind::kUnsupported, fmt::format(
        "{}: device '{}' does not support {} images for sampling, storage and transfer "
        "(optimal tiling features 0x{:x})", what, info.name, InfoOf(desc.format).name,
        fp.optimalTilingFeatures));
  VkImageCreateInfo ci = Make<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  ci.flags = rgba8 ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0;
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = img.format;
  ci.extent = {desc.width, desc.height, 1};
  ci.mipLevels = desc.mip_levels;
  ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
             VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  Check(vkCreateImage(s.device, &ci, nullptr, &img.image), "vkCreateImage", what);
  s.Defer([i = img.image](VkDevice d) { vkDestroyImage(d, i, nullptr); });
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(s.device, img.image, &req);
  VkMemoryAllocateInfo ai = Make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  ai.allocationSize = req.size;
  try {
    ai.memoryTypeIndex = FindMemoryType(caps, req.memoryTypeBits,
                                        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  } catch (const VulkanBackendError&) {
    ai.memoryTypeIndex = FindMemoryType(caps, req.memoryTypeBits, 0);
  }
  Check(vkAllocateMemory(s.device, &ai, nullptr, &img.memory), "vkAllocateMemory", what);
  s.Defer([m = img.memory](VkDevice d) { vkFreeMemory(d, m, nullptr); });
  Check(vkBindImageMemory(s.device, img.image, img.memory, 0), "vkBindImageMemory", what);
  return img;
}

// ------------------------------ CreateView
VkImageView CreateView(Session& s, const DeviceImage& image, Format view, uint32_t base_mip,
                       uint32_t count) {
  VkImageViewCreateInfo vi = Make<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  vi.image = image.image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = VkFormatOf(view);
  vi.components = {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                   VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY};
  vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, base_mip, count, 0, 1};
  // An sRGB view of a storage-capable image: limit its usage to sampling (VK_KHR_maintenance2
  // in 1.1 core), since sRGB formats have no storage support.
  VkImageViewUsageCreateInfo usage =
      Make<VkImageViewUsageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO);
  usage.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  if (view == Format::R8G8B8A8_UNORM_SRGB) vi.pNext = &usage;
  VkImageView v = VK_NULL_HANDLE;
  Check(vkCreateImageView(s.device, &vi, nullptr, &v), "vkCreateImageView",
        fmt::format("{}: a {} view of levels {}..{}", image.what, InfoOf(view).name, base_mip,
                    base_mip + count - 1));
  s.Defer([v](VkDevice d) { vkDestroyImageView(d, v, nullptr); });
  return v;
}

// ------------------------------ CreateSampler
VkSampler CreateSampler(Session& s, const Caps& caps, const VulkanDeviceInfo& info,
                        const SamplerDesc& desc) {
  auto filter = [](SamplerFilter f) {
    return f == SamplerFilter::kNearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
  };
  auto address = [&](SamplerAddress a) {
    switch (a) {
      case SamplerAddress::kRepeat: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
      case SamplerAddress::kMirror: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
      case SamplerAddress::kBorder: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
      case SamplerAddress::kMirrorOnce:
        if (!caps.extensions.count(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME))
          throw VulkanBackendError(Kind::kUnsupported, fmt::format(
              "sampler '{}': Address MirrorOnce needs VK_KHR_sampler_mirror_clamp_to_edge, "
              "which device '{}' does not have", desc.name, info.name));
        return VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
      case SamplerAddress::kClamp: break;
    }
    return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  };
  VkSamplerCreateInfo si = Make<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
  si.magFilter = filter(desc.mag_filter);
  si.minFilter = filter(desc.min_filter);
  si.mipmapMode = desc.mip_filter == SamplerFilter::kNearest ? VK_SAMPLER_MIPMAP_MODE_NEAREST
                                                             : VK_SAMPLER_MIPMAP_MODE_LINEAR;
  si.addressModeU = address(desc.address_u);
  si.addressModeV = address(desc.address_v);
  si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  si.mipLodBias = 0.0f;
  si.anisotropyEnable = VK_FALSE;
  si.maxAnisotropy = 1.0f;
  si.compareEnable = VK_FALSE;
  si.minLod = desc.min_lod;
  // VK_LOD_CLAMP_NONE is 1000: D3D12's FLT_MAX means the same.
  si.maxLod = desc.max_lod > VK_LOD_CLAMP_NONE ? VK_LOD_CLAMP_NONE : desc.max_lod;
  switch (desc.border) {
    case SamplerBorder::kTransparentBlack:
      si.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
      break;
    case SamplerBorder::kOpaqueBlack: si.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK; break;
    case SamplerBorder::kOpaqueWhite: si.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE; break;
  }
  si.unnormalizedCoordinates = VK_FALSE;
  VkSampler sampler = VK_NULL_HANDLE;
  Check(vkCreateSampler(s.device, &si, nullptr, &sampler), "vkCreateSampler",
        fmt::format("sampler '{}'", desc.name));
  s.Defer([sampler](VkDevice d) { vkDestroySampler(d, sampler, nullptr); });
  return sampler;
}

// ------------------------------ RecordUpload
void RecordUpload(Session& s, const Caps& caps, VkCommandBuffer cmd, const DeviceImage& image,
                  std::span<const std::byte> data) {
  const HostBuffer staging = CreateHostBuffer(s, caps, data.size(),
                                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                              fmt::format("staging {}", image.what));
  std::memcpy(staging.mapped, data.data(), data.size());
  VkImageMemoryBarrier b = Make<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  b.srcAccessMask = 0;
  b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image.image;
  b.subresourceRange = AllLevels(image);
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &b);
  const auto regions = LevelCopies(image);
  vkCmdCopyBufferToImage(cmd, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         uint32_t(regions.size()), regions.data());
  b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &b);
}

// ------------------------------ RecordReadback
HostBuffer RecordReadback(Session& s, const Caps& caps, VkCommandBuffer cmd,
                          const DeviceImage& image) {
  const HostBuffer staging = CreateHostBuffer(s, caps, image.desc.TotalBytes(),
                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              fmt::format("readback {}", image.what));
  VkImageMemoryBarrier b = Make<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image.image;
  b.subresourceRange = AllLevels(image);
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &b);
  const auto regions = LevelCopies(image);
  vkCmdCopyImageToBuffer(cmd, image.image, VK_IMAGE_LAYOUT_GENERAL, staging.buffer,
                         uint32_t(regions.size()), regions.data());
  VkBufferMemoryBarrier hb = Make<VkBufferMemoryBarrier>(VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER);
  hb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  hb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  hb.srcQueueFamilyIndex = hb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  hb.buffer = staging.buffer;
  hb.offset = 0;
  hb.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                       nullptr, 1, &hb, 0, nullptr);
  return staging;
}

}  // namespace waveemu::oracle::vk
