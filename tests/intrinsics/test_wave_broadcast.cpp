// Tests of WaveReadLaneFirst and WaveReadLaneAt: every type HLSL allows (any<>: bool and numeric,
// scalars and vectors), every wave size, every mask pattern, and the three profiles' answers to
// reads of inactive, helper and out-of-range lanes.
#include "intrinsics/wave_broadcast.h"
#include "intrinsics/wave_query.h"
#include "tests/intrinsics/lane_values.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <string_view>

using namespace waveemu;
using namespace waveemu::test;

#define WAVEEMU_ANY_SHAPES                                                                     \
  Shape<bool>, Shape<int16_t>, Shape<uint16_t>, Shape<int32_t>, Shape<uint32_t>,               \
      Shape<int64_t>, Shape<uint64_t>, Shape<half>, Shape<float>, Shape<double>, Shape<bool, 2>, \
      Shape<float, 3>, Shape<int64_t, 4>, Shape<uint16_t, 2>

namespace {

/// (group size, wave size) pairs: N = 256 gives two waves at W = 128; N = 24 a partial wave.
template <int N>
constexpr bool kFullSweep = N == 256;

template <class S, int N>
void SweepReadLaneFirst(int W) {
  using T = typename S::Scalar;
  using St = StoreOf<T>;
  std::mt19937_64 rng(uint64_t(W) * 7919 + N);
  for (const MaskPattern<N>& p : AllMaskPatterns<N>(W)) {
    const auto in = RandomColumns<T, S::kC, N>([&] { return RandomBits<T>(rng); });
    // Spec: every lane gets expr of the lowest active lane of its wave.
    Columns<St, S::kC, N> expected{};
    for (int t = 0; t < N; ++t) {
      if (!p.mask.Test(t)) continue;
      int first = t / W * W;
      while (!p.mask.Test(first)) ++first;
      for (int c = 0; c < S::kC; ++c) expected[c][t] = St(in[c][first]);
    }
    auto out = SentinelOutputs<S, N>();
    RunGroup<N>(W, [&] {
      Under(p.mask, [&] {
        const auto r = WaveReadLaneFirst(Make<S, N>(in));
        for (int c = 0; c < S::kC; ++c) out[c] = ToStore(Comp(r, c));
      });
    });
    for (int c = 0; c < S::kC; ++c)
      CheckLanes<St, N>(out[c], expected[c], p.mask, Sentinel<T>(), in[c],
                 fmt::format("WaveReadLaneFirst<{}>, N {}, wave size {}, mask {}, component {}",
                             ShapeName<S>(), N, W, p.name, c));
  }
}

/// What reading lane `want` of thread t's wave gives, from the spec text and the profile table:
/// the lane's value when it is an active lane of the wave; otherwise spec poisons, nvidia gives
/// 0, lavapipe gives the register of lane want % W (0 where the partial wave lacks it).
template <class T, int N>
T ExpectedRead(const std::array<T, N>& in, const Mask<N>& active, int t, uint32_t want, int W,
               InactiveRead policy, bool* undefined) {
  const int first = t / W * W;
  const bool in_range = want < uint32_t(W);
  const int src = first + int(want % uint32_t(W));
  *undefined = !(in_range && src < N && active.Test(src));
  if (!*undefined) return in[src];
  if (policy == InactiveRead::kPoison) return Poison<T>();
  if (policy == InactiveRead::kZero || src >= N) return detail::ZeroOf<T>();
  return in[src];
}

const DeviceProfile kProfiles[] = {SpecProfile(), LavapipeProfile(), NvidiaProfile()};

template <class S, int N>
void SweepReadLaneAt(int W, bool uniform_index) {
  using T = typename S::Scalar;
  using St = StoreOf<T>;
  std::mt19937_64 rng(uint64_t(W) * 104729 + N + uniform_index);
  for (const DeviceProfile& profile : kProfiles) {
    for (const MaskPattern<N>& p : AllMaskPatterns<N>(W)) {
      const auto in = RandomColumns<T, S::kC, N>([&] { return RandomBits<T>(rng); });
      // Mostly in range, some past the wave, one huge index.
      std::array<uint32_t, N> lane;
      const uint32_t uniform_lane = uint32_t(rng() % uint64_t(W + W / 4));
      for (int t = 0; t < N; ++t)
        lane[t] = uniform_index ? uniform_lane : uint32_t(rng() % uint64_t(W + W / 4));
      if (!uniform_index) lane[N / 3] = 0xFFFFFFFFu;

      Columns<St, S::kC, N> expected{};
      bool any_undefined = false;
      for (int t = 0; t < N; ++t) {
        if (!p.mask.Test(t)) continue;
        for (int c = 0; c < S::kC; ++c) {
          bool undefined = false;
          expected[c][t] = St(ExpectedRead<T, N>(in[c], p.mask, t, lane[t], W,
                                                 profile.inactive_read, &undefined));
          any_undefined |= undefined;
        }
      }
      auto out = SentinelOutputs<S, N>();
      DispatchShared shared;
      RunGroup<N>(
          W,
          [&] {
            Under(p.mask, [&] {
              const auto r = uniform_index ? WaveReadLaneAt(Make<S, N>(in), uniform_lane)
                                           : WaveReadLaneAt(Make<S, N>(in), Uint<N>(lane));
              for (int c = 0; c < S::kC; ++c) out[c] = ToStore(Comp(r, c));
            });
          },
          profile, &shared);
      const std::string context = fmt::format(
          "WaveReadLaneAt<{}>, {} lane index, profile {}, N {}, wave size {}, mask {}",
          ShapeName<S>(), uniform_index ? "uniform" : "per-thread", profile.name, N, W, p.name);
      for (int c = 0; c < S::kC; ++c)
        CheckLanes<St, N>(out[c], expected[c], p.mask, Sentinel<T>(), lane,
                   fmt::format("{}, component {} (input column: lane index)", context, c));
      // Only the spec profile reports, and only when an active lane read an undefined lane.
      INFO(context);
      const bool reports = profile.inactive_read == InactiveRead::kPoison && any_undefined;
      CHECK((shared.diagnostics.count() > 0) == reports);
      for (const Diagnostic& d : shared.diagnostics.kept())
        CHECK(std::string_view(d.rule).starts_with("WaveReadLaneAt: source lane"));
    }
  }
}

}  // namespace

// ------------------------------ WaveReadLaneFirst

TEST_CASE_TEMPLATE("WaveReadLaneFirst gives every active lane the value of its wave's first "
                   "active lane",
                   S, WAVEEMU_ANY_SHAPES) {
  for (int W : kWaveSizes) SweepReadLaneFirst<S, 256>(W);
  for (int W : {16, 32}) SweepReadLaneFirst<S, 24>(W);
  // Partial last waves: at W = 64 threads 64-99 sit in mask word 1; at W = 128 one wave spans
  // words 0 and 1. N = 1024 spans 16 mask words.
  for (int W : kWaveSizes) SweepReadLaneFirst<S, 100>(W);
  for (int W : {32, 64, 128}) SweepReadLaneFirst<S, 1024>(W);
}

TEST_CASE("WaveReadLaneFirst: wave 8, odd lanes active, reads lane 1; even lanes keep theirs") {
  Uint<8> out = 99u;
  RunGroup<8>(8, [&] {
    const Uint<8> x = WaveGetLaneIndex<8>() * 10u + 5u;  // 5, 15, 25, ...
    (void)if_(WaveGetLaneIndex<8>() % 2u == 1u, [&] { out = WaveReadLaneFirst(x); });
  });
  CHECK(BitsOf(out.lane(0)) == 99u);
  for (int t = 0; t < 8; ++t) CHECK(out.lane(t) == (t % 2 ? 15u : 99u));
}

TEST_CASE("WaveReadLaneFirst skips helper lanes, and each wave of the group reads its own") {
  // 16 threads, wave 8, x = thread index; threads 0 and 8 are helpers, so the first lanes are
  // threads 1 and 9.
  Uint<16> out = 99u;
  Float3<16> out3 = Float3<16>(-1.0f);
  RunGroup<16>(8, [&] {
    Mask<16> helper;
    helper.Set(0, true);
    helper.Set(8, true);
    CurrentGroup<16>().set_helper(helper);
    Uint<16> x;
    for (int t = 0; t < 16; ++t) x.set_lane(t, uint32_t(t));
    out = WaveReadLaneFirst(x);
    out3 = WaveReadLaneFirst(Float3<16>(Float<16>(x), Float<16>(x) + 0.5f, 7.0f));
  });
  for (int t = 1; t < 16; ++t) {
    if (t == 8) continue;
    CHECK(out.lane(t) == (t < 8 ? 1u : 9u));
    CHECK(out3.x.lane(t) == (t < 8 ? 1.0f : 9.0f));
    CHECK(out3.y.lane(t) == (t < 8 ? 1.5f : 9.5f));
    CHECK(out3.z.lane(t) == 7.0f);
  }
}

TEST_CASE("WaveReadLaneFirst on bool: wave 4, lanes 1-3 active, lane 1 holds true") {
  Uint<4> out = 5u;
  RunGroup<4>(4, [&] {
    const Uint<4> lane = WaveGetLaneIndex<4>();
    (void)if_(lane != 0u, [&] { out = Uint<4>(WaveReadLaneFirst(lane == 1u)); });
  });
  CHECK(out.lane(0) == 5u);
  for (int t = 1; t < 4; ++t) CHECK(out.lane(t) == 1u);
}

// ------------------------------ WaveReadLaneAt

TEST_CASE_TEMPLATE("WaveReadLaneAt with a per-thread lane index reads that lane of the wave, and "
                   "undefined reads follow the profile",
                   S, WAVEEMU_ANY_SHAPES) {
  for (int W : kWaveSizes) SweepReadLaneAt<S, 256>(W, false);
  for (int W : {16, 32}) SweepReadLaneAt<S, 24>(W, false);
  for (int W : kWaveSizes) SweepReadLaneAt<S, 100>(W, false);  // partial waves across mask words
  for (int W : {32, 64, 128}) SweepReadLaneAt<S, 1024>(W, false);  // 16 mask words
}

TEST_CASE_TEMPLATE("WaveReadLaneAt with a uniform lane index broadcasts that lane, and undefined "
                   "reads follow the profile",
                   S, WAVEEMU_ANY_SHAPES) {
  for (int W : kWaveSizes) SweepReadLaneAt<S, 256>(W, true);
  for (int W : {16, 32}) SweepReadLaneAt<S, 24>(W, true);
  for (int W : kWaveSizes) SweepReadLaneAt<S, 100>(W, true);      // partial waves across mask words
  for (int W : {32, 64, 128}) SweepReadLaneAt<S, 1024>(W, true);  // 16 mask words
}

namespace {

/// Runs `body` as one group of 8 threads at wave 8 under `profile`, returning the diagnostics.
template <class F>
std::vector<Diagnostic> Run8(const DeviceProfile& profile, F&& body) {
  DispatchShared shared;
  RunGroup<8>(8, body, profile, &shared);
  CHECK(shared.diagnostics.count() == shared.diagnostics.kept().size());
  return shared.diagnostics.kept();
}

}  // namespace

TEST_CASE("WaveReadLaneAt: wave 8, every lane reads its right neighbour (rotate)") {
  Uint<8> out = 0u;
  RunGroup<8>(8, [&] {
    const Uint<8> lane = WaveGetLaneIndex<8>();
    out = WaveReadLaneAt(lane * 10u, (lane + 1u) % 8u);
  });
  const uint32_t expected[8] = {10, 20, 30, 40, 50, 60, 70, 0};
  for (int t = 0; t < 8; ++t) CHECK(out.lane(t) == expected[t]);
}

TEST_CASE("WaveReadLaneAt of an inactive lane: spec poisons and reports, lavapipe gives the "
          "lane's value, nvidia gives 0") {
  // Wave 8, odd lanes active, every active lane reads lane 2 (inactive); x = lane * 10.
  auto run = [](const DeviceProfile& profile, Uint<8>& out) {
    return Run8(profile, [&] {
      const Uint<8> lane = WaveGetLaneIndex<8>();
      (void)if_(lane % 2u == 1u, [&] { out = WaveReadLaneAt(lane * 10u, 2u); });
    });
  };
  Uint<8> spec = 1u, lavapipe = 1u, nvidia = 1u;
  const auto spec_diags = run(SpecProfile(), spec);
  CHECK(run(LavapipeProfile(), lavapipe).empty());
  CHECK(run(NvidiaProfile(), nvidia).empty());
  for (int t = 0; t < 8; ++t) {
    CAPTURE(t);
    CHECK(spec.lane(t) == (t % 2 ? 0xDEADBEEFu : 1u));
    CHECK(lavapipe.lane(t) == (t % 2 ? 20u : 1u));
    CHECK(nvidia.lane(t) == (t % 2 ? 0u : 1u));
  }
  REQUIRE(spec_diags.size() == 1);
  CHECK(spec_diags[0].rule == "WaveReadLaneAt: source lane is inactive (undefined in HLSL)");
  CHECK(spec_diags[0].details.find("thread 1 (wave 0 lane 1) read lane 2") != std::string::npos);
}

TEST_CASE("WaveReadLaneAt of a helper lane is undefined: spec reports it as a helper read, "
          "lavapipe gives the helper's value") {
  auto run = [](const DeviceProfile& profile, Float<8>& out) {
    return Run8(profile, [&] {
      Mask<8> helper;
      helper.Set(3, true);
      CurrentGroup<8>().set_helper(helper);
      out = WaveReadLaneAt(Float<8>(WaveGetLaneIndex<8>()) + 0.25f, 3u);
    });
  };
  Float<8> spec = 0.0f, lavapipe = 0.0f;
  const auto diags = run(SpecProfile(), spec);
  CHECK(run(LavapipeProfile(), lavapipe).empty());
  for (int t = 0; t < 8; ++t) {
    if (t == 3) continue;
    CHECK(BitsOf(spec.lane(t)) == 0x7FC0DEADu);
    CHECK(lavapipe.lane(t) == 3.25f);
  }
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].rule == "WaveReadLaneAt: source lane is a helper lane (undefined in HLSL)");
}

TEST_CASE("WaveReadLaneAt past the wave: spec reports out of range, lavapipe reads lane % W, "
          "nvidia gives 0") {
  auto run = [](const DeviceProfile& profile, Int<8>& out) {
    return Run8(profile, [&] { out = WaveReadLaneAt(Int<8>(WaveGetLaneIndex<8>()) - 4, 10u); });
  };
  Int<8> spec = 0, lavapipe = 0, nvidia = 5;
  const auto diags = run(SpecProfile(), spec);
  CHECK(run(LavapipeProfile(), lavapipe).empty());
  CHECK(run(NvidiaProfile(), nvidia).empty());
  for (int t = 0; t < 8; ++t) {
    CHECK(uint32_t(spec.lane(t)) == 0xDEADBEEFu);
    CHECK(lavapipe.lane(t) == -2);  // lane 10 % 8 = 2 holds 2 - 4
    CHECK(nvidia.lane(t) == 0);
  }
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].rule == "WaveReadLaneAt: source lane is out of range (undefined in HLSL)");
}

TEST_CASE("WaveReadLaneAt in a partial wave: a lane the group lacks is inactive (lavapipe: 0)") {
  // 24 threads at wave 16: wave 1 has lanes 0-7 only; its threads read lanes 5 and 12.
  Uint<24> out = 0u;
  DispatchShared shared;
  RunGroup<24>(
      16,
      [&] {
        const Uint<24> lane = WaveGetLaneIndex<24>();
        out = WaveReadLaneAt(lane + 100u, select<uint32_t>(lane % 2u == 0u, 5u, 12u));
      },
      LavapipeProfile(), &shared);
  for (int t = 16; t < 24; ++t) CHECK(out.lane(t) == (t % 2 == 0 ? 105u : 0u));
  for (int t = 0; t < 16; ++t) CHECK(out.lane(t) == (t % 2 == 0 ? 105u : 112u));
  CHECK(shared.diagnostics.count() == 0);
}

TEST_CASE("WaveReadLaneAt: inactive threads never report, even when their index is bad") {
  const auto diags = Run8(SpecProfile(), [&] {
    const Uint<8> lane = WaveGetLaneIndex<8>();
    Uint<8> out = 0u;
    // Active lanes 0-3 read lanes 0-3; lanes 4-7 would read lane 50, but they are inactive.
    (void)if_(lane < 4u, [&] { out = WaveReadLaneAt(lane, select<uint32_t>(lane < 4u, lane, 50u)); });
  });
  CHECK(diags.empty());
}
