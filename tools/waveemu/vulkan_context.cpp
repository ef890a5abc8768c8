// vulkan_context.cpp -- the shared Vulkan plumbing (vulkan_context.h): checked calls, instance
// with optional validation, device capabilities and choice, device and queue, host-visible
// buffers, one-shot submits with a fence limit, and the Session that destroys it all.
#include "tools/waveemu/vulkan_context.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#endif

namespace waveemu::oracle::vk {

const char* const kNoDeviceHint =
    "for a CPU device install Debian's mesa-vulkan-drivers (lavapipe, "
    "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json); VK_DRIVER_FILES selects ICDs";

// ------------------------------ errors and text
const char* VkResultName(VkResult r) {
  switch (r) {
#define WAVEEMU_CASE(x) case x: return #x;
    WAVEEMU_CASE(VK_SUCCESS)
    WAVEEMU_CASE(VK_NOT_READY)
    WAVEEMU_CASE(VK_TIMEOUT)
    WAVEEMU_CASE(VK_EVENT_SET)
    WAVEEMU_CASE(VK_EVENT_RESET)
    WAVEEMU_CASE(VK_INCOMPLETE)
    WAVEEMU_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    WAVEEMU_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    WAVEEMU_CASE(VK_ERROR_INITIALIZATION_FAILED)
    WAVEEMU_CASE(VK_ERROR_DEVICE_LOST)
    WAVEEMU_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    WAVEEMU_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    WAVEEMU_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    WAVEEMU_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    WAVEEMU_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    WAVEEMU_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    WAVEEMU_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    WAVEEMU_CASE(VK_ERROR_FRAGMENTED_POOL)
    WAVEEMU_CASE(VK_ERROR_UNKNOWN)
    WAVEEMU_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    WAVEEMU_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    WAVEEMU_CASE(VK_ERROR_FRAGMENTATION)
    WAVEEMU_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    WAVEEMU_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    WAVEEMU_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef WAVEEMU_CASE
    default: return "VK_RESULT_UNKNOWN";
  }
}

void Check(VkResult r, const char* call, const std::string& what) {
  if (r == VK_SUCCESS) return;
  std::string msg = fmt::format("{} failed: {} ({})", call, VkResultName(r), int(r));
  if (!what.empty()) msg += fmt::format(" while {}", what);
  throw VulkanBackendError(Kind::kVulkanCall, msg, call, VkResultName(r));
}

std::string VersionText(uint32_t v) {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                     VK_API_VERSION_PATCH(v));
}

std::string DriverVersionText(uint32_t vendor, uint32_t v) {
  if (vendor == 0x10de)  // NVIDIA packs 10.8.8.6 bits
    return fmt::format("{}.{}.{}.{}", (v >> 22) & 0x3ff, (v >> 14) & 0xff, (v >> 6) & 0xff,
                       v & 0x3f);
  return VersionText(v);
}

std::string Lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

namespace {

// ------------------------------ names
const char* DeviceTypeName(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

std::vector<std::string> StageNames(VkShaderStageFlags s) {
  static const std::pair<VkShaderStageFlagBits, const char*> kStages[] = {
      {VK_SHADER_STAGE_VERTEX_BIT, "vertex"},
      {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, "tessellation_control"},
      {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, "tessellation_evaluation"},
      {VK_SHADER_STAGE_GEOMETRY_BIT, "geometry"},
      {VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"},
      {VK_SHADER_STAGE_COMPUTE_BIT, "compute"},
      {VK_SHADER_STAGE_TASK_BIT_EXT, "task"},
      {VK_SHADER_STAGE_MESH_BIT_EXT, "mesh"},
      {VK_SHADER_STAGE_RAYGEN_BIT_KHR, "raygen"},
      {VK_SHADER_STAGE_ANY_HIT_BIT_KHR, "any_hit"},
      {VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR, "closest_hit"},
      {VK_SHADER_STAGE_MISS_BIT_KHR, "miss"},
      {VK_SHADER_STAGE_INTERSECTION_BIT_KHR, "intersection"},
      {VK_SHADER_STAGE_CALLABLE_BIT_KHR, "callable"},
  };
  std::vector<std::string> out;
  for (auto [bit, name] : kStages)
    if (s & bit) out.push_back(name);
  return out;
}

std::vector<std::string> OperationNames(VkSubgroupFeatureFlags f) {
  std::vector<std::string> out;
  for (const SubgroupFeature& sf : kSubgroupFeatures)
    if (f & sf.bit) out.push_back(sf.name);
  return out;
}

// VkPhysicalDeviceFeatures is VkBool32 members in this order (vulkan_core.h).
constexpr const char* kCoreFeatureNames[] = {
    "robustBufferAccess",
    "fullDrawIndexUint32",
    "imageCubeArray",
    "independentBlend",
    "geometryShader",
    "tessellationShader",
    "sampleRateShading",
    "dualSrcBlend",
    "logicOp",
    "multiDrawIndirect",
    "drawIndirectFirstInstance",
    "depthClamp",
    "depthBiasClamp",
    "fillModeNonSolid",
    "depthBounds",
    "wideLines",
    "largePoints",
    "alphaToOne",
    "multiViewport",
    "samplerAnisotropy",
    "textureCompressionETC2",
    "textureCompressionASTC_LDR",
    "textureCompressionBC",
    "occlusionQueryPrecise",
    "pipelineStatisticsQuery",
    "vertexPipelineStoresAndAtomics",
    "fragmentStoresAndAtomics",
    "shaderTessellationAndGeometryPointSize",
    "shaderImageGatherExtended",
    "shaderStorageImageExtendedFormats",
    "shaderStorageImageMultisample",
    "shaderStorageImageReadWithoutFormat",
    "shaderStorageImageWriteWithoutFormat",
    "shaderUniformBufferArrayDynamicIndexing",
    "shaderSampledImageArrayDynamicIndexing",
    "shaderStorageBufferArrayDynamicIndexing",
    "shaderStorageImageArrayDynamicIndexing",
    "shaderClipDistance",
    "shaderCullDistance",
    "shaderFloat64",
    "shaderInt64",
    "shaderInt16",
    "shaderResourceResidency",
    "shaderResourceMinLod",
    "sparseBinding",
    "sparseResidencyBuffer",
    "sparseResidencyImage2D",
    "sparseResidencyImage3D",
    "sparseResidency2Samples",
    "sparseResidency4Samples",
    "sparseResidency8Samples",
    "sparseResidency16Samples",
    "sparseResidencyAliased",
    "variableMultisampleRate",
    "inheritedQueries"
};
static_assert(sizeof(VkPhysicalDeviceFeatures) == std::size(kCoreFeatureNames) * sizeof(VkBool32),
              "kCoreFeatureNames must list every VkPhysicalDeviceFeatures member, in order");

std::array<VkBool32, std::size(kCoreFeatureNames)> FeatureArray(const VkPhysicalDeviceFeatures& f) {
  std::array<VkBool32, std::size(kCoreFeatureNames)> out{};
  std::memcpy(out.data(), &f, sizeof f);
  return out;
}

VKAPI_ATTR VkBool32 VKAPI_CALL OnValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    const std::string msg = fmt::format("vulkan validation: {}", data->pMessage);
    std::cerr << msg << '\n';
    static_cast<std::vector<std::string>*>(user)->push_back(msg);
  }
  return VK_FALSE;
}

/// Under AddressSanitizer (the debug preset), keeps every Vulkan driver the loader opened loaded
/// until exit. lavapipe's own threads allocate memory that only the driver references; once
/// vkDestroyInstance unloads it, LeakSanitizer sees those blocks as leaked (the ScopedDisabler of
/// WAVEEMU_IGNORE_DRIVER_LEAKS covers the calling thread only) and cannot name their frames.
void PinVulkanDriversUnderAsan() {
#if defined(__SANITIZE_ADDRESS__)
  std::vector<std::string> drivers;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        if (info->dlpi_name && std::strstr(info->dlpi_name, "libvulkan_"))
          static_cast<std::vector<std::string>*>(out)->push_back(info->dlpi_name);
        return 0;
      },
      &drivers);
  for (const std::string& path : drivers)  // not inside the callback: it holds the loader lock
    dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
#endif
}

}  // namespace

bool ValidationRequested(bool option) {
  const char* env = std::getenv("WAVEEMU_VULKAN_VALIDATION");
  return option || (env && *env && std::string(env) != "0");
}

void CreateInstance(Session& s, bool validation, std::vector<std::string>* notes) {
  uint32_t loader_api = VK_API_VERSION_1_0;
  auto enumerate_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  if (enumerate_version) enumerate_version(&loader_api);
  if (loader_api < VK_API_VERSION_1_1)
    throw VulkanBackendError(Kind::kNoDevice, fmt::format(
        "the Vulkan loader supports only Vulkan {}; the oracle needs 1.1 (subgroup operations)",
        VersionText(loader_api)));
  s.instance_api = std::min<uint32_t>(loader_api, VK_API_VERSION_1_3);

  std::vector<const char*> layers, extensions;
  if (validation) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> available(n);
    vkEnumerateInstanceLayerProperties(&n, available.data());
    const bool found = std::any_of(available.begin(), available.end(), [](const auto& l) {
      return std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    });
    if (found) {
      layers.push_back("VK_LAYER_KHRONOS_validation");
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    } else if (notes) {
      notes->push_back("validation was asked for but VK_LAYER_KHRONOS_validation is not "
                       "installed (Debian: vulkan-validationlayers)");
    }
  }
  VkApplicationInfo app = Make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "waveemu";
  app.apiVersion = s.instance_api;
  VkInstanceCreateInfo info = Make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &app;
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  const VkResult r = vkCreateInstance(&info, nullptr, &s.instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    throw VulkanBackendError(Kind::kNoDevice,
                             fmt::format("no Vulkan driver found (vkCreateInstance: {}); {}",
                                         VkResultName(r), kNoDeviceHint),
                             "vkCreateInstance", VkResultName(r));
  Check(r, "vkCreateInstance");
  PinVulkanDriversUnderAsan();
  if (!layers.empty()) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(s.instance, "vkCreateDebugUtilsMessengerEXT"));
    VkDebugUtilsMessengerCreateInfoEXT m = Make<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    m.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    m.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    m.pfnUserCallback = OnValidationMessage;
    m.pUserData = &s.validation_messages;
    if (create) Check(create(s.instance, &m, nullptr, &s.messenger),
                      "vkCreateDebugUtilsMessengerEXT");
  }
}

// ------------------------------ Session
Session::~Session() {
  if (abandoned) return;
  if (device) {
    vkDeviceWaitIdle(device);
    for (auto it = cleanup_.rbegin(); it != cleanup_.rend(); ++it) (*it)(device);
    if (command_pool) vkDestroyCommandPool(device, command_pool, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance, messenger, nullptr);
  }
  if (instance) vkDestroyInstance(instance, nullptr);
}

std::vector<VkPhysicalDevice> PhysicalDevices(VkInstance instance) {
  uint32_t n = 0;
  VkResult r = vkEnumeratePhysicalDevices(instance, &n, nullptr);
  if (r == VK_ERROR_INITIALIZATION_FAILED) n = 0;
  else Check(r, "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(n);
  if (n) Check(vkEnumeratePhysicalDevices(instance, &n, devices.data()),
               "vkEnumeratePhysicalDevices");
  devices.resize(n);
  return devices;
}

// ------------------------------ Caps
void QueryCaps(Caps& c, VkPhysicalDevice pd, uint32_t instance_api) {
  c.physical = pd;
  vkGetPhysicalDeviceProperties(pd, &c.props);
  c.api = std::min(c.props.apiVersion, instance_api);
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
  for (const auto& e : exts) c.extensions.insert(e.extensionName);
  auto has = [&](const char* e) { return c.extensions.count(e) > 0; };
  auto enable_unless_core = [&](const char* e, uint32_t core) {
    if (c.api < core) c.device_extensions.push_back(e);
  };
  c.has_driver = c.api >= VK_API_VERSION_1_2 || has(VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
  c.has_ext_types = c.api >= VK_API_VERSION_1_2 ||
                    has(VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME);
  if (c.has_ext_types) enable_unless_core(VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME,
                                          VK_API_VERSION_1_2);
  c.has_f16i8 = c.api >= VK_API_VERSION_1_2 || has(VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);
  if (c.has_f16i8) enable_unless_core(VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME,
                                      VK_API_VERSION_1_2);
  c.has_size_control = c.api >= VK_API_VERSION_1_3 ||
                       has(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  if (c.has_size_control) enable_unless_core(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME,
                                             VK_API_VERSION_1_3);
  c.has_robustness2 = has(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
  // Samplers with Address: MirrorOnce (vulkan_images.cpp).
  if (has(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME))
    c.device_extensions.push_back(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME);

  VkPhysicalDeviceProperties2 props2 = Make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  Chain pc(&props2.pNext);
  pc.Add(c.subgroup);
  if (c.has_driver) pc.Add(c.driver);
  if (c.has_size_control) pc.Add(c.size_props);
  vkGetPhysicalDeviceProperties2(pd, &props2);

  VkPhysicalDeviceFeatures2 features2 = Make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  Chain fc(&features2.pNext);
  fc.Add(c.storage16);
  if (c.has_ext_types) fc.Add(c.ext_types);
  if (c.has_f16i8) fc.Add(c.f16i8);
  if (c.has_size_control) fc.Add(c.size_control);
  if (c.has_robustness2) fc.Add(c.robustness2);
  vkGetPhysicalDeviceFeatures2(pd, &features2);
  c.features = features2.features;
  if (c.has_robustness2 && !c.robustness2.robustBufferAccess2) c.has_robustness2 = false;
  if (c.has_robustness2) c.device_extensions.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
}

bool SizeControlInCompute(const Caps& c) {
  return c.has_size_control && c.size_control.subgroupSizeControl &&
         (c.size_props.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
}

VulkanDeviceInfo InfoOf(const Caps& c, uint32_t index) {
  VulkanDeviceInfo d;
  d.index = index;
  d.name = c.props.deviceName;
  d.type = DeviceTypeName(c.props.deviceType);
  if (c.has_driver) {
    d.driver_name = c.driver.driverName;
    d.driver_info = c.driver.driverInfo;
  }
  d.driver_version = c.props.driverVersion;
  d.driver_version_text = DriverVersionText(c.props.vendorID, c.props.driverVersion);
  d.api_version = c.props.apiVersion;
  d.api_version_text = VersionText(c.props.apiVersion);
  d.vendor_id = c.props.vendorID;
  d.device_id = c.props.deviceID;
  d.subgroup_size = c.subgroup.subgroupSize;
  d.subgroup_stages = StageNames(c.subgroup.supportedStages);
  d.subgroup_operations = OperationNames(c.subgroup.supportedOperations);
  d.subgroup_quad_all_stages = c.subgroup.quadOperationsInAllStages;
  d.subgroup_size_control = SizeControlInCompute(c);
  d.compute_full_subgroups = c.has_size_control && c.size_control.computeFullSubgroups;
  if (c.has_size_control) {
    d.min_subgroup_size = c.size_props.minSubgroupSize;
    d.max_subgroup_size = c.size_props.maxSubgroupSize;
  }
  d.robustness2 = c.has_robustness2;
  d.null_descriptor = c.has_robustness2 && c.robustness2.nullDescriptor;
  d.shader_float64 = c.features.shaderFloat64;
  d.shader_int64 = c.features.shaderInt64;
  d.shader_int16 = c.features.shaderInt16;
  d.subgroup_extended_types = c.has_ext_types && c.ext_types.shaderSubgroupExtendedTypes;
  return d;
}

uint32_t PickDevice(const std::vector<VulkanDeviceInfo>& devices, const VulkanRunOptions& o) {
  if (devices.empty())
    throw VulkanBackendError(Kind::kNoDevice,
                             fmt::format("no Vulkan device found; {}", kNoDeviceHint));
  auto list = [&] {
    std::vector<std::string> names;
    for (const auto& d : devices) names.push_back(fmt::format("{}: {}", d.index, d.name));
    return Join(names, "; ");
  };
  if (o.device_index) {
    if (*o.device_index >= devices.size())
      throw VulkanBackendError(Kind::kNoDevice, fmt::format(
          "there is no Vulkan device {} (devices: {})", *o.device_index, list()));
    return *o.device_index;
  }
  if (!o.device_name.empty()) {
    for (const auto& d : devices)
      if (Lower(d.name).find(Lower(o.device_name)) != std::string::npos) return d.index;
    throw VulkanBackendError(Kind::kNoDevice, fmt::format(
        "no Vulkan device's name contains '{}' (devices: {})", o.device_name, list()));
  }
  for (const auto& d : devices)
    if (d.type != "CPU" && d.type != "other") return d.index;
  return 0;
}

DeviceChoice ChooseDevice(const Session& s, const VulkanRunOptions& o) {
  DeviceChoice d;
  const auto physical = PhysicalDevices(s.instance);
  for (uint32_t i = 0; i < physical.size(); ++i) {
    d.caps.push_back(std::make_unique<Caps>());
    QueryCaps(*d.caps.back(), physical[i], s.instance_api);
    d.infos.push_back(InfoOf(*d.caps.back(), i));
  }
  d.index = PickDevice(d.infos, o);
  if (d.chosen().api < VK_API_VERSION_1_1)
    throw VulkanBackendError(Kind::kUnsupported, fmt::format(
        "device '{}' supports Vulkan {}; the oracle needs 1.1", d.info().name,
        d.info().api_version_text));
  return d;
}

uint32_t FindMemoryType(const Caps& c, uint32_t type_bits, VkMemoryPropertyFlags flags) {
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(c.physical, &mem);
  std::vector<VkMemoryPropertyFlags> want;
  if (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
    want.push_back(flags | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  want.push_back(flags);
  for (VkMemoryPropertyFlags f : want)
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i)
      if ((type_bits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & f) == f) return i;
  if (flags == (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
    throw VulkanBackendError(Kind::kUnsupported,
                             "the device has no host-visible, host-coherent memory type");
  throw VulkanBackendError(Kind::kUnsupported, fmt::format(
      "the device has no memory type with property flags 0x{:x} among types 0x{:x}", flags,
      type_bits));
}

// ------------------------------ device and queue
VkPhysicalDeviceFeatures AvailableComputeFeatures(const Caps& c) {
  VkPhysicalDeviceFeatures f{};
  f.robustBufferAccess = c.features.robustBufferAccess;
  f.shaderFloat64 = c.features.shaderFloat64;
  f.shaderInt64 = c.features.shaderInt64;
  f.shaderInt16 = c.features.shaderInt16;
  f.shaderStorageImageReadWithoutFormat = c.features.shaderStorageImageReadWithoutFormat;
  f.shaderStorageImageWriteWithoutFormat = c.features.shaderStorageImageWriteWithoutFormat;
  return f;
}

void CreateDevice(Session& s, const Caps& caps, const VulkanDeviceInfo& info,
                  const DeviceRequest& request) {
  const auto wanted = FeatureArray(request.features);
  const auto available = FeatureArray(caps.features);
  for (size_t i = 0; i < wanted.size(); ++i)
    if (wanted[i] && !available[i])
      throw VulkanBackendError(Kind::kUnsupported, fmt::format(
          "device '{}' lacks the feature {}, which this run needs", info.name,
          kCoreFeatureNames[i]));

  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(caps.physical, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(caps.physical, &family_count, families.data());
  uint32_t family = UINT32_MAX;
  for (uint32_t i = 0; i < family_count && family == UINT32_MAX; ++i)
    if ((families[i].queueFlags & request.queue_flags) == request.queue_flags) family = i;
  if (family == UINT32_MAX)
    throw VulkanBackendError(Kind::kUnsupported, fmt::format(
        "device '{}' has no {} queue", info.name,
        request.queue_flags == VK_QUEUE_COMPUTE_BIT
            ? std::string("compute")
            : fmt::format("queue family with flags 0x{:x}", request.queue_flags)));

  auto enabled = std::make_unique<Caps>(caps);  // same structures, chained for vkCreateDevice
  VkPhysicalDeviceFeatures2 features2 =
      Make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  features2.features = request.features;
  Chain fc(&features2.pNext);
  enabled->storage16.storagePushConstant16 = VK_FALSE;
  enabled->storage16.storageInputOutput16 = VK_FALSE;
  fc.Add(enabled->storage16);
  if (caps.has_ext_types) fc.Add(enabled->ext_types);
  if (caps.has_f16i8) fc.Add(enabled->f16i8);
  if (caps.has_size_control) fc.Add(enabled->size_control);
  if (caps.has_robustness2) {
    enabled->robustness2.robustImageAccess2 = VK_FALSE;  // needs robustImageAccess; unused
    fc.Add(enabled->robustness2);
  }
  *fc.tail = request.next;
  std::vector<const char*> extensions = caps.device_extensions;
  for (const char* e : request.extensions) {
    if (!caps.extensions.count(e))
      throw VulkanBackendError(Kind::kUnsupported, fmt::format(
          "device '{}' lacks the extension {}, which this run needs", info.name, e));
    if (std::none_of(extensions.begin(), extensions.end(),
                     [&](const char* x) { return std::strcmp(x, e) == 0; }))
      extensions.push_back(e);
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info =
      Make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info = Make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  device_info.pNext = &features2;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = uint32_t(extensions.size());
  device_info.ppEnabledExtensionNames = extensions.data();
  Check(vkCreateDevice(caps.physical, &device_info, nullptr, &s.device), "vkCreateDevice",
        fmt::format("opening device '{}'", info.name));
  s.queue_family = family;
  vkGetDeviceQueue(s.device, family, 0, &s.queue);
}

// ------------------------------ buffers
HostBuffer CreateHostBuffer(Session& s, const Caps& caps, VkDeviceSize size,
                            VkBufferUsageFlags usage, const std::string& what) {
  HostBuffer h;
  h.size = size;
  VkBufferCreateInfo bi = Make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bi.size = size;
  bi.usage = usage;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  Check(vkCreateBuffer(s.device, &bi, nullptr, &h.buffer), "vkCreateBuffer", what);
  s.Defer([b = h.buffer](VkDevice d) { vkDestroyBuffer(d, b, nullptr); });
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(s.device, h.buffer, &req);
  VkMemoryAllocateInfo ai = Make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = FindMemoryType(caps, req.memoryTypeBits);
  Check(vkAllocateMemory(s.device, &ai, nullptr, &h.memory), "vkAllocateMemory", what);
  // Deferred after the buffer, so it is freed before the buffer is destroyed (both legal once
  // the device is idle); vkFreeMemory unmaps too.
  s.Defer([m = h.memory](VkDevice d) { vkFreeMemory(d, m, nullptr); });
  Check(vkBindBufferMemory(s.device, h.buffer, h.memory, 0), "vkBindBufferMemory", what);
  Check(vkMapMemory(s.device, h.memory, 0, VK_WHOLE_SIZE, 0, &h.mapped), "vkMapMemory", what);
  return h;
}

// ------------------------------ one-shot submits
VkCommandBuffer BeginOneShot(Session& s) {
  if (!s.command_pool) {
    VkCommandPoolCreateInfo cpi =
        Make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    cpi.queueFamilyIndex = s.queue_family;
    Check(vkCreateCommandPool(s.device, &cpi, nullptr, &s.command_pool), "vkCreateCommandPool");
  }
  VkCommandBufferAllocateInfo cbi =
      Make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  cbi.commandPool = s.command_pool;
  cbi.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbi.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  Check(vkAllocateCommandBuffers(s.device, &cbi, &cmd), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin =
      Make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  Check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  return cmd;
}

double SubmitAndWait(Session& s, VkCommandBuffer cmd, int timeout_seconds,
                     const std::string& where, const std::string& device_name) {
  Check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  VkFence fence = VK_NULL_HANDLE;
  VkFenceCreateInfo fi = Make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  Check(vkCreateFence(s.device, &fi, nullptr, &fence), "vkCreateFence");
  s.Defer([fence](VkDevice d) { vkDestroyFence(d, fence, nullptr); });
  VkSubmitInfo submit = Make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  const auto start = std::chrono::steady_clock::now();
  Check(vkQueueSubmit(s.queue, 1, &submit, fence), "vkQueueSubmit");
  const int seconds = std::max(timeout_seconds, 1);
  const uint64_t timeout_ns = uint64_t(seconds) * 1'000'000'000ull;
  const VkResult waited = vkWaitForFences(s.device, 1, &fence, VK_TRUE, timeout_ns);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (waited == VK_TIMEOUT) {
    s.abandoned = true;  // the device may still run the shader: destroying anything is unsafe
    throw VulkanBackendError(Kind::kTimeout, fmt::format(
        "{}: the dispatch did not finish within {} s on device '{}' (an endless loop, or a "
        "barrier some threads never reach?); its Vulkan objects were abandoned, not destroyed",
        where, timeout_seconds, device_name), "vkWaitForFences", VkResultName(waited));
  }
  Check(waited, "vkWaitForFences", fmt::format("running {} on '{}'", where, device_name));
  vkFreeCommandBuffers(s.device, s.command_pool, 1, &cmd);
  return ms;
}

}  // namespace waveemu::oracle::vk
