// free_ids_reference.h -- what every ComputeFreeIDs variant must produce, by a plain scalar loop,
// and the ID tables the example, the tests and the demo feed them.
//
// An entry of IDToIndexTable is the particle index an ID maps to, or -1 when the ID is free.
// The kernels list the free IDs in an order that depends on atomics; the set and count do not.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace waveemu::examples {

/// Every ID whose table entry is -1, in ascending order.
inline std::vector<int32_t> ReferenceFreeIDs(std::span<const int32_t> IDToIndexTable) {
  std::vector<int32_t> free_ids;
  for (size_t id = 0; id < IDToIndexTable.size(); ++id)
    if (IDToIndexTable[id] == -1) free_ids.push_back(int32_t(id));
  return free_ids;
}

/// A table of `size` entries where each ID is free with probability `free_fraction` (exactly
/// none for 0, all for 1); used IDs map to distinct-looking non-negative indices.
inline std::vector<int32_t> MakeRandomIDTable(size_t size, double free_fraction, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<int32_t> table(size);
  for (size_t id = 0; id < size; ++id)
    table[id] = coin(rng) < free_fraction ? -1 : int32_t(rng() & 0x7fffffffu);
  return table;
}

/// A table where ID `id` is free exactly when is_free(id).
template <class Pred>
std::vector<int32_t> MakeIDTable(size_t size, Pred&& is_free) {
  std::vector<int32_t> table(size);
  for (size_t id = 0; id < size; ++id) table[id] = is_free(id) ? -1 : int32_t(id);
  return table;
}

}  // namespace waveemu::examples
