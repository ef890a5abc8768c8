// test_groupshared.cpp -- GroupShared arrays and variables: masked gathers and scatters, uniform
// indices, struct and vector elements, out-of-bounds diagnostics, a fresh array per group, and
// the seed's double-buffered Hillis-Steele scan against a scalar prefix sum.
#include "emulator/emulator.h"
#include "tests/support/check_lanes.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

namespace {

template <int N>
Uint<N> ThreadIds() {
  Uint<N> t{NoInit{}};
  for (int i = 0; i < N; ++i) t.set_lane(i, uint32_t(i));
  return t;
}

struct Item {
  uint32_t key;
  float weight;
};

}  // namespace

TEST_CASE_TEMPLATE("groupshared round trip: each thread writes its slot, reads its mirror after "
                   "the barrier", NT, std::integral_constant<int, 32>,
                   std::integral_constant<int, 64>, std::integral_constant<int, 128>) {
  constexpr int N = NT::value;
  for (int w : kWaveSizes) {
    Uint<N> got(0u);
    RunGroup<N>(w, [&] {
      GroupShared<uint32_t, N> gs;
      const Uint<N> t = ThreadIds<N>();
      gs[t] = t * 3u + 1u;
      GroupMemoryBarrierWithGroupSync();
      got = gs[uint32_t(N - 1) - t];
    });
    std::array<uint32_t, N> want{}, in{};
    for (int i = 0; i < N; ++i) {
      in[i] = uint32_t(i);
      want[i] = uint32_t(N - 1 - i) * 3u + 1u;
    }
    CheckLanes<uint32_t, N>(got, want, Mask<N>::All(), 0u, in,
                            "wave size " + std::to_string(w));
  }
}

TEST_CASE("a groupshared scatter under each mask writes active threads' slots only") {
  constexpr int N = 64;
  for (const auto& pattern : AllMaskPatterns<N>()) {
    std::array<uint32_t, N> after{};
    RunGroup<N>(16, [&] {
      GroupShared<uint32_t, N> gs;
      const Uint<N> t = ThreadIds<N>();
      gs[t] = 7u;
      if_(Bool<N>::FromMask(pattern.mask), [&] { gs[(t * 5u) % uint32_t(N)] = t; });
      for (int i = 0; i < N; ++i) after[i] = gs.data()[i];
    });
    std::array<uint32_t, N> want{};
    want.fill(7u);
    for (int t = 0; t < N; ++t)
      if (pattern.mask.Test(t)) want[(t * 5) % N] = uint32_t(t);
    CHECK_MESSAGE(after == want, pattern.name);
  }
}

struct FreshKernel {
  static constexpr uint3 numthreads{8, 1, 1};
  RWStructuredBuffer<uint32_t> first_read;
  void main(SV_GroupIndex<8> gi, SV_GroupID gid) const {
    GroupShared<uint32_t, 8> gs;
    first_read[gid.x * 8u + gi] = gs[gi];  // before any write in this group
    gs[gi] = gid.x + 1u;
  }
};

TEST_CASE("groupshared memory starts as poison and a local in main() is fresh for each group") {
  std::vector<uint32_t> out(24, 0);
  const FreshKernel k{RWStructuredBuffer<uint32_t>{std::span<uint32_t>(out)}};
  DispatchOptions options;
  options.deterministic = true;
  Dispatch(k, uint3{3, 1, 1}, options);
  for (uint32_t v : out) CHECK(v == Poison<uint32_t>());
}

// HLSL declares groupshared at file scope, so a first port makes it a member: one array for every
// group. Dispatch must refuse before any group runs (the output keeps its sentinel).
struct MemberGroupSharedKernel {
  static constexpr uint3 numthreads{8, 1, 1};
  RWStructuredBuffer<uint32_t> out;
  GroupShared<uint32_t, 8> Scratch;
  void main(SV_GroupIndex<8> gi) const {
    Scratch[gi] = gi;
    out[gi] = Scratch[gi];
  }
};

TEST_CASE("a GroupShared kernel member or global is refused by Dispatch with a message that "
          "says where to declare it") {
  std::vector<uint32_t> out(8, 77u);
  for (const bool deterministic : {true, false}) {
    CAPTURE(deterministic);
    const MemberGroupSharedKernel k{RWStructuredBuffer<uint32_t>{std::span<uint32_t>(out)}, {}};
    DispatchOptions options;
    options.deterministic = deterministic;
    const std::string where = "GroupShared member (" +
                              std::to_string(sizeof(GroupShared<uint32_t, 8>)) + " bytes, at byte " +
                              std::to_string(offsetof(MemberGroupSharedKernel, Scratch)) +
                              " of the kernel object)";
    CHECK_THROWS_WITH_AS(Dispatch(k, uint3{4, 1, 1}, options), doctest::Contains(where.c_str()),
                         UsageError);
    CHECK_THROWS_WITH_AS(DispatchInlined(k, uint3{4, 1, 1}, options),
                         doctest::Contains("local of main()"), UsageError);
  }
  CHECK(out == std::vector<uint32_t>(8, 77u));

  // One outside the kernel object (a global or a host variable) is refused as well; once it is
  // gone, the same kernel runs.
  std::vector<uint32_t> first(24, 0);
  const FreshKernel fresh{RWStructuredBuffer<uint32_t>{std::span<uint32_t>(first)}};
  {
    const GroupShared<uint64_t> stray;
    const std::string what = "a GroupShared of " + std::to_string(sizeof(GroupShared<uint64_t>)) +
                             " bytes that was constructed outside any group";
    CHECK_THROWS_WITH_AS(Dispatch(fresh, uint3{3, 1, 1}), doctest::Contains(what.c_str()),
                         UsageError);
  }
  Dispatch(fresh, uint3{3, 1, 1});
  for (uint32_t v : first) CHECK(v == Poison<uint32_t>());
}

TEST_CASE("groupshared vectors start as poison per component; structs start zeroed") {
  // Vectors: Poison<T>() per component (float's is the quiet NaN 0x7FC0DEAD). Structs cannot be
  // poisoned member by member (a pattern in a bool member would be undefined behaviour).
  struct Mixed {
    uint32_t id;
    float w;
    bool alive;
  };
  RunGroup<4>(4, [&] {
    GroupShared<float4, 2> colours;
    GroupShared<uint3> cell;
    GroupShared<UniformLongVector<int16_t, 5>, 1> taps;
    GroupShared<Mixed, 3> items;
    const float4 c = colours[1u];
    for (int k = 0; k < 4; ++k) CHECK(std::bit_cast<uint32_t>(c[k]) == 0x7FC0DEADu);
    CHECK(uint3(cell) == uint3{0xDEADBEEFu, 0xDEADBEEFu, 0xDEADBEEFu});
    const UniformLongVector<int16_t, 5> t = taps[0u];
    for (int k = 0; k < 5; ++k) CHECK(uint16_t(t[k]) == 0xDEADu);
    const Mixed m = items[2u];
    CHECK(m.id == 0u);
    CHECK(m.w == 0.0f);
    CHECK_FALSE(m.alive);
  });
}

TEST_CASE("groupshared with a uniform index, and a groupshared variable") {
  constexpr int N = 8;
  RunGroup<N>(4, [&] {
    GroupShared<int32_t, 4> arr;
    GroupShared<uint32_t> total;
    const Uint<N> t = ThreadIds<N>();
    arr[0u] = -5;
    arr[1u] = arr[0u] * 2;
    CHECK(int32_t(arr[1u]) == -10);
    total = 3u;
    CHECK(total + 1u == 4u);
    if_(t < 5u, [&] { total = t * 10u; });  // threads 0..4: thread 4 stays
    CHECK(uint32_t(total) == 40u);
    const Uint<N> seen = total + t;  // every thread reads the same element
    CHECK(seen.lane(7) == 47u);
    arr[2u] = Int<N>(t);  // per-thread value to one element: last active thread
    CHECK(int32_t(arr[2u]) == 7);
  });
}

TEST_CASE("groupshared arrays of structs and of vectors") {
  constexpr int N = 8;
  RunGroup<N>(8, [&] {
    GroupShared<Item, N> items;
    GroupShared<uint3, N> vecs;
    const Uint<N> t = ThreadIds<N>();
    items[t].field(&Item::key) = t * 2u;
    items[t].field(&Item::weight) = Float<N>(t) * 0.5f;
    vecs[t] = Uint3<N>(t, t + 1u, t + 2u);
    GroupMemoryBarrierWithGroupSync();
    const Uint<N> mirror = 7u - t;
    const PerThread<Item, N> it = items[mirror];
    const Uint3<N> v = vecs[mirror];
    for (int i = 0; i < N; ++i) {
      CHECK(it.lane(i).key == uint32_t(7 - i) * 2u);
      CHECK(it.lane(i).weight == float(7 - i) * 0.5f);
      CHECK(v.z.lane(i) == uint32_t(7 - i) + 2u);
    }
    const Item one = items[3u];
    CHECK(one.key == 6u);
  });
}

TEST_CASE("out-of-bounds groupshared access reads 0, drops the write and is reported") {
  DispatchShared shared;
  RunGroup<4>(4, [&] {
    GroupShared<uint32_t, 2> gs;
    const Uint<4> t = ThreadIds<4>();
    gs[t] = t + 1u;  // threads 2, 3 out of bounds
    const Uint<4> back = gs[t];
    CHECK(back.lane(0) == 1u);
    CHECK(back.lane(1) == 2u);
    CHECK(back.lane(2) == 0u);
    CHECK(back.lane(3) == 0u);
    CHECK(gs.out_of_bounds_writes() == 2);
    CHECK(gs.out_of_bounds_reads() == 2);
  }, SpecProfile(), &shared);
  REQUIRE(shared.diagnostics.count() == 2);
  const auto kept = shared.diagnostics.kept();
  CHECK(kept[0].rule == "groupshared out-of-bounds write is undefined");
  CHECK(kept[1].rule == "groupshared out-of-bounds read is undefined");
  CHECK(kept[0].details.find("first thread 2") != std::string::npos);
  CHECK(shared.out_of_bounds_writes.load() == 0);  // device-memory counters stay untouched
}

// The seed's groupshared free-ID scan (NiagaraComputeFreeIDs, groupshared version): an exclusive
// Hillis-Steele scan over a double-buffered array, one barrier per step.
template <int kThreadCount>
struct ScanKernel {
  static constexpr uint3 numthreads{kThreadCount, 1, 1};
  StructuredBuffer<uint32_t> flags;
  RWStructuredBuffer<uint32_t> offsets;
  void main(SV_GroupThreadID<kThreadCount> GroupThreadId, SV_GroupID GroupId) const {
    constexpr int N = kThreadCount;
    GroupShared<uint32_t, 2 * N> GroupWriteOffsets;
    const uint32_t InputStart = GroupId.x * N;
    const Uint<N> Thread = GroupThreadId.x;
    if_(Thread > 0u, [&] {
      GroupWriteOffsets[Thread] = flags[InputStart + Thread - 1u];
    }).else_([&] { GroupWriteOffsets[0u] = 0u; });
    GroupMemoryBarrierWithGroupSync();
    uint32_t OutBuffer = 0, InBuffer = 1;
    for (uint32_t Offset = 1; Offset < uint32_t(N); Offset <<= 1) {  // uniform loop
      OutBuffer = 1 - OutBuffer;
      InBuffer = 1 - InBuffer;
      if_(Thread >= Offset, [&] {
        GroupWriteOffsets[OutBuffer * N + Thread] =
            GroupWriteOffsets[InBuffer * N + Thread - Offset] +
            GroupWriteOffsets[InBuffer * N + Thread];
      }).else_([&] {
        GroupWriteOffsets[OutBuffer * N + Thread] = GroupWriteOffsets[InBuffer * N + Thread];
      });
      GroupMemoryBarrierWithGroupSync();
    }
    offsets[InputStart + Thread] = GroupWriteOffsets[OutBuffer * N + Thread];
  }
};

TEST_CASE_TEMPLATE("the seed's double-buffered groupshared scan gives the exclusive prefix sum",
                   NT, std::integral_constant<int, 32>, std::integral_constant<int, 64>,
                   std::integral_constant<int, 128>) {
  constexpr int N = NT::value;
  constexpr int kGroups = 5;
  std::mt19937 rng(N);
  std::vector<uint32_t> flags(N * kGroups), offsets(N * kGroups, 0xFFFFFFFFu);
  for (auto& f : flags) f = rng() % 2;
  const ScanKernel<N> k{StructuredBuffer<uint32_t>{std::span<const uint32_t>(flags)},
                        RWStructuredBuffer<uint32_t>{std::span<uint32_t>(offsets)}};
  for (int w : kWaveSizes) {
    DispatchOptions options;
    options.wave_size = w;
    const DispatchResult r = Dispatch(k, uint3{kGroups, 1, 1}, options);
    CHECK(r.diagnostic_count == 0);
    for (int g = 0; g < kGroups; ++g) {
      uint32_t running = 0;
      for (int t = 0; t < N; ++t) {
        CHECK(offsets[g * N + t] == running);
        running += flags[g * N + t];
      }
    }
  }
}
