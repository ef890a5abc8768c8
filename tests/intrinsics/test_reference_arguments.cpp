// Buffer and groupshared elements passed straight to intrinsics (WaveActiveSum(Data[i]),
// dot(Normals[i], L)) and vector elements in arithmetic (Colors[i] * 2), as HLSL
// writes them. Expectations are plain loops over the host arrays, wave by wave.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

namespace {

constexpr int kN = 16;  // two waves of 8
constexpr int kW = 8;

/// The threads the tests' if_ keeps: every third thread is off, and so is lane 7 of each wave.
bool Active(int t) { return t % 3 != 1 && t % kW != 7; }

Uint<kN> ThreadIds() {
  Uint<kN> t{NoInit{}};
  for (int i = 0; i < kN; ++i) t.set_lane(i, uint32_t(i));
  return t;
}

}  // namespace

TEST_CASE("wave and quad intrinsics read a buffer or groupshared element argument under the "
          "current mask") {
  std::vector<float> floats(kN);
  std::vector<uint32_t> words(kN);
  for (int t = 0; t < kN; ++t) {
    floats[t] = float(t + 1);  // small integers: float sums are exact in any order
    words[t] = uint32_t(t * 7 + 3) % 11u;
  }
  const RWBuffer<float> F{std::span<float>(floats)};
  const StructuredBuffer<uint32_t> U{std::span<const uint32_t>(words)};

  Float<kN> sum = -1.0f, first = -1.0f, at0 = -1.0f, across_x = -1.0f;
  Uint<kN> prefix = 99u, max_u = 99u, bit_or = 99u, uniform_sum = 99u;
  Uint<kN> prefix_of_index_ref = 99u;
  Bool<kN> all_equal{false};
  RunGroup<kN>(kW, [&] {
    const Uint<kN> i = ThreadIds();
    GroupShared<uint32_t, kN> gs;
    gs[i] = U[i];
    GroupShared<uint32_t> total;
    total = 3u;
    // Every thread reads its own element, so the quad read sees its neighbour's value.
    across_x = QuadReadAcrossX(F[i]);
    const Bool<kN> on = Bool<kN>(i % 3u != 1u) && Bool<kN>(i % uint32_t(kW) != 7u);
    if_(on, [&] {
      sum = WaveActiveSum(F[i]);
      first = WaveReadLaneFirst(F[i]);
      at0 = WaveReadLaneAt(F[i], 0u);
      prefix = WavePrefixSum(gs[i]);
      max_u = WaveActiveMax(U[i]);
      bit_or = WaveActiveBitOr(gs[i]);
      all_equal = WaveActiveAllEqual(gs[i] * (i / uint32_t(kW)));  // wave 0: all 0
      uniform_sum = WaveActiveSum<kN>(total);
      // An out-of-bounds index on the inactive threads only: the reference is read under the
      // mask, so nothing is counted.
      prefix_of_index_ref = WavePrefixSum(U[select(on, i, Uint<kN>(1000u))]);
    });
  });

  for (int t = 0; t < kN; ++t) {
    CAPTURE(t);
    const int w0 = t / kW * kW;
    // Across X: the neighbour in the quad, lane ^ 1 (every thread active there).
    CHECK(across_x.lane(t) == floats[t ^ 1]);
    if (!Active(t)) {
      CHECK(sum.lane(t) == -1.0f);
      CHECK(prefix.lane(t) == 99u);
      continue;
    }
    float s = 0.0f;
    uint32_t mx = 0, orr = 0, pre = 0, n = 0;
    int lowest = -1;
    bool all_same = true;
    for (int l = w0; l < w0 + kW; ++l) {
      if (!Active(l)) continue;
      if (lowest < 0) lowest = l;
      s += floats[l];
      mx = std::max(mx, words[l]);
      orr |= words[l];
      all_same = all_same && words[l] * uint32_t(l / kW) == words[lowest] * uint32_t(lowest / kW);
      if (l < t) pre += words[l];
      ++n;
    }
    CHECK(sum.lane(t) == s);
    CHECK(first.lane(t) == floats[lowest]);
    CHECK(at0.lane(t) == floats[w0]);  // lane 0 of each wave is active
    CHECK(prefix.lane(t) == pre);
    CHECK(prefix_of_index_ref.lane(t) == pre);
    CHECK(max_u.lane(t) == mx);
    CHECK(bit_or.lane(t) == orr);
    CHECK(all_equal.lane(t) == all_same);
    CHECK(uniform_sum.lane(t) == 3u * n);
  }
  CHECK(U.out_of_bounds_reads() == 0);
  CHECK(F.out_of_bounds_reads() == 0);
}

TEST_CASE("a vector element takes arithmetic, dot, any, all, lerp and clamp, read as its value") {
  std::vector<float4> colors(kN);
  for (int t = 0; t < kN; ++t)
    // w: zero on some threads; equal to the neighbour's (t ^ 1) on some pairs only.
    colors[t] = float4{float(t), float(-t), 0.5f * float(t), t % 4 == 1 ? 0.0f : float(t / 4)};
  const RWStructuredBuffer<float4> C{std::span<float4>(colors)};
  const std::vector<float4> before = colors;

  Float4<kN> twice{}, sum{}, neg{}, minus_uniform{}, scaled{}, lerped{}, clamped{};
  Float<kN> d = 0.0f;
  Bool<kN> any_w{false}, any_eq_neighbour{false};
  RunGroup<kN>(kW, [&] {
    const Uint<kN> i = ThreadIds();
    GroupShared<float4, kN> gs;
    gs[i] = C[i];
    twice = C[i] * 2.0f;
    sum = C[i] + gs[i];
    neg = -C[i];
    const Float4<kN> one(1.0f, 2.0f, 3.0f, 4.0f);
    minus_uniform = gs[i] - one;
    scaled = 0.25f * C[i];
    d = dot(C[i], one);
    lerped = lerp(one, C[i], 0.5f);  // a vector element among a vector and a scalar
    clamped = clamp(C[i], 0.0f, 1.0f);
    any_w = any(C[i] * Float4<kN>(0.0f, 0.0f, 0.0f, 1.0f));
    any_eq_neighbour = any(C[i] == gs[i ^ 1u]);  // a component equal to the neighbour's
    // Compound assignment through a vector element, masked.
    if_(i % 2u == 0u, [&] { C[i] += one; });
  });
  for (int t = 0; t < kN; ++t) {
    CAPTURE(t);
    const float4 c = before[t];
    const float cs[4] = {c.x, c.y, c.z, c.w};
    const float ones[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    float dd = 0.0f;
    for (int k = 0; k < 4; ++k) {
      CHECK(twice[k].lane(t) == cs[k] * 2.0f);
      CHECK(sum[k].lane(t) == cs[k] + cs[k]);
      CHECK(neg[k].lane(t) == -cs[k]);
      CHECK(minus_uniform[k].lane(t) == cs[k] - ones[k]);
      CHECK(scaled[k].lane(t) == 0.25f * cs[k]);
      dd += cs[k] * ones[k];  // exact: small integers and halves
      CHECK(lerped[k].lane(t) == ones[k] + 0.5f * (cs[k] - ones[k]));  // HLSL a + s * (b - a)
      CHECK(clamped[k].lane(t) == std::min(std::max(cs[k], 0.0f), 1.0f));
    }
    CHECK(d.lane(t) == dd);
    CHECK(any_w.lane(t) == (c.w != 0.0f));
    const float4 o = before[t ^ 1];
    CHECK(any_eq_neighbour.lane(t) == (c.x == o.x || c.y == o.y || c.z == o.z || c.w == o.w));
    const float4 now = colors[t];
    const float add = t % 2 == 0 ? 1.0f : 0.0f;
    CHECK(now.x == c.x + add);
    CHECK(now.y == c.y + 2.0f * add);
    CHECK(now.z == c.z + 3.0f * add);
    CHECK(now.w == c.w + 4.0f * add);
  }
}

TEST_CASE("an element at a uniform index takes the vector functions with a uniform vector") {
  // RW[0u] is a reference to one uniform float3; with a uniform float3 beside it the call once
  // matched both the uniform-vector form and the element-reference form (ambiguous).
  std::vector<float3> v{float3{3.0f, -4.0f, 12.0f}, float3{0.0f, 0.0f, 0.0f}};
  const RWStructuredBuffer<float3> V{std::span<float3>(v)};
  const float3 L{1.0f, 2.0f, 2.0f};
  float d0 = 0, d1 = 0, len = 0, dist = 0;
  float3 c{}, r{}, m{}, n{};
  RunGroup<kN>(kW, [&] {
    d0 = dot(V[0u], L);
    d1 = dot(L, V[0u]);
    len = length(V[0u]);
    dist = distance(V[0u], L);
    c = cross(V[0u], L);
    r = reflect(V[0u], L);
    m = min(V[0u], L);
    n = normalize(V[0u]);
  });
  // Hand-worked: v = (3, -4, 12), |v| = 13; L = (1, 2, 2); v . L = 3 - 8 + 24 = 19;
  // v - L = (2, -6, 10), |v - L| = sqrt(140); v x L = (-4*2 - 12*2, 12*1 - 3*2, 3*2 - (-4)*1)
  // = (-32, 6, 10); reflect = v - 2 (v . L) L = (3 - 38, -4 - 76, 12 - 76).
  CHECK(d0 == 19.0f);
  CHECK(d1 == 19.0f);
  CHECK(len == 13.0f);
  CHECK(dist == std::sqrt(140.0f));
  CHECK((c.x == -32.0f && c.y == 6.0f && c.z == 10.0f));
  CHECK((r.x == -35.0f && r.y == -80.0f && r.z == -64.0f));
  CHECK((m.x == 1.0f && m.y == -4.0f && m.z == 2.0f));
  // normalize = v * rsqrt(169) under spec: rsqrt(169) = 1 / 13 rounded, then each product.
  const float inv13 = 1.0f / 13.0f;
  CHECK((n.x == 3.0f * inv13 && n.y == -4.0f * inv13 && n.z == 12.0f * inv13));
}

TEST_CASE("WaveMultiPrefixSum takes a buffer element as its value") {
  std::vector<uint32_t> words(kN);
  for (int t = 0; t < kN; ++t) words[t] = uint32_t(t % 5 + 1);
  const RWBuffer<uint32_t> U{std::span<uint32_t>(words)};
  Uint<kN> multi = 99u;
  RunGroup<kN>(kW, [&] {
    const Uint<kN> i = ThreadIds();
    // Partition each wave by the parity of the lane: the even lanes, the odd lanes.
    const Uint<kN> lane = i % uint32_t(kW);
    const Uint4<kN> part = WaveMatch(lane % 2u);
    multi = WaveMultiPrefixSum(U[i], part);
  });
  for (int t = 0; t < kN; ++t) {
    CAPTURE(t);
    uint32_t pre = 0;
    for (int l = t / kW * kW; l < t; ++l)
      if (l % 2 == t % 2) pre += words[l];
    CHECK(multi.lane(t) == pre);
  }
}
