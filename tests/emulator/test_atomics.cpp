// test_atomics.cpp -- the Interlocked* family on RW buffers, raw buffers and groupshared memory:
// original values in ascending thread order (hand-worked and against a scalar loop written from
// the HLSL definitions), out-of-bounds atomics, and exact totals under the parallel dispatcher.
#include "emulator/emulator.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

namespace {

enum class Op { kAdd, kMin, kMax, kAnd, kOr, kXor, kExchange, kCompareExchange, kCompareStore };
constexpr Op kOps[] = {Op::kAdd, Op::kMin, Op::kMax, Op::kAnd, Op::kOr,
                       Op::kXor, Op::kExchange, Op::kCompareExchange, Op::kCompareStore};
const char* OpName(Op op) {
  constexpr const char* kNames[] = {"Add", "Min", "Max", "And", "Or", "Xor", "Exchange",
                                    "CompareExchange", "CompareStore"};
  return kNames[int(op)];
}

/// The HLSL definition of each operation on one location: returns the value before it.
template <class T>
T ReferenceApply(Op op, T& m, T v, T cmp) {
  using U = std::make_unsigned_t<T>;
  const T old = m;
  switch (op) {
    case Op::kAdd: m = T(U(m) + U(v)); break;
    case Op::kMin: m = std::min(m, v); break;
    case Op::kMax: m = std::max(m, v); break;
    case Op::kAnd: m = T(m & v); break;
    case Op::kOr: m = T(m | v); break;
    case Op::kXor: m = T(m ^ v); break;
    case Op::kExchange: m = v; break;
    case Op::kCompareExchange:
    case Op::kCompareStore:
      if (m == cmp) m = v;
      break;
  }
  return old;
}

/// Runs op through the HLSL-named function, with original_value where the form has one.
template <class Dest, class V, class C, int N, class T>
void CallInterlocked(Op op, Dest&& dest, const V& v, const C& cmp, Lanes<T, N>& orig) {
  switch (op) {
    case Op::kAdd: InterlockedAdd(dest, v, orig); break;
    case Op::kMin: InterlockedMin(dest, v, orig); break;
    case Op::kMax: InterlockedMax(dest, v, orig); break;
    case Op::kAnd: InterlockedAnd(dest, v, orig); break;
    case Op::kOr: InterlockedOr(dest, v, orig); break;
    case Op::kXor: InterlockedXor(dest, v, orig); break;
    case Op::kExchange: InterlockedExchange(dest, v, orig); break;
    case Op::kCompareExchange: InterlockedCompareExchange(dest, cmp, v, orig); break;
    case Op::kCompareStore: InterlockedCompareStore(dest, cmp, v); break;
  }
}

template <class T, int N>
std::array<T, N> RandomValues(uint32_t seed, bool small) {
  std::mt19937_64 rng(seed);
  std::array<T, N> a{};
  for (auto& x : a) x = small ? T(rng() % 4) : T(rng());
  return a;
}

}  // namespace

// ------------------------------ hand-worked

TEST_CASE("InterlockedAdd: threads apply in ascending order and get the value before their add") {
  std::vector<uint32_t> host = {10, 20};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  RunGroup<8>(4, [&] {
    const Uint<8> t(std::array<uint32_t, 8>{0, 1, 2, 3, 4, 5, 6, 7});
    Uint<8> orig(99u);
    InterlockedAdd(buf[t % 2u], t + 1u, orig);
    // [0]: 10 +1 -> 11 +3 -> 14 +5 -> 19 +7 -> 26; [1]: 20 +2 -> 22 +4 -> 26 +6 -> 32 +8 -> 40
    const std::array<uint32_t, 8> want = {10, 20, 11, 22, 14, 26, 19, 32};
    CheckLanes<uint32_t, 8>(orig, want, Mask<8>::All(), 99u, want, "orig");
  });
  CHECK(host == std::vector<uint32_t>{26, 40});
}

TEST_CASE("InterlockedAdd on one uniform element: originals are the exclusive prefix over active "
          "threads, inactive threads keep their value") {
  std::vector<uint32_t> host = {100};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  RunGroup<8>(4, [&] {
    const Uint<8> t(std::array<uint32_t, 8>{0, 1, 2, 3, 4, 5, 6, 7});
    Uint<8> orig(7u);
    if_(t != 2u && t != 5u, [&] { InterlockedAdd(buf[0u], t, orig); });
    // active 0,1,3,4,6,7 add 0,1,3,4,6,7: originals 100,100,101,104,108,114; total 121
    const std::array<uint32_t, 8> want = {100, 100, 0, 101, 104, 0, 108, 114};
    Mask<8> m = Mask<8>::All();
    m.Set(2, false);
    m.Set(5, false);
    CheckLanes<uint32_t, 8>(orig, want, m, 7u, want, "orig");
  });
  CHECK(host[0] == 121u);
}

TEST_CASE("InterlockedMin/Max on int compare signed, on uint unsigned") {
  std::vector<int32_t> si = {0, 0};
  std::vector<uint32_t> ui = {0, 0};
  const RWBuffer<int32_t> s{std::span<int32_t>(si)};
  const RWBuffer<uint32_t> u{std::span<uint32_t>(ui)};
  RunGroup<4>(4, [&] {
    const Int<4> v(std::array<int32_t, 4>{3, -5, 7, -1});
    InterlockedMin(s[0u], v);
    InterlockedMax(s[1u], v);
    InterlockedMin(u[0u], Uint<4>(v));
    InterlockedMax(u[1u], Uint<4>(v));
  });
  CHECK(si == std::vector<int32_t>{-5, 7});
  CHECK(ui == std::vector<uint32_t>{0u, 0xFFFFFFFFu});  // -1 is the largest uint
}

TEST_CASE("InterlockedCompareExchange: only the first matching thread swaps; later threads see "
          "its value") {
  std::vector<uint32_t> host = {5};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  RunGroup<4>(4, [&] {
    const Uint<4> t(std::array<uint32_t, 4>{0, 1, 2, 3});
    Uint<4> orig(0u);
    // Every thread: if (mem == 5 + t) mem = 6 + t. t0: 5 == 5 -> 6; t1: 6 == 6 -> 7; t2: 7 -> 8;
    // t3: 8 -> 9. A chain, so the lane order shows in the result.
    InterlockedCompareExchange(buf[0u], t + 5u, t + 6u, orig);
    const std::array<uint32_t, 4> want = {5, 6, 7, 8};
    CheckLanes<uint32_t, 4>(orig, want, Mask<4>::All(), 0u, want, "orig");
    InterlockedCompareStore(buf[0u], 9u, 1u);  // t0 stores 1; the rest compare 9 != 1
  });
  CHECK(host[0] == 1u);
}

// ------------------------------ against the scalar loop: every op, type, mask

TEST_CASE_TEMPLATE("every Interlocked op with a per-thread destination matches the scalar loop in "
                   "thread order, under every mask",
                   T, int32_t, uint32_t, int64_t, uint64_t) {
  constexpr int N = 64;
  constexpr int kSize = 6;
  const auto values = RandomValues<T, N>(1, false);
  const auto small = RandomValues<T, N>(2, true);
  std::array<uint32_t, N> index{};
  for (int t = 0; t < N; ++t) index[t] = uint32_t((t * 5) % 7);  // 6 out of bounds
  const T kSentinel = T(0x5E5E5E5E);
  for (Op op : kOps) {
    for (const auto& pattern : AllMaskPatterns<N>()) {
      std::vector<T> host(kSize), want_mem(kSize);
      for (int i = 0; i < kSize; ++i) host[i] = want_mem[i] = T(i % 4);
      const RWStructuredBuffer<T> buf{std::span<T>(host)};
      Lanes<T, N> orig(kSentinel);
      DispatchShared shared;
      // Values 0..3 make CompareExchange hit sometimes.
      const Lanes<T, N> v(op == Op::kCompareExchange || op == Op::kCompareStore ? small : values);
      const Lanes<T, N> cmp(small);
      RunGroup<N>(32, [&] {
        if_(Bool<N>::FromMask(pattern.mask),
            [&] { CallInterlocked(op, buf[Uint<N>(index)], v, cmp, orig); });
      }, SpecProfile(), &shared);
      std::array<T, N> want{};
      uint64_t oob = 0;
      for (int t = 0; t < N; ++t) {
        if (!pattern.mask.Test(t)) continue;
        if (index[t] >= uint32_t(kSize)) {
          want[t] = Poison<T>();
          ++oob;
        } else {
          want[t] = ReferenceApply(op, want_mem[index[t]], v.lane(t), cmp.lane(t));
        }
      }
      const std::string context = std::string("Interlocked") + OpName(op) + " under " + pattern.name;
      CHECK_MESSAGE(host == want_mem, context);
      if (op != Op::kCompareStore)
        CheckLanes<T, N>(orig, want, pattern.mask, kSentinel, values, context);
      CHECK(shared.out_of_bounds_atomics.load() == oob);
      CHECK(buf.out_of_bounds_atomics() == oob);
    }
  }
}

TEST_CASE_TEMPLATE("every Interlocked op on one uniform element matches the scalar loop", T,
                   int32_t, uint32_t, int64_t, uint64_t) {
  constexpr int N = 128;
  const auto values = RandomValues<T, N>(3, false);
  const auto small = RandomValues<T, N>(4, true);
  for (Op op : kOps) {
    for (const auto& pattern : AllMaskPatterns<N>()) {
      std::vector<T> host = {T(2)};
      T want_mem = T(2);
      const RWBuffer<T> buf{std::span<T>(host)};
      Lanes<T, N> orig(T(0x77));
      const Lanes<T, N> v(op == Op::kCompareExchange || op == Op::kCompareStore ? small : values);
      const Lanes<T, N> cmp(small);
      RunGroup<N>(64, [&] {
        if_(Bool<N>::FromMask(pattern.mask), [&] { CallInterlocked(op, buf[0u], v, cmp, orig); });
      });
      std::array<T, N> want{};
      for (int t = 0; t < N; ++t)
        if (pattern.mask.Test(t)) want[t] = ReferenceApply(op, want_mem, v.lane(t), cmp.lane(t));
      const std::string context = std::string("Interlocked") + OpName(op) + " under " + pattern.name;
      CHECK_MESSAGE(host[0] == want_mem, context);
      if (op != Op::kCompareStore) CheckLanes<T, N>(orig, want, pattern.mask, T(0x77), values, context);
    }
  }
}

// Masks of exactly k active threads, chosen at random (fixed seeds) over the whole group: the
// sparse claims kernels make (one thread per wave or per group), up to one past a vector of
// 16 threads, so that the active threads of a wide group fall in several of its vectors.
template <int N>
std::vector<MaskPattern<N>> FewThreadPatterns() {
  std::vector<MaskPattern<N>> p;
  for (int k : {2, 3, 15, 16, 17}) {
    if (k > N) continue;
    std::mt19937 rng(uint32_t(N * 100 + k));
    Mask<N> m;
    while (m.Count() < k) m.Set(int(rng() % uint32_t(N)), true);
    p.push_back({std::to_string(k) + " random threads", m});
  }
  return p;
}

// The 32-bit device add on one element runs as a vector scan over the group (FetchAddScan32):
// group sizes below, at and between vector lengths, with padding threads past N, and values
// whose sums wrap, against the lane-order loop.
template <class T, int N>
void CheckUniformAddAtGroupSize() {
  const auto values = RandomValues<T, N>(uint32_t(N) * 7 + 1, false);
  auto patterns = AllMaskPatterns<N>(8);
  for (auto& few : FewThreadPatterns<N>()) patterns.push_back(std::move(few));
  for (const auto& pattern : patterns) {
    std::vector<T> host = {T(0x7ffffff0)};
    T want_mem = host[0];
    const RWBuffer<T> buf{std::span<T>(host)};
    Lanes<T, N> orig(T(0x55));
    const Lanes<T, N> v(values);
    RunGroup<N>(8, [&] {
      if_(Bool<N>::FromMask(pattern.mask), [&] { InterlockedAdd(buf[0u], v, orig); });
    });
    std::array<T, N> want{};
    for (int t = 0; t < N; ++t)
      if (pattern.mask.Test(t)) want[t] = ReferenceApply(Op::kAdd, want_mem, values[t], T(0));
    const std::string context =
        "InterlockedAdd, " + std::to_string(N) + " threads, under " + pattern.name;
    CHECK_MESSAGE(host[0] == want_mem, context);
    CheckLanes<T, N>(orig, want, pattern.mask, T(0x55), values, context);
  }
}

TEST_CASE_TEMPLATE("InterlockedAdd of 32-bit values on one element matches the lane-order loop at "
                   "group sizes from 1 to 1024",
                   T, int32_t, uint32_t) {
  CheckUniformAddAtGroupSize<T, 1>();
  CheckUniformAddAtGroupSize<T, 8>();
  CheckUniformAddAtGroupSize<T, 16>();
  CheckUniformAddAtGroupSize<T, 40>();
  CheckUniformAddAtGroupSize<T, 64>();
  CheckUniformAddAtGroupSize<T, 200>();
  CheckUniformAddAtGroupSize<T, 1024>();
}

// original_value of the other signedness (Uint<N> for an int buffer, as the free-ID kernel's
// claim has it): the atomic writes the active threads' originals straight into it, and the
// others keep theirs, for the vector scan (dense masks), the running sum (sparse masks, 64-bit
// values) and the per-thread loop (every other op) on one element, and for per-thread
// destinations (four elements, each hit by every fourth thread).
template <class T>
void CheckOtherSignednessOriginal() {
  using O = std::conditional_t<std::is_signed_v<T>, std::make_unsigned_t<T>, std::make_signed_t<T>>;
  constexpr int N = 64;
  const auto values = RandomValues<T, N>(11, false);
  const auto small = RandomValues<T, N>(12, true);
  auto patterns = AllMaskPatterns<N>(8);
  for (auto& few : FewThreadPatterns<N>()) patterns.push_back(std::move(few));
  for (Op op : kOps) {
    if (op == Op::kCompareStore) continue;  // no original_value
    for (const auto& pattern : patterns) {
      std::vector<T> host = {T(0x7ffffff0)};
      T want_mem = host[0];
      const RWBuffer<T> buf{std::span<T>(host)};
      Lanes<O, N> orig(O(0x66));
      const Lanes<T, N> v(op == Op::kCompareExchange ? small : values);
      const Lanes<T, N> cmp(small);
      RunGroup<N>(8, [&] {
        if_(Bool<N>::FromMask(pattern.mask), [&] { CallInterlocked(op, buf[0u], v, cmp, orig); });
      });
      std::array<O, N> want{}, inputs{};
      for (int t = 0; t < N; ++t) {
        inputs[t] = O(values[t]);
        if (pattern.mask.Test(t)) want[t] = O(ReferenceApply(op, want_mem, v.lane(t), cmp.lane(t)));
      }
      const std::string context = std::string("Interlocked") + OpName(op) +
                                  " into original_value of the other signedness, under " +
                                  pattern.name;
      CHECK_MESSAGE(host[0] == want_mem, context);
      CheckLanes<O, N>(orig, want, pattern.mask, O(0x66), inputs, context);

      std::vector<T> four = {T(1), T(2), T(3), T(4)};
      std::vector<T> want_four = four;
      const RWBuffer<T> per_thread_buf{std::span<T>(four)};
      Lanes<O, N> per_thread_orig(O(0x77));
      Uint<N> index{NoInit{}};
      for (int t = 0; t < N; ++t) index.set_lane(t, uint32_t(t % 4));
      RunGroup<N>(8, [&] {
        if_(Bool<N>::FromMask(pattern.mask),
            [&] { CallInterlocked(op, per_thread_buf[index], v, cmp, per_thread_orig); });
      });
      std::array<O, N> want_per_thread{};
      for (int t = 0; t < N; ++t)
        if (pattern.mask.Test(t))
          want_per_thread[t] = O(ReferenceApply(op, want_four[t % 4], v.lane(t), cmp.lane(t)));
      const std::string per_thread_context = context + ", per-thread destinations";
      CHECK_MESSAGE(four == want_four, per_thread_context);
      CheckLanes<O, N>(per_thread_orig, want_per_thread, pattern.mask, O(0x77), inputs,
                       per_thread_context);
    }
  }
}

TEST_CASE_TEMPLATE("every Interlocked op writes an original_value of the other signedness for "
                   "the active threads only",
                   T, int32_t, uint32_t, int64_t, uint64_t) {
  CheckOtherSignednessOriginal<T>();
}

TEST_CASE("Interlocked ops without original_value change memory the same way") {
  std::vector<uint32_t> host = {1, 2, 3, 4, 5, 6, 7, 8};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  RunGroup<4>(4, [&] {
    const Uint<4> t(std::array<uint32_t, 4>{0, 1, 2, 3});
    InterlockedAdd(buf[t], 10u);         // 11 12 13 14
    InterlockedMin(buf[t], 12u);         // 11 12 12 12
    InterlockedMax(buf[t + 4u], 6u);     // 6 6 7 8
    InterlockedAnd(buf[t + 4u], 6u);     // 6 6 6 0
    InterlockedOr(buf[t], 0x100u);       // 0x10b 0x10c 0x10c 0x10c
    InterlockedXor(buf[t], 0x101u);      // 0xa 0xd 0xd 0xd
    InterlockedExchange(buf[t + 4u], t); // 0 1 2 3
  });
  CHECK(host == std::vector<uint32_t>{0xa, 0xd, 0xd, 0xd, 0, 1, 2, 3});
}

// ------------------------------ original_value destinations and conversions

TEST_CASE("original_value may be a groupshared variable or an RW element; values convert as HLSL "
          "converts") {
  // The Niagara pattern: RWBuffer<int> sizes, uint NumGroupFreeIDs, groupshared uint start.
  std::vector<int32_t> sizes = {40};
  std::vector<uint32_t> log(4, 0);
  const RWBuffer<int32_t> RWFreeIDListSizes{std::span<int32_t>(sizes)};
  const RWBuffer<uint32_t> Log{std::span<uint32_t>(log)};
  RunGroup<4>(4, [&] {
    GroupShared<uint32_t> GroupWriteStart;
    const Uint<4> Thread(std::array<uint32_t, 4>{0, 1, 2, 3});
    const Uint<4> NumGroupFreeIDs(5u);
    if_(Thread == 0u, [&] {
      InterlockedAdd(RWFreeIDListSizes[0u], NumGroupFreeIDs, GroupWriteStart);
    });
    CHECK(uint32_t(GroupWriteStart) == 40u);
    InterlockedAdd(RWFreeIDListSizes[0u], Thread, Log[Thread]);  // originals 45, 45, 46, 48
  });
  CHECK(sizes[0] == 51);
  CHECK(log == std::vector<uint32_t>{45, 45, 46, 48});
}

TEST_CASE("an all-uniform atomic applies once per active thread") {
  std::vector<uint32_t> host = {0, 0, 0, 5};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  RunGroup<16>(8, [&] {
    GroupShared<uint32_t> last;
    const Uint<16> t(std::array<uint32_t, 16>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
    InterlockedAdd(buf[0u], 2u);      // 16 threads: 32
    InterlockedXor<16>(buf[1u], 1u);  // 16 times: back to 0 (explicit N is allowed too)
    if_(t < 5u, [&] {
      InterlockedAdd(buf[2u], 3u, last);  // originals 0, 3, 6, 9, 12: the last thread's stays
      InterlockedCompareStore(buf[3u], 5u, 6u);
    });
    CHECK(uint32_t(last) == 12u);
  });
  CHECK(host == std::vector<uint32_t>{32, 0, 15, 6});
}

// ------------------------------ groupshared

TEST_CASE("Interlocked ops on groupshared elements: per-thread and uniform destinations") {
  constexpr int N = 32;
  RunGroup<N>(8, [&] {
    GroupShared<uint32_t, 4> hist;
    GroupShared<int32_t> lowest;
    const Uint<N> t(std::array<uint32_t, N>{0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                            11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                            22, 23, 24, 25, 26, 27, 28, 29, 30, 31});
    hist[t % 4u] = 0u;
    lowest = 1000;
    Uint<N> orig(0u);
    InterlockedAdd(hist[t % 4u], 1u, orig);
    InterlockedMin(lowest, Int<N>(t) - 7);
    for (int k = 0; k < N; ++k) CHECK(orig.lane(k) == uint32_t(k / 4));
    for (int k = 0; k < 4; ++k) CHECK(hist.data()[k] == 8u);
    CHECK(int32_t(lowest) == -7);
  });
}

TEST_CASE("an out-of-bounds groupshared atomic does nothing and is reported") {
  DispatchShared shared;
  RunGroup<4>(4, [&] {
    GroupShared<uint32_t, 2> g;
    g[0u] = 0u;
    g[1u] = 0u;
    Uint<4> orig(1u);
    InterlockedAdd(g[Uint<4>(std::array<uint32_t, 4>{0, 1, 2, 3})], 5u, orig);
    CHECK(g.data()[0] == 5u);
    CHECK(g.data()[1] == 5u);
    CHECK(orig.lane(2) == Poison<uint32_t>());
    CHECK(g.out_of_bounds_atomics() == 2);
  }, SpecProfile(), &shared);
  CHECK(shared.diagnostics.count() >= 1);
  // The first out-of-bounds thread is 2, at index 2 (the indices above).
  bool names_first = false;
  for (const Diagnostic& d : shared.diagnostics.kept())
    names_first |= d.details.find("thread 2, index 2") != std::string::npos ||
                   d.details.find("first thread 2 at index 2 ") != std::string::npos;
  CHECK(names_first);
  CHECK(shared.out_of_bounds_atomics.load() == 0);  // groupshared is not a buffer view
}

// ------------------------------ out of bounds

TEST_CASE("an out-of-bounds atomic's original value is poison and reported in spec, 0 in lavapipe") {
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    std::vector<uint32_t> host = {3};
    const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
    DispatchShared shared;
    Uint<4> orig(1u);
    RunGroup<4>(4, [&] {
      InterlockedAdd(buf[Uint<4>(std::array<uint32_t, 4>{0, 9, 0, 9})], 1u, orig);
    }, profile, &shared);
    const uint32_t undefined = profile.poison_undefined ? Poison<uint32_t>() : 0u;
    CHECK(orig.lane(0) == 3u);
    CHECK(orig.lane(1) == undefined);
    CHECK(orig.lane(2) == 4u);
    CHECK(orig.lane(3) == undefined);
    CHECK(host[0] == 5u);
    CHECK(shared.out_of_bounds_atomics.load() == 2);
    CHECK(shared.diagnostics.count() == (profile.poison_undefined ? 1u : 0u));
    if (profile.poison_undefined) {  // thread 1 is the first out of bounds, at index 9
      REQUIRE(shared.diagnostics.kept().size() == 1);
      const std::string details = shared.diagnostics.kept()[0].details;
      CHECK_MESSAGE(details.find("thread 1, index 9") != std::string::npos, details);
    }
  }
}

TEST_CASE("an all-uniform out-of-bounds atomic's original value is poison and reported in spec") {
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    std::vector<uint32_t> host = {3};
    const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
    DispatchShared shared;
    uint32_t original = 1;
    RunGroup<4>(4, [&] {
      GroupShared<uint32_t> last;
      last = 1u;
      InterlockedAdd(buf[7u], 1u, last);
      original = uint32_t(last);
    }, profile, &shared);
    CHECK(original == (profile.poison_undefined ? Poison<uint32_t>() : 0u));
    CHECK(host[0] == 3u);
    CHECK(shared.out_of_bounds_atomics.load() == 4);
    CHECK(shared.diagnostics.count() == (profile.poison_undefined ? 1u : 0u));
  }
}

TEST_CASE("an out-of-bounds uniform destination gives the active threads an undefined original "
          "and leaves the others'") {
  // A per-thread original_value, written straight by the atomic: poison (spec) or 0 (lavapipe)
  // on the active threads, reported once, and the inactive threads' values kept.
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    for (bool max_op : {false, true}) {
      std::vector<int32_t> host = {3};
      const RWBuffer<int32_t> buf{std::span<int32_t>(host)};
      DispatchShared shared;
      Uint<8> orig(std::array<uint32_t, 8>{10, 11, 12, 13, 14, 15, 16, 17});
      RunGroup<8>(8, [&] {
        const Uint<8> t(std::array<uint32_t, 8>{0, 1, 2, 3, 4, 5, 6, 7});
        if_(t % 3u != 0u, [&] {
          if (max_op) InterlockedMax(buf[7u], Int<8>(5), orig);
          else InterlockedAdd(buf[7u], Int<8>(5), orig);
        });
      }, profile, &shared);
      const uint32_t undefined = profile.poison_undefined ? Poison<uint32_t>() : 0u;
      for (int t = 0; t < 8; ++t)
        CHECK(orig.lane(t) == (t % 3 != 0 ? undefined : uint32_t(10 + t)));
      CHECK(host[0] == 3);
      CHECK(shared.out_of_bounds_atomics.load() == 5);
      CHECK(shared.diagnostics.count() == (profile.poison_undefined ? 1u : 0u));
    }
  }
}

TEST_CASE("an out-of-bounds atomic without original_value is counted, not reported") {
  // Only the original value is undefined; a call that asks for none reaches no undefined point.
  // Per-thread destinations, a uniform one with per-thread values, and all-uniform arguments.
  std::vector<uint32_t> host = {3};
  const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
  DispatchShared shared;
  RunGroup<4>(4, [&] {
    InterlockedAdd(buf[Uint<4>(std::array<uint32_t, 4>{0, 9, 0, 9})], 1u);
    InterlockedMax(buf[5u], Uint<4>(std::array<uint32_t, 4>{1, 2, 3, 4}));
    InterlockedOr(buf[6u], 1u);
  }, SpecProfile(), &shared);
  CHECK(host[0] == 5u);
  CHECK(shared.out_of_bounds_atomics.load() == 2 + 4 + 4);
  CHECK(shared.diagnostics.count() == 0u);
}

TEST_CASE("a helper lane's atomic does nothing; its original value is poison and reported in spec") {
  // Thread 1 is a helper (a pixel shader's uncovered quad member): the others add in order.
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    std::vector<uint32_t> host = {100};
    const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
    DispatchShared shared;
    const uint32_t undefined = profile.poison_undefined ? Poison<uint32_t>() : 0u;
    RunGroup<4>(4, [&] {
      Mask<4> helper;
      helper.Set(1, true);
      GroupState<4>::Current()->set_helper(helper);
      Uint<4> per_thread_dest(7u), uniform_dest(7u);
      InterlockedAdd(buf[Uint<4>(0u)], 1u, per_thread_dest);
      InterlockedAdd(buf[0u], Uint<4>(1u), uniform_dest);
      const std::array<uint32_t, 4> first{100, undefined, 101, 102},
          second{103, undefined, 104, 105};
      for (int t = 0; t < 4; ++t) {
        CHECK(per_thread_dest.lane(t) == first[t]);
        CHECK(uniform_dest.lane(t) == second[t]);
      }
    }, profile, &shared);
    CHECK(host[0] == 106u);
    REQUIRE(shared.diagnostics.count() == (profile.poison_undefined ? 2u : 0u));
    if (profile.poison_undefined)
      CHECK(shared.diagnostics.kept()[0].rule ==
            "InterlockedAdd: original value of a helper lane's atomic is undefined");
  }
}

TEST_CASE("with helper lanes in the group, an inactive thread's original_value is kept") {
  // Thread 1 is a helper, thread 3 is off: the atomic's result goes through the masked
  // assignment (the helper's original is undefined), which leaves thread 3's value.
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    std::vector<uint32_t> host = {100};
    const RWBuffer<uint32_t> buf{std::span<uint32_t>(host)};
    const uint32_t undefined = profile.poison_undefined ? Poison<uint32_t>() : 0u;
    Uint<4> uniform_dest(7u);
    RunGroup<4>(4, [&] {
      Mask<4> helper;
      helper.Set(1, true);
      GroupState<4>::Current()->set_helper(helper);
      const Uint<4> t(std::array<uint32_t, 4>{0, 1, 2, 3});
      if_(t != 3u, [&] { InterlockedAdd(buf[0u], Uint<4>(1u), uniform_dest); });
    }, profile);
    CHECK(uniform_dest.lane(0) == 100u);
    CHECK(uniform_dest.lane(1) == undefined);
    CHECK(uniform_dest.lane(2) == 101u);
    CHECK(uniform_dest.lane(3) == 7u);
    CHECK(host[0] == 102u);
  }
}

TEST_CASE("a uniform groupshared destination writes a per-thread original_value for the active "
          "threads only") {
  constexpr int N = 16;
  Uint<N> orig(0x55u);
  uint32_t total = 0;
  RunGroup<N>(8, [&] {
    GroupShared<uint32_t> counter;
    counter = 40u;
    const Uint<N> t(std::array<uint32_t, N>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
    if_(t % 4u == 1u, [&] { InterlockedAdd(counter, t, orig); });
    total = uint32_t(counter);
  });
  uint32_t running = 40;
  for (int t = 0; t < N; ++t) {
    if (t % 4 == 1) {
      CHECK(orig.lane(t) == running);
      running += uint32_t(t);
    } else {
      CHECK(orig.lane(t) == 0x55u);
    }
  }
  CHECK(total == running);
}

// ------------------------------ RWByteAddressBuffer methods

TEST_CASE("RWByteAddressBuffer Interlocked methods: byte addresses, signed values, 64-bit forms") {
  alignas(8) std::array<uint32_t, 8> words = {1, 2, 0xFFFFFFFFu, 4, 0, 0, 0xFFFFFFFFu, 0};
  const RWByteAddressBuffer buf{std::span<uint32_t>(words)};
  DispatchShared shared;
  RunGroup<4>(4, [&] {
    const Uint<4> t(std::array<uint32_t, 4>{0, 1, 2, 3});
    Uint<4> orig(0u);
    buf.InterlockedAdd(t * 4u, 10u, orig);  // words 0..3 += 10
    CHECK(orig.lane(2) == 0xFFFFFFFFu);
    buf.InterlockedMin(8u, Int<4>(std::array<int32_t, 4>{5, -3, 2, 0}));  // signed: 9 -> -3
    buf.InterlockedMax(12u, Uint<4>(std::array<uint32_t, 4>{5, 30, 2, 0}));
    Uint64<4> orig64(0u);
    buf.InterlockedAdd64(Uint<4>(16u), Uint64<4>(uint64_t{1} << 32), orig64);  // words 4, 5
    CHECK(orig64.lane(3) == uint64_t{3} << 32);
    Uint<4> cx(0u);
    buf.InterlockedCompareExchange(Uint<4>(28u), t, t + 100u, cx);  // t0: 0 == 0 -> 100
    CHECK(cx.lane(0) == 0u);
    CHECK(cx.lane(1) == 100u);
    buf.InterlockedCompareStore(Uint<4>(24u), 0xFFFFFFFFu, t);  // t0 stores 0; t1..3 miss
    buf.InterlockedAdd(Uint<4>(32u), 1u, orig);  // past the end
  }, SpecProfile(), &shared);
  CHECK(words[0] == 11u);
  CHECK(words[1] == 12u);
  CHECK(int32_t(words[2]) == -3);
  CHECK(words[3] == 30u);
  CHECK(words[4] == 0u);
  CHECK(words[5] == 4u);
  CHECK(words[6] == 0u);
  CHECK(words[7] == 100u);
  CHECK(shared.out_of_bounds_atomics.load() == 4);
}

// ------------------------------ the parallel dispatcher

struct CountKernel {
  static constexpr uint3 numthreads{64, 1, 1};
  RWBuffer<uint32_t> counter;
  RWBuffer<uint64_t> big;
  RWBuffer<int32_t> extremes;
  void main(SV_GroupIndex<64> gi, SV_GroupID gid) const {
    constexpr int N = 64;
    if_(gi == 0u, [&] { InterlockedAdd(counter[0u], Uint<N>(1u)); });
    InterlockedAdd(counter[1u], gi);
    InterlockedAdd(counter[2u + gi % 4u], 1u);
    InterlockedAdd(big[0u], Uint64<N>(uint64_t{1} << 33));
    const Int<N> v = Int<N>(gi) - int32_t(gid.x % 1000u) * 3;
    InterlockedMin(extremes[0u], v);
    InterlockedMax(extremes[1u], v);
  }
};

TEST_CASE("atomics from 4096 groups on the parallel dispatcher give exact totals") {
  for (int max_threads : {0, 2}) {
    std::vector<uint32_t> counter(6, 0);
    std::vector<uint64_t> big(1, 0);
    std::vector<int32_t> extremes = {0, 0};
    const CountKernel k{RWBuffer<uint32_t>{std::span<uint32_t>(counter)},
                        RWBuffer<uint64_t>{std::span<uint64_t>(big)},
                        RWBuffer<int32_t>{std::span<int32_t>(extremes)}};
    DispatchOptions options;
    options.max_threads = max_threads;
    Dispatch(k, uint3{4096, 1, 1}, options);
    CHECK(counter[0] == 4096u);
    CHECK(counter[1] == 4096u * (63u * 64u / 2u));
    for (int i = 2; i < 6; ++i) CHECK(counter[i] == 4096u * 16u);
    CHECK(big[0] == (uint64_t{4096} * 64u) << 33);
    CHECK(extremes[0] == -999 * 3);
    CHECK(extremes[1] == 63);
  }
}
