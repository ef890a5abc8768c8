// Tests of WaveMatch and the WaveMultiPrefix* family (SM 6.5): every allowed type, wave size and
// mask pattern, with partitioning masks and with masks that do not partition (spec: poison and a
// diagnostic; lavapipe: each lane scans its own mask), plus hand-worked cases.
#include "intrinsics/wave_multi.h"
#include "intrinsics/wave_query.h"
#include "tests/intrinsics/lane_values.h"
#include "tests/support/check_lanes.h"
#include "tests/support/half_reference.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <bitset>
#include <string_view>

using namespace waveemu;
using namespace waveemu::test;

#define WAVEEMU_NUMERIC_SHAPES                                                                \
  Shape<int16_t>, Shape<uint16_t>, Shape<int32_t>, Shape<uint32_t>, Shape<int64_t>,           \
      Shape<uint64_t>, Shape<half>, Shape<float>, Shape<double>, Shape<float, 3>,             \
      Shape<uint16_t, 2>
#define WAVEEMU_INT_SHAPES                                                                    \
  Shape<int16_t>, Shape<uint16_t>, Shape<int32_t>, Shape<uint32_t>, Shape<int64_t>,           \
      Shape<uint64_t>, Shape<uint32_t, 4>, Shape<int16_t, 2>

namespace {

using Lanes128 = std::bitset<128>;

/// Lane set of a uint4 mask: lane i is bit i % 32 of component i / 32.
Lanes128 SetOf(const std::array<uint32_t, 4>& m) {
  Lanes128 s;
  for (int i = 0; i < 128; ++i) s[i] = (m[i / 32] >> (i % 32)) & 1u;
  return s;
}

template <class T>
bool RefEqual(T a, T b, FloatEquality eq) {
  if constexpr (kIsFloatLike<T>) {
    if (eq != FloatEquality::kOrdered) return BitsOf(a) == BitsOf(b);  // WaveMatch: bits
    return float(a) == float(b) || double(a) == double(b);
  } else {
    return a == b;
  }
}

// ------------------------------ WaveMatch sweep

template <class S, int N>
void SweepMatch(int W) {
  using T = typename S::Scalar;
  std::mt19937_64 rng(uint64_t(W) * 613 + N);
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    for (const MaskPattern<N>& p : AllMaskPatterns<N>()) {
      const auto in = RandomColumns<T, S::kC, N>([&] { return SmallValue<T>(rng, 3); });
      // Spec: bit of every active lane of the wave whose value equals this lane's (all
      // components), and this lane's own bit.
      std::array<std::array<uint32_t, N>, 4> expected{};
      for (int t = 0; t < N; ++t) {
        if (!p.mask.Test(t)) continue;
        for (int u = t / W * W; u < std::min(N, t / W * W + W); ++u) {
          bool same = u == t || p.mask.Test(u);
          for (int c = 0; c < S::kC; ++c)
            same = same && (u == t || RefEqual(in[c][u], in[c][t], profile.float_equality));
          if (same) expected[(u % W) / 32][t] |= 1u << (u % W % 32);
        }
      }
      Uint4<N> out = Uint4<N>(0xC0FFEEu);
      RunGroup<N>(W, [&] { Under(p.mask, [&] { out = WaveMatch(Make<S, N>(in)); }); }, profile);
      for (int c = 0; c < 4; ++c)
        CheckLanes<uint32_t, N>(out[c], expected[c], p.mask, 0xC0FFEEu, in[0],
                                fmt::format("WaveMatch<{}> component {}, profile {}, N {}, wave "
                                            "size {}, mask {} (input: component 0)",
                                            ShapeName<S>(), c, profile.name, N, W, p.name));
    }
  }
}

// ------------------------------ multi-prefix sweep

/// A half result rounded from its exact double value (half_reference.h); NaNs keep half's own
/// payload rule (`fallback`), pinned down by other tests.
inline half HalfRef(double exact, half fallback) {
  return std::isnan(exact) ? fallback : test::RoundToHalf(exact);
}

struct SumRef {
  static constexpr const char* kName = "WaveMultiPrefixSum";
  template <class T> static T Identity() { return T(0); }
  template <class T> static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return T(uint64_t(a) + uint64_t(b));  // wraps
    else if constexpr (std::is_same_v<T, half>) return HalfRef(double(float(a)) + float(b), a + b);
    else return T(a + b);
  }
  template <class V, int N> static auto Call(const V& v, const Uint4<N>& m) {
    return WaveMultiPrefixSum(v, m);
  }
};
struct ProductRef {
  static constexpr const char* kName = "WaveMultiPrefixProduct";
  template <class T> static T Identity() { return T(1); }
  template <class T> static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return T(uint64_t(a) * uint64_t(b));  // wraps
    else if constexpr (std::is_same_v<T, half>) return HalfRef(double(float(a)) * float(b), a * b);
    else return T(a * b);
  }
  template <class V, int N> static auto Call(const V& v, const Uint4<N>& m) {
    return WaveMultiPrefixProduct(v, m);
  }
};
struct BitAndRef {
  static constexpr const char* kName = "WaveMultiPrefixBitAnd";
  template <class T> static T Identity() { return T(~T(0)); }
  template <class T> static T Apply(T a, T b) { return T(a & b); }
  template <class V, int N> static auto Call(const V& v, const Uint4<N>& m) {
    return WaveMultiPrefixBitAnd(v, m);
  }
};
struct BitOrRef {
  static constexpr const char* kName = "WaveMultiPrefixBitOr";
  template <class T> static T Identity() { return T(0); }
  template <class T> static T Apply(T a, T b) { return T(a | b); }
  template <class V, int N> static auto Call(const V& v, const Uint4<N>& m) {
    return WaveMultiPrefixBitOr(v, m);
  }
};
struct BitXorRef {
  static constexpr const char* kName = "WaveMultiPrefixBitXor";
  template <class T> static T Identity() { return T(0); }
  template <class T> static T Apply(T a, T b) { return T(a ^ b); }
  template <class V, int N> static auto Call(const V& v, const Uint4<N>& m) {
    return WaveMultiPrefixBitXor(v, m);
  }
};

/// Inputs: integers any bits (so sums and products wrap); floats values whose sums depend on the
/// order (so the lane order is pinned); products near 1.
template <class Ref, class T>
T MultiInput(std::mt19937_64& rng) {
  if constexpr (std::is_integral_v<T>) {
    return RandomBits<T>(rng);
  } else if constexpr (std::is_same_v<Ref, ProductRef>) {
    return T(1.0f + float(int(rng() % 65) - 32) / 256.0f);
  } else {
    return T(float(int(rng() % 2001) - 1000) / 7.0f);
  }
}

/// Per-thread uint4 masks of one kind: 0 = a partition (lanes with the same random group id, of
/// `groups` ids, inactive lanes included), 1 = random bits with the own bit usually set (rarely a
/// partition). Bits past the wave size are random junk, which must be ignored.
template <int N>
std::array<std::array<uint32_t, 4>, N> MakeMasks(std::mt19937_64& rng, int W, int kind,
                                                 int groups) {
  std::array<int, N> id;
  for (auto& g : id) g = int(rng() % uint64_t(groups));
  std::array<std::array<uint32_t, 4>, N> m{};
  for (int t = 0; t < N; ++t) {
    for (int l = 0; l < W; ++l) {
      const int u = t / W * W + l;
      const bool on = kind == 0 ? u < N && id[u] == id[t]
                      : l == t % W ? rng() % 8 != 0
                                   : rng() % 3 == 0;
      if (on) m[t][l / 32] |= 1u << (l % 32);
    }
    for (int c = 0; c < 4; ++c) {
      const uint32_t junk = uint32_t(rng());
      if (32 * c >= W) m[t][c] = junk;
      else if (32 * c + 32 > W) m[t][c] |= junk & ~((1u << (W % 32)) - 1u);
    }
  }
  return m;
}

template <class Ref, class S, int N>
void SweepMultiPrefix(int W) {
  using T = typename S::Scalar;
  std::mt19937_64 rng(uint64_t(W) * 1543 + N);
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    for (int kind : {0, 1}) {
      // Partitions are defined, so one profile suffices for them.
      if (kind == 0 && !profile.poison_undefined) continue;
      for (const MaskPattern<N>& p : AllMaskPatterns<N>()) {
        const int groups = 1 + int(rng() % 4);
        const auto in = RandomColumns<T, S::kC, N>([&] { return MultiInput<Ref, T>(rng); });
        const auto masks = MakeMasks<N>(rng, W, kind, groups);
        // Each active lane's group: the active lanes of its wave its mask names.
        std::array<Lanes128, N> group;
        for (int t = 0; t < N; ++t) {
          const Lanes128 named = SetOf(masks[t]);
          for (int l = 0; l < W; ++l) {
            const int u = t / W * W + l;
            group[t][l] = named[l] && u < N && p.mask.Test(u);
          }
        }
        // A wave is broken if an active lane is not in its own group, or a member of its group
        // has a different group.
        std::vector<bool> broken((N + W - 1) / W, false);
        for (int t = 0; t < N; ++t) {
          if (!p.mask.Test(t)) continue;
          if (!group[t][t % W]) broken[t / W] = true;
          for (int l = 0; l < W; ++l)
            if (group[t][l] && group[t / W * W + l] != group[t]) broken[t / W] = true;
        }
        bool any_broken = false;
        Columns<T, S::kC, N> expected{};
        for (int t = 0; t < N; ++t) {
          if (!p.mask.Test(t)) continue;
          any_broken = any_broken || broken[t / W];
          for (int c = 0; c < S::kC; ++c) {
            if (broken[t / W] && profile.poison_undefined) {
              expected[c][t] = Poison<T>();
              continue;
            }
            // Exclusive scan over the group's lanes below t, in ascending lane order.
            T acc = Ref::template Identity<T>();
            for (int l = 0; l < t % W; ++l)
              if (group[t][l]) acc = Ref::Apply(acc, in[c][t / W * W + l]);
            expected[c][t] = acc;
          }
        }
        Uint4<N> mask_value;
        for (int t = 0; t < N; ++t)
          for (int c = 0; c < 4; ++c) mask_value[c].set_lane(t, masks[t][c]);
        auto out = SentinelOutputs<S, N>();
        DispatchShared shared;
        RunGroup<N>(
            W,
            [&] {
              Under(p.mask, [&] {
                const auto r = Ref::Call(Make<S, N>(in), mask_value);
                for (int c = 0; c < S::kC; ++c) out[c] = Comp(r, c);
              });
            },
            profile, &shared);
        const std::string context = fmt::format(
            "{}<{}>, profile {}, {} masks ({} groups), N {}, wave size {}, mask {}", Ref::kName,
            ShapeName<S>(), profile.name, kind == 0 ? "partition" : "random", groups, N, W,
            p.name);
        for (int c = 0; c < S::kC; ++c)
          CheckLanes<T, N>(out[c], expected[c], p.mask, Sentinel<T>(), in[c],
                           fmt::format("{}, component {}", context, c));
        INFO(context);
        CHECK((shared.diagnostics.count() > 0) == (any_broken && profile.poison_undefined));
        for (const Diagnostic& d : shared.diagnostics.kept())
          CHECK(std::string_view(d.rule).starts_with(Ref::kName));
      }
    }
  }
}

template <class Ref, class S>
void SweepAllSizes() {
  for (int W : kWaveSizes) SweepMultiPrefix<Ref, S, 256>(W);
  for (int W : {16, 32}) SweepMultiPrefix<Ref, S, 24>(W);
}

}  // namespace

// ------------------------------ WaveMatch

TEST_CASE_TEMPLATE("WaveMatch gives the mask of active lanes with an equal value, own bit set",
                   S, WAVEEMU_NUMERIC_SHAPES) {
  for (int W : kWaveSizes) SweepMatch<S, 256>(W);
  for (int W : {16, 32}) SweepMatch<S, 24>(W);
}

TEST_CASE("WaveMatch: wave 8, x = 3 1 3 2 1 3 0 2, lane 2 inactive") {
  Uint4<8> out = Uint4<8>(7u);
  RunGroup<8>(8, [&] {
    Uint<8> x;
    const uint32_t values[8] = {3, 1, 3, 2, 1, 3, 0, 2};
    for (int t = 0; t < 8; ++t) x.set_lane(t, values[t]);
    (void)if_(WaveGetLaneIndex<8>() != 2u, [&] { out = WaveMatch(x); });
  });
  // Lanes holding 3: 0, 5 (2 is inactive) -> 0x21; 1: 1, 4 -> 0x12; 2: 3, 7 -> 0x88; 0: 6.
  const uint32_t expected[8] = {0x21, 0x12, 7, 0x88, 0x12, 0x21, 0x40, 0x88};
  for (int t = 0; t < 8; ++t) CHECK(out.x.lane(t) == expected[t]);
}

TEST_CASE("WaveMatch on floats: ordered equality splits NaNs and joins +0/-0; bitwise the "
          "opposite") {
  auto run = [](const DeviceProfile& profile) {
    Uint4<4> out = Uint4<4>(7u);
    RunGroup<4>(
        4,
        [&] {
          Float<4> x;
          const float nan = std::bit_cast<float>(0x7FC00001u);
          const float values[4] = {nan, nan, 0.0f, -0.0f};
          for (int t = 0; t < 4; ++t) x.set_lane(t, values[t]);
          out = WaveMatch(x);
        },
        profile);
    return out;
  };
  const Uint4<4> ordered = run(SpecProfile()), bitwise = run(LavapipeProfile());
  const uint32_t want_ordered[4] = {0x1, 0x2, 0xC, 0xC};
  const uint32_t want_bitwise[4] = {0x3, 0x3, 0x4, 0x8};
  for (int t = 0; t < 4; ++t) {
    CHECK(ordered.x.lane(t) == want_ordered[t]);
    CHECK(bitwise.x.lane(t) == want_bitwise[t]);
  }
}

TEST_CASE("WaveMatch on a vector ANDs the components: (1,1) (1,2) (1,1) (2,1)") {
  Uint4<4> out = Uint4<4>(7u);
  RunGroup<4>(4, [&] {
    Int2<4> v;
    const int xs[4] = {1, 1, 1, 2}, ys[4] = {1, 2, 1, 1};
    for (int t = 0; t < 4; ++t) {
      v.x.set_lane(t, xs[t]);
      v.y.set_lane(t, ys[t]);
    }
    out = WaveMatch(v);
  });
  const uint32_t expected[4] = {0x5, 0x2, 0x5, 0x8};
  for (int t = 0; t < 4; ++t) CHECK(out.x.lane(t) == expected[t]);
}

// ------------------------------ WaveMultiPrefix*

TEST_CASE_TEMPLATE("WaveMultiPrefixSum is an exclusive sum within each lane's mask group",
                   S, WAVEEMU_NUMERIC_SHAPES) {
  SweepAllSizes<SumRef, S>();
}

TEST_CASE_TEMPLATE("WaveMultiPrefixProduct is an exclusive product within each lane's mask group",
                   S, WAVEEMU_NUMERIC_SHAPES) {
  SweepAllSizes<ProductRef, S>();
}

TEST_CASE_TEMPLATE("WaveMultiPrefixBitAnd, BitOr and BitXor are exclusive bit scans within each "
                   "lane's mask group",
                   S, WAVEEMU_INT_SHAPES) {
  SweepAllSizes<BitAndRef, S>();
  SweepAllSizes<BitOrRef, S>();
  SweepAllSizes<BitXorRef, S>();
}

TEST_CASE("WaveMultiPrefixCountBits counts true lanes of the group below, under every mask") {
  auto sweep = []<int N>(std::integral_constant<int, N>, int W) {
    std::mt19937_64 rng(uint64_t(W) * 5 + N);
    for (const MaskPattern<N>& p : AllMaskPatterns<N>()) {
      const auto masks = MakeMasks<N>(rng, W, 0, 3);
      std::array<bool, N> in;
      for (auto& b : in) b = rng() % 2;
      std::array<uint32_t, N> expected{};
      for (int t = 0; t < N; ++t) {
        if (!p.mask.Test(t)) continue;
        const Lanes128 named = SetOf(masks[t]);
        for (int l = 0; l < t % W; ++l) {
          const int u = t / W * W + l;
          if (named[l] && p.mask.Test(u) && in[u]) ++expected[t];
        }
      }
      Bool<N> x;
      Uint4<N> mask_value;
      for (int t = 0; t < N; ++t) {
        x.set_lane(t, in[t]);
        for (int c = 0; c < 4; ++c) mask_value[c].set_lane(t, masks[t][c]);
      }
      Uint<N> out = 0xC0FFEEu;
      RunGroup<N>(W, [&] { Under(p.mask, [&] { out = WaveMultiPrefixCountBits(x, mask_value); }); });
      CheckLanes<uint32_t, N>(out, expected, p.mask, 0xC0FFEEu, in,
                              fmt::format("WaveMultiPrefixCountBits, N {}, wave size {}, mask {}",
                                          N, W, p.name));
    }
  };
  for (int W : kWaveSizes) sweep(std::integral_constant<int, 256>{}, W);
  for (int W : {16, 32}) sweep(std::integral_constant<int, 24>{}, W);
}

TEST_CASE("WaveMultiPrefix*: wave 8, x = lane + 1, groups even and odd lanes (from WaveMatch)") {
  Uint<8> sum = 0u, product = 0u, count = 0u, bit_or = 0u, bit_and = 0u, bit_xor = 0u;
  RunGroup<8>(8, [&] {
    const Uint<8> lane = WaveGetLaneIndex<8>();
    const Uint<8> x = lane + 1u;
    const Uint4<8> group = WaveMatch(lane % 2u);
    sum = WaveMultiPrefixSum(x, group);
    product = WaveMultiPrefixProduct(x, group);
    count = WaveMultiPrefixCountBits(true, group);
    bit_or = WaveMultiPrefixBitOr(Uint<8>(1u) << lane, group);
    bit_and = WaveMultiPrefixBitAnd(~(Uint<8>(1u) << lane), group);
    bit_xor = WaveMultiPrefixBitXor(x, group);
  });
  // Even lanes hold 1 3 5 7, odd lanes 2 4 6 8.
  const uint32_t want_sum[8] = {0, 0, 1, 2, 4, 6, 9, 12};
  const uint32_t want_product[8] = {1, 1, 1, 2, 3, 8, 15, 48};
  const uint32_t want_count[8] = {0, 0, 1, 1, 2, 2, 3, 3};
  const uint32_t want_or[8] = {0, 0, 0x1, 0x2, 0x5, 0xA, 0x15, 0x2A};
  const uint32_t want_xor[8] = {0, 0, 1, 2, 1 ^ 3, 2 ^ 4, 1 ^ 3 ^ 5, 2 ^ 4 ^ 6};
  for (int t = 0; t < 8; ++t) {
    CAPTURE(t);
    CHECK(sum.lane(t) == want_sum[t]);
    CHECK(product.lane(t) == want_product[t]);
    CHECK(count.lane(t) == want_count[t]);
    CHECK(bit_or.lane(t) == want_or[t]);
    CHECK(bit_and.lane(t) == ~want_or[t]);
    CHECK(bit_xor.lane(t) == want_xor[t]);
  }
}

TEST_CASE("WaveMultiPrefix* with uniform arguments: wave 8, a uniform value per mask group, a "
          "uniform uint4 mask, or both with <N>") {
  Uint<8> sum = 0u, product = 0u, under_if = 0xC0FFEEu, count = 0u;
  Lanes<uint64_t, 8> bit_or = 0ull;
  Int<8> both = 0, scan = 0;
  RunGroup<8>(8, [&] {
    const Uint<8> lane = WaveGetLaneIndex<8>();
    const Uint4<8> group = WaveMatch(lane % 2u);  // even lanes, odd lanes
    sum = WaveMultiPrefixSum(2u, group);
    product = WaveMultiPrefixProduct(2u, group);
    bit_or = WaveMultiPrefixBitOr(uint64_t(1) << 40, group);
    static_assert(std::is_same_v<decltype(WaveMultiPrefixBitOr(uint64_t(1) << 40, group)),
                                 Lanes<uint64_t, 8>>);
    const uint4 whole_wave{0xFFu, 0u, 0u, 0u};
    scan = WaveMultiPrefixSum(Int<8>(lane) + 1, whole_wave);
    if_(lane < 6u, [&] { under_if = WaveMultiPrefixCountBits(lane != 3u, whole_wave); });
    count = WaveMultiPrefixCountBits<8>(true, whole_wave);
    both = WaveMultiPrefixSum<8>(3, whole_wave);
    static_assert(std::is_same_v<decltype(WaveMultiPrefixSum<8>(3, whole_wave)), Int<8>>);
  });
  // Even lanes: 0 2 4 6 with a group of 4; odd lanes the same. Whole wave: x = lane + 1.
  const uint32_t want_sum[8] = {0, 0, 2, 2, 4, 4, 6, 6};
  const uint32_t want_product[8] = {1, 1, 2, 2, 4, 4, 8, 8};
  const int want_scan[8] = {0, 1, 3, 6, 10, 15, 21, 28};
  // Lanes 6 and 7 are off in the if_, lane 3's value is false.
  const uint32_t want_under_if[8] = {0, 1, 2, 3, 3, 4, 0xC0FFEEu, 0xC0FFEEu};
  for (int t = 0; t < 8; ++t) {
    CAPTURE(t);
    CHECK(sum.lane(t) == want_sum[t]);
    CHECK(product.lane(t) == want_product[t]);
    CHECK(bit_or.lane(t) == (t < 2 ? 0ull : uint64_t(1) << 40));
    CHECK(scan.lane(t) == want_scan[t]);
    CHECK(under_if.lane(t) == want_under_if[t]);
    CHECK(count.lane(t) == uint32_t(t));
    CHECK(both.lane(t) == 3 * t);
  }
}

TEST_CASE("WaveMultiPrefixSum with masks that do not partition: spec poisons the wave and "
          "reports; lavapipe scans each lane's own mask") {
  // Wave 8, x = lane + 1. Lane 2 names {0, 1, 2}, every other lane names only itself: lanes 0 and
  // 1 disagree with lane 2 about their group.
  auto run = [](const DeviceProfile& profile, std::vector<Diagnostic>* diags) {
    Uint<8> out = 0u;
    DispatchShared shared;
    RunGroup<8>(
        8,
        [&] {
          const Uint<8> lane = WaveGetLaneIndex<8>();
          Uint4<8> mask = Uint4<8>(0u);
          mask.x = select(lane == 2u, Uint<8>(0x7u), Uint<8>(1u) << lane);
          out = WaveMultiPrefixSum(lane + 1u, mask);
        },
        profile, &shared);
    *diags = shared.diagnostics.kept();
    return out;
  };
  std::vector<Diagnostic> spec_diags, lavapipe_diags;
  const Uint<8> spec = run(SpecProfile(), &spec_diags);
  const Uint<8> lavapipe = run(LavapipeProfile(), &lavapipe_diags);
  for (int t = 0; t < 8; ++t) {
    CHECK(spec.lane(t) == 0xDEADBEEFu);
    CHECK(lavapipe.lane(t) == (t == 2 ? 3u : 0u));  // lane 2: 1 + 2
  }
  CHECK(lavapipe_diags.empty());
  REQUIRE(spec_diags.size() == 1);
  CHECK(spec_diags[0].rule ==
        "WaveMultiPrefixSum: the masks do not partition the active lanes (undefined in HLSL)");
}

TEST_CASE("WaveMultiPrefixBitOr: a lane missing from its own mask is undefined (spec reports)") {
  DispatchShared shared;
  Uint<4> out = 0u;
  RunGroup<4>(
      4,
      [&] {
        const Uint<4> lane = WaveGetLaneIndex<4>();
        Uint4<4> mask = Uint4<4>(0u);
        mask.x = select(lane == 3u, Uint<4>(0x7u), Uint<4>(0xFu));  // lane 3 leaves itself out
        out = WaveMultiPrefixBitOr(Uint<4>(1u) << lane, mask);
      },
      SpecProfile(), &shared);
  CHECK(shared.diagnostics.count() == 1);
  for (int t = 0; t < 4; ++t) CHECK(out.lane(t) == 0xDEADBEEFu);
}

TEST_CASE("WaveMultiPrefixSum on int16_t wraps modulo 2^16 without C++ overflow") {
  Int16<4> out = 0;
  RunGroup<4>(4, [&] {
    const Uint4<4> all = Uint4<4>(Uint<4>(0xFu), Uint<4>(0u), Uint<4>(0u), Uint<4>(0u));
    out = WaveMultiPrefixSum(Int16<4>(int16_t(30000)), all);
  });
  CHECK(out.lane(0) == 0);
  CHECK(out.lane(1) == 30000);
  CHECK(out.lane(2) == int16_t(60000 - 65536));
  CHECK(out.lane(3) == int16_t(90000 - 131072));
}
