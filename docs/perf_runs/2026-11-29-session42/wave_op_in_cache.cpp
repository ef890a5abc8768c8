// wave_op_in_cache.cpp -- session 42's timing probe (not part of the build): nanoseconds per group
// of 64 threads, one thread, DispatchInlined, fastest quarter of 41 dispatches, for the bench's
// WaveOpKernel (tools/bench/wave_ops.h; the bench verifies its output) at wave 32 and for three
// trivial kernels that show the fixed costs (index arithmetic, consecutive-index load and store).
// Argument: log2 of the lane count (16: in cache; 24: the bench's size). Built from the repository
// root against build/default/libwaveemu.a with the bench's flags:
//   g++ -O3 -DNDEBUG -march=native -ffp-contract=off -std=gnu++20 -DFMT_SHARED \
//     -DHWY_COMPILE_ONLY_STATIC=1 -DHWY_SHARED_DEFINE -I. wave_op_in_cache.cpp -o probe \
//     build/default/libwaveemu.a -ltbb -lhwy -lboost_context -lfmt
#include "tools/bench/wave_ops.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace waveemu;
using namespace waveemu::bench;

template <int N>
struct CopyKernel {
  static constexpr uint3 numthreads{uint32_t(N), 1, 1};
  StructuredBuffer<uint32_t> In; RWStructuredBuffer<uint32_t> Out; uint32_t GRID_X = 1024;
  void main(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    Uint<N> i = (GroupId.y * GRID_X + GroupId.x) * uint32_t(N) + GroupIndex;
    Out[i] = In[i];
  }
};
template <int N>
struct CopyR0Kernel {
  static constexpr uint3 numthreads{uint32_t(N), 1, 1};
  StructuredBuffer<uint32_t> In; RWStructuredBuffer<uint32_t> Out; uint32_t GRID_X = 1024;
  void main(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    Uint<N> i = (GroupId.y * GRID_X + GroupId.x) * uint32_t(N) + GroupIndex;
    Uint<N> x = In[i];
    Uint<N> r = 0u;
    r = x;
    Out[i] = r;
  }
};

template <int N>
struct EmptyKernel {
  static constexpr uint3 numthreads{uint32_t(N), 1, 1};
  StructuredBuffer<uint32_t> In; RWStructuredBuffer<uint32_t> Out; uint32_t GRID_X = 1024;
  void main(SV_GroupID, const SV_GroupIndex<N>&) const {}
};
template <int N>
struct StoreIdxKernel {
  static constexpr uint3 numthreads{uint32_t(N), 1, 1};
  StructuredBuffer<uint32_t> In; RWStructuredBuffer<uint32_t> Out; uint32_t GRID_X = 1024;
  void main(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    Uint<N> i = (GroupId.y * GRID_X + GroupId.x) * uint32_t(N) + GroupIndex;
    Out[i] = i;
  }
};
template <class K>
double Time(K& k, uint32_t groups, int reps) {
  DispatchOptions o; o.max_threads = 1;
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    DispatchInlined(k, uint3{groups, 1, 1}, o);
    t.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / groups);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 4];
}

int main(int argc, char** argv) {
  const int lg = argc > 1 ? atoi(argv[1]) : 16;
  const size_t n = size_t(1) << lg;
  std::vector<uint32_t> in(n), out(n);
  for (size_t i = 0; i < n; ++i) in[i] = uint32_t(i * 2654435761u);
  const uint32_t groups = uint32_t(n / 64);
  auto setup = [&](auto& k) { k.In = StructuredBuffer<uint32_t>(in); k.Out = RWStructuredBuffer<uint32_t>(out); k.GRID_X = groups; };
  for (int round = 0; round < 3; ++round) {
    { EmptyKernel<64> k; setup(k); printf("empty %.1f  ", Time(k, groups, 41)); }
    { StoreIdxKernel<64> k; setup(k); printf("storeidx %.1f  ", Time(k, groups, 41)); }
    { CopyKernel<64> k; setup(k); printf("copy %.1f  ", Time(k, groups, 41)); }
    { CopyR0Kernel<64> k; setup(k); printf("copyr0 %.1f  ", Time(k, groups, 41)); }
    { WaveOpKernel<kReadLaneFirst, uint32_t, false> k; setup(k); printf("rlf %.1f  ", Time(k, groups, 41)); }
    { WaveOpKernel<kActiveSum, uint32_t, false> k; setup(k); printf("asum %.1f  ", Time(k, groups, 41)); }
    { WaveOpKernel<kPrefixSum, uint32_t, false> k; setup(k); printf("psum %.1f ns/group\n", Time(k, groups, 41)); }
  }
}
