// test_wave_spec.cpp -- the spec's four examples (examples/wave_spec) against plain scalar loops
// written from the spec's text, at every wave size, with 32, 64 and 128 threads per group, in
// parallel and deterministic dispatch. Appends are compared as multisets (the order of waves
// follows the atomics) plus the order the spec promises inside a wave; per-wave results exactly.
#include "examples/wave_spec/wave_spec_host.h"
#include "tests/support/mask_patterns.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace waveemu::examples {
namespace {

// 1000 threads: the last group is partial at every group size, so its last threads return
// before the fragment and the wave ops run on partial waves.
constexpr size_t kInputs = 1000;

struct Setup {
  DispatchOptions options;
  std::string name;
};

/// Every wave size x {deterministic, parallel} under `profile`.
std::vector<Setup> Setups(const DeviceProfile& profile = SpecProfile()) {
  std::vector<Setup> s;
  for (int w : test::kWaveSizes)
    for (bool deterministic : {true, false}) {
      DispatchOptions o;
      o.profile = profile;
      o.wave_size = w;
      o.deterministic = deterministic;
      s.push_back({o, fmt::format("profile {}, wave size {}, {}", profile.name, w,
                                  deterministic ? "deterministic" : "parallel")});
    }
  return s;
}

/// Calls f.template operator()<kThreads>() for 32, 64 and 128 threads per group.
template <class F>
void ForEachGroupSize(F&& f) {
  f.template operator()<32>();
  f.template operator()<64>();
  f.template operator()<128>();
}

/// Where global thread t runs: its wave's number in the dispatch (group by group) and its lane.
struct ThreadPlace {
  uint32_t wave;
  uint32_t lane;
};
ThreadPlace PlaceOf(size_t t, int threads_per_group, int W) {
  const size_t group = t / threads_per_group, gi = t % threads_per_group;
  const size_t waves_per_group = (threads_per_group + W - 1) / W;
  return {uint32_t(group * waves_per_group + gi / W), uint32_t(gi % W)};
}

std::string Context(const std::string& example, int threads, const Setup& s) {
  return fmt::format("{}: {} threads per group, {}", example, threads, s.name);
}

// ------------------------------------------------------------------------------------------------
// 1. Compacted append

/// Reference from the spec's text: every thread whose myData != 0 appends myData once; in input
/// order (the order deterministic dispatch must give: groups in order, waves' atomics in thread
/// order).
std::vector<uint32_t> CompactedAppendReference(const std::vector<uint32_t>& input) {
  std::vector<uint32_t> out;
  for (uint32_t v : input)
    if (v != 0) out.push_back(v);
  return out;
}

/// Inputs with distinct nonzero values, a `keep` fraction of them kept (the rest are 0).
std::vector<uint32_t> CompactionInput(double keep, uint32_t seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution kept(keep);
  std::vector<uint32_t> in(kInputs);
  for (size_t t = 0; t < kInputs; ++t) in[t] = kept(rng) ? uint32_t(t + 1) : 0u;
  return in;
}

template <int kThreads>
void CheckCompactedAppend(const std::vector<uint32_t>& input, const std::string& input_name) {
  const std::vector<uint32_t> want = CompactedAppendReference(input);
  for (const Setup& s : Setups()) {
    const std::string ctx = Context("compacted append, " + input_name, kThreads, s);
    CAPTURE(ctx);
    const CompactedAppendResult r = RunCompactedAppend<kThreads>(input, s.options);
    REQUIRE(r.size == want.size());
    CHECK(r.dispatch.out_of_bounds_writes == 0);
    // The appended part, as a multiset, is the reference; nothing past it was written.
    std::vector<uint32_t> got(r.buffer.begin(), r.buffer.begin() + r.size);
    std::vector<uint32_t> sorted_want = want;
    std::sort(got.begin(), got.end());
    std::sort(sorted_want.begin(), sorted_want.end());
    CHECK(got == sorted_want);
    CHECK(std::all_of(r.buffer.begin() + r.size, r.buffer.end(),
                      [](uint32_t v) { return v == kUnwrittenItem; }));
    // The spec: "keeps the output data for each lane in this wave together in the output
    // buffer", in lane order (laneAppendOffset counts the lanes below). Values are distinct,
    // so each one's position says where its lane wrote.
    std::map<uint32_t, size_t> position;
    for (size_t i = 0; i < r.size; ++i) position[r.buffer[i]] = i;
    std::map<uint32_t, std::vector<size_t>> wave_positions;  // in lane order
    for (size_t t = 0; t < input.size(); ++t)
      if (input[t] != 0)
        wave_positions[PlaceOf(t, kThreads, r.dispatch.wave_size).wave].push_back(
            position[input[t]]);
    for (const auto& [wave, pos] : wave_positions)
      for (size_t k = 1; k < pos.size(); ++k) {
        INFO("wave ", wave, ": its item ", k, " in lane order is at ", pos[k],
             ", the one before at ", pos[k - 1]);
        REQUIRE(pos[k] == pos[k - 1] + 1);
      }
    // Deterministic dispatch: groups in order, each wave's atomic in thread order.
    if (s.options.deterministic)
      CHECK(std::vector(r.buffer.begin(), r.buffer.begin() + r.size) == want);
  }
}

TEST_CASE("compacted append writes exactly the items, each wave's together in lane order") {
  ForEachGroupSize([]<int kThreads>() {
    CheckCompactedAppend<kThreads>(CompactionInput(0.5, 1), "half kept");
    CheckCompactedAppend<kThreads>(CompactionInput(1.0, 2), "all kept");
    CheckCompactedAppend<kThreads>(CompactionInput(0.0, 3), "none kept");
    CheckCompactedAppend<kThreads>(CompactionInput(0.05, 4), "few kept");
  });
}

TEST_CASE("the spec's compacted append as written stores from lanes without an item too") {
  // The last thread has no item, so the last wave to allocate (in deterministic dispatch: the
  // last wave) stores its myData = 0 at base + appendCount, one past the stream, which an
  // exactly sized buffer drops as out of bounds. The fixed port, same buffer, stays in bounds.
  std::vector<uint32_t> input = CompactionInput(0.5, 5);
  input.back() = 0;
  const size_t items = CompactedAppendReference(input).size();
  for (const Setup& s : Setups()) {
    if (!s.options.deterministic) continue;  // in parallel, which wave allocates last varies
    CAPTURE(s.name);
    const CompactedAppendResult as_written =
        RunCompactedAppend<64, /*kAsWritten=*/true>(input, s.options, items);
    CHECK(as_written.size == items);
    CHECK(as_written.dispatch.out_of_bounds_writes > 0);
    const CompactedAppendResult fixed = RunCompactedAppend<64>(input, s.options, items);
    CHECK(fixed.dispatch.out_of_bounds_writes == 0);
    CHECK(fixed.buffer == CompactedAppendReference(input));
  }
}

// ------------------------------------------------------------------------------------------------
// 2. Ordered append

/// Reference from the spec's text: thread t appends counts[t] items, (data[t], 0 .. counts[t]-1),
/// in input order.
std::vector<std::pair<uint32_t, uint32_t>> OrderedAppendReference(
    const std::vector<uint32_t>& counts, const std::vector<uint32_t>& data) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (size_t t = 0; t < counts.size(); ++t)
    for (uint32_t i = 0; i < counts[t]; ++i) out.emplace_back(data[t], i);
  return out;
}

struct OrderedInput {
  std::vector<uint32_t> counts;
  std::vector<uint32_t> data;
  std::string name;
};

/// counts uniform in [0, max_count]; data distinct (so items are distinct).
OrderedInput MakeOrderedInput(uint32_t max_count, uint32_t seed, std::string name) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> count(0, max_count);
  OrderedInput in{std::vector<uint32_t>(kInputs), std::vector<uint32_t>(kInputs), std::move(name)};
  for (size_t t = 0; t < kInputs; ++t) {
    in.counts[t] = count(rng);
    in.data[t] = uint32_t(7 * t + 3);
  }
  return in;
}

std::vector<std::pair<uint32_t, uint32_t>> Items(const std::vector<uint2>& buffer, size_t n) {
  std::vector<std::pair<uint32_t, uint32_t>> items;
  for (size_t i = 0; i < n; ++i) items.emplace_back(buffer[i].x, buffer[i].y);
  return items;
}

template <int kThreads>
void CheckOrderedAppend(const OrderedInput& in) {
  const auto want = OrderedAppendReference(in.counts, in.data);
  for (const Setup& s : Setups()) {
    const std::string ctx = Context("ordered append, " + in.name, kThreads, s);
    CAPTURE(ctx);
    const OrderedAppendResult r =
        RunOrderedAppend<kThreads>(in.counts, in.data, want.size() + 16, s.options);
    REQUIRE(r.size == want.size());
    CHECK(r.dispatch.out_of_bounds_writes == 0);
    auto got = Items(r.buffer, r.size);
    auto sorted_want = want;
    std::sort(got.begin(), got.end());
    std::sort(sorted_want.begin(), sorted_want.end());
    CHECK(got == sorted_want);
    for (size_t i = r.size; i < r.buffer.size(); ++i) CHECK(r.buffer[i].x == kUnwrittenItem);
    // Inside a wave: lane after lane, each lane's items in order, with no gap
    // (laneAppendOffset = WavePrefixSum of the counts below).
    std::map<std::pair<uint32_t, uint32_t>, size_t> position;
    for (size_t i = 0; i < r.size; ++i) position[{r.buffer[i].x, r.buffer[i].y}] = i;
    std::map<uint32_t, std::vector<size_t>> wave_positions;
    for (size_t t = 0; t < in.counts.size(); ++t)
      for (uint32_t i = 0; i < in.counts[t]; ++i)
        wave_positions[PlaceOf(t, kThreads, r.dispatch.wave_size).wave].push_back(
            position[{in.data[t], i}]);
    for (const auto& [wave, pos] : wave_positions)
      for (size_t k = 1; k < pos.size(); ++k) {
        INFO("wave ", wave, ": its item ", k, " (lane order, then item order) is at ", pos[k],
             ", the one before at ", pos[k - 1]);
        REQUIRE(pos[k] == pos[k - 1] + 1);
      }
    if (s.options.deterministic) CHECK(Items(r.buffer, r.size) == want);
  }
}

TEST_CASE("ordered append writes exactly the items, each wave's together, lane after lane") {
  ForEachGroupSize([]<int kThreads>() {
    CheckOrderedAppend<kThreads>(MakeOrderedInput(3, 11, "0 to 3 items per thread"));
    CheckOrderedAppend<kThreads>(MakeOrderedInput(1, 12, "0 or 1 item per thread"));
    CheckOrderedAppend<kThreads>(MakeOrderedInput(0, 13, "no items"));
    CheckOrderedAppend<kThreads>(MakeOrderedInput(9, 14, "0 to 9 items per thread"));
  });
}

TEST_CASE("the spec's ordered append as written reserves one slot per lane, not per item") {
  // With at most one item per thread the two reservations agree and the result is exact.
  const OrderedInput ones = MakeOrderedInput(1, 21, "0 or 1 item per thread");
  const auto want_ones = OrderedAppendReference(ones.counts, ones.data);
  // With up to 3, a wave reserves fewer slots than it writes: the next wave overwrites its tail.
  const OrderedInput threes = MakeOrderedInput(3, 22, "0 to 3 items per thread");
  const auto want_threes = OrderedAppendReference(threes.counts, threes.data);
  size_t lanes_with_items = 0;
  for (uint32_t c : threes.counts) lanes_with_items += c != 0;
  for (const Setup& s : Setups()) {
    CAPTURE(s.name);
    const OrderedAppendResult a = RunOrderedAppend<64, /*kAsWritten=*/true>(
        ones.counts, ones.data, want_ones.size(), s.options);
    CHECK(a.size == want_ones.size());
    if (s.options.deterministic) CHECK(Items(a.buffer, a.size) == want_ones);

    const OrderedAppendResult b = RunOrderedAppend<64, /*kAsWritten=*/true>(
        threes.counts, threes.data, want_threes.size(), s.options);
    CHECK(b.size == lanes_with_items);
    CHECK(b.size < want_threes.size());
    // Overlapping ranges: some items are lost (overwritten by the next wave's).
    auto got = Items(b.buffer, want_threes.size());
    auto sorted_want = want_threes;
    std::sort(got.begin(), got.end());
    std::sort(sorted_want.begin(), sorted_want.end());
    CHECK(got != sorted_want);
  }
}

// ------------------------------------------------------------------------------------------------
// 3. Bounding box

/// Reference from the spec's text: each wave's box is min / max over its threads' positions,
/// folded into the box it held before (EmptyBox()); waves with no thread keep that.
std::vector<Box> BoundingBoxReference(const std::vector<Point>& points, int threads, int W,
                                      size_t waves) {
  std::vector<Box> boxes(waves, EmptyBox());
  for (size_t t = 0; t < points.size(); ++t) {
    Box& b = boxes[PlaceOf(t, threads, W).wave];
    const float3 p = points[t].position;
    b.min = float3{std::min(b.min.x, p.x), std::min(b.min.y, p.y), std::min(b.min.z, p.z)};
    b.max = float3{std::max(b.max.x, p.x), std::max(b.max.y, p.y), std::max(b.max.z, p.z)};
  }
  return boxes;
}

bool SameBits(const float3& a, const float3& b) {
  return std::bit_cast<uint32_t>(a.x) == std::bit_cast<uint32_t>(b.x) &&
         std::bit_cast<uint32_t>(a.y) == std::bit_cast<uint32_t>(b.y) &&
         std::bit_cast<uint32_t>(a.z) == std::bit_cast<uint32_t>(b.z);
}

std::string Show(const float3& v) { return fmt::format("({}, {}, {})", v.x, v.y, v.z); }

/// Multiples of 1/8 in [-64, 64] without 0 (min/max of +0 and -0 is unspecified), or general
/// floats in [-1000, 1000].
float RandomCoordinate(std::mt19937& rng, bool eighths) {
  if (eighths) {
    int k = std::uniform_int_distribution<int>(-512, 511)(rng);
    return float(k >= 0 ? k + 1 : k) / 8.0f;
  }
  return std::uniform_real_distribution<float>(-1000.0f, 1000.0f)(rng);
}

std::vector<float3> RandomPositions(bool eighths, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float3> p(kInputs);
  for (float3& v : p)
    v = float3{RandomCoordinate(rng, eighths), RandomCoordinate(rng, eighths),
               RandomCoordinate(rng, eighths)};
  return p;
}

template <int kThreads>
void CheckBoundingBox(const std::vector<Point>& points) {
  for (const Setup& s : Setups()) {
    const std::string ctx = Context("bounding box", kThreads, s);
    CAPTURE(ctx);
    const BoundingBoxResult r = RunBoundingBox<kThreads>(points, s.options);
    const auto want = BoundingBoxReference(points, kThreads, r.wave_size, r.boxes.size());
    REQUIRE(r.boxes.size() == want.size());
    for (size_t w = 0; w < want.size(); ++w) {
      INFO("wave ", w, ": min ", Show(r.boxes[w].min), " want ", Show(want[w].min), ", max ",
           Show(r.boxes[w].max), " want ", Show(want[w].max));
      REQUIRE(SameBits(r.boxes[w].min, want[w].min));
      REQUIRE(SameBits(r.boxes[w].max, want[w].max));
    }
  }
}

TEST_CASE("bounding box: each wave's box is exactly the min and max of its points") {
  // Min and max are exact for any floats (no NaN, no +0/-0 tie), so general floats are fine.
  for (bool eighths : {true, false}) {
    std::vector<Point> points;
    for (const float3& p : RandomPositions(eighths, eighths ? 31 : 32)) points.push_back({p});
    CAPTURE(eighths);
    ForEachGroupSize([&]<int kThreads>() { CheckBoundingBox<kThreads>(points); });
  }
}

// ------------------------------------------------------------------------------------------------
// 4. Average position

/// The H100's rcp(c) for the counts 1..128 where it is not the correctly rounded 1 / c, from
/// run 11's records (docs/gpu_runs/2026-11-23-h100-run11/Rcp.npz: the significand's word,
/// scaled by c's power of two).
float H100ReciprocalOfCount(uint32_t c) {
  static constexpr std::pair<uint32_t, uint32_t> kInexact[] = {
      {33, 0x3cf83e0fu}, {37, 0x3cdd67c8u}, {61, 0x3c864b8bu},  {66, 0x3c783e0fu},
      {67, 0x3c74898eu}, {74, 0x3c5d67c8u}, {75, 0x3c5a740du},  {83, 0x3c4565c9u},
      {97, 0x3c28e840u}, {122, 0x3c064b8bu}, {123, 0x3c053409u}};
  for (const auto& [count, word] : kInexact)
    if (count == c) return std::bit_cast<float>(word);
  REQUIRE(c <= 128u);
  return 1.0f / float(c);
}

/// Reference from the spec's text: total = sum of the wave's positions, added in lane order
/// (the spec profile's order; any order when the sums are exact), center = total / count: an IEEE
/// division, or the H100's total * rcp(count) (`h100_division`).
std::vector<float3> AverageReference(const std::vector<float3>& positions, int threads, int W,
                                     size_t waves, bool h100_division) {
  std::vector<float3> total(waves, float3{0, 0, 0});
  std::vector<uint32_t> count(waves, 0);
  for (size_t t = 0; t < positions.size(); ++t) {  // ascending t is lane order in each wave
    const uint32_t w = PlaceOf(t, threads, W).wave;
    const float3 p = positions[t];
    total[w] = count[w] == 0 ? p
                             : float3{total[w].x + p.x, total[w].y + p.y, total[w].z + p.z};
    ++count[w];
  }
  std::vector<float3> centers(waves, UnwrittenCenter());
  for (size_t w = 0; w < waves; ++w)
    if (count[w]) {
      const float c = float(count[w]);
      const float r = h100_division ? H100ReciprocalOfCount(count[w]) : 0.0f;
      const auto divide = [&](float x) { return h100_division ? x * r : x / c; };
      centers[w] = float3{divide(total[w].x), divide(total[w].y), divide(total[w].z)};
    }
  return centers;
}

template <int kThreads>
void CheckAveragePosition(const std::vector<float3>& positions, const DeviceProfile& profile) {
  for (const Setup& s : Setups(profile)) {
    const std::string ctx = Context("average position", kThreads, s);
    CAPTURE(ctx);
    const AveragePositionResult r = RunAveragePosition<kThreads>(positions, s.options);
    const auto want = AverageReference(positions, kThreads, r.wave_size, r.centers.size(),
                                       profile.divide_sqrt == DivideSqrt::kH100Tables);
    REQUIRE(r.centers.size() == want.size());
    for (size_t w = 0; w < want.size(); ++w) {
      INFO("wave ", w, ": center ", Show(r.centers[w]), " want ", Show(want[w]));
      REQUIRE(SameBits(r.centers[w], want[w]));
    }
  }
}

TEST_CASE("average position is exact in every profile when the wave sums are exact") {
  // Multiples of 1/8 in [-64, 64]: a wave's sum (at most 128 of them) needs at most 17
  // significant bits, so every order of addition gives the same float; only the division rounds.
  const std::vector<float3> positions = RandomPositions(/*eighths=*/true, 41);
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile(), NvidiaProfile()})
    ForEachGroupSize([&]<int kThreads>() { CheckAveragePosition<kThreads>(positions, profile); });
}

TEST_CASE("average position of general floats is the lane-order sum under the spec profile") {
  const std::vector<float3> positions = RandomPositions(/*eighths=*/false, 42);
  ForEachGroupSize([&]<int kThreads>() {
    CheckAveragePosition<kThreads>(positions, SpecProfile());
  });
}

}  // namespace
}  // namespace waveemu::examples
