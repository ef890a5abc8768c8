// test_exec.cpp -- GroupState<N>: frames, masks, barriers, reuse between groups (emulator/exec.h).
//
// The control-flow constructs themselves are tested in test_control_flow.cpp; these tests look at
// the state underneath: what Reset restores after a group threw, what Dispatch reports, the
// barrier rule, helper threads, the nesting limit, and groups wider than one 64-bit mask word.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <functional>
#include <string>

using namespace waveemu;
using waveemu::test::MaskWhere;
using waveemu::test::RunGroup;

namespace {

template <int N>
Uint<N> ThreadIndex() {
  Uint<N> r(0u);
  for (int t = 0; t < N; ++t) r.set_lane(t, uint32_t(t));
  return r;
}

template <int N>
std::string Bits(const Mask<N>& m) {
  std::string s(N, '0');
  for (int t = 0; t < N; ++t)
    if (m.Test(t)) s[t] = '1';
  return s;
}

struct EarlyReturnThenBarrier {
  static constexpr uint3 numthreads{8, 1, 1};
  void main(SV_GroupID gid, SV_GroupIndex<8> gi) const {
    // Group 2 only: threads 5..7 return before the barrier.
    if (gid.x == 2) if_(gi >= 5u, [] { return_(); });
    GroupMemoryBarrierWithGroupSync();
  }
};

struct UniformBarrier {
  static constexpr uint3 numthreads{8, 1, 1};
  void main(SV_GroupIndex<8> gi) const {
    Uint<8> i(0u);
    while_([&] { return i < gi % 3u; }, [&] { i = i + 1u; });  // divergent, then rejoined
    GroupMemoryBarrierWithGroupSync();
  }
};

}  // namespace

TEST_CASE("Reset after a group threw inside nested constructs gives a fresh group") {
  constexpr int N = 16;
  const DeviceProfile spec = SpecProfile();
  GroupState<N> state(8, spec, uint3{}, nullptr);
  ScopedGroup<N> scope(state);
  const Uint<N> x = ThreadIndex<N>();
  bool threw = false;
  try {
    Uint<N> i(0u);
    while_([&] { return i < 3u; }, [&] {
      if_(x < 3u, [] { return_(); });
      switch_(x % 2u, case_(0u, [&] {
                function_([] { break_(); });  // not allowed: break_ cannot leave a function
              }));
      i = i + 1u;
    });
  } catch (const KernelError&) {
    threw = true;
  }
  REQUIRE(threw);
  CHECK(state.depth() > 1);  // the loop, switch and function frames are still open
  state.Reset(uint3{4, 5, 6});
  CHECK(state.depth() == 1);
  CHECK(state.active().IsAll());
  CHECK(state.returned().Empty());
  CHECK(state.escaped().Empty());
  CHECK(state.group_id() == uint3{4, 5, 6});
  // The next group runs normally: a loop and an if with every thread back afterwards.
  Uint<N> i(0u);
  while_([&] { return i < x % 4u; }, [&] { i = i + 1u; });
  if_(x < 5u, [] { return_(); });
  CHECK(Bits(state.active()) == "0000011111111111");
  for (int t = 0; t < N; ++t) CHECK(i.lane(t) == uint32_t(t % 4));
  CHECK_THROWS_AS(state.Barrier("GroupMemoryBarrierWithGroupSync"), KernelError);
}

TEST_CASE("Dispatch reports a barrier after an early return_ with the group that broke the rule") {
  DispatchOptions options;
  options.deterministic = true;
  options.wave_size = 4;
  std::string what;
  try {
    Dispatch(EarlyReturnThenBarrier{}, uint3{4, 1, 1}, options);
  } catch (const KernelError& e) {
    what = e.what();
  }
  CHECK_MESSAGE(what.find("GroupMemoryBarrierWithGroupSync: reached by 5 of the group's 8 "
                          "threads (3 returned from the kernel") != std::string::npos,
                what);
  CHECK_MESSAGE(what.find("group (2,0,0)") != std::string::npos, what);
  CHECK(GroupBase::Current() == nullptr);  // the scope was left cleanly
  // A barrier after divergent control flow that has reconverged is fine, in parallel too.
  options.deterministic = false;
  CHECK_NOTHROW(Dispatch(UniformBarrier{}, uint3{64, 1, 1}, options));
}

TEST_CASE("escaped() holds the threads waiting to rejoin: broken, continued, returned") {
  constexpr int N = 8;
  std::vector<std::string> seen;
  RunGroup<N>(4, [&] {
    const Uint<N> x = ThreadIndex<N>();
    if_(x == 7u, [] { return_(); });
    Uint<N> i(0u);
    for_([&] { return i < 1u; }, [&] { i = i + 1u; }, [&] {
      if_(x < 2u, [] { break_(); });
      if_(x == 2u, [] { continue_(); });
      seen.push_back(Bits(CurrentGroup<N>().escaped()));
      seen.push_back(Bits(CurrentGroup<N>().active()));
    });
    seen.push_back(Bits(CurrentGroup<N>().escaped()));
    seen.push_back(Bits(CurrentGroup<N>().active()));
  });
  CHECK(seen == std::vector<std::string>{"11100001", "00011110", "00000001", "11111110"});
}

TEST_CASE("wave ops skip helper threads unless helpers are included") {
  constexpr int N = 8;
  RunGroup<N>(4, [&] {
    GroupState<N>& s = CurrentGroup<N>();
    s.set_helper(MaskWhere<N>([](int t) { return t == 1 || t == 6; }));
    const Uint<N> x = ThreadIndex<N>();
    Uint<N> seen(99u);
    if_(x != 3u, [&] { seen = WaveActiveCountBits(Bool<N>(true)); });
    // Wave 0: active {0,1,2}, helper 1 -> 2; wave 1: active {4..7}, helper 6 -> 3.
    const uint32_t want[N] = {2, 2, 2, 99, 3, 3, 3, 3};
    for (int t = 0; t < N; ++t) CHECK(seen.lane(t) == want[t]);
    s.set_include_helpers_in_wave_ops(true);
    if_(x != 3u, [&] { seen = WaveActiveCountBits(Bool<N>(true)); });
    const uint32_t with[N] = {3, 3, 3, 99, 4, 4, 4, 4};
    for (int t = 0; t < N; ++t) CHECK(seen.lane(t) == with[t]);
  });
}

TEST_CASE("control flow nested deeper than the frame stack is a KernelError, not a crash") {
  int deepest = 0;
  std::string what;
  RunGroup<8>(4, [&] {
    std::function<void(int)> nest = [&](int depth) {
      deepest = depth;
      Uint<8> i(0u);
      while_([&] { return i < 1u; }, [&] {
        i = i + 1u;
        nest(depth + 1);
      });
    };
    try {
      nest(1);
    } catch (const KernelError& e) {
      what = e.what();
    }
  });
  CHECK(deepest == GroupState<8>::kMaxDepth);  // frame 0 is the kernel itself
  CHECK_MESSAGE(what.find("nested deeper than 64 levels") != std::string::npos, what);
}

TEST_CASE("loops and ifs over groups wider than one mask word follow a per-thread reference") {
  // while (i < t % 5) { if (t % 3 == 0) { if (i == 1) break; } else { i++; continue; } i++; }
  // Per thread: iterations run until i reaches t % 5, except that threads with t % 3 == 0 leave
  // when i == 1 (if they get there).
  auto test = []<int N>(int W) {
    std::vector<Mask<N>> iteration_masks;
    Uint<N> i(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> t = ThreadIndex<N>();
      const Uint<N> trip = t % 5u;
      while_([&] { return i < trip; }, [&] {
        iteration_masks.push_back(CurrentGroup<N>().active());
        if_(t % 3u == 0u, [&] {
          if_(i == 1u, [] { break_(); });
        }).else_([&] {
          i = i + 1u;
          continue_();
        });
        i = i + 1u;
      });
      REQUIRE(CurrentGroup<N>().active().IsAll());
    });
    // The reference: thread t runs iteration k if it entered it on its own.
    for (int k = 0; k < int(iteration_masks.size()) || k < 4; ++k) {
      const Mask<N> want = MaskWhere<N>([&](int t) {
        const int trip = t % 5;
        const int stop = (t % 3 == 0) ? std::min(trip, 2) : trip;  // breaks in iteration 1
        return k < stop;
      });
      REQUIRE_MESSAGE(k < int(iteration_masks.size()), "missing iteration ", k);
      CHECK_MESSAGE(iteration_masks[k] == want, "N = ", N, ", W = ", W, ", iteration ", k,
                    "\n expected ", Bits(want), "\n actual   ", Bits(iteration_masks[k]));
    }
    CHECK(iteration_masks.size() == 4);
    for (int t = 0; t < N; ++t) {
      const uint32_t trip = uint32_t(t % 5);
      const uint32_t want = (t % 3 == 0) ? std::min(trip, 1u) : trip;
      CHECK_MESSAGE(i.lane(t) == want, "thread ", t);
    }
  };
  for (int W : {32, 64, 128}) {
    test.template operator()<100>(W);
    test.template operator()<256>(W);
  }
}

TEST_CASE("GroupBase answers AnyActive and ActiveCount for code that has no thread count") {
  std::vector<int> counts;
  std::vector<bool> any;
  RunGroup<16>(8, [&] {
    const Uint<16> x = ThreadIndex<16>();
    GroupBase& g = CurrentGroupBase("test");
    counts.push_back(g.ActiveCount());
    any.push_back(g.AnyActive());
    if_(x % 4u == 1u, [&] { counts.push_back(g.ActiveCount()); });
    if_(x < 100u, [] { return_(); });
    counts.push_back(g.ActiveCount());
    any.push_back(g.AnyActive());
  });
  CHECK(counts == std::vector<int>{16, 4, 0});
  CHECK(any == std::vector<bool>{true, false});
}
