#include "emulator/profile.h"

#include "emulator/error.h"

namespace waveemu {

DeviceProfile ProfileByName(std::string_view name) {
  if (name == "spec") return SpecProfile();
  if (name == "lavapipe") return LavapipeProfile();
  if (name == "nvidia") return NvidiaProfile();
  throw UsageError(fmt::format("unknown device profile '{}' (known: spec, lavapipe, nvidia)", name));
}

std::vector<std::string> ProfileNames() { return {"spec", "lavapipe", "nvidia"}; }

}  // namespace waveemu
