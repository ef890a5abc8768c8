// one_lane.h -- a float's bits, and one lane of an expression run under a device profile: the
// helpers of the tests that hold single device words (test_transcendentals, test_h100_math).
#pragma once

#include "tests/support/run_group.h"

#include <bit>
#include <cstdint>

namespace waveemu::test {

inline float F(uint32_t bits) { return std::bit_cast<float>(bits); }
inline uint32_t B(float f) { return std::bit_cast<uint32_t>(f); }

/// body() (a Lanes<float, 1>) for one lane under the profile, as bits.
template <class Body>
uint32_t Under(const DeviceProfile& profile, Body body) {
  uint32_t r = 0;
  RunGroup<1>(1, [&] { r = B(body().lane(0)); }, profile);
  return r;
}

}  // namespace waveemu::test
