// math.h -- HLSL's per-thread math intrinsics: min, max, abs, clamp, saturate, mad, asuint, asint,
// asfloat, asdouble, countbits, firstbitlow, firstbithigh, reversebits, sqrt, floor, ceil, frac,
// lerp, sign, for Lanes<T, N>, Vector<T, C, N> (component by component) and plain scalars.
//
// Float min/max ignore NaN like D3D (min(x, NaN) == x); mad fuses only when the running group's
// device profile says so; bit functions return 0xFFFFFFFF for "no bit", as DXIL defines.
#pragma once

#include "emulator/exec.h"
#include "emulator/lanes.h"
#include "emulator/vector.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace waveemu {

namespace detail {

template <class X>
inline constexpr bool kIsVectorArg = requires { std::remove_cvref_t<X>::kComponents; };

/// Component i of a vector argument, or the argument itself (a per-thread or plain scalar).
template <class X>
decltype(auto) ComponentOf(const X& x, int i) {
  if constexpr (kIsVectorArg<X>) return x[i];
  else return (x);
}

/// Vector whose component i is f(i), its type taken from what f returns.
template <int C, class F>
auto BuildFrom(F&& f) {
  using L = std::remove_cvref_t<decltype(f(0))>;
  using R = std::conditional_t<std::is_same_v<L, Bool<L::kSize>>, bool, typename L::value_type>;
  return BuildVector<R, C, L::kSize>(f);
}

/// r[t] = op(a[t]) over whole vectors through Highway, or lane by lane (half).
template <class T, int N, class VecOp, class ScalarOp>
Lanes<T, N> MapLanes(const Lanes<T, N>& a, VecOp vop, ScalarOp sop) {
  Lanes<T, N> r{NoInit{}};
  if constexpr (kIsSimdType<T>) {
    const hn::ScalableTag<T> d;
    for (int i = 0; i < Lanes<T, N>::kPadded; i += int(hn::Lanes(d)))
      hn::Store(vop(d, hn::Load(d, a.data() + i)), d, r.data() + i);
  } else {
    for (int i = 0; i < Lanes<T, N>::kPadded; ++i) r.data()[i] = sop(a.data()[i]);
  }
  return r;
}

/// r[t] = f(a[t]) into another lane type, one branch-free scalar call per lane (the compiler
/// vectorises these loops; Highway 1.0.3 lacks per-lane bit scans).
template <class R, class T, int N, class F>
Lanes<R, N> MapScalar(const Lanes<T, N>& a, F f) {
  Lanes<R, N> r{NoInit{}};
  for (int i = 0; i < N; ++i) r.data()[i] = f(a.data()[i]);
  return r;
}

/// The float type half computes in.
template <class T>
using Wide = std::conditional_t<std::is_same_v<T, half>, float, T>;

// Scalar rules, shared by the uniform overloads and the half lanes.
template <class T>
T MinScalar(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    if (std::isnan(Wide<T>(a))) return b;  // NaN-ignoring (D3D min / IEEE minNum)
    if (std::isnan(Wide<T>(b))) return a;
  }
  return b < a ? b : a;
}
template <class T>
T MaxScalar(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    if (std::isnan(Wide<T>(a))) return b;
    if (std::isnan(Wide<T>(b))) return a;
  }
  return a < b ? b : a;
}

/// The current group's choice for mad: fused only when a group runs and its profile fuses.
template <int N>
bool FuseMultiplyAdd() {
  const GroupState<N>* s = GroupState<N>::Current();
  return s && s->profile().fuse_multiply_add;
}

}  // namespace detail

// ------------------------------ min
/// min(a, b); for floats a NaN operand is ignored (both NaN: NaN), as D3D and DXIL FMin define.
template <class T, int N>
Lanes<T, N> min(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::Zip(
      a, b,
      [](auto, auto x, auto y) {
        if constexpr (std::is_floating_point_v<T>) {
          const auto m = hn::Min(x, y);
          return hn::IfThenElse(hn::IsNaN(x), y, hn::IfThenElse(hn::IsNaN(y), x, m));
        } else {
          return hn::Min(x, y);
        }
      },
      [](T x, T y) { return detail::MinScalar(x, y); });
}

// ------------------------------ max
/// max(a, b); NaN-ignoring for floats like min.
template <class T, int N>
Lanes<T, N> max(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::Zip(
      a, b,
      [](auto, auto x, auto y) {
        if constexpr (std::is_floating_point_v<T>) {
          const auto m = hn::Max(x, y);
          return hn::IfThenElse(hn::IsNaN(x), y, hn::IfThenElse(hn::IsNaN(y), x, m));
        } else {
          return hn::Max(x, y);
        }
      },
      [](T x, T y) { return detail::MaxScalar(x, y); });
}

// ------------------------------ abs
/// abs(x): floats clear the sign bit (abs(-0) == +0, NaN stays NaN); integers wrap
/// (abs(INT_MIN) == INT_MIN); unsigned values are returned as they are.
template <class T, int N>
Lanes<T, N> abs(const Lanes<T, N>& x) {
  if constexpr (std::is_unsigned_v<T>) {
    return x;
  } else if constexpr (std::is_same_v<T, half>) {
    return detail::MapLanes(x, [](auto, auto v) { return v; },
                            [](half h) { return half::FromBits(h.bits() & 0x7FFFu); });
  } else if constexpr (std::is_floating_point_v<T>) {
    return detail::MapLanes(x, [](auto, auto v) { return hn::Abs(v); }, [](T) { return T(); });
  } else {
    return select(x < T(0), -x, x);  // -INT_MIN wraps to INT_MIN, as DXIL's IMax(x, 0 - x)
  }
}

// ------------------------------ clamp
/// clamp(x, lo, hi) = min(max(x, lo), hi), as HLSL defines it.
template <class T, int N, class Lo, class Hi>
Lanes<T, N> clamp(const Lanes<T, N>& x, const Lo& lo, const Hi& hi) {
  return min(max(x, Lanes<T, N>(lo)), Lanes<T, N>(hi));
}

// ------------------------------ saturate
/// saturate(x) = clamp(x, 0, 1) for floats; NaN gives 0 (DXIL Saturate).
template <class T, int N>
Lanes<T, N> saturate(const Lanes<T, N>& x) {
  static_assert(kIsFloatLike<T>, "saturate takes half, float or double (HLSL float_like<>)");
  // max(NaN, 0) is 0 because max ignores NaN.
  return min(max(x, Lanes<T, N>(T(0))), Lanes<T, N>(T(1)));
}

// ------------------------------ mad
/// mad(a, b, c) = a * b + c. Integers wrap. Floats: one rounding (fused) when the running
/// group's profile has fuse_multiply_add (NVIDIA), else two (lavapipe, spec, and outside a
/// group); DXIL lets the driver choose unless `precise`.
template <class T, int N>
Lanes<T, N> mad(const Lanes<T, N>& a, const Lanes<T, N>& b, const Lanes<T, N>& c) {
  if constexpr (!kIsFloatLike<T>) {
    return a * b + c;
  } else {
    Lanes<T, N> r{NoInit{}};
    const bool fused = detail::FuseMultiplyAdd<N>();
    if constexpr (std::is_same_v<T, half>) {
      // The product of two halves is exact in float; fused rounds a*b+c once (through double,
      // where a*b+c of halves rounds to the same half), unfused rounds the product to half first.
      for (int i = 0; i < Lanes<T, N>::kPadded; ++i) {
        const float x = a.data()[i], y = b.data()[i], z = c.data()[i];
        r.data()[i] = fused ? half(std::fma(double(x), double(y), double(z)))
                            : half(float(half(x * y)) + z);
      }
    } else {
      const hn::ScalableTag<T> d;
      for (int i = 0; i < Lanes<T, N>::kPadded; i += int(hn::Lanes(d))) {
        const auto x = hn::Load(d, a.data() + i), y = hn::Load(d, b.data() + i),
                   z = hn::Load(d, c.data() + i);
        if (fused) {
#if HWY_NATIVE_FMA
          hn::Store(hn::MulAdd(x, y, z), d, r.data() + i);
#else
          for (int k = 0; k < int(hn::Lanes(d)); ++k)
            r.data()[i + k] = std::fma(a.data()[i + k], b.data()[i + k], c.data()[i + k]);
#endif
        } else {
          auto p = hn::Mul(x, y);
          // The compiler must not contract Mul + Add into an FMA (GCC does under -std=gnu++20).
#if HWY_ARCH_X86
          asm("" : "+v"(p.raw));
#endif
          hn::Store(hn::Add(p, z), d, r.data() + i);
        }
      }
    }
    return r;
  }
}
template <class T, int N, class B, class C>
  requires(!std::is_same_v<B, Lanes<T, N>> || !std::is_same_v<C, Lanes<T, N>>)
Lanes<T, N> mad(const Lanes<T, N>& a, const B& b, const C& c) {
  return mad(a, Lanes<T, N>(b), Lanes<T, N>(c));
}

// ------------------------------ asuint
/// asuint(x): the bits of a 32-bit value as uint.
template <class T, int N>
Lanes<uint32_t, N> asuint(const Lanes<T, N>& x) {
  static_assert(sizeof(T) == 4, "asuint takes float, int or uint (for double: asuint(d, lo, hi))");
  return detail::MapScalar<uint32_t>(x, [](T v) { return std::bit_cast<uint32_t>(v); });
}
/// asuint(double, out lowbits, out highbits); the outputs are assigned (masked).
template <int N>
void asuint(const Lanes<double, N>& d, Lanes<uint32_t, N>& lowbits, Lanes<uint32_t, N>& highbits) {
  lowbits = detail::MapScalar<uint32_t>(d, [](double v) { return uint32_t(std::bit_cast<uint64_t>(v)); });
  highbits = detail::MapScalar<uint32_t>(
      d, [](double v) { return uint32_t(std::bit_cast<uint64_t>(v) >> 32); });
}

// ------------------------------ asint
/// asint(x): the bits of a 32-bit value as int.
template <class T, int N>
Lanes<int32_t, N> asint(const Lanes<T, N>& x) {
  static_assert(sizeof(T) == 4, "asint takes float, int or uint");
  return detail::MapScalar<int32_t>(x, [](T v) { return std::bit_cast<int32_t>(v); });
}

// ------------------------------ asfloat
/// asfloat(x): the bits of a 32-bit value as float.
template <class T, int N>
Lanes<float, N> asfloat(const Lanes<T, N>& x) {
  static_assert(sizeof(T) == 4, "asfloat takes float, int or uint");
  return detail::MapScalar<float>(x, [](T v) { return std::bit_cast<float>(v); });
}

// ------------------------------ asdouble
/// asdouble(lowbits, highbits): a double from two uints.
template <int N>
Lanes<double, N> asdouble(const Lanes<uint32_t, N>& lowbits, const Lanes<uint32_t, N>& highbits) {
  Lanes<double, N> r{NoInit{}};
  for (int t = 0; t < N; ++t)
    r.data()[t] = std::bit_cast<double>(uint64_t(highbits.data()[t]) << 32 | lowbits.data()[t]);
  return r;
}

// ------------------------------ countbits
/// countbits(x): number of set bits, as uint.
template <class T, int N>
Lanes<uint32_t, N> countbits(const Lanes<T, N>& x) {
  static_assert(std::is_integral_v<T>, "countbits takes integer types");
  return detail::MapScalar<uint32_t>(
      x, [](T v) { return uint32_t(std::popcount(std::make_unsigned_t<T>(v))); });
}

// ------------------------------ firstbitlow
/// firstbitlow(x): index of the lowest set bit, 0xFFFFFFFF when x == 0.
template <class T, int N>
Lanes<uint32_t, N> firstbitlow(const Lanes<T, N>& x) {
  static_assert(std::is_integral_v<T>, "firstbitlow takes integer types");
  return detail::MapScalar<uint32_t>(x, [](T v) {
    const auto u = std::make_unsigned_t<T>(v);
    return u == 0 ? 0xFFFFFFFFu : uint32_t(std::countr_zero(u));
  });
}

// ------------------------------ firstbithigh
/// firstbithigh(x), counted from bit 0: for unsigned x the highest set bit; for signed x the
/// highest bit that differs from the sign bit (DXIL FirstbitSHi), so 0 and -1 give 0xFFFFFFFF.
template <class T, int N>
Lanes<uint32_t, N> firstbithigh(const Lanes<T, N>& x) {
  static_assert(std::is_integral_v<T>, "firstbithigh takes integer types");
  return detail::MapScalar<uint32_t>(x, [](T v) {
    using U = std::make_unsigned_t<T>;
    U u = U(v);
    if constexpr (std::is_signed_v<T>) u = v < 0 ? U(~u) : u;
    return u == 0 ? 0xFFFFFFFFu : uint32_t(sizeof(T) * 8 - 1 - std::countl_zero(u));
  });
}

// ------------------------------ reversebits
/// reversebits(x): bit i moves to bit width-1-i.
template <class T, int N>
Lanes<T, N> reversebits(const Lanes<T, N>& x) {
  static_assert(std::is_unsigned_v<T>, "reversebits takes uint (or uint16_t/uint64_t)");
  return detail::MapScalar<T>(x, [](T v) {
    T r = 0;
    for (int i = 0; i < int(sizeof(T) * 8); ++i) r = T(r | (((v >> i) & 1u) << (sizeof(T) * 8 - 1 - i)));
    return r;
  });
}

// ------------------------------ sqrt
/// sqrt(x), correctly rounded (D3D allows some error; this is the exact IEEE one).
template <class T, int N>
Lanes<T, N> sqrt(const Lanes<T, N>& x) {
  static_assert(kIsFloatLike<T>, "sqrt takes half, float or double");
  return detail::MapLanes(x, [](auto, auto v) { return hn::Sqrt(v); },
                          [](T v) { return T(std::sqrt(float(v))); });
}

// ------------------------------ floor
template <class T, int N>
Lanes<T, N> floor(const Lanes<T, N>& x) {
  static_assert(kIsFloatLike<T>, "floor takes half, float or double");
  return detail::MapLanes(x, [](auto, auto v) { return hn::Floor(v); },
                          [](T v) { return T(std::floor(float(v))); });
}

// ------------------------------ ceil
template <class T, int N>
Lanes<T, N> ceil(const Lanes<T, N>& x) {
  static_assert(kIsFloatLike<T>, "ceil takes half, float or double");
  return detail::MapLanes(x, [](auto, auto v) { return hn::Ceil(v); },
                          [](T v) { return T(std::ceil(float(v))); });
}

// ------------------------------ frac
/// frac(x) = x - floor(x), in [0, 1) (1 - tiny values can round to 1.0).
template <class T, int N>
Lanes<T, N> frac(const Lanes<T, N>& x) {
  return x - floor(x);
}

// ------------------------------ lerp
/// lerp(a, b, s) = a + s * (b - a), as DXC expands it (two roundings after the difference).
template <class T, int N, class B, class S>
Lanes<T, N> lerp(const Lanes<T, N>& a, const B& b, const S& s) {
  static_assert(kIsFloatLike<T>, "lerp takes half, float or double");
  const Lanes<T, N> prod = Lanes<T, N>(s) * (Lanes<T, N>(b) - a);
  return mad(Lanes<T, N>(T(1)), prod, a);  // an add that, like mad, never fuses with the product
}

// ------------------------------ sign
/// sign(x): -1, 0 or 1 as int; sign(NaN) and sign(-0) are 0.
template <class T, int N>
Lanes<int32_t, N> sign(const Lanes<T, N>& x) {
  return Lanes<int32_t, N>(x > T(0)) - Lanes<int32_t, N>(x < T(0));
}

// ------------------------------------------------------------------------------------------------
// Mixed arguments: a per-thread value with plain scalars, and vectors component by component.

#define WAVEEMU_MATH_BINARY(NAME)                                                               \
  template <class T, int N, class S>                                                            \
    requires kIsScalar<S>                                                                       \
  Lanes<T, N> NAME(const Lanes<T, N>& a, S b) {                                                 \
    return NAME(a, Lanes<T, N>(b));                                                             \
  }                                                                                             \
  template <class T, int N, class S>                                                            \
    requires kIsScalar<S>                                                                       \
  Lanes<T, N> NAME(S a, const Lanes<T, N>& b) {                                                 \
    return NAME(Lanes<T, N>(a), b);                                                             \
  }                                                                                             \
  template <class T, int C, int N>                                                              \
  Vector<T, C, N> NAME(const Vector<T, C, N>& a, const Vector<T, C, N>& b) {                    \
    return detail::BuildVector<T, C, N>([&](int i) { return NAME(a[i], b[i]); });               \
  }                                                                                             \
  template <class T, int C, int N, class B>                                                     \
    requires(!detail::kIsVectorArg<B>)                                                          \
  Vector<T, C, N> NAME(const Vector<T, C, N>& a, const B& b) {                                  \
    const Lanes<T, N> bl(b);                                                                    \
    return detail::BuildVector<T, C, N>([&](int i) { return NAME(a[i], bl); });                 \
  }                                                                                             \
  template <class T, int C, int N, class A>                                                     \
    requires(!detail::kIsVectorArg<A>)                                                          \
  Vector<T, C, N> NAME(const A& a, const Vector<T, C, N>& b) {                                  \
    const Lanes<T, N> al(a);                                                                    \
    return detail::BuildVector<T, C, N>([&](int i) { return NAME(al, b[i]); });                 \
  }

WAVEEMU_MATH_BINARY(min)
WAVEEMU_MATH_BINARY(max)
#undef WAVEEMU_MATH_BINARY

#define WAVEEMU_MATH_UNARY(NAME)                                                              \
  template <class T, int C, int N>                                                            \
  auto NAME(const Vector<T, C, N>& v) {                                                       \
    return detail::BuildFrom<C>([&](int i) { return NAME(v[i]); });                           \
  }

WAVEEMU_MATH_UNARY(abs)
WAVEEMU_MATH_UNARY(saturate)
WAVEEMU_MATH_UNARY(asuint)
WAVEEMU_MATH_UNARY(asint)
WAVEEMU_MATH_UNARY(asfloat)
WAVEEMU_MATH_UNARY(countbits)
WAVEEMU_MATH_UNARY(firstbitlow)
WAVEEMU_MATH_UNARY(firstbithigh)
WAVEEMU_MATH_UNARY(reversebits)
WAVEEMU_MATH_UNARY(sqrt)
WAVEEMU_MATH_UNARY(floor)
WAVEEMU_MATH_UNARY(ceil)
WAVEEMU_MATH_UNARY(frac)
WAVEEMU_MATH_UNARY(sign)
#undef WAVEEMU_MATH_UNARY

#define WAVEEMU_MATH_TERNARY(NAME)                                                            \
  template <class T, int C, int N, class B, class D>                                          \
  Vector<T, C, N> NAME(const Vector<T, C, N>& a, const B& b, const D& d) {                    \
    return detail::BuildVector<T, C, N>([&](int i) {                                          \
      return NAME(a[i], Lanes<T, N>(detail::ComponentOf(b, i)),                               \
                  Lanes<T, N>(detail::ComponentOf(d, i)));                                    \
    });                                                                                       \
  }

WAVEEMU_MATH_TERNARY(clamp)
WAVEEMU_MATH_TERNARY(mad)
WAVEEMU_MATH_TERNARY(lerp)
#undef WAVEEMU_MATH_TERNARY

// ------------------------------------------------------------------------------------------------
// Uniform (plain scalar) forms, for values that are the same on every thread.

template <class T>
  requires kIsScalar<T>
T min(T a, T b) {
  return detail::MinScalar(a, b);
}
template <class T>
  requires kIsScalar<T>
T max(T a, T b) {
  return detail::MaxScalar(a, b);
}
template <class T>
  requires kIsScalar<T>
T clamp(T x, T lo, T hi) {
  return detail::MinScalar(detail::MaxScalar(x, lo), hi);
}
template <class T>
  requires kIsFloatLike<T>
T saturate(T x) {
  return detail::MinScalar(detail::MaxScalar(x, T(0)), T(1));
}
inline uint32_t asuint(float x) { return std::bit_cast<uint32_t>(x); }
inline uint32_t asuint(int32_t x) { return uint32_t(x); }
inline uint32_t asuint(uint32_t x) { return x; }
inline int32_t asint(float x) { return std::bit_cast<int32_t>(x); }
inline int32_t asint(uint32_t x) { return int32_t(x); }
inline int32_t asint(int32_t x) { return x; }
inline float asfloat(uint32_t x) { return std::bit_cast<float>(x); }
inline float asfloat(int32_t x) { return std::bit_cast<float>(x); }
inline float asfloat(float x) { return x; }
inline double asdouble(uint32_t lowbits, uint32_t highbits) {
  return std::bit_cast<double>(uint64_t(highbits) << 32 | lowbits);
}
inline uint32_t countbits(uint32_t x) { return uint32_t(std::popcount(x)); }
inline uint32_t firstbitlow(uint32_t x) { return x == 0 ? 0xFFFFFFFFu : uint32_t(std::countr_zero(x)); }
inline uint32_t firstbithigh(uint32_t x) {
  return x == 0 ? 0xFFFFFFFFu : uint32_t(31 - std::countl_zero(x));
}
inline uint32_t firstbithigh(int32_t x) { return firstbithigh(uint32_t(x < 0 ? ~x : x)); }

}  // namespace waveemu
