// free_ids_host.h -- the host side of the free-ID kernels, as Unreal's C++ does it: bind the ID
// table, an output list and the list sizes, dispatch enough groups to cover the table, read back.
// Shared by main.cpp, tools/demo.cpp and tests/examples/test_niagara_free_ids.cpp.
#pragma once

#include "examples/niagara_free_ids/free_ids_groupshared.h"
#include "examples/niagara_free_ids/free_ids_raking.h"
#include "examples/niagara_free_ids/free_ids_wave.h"

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

namespace waveemu::examples {

/// IDs one group of a kernel covers: THREAD_COUNT, or THREAD_COUNT * COUNTER_PER_THREAD.
template <class K>
inline constexpr uint32_t kIDsPerGroup = 0;
template <uint32_t T>
inline constexpr uint32_t kIDsPerGroup<ComputeFreeIDsWave<T>> = T;
template <uint32_t T>
inline constexpr uint32_t kIDsPerGroup<ComputeFreeIDsGroupShared<T>> = T;
template <uint32_t T, uint32_t C>
inline constexpr uint32_t kIDsPerGroup<ComputeFreeIDsRaking<T, C>> = T * C;

/// What the output list holds before the dispatch; no kernel writes it, so an entry that still
/// holds it after the dispatch was not written.
inline constexpr int32_t kUnwritten = -2;

struct FreeIDsResult {
  std::vector<int32_t> list;   // RWFreeIDList: as long as the table, filled with kUnwritten first
  std::vector<int32_t> sizes;  // RWFreeIDListSizes, all 0 before the dispatch
  int32_t count = 0;           // sizes[FreeIDListIndex]
  uint32_t groups = 0;         // thread groups dispatched
  DispatchResult dispatch;
  double seconds = 0;          // wall time of the Dispatch() call alone
};

/// Runs kernel K over `table` (free IDs are -1) into list `free_id_list_index` of `list_count`,
/// through Dispatch, or DispatchInlined when kInlined.
template <class K, bool kInlined = false>
FreeIDsResult RunFreeIDs(std::span<const int32_t> table, const DispatchOptions& options,
                         uint32_t free_id_list_index = 0, size_t list_count = 1) {
  static_assert(kIDsPerGroup<K> > 0, "RunFreeIDs: K must be one of the ComputeFreeIDs kernels");
  FreeIDsResult r;
  r.list.assign(table.size(), kUnwritten);
  r.sizes.assign(list_count, 0);
  K kernel;
  kernel.IDToIndexTable = Buffer<int>(table);
  kernel.RWFreeIDList = RWBuffer<int>(std::span<int>(r.list));
  kernel.RWFreeIDListSizes = RWBuffer<int>(std::span<int>(r.sizes));
  kernel.FreeIDListIndex = free_id_list_index;
  // The last group may reach past the table: those reads give 0 (not free), as on D3D.
  r.groups = uint32_t((table.size() + kIDsPerGroup<K> - 1) / kIDsPerGroup<K>);
  const auto start = std::chrono::steady_clock::now();
  if constexpr (kInlined) r.dispatch = DispatchInlined(kernel, uint3{r.groups, 1, 1}, options);
  else r.dispatch = Dispatch(kernel, uint3{r.groups, 1, 1}, options);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.count = r.sizes.at(free_id_list_index);
  return r;
}

}  // namespace waveemu::examples
