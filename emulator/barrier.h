// barrier.h -- GroupMemoryBarrierWithGroupSync and the other HLSL barriers and fences.
//
// A group runs in lockstep on one OS thread, so every thread reaches a barrier together and
// groupshared writes before it are visible after it. What a barrier must still check is HLSL's
// rule that it be reached by the whole group (not inside divergent control flow, not after some
// threads returned): that is undefined in HLSL (a hang or garbage on GPUs), so it is a
// KernelError naming the barrier.
#pragma once

#include "emulator/exec.h"
#include "emulator/streaming_stores.h"

#include <atomic>

namespace waveemu {

inline void DeviceMemoryBarrier();  // defined below, with the fences without sync

// ------------------------------ GroupMemoryBarrierWithGroupSync
/// Waits for every thread of the group; groupshared writes before it are visible after it.
inline void GroupMemoryBarrierWithGroupSync() {
  CurrentGroupBase("GroupMemoryBarrierWithGroupSync")
      .Barrier("GroupMemoryBarrierWithGroupSync");
}

// ------------------------------ DeviceMemoryBarrierWithGroupSync
/// Waits for every thread of the group; device-memory writes before it are visible to the group.
inline void DeviceMemoryBarrierWithGroupSync() {
  CurrentGroupBase("DeviceMemoryBarrierWithGroupSync")
      .Barrier("DeviceMemoryBarrierWithGroupSync");
  DeviceMemoryBarrier();
}

// ------------------------------ AllMemoryBarrierWithGroupSync
/// Both of the above.
inline void AllMemoryBarrierWithGroupSync() {
  CurrentGroupBase("AllMemoryBarrierWithGroupSync").Barrier("AllMemoryBarrierWithGroupSync");
  DeviceMemoryBarrier();  // groupshared accesses are ordered already (below)
}

// The fences without sync order one thread's own memory accesses. In lockstep every statement
// completes for all threads before the next begins, so groupshared accesses are already ordered;
// a fence does nothing, and may be used under any mask (HLSL allows it in divergent flow). For
// device memory, other groups run on other cores: a seq_cst fence is the C++ counterpart (device
// memory written by plain stores is still only ordered for atomics, as on a GPU).

// ------------------------------ GroupMemoryBarrier
inline void GroupMemoryBarrier() {}

// ------------------------------ DeviceMemoryBarrier
inline void DeviceMemoryBarrier() {
  hwy::FlushStream();  // streaming stores (streaming_stores.h) are ordered by a store fence
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

// ------------------------------ AllMemoryBarrier
inline void AllMemoryBarrier() { DeviceMemoryBarrier(); }

}  // namespace waveemu
