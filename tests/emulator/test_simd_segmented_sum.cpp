// test_simd_segmented_sum.cpp -- SegmentedSum32 (emulator/simd.h), the in-vector scan behind the
// 32-bit WavePrefixSum fast path and the claims' running sums, at every segment length the
// static target's vectors allow (AVX2 takes in-block shifts for segments of 4 and 8, table
// steps otherwise), against a scalar running sum that restarts at each segment.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdint>
#include <random>
#include <vector>

#include "emulator/simd.h"

namespace {

using namespace waveemu;

template <int kSeg>
void CheckSegmentedSum() {
  using Scan = SegmentedSum32<kSeg>;
  const typename Scan::D d;
  constexpr int L = Scan::kLanes;
  const Scan scan;
  std::mt19937 rng{uint32_t(kSeg)};
  std::vector<uint32_t> in(L), got(L), last(L);
  for (int trial = 0; trial < 200; ++trial) {
    // Values near 2^32 as well as small ones, so that sums wrap.
    for (auto& x : in) x = trial % 2 ? rng() : rng() % 16;
    const auto v = hn::LoadU(d, in.data());
    hn::StoreU(scan.Inclusive(v), d, got.data());
    hn::StoreU(scan.LastLane(v), d, last.data());
    uint32_t sum = 0;
    for (int l = 0; l < L; ++l) {
      if (l % kSeg == 0) sum = 0;
      sum += in[l];
      INFO(fmt::format("segments of {}, lane {} of {}, inputs {}", kSeg, l, L,
                       fmt::join(in, " ")));
      CHECK(got[l] == sum);
      CHECK(last[l] == in[L - 1]);
    }
  }
}

TEST_CASE("SegmentedSum32 gives each lane the wrapping sum of its segment's lanes up to it") {
  constexpr int L = int(hn::MaxLanes(hn::ScalableTag<uint32_t>()));
  CheckSegmentedSum<1>();
  CheckSegmentedSum<2>();
  CheckSegmentedSum<4>();
  if constexpr (L >= 8) CheckSegmentedSum<8>();
  if constexpr (L >= 16) CheckSegmentedSum<16>();
}

}  // namespace
