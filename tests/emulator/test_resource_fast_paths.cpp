// test_resource_fast_paths.cpp -- the contiguous gather, contiguous scatter and compacted
// (append) scatter of ElementRef give exactly what the general per-thread path gives: every
// index shape (consecutive, consecutive per wave, compacted, scattered, colliding, partly out of
// bounds) under every mask, compared with a plain loop written from the D3D rules (active
// threads only; out-of-bounds reads give 0, writes are dropped, both counted; ascending thread
// order, so the highest thread's write stays). A contiguous read that ends on the last
// readable byte reads its elements and touches nothing past them, and its read-ahead asks for the
// window worked out by hand.
#include "emulator/emulator.h"
#include "tests/support/fiber_hold.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

namespace {

/// One index shape: thread t's index, given the mask (compacted shapes depend on it).
template <int N>
struct IndexShape {
  std::string name;
  std::function<uint32_t(int t, const Mask<N>& mask)> index;
};

template <int N>
int RankAmongActive(const Mask<N>& mask, int t) {
  int r = 0;
  for (int u = 0; u < t; ++u) r += mask.Test(u);
  return r;
}

/// Shapes against a buffer of `size` elements.
template <int N>
std::vector<IndexShape<N>> Shapes(uint32_t size) {
  std::vector<IndexShape<N>> s;
  s.push_back({"consecutive from 0", [](int t, const Mask<N>&) { return uint32_t(t); }});
  s.push_back({"consecutive from 7", [](int t, const Mask<N>&) { return uint32_t(7 + t); }});
  s.push_back({"consecutive, last threads past the end",
               [size](int t, const Mask<N>&) { return size - uint32_t(N / 2) + uint32_t(t); }});
  s.push_back({"consecutive, wrapping past 2^32",
               [](int t, const Mask<N>&) { return uint32_t(0xFFFFFFF0u + uint32_t(t)); }});
  s.push_back({"compacted (rank among active) from 3",
               [](int t, const Mask<N>& m) { return uint32_t(3 + RankAmongActive(m, t)); }});
  s.push_back({"compacted per wave of 8, each wave its own start",
               [](int t, const Mask<N>& m) {
                 int r = 0;
                 for (int u = t / 8 * 8; u < t; ++u) r += m.Test(u);
                 return uint32_t(100 - 12 * (t / 8) + r);
               }});
  s.push_back({"compacted, running past the end",
               [size](int t, const Mask<N>& m) {
                 return size - 2 + uint32_t(RankAmongActive(m, t));
               }});
  s.push_back({"compacted from 3, but the last active thread jumps ahead by 5",
               [](int t, const Mask<N>& m) {
                 int last = -1;
                 m.ForEach([&](int u) { last = u; });
                 return uint32_t(3 + RankAmongActive(m, t) + (t == last && t > 0 ? 5 : 0));
               }});
  s.push_back({"reversed", [](int t, const Mask<N>&) { return uint32_t(N - 1 - t); }});
  s.push_back({"colliding (t / 3)", [](int t, const Mask<N>&) { return uint32_t(t / 3); }});
  s.push_back({"scattered (t * 7 mod 61)",
               [](int t, const Mask<N>&) { return uint32_t(t * 7 % 61); }});
  return s;
}

template <class T>
T ValueOf(int t) {
  return T(t * 3 + 1);
}

/// Thread t's value with the top bit set on odd threads: stored into elements of the other
/// signedness, it shows whether the bits were kept (HLSL's int <-> uint conversion).
template <class V>
V TopBitValueOf(int t) {
  using U = std::make_unsigned_t<V>;
  const U top = t % 2 ? U(U(1) << (8 * sizeof(U) - 1)) : U(0);
  return V(U(U(t * 3 + 1) | top));
}

template <class T, int N>
void CheckGather(int W) {
  constexpr uint32_t kSize = N <= 128 ? 150 : 2 * N + 50;  // large groups: mostly in bounds
  std::vector<T> host(kSize);
  for (uint32_t i = 0; i < kSize; ++i) host[i] = T(1000 + i);
  for (const auto& pattern : AllMaskPatterns<N>(W)) {
    for (const auto& shape : Shapes<N>(kSize)) {
      const Buffer<T> buf{std::span<const T>(host)};
      Lanes<T, N> got;
      std::optional<Lanes<T, N>> loaded;  // the gather's own result, every thread of it
      DispatchShared shared;
      RunGroup<N>(W, [&] {
        Uint<N> idx{NoInit{}};
        for (int t = 0; t < N; ++t) idx.set_lane(t, shape.index(t, pattern.mask));
        if_(Bool<N>::FromMask(pattern.mask), [&] {
          got = buf[idx];
          loaded.emplace(buf[idx]);  // a copy, not a masked assignment
        });
      }, SpecProfile(), &shared);
      uint64_t oob = 0;
      std::string bad;
      for (int t = 0; t < N; ++t) {
        if (loaded && !pattern.mask.Test(t) && !(loaded->lane(t) == T(0)))
          bad += fmt::format(" inactive thread {} read {}, not 0;", t, double(loaded->lane(t)));
        if (!pattern.mask.Test(t)) continue;  // `got` keeps its 0 on inactive threads
        const uint32_t i = shape.index(t, pattern.mask);
        const T want = i < kSize ? host[i] : T(0);
        oob += i >= kSize;
        if (!(got.lane(t) == want))
          bad += fmt::format(" thread {} index {}: want {} got {};", t, i, double(want),
                             double(got.lane(t)));
      }
      INFO("N ", N, ", wave ", W, ", mask ", pattern.name, ", indices ", shape.name);
      CHECK_MESSAGE(bad.empty(), bad);
      CHECK(shared.out_of_bounds_reads.load() == 2 * oob);  // two loads
      CHECK(buf.out_of_bounds_reads() == 2 * oob);
    }
  }
}

/// AllMaskPatterns plus masks that leave whole blocks of 8 or 16 threads (an AVX2 or AVX-512
/// vector of 32-bit lanes) empty in the middle of what they write: the compacted store writes a
/// full vector for such a block too, whose lanes the next block's run must overwrite.
template <int N>
std::vector<MaskPattern<N>> ScatterMaskPatterns(int W) {
  std::vector<MaskPattern<N>> p = AllMaskPatterns<N>(W);
  p.push_back({"every other block of 8", MaskWhere<N>([](int t) { return t / 8 % 2 == 0; })});
  p.push_back({"every other block of 16", MaskWhere<N>([](int t) { return t / 16 % 2 == 0; })});
  p.push_back({"threads 0-3 and 32-79",
               MaskWhere<N>([](int t) { return t < 4 || (t >= 32 && t < 80); })});
  return p;
}

/// Scatters Lanes<V, N> (V = T, or for integers T's other signedness) into elements T.
template <class T, int N, class V = T>
void CheckScatter(int W) {
  const auto value_of = [](int t) {
    if constexpr (std::is_same_v<V, T>) return ValueOf<T>(t);
    else return TopBitValueOf<V>(t);
  };
  constexpr uint32_t kSize = N <= 128 ? 150 : 2 * N + 50;  // large groups: mostly in bounds
  for (const auto& pattern : ScatterMaskPatterns<N>(W)) {
    for (const auto& shape : Shapes<N>(kSize)) {
      std::vector<T> host(kSize, T(7));
      const RWBuffer<T> buf{std::span<T>(host)};
      DispatchShared shared;
      RunGroup<N>(W, [&] {
        Uint<N> idx{NoInit{}};
        Lanes<V, N> value{NoInit{}};
        for (int t = 0; t < N; ++t) {
          idx.set_lane(t, shape.index(t, pattern.mask));
          value.set_lane(t, value_of(t));
        }
        if_(Bool<N>::FromMask(pattern.mask), [&] { buf[idx] = value; });
      }, SpecProfile(), &shared);
      std::vector<T> want(kSize, T(7));
      uint64_t oob = 0;
      for (int t = 0; t < N; ++t) {  // ascending thread order: the highest thread's write stays
        if (!pattern.mask.Test(t)) continue;
        const uint32_t i = shape.index(t, pattern.mask);
        if (i < kSize) want[i] = T(value_of(t));  // same width: C++20 keeps the bits
        else ++oob;
      }
      std::string bad;
      for (uint32_t i = 0; i < kSize; ++i)
        if (!(host[i] == want[i]))
          bad += fmt::format(" element {}: want {} got {};", i, double(want[i]), double(host[i]));
      INFO("N ", N, ", wave ", W, ", mask ", pattern.name, ", indices ", shape.name);
      CHECK_MESSAGE(bad.empty(), bad);
      CHECK(shared.out_of_bounds_writes.load() == oob);
      CHECK(buf.out_of_bounds_writes() == oob);
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("a gather reads the same through the contiguous fast path as thread by thread",
                   T, int32_t, uint32_t, float, uint64_t, double, int16_t) {
  CheckGather<T, 64>(8);
  CheckGather<T, 64>(32);
  CheckGather<T, 24>(16);
  CheckGather<T, 1>(4);
}

TEST_CASE_TEMPLATE("a scatter writes the same through the contiguous and compacted fast paths as "
                   "thread by thread",
                   T, int32_t, uint32_t, float, uint64_t, double, int16_t) {
  CheckScatter<T, 64>(8);
  CheckScatter<T, 64>(64);
  CheckScatter<T, 24>(16);
  CheckScatter<T, 1>(4);
  CheckScatter<T, 128>(128);
  CheckScatter<T, 200>(8);  // four mask words, the last ending inside it
}

TEST_CASE("a scatter of the other signedness (RWBuffer<int>[i] = uint) keeps the bits on every "
          "path") {
  CheckScatter<int32_t, 64, uint32_t>(8);
  CheckScatter<uint32_t, 64, int32_t>(32);
  CheckScatter<int32_t, 24, uint32_t>(16);
  CheckScatter<uint64_t, 64, int64_t>(8);
  CheckScatter<int16_t, 64, uint16_t>(16);
  CheckScatter<uint32_t, 1, int32_t>(4);
  CheckScatter<int32_t, 1024, uint32_t>(128);
}

TEST_CASE("1024 threads (16 mask words): gather and scatter match thread by thread") {
  CheckGather<uint32_t, 1024>(64);
  CheckScatter<float, 1024>(128);
}

TEST_CASE(
    "a scatter whose indices were loaded from the destination buffer writes what a "
    "per-thread loop writes, and drops and counts the one out-of-bounds index") {
  constexpr int N = 64;
  constexpr uint32_t kSize = 100;
  constexpr uint32_t kBad = 1000;  // thread 40's index: out of bounds
  for (int W : {8, 64}) {
    for (const auto& pattern : AllMaskPatterns<N>(W)) {
      // Element t holds thread t's index: the append run 2 + rank among active threads (the
      // compacted path), so the stores overwrite the very elements the indices came from.
      std::vector<uint32_t> host(kSize, 0);
      for (int t = 0; t < N; ++t) host[size_t(t)] = uint32_t(2 + RankAmongActive(pattern.mask, t));
      host[40] = kBad;
      const std::vector<uint32_t> initial = host;
      const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
      DispatchShared shared;
      RunGroup<N>(
          W,
          [&] {
            Uint<N> t{NoInit{}};
            for (int l = 0; l < N; ++l) t.set_lane(l, uint32_t(l));
            if_(Bool<N>::FromMask(pattern.mask), [&] {
              const Uint<N> idx = buf[t];
              buf[idx] = t + 500u;
            });
          },
          SpecProfile(), &shared);
      // Plain loop: every active thread loads its index before any stores; then the stores in
      // ascending thread order, out-of-bounds ones dropped and counted.
      std::vector<uint32_t> want = initial;
      uint64_t oob = 0;
      for (int t = 0; t < N; ++t) {
        if (!pattern.mask.Test(t)) continue;
        const uint32_t i = initial[size_t(t)];
        if (i < kSize)
          want[i] = uint32_t(t) + 500u;
        else
          ++oob;
      }
      std::string bad;
      for (uint32_t i = 0; i < kSize; ++i)
        if (host[i] != want[i])
          bad += fmt::format(" element {}: want {} got {};", i, want[i], host[i]);
      INFO("wave ", W, ", mask ", pattern.name);
      CHECK_MESSAGE(bad.empty(), bad);
      CHECK(shared.out_of_bounds_writes.load() == oob);
      CHECK(buf.out_of_bounds_writes() == oob);
    }
  }
}

TEST_CASE("a struct member scatter with consecutive indices still writes only that member") {
  struct P {
    uint32_t a, b;
  };
  std::vector<P> host(70, P{1, 2});
  const RWStructuredBuffer<P> buf{std::span<P>(host)};
  RunGroup<64>(8, [&] {
    Uint<64> idx{NoInit{}};
    for (int t = 0; t < 64; ++t) idx.set_lane(t, uint32_t(t + 3));
    buf[idx].field(&P::b) = Uint<64>(9u);
  });
  for (uint32_t i = 0; i < 70; ++i) {
    INFO("element ", i);
    CHECK(host[i].a == 1u);
    CHECK(host[i].b == (i >= 3 && i < 67 ? 9u : 2u));
  }
}

namespace {

struct Box {
  float3 lo;
  uint32_t id;
  float3 hi;
};

/// Reads of elements made of several words through every index shape and mask: `read(idx)`
/// gathers for the active threads, `want(i)` is element i of the buffer (of `size`). Checked
/// against the D3D rules thread by thread, bytes compared: active threads in bounds read element
/// i, every other thread reads M{}; each out-of-bounds active thread is counted.
template <class M, int N, class Read, class Want>
void CheckGatherOf(const char* what, int W, uint32_t size, Read&& read, Want&& want) {
  for (const auto& pattern : AllMaskPatterns<N>(W)) {
    for (const auto& shape : Shapes<N>(size)) {
      std::optional<PerThreadOf<M, N>> loaded;
      DispatchShared shared;
      RunGroup<N>(W, [&] {
        Uint<N> idx{NoInit{}};
        for (int t = 0; t < N; ++t) idx.set_lane(t, shape.index(t, pattern.mask));
        if_(Bool<N>::FromMask(pattern.mask), [&] { loaded.emplace(read(idx)); });
      }, SpecProfile(), &shared);
      uint64_t oob = 0;
      std::string bad;
      for (int t = 0; t < N && loaded; ++t) {
        const uint32_t i = shape.index(t, pattern.mask);
        const bool on = pattern.mask.Test(t);
        oob += on && i >= size;
        const M expected = on && i < size ? want(i) : M{};
        const M got = GetLane<M, N>(*loaded, t);
        if (std::memcmp(&expected, &got, sizeof(M)) != 0)
          bad += fmt::format(" thread {} ({}active) index {} reads other bytes;", t,
                             on ? "" : "in", i);
      }
      INFO(what, ", N ", N, ", wave ", W, ", mask ", pattern.name, ", indices ", shape.name);
      CHECK(loaded.has_value() == pattern.mask.Any());
      CHECK_MESSAGE(bad.empty(), bad);
      CHECK(shared.out_of_bounds_reads.load() == oob);
    }
  }
}

/// CheckGatherOf for `buffer[idx]` as a whole, against `host`, the elements it views.
template <int N, class M, class B>
void CheckBufferGather(const char* what, int W, const B& buffer, const std::vector<M>& host) {
  CheckGatherOf<M, N>(what, W, uint32_t(host.size()),
                      [&](const Uint<N>& idx) { return buffer[idx]; },
                      [&](uint32_t i) { return host[i]; });
}

template <int N>
void CheckWideGathers(int W) {
  constexpr uint32_t kSize = N <= 128 ? 150 : 2 * N + 50;
  std::vector<Box> boxes(kSize);
  std::vector<float3> points(kSize);
  std::vector<uint4> quads(kSize);
  for (uint32_t i = 0; i < kSize; ++i) {
    const float f = float(i);
    boxes[i] = Box{{f, -f, 0.5f * f}, 7000 + i, {f + 1, -0.0f, 1e30f + f}};
    points[i] = float3{f * 3, f * 3 + 1, f * 3 + 2};
    quads[i] = uint4{i, ~i, i * 0x9e3779b9u, 0x80000000u | i};
  }
  const StructuredBuffer<Box> box_buffer{std::span<const Box>(boxes)};
  std::vector<Box> rw_copy = boxes;
  const RWStructuredBuffer<Box> rw_boxes{std::span<Box>(rw_copy)};
  const Buffer<float3> point_buffer{std::span<const float3>(points)};
  const Buffer<uint4> quad_buffer{std::span<const uint4>(quads)};
  CheckBufferGather<N>("Buffer<float3>", W, point_buffer, points);
  CheckBufferGather<N>("Buffer<uint4>", W, quad_buffer, quads);
  CheckBufferGather<N>("StructuredBuffer<Box>", W, box_buffer, boxes);
  CheckGatherOf<float3, N>("RWStructuredBuffer<Box>[i].field(&Box::hi)", W, kSize,
                           [&](const Uint<N>& idx) {
                             return rw_boxes[idx].field(&Box::hi).Load();
                           },
                           [&](uint32_t i) { return boxes[i].hi; });
  // A run that ends where the buffer ends: reading past it is caught by the sanitizer preset.
  const std::vector<float3> exact(points.begin(), points.begin() + N);
  const Buffer<float3> exact_buffer{std::span<const float3>(exact)};
  CheckBufferGather<N>("Buffer<float3> of exactly N elements", W, exact_buffer, exact);
  CheckGatherOf<uint32_t, N>("RWStructuredBuffer<Box>[i].field(&Box::id)", W, kSize,
                             [&](const Uint<N>& idx) {
                               return rw_boxes[idx].field(&Box::id).Load();
                             },
                             [&](uint32_t i) { return boxes[i].id; });
}

}  // namespace

TEST_CASE("a gather of vectors, structs and struct members reads what a thread-by-thread loop "
          "reads, through every index shape and mask") {
  CheckWideGathers<64>(8);
  CheckWideGathers<64>(32);
  CheckWideGathers<24>(16);
  CheckWideGathers<1>(4);
  CheckWideGathers<1024>(64);
}

namespace {

/// Two pages of memory of which the second may not be touched at all: a load from it faults.
class PageBeforeUnreadable {
 public:
  PageBeforeUnreadable() {
    void* p = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    base_ = static_cast<std::byte*>(p);
    if (mprotect(base_ + page_, page_, PROT_NONE) != 0) {
      munmap(base_, 2 * page_);  // a REQUIRE throws from here, and no destructor would run
      FAIL("mprotect failed");
    }
  }
  ~PageBeforeUnreadable() { munmap(base_, 2 * page_); }
  PageBeforeUnreadable(const PageBeforeUnreadable&) = delete;
  PageBeforeUnreadable& operator=(const PageBeforeUnreadable&) = delete;

  /// `count` elements of T whose last byte is the last readable one.
  template <class T>
  std::span<T> ElementsEndingAtTheEdge(size_t count) {
    REQUIRE(count * sizeof(T) <= page_);
    return {reinterpret_cast<T*>(base_ + page_ - count * sizeof(T)), count};
  }

 private:
  size_t page_ = size_t(sysconf(_SC_PAGESIZE));
  std::byte* base_ = nullptr;
};

/// Reads elements [0, N) of `host`, which ends at an unreadable page, through buffer[t] with
/// every thread active (the contiguous path: anything it loads past the run faults, and so would
/// its read-ahead, made of loads, if its window left the binding), and compares each thread's
/// bytes with the element.
template <int N, class M, class B>
void CheckReadAtTheEdge(const char* what, const B& buffer, std::span<const M> host) {
  std::optional<PerThreadOf<M, N>> loaded;
  RunGroup<N>(32, [&] {
    Uint<N> idx{NoInit{}};
    for (int t = 0; t < N; ++t) idx.set_lane(t, uint32_t(t));
    loaded.emplace(buffer[idx]);
  });
  REQUIRE(loaded.has_value());
  std::string bad;
  for (int t = 0; t < N; ++t) {
    const M got = GetLane<M, N>(*loaded, t);
    if (std::memcmp(&host[size_t(t)], &got, sizeof(M)) != 0)
      bad += fmt::format(" thread {} reads other bytes;", t);
  }
  INFO(what);
  CHECK_MESSAGE(bad.empty(), bad);
}

}  // namespace

TEST_CASE("a contiguous read that ends where readable memory ends reads its elements and "
          "touches nothing past them") {
  constexpr int N = 64;
  PageBeforeUnreadable memory;
  SUBCASE("Buffer<uint>: packed scalars") {
    const std::span<uint32_t> words = memory.ElementsEndingAtTheEdge<uint32_t>(N);
    for (int i = 0; i < N; ++i) words[size_t(i)] = 0x9e3779b9u * uint32_t(i + 1);
    CheckReadAtTheEdge<N, uint32_t>("Buffer<uint>",
                                    Buffer<uint32_t>{std::span<const uint32_t>(words)},
                                    std::span<const uint32_t>(words));
  }
  SUBCASE("Buffer<float3>: packed vectors") {
    const std::span<float3> points = memory.ElementsEndingAtTheEdge<float3>(N);
    for (int i = 0; i < N; ++i) points[size_t(i)] = float3{float(i), -float(i), 0.25f * float(i)};
    CheckReadAtTheEdge<N, float3>("Buffer<float3>", Buffer<float3>{std::span<const float3>(points)},
                                  std::span<const float3>(points));
  }
  SUBCASE("StructuredBuffer<Box>: structs") {
    const std::span<Box> boxes = memory.ElementsEndingAtTheEdge<Box>(N);
    for (int i = 0; i < N; ++i) {
      const float f = float(i);
      boxes[size_t(i)] = Box{{f, 2 * f, 3 * f}, 500u + uint32_t(i), {-f, 1e20f, f + 0.5f}};
    }
    CheckReadAtTheEdge<N, Box>("StructuredBuffer<Box>",
                               StructuredBuffer<Box>{std::span<const Box>(boxes)},
                               std::span<const Box>(boxes));
  }
}

TEST_CASE("a contiguous read of device memory asks for the memory 1 KiB on from it, within the "
          "binding only") {
  // Worked by hand: a read of R bytes from byte r asks for min(R, 1024) bytes from
  // r + R + 1024 - min(R, 1024), when they end by the binding's end.
  std::vector<uint32_t> words(4096);  // 16384 bytes
  std::byte* base = reinterpret_cast<std::byte*>(words.data());
  const uintptr_t b = reinterpret_cast<uintptr_t>(base);
  const MemoryBinding device{.base = base, .count = 4096, .stride = 4};
  // 64 uints (256 bytes): the window is the next 256 bytes 1 KiB on.
  CHECK(detail::ReadAheadWindow<256>(device, base) == b + 1024);
  CHECK(detail::ReadAheadWindow<256>(device, base + 400) == b + 1424);
  // The last read whose window fits: it ends on the binding's last byte; one element on, none.
  CHECK(detail::ReadAheadWindow<256>(device, base + 15104) == b + 16128);
  CHECK(detail::ReadAheadWindow<256>(device, base + 15108) == 0);
  // 8 uints (32 bytes).
  CHECK(detail::ReadAheadWindow<32>(device, base + 100) == b + 1124);
  // 64 structs of 28 bytes (1792): the 1 KiB that follows the read.
  CHECK(detail::ReadAheadWindow<1792>(device, base) == b + 1792);
  CHECK(detail::ReadAheadWindow<1792>(device, base + 13568) == b + 15360);
  CHECK(detail::ReadAheadWindow<1792>(device, base + 13572) == 0);
  // A binding of exactly one group's elements (a table every group reads): nothing.
  const MemoryBinding table{.base = base, .count = 64, .stride = 4};
  CHECK(detail::ReadAheadWindow<256>(table, base) == 0);
  // Groupshared memory: nothing.
  MemoryBinding shared = device;
  shared.space = MemorySpace::kGroupShared;
  CHECK(detail::ReadAheadWindow<256>(shared, base) == 0);
}

namespace {

/// Sets the streaming-store threshold for one test and puts the default back.
struct StreamingStoresFrom {
  uint64_t saved = StreamingStoreMinBytes();
  explicit StreamingStoresFrom(uint64_t bytes) { SetStreamingStoreMinBytes(bytes); }
  ~StreamingStoresFrom() { SetStreamingStoreMinBytes(saved); }
};

/// Out[DTid.x] = DTid.x * 3 + 1 for E elements, groups of N threads: whole-group contiguous
/// stores, the path that streams.
template <class E, int N>
struct ContiguousWrite {
  static constexpr uint3 numthreads{uint32_t(N), 1, 1};
  RWStructuredBuffer<E> Out;
  void main(const SV_DispatchThreadID<N>& DTid) const {
    Out[DTid.x] = PerThreadOf<E, N>(DTid.x * 3u + 1u);
  }
};

/// Runs ContiguousWrite over `groups` groups into elements that start `offset` bytes past a
/// 64-byte boundary, with a guard element on each side, and checks every element and both guards
/// against a plain loop.
template <class E, int N>
void CheckContiguousWrite(size_t offset, uint32_t groups, int max_threads) {
  const size_t count = size_t(groups) * N;
  // 64 bytes of room before the aligned boundary (for the first guard), 64 to align it.
  std::vector<std::byte> storage(128 + offset + (count + 1) * sizeof(E));
  const uintptr_t aligned =
      (reinterpret_cast<uintptr_t>(storage.data()) + 64 + 63) & ~uintptr_t{63};
  E* elements = reinterpret_cast<E*>(aligned + offset);
  E* guard_before = elements - 1;
  E* guard_after = elements + count;
  const E kGuard = E(0x5a5a5a5a);
  *guard_before = *guard_after = kGuard;
  for (size_t i = 0; i < count; ++i) elements[i] = E(7);
  ContiguousWrite<E, N> k;
  k.Out = RWStructuredBuffer<E>(std::span<E>(elements, count));
  DispatchOptions options;
  options.wave_size = 32 <= N ? 32 : N < 4 ? 4 : N;
  options.max_threads = max_threads;
  Dispatch(k, uint3{groups, 1, 1}, options);
  std::string bad;
  for (size_t i = 0; i < count && bad.size() < 400; ++i)
    if (!(elements[i] == E(uint32_t(i) * 3u + 1u)))
      bad += fmt::format(" element {}: got {};", i, double(elements[i]));
  INFO(sizeof(E), "-byte elements, ", N, " threads a group, ", offset,
       " bytes past a 64-byte boundary, max_threads ", max_threads);
  CHECK_MESSAGE(bad.empty(), bad);
  CHECK(*guard_before == kGuard);
  CHECK(*guard_after == kGuard);
}

/// Out[DTid.x] = DTid.x * 3 + 1; a claim on Counter[0], where a group with groups in flight
/// parks (and its fiber resumes later); then Echo[DTid.x] = Out[DTid.x]: the group reads back its
/// own streaming stores after the park.
struct WriteParkReadBack {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};
  RWStructuredBuffer<uint32_t> Out, Echo;
  RWBuffer<uint32_t> Counter;
  void main(const SV_DispatchThreadID<N>& DTid) const {
    test::HoldCallerUntilAFiberRuns();
    Out[DTid.x] = DTid.x * 3u + 1u;
    InterlockedAdd(Counter[0u], 1u);
    Echo[DTid.x] = Out[DTid.x];
  }
};

}  // namespace

TEST_CASE("streaming stores write what plain stores write, at every alignment of the buffer") {
  // Threshold 0: every contiguous whole-group store of whole cache lines streams, so these small
  // buffers take the path that buffers larger than the cache take. Offsets 0, 16 and 48 stream
  // (whole vectors, or 16-byte pieces); 4 and 8 are not 16-byte aligned and store plainly.
  const StreamingStoresFrom everything(0);
  for (int max_threads : {1, 0}) {
    for (size_t offset : {0, 4, 8, 16, 48}) {
      CheckContiguousWrite<uint32_t, 64>(offset, 300, max_threads);
      CheckContiguousWrite<float, 16>(offset, 300, max_threads);   // one cache line a group
      CheckContiguousWrite<uint64_t, 32>(offset, 300, max_threads);
      CheckContiguousWrite<uint16_t, 64>(offset, 300, max_threads);  // 128 bytes a group
      CheckContiguousWrite<uint32_t, 8>(offset, 300, max_threads);   // half a line: plain stores
    }
  }
}

TEST_CASE("the streaming-store threshold defaults to a cache size and can be set") {
  const uint64_t initial = StreamingStoreMinBytes();
  CHECK(initial > 0);               // a cache's size
  CHECK(initial < UINT64_MAX);     // the library's initialization has set it
  {
    const StreamingStoresFrom none(UINT64_MAX);
    CHECK(StreamingStoreMinBytes() == UINT64_MAX);
    CheckContiguousWrite<uint32_t, 64>(16, 40, 1);
  }
  CHECK(StreamingStoreMinBytes() == initial);
}

TEST_CASE("streaming stores of groups in flight on fibers are read back and seen by the caller") {
  const StreamingStoresFrom everything(0);
  constexpr uint32_t kGroups = 600;
  // 16 and 32 bytes past a vector's (16-byte aligned) start: one is 32-byte aligned (whole
  // vectors), the other not (16-byte pieces).
  for (const auto& [inlined, skip] : {std::pair{false, 4u}, std::pair{true, 4u},
                                     std::pair{false, 8u}, std::pair{true, 8u}}) {
    std::vector<uint32_t> out(kGroups * 64 + skip, 7), echo(kGroups * 64 + skip, 7);
    std::vector<uint32_t> counter(1, 0);
    WriteParkReadBack k;
    k.Out = RWStructuredBuffer<uint32_t>(std::span<uint32_t>(out).subspan(skip));
    k.Echo = RWStructuredBuffer<uint32_t>(std::span<uint32_t>(echo).subspan(skip));
    k.Counter = RWBuffer<uint32_t>(std::span<uint32_t>(counter));
    DispatchOptions options;
    options.wave_size = 32;
    options.groups_in_flight = 8;
    const bool several_workers = WorkerThreads(0) > 1;
    test::ArmFiberHold(several_workers);
    const DispatchResult r = inlined ? DispatchInlined(k, uint3{kGroups, 1, 1}, options)
                                     : Dispatch(k, uint3{kGroups, 1, 1}, options);
    const std::string through = inlined ? "DispatchInlined" : "Dispatch";
    INFO(through, ", ", r.groups_in_flight, " in flight, ", 4 * skip, " bytes in");
    CHECK(r.groups_in_flight == (several_workers ? 8 : 1));
    CHECK(counter[0] == kGroups * 64);
    std::string bad;
    for (uint32_t i = 0; i < kGroups * 64 && bad.size() < 400; ++i) {
      const uint32_t want = i * 3u + 1u;
      if (out[i + skip] != want || echo[i + skip] != want)
        bad += fmt::format(" thread {}: out {} echo {};", i, out[i + skip], echo[i + skip]);
    }
    CHECK_MESSAGE(bad.empty(), bad);
    CHECK(out[skip - 1] == 7);
    CHECK(echo[skip - 1] == 7);
  }
}
