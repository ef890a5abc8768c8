// test_uniform_vectors.cpp -- uniform vectors (float3, uint3, ...) as values and as math
// arguments, and math calls that mix uniform and per-thread arguments, against hand-worked values
// and plain loops over floats.
#include "emulator/emulator.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace waveemu;

namespace {
constexpr int kN = 12;
const float kNan = std::numeric_limits<float>::quiet_NaN();

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }

/// A per-thread value with a distinct, ordinary value on each thread.
Float<kN> Ramp(float start, float step) {
  Float<kN> x;
  for (int t = 0; t < kN; ++t) x.set_lane(t, start + step * float(t));
  return x;
}
}  // namespace

TEST_CASE("uniform vectors have HLSL's component-wise arithmetic") {
  const float3 a{1.0f, -2.0f, 0.5f}, b{4.0f, 8.0f, -1.0f};
  CHECK(a + b == float3{5.0f, 6.0f, -0.5f});
  CHECK(a - b == float3{-3.0f, -10.0f, 1.5f});
  CHECK(a * b == float3{4.0f, -16.0f, -0.5f});
  CHECK(b / a == float3{4.0f, -4.0f, -2.0f});
  CHECK(a * 2.0f == float3{2.0f, -4.0f, 1.0f});
  CHECK(3.0f - a == float3{2.0f, 5.0f, 2.5f});
  CHECK(-a == float3{-1.0f, 2.0f, -0.5f});
  float3 c = a;
  c += b;
  c *= 0.5f;
  CHECK(c == float3{2.5f, 3.0f, -0.25f});

  // Integer rules are the per-thread ones: division by zero gives all ones, shift counts are
  // masked to the bit width, unsigned arithmetic wraps.
  const uint3 g{7, 8, 9};
  CHECK(g / uint3{2, 0, 3} == uint3{3, 0xFFFFFFFFu, 3});
  CHECK(g % uint3{2, 0, 4} == uint3{1, 0xFFFFFFFFu, 1});
  CHECK((g << 33u) == uint3{14, 16, 18});
  CHECK(g * 64u + 1u == uint3{449, 513, 577});
  CHECK(uint3{0, 1, 2} - 1u == uint3{0xFFFFFFFFu, 0, 1});
  CHECK((g & 3u) == uint3{3, 0, 1});
  CHECK(~uint3{0, 1, 0xFFFFFFFFu} == uint3{0xFFFFFFFFu, 0xFFFFFFFEu, 0});
  CHECK(int3{-7, 7, 0} / int3{2, -2, 5} == int3{-3, -3, 0});

  // Comparisons give bool vectors; == and != stay whole-vector C++ equality.
  const auto lt = a < b;
  CHECK(lt.x);
  CHECK(lt.y);
  CHECK(!lt.z);
  CHECK(any(lt));
  CHECK(!all(lt));
  CHECK(all(a <= a));
  CHECK(!any(a > a));
  CHECK(a != b);
}

TEST_CASE("uniform vectors mixed with per-thread values give per-thread vectors") {
  const float3 light{0.0f, 3.0f, 4.0f};
  const Float<kN> s = Ramp(1.0f, 0.5f);
  const Float3<kN> scaled = light * s;
  const Float3<kN> p(Ramp(0.0f, 1.0f), Ramp(2.0f, -1.0f), Ramp(-3.0f, 0.25f));
  const Float3<kN> diff = p - light;
  for (int t = 0; t < kN; ++t) {
    INFO("thread ", t);
    CHECK(scaled.y.lane(t) == 3.0f * s.lane(t));
    CHECK(scaled.z.lane(t) == 4.0f * s.lane(t));
    CHECK(diff.x.lane(t) == p.x.lane(t) - 0.0f);
    CHECK(diff.z.lane(t) == p.z.lane(t) - 4.0f);
  }
  const Uint<kN> tid = Uint<kN>(Ramp(0.0f, 1.0f));
  const Uint3<kN> id = uint3{2, 3, 4} * tid;
  CHECK(id.x.lane(5) == 10u);
  CHECK(id.z.lane(11) == 44u);
}

TEST_CASE("math on uniform vectors: hand-worked values") {
  const float3 v{3.0f, 4.0f, 0.0f};
  CHECK(length(v) == 5.0f);
  CHECK(dot(v, float3{1.0f, 2.0f, 3.0f}) == 11.0f);
  CHECK(distance(v, float3{0.0f, 0.0f, 0.0f}) == 5.0f);
  CHECK(cross(float3{1, 0, 0}, float3{0, 1, 0}) == float3{0, 0, 1});
  CHECK(cross(float3{0, 1, 0}, float3{1, 0, 0}) == float3{0, 0, -1});
  const float3 n = normalize(v);
  // DXC's expansion: v * rsqrt(dot(v, v)), here v * (1 / sqrt(25)), each step rounded.
  CHECK(n.x == 3.0f * (1.0f / 5.0f));
  CHECK(n.y == 4.0f * (1.0f / 5.0f));
  CHECK(n.z == 0.0f);
  CHECK(reflect(float3{1, -1, 0}, float3{0, 1, 0}) == float3{1, 1, 0});
  CHECK(faceforward(float3{0, 0, 1}, float3{0, 0, 1}, float3{0, 0, 1}) == float3{0, 0, -1});
  CHECK(clamp(float3{-1.0f, 0.5f, 2.0f}, 0.0f, 1.0f) == float3{0.0f, 0.5f, 1.0f});
  CHECK(saturate(float3{-1.0f, 0.25f, 7.0f}) == float3{0.0f, 0.25f, 1.0f});
  CHECK(lerp(float3{0, 0, 0}, float3{2, 4, 8}, 0.5f) == float3{1, 2, 4});
  CHECK(min(float3{kNan, 1.0f, 2.0f}, 0.0f) == float3{0.0f, 0.0f, 0.0f});  // NaN ignored
  CHECK(max(uint3{1, 5, 9}, 4u) == uint3{4, 5, 9});
  CHECK(abs(int3{-3, 0, 3}) == int3{3, 0, 3});
  CHECK(floor(float3{1.5f, -1.5f, 0.0f}) == float3{1.0f, -2.0f, 0.0f});
  CHECK(step(float3{1, 2, 3}, float3{2, 2, 2}) == float3{1, 1, 0});
  CHECK(countbits(uint3{0, 7, 0xFFFFFFFFu}) == uint3{0, 3, 32});
  CHECK(asuint(float2{1.0f, -0.0f}) == uint2{0x3F800000u, 0x80000000u});
  CHECK(sqrt(float4{4, 9, 16, 0}) == float4{2, 3, 4, 0});
  const auto nan = isnan(float3{kNan, 1.0f, kNan});
  CHECK(nan.x);
  CHECK(!nan.y);
  CHECK(nan.z);
  CHECK(any(isinf(float2{1.0f, INFINITY})));
  CHECK(select(true, float3{1, 2, 3}, float3{4, 5, 6}) == float3{1, 2, 3});
  CHECK(select(false, 1.0f, 2.0f) == 2.0f);
  CHECK(all(uint3{1, 2, 3}));
  CHECK(!all(uint3{1, 0, 3}));
  CHECK(any(2.0f));
  CHECK(!any(0u));
}

TEST_CASE("math on a uniform vector gives the bits of the same math on a per-thread vector") {
  // The uniform forms compute as one thread through the per-thread code: each special value
  // gives the same bits both ways.
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.5f, -2.5f, 1e-40f, INFINITY,
                            -INFINITY, kNan, 3.0e38f};
  for (float a : specials) {
    for (float b : specials) {
      const float3 u{a, b, 1.5f};
      const Float3<kN> p(u);
      INFO("a=", a, " b=", b);
      auto same = [&](const float3& uniform, const Float3<kN>& per_thread) {
        for (int t = 0; t < kN; t += 5) {
          CHECK(Bits(uniform.x) == Bits(per_thread.x.lane(t)));
          CHECK(Bits(uniform.y) == Bits(per_thread.y.lane(t)));
          CHECK(Bits(uniform.z) == Bits(per_thread.z.lane(t)));
        }
      };
      same(saturate(u), saturate(p));
      same(frac(u), frac(p));
      same(round(u), round(p));
      same(rcp(u), rcp(p));
      same(sqrt(u), sqrt(p));
      same(min(u, float3{b, a, -0.0f}), min(p, Float3<kN>(float3{b, a, -0.0f})));
      same(max(u, float3{b, a, -0.0f}), max(p, Float3<kN>(float3{b, a, -0.0f})));
      same(clamp(u, -1.0f, 1.0f), clamp(p, -1.0f, 1.0f));
      same(lerp(u, float3{b, a, 2.0f}, 0.25f), lerp(p, Float3<kN>(float3{b, a, 2.0f}), 0.25f));
      same(normalize(u), normalize(p));
      CHECK(Bits(length(u)) == Bits(length(p).lane(3)));
      CHECK(Bits(dot(u, u)) == Bits(dot(p, p).lane(7)));
      // Uniform scalars too: signed-zero ties and NaN as per thread.
      const Float<kN> pa(a), pb(b);
      CHECK(Bits(min(a, b)) == Bits(min(pa, pb).lane(1)));
      CHECK(Bits(max(a, b)) == Bits(max(pa, pb).lane(1)));
      CHECK(Bits(clamp(a, b, 1.0f)) == Bits(clamp(pa, pb, 1.0f).lane(1)));
      CHECK(Bits(saturate(a)) == Bits(saturate(pa).lane(1)));
      CHECK(Bits(mad(a, b, 1.0f)) == Bits(mad(pa, pb, 1.0f).lane(1)));
      CHECK(Bits(waveemu::lerp(a, b, 0.5f)) == Bits(lerp(pa, pb, 0.5f).lane(1)));
    }
  }
}

TEST_CASE("calls that mix uniform and per-thread arguments broadcast the uniform ones") {
  const Float<kN> t = Ramp(-0.5f, 0.125f);
  const float3 light{0.0f, 0.6f, 0.8f};
  const float3 lo{0.0f, -0.25f, 0.5f};
  const Float3<kN> n(Ramp(1.0f, -0.25f), Ramp(0.5f, 0.5f), Ramp(-1.0f, 0.0625f));

  const Float<kN> fade = lerp(0.0f, 10.0f, t);
  const Float<kN> shift = lerp(1.0f, t, 0.5f);
  const Float<kN> clamped = clamp(0.25f, t, 1.0f);
  const Float<kN> scaled = mad(2.0f, t, 1.0f);
  const Float<kN> lit = dot(n, light);
  const Float<kN> lit_swapped = dot(light, n);
  const Float3<kN> to_light = light - n;
  const Float3<kN> tinted = lerp(light, n, t);
  const Float3<kN> boxed = clamp(t, lo, 1.0f);  // a scalar first: a vector clamp, as in HLSL
  const Float3<kN> picked = select(t > 0.0f, n, light);
  const Float3<kN> crossed = cross(n, light);
  const Float3<kN> steps = step(lo, n);

  for (int k = 0; k < kN; ++k) {
    const float x = t.lane(k);
    const float nx = n.x.lane(k), ny = n.y.lane(k), nz = n.z.lane(k);
    INFO("thread ", k, " t=", x);
    // lerp(a, b, s) = a + s * (b - a), each operation rounded (DXC's expansion).
    CHECK(fade.lane(k) == 0.0f + x * (10.0f - 0.0f));
    CHECK(shift.lane(k) == 1.0f + 0.5f * (x - 1.0f));
    CHECK(clamped.lane(k) == std::fmin(std::fmax(0.25f, x), 1.0f));
    CHECK(scaled.lane(k) == 2.0f * x + 1.0f);  // exact either way; fusing is checked below
    const float d = nx * 0.0f + ny * 0.6f + nz * 0.8f;  // left to right, each rounded
    CHECK(lit.lane(k) == d);
    CHECK(lit_swapped.lane(k) == 0.0f * nx + 0.6f * ny + 0.8f * nz);
    CHECK(to_light.y.lane(k) == 0.6f - ny);
    CHECK(tinted.z.lane(k) == 0.8f + x * (nz - 0.8f));
    CHECK(boxed.x.lane(k) == std::fmin(std::fmax(x, 0.0f), 1.0f));
    CHECK(boxed.y.lane(k) == std::fmin(std::fmax(x, -0.25f), 1.0f));
    CHECK(boxed.z.lane(k) == std::fmin(std::fmax(x, 0.5f), 1.0f));
    CHECK(picked.x.lane(k) == (x > 0.0f ? nx : 0.0f));
    CHECK(picked.z.lane(k) == (x > 0.0f ? nz : 0.8f));
    CHECK(crossed.x.lane(k) == ny * 0.8f - nz * 0.6f);
    CHECK(crossed.y.lane(k) == nz * 0.0f - nx * 0.8f);
    CHECK(steps.y.lane(k) == (ny >= -0.25f ? 1.0f : 0.0f));
  }
}

TEST_CASE("a uniform mad fuses as the running group's profile says") {
  // a = b = 1 + 2^-12, c = -(1 + 2^-11): a*b + c is 2^-24 with one rounding, 0 with two.
  const float a = 1.0f + std::ldexp(1.0f, -12), c = -(1.0f + std::ldexp(1.0f, -11));
  float lavapipe = -1.0f, nvidia = -1.0f;
  float3 nvidia3{};
  test::RunGroup<kN>(8, [&] { lavapipe = mad(a, a, c); }, LavapipeProfile());
  test::RunGroup<kN>(32, [&] {
    nvidia = mad(a, a, c);
    nvidia3 = mad(float3{a, a, 1.0f}, float3{a, a, 1.0f}, float3{c, 0.0f, 0.0f});
  }, NvidiaProfile());
  CHECK(lavapipe == 0.0f);
  CHECK(nvidia == std::ldexp(1.0f, -24));
  CHECK(nvidia3 == float3{std::ldexp(1.0f, -24), a * a, 1.0f});
  CHECK(mad(a, a, c) == 0.0f);  // outside a group: not fused
  CHECK(mad(3u, 4u, 5u) == 17u);
}
