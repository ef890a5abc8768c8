// live_values_park.cpp -- session 50: what the two-core target would get from a park that keeps
// only a group's live values, measured rather than estimated. Not part of the build (README.md
// here has the command).
//
// Since session 40 the write-ups say that a group parked at its atomic with only its live values
// kept (a compiled kernel's park), not its C++ frame on a fiber's stack, would give the free-ID
// wave rows about 1.75-1.8x on two cores, an estimate from session 40's curves. This probe
// writes that park by hand around the emulator's own statements: the free-ID wave kernel's
// statements up to its InterlockedAdd (phase A), then those after it (phase B), with what phase B
// needs kept in between in a small record per group (WriteOffset: 256 bytes; the two if_
// conditions and the per-wave claims: 144 bytes; 448 with the alignment). ParticleID is
// recomputed.
//
// Setups (RunSplit). The calling thread always runs its groups one by one: phase A, the claim
// (one fetch_add for the group's waves, as the emulator combines them), phase B. On two cores
// the worker runs its groups
//   batched: a batch's phase A, one fetch_add for the batch, the batch's phase B;
//   pipelined: each group's phase A beside the phase B of the group one batch before it, so one
//     batch is settled while the next parks: the order Dispatch's fibers run in (a resumed fiber
//     ends its group and runs its next group up to the park);
//   one by one, with a counter and list of its own (nothing shared but the input; not the
//     kernel's result, the two lists are checked together).
// In the same turns it times the emulator's kernel as the benchmark's rows run it
// (RunEmulatorFreeIDs: DispatchInlined over a 2-D grid, 64 groups in flight on two cores), so the split kernel's speed-ups
// and the emulator's are read side by side; "split/emu" compares their one-thread times (the
// split kernel's per-group work should be about the emulator's, or the comparison says little).
// Every run's list is checked with the benchmark's CheckFreeIDs.
//
// With four arguments or more it times one setup alone, for perf: REPEATS WAVE BATCH THREADS
// [LOG2_IDS [pipelined]] (free fraction 0.5; BATCH 1: one by one), and checks the last run.
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include "tools/bench/free_ids_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <thread>
#include <vector>

using namespace waveemu;
using namespace waveemu::bench;

namespace {

constexpr int N = 64;           // threads per group, as the benchmark's rows
constexpr int kMaxWaves = N / 4;  // wave 4 gives the most waves a group
constexpr int kMaxBatch = 256;  // the most groups in flight on the worker

/// What phase B needs of phase A: the live values at the atomic.
struct alignas(64) LiveValues {
  uint32_t write_offset[Uint<N>::kPadded];  // WriteOffset
  Mask<N> is_free;                          // IsFree != 0, the inner if_'s condition
  Mask<N> any_free;                         // NumGroupFreeIDs > 0, the outer if_'s condition
  uint32_t wave_count[kMaxWaves];           // each wave's addition (0: the wave does not claim)
  uint32_t wave_start[kMaxWaves];           // what its InterlockedAdd returned
};

/// The kernel's statements (examples/niagara_free_ids/free_ids_wave.h), cut at the atomic.
/// RWFreeIDListSizes[FreeIDListIndex] is `counter`: the claim is the probe's own code.
struct SplitKernel {
  Buffer<int> IDToIndexTable;
  RWBuffer<int> RWFreeIDList;
  int* counter = nullptr;
  int wave_size = 8;

  void PhaseA(uint3 GroupId, const SV_GroupThreadID<N>& GroupThreadId, LiveValues& live) const {
    uint32_t InputStart = GroupId.x * N;
    Uint<N> Thread = GroupThreadId.x;
    Uint<N> ParticleID = InputStart + Thread;
    Uint<N> IsFree = select(IDToIndexTable[ParticleID] == -1, 1u, 0u);
    Uint<N> NumGroupFreeIDs = WaveActiveCountBits(IsFree != 0u);
    Uint<N> WriteOffset = WavePrefixCountBits(IsFree != 0u);
    const Bool<N> any_free = NumGroupFreeIDs > 0u;
    std::fill(live.wave_count, live.wave_count + kMaxWaves, 0u);
    if_(any_free, [&] {
      if_(WaveIsFirstLane<N>(), [&] {
        // The park: each claiming wave's addition, from its first active lane.
        CurrentMask<N>().ForEach(
            [&](int t) { live.wave_count[t / wave_size] = NumGroupFreeIDs.lane(t); });
      });
    });
    std::memcpy(live.write_offset, WriteOffset.data(), sizeof(live.write_offset));
    live.is_free = (IsFree != 0u).mask();
    live.any_free = any_free.mask();
  }

  void PhaseB(uint3 GroupId, const SV_GroupThreadID<N>& GroupThreadId,
              const LiveValues& live) const {
    uint32_t InputStart = GroupId.x * N;
    Uint<N> Thread = GroupThreadId.x;
    Uint<N> ParticleID = InputStart + Thread;  // recomputed, not kept
    Uint<N> WriteOffset{NoInit{}};
    std::memcpy(WriteOffset.data(), live.write_offset, sizeof(live.write_offset));
    if_(Bool<N>::FromMask(live.any_free), [&] {
      Uint<N> GroupWriteStart{NoInit{}};  // the atomic's original value: at each wave's first lane
      for (int w = 0; w < N / wave_size; ++w)
        GroupWriteStart.set_lane(w * wave_size, live.wave_start[w]);
      GroupWriteStart = WaveReadLaneFirst(GroupWriteStart);
      if_(Bool<N>::FromMask(live.is_free), [&] {
        RWFreeIDList[GroupWriteStart + WriteOffset] = ParticleID;
      });
    });
  }

  // Unless null: the worker's groups claim from this counter and write this list instead (not
  // the kernel's result; nothing is then shared between the cores but the input).
  int* worker_counter = nullptr;
  RWBuffer<int> worker_list;
};

SplitKernel MakeSplitKernel(std::span<const int32_t> table, std::vector<int32_t>& list,
                            int* counter, int wave_size) {
  SplitKernel k;
  k.IDToIndexTable = Buffer<int>(table);
  k.RWFreeIDList = RWBuffer<int>(std::span<int>(list));
  k.counter = counter;
  k.wave_size = wave_size;
  return k;
}

/// Each claiming wave's original, from `base`, in wave order (the emulator's combined claim).
uint32_t AssignStarts(LiveValues& live, uint32_t base, int waves) {
  for (int w = 0; w < waves; ++w) {
    live.wave_start[w] = base;
    base += live.wave_count[w];
  }
  return base;
}

uint32_t Total(const LiveValues& live, int waves) {
  uint32_t total = 0;
  for (int w = 0; w < waves; ++w) total += live.wave_count[w];
  return total;
}

/// A batched worker's parked groups: the batch being parked and, pipelined, the one ending.
thread_local LiveValues parked[2][kMaxBatch];

/// The worker's groups `batch` at a time (at most kMaxBatch), batched or `pipelined` (see the
/// top), or one by one as the calling thread's when batch is 1; with one thread, that thread's.
double RunSplit(const SplitKernel& caller_kernel, uint64_t groups, int threads, int batch,
                bool pipelined = false) {
  const DeviceProfile profile = SpecProfile();
  const detail::SystemValues<examples::ComputeFreeIDsWave<N>, N> sv;
  DispatchShared shared;
  const int waves = N / caller_kernel.wave_size;
  const std::thread::id caller = std::this_thread::get_id();
  SplitKernel worker_kernel = caller_kernel;
  if (caller_kernel.worker_counter) {
    worker_kernel.counter = caller_kernel.worker_counter;
    worker_kernel.RWFreeIDList = caller_kernel.worker_list;
  }
  // One chunk of groups on one thread, in the given order (each order compiled on its own:
  // with the order a run-time argument, one by one and pipelined ran 3-10% slower).
  const auto run_chunk = [&]<bool kBatched, bool kInterleaved>(
                             const SplitKernel& kernel, uint64_t begin, uint64_t end)
                             __attribute__((flatten)) {
    std::atomic_ref<int> counter(*kernel.counter);
    GroupState<N> state(kernel.wave_size, profile, uint3{}, &shared);
    ScopedGroup<N> scope(state);
    const auto phase_a = [&](uint64_t g, LiveValues& live) {  // returns the group's addition
      const uint3 gid{uint32_t(g), 0, 0};
      state.Reset(gid);
      kernel.PhaseA(gid, sv.group_thread_id, live);
      return Total(live, waves);
    };
    const auto phase_b = [&](uint64_t g, const LiveValues& live) {
      const uint3 gid{uint32_t(g), 0, 0};
      state.Reset(gid);
      kernel.PhaseB(gid, sv.group_thread_id, live);
    };
    // One fetch_add for n parked groups, each group's waves given their originals in order.
    const auto claim = [&](LiveValues* live, int n, uint32_t total) {
      uint32_t base = total ? uint32_t(counter.fetch_add(int(total))) : 0;
      for (int k = 0; k < n; ++k) base = AssignStarts(live[k], base, waves);
    };
    if constexpr (!kBatched) {
      LiveValues one;
      for (uint64_t g = begin; g < end; ++g) {
        claim(&one, 1, phase_a(g, one));
        phase_b(g, one);
      }
    } else if constexpr (!kInterleaved) {
      LiveValues* const batch_live = parked[0];
      for (uint64_t first = begin; first < end; first += uint64_t(batch)) {
        const int n = int(std::min<uint64_t>(uint64_t(batch), end - first));
        uint32_t total = 0;
        for (int k = 0; k < n; ++k) total += phase_a(first + k, batch_live[k]);
        claim(batch_live, n, total);
        for (int k = 0; k < n; ++k) phase_b(first + k, batch_live[k]);
      }
    } else {
      // Batch `first` parks in parked[b] while the batch before it, settled, ends from
      // parked[b ^ 1]; a last round with nothing to park ends the last batch.
      uint64_t settled = begin;
      int n_settled = 0, b = 0;
      for (uint64_t first = begin;; first += uint64_t(batch), b ^= 1) {
        const int n = first < end ? int(std::min<uint64_t>(uint64_t(batch), end - first)) : 0;
        uint32_t total = 0;
        for (int k = 0; k < std::max(n, n_settled); ++k) {
          if (k < n) total += phase_a(first + k, parked[b][k]);
          if (k < n_settled) phase_b(settled + k, parked[b ^ 1][k]);
        }
        if (n == 0) break;
        claim(parked[b], n, total);
        settled = first;
        n_settled = n;
      }
    }
  };
  const auto start = Clock::now();
  ParallelForGroups(
      groups, false, threads,
      [&](uint64_t begin, uint64_t end) {
        // The calling thread runs its groups one by one, unless it runs them all.
        const bool on_caller = threads == 1 || std::this_thread::get_id() == caller;
        const SplitKernel& kernel = on_caller ? caller_kernel : worker_kernel;
        if (batch == 1 || (threads > 1 && on_caller))
          run_chunk.template operator()<false, false>(kernel, begin, end);
        else if (pipelined)
          run_chunk.template operator()<true, true>(kernel, begin, end);
        else
          run_chunk.template operator()<true, false>(kernel, begin, end);
      },
      2 * uint64_t(std::max(batch, 64)));  // Dispatch's grain: twice the groups in flight
  return MsSince(start);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 11;
  const size_t size = size_t(1) << (argc > 5 ? std::atoi(argv[5]) : 24);
  const uint64_t groups = size / N;
  if (argc > 4) {  // `repeats` runs of the split kernel: WAVE BATCH THREADS [LOG2_IDS [pipelined]]
    const int wave = std::atoi(argv[2]), batch = std::atoi(argv[3]), threads = std::atoi(argv[4]);
    const bool pipelined = argc > 6 && std::string(argv[6]) == "pipelined";
    const std::vector<int32_t> table = examples::MakeRandomIDTable(size, 0.5, 42);
    std::vector<int32_t> list(size), sizes(1);
    const SplitKernel k = MakeSplitKernel(table, list, &sizes[0], wave);
    double total = 0;
    for (int r = 0; r < repeats; ++r) {
      std::fill(list.begin(), list.end(), examples::kUnwritten);  // outside the timed call
      sizes[0] = 0;
      total += RunSplit(k, groups, threads, batch, pipelined);
    }
    std::vector<uint8_t> seen;
    if (!CheckFreeIDs(table, list, sizes[0], examples::ReferenceFreeIDs(table).size(), seen)) {
      fmt::print("output WRONG\n");
      return 1;
    }
    fmt::print("{:.2f} ns a group\n", total / repeats * 1e6 / double(groups));
    return 0;
  }
  fmt::print(
      "free-ID wave kernel, 2^24 IDs, 64 threads a group; ms, median of {} runs in "
      "turns per row; speed-ups over the same code's one-thread time\n"
      "emu: the emulator's kernel as the benchmark runs it (two cores: 64 groups in flight, "
      "fibers)\n"
      "split: the same statements cut at the atomic, live values kept; two cores: the worker "
      "batches 64 or 256 groups (b64, b256: the shared counter; all phase A, one claim, all "
      "phase B), or with a counter and list of its own batches 64 (own b64) or runs them one "
      "by one (own 1x1); p64, p128: batches pipelined (each group's phase A beside the phase B "
      "of the group a batch before it), the shared counter; split/emu: the one-thread times; "
      "1t b64/1x1, 1t p64/1x1: the split kernel on one thread, batched against one by one\n\n"
      "{:<4} {:<4} {:>7} {:>7} {:>6} {:>8} {:>6} {:>6} {:>7} {:>7} {:>6} {:>6} {:>9} {:>10} "
      "{:>10}\n",
      repeats, "wave", "free", "emu 1t", "emu 2c", "x", "split 1t", "b64", "b256", "own b64",
      "own 1x1", "p64", "p128", "split/emu", "1t b64/1x1", "1t p64/1x1");
  bool ok = true;
  for (int wave : {8, 32, 64}) {
    for (double free_fraction : {0.1, 0.5, 0.9}) {
      const std::vector<int32_t> table = examples::MakeRandomIDTable(size, free_fraction, 42);
      const size_t expected = examples::ReferenceFreeIDs(table).size();
      std::vector<int32_t> list, worker_list, sizes(64), listed;  // counters at [0] and [32]
      std::vector<uint8_t> seen;
      FreeIDsBuffers emulator_buffers;
      const Config bench_config;  // the benchmark's: DispatchInlined, 64 groups in flight
      const auto emulator = [&](int threads) {
        return RunEmulatorFreeIDs<examples::ComputeFreeIDsWave<N>>(
            table, expected, wave, threads, bench_config, emulator_buffers);
      };
      // own_counter: the worker claims from sizes[32] into worker_list; the lists are checked
      // together.
      const auto split = [&](int threads, int batch, bool own_counter, bool pipelined = false) {
        list.assign(size, examples::kUnwritten);
        worker_list.assign(size, examples::kUnwritten);
        sizes[0] = sizes[32] = 0;
        SplitKernel k = MakeSplitKernel(table, list, &sizes[0], wave);
        if (own_counter) {
          k.worker_counter = &sizes[32];
          k.worker_list = RWBuffer<int>(std::span<int>(worker_list));
        }
        const double ms = RunSplit(k, groups, threads, batch, pipelined);
        if (sizes[0] < 0 || sizes[32] < 0) return -1.0;
        listed.assign(list.begin(), list.begin() + std::min<size_t>(size_t(sizes[0]), size));
        listed.insert(listed.end(), worker_list.begin(),
                      worker_list.begin() + std::min<size_t>(size_t(sizes[32]), size));
        return CheckFreeIDs(table, listed, int64_t(sizes[0]) + sizes[32], expected, seen) ? ms
                                                                                        : -1.0;
      };
      std::vector<Contender> c;
      c.emplace_back(repeats, [&] { return emulator(1); });
      c.emplace_back(repeats, [&] { return emulator(2); });
      c.emplace_back(repeats, [&] { return split(1, 1, false); });
      for (int batch : {64, 256})
        c.emplace_back(repeats, [&, batch] { return split(2, batch, false); });
      c.emplace_back(repeats, [&] { return split(2, 64, true); });
      c.emplace_back(repeats, [&] { return split(2, 1, true); });
      c.emplace_back(repeats, [&] { return split(1, 64, false); });
      for (int batch : {64, 128})
        c.emplace_back(repeats, [&, batch] { return split(2, batch, false, true); });
      c.emplace_back(repeats, [&] { return split(1, 64, false, true); });
      for (Contender& x : c) x.run();  // warm-up: threads, fiber stacks, pages
      std::vector<Contender*> turns;
      for (Contender& x : c) turns.push_back(&x);
      MeasureInTurns(turns);
      if (std::any_of(c.begin(), c.end(), [](const Contender& x) { return x.wrong; })) {
        fmt::print("{:<4} {:<4} output WRONG\n", wave, free_fraction);
        ok = false;
        continue;
      }
      const double e1 = c[0].Result(), s1 = c[2].Result();
      fmt::print("{:<4} {:<4} {:>7.2f} {:>7.2f} {:>5.2f}x {:>8.2f} {:>5.2f}x {:>5.2f}x {:>6.2f}x "
                 "{:>6.2f}x {:>5.2f}x {:>5.2f}x {:>9.3f} {:>10.3f} {:>10.3f}\n",
                 wave, free_fraction, e1, c[1].Result(), e1 / c[1].Result(), s1,
                 s1 / c[3].Result(), s1 / c[4].Result(), s1 / c[5].Result(), s1 / c[6].Result(),
                 s1 / c[8].Result(), s1 / c[9].Result(), s1 / e1, c[7].Result() / s1,
                 c[10].Result() / s1);
    }
  }
  return ok ? 0 : 1;
}
