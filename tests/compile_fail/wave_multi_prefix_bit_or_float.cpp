// wave_multi_prefix_bit_or_float.cpp -- must not compile: WaveMultiPrefixBitOr takes integers
// (HLSL's int_only<>), uniform or per-thread; the first error names the types it takes.
// expect-first: take an integer scalar or vector
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

template <int N>
Lanes<float, N> F(const Uint4<N>& mask) {
  return WaveMultiPrefixBitOr(1.0f, mask);
}
template Lanes<float, 64> F<64>(const Uint4<64>& mask);
