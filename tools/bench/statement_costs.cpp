// statement_costs.cpp -- waveemu-bench --statements: what one statement of each kind the
// free-ID wave kernel uses costs, on one thread, with everything in cache (ns per statement of a
// 64-thread group at wave 8), next to the whole kernel per group and the Highway loop per 64
// IDs. It is the measurement behind docs/performance.md's account of the one-thread target: the
// kernel's time is the sum of its statements, and no single one dominates. The statements
// run through Dispatch; the kernel through both Dispatch and DispatchInlined.
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_native.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include "intrinsics/intrinsics.h"
#include "tools/bench/bench_common.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace waveemu::bench {
namespace {

constexpr int kStatementsPerGroup = 64;
constexpr uint32_t kGroups = 4096;

/// One statement kind, run kStatementsPerGroup times per group on values that depend on the
/// group, the result folded into `acc` (one add) and stored at the end so nothing is dropped.
template <int kKind>
struct StatementKernel {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};
  Buffer<int> In;
  RWBuffer<int> Out;
  RWBuffer<int> Counter;

  void main(SV_GroupID G, const SV_GroupThreadID<N>& GT) const {
    Uint<N> x = G.x * 64u + GT.x;
    Uint<N> acc = 0u;
    const Bool<N> b = (x & 3u) != 0u;
    for (int r = 0; r < kStatementsPerGroup; ++r) {
      if constexpr (kKind == 0) acc = acc + x;
      if constexpr (kKind == 1) acc = acc ^ select(x != acc, 1u, 0u);
      if constexpr (kKind == 2) acc = acc + WaveActiveCountBits(b);
      if constexpr (kKind == 3) acc = acc + WavePrefixCountBits(b);
      if constexpr (kKind == 4) acc = acc + WaveReadLaneFirst(x + acc);
      if constexpr (kKind == 5) acc = acc + select(WaveIsFirstLane<N>(), 1u, 0u);
      if constexpr (kKind == 6) if_(b, [&] { acc = acc + 1u; });
      if constexpr (kKind == 7)
        if_(WaveIsFirstLane<N>(), [&] {
          Uint<N> original;
          InterlockedAdd(Counter[0], x, original);
          acc = acc + original;
        });
      if constexpr (kKind == 8) acc = acc + Uint<N>(In[(x + uint32_t(r)) & 0xFFFFu]);
      if constexpr (kKind == 9) {
        Out[(G.x & 63u) * 64u + GT.x] = acc;
        acc = acc + 1u;
      }
    }
    Out[(G.x & 63u) * 64u + GT.x] = acc;
  }
};

constexpr const char* kKindNames[] = {
    "acc = acc + x",
    "acc = acc ^ select(x != acc, 1u, 0u)",
    "acc = acc + WaveActiveCountBits(b)",
    "acc = acc + WavePrefixCountBits(b)",
    "acc = acc + WaveReadLaneFirst(x + acc)",
    "acc = acc + select(WaveIsFirstLane(), 1u, 0u)",
    "if_(b, [&] { acc = acc + 1u; })",
    "if_(WaveIsFirstLane(), [&] { InterlockedAdd(Counter[0], x, o); acc = acc + o; })",
    "acc = acc + Uint(In[(x + r) & 0xFFFF])  (consecutive gather)",
    "Out[(G.x & 63) * 64 + GT.x] = acc; acc = acc + 1u  (consecutive store)",
};
constexpr int kKinds = int(std::size(kKindNames));

/// Fastest of `repeats` calls of run() (ms); in cache and on one thread, the minimum is the
/// cost least disturbed by other processes.
template <class F>
double Fastest(int repeats, F&& run) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < repeats; ++i) best = std::min(best, run());
  return best;
}

template <int kKind>
double StatementNs(std::span<const int32_t> in, std::span<int32_t> out,
                   std::span<int32_t> counter, int repeats) {
  StatementKernel<kKind> k;
  k.In = Buffer<int>(in);
  k.Out = RWBuffer<int>(out);
  k.Counter = RWBuffer<int>(counter);
  DispatchOptions options;
  options.wave_size = 8;
  options.max_threads = 1;
  const double ms = Fastest(repeats, [&] {
    const auto start = Clock::now();
    Dispatch(k, uint3{kGroups, 1, 1}, options);
    return MsSince(start);
  });
  return ms * 1e6 / (double(kGroups) * kStatementsPerGroup);
}

}  // namespace

int StatementCosts(const Config& cfg) {
  const int repeats = std::max(cfg.repeats, 15);
  std::vector<int32_t> in(size_t(1) << 16, 1), out(size_t(kGroups) * 64), counter(1, 0);
  double ns[kKinds];
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((ns[K] = StatementNs<K>(in, out, counter, repeats)), ...);
  }(std::make_integer_sequence<int, kKinds>());

  // The whole kernel on an in-cache table (2^16 IDs), and the Highway loop at 2^24, per 64 IDs.
  const std::vector<int32_t> small = examples::MakeRandomIDTable(size_t(1) << 16, 0.5, 42);
  const size_t small_count = examples::ReferenceFreeIDs(small).size();
  std::vector<int32_t> list(small.size()), sizes(1);
  examples::ComputeFreeIDsWave<64> kernel;
  kernel.IDToIndexTable = Buffer<int>(std::span<const int32_t>(small));
  kernel.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
  kernel.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  DispatchOptions options;
  options.wave_size = 8;
  options.max_threads = 1;
  bool kernel_ok = true;
  const auto kernel_ms = [&](bool inlined) {
    return Fastest(repeats * 4, [&] {
      sizes[0] = 0;
      const uint3 groups{uint32_t(small.size() / 64), 1, 1};
      const auto start = Clock::now();
      if (inlined) DispatchInlined(kernel, groups, options);
      else Dispatch(kernel, groups, options);
      const double ms = MsSince(start);
      kernel_ok &= size_t(sizes[0]) == small_count;
      return ms;
    });
  };
  const double plain_ms = kernel_ms(false), inlined_ms = kernel_ms(true);
  const std::vector<int32_t> big = examples::MakeRandomIDTable(size_t(1) << 24, 0.5, 42);
  const size_t big_count = examples::ReferenceFreeIDs(big).size();
  std::vector<int32_t> big_list(big.size());
  bool native_ok = true;
  // The Highway loop's faster form (HighwayBaseline), by the fastest run of each.
  const auto fastest_form = [&](auto native_free_ids) {
    return Fastest(repeats, [&] {
      const auto start = Clock::now();
      const size_t n = native_free_ids(big, big_list);
      const double ms = MsSince(start);
      native_ok &= n == big_count;
      return ms;
    });
  };
  const double native_ms =
      std::min(fastest_form(examples::NativeFreeIDs<examples::CompressForm::kInRegister>),
               fastest_form(examples::NativeFreeIDs<examples::CompressForm::kCompressStore>));

  fmt::print("Statement costs: one thread, wave 8, groups of 64 threads, {} statements per group "
             "over {} groups, in cache; fastest of {} runs (ns per statement, each including "
             "the fold into acc that the first row costs alone)\n\n",
             kStatementsPerGroup, kGroups, repeats);
  for (int k = 0; k < kKinds; ++k) fmt::print("{:>8.2f} ns  {}\n", ns[k], kKindNames[k]);
  const double per_group = 1e6 / double(small.size() / 64);
  const double native_ns = native_ms * 1e6 / double(big.size() / 64);
  fmt::print("\nfree-ID wave kernel (2^16 IDs, in cache, free 0.5): {:.1f} ns per group of 64 "
             "IDs through Dispatch, {:.1f} ns through DispatchInlined{}\n",
             plain_ms * per_group, inlined_ms * per_group, kernel_ok ? "" : " (output WRONG)");
  fmt::print("Highway loop (2^24 IDs, its faster form): {:.1f} ns per 64 IDs; 3x that, the "
             "one-thread target's budget: {:.1f} ns per group{}\n",
             native_ns, 3 * native_ns, native_ok ? "" : " (output WRONG)");
  return kernel_ok && native_ok ? 0 : 1;
}

}  // namespace waveemu::bench
