// groupshared.h -- HLSL groupshared memory: GroupShared<T, Count> arrays and GroupShared<T>
// variables, declared as locals of a kernel's main() (main runs once per group, so a local is one
// group's memory; Dispatch refuses a kernel while a GroupShared made outside a group is alive).
//
// gs[i] with a per-thread index is an ElementRef (masked gather/scatter, Interlocked* target);
// with a uniform index a UniformRef. Out-of-bounds access is undefined in HLSL (a write makes all
// groupshared memory undefined): waveemu reads 0, drops the write and reports a diagnostic.
// Memory starts as the poison pattern (HLSL leaves it uninitialised): Poison<T>() per scalar or
// vector component; structs start zeroed. Reading it is not reported: that would take a
// written-or-not bit per element, kept on every access.
#pragma once

#include "emulator/exec.h"
#include "emulator/lanes.h"
#include "emulator/poison.h"
#include "emulator/resource_element.h"
#include "emulator/resource_ref.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace waveemu {

/// D3D12's limit on groupshared memory per thread group.
inline constexpr size_t kMaxGroupSharedBytes = 32768;

namespace detail {

/// Registers (alive) or forgets a GroupShared constructed outside any group (groupshared.cpp).
void TrackGroupSharedOutsideGroups(const void* at, size_t bytes, bool alive);

/// Dispatch's check before it runs a group: a UsageError when a GroupShared constructed outside
/// any group is alive, naming its place when it lies inside the kernel object (a member).
void CheckNoGroupSharedOutsideGroups(const void* kernel, size_t kernel_bytes);

/// Where a GroupShared was constructed. HLSL declares groupshared at file scope, so a port's
/// first draft makes it a kernel member: one object for every group, raced on by groups that
/// run at once. Outside a group (a kernel member, a global) the GroupShared registers itself and
/// Dispatch refuses to run; inside one (a local of main(), the hot path) this costs one
/// thread-local read.
class GroupSharedOrigin {
 public:
  GroupSharedOrigin(const void* owner, size_t bytes)
      : registered_(GroupBase::Current() == nullptr ? owner : nullptr) {
    if (registered_) TrackGroupSharedOutsideGroups(registered_, bytes, true);
  }
  ~GroupSharedOrigin() {
    if (registered_) TrackGroupSharedOutsideGroups(registered_, 0, false);
  }
  GroupSharedOrigin(const GroupSharedOrigin&) = delete;
  GroupSharedOrigin& operator=(const GroupSharedOrigin&) = delete;

 private:
  const void* registered_;
};

/// What a groupshared element holds before the kernel writes it: the poison pattern of its
/// type, component by component for a vector (uint3, float4, UniformLongVector). A struct is
/// zeroed: its members cannot be told apart without reflection, and a pattern in a bool member
/// would be undefined behaviour in C++.
template <class T>
T UninitialisedGroupShared() {
  if constexpr (kIsLaneType<T>) {
    return Poison<T>();
  } else if constexpr (kVectorComponents<T> != 0) {
    using C = typename VectorElementTraits<T>::component_type;
    T v{};
    for (int k = 0; k < kVectorComponents<T>; ++k) UniformComponentAt(v, k) = Poison<C>();
    return v;
  } else {
    return T{};
  }
}

}  // namespace detail

/// `groupshared T name[Count];` becomes `GroupShared<T, Count> name;` inside main().
/// `groupshared T name;` becomes `GroupShared<T> name;` (a single element that reads and writes
/// like a uniform-index reference, see below).
template <class T, int Count = 0>
class GroupShared {
  static_assert(kIsElementType<T>, "groupshared elements must be trivially copyable plain data");
  static_assert(Count > 0, "a groupshared array has at least one element");
  static_assert(sizeof(T) * size_t(Count) <= kMaxGroupSharedBytes,
                "groupshared memory is limited to 32 KB per group in D3D12; make the array "
                "smaller");

 public:
  using element_type = T;
  static constexpr int kCount = Count;

  GroupShared() { data_.fill(detail::UninitialisedGroupShared<T>()); }
  GroupShared(const GroupShared&) = delete;  // one group's memory, referenced by its threads
  GroupShared& operator=(const GroupShared&) = delete;

  template <class I, int N>
  ElementRef<T, N> operator[](const Lanes<I, N>& index) const {
    return ElementRef<T, N>(Binding(), detail::ToIndex(index));
  }
  UniformRef<T> operator[](uint32_t index) const { return UniformRef<T>(Binding(), index); }

  /// Out-of-bounds accesses so far (each also reported as a diagnostic inside a dispatch).
  uint64_t out_of_bounds_reads() const { return counters_.reads.load(); }
  uint64_t out_of_bounds_writes() const { return counters_.writes.load(); }
  uint64_t out_of_bounds_atomics() const { return counters_.atomics.load(); }

  /// Host-side view for tests.
  const T* data() const { return data_.data(); }
  T* data() { return data_.data(); }

 private:
  MemoryBinding Binding() const {
    return MemoryBinding{reinterpret_cast<std::byte*>(const_cast<T*>(data_.data())),
                         uint64_t(Count), sizeof(T), 0, MemorySpace::kGroupShared,
                         const_cast<AccessCounters*>(&counters_), "groupshared"};
  }

  std::array<T, Count> data_;
  AccessCounters counters_;
  detail::GroupSharedOrigin origin_{this, sizeof(*this)};
};

/// `groupshared uint GroupWriteStart;`: one element. Reads give the uniform value; assigning a
/// per-thread value stores the last active thread's (threads write in ascending order); it is a
/// valid Interlocked* destination and original_value.
template <class T>
class GroupShared<T, 0> : public UniformRef<T> {
  static_assert(kIsElementType<T>, "groupshared elements must be trivially copyable plain data");

 public:
  using element_type = T;

  GroupShared() : UniformRef<T>(BindingOf(&value_), 0) {}
  GroupShared(const GroupShared&) = delete;
  using UniformRef<T>::operator=;
  using UniformRef<T>::operator[];  // the components of a vector element: g[1]
  template <class I>
    requires(kVectorComponents<T> == 0)
  auto operator[](const I&) const {  // auto: the body, and its message, come first
    static_assert(kDependentFalse<I>,
                  "a GroupShared<T> is one element, used without [ ] (Total = 0u; "
                  "InterlockedAdd(Total, x)); for an array declare GroupShared<T, Count>");
    return static_cast<const UniformRef<T>&>(*this);
  }
  GroupShared& operator=(const GroupShared& other) {
    UniformRef<T>::operator=(other);
    return *this;
  }

 private:
  static MemoryBinding BindingOf(T* value) {
    return MemoryBinding{reinterpret_cast<std::byte*>(value), 1, sizeof(T), 0,
                         MemorySpace::kGroupShared, nullptr, "groupshared"};
  }
  T value_ = detail::UninitialisedGroupShared<T>();
  detail::GroupSharedOrigin origin_{this, sizeof(*this)};
};

}  // namespace waveemu
