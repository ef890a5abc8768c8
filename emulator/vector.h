// vector.h -- HLSL vectors of per-thread values: Uint3<N>, Float4<N>, Bool2<N>, ...
//
// Structure of arrays: a Float4<N> is four Float<N>, one per component, so every component
// operation stays a whole-group SIMD operation. Components are data members (v.x, v.y, v.z,
// v.w); HLSL's colour names and swizzles are member functions (v.rgb(), v.xy() = ...), because
// C++ has no computed members. Uniform vectors (the same on every thread) are plain uint3 etc.
// SM 6.9's long vectors (5 to 1024 components: HLSL vector<T, 8>) are Vector<T, 8, N> too; as in
// HLSL they have no member names or swizzles, only v[i] and slice<Offset, Count>(v).
#pragma once

#include "emulator/exec.h"
#include "emulator/lanes.h"

#include <array>
#include <concepts>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace waveemu {

// ------------------------------------------------------------------------------------------------
// Uniform vectors (UniformVector2/3/4 and uint3 live in exec.h).

using uint2 = UniformVector2<uint32_t>;
using uint4 = UniformVector4<uint32_t>;
using int2 = UniformVector2<int32_t>;
using int3 = UniformVector3<int32_t>;
using int4 = UniformVector4<int32_t>;
using float2 = UniformVector2<float>;
using float3 = UniformVector3<float>;
using float4 = UniformVector4<float>;

/// Longest HLSL vector (SM 6.9 long vectors have 5 to 1024 components).
inline constexpr int kMaxVectorComponents = 1024;

/// A uniform long vector, HLSL vector<T, C> with C from 5 to 1024 (SM 6.9): an element of a
/// StructuredBuffer, raw buffer or groupshared array. Components by index only, as in HLSL;
/// UniformLongVector<uint32_t, 5>{1, 2, 3, 4, 5} initialises all of them.
template <class T, int C>
struct UniformLongVector {
  static_assert(C >= 5 && C <= kMaxVectorComponents,
                "UniformLongVector has 5 to 1024 components; use uint2/float3/UniformVector4<T> "
                "(or UniformVector<T, C>) for 2 to 4");
  static_assert(kIsLaneType<T>, "UniformLongVector<T, C>: T is an HLSL numeric scalar (int16_t "
                                "to double); buffers store bools as uint32_t");
  T c[C] = {};
  template <std::integral I>
  constexpr T& operator[](I i) {
    CheckComponentIndex(i, C);
    return c[i];
  }
  template <std::integral I>
  constexpr const T& operator[](I i) const {
    CheckComponentIndex(i, C);
    return c[i];
  }
  friend constexpr bool operator==(const UniformLongVector&, const UniformLongVector&) = default;
};

namespace detail {
template <class T, int C>
constexpr auto UniformVectorTag() {
  static_assert(C >= 2 && C <= kMaxVectorComponents, "HLSL vectors have 2 to 1024 components");
  if constexpr (C == 2) return std::type_identity<UniformVector2<T>>{};
  else if constexpr (C == 3) return std::type_identity<UniformVector3<T>>{};
  else if constexpr (C == 4) return std::type_identity<UniformVector4<T>>{};
  else return std::type_identity<UniformLongVector<T, C>>{};
}
}  // namespace detail

/// HLSL's uniform vector<T, C>: UniformVector2/3/4<T>, or UniformLongVector<T, C> from 5 on.
template <class T, int C>
using UniformVector = typename decltype(detail::UniformVectorTag<T, C>())::type;

namespace detail {

template <class E>
struct LongVectorShape {
  static constexpr int kComponents = 0;
};
template <class T, int C>
struct LongVectorShape<UniformLongVector<T, C>> {
  using component_type = T;
  static constexpr int kComponents = C;
};

/// The components of a uniform vector E: C for a struct {T x, y[, z[, w]]} of one HLSL scalar
/// type with nothing else in it (uint3, float4, ...) or for UniformLongVector<T, C>; 0 for
/// anything else.
template <class E>
constexpr int UniformVectorComponents() {
  if constexpr (LongVectorShape<E>::kComponents != 0) {
    return LongVectorShape<E>::kComponents;
  } else if constexpr (!std::is_class_v<E> || !requires(const E& e) { e.x; e.y; }) {
    return 0;
  } else {
    using X = std::remove_cvref_t<decltype(std::declval<const E&>().x)>;
    using Y = std::remove_cvref_t<decltype(std::declval<const E&>().y)>;
    constexpr bool has_z = requires(const E& e) { e.z; };
    constexpr bool has_w = requires(const E& e) { e.w; };
    constexpr int count = has_w ? 4 : has_z ? 3 : 2;
    return kIsLaneType<X> && std::is_same_v<X, Y> && sizeof(E) == count * sizeof(X) ? count : 0;
  }
}

/// Component k of a uniform vector: x, y, z, w, or e[k] for a long one.
template <class E>
constexpr auto& UniformComponentAt(E& e, int k) {
  if constexpr (LongVectorShape<std::remove_const_t<E>>::kComponents != 0) return e[k];
  else return ShortVectorComponent(e, k);
}

}  // namespace detail

/// A struct {T x, y[, z[, w]]} with nothing else in it: HLSL's uniform vector types (uint3,
/// float4, ...), or a UniformLongVector<T, C>; 0 for anything else. Buffer elements of this
/// shape read as Vector<T, C, N>.
template <class E>
inline constexpr int kVectorComponents = detail::UniformVectorComponents<E>();
template <class E, int C>
inline constexpr bool kIsUniformVector = kVectorComponents<E> == C;

/// The component type of a uniform vector E (uint32_t for uint3).
template <class E>
struct VectorElementTraits {
  using component_type =
      std::remove_cvref_t<decltype(detail::UniformComponentAt(std::declval<E&>(), 0))>;
};

// ------------------------------------------------------------------------------------------------
// Per-thread vectors.

/// Per-thread component type: Lanes<T, N>, or Bool<N> for bool.
template <class T, int N>
using LanesOf = std::conditional_t<std::is_same_v<T, bool>, Bool<N>, Lanes<T, N>>;

/// Components of a long vector (5 to 1024): on the heap, so that a kernel's temporaries cost
/// little stack (a vector<float, 1024> of a 64-thread group is 256 KiB). Copies are deep;
/// assignment is masked component by component, as for the short vectors' members.
template <class T, int C, int N>
class VectorStorage {
 public:
  VectorStorage() : components_(std::make_unique<LanesOf<T, N>[]>(C)) {}
  VectorStorage(const VectorStorage& other) : VectorStorage() {
    for (int i = 0; i < C; ++i) components_[i].AssignMasked(other.components_[i], Mask<N>::All());
  }
  VectorStorage& operator=(const VectorStorage& other) {
    for (int i = 0; i < C; ++i) components_[i] = other.components_[i];  // masked
    return *this;
  }
  LanesOf<T, N>& component(int i) { return components_[i]; }
  const LanesOf<T, N>& component(int i) const { return components_[i]; }

 private:
  std::unique_ptr<LanesOf<T, N>[]> components_;
};
template <class T, int N>
struct VectorStorage<T, 2, N> {
  LanesOf<T, N> x, y;
};
template <class T, int N>
struct VectorStorage<T, 3, N> {
  LanesOf<T, N> x, y, z;
};
template <class T, int N>
struct VectorStorage<T, 4, N> {
  LanesOf<T, N> x, y, z, w;
};

template <class T, int C, int N>
struct Vector;
namespace detail {
template <class T, int C, int N, class I>
class ThreadComponentRef;
template <int C, class I, int N, class F>
void ForEachIndexedComponent(const Lanes<I, N>& k, F&& f);
}  // namespace detail
template <class T, int C, int N, int... I>
class SwizzleRef;

namespace detail {

/// Width of one argument of a concatenating constructor: float4(v.xyz(), 1) has parts 3 and 1.
template <class P>
constexpr int PartWidth() {
  if constexpr (requires { std::remove_cvref_t<P>::kComponents; })
    return std::remove_cvref_t<P>::kComponents;
  else return 1;
}
template <class P>
inline constexpr bool kIsVectorPart = requires { std::remove_cvref_t<P>::kComponents; };

/// Replaces a component without the execution mask: building a value is construction, and only
/// a later assignment to a variable is masked.
template <class L>
void SetUnmasked(L& dst, const L& src) {
  // A plain copy of all threads. (Destroying and placement-constructing the member instead made
  // GenerateMipsCS crash in a wild memcpy at -O3 with GCC 12, not under the sanitizers.)
  dst.AssignMasked(src, Mask<L::kSize>::All());
}

template <int C, int... I>
constexpr bool SwizzleFits() {
  return ((I < C) && ...);
}
template <int... I>
constexpr bool AllDistinct() {
  constexpr int idx[] = {I...};
  for (size_t a = 0; a < sizeof...(I); ++a)
    for (size_t b = a + 1; b < sizeof...(I); ++b)
      if (idx[a] == idx[b]) return false;
  return true;
}

}  // namespace detail

// Every swizzle name, for both spellings (xyzw, rgba): all of 2 and 3 components, and 4
// components that are a permutation or one component repeated (xxxx). Reading works on any of
// them; writing (v.zy() = ...) needs distinct components, as in HLSL.
#define WAVEEMU_SWIZZLE_ONE(NAME, ...)                                                \
  auto NAME() & requires(detail::SwizzleFits<C, __VA_ARGS__>()) {                     \
    return Swizzle<__VA_ARGS__>();                                                    \
  }                                                                                   \
  auto NAME() const& requires(detail::SwizzleFits<C, __VA_ARGS__>()) {                \
    return Swizzle<__VA_ARGS__>();                                                    \
  }
/// One swizzle in both spellings: WAVEEMU_SWIZZLE(xy, rg, 0, 1).
#define WAVEEMU_SWIZZLE(XYZW, RGBA, ...) \
  WAVEEMU_SWIZZLE_ONE(XYZW, __VA_ARGS__) \
  WAVEEMU_SWIZZLE_ONE(RGBA, __VA_ARGS__)

template <class T, int C, int N>
struct Vector : VectorStorage<T, C, N> {
  static_assert(C >= 2 && C <= kMaxVectorComponents,
                "HLSL vectors have 2 to 4 components, or 5 to 1024 (SM 6.9 long vectors)");
  static constexpr bool kLong = C > 4;
  using component_type = LanesOf<T, N>;
  using value_type = T;
  static constexpr int kComponents = C;
  static constexpr int kSize = N;

  Vector() = default;
  /// Broadcast of one per-thread value or scalar to every component (HLSL: (float3)s).
  Vector(const component_type& s) {  // NOLINT
    for (int i = 0; i < C; ++i) detail::SetUnmasked((*this)[i], s);
  }
  template <class S>
    requires kIsScalar<S>
  Vector(S s) : Vector(ScalarComponent(s)) {}  // NOLINT
  template <class... Cs>
    requires(!kLong && sizeof...(Cs) == C &&
             (std::is_convertible_v<const Cs&, component_type> && ...))
  Vector(const Cs&... cs)  // NOLINT: float3(a, b, c)
      : VectorStorage<T, C, N>{component_type(cs)...} {}
  template <class... Cs>
    requires(kLong && sizeof...(Cs) == C &&
             (std::is_convertible_v<const Cs&, component_type> && ...))
  Vector(const Cs&... cs) {  // NOLINT: vector<uint, 5>(1, 2, 3, 4, 5)
    int k = 0;
    (detail::SetUnmasked((*this)[k++], component_type(cs)), ...);
  }
  /// HLSL's concatenating constructors: float4(v.xyz(), 1.0f), float4(a.xy(), b.xy()).
  template <class... Parts>
    requires(sizeof...(Parts) >= 2 && (detail::PartWidth<Parts>() + ...) == C &&
             (detail::kIsVectorPart<Parts> || ...))
  Vector(const Parts&... parts) {  // NOLINT
    int k = 0;
    (Append(k, parts), ...);
  }
  /// A uniform vector broadcast to every thread: Float3<N> p = float3{1, 2, 3}.
  template <class E>
    requires kIsUniformVector<E, C>
  Vector(const E& e) {  // NOLINT
    for (int i = 0; i < C; ++i)
      detail::SetUnmasked((*this)[i], ScalarComponent(detail::UniformComponentAt(e, i)));
  }
  /// Per-component values, thread by thread (host code and tests).
  explicit Vector(const std::array<std::array<T, N>, C>& components) {
    for (int i = 0; i < C; ++i)
      for (int t = 0; t < N; ++t) (*this)[i].set_lane(t, components[i][t]);
  }
  /// HLSL cast between vector types, component by component with the scalar rules (D3D ftoi for
  /// float to int, or the device's FloatToInt for fp32; != 0 for bool); (float2)v4 keeps the
  /// first components, as HLSL truncates.
  template <class U, int C2>
    requires((!std::is_same_v<U, T> && C2 == C) || C2 > C)
  explicit Vector(const Vector<U, C2, N>& other) {
    for (int i = 0; i < C; ++i) {
      if constexpr (std::is_same_v<U, T>) detail::SetUnmasked((*this)[i], other[i]);
      else detail::SetUnmasked((*this)[i], component_type(other[i]));
    }
  }
  Vector(const Vector&) = default;
  Vector& operator=(const Vector&) = default;  // memberwise, so masked per component

  template <std::integral I>
  component_type& operator[](I i) {
    CheckComponentIndex(i, C);
    if constexpr (kLong) return this->component(i);
    else return this->*Members()[i];
  }
  template <std::integral I>
  const component_type& operator[](I i) const {
    CheckComponentIndex(i, C);
    if constexpr (kLong) return this->component(i);
    else return this->*Members()[i];
  }
  /// v[k] with a per-thread k (HLSL's v[tid % 4]): component k[t] on each thread t. Writing
  /// through it is masked like any assignment. An active thread's k past the last component
  /// throws KernelError.
  template <class I>
    requires std::is_integral_v<I>
  component_type operator[](const Lanes<I, N>& k) const {
    component_type r = (*this)[0];  // inactive threads keep component 0
    detail::ForEachIndexedComponent<C>(
        k, [&](int i, const Mask<N>& m) { r.AssignMasked((*this)[i], m); });
    return r;
  }
  template <class I>
    requires std::is_integral_v<I>
  detail::ThreadComponentRef<T, C, N, I> operator[](const Lanes<I, N>& k) {
    return detail::ThreadComponentRef<T, C, N, I>(*this, k);
  }

  /// The components of thread t.
  std::array<T, C> lane(int t) const {
    std::array<T, C> r;
    for (int i = 0; i < C; ++i) r[i] = (*this)[i].lane(t);
    return r;
  }

  // Colour names of single components; writes through them are masked like any assignment.
  component_type& r() requires(!kLong) { return this->x; }
  component_type& g() requires(!kLong) { return this->y; }
  component_type& b() requires(C == 3 || C == 4) { return this->z; }
  component_type& a() requires(C == 4) { return this->w; }
  const component_type& r() const requires(!kLong) { return this->x; }
  const component_type& g() const requires(!kLong) { return this->y; }
  const component_type& b() const requires(C == 3 || C == 4) { return this->z; }
  const component_type& a() const requires(C == 4) { return this->w; }

  /// v.Swizzle<2, 1>() is v.zy(). On a variable it can be assigned to (masked); note that
  /// `auto s = v.zy();` keeps writing into v -- spell the type to copy: Float2<N> s = v.zy().
  template <int... I>
  SwizzleRef<T, C, N, I...> Swizzle() & {
    CheckSwizzle<I...>();
    return SwizzleRef<T, C, N, I...>(*this);
  }
  template <int... I>
  Vector<T, int(sizeof...(I)), N> Swizzle() const& {
    CheckSwizzle<I...>();
    return Vector<T, int(sizeof...(I)), N>((*this)[I]...);
  }

  WAVEEMU_SWIZZLE(xx, rr, 0, 0)
  WAVEEMU_SWIZZLE(xy, rg, 0, 1)
  WAVEEMU_SWIZZLE(xz, rb, 0, 2)
  WAVEEMU_SWIZZLE(xw, ra, 0, 3)
  WAVEEMU_SWIZZLE(yx, gr, 1, 0)
  WAVEEMU_SWIZZLE(yy, gg, 1, 1)
  WAVEEMU_SWIZZLE(yz, gb, 1, 2)
  WAVEEMU_SWIZZLE(yw, ga, 1, 3)
  WAVEEMU_SWIZZLE(zx, br, 2, 0)
  WAVEEMU_SWIZZLE(zy, bg, 2, 1)
  WAVEEMU_SWIZZLE(zz, bb, 2, 2)
  WAVEEMU_SWIZZLE(zw, ba, 2, 3)
  WAVEEMU_SWIZZLE(wx, ar, 3, 0)
  WAVEEMU_SWIZZLE(wy, ag, 3, 1)
  WAVEEMU_SWIZZLE(wz, ab, 3, 2)
  WAVEEMU_SWIZZLE(ww, aa, 3, 3)
  WAVEEMU_SWIZZLE(xxx, rrr, 0, 0, 0)
  WAVEEMU_SWIZZLE(xxy, rrg, 0, 0, 1)
  WAVEEMU_SWIZZLE(xxz, rrb, 0, 0, 2)
  WAVEEMU_SWIZZLE(xxw, rra, 0, 0, 3)
  WAVEEMU_SWIZZLE(xyx, rgr, 0, 1, 0)
  WAVEEMU_SWIZZLE(xyy, rgg, 0, 1, 1)
  WAVEEMU_SWIZZLE(xyz, rgb, 0, 1, 2)
  WAVEEMU_SWIZZLE(xyw, rga, 0, 1, 3)
  WAVEEMU_SWIZZLE(xzx, rbr, 0, 2, 0)
  WAVEEMU_SWIZZLE(xzy, rbg, 0, 2, 1)
  WAVEEMU_SWIZZLE(xzz, rbb, 0, 2, 2)
  WAVEEMU_SWIZZLE(xzw, rba, 0, 2, 3)
  WAVEEMU_SWIZZLE(xwx, rar, 0, 3, 0)
  WAVEEMU_SWIZZLE(xwy, rag, 0, 3, 1)
  WAVEEMU_SWIZZLE(xwz, rab, 0, 3, 2)
  WAVEEMU_SWIZZLE(xww, raa, 0, 3, 3)
  WAVEEMU_SWIZZLE(yxx, grr, 1, 0, 0)
  WAVEEMU_SWIZZLE(yxy, grg, 1, 0, 1)
  WAVEEMU_SWIZZLE(yxz, grb, 1, 0, 2)
  WAVEEMU_SWIZZLE(yxw, gra, 1, 0, 3)
  WAVEEMU_SWIZZLE(yyx, ggr, 1, 1, 0)
  WAVEEMU_SWIZZLE(yyy, ggg, 1, 1, 1)
  WAVEEMU_SWIZZLE(yyz, ggb, 1, 1, 2)
  WAVEEMU_SWIZZLE(yyw, gga, 1, 1, 3)
  WAVEEMU_SWIZZLE(yzx, gbr, 1, 2, 0)
  WAVEEMU_SWIZZLE(yzy, gbg, 1, 2, 1)
  WAVEEMU_SWIZZLE(yzz, gbb, 1, 2, 2)
  WAVEEMU_SWIZZLE(yzw, gba, 1, 2, 3)
  WAVEEMU_SWIZZLE(ywx, gar, 1, 3, 0)
  WAVEEMU_SWIZZLE(ywy, gag, 1, 3, 1)
  WAVEEMU_SWIZZLE(ywz, gab, 1, 3, 2)
  WAVEEMU_SWIZZLE(yww, gaa, 1, 3, 3)
  WAVEEMU_SWIZZLE(zxx, brr, 2, 0, 0)
  WAVEEMU_SWIZZLE(zxy, brg, 2, 0, 1)
  WAVEEMU_SWIZZLE(zxz, brb, 2, 0, 2)
  WAVEEMU_SWIZZLE(zxw, bra, 2, 0, 3)
  WAVEEMU_SWIZZLE(zyx, bgr, 2, 1, 0)
  WAVEEMU_SWIZZLE(zyy, bgg, 2, 1, 1)
  WAVEEMU_SWIZZLE(zyz, bgb, 2, 1, 2)
  WAVEEMU_SWIZZLE(zyw, bga, 2, 1, 3)
  WAVEEMU_SWIZZLE(zzx, bbr, 2, 2, 0)
  WAVEEMU_SWIZZLE(zzy, bbg, 2, 2, 1)
  WAVEEMU_SWIZZLE(zzz, bbb, 2, 2, 2)
  WAVEEMU_SWIZZLE(zzw, bba, 2, 2, 3)
  WAVEEMU_SWIZZLE(zwx, bar, 2, 3, 0)
  WAVEEMU_SWIZZLE(zwy, bag, 2, 3, 1)
  WAVEEMU_SWIZZLE(zwz, bab, 2, 3, 2)
  WAVEEMU_SWIZZLE(zww, baa, 2, 3, 3)
  WAVEEMU_SWIZZLE(wxx, arr, 3, 0, 0)
  WAVEEMU_SWIZZLE(wxy, arg, 3, 0, 1)
  WAVEEMU_SWIZZLE(wxz, arb, 3, 0, 2)
  WAVEEMU_SWIZZLE(wxw, ara, 3, 0, 3)
  WAVEEMU_SWIZZLE(wyx, agr, 3, 1, 0)
  WAVEEMU_SWIZZLE(wyy, agg, 3, 1, 1)
  WAVEEMU_SWIZZLE(wyz, agb, 3, 1, 2)
  WAVEEMU_SWIZZLE(wyw, aga, 3, 1, 3)
  WAVEEMU_SWIZZLE(wzx, abr, 3, 2, 0)
  WAVEEMU_SWIZZLE(wzy, abg, 3, 2, 1)
  WAVEEMU_SWIZZLE(wzz, abb, 3, 2, 2)
  WAVEEMU_SWIZZLE(wzw, aba, 3, 2, 3)
  WAVEEMU_SWIZZLE(wwx, aar, 3, 3, 0)
  WAVEEMU_SWIZZLE(wwy, aag, 3, 3, 1)
  WAVEEMU_SWIZZLE(wwz, aab, 3, 3, 2)
  WAVEEMU_SWIZZLE(www, aaa, 3, 3, 3)
  WAVEEMU_SWIZZLE(xxxx, rrrr, 0, 0, 0, 0)
  WAVEEMU_SWIZZLE(xyzw, rgba, 0, 1, 2, 3)
  WAVEEMU_SWIZZLE(xywz, rgab, 0, 1, 3, 2)
  WAVEEMU_SWIZZLE(xzyw, rbga, 0, 2, 1, 3)
  WAVEEMU_SWIZZLE(xzwy, rbag, 0, 2, 3, 1)
  WAVEEMU_SWIZZLE(xwyz, ragb, 0, 3, 1, 2)
  WAVEEMU_SWIZZLE(xwzy, rabg, 0, 3, 2, 1)
  WAVEEMU_SWIZZLE(yxzw, grba, 1, 0, 2, 3)
  WAVEEMU_SWIZZLE(yxwz, grab, 1, 0, 3, 2)
  WAVEEMU_SWIZZLE(yyyy, gggg, 1, 1, 1, 1)
  WAVEEMU_SWIZZLE(yzxw, gbra, 1, 2, 0, 3)
  WAVEEMU_SWIZZLE(yzwx, gbar, 1, 2, 3, 0)
  WAVEEMU_SWIZZLE(ywxz, garb, 1, 3, 0, 2)
  WAVEEMU_SWIZZLE(ywzx, gabr, 1, 3, 2, 0)
  WAVEEMU_SWIZZLE(zxyw, brga, 2, 0, 1, 3)
  WAVEEMU_SWIZZLE(zxwy, brag, 2, 0, 3, 1)
  WAVEEMU_SWIZZLE(zyxw, bgra, 2, 1, 0, 3)
  WAVEEMU_SWIZZLE(zywx, bgar, 2, 1, 3, 0)
  WAVEEMU_SWIZZLE(zzzz, bbbb, 2, 2, 2, 2)
  WAVEEMU_SWIZZLE(zwxy, barg, 2, 3, 0, 1)
  WAVEEMU_SWIZZLE(zwyx, bagr, 2, 3, 1, 0)
  WAVEEMU_SWIZZLE(wxyz, argb, 3, 0, 1, 2)
  WAVEEMU_SWIZZLE(wxzy, arbg, 3, 0, 2, 1)
  WAVEEMU_SWIZZLE(wyxz, agrb, 3, 1, 0, 2)
  WAVEEMU_SWIZZLE(wyzx, agbr, 3, 1, 2, 0)
  WAVEEMU_SWIZZLE(wzxy, abrg, 3, 2, 0, 1)
  WAVEEMU_SWIZZLE(wzyx, abgr, 3, 2, 1, 0)
  WAVEEMU_SWIZZLE(wwww, aaaa, 3, 3, 3, 3)
  // Compound assignments are masked like plain assignment.
  WAVEEMU_COMPOUND_ASSIGNMENTS(Vector, *this)

 private:
  template <int... I>
  static constexpr void CheckSwizzle() {
    static_assert(!kLong, "long vectors (more than 4 components) have no swizzles in HLSL: use "
                          "v[i], or slice<Offset, Count>(v) for a shorter vector");
    static_assert(detail::SwizzleFits<C, I...>(), "swizzle names a component the vector lacks");
  }
  static constexpr auto Members() {
    using B = VectorStorage<T, C, N>;
    if constexpr (C == 2) return std::array<component_type B::*, 2>{&B::x, &B::y};
    else if constexpr (C == 3) return std::array<component_type B::*, 3>{&B::x, &B::y, &B::z};
    else return std::array<component_type B::*, 4>{&B::x, &B::y, &B::z, &B::w};
  }
  template <class S>
  static component_type ScalarComponent(S s) {
    if constexpr (std::is_same_v<T, bool>) return component_type(static_cast<bool>(s));
    else return component_type(s);  // Lanes' scalar constructor: HLSL conversion rules
  }
  template <class P>
  void Append(int& k, const P& part) {
    if constexpr (detail::kIsVectorPart<P>) {
      for (int j = 0; j < P::kComponents; ++j) {
        if constexpr (std::is_same_v<typename P::value_type, T>)
          detail::SetUnmasked((*this)[k++], part[j]);
        else detail::SetUnmasked((*this)[k++], component_type(part[j]));
      }
    } else if constexpr (kIsScalar<P>) {
      detail::SetUnmasked((*this)[k++], ScalarComponent(part));
    } else {
      detail::SetUnmasked((*this)[k++], component_type(part));
    }
  }
};

#undef WAVEEMU_SWIZZLE
#undef WAVEEMU_SWIZZLE_ONE

/// The result of v.zy() on a variable: a copy of the components (so it reads and computes like
/// a Vector<T, 2, N>) that also writes back into v's components, masked, when assigned to.
template <class T, int C, int N, int... I>
class SwizzleRef : public Vector<T, int(sizeof...(I)), N> {
  using Base = Vector<T, int(sizeof...(I)), N>;

 public:
  explicit SwizzleRef(Vector<T, C, N>& target) : Base(target[I]...), target_(&target) {}
  SwizzleRef(const SwizzleRef&) = default;

  SwizzleRef& operator=(const Base& value) {
    static_assert(detail::AllDistinct<I...>(),
                  "cannot assign through a swizzle that repeats a component (v.xxy() = ...): "
                  "HLSL rejects it too; assign the components separately");
    int k = 0;
    (((*target_)[I] = value[k++]), ...);  // masked, like any assignment
    static_cast<Base&>(*this) = value;  // keep the copy in step for chained reads
    return *this;
  }
  SwizzleRef& operator=(const SwizzleRef& other) { return *this = static_cast<const Base&>(other); }

  // Components read only: v.zyx()[k] = x would write this copy, not v, so it must not compile.
  template <std::integral J>
  const typename Base::component_type& operator[](J i) const {
    return Base::operator[](i);
  }
  template <class J>
  typename Base::component_type operator[](const Lanes<J, N>& k) const {
    return Base::operator[](k);
  }

  WAVEEMU_COMPOUND_ASSIGNMENTS(SwizzleRef, value())

 private:
  const Base& value() const { return *this; }
  Vector<T, C, N>* target_;
};

namespace detail {

/// f(i, m) for each component i of a C-component vector, m the threads whose per-thread index
/// k is i (one comparison per component, shared by the work and the range check); then an
/// active thread whose k is past the last component is a KernelError naming the first one.
template <int C, class I, int N, class F>
void ForEachIndexedComponent(const Lanes<I, N>& k, F&& f) {
  Mask<N> in_range;
  for (int i = 0; i < C; ++i) {
    const Mask<N> m = (k == I(i)).mask();
    in_range |= m;
    f(i, m);
  }
  const Mask<N> bad = AndNot(CurrentMask<N>(), in_range);
  if (bad.Any()) [[unlikely]] ThrowComponentIndex(k.lane(bad.First()), C, "vector", bad.First());
}

/// v[k] with a per-thread k, as an assignment target: thread t reads or writes component k[t].
/// It is the gathered value (a LanesOf<T, N>, so it works in any expression or intrinsic) that
/// remembers where it came from: assigning, compound assignment and ++/-- write through to the
/// vector, masked, and keep the value in step, as SwizzleRef does for v.zy().
template <class T, int C, int N, class I>
class ThreadComponentRef : public LanesOf<T, N> {
  using Base = LanesOf<T, N>;

 public:
  ThreadComponentRef(Vector<T, C, N>& v, const Lanes<I, N>& k)
      : Base(std::as_const(v)[k]), target_(&v), k_(k) {}
  ThreadComponentRef(const ThreadComponentRef&) = default;

  /// Masked: each active thread writes its own component k[t]. (The constructor's read has
  /// already refused an index out of range on the threads active then.)
  ThreadComponentRef& operator=(const Base& x) {
    const Mask<N> active = CurrentMask<N>();
    ForEachIndexedComponent<C>(
        k_, [&](int i, const Mask<N>& m) { (*target_)[i].AssignMasked(x, active & m); });
    static_cast<Base&>(*this) = x;  // masked, like the write above
    return *this;
  }
  ThreadComponentRef& operator=(const ThreadComponentRef& other) {
    return *this = static_cast<const Base&>(other);
  }
  template <class S>
    requires kIsScalar<S>
  ThreadComponentRef& operator=(S x) {
    return *this = Base(x);
  }

  // Every mutating operator of Lanes, redone so that it writes through (the inherited ones
  // would change only this copy).
  WAVEEMU_COMPOUND_ASSIGNMENTS(ThreadComponentRef, value())
  WAVEEMU_WRITE_THROUGH_INCREMENTS(ThreadComponentRef, Base)

 private:
  const Base& value() const { return *this; }
  Vector<T, C, N>* target_;
  Lanes<I, N> k_;  // a copy: the index may be a temporary (v[tid % 4u]) or v's own component
};

}  // namespace detail

template <int N> using Uint2 = Vector<uint32_t, 2, N>;
template <int N> using Uint3 = Vector<uint32_t, 3, N>;
template <int N> using Uint4 = Vector<uint32_t, 4, N>;
template <int N> using Int2 = Vector<int32_t, 2, N>;
template <int N> using Int3 = Vector<int32_t, 3, N>;
template <int N> using Int4 = Vector<int32_t, 4, N>;
template <int N> using Float2 = Vector<float, 2, N>;
template <int N> using Float3 = Vector<float, 3, N>;
template <int N> using Float4 = Vector<float, 4, N>;
template <int N> using Bool2 = Vector<bool, 2, N>;
template <int N> using Bool3 = Vector<bool, 3, N>;
template <int N> using Bool4 = Vector<bool, 4, N>;
template <int N> using Half2 = Vector<half, 2, N>;
template <int N> using Half3 = Vector<half, 3, N>;
template <int N> using Half4 = Vector<half, 4, N>;
template <int N> using Double2 = Vector<double, 2, N>;
template <int N> using Double3 = Vector<double, 3, N>;
template <int N> using Double4 = Vector<double, 4, N>;

// ------------------------------ slice
/// slice<Offset, Count>(v) (SM 6.9): components Offset .. Offset + Count - 1 of any vector, the
/// long vectors' stand-in for swizzles; slice<Count>(v) starts at 0. One component gives the
/// per-thread scalar, as vector<T, 1> is one.
template <int Offset, int Count, class T, int C, int N>
auto slice(const Vector<T, C, N>& v) {
  static_assert(Offset >= 0 && Count >= 1 && Offset + Count <= C,
                "slice<Offset, Count>(v) reads past the vector's last component");
  if constexpr (Count == 1) {
    return LanesOf<T, N>(v[Offset]);
  } else {
    Vector<T, Count, N> r;
    for (int i = 0; i < Count; ++i) detail::SetUnmasked(r[i], v[Offset + i]);
    return r;
  }
}
template <int Count, class T, int C, int N>
auto slice(const Vector<T, C, N>& v) {
  return slice<0, Count>(v);
}

// ------------------------------------------------------------------------------------------------
// Element-wise operators: vector (op) vector, vector (op) per-thread scalar, vector (op) plain
// scalar, vector (op) uniform vector (uint3, float4), and the mirror images. The result is built
// (unmasked); assigning it is masked.

namespace detail {

/// Vector<R, C, N> whose component i is f(i).
template <class R, int C, int N, class F>
Vector<R, C, N> BuildVector(F&& f) {
  if constexpr (C > 4) {  // long vectors: one component at a time, without a pack of C values
    Vector<R, C, N> r;
    for (int i = 0; i < C; ++i) SetUnmasked(r[i], LanesOf<R, N>(f(i)));
    return r;
  } else {
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return Vector<R, C, N>(f(int(I))...);
    }(std::make_index_sequence<C>{});
  }
}

/// E is a uniform vector (uint3, float4, UniformLongVector...) of C components of type T: the
/// uniform operand of Vector<T, C, N> (op) E.
template <class E, class T, int C>
constexpr bool IsUniformVectorOf() {
  if constexpr (!kIsUniformVector<E, C>) return false;
  else return std::is_same_v<typename VectorElementTraits<E>::component_type, T>;
}

/// Vector<float, C, N> (op) Lanes<uint32_t, N>: HLSL converts the integer to the float type.
template <class T, class U>
inline constexpr bool kConvertsToVectorType =
    !std::is_same_v<T, U> && kIsFloatLike<T> && std::is_integral_v<U>;

}  // namespace detail

#define WAVEEMU_VECTOR_BINARY(OP, R)                                                            \
  template <class T, int C, int N>                                                              \
  Vector<R, C, N> operator OP(const Vector<T, C, N>& a, const Vector<T, C, N>& b) {             \
    return detail::BuildVector<R, C, N>([&](int i) { return a[i] OP b[i]; });                   \
  }                                                                                             \
  template <class T, int C, int N>                                                              \
  Vector<R, C, N> operator OP(const Vector<T, C, N>& a, const LanesOf<T, N>& b) {               \
    return detail::BuildVector<R, C, N>([&](int i) { return a[i] OP b; });                      \
  }                                                                                             \
  template <class T, int C, int N>                                                              \
  Vector<R, C, N> operator OP(const LanesOf<T, N>& a, const Vector<T, C, N>& b) {               \
    return detail::BuildVector<R, C, N>([&](int i) { return a OP b[i]; });                      \
  }                                                                                             \
  template <class T, int C, int N, class U>                                                     \
    requires detail::kConvertsToVectorType<T, U>                                                \
  Vector<R, C, N> operator OP(const Vector<T, C, N>& a, const Lanes<U, N>& b) {                 \
    const Lanes<T, N> bt(b);                                                                    \
    return detail::BuildVector<R, C, N>([&](int i) { return a[i] OP bt; });                     \
  }                                                                                             \
  template <class T, int C, int N, class U>                                                     \
    requires detail::kConvertsToVectorType<T, U>                                                \
  Vector<R, C, N> operator OP(const Lanes<U, N>& a, const Vector<T, C, N>& b) {                 \
    const Lanes<T, N> at(a);                                                                    \
    return detail::BuildVector<R, C, N>([&](int i) { return at OP b[i]; });                     \
  }                                                                                             \
  template <class T, int C, int N, class S>                                                     \
    requires kIsScalar<S>                                                                       \
  Vector<R, C, N> operator OP(const Vector<T, C, N>& a, S b) {                                  \
    const LanesOf<T, N> bl(b);                                                                  \
    return detail::BuildVector<R, C, N>([&](int i) { return a[i] OP bl; });                     \
  }                                                                                             \
  template <class T, int C, int N, class S>                                                     \
    requires kIsScalar<S>                                                                       \
  Vector<R, C, N> operator OP(S a, const Vector<T, C, N>& b) {                                  \
    const LanesOf<T, N> al(a);                                                                  \
    return detail::BuildVector<R, C, N>([&](int i) { return al OP b[i]; });                     \
  }                                                                                             \
  template <class T, int C, int N, class E>                                                     \
    requires(detail::IsUniformVectorOf<E, T, C>())                                              \
  Vector<R, C, N> operator OP(const Vector<T, C, N>& a, const E& b) {                           \
    return detail::BuildVector<R, C, N>(                                                        \
        [&](int i) { return a[i] OP LanesOf<T, N>(detail::UniformComponentAt(b, i)); });        \
  }                                                                                             \
  template <class T, int C, int N, class E>                                                     \
    requires(detail::IsUniformVectorOf<E, T, C>())                                              \
  Vector<R, C, N> operator OP(const E& a, const Vector<T, C, N>& b) {                           \
    return detail::BuildVector<R, C, N>(                                                        \
        [&](int i) { return LanesOf<T, N>(detail::UniformComponentAt(a, i)) OP b[i]; });        \
  }

WAVEEMU_VECTOR_BINARY(+, T)
WAVEEMU_VECTOR_BINARY(-, T)
WAVEEMU_VECTOR_BINARY(*, T)
WAVEEMU_VECTOR_BINARY(/, T)
WAVEEMU_VECTOR_BINARY(%, T)
WAVEEMU_VECTOR_BINARY(&, T)
WAVEEMU_VECTOR_BINARY(|, T)
WAVEEMU_VECTOR_BINARY(^, T)
WAVEEMU_VECTOR_BINARY(<<, T)
WAVEEMU_VECTOR_BINARY(>>, T)
WAVEEMU_VECTOR_BINARY(&&, bool)
WAVEEMU_VECTOR_BINARY(||, bool)
WAVEEMU_VECTOR_BINARY(==, bool)
WAVEEMU_VECTOR_BINARY(!=, bool)
WAVEEMU_VECTOR_BINARY(<, bool)
WAVEEMU_VECTOR_BINARY(<=, bool)
WAVEEMU_VECTOR_BINARY(>, bool)
WAVEEMU_VECTOR_BINARY(>=, bool)

#undef WAVEEMU_VECTOR_BINARY

template <class T, int C, int N>
Vector<T, C, N> operator-(const Vector<T, C, N>& a) {
  return detail::BuildVector<T, C, N>([&](int i) { return -a[i]; });
}
template <class T, int C, int N>
Vector<T, C, N> operator+(const Vector<T, C, N>& a) {
  return a;
}
template <class T, int C, int N>
Vector<T, C, N> operator~(const Vector<T, C, N>& a) {
  return detail::BuildVector<T, C, N>([&](int i) { return ~a[i]; });
}
template <class T, int C, int N>
Vector<bool, C, N> operator!(const Vector<T, C, N>& a) {
  if constexpr (std::is_same_v<T, bool>)
    return detail::BuildVector<bool, C, N>([&](int i) { return !a[i]; });
  else
    return detail::BuildVector<bool, C, N>([&](int i) { return a[i] == LanesOf<T, N>(T(0)); });
}

// ------------------------------------------------------------------------------------------------
// Uniform vectors as values: float3 L = LightDir * 2.0f, uint3 Base = GroupId * 64u. Each is
// computed as one thread's Vector<T, C, 1>, so the per-thread rules (integer division by zero,
// shift masking, NaN in min/max) hold for uniform values too. == and != stay C++'s whole-vector
// comparisons (host code compares results with them); < <= > >= give a bool vector as in HLSL.

namespace detail {

/// The components of a uniform vector argument: kVectorComponents, and bool2/3/4 (results of
/// comparisons and isnan, which are no buffer elements); 0 for anything else.
template <class E>
inline constexpr int kUniformArgComponents = kVectorComponents<E>;
template <>
inline constexpr int kUniformArgComponents<UniformVector2<bool>> = 2;
template <>
inline constexpr int kUniformArgComponents<UniformVector3<bool>> = 3;
template <>
inline constexpr int kUniformArgComponents<UniformVector4<bool>> = 4;

template <class E>
inline constexpr bool kIsUniformVectorArg = kUniformArgComponents<std::remove_cvref_t<E>> != 0;
template <class... A>
inline constexpr bool kAnyUniformVectorArg = (kIsUniformVectorArg<A> || ...);
template <class E>
using UniformComponentOf = typename VectorElementTraits<E>::component_type;

/// A uniform vector broadcast to N threads.
template <int N, class E>
  requires kIsUniformVectorArg<E>
auto BroadcastUniform(const E& e) {
  using T = UniformComponentOf<E>;
  constexpr int C = kUniformArgComponents<E>;
  if constexpr (std::is_same_v<T, bool>)
    return BuildVector<bool, C, N>([&](int i) { return Bool<N>(UniformComponentAt(e, i)); });
  else
    return Vector<T, C, N>(e);
}

/// A uniform argument as one thread's value: a uniform vector as Vector<T, C, 1>, a bool as
/// Bool<1>; other arguments unchanged.
template <class A>
decltype(auto) OneThread(const A& a) {
  if constexpr (kIsUniformVectorArg<A>) return BroadcastUniform<1>(a);
  else if constexpr (std::is_same_v<A, bool>) return Bool<1>(a);
  else return (a);
}

/// A one-thread result back as a uniform value.
template <class T>
T FromOneThread(const Lanes<T, 1>& r) {
  return r.lane(0);
}
inline bool FromOneThread(const Bool<1>& r) { return r.lane(0); }
template <class T, int C>
UniformVector<T, C> FromOneThread(const Vector<T, C, 1>& r) {
  UniformVector<T, C> u{};
  for (int i = 0; i < C; ++i) UniformComponentAt(u, i) = FromOneThread(r[i]);
  return u;
}

}  // namespace detail

#define WAVEEMU_UNIFORM_VECTOR_BINARY(OP)                                                        \
  template <class E, class B>                                                                    \
    requires(detail::kIsUniformVectorArg<E> && (detail::kIsUniformVectorArg<B> || kIsScalar<B>)) \
  auto operator OP(const E& a, const B& b) {                                                     \
    return detail::FromOneThread(detail::OneThread(a) OP detail::OneThread(b));                  \
  }                                                                                              \
  template <class S, class E>                                                                    \
    requires(kIsScalar<S> && detail::kIsUniformVectorArg<E>)                                     \
  auto operator OP(S a, const E& b) {                                                            \
    return detail::FromOneThread(a OP detail::OneThread(b));                                     \
  }                                                                                              \
  template <class E, class T, int N>                                                             \
    requires detail::kIsUniformVectorArg<E>                                                      \
  auto operator OP(const E& a, const Lanes<T, N>& b) {                                           \
    return detail::BroadcastUniform<N>(a) OP b;                                                  \
  }                                                                                              \
  template <class T, int N, class E>                                                             \
    requires detail::kIsUniformVectorArg<E>                                                      \
  auto operator OP(const Lanes<T, N>& a, const E& b) {                                           \
    return a OP detail::BroadcastUniform<N>(b);                                                  \
  }

WAVEEMU_UNIFORM_VECTOR_BINARY(+)
WAVEEMU_UNIFORM_VECTOR_BINARY(-)
WAVEEMU_UNIFORM_VECTOR_BINARY(*)
WAVEEMU_UNIFORM_VECTOR_BINARY(/)
WAVEEMU_UNIFORM_VECTOR_BINARY(%)
WAVEEMU_UNIFORM_VECTOR_BINARY(&)
WAVEEMU_UNIFORM_VECTOR_BINARY(|)
WAVEEMU_UNIFORM_VECTOR_BINARY(^)
WAVEEMU_UNIFORM_VECTOR_BINARY(<<)
WAVEEMU_UNIFORM_VECTOR_BINARY(>>)
WAVEEMU_UNIFORM_VECTOR_BINARY(<)
WAVEEMU_UNIFORM_VECTOR_BINARY(<=)
WAVEEMU_UNIFORM_VECTOR_BINARY(>)
WAVEEMU_UNIFORM_VECTOR_BINARY(>=)
#undef WAVEEMU_UNIFORM_VECTOR_BINARY

#define WAVEEMU_UNIFORM_VECTOR_UNARY(OP)                         \
  template <class E>                                             \
    requires detail::kIsUniformVectorArg<E>                      \
  auto operator OP(const E& a) {                                 \
    return detail::FromOneThread(OP detail::OneThread(a));       \
  }
WAVEEMU_UNIFORM_VECTOR_UNARY(-)
WAVEEMU_UNIFORM_VECTOR_UNARY(~)
#undef WAVEEMU_UNIFORM_VECTOR_UNARY

#define WAVEEMU_UNIFORM_VECTOR_ASSIGN(OP)                                                        \
  template <class E, class B>                                                                    \
    requires(detail::kIsUniformVectorArg<E> && (detail::kIsUniformVectorArg<B> || kIsScalar<B>)) \
  E& operator OP##=(E& a, const B& b) {                                                          \
    return a = a OP b;                                                                           \
  }
WAVEEMU_UNIFORM_VECTOR_ASSIGN(+)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(-)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(*)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(/)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(%)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(&)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(|)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(^)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(<<)
WAVEEMU_UNIFORM_VECTOR_ASSIGN(>>)
#undef WAVEEMU_UNIFORM_VECTOR_ASSIGN

// ------------------------------------------------------------------------------------------------
// select, any, all (dot is in emulator/math.h, with the geometry functions)

/// HLSL select(cond, a, b) on vectors: per component (a bool vector) or one bool per thread.
template <class T, int C, int N>
Vector<T, C, N> select(const Vector<bool, C, N>& cond, const Vector<T, C, N>& a,
                       const Vector<T, C, N>& b) {
  return detail::BuildVector<T, C, N>([&](int i) { return select(cond[i], a[i], b[i]); });
}
template <class T, int C, int N>
Vector<T, C, N> select(const Bool<N>& cond, const Vector<T, C, N>& a, const Vector<T, C, N>& b) {
  return detail::BuildVector<T, C, N>([&](int i) { return select(cond, a[i], b[i]); });
}

// ------------------------------ any
/// HLSL any(x): true where some component is non-zero.
template <int N>
Bool<N> any(const Bool<N>& b) {
  return b;
}
template <class T, int N>
Bool<N> any(const Lanes<T, N>& x) {
  return x != Lanes<T, N>(T(0));
}
template <class T, int C, int N>
Bool<N> any(const Vector<T, C, N>& v) {
  Mask<N> m;
  for (int i = 0; i < C; ++i) m |= any(v[i]).mask();
  return Bool<N>::FromMask(m);
}

// ------------------------------ all
/// HLSL all(x): true where every component is non-zero.
template <int N>
Bool<N> all(const Bool<N>& b) {
  return b;
}
template <class T, int N>
Bool<N> all(const Lanes<T, N>& x) {
  return x != Lanes<T, N>(T(0));
}
template <class T, int C, int N>
Bool<N> all(const Vector<T, C, N>& v) {
  Mask<N> m = Mask<N>::All();
  for (int i = 0; i < C; ++i) m &= all(v[i]).mask();
  return Bool<N>::FromMask(m);
}

// Buffer and groupshared elements as arguments (see WAVEEMU_TAKES_REFERENCES).
WAVEEMU_TAKES_REFERENCES(select)
WAVEEMU_TAKES_REFERENCES(any)
WAVEEMU_TAKES_REFERENCES(all)

}  // namespace waveemu
