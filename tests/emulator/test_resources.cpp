// test_resources.cpp -- Buffer, RWBuffer, StructuredBuffer, RWStructuredBuffer, ByteAddressBuffer
// and RWByteAddressBuffer: masked gathers and scatters, out-of-bounds reads and writes,
// GetDimensions; expectations from plain loops over the host arrays.
#include "emulator/emulator.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

TEST_CASE("Buffer gather under a mask reads active threads and counts out-of-bounds reads") {
  constexpr int N = 64;
  std::vector<int32_t> host(40);
  for (int i = 0; i < 40; ++i) host[i] = 1000 + i * 3;
  const Buffer<int32_t> buf{std::span<const int32_t>(host)};
  for (const auto& pattern : AllMaskPatterns<N>()) {
    DispatchShared shared;
    Int<N> got(-7);
    Uint<N> idx{NoInit{}};
    for (int t = 0; t < N; ++t) idx.set_lane(t, uint32_t(t * 7 % 50));
    RunGroup<N>(32, [&] {
      CurrentGroup<N>().set_active(pattern.mask);
      got = buf[idx];
    }, SpecProfile(), &shared);
    std::array<int32_t, N> want{};
    std::array<uint32_t, N> inputs{};
    uint64_t oob = 0;
    for (int t = 0; t < N; ++t) {
      inputs[t] = uint32_t(t * 7 % 50);
      want[t] = inputs[t] < 40 ? host[inputs[t]] : 0;
      if (pattern.mask.Test(t) && inputs[t] >= 40) ++oob;
    }
    CheckLanes<int32_t, N>(got, want, pattern.mask, int32_t(-7), inputs, pattern.name);
    CHECK(shared.out_of_bounds_reads.load() == oob);
  }
}
