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
#include <algorithm>
#include <chrono>
#include <cstdio>
using namespace waveemu;
using namespace waveemu::bench;

/// The resources and index of wave_ops.hlsl, for the trivial kernels below.
template <int N>
struct ProbeKernel {
  static constexpr uint3 numthreads{uint32_t(N), 1, 1};
  StructuredBuffer<uint32_t> In;
  RWStructuredBuffer<uint32_t> Out;
  uint32_t GRID_X = 1024;
  Uint<N> Index(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    return (GroupId.y * GRID_X + GroupId.x) * uint32_t(N) + GroupIndex;
  }
};
/// The index arithmetic and a consecutive-index store.
template <int N>
struct StoreIdxKernel : ProbeKernel<N> {
  void main(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    Uint<N> i = this->Index(GroupId, GroupIndex);
    this->Out[i] = i;
  }
};
/// The same with a consecutive-index load.
template <int N>
struct CopyKernel : ProbeKernel<N> {
  void main(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    Uint<N> i = this->Index(GroupId, GroupIndex);
    this->Out[i] = this->In[i];
  }
};
/// The same through a per-thread variable assigned under the (full) execution mask, as
/// WaveOpKernel does with its result.
template <int N>
struct CopyR0Kernel : ProbeKernel<N> {
  void main(SV_GroupID GroupId, const SV_GroupIndex<N>& GroupIndex) const {
    Uint<N> i = this->Index(GroupId, GroupIndex);
    Uint<N> x = this->In[i];
    Uint<N> r = 0u;
    r = x;
    this->Out[i] = r;
  }
};

/// ns per group: the fastest quarter of `reps` one-thread dispatches.
template <class K>
double Time(const K& k, uint32_t groups, int reps) {
  DispatchOptions o;
  o.max_threads = 1;
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    DispatchInlined(k, uint3{groups, 1, 1}, o);
    t.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0)
                    .count() / groups);
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
  const auto probe = [&]<class K>(const char* name, K k) {
    k.In = StructuredBuffer<uint32_t>(in);
    k.Out = RWStructuredBuffer<uint32_t>(out);
    k.GRID_X = groups;
    printf("%s %.1f  ", name, Time(k, groups, 41));
  };
  for (int round = 0; round < 3; ++round) {
    probe("storeidx", StoreIdxKernel<64>{});
    probe("copy", CopyKernel<64>{});
    probe("copyr0", CopyR0Kernel<64>{});
    probe("rlf", WaveOpKernel<kReadLaneFirst, uint32_t, false>{});
    probe("asum", WaveOpKernel<kActiveSum, uint32_t, false>{});
    probe("psum", WaveOpKernel<kPrefixSum, uint32_t, false>{});
    printf("ns/group\n");
  }
}
