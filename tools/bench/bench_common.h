// bench_common.h -- what every part of waveemu-bench shares: options, table rows, timing by
// median, and running a pipeline on lavapipe with only its dispatch timed.
#pragma once

#include "emulator/emulator.h"
#if WAVEEMU_HAVE_VULKAN_BACKEND
#include "tools/waveemu/vulkan_backend.h"
#endif
#include "tools/waveemu/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#ifndef WAVEEMU_SOURCE_ROOT
#define WAVEEMU_SOURCE_ROOT "."
#endif

namespace waveemu::bench {

using Clock = std::chrono::steady_clock;

struct Config {
  bool quick = false, no_vulkan = false, scaling = false, statements = false, floor = false;
  bool plain_dispatch = false;  // free-ID and wave-op rows through Dispatch, not DispatchInlined
  int groups_in_flight = 64;    // DispatchOptions::groups_in_flight of the free-ID rows
  std::string filter;
  int repeats = 5;
  int vulkan_repeats = 3;     // lavapipe runs per free-ID and wave-spec row
  int vulkan_op_repeats = 1;  // lavapipe runs per wave-op row (62 rows of 2^24 lanes)
  std::string json_path;
};

/// One row of the table: a workload and the median ms of each contender (NaN: not run).
struct Row {
  std::string workload, detail;
  size_t size = 0;  // IDs or lanes
  int wave = 0;
  double all = NAN, one = NAN, vulkan = NAN, native = NAN;
  int vulkan_wave = 0;      // the subgroup size lavapipe ran at (0: not run)
  std::string native_form;  // the Highway loop's faster form (free-ID rows; HighwayBaseline)
  std::string note;         // why a contender is missing, or what it did
  bool failed = false;      // a contender's output did not match the reference
};

inline double Median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

inline double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// One contender of a row: run() times one run and returns its ms, a negative value when its
/// output did not match the reference (the contender stops; `wrong` is set), or NaN when it
/// could not run (the contender stops; `unavailable` is set). Either way its result is NaN.
struct Contender {
  Contender() = default;  // no runs
  Contender(int n, std::function<double()> f) : repeats(n), run(std::move(f)) {}
  int repeats = 0;
  std::function<double()> run;
  std::vector<double> ms;
  bool wrong = false;
  bool unavailable = false;
  bool Done() const { return int(ms.size()) >= repeats || wrong || unavailable || !run; }
  double Result() const { return wrong || unavailable ? NAN : Median(ms); }
};

/// The order of turn `turn` among n contenders: a Williams design (0, 1, n-1, 2, n-2, ...
/// shifted by the turn; for odd n, every other n turns reversed): over whole cycles of turns
/// each contender directly follows each other one equally often.
inline std::vector<size_t> TurnOrder(size_t n, int turn) {
  std::vector<size_t> order;
  for (size_t k = 0, low = 1, high = n - 1; k < n; ++k)
    order.push_back(k == 0 ? 0 : k % 2 ? low++ : high--);
  for (size_t& i : order) i = (i + size_t(turn)) % n;
  if (n % 2 && (size_t(turn) / n) % 2) std::reverse(order.begin(), order.end());
  return order;
}

/// Runs a row's contenders in turns, one run of each contender not yet done per turn. This
/// machine's speed drifts by up to 1.5x within seconds (docs/performance_history.md, session
/// 5): timing one contender's repeats and then the next's can put them in different phases, and
/// their ratio then measures the machine; in turns, a phase falls on every contender alike. The
/// order changes from turn to turn (TurnOrder), so no contender keeps following the same one (an
/// all-cores run leaves oneTBB's workers spinning for a moment after it).
inline void MeasureInTurns(std::span<Contender* const> contenders) {
  for (int turn = 0;; ++turn) {
    std::vector<Contender*> due;
    for (Contender* c : contenders)
      if (!c->Done()) due.push_back(c);
    if (due.empty()) return;
    for (size_t i : TurnOrder(due.size(), turn)) {
      Contender& c = *due[i];
      const double t = c.run();
      if (std::isnan(t)) c.unavailable = true;
      else if (t < 0) c.wrong = true;
      else c.ms.push_back(t);
    }
  }
}
/// The same, for a braced list of contenders (a span cannot be made from one in C++20).
inline void MeasureInTurns(std::initializer_list<Contender*> contenders) {
  MeasureInTurns(std::span<Contender* const>(contenders.begin(), contenders.size()));
}

/// Median ms of `repeats` calls of run() (a contender measured alone); a wrong output sets
/// `failed` and gives NaN.
inline double Measure(int repeats, bool& failed, const std::function<double()>& run) {
  Contender c{repeats, run};
  MeasureInTurns({&c});
  if (c.wrong) failed = true;
  return c.Result();
}

inline std::string ReadText(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

template <class T>
std::vector<std::byte> Bytes(std::span<const T> v) {
  std::vector<std::byte> b(v.size_bytes());
  std::memcpy(b.data(), v.data(), v.size_bytes());
  return b;
}

/// D3D allows 65535 groups per dimension: `groups` groups as a grid of grid_x x rows.
inline uint3 Grid2D(uint64_t groups, uint32_t grid_x) {
  return uint3{uint32_t(std::min<uint64_t>(groups, grid_x)),
               uint32_t((groups + grid_x - 1) / grid_x), 1};
}
inline constexpr uint32_t kGridX = 1024;

// ------------------------------ Vulkan (lavapipe)

#if WAVEEMU_HAVE_VULKAN_BACKEND
struct VulkanBuffer {
  std::string name;
  oracle::DataFormat format;
  oracle::ResourceKind kind;
  uint32_t dx_register;
  std::vector<std::byte> data;
};

/// A pipeline on the HLSL file at `hlsl` (relative to the source root) with `defines` prepended.
inline oracle::Pipeline MakePipeline(const std::string& hlsl, const std::string& defines,
                              const std::string& entry, uint3 groups, int wave,
                              std::vector<VulkanBuffer> buffers) {
  oracle::Pipeline p;
  p.path = "waveemu-bench";
  p.hlsl_path = std::string(WAVEEMU_SOURCE_ROOT) + "/" + hlsl;
  p.hlsl_source = defines + ReadText(p.hlsl_path);
  p.entry = entry;
  p.dispatch = {groups.x, groups.y, groups.z};
  p.wave_size = wave;
  for (auto& b : buffers) {
    oracle::BufferDesc d;
    d.name = b.name;
    d.format = b.format;
    d.data = std::move(b.data);
    p.buffers.push_back(std::move(d));
    oracle::ResourceBinding r;
    r.name = b.name;
    r.kind = b.kind;
    r.dx_register = b.dx_register;
    // docs/pipelines.md's shifts: t + 0, u + 16, b + 32.
    const char cls = oracle::RegisterClass(b.kind);
    r.binding = b.dx_register + (cls == 'u' ? 16 : cls == 'b' ? 32 : 0);
    r.has_dx_binding = r.has_vulkan_binding = true;
    p.bindings.push_back(r);
  }
  return p;
}

/// One run of the pipeline: the ms of its dispatch (submit to fence; upload, compile and
/// readback are not timed), -1 when verify(buffers, subgroup size) rejects its output, or NaN
/// with a note in `row` when lavapipe cannot run it.
inline double RunVulkanOnce(const oracle::Pipeline& p, Row& row,
                            const std::function<bool(const oracle::BufferContents&, int)>& verify) {
  oracle::VulkanRunOptions options;
  options.device_name = "llvmpipe";
  oracle::VulkanRunReport report;
  options.report = &report;
  oracle::BufferContents out;
  try {
    out = oracle::RunOnVulkan(p, options);
  } catch (const std::exception& e) {
    row.note = fmt::format("lavapipe: {}", std::string(e.what()).substr(0, 120));
    return NAN;
  }
  row.vulkan_wave = int(report.subgroup_size);
  return verify(out, int(report.subgroup_size)) ? report.dispatch_ms : -1;
}

/// Runs the pipeline `repeats` times (cfg.vulkan_repeats when 0) and returns the median
/// dispatch time (RunVulkanOnce); a wrong output fails the row.
inline double MeasureVulkan(const Config& cfg, const oracle::Pipeline& p, Row& row,
                     const std::function<bool(const oracle::BufferContents&, int)>& verify,
                     int repeats = 0) {
  Contender vulkan{repeats ? repeats : cfg.vulkan_repeats,
                   [&] { return RunVulkanOnce(p, row, verify); }};
  MeasureInTurns({&vulkan});
  if (vulkan.wrong) {
    row.failed = true;
    row.note += " lavapipe output WRONG;";
  }
  return vulkan.Result();
}
#endif


/// Adds a measured row and reports it on stderr at once (a full run takes minutes).
inline void AddRow(std::vector<Row>& rows, const Row& r) {
  rows.push_back(r);
  fmt::print(stderr, "  {} {} n={} W={}: all {:.2f} ms, one thread {:.2f} ms, lavapipe {:.2f} ms{}{}{}\n",
             r.workload, r.detail, r.size, r.wave, r.all, r.one, r.vulkan,
             r.failed ? " FAILED" : "", r.note.empty() ? "" : " ", r.note);
}

/// A row's name, what --filter matches: "workload detail wN" (N = 0 for rows without a wave).
inline std::string RowName(const std::string& workload, const std::string& detail, int wave) {
  return fmt::format("{} {} w{}", workload, detail, wave);
}

/// Whether --filter keeps the row of this name.
inline bool Selected(const Config& cfg, const std::string& workload, const std::string& detail,
                     int wave) {
  return cfg.filter.empty() ||
         RowName(workload, detail, wave).find(cfg.filter) != std::string::npos;
}

/// The wave-spec examples (wave_spec_bench.cpp: its own file, as the examples' hosts both
/// define kUnwritten).
void WaveSpecWorkloads(const Config& cfg, size_t threads, int wave, std::vector<Row>& rows);

/// --statements (statement_costs.cpp): ns per statement of each kind the free-ID wave kernel
/// uses, the kernel per group, the Highway loop per 64 IDs. Returns the exit status.
int StatementCosts(const Config& cfg);

/// --floor (statement_floor.cpp): the free-ID wave kernel hand-written statement by statement,
/// values in memory and in registers, against the Highway loop and the emulator on one thread.
/// Returns the exit status.
int StatementFloor(const Config& cfg);

}  // namespace waveemu::bench
