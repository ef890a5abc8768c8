// wave_arith.cpp -- port of wave_arith_body.hlsli, as included by wave_int.hlsl, wave_float.hlsl
// and wave_double.hlsl (T = int, float, double). Statement for statement; the conditions hold
// no wave op, so glslang's evaluation of both sides and DXC's short circuit agree.
#include "tests/pipelines/ports/ports.h"

#include "intrinsics/intrinsics.h"

namespace waveemu::oracle {

namespace {

template <class T>
struct WaveArith {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<T> In;     // t0
  RWStructuredBuffer<T> Out;  // u1

  void Arith(const Uint<N>& tid, uint32_t pattern, const Lanes<T, N>& x) const {
    Uint<N> base = pattern * 16u * 64u + tid;
    Out[base + 0u * 64u] = WaveActiveSum(x);
    Out[base + 1u * 64u] = WaveActiveProduct(x);
    Out[base + 2u * 64u] = WaveActiveMin(x);
    Out[base + 3u * 64u] = WaveActiveMax(x);
    Out[base + 4u * 64u] = WavePrefixSum(x);
    Out[base + 5u * 64u] = WavePrefixProduct(x);
    Out[base + 6u * 64u] = WaveReadLaneFirst(x);
    Out[base + 7u * 64u] = select(WaveActiveAllEqual(x), T(1), T(0));
    Out[base + 8u * 64u] = select(WaveActiveAllEqual(WaveReadLaneFirst(x)), T(1), T(0));
    // A lane every active thread can read: the first active one, chosen at run time.
    Out[base + 9u * 64u] = WaveReadLaneAt(x, WaveReadLaneFirst(WaveGetLaneIndex<N>()));
  }

  void main(SV_GroupIndex<N> tid) const {
    Lanes<T, N> x = In[tid];
    Arith(tid, 0, x);
    // Quad reads with every lane active; 1-D groups, so quads are 4 consecutive threads.
    Out[10u * 64u + tid] = QuadReadAcrossX(x);
    Out[11u * 64u + tid] = QuadReadAcrossY(x);
    Out[12u * 64u + tid] = QuadReadAcrossDiagonal(x);
    Out[13u * 64u + tid] = QuadReadLaneAt(x, 2u);
    if_(tid % 3u != 0u, [&] { Arith(tid, 1, x); });
    if_((tid & 1u) == 0u, [&] { Arith(tid, 2, x); });
  }
};

template <class T>
Port ArithPort(const char* file) {
  return MakePort<WaveArith<T>>(file, "main", "tests/pipelines/ports/wave_arith.cpp",
                                [](PortContext& ctx, WaveArith<T>& k) {
                                  k.In = ctx.Bind<StructuredBuffer<T>>("t0", "In");
                                  k.Out = ctx.Bind<RWStructuredBuffer<T>>("u1", "Out");
                                });
}

}  // namespace

void RegisterWaveArithPorts(std::vector<Port>& ports) {
  ports.push_back(ArithPort<int32_t>("wave_int.hlsl"));
  ports.push_back(ArithPort<float>("wave_float.hlsl"));
  ports.push_back(ArithPort<double>("wave_double.hlsl"));
}

}  // namespace waveemu::oracle
