// test_resources.cpp -- Buffer, RWBuffer, StructuredBuffer, RWStructuredBuffer, ByteAddressBuffer
// and RWByteAddressBuffer: masked gathers and scatters, out-of-bounds reads and writes,
// GetDimensions. Expectations come from plain loops over the host arrays or are worked by hand.
#include "emulator/emulator.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

namespace {

template <int N, class F>
Uint<N> IndexLanes(F f) {
  Uint<N> idx{NoInit{}};
  for (int t = 0; t < N; ++t) idx.set_lane(t, f(t));
  return idx;
}

struct Particle {
  float x, y;
  uint32_t id;
  int16_t age;
  uint16_t flags;
};

struct Rgba {
  float x, y, z, w;
};

}  // namespace

// ------------------------------ Buffer, StructuredBuffer (read-only)

TEST_CASE("Buffer gather under each mask reads active threads, gives 0 out of bounds and counts") {
  constexpr int N = 64;
  std::vector<int32_t> host(40);
  for (int i = 0; i < 40; ++i) host[i] = 1000 + i * 3;
  const Buffer<int32_t> buf{std::span<const int32_t>(host)};
  const Uint<N> idx = IndexLanes<N>([&](int t) { return uint32_t(t * 7 % 50); });
  uint64_t total_oob = 0;
  for (const auto& pattern : AllMaskPatterns<N>()) {
    DispatchShared shared;
    Int<N> got(-7);
    RunGroup<N>(32, [&] {
      if_(Bool<N>::FromMask(pattern.mask), [&] { got = buf[idx]; });
    }, SpecProfile(), &shared);
    std::array<int32_t, N> want{};
    std::array<uint32_t, N> inputs{};
    uint64_t oob = 0;
    for (int t = 0; t < N; ++t) {
      inputs[t] = uint32_t(t * 7 % 50);
      want[t] = inputs[t] < 40 ? host[inputs[t]] : 0;
      if (pattern.mask.Test(t) && inputs[t] >= 40) ++oob;
    }
    CheckLanes<int32_t, N>(got, want, pattern.mask, -7, inputs, "buf[idx] under " + pattern.name);
    CHECK(shared.out_of_bounds_reads.load() == oob);
    total_oob += oob;
  }
  CHECK(buf.out_of_bounds_reads() == total_oob);
  CHECK(buf.out_of_bounds_writes() == 0);
}

TEST_CASE("Buffer with a uniform index gives the element, and 0 past the end") {
  const std::vector<uint32_t> host = {5, 6, 7};
  const Buffer<uint32_t> buf{std::span<const uint32_t>(host)};
  DispatchShared shared;
  RunGroup<8>(4, [&] {
    CHECK(buf[2u] == 7u);
    CHECK(buf.Load(0u) == 5u);
    CHECK(buf[3u] == 0u);
  }, SpecProfile(), &shared);
  CHECK(shared.out_of_bounds_reads.load() == 1);
  CHECK(buf.out_of_bounds_reads() == 1);
}

TEST_CASE("a negative int index is a large uint and reads out of bounds") {
  const std::vector<float> host = {1.5f, 2.5f};
  const Buffer<float> buf{std::span<const float>(host)};
  RunGroup<4>(4, [&] {
    Int<4> i(std::array<int32_t, 4>{0, -1, 1, -2});
    const Float<4> v = buf[i];
    CHECK(v.lane(0) == 1.5f);
    CHECK(v.lane(1) == 0.0f);
    CHECK(v.lane(2) == 2.5f);
    CHECK(v.lane(3) == 0.0f);
  });
  CHECK(buf.out_of_bounds_reads() == 2);
}

TEST_CASE_TEMPLATE("typed buffers of every scalar type round-trip through RWBuffer", T, int16_t,
                   uint16_t, int32_t, uint32_t, int64_t, uint64_t, half, float, double) {
  constexpr int N = 16;
  std::vector<T> src(N), dst(N, T(0));
  for (int i = 0; i < N; ++i) src[i] = T(float(i * 3 + 1));
  const Buffer<T> in{std::span<const T>(src)};
  const RWBuffer<T> out{std::span<T>(dst)};
  RunGroup<N>(8, [&] {
    const Uint<N> t = IndexLanes<N>([&](int x) { return uint32_t(x); });
    const Uint<N> rev = IndexLanes<N>([&](int x) { return uint32_t(N - 1 - x); });
    out[rev] = in[t];
  });
  for (int i = 0; i < N; ++i) CHECK(BitsOf(dst[N - 1 - i]) == BitsOf(src[i]));
}

TEST_CASE("a member of a PerThread variable is an assignment target that writes through, masked "
          "(HLSL: p.age += 1)") {
  constexpr int N = 8;
  struct Body {
    float3 pos;
    float mass;
  };
  struct Holder {
    Particle particle;
    uint32_t tag;
  };
  std::vector<Particle> host(N);
  for (int i = 0; i < N; ++i)
    host[i] = Particle{float(i), 0.5f, uint32_t(i), int16_t(10 * i), uint16_t(0)};
  const StructuredBuffer<Particle> buf{std::span<const Particle>(host)};
  std::vector<Particle> got(N);
  std::vector<Body> bodies(N);
  std::vector<Holder> holders(N);
  Float<N> mass_read = 0.0f;
  RunGroup<N>(8, [&] {
    const Uint<N> t = IndexLanes<N>([&](int x) { return uint32_t(x); });
    PerThread<Particle, N> p = buf[t];
    PerThread<Body, N> b(Body{float3{1.0f, 2.0f, 3.0f}, 4.0f});
    PerThread<Holder, N> h(Holder{});
    if_(t % 2u == 0u, [&] {
      p.field(&Particle::x) += 1.0f;
      p.field(&Particle::id) = t * 10u;
      ++p.field(&Particle::age);
      p.field(&Particle::flags) = 7;  // an int converts, as in HLSL
      b.field(&Body::pos) = float3{9.0f, 8.0f, 7.0f};
      b.field(&Body::mass) *= Float<N>(t);
      h.field(&Holder::particle) = p;
    });
    mass_read = b.field(&Body::mass);  // still reads like Float<N>
    for (int x = 0; x < N; ++x) {
      got[x] = p.lane(x);
      bodies[x] = b.lane(x);
      holders[x] = h.lane(x);
    }
  });
  for (int i = 0; i < N; ++i) {
    CAPTURE(i);
    const bool on = i % 2 == 0;
    CHECK(got[i].x == float(i) + (on ? 1.0f : 0.0f));
    CHECK(got[i].id == uint32_t(on ? 10 * i : i));
    CHECK(got[i].age == int16_t(10 * i + (on ? 1 : 0)));
    CHECK(got[i].flags == (on ? 7u : 0u));
    CHECK(got[i].y == 0.5f);
    CHECK(bodies[i].pos.x == (on ? 9.0f : 1.0f));
    CHECK(bodies[i].pos.z == (on ? 7.0f : 3.0f));
    CHECK(bodies[i].mass == (on ? 4.0f * float(i) : 4.0f));
    CHECK(mass_read.lane(i) == bodies[i].mass);
    CHECK(holders[i].particle.id == (on ? uint32_t(10 * i) : 0u));
    CHECK(holders[i].tag == 0u);
  }
}

TEST_CASE("an RW buffer or groupshared element converts to another type as HLSL's cast does "
          "((float)RW[i])") {
  constexpr int N = 8;
  std::vector<uint32_t> words = {0, 3, 7, 4000000000u, 5, 6, 7, 8};
  const RWStructuredBuffer<uint32_t> rw{std::span<uint32_t>(words)};
  Float<N> from_rw = 0.0f, from_gs = 0.0f;
  Int<N> from_uniform = 0;
  RunGroup<N>(8, [&] {
    const Uint<N> t(std::array<uint32_t, N>{0, 1, 2, 3, 4, 5, 6, 7});
    GroupShared<int32_t, N> gs;
    gs[t] = Int<N>(t) - 4;
    from_rw = Float<N>(rw[t]);
    from_gs = Float<N>(gs[t]);
    from_uniform = Int<N>(rw[3u]);  // uint 4000000000 keeps its bits as int
  });
  for (int t = 0; t < N; ++t) {
    CAPTURE(t);
    CHECK(from_rw.lane(t) == float(words[t]));
    CHECK(from_gs.lane(t) == float(t - 4));
    CHECK(from_uniform.lane(t) == int32_t(4000000000u));
  }
}

TEST_CASE("StructuredBuffer of a struct reads PerThread values and single members") {
  constexpr int N = 8;
  std::vector<Particle> host(5);
  for (int i = 0; i < 5; ++i)
    host[i] = Particle{float(i) + 0.5f, -float(i), uint32_t(100 + i), int16_t(-i), uint16_t(i * 2)};
  const StructuredBuffer<Particle> buf{std::span<const Particle>(host)};
  RunGroup<N>(4, [&] {
    const Uint<N> idx = IndexLanes<N>([&](int t) { return uint32_t(t); });  // 5..7 out of bounds
    PerThread<Particle, N> p = buf[idx];
    const Uint<N> ids = p.field(&Particle::id);
    const Float<N> xs = p.field(&Particle::x);
    const Int16<N> ages = p.field(&Particle::age);
    for (int t = 0; t < N; ++t) {
      CHECK(ids.lane(t) == (t < 5 ? uint32_t(100 + t) : 0u));
      CHECK(xs.lane(t) == (t < 5 ? float(t) + 0.5f : 0.0f));
      CHECK(ages.lane(t) == (t < 5 ? int16_t(-t) : int16_t(0)));
    }
    const Particle one = buf[3u];
    CHECK(one.id == 103u);
    CHECK(one.flags == 6u);
  });
  CHECK(buf.out_of_bounds_reads() == 3);
}

TEST_CASE("StructuredBuffer of uint3 and of a float4 struct reads Vector values") {
  constexpr int N = 4;
  std::vector<uint3> v3 = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  std::vector<Rgba> v4 = {{1.f, 2.f, 3.f, 4.f}, {5.f, 6.f, 7.f, 8.f}};
  const StructuredBuffer<uint3> b3{std::span<const uint3>(v3)};
  const StructuredBuffer<Rgba> b4{std::span<const Rgba>(v4)};
  static_assert(std::is_same_v<PerThreadOf<uint3, N>, Uint3<N>>);
  static_assert(std::is_same_v<PerThreadOf<Rgba, N>, Vector<float, 4, N>>);
  RunGroup<N>(4, [&] {
    const Uint<N> idx(std::array<uint32_t, N>{2, 0, 1, 3});
    const Uint3<N> a = b3[idx];
    const Vector<float, 4, N> b = b4[idx];
    CHECK(a.x.lane(0) == 7u);
    CHECK(a.z.lane(0) == 9u);
    CHECK(a.y.lane(1) == 2u);
    CHECK(a.z.lane(2) == 6u);
    CHECK(a.x.lane(3) == 0u);  // out of bounds
    CHECK(b.w.lane(1) == 4.f);
    CHECK(b.x.lane(2) == 5.f);
    CHECK(b.y.lane(0) == 0.f);  // index 2 is past the 2 elements of v4
    const uint3 u = b3[1u];
    CHECK(u == uint3{4, 5, 6});
  });
  CHECK(b3.out_of_bounds_reads() == 1);
  CHECK(b4.out_of_bounds_reads() == 2);
}

// ------------------------------ RWBuffer, RWStructuredBuffer

TEST_CASE("RWBuffer scatter under each if_ mask writes active threads only and drops "
          "out-of-bounds writes") {
  constexpr int N = 64;
  constexpr uint32_t kSize = 48;
  for (const auto& pattern : AllMaskPatterns<N>()) {
    std::vector<uint32_t> host(kSize, 0xAAAAu);
    const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
    DispatchShared shared;
    RunGroup<N>(16, [&] {
      const Uint<N> idx = IndexLanes<N>([&](int t) { return uint32_t(N - 1 - t); });
      const Uint<N> value = IndexLanes<N>([&](int t) { return uint32_t(t * 10); });
      if_(Bool<N>::FromMask(pattern.mask), [&] { buf[idx] = value; });
    }, SpecProfile(), &shared);
    std::vector<uint32_t> want(kSize, 0xAAAAu);
    uint64_t oob = 0;
    for (int t = 0; t < N; ++t) {
      if (!pattern.mask.Test(t)) continue;
      const uint32_t i = uint32_t(N - 1 - t);
      if (i < kSize) want[i] = uint32_t(t * 10);
      else ++oob;
    }
    CHECK_MESSAGE(host == want, pattern.name);
    CHECK(shared.out_of_bounds_writes.load() == oob);
    CHECK(buf.out_of_bounds_writes() == oob);
  }
}

TEST_CASE("several active threads writing one element: the highest thread's value stays") {
  std::vector<int32_t> host(2, 0);
  const RWBuffer<int32_t> buf{std::span<int32_t>(host)};
  RunGroup<8>(4, [&] {
    const Uint<8> tid = IndexLanes<8>([](int t) { return uint32_t(t); });
    const Int<8> value(std::array<int32_t, 8>{10, 11, 12, 13, 14, 15, 16, 17});
    if_(tid != 7u, [&] { buf[tid % 2u] = value; });  // threads 0,2,4,6 -> [0]; 1,3,5 -> [1]
  });
  CHECK(host[0] == 16);
  CHECK(host[1] == 15);
}

TEST_CASE("an RW element reference reads, compares and takes compound assignment") {
  constexpr int N = 8;
  std::vector<uint32_t> host = {1, 2, 3, 4, 5, 6, 7, 8};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  RunGroup<N>(4, [&] {
    const Uint<N> i = IndexLanes<N>([&](int t) { return uint32_t(t); });
    const Uint<N> plus = buf[i] + 1u;
    const Uint<N> sum = buf[i] + buf[i];
    const Bool<N> even = (buf[i] & 1u) == 0u;
    const Bool<N> eq = buf[i] == i + 1u;
    for (int t = 0; t < N; ++t) {
      CHECK(plus.lane(t) == uint32_t(t + 2));
      CHECK(sum.lane(t) == uint32_t(2 * t + 2));
      CHECK(even.lane(t) == ((t + 1) % 2 == 0));
      CHECK(eq.lane(t));
    }
    if_(i < 4u, [&] {
      buf[i] += 100u;
      buf[i + 4u] = buf[i];  // copies values, not the reference
    });
  });
  CHECK(host == std::vector<uint32_t>{101, 102, 103, 104, 101, 102, 103, 104});
}

TEST_CASE("RWBuffer with a uniform index: a uniform write stores once, a per-thread write keeps "
          "the last active thread's value") {
  constexpr int N = 8;
  std::vector<uint32_t> host = {0, 0, 0};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  DispatchShared shared;
  RunGroup<N>(4, [&] {
    const Uint<N> tid = IndexLanes<N>([&](int t) { return uint32_t(t); });
    buf[0u] = 42u;
    if_(tid < 6u, [&] { buf[1u] = tid * 3u; });  // threads 0..5: thread 5 stays
    buf[2u] = buf[0u] + 1u;
    CHECK(buf[2u] == 43u);
    buf[9u] = 1u;  // out of bounds, dropped
  }, SpecProfile(), &shared);
  CHECK(host == std::vector<uint32_t>{42, 15, 43});
  CHECK(shared.out_of_bounds_writes.load() == 1);
}

TEST_CASE("RWStructuredBuffer of a struct: masked whole-struct and single-member writes") {
  constexpr int N = 8;
  std::vector<Particle> host(N);
  for (int i = 0; i < N; ++i) host[i] = Particle{0.f, 0.f, uint32_t(i), 0, 0};
  const std::vector<Particle> before = host;
  const RWStructuredBuffer<Particle> buf{std::span<Particle>(host)};
  RunGroup<N>(4, [&] {
    const Uint<N> i = IndexLanes<N>([&](int t) { return uint32_t(t); });
    if_((i & 1u) == 1u, [&] {  // odd threads: age = -id, y = 2.5
      buf[i].field(&Particle::age) = -Int16<N>(i);
      buf[i].field(&Particle::y) = 2.5f;
    });
    if_(i == 2u, [&] {
      PerThread<Particle, N> p = buf[i];
      p.set_field(&Particle::flags, Uint16<N>(uint16_t(7)));
      buf[i + 4u] = p;  // element 6 becomes a copy of element 2 with flags 7
    });
  });
  for (int t = 0; t < N; ++t) {
    Particle want = before[t];
    if (t % 2 == 1) {
      want.age = int16_t(-t);
      want.y = 2.5f;
    }
    if (t == 6) want = Particle{0.f, 0.f, 2u, 0, 7};
    CHECK(std::memcmp(&host[t], &want, sizeof(Particle)) == 0);
  }
}

TEST_CASE("RWStructuredBuffer of uint3 stores Vector values per thread") {
  constexpr int N = 4;
  std::vector<uint3> host(4);
  const RWStructuredBuffer<uint3> buf{std::span<uint3>(host)};
  RunGroup<N>(4, [&] {
    const Uint<N> i = IndexLanes<N>([&](int t) { return uint32_t(t); });
    if_(i != 1u, [&] { buf[3u - i] = Uint3<N>(i, i * 10u, i * 100u); });
    buf[i].field(&uint3::y) += 1u;
  });
  CHECK(host[3] == uint3{0, 1, 0});
  CHECK(host[2] == uint3{0, 1, 0});  // thread 1 was inactive for the store
  CHECK(host[1] == uint3{2, 21, 200});
  CHECK(host[0] == uint3{3, 31, 300});
}

TEST_CASE("GetDimensions of typed and structured buffers") {
  std::vector<float> f(7);
  std::vector<Particle> p(3);
  uint32_t dim = 0, num = 0, stride = 0;
  Buffer<float>{std::span<const float>(f)}.GetDimensions(dim);
  CHECK(dim == 7);
  RWBuffer<float>{std::span<float>(f)}.GetDimensions(dim);
  CHECK(dim == 7);
  StructuredBuffer<Particle>{std::span<const Particle>(p)}.GetDimensions(num, stride);
  CHECK(num == 3);
  CHECK(stride == sizeof(Particle));
  RWStructuredBuffer<uint3>{}.GetDimensions(num, stride);
  CHECK(num == 0);
  CHECK(stride == 12);
}

TEST_CASE("an unbound resource reads 0 and drops writes, counting each") {
  const Buffer<uint32_t> ro;
  const RWStructuredBuffer<uint32_t> rw;
  CHECK_FALSE(ro.bound());
  RunGroup<4>(4, [&] {
    const Uint<4> i(1u);
    const Uint<4> v = ro[i];
    CHECK(v.lane(2) == 0u);
    rw[i] = 5u;
  });
  CHECK(ro.out_of_bounds_reads() == 4);
  CHECK(rw.out_of_bounds_writes() == 4);
}

TEST_CASE("resources work outside a dispatch: all threads active, counted on the resource") {
  std::vector<uint32_t> host = {1, 2};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  const Uint<4> i(std::array<uint32_t, 4>{0, 1, 2, 3});
  const Uint<4> v = buf[i];
  CHECK(v.lane(1) == 2u);
  buf[i] = Uint<4>(9u);
  CHECK(host == std::vector<uint32_t>{9, 9});
  CHECK(buf.out_of_bounds_reads() == 2);
  CHECK(buf.out_of_bounds_writes() == 2);
}

// ------------------------------ ByteAddressBuffer, RWByteAddressBuffer

TEST_CASE("ByteAddressBuffer Load, Load2, Load3, Load4 read 1-4 words; each word past the end "
          "reads 0") {
  constexpr int N = 8;
  std::vector<uint32_t> words(10);
  for (int i = 0; i < 10; ++i) words[i] = 0x100u + uint32_t(i);
  const ByteAddressBuffer buf{std::span<const uint32_t>(words)};
  DispatchShared shared;
  RunGroup<N>(4, [&] {
    // Thread t reads from byte 4t + 12, i.e. from word t + 3.
    const Uint<N> addr = IndexLanes<N>([&](int t) { return uint32_t(t * 4 + 12); });
    const Uint<N> a = buf.Load(addr);
    const Uint2<N> b = buf.Load2(addr);
    const Uint3<N> c = buf.Load3(addr);
    const Uint4<N> d = buf.Load4(addr);
    for (int t = 0; t < N; ++t) {
      auto word = [&](int k) { return k < 10 ? 0x100u + uint32_t(k) : 0u; };
      const int w = t + 3;
      CHECK(a.lane(t) == word(w));
      CHECK(b.x.lane(t) == word(w));
      CHECK(b.y.lane(t) == word(w + 1));
      CHECK(c.z.lane(t) == word(w + 2));
      CHECK(d.x.lane(t) == word(w));
      CHECK(d.w.lane(t) == word(w + 3));
    }
    CHECK(buf.Load(36u) == 0x109u);
    CHECK(buf.Load(40u) == 0u);
    CHECK(buf.Load3(4u) == uint3{0x101u, 0x102u, 0x103u});
    CHECK(buf.Load2(0u) == uint2{0x100u, 0x101u});
    CHECK(buf.Load4(28u) == uint4{0x107u, 0x108u, 0x109u, 0u});  // last word past the end
  }, SpecProfile(), &shared);
  // Out-of-bounds accesses (a thread counts once per load): Load: word >= 10 -> threads 7 (w=10);
  // Load2: w+1 >= 10 -> t >= 6; Load3: t >= 5; Load4: t >= 4; uniform Load(40) and Load4(28): 2.
  CHECK(shared.out_of_bounds_reads.load() == 1 + 2 + 3 + 4 + 2);
}

TEST_CASE("ByteAddressBuffer Load<T> reads scalars, 16-bit values, doubles and structs") {
  constexpr int N = 4;
  struct Pair {
    uint32_t a;
    float b;
  };
  std::vector<uint32_t> words(6);
  const double d = 3.25;
  std::memcpy(&words[0], &d, 8);
  words[2] = 0x0002FFFEu;  // uint16_t at byte 8 = 0xFFFE, at byte 10 = 0x0002
  const float f = -1.5f;
  words[3] = 7;
  std::memcpy(&words[4], &f, 4);
  words[5] = 0xDEAD;
  const ByteAddressBuffer buf{std::span<const uint32_t>(words)};
  RunGroup<N>(4, [&] {
    const Double<N> dd = buf.Load<double>(Uint<N>(0u));
    CHECK(dd.lane(3) == 3.25);
    const Uint16<N> h = buf.Load<uint16_t>(Uint<N>(std::array<uint32_t, N>{8, 10, 22, 24}));
    CHECK(h.lane(0) == 0xFFFEu);
    CHECK(h.lane(1) == 0x0002u);
    CHECK(h.lane(2) == 0x0000u);  // high half of word 5
    CHECK(h.lane(3) == 0u);        // past the end
    const PerThread<Pair, N> p = buf.Load<Pair>(Uint<N>(12u));
    CHECK(p.lane(1).a == 7u);
    CHECK(p.lane(1).b == -1.5f);
    const Float<N> ff = buf.Load<float>(Uint<N>(std::array<uint32_t, N>{16, 20, 24, 0}));
    CHECK(ff.lane(0) == -1.5f);
    CHECK(ff.lane(2) == 0.f);
    CHECK(buf.Load<float>(16u) == -1.5f);
  });
  CHECK(buf.out_of_bounds_reads() == 2);
}

TEST_CASE("a misaligned raw address is rounded down and reported in the spec profile") {
  std::vector<uint32_t> words = {11, 22, 33};
  const ByteAddressBuffer buf{std::span<const uint32_t>(words)};
  for (const auto& profile : {SpecProfile(), LavapipeProfile()}) {
    DispatchShared shared;
    RunGroup<4>(4, [&] {
      const Uint<4> v = buf.Load(Uint<4>(std::array<uint32_t, 4>{0, 5, 7, 8}));
      CHECK(v.lane(0) == 11u);
      CHECK(v.lane(1) == 22u);
      CHECK(v.lane(2) == 22u);
      CHECK(v.lane(3) == 33u);
    }, profile, &shared);
    CHECK(shared.diagnostics.count() == (profile.poison_undefined ? 1u : 0u));
    if (profile.poison_undefined)
      CHECK(shared.diagnostics.kept()[0].rule.find("multiple of 4") != std::string::npos);
  }
}

TEST_CASE("a templated raw Load/Store of a 64-bit type needs an 8-byte aligned address (DXC), a "
          "16-bit one 2") {
  // Words 1..6; uint64_t at byte 0 is words 0 and 1 (little-endian), at byte 8 words 2 and 3.
  std::vector<uint32_t> words = {1, 2, 3, 4, 5, 6};
  const RWByteAddressBuffer buf{std::span<uint32_t>(words)};
  const auto u64 = [&](int w) { return uint64_t(words[w]) | uint64_t(words[w + 1]) << 32; };
  for (const auto& profile : {SpecProfile(), LavapipeProfile()}) {
    words = {1, 2, 3, 4, 5, 6};
    DispatchShared shared;
    Lanes<uint64_t, 4> wide = 0ull;
    Lanes<uint16_t, 4> narrow = uint16_t(0);
    RunGroup<4>(4, [&] {
      wide = buf.Load<uint64_t>(Uint<4>(std::array<uint32_t, 4>{0, 4, 8, 12}));
      narrow = buf.Load<uint16_t>(Uint<4>(std::array<uint32_t, 4>{0, 2, 4, 6}));  // aligned
      buf.Store<double>(20u, 2.0);  // rounded down to byte 16: words 4 and 5
    }, profile, &shared);
    CHECK(wide.lane(0) == u64(0));
    CHECK(wide.lane(1) == u64(0));  // byte 4 rounded down to 0
    CHECK(wide.lane(2) == u64(2));
    CHECK(wide.lane(3) == u64(2));  // byte 12 rounded down to 8
    const uint16_t want_narrow[4] = {1, 0, 2, 0};
    for (int t = 0; t < 4; ++t) CHECK(narrow.lane(t) == want_narrow[t]);
    CHECK(std::bit_cast<double>(u64(4)) == 2.0);
    // One diagnostic per misaligned access (the 16-bit load is aligned).
    CHECK(shared.diagnostics.count() == (profile.poison_undefined ? 2u : 0u));
    for (const auto& d : shared.diagnostics.kept())
      CHECK(d.rule.find("address not a multiple of 8 is undefined") != std::string::npos);
  }
}

TEST_CASE("RWByteAddressBuffer Store, Store2-4 and Store<T> under a mask; out-of-bounds words are "
          "dropped one by one") {
  constexpr int N = 4;
  std::vector<uint32_t> words(12, 0xEEEEEEEEu);
  const RWByteAddressBuffer buf{std::span<uint32_t>(words)};
  DispatchShared shared;
  RunGroup<N>(4, [&] {
    const Uint<N> t(std::array<uint32_t, N>{0, 1, 2, 3});
    if_(t != 1u, [&] {
      buf.Store(t * 4u, t + 1u);                         // words 0, 2, 3
      buf.Store2(Uint<N>(16u), Uint2<N>(t, t * 2u));     // words 4, 5: thread 3 stays
      buf.Store4(Uint<N>(40u), Uint4<N>(9u, 8u, 7u, 6u));  // words 10, 11 kept, 12, 13 dropped
    });
    buf.Store3(Uint<N>(24u), Uint3<N>(1u, 2u, 3u));  // words 6..8
    buf.Store<float>(Uint<N>(36u), Float<N>(0.5f));  // word 9
  }, SpecProfile(), &shared);
  float half_f = 0.5f;
  uint32_t half_bits;
  std::memcpy(&half_bits, &half_f, 4);
  const std::vector<uint32_t> want = {1, 0xEEEEEEEEu, 3, 4, 3, 6, 1, 2, 3, half_bits, 9, 8};
  CHECK(words == want);
  CHECK(shared.out_of_bounds_writes.load() == 3);  // Store4 of threads 0, 2, 3
  uint32_t dim = 0;
  buf.GetDimensions(dim);
  CHECK(dim == 48);
}

TEST_CASE("RWByteAddressBuffer Store<T> stores sizeof(T) bytes of a T at a uniform address too") {
  // Hand-worked bytes: a uint64_t is two little-endian words, a float its bits, a uint16_t one
  // half of a word (the other half keeps its 0xAAAA).
  constexpr int N = 4;
  std::vector<uint32_t> words(8, 0xAAAAAAAAu);
  const RWByteAddressBuffer buf{std::span<uint32_t>(words)};
  DispatchShared shared;
  RunGroup<N>(4, [&] {
    buf.Store<uint64_t>(0u, Lanes<uint64_t, N>(0x1111222233334444ull));  // per-thread value
    buf.Store<float>(8u, Float<N>(1.5f));
    buf.Store<uint16_t>(14u, Uint16<N>(uint16_t(0x1234)));
    buf.Store<uint64_t>(16u, uint64_t{0x5555666677778888ull});  // uniform value
    buf.Store<float>(24u, -2.0f);
    buf.Store<uint16_t>(28u, uint16_t(0xBEEF));
  }, SpecProfile(), &shared);
  const std::vector<uint32_t> want = {0x33334444u, 0x11112222u, 0x3FC00000u, 0x1234AAAAu,
                                      0x77778888u, 0x55556666u, 0xC0000000u, 0xAAAABEEFu};
  CHECK(words == want);
  CHECK(shared.diagnostics.count() == 0);
}

TEST_CASE("RWByteAddressBuffer Store without <T> stores the value's own type, as DXC deduces it") {
  // DXC has one templated Store(uint, T) and deduces T from the value (its test of raw stores
  // stores an int16_t as 2 bytes; a float stores its bits on SM 6). Hand-worked little-endian
  // words; a bool stores as a 32-bit 1. Before, every value was converted to a 32-bit uint.
  constexpr int N = 4;
  std::vector<uint32_t> words(24, 0xAAAAAAAAu);
  const RWByteAddressBuffer buf{std::span<uint32_t>(words)};
  std::vector<float> source = {-2.0f};
  const Buffer<float> floats{std::span<const float>(source)};
  std::vector<float> rw_source = {0.5f};
  const RWBuffer<float> rw_floats{std::span<float>(rw_source)};
  DispatchShared shared;
  RunGroup<N>(4, [&] {
    buf.Store(Uint<N>(0u), Float<N>(1.5f));                       // per-thread float
    buf.Store(4u, 0.25f);                                           // uniform float
    buf.Store(Uint<N>(8u), Lanes<uint64_t, N>(0x1111222233334444ull));  // 8 bytes
    buf.Store(18u, Int16<N>(int16_t(-2)));                         // 2 bytes: word 4's upper half
    buf.Store(20u, Int<N>(-2));
    buf.Store(Uint<N>(24u), Bool<N>(true));
    buf.Store(28u, floats[0u]);                                     // a read-only element: a float
    buf.Store(32u, Float2<N>(Float<N>(1.0f), Float<N>(-1.0f)));    // a vector: its components
    buf.Store(40u, 1.0);                                            // a C++ double: 8 bytes
    buf.Store(48u, 7u);                                             // Store(uint, uint)
    buf.Store(52u, rw_floats[0u]);                                  // a uniform reference
    buf.Store(56u, rw_floats[Uint<N>(0u)]);                         // a per-thread reference
    buf.Store(60u, Bool2<N>(Bool<N>(true), Bool<N>(false)));       // bools as 32-bit words
    buf.Store(Uint<N>(72u), 0x0102030405060708ull);  // unsigned long long: 8 bytes, 8-aligned
    buf.Store(80u, Uint3<N>(4u, 5u, 6u));                          // Store3's words, through Store
  }, SpecProfile(), &shared);
  const std::vector<uint32_t> want = {0x3FC00000u, 0x3E800000u, 0x33334444u, 0x11112222u,
                                      0xFFFEAAAAu, 0xFFFFFFFEu, 1u,          0xC0000000u,
                                      0x3F800000u, 0xBF800000u, 0u,          0x3FF00000u,
                                      7u,          0x3F000000u, 0x3F000000u, 1u,
                                      0u,          0xAAAAAAAAu, 0x05060708u, 0x01020304u,
                                      4u,          5u,          6u,          0xAAAAAAAAu};
  CHECK(words == want);
  CHECK(shared.diagnostics.count() == 0);
}

TEST_CASE("Load<T> and Store<T> whose T is the address's own lane type are not ambiguous") {
  // Load<uint32_t>(Uint<N>), Load<int32_t>(Int<N>) and Store<uint32_t>(Uint<N>, ...) once had two
  // equally good overloads; Store2-4 also take a uniform address.
  constexpr int N = 4;
  std::vector<uint32_t> words = {7, 0xFFFFFFFEu, 0, 0, 0, 0, 0, 0, 0, 0};
  const RWByteAddressBuffer buf{std::span<uint32_t>(words)};
  RunGroup<N>(4, [&] {
    const Uint<N> u = buf.Load<uint32_t>(Uint<N>(0u));
    const Int<N> i = buf.Load<int32_t>(Int<N>(4));
    const Uint16<N> h = buf.Load<uint16_t>(Uint16<N>(uint16_t(4)));
    CHECK(u.lane(3) == 7u);
    CHECK(i.lane(3) == -2);
    CHECK(h.lane(3) == 0xFFFEu);
    buf.Store<uint32_t>(Uint<N>(8u), u + 1u);
    buf.Store2(12u, Uint2<N>(Uint<N>(1u), Uint<N>(2u)));
    buf.Store3(20u, uint3{3, 4, 5});
    buf.Store4(24u, Uint4<N>(6u, 7u, 8u, 9u));  // words 6..9
  });
  const std::vector<uint32_t> want = {7, 0xFFFFFFFEu, 8, 1, 2, 3, 6, 7, 8, 9};
  CHECK(words == want);
}

TEST_CASE("a misaligned uniform raw address is rounded down and reported like a per-thread one") {
  std::vector<uint32_t> words = {11, 22, 33, 44};
  const RWByteAddressBuffer buf{std::span<uint32_t>(words)};
  for (const auto& profile : {SpecProfile(), LavapipeProfile()}) {
    words = {11, 22, 33, 44};
    DispatchShared shared;
    RunGroup<4>(4, [&] {
      CHECK(buf.Load(5u) == 22u);
      buf.Store(10u, 99u);  // word 2
      buf.InterlockedAdd(13u, Uint<4>(1u));  // word 3, once per thread
    }, profile, &shared);
    CHECK(words[2] == 99u);
    CHECK(words[3] == 48u);
    CHECK(shared.diagnostics.count() == (profile.poison_undefined ? 3u : 0u));
    for (const auto& d : shared.diagnostics.kept()) {
      CHECK(d.rule.find("multiple of 4") != std::string::npos);
      CHECK(d.details.find("uniform address") != std::string::npos);
    }
  }
}

TEST_CASE("a 64-bit raw atomic on memory that is not 8-byte aligned is refused, not undefined") {
  alignas(8) std::array<uint32_t, 5> words{};
  const RWByteAddressBuffer misaligned{std::span<uint32_t>(words.data() + 1, 4)};
  RunGroup<4>(4, [&] {
    CHECK_THROWS_WITH_AS(
        misaligned.InterlockedAdd64(0u, Uint64<4>(1u)),
        "RWByteAddressBuffer: a 64-bit atomic needs the buffer's memory 8-byte aligned (GPU "
        "buffers are); this binding starts at an address that is not",
        UsageError);
    misaligned.InterlockedAdd(0u, Uint<4>(1u));  // 32-bit atomics need only 4 bytes
  });
  CHECK(words[1] == 4u);
}

TEST_CASE("raw buffers bind bytes too, and refuse sizes that are not whole words") {
  alignas(4) std::array<std::byte, 8> bytes{};
  const RWByteAddressBuffer buf{std::span<std::byte>(bytes)};
  buf.Store(Uint<4>(4u), Uint<4>(0x01020304u));
  CHECK(bytes[4] == std::byte{0x04});
  CHECK(bytes[7] == std::byte{0x01});
  CHECK_THROWS_AS(RWByteAddressBuffer(std::span<std::byte>(bytes.data(), 6)), UsageError);
  CHECK_THROWS_AS(ByteAddressBuffer(std::span<const std::byte>(bytes.data() + 1, 4)), UsageError);
}

// ------------------------------ counting in a dispatch

struct OutOfBoundsKernel {
  static constexpr uint3 numthreads{32, 1, 1};
  Buffer<uint32_t> in;
  RWBuffer<uint32_t> out;
  void main(SV_DispatchThreadID<32> id) const {
    out[id.x] = in[id.x] + 1u;  // in: 40 elements, out: 50 elements, 64 threads
  }
};

TEST_CASE("Dispatch reports how many out-of-bounds reads and writes its groups made") {
  std::vector<uint32_t> in(40, 1), out(50, 0);
  const OutOfBoundsKernel k{Buffer<uint32_t>{std::span<const uint32_t>(in)},
                            RWBuffer<uint32_t>{std::span<uint32_t>(out)}};
  const DispatchResult r = Dispatch(k, uint3{2, 1, 1});
  CHECK(r.out_of_bounds_reads == 24);
  CHECK(r.out_of_bounds_writes == 14);
  for (int i = 0; i < 50; ++i) CHECK(out[i] == (i < 40 ? 2u : 1u));
}

/// Uniform-index out-of-bounds accesses under a mask: thread `reader` alone reads Table[10u],
/// Scratch[10u] and raw word 10 (all past the end); with reader = -1 every thread has returned.
struct UniformOutOfBoundsKernel {
  static constexpr int N = 8;
  static constexpr uint3 numthreads{8, 1, 1};
  Buffer<uint32_t> Table;     // 4 elements
  ByteAddressBuffer Raw;      // 4 words
  RWBuffer<uint32_t> Out;     // 4 elements
  int reader = -1;
  void main(SV_GroupIndex<N> gi) const {
    GroupShared<uint32_t, 4> Scratch;
    if_(Int<N>(gi) != reader, [&] { return_(); });
    Uint<N> sink(0u);
    sink = sink + Table[10u] + Scratch[10u] + Raw.Load(40u);
    Out[10u] = 7u;
  }
};

TEST_CASE("a uniform-index out-of-bounds access counts for the lowest thread that runs it, and "
          "not at all when none does") {
  std::vector<uint32_t> table(4, 1), raw(4, 2), out(4, 0);
  for (const int reader : {-1, 5}) {
    INFO("reader " << reader);
    UniformOutOfBoundsKernel k{Buffer<uint32_t>(std::span<const uint32_t>(table)),
                               ByteAddressBuffer(std::span<const uint32_t>(raw)),
                               RWBuffer<uint32_t>(std::span<uint32_t>(out)), reader};
    const DispatchResult r = Dispatch(k, uint3{1, 1, 1});
    const bool ran = reader >= 0;
    CHECK(r.out_of_bounds_reads == (ran ? 2u : 0u));  // Table and Raw: device views
    CHECK(r.out_of_bounds_writes == (ran ? 1u : 0u));
    REQUIRE(r.diagnostic_count == (ran ? 1u : 0u));    // the groupshared read
    if (ran) CHECK(r.diagnostics[0].details.find("first thread 5 ") != std::string::npos);
  }
}
