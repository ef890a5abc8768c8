// test_dispatch.cpp -- Dispatch: system values for 1-D, 2-D and 3-D groups and grids against a
// scalar loop, wave-size resolution ([WaveSize] exact and ranges, profile defaults, errors),
// deterministic and parallel modes, max_threads, exceptions reaching the caller, and groups in
// flight (through Dispatch, and the scheduler alone with each group's parks scripted).
#include "emulator/emulator.h"
#include "intrinsics/quad.h"
#include "tests/support/fiber_hold.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

using namespace waveemu;

namespace {

constexpr int kFields = 10;  // DTid.xyz, Gid.xyz, GTid.xyz, GI

/// Writes every system value of every thread to out[(flat group * N + GI) * kFields + k].
/// With `park`, each group first adds to a device counter, so that on a fiber it parks there
/// holding its system values, and the fiber's groups interleave with the other fibers'.
template <uint32_t X, uint32_t Y, uint32_t Z>
struct SystemValueKernel {
  static constexpr uint3 numthreads{X, Y, Z};
  static constexpr int N = int(X * Y * Z);
  RWStructuredBuffer<uint32_t> out;
  uint3 grid;
  RWBuffer<uint32_t> counter;
  bool park = false;
  // Parameters in a different order from the HLSL habit, to show any order works.
  void main(SV_GroupIndex<N> gi, SV_DispatchThreadID<N> dtid, SV_GroupID gid,
            SV_GroupThreadID<N> gtid) const {
    if (park) {
      test::HoldCallerUntilAFiberRuns();
      InterlockedAdd(counter[0u], 1u);
    }
    const uint32_t flat_group = gid.x + gid.y * grid.x + gid.z * grid.x * grid.y;
    const Uint<N> base = (flat_group * uint32_t(N) + gi) * uint32_t(kFields);
    out[base + 0u] = dtid.x;
    out[base + 1u] = dtid.y;
    out[base + 2u] = dtid.z;
    out[base + 3u] = Uint<N>(gid.x);
    out[base + 4u] = Uint<N>(gid.y);
    out[base + 5u] = Uint<N>(gid.z);
    out[base + 6u] = gtid.x;
    out[base + 7u] = gtid.y;
    out[base + 8u] = gtid.z;
    out[base + 9u] = gi;
  }
};

/// How CheckSystemValues dispatches: Dispatch, one group after another or over the workers; or
/// DispatchInlined with 8 groups in flight, each group parked at an atomic before it reads its
/// system values (with more than one worker, the calling thread waits until a fiber has run).
enum class Through { kDeterministic, kWorkers, kInlinedInFlight };

template <uint32_t X, uint32_t Y, uint32_t Z>
void CheckSystemValues(uint3 grid, Through through) {
  using K = SystemValueKernel<X, Y, Z>;
  constexpr int N = K::N;
  const uint32_t groups = grid.x * grid.y * grid.z;
  std::vector<uint32_t> out(size_t(groups) * N * kFields, 0xFFFFFFFFu), counter(1, 0);
  const bool in_flight = through == Through::kInlinedInFlight;
  const K k{RWStructuredBuffer<uint32_t>{std::span<uint32_t>(out)}, grid,
            RWBuffer<uint32_t>{std::span<uint32_t>(counter)}, in_flight};
  DispatchOptions options;
  options.deterministic = through == Through::kDeterministic;
  options.groups_in_flight = in_flight ? 8 : 1;
  const bool several_workers = WorkerThreads(0) > 1;
  test::ArmFiberHold(in_flight && several_workers);
  const DispatchResult r = in_flight ? DispatchInlined(k, grid, options) : Dispatch(k, grid, options);
  CHECK(r.out_of_bounds_writes == 0);
  if (in_flight) {
    CHECK(counter[0] == groups * uint32_t(N));
    CHECK(r.groups_in_flight == (several_workers ? 8 : 1));
  }
  // The scalar loop, from the D3D definitions: SV_GroupIndex = z*X*Y + y*X + x;
  // SV_DispatchThreadID = SV_GroupID * numthreads + SV_GroupThreadID.
  int mismatches = 0;
  for (uint32_t gz = 0; gz < grid.z; ++gz)
    for (uint32_t gy = 0; gy < grid.y; ++gy)
      for (uint32_t gx = 0; gx < grid.x; ++gx)
        for (uint32_t tz = 0; tz < Z; ++tz)
          for (uint32_t ty = 0; ty < Y; ++ty)
            for (uint32_t tx = 0; tx < X; ++tx) {
              const uint32_t gi = tz * X * Y + ty * X + tx;
              const uint32_t flat = gx + gy * grid.x + gz * grid.x * grid.y;
              const uint32_t want[kFields] = {gx * X + tx, gy * Y + ty, gz * Z + tz, gx, gy, gz,
                                              tx,          ty,          tz,          gi};
              for (int f = 0; f < kFields; ++f) {
                const uint32_t got = out[(size_t(flat) * N + gi) * kFields + f];
                if (got != want[f] && mismatches++ < 10)
                  FAIL_CHECK("numthreads (" << X << "," << Y << "," << Z << ") group (" << gx
                                            << "," << gy << "," << gz << ") thread (" << tx
                                            << "," << ty << "," << tz << ") field " << f
                                            << ": want " << want[f] << ", got " << got);
              }
            }
  CHECK(mismatches == 0);
}

}  // namespace

// ------------------------------ SM 6.6 compute quad layout

namespace {

/// Per thread (by SV_GroupIndex): the SV_GroupIndex QuadReadAcrossX and QuadReadAcrossY return,
/// its lane, and the lane QuadReadAcrossY returns.
template <uint32_t X, uint32_t Y, uint32_t Z>
struct QuadLayoutKernel {
  static constexpr uint3 numthreads{X, Y, Z};
  static constexpr int N = int(X * Y * Z);
  RWStructuredBuffer<uint32_t> across_x, across_y, lane, lane_across_y;
  void main(SV_GroupIndex<N> gi) const {
    across_x[gi] = QuadReadAcrossX(Uint<N>(gi));
    across_y[gi] = QuadReadAcrossY(Uint<N>(gi));
    lane[gi] = WaveGetLaneIndex<N>();
    lane_across_y[gi] = QuadReadAcrossY(WaveGetLaneIndex<N>());
  }
};

/// The partners by HLSL_SM_6_6_Derivatives' rule, from SV_GroupThreadID: 2-D quads (X and Y
/// even, not a single row) flip bit 0 of x or y; 1-D quads (numthreads(X,1,1), X % 4 == 0) are
/// four consecutive indices in the order (0,0) (1,0) (0,1) (1,1), so X flips bit 0 and Y flips
/// bit 1 of SV_GroupIndex. In both, quadID = lane / 4 and quadIndex = lane % 4: the partner
/// across Y is lane ^ 2 of the same wave, at every wave size.
template <uint32_t X, uint32_t Y, uint32_t Z>
void CheckQuadLayout(bool two_d, int wave_size) {
  using K = QuadLayoutKernel<X, Y, Z>;
  std::vector<uint32_t> ax(K::N, ~0u), ay(K::N, ~0u), lane(K::N, ~0u), lane_y(K::N, ~0u);
  auto rw = [](std::vector<uint32_t>& v) { return RWStructuredBuffer<uint32_t>{std::span(v)}; };
  DispatchOptions options;
  options.wave_size = wave_size;
  Dispatch(K{rw(ax), rw(ay), rw(lane), rw(lane_y)}, uint3{1, 1, 1}, options);
  std::vector<int> threads_per_lane(size_t(wave_size), 0);
  for (uint32_t tz = 0; tz < Z; ++tz)
    for (uint32_t ty = 0; ty < Y; ++ty)
      for (uint32_t tx = 0; tx < X; ++tx) {
        const uint32_t gi = (tz * Y + ty) * X + tx;
        const uint32_t want_x = two_d ? (tz * Y + ty) * X + (tx ^ 1u) : gi ^ 1u;
        const uint32_t want_y = two_d ? (tz * Y + (ty ^ 1u)) * X + tx : gi ^ 2u;
        INFO("numthreads(" << X << "," << Y << "," << Z << ") wave " << wave_size << " thread "
                           << gi << " lane " << lane[gi]);
        CHECK(ax[gi] == want_x);
        CHECK(ay[gi] == want_y);
        REQUIRE(lane[gi] < uint32_t(wave_size));
        CHECK(lane_y[gi] == (lane[gi] ^ 2u));
        if (two_d) CHECK(lane[gi] % 4 == (tx & 1u) + 2 * (ty & 1u));
        else CHECK(lane[gi] == gi % uint32_t(wave_size));
        ++threads_per_lane[lane[gi]];
      }
  // Every lane index is used equally often: the layout is a permutation within whole waves.
  for (int l = 0; l < wave_size; ++l) CHECK(threads_per_lane[l] == K::N / wave_size);
}

}  // namespace

TEST_CASE("Dispatch uses SM 6.6 1-D quads for numthreads(X,1,1) and 2-D quads for even X and Y, "
          "with quadID = lane / 4 and quadIndex = lane % 4 at every wave size") {
  CHECK_FALSE(UsesQuadLayout2D<QuadLayoutKernel<16, 1, 1>>());
  CHECK(UsesQuadLayout2D<QuadLayoutKernel<4, 4, 1>>());
  CHECK_FALSE(UsesQuadLayout2D<QuadLayoutKernel<3, 4, 1>>());
  for (int w : {4, 8, 16}) {
    CheckQuadLayout<16, 1, 1>(false, w);
    CheckQuadLayout<4, 4, 1>(true, w);
    CheckQuadLayout<8, 2, 1>(true, w);
    CheckQuadLayout<8, 8, 1>(true, w);
    CheckQuadLayout<2, 4, 2>(true, w);  // Z > 1: quads stay inside each z slice
  }
}

// ------------------------------ system values

TEST_CASE("system values of a 1-D group on a 1-D grid match the scalar loop") {
  CheckSystemValues<64, 1, 1>(uint3{3, 1, 1}, Through::kDeterministic);
  CheckSystemValues<64, 1, 1>(uint3{3, 1, 1}, Through::kWorkers);
}

TEST_CASE("system values of a 2-D group on a 2-D grid match the scalar loop") {
  CheckSystemValues<8, 4, 1>(uint3{2, 3, 1}, Through::kDeterministic);
  CheckSystemValues<8, 8, 1>(uint3{3, 2, 1}, Through::kWorkers);
}

TEST_CASE("system values of a 3-D group on a 3-D grid match the scalar loop") {
  CheckSystemValues<4, 2, 3>(uint3{2, 2, 2}, Through::kDeterministic);
  CheckSystemValues<2, 3, 5>(uint3{3, 1, 2}, Through::kWorkers);
}

// Dispatch counts group ids up from each worker's first group and rewrites only the components
// of SV_DispatchThreadID whose group id changed (WorkerSystemValues): 105 or 390 groups split
// into several worker ranges that start mid-row and mid-layer and wrap both.
TEST_CASE("system values stay right across worker ranges that start mid-grid and wrap rows") {
  CheckSystemValues<4, 2, 3>(uint3{7, 5, 3}, Through::kWorkers);
  CheckSystemValues<4, 2, 3>(uint3{7, 5, 3}, Through::kDeterministic);
  CheckSystemValues<64, 1, 1>(uint3{13, 10, 3}, Through::kWorkers);
}

// DispatchInlined compiles main() into the group loop, where SV_DispatchThreadID is built for each
// group. With groups in flight each group parks at an atomic holding its system values, and
// each fiber's next group is several groups further on.
TEST_CASE("system values through DispatchInlined with groups in flight match the scalar loop") {
  CheckSystemValues<4, 2, 3>(uint3{7, 5, 3}, Through::kInlinedInFlight);
  CheckSystemValues<64, 1, 1>(uint3{13, 10, 3}, Through::kInlinedInFlight);
}

// ------------------------------ wave size

namespace {

struct NoWaveSizeKernel {
  static constexpr uint3 numthreads{64, 1, 1};
  RWBuffer<uint32_t> seen;
  void main() const { seen[0u] = uint32_t(CurrentGroupBase("test").wave_size()); }  // no SVs
};
struct ExactWaveSizeKernel {
  static constexpr uint3 numthreads{64, 1, 1};
  static constexpr WaveSize wave_size{16};
  RWBuffer<uint32_t> seen;
  void main(SV_GroupIndex<64>) const { seen[0u] = uint32_t(CurrentGroupBase("test").wave_size()); }
};
struct RangeWaveSizeKernel {
  static constexpr uint3 numthreads{64, 1, 1};
  static constexpr WaveSize wave_size{8, 64};
  RWBuffer<uint32_t> seen;
  void main(SV_GroupIndex<64>) const { seen[0u] = uint32_t(CurrentGroupBase("test").wave_size()); }
};
struct PreferredWaveSizeKernel {
  static constexpr uint3 numthreads{64, 1, 1};
  static constexpr WaveSize wave_size{8, 64, 16};
  RWBuffer<uint32_t> seen;
  void main(SV_GroupIndex<64>) const { seen[0u] = uint32_t(CurrentGroupBase("test").wave_size()); }
};

/// The wave size a dispatch reports and the one the kernel saw; they must agree.
template <class K>
int RunAt(const DeviceProfile& profile, int requested) {
  std::vector<uint32_t> seen(1, 0);
  const K k{RWBuffer<uint32_t>{std::span<uint32_t>(seen)}};
  DispatchOptions options;
  options.profile = profile;
  options.wave_size = requested;
  const DispatchResult r = Dispatch(k, uint3{1, 1, 1}, options);
  CHECK(r.wave_size == int(seen[0]));
  return r.wave_size;
}

DeviceProfile ProfileWithWave(int w) {
  DeviceProfile p = SpecProfile();
  p.name = "custom";
  p.wave_size = w;
  return p;
}

}  // namespace

TEST_CASE("without [WaveSize] the wave size is the profile's, or the one requested") {
  CHECK(RunAt<NoWaveSizeKernel>(SpecProfile(), 0) == 32);
  CHECK(RunAt<NoWaveSizeKernel>(LavapipeProfile(), 0) == 8);
  for (int w : {4, 8, 16, 32, 64, 128}) CHECK(RunAt<NoWaveSizeKernel>(SpecProfile(), w) == w);
}

TEST_CASE("a wave size that is not a power of two in [4, 128] is a UsageError naming it") {
  CHECK_THROWS_WITH_AS(RunAt<NoWaveSizeKernel>(SpecProfile(), 12), doctest::Contains("12"),
                       UsageError);
  CHECK_THROWS_AS(RunAt<NoWaveSizeKernel>(SpecProfile(), 256), UsageError);
  CHECK_THROWS_AS(RunAt<NoWaveSizeKernel>(ProfileWithWave(2), 0), UsageError);
}

TEST_CASE("[WaveSize(16)] pins the wave size; asking for another is a UsageError naming both") {
  CHECK(RunAt<ExactWaveSizeKernel>(SpecProfile(), 0) == 16);
  CHECK(RunAt<ExactWaveSizeKernel>(LavapipeProfile(), 0) == 16);
  CHECK(RunAt<ExactWaveSizeKernel>(SpecProfile(), 16) == 16);
  CHECK_THROWS_WITH_AS(RunAt<ExactWaveSizeKernel>(SpecProfile(), 32),
                       doctest::Contains("wave size 32 was requested, but the kernel's [WaveSize] "
                                         "allows 16 to 16"),
                       UsageError);
  // A size that is no wave size at all says so, not that [WaveSize] excludes it.
  CHECK_THROWS_WITH_AS(RunAt<ExactWaveSizeKernel>(SpecProfile(), 12),
                       "DispatchOptions::wave_size is 12; it must be 4, 8, 16, 32, 64 or 128 (0: "
                       "the kernel's [WaveSize] or the profile's)",
                       UsageError);
}

TEST_CASE("[WaveSize(8, 64)] takes the profile's size when allowed, else the minimum") {
  CHECK(RunAt<RangeWaveSizeKernel>(SpecProfile(), 0) == 32);
  CHECK(RunAt<RangeWaveSizeKernel>(LavapipeProfile(), 0) == 8);
  CHECK(RunAt<RangeWaveSizeKernel>(ProfileWithWave(128), 0) == 8);
  CHECK(RunAt<RangeWaveSizeKernel>(ProfileWithWave(4), 0) == 8);
  CHECK(RunAt<RangeWaveSizeKernel>(SpecProfile(), 64) == 64);
  CHECK_THROWS_WITH_AS(RunAt<RangeWaveSizeKernel>(SpecProfile(), 4),
                       doctest::Contains("allows 8 to 64"), UsageError);
  CHECK_THROWS_AS(RunAt<RangeWaveSizeKernel>(SpecProfile(), 128), UsageError);
}

TEST_CASE("[WaveSize(8, 64, 16)] takes the preferred size unless one is requested") {
  CHECK(RunAt<PreferredWaveSizeKernel>(SpecProfile(), 0) == 16);
  CHECK(RunAt<PreferredWaveSizeKernel>(LavapipeProfile(), 0) == 16);
  CHECK(RunAt<PreferredWaveSizeKernel>(SpecProfile(), 32) == 32);
}

// ------------------------------ modes

namespace {

struct TicketKernel {
  static constexpr uint3 numthreads{64, 1, 1};
  RWBuffer<uint32_t> counter;
  RWBuffer<uint32_t> tickets;
  void main(SV_DispatchThreadID<64> dtid, SV_GroupIndex<64> gi) const {
    Uint<64> ticket(0u);
    if_((gi & 3u) != 3u, [&] { InterlockedAdd(counter[0u], 1u, ticket); });
    if_((gi & 3u) == 3u, [&] { InterlockedAdd(counter[0u], 1u, ticket); });
    tickets[dtid.x] = ticket;
  }
};

std::vector<uint32_t> RunTickets(uint32_t groups, const DispatchOptions& options) {
  std::vector<uint32_t> counter(1, 0), tickets(size_t(groups) * 64, 0xFFFFFFFFu);
  const TicketKernel k{RWBuffer<uint32_t>{std::span<uint32_t>(counter)},
                       RWBuffer<uint32_t>{std::span<uint32_t>(tickets)}};
  Dispatch(k, uint3{groups, 1, 1}, options);
  CHECK(counter[0] == groups * 64);
  return tickets;
}

}  // namespace

TEST_CASE("deterministic mode: InterlockedAdd originals follow the serial order and repeat "
          "exactly") {
  constexpr uint32_t kGroups = 300;
  DispatchOptions options;
  options.deterministic = true;
  const std::vector<uint32_t> first = RunTickets(kGroups, options);
  // Serial order: groups in order; in each group the threads with gi % 4 != 3 in thread order,
  // then those with gi % 4 == 3.
  std::vector<uint32_t> want(kGroups * 64);
  uint32_t next = 0;
  for (uint32_t g = 0; g < kGroups; ++g) {
    for (uint32_t t = 0; t < 64; ++t)
      if (t % 4 != 3) want[g * 64 + t] = next++;
    for (uint32_t t = 0; t < 64; ++t)
      if (t % 4 == 3) want[g * 64 + t] = next++;
  }
  CHECK(first == want);
  CHECK(RunTickets(kGroups, options) == first);
}

TEST_CASE("parallel mode with any max_threads hands out every ticket exactly once") {
  constexpr uint32_t kGroups = 2000;
  std::vector<uint32_t> all(kGroups * 64);
  std::iota(all.begin(), all.end(), 0u);
  for (int max_threads : {0, 1, 2}) {
    DispatchOptions options;
    options.max_threads = max_threads;
    std::vector<uint32_t> t = RunTickets(kGroups, options);
    std::sort(t.begin(), t.end());
    CHECK_MESSAGE(t == all, "max_threads " << max_threads);
  }
}

namespace {

struct ThrowingKernel {
  static constexpr uint3 numthreads{32, 1, 1};
  RWBuffer<uint32_t> done;
  void main(SV_GroupID gid, SV_GroupIndex<32> gi) const {
    if (gid.x == 41) throw std::runtime_error("boom in group 41");
    done[gid.x] = gi + 1u;
  }
};

}  // namespace

TEST_CASE("an exception thrown by a kernel reaches the caller of Dispatch, in every mode") {
  for (int mode = 0; mode < 4; ++mode) {
    std::vector<uint32_t> done(100, 0);
    const ThrowingKernel k{RWBuffer<uint32_t>{std::span<uint32_t>(done)}};
    DispatchOptions options;
    options.deterministic = mode == 0;
    options.max_threads = mode == 2 ? 1 : mode == 3 ? 2 : 0;
    CHECK_THROWS_WITH_AS(Dispatch(k, uint3{100, 1, 1}, options), "boom in group 41",
                         std::runtime_error);
  }
  // The thread that ran the failed dispatch runs the next one normally.
  std::vector<uint32_t> done(40, 0);
  const ThrowingKernel k{RWBuffer<uint32_t>{std::span<uint32_t>(done)}};
  DispatchOptions options;
  options.deterministic = true;
  Dispatch(k, uint3{40, 1, 1}, options);
  CHECK(std::all_of(done.begin(), done.end(), [](uint32_t v) { return v == 32u; }));
  CHECK(GroupBase::Current() == nullptr);
}

TEST_CASE("a dispatch of zero groups runs nothing") {
  std::vector<uint32_t> done(1, 0);
  const ThrowingKernel k{RWBuffer<uint32_t>{std::span<uint32_t>(done)}};
  const DispatchResult r = Dispatch(k, uint3{0, 5, 1});
  CHECK(done[0] == 0u);
  CHECK(r.diagnostic_count == 0);
}

// ------------------------------ groups in flight

namespace {

/// Every group adds to two device counters (one 32-bit, one 64-bit) a data-dependent number of
/// times, so that a worker's groups park at different atomics, some while others have ended;
/// every third group adds nothing. Each active thread records the original it received.
struct ClaimKernel {
  static constexpr uint3 numthreads{32, 1, 1};
  RWBuffer<uint32_t> counter32;        // element 1 is the one used; 0 and 2 stay 0
  RWBuffer<uint64_t> counter64;        // element 0
  RWBuffer<uint32_t> claim_original;   // per (group, round, thread)
  RWBuffer<uint32_t> claim_value;      // the value the thread added (0: it did not)
  RWBuffer<uint64_t> ticket_original;  // per (group, thread): the 64-bit counter's original
  static constexpr uint32_t kRounds = 4;

  void main(SV_GroupID gid, SV_GroupIndex<32> gi) const {
    test::HoldCallerUntilAFiberRuns();
    const uint32_t g = gid.y * 1000u + gid.x;
    if (g % 3u == 2u) return;  // this group adds nothing
    const uint32_t rounds = g % kRounds + 1u;
    Uint<32> round(0u);
    for_([&] { return round < rounds; }, [&] { round = round + 1u; }, [&] {
      const Uint<32> slot = (g * kRounds + round) * 32u + gi;
      // Threads whose bit is set add (g + round + thread) % 5 + 1; the others sit it out.
      if_(((gi + g + round) & 3u) != 0u, [&] {
        const Uint<32> value = (g + round + gi) % 5u + 1u;
        Uint<32> original;
        InterlockedAdd(counter32[1u], value, original);
        claim_original[slot] = original;
        claim_value[slot] = value;
      });
    });
    Uint64<32> ticket;
    InterlockedAdd(counter64[0u], Uint64<32>(2u), ticket);
    ticket_original[g * 32u + gi] = ticket;
  }
};

struct ClaimRun {
  DispatchResult result;
  std::vector<uint32_t> counter32, claim_original, claim_value;
  std::vector<uint64_t> counter64, ticket_original;
};

constexpr uint3 kClaimGrid{1000, 3, 1};  // 3000 groups

/// `inlined`: through DispatchInlined, where a parked group resumes inside the kernel compiled
/// into the group loop (groups_in_flight.h), rather than through Dispatch.
ClaimRun RunClaims(const DispatchOptions& options, bool inlined = false) {
  constexpr uint32_t kGroups = kClaimGrid.x * kClaimGrid.y;
  ClaimRun run;
  run.counter32.assign(3, 0);
  run.counter64.assign(1, 0);
  run.claim_original.assign(size_t(kGroups) * ClaimKernel::kRounds * 32, 0xFFFFFFFFu);
  run.claim_value.assign(run.claim_original.size(), 0);
  run.ticket_original.assign(size_t(kGroups) * 32, ~uint64_t{0});
  const ClaimKernel k{RWBuffer<uint32_t>{std::span<uint32_t>(run.counter32)},
                      RWBuffer<uint64_t>{std::span<uint64_t>(run.counter64)},
                      RWBuffer<uint32_t>{std::span<uint32_t>(run.claim_original)},
                      RWBuffer<uint32_t>{std::span<uint32_t>(run.claim_value)},
                      RWBuffer<uint64_t>{std::span<uint64_t>(run.ticket_original)}};
  test::ArmFiberHold(options.groups_in_flight > 1 && !options.deterministic &&
                     WorkerThreads(options.max_threads) > 1);
  run.result =
      inlined ? DispatchInlined(k, kClaimGrid, options) : Dispatch(k, kClaimGrid, options);
  return run;
}

/// What any legal order of the claims gives, checked without the emulator's own arithmetic:
/// the threads' ranges [original, original + value) tile [0, total) with no gap or overlap,
/// each (group, round)'s threads claim one contiguous block in thread order (the emulator
/// applies a statement's atomics in thread order), and the 64-bit tickets are 0, 2, 4, ...
/// in blocks of 32 per group, thread order inside a block.
void CheckClaims(const ClaimRun& run, const std::string& what) {
  INFO(what);
  constexpr uint32_t kGroups = kClaimGrid.x * kClaimGrid.y;
  uint64_t total = 0, expected_total = 0;
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // (original, value)
  bool blocks_contiguous = true, unexpected_writes = false;
  for (uint32_t g = 0; g < kGroups; ++g) {
    for (uint32_t round = 0; round < ClaimKernel::kRounds; ++round) {
      const bool runs = g % 3 != 2 && round < g % ClaimKernel::kRounds + 1;
      uint64_t next = 0;
      bool first = true;
      for (uint32_t t = 0; t < 32; ++t) {
        const size_t slot = (size_t(g) * ClaimKernel::kRounds + round) * 32 + t;
        const bool adds = runs && ((t + g + round) & 3u) != 0;
        const uint32_t value = (g + round + t) % 5 + 1;
        if (!adds) {
          unexpected_writes |= run.claim_value[slot] != 0 || run.claim_original[slot] != ~0u;
          continue;
        }
        expected_total += value;
        if (run.claim_value[slot] != value) {
          unexpected_writes = true;
          continue;
        }
        const uint32_t o = run.claim_original[slot];
        if (!first && o != next) blocks_contiguous = false;
        first = false;
        next = uint64_t(o) + value;
        ranges.emplace_back(o, value);
        total += value;
      }
    }
  }
  CHECK_FALSE(unexpected_writes);
  CHECK(blocks_contiguous);
  CHECK(total == expected_total);
  CHECK(run.counter32[1] == expected_total);
  CHECK(run.counter32[0] == 0u);
  CHECK(run.counter32[2] == 0u);
  std::sort(ranges.begin(), ranges.end());
  uint64_t at = 0;
  bool tiles = true;
  for (const auto& [o, v] : ranges) {
    tiles = tiles && o == at;
    at = uint64_t(o) + v;
  }
  CHECK(tiles);
  CHECK(at == expected_total);
  // Tickets: the groups that return early add nothing; the others each take 32 consecutive
  // even numbers, in thread order.
  std::vector<uint64_t> firsts;
  bool tickets_in_thread_order = true;
  for (uint32_t g = 0; g < kGroups; ++g) {
    if (g % 3 == 2) continue;
    const uint64_t first = run.ticket_original[size_t(g) * 32];
    for (uint32_t t = 0; t < 32; ++t)
      tickets_in_thread_order &= run.ticket_original[size_t(g) * 32 + t] == first + 2 * t;
    firsts.push_back(first);
  }
  CHECK(tickets_in_thread_order);
  std::sort(firsts.begin(), firsts.end());
  bool tickets_tile = true;
  for (size_t i = 0; i < firsts.size(); ++i) tickets_tile &= firsts[i] == uint64_t(i) * 64;
  CHECK(tickets_tile);
  CHECK(run.counter64[0] == uint64_t(firsts.size()) * 64);
}

}  // namespace

TEST_CASE("groups in flight: parked InterlockedAdds on 32- and 64-bit counters give every "
          "group one block, with no gap or overlap") {
  // Several workers are needed for groups in flight; CI's machine has two cores.
  const bool several_workers = WorkerThreads(0) > 1;
  if (!several_workers) MESSAGE("one core: groups run one by one, groups in flight untested");
  for (bool inlined : {false, true}) {
    for (int in_flight : {1, 2, 3, 64, 128}) {
      for (int max_threads : {0, 2}) {
        DispatchOptions options;
        options.groups_in_flight = in_flight;
        options.max_threads = max_threads;
        // The calling thread runs its groups one by one, the other workers keep theirs in
        // flight (ClaimKernel holds the calling thread until one does: fiber_hold.h).
        const ClaimRun run = RunClaims(options, inlined);
        CheckClaims(run, std::string(inlined ? "DispatchInlined" : "Dispatch") +
                             ", groups_in_flight " + std::to_string(in_flight) +
                             ", max_threads " + std::to_string(max_threads));
        CHECK(run.result.groups_in_flight == (several_workers ? in_flight : 1));
      }
    }
  }
  // The default runs groups one by one; deterministic mode and one worker ignore the option,
  // and deterministic mode repeats exactly.
  CHECK(DispatchOptions{}.groups_in_flight == 1);
  DispatchOptions det;
  det.groups_in_flight = 64;
  det.deterministic = true;
  const ClaimRun a = RunClaims(det), b = RunClaims(det);
  CheckClaims(a, "deterministic");
  CHECK(a.result.groups_in_flight == 1);
  CHECK(a.claim_original == b.claim_original);
  DispatchOptions one;
  one.max_threads = 1;
  one.groups_in_flight = 64;
  const ClaimRun c = RunClaims(one);
  CheckClaims(c, "max_threads 1");
  CHECK(c.result.groups_in_flight == 1);
  CHECK(c.claim_original == a.claim_original);  // one worker also runs groups in order
}

TEST_CASE("groups_in_flight outside 1 to 128 is a UsageError naming the value") {
  for (int bad : {0, -3, 129}) {
    DispatchOptions options;
    options.groups_in_flight = bad;
    const std::string named = "groups_in_flight is " + std::to_string(bad);
    CHECK_THROWS_WITH_AS(RunClaims(options), doctest::Contains(named.c_str()), UsageError);
  }
}

namespace {

/// Every group takes a ticket first, so when group `throwing` throws, other groups of its
/// worker are parked at their atomic. `threw_in_flight` says whether it ran on a fiber.
struct ThrowAfterAtomicKernel {
  static constexpr uint3 numthreads{32, 1, 1};
  RWBuffer<uint32_t> counter;
  RWBuffer<uint32_t> done;
  uint32_t throwing;
  bool* threw_in_flight;
  void main(SV_GroupID gid, SV_GroupIndex<32> gi) const {
    test::HoldCallerUntilAFiberRuns();
    InterlockedAdd(counter[0u], 1u);
    if (gid.x == throwing) {
      *threw_in_flight = GroupState<32>::Current()->in_flight != nullptr;
      throw std::runtime_error(fmt::format("boom in group {}", throwing));
    }
    done[gid.x] = gi + 1u;
  }
};

}  // namespace

TEST_CASE("with groups in flight, an exception reaches the caller once the started groups have "
          "ended, and the thread runs the next dispatch normally") {
  const bool several_workers = WorkerThreads(0) > 1;
  for (const auto& [inlined, in_flight] : {std::pair{false, 2}, std::pair{false, 64},
                                          std::pair{true, 2}, std::pair{true, 64}}) {
    INFO((inlined ? "DispatchInlined" : "Dispatch"), ", groups_in_flight ", in_flight);
    // The throwing group falls to the calling thread, which runs its groups one by one, or to
    // another worker's fibers (the kernel holds the calling thread until a fiber runs): move it
    // until it has thrown on each (with one core no fiber runs).
    bool threw_on_fiber = false, threw_on_caller = false;
    for (int attempt = 0;
         attempt < 50 && !(threw_on_caller && (threw_on_fiber || !several_workers)); ++attempt) {
      const uint32_t throwing = (1234u + 1777u * uint32_t(attempt)) % 4000u;
      std::vector<uint32_t> counter(1, 0), done(4000, 0);
      bool threw_in_flight = false;
      const ThrowAfterAtomicKernel k{RWBuffer<uint32_t>{std::span<uint32_t>(counter)},
                                     RWBuffer<uint32_t>{std::span<uint32_t>(done)}, throwing,
                                     &threw_in_flight};
      DispatchOptions options;
      options.groups_in_flight = in_flight;
      test::ArmFiberHold(several_workers);
      const std::string message = fmt::format("boom in group {}", throwing);
      const auto run = [&] {
        return inlined ? DispatchInlined(k, uint3{4000, 1, 1}, options)
                       : Dispatch(k, uint3{4000, 1, 1}, options);
      };
      CHECK_THROWS_WITH_AS(run(), message.c_str(), std::runtime_error);
      // No group is left half done: every group that took its tickets (one per thread) but
      // the throwing one finished (the started ones run to their end; the others took none).
      const auto finished = std::count(done.begin(), done.end(), 32u);
      CHECK((uint32_t(finished) + 1) * 32 == counter[0]);
      CHECK(done[throwing] == 0u);
      CHECK(GroupBase::Current() == nullptr);
      CHECK(GroupState<32>::Current() == nullptr);
      (threw_in_flight ? threw_on_fiber : threw_on_caller) = true;
    }
    CHECK(threw_on_caller);
    CHECK(threw_on_fiber == several_workers);
  }
  // The same threads (and their cached fiber stacks) run a whole dispatch afterwards.
  DispatchOptions options;
  options.groups_in_flight = 64;
  const ClaimRun run = RunClaims(options);
  CheckClaims(run, "after a failed dispatch");
  CHECK(GroupBase::Current() == nullptr);
}

// The scheduler of groups in flight on its own, on this thread, with each group's parks
// scripted: which element each addition waits at, in what order each element's additions are
// made, and what each group gets back, worked by hand. It does not need a second core.
namespace {

struct ScriptedPark {
  void* element;
  uint64_t value;
  int bytes;
};

/// Runs groups [0, script.size()) on `in_flight` fibers; group g parks at script[g]'s elements
/// in turn (throwing after its parks if g == throwing). Returns each group's originals, truncated
/// to the element's width as DeviceFetchAdd does.
std::vector<std::vector<uint64_t>> RunScripted(const std::vector<std::vector<ScriptedPark>>& script,
                                               int in_flight, int* fibers = nullptr,
                                               uint64_t throwing = ~uint64_t{0}) {
  std::vector<std::vector<uint64_t>> got(script.size());
  detail::GroupsInFlight groups(0, script.size());
  const int ran = groups.Run(in_flight, [&](detail::GroupsInFlight& f) {
    for (uint64_t g = 0; f.Next(g);) {
      for (const ScriptedPark& s : script[g]) {
        const uint64_t original = f.Park(s.element, s.value, s.bytes);
        got[g].push_back(s.bytes == 4 ? uint64_t(uint32_t(original)) : original);
      }
      if (g == throwing) throw std::runtime_error("scripted");
    }
  });
  if (fibers) *fibers = ran;
  return got;
}

}  // namespace

TEST_CASE("groups in flight: a round's additions to each element form one block in fiber order, "
          "with three elements in one round, and originals wrap at the element's width") {
  uint32_t a = 0xFFFFFFF7u, b = 10, d = 0xFFFFFFFEu;
  uint64_t c = 100;
  // Four fibers, one group each. Round 1: group 0 parks at b, groups 1 and 3 at d, group 2 at c
  // (three elements, three batches in one round). Round 2: groups 0 and 2 park at a; groups 1
  // and 3 end.
  const std::vector<std::vector<ScriptedPark>> script = {
      {{&b, 5, 4}, {&a, 9, 4}},
      {{&d, 7, 4}},
      {{&c, 3, 8}, {&a, 10, 4}},
      {{&d, 5, 4}},
  };
  int fibers = 0;
  const auto got = RunScripted(script, 4, &fibers);
  CHECK(fibers == 4);
  // Round 1: b 10 -> 15 (group 0 gets 10); d in fiber order: group 1 gets 0xFFFFFFFE, group 3
  // 0xFFFFFFFE + 7 = 2^32 + 5, which wraps to 5, and d ends at 0xFFFFFFFE + 12 - 2^32 = 10; c
  // 100 -> 103 (group 2 gets 100). Round 2, a in fiber order: group 0 gets 0xFFFFFFF7, group 2
  // 0xFFFFFFF7 + 9 = 2^32, which wraps to 0; a ends at 0xFFFFFFF7 + 19 - 2^32 = 10.
  CHECK(got[0] == std::vector<uint64_t>{10, 0xFFFFFFF7u});
  CHECK(got[1] == std::vector<uint64_t>{0xFFFFFFFEu});
  CHECK(got[2] == std::vector<uint64_t>{100, 0});
  CHECK(got[3] == std::vector<uint64_t>{5});
  CHECK(a == 10u);
  CHECK(b == 15u);
  CHECK(c == 103u);
  CHECK(d == 10u);
}

TEST_CASE("groups in flight: more groups than fibers, and a group that throws after its parks") {
  // Two fibers take groups 0, 1, 2, 3 in order; every group parks twice at one counter, adding
  // g + 1 each time.
  uint32_t counter = 0;
  std::vector<std::vector<ScriptedPark>> script;
  for (uint64_t g = 0; g < 4; ++g) script.push_back({{&counter, g + 1, 4}, {&counter, g + 1, 4}});
  const auto got = RunScripted(script, 2);
  // Round 1: group 0 +1 (gets 0), group 1 +2 (gets 1); counter 3. Round 2: their second parks,
  // group 0 gets 3, group 1 gets 4; counter 6. Round 3: both groups end, fiber 0 takes group 2
  // (+3, gets 6), fiber 1 group 3 (+4, gets 9); counter 13. Round 4: group 2 gets 13, group 3
  // gets 16; counter 20.
  CHECK(got[0] == std::vector<uint64_t>{0, 3});
  CHECK(got[1] == std::vector<uint64_t>{1, 4});
  CHECK(got[2] == std::vector<uint64_t>{6, 13});
  CHECK(got[3] == std::vector<uint64_t>{9, 16});
  CHECK(counter == 20u);

  // Group 0 throws once both its parks are back (round 3): no group starts after that, group 1
  // runs to its end, and then the exception reaches the caller; rounds 1 and 2 added 6.
  counter = 0;
  CHECK_THROWS_WITH_AS(RunScripted(script, 2, nullptr, 0), "scripted", std::runtime_error);
  CHECK(counter == 6u);
}

TEST_CASE("groups in flight: a fiber that ends while another stays parked, and one fiber alone "
          "through all its rounds") {
  // The fibers take turns in slot order; a round ends, and is settled, once every live fiber
  // has parked or ended. Four groups on three fibers, all parking at one counter: group 0 four
  // times (+1, +10, +100, +5000), groups 1, 2 and 3 once (+2, +4, +1000).
  uint32_t counter = 0;
  const std::vector<std::vector<ScriptedPark>> script = {
      {{&counter, 1, 4}, {&counter, 10, 4}, {&counter, 100, 4}, {&counter, 5000, 4}},
      {{&counter, 2, 4}},
      {{&counter, 4, 4}},
      {{&counter, 1000, 4}},
  };
  // Three fibers. Round 1: groups 0, 1, 2 add 1, 2, 4 (get 0, 1, 3); counter 7. Round 2: group
  // 0 adds 10; group 1 ends and its fiber takes group 3, which adds 1000; group 2 ends and, with
  // no group left, so does its fiber: group 0 gets 7, group 3 gets 17; counter 1017. Round 3:
  // group 0 adds 100; group 3 ends, and its fiber too, while group 0 stays parked: it gets 1017;
  // counter 1117. Round 4: group 0, its fiber now alone, adds 5000; round 5 gives it 1117.
  // One fiber: every park is a round of its own, the groups one after another.
  struct Case {
    int in_flight;
    std::vector<std::vector<uint64_t>> originals;  // per group, in the order of its parks
  };
  for (const Case& c : {Case{3, {{0, 7, 1017, 1117}, {1}, {3}, {17}}},
                        Case{1, {{0, 1, 11, 111}, {5111}, {5113}, {5117}}}}) {
    INFO("fibers: ", c.in_flight);
    counter = 0;
    int fibers = 0;
    const auto got = RunScripted(script, c.in_flight, &fibers);
    CHECK(fibers == c.in_flight);
    REQUIRE(got.size() == c.originals.size());
    for (size_t g = 0; g < got.size(); ++g) {
      INFO("group ", g);
      CHECK(got[g] == c.originals[g]);
    }
    CHECK(counter == 6117u);  // 1 + 10 + 100 + 5000 + 2 + 4 + 1000
  }
}
