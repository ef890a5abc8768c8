// Tests of the quad intrinsics: QuadReadAcrossX/Y/Diagonal and QuadReadLaneAt over every numeric
// type, wave size, mask pattern and profile (reads of inactive lanes, quad lane IDs past 3), and
// QuadAny/QuadAll including partly active quads and helper lanes.
#include "intrinsics/quad.h"
#include "intrinsics/wave_query.h"
#include "tests/intrinsics/lane_values.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <string_view>

using namespace waveemu;
using namespace waveemu::test;

#define WAVEEMU_NUMERIC_SHAPES                                                                \
  Shape<int16_t>, Shape<uint16_t>, Shape<int32_t>, Shape<uint32_t>, Shape<int64_t>,           \
      Shape<uint64_t>, Shape<half>, Shape<float>, Shape<double>, Shape<float, 4>,             \
      Shape<int32_t, 2>

namespace {

const DeviceProfile kProfiles[] = {SpecProfile(), LavapipeProfile(), NvidiaProfile()};

/// Which quad read a sweep runs.
enum class QuadOp { kAcrossX, kAcrossY, kDiagonal, kLaneAtUniform, kLaneAtVarying };
constexpr QuadOp kQuadOps[] = {QuadOp::kAcrossX, QuadOp::kAcrossY, QuadOp::kDiagonal,
                               QuadOp::kLaneAtUniform, QuadOp::kLaneAtVarying};
constexpr const char* kQuadOpNames[] = {"QuadReadAcrossX", "QuadReadAcrossY",
                                        "QuadReadAcrossDiagonal", "QuadReadLaneAt (uniform ID)",
                                        "QuadReadLaneAt (per-thread ID)"};

template <class S, int N>
void SweepQuadRead(int W) {
  using T = typename S::Scalar;
  using St = StoreOf<T>;
  std::mt19937_64 rng(uint64_t(W) * 389 + N);
  for (QuadOp op : kQuadOps) {
    for (const DeviceProfile& profile : kProfiles) {
      for (const MaskPattern<N>& p : AllMaskPatterns<N>()) {
        const auto in = RandomColumns<T, S::kC, N>([&] { return RandomBits<T>(rng); });
        // The quad lane each thread asks for; per-thread IDs are sometimes past 3.
        std::array<uint32_t, N> id;
        const uint32_t uniform_id = uint32_t(rng() % 4);
        for (int t = 0; t < N; ++t) {
          switch (op) {
            case QuadOp::kAcrossX: id[t] = uint32_t(t % 4 ^ 1); break;
            case QuadOp::kAcrossY: id[t] = uint32_t(t % 4 ^ 2); break;
            case QuadOp::kDiagonal: id[t] = uint32_t(t % 4 ^ 3); break;
            case QuadOp::kLaneAtUniform: id[t] = uniform_id; break;
            case QuadOp::kLaneAtVarying: id[t] = uint32_t(rng() % 5); break;
          }
        }
        // Spec: the value of quad lane id of thread t's quad (threads 4q..4q+3). Reading a lane
        // that is not active is undefined (spec poison, nvidia 0, lavapipe the lane's register,
        // 0 for a thread the group lacks); an ID past 3 is undefined (spec poison, others
        // read quad lane id & 3).
        Columns<St, S::kC, N> expected{};
        bool any_undefined = false;
        for (int t = 0; t < N; ++t) {
          if (!p.mask.Test(t)) continue;
          const bool bad_id = id[t] > 3;
          const int src = t / 4 * 4 + int(id[t] % 4);
          const bool defined = src < N && p.mask.Test(src);
          any_undefined = any_undefined || bad_id || !defined;
          for (int c = 0; c < S::kC; ++c) {
            T v;
            if (bad_id && profile.poison_undefined) v = Poison<T>();
            else if (defined) v = in[c][src];
            else if (profile.inactive_read == InactiveRead::kPoison) v = Poison<T>();
            else if (profile.inactive_read == InactiveRead::kZero || src >= N) v = detail::ZeroOf<T>();
            else v = in[c][src];
            expected[c][t] = St(v);
          }
        }
        auto out = SentinelOutputs<S, N>();
        DispatchShared shared;
        RunGroup<N>(
            W,
            [&] {
              Under(p.mask, [&] {
                const ValueOf<S, N> x = Make<S, N>(in);
                ValueOf<S, N> r;
                switch (op) {
                  case QuadOp::kAcrossX: r = QuadReadAcrossX(x); break;
                  case QuadOp::kAcrossY: r = QuadReadAcrossY(x); break;
                  case QuadOp::kDiagonal: r = QuadReadAcrossDiagonal(x); break;
                  case QuadOp::kLaneAtUniform: r = QuadReadLaneAt(x, uniform_id); break;
                  case QuadOp::kLaneAtVarying: r = QuadReadLaneAt(x, Uint<N>(id)); break;
                }
                for (int c = 0; c < S::kC; ++c) out[c] = ToStore(Comp(r, c));
              });
            },
            profile, &shared);
        const std::string context =
            fmt::format("{}<{}>, profile {}, N {}, wave size {}, mask {}", kQuadOpNames[int(op)],
                        ShapeName<S>(), profile.name, N, W, p.name);
        for (int c = 0; c < S::kC; ++c)
          CheckLanes<St, N>(out[c], expected[c], p.mask, Sentinel<T>(), id,
                            fmt::format("{}, component {} (input: quad lane ID)", context, c));
        INFO(context);
        CHECK((shared.diagnostics.count() > 0) == (any_undefined && profile.poison_undefined));
        for (const Diagnostic& d : shared.diagnostics.kept())
          CHECK(std::string_view(d.rule).starts_with("QuadRead"));
      }
    }
  }
}

template <int N>
void SweepQuadVote(int W) {
  std::mt19937_64 rng(uint64_t(W) * 17 + N);
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    for (int density : {0, 4, 7, 8}) {
      for (const MaskPattern<N>& p : AllMaskPatterns<N>()) {
        std::array<bool, N> in;
        for (auto& b : in) b = int(rng() % 8) < density;
        // Spec: OR / AND over the quad's lanes; a quad with only some of its lanes active is
        // undefined (spec: poison false and a diagnostic; lavapipe: over its active lanes).
        std::array<uint32_t, N> want_any{}, want_all{};
        bool any_partial = false;
        for (int t = 0; t < N; ++t) {
          if (!p.mask.Test(t)) continue;
          bool any = false, all = true, partial = false;
          for (int u = t / 4 * 4; u < std::min(N, t / 4 * 4 + 4); ++u) {
            if (!p.mask.Test(u)) {
              partial = true;
              continue;
            }
            any = any || in[u];
            all = all && in[u];
          }
          any_partial = any_partial || partial;
          want_any[t] = partial && profile.poison_undefined ? 0u : any;
          want_all[t] = partial && profile.poison_undefined ? 0u : all;
        }
        Bool<N> x;
        for (int t = 0; t < N; ++t) x.set_lane(t, in[t]);
        Uint<N> any = 7u, all = 7u;
        DispatchShared shared;
        RunGroup<N>(
            W,
            [&] {
              Under(p.mask, [&] {
                any = Uint<N>(QuadAny(x));
                all = Uint<N>(QuadAll(x));
              });
            },
            profile, &shared);
        const std::string context = fmt::format("profile {}, N {}, wave size {}, mask {}, "
                                                "density {}/8",
                                                profile.name, N, W, p.name, density);
        CheckLanes<uint32_t, N>(any, want_any, p.mask, 7u, in, "QuadAny, " + context);
        CheckLanes<uint32_t, N>(all, want_all, p.mask, 7u, in, "QuadAll, " + context);
        INFO(context);
        // One diagnostic per call (QuadAny and QuadAll) when some quad is partly active.
        CHECK(shared.diagnostics.count() == (any_partial && profile.poison_undefined ? 2u : 0u));
      }
    }
  }
}

}  // namespace

// ------------------------------ quad reads

TEST_CASE_TEMPLATE("Quad reads give the partner lane's value of the quad, and reads of inactive "
                   "lanes or bad IDs follow the profile",
                   S, WAVEEMU_NUMERIC_SHAPES) {
  for (int W : kWaveSizes) SweepQuadRead<S, 256>(W);
  for (int W : {16, 32}) SweepQuadRead<S, 24>(W);
}

TEST_CASE("Quad reads: wave 8, x = lane * 10, all lanes active") {
  Uint<8> x_out = 0u, y_out = 0u, d_out = 0u, at_out = 0u;
  RunGroup<8>(8, [&] {
    const Uint<8> x = WaveGetLaneIndex<8>() * 10u;
    x_out = QuadReadAcrossX(x);
    y_out = QuadReadAcrossY(x);
    d_out = QuadReadAcrossDiagonal(x);
    at_out = QuadReadLaneAt(x, 2u);
  });
  const uint32_t want_x[8] = {10, 0, 30, 20, 50, 40, 70, 60};
  const uint32_t want_y[8] = {20, 30, 0, 10, 60, 70, 40, 50};
  const uint32_t want_d[8] = {30, 20, 10, 0, 70, 60, 50, 40};
  const uint32_t want_at[8] = {20, 20, 20, 20, 60, 60, 60, 60};
  for (int t = 0; t < 8; ++t) {
    CAPTURE(t);
    CHECK(x_out.lane(t) == want_x[t]);
    CHECK(y_out.lane(t) == want_y[t]);
    CHECK(d_out.lane(t) == want_d[t]);
    CHECK(at_out.lane(t) == want_at[t]);
  }
}

TEST_CASE("Quad reads see helper lanes: reading a helper is defined and reports nothing") {
  DispatchShared shared;
  Float<4> out = 0.0f;
  RunGroup<4>(
      4,
      [&] {
        Mask<4> helper;
        helper.Set(1, true);
        CurrentGroup<4>().set_helper(helper);
        out = QuadReadAcrossX(Float<4>(WaveGetLaneIndex<4>()) + 0.5f);
      },
      SpecProfile(), &shared);
  const float expected[4] = {1.5f, 0.5f, 3.5f, 2.5f};
  for (int t = 0; t < 4; ++t) CHECK(out.lane(t) == expected[t]);
  CHECK(shared.diagnostics.count() == 0);
}

TEST_CASE("QuadReadAcrossX of an inactive lane: spec poisons and reports, lavapipe gives the "
          "lane's value, nvidia gives 0") {
  // Wave 4, lane 1 inactive; lane 0 reads it.
  auto run = [](const DeviceProfile& profile, std::vector<Diagnostic>* diags) {
    DispatchShared shared;
    Uint<4> out = 7u;
    RunGroup<4>(
        4,
        [&] {
          const Uint<4> lane = WaveGetLaneIndex<4>();
          (void)if_(lane != 1u, [&] { out = QuadReadAcrossX(lane + 100u); });
        },
        profile, &shared);
    *diags = shared.diagnostics.kept();
    return out;
  };
  std::vector<Diagnostic> spec_diags, other_diags;
  CHECK(run(SpecProfile(), &spec_diags).lane(0) == 0xDEADBEEFu);
  CHECK(run(LavapipeProfile(), &other_diags).lane(0) == 101u);
  CHECK(other_diags.empty());
  CHECK(run(NvidiaProfile(), &other_diags).lane(0) == 0u);
  CHECK(other_diags.empty());
  REQUIRE(spec_diags.size() == 1);
  CHECK(spec_diags[0].rule == "QuadReadAcrossX: source lane is inactive (undefined in HLSL)");
}

TEST_CASE("QuadReadLaneAt with quad lane ID 5: spec poisons and reports, lavapipe reads lane 1") {
  DispatchShared spec_shared, lavapipe_shared;
  Uint<4> spec = 0u, lavapipe = 0u;
  auto body = [](Uint<4>& out) {
    return [&out] { out = QuadReadLaneAt(WaveGetLaneIndex<4>() + 100u, 5u); };
  };
  RunGroup<4>(4, body(spec), SpecProfile(), &spec_shared);
  RunGroup<4>(4, body(lavapipe), LavapipeProfile(), &lavapipe_shared);
  for (int t = 0; t < 4; ++t) {
    CHECK(spec.lane(t) == 0xDEADBEEFu);
    CHECK(lavapipe.lane(t) == 101u);
  }
  REQUIRE(spec_shared.diagnostics.count() == 1);
  CHECK(spec_shared.diagnostics.kept()[0].rule ==
        "QuadReadLaneAt: quadLaneID is outside 0..3 (undefined in HLSL)");
  CHECK(lavapipe_shared.diagnostics.count() == 0);
}

TEST_CASE("QuadReadLaneAt with a bad quad lane ID whose low bits name an inactive lane: one report") {
  // ID 5's low bits name lane 1, which is off: the read is undefined because of the ID, and is
  // reported once, as a bad ID (not also as a read of an inactive lane).
  DispatchShared shared;
  Uint<4> r(7u);
  RunGroup<4>(4, [&] {
    const Uint<4> lane = WaveGetLaneIndex<4>();
    if_(lane != 1u, [&] { r = QuadReadLaneAt(lane + 100u, 5u); });
  }, SpecProfile(), &shared);
  const std::array<uint32_t, 4> want{0xDEADBEEFu, 7u, 0xDEADBEEFu, 0xDEADBEEFu};
  for (int t = 0; t < 4; ++t) CHECK(r.lane(t) == want[t]);
  REQUIRE(shared.diagnostics.count() == 1);
  CHECK(shared.diagnostics.kept()[0].rule ==
        "QuadReadLaneAt: quadLaneID is outside 0..3 (undefined in HLSL)");
}

// ------------------------------ QuadAny / QuadAll

TEST_CASE("QuadAny and QuadAll vote over each quad; a partly active quad is undefined (spec: "
          "reported) and otherwise votes over its active lanes") {
  for (int W : kWaveSizes) SweepQuadVote<256>(W);
  for (int W : {16, 32}) SweepQuadVote<24>(W);
  SweepQuadVote<6>(8);  // a partial last quad: its missing threads do not count
}

TEST_CASE("QuadAny/QuadAll: wave 8, only lane 1 holds true; helper lanes vote") {
  Uint<8> any = 7u, all = 7u, all_with_helper = 7u;
  RunGroup<8>(8, [&] {
    const Uint<8> lane = WaveGetLaneIndex<8>();
    any = Uint<8>(QuadAny(lane == 1u));
    all = Uint<8>(QuadAll(lane != 1u));
    // Lane 6 is a helper holding false: quad 1 is not all true.
    Mask<8> helper;
    helper.Set(6, true);
    CurrentGroup<8>().set_helper(helper);
    all_with_helper = Uint<8>(QuadAll(lane != 6u));
  });
  for (int t = 0; t < 8; ++t) {
    CAPTURE(t);
    CHECK(any.lane(t) == (t < 4 ? 1u : 0u));
    CHECK(all.lane(t) == (t < 4 ? 0u : 1u));
    CHECK(all_with_helper.lane(t) == (t < 4 ? 1u : 0u));
  }
}

TEST_CASE("QuadAny in a partly active quad: spec reports non-quad-uniform flow") {
  DispatchShared shared;
  Uint<8> out = 7u;
  RunGroup<8>(
      8,
      [&] {
        const Uint<8> lane = WaveGetLaneIndex<8>();
        (void)if_(lane != 2u, [&] { out = Uint<8>(QuadAny<8>(true)); });
      },
      SpecProfile(), &shared);
  REQUIRE(shared.diagnostics.count() == 1);
  CHECK(std::string_view(shared.diagnostics.kept()[0].rule)
            .starts_with("QuadAny: called with part of a quad active"));
  const uint32_t expected[8] = {0, 0, 7, 0, 1, 1, 1, 1};  // quad 0 poisoned (false)
  for (int t = 0; t < 8; ++t) CHECK(out.lane(t) == expected[t]);
}
