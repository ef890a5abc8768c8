// Tests of WaveGetLaneCount, WaveGetLaneIndex and WaveIsFirstLane over every wave size and mask
// pattern, a partial group, and helper lanes.
#include "intrinsics/wave_query.h"
#include "tests/intrinsics/lane_values.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

using namespace waveemu;
using namespace waveemu::test;

namespace {

constexpr uint32_t kSentinel = 0xC0FFEEu;

template <int N>
void SweepQuery(int W) {
  for (const MaskPattern<N>& p : AllMaskPatterns<N>()) {
    std::array<uint32_t, N> thread;
    for (int t = 0; t < N; ++t) thread[t] = uint32_t(t);
    // Spec: lane index t % W; the first lane is the lowest active thread of the wave.
    std::array<uint32_t, N> want_index{}, want_first{}, want_count{};
    for (int t = 0; t < N; ++t) {
      want_index[t] = uint32_t(t % W);
      int first = t / W * W;
      while (first < N && !p.mask.Test(first)) ++first;
      want_first[t] = first == t ? 1u : 0u;
      want_count[t] = uint32_t(W);
    }
    Uint<N> index = kSentinel, first = kSentinel, count = kSentinel;
    RunGroup<N>(W, [&] {
      Under(p.mask, [&] {
        index = WaveGetLaneIndex<N>();
        first = Uint<N>(WaveIsFirstLane<N>());
        count = WaveGetLaneCount();
      });
    });
    const std::string context = fmt::format("N {}, wave size {}, mask {}", N, W, p.name);
    CheckLanes<uint32_t, N>(index, want_index, p.mask, kSentinel, thread,
                            "WaveGetLaneIndex, " + context + " (input: thread)");
    CheckLanes<uint32_t, N>(first, want_first, p.mask, kSentinel, thread,
                            "WaveIsFirstLane, " + context + " (input: thread)");
    CheckLanes<uint32_t, N>(count, want_count, p.mask, kSentinel, thread,
                            "WaveGetLaneCount, " + context + " (input: thread)");
  }
}

}  // namespace

TEST_CASE("WaveGetLaneIndex is t % W, WaveIsFirstLane marks each wave's lowest active lane, and "
          "WaveGetLaneCount is W, under every mask") {
  for (int W : kWaveSizes) SweepQuery<256>(W);
  for (int W : {16, 32}) SweepQuery<24>(W);
  SweepQuery<6>(8);  // a group smaller than one wave
}

TEST_CASE("WaveIsFirstLane: wave 8, lanes 3-7 active, only lane 3 is first") {
  Uint<8> out = 9u;
  RunGroup<8>(8, [&] {
    (void)if_(WaveGetLaneIndex<8>() >= 3u, [&] { out = Uint<8>(WaveIsFirstLane<8>()); });
  });
  const uint32_t expected[8] = {9, 9, 9, 1, 0, 0, 0, 0};
  for (int t = 0; t < 8; ++t) CHECK(out.lane(t) == expected[t]);
}

TEST_CASE("WaveIsFirstLane is false on helper lanes: a helper lane 0 makes lane 1 first") {
  Uint<8> out = 9u;
  RunGroup<8>(4, [&] {
    Mask<8> helper;
    helper.Set(0, true);
    helper.Set(5, true);
    CurrentGroup<8>().set_helper(helper);
    out = Uint<8>(WaveIsFirstLane<8>());
  });
  // Waves of 4: threads 0-3 (0 is a helper) and 4-7 (5 is a helper, 4 is first).
  const uint32_t expected[8] = {0, 1, 0, 0, 1, 0, 0, 0};
  for (int t = 0; t < 8; ++t) CHECK(out.lane(t) == expected[t]);
}

TEST_CASE("WaveGetLaneCount outside a kernel is a usage error that says where it works") {
  CHECK_THROWS_WITH_AS(WaveGetLaneCount(), doctest::Contains("only inside a kernel"), UsageError);
}
