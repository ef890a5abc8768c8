// resource_ref.h -- references to elements of RW buffers and groupshared arrays.
//
// RW[i] with a per-thread index is an ElementRef: it gathers for active threads when read and
// scatters for active threads when assigned, and is the destination of Interlocked*. RW[u] with a
// uniform index is a UniformRef to one element; RW[i][k] is one component of a vector element.
// All are views (pointer semantics), so writes work through a const resource, as through a
// descriptor.
#pragma once

#include "emulator/exec.h"
#include "emulator/lanes.h"
#include "emulator/resource_element.h"
#include "emulator/streaming_stores.h"

#include <hwy/cache_control.h>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace waveemu {

enum class MemorySpace : uint8_t { kDevice, kGroupShared };
enum class AccessKind : uint8_t { kRead, kWrite, kAtomic };

/// Out-of-bounds accesses through one binding (and its copies), in or out of a dispatch.
struct AccessCounters {
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> writes{0};
  std::atomic<uint64_t> atomics{0};
};

/// Where a reference points: `count` elements of `stride` bytes from `base`; the accessed part
/// starts `offset` bytes into an element (a struct member).
struct MemoryBinding {
  std::byte* base = nullptr;
  uint64_t count = 0;
  uint64_t stride = 0;
  uint64_t offset = 0;
  MemorySpace space = MemorySpace::kDevice;
  AccessCounters* counters = nullptr;
  const char* kind = "buffer";  // resource kind, for messages

  std::byte* Address(uint64_t index) const { return base + index * stride + offset; }
  bool InBounds(uint64_t index) const { return index < count; }
};

namespace detail {

inline const char* AccessName(AccessKind a) {
  return a == AccessKind::kRead ? "read" : a == AccessKind::kWrite ? "write" : "atomic";
}

/// The thread a uniform-index access is counted for: the lowest active thread (helper lanes
/// read, only the others write); -1 when no thread runs the access, which then reads or writes
/// nothing and counts nothing out of bounds. 0 outside a dispatch (every thread active).
inline int UniformAccessThread(bool write) {
  GroupBase* g = GroupBase::Current();
  return g ? g->FirstActive(write) : 0;
}

/// Counts `threads` out-of-bounds accesses of one statement: on the binding and, inside a
/// dispatch, on the dispatch. Device memory has defined results (D3D buffer views: reads give 0,
/// writes are dropped); groupshared out-of-bounds access is undefined in HLSL, so it is also
/// reported as a diagnostic.
inline void RecordOutOfBounds(const MemoryBinding& m, AccessKind a, uint64_t threads,
                              int first_thread, uint64_t first_index) {
  if (threads == 0) return;
  if (m.counters) {
    auto& c = a == AccessKind::kRead    ? m.counters->reads
              : a == AccessKind::kWrite ? m.counters->writes
                                        : m.counters->atomics;
    c.fetch_add(threads, std::memory_order_relaxed);
  }
  GroupBase* g = GroupBase::Current();
  if (!g) return;
  if (m.space == MemorySpace::kDevice) {
    if (DispatchShared* s = g->shared()) {
      auto& c = a == AccessKind::kRead    ? s->out_of_bounds_reads
                : a == AccessKind::kWrite ? s->out_of_bounds_writes
                                          : s->out_of_bounds_atomics;
      c.fetch_add(threads, std::memory_order_relaxed);
    }
  } else {
    g->Report(fmt::format("groupshared out-of-bounds {} is undefined", AccessName(a)),
              fmt::format("{}, {} thread(s), first thread {} at index {} of {} (reads give 0, "
                          "writes are dropped here)",
                          g->Where(), threads, first_thread, first_index, m.count));
  }
}

/// RecordOutOfBounds for an access at a uniform index (or address): counted once, for the lowest
/// thread that runs it, and not at all when no thread does (every thread returned).
inline void RecordUniformOutOfBounds(const MemoryBinding& m, AccessKind a, uint64_t index) {
  const int t = UniformAccessThread(a != AccessKind::kRead);
  if (t >= 0) RecordOutOfBounds(m, a, 1, t, index);
}

template <class T>
struct IsLanes : std::false_type {};
template <class T, int N>
struct IsLanes<Lanes<T, N>> : std::true_type {};

/// The scalar type of a value: T for Lanes<T, N> and references to T elements, else itself.
template <class V>
auto ScalarOf() {
  if constexpr (IsLanes<V>::value) return typename V::value_type{};
  else if constexpr (requires { typename V::element_type; }) return typename V::element_type{};
  else return V{};
}

/// A per-thread index as Uint<N>: 16- and 32-bit integer lanes convert as HLSL does (a negative
/// int becomes a large uint, so it is out of bounds). A uint index is returned by reference, not
/// copied.
template <class I, int N>
decltype(auto) ToIndex(const Lanes<I, N>& index) {
  static_assert(std::is_integral_v<I> && sizeof(I) <= 4,
                "a buffer or groupshared index must be a 16- or 32-bit integer (uint, int)");
  if constexpr (std::is_same_v<I, uint32_t>) return (index);
  else return Uint<N>(index);
}

/// Whether index[t] == index[0] + t for every thread t < N and all of [index[0], index[0] + N)
/// is in bounds: a gather or scatter through such an index is a contiguous copy (the common
/// `buf[DispatchThreadID.x]`). One vector compare per N / lanes threads.
template <int N>
bool IsConsecutiveInBounds(const Uint<N>& index, uint64_t count) {
  const uint32_t first = index.lane(0);
  if (uint64_t(first) + uint64_t(N) > count) return false;
  const hn::ScalableTag<uint32_t> d;
  constexpr int L = int(hn::MaxLanes(d));
  const auto step = IotaFrom(d, first);
  auto mismatch = hn::FirstN(d, 0);
  for (int i = 0; i + L <= N; i += L)
    mismatch = hn::Or(mismatch, hn::Not(hn::Eq(hn::Load(d, index.data() + i),
                                                 hn::Add(step, hn::Set(d, uint32_t(i))))));
  if constexpr (N % L != 0) {
    constexpr int i = N / L * L;
    mismatch = hn::Or(mismatch, hn::AndNot(hn::Eq(hn::Load(d, index.data() + i),
                                                    hn::Add(step, hn::Set(d, uint32_t(i)))),
                                             hn::FirstN(d, size_t(N - i))));
  }
  return hn::AllFalse(d, mismatch);
}

/// Byte offset of component k of a vector element E (HLSL's buf[i][k]); a k past the vector's
/// last component is a KernelError (HLSL leaves a dynamic out-of-range index undefined).
template <class E, std::integral I>
uint64_t ComponentOffset(I k) {
  CheckComponentIndex(k, kVectorComponents<E>, "element");
  return uint64_t(k) * sizeof(typename VectorElementTraits<E>::component_type);
}

/// The components of a binding's vector elements E seen as an array of their own, for a
/// per-thread component index (HLSL's gs[0][tid] = x): entry i * (stride / component size) + k
/// is component k of element i.
template <class E>
MemoryBinding ComponentView(const MemoryBinding& m) {
  constexpr uint64_t size = sizeof(typename VectorElementTraits<E>::component_type);
  // A vector member sits at a multiple of its component's size, and every stride is a multiple
  // of the element's alignment, so the components of all elements line up.
  MemoryBinding v = m;
  v.base = m.base ? m.base + m.offset : nullptr;
  v.offset = 0;
  v.stride = size;
  v.count = m.count * (m.stride / size);
  return v;
}

/// Per-thread entry of ComponentView<E>(m) for element `element[t]`, component `k[t]`; a thread
/// whose element is out of bounds, or whose k is past the last component, gets the view's
/// count, so its access is out of bounds (read 0, write dropped, counted) and never lands on a
/// neighbouring component.
template <class E, int N, class I>
Uint<N> ComponentIndex(const MemoryBinding& m, const Uint<N>& element, const Lanes<I, N>& k) {
  constexpr uint32_t kComponents = uint32_t(kVectorComponents<E>);
  const auto& ku = ToIndex(k);
  const uint64_t per = m.stride / sizeof(typename VectorElementTraits<E>::component_type);
  const uint32_t beyond = uint32_t(m.count * per);
  Uint<N> r{NoInit{}};
  for (int t = 0; t < N; ++t) {
    const uint32_t e = element.lane(t), c = ku.lane(t);
    r.set_lane(t, m.InBounds(e) && c < kComponents ? uint32_t(e * per + c) : beyond);
  }
  return r;
}

/// How far ahead of a contiguous read ReadAhead asks for what follows it.
inline constexpr size_t kReadAheadBytes = 1024;
inline constexpr size_t kCacheLineBytes = 64;

/// How many bytes ReadAhead asks for after a read of kBytes.
template <size_t kBytes>
inline constexpr size_t kReadAheadWindowBytes = std::min(kBytes, kReadAheadBytes);

/// Where ReadAhead's window starts after a contiguous read of kBytes from `run` through `m`, or 0
/// when it asks for nothing. The window is the memory kReadAheadBytes on from the read (for a
/// longer read, the kReadAheadBytes that follow it), so that what was asked for always reaches
/// kReadAheadBytes past what was read. Only where the stream can go on: in device memory, and
/// within the binding. Groupshared arrays are in L1 already, and a window past the end of a
/// small table that every group reads would fetch lines nothing reads (past groupshared arrays
/// that made the groupshared free-ID kernel 8% slower: history, session 37). Addresses are
/// integers: a pointer that far past an object would be undefined behaviour.
template <size_t kBytes>
uintptr_t ReadAheadWindow(const MemoryBinding& m, const void* run) {
  if (m.space != MemorySpace::kDevice) return 0;
  const uintptr_t window =
      reinterpret_cast<uintptr_t>(run) + kBytes + kReadAheadBytes - kReadAheadWindowBytes<kBytes>;
  const uintptr_t end = reinterpret_cast<uintptr_t>(m.base) + m.count * m.stride;
  return window + kReadAheadWindowBytes<kBytes> <= end ? window : 0;
}

/// Asks the cache for ReadAheadWindow after a contiguous read. Groups that run in order read a
/// thread-indexed input as one stream, and the hardware prefetchers alone left its latency
/// showing: this took about 10% off the free-ID wave kernel's one-thread time (history, session
/// 37). A hint: it never faults, and nothing in the emulator can tell it ran.
template <size_t kBytes>
HWY_INLINE void ReadAhead(const MemoryBinding& m, const void* run) {
  if (const uintptr_t window = ReadAheadWindow<kBytes>(m, run))
    for (size_t b = 0; b < kReadAheadWindowBytes<kBytes>; b += kCacheLineBytes)
      hwy::Prefetch(reinterpret_cast<const char*>(window + b));
}

/// The element pointer of a run of consecutive in-bounds scalar elements, or nullptr when the
/// binding's elements are not packed scalars of E (a struct member, a raw view).
template <class E>
E* PackedBase(const MemoryBinding& m) {
  if constexpr (!kIsSimdType<E>) return nullptr;
  if (m.stride != sizeof(E) || m.offset != 0 || !m.base) return nullptr;
  return reinterpret_cast<E*>(m.base);
}

/// ElementRef::Gather's thread-by-thread read on whole vectors, for elements of 32-bit words:
/// per vector of threads, one bounds compare and one hardware gather per component; threads not
/// in `mask` read 0 (they gather the first element, which exists). Packed vector elements at
/// consecutive in-bounds indices (`Positions[DTid.x]`) are read contiguously and
/// de-interleaved instead, but for a last partial vector of threads, which would read past the
/// run. Returns false, with `r` left unspecified, when a thread of `mask` is out of bounds (the
/// thread-by-thread read then counts it), or when the binding's words are not 4-byte aligned or
/// lie beyond the gather's signed 32-bit word indices.
template <class E, int N>
bool GatherWords(const MemoryBinding& m, const Uint<N>& index, const Mask<N>& mask,
                 PerThreadOf<E, N>& r) {
  constexpr int C = WordComponents<E>();
  using T = typename std::remove_cvref_t<decltype(ComponentLanes<0>(r))>::value_type;
  if (!m.base || m.count == 0 || m.count > (uint64_t{1} << 31) || m.stride % 4 != 0 ||
      m.offset % 4 != 0 || reinterpret_cast<uintptr_t>(m.base) % 4 != 0 ||
      ((m.count - 1) * m.stride + m.offset) / 4 + C > uint64_t(INT32_MAX))
    return false;
  const hn::ScalableTag<uint32_t> du;
  const hn::RebindToSigned<decltype(du)> di;
  const hn::ScalableTag<T> dt;
  constexpr int L = int(hn::MaxLanes(du));
  constexpr int kPadded = Uint<N>::kPadded;
  const auto count = hn::Set(du, uint32_t(m.count));
  const auto words_per_element = hn::Set(di, int32_t(m.stride / 4));
  const auto first_word = hn::Set(di, int32_t(m.offset / 4));
  const T* words = reinterpret_cast<const T*>(m.base);
  const T* run = nullptr;  // element index[0]'s first word, when the threads read a packed run
  // (only groups of at least one vector read one: GCC 12 warns about the dead load otherwise)
  if constexpr (C > 1 && N >= L) {
    if (m.stride == 4 * C && IsConsecutiveInBounds(index, m.count)) {
      run = reinterpret_cast<const T*>(m.Address(index.lane(0)));
      ReadAhead<4 * C * N>(m, run);
    }
  }
  for (int t0 = 0; t0 < kPadded; t0 += L) {
    const auto on = MaskOfBits(du, mask.Bits64(t0, 64));
    hn::Vec<decltype(dt)> v[C];  // component c of the threads' elements
    if (run && t0 + L <= N) {
      if constexpr (C == 2) hn::LoadInterleaved2(dt, run + t0 * C, v[0], v[1]);
      if constexpr (C == 3) hn::LoadInterleaved3(dt, run + t0 * C, v[0], v[1], v[2]);
      if constexpr (C == 4) hn::LoadInterleaved4(dt, run + t0 * C, v[0], v[1], v[2], v[3]);
    } else {
      const auto i = hn::Load(du, index.data() + t0);
      if (!hn::AllFalse(du, hn::AndNot(hn::Lt(i, count), on))) return false;
      const auto word = hn::Add(
          hn::Mul(hn::BitCast(di, hn::IfThenElseZero(on, i)), words_per_element), first_word);
      for (int c = 0; c < C; ++c) v[c] = hn::GatherIndex(dt, words, hn::Add(word, hn::Set(di, c)));
    }
    const auto keep = hn::RebindMask(dt, on);
    [&]<int... c>(std::integer_sequence<int, c...>) {
      (hn::Store(hn::IfThenElseZero(keep, v[c]), dt, ComponentLanes<c>(r).data() + t0), ...);
    }(std::make_integer_sequence<int, C>());
  }
  return true;
}

}  // namespace detail

template <class E, int N>
class ElementRef;
template <class E>
class UniformRef;

namespace detail {

/// The sixteen binary operators a reference to an element takes, each through M(OP).
#define WAVEEMU_REF_OPERATORS(M)                                                          \
  M(+) M(-) M(*) M(/) M(%) M(&) M(|) M(^) M(<<) M(>>) M(==) M(!=) M(<) M(<=) M(>) M(>=)

/// Arithmetic and comparisons on a reference to a scalar element read the element first. They
/// are hidden friends taking the reference type itself, because operator templates do not see
/// implicit conversions.
#define WAVEEMU_REF_BINARY(OP)                                                           \
  friend auto operator OP(const Derived& a, const Derived& b) { return a.Load() OP b.Load(); } \
  friend auto operator OP(const Derived& a, const Lanes<T, N>& b) { return a.Load() OP b; }    \
  friend auto operator OP(const Lanes<T, N>& a, const Derived& b) { return a OP b.Load(); }    \
  template <class S>                                                                     \
    requires std::is_arithmetic_v<S>                                                     \
  friend auto operator OP(const Derived& a, S b) {                                       \
    return a.Load() OP b;                                                                \
  }                                                                                      \
  template <class S>                                                                     \
    requires std::is_arithmetic_v<S>                                                     \
  friend auto operator OP(S a, const Derived& b) {                                       \
    return a OP b.Load();                                                                \
  }

template <class Derived, class T, int N>
struct PerThreadRefOps {
  WAVEEMU_REF_OPERATORS(WAVEEMU_REF_BINARY)
  friend auto operator-(const Derived& a) { return -a.Load(); }
  friend auto operator~(const Derived& a) { return ~a.Load(); }
};
#undef WAVEEMU_REF_BINARY

/// The same for a uniform-index reference: with a scalar it computes a uniform value, with
/// per-thread values a per-thread one.
#define WAVEEMU_UREF_BINARY(OP)                                                          \
  friend auto operator OP(const Derived& a, const Derived& b) { return a.Load() OP b.Load(); } \
  template <int M>                                                                       \
  friend auto operator OP(const Derived& a, const Lanes<T, M>& b) {                      \
    return Lanes<T, M>(a.Load()) OP b;                                                   \
  }                                                                                      \
  template <int M>                                                                       \
  friend auto operator OP(const Lanes<T, M>& a, const Derived& b) {                      \
    return a OP Lanes<T, M>(b.Load());                                                   \
  }                                                                                      \
  template <class S>                                                                     \
    requires std::is_arithmetic_v<S>                                                     \
  friend auto operator OP(const Derived& a, S b) {                                       \
    return a.Load() OP b;                                                                \
  }                                                                                      \
  template <class S>                                                                     \
    requires std::is_arithmetic_v<S>                                                     \
  friend auto operator OP(S a, const Derived& b) {                                       \
    return a OP b.Load();                                                                \
  }                                                                                      \
  /* A uniform element with a per-thread element: GroupWriteStart + Offsets[i]. */       \
  template <class E2, int M>                                                             \
  friend auto operator OP(const Derived& a, const ElementRef<E2, M>& b) {                \
    return Lanes<T, M>(a.Load()) OP b.Load();                                            \
  }                                                                                      \
  template <class E2, int M>                                                             \
  friend auto operator OP(const ElementRef<E2, M>& a, const Derived& b) {                \
    return a.Load() OP Lanes<T, M>(b.Load());                                            \
  }

template <class Derived, class T>
struct UniformRefOps {
  WAVEEMU_REF_OPERATORS(WAVEEMU_UREF_BINARY)
};
#undef WAVEEMU_UREF_BINARY

/// The same for a reference to a vector element (Colors[i] * 2, Normals[i] + n, -Dir[i]): the
/// element is read, and the operation is the vector value's, with any operand it takes other
/// than another reference. Value is the type the element reads as.
#define WAVEEMU_VREF_BINARY(OP)                                                          \
  friend auto operator OP(const Derived& a, const Derived& b) { return a.Load() OP b.Load(); } \
  template <class V>                                                                     \
    requires(!HasLoad<V> && requires(const Value& x, const V& y) { x OP y; })            \
  friend auto operator OP(const Derived& a, const V& b) {                                \
    return a.Load() OP b;                                                                \
  }                                                                                      \
  template <class V>                                                                     \
    requires(!HasLoad<V> && requires(const V& x, const Value& y) { x OP y; })            \
  friend auto operator OP(const V& a, const Derived& b) {                                \
    return a OP b.Load();                                                                \
  }

template <class Derived, class Value>
struct VectorRefOps {
  WAVEEMU_REF_OPERATORS(WAVEEMU_VREF_BINARY)
  friend auto operator-(const Derived& a) { return -a.Load(); }
  friend auto operator~(const Derived& a) { return ~a.Load(); }
};
#undef WAVEEMU_VREF_BINARY
#undef WAVEEMU_REF_OPERATORS

struct NoOps {};

template <class Derived, class E, int N>
using PerThreadOpsFor = std::conditional_t<
    kIsLaneType<E>, PerThreadRefOps<Derived, E, N>,
    std::conditional_t<kVectorComponents<E> != 0, VectorRefOps<Derived, PerThreadOf<E, N>>,
                       NoOps>>;
template <class Derived, class E>
using UniformOpsFor = std::conditional_t<
    kIsLaneType<E>, UniformRefOps<Derived, E>,
    std::conditional_t<kVectorComponents<E> != 0, VectorRefOps<Derived, E>, NoOps>>;

/// Whether V is Lanes<U, N> for an integer element E of the other signedness and the same
/// width, whose bits HLSL's conversion keeps.
template <class V, class E, int N>
inline constexpr bool kSameBitsLanes = false;
template <class U, class E, int N>
  requires(std::is_integral_v<U> && std::is_integral_v<E> && !std::is_same_v<U, E> &&
           sizeof(U) == sizeof(E))
inline constexpr bool kSameBitsLanes<Lanes<U, N>, E, N> = true;

/// The lanes of v as elements E: its own type, or the other signedness of one width (an
/// object may be read through the signed or unsigned type of its own width).
template <class E, class V>
const E* ElementsOf(const V& v) {
  return reinterpret_cast<const E*>(v.data());
}

/// A right-hand side as the per-thread value type P: references are read first, scalars
/// broadcast, other lane types converted as HLSL converts.
template <class P, class V>
P AsPerThread(const V& v) {
  if constexpr (HasLoad<V>) return AsPerThread<P>(v.Load());
  else if constexpr (std::is_same_v<V, P>) return v;
  else return P(v);
}

}  // namespace detail

// ------------------------------------------------------------------------------------------------
// ElementRef: RW[i] with a per-thread index.

/// One element per thread, chosen by a per-thread index. Reads gather for active threads
/// (inactive threads read 0); writes scatter for active threads only, in ascending thread order,
/// so when several active threads write one element the highest thread's value stays.
/// Out-of-bounds reads give 0, out-of-bounds writes are dropped; both are counted.
template <class E, int N>
class ElementRef : public detail::PerThreadOpsFor<ElementRef<E, N>, E, N> {
  static_assert(kIsElementType<E>, "buffer elements must be trivially copyable plain data");

 public:
  using element_type = E;
  using value_type = PerThreadOf<E, N>;
  static constexpr int kSize = N;

  ElementRef(const MemoryBinding& binding, const Uint<N>& index)
      : binding_(binding), index_(index) {}
  ElementRef(const ElementRef&) = default;

  /// Masked gather.
  value_type Load() const { return Gather(binding_, index_); }

  /// Masked gather through `binding` at `index` (what Load does, without a reference object:
  /// read-only buffers call it directly).
  static value_type Gather(const MemoryBinding& binding, const Uint<N>& index) {
    const Mask<N> mask = CurrentMask<N>();
    if constexpr (kIsSimdType<E>) {
      // Fast path: consecutive in-bounds indices are one contiguous read (inactive threads'
      // elements are in bounds too, and masked off afterwards).
      if (E* base = detail::PackedBase<E>(binding);
          base && detail::IsConsecutiveInBounds(index, binding.count)) {
        const E* run = base + index.lane(0);
        detail::ReadAhead<sizeof(E) * N>(binding, run);
        return ReadRun(run, mask);
      }
    }
    if constexpr (detail::WordComponents<E>() > 0) {
      value_type r;
      if (detail::GatherWords<E, N>(binding, index, mask, r)) return r;
    } else if constexpr (!kIsLaneType<E> && kVectorComponents<E> == 0) {
      // A struct element (PerThread<E, N>, one E per thread in order): consecutive in-bounds
      // indices are one copy, and threads not in `mask` get E{} back, as below.
      if (binding.base && binding.stride == sizeof(E) && binding.offset == 0 &&
          detail::IsConsecutiveInBounds(index, binding.count)) {
        value_type r;
        const std::byte* run = binding.Address(index.lane(0));
        detail::ReadAhead<sizeof(E) * N>(binding, run);
        WAVEEMU_BOUNDS_CHECKED_COPY_BEGIN
        std::memcpy(&r.lane(0), run, sizeof(E) * N);
        WAVEEMU_BOUNDS_CHECKED_COPY_END
        (~mask).ForEach([&](int t) { r.set_lane(t, E{}); });
        return r;
      }
    }
    value_type r{};
    uint64_t oob = 0;
    int first = -1;
    // The indices read thread by thread from a copy (CopyOfIndex), not from `index`.
    const IndexCopy indices = CopyOfIndex(index);
    mask.ForEach([&](int t) {
      const uint32_t i = indices.lane[t];
      if (binding.InBounds(i)) {
        E e;
        std::memcpy(&e, binding.Address(i), sizeof(E));
        SetLane<E, N>(r, t, e);
      } else if (oob++ == 0) {
        first = t;
      }
    });
    if (oob)
      detail::RecordOutOfBounds(binding, AccessKind::kRead, oob, first, indices.lane[first]);
    return r;
  }
  operator value_type() const { return Load(); }  // NOLINT: reads like an HLSL lvalue

  /// Masked scatter (helper lanes write nothing). `v` is a value_type, or for integer elements
  /// the Lanes of the other signedness (see operator=).
  template <class V>
    requires(std::is_same_v<V, value_type> || detail::kSameBitsLanes<V, E, N>)
  void Store(const V& v) const {
    const Mask<N> mask = CurrentWriteMask<N>();
    if constexpr (kIsSimdType<E>) {
      if (E* base = detail::PackedBase<E>(binding_)) {
        const E* values = detail::ElementsOf<E>(v);
        // Every thread writes the element after its left neighbour's: one contiguous copy.
        if (mask.IsAll() && detail::IsConsecutiveInBounds(index_, binding_.count)) {
          E* run = base + index_.lane(0);
          // A whole number of cache lines a group, to a binding larger than the cache: past it.
          if constexpr (sizeof(E) * N % detail::kCacheLineBytes == 0)
            if (StreamsWrites(binding_) && detail::StreamBytes<sizeof(E) * N>(run, values))
              return;
          detail::CopyBytes<sizeof(E) * N>(run, values);
          return;
        }
        // The append pattern: the writing threads' indices are first, first + 1, ... in thread
        // order; compress their values and store the run.
        if (StoreCompressed(base, values, mask)) return;
        // Any other shape with every writing thread in bounds: one bounds check, no branches.
        if (StoreInBounds(base, values, mask)) return;
      }
    }
    uint64_t oob = 0;
    int first = -1;
    const IndexCopy indices = Indices();
    mask.ForEach([&](int t) {
      const uint32_t i = indices.lane[t];
      if (binding_.InBounds(i)) {
        const E e = [&] {
          if constexpr (kIsLaneType<E>) return detail::ElementsOf<E>(v)[t];
          else return GetLane<E, N>(v, t);
        }();
        std::memcpy(binding_.Address(i), &e, sizeof(E));
      } else if (oob++ == 0) {
        first = t;
      }
    });
    if (oob)
      detail::RecordOutOfBounds(binding_, AccessKind::kWrite, oob, first, indices.lane[first]);
  }

  /// RW[i] = RW2[j] copies values, not the reference.
  ElementRef& operator=(const ElementRef& other) {
    Store(other.Load());
    return *this;
  }
  template <class V>
    requires(!std::is_same_v<V, ElementRef> &&
             (detail::HasLoad<V> || std::is_constructible_v<value_type, const V&>))
  ElementRef& operator=(const V& v) {
    // int <-> uint of one width keeps the bits: the store reads `v` in place, where a
    // converted copy cost four vector stores per 64 threads (`RWFreeIDList[i] = ParticleID`).
    if constexpr (detail::kSameBitsLanes<V, E, N>) Store(v);
    else Store(detail::AsPerThread<value_type>(v));
    return *this;
  }

  // Read-modify-write, not atomic (as in HLSL; use Interlocked* for that).
  WAVEEMU_COMPOUND_ASSIGNMENTS(ElementRef, Load())

  /// One member of a struct (or vector) element: RW[i].field(&Particle::age) = 0.
  template <class M, class S = E>
    requires std::is_class_v<S>
  ElementRef<M, N> field(M S::*member) const {
    MemoryBinding b = binding_;
    b.offset += MemberOffset(member);
    return ElementRef<M, N>(b, index_);
  }
  /// One component of a vector element at a uniform index k: RW[i][5] = x writes just that
  /// component (HLSL's subscript; the way into a long vector's components, which have no names).
  template <std::integral I>
  auto operator[](I k) const
    requires(kVectorComponents<E> != 0)
  {
    MemoryBinding b = binding_;
    b.offset += detail::ComponentOffset<E>(k);
    return ElementRef<typename VectorElementTraits<E>::component_type, N>(b, index_);
  }
  /// One component per thread: RW[i][k] with a per-thread k.
  template <class I>
  auto operator[](const Lanes<I, N>& k) const
    requires(kVectorComponents<E> != 0)
  {
    return ElementRef<typename VectorElementTraits<E>::component_type, N>(
        detail::ComponentView<E>(binding_), detail::ComponentIndex<E>(binding_, index_, k));
  }

  /// Calls f(thread, its index, E* or nullptr when out of bounds) for the threads of `mask`,
  /// ascending. The index comes from here so that callers need not read index_ at run-time
  /// offsets (see IndexCopy).
  template <class F>
  void ForEachTarget(const Mask<N>& mask, F&& f) const {
    const IndexCopy indices = Indices();
    mask.ForEach([&](int t) {
      const uint32_t i = indices.lane[t];
      f(t, i, binding_.InBounds(i) ? reinterpret_cast<E*>(binding_.Address(i)) : nullptr);
    });
  }
  const MemoryBinding& binding() const { return binding_; }

 private:
  /// The N elements from src on, as threads of `mask` read them (the others read 0). src must
  /// hold N elements: Gather calls it only after IsConsecutiveInBounds. A result of its own, not
  /// Gather's: `all` is a NoInit result whose N lanes the copy writes, and the zeroed result
  /// that a partial mask needs is made only on that path.
  static value_type ReadRun(const E* src, const Mask<N>& mask) {
    value_type all{NoInit{}};
    detail::CopyBytes<sizeof(E) * N>(all.data(), src);
    if (mask.IsAll()) return all;
    value_type r{};
    r.AssignMasked(all, mask);
    return r;
  }

  /// Scatter of a group whose writing threads' indices are consecutive in thread order (thread
  /// order = index order: the k-th writing thread writes element first + k, as in
  /// `list[start + WavePrefixCountBits(pred)] = x` under if_(pred) with one base per group) and in
  /// bounds. First every vector of threads has its active indices compressed and compared with
  /// the expected run; returns false, having stored nothing, if one is not. Then the
  /// active values, compressed, are stored in thread order: a whole vector where all its slots
  /// lie within the run (the slots past its own values are the next vectors' to overwrite), a
  /// masked store of just its values near the run's end, never a neighbour's element (other
  /// groups write there concurrently). Masked stores are slow on AMD (VPMASKMOVD, Zen 3), so
  /// they are kept to the vectors whose eight slots would pass the run's end (one or two for a
  /// dense mask; up to seven when each vector has a single active thread). A vector with no
  /// active thread that lies within the run is stored whole like the others, with no test of
  /// its own: its slots too are the next vectors' to overwrite (1 in 256 vectors at the free-ID
  /// kernel's half; a test and a branch on every one cost more). An empty vector at the run's
  /// end gets the masked store, with no lane set: wasted where a mask's last vectors are empty
  /// (seven of them when only the first 5 of 64 threads write), but skipping them, even with the
  /// test on that path alone, took the free-ID kernel 4.5% longer (session 46). Indices are
  /// distinct, so the order of the stores does not matter beyond that.
  bool StoreCompressed(E* base, const E* values, const Mask<N>& mask) const {
    if constexpr (sizeof(E) != sizeof(uint32_t)) {
      return false;
    } else {
      const hn::ScalableTag<uint32_t> du;
      const hn::ScalableTag<E> de;
      constexpr int L = int(hn::MaxLanes(du));
      // 128-bit targets (L = 4) take the scalar path: on NEON and WASM Highway's BlendedStore
      // rewrites the whole vector, the run's neighbours included, and other groups write
      // those concurrently.
      if constexpr (L % 8 != 0) {
        return false;
      } else {
        const int first_thread = mask.First();
        if (first_thread < 0) return true;  // no thread writes
        const uint32_t first = Indices().lane[first_thread];
        const uint32_t count = uint32_t(mask.Count());
        if (uint64_t(first) + count > binding_.count) return false;
        constexpr int kVectors = Uint<N>::kPadded / L;
        // Each vector's compression, worked out from its mask bits once for both passes.
        using Compressor = Compressor32<hn::ScalableTag<uint32_t>>;
        Compressor compress[kVectors];
        // Nonzero when some writing thread's index is not the run's next one: each vector's
        // mismatching slots after compression, ORed together and tested once, so the check pass
        // has no branch of its own.
        uint64_t stray = 0;
        uint32_t next = first;
        mask.template ForEachVectorWord<L, Uint<N>::kPadded>([&](int i, uint64_t word) {
          Compressor& c = compress[i / L];
          c = Compressor(du, word >> (i & 63));
          const int n = c.count();
          const auto got = c(hn::Load(du, index_.data() + i));
          stray |= ~BitsOfMask(du, hn::Eq(got, IotaFrom(du, next))) & ((uint64_t{1} << n) - 1);
          next += uint32_t(n);
        });
        if (stray) return false;
        const uint64_t end = uint64_t(first) + count;
        next = first;
        for (int k = 0; k < kVectors; ++k) {
          const int n = compress[k].count();
          const auto run =
              hn::BitCast(de, compress[k](hn::BitCast(du, hn::Load(de, values + k * L))));
          if (uint64_t(next) + L <= end) hn::StoreU(run, de, base + next);
          else hn::BlendedStore(run, hn::FirstN(de, size_t(n)), de, base + next);
          next += uint32_t(n);
        }
        return true;
      }
    }
  }

  /// Scatter of a partially active group whose active threads all index in bounds but not as one
  /// run in thread order (StoreCompressed, tried first, takes the append pattern
  /// `list[start + WavePrefixCountBits(pred)] = x` with one base per group, the free-ID
  /// kernel's path): e.g. one base per wave, a permutation, or repeated indices. One vector
  /// bounds check, then one store per active thread with no per-thread branch, in ascending
  /// thread order so the highest thread's write to a repeated index stays, as in the scalar
  /// scatter. Returns false, having written nothing, when some active index is out of bounds:
  /// the scalar scatter then counts and drops those writes.
  bool StoreInBounds(E* base, const E* values, const Mask<N>& mask) const {
    const hn::ScalableTag<uint32_t> du;
    constexpr int LU = int(hn::MaxLanes(du));
    // Like StoreCompressed, only for vectors of 8 or more lanes: the targets these fast paths
    // are built and tested on (AVX2, AVX-512); others take the scalar scatter.
    if constexpr (LU % 8 != 0) {
      return false;
    } else {
      auto out_of_bounds = hn::FirstN(du, 0);
      const auto count = hn::Set(du, uint32_t(binding_.count));  // count <= UINT32_MAX
      for (int i = 0; i < Uint<N>::kPadded; i += LU)
        out_of_bounds = hn::Or(out_of_bounds,
                               hn::And(MaskOfBits(du, mask.Bits64(i, 64)),
                                       hn::Not(hn::Lt(hn::Load(du, index_.data() + i), count))));
      if (!hn::AllFalse(du, out_of_bounds)) return false;
      const IndexCopy indices = Indices();
      mask.ForEach([&](int t) { base[indices.lane[t]] = values[t]; });
      return true;
    }
  }

  /// Whether whole-group contiguous stores through `m` stream past the cache
  /// (streaming_stores.h): device memory, in a binding of at least StreamingStoreMinBytes(),
  /// inside a dispatch (whose chunks end with the fence; a host-side store has none).
  static bool StreamsWrites(const MemoryBinding& m) {
    return m.space == MemorySpace::kDevice &&
           m.count * m.stride >= detail::streaming_store_min_bytes && GroupBase::Current();
  }

  /// An index copied into a local array, for the paths that read it at run-time offsets. Such a
  /// read of the index itself makes the compiler keep it (and the caller's named index,
  /// `ParticleID`) in memory as well as in registers: vector stores on every path, the fast ones
  /// included, that nothing reads.
  struct IndexCopy {
    alignas(64) uint32_t lane[Uint<N>::kPadded];
  };
  static IndexCopy CopyOfIndex(const Uint<N>& index) {
    IndexCopy c;
    detail::CopyBytes<sizeof(c.lane)>(c.lane, index.data());
    return c;
  }
  IndexCopy Indices() const { return CopyOfIndex(index_); }

  MemoryBinding binding_;
  Uint<N> index_;
};

// ------------------------------------------------------------------------------------------------
// UniformRef: RW[i] with a uniform index.

/// One element, the same for every thread. Reading gives a uniform value. Writing a uniform
/// value stores it once; writing a per-thread value stores the value of the last active thread
/// in thread order (each active thread writes, in ascending order, so the highest one stays).
/// An out-of-bounds access counts once per statement (the index is the same for every thread).
template <class E>
class UniformRef : public detail::UniformOpsFor<UniformRef<E>, E> {
  static_assert(kIsElementType<E>, "buffer elements must be trivially copyable plain data");

 public:
  using element_type = E;

  UniformRef(const MemoryBinding& binding, uint32_t index) : binding_(binding), index_(index) {}
  UniformRef(const UniformRef&) = default;

  E Load() const {
    E e{};
    if (binding_.InBounds(index_)) std::memcpy(&e, binding_.Address(index_), sizeof(E));
    else detail::RecordUniformOutOfBounds(binding_, AccessKind::kRead, index_);
    return e;
  }
  operator E() const { return Load(); }  // NOLINT: reads like an HLSL lvalue

  void Store(const E& e) const {
    const int t = detail::UniformAccessThread(true);
    if (t < 0) return;
    if (binding_.InBounds(index_)) std::memcpy(binding_.Address(index_), &e, sizeof(E));
    else detail::RecordOutOfBounds(binding_, AccessKind::kWrite, 1, t, index_);
  }
  /// Per-thread value: the last active thread in thread order wins.
  template <int N>
  void Store(const PerThreadOf<E, N>& v) const {
    const Mask<N> active = CurrentWriteMask<N>();
    int last = -1;
    active.ForEach([&](int t) { last = t; });
    if (last < 0) return;
    if (binding_.InBounds(index_)) {
      const E e = GetLane<E, N>(v, last);
      std::memcpy(binding_.Address(index_), &e, sizeof(E));
    } else {
      detail::RecordOutOfBounds(binding_, AccessKind::kWrite, 1, last, index_);
    }
  }

  UniformRef& operator=(const UniformRef& other) {
    Store(other.Load());
    return *this;
  }
  template <class S>
    requires(std::is_arithmetic_v<S> && kIsLaneType<E>)
  UniformRef& operator=(S s) {
    Store(Lanes<E, 1>(s).lane(0));  // HLSL conversion rules
    return *this;
  }
  UniformRef& operator=(const E& e)
    requires(!kIsLaneType<E>)
  {
    Store(e);
    return *this;
  }
  template <class U, int N>
  UniformRef& operator=(const Lanes<U, N>& v) {
    Store<N>(detail::AsPerThread<PerThreadOf<E, N>>(v));
    return *this;
  }
  template <class T, int C, int N>
  UniformRef& operator=(const Vector<T, C, N>& v) {
    Store<N>(v);
    return *this;
  }
  template <class S, int N>
  UniformRef& operator=(const PerThread<S, N>& v) {
    Store<N>(v);
    return *this;
  }
  template <class M, int N>
  UniformRef& operator=(const ElementRef<M, N>& v) {
    return *this = v.Load();
  }

  template <class V> UniformRef& operator+=(const V& v) { return *this = Load() + v; }
  template <class V> UniformRef& operator-=(const V& v) { return *this = Load() - v; }
  template <class V> UniformRef& operator*=(const V& v) { return *this = Load() * v; }
  template <class V> UniformRef& operator|=(const V& v) { return *this = Load() | v; }
  template <class V> UniformRef& operator&=(const V& v) { return *this = Load() & v; }
  template <class V> UniformRef& operator^=(const V& v) { return *this = Load() ^ v; }

  template <class M, class S = E>
    requires std::is_class_v<S>
  UniformRef<M> field(M S::*member) const {
    MemoryBinding b = binding_;
    b.offset += MemberOffset(member);
    return UniformRef<M>(b, index_);
  }
  /// One component of a vector element at a uniform index k: gs[0][5] = x (see ElementRef).
  template <std::integral I>
  auto operator[](I k) const
    requires(kVectorComponents<E> != 0)
  {
    MemoryBinding b = binding_;
    b.offset += detail::ComponentOffset<E>(k);
    return UniformRef<typename VectorElementTraits<E>::component_type>(b, index_);
  }
  /// One component per thread of the one element: gs[0][tid] = x.
  template <class I, int N>
  auto operator[](const Lanes<I, N>& k) const
    requires(kVectorComponents<E> != 0)
  {
    return ElementRef<typename VectorElementTraits<E>::component_type, N>(
        detail::ComponentView<E>(binding_),
        detail::ComponentIndex<E>(binding_, Uint<N>(index_), k));
  }

  /// The element's address, or nullptr when out of bounds.
  E* Target() const {
    return binding_.InBounds(index_) ? reinterpret_cast<E*>(binding_.Address(index_)) : nullptr;
  }
  const MemoryBinding& binding() const { return binding_; }
  uint32_t index() const { return index_; }

 private:
  MemoryBinding binding_;
  uint32_t index_;
};

}  // namespace waveemu
