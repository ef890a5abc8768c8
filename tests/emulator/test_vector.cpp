// test_vector.cpp -- per-thread HLSL vectors: element-wise operators against a scalar loop,
// swizzle reads (hand-worked), masked swizzle writes inside if_, casts, constructors, select,
// any, all, dot.
#include "emulator/emulator.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>

using namespace waveemu;

namespace {

constexpr int kN = 37;

/// Thread t, component i holds 10*t + i + 1 (distinct everywhere, so swizzles are visible).
template <class T, int C>
Vector<T, C, kN> Ramp() {
  std::array<std::array<T, kN>, C> c;
  for (int i = 0; i < C; ++i)
    for (int t = 0; t < kN; ++t) c[i][t] = T(10 * t + i + 1);
  return Vector<T, C, kN>(c);
}

template <class T, int C>
void CheckComponents(const Vector<T, C, kN>& v, auto expected, const char* what) {
  for (int t = 0; t < kN; ++t)
    for (int i = 0; i < C; ++i)
      if (!(v[i].lane(t) == T(expected(t, i)))) {
        FAIL_CHECK(what, ": thread ", t, " component ", i, " expected ", T(expected(t, i)),
                   " got ", v[i].lane(t));
        return;
      }
  CHECK(true);
}

}  // namespace

TEST_CASE("vector arithmetic is element-wise with vectors, per-thread scalars and plain scalars") {
  const auto a = Ramp<float, 3>();
  const auto b = Ramp<float, 3>() * 2.0f;
  std::array<float, kN> sv;
  for (int t = 0; t < kN; ++t) sv[t] = float(t) - 5.0f;
  const Float<kN> s(sv);
  auto av = [](int t, int i) { return float(10 * t + i + 1); };
  CheckComponents<float, 3>(b, [&](int t, int i) { return 2 * av(t, i); }, "v * 2");
  CheckComponents<float, 3>(a + b, [&](int t, int i) { return 3 * av(t, i); }, "a + b");
  CheckComponents<float, 3>(b - a, [&](int t, int i) { return av(t, i); }, "b - a");
  CheckComponents<float, 3>(a * s, [&](int t, int i) { return av(t, i) * sv[t]; }, "a * s");
  CheckComponents<float, 3>(s * a, [&](int t, int i) { return av(t, i) * sv[t]; }, "s * a");
  CheckComponents<float, 3>(1.0f - a, [&](int t, int i) { return 1 - av(t, i); }, "1 - a");
  CheckComponents<float, 3>(-a, [&](int t, int i) { return -av(t, i); }, "-a");
  CheckComponents<float, 3>(a / Uint<kN>(2u), [&](int t, int i) { return av(t, i) / 2; },
                            "a / (uint)2 converts the uint");

  const auto u = Ramp<uint32_t, 4>();
  auto uv = [](int t, int i) { return uint32_t(10 * t + i + 1); };
  CheckComponents<uint32_t, 4>(u << 33u, [&](int t, int i) { return uv(t, i) << 1; },
                               "u << 33 (masked count)");
  CheckComponents<uint32_t, 4>(u & 6u, [&](int t, int i) { return uv(t, i) & 6u; }, "u & 6");
  CheckComponents<uint32_t, 4>(u % 0u, [&](int, int) { return 0xFFFFFFFFu; }, "u % 0");
  CheckComponents<uint32_t, 4>(~u ^ u, [&](int, int) { return 0xFFFFFFFFu; }, "~u ^ u");
  CheckComponents<uint32_t, 4>(u - 100u, [&](int t, int i) { return uv(t, i) - 100u; },
                               "u - 100 wraps");
}

TEST_CASE("vector comparisons give bool vectors; any, all and select work per thread") {
  const auto a = Ramp<int32_t, 3>();
  const Int3<kN> b(Int<kN>(25), Int<kN>(10), Int<kN>(1000));
  const Bool3<kN> lt = a < b;
  const Bool<kN> any_lt = any(lt), all_lt = all(lt);
  const Int3<kN> sel = select(lt, a, b);
  const Int3<kN> sel_thread = select(any_lt, a, b);
  for (int t = 0; t < kN; ++t) {
    const int x = 10 * t + 1, y = 10 * t + 2, z = 10 * t + 3;
    const bool c0 = x < 25, c1 = y < 10, c2 = z < 1000;
    INFO("thread ", t);
    CHECK(lt.x.lane(t) == c0);
    CHECK(lt.y.lane(t) == c1);
    CHECK(lt.z.lane(t) == c2);
    CHECK(any_lt.lane(t) == (c0 || c1 || c2));
    CHECK(all_lt.lane(t) == (c0 && c1 && c2));
    CHECK(sel.x.lane(t) == (c0 ? x : 25));
    CHECK(sel.y.lane(t) == (c1 ? y : 10));
    CHECK(sel_thread.z.lane(t) == ((c0 || c1 || c2) ? z : 1000));
  }
  CHECK(all(Uint2<kN>(1u, 2u)).mask().IsAll());
  CHECK(any(Uint2<kN>(0u, 0u)).mask().Empty());
  CHECK((!Bool2<kN>(true, false)).y.mask().IsAll());
}

TEST_CASE("swizzles read the named components in order") {
  const auto v = Ramp<uint32_t, 4>();  // thread t: (10t+1, 10t+2, 10t+3, 10t+4)
  auto c = [](int t, int i) { return uint32_t(10 * t + i + 1); };
  // Each swizzle spelled out: the component indices it must pick.
  CheckComponents<uint32_t, 2>(v.xy(), [&](int t, int i) { return c(t, i); }, "xy");
  CheckComponents<uint32_t, 2>(v.xz(), [&](int t, int i) { return c(t, i * 2); }, "xz");
  CheckComponents<uint32_t, 2>(v.yz(), [&](int t, int i) { return c(t, i + 1); }, "yz");
  CheckComponents<uint32_t, 2>(v.yx(), [&](int t, int i) { return c(t, 1 - i); }, "yx");
  CheckComponents<uint32_t, 2>(v.zy(), [&](int t, int i) { return c(t, 2 - i); }, "zy");
  CheckComponents<uint32_t, 2>(v.zx(), [&](int t, int i) { return c(t, 2 - 2 * i); }, "zx");
  CheckComponents<uint32_t, 3>(v.xyz(), [&](int t, int i) { return c(t, i); }, "xyz");
  CheckComponents<uint32_t, 3>(v.zyx(), [&](int t, int i) { return c(t, 2 - i); }, "zyx");
  const int xzy[] = {0, 2, 1}, yzx[] = {1, 2, 0};
  CheckComponents<uint32_t, 3>(v.xzy(), [&](int t, int i) { return c(t, xzy[i]); }, "xzy");
  CheckComponents<uint32_t, 3>(v.yzx(), [&](int t, int i) { return c(t, yzx[i]); }, "yzx");
  CheckComponents<uint32_t, 3>(v.xxx(), [&](int t, int) { return c(t, 0); }, "xxx");
  CheckComponents<uint32_t, 4>(v.xyzw(), [&](int t, int i) { return c(t, i); }, "xyzw");
  CheckComponents<uint32_t, 4>(v.wzyx(), [&](int t, int i) { return c(t, 3 - i); }, "wzyx");
  CheckComponents<uint32_t, 3>(v.rgb(), [&](int t, int i) { return c(t, i); }, "rgb");
  CheckComponents<uint32_t, 2>(v.rg(), [&](int t, int i) { return c(t, i); }, "rg");
  CheckComponents<uint32_t, 2>(v.ba(), [&](int t, int i) { return c(t, i + 2); }, "ba");
  CheckComponents<uint32_t, 4>(v.rgba(), [&](int t, int i) { return c(t, i); }, "rgba");
  for (int t = 0; t < kN; ++t) {
    CHECK(v.r().lane(t) == c(t, 0));
    CHECK(v.g().lane(t) == c(t, 1));
    CHECK(v.b().lane(t) == c(t, 2));
    CHECK(v.a().lane(t) == c(t, 3));
  }
  // On a variable the swizzle is a proxy; it still computes like a vector.
  auto w = Ramp<uint32_t, 4>();
  const Uint2<kN> sum = w.zy() + w.xx();
  CheckComponents<uint32_t, 2>(sum, [&](int t, int i) { return c(t, 2 - i) + c(t, 0); },
                               "zy + xx");
}

TEST_CASE("swizzle writes inside if_ change only the active threads and the named components") {
  for (const auto& p : test::AllMaskPatterns<kN>()) {
    auto v = Ramp<float, 4>();
    auto u = Ramp<uint32_t, 3>();
    Bool3<kN> b(false);
    const Float2<kN> value(Float<kN>(-1.0f), Float<kN>(-2.0f));
    test::RunGroup<kN>(8, [&] {
      if_(Bool<kN>::FromMask(p.mask), [&] {
        v.zx() = value;    // z = -1, x = -2
        v.a() = 7.0f;      // w = 7
        u.yx() = u.xy();   // swap through copies
        u.zy() += 100u;    // compound through a swizzle
        b.xz() = Bool2<kN>(true, true);
      });
    });
    for (int t = 0; t < kN; ++t) {
      const bool on = p.mask.Test(t);
      const float f = float(10 * t);
      INFO("mask ", p.name, ", thread ", t);
      CHECK(v.x.lane(t) == (on ? -2.0f : f + 1));
      CHECK(v.y.lane(t) == f + 2);  // not named: unchanged
      CHECK(v.z.lane(t) == (on ? -1.0f : f + 3));
      CHECK(v.w.lane(t) == (on ? 7.0f : f + 4));
      const uint32_t k = 10 * t;
      CHECK(u.x.lane(t) == (on ? k + 2 : k + 1));
      CHECK(u.y.lane(t) == (on ? k + 1 + 100 : k + 2));  // swapped first, then += 100
      CHECK(u.z.lane(t) == (on ? k + 3 + 100 : k + 3));
      CHECK(b.x.lane(t) == on);
      CHECK_FALSE(b.y.lane(t));
      CHECK(b.z.lane(t) == on);
    }
  }
}

TEST_CASE("whole-vector assignment inside if_ is masked per component") {
  for (const auto& p : test::AllMaskPatterns<kN>()) {
    Int3<kN> v(Int<kN>(-9));
    test::RunGroup<kN>(4, [&] { if_(Bool<kN>::FromMask(p.mask), [&] { v = Ramp<int32_t, 3>(); }); });
    CheckComponents<int32_t, 3>(
        v, [&](int t, int i) { return p.mask.Test(t) ? 10 * t + i + 1 : -9; }, p.name.c_str());
  }
}

TEST_CASE("vector casts convert each component with the scalar rules") {
  const Float3<kN> f(-2.7f, std::numeric_limits<float>::quiet_NaN(), 3e9f);
  const Int3<kN> i(f);
  const Uint3<kN> u(f);
  const Bool3<kN> b(Float3<kN>(0.0f, -0.0f, 0.5f));
  const Float2<kN> truncated(Ramp<float, 4>());  // (float2)v4 keeps x and y
  for (int t = 0; t < kN; ++t) {
    CHECK(i.x.lane(t) == -2);
    CHECK(i.y.lane(t) == 0);
    CHECK(i.z.lane(t) == std::numeric_limits<int32_t>::max());
    CHECK(u.x.lane(t) == 0u);
    CHECK(u.z.lane(t) == 3000000000u);
    CHECK_FALSE(b.x.lane(t));
    CHECK_FALSE(b.y.lane(t));
    CHECK(b.z.lane(t));
    CHECK(truncated.x.lane(t) == float(10 * t + 1));
    CHECK(truncated.y.lane(t) == float(10 * t + 2));
  }
}

TEST_CASE("vectors construct from components, broadcasts, uniform vectors and concatenation") {
  const Float3<kN> broadcast(2.5f);
  const Float3<kN> from_uniform = float3{1.0f, 2.0f, 3.0f};
  const Uint3<kN> from_uint3 = uint3{4, 5, 6};
  const auto r = Ramp<float, 3>();
  const Float4<kN> cat(r, 1.0f);             // float4(v.xyz, 1)
  const Float4<kN> cat2(r.zy(), r.xx());     // float4(a.zy, b.xx)
  const Float4<kN> cat3(0.5f, r);            // float4(0.5, v.xyz)
  for (int t = 0; t < kN; ++t) {
    const float f = float(10 * t);
    CHECK(broadcast.lane(t) == std::array<float, 3>{2.5f, 2.5f, 2.5f});
    CHECK(from_uniform.lane(t) == std::array<float, 3>{1, 2, 3});
    CHECK(from_uint3.lane(t) == std::array<uint32_t, 3>{4, 5, 6});
    CHECK(cat.lane(t) == std::array<float, 4>{f + 1, f + 2, f + 3, 1.0f});
    CHECK(cat2.lane(t) == std::array<float, 4>{f + 3, f + 2, f + 1, f + 1});
    CHECK(cat3.lane(t) == std::array<float, 4>{0.5f, f + 1, f + 2, f + 3});
  }
  // Construction is not masked: a vector built inside a branch has every thread's value.
  Float3<kN> built;
  test::RunGroup<kN>(8, [&] {
    if_(Bool<kN>::FromMask(Mask<kN>::Range(0, 3)), [&] {
      const Float4<kN> local(r, 9.0f);
      for (int t = 0; t < kN; ++t) CHECK(local.w.lane(t) == 9.0f);
    });
  });
  (void)built;
}

TEST_CASE("dot adds the component products left to right") {
  const auto a = Ramp<float, 3>();
  const Float3<kN> b(1.0f, -1.0f, 0.5f);
  const Float<kN> d = dot(a, b);
  const Uint<kN> du = dot(Ramp<uint32_t, 2>(), Uint2<kN>(3u, 4u));
  for (int t = 0; t < kN; ++t) {
    const float x = float(10 * t + 1), y = float(10 * t + 2), z = float(10 * t + 3);
    CHECK(d.lane(t) == (x * 1.0f + y * -1.0f) + z * 0.5f);
    CHECK(du.lane(t) == uint32_t(10 * t + 1) * 3u + uint32_t(10 * t + 2) * 4u);
  }
}

TEST_CASE("v[i] reads and writes one component; an index past the last one is a KernelError") {
  // Per-thread vectors: v[i] is component i, and a write through it is masked.
  auto v = Ramp<uint32_t, 4>();
  auto long_v = Ramp<uint32_t, 6>();
  test::RunGroup<kN>(8, [&] {
    if_(Bool<kN>::FromMask(Mask<kN>::Range(0, 3)), [&] {
      v[2] = Uint<kN>(7u);
      long_v[5] = Uint<kN>(8u);
    });
  });
  CheckComponents<uint32_t, 4>(
      v, [](int t, int i) { return i == 2 && t < 3 ? 7 : 10 * t + i + 1; }, "v[2] = 7 in if_");
  CheckComponents<uint32_t, 6>(
      long_v, [](int t, int i) { return i == 5 && t < 3 ? 8 : 10 * t + i + 1; },
      "long_v[5] = 8 in if_");

  // Uniform vectors index their members in order, as HLSL's u[i] does.
  float4 u{1.0f, 2.0f, 3.0f, 4.0f};
  u[3] = 9.0f;
  const uint3 g{4, 5, 6};
  const int2 p{-1, 7};
  CHECK(u == float4{1.0f, 2.0f, 3.0f, 9.0f});
  CHECK(g[0] + g[1] + g[2] == 15u);
  CHECK(p[1] == 7);
  static_assert(float3{1.0f, 2.0f, 3.0f}[2] == 3.0f);  // usable in constant expressions

  // Past the end, or negative: HLSL leaves a dynamic index undefined; waveemu stops the kernel
  // with a message that names the index, the size and the group, for every kind of vector.
  const auto bad_index = [](int i) { return i; };  // hides the constant from -Warray-bounds
  CHECK_THROWS_WITH_AS(v[bad_index(4)],
                       "vector component index 4 is out of range: the vector has 4 components "
                       "(0 to 3), outside a dispatch",
                       KernelError);
  CHECK_THROWS_WITH_AS(long_v[bad_index(-1)],
                       "vector component index -1 is out of range: the vector has 6 components "
                       "(0 to 5), outside a dispatch",
                       KernelError);
  test::RunGroup<kN>(8, [&] {  // inside a kernel the message names the group
    CHECK_THROWS_WITH_AS(u[bad_index(4)],
                         "vector component index 4 is out of range: the vector has 4 components "
                         "(0 to 3), group (0,0,0)",
                         KernelError);
  });
  CHECK_THROWS_AS(g[bad_index(3)], KernelError);
  CHECK_THROWS_AS(p[bad_index(2)], KernelError);
  UniformLongVector<uint32_t, 5> w{1, 2, 3, 4, 5};
  CHECK(w[4] == 5u);
  CHECK_THROWS_WITH_AS(w[bad_index(5)],
                       "vector component index 5 is out of range: the vector has 5 components "
                       "(0 to 4), outside a dispatch",
                       KernelError);
}

TEST_CASE("v[k] with a per-thread k reads and writes each thread's own component") {
  // HLSL: uint4 v = ...; uint c = v[tid % 4]; v[(tid + 1) % 4] = 100 + tid; (inside if (tid < 20))
  auto v = Ramp<uint32_t, 4>();
  const auto before = v;
  Uint<kN> tid;
  for (int t = 0; t < kN; ++t) tid.set_lane(t, uint32_t(t));
  Uint<kN> read(0u), read_long(0u);
  auto long_v = Ramp<uint32_t, 7>();
  test::RunGroup<kN>(8, [&] {
    read = v[tid % 4u];
    read_long = long_v[Int<kN>(tid % 7u)];  // a signed index works too
    if_(tid < 20u, [&] {
      v[(tid + 1u) % 4u] = tid + 100u;
      v[tid % 4u] += 1000u;  // compound assignment through the per-thread reference
    });
  });
  for (int t = 0; t < kN; ++t) {
    CHECK(read.lane(t) == before[t % 4].lane(t));
    CHECK(read_long.lane(t) == uint32_t(10 * t + t % 7 + 1));
  }
  CheckComponents<uint32_t, 4>(
      v,
      [](int t, int i) {
        uint32_t x = uint32_t(10 * t + i + 1);  // the scalar loop of the HLSL above
        if (t < 20 && i == (t + 1) % 4) x = uint32_t(t + 100);
        if (t < 20 && i == t % 4) x += 1000u;
        return x;
      },
      "v[(tid + 1) % 4] = tid + 100; v[tid % 4] += 1000 under tid < 20");

  // An active thread's index past the end stops the kernel and names that thread; an inactive
  // thread's index is never used, so it may be anything.
  const auto snapshot = v;
  test::RunGroup<kN>(8, [&] {
    CHECK_THROWS_WITH_AS((void)Uint<kN>(v[tid]),
                         "vector component index 4 is out of range: the vector has 4 components "
                         "(0 to 3), group (0,0,0), thread 4",
                         KernelError);
    if_(tid < 4u, [&] { CHECK_NOTHROW(v[tid] = Uint<kN>(0u)); });
  });
  CheckComponents<uint32_t, 4>(
      v, [&](int t, int i) { return t < 4 && i == t ? 0u : snapshot[i].lane(t); },
      "v[tid] = 0 under tid < 4");
}

TEST_CASE("v[k] with a per-thread k works in expressions, compound assignments and aliasing") {
  // HLSL: uint4 v; v[k] -= 1; v[k] *= 3; v[k] /= 2; v[k]++; uint s = v[k] * v[k] + 1;
  //       v[v.x % 4] = 2;  (the index is read before the write, even when it is v's own x)
  auto v = Ramp<uint32_t, 4>();
  Uint<kN> tid, sq(0u);
  for (int t = 0; t < kN; ++t) tid.set_lane(t, uint32_t(t));
  Bool<kN> odd;
  test::RunGroup<kN>(8, [&] {
    const Uint<kN> k = tid % 4u;
    v[k] -= 1u;
    v[k] *= 3u;
    v[k] /= 2u;
    v[k]++;
    sq = v[k] * v[k] + 1u;
    odd = (v[k] & 1u) == 1u;
    v[v.x % 4u] = 2u;
  });
  for (int t = 0; t < kN; ++t) {
    uint32_t c[4];
    for (int i = 0; i < 4; ++i) c[i] = uint32_t(10 * t + i + 1);
    uint32_t& ck = c[t % 4];
    ck = (ck - 1u) * 3u / 2u + 1u;
    CHECK(sq.lane(t) == ck * ck + 1u);
    CHECK(odd.lane(t) == ((ck & 1u) == 1u));
    c[c[0] % 4] = 2u;
    for (int i = 0; i < 4; ++i) CHECK(v[i].lane(t) == c[i]);
  }

  // w[w.x] = 2 with the index read from the component being written: thread t has w.x = t % 4,
  // so on threads with w.x = 0 it writes x itself, and nothing else may change.
  Uint4<kN> w(tid % 4u, Uint<kN>(10u), Uint<kN>(20u), Uint<kN>(30u));
  test::RunGroup<kN>(8, [&] { w[w.x] = 2u; });
  for (int t = 0; t < kN; ++t) {
    uint32_t c[4] = {uint32_t(t % 4), 10u, 20u, 30u};
    c[c[0]] = 2u;
    for (int i = 0; i < 4; ++i) CHECK(w[i].lane(t) == c[i]);
  }

  // A swizzle's components read (writes through them do not compile: compile_fail).
  const auto r = Ramp<uint32_t, 4>();
  auto rr = Ramp<uint32_t, 4>();
  CHECK(rr.wzyx()[0].lane(2) == r.w.lane(2));
  CHECK(rr.wzyx()[tid % 4u].lane(5) == r[3 - 5 % 4].lane(5));

  // Out of range on an active thread, on the write path too, and a negative signed index; a
  // uniform 64-bit index is not truncated (2^32 + 1 is not component 1).
  test::RunGroup<kN>(8, [&] {
    CHECK_THROWS_WITH_AS(v[tid] = 0u,
                         "vector component index 4 is out of range: the vector has 4 components "
                         "(0 to 3), group (0,0,0), thread 4",
                         KernelError);
    CHECK_THROWS_WITH_AS((void)Uint<kN>(v[Int<kN>(tid) - 1]),
                         "vector component index -1 is out of range: the vector has 4 components "
                         "(0 to 3), group (0,0,0), thread 0",
                         KernelError);
    CHECK_THROWS_WITH_AS(v[(uint64_t(1) << 32) + 1],
                         "vector component index 4294967297 is out of range: the vector has 4 "
                         "components (0 to 3), group (0,0,0)",
                         KernelError);
  });
}

TEST_CASE("per-thread vectors mix with uniform vectors element-wise") {
  // HLSL: uint3 a = ...; a * 2 + uint3(1, 2, 3); float3 p; p - float3(0.5, 1, 2); ...
  const auto a = Ramp<uint32_t, 3>();
  const auto p = Ramp<float, 3>();
  const Uint3<kN> r = a * 2u + uint3{1, 2, 3};
  const Float3<kN> q = float3{0.5f, 1.0f, 2.0f} - p;
  const Float3<kN> q2 = p - float3{0.5f, 1.0f, 2.0f};  // not commutative: the order is kept
  const Uint3<kN> sh = a << uint3{1, 2, 3};
  const Bool3<kN> eq = a == uint3{1, 12, 3};
  Uint3<kN> acc = a;
  test::RunGroup<kN>(8, [&] { acc += uint3{7, 8, 9}; });
  const uint32_t u[3] = {1, 2, 3};
  const float f[3] = {0.5f, 1.0f, 2.0f};
  const uint32_t e[3] = {1, 12, 3};
  const uint32_t add[3] = {7, 8, 9};
  CheckComponents<uint32_t, 3>(r, [&](int t, int i) { return (10 * t + i + 1) * 2 + u[i]; },
                               "a * 2 + uint3(1, 2, 3)");
  CheckComponents<float, 3>(q, [&](int t, int i) { return f[i] - float(10 * t + i + 1); },
                            "float3(0.5, 1, 2) - p");
  CheckComponents<float, 3>(q2, [&](int t, int i) { return float(10 * t + i + 1) - f[i]; },
                            "p - float3(0.5, 1, 2)");
  CheckComponents<uint32_t, 3>(sh, [&](int t, int i) { return uint32_t(10 * t + i + 1) << u[i]; },
                               "a << uint3(1, 2, 3)");
  CheckComponents<bool, 3>(eq, [&](int t, int i) { return uint32_t(10 * t + i + 1) == e[i]; },
                           "a == uint3(1, 12, 3)");
  CheckComponents<uint32_t, 3>(acc, [&](int t, int i) { return 10 * t + i + 1 + add[i]; },
                               "a += uint3(7, 8, 9)");
}
