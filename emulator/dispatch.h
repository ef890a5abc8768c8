// dispatch.h -- runs a kernel over a grid of thread groups.
//
// Each group runs its main() once, all threads in lockstep; groups are spread over cores by
// oneTBB (dispatch.cpp is the only file that includes it), or run in order on the calling thread
// in deterministic mode, which makes the order of atomics, and so the output, repeatable.
// On request (DispatchOptions::groups_in_flight), each worker but the calling thread keeps
// several groups in flight, each on its own fiber (Boost.Context: dispatch.cpp, and the park in
// groups_in_flight.h), so that their additions to a shared counter reach memory together.
#pragma once

#include "emulator/config.h"
#include "emulator/error.h"
#include "emulator/exec.h"
#include "emulator/groups_in_flight.h"
#include "emulator/groupshared.h"
#include "emulator/profile.h"
#include "emulator/system_values.h"

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace waveemu {

struct DispatchOptions {
  DeviceProfile profile = SpecProfile();
  int wave_size = 0;           // 0: the kernel's [WaveSize] preference, else the profile's
  bool deterministic = false;  // groups in order on the calling thread
  int max_threads = 0;         // 0: every core; otherwise at most this many worker threads
  /// Groups one worker keeps in flight when more than one worker runs (1 to 128; 1, the
  /// default: each group runs to its end before the worker starts the next). A group that
  /// reaches an InterlockedAdd on one device element with a uniform index (`Counter[0]`) waits
  /// there until the worker's other groups in flight have reached one or run out of groups;
  /// then each element's additions go to memory as one fetch_add, one group's block after
  /// another's, and the groups go on. That is an order concurrent groups on a GPU may produce;
  /// the counter's cache line then moves between cores once per batch instead of once per
  /// group. The thread that called Dispatch still runs its groups one by one: between the other
  /// workers' batches the line stays in its cache, and it pays nothing for fibers (on this
  /// project's two-core Xeon 10-12 ns per group for the park and resume, against about 58 ns
  /// for a group of the free-ID wave kernel). There, 64 gives that kernel's key row 8.9-9.3 ms
  /// on two cores, against 9.9-10.4 ms with 16, 23-26 ms with groups one by one, and in session
  /// 35 a tenth more with the calling thread's groups in flight too
  /// (docs/performance_history.md, sessions 35 and 38). Not for kernels whose groups
  /// wait for each other through memory: a group spinning on a flag that a parked group would
  /// set (a decoupled look-back scan, say) never lets the batch finish. Deterministic mode and
  /// one worker always run groups one by one, and so does a dispatch of at most
  /// 2 * groups_in_flight groups: it is one chunk, which the calling thread takes.
  int groups_in_flight = 1;
};

struct DispatchResult {
  int wave_size = 0;
  std::string profile;
  uint64_t diagnostic_count = 0;        // undefined points reached (see error.h)
  std::vector<Diagnostic> diagnostics;  // the first DiagnosticLog::kMaxKept of them
  uint64_t out_of_bounds_reads = 0;     // reads that returned 0
  uint64_t out_of_bounds_writes = 0;    // writes that were dropped
  uint64_t out_of_bounds_atomics = 0;   // atomics that did nothing
  int groups_in_flight = 1;  // the most any worker had: 1 when groups ran one by one (also when
                             // the calling thread, which runs its groups so, took all of them)
};

/// Calls body(begin, end) over [0, count) in chunks of at least grain / 2 groups (unless fewer
/// are left): in order on this thread when `deterministic`, else in parallel with at most
/// `max_threads` workers (0: all cores). Exceptions from `body` reach the caller.
void ParallelForGroups(uint64_t count, bool deterministic, int max_threads,
                       const std::function<void(uint64_t, uint64_t)>& body, uint64_t grain = 16);

/// The most groups one worker keeps in flight: each has a stack of its own (8 MiB of address
/// space and two memory mappings, kept by the thread for reuse; Linux allows 65530 mappings
/// per process by default, and 128 workers x 128 stacks x 2 stay below that).
inline constexpr int kMaxGroupsInFlight = 128;

/// How many worker threads a dispatch with this max_threads gets.
int WorkerThreads(int max_threads);

template <class K>
concept ComputeKernel = requires {
  { K::numthreads } -> std::convertible_to<uint3>;
  &K::main;
};

template <class K>
constexpr int ThreadsPerGroup() {
  return int(K::numthreads.x * K::numthreads.y * K::numthreads.z);
}

/// Whether K's groups use the SM 6.6 2-D quad layout (HLSL_SM_6_6_Derivatives, "Thread Groups
/// and Quads"): numthreads X and Y both even, and not a single row. numthreads(X, 1, 1) uses
/// 1-D quads, four consecutive SV_GroupIndex; other shapes have no quads in HLSL (derivatives
/// there are a compile error) and keep the 1-D grouping here.
template <class K>
constexpr bool UsesQuadLayout2D() {
  constexpr uint3 n = K::numthreads;
  return !(n.y == 1 && n.z == 1) && n.x % 2 == 0 && n.y % 2 == 0;
}

/// The thread (SV_GroupThreadID) that runs in slot s of the group: lane s % W of wave s / W.
/// Row-major (slot = SV_GroupIndex), except in the 2-D quad layout: there the spec keeps
/// quadID = WaveGetLaneIndex() / 4 and quadIndex = WaveGetLaneIndex() % 4 while giving no
/// relation between SV_GroupIndex and lane, so slots 4b..4b+3 hold the 2x2 block b (blocks in
/// row-major order per z slice), quad index (x & 1) + 2 * (y & 1). A quad never spans waves.
template <class K>
constexpr uint3 ThreadOfSlot(uint32_t s) {
  constexpr uint3 n = K::numthreads;
  if constexpr (!UsesQuadLayout2D<K>()) {
    return uint3{s % n.x, s / n.x % n.y, s / (n.x * n.y)};
  } else {
    const uint32_t block = s / 4, q = s % 4, blocks_x = n.x / 2, blocks_y = n.y / 2;
    return uint3{block % blocks_x * 2 + (q & 1), block / blocks_x % blocks_y * 2 + (q >> 1),
                 block / (blocks_x * blocks_y)};
  }
}

/// The wave size a dispatch of K runs at, or a UsageError naming the conflict.
template <class K>
int ResolveWaveSize(const DispatchOptions& options) {
  int w = options.wave_size;
  if (w != 0 && !IsValidWaveSize(w))  // before [WaveSize]: 12 is no wave size at all
    throw UsageError(fmt::format("DispatchOptions::wave_size is {}; it must be 4, 8, 16, 32, 64 "
                                 "or 128 (0: the kernel's [WaveSize] or the profile's)",
                                 w));
  if constexpr (requires { K::wave_size; }) {
    constexpr WaveSize attr = K::wave_size;
    static_assert(IsValidWaveSize(attr.min) && IsValidWaveSize(attr.max) && attr.min <= attr.max,
                  "[WaveSize]: sizes must be powers of two in [4, 128], min <= max");
    if (w == 0)
      w = attr.preferred ? attr.preferred
                         : (attr.Allows(options.profile.wave_size) ? options.profile.wave_size
                                                                    : attr.min);
    if (!attr.Allows(w))
      throw UsageError(fmt::format(
          "wave size {} was requested, but the kernel's [WaveSize] allows {} to {}", w, attr.min,
          attr.max));
  }
  if (w == 0) w = options.profile.wave_size;
  if (!IsValidWaveSize(w))
    throw UsageError(fmt::format("wave size {} is not one of 4, 8, 16, 32, 64, 128", w));
  return w;
}

namespace detail {

/// The system values of one group, built once per dispatch where they do not depend on it.
template <class K, int N>
struct SystemValues {
  SV_GroupThreadID<N> group_thread_id;
  SV_GroupIndex<N> group_index;

  SystemValues() {
    for (int s = 0; s < N; ++s) {
      const uint3 t = ThreadOfSlot<K>(uint32_t(s));
      group_thread_id.x.set_lane(s, t.x);
      group_thread_id.y.set_lane(s, t.y);
      group_thread_id.z.set_lane(s, t.z);
      group_index.set_lane(s, (t.z * K::numthreads.y + t.y) * K::numthreads.x + t.x);
    }
  }

  /// The value of parameter type P for group `gid`. The group-independent ones are returned by
  /// reference, so a main() taking `const SV_GroupThreadID<N>&` copies nothing; SV_DispatchThreadID
  /// is built for the group as a returned prvalue (see WorkerSystemValuesOf).
  template <class P>
  decltype(auto) Make(uint3 gid) const {
    if constexpr (std::is_same_v<P, SV_GroupID>) {
      return SV_GroupID{gid};
    } else if constexpr (std::is_same_v<P, SV_GroupThreadID<N>>) {
      return (group_thread_id);
    } else if constexpr (std::is_same_v<P, SV_GroupIndex<N>>) {
      return (group_index);
    } else if constexpr (std::is_same_v<P, SV_DispatchThreadID<N>>) {
      SV_DispatchThreadID<N> d;
      for (int c = 0; c < 3; ++c) SetDispatchThreadComponent(d, c, gid);
      return d;
    } else {
      static_assert(kDependentFalse<P>,
                    "main() parameters must be system values: SV_GroupID, SV_GroupThreadID<N>, "
                    "SV_DispatchThreadID<N> or SV_GroupIndex<N>, with N = threads per group");
    }
  }

  /// Component c of SV_DispatchThreadID for group `gid`, written in place a vector at a time
  /// (from Lanes expressions it costs three temporaries and their copies per component).
  void SetDispatchThreadComponent(SV_DispatchThreadID<N>& d, int c, uint3 gid) const {
    const uint32_t group[3] = {gid.x, gid.y, gid.z};
    const uint32_t size[3] = {K::numthreads.x, K::numthreads.y, K::numthreads.z};
    const hn::ScalableTag<uint32_t> du;
    const auto base = hn::Set(du, group[c] * size[c]);
    const uint32_t* in = group_thread_id[c].data();
    uint32_t* out = d[c].data();
#pragma GCC unroll 128
    for (int i = 0; i < Uint<N>::kPadded; i += int(hn::Lanes(du)))
      hn::Store(hn::Add(hn::Load(du, in + i), base), du, out + i);
  }
};

/// The system values one worker of Dispatch passes to the groups it runs, in order.
/// SV_DispatchThreadID is kept from group to group and only the components whose group id
/// changed are rewritten (in a 1-D grid, x alone): a main() taking `const&` then costs four
/// vector stores a group, not twelve; built for each group, the free-ID wave kernel ran about 9%
/// slower through Dispatch. DispatchInlined does not use this (see WorkerSystemValuesOf).
/// main() receives it by value or const reference, so a group cannot change what the next sees.
template <class K, int N>
class WorkerSystemValues {
 public:
  explicit WorkerSystemValues(const SystemValues<K, N>& shared) : shared_(shared) {}

  template <class P>
  decltype(auto) Make(uint3 gid) {
    if constexpr (std::is_same_v<P, SV_DispatchThreadID<N>>) {
      const uint32_t now[3] = {gid.x, gid.y, gid.z};
      for (int c = 0; c < 3; ++c) {
        if (!valid_ || now[c] != held_[c])
          shared_.SetDispatchThreadComponent(dispatch_thread_id_, c, gid);
        held_[c] = now[c];
      }
      valid_ = true;
      return std::as_const(dispatch_thread_id_);
    } else {
      return shared_.template Make<P>(gid);
    }
  }

 private:
  const SystemValues<K, N>& shared_;
  SV_DispatchThreadID<N> dispatch_thread_id_;
  uint32_t held_[3] = {0, 0, 0};  // the group id components dispatch_thread_id_ holds
  bool valid_ = false;
};

/// What a worker's groups take their system values from. Dispatch: WorkerSystemValues. With
/// main() compiled into the group loop (DispatchInlined), the dispatch's SystemValues itself,
/// which builds SV_DispatchThreadID for each group straight into main()'s parameter: a main()
/// taking it by value copies nothing, and one that never reads it (the Niagara ports) stores
/// nothing. Kept, its x took four stores a group and, with groups in flight, four more lines of
/// each fiber's frame; the free-ID wave rows ran about 2.5% faster on one thread without them.
template <bool kInline, class K, int N>
using WorkerSystemValuesOf =
    std::conditional_t<kInline, const SystemValues<K, N>&, WorkerSystemValues<K, N>>;

/// Group index g of a grid as a group id (x fastest).
inline uint3 GroupIdOf(uint64_t g, uint3 groups) {
  return uint3{uint32_t(g % groups.x), uint32_t(g / groups.x % groups.y),
               uint32_t(g / (uint64_t(groups.x) * groups.y))};
}

/// The group id `delta` groups after `gid`: divisions only when a row is crossed.
inline uint3 AdvanceGroupId(uint3 gid, uint64_t delta, uint3 groups) {
  const uint64_t x = gid.x + delta;
  if (x < groups.x) return uint3{uint32_t(x), gid.y, gid.z};
  const uint64_t y = gid.y + x / groups.x;
  if (y < groups.y) return uint3{uint32_t(x % groups.x), uint32_t(y), gid.z};
  return uint3{uint32_t(x % groups.x), uint32_t(y % groups.y), uint32_t(gid.z + y / groups.y)};
}

template <class K, class SV, class... Args>
void InvokeMain(const K& kernel, void (K::*)(Args...) const, SV& sv,
                [[maybe_unused]] uint3 gid) {  // unused when main() takes no system value
  kernel.main(sv.template Make<std::remove_cvref_t<Args>>(gid)...);
}

/// Dispatch and DispatchInlined: the same groups in the same order; kInline only changes how
/// the group loop is compiled.
template <bool kInline, class K>
DispatchResult RunDispatch(const K& kernel, uint3 groups, const DispatchOptions& options) {
  constexpr int N = ThreadsPerGroup<K>();
  static_assert(N >= 1 && N <= kMaxThreadsPerGroup,
                "[numthreads]: a group has 1 to 1024 threads");
  const int wave_size = ResolveWaveSize<K>(options);
  CheckNoGroupSharedOutsideGroups(&kernel, sizeof(K));
  if (options.groups_in_flight < 1 || options.groups_in_flight > kMaxGroupsInFlight)
    throw UsageError(fmt::format("DispatchOptions::groups_in_flight is {}; it must be 1 to {} "
                                 "(1: each group runs to its end before the next starts)",
                                 options.groups_in_flight, kMaxGroupsInFlight));
  const SystemValues<K, N> sv;
  DispatchShared shared;
  const uint64_t count = uint64_t(groups.x) * groups.y * groups.z;
  const auto run_groups = [&](uint64_t begin, uint64_t end) {
    GroupState<N> state(wave_size, options.profile, uint3{}, &shared);
    ScopedGroup<N> scope(state);
    WorkerSystemValuesOf<kInline, K, N> worker_sv(sv);
    // The group id of `begin` by division, then counted up (x fastest): three 64-bit divisions
    // per group were a visible share of small groups.
    uint3 gid = GroupIdOf(begin, groups);
    for (uint64_t g = begin; g < end; ++g) {
      state.Reset(gid);
      InvokeMain(kernel, &K::main, worker_sv, gid);
      if (++gid.x == groups.x) {
        gid.x = 0;
        if (++gid.y == groups.y) {
          gid.y = 0;
          ++gid.z;
        }
      }
    }
  };
  // Groups in flight: each fiber runs groups until Next runs out, with its own state.
  const auto run_fiber = [&](GroupsInFlight& in_flight) {
    GroupState<N> state(wave_size, options.profile, uint3{}, &shared);
    state.in_flight = &in_flight;
    // Installed until the fiber ends, so an ended fiber leaves no pointer to its state behind;
    // after the chunk, KeepCurrentGroup below puts the worker's own back.
    ScopedGroup<N> scope(state);
    WorkerSystemValuesOf<kInline, K, N> worker_sv(sv);
    uint64_t g = 0, held = 0;  // held: the group index gid was computed for
    uint3 gid{};
    for (bool first = true; in_flight.Next(g); first = false) {
      gid = first ? GroupIdOf(g, groups) : AdvanceGroupId(gid, g - held, groups);
      held = g;
      state.Reset(gid);
      InvokeMain(kernel, &K::main, worker_sv, gid);
    }
  };
  const bool fibers = options.groups_in_flight > 1 && !options.deterministic && count > 1 &&
                      WorkerThreads(options.max_threads) > 1;
  // With groups in flight, the calling thread still runs its chunks one by one (see
  // DispatchOptions::groups_in_flight); oneTBB always has it take part in the loop.
  const std::thread::id caller = std::this_thread::get_id();
  // One chunk of groups in flight on this worker's fibers; chunks of at least
  // groups_in_flight groups (the grain) let a worker fill its fibers.
  std::atomic<int> most_in_flight{1};
  const auto run_chunk_in_flight = [&](uint64_t begin, uint64_t end, const auto& fiber) {
    KeepCurrentGroup<N> keep;
    const int used = GroupsInFlight(begin, end).Run(options.groups_in_flight, fiber);
    int seen = most_in_flight.load();
    while (used > seen && !most_in_flight.compare_exchange_weak(seen, used)) {
    }
  };
  const uint64_t grain = 2 * uint64_t(options.groups_in_flight);
  if constexpr (kInline) {
    // GCC/Clang `flatten`: main() and every call below it are inlined into this loop, so the
    // kernel is one function: no call per statement that spills the live vectors.
    if (fibers) {
      const auto run_direct = [&](uint64_t begin, uint64_t end)
                                  __attribute__((flatten)) { run_groups(begin, end); };
      ParallelForGroups(
          count, false, options.max_threads,
          [&](uint64_t begin, uint64_t end) {
            if (std::this_thread::get_id() == caller) return run_direct(begin, end);
            run_chunk_in_flight(begin, end, [&](GroupsInFlight& f) __attribute__((flatten)) {
              run_fiber(f);
            });
          },
          grain);
    } else {
      ParallelForGroups(count, options.deterministic, options.max_threads,
                        [&](uint64_t begin, uint64_t end)
                            __attribute__((flatten)) { run_groups(begin, end); });
    }
  } else {
    if (fibers) {
      ParallelForGroups(
          count, false, options.max_threads,
          [&](uint64_t begin, uint64_t end) {
            if (std::this_thread::get_id() == caller) return run_groups(begin, end);
            run_chunk_in_flight(begin, end, run_fiber);
          },
          grain);
    } else {
      ParallelForGroups(count, options.deterministic, options.max_threads, run_groups);
    }
  }
  DispatchResult r;
  r.wave_size = wave_size;
  r.profile = options.profile.name;
  r.diagnostic_count = shared.diagnostics.count();
  r.diagnostics = shared.diagnostics.kept();
  r.out_of_bounds_reads = shared.out_of_bounds_reads.load();
  r.out_of_bounds_writes = shared.out_of_bounds_writes.load();
  r.out_of_bounds_atomics = shared.out_of_bounds_atomics.load();
  r.groups_in_flight = most_in_flight.load();
  return r;
}

}  // namespace detail

/// Runs `kernel` over groups.x * groups.y * groups.z thread groups.
template <ComputeKernel K>
DispatchResult Dispatch(const K& kernel, uint3 groups, const DispatchOptions& options = {}) {
  return detail::RunDispatch<false>(kernel, groups, options);
}

/// Dispatch with the kernel compiled into the group loop as one function (every call inlined):
/// the same results, groups and diagnostics; the free-ID kernels run 15-25% faster on an AMD
/// Zen 4 and about 40% faster in cache on an Intel Xeon (docs/performance_history.md). The
/// price is compile time, which grows with everything the kernel calls: seconds for the free-ID
/// kernels, minutes for kernels that sample textures. Use it for the hot kernels of a
/// golden-output or benchmark job.
template <ComputeKernel K>
DispatchResult DispatchInlined(const K& kernel, uint3 groups, const DispatchOptions& options = {}) {
  return detail::RunDispatch<true>(kernel, groups, options);
}

}  // namespace waveemu
