// simd.h -- the one place that includes Highway.
//
// waveemu compiles for the static target only: Highway 1.0.3's dynamic dispatch fails to build
// with -march=native on AVX-512-FP16 hosts, and a reference emulator gains nothing from
// run-time target selection. tests/emulator/test_simd_target.cpp asserts the target we get.
#pragma once

#ifndef HWY_COMPILE_ONLY_STATIC
#define HWY_COMPILE_ONLY_STATIC 1
#endif
#include <hwy/highway.h>

namespace waveemu {
namespace hn = hwy::HWY_NAMESPACE;

/// Widest vector of the static target, in bytes; Lanes storage is padded to a multiple of it.
inline constexpr int kVectorBytes = 64;
static_assert(HWY_MAX_BYTES <= kVectorBytes, "Lanes padding assumes vectors of at most 64 bytes");
}  // namespace waveemu
