// test_barrier.cpp -- barriers with group sync must be reached by the whole group (HLSL leaves a
// divergent barrier undefined; waveemu throws a KernelError naming it); fences work under any
// mask.
#include "emulator/emulator.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

namespace {

template <int N>
Uint<N> ThreadIds() {
  Uint<N> t{NoInit{}};
  for (int i = 0; i < N; ++i) t.set_lane(i, uint32_t(i));
  return t;
}

}  // namespace

TEST_CASE("barriers reached by the whole group pass, at every wave size") {
  for (int w : {4, 8, 16, 32, 64}) {
    CHECK_NOTHROW(RunGroup<64>(w, [&] {
      GroupMemoryBarrierWithGroupSync();
      DeviceMemoryBarrierWithGroupSync();
      AllMemoryBarrierWithGroupSync();
      const Uint<64> t = ThreadIds<64>();
      if_(t < 10u, [&] {}).else_([&] {});
      GroupMemoryBarrierWithGroupSync();  // after the if_, every thread is back
    }));
  }
}

TEST_CASE("a barrier inside divergent control flow is a KernelError naming the barrier") {
  auto divergent = [](auto barrier) {
    RunGroup<32>(8, [&] {
      const Uint<32> t = ThreadIds<32>();
      if_(t < 3u, [&] { barrier(); });
    });
  };
  CHECK_THROWS_WITH_AS(divergent([] { GroupMemoryBarrierWithGroupSync(); }),
                       doctest::Contains("GroupMemoryBarrierWithGroupSync"), KernelError);
  CHECK_THROWS_WITH_AS(divergent([] { DeviceMemoryBarrierWithGroupSync(); }),
                       doctest::Contains("DeviceMemoryBarrierWithGroupSync"), KernelError);
  CHECK_THROWS_WITH_AS(divergent([] { AllMemoryBarrierWithGroupSync(); }),
                       doctest::Contains("AllMemoryBarrierWithGroupSync"), KernelError);
}

TEST_CASE("a barrier after some threads returned is a KernelError") {
  CHECK_THROWS_WITH_AS(RunGroup<16>(4, [&] {
    const Uint<16> t = ThreadIds<16>();
    if_(t == 5u, [&] { return_(); });
    GroupMemoryBarrierWithGroupSync();
  }), doctest::Contains("GroupMemoryBarrierWithGroupSync"), KernelError);
}

TEST_CASE("a barrier inside a loop whose trip count differs per thread is a KernelError") {
  CHECK_THROWS_AS(RunGroup<8>(4, [&] {
    const Uint<8> t = ThreadIds<8>();
    Uint<8> i(0u);
    while_([&] { return i <= t; }, [&] {
      GroupMemoryBarrierWithGroupSync();  // iteration 2 has threads 1..7 only
      i += 1u;
    });
  }), KernelError);
}

TEST_CASE("fences without sync are allowed under any mask") {
  CHECK_NOTHROW(RunGroup<16>(4, [&] {
    const Uint<16> t = ThreadIds<16>();
    if_(t == 3u, [&] {
      GroupMemoryBarrier();
      DeviceMemoryBarrier();
      AllMemoryBarrier();
    });
  }));
}

TEST_CASE("a barrier outside a kernel is a UsageError") {
  CHECK_THROWS_WITH_AS(GroupMemoryBarrierWithGroupSync(),
                       doctest::Contains("GroupMemoryBarrierWithGroupSync"), UsageError);
}

struct DivergentBarrierKernel {
  static constexpr uint3 numthreads{64, 1, 1};
  void main(SV_GroupIndex<64> gi, SV_GroupID gid) const {
    if (gid.x == 37) {  // uniform for the group: only this group diverges
      if_(gi < 32u, [&] { GroupMemoryBarrierWithGroupSync(); });
    }
    GroupMemoryBarrierWithGroupSync();
  }
};

TEST_CASE("a divergent barrier in one group of a dispatch reaches the caller as a KernelError") {
  for (bool deterministic : {true, false}) {
    DispatchOptions options;
    options.deterministic = deterministic;
    CHECK_THROWS_WITH_AS(Dispatch(DivergentBarrierKernel{}, uint3{100, 1, 1}, options),
                         doctest::Contains("group (37,0,0)"), KernelError);
  }
}
