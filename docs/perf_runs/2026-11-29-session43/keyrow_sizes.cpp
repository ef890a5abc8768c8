// keyrow_sizes.cpp -- session 43's probe (not part of the build): the free-ID wave kernel at
// wave 8 on one thread, in cache (2^16 IDs, fastest of 64 dispatches) and at the bench's 2^24 IDs
// (fastest of 3), each round beside the Highway loop (kInRegister) at both sizes, in ns per group
// of 64 IDs; every output's count is checked. Argument: rounds. Built as statement_stages.cpp is.
#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_native.h"
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace waveemu;
struct Setup {
  std::vector<int32_t> table, list, sizes; size_t count; examples::ComputeFreeIDsWave<64> k;
  explicit Setup(int lg) : table(examples::MakeRandomIDTable(size_t(1) << lg, 0.5, 42)), list(table.size()), sizes(1) {
    count = examples::ReferenceFreeIDs(table).size();
    k.IDToIndexTable = Buffer<int>(std::span<const int32_t>(table));
    k.RWFreeIDList = RWBuffer<int>(std::span<int32_t>(list));
    k.RWFreeIDListSizes = RWBuffer<int>(std::span<int32_t>(sizes));
  }
  double Emu(int reps) {  // fastest of reps, ns/group
    DispatchOptions o; o.wave_size = 8; o.max_threads = 1; double best = 1e9;
    for (int r = 0; r < reps; ++r) {
      sizes[0] = 0;
      auto t0 = std::chrono::steady_clock::now();
      DispatchInlined(k, uint3{uint32_t(table.size() / 64), 1, 1}, o);
      auto t1 = std::chrono::steady_clock::now();
      if (size_t(sizes[0]) != count) { printf("WRONG\n"); exit(1); }
      best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / (table.size() / 64));
    }
    return best;
  }
  double Nat(int reps) {
    double best = 1e9;
    for (int r = 0; r < reps; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      size_t c = examples::NativeFreeIDs<examples::CompressForm::kInRegister>(table, list);
      auto t1 = std::chrono::steady_clock::now();
      if (c != count) { printf("WRONG\n"); exit(1); }
      best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / (table.size() / 64));
    }
    return best;
  }
};
int main(int argc, char** argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 6;
  Setup small(16), big(24);
  for (int r = 0; r < rounds; ++r) {
    double es = small.Emu(64), eb = big.Emu(3), ns = small.Nat(64), nb = big.Nat(3);
    printf("emu 2^16 %.1f  2^24 %.1f | native 2^16 %.1f 2^24 %.1f | ratio at 2^24 %.2f\n", es, eb, ns, nb, eb / nb);
  }
}
