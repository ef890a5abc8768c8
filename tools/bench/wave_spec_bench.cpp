// wave_spec_bench.cpp -- the four wave-spec examples in waveemu-bench: the emulator's ports
// (examples/wave_spec) and lavapipe running their HLSL through tests/pipelines/<name>.yaml's
// bindings, on the same data, each checked against a plain loop written from the spec's text.
#include "examples/wave_spec/wave_spec_host.h"
#include "tools/bench/bench_common.h"

#include <cstdint>
#include <utility>

using namespace waveemu::examples;

namespace waveemu::bench {
namespace {


/// A pipeline of tests/pipelines/<name>.yaml (its bindings and HLSL) with the benchmark's data.
#if WAVEEMU_HAVE_VULKAN_BACKEND
oracle::Pipeline SpecPipeline(const std::string& name, uint32_t groups, int wave, uint32_t count,
                              std::vector<std::pair<std::string, std::vector<std::byte>>> data) {
  oracle::Pipeline p =
      oracle::ReadPipeline(std::string(WAVEEMU_SOURCE_ROOT) + "/tests/pipelines/" + name + ".yaml");
  p.dispatch = {groups, 1, 1};
  p.wave_size = wave;
  p.results.clear();
  data.emplace_back("Constants", Bytes(std::span<const uint32_t>(std::vector<uint32_t>{count, 0, 0, 0})));
  for (auto& [buffer, bytes] : data)
    for (auto& b : p.buffers)
      if (b.name == buffer) b.data = std::move(bytes);
  return p;
}
#endif

/// float3 elements as Vulkan lays them out in a structured buffer: 16 bytes each.
std::vector<std::byte> Padded(std::span<const float3> v, size_t stride = 16, size_t per = 1) {
  std::vector<std::byte> b(v.size() / per * stride);
  for (size_t i = 0; i < v.size(); ++i)
    std::memcpy(b.data() + i / per * stride + i % per * 16, &v[i], 12);
  return b;
}

std::vector<float3> Unpadded(const std::vector<std::byte>& b, size_t stride = 16, size_t per = 1) {
  std::vector<float3> v(b.size() / stride * per);
  for (size_t i = 0; i < v.size(); ++i)
    std::memcpy(&v[i], b.data() + i / per * stride + i % per * 16, 12);
  return v;
}

bool SameBits(std::span<const float3> a, std::span<const float3> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

/// Per-wave boxes (kind 0) or centers (kind 1) of `p` at wave size W, groups of 64 threads:
/// a plain loop over the waves, from the spec's text.
std::vector<float3> ReferencePerWave(std::span<const float3> p, int W, int kind) {
  const size_t per_group = size_t(64 + W - 1) / size_t(W);
  const size_t groups = (p.size() + 63) / 64;
  std::vector<float3> out(groups * per_group * (kind == 0 ? 2 : 1));
  for (size_t g = 0; g < groups; ++g)
    for (size_t w = 0; w < per_group; ++w) {
      const size_t begin = g * 64 + w * size_t(W), end = std::min({begin + size_t(W), g * 64 + 64, p.size()});
      float3 lo = p[begin], hi = p[begin], sum{0, 0, 0};
      for (size_t t = begin; t < end; ++t) {
        lo = float3{std::min(lo.x, p[t].x), std::min(lo.y, p[t].y), std::min(lo.z, p[t].z)};
        hi = float3{std::max(hi.x, p[t].x), std::max(hi.y, p[t].y), std::max(hi.z, p[t].z)};
        sum = float3{sum.x + p[t].x, sum.y + p[t].y, sum.z + p[t].z};
      }
      const size_t wave = g * per_group + w;
      const float n = float(end - begin);
      if (kind == 0) {
        out[2 * wave] = lo;
        out[2 * wave + 1] = hi;
      } else {
        out[wave] = float3{sum.x / n, sum.y / n, sum.z / n};
      }
    }
  return out;
}

template <class T>
bool SameMultiset(std::vector<T> a, std::vector<T> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

}  // namespace

void WaveSpecWorkloads(const Config& cfg, size_t threads, int wave, std::vector<Row>& rows) {
  const uint32_t groups = GroupsFor<64>(threads);
  auto row_for = [&](const char* name) {
    Row r;
    r.workload = name;
    r.detail = "wave spec";
    r.size = threads;
    r.wave = wave;
    return r;
  };
  auto options = [&](int max_threads) {
    DispatchOptions o;
    o.wave_size = wave;
    o.max_threads = max_threads;
    return o;
  };
  uint32_t s = 777;
  auto next = [&] { return s = s * 1664525u + 1013904223u; };

  // Compacted append: every third input is 0 (no item).
  if (Row row = row_for("compacted_append"); Selected(cfg, row.workload, row.detail, row.wave)) {
    std::vector<uint32_t> input(threads);
    for (size_t i = 0; i < threads; ++i) input[i] = i % 3 == 0 ? 0 : (next() | 1u);
    std::vector<uint32_t> items;
    for (uint32_t v : input)
      if (v) items.push_back(v);
    auto check = [&](uint32_t size, std::span<const uint32_t> buffer) {
      return size == items.size() &&
             SameMultiset(std::vector<uint32_t>(buffer.begin(), buffer.begin() + size), items);
    };
    for (int max_threads : {0, 1}) {
      double& slot = max_threads ? row.one : row.all;
      slot = Measure(cfg.repeats, row.failed, [&] {
        const auto start = Clock::now();
        const CompactedAppendResult r = RunCompactedAppend<64>(input, options(max_threads));
        const double ms = MsSince(start);
        return check(r.size, r.buffer) ? ms : -1;
      });
    }
#if WAVEEMU_HAVE_VULKAN_BACKEND
    if (!cfg.no_vulkan) {
      const std::vector<uint32_t> fill(threads, kUnwrittenItem), zero(4, 0);
      row.vulkan = MeasureVulkan(
          cfg,
          SpecPipeline("compacted_append", groups, wave, uint32_t(threads),
                       {{"Input", Bytes(std::span<const uint32_t>(input))},
                        {"buffer", Bytes(std::span<const uint32_t>(fill))},
                        {"bufferSize", Bytes(std::span<const uint32_t>(zero))}}),
          row, [&](const oracle::BufferContents& out, int) {
            uint32_t size = 0;
            std::memcpy(&size, out.at("bufferSize").data(), 4);
            const auto& b = out.at("buffer");
            return size <= threads &&
                   check(size, std::span<const uint32_t>(
                                   reinterpret_cast<const uint32_t*>(b.data()), b.size() / 4));
          });
    }
#endif
    AddRow(rows, row);
  }

  // Ordered append: thread t appends counts[t] (0..3) items (data[t], i).
  if (Row row = row_for("ordered_append"); Selected(cfg, row.workload, row.detail, row.wave)) {
    std::vector<uint32_t> counts(threads), data(threads);
    std::vector<uint64_t> items;
    for (size_t t = 0; t < threads; ++t) {
      counts[t] = next() >> 30;
      data[t] = next();
      for (uint32_t i = 0; i < counts[t]; ++i) items.push_back(uint64_t(data[t]) << 32 | i);
    }
    auto check = [&](uint32_t size, std::span<const uint2> buffer) {
      if (size != items.size() || size > buffer.size()) return false;
      std::vector<uint64_t> got(size);
      for (size_t i = 0; i < size; ++i) got[i] = uint64_t(buffer[i].x) << 32 | buffer[i].y;
      return SameMultiset(got, items);
    };
    for (int max_threads : {0, 1}) {
      double& slot = max_threads ? row.one : row.all;
      slot = Measure(cfg.repeats, row.failed, [&] {
        const auto start = Clock::now();
        const OrderedAppendResult r =
            RunOrderedAppend<64>(counts, data, items.size(), options(max_threads));
        const double ms = MsSince(start);
        return check(r.size, r.buffer) ? ms : -1;
      });
    }
#if WAVEEMU_HAVE_VULKAN_BACKEND
    if (!cfg.no_vulkan) {
      const std::vector<uint32_t> fill(2 * items.size(), kUnwrittenItem), zero(4, 0);
      row.vulkan = MeasureVulkan(
          cfg,
          SpecPipeline("ordered_append", groups, wave, uint32_t(threads),
                       {{"ItemCounts", Bytes(std::span<const uint32_t>(counts))},
                        {"Input", Bytes(std::span<const uint32_t>(data))},
                        {"buffer", Bytes(std::span<const uint32_t>(fill))},
                        {"bufferSize", Bytes(std::span<const uint32_t>(zero))}}),
          row, [&](const oracle::BufferContents& out, int) {
            uint32_t size = 0;
            std::memcpy(&size, out.at("bufferSize").data(), 4);
            const auto& b = out.at("buffer");
            return check(size, std::span<const uint2>(reinterpret_cast<const uint2*>(b.data()),
                                                      b.size() / 8));
          });
    }
#endif
    AddRow(rows, row);
  }

  // Small integer coordinates: minima, maxima, sums and averages are exact in any order.
  std::vector<float3> positions(threads);
  for (auto& p : positions)
    p = float3{float(next() >> 24), float(next() >> 26), float(next() >> 28)};

  if (Row row = row_for("bounding_box"); Selected(cfg, row.workload, row.detail, row.wave)) {
    std::vector<Point> points(threads);
    for (size_t i = 0; i < threads; ++i) points[i].position = positions[i];
    auto boxes = [](std::span<const Box> b) {
      std::vector<float3> v;
      for (const Box& x : b) {
        v.push_back(x.min);
        v.push_back(x.max);
      }
      return v;
    };
    const std::vector<float3> want = ReferencePerWave(positions, wave, 0);
    for (int max_threads : {0, 1}) {
      double& slot = max_threads ? row.one : row.all;
      slot = Measure(cfg.repeats, row.failed, [&] {
        const auto start = Clock::now();
        const BoundingBoxResult r = RunBoundingBox<64>(points, options(max_threads));
        const double ms = MsSince(start);
        return SameBits(boxes(r.boxes), want) ? ms : -1;
      });
    }
#if WAVEEMU_HAVE_VULKAN_BACKEND
    if (!cfg.no_vulkan) {
      // Sized for the smallest wave lavapipe might use (4): 16 waves per group.
      const std::vector<Box> empty(size_t(groups) * 16, EmptyBox());
      const std::vector<float3> empty3 = boxes(empty);
      row.vulkan = MeasureVulkan(
          cfg,
          SpecPipeline("bounding_box", groups, wave, uint32_t(threads),
                       {{"Points", Padded(positions)}, {"WaveBoxes", Padded(empty3, 32, 2)}}),
          row, [&](const oracle::BufferContents& out, int used) {
            std::vector<float3> got = Unpadded(out.at("WaveBoxes"), 32, 2);
            const std::vector<float3> w = ReferencePerWave(positions, used, 0);
            got.resize(w.size());
            return SameBits(got, w);
          });
    }
#endif
    AddRow(rows, row);
  }

  if (Row row = row_for("average_position"); Selected(cfg, row.workload, row.detail, row.wave)) {
    const std::vector<float3> want = ReferencePerWave(positions, wave, 1);
    for (int max_threads : {0, 1}) {
      double& slot = max_threads ? row.one : row.all;
      slot = Measure(cfg.repeats, row.failed, [&] {
        const auto start = Clock::now();
        const AveragePositionResult r = RunAveragePosition<64>(positions, options(max_threads));
        const double ms = MsSince(start);
        return SameBits(r.centers, want) ? ms : -1;
      });
    }
#if WAVEEMU_HAVE_VULKAN_BACKEND
    if (!cfg.no_vulkan) {
      const std::vector<float3> unwritten(size_t(groups) * 16, UnwrittenCenter());
      row.vulkan = MeasureVulkan(
          cfg,
          SpecPipeline("average_position", groups, wave, uint32_t(threads),
                       {{"Positions", Padded(positions)}, {"WaveCenters", Padded(unwritten)}}),
          row, [&](const oracle::BufferContents& out, int used) {
            std::vector<float3> got = Unpadded(out.at("WaveCenters"));
            const std::vector<float3> w = ReferencePerWave(positions, used, 1);
            got.resize(w.size());
            return SameBits(got, w);
          });
    }
#endif
    AddRow(rows, row);
  }
  for (Row& r : rows)
    if (r.detail == "wave spec" && r.failed && r.note.empty()) r.note = " output WRONG;";
}

}  // namespace waveemu::bench
