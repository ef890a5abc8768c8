// bench.cpp -- waveemu-bench: the emulator (all cores, one thread) against lavapipe running the
// same HLSL and a hand-written Highway loop, on the workloads of issue 4. Every timed run's
// output is checked against a scalar reference first; medians of --repeats runs are reported,
// the contenders of a free-ID row timed in turns (MeasureInTurns).
// Ends with the targets as PASS/FAIL lines and a JSON summary.
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_native.h"
#include "examples/niagara_free_ids/free_ids_raking.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include "tools/bench/bench_common.h"
#include "tools/bench/free_ids_runs.h"
#include "tools/bench/wave_ops.h"

#if WAVEEMU_HAVE_VULKAN_BACKEND
#include "tools/waveemu/vulkan_backend.h"
#endif
#include "tools/waveemu/pipeline.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#ifndef WAVEEMU_SOURCE_ROOT
#define WAVEEMU_SOURCE_ROOT "."
#endif

using namespace waveemu;
using namespace waveemu::examples;
using namespace waveemu::bench;

namespace {

/// CPUs this process may run on (taskset, cgroups), which is what oneTBB uses by default.
unsigned UsableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return unsigned(CPU_COUNT(&set));
  return std::thread::hardware_concurrency();
}

// ------------------------------ free IDs

/// The ID table of one free fraction and its reference count, made when the first row that
/// --filter keeps asks for it: a fraction whose rows are all filtered out costs nothing.
class FreeIDsInput {
 public:
  FreeIDsInput(size_t size, double fraction) : size_(size), fraction_(fraction) {}
  size_t size() const { return size_; }
  double fraction() const { return fraction_; }
  const std::vector<int32_t>& table() {
    if (table_.empty()) {
      table_ = MakeRandomIDTable(size_, fraction_, 42);
      expected_count_ = ReferenceFreeIDs(table_).size();
    }
    return table_;
  }
  size_t expected_count() {
    table();
    return expected_count_;
  }

 private:
  size_t size_;
  double fraction_;
  std::vector<int32_t> table_;
  size_t expected_count_ = 0;
};

/// A shared-counter ceiling row: the native pattern above on all cores and on one thread, in
/// turns with the Highway loop (the row's native column).
void SharedCounterRow(const Config& cfg, FreeIDsInput& input, size_t groups_per_claim,
                      std::vector<Row>& rows) {
  const double fraction = input.fraction();
  Row row;
  row.workload = groups_per_claim == 1 ? "native_shared_counter" : "native_batched_counter";
  row.detail = fmt::format("free {:.1f}", fraction);
  row.size = input.size();
  if (!Selected(cfg, row.workload, row.detail, row.wave)) return;
  const std::vector<int32_t>& table = input.table();
  const size_t expected_count = input.expected_count();
  FreeIDsBuffers buf;
  Contender all{cfg.repeats, [&] {
    return RunNativeSharedCounter(table, expected_count, 0, groups_per_claim, buf);
  }};
  Contender one{cfg.repeats, [&] {
    return RunNativeSharedCounter(table, expected_count, 1, groups_per_claim, buf);
  }};
  HighwayBaseline native{cfg.repeats, table, expected_count, buf};
  MeasureInTurns({&all, &one, &native.in_register, &native.compress_store});
  row.all = all.Result();
  row.one = one.Result();
  row.native = native.Result();
  row.native_form = native.FasterName();
  row.note = groups_per_claim == 1
                 ? "ceiling: the kernels' one counter, one claim per group, written natively"
                 : fmt::format("ceiling: one claim per {} groups, written natively",
                               groups_per_claim);
  row.failed = all.wrong || one.wrong || native.wrong();
  if (all.wrong || one.wrong) row.note += "; output WRONG";
  if (native.wrong()) row.note += "; Highway loop's output WRONG";
  AddRow(rows, row);
}

/// The cores' own ceiling: integer work with no memory traffic (a chain of multiplies and
/// shifts per group, as many groups as a free-ID row has), spread by the same scheduler as
/// Dispatch, on all cores and on one thread in turns. Where this row scales and a free-ID row
/// does not, what is missing is not the cores but what the free-ID kernels share: memory and the
/// one counter. Its check: the sum over groups equals a plain loop's.
void CoresCeilingRow(const Config& cfg, size_t groups, std::vector<Row>& rows) {
  Row row;
  row.workload = "native_alu";
  row.detail = "no memory";
  row.size = groups;
  if (!Selected(cfg, row.workload, row.detail, row.wave)) return;
  // A group's work takes about as long as a group of the free-ID wave kernel on one thread
  // (~100 ns here; GCC runs eight groups' chains at once in AVX-512).
  constexpr int kSteps = 480;
  const auto work = [](uint64_t group) {
    uint64_t x = group + 1;
    for (int i = 0; i < kSteps; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      x ^= x >> 29;
    }
    return x;
  };
  uint64_t expected = 0;
  for (uint64_t g = 0; g < groups; ++g) expected += work(g);
  const auto run = [&](int max_threads) {
    std::atomic<uint64_t> total{0};
    const auto start = Clock::now();
    ParallelForGroups(groups, false, max_threads, [&](uint64_t begin, uint64_t end) {
      uint64_t sum = 0;
      for (uint64_t g = begin; g < end; ++g) sum += work(g);
      total.fetch_add(sum, std::memory_order_relaxed);
    });
    const double ms = MsSince(start);
    return total.load() == expected ? ms : -1;
  };
  Contender all{cfg.repeats, [&] { return run(0); }};
  Contender one{cfg.repeats, [&] { return run(1); }};
  MeasureInTurns({&all, &one});
  row.all = all.Result();
  row.one = one.Result();
  row.note = fmt::format("ceiling: the cores on integer work, no memory ({} steps per group)",
                         kSteps);
  row.failed = all.wrong || one.wrong;
  if (row.failed) row.note += "; output WRONG";
  AddRow(rows, row);
}

/// A free-ID row: the emulator on all cores and on one thread, the Highway loop and lavapipe,
/// in turns (MeasureInTurns), so the row's ratios compare runs made in the same stretch of time.
template <class K>
void FreeIDsRow(const Config& cfg, const char* variant, const char* hlsl, FreeIDsInput& input,
                int wave, std::vector<Row>& rows) {
  const double fraction = input.fraction();
  Row row;
  row.workload = fmt::format("free_ids_{}", variant);
  row.detail = fmt::format("free {:.1f}", fraction);
  row.size = input.size();
  row.wave = wave;
  if (!Selected(cfg, row.workload, row.detail, wave)) return;
  const std::vector<int32_t>& table = input.table();
  const size_t expected_count = input.expected_count();
  FreeIDsBuffers buf;
  Contender all{cfg.repeats, [&] {
    return RunEmulatorFreeIDs<K>(table, expected_count, wave, 0, cfg, buf);
  }};
  Contender one{cfg.repeats, [&] {
    return RunEmulatorFreeIDs<K>(table, expected_count, wave, 1, cfg, buf);
  }};
  HighwayBaseline native{cfg.repeats, table, expected_count, buf};
  Contender vulkan;  // stays empty (no runs) without lavapipe
#if WAVEEMU_HAVE_VULKAN_BACKEND
  std::optional<oracle::Pipeline> p;
  if (!cfg.no_vulkan) {
    const uint64_t groups = FreeIDsGroups<K>(table.size());
    std::vector<int32_t> list(table.size(), kUnwritten), sizes(4, 0);
    std::vector<uint32_t> globals(4, 0);
    p = MakePipeline(
        hlsl, fmt::format("#define THREAD_COUNT {}\n#define GRID_X {}\n", K::N, kGridX),
        "ComputeFreeIDs2D", Grid2D(groups, kGridX), wave,
        {{"IDToIndexTable", oracle::DataFormat::kInt32, oracle::ResourceKind::kBuffer, 0,
          Bytes(std::span<const int32_t>(table))},
         {"RWFreeIDList", oracle::DataFormat::kInt32, oracle::ResourceKind::kRWBuffer, 0,
          Bytes(std::span<const int32_t>(list))},
         {"RWFreeIDListSizes", oracle::DataFormat::kInt32, oracle::ResourceKind::kRWBuffer, 1,
          Bytes(std::span<const int32_t>(sizes))},
         {"$Globals", oracle::DataFormat::kUInt32, oracle::ResourceKind::kConstantBuffer, 0,
          Bytes(std::span<const uint32_t>(globals))}});
    vulkan = Contender{cfg.vulkan_repeats, [&] {
      return RunVulkanOnce(*p, row, [&](const oracle::BufferContents& out, int) {
        const auto& l = out.at("RWFreeIDList");
        const auto& s = out.at("RWFreeIDListSizes");
        int32_t count = 0;
        std::memcpy(&count, s.data(), 4);
        const std::span<const int32_t> listed(reinterpret_cast<const int32_t*>(l.data()),
                                              l.size() / 4);
        return CheckFreeIDs(table, listed, count, expected_count, buf.seen);
      });
    }};
  }
#else
  (void)hlsl;
#endif
  MeasureInTurns({&all, &one, &native.in_register, &native.compress_store, &vulkan});
  row.all = all.Result();
  row.one = one.Result();
  row.native = native.Result();
  row.native_form = native.FasterName();
  row.vulkan = vulkan.Result();
  if (all.wrong || one.wrong) row.note += " emulator output WRONG;";
  // A wrong Highway loop fails its row, so the run exits 1.
  if (native.wrong()) row.note += " native output WRONG;";
  if (vulkan.wrong) row.note += " lavapipe output WRONG;";
  row.failed = all.wrong || one.wrong || native.wrong() || vulkan.wrong;
  AddRow(rows, row);
}

void FreeIDsWorkloads(const Config& cfg, size_t size, std::vector<Row>& rows) {
  CoresCeilingRow(cfg, size / 64, rows);
  for (double fraction : {0.1, 0.5, 0.9}) {
    FreeIDsInput input(size, fraction);
    SharedCounterRow(cfg, input, 1, rows);
    if (cfg.groups_in_flight > 1)
      SharedCounterRow(cfg, input, size_t(cfg.groups_in_flight), rows);
    for (int wave : {8, 32, 64}) {
      FreeIDsRow<ComputeFreeIDsWave<64>>(cfg, "wave", "tools/bench/hlsl/free_ids_wave_2d.hlsl",
                                         input, wave, rows);
      FreeIDsRow<ComputeFreeIDsGroupShared<64>>(
          cfg, "groupshared", "tools/bench/hlsl/free_ids_groupshared_2d.hlsl", input, wave, rows);
      FreeIDsRow<ComputeFreeIDsRaking<64>>(
          cfg, "raking", "tools/bench/hlsl/free_ids_raking_2d.hlsl", input, wave, rows);
    }
  }
}

// ------------------------------ wave reductions, scans, broadcasts

template <class T>
std::vector<T> WaveOpInput(size_t size) {
  std::vector<T> in(size);
  uint32_t s = 12345;
  for (size_t i = 0; i < size; ++i) {
    s = s * 1664525u + 1013904223u;
    if constexpr (std::is_integral_v<T>) {
      in[i] = s;
    } else {
      // 0.5, 1 or 2: sums and products of a wave are exact in float, in any order.
      const uint32_t pick = (s >> 16) % 3;
      in[i] = pick == 0 ? 0.5f : pick == 1 ? 1.0f : 2.0f;
    }
  }
  return in;
}

template <int kOp, class T, bool kEveryOther>
double RunEmulatorWaveOp(std::span<const T> in, std::vector<T>& out,
                         const std::vector<T>& expected, int wave, int max_threads,
                         const Config& cfg) {
  out.assign(in.size(), T(0x7f));
  WaveOpKernel<kOp, T, kEveryOther> k;
  k.In = StructuredBuffer<T>(in);
  k.Out = RWStructuredBuffer<T>(std::span<T>(out));
  k.GRID_X = kGridX;
  DispatchOptions options;
  options.wave_size = wave;
  options.max_threads = max_threads;
  const auto start = Clock::now();
  if (cfg.plain_dispatch)
    Dispatch(k, Grid2D(in.size() / kWaveOpGroupSize, kGridX), options);
  else
    DispatchInlined(k, Grid2D(in.size() / kWaveOpGroupSize, kGridX), options);
  const double ms = MsSince(start);
  return std::memcmp(out.data(), expected.data(), in.size() * sizeof(T)) == 0 ? ms : -1;
}

template <int kOp, class T, bool kEveryOther>
void WaveOpRow(const Config& cfg, size_t size, int wave, std::vector<Row>& rows) {
  constexpr bool kFloat = std::is_floating_point_v<T>;
  Row row;
  row.workload = WaveOpName(kOp);
  row.detail = fmt::format("{} {}", kFloat ? "float" : "uint", kEveryOther ? "half" : "all");
  row.size = size;
  row.wave = wave;
  if (!Selected(cfg, row.workload, row.detail, wave)) return;
  const std::vector<T> in = WaveOpInput<T>(size);
  const std::vector<T> expected = ReferenceWaveOp<T>(kOp, in, wave, kEveryOther);
  std::vector<T> out;
  row.all = Measure(cfg.repeats, row.failed, [&] {
    return RunEmulatorWaveOp<kOp, T, kEveryOther>(in, out, expected, wave, 0, cfg);
  });
  row.one = Measure(cfg.repeats, row.failed, [&] {
    return RunEmulatorWaveOp<kOp, T, kEveryOther>(in, out, expected, wave, 1, cfg);
  });
  if (row.failed) row.note += " emulator output WRONG;";
#if WAVEEMU_HAVE_VULKAN_BACKEND
  if (!cfg.no_vulkan) {
    std::vector<T> zeros(size, T(0));
    oracle::Pipeline p = MakePipeline(
        "tools/bench/hlsl/wave_ops.hlsl",
        fmt::format("#define OP {}\n#define TYPE {}\n#define EVERY_OTHER {}\n#define GRID_X {}\n"
                    "#define GROUP_SIZE {}\n",
                    kOp, kFloat ? "float" : "uint", kEveryOther ? 1 : 0, kGridX,
                    kWaveOpGroupSize),
        "main", Grid2D(size / kWaveOpGroupSize, kGridX), wave,
        {{"In", kFloat ? oracle::DataFormat::kFloat32 : oracle::DataFormat::kUInt32,
          oracle::ResourceKind::kStructuredBuffer, 0, Bytes(std::span<const T>(in))},
         {"Out", kFloat ? oracle::DataFormat::kFloat32 : oracle::DataFormat::kUInt32,
          oracle::ResourceKind::kRWStructuredBuffer, 1, Bytes(std::span<const T>(zeros))}});
    row.vulkan = MeasureVulkan(cfg, p, row, [&](const oracle::BufferContents& o, int used) {
      const std::vector<T> want =
          used == wave ? expected : ReferenceWaveOp<T>(kOp, in, used, kEveryOther);
      const auto& got = o.at("Out");
      return got.size() == size * sizeof(T) &&
             std::memcmp(got.data(), want.data(), got.size()) == 0;
    }, cfg.vulkan_op_repeats);
  }
#endif
  AddRow(rows, row);
}

template <class T, bool kEveryOther, int... kOps>
void WaveOpRows(const Config& cfg, size_t size, int wave, std::vector<Row>& rows,
                std::integer_sequence<int, kOps...>) {
  auto one = [&]<int kOp>() {
    if constexpr (std::is_integral_v<T> || kOp <= kActiveMax || kOp == kActiveAllEqual ||
                  kOp == kPrefixSum || kOp == kPrefixProduct || kOp == kReadLaneFirst ||
                  kOp == kReadLaneAt)
      WaveOpRow<kOp, T, kEveryOther>(cfg, size, wave, rows);
  };
  (one.template operator()<kOps>(), ...);
}

void WaveOpWorkloads(const Config& cfg, size_t size, int wave, std::vector<Row>& rows) {
  const auto ops = std::make_integer_sequence<int, kWaveOpCount>{};
  WaveOpRows<uint32_t, false>(cfg, size, wave, rows, ops);
  WaveOpRows<uint32_t, true>(cfg, size, wave, rows, ops);
  WaveOpRows<float, false>(cfg, size, wave, rows, ops);
  WaveOpRows<float, true>(cfg, size, wave, rows, ops);
}

// ------------------------------ peak memory (in a child process)

/// Child side of --memory-probe: one free-ID run (wave kernel, wave 8, all cores, as many
/// groups in flight as the free-ID rows: their fiber stacks count) over `size` IDs; prints
/// "buffers_bytes rss_before_kb max_rss_kb ok".
int MemoryProbe(size_t size, int groups_in_flight) {
  rusage start{};
  getrusage(RUSAGE_SELF, &start);
  std::vector<int32_t> table = MakeRandomIDTable(size, 0.5, 42);
  // Counted in place: a reference list would add its own buffer to the peak.
  const size_t expected_count = size_t(std::count(table.begin(), table.end(), -1));
  FreeIDsBuffers buf;
  buf.seen.reserve(0);
  buf.list.assign(table.size(), kUnwritten);
  buf.sizes.assign(1, 0);
  FreeIDs2D<ComputeFreeIDsWave<64>> k;
  k.kernel.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.kernel.RWFreeIDList = RWBuffer<int>(std::span<int>(buf.list));
  k.kernel.RWFreeIDListSizes = RWBuffer<int>(std::span<int>(buf.sizes));
  DispatchOptions options;
  options.wave_size = 8;
  options.groups_in_flight = groups_in_flight;
  Dispatch(k, Grid2D(size / 64, kGridX), options);
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  const bool ok = size_t(buf.sizes[0]) == expected_count;
  fmt::print("{} {} {} {}\n", (table.size() + buf.list.size() + 1) * 4, start.ru_maxrss,
             after.ru_maxrss, ok ? 1 : 0);
  return ok ? 0 : 1;
}

struct MemoryResult {
  double buffers_mb = NAN, peak_mb = NAN, before_mb = NAN;
  bool ok = false;
};

MemoryResult MeasureMemory(const char* self, size_t size, int groups_in_flight) {
  MemoryResult m;
  int fds[2];
  if (pipe(fds) != 0) return m;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    const std::string arg = std::to_string(size), in_flight = std::to_string(groups_in_flight);
    execl(self, self, "--memory-probe", arg.c_str(), in_flight.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string text;
  char chunk[256];
  ssize_t n;
  while ((n = read(fds[0], chunk, sizeof chunk)) > 0) text.append(chunk, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  unsigned long long bytes = 0, before_kb = 0, peak_kb = 0;
  int ok = 0;
  if (std::sscanf(text.c_str(), "%llu %llu %llu %d", &bytes, &before_kb, &peak_kb, &ok) == 4) {
    m.buffers_mb = double(bytes) / (1 << 20);
    m.before_mb = double(before_kb) / 1024;
    m.peak_mb = double(peak_kb) / 1024;
    m.ok = ok == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  return m;
}

// ------------------------------ output

std::string Ms(double v) { return std::isnan(v) ? "-" : fmt::format("{:.2f}", v); }
std::string Ratio(double a, double b) {
  return std::isnan(a) || std::isnan(b) || b == 0 ? "-" : fmt::format("{:.2f}", a / b);
}
std::string JsonNum(double v) { return std::isnan(v) ? "null" : fmt::format("{:.4f}", v); }
std::string JsonStr(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out + "\"";
}

void PrintTable(const std::vector<Row>& rows) {
  fmt::print("{:<22} {:<11} {:>9} {:>4} {:>9} {:>9} {:>10} {:>9} {:>8} {:>8} {:>8}  {}\n",
             "workload", "detail", "size", "W", "all ms", "1-thr ms", "lavapipe", "native",
             "vk/all", "1thr/nat", "speedup", "note");
  for (const Row& r : rows) {
    const std::string vk =
        std::isnan(r.vulkan) ? "-"
        : r.vulkan_wave && r.vulkan_wave != r.wave ? fmt::format("{}@w{}", Ms(r.vulkan), r.vulkan_wave)
                                                   : Ms(r.vulkan);
    fmt::print("{:<22} {:<11} {:>9} {:>4} {:>9} {:>9} {:>10} {:>9} {:>8} {:>8} {:>8}  {}{}\n",
               r.workload, r.detail, r.size, r.wave, Ms(r.all), Ms(r.one), vk, Ms(r.native),
               Ratio(r.vulkan, r.all), Ratio(r.one, r.native), Ratio(r.one, r.all),
               r.failed ? "FAILED " : "", r.note);
  }
}

struct Target {
  explicit Target(std::string n) : name(std::move(n)) {}
  std::string name;
  bool pass = false;
  bool measured = false;
  std::string numbers;
};

std::vector<Target> Targets(const std::vector<Row>& rows, const MemoryResult& mem) {
  std::vector<Target> t;
  auto find = [&](const std::string& workload, const std::string& detail, int wave) {
    for (const Row& r : rows)
      if (r.workload == workload && r.detail == detail && r.wave == wave) return &r;
    return static_cast<const Row*>(nullptr);
  };
  {
    Target x{"free-IDs wave kernel, wave 8, free 0.5: emulator on all cores >= 10x lavapipe"};
    if (const Row* r = find("free_ids_wave", "free 0.5", 8); r && !std::isnan(r->vulkan)) {
      x.measured = true;
      x.pass = r->vulkan / r->all >= 10;
      x.numbers = fmt::format("lavapipe {:.2f} ms / emulator {:.2f} ms = {:.2f}x", r->vulkan,
                              r->all, r->vulkan / r->all);
    }
    t.push_back(x);
  }
  {
    Target x{"free-IDs wave kernel, wave 8, free 0.5: one thread within 3x the Highway loop"};
    if (const Row* r = find("free_ids_wave", "free 0.5", 8); r && !std::isnan(r->one)) {
      x.measured = true;
      x.pass = r->one / r->native <= 3;
      x.numbers = fmt::format("one thread {:.2f} ms / Highway {:.2f} ms ({}) = {:.2f}x",
                              r->one, r->native, r->native_form, r->one / r->native);
    }
    t.push_back(x);
  }
  {
    Target x{"free-IDs kernels: 2 cores >= 1.7x one core (worst free-ID row)"};
    const unsigned cores = UsableCores();
    double worst = INFINITY;
    std::string which;
    std::vector<double> all;
    for (const Row& r : rows)
      if (r.workload.starts_with("free_ids_") && !std::isnan(r.all) && !std::isnan(r.one)) {
        all.push_back(r.one / r.all);
        if (r.one / r.all < worst) {
          worst = r.one / r.all;
          which = RowName(r.workload, r.detail, r.wave);
        }
      }
    if (!std::isinf(worst)) {
      x.measured = true;
      x.pass = worst >= 1.7;
      x.numbers = fmt::format("worst speed-up {:.2f}x ({}), median {:.2f}x over {} rows, {} cores",
                              worst, which, Median(all), all.size(), cores);
      // What the kernels' shared counter allows without any emulator, for comparison.
      for (const char* ceiling : {"native_shared_counter", "native_batched_counter"})
        if (const Row* c = find(ceiling, "free 0.5", 0); c && !std::isnan(c->all))
          x.numbers += fmt::format("; ceiling {}, free 0.5: {:.2f} ms on one thread / {:.2f} ms "
                                   "on all cores = {:.2f}x",
                                   ceiling, c->one, c->all, c->one / c->all);
      if (const Row* c = find("native_alu", "no memory", 0); c && !std::isnan(c->all))
        x.numbers += fmt::format("; the cores themselves (native_alu): {:.2f}x", c->one / c->all);
    }
    t.push_back(x);
  }
  for (const char* op : {"WaveActiveSum", "WavePrefixSum"}) {
    Target x{fmt::format("{} uint, wave 32: >= 1e9 lanes/s on one thread", op)};
    if (const Row* r = find(op, "uint all", 32); r && !std::isnan(r->one)) {
      x.measured = true;
      const double rate = double(r->size) / (r->one * 1e-3);
      x.pass = rate >= 1e9;
      x.numbers = fmt::format("{:.3g} lanes/s ({} lanes in {:.2f} ms)", rate, r->size, r->one);
    }
    t.push_back(x);
  }
  {
    Target x{"free-ID run: peak memory <= 1.5x its buffers"};
    if (!std::isnan(mem.peak_mb)) {
      x.measured = true;
      const double used = mem.peak_mb - mem.before_mb;
      x.pass = mem.ok && used <= 1.5 * mem.buffers_mb;
      x.numbers = fmt::format(
          "max RSS grew {:.1f} MiB (from {:.1f} MiB at process start to {:.1f} MiB) for {:.1f} "
          "MiB of buffers = {:.2f}x",
          used, mem.before_mb, mem.peak_mb, mem.buffers_mb, used / mem.buffers_mb);
    }
    t.push_back(x);
  }
  return t;
}

void WriteJson(std::FILE* f, const Config& cfg, const std::vector<Row>& rows,
               const std::vector<Target>& targets, const MemoryResult& mem) {
  fmt::print(f, "{{\n  \"repeats\": {}, \"vulkan_repeats\": {}, \"vulkan_op_repeats\": {}, "
             "\"cores\": {}, \"quick\": {},\n",
             cfg.repeats, cfg.vulkan_repeats, cfg.vulkan_op_repeats, UsableCores(), cfg.quick);
  fmt::print(f, "  \"lavapipe_timed\": \"dispatch only (vkQueueSubmit to fence signalled)\",\n");
  fmt::print(f, "  \"rows\": [\n");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    fmt::print(f,
               "    {{\"workload\": {}, \"detail\": {}, \"size\": {}, \"wave_size\": {}, "
               "\"ms\": {{\"emulator_all_cores\": {}, \"emulator_one_thread\": {}, "
               "\"lavapipe\": {}, \"native\": {}}}, \"native_form\": {}, "
               "\"lavapipe_wave_size\": {}, "
               "\"ratios\": {{\"lavapipe_over_all_cores\": {}, \"one_thread_over_native\": {}, "
               "\"one_thread_over_all_cores\": {}}}, \"verified\": {}}}{}\n",
               JsonStr(r.workload), JsonStr(r.detail), r.size, r.wave, JsonNum(r.all),
               JsonNum(r.one), JsonNum(r.vulkan), JsonNum(r.native),
               r.native_form.empty() ? "null" : JsonStr(r.native_form), r.vulkan_wave,
               JsonNum(r.vulkan / r.all), JsonNum(r.one / r.native), JsonNum(r.one / r.all),
               !r.failed, i + 1 < rows.size() ? "," : "");
  }
  fmt::print(f,
             "  ],\n  \"memory\": {{\"buffers_mib\": {}, \"rss_at_start_mib\": {}, "
             "\"peak_rss_mib\": {}}},\n",
             JsonNum(mem.buffers_mb), JsonNum(mem.before_mb), JsonNum(mem.peak_mb));
  fmt::print(f, "  \"targets\": [\n");
  for (size_t i = 0; i < targets.size(); ++i)
    fmt::print(f, "    {{\"target\": {}, \"result\": \"{}\", \"numbers\": {}}}{}\n",
               JsonStr(targets[i].name),
               !targets[i].measured ? "NOT MEASURED" : targets[i].pass ? "PASS" : "FAIL",
               JsonStr(targets[i].numbers), i + 1 < targets.size() ? "," : "");
  fmt::print(f, "  ]\n}}\n");
}

// ------------------------------ --scaling

// Returns whether any output was wrong, so main exits 1 as it does for the table.
bool Scaling(const Config& cfg) {
  bool any_failed = false;
  fmt::print("Scaling: free-IDs wave kernel (free 0.5) and WaveActiveSum uint (wave 32), median "
             "of {} runs, ns per ID / lane\n",
             cfg.repeats);
  fmt::print("{:<8} {:>4} {:>12} {:>12} {:>12} {:>14} {:>14}\n", "log2 n", "W", "all ns/ID",
             "1-thr ns/ID", "native ns/ID", "Sum all ns/l", "Sum 1thr ns/l");
  const int top = cfg.quick ? 20 : 26;
  {
    // Untimed: a process's first dispatch on all cores starts oneTBB's workers and maps their
    // fiber stacks, which would land on the first, smallest row (once 1.16 ms against 0.07).
    const std::vector<int32_t> table = MakeRandomIDTable(size_t(1) << 16, 0.5, 42);
    FreeIDsBuffers buf;
    RunEmulatorFreeIDs<ComputeFreeIDsWave<64>>(table, ReferenceFreeIDs(table).size(), 8, 0, cfg,
                                               buf);
  }
  for (int log2 = 16; log2 <= top; log2 += 2) {
    const size_t size = size_t(1) << log2;
    const std::vector<int32_t> table = MakeRandomIDTable(size, 0.5, 42);
    const size_t expected_count = ReferenceFreeIDs(table).size();
    FreeIDsBuffers buf;
    HighwayBaseline baseline{cfg.repeats, table, expected_count, buf};
    MeasureInTurns({&baseline.in_register, &baseline.compress_store});
    const bool native_failed = baseline.wrong();
    const double native = baseline.Result();
    const std::vector<uint32_t> in = WaveOpInput<uint32_t>(size);
    for (int wave : {8, 32, 64}) {
      // Per row: one wrong row must not mark every later row FAILED.
      bool failed = native_failed;
      const double all = Measure(cfg.repeats, failed, [&] {
        return RunEmulatorFreeIDs<ComputeFreeIDsWave<64>>(table, expected_count, wave, 0,
                                                          cfg, buf);
      });
      const double one = Measure(cfg.repeats, failed, [&] {
        return RunEmulatorFreeIDs<ComputeFreeIDsWave<64>>(table, expected_count, wave, 1,
                                                          cfg, buf);
      });
      const std::vector<uint32_t> expected =
          ReferenceWaveOp<uint32_t>(kActiveSum, in, wave, false);
      std::vector<uint32_t> out;
      const double sum_all = Measure(cfg.repeats, failed, [&] {
        return RunEmulatorWaveOp<kActiveSum, uint32_t, false>(in, out, expected, wave, 0, cfg);
      });
      const double sum_one = Measure(cfg.repeats, failed, [&] {
        return RunEmulatorWaveOp<kActiveSum, uint32_t, false>(in, out, expected, wave, 1, cfg);
      });
      const double per = 1e6 / double(size);
      fmt::print("{:<8} {:>4} {:>12.2f} {:>12.2f} {:>12.2f} {:>14.2f} {:>14.2f}{}\n", log2, wave,
                 all * per, one * per, native * per, sum_all * per, sum_one * per,
                 failed ? "  FAILED: output did not match the reference" : "");
      any_failed |= failed;
    }
  }
  return any_failed;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--memory-probe")
    return MemoryProbe(size_t(std::stoull(argv[2])), std::stoi(argv[3]));

  Config cfg;
  CLI::App app{"waveemu-bench: the emulator against lavapipe and a Highway loop (issue 4)"};
  app.add_flag("--quick", cfg.quick, "smaller sizes and fewer repeats (a smoke run)");
  app.add_option("--filter", cfg.filter,
                 "run only rows whose 'workload detail wN' contains this text "
                 "(e.g. 'free_ids_wave free 0.5 w8', 'WaveActiveSum uint')");
  app.add_option("--repeats", cfg.repeats, "timed runs per contender (median reported)")
      ->check(CLI::Range(1, 100));
  app.add_option("--vulkan-repeats", cfg.vulkan_repeats, "timed lavapipe runs per row")
      ->check(CLI::Range(1, 100));
  app.add_option("--vulkan-op-repeats", cfg.vulkan_op_repeats,
                 "timed lavapipe runs per wave-op row")
      ->check(CLI::Range(1, 100));
  app.add_option("--json", cfg.json_path, "also write the JSON summary to this file");
  app.add_flag("--no-vulkan", cfg.no_vulkan, "skip lavapipe");
  app.add_flag("--scaling", cfg.scaling,
               "print how cost grows with size (2^16..2^26) and wave size, then exit");
  app.add_flag("--plain-dispatch", cfg.plain_dispatch,
               "run the emulator's free-ID and wave-op rows through Dispatch instead of "
               "DispatchInlined");
  app.add_option("--groups-in-flight", cfg.groups_in_flight,
                 "DispatchOptions::groups_in_flight of the free-ID rows (1: groups one by one)")
      ->check(CLI::Range(1, kMaxGroupsInFlight));
  app.add_flag("--statements", cfg.statements,
               "print what each kind of statement of the free-ID wave kernel costs on one "
               "thread, then exit");
  app.add_flag("--floor", cfg.floor,
               "time the free-ID wave kernel written by hand statement by statement (values in "
               "memory, and in registers) against the Highway loop and the emulator on one "
               "thread, then exit");
  CLI11_PARSE(app, argc, argv);
  if (cfg.quick && app.count("--repeats") == 0) cfg.repeats = 3;
  if (cfg.quick && app.count("--vulkan-repeats") == 0) cfg.vulkan_repeats = 2;

  if (cfg.scaling) {
    return Scaling(cfg) ? 1 : 0;
  }
  if (cfg.statements) return StatementCosts(cfg);
  if (cfg.floor) return StatementFloor(cfg);

#if WAVEEMU_HAVE_VULKAN_BACKEND
  if (!cfg.no_vulkan && !std::getenv("VK_DRIVER_FILES")) {
    const char* lvp = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
    if (access(lvp, R_OK) == 0) setenv("VK_DRIVER_FILES", lvp, 1);
  }
#else
  cfg.no_vulkan = true;
#endif

  const size_t full_free_ids_size = size_t(1) << 24;  // the size the targets name
  const size_t free_ids_size = cfg.quick ? size_t(1) << 18 : full_free_ids_size;
  const size_t wave_op_size = size_t(1) << (cfg.quick ? 18 : 24);
  fmt::print("waveemu-bench: {} cores; median of {} runs per emulator/native contender, {} per "
             "lavapipe free-ID/wave-spec row, {} per lavapipe wave-op row{}; a free-ID row's "
             "contenders in turns; lavapipe time = dispatch only (submit to fence), not compile, "
             "upload or readback; emulator free-ID and wave-op rows through {}, the free-ID rows "
             "with {} groups in flight per worker but the calling thread; wave-spec rows through "
             "Dispatch\n\n",
             UsableCores(), cfg.repeats, cfg.vulkan_repeats,
             cfg.vulkan_op_repeats, cfg.no_vulkan ? " (lavapipe skipped)" : "",
             cfg.plain_dispatch ? "Dispatch" : "DispatchInlined", cfg.groups_in_flight);

  // Before any dispatch, so the child is a fresh process. At the full size even with --quick:
  // the probe takes under a second, and at --quick's 2 MiB of buffers the process's fixed costs
  // (libraries, thread and fiber stacks: about 4 MiB) would decide the ratio.
  const MemoryResult mem =
      MeasureMemory("/proc/self/exe", full_free_ids_size, cfg.groups_in_flight);

  std::vector<Row> rows;
  const auto start = Clock::now();
  FreeIDsWorkloads(cfg, free_ids_size, rows);
  WaveOpWorkloads(cfg, wave_op_size, 32, rows);
  // 2^21 threads: 32768 groups of 64, within D3D's 65535 per dimension (the examples' HLSL
  // indexes by SV_DispatchThreadID.x / SV_GroupID.x).
  WaveSpecWorkloads(cfg, size_t(1) << (cfg.quick ? 16 : 21), 32, rows);

  PrintTable(rows);
  fmt::print("\nColumns: ms per run; vk/all = lavapipe / emulator on all cores (throughput "
             "ratio); 1thr/nat = emulator on one thread / Highway loop; speedup = one thread / "
             "all cores. Total {:.1f} s.\n\n",
             MsSince(start) / 1000);
  const std::vector<Target> targets = Targets(rows, mem);
  for (const Target& t : targets)
    fmt::print("{:<12} {}: {}\n",
               !t.measured ? "NOT MEASURED" : t.pass ? "PASS" : "FAIL", t.name, t.numbers);
  if (cfg.quick)
    fmt::print("(--quick: the rows ran at 2^18 IDs and lanes, where the targets are "
               "defined at 2^24; only the memory line ran at 2^24)\n");
  fmt::print("\n");
  WriteJson(stdout, cfg, rows, targets, mem);
  if (!cfg.json_path.empty()) {
    std::FILE* f = std::fopen(cfg.json_path.c_str(), "w");
    if (!f) {
      fmt::print(stderr, "cannot write {}\n", cfg.json_path);
      return 2;
    }
    WriteJson(f, cfg, rows, targets, mem);
    std::fclose(f);
  }
  bool failed = false;
  for (const Row& r : rows) failed |= r.failed;
  return failed ? 1 : 0;
}
