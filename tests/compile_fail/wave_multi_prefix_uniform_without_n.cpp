// wave_multi_prefix_uniform_without_n.cpp -- must not compile: with a uniform value and a uniform
// uint4 mask nothing carries the group size, so HLSL's WaveMultiPrefixSum(1, mask) is
// WaveMultiPrefixSum<N>(1u, mask); the first error (Mask<0>'s) says that it is missing.
// expect-first: is missing its group size
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

void F() {
  const uint4 mask{0xFFu, 0u, 0u, 0u};
  auto sum = WaveMultiPrefixSum(1u, mask);
  (void)sum;
}
