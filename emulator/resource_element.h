// resource_element.h -- how one buffer or groupshared element maps to per-thread values.
//
// A scalar element T reads as Lanes<T, N>; a vector element (a plain struct {T x, y[, z[, w]]},
// such as uint3 or float4, or a UniformLongVector<T, C>) reads as Vector<T, C, N>; any other
// trivially copyable struct S reads as PerThread<S, N>: N copies of S, one per thread, with
// .field(&S::member) for one member (on a variable, a reference that writes through).
#pragma once

#include "emulator/lanes.h"
#include "emulator/vector.h"

#include <array>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace waveemu {

template <class E>
inline constexpr bool kIsElementType = std::is_trivially_copyable_v<E> && !std::is_pointer_v<E> &&
                                       !std::is_reference_v<E> && !std::is_same_v<E, bool>;

/// A vector element of 2 to 4 components: what typed buffers and textures hold (with scalars),
/// and what the word-gather paths take. Long vectors (SM 6.9) live only in structured and raw
/// buffers and groupshared memory.
template <class E>
inline constexpr bool kIsShortVector = kVectorComponents<E> >= 2 && kVectorComponents<E> <= 4;

/// A per-thread copy of a struct element: thread t's value is lane(t). Assignment is masked by
/// the current execution mask, like Lanes.
template <class S, int N>
class PerThread {
 public:
  using value_type = S;
  static constexpr int kSize = N;

  PerThread() = default;
  explicit PerThread(const S& s) { v_.fill(s); }
  PerThread(const PerThread&) = default;
  PerThread& operator=(const PerThread& other) {
    CurrentMask<N>().ForEach([&](int t) { v_[t] = other.v_[t]; });
    return *this;
  }

  S& lane(int t) { return v_[t]; }
  const S& lane(int t) const { return v_[t]; }
  void set_lane(int t, const S& s) { v_[t] = s; }

  /// One member on every thread: p.field(&Particle::position). On a variable it is also an
  /// assignment target that writes through, masked: p.field(&Particle::age) += 1.0f.
  template <class M>
  auto field(M S::*member) const;
  template <class M>
  auto field(M S::*member);
  /// Masked write of one member: p.set_field(&Particle::age, age).
  template <class M, class V>
  void set_field(M S::*member, const V& value);

 private:
  std::array<S, N> v_{};
};

namespace detail {

template <class E, int N>
auto PerThreadTypeOf() {
  if constexpr (kIsLaneType<E>) return Lanes<E, N>{};
  else if constexpr (kVectorComponents<E> != 0)
    return Vector<typename VectorElementTraits<E>::component_type, kVectorComponents<E>, N>{};
  else return PerThread<E, N>{};
}

}  // namespace detail

/// The per-thread type an element E reads as: Lanes<T, N>, Vector<T, C, N> or PerThread<S, N>.
template <class E, int N>
using PerThreadOf = decltype(detail::PerThreadTypeOf<E, N>());

/// Thread t's element of a per-thread value.
template <class E, int N>
E GetLane(const PerThreadOf<E, N>& v, int t) {
  if constexpr (kIsLaneType<E>) {
    return v.lane(t);
  } else if constexpr (kVectorComponents<E> != 0) {
    E e;
    for (int i = 0; i < kVectorComponents<E>; ++i) detail::UniformComponentAt(e, i) = v[i].lane(t);
    return e;
  } else {
    return v.lane(t);
  }
}

/// Sets thread t's element of a per-thread value (unmasked).
template <class E, int N>
void SetLane(PerThreadOf<E, N>& v, int t, const E& e) {
  if constexpr (kIsLaneType<E>) {
    v.set_lane(t, e);
  } else if constexpr (kVectorComponents<E> != 0) {
    for (int i = 0; i < kVectorComponents<E>; ++i)
      v[i].set_lane(t, detail::UniformComponentAt(e, i));
  } else {
    v.set_lane(t, e);
  }
}

namespace detail {

/// How many 32-bit lanes an element E reads as, when its per-thread value is made of them: 1 for
/// a 4-byte scalar, C for a vector of 2 to 4 4-byte components; 0 for anything else (long
/// vectors take the element-by-element path).
template <class E>
constexpr int WordComponents() {
  if constexpr (kIsSimdType<E>) return sizeof(E) == 4 ? 1 : 0;
  else if constexpr (kIsShortVector<E>)
    return sizeof(typename VectorElementTraits<E>::component_type) == 4 ? kVectorComponents<E> : 0;
  else return 0;
}

/// Component c of a per-thread value: the Lanes itself for a scalar element.
template <int c, class P>
auto& ComponentLanes(P& v) {
  if constexpr (requires { P::kComponents; }) return v[c];
  else return v;
}

}  // namespace detail

/// Byte offset of a member inside S (S must be default-constructible; elements are plain data).
template <class S, class M>
size_t MemberOffset(M S::*member) {
  static const S probe{};
  return size_t(reinterpret_cast<const unsigned char*>(&(probe.*member)) -
                reinterpret_cast<const unsigned char*>(&probe));
}

template <class S, int N>
template <class M>
auto PerThread<S, N>::field(M S::*member) const {
  PerThreadOf<M, N> r{};
  for (int t = 0; t < N; ++t) SetLane<M, N>(r, t, v_[t].*member);
  return r;
}

template <class S, int N>
template <class M, class V>
void PerThread<S, N>::set_field(M S::*member, const V& value) {
  const PerThreadOf<M, N> converted(value);
  CurrentMask<N>().ForEach([&](int t) { v_[t].*member = GetLane<M, N>(converted, t); });
}

namespace detail {

/// p.field(&S::m) on a PerThread variable: a copy of the member on every thread (so it reads and
/// computes like the PerThreadOf<M, N> it derives from, and wave ops take it) that also writes
/// back into p, masked, when assigned to. `auto a = p.field(...)` is this reference too; for
/// HLSL's copy, spell the type (Float<N> a = p.field(...)).
template <class S, class M, int N>
class PerThreadFieldRef : public PerThreadOf<M, N> {
  using Base = PerThreadOf<M, N>;

 public:
  PerThreadFieldRef(PerThread<S, N>& target, M S::*member)
      : Base(std::as_const(target).field(member)), target_(&target), member_(member) {}
  PerThreadFieldRef(const PerThreadFieldRef&) = default;

  PerThreadFieldRef& operator=(const Base& value) {
    target_->set_field(member_, value);
    static_cast<Base&>(*this) = value;  // masked, like the write above
    return *this;
  }
  PerThreadFieldRef& operator=(const PerThreadFieldRef& other) {
    return *this = static_cast<const Base&>(other);
  }
  /// A scalar, a uniform vector, or another type that converts (HLSL converts on assignment).
  template <class V>
    requires(!std::is_base_of_v<Base, V> && std::is_constructible_v<Base, const V&>)
  PerThreadFieldRef& operator=(const V& value) {
    return *this = Base(value);
  }

  // The mutating operators of Lanes and Vector, redone so that they write through (the inherited
  // ones would change only this copy).
  WAVEEMU_COMPOUND_ASSIGNMENTS(PerThreadFieldRef, value())
  WAVEEMU_WRITE_THROUGH_INCREMENTS(PerThreadFieldRef, Base)

 private:
  const Base& value() const { return *this; }
  PerThread<S, N>* target_;
  M S::*member_;
};

}  // namespace detail

template <class S, int N>
template <class M>
auto PerThread<S, N>::field(M S::*member) {
  return detail::PerThreadFieldRef<S, M, N>(*this, member);
}

}  // namespace waveemu
