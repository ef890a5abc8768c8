#include "emulator/profile.h"

#include "emulator/error.h"

namespace waveemu {

FloatToInt LlvmpipeFloatToInt() {
#if defined(__x86_64__) || defined(__i386__)
  // LLVM 15 under Mesa 22.3 (Debian 12) lowers a vector fp32-to-uint32 conversion to AVX-512's
  // cvttps2udq where the CPU has it; without it, the results are the low half of a 64-bit
  // signed conversion (probe_nan_math on an AMD Zen 3, session 41). Other LLVMs may differ.
  static const bool avx512f = __builtin_cpu_supports("avx512f");
  return avx512f ? FloatToInt::kX86 : FloatToInt::kX86Avx2;
#else
  return FloatToInt::kX86;  // not measured: the profile's rule before hosts were told apart
#endif
}

DeviceProfile ProfileByName(std::string_view name) {
  if (name == "spec") return SpecProfile();
  if (name == "lavapipe") return LavapipeProfile();
  if (name == "nvidia") return NvidiaProfile();
  throw UsageError(fmt::format("unknown device profile '{}' (known: spec, lavapipe, nvidia)", name));
}

std::vector<std::string> ProfileNames() { return {"spec", "lavapipe", "nvidia"}; }

}  // namespace waveemu
