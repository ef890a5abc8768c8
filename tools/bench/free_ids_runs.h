// free_ids_runs.h -- one timed, checked run of each free-ID contender that more than one part of
// waveemu-bench times: the emulator's kernel, the Highway loop and the native shared-counter
// pattern. Each returns the ms of its run, or -1 when its output is not the reference's.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "examples/niagara_free_ids/free_ids_host.h"
#include "examples/niagara_free_ids/free_ids_native.h"
#include "tools/bench/bench_common.h"

namespace waveemu::bench {

/// The emulator's kernel for a 2-D grid, as tools/bench/hlsl/free_ids_*_2d.hlsl: the group
/// index is rebuilt from the grid and the seed's main() runs unchanged.
template <class K>
struct FreeIDs2D {
  static constexpr int N = K::N;
  static constexpr uint3 numthreads = K::numthreads;
  K kernel;
  uint32_t GRID_X = kGridX;
  void main(SV_GroupID GroupId, const SV_GroupThreadID<N>& GroupThreadId,
            const SV_DispatchThreadID<N>& DispatchThreadId) const {
    kernel.main(SV_GroupID{uint3{GroupId.y * GRID_X + GroupId.x, 0, 0}}, GroupThreadId,
                DispatchThreadId);
  }
};

/// Checks a free-ID list in O(n): `count` entries, each a free ID, none twice.
inline bool CheckFreeIDs(std::span<const int32_t> table, std::span<const int32_t> list,
                         int64_t count, size_t expected_count, std::vector<uint8_t>& seen) {
  if (count < 0 || size_t(count) != expected_count || size_t(count) > list.size()) return false;
  seen.assign(table.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    const int32_t id = list[size_t(i)];
    if (id < 0 || size_t(id) >= table.size() || table[size_t(id)] != -1 || seen[size_t(id)])
      return false;
    seen[size_t(id)] = 1;
  }
  return true;
}

/// A row's output buffers, kept from run to run so that no timed run allocates them.
struct FreeIDsBuffers {
  std::vector<int32_t> list, sizes;
  std::vector<uint8_t> seen;
};

/// Groups of kernel K that cover `ids` IDs (the last one may be partial).
template <class K>
uint64_t FreeIDsGroups(size_t ids) {
  constexpr uint64_t kPerGroup = examples::kIDsPerGroup<K>;
  return (ids + kPerGroup - 1) / kPerGroup;
}

/// One emulator run of kernel K over `table`: ms of the Dispatch() call, or -1 if wrong.
template <class K>
double RunEmulatorFreeIDs(std::span<const int32_t> table, size_t expected_count, int wave,
                          int max_threads, const Config& cfg, FreeIDsBuffers& buf) {
  buf.list.assign(table.size(), examples::kUnwritten);
  buf.sizes.assign(1, 0);
  FreeIDs2D<K> k;
  k.kernel.IDToIndexTable = Buffer<int>(table);
  k.kernel.RWFreeIDList = RWBuffer<int>(std::span<int>(buf.list));
  k.kernel.RWFreeIDListSizes = RWBuffer<int>(std::span<int>(buf.sizes));
  k.kernel.FreeIDListIndex = 0;
  DispatchOptions options;
  options.wave_size = wave;
  options.max_threads = max_threads;
  options.groups_in_flight = cfg.groups_in_flight;
  const uint64_t groups = FreeIDsGroups<K>(table.size());
  const auto start = Clock::now();
  if (cfg.plain_dispatch)
    Dispatch(k, Grid2D(groups, kGridX), options);
  else
    DispatchInlined(k, Grid2D(groups, kGridX), options);
  const double ms = MsSince(start);
  return CheckFreeIDs(table, buf.list, buf.sizes[0], expected_count, buf.seen) ? ms : -1;
}

/// One run of the Highway loop in form kForm: ms of the loop, or -1 if wrong.
template <examples::CompressForm kForm>
double RunNativeFreeIDs(std::span<const int32_t> table, size_t expected_count,
                        FreeIDsBuffers& buf) {
  buf.list.assign(table.size(), examples::kUnwritten);
  const auto start = Clock::now();
  const size_t count = examples::NativeFreeIDs<kForm>(table, buf.list);
  const double ms = MsSince(start);
  return CheckFreeIDs(table, buf.list, int64_t(count), expected_count, buf.seen) ? ms : -1;
}

/// The Highway baseline: the loop in both forms (examples::CompressForm), two contenders that
/// run in the same turns as the row's others. The baseline is the faster form's median, so the
/// bar is the best hand-written loop on the machine at hand, whichever CPU that is.
struct HighwayBaseline {
  HighwayBaseline(int repeats, std::span<const int32_t> table, size_t expected_count,
                  FreeIDsBuffers& buf)
      : in_register{Form<examples::CompressForm::kInRegister>(repeats, table, expected_count, buf)},
        compress_store{Form<examples::CompressForm::kCompressStore>(repeats, table,
                                                                     expected_count, buf)} {}
  Contender in_register, compress_store;

  bool wrong() const { return in_register.wrong || compress_store.wrong; }
  /// The faster form's runs (by median); a form whose output was wrong never counts as faster.
  const Contender& Faster() const {
    if (in_register.wrong) return compress_store;
    if (compress_store.wrong) return in_register;
    return compress_store.Result() < in_register.Result() ? compress_store : in_register;
  }
  const char* FasterName() const {
    return &Faster() == &compress_store ? "CompressStore" : "compress in a register";
  }
  /// The faster form's median ms; NaN if either form's output was wrong.
  double Result() const { return wrong() ? NAN : Faster().Result(); }

 private:
  template <examples::CompressForm kForm>
  static Contender Form(int repeats, std::span<const int32_t> table, size_t expected_count,
                        FreeIDsBuffers& buf) {
    return {repeats, [=, &buf] { return RunNativeFreeIDs<kForm>(table, expected_count, buf); }};
  }
};

/// The free-ID kernels' shared-counter pattern written natively, without the emulator: per
/// claim of `groups_per_claim` groups of 64 IDs, count the free ones, claim that many list
/// entries with one fetch_add on the one shared counter, store the free IDs there. One group
/// per claim is what the emulator makes of a group's atomics when groups run one by one; 64
/// is what groups in flight make of them on the workers that keep them (every one but the
/// calling thread: DispatchOptions::groups_in_flight). Claims are spread over cores by the same
/// scheduler as Dispatch (ParallelForGroups). It is not the kernel; it shows how far this
/// machine's cores can scale that pattern at all, which bounds every execution of the kernels
/// that claims as often (the counter's cache line and the list's lines shared between cores
/// move back and forth on each claim).
inline double RunNativeSharedCounter(std::span<const int32_t> table, size_t expected_count,
                                     int max_threads, size_t groups_per_claim,
                                     FreeIDsBuffers& buf) {
  namespace hn = hwy::HWY_NAMESPACE;
  constexpr size_t kGroup = 64;
  if (table.size() % kGroup != 0) return -1;
  const size_t claim = kGroup * groups_per_claim;  // the last claim may be shorter
  buf.list.assign(table.size(), examples::kUnwritten);
  alignas(64) std::atomic<int32_t> counter{0};
  const auto start = Clock::now();
  const uint64_t claims = (table.size() + claim - 1) / claim;
  ParallelForGroups(claims, false, max_threads, [&](uint64_t begin, uint64_t end) {
    const hn::ScalableTag<int32_t> d;
    const size_t lanes = hn::Lanes(d);
    const auto free_marker = hn::Set(d, -1);
    for (uint64_t g = begin; g < end; ++g) {
      const int32_t* in = table.data() + g * claim;
      const size_t ids = std::min(claim, table.size() - g * claim);  // a multiple of kGroup
      size_t count = 0;
      for (size_t i = 0; i < ids; i += lanes)
        count += hn::CountTrue(d, hn::Eq(hn::LoadU(d, in + i), free_marker));
      if (count == 0) continue;
      size_t at = size_t(counter.fetch_add(int32_t(count), std::memory_order_relaxed));
      const size_t end = at + count;
      for (size_t i = 0; i < ids; i += lanes) {
        const auto is_free = hn::Eq(hn::LoadU(d, in + i), free_marker);
        const size_t n = hn::CountTrue(d, is_free);
        // Only the claimed entries are written: neighbours belong to other groups. A whole
        // vector where it lies inside the claim (the next store overwrites what follows this
        // vector's IDs), as the emulator's compacted store does; near the claim's end x86's
        // BlendedStore is a masked store; elsewhere (NEON, WASM) it rewrites the whole vector,
        // so the run goes through a buffer.
        const auto free_ids = Compress32(d, IotaFrom(d, int32_t(g * claim + i)), is_free);
#if HWY_TARGET <= HWY_SSE4
        if (at + lanes <= end) hn::StoreU(free_ids, d, buf.list.data() + at);
        else hn::BlendedStore(free_ids, hn::FirstN(d, n), d, buf.list.data() + at);
#else
        alignas(64) int32_t run[kVectorBytes / sizeof(int32_t)];  // simd.h: vectors <= 64 bytes
        hn::Store(free_ids, d, run);
        std::memcpy(buf.list.data() + at, run, n * sizeof(int32_t));
#endif
        at += n;
      }
    }
  });
  const double ms = MsSince(start);
  return CheckFreeIDs(table, buf.list, counter.load(), expected_count, buf.seen) ? ms : -1;
}

}  // namespace waveemu::bench
