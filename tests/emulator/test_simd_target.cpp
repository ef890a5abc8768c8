// test_simd_target.cpp -- asserts the Highway static target matches what the compiler was told to
// target. Highway 1.0.3 silently falls back to SSSE3 under some -march values (DESIGN section 7);
// this test turns that into a failure instead of a quiet 4x slowdown.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <hwy/highway.h>
#include <hwy/targets.h>

#include "emulator/emulator.h"

TEST_CASE("Highway's static target is the widest one the compiler flags allow") {
  const char* name = hwy::TargetName(HWY_STATIC_TARGET);
  fmt::print("Highway static target: {}\n", name);
  INFO("Highway static target: ", name);
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__)
  // HWY_AVX3 or a newer AVX3 variant (AVX3_DL; later Highways add more). Targets are bits and
  // better x86 targets have lower bits, so every AVX3 variant is <= HWY_AVX3.
  CHECK(HWY_STATIC_TARGET <= HWY_AVX3);
#elif defined(__AVX2__)
  CHECK(HWY_STATIC_TARGET == HWY_AVX2);
#else
  MESSAGE("compiler targets neither AVX2 nor AVX-512; nothing to assert");
#endif
}
