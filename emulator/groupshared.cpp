#include "emulator/groupshared.h"

#include "emulator/error.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace waveemu::detail {
namespace {

struct OutsideGroup {
  const void* at;
  size_t bytes;
};

// Every GroupShared constructed outside a group and still alive. Only such constructions lock
// it: inside a group (the hot path) GroupSharedOrigin touches nothing here.
struct OutsideGroupRegistry {
  std::mutex mutex;
  std::vector<OutsideGroup> live;
};

OutsideGroupRegistry& Registry() {
  static OutsideGroupRegistry registry;
  return registry;
}

}  // namespace

void TrackGroupSharedOutsideGroups(const void* at, size_t bytes, bool alive) {
  OutsideGroupRegistry& r = Registry();
  const std::lock_guard lock(r.mutex);
  if (alive) {
    r.live.push_back({at, bytes});
  } else {
    const auto it = std::find_if(r.live.begin(), r.live.end(),
                                 [&](const OutsideGroup& g) { return g.at == at; });
    if (it != r.live.end()) r.live.erase(it);
  }
}

void CheckNoGroupSharedOutsideGroups(const void* kernel, size_t kernel_bytes) {
  OutsideGroupRegistry& r = Registry();
  const std::lock_guard lock(r.mutex);
  if (r.live.empty()) return;
  const auto* begin = static_cast<const std::byte*>(kernel);
  for (const OutsideGroup& g : r.live) {
    const auto* at = static_cast<const std::byte*>(g.at);
    if (at >= begin && at < begin + kernel_bytes)
      throw UsageError(fmt::format(
          "the kernel has a GroupShared member ({} bytes, at byte {} of the kernel object): one "
          "GroupShared would be every group's memory, raced on by groups that run at once; "
          "declare it as a local of main(), which runs once per group (HLSL's file-scope "
          "groupshared)",
          g.bytes, at - begin));
  }
  throw UsageError(fmt::format(
      "a GroupShared of {} bytes that was constructed outside any group is alive during a "
      "dispatch (a global, a static or a host variable): it would be every group's memory; "
      "declare groupshared variables as locals of main(), which runs once per group{}",
      r.live.front().bytes,
      r.live.size() > 1 ? fmt::format(" ({} such GroupShared objects are alive)", r.live.size())
                        : std::string()));
}

}  // namespace waveemu::detail
