#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <span>
using namespace waveemu;
int main() {
  const size_t size = size_t(1) << 22;
  const std::vector<int32_t> table = examples::MakeRandomIDTable(size, 0.5, 42);
  std::vector<int32_t> list(size), sizes(1);
  examples::ComputeFreeIDsWave<64> k;
  k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
  k.RWFreeIDList = RWBuffer<int>(std::span<int>(list));
  k.RWFreeIDListSizes = RWBuffer<int>(std::span<int>(sizes));
  DispatchOptions o; o.wave_size = 8; o.max_threads = 2; o.groups_in_flight = 64;
  DispatchInlined(k, uint3{uint32_t(size / 64), 1, 1}, o);
  std::printf("listed %d of %zu\n", sizes[0], examples::ReferenceFreeIDs(table).size());
}
