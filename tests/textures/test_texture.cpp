// test_texture.cpp -- Texture2D and RWTexture2D views: per-thread Load and operator[], masked
// stores, out-of-bounds reads (0) and writes (dropped, counted), GetDimensions with mips, format
// views (sRGB over UNORM), uint textures. Expected values come from plain loops over the texels.
#include "emulator/emulator.h"
#include "emulator/texture.h"
#include "tests/support/check_lanes.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>

using namespace waveemu;
using namespace waveemu::test;

namespace {

constexpr int N = 16;

template <class F>
Uint2<N> Coords(F f) {
  Uint2<N> c;
  for (int t = 0; t < N; ++t) {
    auto [x, y] = f(t);
    c.x.set_lane(t, x);
    c.y.set_lane(t, y);
  }
  return c;
}

}  // namespace

TEST_CASE("GetDimensions reports each mip's size and the view's level count") {
  Texture2DResource t(Format::R8G8B8A8_UNORM, 257, 129, 0);
  CHECK(t.mip_levels() == 9);  // 1 + floor(log2(257))
  Texture2D<float4> all(t);
  uint32_t w, h, levels;
  all.GetDimensions(0, w, h, levels);
  CHECK((w == 257 && h == 129 && levels == 9));
  all.GetDimensions(3, w, h, levels);
  CHECK((w == 32 && h == 16));  // 257 >> 3, 129 >> 3
  all.GetDimensions(8, w, h, levels);
  CHECK((w == 1 && h == 1));  // 129 >> 8 = 0 -> 1
  Texture2D<float4> tail(t, t.format(), 2, 3);
  tail.GetDimensions(0, w, h, levels);
  CHECK((w == 64 && h == 32 && levels == 3));
  RWTexture2D<float4> m5(t, 5);
  m5.GetDimensions(w, h);
  CHECK((w == 8 && h == 4));
}

TEST_CASE("operator[] and Load read each thread's texel; out of bounds reads 0 and is counted") {
  Texture2DResource t(Format::R32_FLOAT, 4, 3, 2);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 4; ++x) t.WriteFloat(0, x, y, {float(10 * y + x), 0, 0, 1}, t.format());
  t.WriteFloat(1, 1, 0, {77, 0, 0, 1}, t.format());
  Texture2D<float> tex(t);
  RunGroup<N>(8, [&] {
    // Thread t reads (t % 5, t / 5): x = 4 and y = 3 are outside.
    Float<N> r = tex[Coords([](int t) { return std::pair{uint32_t(t % 5), uint32_t(t / 5)}; })];
    std::array<float, N> expected{};
    for (int i = 0; i < N; ++i) {
      uint32_t x = uint32_t(i % 5), y = uint32_t(i / 5);
      expected[size_t(i)] = (x < 4 && y < 3) ? float(10 * y + x) : 0.0f;
    }
    std::array<uint32_t, N> inputs{};
    for (int i = 0; i < N; ++i) inputs[size_t(i)] = uint32_t(i % 5) | uint32_t(i / 5) << 8;
    CheckLanes(r, expected, Mask<N>::All(), 0.0f, inputs, "tex[(t % 5, t / 5)], input = x | y << 8");
    Int3<N> loc(Int<N>(1), Int<N>(0), Int<N>(1));  // mip 1, (1, 0)
    Float<N> l = tex.Load(loc);
    CHECK(l.lane(0) == 77.0f);
    CHECK(l.lane(N - 1) == 77.0f);
  });
  CHECK(t.out_of_bounds_reads() == 4);  // threads 4, 9, 14 (x = 4) and 15 (y = 3)
}

TEST_CASE("a uniform out-of-bounds texture read counts once, and not when no thread runs it") {
  Texture2DResource t(Format::R32_FLOAT, 4, 3);
  const Texture2D<float> tex(t);
  RunGroup<N>(8, [&] {
    CHECK(tex[uint2{9, 0}] == 0.0f);               // every thread: counted once
    CHECK(tex.Load(int3{0, 0, 3}) == 0.0f);        // a mip the view lacks: once more
    Uint<N> thread{NoInit{}};
    for (int i = 0; i < N; ++i) thread.set_lane(i, uint32_t(i));
    if_(thread < 100u, [&] { return_(); });
    (void)tex[uint2{9, 0}];  // every thread has returned: no thread reads, nothing is counted
  });
  CHECK(t.out_of_bounds_reads() == 2);
}

TEST_CASE("RWTexture2D stores only active threads and drops out-of-bounds stores") {
  Texture2DResource t(Format::R32G32B32A32_FLOAT, 4, 4);
  RWTexture2D<float4> out(t);
  RunGroup<N>(4, [&] {
    Uint<N> tid;
    for (int i = 0; i < N; ++i) tid.set_lane(i, uint32_t(i));
    // Thread i writes (i % 4, i / 4 + 1): the last row of threads (y = 4) is outside.
    Uint2<N> pos(tid % 4u, tid / 4u + 1u);
    if_((tid & 1u) == 0u, [&] {  // even threads only
      out[pos] = Float4<N>(Float<N>(tid), Float<N>(1.0f), Float<N>(2.0f), Float<N>(3.0f));
    });
  });
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      // Texel (x, y >= 1) was written by thread x + 4 * (y - 1) if that thread is even.
      uint32_t thread = x + 4 * (y - 1);
      bool written = y >= 1 && thread % 2 == 0;
      auto v = t.ReadFloat(0, x, y, t.format());
      INFO("texel " << x << "," << y);
      CHECK(v[0] == (written ? float(thread) : 0.0f));
      CHECK(v[3] == (written ? 3.0f : 0.0f));
    }
  CHECK(t.out_of_bounds_writes() == 2);  // threads 12 and 14 (y = 4)
}

TEST_CASE("an sRGB view decodes on read; a UNORM store rounds half up; uint textures keep bits") {
  Texture2DResource t(Format::R8G8B8A8_UNORM, 2, 1);
  t.WriteFloat(0, 0, 0, {188.0f / 255, 10.0f / 255, 1.0f, 128.0f / 255}, t.format());
  Texture2D<float4> unorm(t), srgb(t, Format::R8G8B8A8_UNORM_SRGB, 0, 1);
  float4 a = unorm[uint2{0, 0}], b = srgb[uint2{0, 0}];
  CHECK(a.x == 188.0f / 255);
  CHECK(b.x == float(std::pow((188.0 / 255.0 + 0.055) / 1.055, 2.4)));  // the sRGB curve
  CHECK(b.y == float(10.0 / 255.0 / 12.92));  // linear segment
  CHECK(b.w == 128.0f / 255);                 // alpha is not decoded
  Texture2DResource u(Format::R32_UINT, 2, 2);
  RWTexture2D<uint32_t> uw(u);
  RunGroup<4>(4, [&] {
    Uint2<4> pos(Uint<4>(std::array<uint32_t, 4>{0, 1, 0, 1}),
                 Uint<4>(std::array<uint32_t, 4>{0, 0, 1, 1}));
    uw[pos] = Uint<4>(std::array<uint32_t, 4>{0xFFFFFFFFu, 7, 0x80000000u, 0});
  });
  Texture2D<uint32_t> ur(u);
  CHECK(ur[uint2{0, 0}] == 0xFFFFFFFFu);
  CHECK(ur[uint2{0, 1}] == 0x80000000u);
}
