// vulkan_test_support.h -- what the oracle's Vulkan tests share: lavapipe as the ICD unless the
// caller chose one, why the tests cannot run on this machine, and the skip macro, which fails
// instead when WAVEEMU_REQUIRE_VULKAN is set (CI sets it, so a missing driver is never a pass).
#pragma once

#include "tools/waveemu/hlsl_compile.h"
#include "tools/waveemu/vulkan_backend.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace waveemu::oracle::vktest {

inline constexpr const char* kLavapipeIcd = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// Points VK_DRIVER_FILES at lavapipe unless the caller chose ICDs: the tests' lavapipe facts
/// need that device. Returns true, so a file can run it during static initialisation.
inline bool PreferLavapipe() {
  if (!std::getenv("VK_DRIVER_FILES") && !std::getenv("VK_ICD_FILENAMES") &&
      std::filesystem::exists(kLavapipeIcd))
    setenv("VK_DRIVER_FILES", kLavapipeIcd, 1);
  return true;
}

namespace detail {
inline std::string SkipReasonFor(bool need_lavapipe) {
  PreferLavapipe();
  if (!FindGlslangValidator()) return "glslangValidator not found (apt-get install glslang-tools)";
  try {
    const auto devices = ListVulkanDevices();
    if (devices.empty()) return "no Vulkan device (apt-get install mesa-vulkan-drivers for lavapipe)";
    if (need_lavapipe && devices.front().name.find("llvmpipe") == std::string::npos)
      return fmt::format("the first Vulkan device is '{}', not lavapipe (set VK_DRIVER_FILES={})",
                         devices.front().name, kLavapipeIcd);
  } catch (const VulkanBackendError& e) {
    return e.what();
  }
  return "";
}
}  // namespace detail

/// Why the Vulkan tests cannot run here, or "" when they can; with `need_lavapipe`, a first
/// device other than lavapipe is a reason too. Computed once per process.
inline const std::string& VulkanSkipReason(bool need_lavapipe = false) {
  static const std::string any = detail::SkipReasonFor(false);
  static const std::string lavapipe = detail::SkipReasonFor(true);
  return need_lavapipe ? lavapipe : any;
}

}  // namespace waveemu::oracle::vktest

/// At the top of a Vulkan test case: skip it with a message, or fail under WAVEEMU_REQUIRE_VULKAN.
#define WAVEEMU_VULKAN_OR_SKIP(need_lavapipe)                                              \
  do {                                                                                     \
    const std::string& waveemu_skip = ::waveemu::oracle::vktest::VulkanSkipReason(need_lavapipe); \
    if (!waveemu_skip.empty()) {                                                           \
      if (std::getenv("WAVEEMU_REQUIRE_VULKAN")) FAIL(waveemu_skip);                       \
      MESSAGE("skipped: " << waveemu_skip);                                                \
      return;                                                                              \
    }                                                                                      \
  } while (0)
#define WAVEEMU_REQUIRE_VULKAN_OR_SKIP() WAVEEMU_VULKAN_OR_SKIP(false)
#define WAVEEMU_REQUIRE_LAVAPIPE_OR_SKIP() WAVEEMU_VULKAN_OR_SKIP(true)
