// free_ids_native.h -- hand-written Highway loops that list the free IDs of a table: the
// BASELINE the benchmark (tools/bench) compares the emulator against, not a port of the HLSL.
// One pass, one vector of IDs at a time: compare with -1 and append the matching IDs to the
// list, in one of two forms (CompressForm). Which is faster depends on the CPU, so the benchmark
// times both and measures against the faster.
#pragma once

#include "emulator/simd.h"  // Highway, and Compress32 (see kInRegister)

#include <cstddef>
#include <cstdint>
#include <span>

namespace waveemu::examples {

/// How the loop appends a vector's free IDs to the list.
enum class CompressForm {
  /// Compress them to the front of a register and store the whole vector at the list's end (the
  /// next store overwrites the tail). On AMD Zen 4, where the memory form of VPCOMPRESSD is
  /// microcoded, this was about 8x faster than kCompressStore (0.3 against 2.3 ns per ID). The
  /// compress is waveemu's Compress32, Highway's own except on AVX2, where Highway 1.0.3 copies
  /// a 1 KiB table onto the stack at every call (on an AMD EPYC, Zen 3, 28 ms against 11 ms
  /// for 2^24 IDs; docs/performance_history.md, session 41).
  kInRegister,
  /// Highway's CompressStore, VPCOMPRESSD to memory on AVX-512: the loop the issue names. On the
  /// Intel Xeon of session 33 it was the faster form, by 4-7%.
  kCompressStore,
};

/// Writes every ID whose entry is -1 to `out` in ascending order and returns how many; `out`
/// must hold table.size() entries. Entries past the returned count may be overwritten.
template <CompressForm kForm = CompressForm::kInRegister>
size_t NativeFreeIDs(std::span<const int32_t> table, std::span<int32_t> out) {
  const hn::ScalableTag<int32_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto free_marker = hn::Set(d, -1);
  auto ids = hn::Iota(d, 0);
  const auto step = hn::Set(d, int32_t(lanes));
  size_t count = 0, i = 0;
  // Both forms may write `lanes` entries; near the end of `out` the blended form writes only
  // the selected lanes, so the loop never writes past the buffer.
  for (; i + lanes <= table.size(); i += lanes) {
    const auto is_free = hn::Eq(hn::LoadU(d, table.data() + i), free_marker);
    if (count + lanes > out.size()) {
      count += hn::CompressBlendedStore(ids, is_free, d, out.data() + count);
    } else if constexpr (kForm == CompressForm::kCompressStore) {
      count += hn::CompressStore(ids, is_free, d, out.data() + count);
    } else {
      hn::StoreU(Compress32(d, ids, is_free), d, out.data() + count);
      count += hn::CountTrue(d, is_free);
    }
    ids = hn::Add(ids, step);
  }
  for (; i < table.size(); ++i)
    if (table[i] == -1) out[count++] = int32_t(i);
  return count;
}

}  // namespace waveemu::examples
