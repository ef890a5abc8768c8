// main.cpp -- runs the wave-intrinsics spec's four examples on a small input and prints what
// each produced: 13 threads in groups of 8 at wave size 4 (or the size given as the first
// argument), so the last group holds a full wave and a wave of one lane.
//
//   wave_spec [wave_size]
#include "examples/wave_spec/wave_spec_host.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::examples;

namespace {

constexpr int kThreads = 8;

std::string Show(const float3& v) { return fmt::format("({:g}, {:g}, {:g})", v.x, v.y, v.z); }

/// "wave w" of thread t, numbered group by group as the kernels number them.
uint32_t WaveOf(size_t t, int W) {
  return uint32_t(t / kThreads * ((kThreads + W - 1) / W) + t % kThreads / W);
}

void PrintThreads(const char* what, const std::vector<uint32_t>& v, int W) {
  fmt::print("  {:<22}", what);
  for (size_t t = 0; t < v.size(); ++t)
    fmt::print("{}{:>3}", t > 0 && WaveOf(t, W) != WaveOf(t - 1, W) ? " |" : "", v[t]);
  fmt::print("\n");
}

}  // namespace

int main(int argc, char** argv) try {
  DispatchOptions options;
  options.wave_size = argc > 1 ? std::atoi(argv[1]) : 4;
  options.deterministic = true;  // the waves' atomics run in order, so the output is repeatable
  const int W = options.wave_size;
  fmt::print("wave_spec: 13 threads, {} per group, wave size {}, profile {}, deterministic\n"
             "('|' separates waves)\n\n",
             kThreads, W, options.profile.name);

  // 1. Compacted append: threads with a nonzero myData append it.
  const std::vector<uint32_t> input = {5, 0, 7, 3, 0, 0, 9, 2, 0, 4, 4, 0, 8};
  const CompactedAppendResult c = RunCompactedAppend<kThreads>(input, options);
  fmt::print("1. compacted append (WavePrefixCountBits)\n");
  PrintThreads("myData", input, W);
  fmt::print("  bufferSize[0] = {}, buffer = [{}]\n\n", c.size,
             fmt::join(std::vector(c.buffer.begin(), c.buffer.begin() + c.size), ", "));

  // 2. Ordered append: thread t appends counts[t] items (myData, i).
  const std::vector<uint32_t> counts = {2, 0, 1, 3, 0, 1, 0, 2, 1, 0, 3, 1, 2};
  const std::vector<uint32_t> data = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22};
  size_t items = 0;
  for (uint32_t n : counts) items += n;
  const OrderedAppendResult o = RunOrderedAppend<kThreads>(counts, data, items, options);
  fmt::print("2. ordered append (WavePrefixSum, WaveActiveSum)\n");
  PrintThreads("NumberOfItemsToAppend", counts, W);
  PrintThreads("myData", data, W);
  fmt::print("  bufferSize[0] = {}, buffer (myData.i) =", o.size);
  for (uint32_t i = 0; i < o.size; ++i) fmt::print(" {}.{}", o.buffer[i].x, o.buffer[i].y);
  fmt::print("\n\n");

  // 3 and 4 share the positions: thread t is at (t, t % 3 - 1, 13 - 2t) / 2.
  std::vector<float3> positions;
  std::vector<Point> points;
  for (int t = 0; t < 13; ++t) {
    positions.push_back(float3{t / 2.0f, float(t % 3 - 1) / 2.0f, float(13 - 2 * t) / 2.0f});
    points.push_back(Point{positions.back()});
  }
  fmt::print("3./4. positions:");
  for (size_t t = 0; t < positions.size(); ++t)
    fmt::print("{} {}", t > 0 && WaveOf(t, W) != WaveOf(t - 1, W) ? " |" : "", Show(positions[t]));
  fmt::print("\n\n");

  const BoundingBoxResult b = RunBoundingBox<kThreads>(points, options);
  fmt::print("3. bounding box per wave (WaveActiveMin, WaveActiveMax)\n");
  for (size_t w = 0; w < b.boxes.size(); ++w)
    fmt::print("  wave {}: min {}  max {}\n", w, Show(b.boxes[w].min), Show(b.boxes[w].max));

  const AveragePositionResult a = RunAveragePosition<kThreads>(positions, options);
  fmt::print("\n4. average position per wave (WaveActiveSum / WaveActiveCountBits(true))\n");
  for (size_t w = 0; w < a.centers.size(); ++w)
    fmt::print("  wave {}: center {}\n", w, Show(a.centers[w]));
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "wave_spec: {}\n", e.what());
  return 1;
}
