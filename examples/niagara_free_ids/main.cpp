// main.cpp -- runs the three ComputeFreeIDs ports on a small table and prints what each lists.
//
// 64 IDs, 16 threads per group, wave 8, deterministic mode (groups in order), so the lists come
// out the same on every run. The raking kernel covers 16 x 8 = 128 IDs per group, so its one
// group reads past the table's end: those reads give 0 (not free) and are counted.
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_reference.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::examples;

namespace {

template <class K>
bool Show(const char* name, const std::vector<int32_t>& table,
          const std::vector<int32_t>& expected) {
  DispatchOptions options;
  options.wave_size = 8;
  options.deterministic = true;
  const FreeIDsResult r = RunFreeIDs<K>(table, options);
  const std::vector<int32_t> listed(r.list.begin(), r.list.begin() + r.count);
  const bool match = listed == expected;  // deterministic mode lists in ascending order
  fmt::print("{:<12} groups {}, count {:2}, {}, out-of-bounds reads {}\n  list: {}\n", name,
             r.groups, r.count, match ? "matches the reference" : "DOES NOT MATCH",
             r.dispatch.out_of_bounds_reads, fmt::join(listed, " "));
  return match;
}

}  // namespace

int main() {
  // Free IDs: every ID whose index is a multiple of 3, plus a run of 8 (a whole wave) at 40..47.
  const std::vector<int32_t> table =
      MakeIDTable(64, [](size_t id) { return id % 3 == 0 || (id >= 40 && id < 48); });
  const std::vector<int32_t> expected = ReferenceFreeIDs(table);

  std::string row;
  for (size_t id = 0; id < table.size(); ++id) row += table[id] == -1 ? '-' : 'x';
  fmt::print("IDToIndexTable (64 IDs, - = free): {}\nreference: {} free IDs: {}\n\n", row,
             expected.size(), fmt::join(expected, " "));

  bool ok = true;
  ok &= Show<ComputeFreeIDsWave<16>>("wave", table, expected);
  ok &= Show<ComputeFreeIDsGroupShared<16>>("groupshared", table, expected);
  ok &= Show<ComputeFreeIDsRaking<16>>("raking", table, expected);
  return ok ? 0 : 1;
}
