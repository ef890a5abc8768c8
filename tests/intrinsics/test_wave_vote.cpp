// Tests of WaveActiveAnyTrue, WaveActiveAllTrue and WaveActiveBallot: every wave size, every mask
// pattern, several input densities, a partial group, helper lanes, and hand-worked ballots.
#include "intrinsics/quad.h"
#include "intrinsics/wave_query.h"
#include "intrinsics/wave_reduce.h"
#include "intrinsics/wave_scan.h"
#include "intrinsics/wave_vote.h"
#include "tests/intrinsics/lane_values.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>

using namespace waveemu;
using namespace waveemu::test;

namespace {

constexpr uint32_t kSentinel = 0xC0FFEEu;

template <int N>
void SweepVote(int W) {
  std::mt19937_64 rng(uint64_t(W) * 31 + N);
  // Input densities: all false, all true, half, one in eight.
  for (int density : {0, 8, 4, 1}) {
    for (const MaskPattern<N>& p : AllMaskPatterns<N>(W)) {
      std::array<bool, N> in;
      for (auto& b : in) b = int(rng() % 8) < density;
      // Spec, per wave: any/all over the active lanes; ballot bit l % 32 of component l / 32 for
      // active lanes l with expr true.
      std::array<uint32_t, N> want_any{}, want_all{};
      std::array<std::array<uint32_t, N>, 4> want_ballot{};
      for (int t = 0; t < N; ++t) {
        if (!p.mask.Test(t)) continue;
        bool any = false, all = true;
        uint32_t ballot[4] = {0, 0, 0, 0};
        for (int u = t / W * W; u < std::min(N, t / W * W + W); ++u) {
          if (!p.mask.Test(u)) continue;
          any = any || in[u];
          all = all && in[u];
          if (in[u]) ballot[(u % W) / 32] |= 1u << (u % W % 32);
        }
        want_any[t] = any;
        want_all[t] = all;
        for (int c = 0; c < 4; ++c) want_ballot[c][t] = ballot[c];
      }
      Bool<N> x;
      for (int t = 0; t < N; ++t) x.set_lane(t, in[t]);
      Uint<N> any = kSentinel, all = kSentinel;
      Uint4<N> ballot = Uint4<N>(kSentinel);
      RunGroup<N>(W, [&] {
        Under(p.mask, [&] {
          any = Uint<N>(WaveActiveAnyTrue(x));
          all = Uint<N>(WaveActiveAllTrue(x));
          ballot = WaveActiveBallot(x);
        });
      });
      const std::string context =
          fmt::format("N {}, wave size {}, mask {}, density {}/8", N, W, p.name, density);
      CheckLanes<uint32_t, N>(any, want_any, p.mask, kSentinel, in, "WaveActiveAnyTrue, " + context);
      CheckLanes<uint32_t, N>(all, want_all, p.mask, kSentinel, in, "WaveActiveAllTrue, " + context);
      for (int c = 0; c < 4; ++c)
        CheckLanes<uint32_t, N>(ballot[c], want_ballot[c], p.mask, kSentinel, in,
                                fmt::format("WaveActiveBallot component {}, {}", c, context));
    }
  }
}

}  // namespace

TEST_CASE("WaveActiveAnyTrue, WaveActiveAllTrue and WaveActiveBallot match a per-wave loop over "
          "the active lanes, under every mask") {
  for (int W : kWaveSizes) SweepVote<256>(W);
  for (int W : {16, 32}) SweepVote<24>(W);
  // Partial last waves: at W = 64 threads 64-99 sit in mask word 1; at W = 128 one wave spans
  // words 0 and 1. N = 1024 spans 16 mask words.
  for (int W : kWaveSizes) SweepVote<100>(W);
  for (int W : kWaveSizes) SweepVote<1024>(W);
  SweepVote<6>(8);
}

TEST_CASE("WaveActiveBallot: wave 8, odd lanes hold true, the ballot is 0xAA on every lane") {
  Uint4<8> out = Uint4<8>(7u);
  RunGroup<8>(8, [&] { out = WaveActiveBallot(WaveGetLaneIndex<8>() % 2u == 1u); });
  for (int t = 0; t < 8; ++t) {
    CHECK(out.x.lane(t) == 0xAAu);
    CHECK(out.y.lane(t) == 0u);
    CHECK(out.z.lane(t) == 0u);
    CHECK(out.w.lane(t) == 0u);
  }
}

TEST_CASE("WaveActiveBallot: wave 128, only lane 100 votes, so component w has bit 4 set") {
  Uint4<128> out = Uint4<128>(7u);
  RunGroup<128>(128, [&] { out = WaveActiveBallot(WaveGetLaneIndex<128>() == 100u); });
  for (int t = 0; t < 128; ++t) {
    CHECK(out.x.lane(t) == 0u);
    CHECK(out.y.lane(t) == 0u);
    CHECK(out.z.lane(t) == 0u);
    CHECK(out.w.lane(t) == 0x10u);  // 100 = 3 * 32 + 4
  }
}

TEST_CASE("WaveActiveBallot of true is the active mask, and only inactive lanes keep their value") {
  // Wave 8, lanes 2-5 active: ballot(true) = 0b0011'1100.
  Uint4<8> out = Uint4<8>(7u);
  RunGroup<8>(8, [&] {
    const Uint<8> lane = WaveGetLaneIndex<8>();
    (void)if_(lane >= 2u && lane <= 5u, [&] { out = WaveActiveBallot<8>(true); });
  });
  for (int t = 0; t < 8; ++t) CHECK(out.x.lane(t) == (t >= 2 && t <= 5 ? 0x3Cu : 7u));
}

TEST_CASE("Helper lanes neither vote nor count: a quad with lane 2 a helper ballots 0xB") {
  // As the D3D conformance test HelperLane_PS: 3 covered pixels, ballot(true) = 0xB.
  Uint4<4> ballot = Uint4<4>(7u);
  Uint<4> any = 7u, all = 7u;
  RunGroup<4>(4, [&] {
    Mask<4> helper;
    helper.Set(2, true);
    CurrentGroup<4>().set_helper(helper);
    const Uint<4> lane = WaveGetLaneIndex<4>();
    ballot = WaveActiveBallot<4>(true);
    any = Uint<4>(WaveActiveAnyTrue(lane == 2u));  // only the helper holds true
    all = Uint<4>(WaveActiveAllTrue(lane != 2u));  // only the helper holds false
  });
  for (int t : {0, 1, 3}) {
    CHECK(ballot.x.lane(t) == 0xBu);
    CHECK(any.lane(t) == 0u);
    CHECK(all.lane(t) == 1u);
  }
}

TEST_CASE("Waves of one group vote separately: wave 4, only thread 5 holds true") {
  Uint<12> any = 7u, all = 7u;
  Uint4<12> ballot = Uint4<12>(7u);
  RunGroup<12>(4, [&] {
    Uint<12> thread;
    for (int t = 0; t < 12; ++t) thread.set_lane(t, uint32_t(t));
    any = Uint<12>(WaveActiveAnyTrue(thread == 5u));
    all = Uint<12>(WaveActiveAllTrue(thread != 5u));
    ballot = WaveActiveBallot(thread == 5u);
  });
  for (int t = 0; t < 12; ++t) {
    CAPTURE(t);
    CHECK(any.lane(t) == (t / 4 == 1 ? 1u : 0u));
    CHECK(all.lane(t) == (t / 4 == 1 ? 0u : 1u));
    CHECK(ballot.x.lane(t) == (t / 4 == 1 ? 0x2u : 0u));
  }
}

TEST_CASE("Vote intrinsics convert a numeric argument to bool, as HLSL does (x != 0)") {
  Uint4<8> ballot = Uint4<8>(7u);
  Uint<8> any = 7u, all = 7u;
  RunGroup<8>(8, [&] {
    const Uint<8> x = WaveGetLaneIndex<8>() & 3u;  // 0 on lanes 0 and 4
    ballot = WaveActiveBallot(x);
    any = Uint<8>(WaveActiveAnyTrue(x));
    all = Uint<8>(WaveActiveAllTrue(x));
  });
  CHECK(ballot.x.lane(0) == 0xEEu);
  CHECK(any.lane(0) == 1u);
  CHECK(all.lane(0) == 0u);
}

TEST_CASE("CountBits, PrefixCountBits, QuadAny and QuadAll convert a numeric argument too") {
  // HLSL: uint x = lane & 3; WaveActiveCountBits(x); WavePrefixCountBits(x); QuadAny(x); ...
  // and a float with NaN and -0: (bool)NaN is true, (bool)-0.0 is false.
  Uint<8> count(0u), prefix(0u), quad_any(0u), quad_all(0u), fcount(0u), not_x(0u), not_f(0u);
  RunGroup<8>(8, [&] {
    const Uint<8> x = WaveGetLaneIndex<8>() & 3u;  // 0 on lanes 0 and 4
    count = WaveActiveCountBits<8>(x);  // <N> written out works too
    prefix = WavePrefixCountBits(x);
    quad_any = Uint<8>(QuadAny(x));
    quad_all = Uint<8>(QuadAll<8>(x));
    const Float<8> f(std::array<float, 8>{0.0f, -0.0f, std::nanf(""), 1.0f, 0.0f, 0.0f, 0.0f,
                                          -2.0f});
    fcount = WaveActiveCountBits(f);
    not_x = Uint<8>(!x);  // HLSL !x on numbers: x == 0
    not_f = Uint<8>(!f);
  });
  const bool x_true[8] = {false, true, true, true, false, true, true, true};
  uint32_t below = 0;
  for (int t = 0; t < 8; ++t) {
    CHECK(count.lane(t) == 6u);
    CHECK(prefix.lane(t) == below);
    below += x_true[t] ? 1u : 0u;
    CHECK(quad_any.lane(t) == 1u);  // every quad has a non-zero lane
    CHECK(quad_all.lane(t) == 0u);  // lanes 0 and 4 are zero: both quads fail
    CHECK(fcount.lane(t) == 3u);    // NaN, 1, -2
    CHECK(not_x.lane(t) == (x_true[t] ? 0u : 1u));
    CHECK(not_f.lane(t) == (t == 0 || t == 1 || (t >= 4 && t <= 6) ? 1u : 0u));  // 0, -0
  }
}
