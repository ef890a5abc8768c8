// config.h -- compile-time limits of the emulator.
//
// Wave sizes are run-time settings (a device profile or [WaveSize] picks one per dispatch); the
// thread count of a group is a compile-time property of each kernel ([numthreads]).
#pragma once

#include <cstdint>

namespace waveemu {

/// Wave sizes HLSL allows ([WaveSize] takes powers of two in [4, 128]).
inline constexpr int kMinWaveSize = 4;
inline constexpr int kMaxWaveSize = 128;

/// D3D12 limit on threads per group (numthreads x*y*z).
inline constexpr int kMaxThreadsPerGroup = 1024;

constexpr bool IsValidWaveSize(int w) {
  return w >= kMinWaveSize && w <= kMaxWaveSize && (w & (w - 1)) == 0;
}

}  // namespace waveemu
