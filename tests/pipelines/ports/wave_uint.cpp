// wave_uint.cpp -- port of tests/pipelines/wave_uint.hlsl, statement for statement.
#include "tests/pipelines/ports/ports.h"

#include "intrinsics/intrinsics.h"

namespace waveemu::oracle {

namespace {

struct WaveUint {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  void Bits(const Uint<N>& tid, uint32_t pattern, const Uint<N>& x) const {
    Uint<N> base = pattern * 16u * 64u + tid;
    Bool<N> odd = (x & 1u) != 0u;
    Out[base + 0u * 64u] = WaveActiveBitAnd(x);
    Out[base + 1u * 64u] = WaveActiveBitOr(x);
    Out[base + 2u * 64u] = WaveActiveBitXor(x);
    Out[base + 3u * 64u] = WaveActiveCountBits(odd);
    Out[base + 4u * 64u] = WavePrefixCountBits(odd);
    Out[base + 5u * 64u] = WaveActiveBallot(odd).x;
    Out[base + 6u * 64u] = WaveActiveBallot(odd).y;
    Out[base + 7u * 64u] = select(WaveActiveAnyTrue(x > 90u), 1u, 0u);
    Out[base + 8u * 64u] = select(WaveActiveAllTrue(x > 2u), 1u, 0u);
    Out[base + 9u * 64u] = select(WaveIsFirstLane<N>(), 1u, 0u);
    Out[base + 10u * 64u] = WaveActiveSum(x);
    Out[base + 11u * 64u] = WaveActiveProduct(x);
    Out[base + 12u * 64u] = WaveActiveMin(x);
    Out[base + 13u * 64u] = WaveActiveMax(x);
    Out[base + 14u * 64u] = WavePrefixSum(x);
    Out[base + 15u * 64u] = WavePrefixProduct(x);
  }

  void main(SV_GroupIndex<N> tid) const {
    Uint<N> x = In[tid];
    Bits(tid, 0, x);
    if_(tid % 3u != 0u, [&] { Bits(tid, 1, x); });
    if_((tid & 1u) == 0u, [&] { Bits(tid, 2, x); });
    // Queries and broadcasts, all threads.
    Out[48u * 64u + tid] = Uint<N>(WaveGetLaneCount());
    Out[49u * 64u + tid] = WaveGetLaneIndex<N>();
    Out[50u * 64u + tid] = WaveReadLaneFirst(x);
    Out[51u * 64u + tid] = WaveReadLaneAt(x, 3u);
    Out[52u * 64u + tid] = select(WaveActiveAllEqual(x), 1u, 0u);
    Out[53u * 64u + tid] = select(WaveActiveAllEqual(tid / 8u), 1u, 0u);
    Out[54u * 64u + tid] = QuadReadAcrossX(x);
    Out[55u * 64u + tid] = QuadReadAcrossY(x);
    Out[56u * 64u + tid] = QuadReadAcrossDiagonal(x);
    Out[57u * 64u + tid] = QuadReadLaneAt(x, 1u);
  }
};

}  // namespace

void RegisterWaveUintPorts(std::vector<Port>& ports) {
  ports.push_back(MakePort<WaveUint>("wave_uint.hlsl", "main", "tests/pipelines/ports/wave_uint.cpp",
                                     [](PortContext& ctx, WaveUint& k) {
                                       k.In = ctx.Bind<StructuredBuffer<uint32_t>>("t0", "In");
                                       k.Out = ctx.Bind<RWStructuredBuffer<uint32_t>>("u1", "Out");
                                     }));
}

}  // namespace waveemu::oracle
