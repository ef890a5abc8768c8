// two_cores_probe.cpp -- session 34: what keeps the free-ID wave kernel's key row below 1.7x on
// two cores. Not part of the build; README.md here has the command. It times, in turns, the
// key row's kernel (wave 8, 2^24 IDs, free 0.5, seed 42, DispatchInlined) in five setups:
//   one thread;
//   two cores, the one shared counter, groups one by one, or 64 in flight on the worker (the
//   benchmark's row);
//   two cores, a counter and a list per OS thread (not the kernel's result: each thread's groups
//   claim from their own counter), groups one by one, or 64 in flight on the worker.
// The last two separate what the fibers cost from what the shared counter costs. Every run's
// output is checked: each free ID listed exactly once over the list(s), nothing else listed.
#include "emulator/emulator.h"
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

using namespace waveemu;
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
  const char* name;
  int threads, groups_in_flight;
  bool per_thread;
  std::vector<double> ms;
  bool wrong = false;
};

}  // namespace

int main() {
  const size_t size = size_t(1) << 24;
  const std::vector<int32_t> table = examples::MakeRandomIDTable(size, 0.5, 42);
  const size_t expected = examples::ReferenceFreeIDs(table).size();
  std::vector<int32_t> list_a(size), list_b(size), sizes(64);  // counters at [0] and [32]
  std::vector<uint8_t> seen;
  std::vector<Setup> setups = {
      {"one thread", 1, 1, false, {}},
      {"2 cores, shared counter, groups one by one", 2, 1, false, {}},
      {"2 cores, shared counter, 64 in flight on the worker", 2, 64, false, {}},
      {"2 cores, counter per thread, groups one by one", 2, 1, true, {}},
      {"2 cores, counter per thread, 64 in flight on the worker", 2, 64, true, {}},
  };
  const auto check = [&](const Setup& s) {
    seen.assign(size, 0);
    size_t listed = 0;
    for (auto [list, count] : {std::pair{&list_a, sizes[0]}, std::pair{&list_b, sizes[32]}}) {
      if (count < 0 || size_t(count) > size) return false;
      for (int32_t i = 0; i < count; ++i) {
        const int32_t id = (*list)[size_t(i)];
        if (id < 0 || size_t(id) >= size || table[size_t(id)] != -1 || seen[size_t(id)])
          return false;
        seen[size_t(id)] = 1;
      }
      listed += size_t(count);
    }
    return listed == expected && (s.per_thread || sizes[32] == 0);
  };
  constexpr int kTurns = 15;
  for (int turn = 0; turn < kTurns; ++turn) {
    for (size_t k = 0; k < setups.size(); ++k) {
      Setup& s = setups[(k + size_t(turn)) % setups.size()];  // a different order each turn
      std::fill(sizes.begin(), sizes.end(), 0);
      std::fill(list_a.begin(), list_a.end(), examples::kUnwritten);  // no run passes on an
      std::fill(list_b.begin(), list_b.end(), examples::kUnwritten);  // earlier run's entries
      PerThreadCounters kernel;
      kernel.first.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
      kernel.first.RWFreeIDList = RWBuffer<int>(std::span<int>(list_a));
      kernel.first.RWFreeIDListSizes = RWBuffer<int>(std::span<int>(sizes));
      kernel.second = kernel.first;
      kernel.second.RWFreeIDList = RWBuffer<int>(std::span<int>(list_b));
      kernel.second.FreeIDListIndex = 32;  // its own cache line
      kernel.per_thread = s.per_thread;
      DispatchOptions options;
      options.wave_size = 8;
      options.max_threads = s.threads;
      options.groups_in_flight = s.groups_in_flight;
      const auto start = std::chrono::steady_clock::now();
      DispatchInlined(kernel, uint3{uint32_t(size / 64), 1, 1}, options);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (!check(s)) s.wrong = true;
      if (turn > 0) s.ms.push_back(ms);  // the first turn warms threads, stacks and pages
    }
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double one = median(setups[0].ms);
  fmt::print("free-ID wave kernel, wave 8, 2^24 IDs, free 0.5, DispatchInlined; median of {} "
             "runs in turns\n\n{:<58} {:>8} {:>8} {:>8} {:>8}\n",
             kTurns - 1, "setup", "ms", "min", "max", "speedup");
  bool ok = true;
  for (const Setup& s : setups) {
    const double m = median(s.ms);
    fmt::print("{:<58} {:>8.2f} {:>8.2f} {:>8.2f} {:>7.2f}x{}\n", s.name, m,
               *std::min_element(s.ms.begin(), s.ms.end()),
               *std::max_element(s.ms.begin(), s.ms.end()), one / m,
               s.wrong ? "  output WRONG" : "");
    ok &= !s.wrong;
  }
  return ok ? 0 : 1;
}
