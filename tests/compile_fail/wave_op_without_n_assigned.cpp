// wave_op_without_n_assigned.cpp -- must not compile: WaveActiveCountBits(true) has no argument
// that carries the group size. Assigned to a Uint<N>, the first error must still be the one that
// says so (Mask<0>'s, checked when Lanes<T, 0> is made), not the conversion to Uint<8> after it.
// expect-first: is missing its group size
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"

using namespace waveemu;

template <int N>
struct Kernel {
  RWStructuredBuffer<uint32_t> Out;
  void main(const Uint<N>& gi) const {
    Uint<N> count = WaveActiveCountBits(true);
    Out[gi] = count;
  }
};
template struct Kernel<8>;
