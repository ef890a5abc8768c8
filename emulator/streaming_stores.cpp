// streaming_stores.cpp -- the threshold of emulator/streaming_stores.h, from the cache sizes the
// kernel reports.
#include "emulator/streaming_stores.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>

namespace waveemu {
namespace {

/// The largest cache core 0 reads from, in bytes, or 0 if sysfs does not say. sysconf's
/// _SC_LEVEL3_CACHE_SIZE can report a whole socket's L3 (256 MiB on a 2-vCPU slice of an AMD
/// EPYC whose core sees 32 MiB), which sysfs gets right.
uint64_t LargestCacheFromSysfs() {
  uint64_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) +
                     "/size");
    std::string size;  // "32768K"
    if (!(in >> size)) continue;
    uint64_t bytes = 0;
    const auto [unit_at, error] = std::from_chars(size.data(), size.data() + size.size(), bytes);
    if (error != std::errc()) continue;
    const char unit = unit_at < size.data() + size.size() ? *unit_at : ' ';
    if (unit == 'K') bytes <<= 10;
    else if (unit == 'M') bytes <<= 20;
    else if (unit == 'G') bytes <<= 30;
    largest = std::max(largest, bytes);
  }
  return largest;
}

uint64_t DefaultStreamingStoreMinBytes() {
  if (const uint64_t sysfs = LargestCacheFromSysfs()) return sysfs;
  if (const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE); l3 > 0) return uint64_t(l3);
  return uint64_t{32} << 20;
}

// Constant-initialized: until this file's dynamic initialization runs (code in other files'
// static initializers may dispatch before it), nothing streams. Then the cache's size applies,
// unless SetStreamingStoreMinBytes came first.
constinit bool set_by_caller = false;
[[maybe_unused]] const bool default_applied = [] {
  if (!set_by_caller) detail::streaming_store_min_bytes = DefaultStreamingStoreMinBytes();
  return true;
}();

}  // namespace

namespace detail {
constinit uint64_t streaming_store_min_bytes = UINT64_MAX;
}  // namespace detail

uint64_t StreamingStoreMinBytes() { return detail::streaming_store_min_bytes; }
void SetStreamingStoreMinBytes(uint64_t bytes) {
  set_by_caller = true;
  detail::streaming_store_min_bytes = bytes;
}

}  // namespace waveemu
