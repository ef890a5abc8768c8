// atomics.h -- the Interlocked* family on RW buffer elements and groupshared memory.
//
// InterlockedAdd(RW[i], value[, original_value]) and friends, as in HLSL. Each active thread
// applies the operation once, in ascending thread order (SV_GroupIndex: wave 0's lanes, then wave
// 1's, ...), and original_value receives the value before that thread's operation (active threads
// only). HLSL leaves the order between threads unspecified; this one makes deterministic mode
// reproducible. Out-of-bounds atomics do nothing and are counted; their original value is
// undefined in D3D: the poisoning profiles (spec) give Poison<T>() and report it, others give 0.
#pragma once

#include "emulator/groupshared.h"
#include "emulator/lanes.h"
#include "emulator/resource_atomic.h"
#include "emulator/resource_ref.h"
#include "emulator/resources.h"

#include <type_traits>

namespace waveemu {

#define WAVEEMU_INTERLOCKED(NAME, OP)                                                         \
  template <int N = 0, class Dest, class V>                                                   \
  HWY_INLINE void NAME(Dest&& dest, const V& value) {                                         \
    detail::Interlocked<N>(#NAME, OP, dest, value, detail::NoArg{}, detail::NoArg{});         \
  }                                                                                           \
  template <int N = 0, class Dest, class V, class O>                                          \
  HWY_INLINE void NAME(Dest&& dest, const V& value, O&& original_value) {                     \
    detail::Interlocked<N>(#NAME, OP, dest, value, detail::NoArg{},                           \
                           std::forward<O>(original_value));                                  \
  }

// ------------------------------ InterlockedAdd
WAVEEMU_INTERLOCKED(InterlockedAdd, AtomicOp::kAdd)
// ------------------------------ InterlockedMin
WAVEEMU_INTERLOCKED(InterlockedMin, AtomicOp::kMin)
// ------------------------------ InterlockedMax
WAVEEMU_INTERLOCKED(InterlockedMax, AtomicOp::kMax)
// ------------------------------ InterlockedAnd
WAVEEMU_INTERLOCKED(InterlockedAnd, AtomicOp::kAnd)
// ------------------------------ InterlockedOr
WAVEEMU_INTERLOCKED(InterlockedOr, AtomicOp::kOr)
// ------------------------------ InterlockedXor
WAVEEMU_INTERLOCKED(InterlockedXor, AtomicOp::kXor)
// ------------------------------ InterlockedExchange
WAVEEMU_INTERLOCKED(InterlockedExchange, AtomicOp::kExchange)
#undef WAVEEMU_INTERLOCKED

// ------------------------------ InterlockedCompareExchange
/// if (dest == compare_value) dest = value; original_value = the value before.
template <int N = 0, class Dest, class C, class V, class O>
void InterlockedCompareExchange(Dest&& dest, const C& compare_value, const V& value,
                                O&& original_value) {
  detail::Interlocked<N>("InterlockedCompareExchange", AtomicOp::kCompareExchange, dest, value,
                         compare_value, std::forward<O>(original_value));
}

// ------------------------------ InterlockedCompareStore
/// if (dest == compare_value) dest = value.
template <int N = 0, class Dest, class C, class V>
void InterlockedCompareStore(Dest&& dest, const C& compare_value, const V& value) {
  detail::Interlocked<N>("InterlockedCompareStore", AtomicOp::kCompareStore, dest, value,
                         compare_value, detail::NoArg{});
}

}  // namespace waveemu
