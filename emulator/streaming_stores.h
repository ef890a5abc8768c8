// streaming_stores.h -- non-temporal ("streaming") stores for contiguous whole-group writes to
// buffers larger than the last-level cache.
//
// A plain store to a line that is not in the cache first reads the line from memory (a read for
// ownership), so writing a buffer that does not fit in the cache moves it across the memory bus
// twice. A streaming store writes whole lines without reading them, as glibc's memcpy does above
// its own threshold: a 64 MiB copy on one Zen 3 core took 25-37 ns per 256 bytes with streaming
// stores against 36-50 ns with plain ones (docs/perf_runs/2026-11-29-session43/streaming_copy.cpp).
// Results are the same bits either way; only where the lines end up differs.
//
// Streaming stores are weakly ordered: each worker's chunk of groups ends with a store fence
// (ParallelForGroups; PixelDispatch at its end), and so do the device and all-memory barriers,
// so other threads see them as they see plain stores. The thread that made them always sees
// them.
#pragma once

#include "emulator/simd.h"

#include <hwy/cache_control.h>

#include <cstddef>
#include <cstdint>

namespace waveemu {

/// Contiguous whole-group stores to a device buffer of at least this many bytes stream past the
/// cache (inside a dispatch; host code's stores through a buffer never do). The default is the
/// size of the last-level cache that core 0 reads from (Linux sysfs; else what sysconf
/// reports; else 32 MiB): a buffer that large would not stay in it anyway. Before the library's
/// own static initialization has run, it is UINT64_MAX.
uint64_t StreamingStoreMinBytes();
/// Sets that size (0: every buffer; UINT64_MAX: none), for tests and tuning. Not while a
/// dispatch runs.
void SetStreamingStoreMinBytes(uint64_t bytes);

namespace detail {

/// Fences the streaming stores a run of groups made when it ends, normally or by an exception:
/// each ParallelForGroups chunk and a PixelDispatch hold one, so that other threads see those
/// stores as they see plain ones.
struct StreamingStoreFence {
  StreamingStoreFence() = default;
  StreamingStoreFence(const StreamingStoreFence&) = delete;
  StreamingStoreFence& operator=(const StreamingStoreFence&) = delete;
  ~StreamingStoreFence() { hwy::FlushStream(); }
};

extern uint64_t streaming_store_min_bytes;  // StreamingStoreMinBytes(), read on every such store

/// Writes kBytes from src to a 16-byte aligned dst with streaming stores (whole vectors where dst
/// is vector-aligned, 16-byte pieces otherwise) and returns true; returns false, having written
/// nothing, when dst is not 16-byte aligned.
template <size_t kBytes>
HWY_INLINE bool StreamBytes(void* HWY_RESTRICT dst, const void* HWY_RESTRICT src) {
  static_assert(kBytes % 16 == 0, "streaming stores write 16-byte pieces");
  const uintptr_t address = reinterpret_cast<uintptr_t>(dst);
  auto* out = static_cast<uint8_t*>(dst);
  const auto* in = static_cast<const uint8_t*>(src);
  const hn::ScalableTag<uint8_t> d;
  constexpr size_t kVec = hn::MaxLanes(d);
  if constexpr (kBytes % kVec == 0) {
    if (address % kVec == 0) {
      for (size_t b = 0; b < kBytes; b += kVec) hn::Stream(hn::LoadU(d, in + b), d, out + b);
      return true;
    }
  }
  if (address % 16 != 0) return false;
  const hn::Full128<uint8_t> d16;
  for (size_t b = 0; b < kBytes; b += 16) hn::Stream(hn::LoadU(d16, in + b), d16, out + b);
  return true;
}

}  // namespace detail
}  // namespace waveemu
