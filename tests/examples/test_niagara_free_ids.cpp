// test_niagara_free_ids.cpp -- the three ComputeFreeIDs ports (wave, groupshared, raking) list
// exactly the free IDs of a table, at every wave size and group size, in parallel and
// deterministic mode. Expected IDs come from a plain loop over the table (free_ids_reference.h);
// the order of the list depends on atomics, so the checks are properties (DESIGN §6).
//
// Cost: the full matrix (3 kernels x 6 wave sizes x 32/64/128 threads x 2 modes x 7 tables) runs
// on 2^20-entry tables in optimised builds, as issue 2 asks (tens of seconds on 2 cores).
// Unoptimised builds (the debug preset, with sanitizers, about 50x slower) use 2^14 for the
// matrix and 2^16 for the other big tables.
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "tests/support/fiber_hold.h"
#include "tests/support/mask_patterns.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::examples;

namespace {

#ifdef __OPTIMIZE__
constexpr size_t kMatrixTable = size_t(1) << 20;
constexpr size_t kBigTable = size_t(1) << 20;
#else
// 2^17: the raking kernel's 512 IDs per group make 256 groups, more than one 2 x 64-group chunk,
// so a second worker gets groups in flight (2^16 ran them all on the caller).
constexpr size_t kMatrixTable = size_t(1) << 14;
constexpr size_t kBigTable = size_t(1) << 17;
#endif

// The kernels write list kListIndex of kListCount, so a wrong index shows up as a wrong count.
constexpr uint32_t kListIndex = 1;
constexpr size_t kListCount = 3;

struct Table {
  std::string name;
  std::vector<int32_t> entries;
};

/// Random tables with free fractions 0, 0.5 and 1, and the adversarial ones: alternating, one
/// free ID per wave (a different lane in each wave), only the last ID free, only the first.
std::vector<Table> Tables(size_t size, int wave_size, bool random, bool adversarial) {
  std::vector<Table> t;
  if (random)
    for (double fraction : {0.0, 0.5, 1.0})
      t.push_back({fmt::format("random, free fraction {}", fraction),
                   MakeRandomIDTable(size, fraction, 2024u + uint32_t(fraction * 10))});
  if (adversarial) {
    const size_t W = size_t(wave_size);
    t.push_back({"alternating (even IDs free)", MakeIDTable(size, [](size_t id) {
                   return id % 2 == 0;
                 })});
    t.push_back({"one free ID per wave", MakeIDTable(size, [W](size_t id) {
                   return id % W == (id / W * 5 + 3) % W;
                 })});
    t.push_back({"only the last ID free", MakeIDTable(size, [size](size_t id) {
                   return id == size - 1;
                 })});
    t.push_back({"only the first ID free", MakeIDTable(size, [](size_t id) { return id == 0; })});
  }
  return t;
}

/// The table entries of [begin, end) as a row of '-' (free) and 'x' (used), for failure output.
std::string ShowChunk(const std::vector<int32_t>& table, size_t begin, size_t end) {
  std::string s;
  for (size_t id = begin; id < end && id < table.size(); ++id) s += table[id] == -1 ? '-' : 'x';
  return s;
}

/// Every property a correct run has; an empty string when all hold, else what broke, with the
/// chunk's inputs, the expected IDs and where they actually went. `chunk` is how many
/// consecutive IDs must land as one contiguous ascending run: a wave's, or a group's.
std::string Problems(const FreeIDsResult& r, const std::vector<int32_t>& table,
                     const std::vector<int32_t>& expected, size_t chunk) {
  if (r.count != int32_t(expected.size()))
    return fmt::format("RWFreeIDListSizes[{}] is {}, the table has {} free IDs", kListIndex,
                       r.count, expected.size());
  for (size_t i = 0; i < r.sizes.size(); ++i)
    if (i != kListIndex && r.sizes[i] != 0)
      return fmt::format("RWFreeIDListSizes[{}] (another list) changed to {}", i, r.sizes[i]);
  for (size_t i = expected.size(); i < r.list.size(); ++i)
    if (r.list[i] != kUnwritten)
      return fmt::format("RWFreeIDList[{}] = {} is past the count {}", i, r.list[i], r.count);
  std::vector<int32_t> got(r.list.begin(), r.list.begin() + r.count);
  std::sort(got.begin(), got.end());
  if (got != expected) {
    size_t i = 0;
    while (i < got.size() && got[i] == expected[i]) ++i;
    return fmt::format("sorted list differs from the free IDs at position {}: expected {}, got {}",
                       i, expected[i], got[i]);
  }
  // Where each ID went; every expected ID appears exactly once (the sorted lists are equal).
  std::vector<int64_t> position(table.size(), -1);
  for (int32_t i = 0; i < r.count; ++i) position[size_t(r.list[size_t(i)])] = i;
  for (size_t begin = 0; begin < table.size(); begin += chunk) {
    const size_t end = std::min(begin + chunk, table.size());
    int64_t next = -1;
    std::vector<int32_t> ids;
    std::vector<int64_t> at;
    bool contiguous = true;
    for (size_t id = begin; id < end; ++id) {
      if (table[id] != -1) continue;
      ids.push_back(int32_t(id));
      at.push_back(position[id]);
      if (next >= 0 && position[id] != next) contiguous = false;
      next = position[id] + 1;
    }
    if (!contiguous)
      return fmt::format(
          "the free IDs of {}..{} (a run of {} IDs) do not form one contiguous ascending run\n"
          "  table (- free): {}\n  free IDs: {}\n  list positions: {}",
          begin, end - 1, chunk, ShowChunk(table, begin, end),
          fmt::join(ids, " "), fmt::join(at, " "));
  }
  if (r.dispatch.out_of_bounds_writes || r.dispatch.out_of_bounds_atomics ||
      r.dispatch.diagnostic_count)
    return fmt::format("{} out-of-bounds writes, {} out-of-bounds atomics, {} diagnostics",
                       r.dispatch.out_of_bounds_writes, r.dispatch.out_of_bounds_atomics,
                       r.dispatch.diagnostic_count);
  return {};
}

template <class K>
constexpr bool kIsWaveVersion = false;
template <uint32_t T>
constexpr bool kIsWaveVersion<ComputeFreeIDsWave<T>> = true;

/// IDs that must land as one run: a wave's for the wave version (a group's when the group is
/// narrower than a wave), a group's for the others.
template <class K>
size_t RunLength(int wave_size) {
  if constexpr (kIsWaveVersion<K>) return size_t(std::min(wave_size, K::N));
  else return kIDsPerGroup<K>;
}

template <class K>
std::string Describe(const char* kernel, const Table& t, int W, bool deterministic) {
  return fmt::format("{}, {} threads per group, wave {}, {} mode, {} entries, table: {}", kernel,
                     K::N, W, deterministic ? "deterministic" : "parallel", t.entries.size(),
                     t.name);
}

/// Runs K on every table at wave size W in one mode and checks every property.
template <class K>
void CheckKernel(const char* kernel, const std::vector<Table>& tables, int W, bool deterministic) {
  DispatchOptions options;
  options.wave_size = W;
  options.deterministic = deterministic;
  for (const Table& t : tables) {
    const std::vector<int32_t> expected = ReferenceFreeIDs(t.entries);
    const FreeIDsResult r = RunFreeIDs<K>(t.entries, options, kListIndex, kListCount);
    const std::string problem = Problems(r, t.entries, expected, RunLength<K>(W));
    if (!problem.empty()) FAIL_CHECK(Describe<K>(kernel, t, W, deterministic) << "\n" << problem);
    else CHECK(r.dispatch.wave_size == W);
  }
}

/// The three kernels at THREAD_COUNT threads per group.
template <uint32_t THREAD_COUNT>
void CheckAllKernels(const std::vector<Table>& tables, int W, bool deterministic) {
  CheckKernel<ComputeFreeIDsWave<THREAD_COUNT>>("wave", tables, W, deterministic);
  CheckKernel<ComputeFreeIDsGroupShared<THREAD_COUNT>>("groupshared", tables, W, deterministic);
  CheckKernel<ComputeFreeIDsRaking<THREAD_COUNT>>("raking", tables, W, deterministic);
}

}  // namespace

TEST_CASE("every free-ID kernel lists exactly the free IDs of random 2^20-entry tables (2^16 "
          "unoptimised) at every wave size") {
  const std::vector<Table> tables = Tables(kBigTable, 32, true, false);
  for (int W : test::kWaveSizes) CheckAllKernels<64>(tables, W, /*deterministic=*/false);
}

TEST_CASE("every free-ID kernel lists exactly the free IDs of adversarial 2^20-entry tables (2^16 "
          "unoptimised)") {
  const std::vector<Table> tables = Tables(kBigTable, 32, false, true);
  CheckAllKernels<64>(tables, 32, /*deterministic=*/false);
}

TEST_CASE("every free-ID kernel is right with 32, 64 and 128 threads per group, at every wave "
          "size, in parallel and deterministic mode, on 2^20-entry tables (2^14 unoptimised)") {
  // kMatrixTable is a multiple of every group's coverage (up to 1024 IDs).
  for (int W : test::kWaveSizes) {
    const std::vector<Table> tables = Tables(kMatrixTable, W, true, true);
    for (bool deterministic : {false, true}) {
      CheckAllKernels<32>(tables, W, deterministic);
      CheckAllKernels<64>(tables, W, deterministic);
      CheckAllKernels<128>(tables, W, deterministic);
    }
  }
}

namespace {

/// Calls check.template operator()<K>(name) for each free-ID kernel at 64 threads per group.
template <class F>
void ForEachFreeIDKernel(F&& check) {
  check.template operator()<ComputeFreeIDsWave<64>>("wave");
  check.template operator()<ComputeFreeIDsGroupShared<64>>("groupshared");
  check.template operator()<ComputeFreeIDsRaking<64>>("raking");
}

/// Deterministic mode: groups in order, atomics in thread order, so a repeat gives the same
/// bytes, and the list comes out in ascending ID order.
template <class K>
void CheckDeterministic(const char* kernel, const Table& t, int W) {
  DispatchOptions options;
  options.wave_size = W;
  options.deterministic = true;
  const FreeIDsResult first = RunFreeIDs<K>(t.entries, options, kListIndex, kListCount);
  const FreeIDsResult again = RunFreeIDs<K>(t.entries, options, kListIndex, kListCount);
  INFO(Describe<K>(kernel, t, W, true));
  CHECK(first.list == again.list);  // vectors of int32_t: equal elements are equal bytes
  CHECK(first.sizes == again.sizes);
  const std::vector<int32_t> expected = ReferenceFreeIDs(t.entries);
  CHECK(std::equal(expected.begin(), expected.end(), first.list.begin(),
                   first.list.begin() + std::max(first.count, 0)));
}

}  // namespace

TEST_CASE("free-ID kernels in deterministic mode give byte-identical output on a repeat, in "
          "ascending ID order") {
  const Table t = Tables(kBigTable, 32, true, false)[1];  // half free
  for (int W : {4, 32, 128}) {
    ForEachFreeIDKernel([&]<class K>(const char* kernel) { CheckDeterministic<K>(kernel, t, W); });
  }
}

namespace {

/// DispatchInlined compiles the group loop differently and must change nothing else: in
/// deterministic mode both entry points give the same bytes, and the reference's IDs in order.
template <class K>
void CheckInlinedSameAsDispatch(const char* kernel, const Table& t, int W) {
  DispatchOptions options;
  options.wave_size = W;
  options.deterministic = true;
  const FreeIDsResult plain = RunFreeIDs<K>(t.entries, options, kListIndex, kListCount);
  const FreeIDsResult inlined = RunFreeIDs<K, true>(t.entries, options, kListIndex, kListCount);
  INFO(Describe<K>(kernel, t, W, true));
  CHECK(inlined.list == plain.list);
  CHECK(inlined.sizes == plain.sizes);
  CHECK(inlined.dispatch.out_of_bounds_reads == plain.dispatch.out_of_bounds_reads);
  const std::vector<int32_t> expected = ReferenceFreeIDs(t.entries);
  CHECK(size_t(std::max(inlined.count, 0)) == expected.size());
  CHECK(std::equal(expected.begin(), expected.end(), inlined.list.begin(),
                   inlined.list.begin() + std::max(inlined.count, 0)));
}

}  // namespace

TEST_CASE("DispatchInlined gives the same bytes as Dispatch for every free-ID kernel") {
  const Table t = Tables(kBigTable, 32, true, false)[1];  // half free
  for (int W : {8, 32}) {
    ForEachFreeIDKernel([&]<class K>(const char* kernel) {
      CheckInlinedSameAsDispatch<K>(kernel, t, W);
    });
  }
}

namespace {

/// The kernel K, holding the calling thread's groups until a group runs on a fiber
/// (tests/support/fiber_hold.h), so that both ways of running groups in flight take part.
template <class K>
struct HoldCaller : K {
  void main(SV_GroupID GroupId, const SV_GroupThreadID<K::N>& GroupThreadId,
            const SV_DispatchThreadID<K::N>& DispatchThreadId) const {
    test::HoldCallerUntilAFiberRuns();
    K::main(GroupId, GroupThreadId, DispatchThreadId);
  }
};

}  // namespace

namespace waveemu::examples {
template <class K>
inline constexpr uint32_t kIDsPerGroup<::HoldCaller<K>> = kIDsPerGroup<K>;
}  // namespace waveemu::examples

namespace {

/// Groups in flight batch the kernels' InterlockedAdds across groups: every free ID must still
/// be listed exactly once, in runs the kernel's claims allow, through both entry points.
template <class K>
void CheckGroupsInFlight(const char* kernel, const Table& t, int W) {
  DispatchOptions options;
  options.wave_size = W;
  options.groups_in_flight = 64;
  const std::vector<int32_t> expected = ReferenceFreeIDs(t.entries);
  const bool several_workers = WorkerThreads(0) > 1;
  for (bool inlined : {false, true}) {
    test::ArmFiberHold(several_workers);
    const FreeIDsResult r =
        inlined ? RunFreeIDs<HoldCaller<K>, true>(t.entries, options, kListIndex, kListCount)
                : RunFreeIDs<HoldCaller<K>>(t.entries, options, kListIndex, kListCount);
    INFO(Describe<K>(kernel, t, W, false));
    const std::string problem = Problems(r, t.entries, expected, RunLength<K>(W));
    CHECK_MESSAGE(problem.empty(), problem);
    CHECK(r.dispatch.groups_in_flight == (several_workers ? 64 : 1));
  }
}

}  // namespace

TEST_CASE("with 64 groups in flight every free-ID kernel still lists each free ID once") {
  const Table t = Tables(kBigTable, 32, true, false)[1];  // half free
  for (int W : {8, 32}) {
    ForEachFreeIDKernel([&]<class K>(const char* kernel) { CheckGroupsInFlight<K>(kernel, t, W); });
  }
}

namespace {

template <class K>
void CheckRaggedEnd(const char* kernel, const Table& t, int W) {
  DispatchOptions options;
  options.wave_size = W;
  const FreeIDsResult r = RunFreeIDs<K>(t.entries, options, kListIndex, kListCount);
  INFO(Describe<K>(kernel, t, W, false));
  const std::vector<int32_t> expected = ReferenceFreeIDs(t.entries);
  const std::string problem = Problems(r, t.entries, expected, RunLength<K>(W));
  CHECK_MESSAGE(problem.empty(), problem);
  // Reads past the table's end: the threads of the last group beyond it (the groupshared
  // version's thread 0 also reads the group's last ID once, and its threads read ID - 1).
  const uint64_t past_end = uint64_t(r.groups) * kIDsPerGroup<K> - t.entries.size();
  CHECK(r.dispatch.out_of_bounds_reads >= past_end);
}

}  // namespace

TEST_CASE("free-ID kernels on a table that ends inside a group: IDs past its end read 0, are "
          "not free, and the reads are counted") {
  // 1000 entries: no group size used here divides it; the last entry is free, so a kernel that
  // mishandles the ragged group loses it.
  Table t{"1000 entries, every third ID and the last free",
          MakeIDTable(1000, [](size_t id) { return id % 3 == 0 || id == 999; })};
  for (int W : {4, 32, 128}) {
    ForEachFreeIDKernel([&]<class K>(const char* kernel) { CheckRaggedEnd<K>(kernel, t, W); });
  }
}

TEST_CASE("the wave free-ID kernel claims one output range per wave: two waves of 8, worked "
          "by hand") {
  // IDs 0..15, one group of 16 threads, wave 8. Free: 1, 2, 6 (wave 0) and 8, 13 (wave 1).
  // Deterministic: wave 0's first lane adds 3 to the list size first and gets 0, wave 1's adds 2
  // and gets 3. Lane offsets (WavePrefixCountBits): 1->0, 2->1, 6->2; 8->0, 13->1.
  const std::vector<int32_t> table = MakeIDTable(16, [](size_t id) {
    return id == 1 || id == 2 || id == 6 || id == 8 || id == 13;
  });
  DispatchOptions options;
  options.wave_size = 8;
  options.deterministic = true;
  const FreeIDsResult r = RunFreeIDs<ComputeFreeIDsWave<16>>(table, options, kListIndex, kListCount);
  CHECK(r.sizes == std::vector<int32_t>{0, 5, 0});
  CHECK(r.list == std::vector<int32_t>{1, 2, 6, 8, 13, kUnwritten, kUnwritten, kUnwritten,
                                       kUnwritten, kUnwritten, kUnwritten, kUnwritten,
                                       kUnwritten, kUnwritten, kUnwritten, kUnwritten});
}
