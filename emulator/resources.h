// resources.h -- Buffer, RWBuffer, StructuredBuffer, RWStructuredBuffer, ByteAddressBuffer,
// RWByteAddressBuffer over host memory.
//
// A resource binds host memory like a descriptor: no copy, pointer semantics, so a kernel struct
// that is const in Dispatch still writes through its RW members. Per-thread indices gather and
// scatter for active threads only; out-of-bounds reads give 0 and out-of-bounds writes are dropped
// (D3D buffer views), and each is counted on the resource and on the dispatch.
//
// Element types: scalars read as Lanes<T, N>, vectors (uint3, float4, any struct {T x, y, z}) as
// Vector<T, C, N>, other structs as PerThread<S, N> (see resource_element.h).
#pragma once

#include "emulator/error.h"
#include "emulator/exec.h"
#include "emulator/lanes.h"
#include "emulator/resource_atomic.h"
#include "emulator/resource_element.h"
#include "emulator/resource_ref.h"
#include "emulator/vector.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

namespace waveemu {

namespace detail {

/// What every buffer kind shares: the bound memory, its element count and the out-of-bounds
/// counters (shared by copies of the resource, like a descriptor's view of one resource).
template <class E>
class BufferCore {
  static_assert(kIsElementType<E>,
                "buffer elements must be trivially copyable plain data (scalars, vectors such as "
                "uint3, or structs of them)");

 public:
  /// Out-of-bounds accesses through this binding so far (every dispatch and host use).
  uint64_t out_of_bounds_reads() const { return counters_->reads.load(); }
  uint64_t out_of_bounds_writes() const { return counters_->writes.load(); }
  uint64_t out_of_bounds_atomics() const { return counters_->atomics.load(); }
  /// Whether memory is bound (an unbound resource reads 0 and drops writes, like a null view).
  bool bound() const { return base_ != nullptr; }
  uint64_t size() const { return count_; }

 protected:
  BufferCore(const char* kind) : kind_(kind) {}
  BufferCore(const char* kind, const E* data, size_t count)
      : base_(reinterpret_cast<std::byte*>(const_cast<E*>(data))), count_(count), kind_(kind) {
    if (count > uint64_t(UINT32_MAX))
      throw UsageError(fmt::format("{}: {} elements do not fit HLSL's 32-bit indices", kind,
                                   count));
  }

  MemoryBinding Binding() const {
    return MemoryBinding{base_, count_, sizeof(E), 0, MemorySpace::kDevice, counters_.get(),
                         kind_};
  }

  /// Masked gather of a whole element per active thread.
  template <class I, int N>
  PerThreadOf<E, N> Gather(const Lanes<I, N>& index) const {
    return ElementRef<E, N>::Gather(Binding(), ToIndex(index));
  }
  E ReadUniform(uint32_t index) const { return UniformRef<E>(Binding(), index).Load(); }

  std::byte* base_ = nullptr;
  uint64_t count_ = 0;
  std::shared_ptr<AccessCounters> counters_ = std::make_shared<AccessCounters>();
  const char* kind_;
};

template <class E>
constexpr void CheckTypedElement() {
  static_assert(kIsLaneType<E> || kIsShortVector<E>,
                "Buffer<T>/RWBuffer<T> hold scalars or vectors of up to 4 components; use "
                "StructuredBuffer<S> for structs and long vectors");
}

}  // namespace detail

// ------------------------------ read-only: Buffer, StructuredBuffer

/// Read-only view: buf[i] with a per-thread index is a masked gather, with a uniform index the
/// element itself.
template <class E>
class ReadOnlyBuffer : public detail::BufferCore<E> {
 public:
  using element_type = E;

  template <class I, int N>
  PerThreadOf<E, N> operator[](const Lanes<I, N>& index) const {
    return this->Gather(index);
  }
  E operator[](uint32_t index) const { return this->ReadUniform(index); }
  /// HLSL's Load(index): the same as operator[].
  template <class I, int N>
  PerThreadOf<E, N> Load(const Lanes<I, N>& index) const {
    return this->Gather(index);
  }
  E Load(uint32_t index) const { return this->ReadUniform(index); }

 protected:
  using detail::BufferCore<E>::BufferCore;
};

/// Writable view: buf[i] is a reference that reads, writes and takes Interlocked*.
template <class E>
class ReadWriteBuffer : public detail::BufferCore<E> {
 public:
  using element_type = E;

  template <class I, int N>
  ElementRef<E, N> operator[](const Lanes<I, N>& index) const {
    return ElementRef<E, N>(this->Binding(), detail::ToIndex(index));
  }
  UniformRef<E> operator[](uint32_t index) const { return UniformRef<E>(this->Binding(), index); }
  template <class I, int N>
  PerThreadOf<E, N> Load(const Lanes<I, N>& index) const {
    return this->Gather(index);
  }
  E Load(uint32_t index) const { return this->ReadUniform(index); }

 protected:
  using detail::BufferCore<E>::BufferCore;
};

// ------------------------------ Buffer<T>

/// HLSL Buffer<T> (typed SRV): scalars or vectors.
template <class T>
class Buffer : public ReadOnlyBuffer<T> {
 public:
  Buffer() : ReadOnlyBuffer<T>("Buffer") { detail::CheckTypedElement<T>(); }
  explicit Buffer(std::span<const T> data)
      : ReadOnlyBuffer<T>("Buffer", data.data(), data.size()) {
    detail::CheckTypedElement<T>();
  }
  /// Number of elements.
  void GetDimensions(uint32_t& dim) const { dim = uint32_t(this->count_); }
};

/// HLSL RWBuffer<T> (typed UAV).
template <class T>
class RWBuffer : public ReadWriteBuffer<T> {
 public:
  RWBuffer() : ReadWriteBuffer<T>("RWBuffer") { detail::CheckTypedElement<T>(); }
  explicit RWBuffer(std::span<T> data)
      : ReadWriteBuffer<T>("RWBuffer", data.data(), data.size()) {
    detail::CheckTypedElement<T>();
  }
  void GetDimensions(uint32_t& dim) const { dim = uint32_t(this->count_); }
};

// ------------------------------ StructuredBuffer<T>

/// HLSL StructuredBuffer<T> (structured SRV): scalars, vectors or structs.
template <class T>
class StructuredBuffer : public ReadOnlyBuffer<T> {
 public:
  StructuredBuffer() : ReadOnlyBuffer<T>("StructuredBuffer") {}
  explicit StructuredBuffer(std::span<const T> data)
      : ReadOnlyBuffer<T>("StructuredBuffer", data.data(), data.size()) {}
  /// Number of elements and the element size in bytes (the host struct's sizeof).
  void GetDimensions(uint32_t& numStructs, uint32_t& stride) const {
    numStructs = uint32_t(this->count_);
    stride = uint32_t(sizeof(T));
  }
};

/// HLSL RWStructuredBuffer<T> (structured UAV).
template <class T>
class RWStructuredBuffer : public ReadWriteBuffer<T> {
 public:
  RWStructuredBuffer() : ReadWriteBuffer<T>("RWStructuredBuffer") {}
  explicit RWStructuredBuffer(std::span<T> data)
      : ReadWriteBuffer<T>("RWStructuredBuffer", data.data(), data.size()) {}
  void GetDimensions(uint32_t& numStructs, uint32_t& stride) const {
    numStructs = uint32_t(this->count_);
    stride = uint32_t(sizeof(T));
  }
};

// ------------------------------------------------------------------------------------------------
// ByteAddressBuffer, RWByteAddressBuffer

namespace detail {

/// Alignment a raw-buffer access of E needs: the size of its largest scalar (DXC's templated
/// Load<T>/Store: 2 for 16-bit types, 4, 8 for 64-bit ones); Load/Store/Load2-4 of words use 4.
template <class E>
constexpr uint32_t RawAlignment() {
  if constexpr (kIsLaneType<E>) return uint32_t(sizeof(E));
  else if constexpr (kVectorComponents<E> != 0)
    return RawAlignment<typename VectorElementTraits<E>::component_type>();
  else return alignof(E) < 8 ? uint32_t(alignof(E)) : 8u;  // a struct: its largest member
}

/// The T that DXC deduces for Store(address, value) without <T> (its one templated Store): the
/// value's own element type, so a float stores its bits and an int16_t two bytes; a bool stores
/// as a 32-bit uint, as bools are stored in buffers.
template <class V>
constexpr auto StoredTypeTag() {
  using D = std::remove_cvref_t<V>;
  if constexpr (requires { typename D::element_type; }) {  // a buffer or groupshared reference
    return StoredTypeTag<typename D::element_type>();
  } else if constexpr (std::is_same_v<D, bool> || requires(const D& d) { d.mask(); }) {
    return std::type_identity<uint32_t>{};  // bool, Bool<N>
  } else if constexpr (requires { D::kComponents; }) {  // Vector<T, C, N>
    using T = std::conditional_t<std::is_same_v<typename D::value_type, bool>, uint32_t,
                                 typename D::value_type>;
    return std::type_identity<UniformVector<T, D::kComponents>>{};
  } else if constexpr (requires { typename D::value_type; }) {  // Lanes<T, N>, PerThread<S, N>
    return std::type_identity<typename D::value_type>{};
  } else if constexpr (std::is_arithmetic_v<D>) {
    // The HLSL scalar the C++ one stands for: itself, or for a type HLSL lacks (1ull is
    // unsigned long long, not uint64_t) the one of the same size and signedness.
    static_assert(!std::is_void_v<HlslScalarOf<D>>,
                  "RWByteAddressBuffer::Store: HLSL has no scalar of this type (8-bit, long "
                  "double); convert the value, e.g. uint32_t(x), or name the type: Store<T>(a, x)");
    return std::type_identity<HlslScalarOf<D>>{};
  } else {
    return std::type_identity<D>{};  // half, a uniform vector or a struct
  }
}
template <class V>
using StoredType = typename decltype(StoredTypeTag<V>())::type;

/// The byte memory of a raw buffer: `bytes` bytes from `base`, a multiple of 4.
class RawCore {
 public:
  uint64_t out_of_bounds_reads() const { return counters_->reads.load(); }
  uint64_t out_of_bounds_writes() const { return counters_->writes.load(); }
  uint64_t out_of_bounds_atomics() const { return counters_->atomics.load(); }
  bool bound() const { return base_ != nullptr; }
  /// Size in bytes.
  void GetDimensions(uint32_t& dim) const { dim = uint32_t(bytes_); }

  // ------------------------------ Load, Load2, Load3, Load4, Load<T>
  /// Load(address): the 32-bit word at a byte address; Load<T>(address) (SM 6.2): sizeof(T)
  /// bytes as a T. A per-thread address gives a per-thread value.
  template <class T = uint32_t, class I, int N>
  PerThreadOf<T, N> Load(const Lanes<I, N>& address) const {
    return LoadAs<T>(address);
  }
  template <class I, int N>
  Uint2<N> Load2(const Lanes<I, N>& address) const {
    return LoadAs<Words<2>>(address);
  }
  template <class I, int N>
  Uint3<N> Load3(const Lanes<I, N>& address) const {
    return LoadAs<Words<3>>(address);
  }
  template <class I, int N>
  Uint4<N> Load4(const Lanes<I, N>& address) const {
    return LoadAs<Words<4>>(address);
  }
  /// Uniform address: the value itself.
  template <class T = uint32_t>
  T Load(uint32_t address) const {
    return LoadUniform<T>(address);
  }
  uint2 Load2(uint32_t address) const { return LoadUniform<uint2>(address); }
  uint3 Load3(uint32_t address) const { return LoadUniform<uint3>(address); }
  uint4 Load4(uint32_t address) const { return LoadUniform<uint4>(address); }

 protected:
  template <int C>
  struct Words {};  // tag: C consecutive 32-bit words (Load2..Load4)

  RawCore(const char* kind) : kind_(kind) {}
  RawCore(const char* kind, std::byte* data, size_t bytes) : base_(data), bytes_(bytes), kind_(kind) {
    if (bytes % 4 != 0)
      throw UsageError(fmt::format("{}: the size must be a multiple of 4 bytes (got {}); raw "
                                   "buffers are arrays of 32-bit words",
                                   kind, bytes));
    if (reinterpret_cast<uintptr_t>(data) % 4 != 0)
      throw UsageError(fmt::format("{}: the memory must be 4-byte aligned", kind));
    if (bytes > uint64_t(UINT32_MAX))
      throw UsageError(fmt::format("{}: {} bytes do not fit HLSL's 32-bit addresses", kind, bytes));
  }

  MemoryBinding Binding(uint64_t element_size) const {
    return MemoryBinding{base_, bytes_ / element_size, element_size, 0, MemorySpace::kDevice,
                         counters_.get(), kind_};
  }

  /// The address rounded down to `align`; a misaligned address is undefined in D3D (HLSL:
  /// "must be a multiple of 4"), hardware ignores the low bits, and profiles that poison
  /// undefined points report it. `thread` < 0: a uniform address.
  uint32_t Align(uint32_t address, uint32_t align, int thread, bool& reported) const {
    const uint32_t a = address & ~(align - 1);
    if (a != address && !reported) {
      reported = true;
      if (GroupBase* g = GroupBase::Current(); g && g->profile().poison_undefined)
        g->Report(fmt::format("{}: address not a multiple of {} is undefined", kind_, align),
                  fmt::format("{}, {}, address {} (rounded down to {})", g->Where(),
                              thread < 0 ? std::string("uniform address")
                                         : fmt::format("thread {}", thread),
                              address, a));
    }
    return a;
  }
  uint32_t Align(uint32_t address, uint32_t align) const {
    bool reported = false;
    return Align(address, align, -1, reported);
  }

  /// Copies sizeof(E) bytes at `address` into e; bytes past the end read 0 (the buffer size is a
  /// multiple of 4, so this is D3D's per-32-bit-component rule). Returns false when any byte was
  /// out of bounds.
  template <class E>
  bool ReadBytes(uint64_t address, E& e) const {
    unsigned char tmp[sizeof(E)] = {};
    const uint64_t avail = address >= bytes_ ? 0 : bytes_ - address;
    const uint64_t n = avail < sizeof(E) ? avail : sizeof(E);
    if (n) std::memcpy(tmp, base_ + address, n);
    std::memcpy(&e, tmp, sizeof(E));
    return n == sizeof(E);
  }
  /// Writes the bytes of e that are in bounds; returns false when any was dropped.
  template <class E>
  bool WriteBytes(uint64_t address, const E& e) const {
    const uint64_t avail = address >= bytes_ ? 0 : bytes_ - address;
    const uint64_t n = avail < sizeof(E) ? avail : sizeof(E);
    if (n) std::memcpy(base_ + address, &e, n);
    return n == sizeof(E);
  }

  template <class E, class I, int N>
  auto LoadAs(const Lanes<I, N>& address) const {
    const Uint<N> addr = ToIndex(address);
    using Out = std::conditional_t<std::is_same_v<E, Words<2>>, Uint2<N>,
                std::conditional_t<std::is_same_v<E, Words<3>>, Uint3<N>,
                std::conditional_t<std::is_same_v<E, Words<4>>, Uint4<N>, PerThreadOf<E, N>>>>;
    constexpr int kWords = std::is_same_v<E, Words<2>> ? 2 : std::is_same_v<E, Words<3>> ? 3
                           : std::is_same_v<E, Words<4>> ? 4 : 0;
    constexpr uint32_t kAlign = kWords ? 4u : RawAlignment<E>();
    Out r{};
    uint64_t oob = 0;
    int first = -1;
    bool reported = false;
    CurrentMask<N>().ForEach([&](int t) {
      const uint32_t a = Align(addr.lane(t), kAlign, t, reported);
      bool ok;
      if constexpr (kWords) {
        std::array<uint32_t, kWords> w{};
        ok = ReadBytes(a, w);
        for (int c = 0; c < kWords; ++c) r[c].set_lane(t, w[c]);
      } else {
        E e;
        ok = ReadBytes(a, e);
        SetLane<E, N>(r, t, e);
      }
      if (!ok && oob++ == 0) first = t;
    });
    if (oob)
      RecordOutOfBounds(Binding(1), AccessKind::kRead, oob, first, addr.lane(first));
    return r;
  }

  template <class E>
  E LoadUniform(uint32_t address) const {
    E e;
    if (!ReadBytes(Align(address, RawAlignment<E>()), e))
      RecordUniformOutOfBounds(Binding(1), AccessKind::kRead, address);
    return e;
  }

  std::byte* base_ = nullptr;
  uint64_t bytes_ = 0;
  std::shared_ptr<AccessCounters> counters_ = std::make_shared<AccessCounters>();
  const char* kind_;
};

}  // namespace detail

/// HLSL ByteAddressBuffer. Binds 32-bit words (std::span<const uint32_t>) or bytes
/// (std::span<const std::byte>, 4-byte aligned, a multiple of 4 long). Addresses are in bytes.
class ByteAddressBuffer : public detail::RawCore {
 public:
  ByteAddressBuffer() : RawCore("ByteAddressBuffer") {}
  explicit ByteAddressBuffer(std::span<const uint32_t> words)
      : RawCore("ByteAddressBuffer",
                reinterpret_cast<std::byte*>(const_cast<uint32_t*>(words.data())),
                words.size_bytes()) {}
  explicit ByteAddressBuffer(std::span<const std::byte> bytes)
      : RawCore("ByteAddressBuffer", const_cast<std::byte*>(bytes.data()), bytes.size()) {}
};

/// HLSL RWByteAddressBuffer: ByteAddressBuffer plus Store* and the Interlocked* methods
/// (atomics.h).
class RWByteAddressBuffer : public detail::RawCore {
 public:
  RWByteAddressBuffer() : RawCore("RWByteAddressBuffer") {}
  explicit RWByteAddressBuffer(std::span<uint32_t> words)
      : RawCore("RWByteAddressBuffer", reinterpret_cast<std::byte*>(words.data()),
                words.size_bytes()) {}
  explicit RWByteAddressBuffer(std::span<std::byte> bytes)
      : RawCore("RWByteAddressBuffer", bytes.data(), bytes.size()) {}

  // ------------------------------ Store, Store2, Store3, Store4, Store<T>
  /// Store<T>(address, value) (SM 6.2): value as a T, sizeof(T) bytes. Without <T>, T is the
  /// value's own type, as DXC deduces it: Store(a, 1.5f) stores float bits, Store(a, Int16<N>)
  /// two bytes, a bool a 32-bit 0 or 1; a uint value is HLSL's classic Store(uint, uint). Address
  /// and value may each be per-thread or uniform; with a uniform address and a per-thread value
  /// the last active thread's value stays.
  template <class T = void, class A, class V>
  void Store(const A& address, const V& value) const {
    StoreAny<std::conditional_t<std::is_void_v<T>, detail::StoredType<V>, T>>(address, value);
  }
  template <class A, class V>
  void Store2(const A& address, const V& value) const {
    StoreAny<uint2>(address, value);
  }
  template <class A, class V>
  void Store3(const A& address, const V& value) const {
    StoreAny<uint3>(address, value);
  }
  template <class A, class V>
  void Store4(const A& address, const V& value) const {
    StoreAny<uint4>(address, value);
  }

  // ------------------------------ Interlocked* methods
  // buf.InterlockedAdd(address, value[, original_value]) on the 32-bit word at a byte address
  // (a multiple of 4); the ...64 forms (SM 6.6) on the 64-bit word at a multiple of 8. A signed
  // value makes Min/Max signed, as HLSL's int overloads do.
#define WAVEEMU_RAW_ATOMIC(NAME, OP, BITS)                                                     \
  template <int N = 0, class A, class V>                                                      \
  void NAME(const A& address, const V& value) const {                                         \
    detail::Interlocked<N>("RWByteAddressBuffer::" #NAME, OP, Word<BITS, V>(address), value,  \
                           detail::NoArg{}, detail::NoArg{});                                 \
  }                                                                                           \
  template <int N = 0, class A, class V, class O>                                             \
  void NAME(const A& address, const V& value, O&& original_value) const {                     \
    detail::Interlocked<N>("RWByteAddressBuffer::" #NAME, OP, Word<BITS, V>(address), value,  \
                           detail::NoArg{}, std::forward<O>(original_value));                 \
  }
  WAVEEMU_RAW_ATOMIC(InterlockedAdd, AtomicOp::kAdd, 32)
  WAVEEMU_RAW_ATOMIC(InterlockedMin, AtomicOp::kMin, 32)
  WAVEEMU_RAW_ATOMIC(InterlockedMax, AtomicOp::kMax, 32)
  WAVEEMU_RAW_ATOMIC(InterlockedAnd, AtomicOp::kAnd, 32)
  WAVEEMU_RAW_ATOMIC(InterlockedOr, AtomicOp::kOr, 32)
  WAVEEMU_RAW_ATOMIC(InterlockedXor, AtomicOp::kXor, 32)
  WAVEEMU_RAW_ATOMIC(InterlockedExchange, AtomicOp::kExchange, 32)
  WAVEEMU_RAW_ATOMIC(InterlockedAdd64, AtomicOp::kAdd, 64)
  WAVEEMU_RAW_ATOMIC(InterlockedMin64, AtomicOp::kMin, 64)
  WAVEEMU_RAW_ATOMIC(InterlockedMax64, AtomicOp::kMax, 64)
  WAVEEMU_RAW_ATOMIC(InterlockedAnd64, AtomicOp::kAnd, 64)
  WAVEEMU_RAW_ATOMIC(InterlockedOr64, AtomicOp::kOr, 64)
  WAVEEMU_RAW_ATOMIC(InterlockedXor64, AtomicOp::kXor, 64)
  WAVEEMU_RAW_ATOMIC(InterlockedExchange64, AtomicOp::kExchange, 64)
#undef WAVEEMU_RAW_ATOMIC
  template <int N = 0, class A, class C, class V, class O>
  void InterlockedCompareExchange(const A& address, const C& compare_value, const V& value,
                                  O&& original_value) const {
    detail::Interlocked<N>("RWByteAddressBuffer::InterlockedCompareExchange",
                           AtomicOp::kCompareExchange, Word<32, V>(address), value, compare_value,
                           std::forward<O>(original_value));
  }
  template <int N = 0, class A, class C, class V>
  void InterlockedCompareStore(const A& address, const C& compare_value, const V& value) const {
    detail::Interlocked<N>("RWByteAddressBuffer::InterlockedCompareStore",
                           AtomicOp::kCompareStore, Word<32, V>(address), value, compare_value,
                           detail::NoArg{});
  }
  template <int N = 0, class A, class C, class V, class O>
  void InterlockedCompareExchange64(const A& address, const C& compare_value, const V& value,
                                    O&& original_value) const {
    detail::Interlocked<N>("RWByteAddressBuffer::InterlockedCompareExchange64",
                           AtomicOp::kCompareExchange, Word<64, V>(address), value, compare_value,
                           std::forward<O>(original_value));
  }
  template <int N = 0, class A, class C, class V>
  void InterlockedCompareStore64(const A& address, const C& compare_value, const V& value) const {
    detail::Interlocked<N>("RWByteAddressBuffer::InterlockedCompareStore64",
                           AtomicOp::kCompareStore, Word<64, V>(address), value, compare_value,
                           detail::NoArg{});
  }

  /// A reference to the 32-bit (or, with T = uint64_t/int64_t, 64-bit) word at a byte address,
  /// for the Interlocked* methods.
  template <class T, class I, int N>
  ElementRef<T, N> WordAt(const Lanes<I, N>& address) const {
    constexpr uint32_t kSize = sizeof(T);
    CheckAtomicAlignment(kSize);
    const Uint<N> addr = detail::ToIndex(address);
    Uint<N> index{NoInit{}};
    bool reported = false;
    for (int t = 0; t < N; ++t) {
      const uint32_t a = CurrentMask<N>().Test(t) ? Align(addr.lane(t), kSize, t, reported)
                                                  : addr.lane(t);
      index.set_lane(t, a / kSize);
    }
    return ElementRef<T, N>(Binding(kSize), index);
  }
  template <class T>
  UniformRef<T> WordAt(uint32_t address) const {
    constexpr uint32_t kSize = sizeof(T);
    CheckAtomicAlignment(kSize);
    return UniformRef<T>(Binding(kSize), Align(address, kSize) / kSize);
  }

 private:
  /// A 64-bit atomic is a std::atomic_ref<uint64_t>, which needs 8-byte aligned memory; a GPU
  /// buffer always is, a span of uint32_t need not be.
  void CheckAtomicAlignment(uint32_t size) const {
    if (base_ && reinterpret_cast<uintptr_t>(base_) % size != 0)
      throw UsageError(fmt::format("RWByteAddressBuffer: a {}-bit atomic needs the buffer's memory "
                                   "{}-byte aligned (GPU buffers are); this binding starts at an "
                                   "address that is not",
                                   8 * size, size));
  }

  /// The destination word of a raw atomic: signed when the value's type is signed.
  template <int Bits, class V>
  static constexpr auto WordTypeTag() {
    using S = std::remove_cvref_t<decltype(detail::ScalarOf<V>())>;
    constexpr bool kSigned = std::is_signed_v<S>;
    if constexpr (Bits == 32) return std::conditional_t<kSigned, int32_t, uint32_t>{};
    else return std::conditional_t<kSigned, int64_t, uint64_t>{};
  }
  template <int Bits, class V, class A>
  auto Word(const A& address) const {
    using T = decltype(WordTypeTag<Bits, V>());
    if constexpr (detail::IsLanes<A>::value) return WordAt<T>(address);
    else return WordAt<T>(uint32_t(address));
  }

  template <class E, class A, class V>
  void StoreAny(const A& address, const V& value) const {
    static_assert(std::is_integral_v<A> || detail::IsLanes<A>::value,
                  "RWByteAddressBuffer::Store: the address is a uint, per-thread (Uint<N>) or "
                  "uniform");
    constexpr int N = detail::PickThreads<0, A, V>();
    if constexpr (N == 0) {
      const int t = detail::UniformAccessThread(true);
      if (t < 0) return;
      const E e = [&] {
        if constexpr (detail::HasLoad<V>) return E(value.Load());
        else return E(value);
      }();
      if (!WriteBytes(Align(uint32_t(address), detail::RawAlignment<E>()), e))
        detail::RecordOutOfBounds(Binding(1), AccessKind::kWrite, 1, t, uint32_t(address));
    } else {
      static_assert(detail::SameThreads<N, A, V>(),
                    "RWByteAddressBuffer::Store: the address and the value have different thread "
                    "counts");
      const auto per_thread_value = detail::AsPerThread<PerThreadOf<E, N>>(value);
      if constexpr (detail::IsLanes<A>::value) StoreAs<E>(detail::ToIndex(address), per_thread_value);
      else StoreAs<E>(Uint<N>(uint32_t(address)), per_thread_value);
    }
  }

  template <class E, int N>
  void StoreAs(const Uint<N>& addr, const PerThreadOf<E, N>& value) const {
    uint64_t oob = 0;
    int first = -1;
    bool reported = false;
    CurrentWriteMask<N>().ForEach([&](int t) {
      const uint32_t a = Align(addr.lane(t), detail::RawAlignment<E>(), t, reported);
      if (!WriteBytes(a, GetLane<E, N>(value, t)) && oob++ == 0) first = t;
    });
    if (oob)
      detail::RecordOutOfBounds(Binding(1), AccessKind::kWrite, oob, first, addr.lane(first));
  }
};

}  // namespace waveemu
