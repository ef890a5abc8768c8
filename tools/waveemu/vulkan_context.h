// vulkan_context.h -- the Vulkan plumbing every oracle runner shares (compute in
// vulkan_backend.cpp, images in vulkan_images.cpp, graphics in vulkan_fragment.cpp): checked
// calls, the instance, device capabilities and choice, device and queue, host-visible buffers,
// one-shot submits with a fence limit, and a Session that owns and destroys all of it.
// Internal to tools/waveemu: it includes vulkan.h, which the public headers do not.
#pragma once

#include "tools/waveemu/vulkan_backend.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

// LeakSanitizer (the debug preset) reports memory that lavapipe's LLVM JIT never frees, with
// stacks it cannot symbolise after the driver is unloaded: Vulkan work runs with LSan disabled
// on the calling thread, so the reports stay about our code. That does not cover the driver's
// own threads; for those the driver stays loaded until exit (vulkan_context.cpp).
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define WAVEEMU_IGNORE_DRIVER_LEAKS() __lsan::ScopedDisabler ignore_driver_leaks
#else
#define WAVEEMU_IGNORE_DRIVER_LEAKS() (void)0
#endif

namespace waveemu::oracle::vk {

using Kind = VulkanBackendError::Kind;

/// Said with every "no device" error: how to get one.
extern const char* const kNoDeviceHint;

/// A Vulkan structure with its sType set and every other member zero.
template <class T>
T Make(VkStructureType type) {
  T v{};
  v.sType = type;
  return v;
}

// ------------------------------ errors and text
const char* VkResultName(VkResult r);
/// Throws VulkanBackendError(kVulkanCall) naming `call`, the result and `what` unless r is
/// VK_SUCCESS.
void Check(VkResult r, const char* call, const std::string& what = {});
std::string VersionText(uint32_t api_version);                 // "1.3.230"
std::string DriverVersionText(uint32_t vendor, uint32_t raw);  // NVIDIA: 580.65.6.0
std::string Lower(std::string s);
std::string Join(const std::vector<std::string>& v, const char* sep = ", ");

/// A subgroup operation class: its feature bit, a name for messages and the SPIR-V capability
/// that needs it.
struct SubgroupFeature {
  VkSubgroupFeatureFlagBits bit;
  const char* name;
  uint32_t capability;
};
inline constexpr SubgroupFeature kSubgroupFeatures[] = {
    {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic", 61},
    {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote", 62},
    {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic", 63},
    {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot", 64},
    {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle", 65},
    {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative", 66},
    {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered", 67},
    {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad", 68},
    {VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV, "partitioned_nv", 5297},
};

// ------------------------------ Session
/// Every Vulkan object of one run. Objects made after the device register their destruction
/// with Defer; the destructor waits for the device, runs those in reverse order, then destroys
/// the device, the debug messenger and the instance. After a fence timeout the device may still
/// use them, so `abandoned` leaks everything instead.
struct Session {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  uint32_t instance_api = VK_API_VERSION_1_0;
  std::vector<std::string> validation_messages;  // warnings and errors, in arrival order
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = UINT32_MAX;
  VkCommandPool command_pool = VK_NULL_HANDLE;  // made by the first BeginOneShot
  bool abandoned = false;

  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  /// Runs `destroy` (with the device) when the session ends, before anything deferred earlier.
  void Defer(std::function<void(VkDevice)> destroy) { cleanup_.push_back(std::move(destroy)); }

 private:
  std::vector<std::function<void(VkDevice)>> cleanup_;
};

/// WAVEEMU_VULKAN_VALIDATION=1 (or anything but 0) or the option.
bool ValidationRequested(bool option);

/// Makes s.instance (Vulkan 1.1 at least, up to 1.3) with VK_LAYER_KHRONOS_validation and a
/// messenger that fills s.validation_messages when `validation` is set and the layer exists
/// (otherwise a note in `notes`, when not null). Throws kNoDevice without a loader or driver.
void CreateInstance(Session& s, bool validation, std::vector<std::string>* notes);

/// vkEnumeratePhysicalDevices; none (not an error) when the loader finds no ICD.
std::vector<VkPhysicalDevice> PhysicalDevices(VkInstance instance);

// ------------------------------ Caps: what one physical device offers
struct Caps {
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  uint32_t api = 0;  // min(device, instance)
  std::set<std::string> extensions;
  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceSubgroupProperties subgroup = Make<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  VkPhysicalDeviceDriverProperties driver = Make<VkPhysicalDeviceDriverProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  VkPhysicalDeviceSubgroupSizeControlProperties size_props =
      Make<VkPhysicalDeviceSubgroupSizeControlProperties>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDevice16BitStorageFeatures storage16 = Make<VkPhysicalDevice16BitStorageFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures ext_types =
      Make<VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES);
  VkPhysicalDeviceShaderFloat16Int8Features f16i8 = Make<VkPhysicalDeviceShaderFloat16Int8Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES);
  VkPhysicalDeviceSubgroupSizeControlFeatures size_control =
      Make<VkPhysicalDeviceSubgroupSizeControlFeatures>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  VkPhysicalDeviceRobustness2FeaturesEXT robustness2 = Make<VkPhysicalDeviceRobustness2FeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT);
  bool has_driver = false, has_ext_types = false, has_f16i8 = false, has_size_control = false,
       has_robustness2 = false;
  std::vector<const char*> device_extensions;  // to enable at vkCreateDevice
};

/// `Chain` links optional structures behind a head's pNext.
struct Chain {
  void** tail;
  explicit Chain(void** head_next) : tail(head_next) {}
  template <class T>
  void Add(T& s) {
    s.pNext = nullptr;
    *tail = &s;
    tail = &s.pNext;
  }
};

void QueryCaps(Caps& c, VkPhysicalDevice pd, uint32_t instance_api);
/// VK_EXT_subgroup_size_control (or 1.3) can pin the subgroup size of compute shaders.
bool SizeControlInCompute(const Caps& c);
VulkanDeviceInfo InfoOf(const Caps& c, uint32_t index);

/// The device `o` asks for (index, or name substring), else the first GPU, else device 0.
/// Throws kNoDevice when there is none or the asked-for one does not exist.
uint32_t PickDevice(const std::vector<VulkanDeviceInfo>& devices, const VulkanRunOptions& o);

/// Every physical device's Caps and info, and the one PickDevice chose.
struct DeviceChoice {
  std::vector<std::unique_ptr<Caps>> caps;
  std::vector<VulkanDeviceInfo> infos;
  uint32_t index = 0;
  const Caps& chosen() const { return *caps[index]; }
  const VulkanDeviceInfo& info() const { return infos[index]; }
};
/// Enumerates s.instance's devices and picks one; throws kUnsupported below Vulkan 1.1.
DeviceChoice ChooseDevice(const Session& s, const VulkanRunOptions& o);

/// A memory type among `type_bits` with `flags`; for host-visible requests, HOST_CACHED is
/// preferred (readback). Throws kUnsupported when there is none.
uint32_t FindMemoryType(const Caps& c, uint32_t type_bits,
                        VkMemoryPropertyFlags flags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);

// ------------------------------ device and queue
struct DeviceRequest {
  VkQueueFlags queue_flags = VK_QUEUE_COMPUTE_BIT;  // the first family with all of them
  // Core features to enable; each must be available (else kUnsupported names it).
  VkPhysicalDeviceFeatures features{};
  // More feature structures (e.g. VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures with
  // the feature set), already linked to each other through pNext, chained after QueryCaps's
  // structures; the caller checks that the device offers them. Not a structure QueryCaps chains
  // already (16-bit storage, subgroup extended types, float16/int8, size control, robustness2).
  void* next = nullptr;
  // Device extensions to enable beyond those QueryCaps found (e.g. VK_EXT_shader_demote_to_
  // helper_invocation below Vulkan 1.3); each must be in Caps::extensions.
  std::vector<const char*> extensions;
};
/// The core features the compute oracle enables: whichever of robustBufferAccess, 64/16-bit
/// types and storage-image access without format the device has.
VkPhysicalDeviceFeatures AvailableComputeFeatures(const Caps& c);

/// Creates s.device and s.queue on `caps` with the request's features, plus every optional
/// structure QueryCaps found (16-bit storage, subgroup extended types, float16/int8, subgroup
/// size control, robustness2 without robustImageAccess2) and its extensions.
void CreateDevice(Session& s, const Caps& caps, const VulkanDeviceInfo& info,
                  const DeviceRequest& request);

// ------------------------------ buffers
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;  // persistently mapped, host-coherent
  VkDeviceSize size = 0;
};
/// A host-visible, coherent, mapped buffer of `size` bytes (> 0) owned by the session; `what`
/// names it in errors.
HostBuffer CreateHostBuffer(Session& s, const Caps& caps, VkDeviceSize size,
                            VkBufferUsageFlags usage, const std::string& what);

// ------------------------------ one-shot submits
/// A primary command buffer from the session's pool (made on first use), begun for one submit.
VkCommandBuffer BeginOneShot(Session& s);
/// Ends `cmd`, submits it with a fence and waits up to `timeout_seconds` (at least 1). On a
/// timeout the session is abandoned and kTimeout thrown, naming `where` and `device_name`.
/// Returns the milliseconds from submit to the fence signalling.
double SubmitAndWait(Session& s, VkCommandBuffer cmd, int timeout_seconds,
                     const std::string& where, const std::string& device_name);

}  // namespace waveemu::oracle::vk
