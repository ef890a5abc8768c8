// resource_atomic.h -- the core of the Interlocked* family: one atomic operation applied by every
// active thread, in ascending thread order, to a per-thread or uniform destination.
//
// Device memory goes through std::atomic_ref, so groups running in parallel on different cores
// see each other's atomics correctly; groupshared memory needs none (one OS thread runs a whole
// group). atomics.h holds the HLSL-named functions; RWByteAddressBuffer's methods use this too.
#pragma once

#include "emulator/exec.h"
#include "emulator/groups_in_flight.h"
#include "emulator/lanes.h"
#include "emulator/poison.h"
#include "emulator/resource_ref.h"

#include <atomic>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace waveemu {

enum class AtomicOp : uint8_t {
  kAdd, kMin, kMax, kAnd, kOr, kXor, kExchange, kCompareExchange, kCompareStore
};

namespace detail {

template <class T>
inline constexpr bool kIsAtomicType =
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, int64_t> ||
    std::is_same_v<T, uint64_t>;

/// Applies op to *p once and returns the value before it. Signed Min/Max compare as signed,
/// Add wraps (HLSL atomics are sign-insensitive for Add).
template <class T>
T AtomicApply(AtomicOp op, T* p, bool device, T value, T compare) {
  using U = std::make_unsigned_t<T>;
  if (device) {
    std::atomic_ref<T> a(*p);
    switch (op) {
      case AtomicOp::kAdd: return a.fetch_add(value);  // atomic signed arithmetic wraps
      case AtomicOp::kAnd: return a.fetch_and(value);
      case AtomicOp::kOr: return a.fetch_or(value);
      case AtomicOp::kXor: return a.fetch_xor(value);
      case AtomicOp::kExchange: return a.exchange(value);
      case AtomicOp::kMin: {
        T cur = a.load();
        while (value < cur && !a.compare_exchange_weak(cur, value)) {
        }
        return cur;
      }
      case AtomicOp::kMax: {
        T cur = a.load();
        while (value > cur && !a.compare_exchange_weak(cur, value)) {
        }
        return cur;
      }
      case AtomicOp::kCompareExchange:
      case AtomicOp::kCompareStore: {
        T expected = compare;
        a.compare_exchange_strong(expected, value);  // expected ends as the original either way
        return expected;
      }
    }
    return T(0);
  }
  const T old = *p;
  switch (op) {
    case AtomicOp::kAdd: *p = T(U(old) + U(value)); break;
    case AtomicOp::kAnd: *p = T(old & value); break;
    case AtomicOp::kOr: *p = T(old | value); break;
    case AtomicOp::kXor: *p = T(old ^ value); break;
    case AtomicOp::kExchange: *p = value; break;
    case AtomicOp::kMin: *p = value < old ? value : old; break;
    case AtomicOp::kMax: *p = value > old ? value : old; break;
    case AtomicOp::kCompareExchange:
    case AtomicOp::kCompareStore:
      if (old == compare) *p = value;
      break;
  }
  return old;
}

/// fetch_add on device memory by group g (the running one, nullptr outside a dispatch): at
/// once, or deferred when g runs in flight. Deferring makes the worker's additions to one
/// element adjacent in its modification order, as if those groups had reached the atomic
/// together: a legal order for groups that run concurrently, and the element's cache line moves
/// between cores once per batch, not once per group. The caller passes the group it already
/// looked up, so the hot path reads no thread-local slot of its own.
template <class T>
HWY_INLINE T DeviceFetchAdd(GroupBase* g, T* p, T value) {
  using U = std::make_unsigned_t<T>;
  if (g && g->in_flight) [[unlikely]]
    return T(U(DeferredFetchAdd(*g, p, uint64_t(U(value)), int(sizeof(T)))));
  return std::atomic_ref<T>(*p).fetch_add(value);
}

/// The original value an out-of-bounds atomic returns: undefined in D3D, so the poisoning
/// profiles give the poison pattern and report it (once per call: `reported`), the others 0.
/// `thread` < 0: every active thread (all the atomic's arguments are uniform).
template <class T>
T UndefinedOriginal(const char* name, int thread, uint32_t index, bool& reported) {
  GroupBase* g = GroupBase::Current();
  if (!g || !g->profile().poison_undefined) return T(0);
  if (!reported) {
    reported = true;
    g->Report(fmt::format("{}: original value of an out-of-bounds atomic is undefined", name),
              thread < 0 ? fmt::format("{}, every active thread, index {}", g->Where(), index)
                         : fmt::format("{}, thread {}, index {}", g->Where(), thread, index));
  }
  return Poison<T>();
}

/// Helper lanes' atomics do nothing and their original value is undefined (D3D): in the
/// poisoning profiles they get the poison pattern, reported once per call; otherwise they keep
/// the 0 the atomic gave them. Out of line: only pixel shaders have helper lanes, and the
/// common path of an atomic must not pay for them.
template <class T, int N>
[[gnu::cold, gnu::noinline]] void PoisonHelperOriginals(const char* name, const GroupState<N>& s,
                                                        Lanes<T, N>& original) {
  const Mask<N> helpers = s.helper() & s.active();
  if (helpers.Empty() || !s.profile().poison_undefined) return;
  original.AssignMasked(Lanes<T, N>(Poison<T>()), helpers);
  s.Report(fmt::format("{}: original value of a helper lane's atomic is undefined", name),
           fmt::format("{}, thread {} ({} helper lane(s))", s.Where(), helpers.First(),
                       helpers.Count()));
}

/// Every active thread applies op to its own destination, in ascending thread order, and its
/// original value goes to out[t]; the other threads' entries of `out` (the data of a Lanes<T, N>)
/// are left as they are. `wants_original`: the call has an original_value, so an out-of-bounds
/// one is an undefined value it reports.
template <class T, int N>
void AtomicPerThread(const char* name, AtomicOp op, const ElementRef<T, N>& dest,
                     const Lanes<T, N>& value, const Lanes<T, N>& compare, bool wants_original,
                     T* out) {
  static_assert(kIsAtomicType<T>,
                "Interlocked*: the destination must hold int, uint, int64_t or uint64_t");
  const Mask<N> active = CurrentWriteMask<N>();  // helper lanes' atomics do nothing
  const bool device = dest.binding().space == MemorySpace::kDevice;
  uint64_t oob = 0;
  int first = -1;
  uint32_t first_index = 0;
  bool reported = !wants_original;  // nothing reads an original that was not asked for
  dest.ForEachTarget(active, [&](int t, uint32_t index, T* p) {
    if (p) {
      out[t] = AtomicApply(op, p, device, value.lane(t), compare.lane(t));
    } else {
      if (oob++ == 0) {
        first = t;
        first_index = index;
      }
      out[t] = UndefinedOriginal<T>(name, t, index, reported);
    }
  });
  if (oob) RecordOutOfBounds(dest.binding(), AccessKind::kAtomic, oob, first, first_index);
}

/// Device InterlockedAdd of 32-bit values on one element, the kernels' claim of output space:
/// thread t's original is the base plus the values of the active threads below t (an exclusive
/// scan in thread order, wrapping as the lane-order loop does), and the base is one fetch_add of
/// the total. Computed a vector of threads at a time: inactive threads zeroed from the mask bits,
/// a log-step scan inside the vector, a running carry across vectors, so the total is ready
/// without a serial add per active thread, and after the fetch_add each vector takes the base in
/// one add. Writes the active threads' originals into `out`, the data of a Lanes<T, N> (all its
/// padded entries are read and written back), and leaves the other threads' entries as they are.
template <class T, int N>
HWY_INLINE void FetchAddScan32(GroupBase* g, T* p, const Lanes<T, N>& value, const Mask<N>& active,
                               T* out) {
  static_assert(sizeof(T) == 4 && std::is_integral_v<T>, "32-bit integer lanes only");
  using Scan = SegmentedSum32<>;  // one segment per vector
  using V = typename Scan::V;
  const typename Scan::D d;
  constexpr int L = Scan::kLanes;
  constexpr int kVectors = Lanes<T, N>::kPadded / L;
  const Scan scan;
  // uint32_t may alias int32_t (same type up to signedness); unsigned adds wrap without UB.
  const uint32_t* in = reinterpret_cast<const uint32_t*>(value.data());
  hn::Mask<typename Scan::D> on[kVectors];  // the active threads of each vector
  V before[kVectors];  // per thread: the sum over the active threads below it
  V carry = hn::Zero(d);
  for (int k = 0; k < kVectors; ++k) {
    on[k] = MaskOfBits(d, active.Bits64(k * L, L));
    const V v = hn::IfThenElseZero(on[k], hn::Load(d, in + k * L));
    const V inclusive = scan.Inclusive(v);
    before[k] = hn::Add(hn::Sub(inclusive, v), carry);
    carry = hn::Add(carry, scan.LastLane(inclusive));
  }
  const V base = hn::Set(d, uint32_t(DeviceFetchAdd(g, p, T(hn::GetLane(carry)))));
  uint32_t* o = reinterpret_cast<uint32_t*>(out);
  for (int k = 0; k < kVectors; ++k)
    hn::Store(hn::IfThenElse(on[k], hn::Add(before[k], base), hn::Load(d, o + k * L)), d,
              o + k * L);
}

/// Device InterlockedAdd on one element under a sparse mask (or of 64-bit values): the total
/// first, then one fetch_add, then each active thread's original (the base plus the values of
/// the lower active threads) stored into out[t] on its own. Blending them into vectors of `out`
/// cost eight instructions a thread more (the free-ID kernel: 1283 -> 1126 a group, session
/// 43); what usually reads them next, WaveReadLaneFirst, reads the first lane's scalar, which
/// store forwarding serves (a vector read right after would wait for the stores instead).
template <class T, int N>
HWY_INLINE void FetchAddSparse(T* p, const Lanes<T, N>& value, const Mask<N>& active, T* out) {
  using U = std::make_unsigned_t<T>;
  if (active.Empty()) return;  // no thread adds: no fetch_add
  U total = 0;
  active.ForEach([&](int t) { total = U(total + U(value.lane(t))); });
  U running = U(DeviceFetchAdd(GroupState<N>::Current(), p, T(total)));
  active.ForEach([&](int t) {
    out[t] = T(running);
    running = U(running + U(value.lane(t)));
  });
}

/// Every active thread applies op to one element, in ascending thread order, and its original
/// value goes to out[t]; the other threads' entries of `out` (the data of a Lanes<T, N>) are left
/// as they are.
/// For Add on device memory this is one fetch_add of the total, each thread's original being the
/// value before it plus the sum of the lower threads' values: the same result as the lane-order
/// loop, and the group's additions stay contiguous, as GPUs that coalesce a wave's atomics make
/// them.
template <class T, int N>
HWY_INLINE void AtomicUniform(const char* name, AtomicOp op, const UniformRef<T>& dest,
                              const Lanes<T, N>& value, const Lanes<T, N>& compare,
                              bool wants_original, T* out) {
  static_assert(kIsAtomicType<T>,
                "Interlocked*: the destination must hold int, uint, int64_t or uint64_t");
  const Mask<N> active = CurrentWriteMask<N>();  // helper lanes' atomics do nothing
  const bool device = dest.binding().space == MemorySpace::kDevice;
  T* p = dest.Target();
  if (op == AtomicOp::kAdd && device && p) {
    if constexpr (sizeof(T) == 4) {
      // A vector scan of every vector of threads, unless the mask is sparse (at most one thread
      // a vector on average, as in a claim from each wave's first lane): there the running sum
      // costs less, most on AVX2, whose scan steps are lane permutes.
      constexpr int kVectors = Lanes<T, N>::kPadded / int(hn::MaxLanes(hn::ScalableTag<T>()));
      if (active.Count() > kVectors)
        return FetchAddScan32(GroupState<N>::Current(), p, value, active, out);
    }
    return FetchAddSparse(p, value, active, out);  // 64-bit values, and sparse masks
  }
  if (active.Empty()) return;
  if (!p) {
    bool reported = !wants_original;
    active.ForEach([&](int t) { out[t] = UndefinedOriginal<T>(name, t, dest.index(), reported); });
    RecordOutOfBounds(dest.binding(), AccessKind::kAtomic, uint64_t(active.Count()),
                      active.First(), dest.index());
    return;
  }
  active.ForEach(
      [&](int t) { out[t] = AtomicApply(op, p, device, value.lane(t), compare.lane(t)); });
}

// ------------------------------------------------------------------------------------------------
// The driver behind every Interlocked* function and method.

struct NoArg {
  static constexpr int kSize = 0;
};

/// The thread count a per-thread argument carries (0 for uniform ones).
template <class X>
constexpr int ThreadsOf() {
  using D = std::remove_cvref_t<X>;
  if constexpr (requires { D::kSize; }) return D::kSize;
  else return 0;
}

template <int Explicit, class... Xs>
constexpr int PickThreads() {
  int n = Explicit;
  ((n = n ? n : ThreadsOf<Xs>()), ...);
  return n;
}
template <int N, class... Xs>
constexpr bool SameThreads() {
  return ((ThreadsOf<Xs>() == 0 || ThreadsOf<Xs>() == N) && ...);
}

/// The element type of a destination (ElementRef, UniformRef, or a groupshared variable).
template <class D>
using DestElement = typename std::remove_cvref_t<D>::element_type;

template <class T, int N, class V>
Lanes<T, N> AtomicOperand(const V& v) {
  if constexpr (std::is_same_v<V, NoArg>) return Lanes<T, N>(T(0));
  else return AsPerThread<Lanes<T, N>>(v);
}

/// original_value = result, for the active threads: a per-thread local, an RW element or a
/// groupshared element or variable.
template <class T, int N, class O>
void AssignOriginal(O&& out, const Lanes<T, N>& result) {
  using D = std::remove_cvref_t<O>;
  if constexpr (std::is_same_v<D, NoArg>) {
  } else if constexpr (IsLanes<D>::value) {
    static_assert(D::kSize == N, "Interlocked*: original_value has a different thread count");
    out = AsPerThread<D>(result);
  } else if constexpr (HasLoad<D>) {
    out = result;
  } else {
    static_assert(kDependentFalse<D>,
                  "Interlocked*: original_value must be a per-thread value (Uint<N>, Int<N>, ...) "
                  "or an RW buffer / groupshared element; a plain C++ scalar cannot hold one "
                  "value per thread");
  }
}

/// The number of active non-helper threads of the running group (one outside a dispatch).
inline int ActiveThreadCount() {
  GroupBase* g = GroupBase::Current();
  return g ? g->WriteActiveCount() : 1;
}

/// An atomic whose destination, value and original_value are all uniform: each active thread
/// applies the same operation, so only their number matters; original_value gets the last
/// thread's original. Out of bounds, that original is undefined (UndefinedOriginal).
template <class Dest, class V, class C, class O>
void InterlockedAllUniform(const char* name, AtomicOp op, Dest&& dest, const V& value,
                           const C& compare, O&& original_value) {
  using T = DestElement<Dest>;
  static_assert(kIsAtomicType<T>,
                "Interlocked*: the destination must hold int, uint, int64_t or uint64_t");
  using U = std::make_unsigned_t<T>;
  const int count = ActiveThreadCount();
  if (count == 0) return;
  const UniformRef<T>& ref = static_cast<const UniformRef<T>&>(dest);
  const T v = AtomicOperand<T, 1>(value).lane(0);
  const T c = AtomicOperand<T, 1>(compare).lane(0);
  T last{};
  T* p = ref.Target();
  const bool device = ref.binding().space == MemorySpace::kDevice;
  if (!p) {
    RecordOutOfBounds(ref.binding(), AccessKind::kAtomic, uint64_t(count),
                      UniformAccessThread(true), ref.index());
    bool reported = std::is_same_v<std::remove_cvref_t<O>, NoArg>;  // no original asked for
    last = UndefinedOriginal<T>(name, -1, ref.index(), reported);
  } else if (op == AtomicOp::kAdd && device) {
    const U total = U(U(v) * U(count));
    last = T(U(DeviceFetchAdd(GroupBase::Current(), p, T(total))) + U(v) * U(count - 1));
  } else {
    for (int i = 0; i < count; ++i) last = AtomicApply(op, p, device, v, c);
  }
  using D = std::remove_cvref_t<O>;
  if constexpr (!std::is_same_v<D, NoArg>) original_value = last;
}

template <int Explicit, class Dest, class V, class C, class O>
HWY_INLINE void Interlocked(const char* name, AtomicOp op, Dest&& dest, const V& value,
                            const C& compare, O&& original_value) {
  constexpr int N = PickThreads<Explicit, Dest, V, C, O>();
  if constexpr (N == 0) {
    // Every argument is uniform: only the number of active threads matters.
    InterlockedAllUniform(name, op, dest, value, compare, std::forward<O>(original_value));
    return;
  } else {
  static_assert(SameThreads<N, Dest, V, C, O>(),
                "Interlocked*: the arguments have different thread counts");
  using T = DestElement<Dest>;
  static_assert(kIsAtomicType<T>,
                "Interlocked*: the destination must hold int, uint, int64_t or uint64_t");
  const Lanes<T, N> v = AtomicOperand<T, N>(value);
  const Lanes<T, N> c = AtomicOperand<T, N>(compare);
  using D = std::remove_cvref_t<Dest>;
  using OD = std::remove_cvref_t<O>;
  constexpr bool kWantsOriginal = !std::is_same_v<OD, NoArg>;
  // Applies the atomic, each active thread's original going to out[t].
  const auto apply = [&](T* out) {
    if constexpr (ThreadsOf<D>() != 0)
      AtomicPerThread<T, N>(name, op, dest, v, c, kWantsOriginal, out);
    else
      AtomicUniform<T, N>(name, op, static_cast<const UniformRef<T>&>(dest), v, c,
                          kWantsOriginal, out);
  };
  if constexpr (std::is_same_v<OD, Lanes<T, N>> || kSameBitsLanes<OD, T, N>) {
    // original_value is a per-thread local of T's width: the atomic writes the active threads'
    // originals into it and leaves the others, which is what the masked assignment below does,
    // without a result in between. Not where helper lanes (pixel shaders) are to get theirs.
    if (const GroupState<N>* s = GroupState<N>::Current(); !s || !s->helper().Any()) {
      apply(reinterpret_cast<T*>(original_value.data()));
      return;
    }
  }
  Lanes<T, N> result(T(0));  // inactive threads: 0
  apply(result.data());
  if constexpr (kWantsOriginal) {
    if (const GroupState<N>* s = GroupState<N>::Current(); s && s->helper().Any()) [[unlikely]]
      PoisonHelperOriginals(name, *s, result);
    AssignOriginal<T, N>(std::forward<O>(original_value), result);
  }
  }
}

}  // namespace detail
}  // namespace waveemu
