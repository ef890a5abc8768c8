// test_long_vectors.cpp -- SM 6.9 long vectors (vector<T, 5..1024>): construction, v[i],
// slice, element-wise operators, buffers and groupshared, and every wave and quad op that
// hlsl-specs proposal 0026 lists for them. Expected values come from the scalar oracle of
// reduce_scan_reference.h, applied component by component, from plain loops written here, or
// are worked by hand.
#include "tests/intrinsics/reduce_scan_reference.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;
using namespace waveemu::test::ref;

namespace {

template <class T_, int C_>
struct Shape {
  using T = T_;
  static constexpr int C = C_;
};

template <class T, int C, int N>
using Comps = std::array<Arr<T, N>, C>;

/// Component c holds mixed values, or small factors on odd components (so products stay finite).
template <class T, int C, int N>
Comps<T, C, N> Inputs(uint32_t seed) {
  Comps<T, C, N> comps;
  for (int c = 0; c < C; ++c)
    comps[c] = c % 2 ? Factors<T, N>(seed + uint32_t(c)) : Mixed<T, N>(seed + uint32_t(c));
  return comps;
}

/// For every profile, wave size and mask: out = call(x) inside if_(mask), each component checked
/// against ref(component values, mask, W, profile); inactive threads keep the sentinel.
template <class T, int C, int N, class Call, class Ref>
void SweepLong(const char* what, const Comps<T, C, N>& comps, Call call, Ref ref) {
  const Vector<T, C, N> x = Vector<T, C, N>(comps);
  using R = typename decltype(call(x))::value_type;
  for (const DeviceProfile& prof : Profiles())
    for (int W : kWaveSizes)
      for (const auto& p : AllMaskPatterns<N>(W)) {
        Vector<R, C, N> out(Sentinel<R>());
        RunGroup<N>(W, [&] { if_(Bool<N>::FromMask(p.mask), [&] { out = call(x); }); }, prof);
        for (int c = 0; c < C; ++c)
          CheckLanes<R, N, T>(out[c], ref(comps[c], p.mask, W, prof), p.mask, Sentinel<R>(),
                              comps[c],
                              fmt::format("{}<vector<{}, {}>> component {}, wave size {}, mask "
                                          "'{}', profile {}",
                                          what, TypeName<T>(), C, c, W, p.name, prof.name));
      }
}

}  // namespace

#define WAVEEMU_LONG_SHAPES                                                                \
  Shape<uint32_t, 5>, Shape<int64_t, 5>, Shape<uint64_t, 7>, Shape<float, 6>, Shape<half, 5>, \
      Shape<double, 9>, Shape<int16_t, 8>

// ------------------------------------------------------------------------------------------------
// The value type

TEST_CASE("A long vector is built, indexed, sliced and assigned as HLSL's vector<T, N>") {
  constexpr int N = 8;
  const Uint<N> t(std::array<uint32_t, N>{0, 1, 2, 3, 4, 5, 6, 7});
  Vector<uint32_t, 5, N> listed(1u, 2u, t, 4u, t * 2u);   // vector<uint, 5>(1, 2, t, 4, 2t)
  const Vector<uint32_t, 6, N> broadcast(7u);              // vector<uint, 6> v = 7
  const Vector<uint32_t, 8, N> joined(Uint2<N>(t, 9u), broadcast);  // {uint2(t, 9), v6}
  const UniformLongVector<uint32_t, 5> uniform{10, 20, 30, 40, 50};
  const Vector<uint32_t, 5, N> from_uniform(uniform);
  const Vector<float, 5, N> converted(listed);  // (vector<float, 5>)listed
  for (int i = 0; i < N; ++i) {
    const uint32_t ti = uint32_t(i);
    CHECK(listed.lane(i) == std::array<uint32_t, 5>{1, 2, ti, 4, 2 * ti});
    CHECK(broadcast.lane(i) == std::array<uint32_t, 6>{7, 7, 7, 7, 7, 7});
    CHECK(joined.lane(i) == std::array<uint32_t, 8>{ti, 9, 7, 7, 7, 7, 7, 7});
    CHECK(from_uniform.lane(i) == std::array<uint32_t, 5>{10, 20, 30, 40, 50});
    CHECK(converted.lane(i) == std::array<float, 5>{1, 2, float(ti), 4, float(2 * ti)});
  }

  // slice<Offset, Count>: components Offset.. of any vector; slice<Count> from 0; one component
  // is a per-thread scalar.
  const Vector<uint32_t, 3, N> middle = slice<2, 3>(listed);
  const Uint4<N> head = slice<4>(joined);
  const Uint<N> one = slice<4, 1>(listed);
  const Uint2<N> from_short = slice<1, 2>(Uint3<N>(5u, 6u, 7u));
  for (int i = 0; i < N; ++i) {
    const uint32_t ti = uint32_t(i);
    CHECK(middle.lane(i) == std::array<uint32_t, 3>{ti, 4, 2 * ti});
    CHECK(head.lane(i) == std::array<uint32_t, 4>{ti, 9, 7, 7});
    CHECK(one.lane(i) == 2 * ti);
    CHECK(from_short.lane(i) == std::array<uint32_t, 2>{6, 7});
  }

  // Assignment, whole or through v[i], is masked; copies are deep, and a copy constructed under
  // a mask copies every thread (construction is not assignment).
  Vector<uint32_t, 5, N> copy = listed;
  Vector<uint32_t, 5, N> copied_under_mask(0u);
  RunGroup<N>(4, [&] {
    if_(t >= 5u, [&] {
      const Vector<uint32_t, 5, N> local = listed;
      copied_under_mask = local;  // masked: threads 0-4 keep their 0
      listed = broadcast.lane(0)[0] + Vector<uint32_t, 5, N>(t);  // 7 + t in every component
      listed[0] = Uint<N>(100u);
      // The copy made under the mask still holds every thread's components.
      for (int i = 0; i < N; ++i)
        CHECK(local.lane(i) == std::array<uint32_t, 5>{1, 2, uint32_t(i), 4, 2 * uint32_t(i)});
    });
  });
  for (int i = 0; i < N; ++i) {
    const uint32_t ti = uint32_t(i);
    const std::array<uint32_t, 5> before{1, 2, ti, 4, 2 * ti};
    const std::array<uint32_t, 5> after{100, 7 + ti, 7 + ti, 7 + ti, 7 + ti};
    CHECK(listed.lane(i) == (i >= 5 ? after : before));
    CHECK(copy.lane(i) == before);  // the copy kept its own components
    CHECK(copied_under_mask.lane(i) == (i >= 5 ? before : std::array<uint32_t, 5>{}));
  }
}

TEST_CASE("Long vectors take HLSL's element-wise operators and intrinsics component by component") {
  constexpr int N = 16;
  constexpr int C = 7;
  std::array<std::array<float, N>, C> a_host{}, b_host{};
  for (int c = 0; c < C; ++c)
    for (int t = 0; t < N; ++t) {
      a_host[c][t] = float(c * 16 + t) - 40.0f;
      b_host[c][t] = float((c * 7 + t * 3) % 11) - 5.0f;
    }
  const Vector<float, C, N> a(a_host), b(b_host);
  Vector<float, C, N> sum, prod, mn, mixed;
  Vector<bool, C, N> less;
  Float<N> d;
  Bool<N> any_less, all_less;
  RunGroup<N>(8, [&] {
    sum = a + b;
    prod = a * 2.0f;
    mn = min(a, b);
    less = a < b;
    mixed = select(less, abs(a), -b);
    d = dot(a, b);
    any_less = any(less);
    all_less = all(less);
  });
  for (int t = 0; t < N; ++t) {
    float dot_want = 0.0f;
    bool any_want = false, all_want = true;
    for (int c = 0; c < C; ++c) {
      const float x = a_host[c][t], y = b_host[c][t];
      CHECK(sum[c].lane(t) == x + y);
      CHECK(prod[c].lane(t) == x * 2.0f);
      CHECK(mn[c].lane(t) == (x < y ? x : y));
      CHECK(less[c].lane(t) == (x < y));
      CHECK(mixed[c].lane(t) == (x < y ? std::fabs(x) : -y));
      dot_want = c == 0 ? x * y : dot_want + x * y;  // left to right, as dot documents
      any_want = any_want || x < y;
      all_want = all_want && x < y;
    }
    CHECK(d.lane(t) == dot_want);
    CHECK(any_less.lane(t) == any_want);
    CHECK(all_less.lane(t) == all_want);
  }
}

TEST_CASE("vector<uint, 1024>, the longest vector, sums component by component") {
  // 1024 components of a 128-thread group are 512 KiB per value; they live on the heap.
  constexpr int N = 128;
  constexpr int C = kMaxVectorComponents;
  Vector<uint32_t, C, N> v;
  for (int c = 0; c < C; ++c)
    for (int t = 0; t < N; ++t) v[c].set_lane(t, uint32_t(c * 1000 + t));
  Vector<uint32_t, C, N> s;
  RunGroup<N>(32, [&] { s = WaveActiveSum(v + 1u); });
  for (int c : {0, 1, 511, 1023})
    for (int t : {0, 31, 32, 127}) {
      uint32_t want = 0;
      for (int u = t / 32 * 32; u < t / 32 * 32 + 32; ++u) want += uint32_t(c * 1000 + u) + 1u;
      CHECK(s[c].lane(t) == want);
    }
}

// ------------------------------------------------------------------------------------------------
// Wave ops (proposal 0026's list): component by component, against the scalar oracle.

TEST_CASE_TEMPLATE("Wave reductions and scans of long vectors work component by component", S,
                   WAVEEMU_LONG_SHAPES) {
  using T = typename S::T;
  constexpr int C = S::C;
  constexpr int N = 64;
  const Comps<T, C, N> comps = Inputs<T, C, N>(71);
  for (Op op : {Op::kSum, Op::kProduct}) {
    const bool sum = op == Op::kSum;
    SweepLong<T, C, N>(
        sum ? "WaveActiveSum" : "WaveActiveProduct", comps,
        [sum](const Vector<T, C, N>& x) { return sum ? WaveActiveSum(x) : WaveActiveProduct(x); },
        [op](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof) {
          return PerWave<T>(mask, W, [&](int w) { return ReduceWave(op, in, mask, w, W, prof); });
        });
    SweepLong<T, C, N>(
        sum ? "WavePrefixSum" : "WavePrefixProduct", comps,
        [sum](const Vector<T, C, N>& x) { return sum ? WavePrefixSum(x) : WavePrefixProduct(x); },
        [op](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof) {
          Arr<T, N> out{};
          for (int w = 0; w < WaveCount<N>(W); ++w) ScanWave(op, in, mask, w, W, prof, out);
          return out;
        });
  }
  for (bool is_max : {false, true}) {
    SweepLong<T, C, N>(
        is_max ? "WaveActiveMax" : "WaveActiveMin", comps,
        [is_max](const Vector<T, C, N>& x) { return is_max ? WaveActiveMax(x) : WaveActiveMin(x); },
        [is_max](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof) {
          int unused = 0;
          return PerWave<T>(
              mask, W, [&](int w) { return MinMaxWave(is_max, in, mask, w, W, prof, unused); });
        });
  }
  if constexpr (kIsUintOnly<T>) {
    for (Op op : {Op::kBitAnd, Op::kBitOr, Op::kBitXor}) {
      SweepLong<T, C, N>(
          "WaveActiveBitAnd/Or/Xor", comps,
          [op](const Vector<T, C, N>& x) {
            return op == Op::kBitAnd ? WaveActiveBitAnd(x)
                   : op == Op::kBitOr ? WaveActiveBitOr(x)
                                      : WaveActiveBitXor(x);
          },
          [op](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof) {
            return PerWave<T>(mask, W, [&](int w) { return ReduceWave(op, in, mask, w, W, prof); });
          });
    }
  }
  // AllEqual: one bool per component. Components 0 and 2 are made equal within each wave on
  // some threads, so both answers occur.
  Comps<T, C, N> equalish = comps;
  for (int t = 0; t < N; ++t) {
    equalish[0][t] = T(3);
    if (t % 3) equalish[2][t] = T(5);
  }
  SweepLong<T, C, N>(
      "WaveActiveAllEqual", equalish,
      [](const Vector<T, C, N>& x) {
        return select(WaveActiveAllEqual(x), Vector<uint32_t, C, N>(1u),
                      Vector<uint32_t, C, N>(0u));
      },
      [](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile& prof) {
        return PerWave<uint32_t>(
            mask, W, [&](int w) { return AllEqualWave(in, mask, w, W, prof) ? 1u : 0u; });
      });
}

TEST_CASE_TEMPLATE("WaveReadLaneFirst and WaveReadLaneAt read every component of a long vector", S,
                   WAVEEMU_LONG_SHAPES) {
  using T = typename S::T;
  constexpr int C = S::C;
  constexpr int N = 64;
  const Comps<T, C, N> comps = Inputs<T, C, N>(83);
  SweepLong<T, C, N>(
      "WaveReadLaneFirst", comps, [](const Vector<T, C, N>& x) { return WaveReadLaneFirst(x); },
      [](const Arr<T, N>& in, const Mask<N>& mask, int W, const DeviceProfile&) {
        return PerWave<T>(mask, W, [&](int w) { return in[ActiveThreads(mask, w, W)[0]]; });
      });
  // A per-thread lane index that is always active: the wave's last active lane.
  for (int W : kWaveSizes)
    for (const auto& p : AllMaskPatterns<N>(W)) {
      Uint<N> last(0u);
      for (int t = 0; t < N; ++t) {
        const std::vector<int> active = ActiveThreads(p.mask, t / W, W);
        if (!active.empty()) last.set_lane(t, uint32_t(active.back() - t / W * W));
      }
      const Vector<T, C, N> x = Vector<T, C, N>(comps);
      Vector<T, C, N> out(Sentinel<T>());
      RunGroup<N>(W, [&] {
        if_(Bool<N>::FromMask(p.mask), [&] { out = WaveReadLaneAt(x, last); });
      });
      for (int c = 0; c < C; ++c) {
        Arr<T, N> want{};
        for (int t = 0; t < N; ++t) want[t] = comps[c][t / W * W + int(last.lane(t))];
        CheckLanes<T, N, T>(out[c], want, p.mask, Sentinel<T>(), comps[c],
                            fmt::format("WaveReadLaneAt component {}, wave size {}, mask '{}'", c,
                                        W, p.name));
      }
    }
  // A uniform lane index: lane 0 of every wave, with every lane active.
  const Vector<T, C, N> x = Vector<T, C, N>(comps);
  for (int W : kWaveSizes) {
    Vector<T, C, N> out;
    RunGroup<N>(W, [&] { out = WaveReadLaneAt(x, 0u); });
    for (int c = 0; c < C; ++c)
      for (int t = 0; t < N; ++t) CHECK(BitsOf(out[c].lane(t)) == BitsOf(comps[c][t / W * W]));
  }
}

TEST_CASE_TEMPLATE("WaveMatch of a long vector matches lanes equal in every component", T, uint32_t,
                   int64_t, float) {
  constexpr int C = 6;
  constexpr int N = 64;
  // Components 0 to C - 2 of thread t are (t + c) % 4, so they group lanes by t % 4; the last
  // component is bit 3 of t, which splits each of those groups (at wave sizes from 16): a match
  // that skipped any component, the last included, would set too many bits.
  Comps<T, C, N> comps;
  for (int c = 0; c < C; ++c)
    for (int t = 0; t < N; ++t) comps[c][t] = T(c < C - 1 ? (t + c) % 4 : (t >> 3) & 1);
  const Vector<T, C, N> x = Vector<T, C, N>(comps);
  for (int W : kWaveSizes)
    for (const auto& p : AllMaskPatterns<N>(W)) {
      Uint4<N> out(Sentinel<uint32_t>());
      RunGroup<N>(W, [&] { if_(Bool<N>::FromMask(p.mask), [&] { out = WaveMatch(x); }); });
      for (int t = 0; t < N; ++t) {
        if (!p.mask.Test(t)) continue;
        std::array<uint32_t, 4> want{};
        for (int u : ActiveThreads(p.mask, t / W, W)) {
          bool same = true;
          for (int c = 0; c < C; ++c) same = same && comps[c][u] == comps[c][t];
          const int lane = u - t / W * W;
          if (same) want[lane / 32] |= 1u << (lane % 32);
        }
        CHECK_MESSAGE(out.lane(t) == want,
                      fmt::format("thread {}, wave size {}, mask '{}'", t, W, p.name));
      }
    }
}

TEST_CASE_TEMPLATE("WaveMultiPrefix ops of a long vector work component by component", T, uint32_t,
                   int64_t, uint64_t) {
  constexpr int C = 5;
  constexpr int N = 64;
  const Comps<T, C, N> comps = Inputs<T, C, N>(97);
  const Vector<T, C, N> x = Vector<T, C, N>(comps);
  std::vector<Op> ops = {Op::kSum, Op::kProduct};
  if constexpr (kIsUintOnly<T>) ops.insert(ops.end(), {Op::kBitAnd, Op::kBitOr, Op::kBitXor});
  for (int W : kWaveSizes)
    for (const auto& p : AllMaskPatterns<N>(W)) {
      // Partition: lanes of a wave grouped by lane index % 3; each lane's mask names its group.
      Uint4<N> groups(0u);
      for (int t = 0; t < N; ++t) {
        std::array<uint32_t, 4> bits{};
        for (int l = 0; l < W && t / W * W + l < N; ++l)
          if (l % 3 == t % W % 3) bits[l / 32] |= 1u << (l % 32);
        for (int k = 0; k < 4; ++k) groups[k].set_lane(t, bits[k]);
      }
      for (Op op : ops) {
        Vector<T, C, N> out(Sentinel<T>());
        RunGroup<N>(W, [&] {
          if_(Bool<N>::FromMask(p.mask), [&] {
            if constexpr (kIsUintOnly<T>) {
              if (op == Op::kBitAnd) out = WaveMultiPrefixBitAnd(x, groups);
              if (op == Op::kBitOr) out = WaveMultiPrefixBitOr(x, groups);
              if (op == Op::kBitXor) out = WaveMultiPrefixBitXor(x, groups);
            }
            if (op == Op::kSum) out = WaveMultiPrefixSum(x, groups);
            if (op == Op::kProduct) out = WaveMultiPrefixProduct(x, groups);
          });
        });
        for (int c = 0; c < C; ++c) {
          Arr<T, N> want{};
          for (int t = 0; t < N; ++t) {
            T acc = Identity<T>(op);
            for (int u : ActiveThreads(p.mask, t / W, W))
              if (u < t && u % W % 3 == t % W % 3) acc = Apply(op, acc, comps[c][u]);
            want[t] = acc;
          }
          CheckLanes<T, N, T>(out[c], want, p.mask, Sentinel<T>(), comps[c],
                              fmt::format("WaveMultiPrefix op {} component {}, wave size {}, mask "
                                          "'{}'",
                                          int(op), c, W, p.name));
        }
      }
    }
}

TEST_CASE_TEMPLATE("Quad reads of a long vector read every component across the quad", S,
                   WAVEEMU_LONG_SHAPES) {
  using T = typename S::T;
  constexpr int C = S::C;
  constexpr int N = 64;
  const Comps<T, C, N> comps = Inputs<T, C, N>(101);
  const Vector<T, C, N> x = Vector<T, C, N>(comps);
  for (int W : kWaveSizes) {
    Vector<T, C, N> across_x, across_y, diagonal, lane2;
    RunGroup<N>(W, [&] {
      across_x = QuadReadAcrossX(x);
      across_y = QuadReadAcrossY(x);
      diagonal = QuadReadAcrossDiagonal(x);
      lane2 = QuadReadLaneAt(x, 2u);
    });
    for (int c = 0; c < C; ++c)
      for (int t = 0; t < N; ++t) {
        INFO(fmt::format("component {}, thread {}, wave size {}", c, t, W));
        CHECK(BitsOf(across_x[c].lane(t)) == BitsOf(comps[c][t ^ 1]));
        CHECK(BitsOf(across_y[c].lane(t)) == BitsOf(comps[c][t ^ 2]));
        CHECK(BitsOf(diagonal[c].lane(t)) == BitsOf(comps[c][t ^ 3]));
        CHECK(BitsOf(lane2[c].lane(t)) == BitsOf(comps[c][(t & ~3) + 2]));
      }
  }
}

TEST_CASE("ddx, ddy and fwidth of a long vector differentiate every component over its quad") {
  // Compute quads (SM 6.6): lanes 4q..4q+3 are (x, y) = (0,0), (1,0), (0,1), (1,1). Component c
  // of thread t is (c + 1) * t * t; coarse ddx = p1 - p0, ddy = p2 - p0; fine ddy takes the
  // thread's column (p2 - p0 or p3 - p1).
  constexpr int N = 16;
  constexpr int C = 6;
  Vector<float, C, N> p;
  for (int c = 0; c < C; ++c)
    for (int t = 0; t < N; ++t) p[c].set_lane(t, float((c + 1) * t * t));
  Vector<float, C, N> dx, dy_fine, width;
  RunGroup<N>(8, [&] {
    dx = ddx(p);
    dy_fine = ddy_fine(p);
    width = fwidth(p);
  });
  for (int c = 0; c < C; ++c)
    for (int t = 0; t < N; ++t) {
      const auto at = [&](int u) { return float((c + 1) * u * u); };
      const int q = t & ~3, col = q + (t & 1);
      CHECK(dx[c].lane(t) == at(q + 1) - at(q));
      CHECK(dy_fine[c].lane(t) == at(col + 2) - at(col));
      CHECK(width[c].lane(t) == std::fabs(at(q + 1) - at(q)) + std::fabs(at(q + 2) - at(q)));
    }
}

// ------------------------------------------------------------------------------------------------
// Memory: StructuredBuffer, ByteAddressBuffer and groupshared (proposal 0026's allowed places).

TEST_CASE("Long vectors load and store through structured and raw buffers and groupshared") {
  constexpr int N = 8;
  using V6 = UniformLongVector<float, 6>;
  std::vector<V6> host(4);
  for (int e = 0; e < 4; ++e)
    for (int c = 0; c < 6; ++c) host[e][c] = float(e * 10 + c) + 0.5f;
  const StructuredBuffer<V6> in{std::span<const V6>(host)};
  std::vector<V6> out_host(N, V6{-1, -1, -1, -1, -1, -1});
  const RWStructuredBuffer<V6> out{std::span<V6>(out_host)};
  std::vector<uint32_t> words(24, 0xEEEEEEEEu);
  const RWByteAddressBuffer raw{std::span<uint32_t>(words)};
  Vector<uint32_t, 5, N> raw_back, shared_back;
  Vector<float, 6, N> uniform_read;
  RunGroup<N>(4, [&] {
    const Uint<N> t(std::array<uint32_t, N>{0, 1, 2, 3, 4, 5, 6, 7});
    const Vector<float, 6, N> v = in[t % 4u];  // per-thread gather of whole elements
    uniform_read = in[3u];                     // a uniform element, broadcast
    if_(t != 2u, [&] { out[t] = v + 1.0f; });
    // Raw buffer: thread t stores vector<uint, 5>(t, t+1, ..., t+4) at byte 20 * (t % 4) when
    // t < 4, through Store's deduced T and through Store<UniformLongVector<uint32_t, 5>>.
    const Vector<uint32_t, 5, N> seq(t, t + 1u, t + 2u, t + 3u, t + 4u);
    if_(t < 2u, [&] { raw.Store(t * 20u, seq); });
    if_(t >= 2u && t < 4u, [&] { raw.Store<UniformLongVector<uint32_t, 5>>(t * 20u, seq); });
    raw_back = raw.Load<UniformLongVector<uint32_t, 5>>((t % 4u) * 20u);
    GroupShared<UniformLongVector<uint32_t, 5>, N> gs;
    gs[t] = seq * 3u;
    GroupMemoryBarrierWithGroupSync();
    shared_back = gs[uint32_t(N - 1) - t];
  });
  for (int t = 0; t < N; ++t) {
    const V6 want = t == 2 ? V6{-1, -1, -1, -1, -1, -1} : [&] {
      V6 w{};
      for (int c = 0; c < 6; ++c) w[c] = host[t % 4][c] + 1.0f;
      return w;
    }();
    CHECK(out_host[t] == want);
    const uint32_t u = uint32_t(t % 4), m = uint32_t(N - 1 - t);
    CHECK(raw_back.lane(t) == std::array<uint32_t, 5>{u, u + 1, u + 2, u + 3, u + 4});
    CHECK(shared_back.lane(t) == std::array<uint32_t, 5>{3 * m, 3 * (m + 1), 3 * (m + 2),
                                                         3 * (m + 3), 3 * (m + 4)});
    for (int c = 0; c < 6; ++c) CHECK(uniform_read[c].lane(t) == host[3][c]);
  }
  for (uint32_t w = 0; w < 20; ++w) CHECK(words[w] == w / 5 + w % 5);  // 4 vectors of 5 words
  CHECK(words[20] == 0xEEEEEEEEu);
}

TEST_CASE("One component of a buffer or groupshared vector element is read and written by index") {
  // HLSL's RW[i][k] and gs[0][tid]: a uniform or per-thread k, under the mask; a k past the last
  // component is out of bounds (counted, never a neighbouring component), or a KernelError when
  // uniform.
  constexpr int N = 8;
  using V5 = UniformLongVector<uint32_t, 5>;
  std::vector<V5> elems(2);
  const RWStructuredBuffer<V5> rw{std::span<V5>(elems)};
  std::vector<uint4> shorts(N);
  const RWStructuredBuffer<uint4> rw4{std::span<uint4>(shorts)};
  V5 whole{};
  Uint<N> read_back(0u), read_uniform(0u);
  DispatchShared shared;
  RunGroup<N>(8, [&] {
    const Uint<N> t(std::array<uint32_t, N>{0, 1, 2, 3, 4, 5, 6, 7});
    // Per-thread element and component: thread t writes element t / 5, component t % 5, but
    // thread 7 names component 5 of element 0 -- past its end, not element 1's component 0.
    rw[select(t == 7u, 0u, t / 5u)][select(t == 7u, 5u, t % 5u)] = t + 100u;
    read_back = rw[t / 5u][t % 5u];
    // A uniform component of per-thread elements, under a mask: only component 2 changes.
    if_(t % 2u == 0u, [&] { rw4[t][2] = t * 3u; });
    // One groupshared element, each thread filling its own component.
    GroupShared<UniformLongVector<uint32_t, 8>> g;
    g[t] = t + 10u;
    GroupMemoryBarrierWithGroupSync();
    whole = V5{};
    const UniformLongVector<uint32_t, 8> all = g;
    for (int k = 0; k < 5; ++k) whole[k] = all[k + 3];
    // A uniform element and component.
    rw[1u][4] = 77u;
    read_uniform = Uint<N>(rw[1u][4]);
  }, SpecProfile(), &shared);
  CHECK(elems[0] == V5{100, 101, 102, 103, 104});
  CHECK(elems[1] == V5{105, 106, 0, 0, 77});  // component 0 is thread 5's, not thread 7's
  CHECK(shared.out_of_bounds_writes.load() == 1);  // thread 7
  for (int t = 0; t < N; ++t) {
    CHECK(read_back.lane(t) == (t < 7 ? uint32_t(t) + 100u : 0u));  // element 1 comp 2 is 0
    CHECK(shorts[t].z == (t % 2 == 0 ? uint32_t(t) * 3u : 0u));
    CHECK(shorts[t].x == 0u);
    CHECK(read_uniform.lane(t) == 77u);
  }
  CHECK(whole == V5{13, 14, 15, 16, 17});

  // A uniform component past the end is a kernel error that names the index and the size.
  RunGroup<N>(8, [&] {
    CHECK_THROWS_WITH_AS(rw[0u][5], "vector component index 5 is out of range: the element has 5 "
                                    "components (0 to 4), group (0,0,0)",
                         KernelError);
    // In the index's own type: 2^32 + 1 is not component 1.
    CHECK_THROWS_WITH_AS(rw[0u][(uint64_t(1) << 32) + 1],
                         "vector component index 4294967297 is out of range: the element has 5 "
                         "components (0 to 4), group (0,0,0)",
                         KernelError);
  });
}
