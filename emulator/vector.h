// vector.h -- HLSL vectors of per-thread values: Uint3<N>, Float4<N>, Bool2<N>, ...
//
// Structure of arrays: a Float4<N> is four Float<N>, one per component, so every component
// operation stays a whole-group SIMD operation. Components are data members (v.x, v.y, v.z,
// v.w); HLSL's colour names and swizzles are member functions (v.rgb(), v.xy() = ...), because
// C++ has no computed members. Uniform vectors (the same on every thread) are plain uint3 etc.
#pragma once

#include "emulator/lanes.h"

#include <type_traits>

namespace waveemu {

/// Per-thread component type: Lanes<T, N>, or Bool<N> for bool.
template <class T, int N>
using LanesOf = std::conditional_t<std::is_same_v<T, bool>, Bool<N>, Lanes<T, N>>;

template <class T, int C, int N>
struct VectorStorage;
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
struct Vector : VectorStorage<T, C, N> {
  static_assert(C >= 2 && C <= 4, "HLSL vectors have 2 to 4 components");
  using component_type = LanesOf<T, N>;
  using value_type = T;
  static constexpr int kComponents = C;
  static constexpr int kSize = N;

  Vector() = default;
  /// Broadcast of one per-thread value or scalar to every component (HLSL: (float3)s).
  Vector(const component_type& s) {  // NOLINT
    for (int i = 0; i < C; ++i) (*this)[i] = s;
  }
  template <class S>
    requires std::is_arithmetic_v<S>
  Vector(S s) : Vector(component_type(T(s))) {}  // NOLINT
  template <class... Cs>
    requires(sizeof...(Cs) == C && (std::is_convertible_v<const Cs&, component_type> && ...))
  Vector(const Cs&... cs)  // NOLINT: float3(a, b, c)
      : VectorStorage<T, C, N>{component_type(cs)...} {}
  Vector(const Vector&) = default;
  Vector& operator=(const Vector&) = default;  // memberwise, so masked per component

  component_type& operator[](int i) { return this->*Members()[i]; }
  const component_type& operator[](int i) const { return this->*Members()[i]; }

 private:
  static constexpr auto Members() {
    using B = VectorStorage<T, C, N>;
    if constexpr (C == 2) return std::array<component_type B::*, 2>{&B::x, &B::y};
    else if constexpr (C == 3) return std::array<component_type B::*, 3>{&B::x, &B::y, &B::z};
    else return std::array<component_type B::*, 4>{&B::x, &B::y, &B::z, &B::w};
  }
};

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

}  // namespace waveemu
