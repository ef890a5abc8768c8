// two_cores_probe.cpp -- session 40: what the groups in flight cost on two cores, as a function
// of how many there are. Session 34's probe (docs/perf_runs/2026-11-24-session34/) with more
// setups; not part of the build (README.md here has the command).
//
// It times, in turns (the benchmark's MeasureInTurns), the free-ID wave kernel
// (DispatchInlined, 2^24 IDs, seed 42; wave size and free fraction from the command line,
// default 8 and 0.5, the key row) in these setups:
//   one thread;
//   two cores, the kernel's one shared counter, groups one by one, or 8, 16, 32, 64 (the
//   benchmark's setting) or 128 in flight on the worker;
//   two cores, a counter and a list per OS thread (not the kernel's result: each thread's groups
//   claim from their own counter), groups one by one, or 2 to 128 in flight on the worker.
// The counter-per-thread setups price the fibers alone, nothing being shared between the
// cores; the shared-counter setups add what the counter's cache line costs at each batch size.
// Every run's output is checked with the benchmark's CheckFreeIDs over the lists together.
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include "tools/bench/free_ids_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::bench;
using Wave64 = examples::ComputeFreeIDsWave<64>;

namespace {

std::atomic<int> next_thread_slot{0};
thread_local int thread_slot = -1;  // 0, 1, ...: the order in which OS threads first ran a group

/// The kernel, with a second copy bound to another list and counter: with `per_thread`, groups
/// on the second OS thread (and any later one) claim from that copy's counter.
struct PerThreadCounters {
  static constexpr int N = 64;
  static constexpr uint3 numthreads = Wave64::numthreads;
  Wave64 first, second;
  bool per_thread = false;
  void main(SV_GroupID g, const SV_GroupThreadID<N>& t, const SV_DispatchThreadID<N>& d) const {
    if (thread_slot < 0) thread_slot = next_thread_slot++;
    if (per_thread && thread_slot > 0) second.main(g, t, d);
    else first.main(g, t, d);
  }
};

struct Setup {
  std::string name;
  int threads, groups_in_flight;
  bool per_thread;
};

}  // namespace

int main(int argc, char** argv) {
  const int wave_size = argc > 1 ? std::atoi(argv[1]) : 8;
  const double free_fraction = argc > 2 ? std::atof(argv[2]) : 0.5;
  const size_t size = size_t(1) << 24;
  const std::vector<int32_t> table = examples::MakeRandomIDTable(size, free_fraction, 42);
  const size_t expected = examples::ReferenceFreeIDs(table).size();
  std::vector<int32_t> list_a, list_b, sizes(64), listed;  // counters at [0] and [32]
  std::vector<uint8_t> seen;
  std::vector<Setup> setups = {{"one thread", 1, 1, false}};
  for (int n : {1, 8, 16, 32, 64, 128})
    setups.push_back({n == 1 ? "2 cores, shared counter, groups one by one"
                             : fmt::format("2 cores, shared counter, {} in flight", n),
                      2, n, false});
  for (int n : {1, 2, 4, 8, 16, 32, 64, 128})
    setups.push_back({n == 1 ? "2 cores, counter per thread, groups one by one"
                             : fmt::format("2 cores, counter per thread, {} in flight", n),
                      2, n, true});
  // One run: ms of the DispatchInlined call, or -1 when the lists together are not the free IDs.
  const auto run = [&](const Setup& s) {
    list_a.assign(size, examples::kUnwritten);  // no run passes on an earlier run's entries
    list_b.assign(size, examples::kUnwritten);
    std::fill(sizes.begin(), sizes.end(), 0);
    PerThreadCounters kernel;
    kernel.first.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
    kernel.first.RWFreeIDList = RWBuffer<int>(std::span<int>(list_a));
    kernel.first.RWFreeIDListSizes = RWBuffer<int>(std::span<int>(sizes));
    kernel.second = kernel.first;
    kernel.second.RWFreeIDList = RWBuffer<int>(std::span<int>(list_b));
    kernel.second.FreeIDListIndex = 32;  // its own cache line
    kernel.per_thread = s.per_thread;
    DispatchOptions options;
    options.wave_size = wave_size;
    options.max_threads = s.threads;
    options.groups_in_flight = s.groups_in_flight;
    const auto start = Clock::now();
    DispatchInlined(kernel, uint3{uint32_t(size / 64), 1, 1}, options);
    const double ms = MsSince(start);
    if (sizes[0] < 0 || sizes[32] < 0 || (!s.per_thread && sizes[32] != 0)) return -1.0;
    listed.assign(list_a.begin(), list_a.begin() + std::min<size_t>(size_t(sizes[0]), size));
    listed.insert(listed.end(), list_b.begin(),
                  list_b.begin() + std::min<size_t>(size_t(sizes[32]), size));
    return CheckFreeIDs(table, listed, int64_t(sizes[0]) + sizes[32], expected, seen) ? ms : -1;
  };
  for (const Setup& s : setups) run(s);  // warm-up: threads, fiber stacks, pages
  constexpr int kRepeats = 14;
  std::vector<Contender> contenders;
  for (const Setup& s : setups) contenders.emplace_back(kRepeats, [&] { return run(s); });
  std::vector<Contender*> in_turns;
  for (Contender& c : contenders) in_turns.push_back(&c);
  MeasureInTurns(in_turns);

  const double one = contenders[0].Result();
  fmt::print("free-ID wave kernel, wave {}, 2^24 IDs, free {}, DispatchInlined; median of {} "
             "runs in turns\n\n{:<46} {:>8} {:>8} {:>8} {:>8}\n",
             wave_size, free_fraction, kRepeats, "setup", "ms", "min", "max", "speedup");
  bool ok = true;
  for (size_t i = 0; i < contenders.size(); ++i) {
    const Contender& c = contenders[i];
    if (c.wrong) {
      fmt::print("{:<46} output WRONG\n", setups[i].name);
      ok = false;
      continue;
    }
    const auto [low, high] = std::minmax_element(c.ms.begin(), c.ms.end());
    fmt::print("{:<46} {:>8.2f} {:>8.2f} {:>8.2f} {:>7.2f}x\n", setups[i].name, c.Result(), *low,
               *high, one / c.Result());
  }
  return ok ? 0 : 1;
}
