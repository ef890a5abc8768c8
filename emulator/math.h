// math.h -- HLSL's per-thread math intrinsics, for Lanes<T, N>, Vector<T, C, N> (component by
// component) and plain (uniform) scalars:
//   min, max, abs, clamp, saturate, mad, sign                          (any numeric type)
//   asuint, asint, asfloat, asdouble, f32tof16, f16tof32              (bit casts, conversions)
//   countbits, firstbitlow, firstbithigh, reversebits                 (integer bits)
//   sqrt, rsqrt, rcp, floor, ceil, frac, round, trunc, fmod, lerp, step, smoothstep,
//   degrees, radians, ldexp, isnan, isinf, isfinite                   (exact: IEEE arithmetic)
//   exp, exp2, log, log2, log10, pow, sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh,
//   sincos                                    (C library per lane, or the device's: MathLibrary)
//   length, distance, normalize, cross, reflect, refract, faceforward (per-thread vectors)
//
// Float min/max ignore NaN like D3D (min(x, NaN) == x); mad fuses only when the running group's
// device profile says so; bit functions return 0xFFFFFFFF for "no bit", as DXIL defines.
// Intrinsics that DXC expands into several DXIL operations (exp, log, pow, fmod, smoothstep,
// atan2, the geometry functions, ...) are computed operation by operation in the same order,
// each rounded to the element type, so their results match DXC's code on a device whose
// primitive operations are correctly rounded. The DXIL primitives Exp, Log, Sin, Cos, Tan,
// Asin, Acos, Atan, Hsin, Hcos, Htan are approximations on GPUs (D3D: exp2 relative error
// 2^-21, log2 absolute error 2^-21 on [0.5, 2], sin/cos absolute error 0.0008 on
// [-100 pi, 100 pi]). waveemu evaluates them with the C library in float, so golden outputs that
// depend on them differ from a GPU within those tolerances, unless the profile's MathLibrary
// models the device: lavapipe's fp32 functions all (kLlvmpipe), the H100's exp2, log2, sin and
// cos and what its compiler builds on them (kH100).
#pragma once

#include "emulator/exec.h"
#include "emulator/lanes.h"
#include "emulator/llvmpipe_math.h"
#include "emulator/vector.h"

#include <algorithm>
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

/// X can stand for an operand of type Lanes<T, N>: a per-thread scalar or a plain one (not a
/// vector, not a buffer element, whose reference overloads read it first).
template <class X, class T, int N>
inline constexpr bool kBroadcastsTo =
    std::is_constructible_v<Lanes<T, N>, const X&> && !HasLoad<X>;

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
  if constexpr (std::is_same_v<L, Bool<L::kSize>>) return BuildVector<bool, C, L::kSize>(f);
  else return BuildVector<typename L::value_type, C, L::kSize>(f);
}

/// r[t] = op(a[t]) over whole vectors through Highway, or lane by lane (half), under the running
/// device's FloatArithmetic (p: a caller that has read it already passes it on); kFlushes false
/// keeps denormal operands and results (the rounding functions: the H100's floor(-2^-127) is
/// -1, probe_denormals_ops).
template <bool kFlushes = true, class T, int N, class VecOp, class ScalarOp>
Lanes<T, N> MapLanes(const Lanes<T, N>& a, VecOp vop, ScalarOp sop,
                     FloatArithmetic p = FloatArithmetic::Current<T>()) {
  Lanes<T, N> r{NoInit{}};
  if constexpr (kIsSimdType<T>) {
    const hn::ScalableTag<T> d;
    if (!kFlushes) p.flush_denormals = false;
    if (p.Changes()) {
      for (int i = 0; i < Lanes<T, N>::kPadded; i += int(hn::Lanes(d)))
        hn::Store(p.Result(d, vop(d, p.Operand(d, hn::Load(d, a.data() + i)))), d, r.data() + i);
      return r;
    }
    for (int i = 0; i < Lanes<T, N>::kPadded; i += int(hn::Lanes(d)))
      hn::Store(vop(d, hn::Load(d, a.data() + i)), d, r.data() + i);
  } else {
    for (int i = 0; i < Lanes<T, N>::kPadded; ++i) r.data()[i] = sop(a.data()[i]);
  }
  return r;
}

/// r[t] = f(a[t]) for one of the H100's table functions, under the device's FloatArithmetic.
template <int N>
Lanes<float, N> MapTable(const Lanes<float, N>& a, const FloatArithmetic& p, float (*f)(float)) {
  Lanes<float, N> r{NoInit{}};
  for (int i = 0; i < Lanes<float, N>::kPadded; ++i) r.data()[i] = p.TableResult(f, a.data()[i]);
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

// Scalar rules for the lanes Highway does not compute (half). A +0/-0 tie gives the second
// operand, as x86 minps/maxps do for the other types (and lavapipe, probe_minmax).
template <class T>
T MinScalar(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    if (std::isnan(Wide<T>(a))) return b;  // NaN-ignoring (D3D min / IEEE minNum)
    if (std::isnan(Wide<T>(b))) return a;
  }
  return a < b ? a : b;
}
template <class T>
T MaxScalar(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    if (std::isnan(Wide<T>(a))) return b;
    if (std::isnan(Wide<T>(b))) return a;
  }
  return b < a ? a : b;
}

/// The current group's choice for mad: fused only when a group runs and its profile fuses. Any
/// group, whatever its width: a uniform mad computes as one thread of it.
inline bool FuseMultiplyAdd() {
  const GroupBase* g = GroupBase::Current();
  return g && g->profile().fuse_multiply_add;
}

/// What per-thread float min and max do where devices differ (probe_minmax): the running
/// device's FloatArithmetic (denormal operands, the NaN of two NaNs) and its +0/-0 tie; outside
/// a group, the defaults (lavapipe's rules).
struct FloatMinMaxPolicy {
  FloatArithmetic arithmetic;
  bool negative_zero_below = false;  // min_max_zero_tie == kNegativeZeroBelow

  static FloatMinMaxPolicy Current() {
    const GroupBase* g = GroupBase::Current();
    return {FloatArithmetic::Of(g),
            g && g->profile().min_max_zero_tie == ZeroTie::kNegativeZeroBelow};
  }
};

/// min (kMax false) or max of float or double vectors under `p`. x86's minps/maxps return the second
/// operand when the two compare equal (a +0/-0 pair) or either is NaN; the NaN cases are then
/// chosen explicitly.
template <bool kMax, class D, class V>
V FloatMinMax(D d, V x, V y, const FloatMinMaxPolicy& p) {
  x = p.arithmetic.Operand(d, x);
  y = p.arithmetic.Operand(d, y);
  V m = kMax ? hn::Max(x, y) : hn::Min(x, y);
  if (p.negative_zero_below)  // equal floats have equal bits but for +0/-0: OR gives -0, AND +0
    m = hn::IfThenElse(hn::Eq(x, y), kMax ? hn::And(x, y) : hn::Or(x, y), m);
  const auto x_nan = hn::IsNaN(x), y_nan = hn::IsNaN(y);
  // Only two NaN operands leave a NaN here, which Result makes canonical where the device does.
  return p.arithmetic.Result(d, hn::IfThenElse(x_nan, y, hn::IfThenElse(y_nan, x, m)));
}

/// min or max of per-thread values; only float reads the profile (half and double, which no
/// device measured, take the default policy).
template <bool kMax, class T, int N>
Lanes<T, N> MinOrMax(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  FloatMinMaxPolicy policy;
  if constexpr (std::is_same_v<T, float>) policy = FloatMinMaxPolicy::Current();
  return Zip(
      a, b,
      [&](auto d, auto x, auto y) {
        if constexpr (std::is_floating_point_v<T>) return FloatMinMax<kMax>(d, x, y, policy);
        else return kMax ? hn::Max(x, y) : hn::Min(x, y);
      },
      [](T x, T y) { return kMax ? MaxScalar(x, y) : MinScalar(x, y); });
}

}  // namespace detail

// ------------------------------ min
/// min(a, b); for floats a NaN operand is ignored (both NaN: NaN), as D3D and DXIL FMin define.
/// On float, the running group's profile decides the +0/-0 tie, denormal operands and the NaN of
/// two NaNs (FloatMinMaxPolicy).
template <class T, int N>
Lanes<T, N> min(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::MinOrMax<false>(a, b);
}

// ------------------------------ max
/// max(a, b); NaN-ignoring for floats like min, under the same policies.
template <class T, int N>
Lanes<T, N> max(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::MinOrMax<true>(a, b);
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
  requires(detail::kBroadcastsTo<Lo, T, N> && detail::kBroadcastsTo<Hi, T, N>)
Lanes<T, N> clamp(const Lanes<T, N>& x, const Lo& lo, const Hi& hi) {
  return min(max(x, Lanes<T, N>(lo)), Lanes<T, N>(hi));
}

// ------------------------------ saturate
/// saturate(x) = clamp(x, 0, 1) for floats; NaN gives 0 (DXIL Saturate).
template <class T, int N>
Lanes<T, N> saturate(const Lanes<T, N>& x) {
  static_assert(kIsFloatLike<T>, "saturate takes half, float or double (HLSL any_float<>)");
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
    const bool fused = detail::FuseMultiplyAdd();
    if constexpr (std::is_same_v<T, half>) {
      // The product of two halves is exact in float; fused rounds a*b+c once (through double,
      // where a*b+c of halves rounds to the same half), unfused rounds the product to half first.
      for (int i = 0; i < Lanes<T, N>::kPadded; ++i) {
        const float x = a.data()[i], y = b.data()[i], z = c.data()[i];
        r.data()[i] = fused ? half(std::fma(double(x), double(y), double(z)))
                            : half(float(half(x * y)) + z);
      }
    } else {
      // The running device's FloatArithmetic applies to the operands, the unfused product and
      // the result.
      const hn::ScalableTag<T> d;
      const detail::FloatArithmetic p = detail::FloatArithmetic::Current<T>();
      for (int i = 0; i < Lanes<T, N>::kPadded; i += int(hn::Lanes(d))) {
        const auto x = p.Operand(d, hn::Load(d, a.data() + i)),
                   y = p.Operand(d, hn::Load(d, b.data() + i)),
                   z = p.Operand(d, hn::Load(d, c.data() + i));
        if (fused) {
#if HWY_NATIVE_FMA
          hn::Store(p.Result(d, hn::MulAdd(x, y, z)), d, r.data() + i);
#else
          HWY_ALIGN T xs[hn::MaxLanes(d)], ys[hn::MaxLanes(d)], zs[hn::MaxLanes(d)];
          hn::Store(x, d, xs);
          hn::Store(y, d, ys);
          hn::Store(z, d, zs);
          for (int k = 0; k < int(hn::Lanes(d)); ++k) xs[k] = std::fma(xs[k], ys[k], zs[k]);
          hn::Store(p.Result(d, hn::Load(d, xs)), d, r.data() + i);
#endif
        } else {
          auto product = hn::Mul(x, y);
          // The compiler must not contract Mul + Add into an FMA (GCC does under -std=gnu++20).
#if HWY_ARCH_X86
          asm("" : "+v"(product.raw));
#endif
          hn::Store(p.Result(d, hn::Add(p.Result(d, product), z)), d, r.data() + i);
        }
      }
    }
    return r;
  }
}
template <class T, int N, class B, class C>
  requires((!std::is_same_v<B, Lanes<T, N>> || !std::is_same_v<C, Lanes<T, N>>) &&
           detail::kBroadcastsTo<B, T, N> && detail::kBroadcastsTo<C, T, N>)
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

// ------------------------------------------------------------------------------------------------
// Functions HLSL declares for float_like<> (half and float; DXC and glslang convert a double or
// integer argument to float first, so these refuse other types and say so): floor, ceil, frac,
// lerp, round, trunc, sqrt, fmod and the rest below that use WAVEEMU_FLOAT_LIKE.

namespace detail {
template <class T>
inline constexpr bool kIsHalfOrFloat = std::is_same_v<T, half> || std::is_same_v<T, float>;
}  // namespace detail

#define WAVEEMU_FLOAT_LIKE(NAME, T)                                                             \
  static_assert(detail::kIsHalfOrFloat<T>,                                                      \
                NAME " takes half or float (HLSL float_like); DXC converts a double or integer " \
                     "argument to float first: write " NAME "(Float<N>(x)), or " NAME           \
                     "(float(x)) for a uniform x")

// ------------------------------ floor
template <class T, int N>
Lanes<T, N> floor(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("floor", T);
  return detail::MapLanes<false>(x, [](auto, auto v) { return hn::Floor(v); },
                                 [](T v) { return T(std::floor(float(v))); });
}

// ------------------------------ ceil
template <class T, int N>
Lanes<T, N> ceil(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("ceil", T);
  return detail::MapLanes<false>(x, [](auto, auto v) { return hn::Ceil(v); },
                                 [](T v) { return T(std::ceil(float(v))); });
}

// ------------------------------ frac
/// frac(x) = x - floor(x), in [0, 1) (1 - tiny values can round to 1.0).
template <class T, int N>
Lanes<T, N> frac(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("frac", T);
  return x - floor(x);
}

// ------------------------------ lerp
/// lerp(a, b, s) = a + s * (b - a), as DXC expands it (two roundings after the difference); for
/// fp32 under kNvidia mad(s, b - a, a), fused; under kMesa a * (1 - s) + b * s.
template <class T, int N, class B, class S>
  requires(detail::kBroadcastsTo<B, T, N> && detail::kBroadcastsTo<S, T, N>)
Lanes<T, N> lerp(const Lanes<T, N>& a, const B& b_arg, const S& s_arg) {
  WAVEEMU_FLOAT_LIKE("lerp", T);
  const Lanes<T, N> b(b_arg), s(s_arg);
  switch (detail::Expansion<T>()) {
    case FunctionExpansion::kNvidia:
      return mad(s, b - a, a);
    case FunctionExpansion::kMesa:
      return a * (Lanes<T, N>(T(1)) - s) + b * s;
    case FunctionExpansion::kDxc:
      break;
  }
  return mad(Lanes<T, N>(T(1)), s * (b - a), a);  // an add that, like mad, never fuses
}

// ------------------------------ sign
/// sign(x): -1, 0 or 1 as int; sign(NaN) and sign(-0) are 0.
template <class T, int N>
Lanes<int32_t, N> sign(const Lanes<T, N>& x) {
  return Lanes<int32_t, N>(x > T(0)) - Lanes<int32_t, N>(x < T(0));
}

// ------------------------------------------------------------------------------------------------
// More float_like<> functions (above floor), most of them evaluated in float.

namespace detail {

/// r[t] = f(float(a[t])) rounded to T: a DXIL primitive that waveemu evaluates with the C library
/// in float (half: computed in float, rounded to half once). kLibraryNan: a NaN result follows
/// the device's LibraryNan (log2, sin, cos, tan: the functions probe_nan_math found llvmpipe to
/// compute with a NaN of its own). p: the running device's rules (a caller that has read them
/// passes them on).
template <bool kLibraryNan = false, class T, int N, class F>
Lanes<T, N> MapFloat(const Lanes<T, N>& a, F f,
                     const FloatArithmetic p = FloatArithmetic::Current<T>()) {
  Lanes<T, N> r{NoInit{}};
  for (int i = 0; i < N; ++i) {
    const T v = T(f(p.Operand(float(a.data()[i]))));
    r.data()[i] = kLibraryNan ? p.LibraryResult(v) : p.Result(v);
  }
  return r;
}

/// r[t] = a transcendental of a[t]: for fp32 under MathLibrary::kLlvmpipe lavapipe's (llvmpipe,
/// from llvmpipe_math.h, whose NaNs are its own), under kH100 the H100's where it is modelled
/// (h100, from nvidia_tables.h; nullptr: not modelled), otherwise host's as MapFloat computes it
/// (always for half and double, whose rules say kHost).
template <bool kLibraryNan = false, class T, int N, class Host>
Lanes<T, N> MapTranscendental(const Lanes<T, N>& a, Host host, float (*llvmpipe)(float),
                              float (*h100)(float)) {
  const FloatArithmetic p = FloatArithmetic::Current<T>();
  if (p.math_library == MathLibrary::kLlvmpipe) return MapFloat(a, llvmpipe, p);
  if (p.math_library == MathLibrary::kH100 && h100) return MapFloat(a, h100, p);
  return MapFloat<kLibraryNan>(a, host, p);
}

/// r[t] = f(a[t], b[t]) for lavapipe's two-operand functions (pow, atan2), under the rules p.
template <int N>
Lanes<float, N> MapLlvmpipe(const Lanes<float, N>& a, const Lanes<float, N>& b,
                            float (*f)(float, float), const FloatArithmetic p) {
  Lanes<float, N> r{NoInit{}};
  for (int i = 0; i < N; ++i)
    r.data()[i] = p.Result(f(p.Operand(a.data()[i]), p.Operand(b.data()[i])));
  return r;
}

// DXC's constants (lib/HLSL/HLOperationLower.cpp: translateExp, translateLog, translateLog10,
// translateDegrees, translateRadians, translateAtan2 build them with ConstantFP::get(type, C), so
// each is C rounded to the element type: 1.44269502f, 0.693147182f, 0.30103001f, ...).
inline constexpr double kLog2E = 1.44269504088896340736;   // M_LOG2E
inline constexpr double kLn2 = 0.693147180559945309417;    // M_LN2
inline constexpr double kLn2OverLn10 = 0.301029995663981195214;  // M_LN2 / M_LN10
inline constexpr double kPi = 3.14159265358979323846;      // M_PI

}  // namespace detail

// ------------------------------ sqrt
/// sqrt(x), correctly rounded (D3D allows some error; this is the exact IEEE one), or the H100's
/// table for fp32 (DivideSqrt::kH100Tables). HLSL declares it for float_like: a double argument
/// is converted to float (both devices, run 13), so waveemu refuses double.
template <class T, int N>
Lanes<T, N> sqrt(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("sqrt", T);
  const detail::FloatArithmetic p = detail::FloatArithmetic::Current<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (p.h100_tables) return detail::MapTable(x, p, detail::H100Sqrt);
  }
  return detail::MapLanes(x, [](auto, auto v) { return hn::Sqrt(v); },
                          [](T v) { return T(std::sqrt(float(v))); }, p);
}

// ------------------------------ isnan
/// isnan(x): true where x is a NaN (DXIL IsNaN).
template <class T, int N>
Bool<N> isnan(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("isnan", T);
  return x != x;
}

// ------------------------------ isinf
/// isinf(x): true where x is +inf or -inf (DXIL IsInf).
template <class T, int N>
Bool<N> isinf(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("isinf", T);
  return abs(x) == T(std::numeric_limits<float>::infinity());
}

// ------------------------------ isfinite
/// isfinite(x): true where x is neither NaN nor infinite (DXIL IsFinite).
template <class T, int N>
Bool<N> isfinite(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("isfinite", T);
  return abs(x) < T(std::numeric_limits<float>::infinity());  // false for NaN
}

// ------------------------------ round
/// round(x): to the nearest integer, ties to even (DXIL Round_ne): round(2.5) == 2,
/// round(-0.5) == -0. Exact.
template <class T, int N>
Lanes<T, N> round(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("round", T);
  return detail::MapLanes<false>(x, [](auto, auto v) { return hn::Round(v); },  // ties to even
                                 [](T v) { return T(std::nearbyint(float(v))); });
}

// ------------------------------ trunc
/// trunc(x): toward zero (DXIL Round_z). Exact.
template <class T, int N>
Lanes<T, N> trunc(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("trunc", T);
  return detail::MapLanes<false>(x, [](auto, auto v) { return hn::Trunc(v); },
                                 [](T v) { return T(std::trunc(float(v))); });
}

// ------------------------------ rcp
/// rcp(x) = 1 / x, one IEEE division as DXC emits it (translateRcp: fdiv 1.0, x); double too.
/// Under DivideSqrt::kH100Tables that division is 1 * the H100's rcp(x).
template <class T, int N>
Lanes<T, N> rcp(const Lanes<T, N>& x) {
  static_assert(kIsFloatLike<T>, "rcp takes half, float or double (HLSL any_float)");
  return Lanes<T, N>(T(1)) / x;
}

// ------------------------------ rsqrt
/// rsqrt(x) = 1 / sqrt(x): the correctly rounded square root, then one division (lavapipe's, on
/// every float of [1, 4)). DXIL Rsqrt is an approximation on GPUs (D3D allows error): the H100's
/// is its table for fp32 (DivideSqrt::kH100Tables).
template <class T, int N>
Lanes<T, N> rsqrt(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("rsqrt", T);
  if constexpr (std::is_same_v<T, float>) {
    const detail::FloatArithmetic p = detail::FloatArithmetic::Current<T>();
    if (p.h100_tables) return detail::MapTable(x, p, detail::H100Rsqrt);
  }
  return Lanes<T, N>(T(1)) / sqrt(x);
}

// ------------------------------ exp2
/// exp2(x) = 2^x (DXIL Exp), std::exp2 in float per lane, or lavapipe's or the H100's
/// (MathLibrary).
template <class T, int N>
Lanes<T, N> exp2(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("exp2", T);
  return detail::MapTranscendental(x, [](float v) { return std::exp2(v); },
                                   detail::llvmpipe::Exp2, detail::H100Exp2);
}

// ------------------------------ log2
/// log2(x) (DXIL Log), std::log2 in float per lane, or lavapipe's or the H100's (MathLibrary).
template <class T, int N>
Lanes<T, N> log2(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("log2", T);
  return detail::MapTranscendental<true>(x, [](float v) { return std::log2(v); },
                                         detail::llvmpipe::Log2, detail::H100Log2);
}

// ------------------------------ exp
/// exp(x) = exp2(T(log2 e) * x), DXC's expansion (translateExp); log2 e rounds to 1.44269502f.
template <class T, int N>
Lanes<T, N> exp(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("exp", T);
  return exp2(Lanes<T, N>(T(detail::kLog2E)) * x);
}

// ------------------------------ log
/// log(x) = T(ln 2) * log2(x), DXC's expansion (translateLog); ln 2 rounds to 0.693147182f.
template <class T, int N>
Lanes<T, N> log(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("log", T);
  return Lanes<T, N>(T(detail::kLn2)) * log2(x);
}

// ------------------------------ log10
/// log10(x) = T(ln 2 / ln 10) * log2(x) (translateLog10); the constant rounds to 0.30103001f.
template <class T, int N>
Lanes<T, N> log10(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("log10", T);
  return Lanes<T, N>(T(detail::kLn2OverLn10)) * log2(x);
}

// ------------------------------ pow
/// pow(x, y) = exp2(log2(x) * y), DXC's expansion (translatePowImpl), so pow of a negative x is
/// NaN (the H100 computes the same expansion with its exp2 and log2: run 18). DXC turns a constant
/// y of exactly 2 into x * x; waveemu does that when y is a plain C++ scalar equal to 2 (pass
/// Float<N>(y) for a run-time uniform value). Under MathLibrary::kLlvmpipe
/// (fp32) lavapipe's: the same expansion with its exp2 and log2, then +0 where x is 0 or NaN
/// (so pow(0, -1) == 0). A constant operand is the compiler's to rewrite (FunctionExpansion):
/// under kMesa and kNvidia a y of 4 is (x * x) * (x * x), as both drivers compile it (lavapipe's
/// NIR; the H100, run 17: 64 of 64 words, negative bases included), and under kMesa NIR also
/// makes a y of 1 x and an x of 2 exp2(y).
template <class T, int N>
Lanes<T, N> pow(const Lanes<T, N>& x, const Lanes<T, N>& y) {
  WAVEEMU_FLOAT_LIKE("pow", T);
  if constexpr (std::is_same_v<T, float>) {
    const detail::FloatArithmetic p = detail::FloatArithmetic::Current<T>();
    if (p.math_library == MathLibrary::kLlvmpipe)
      return detail::MapLlvmpipe(x, y, detail::llvmpipe::Pow, p);
  }
  return exp2(log2(x) * y);
}
template <class T, int N, class S>
  requires kIsScalar<S>
Lanes<T, N> pow(const Lanes<T, N>& x, S y) {
  if (y == S(2)) return x * x;
  const FunctionExpansion form = detail::Expansion<T>();
  if (y == S(4) && form != FunctionExpansion::kDxc) return (x * x) * (x * x);
  if (y == S(1) && form == FunctionExpansion::kMesa) return x;
  return pow(x, Lanes<T, N>(y));
}
template <class T, int N, class S>
  requires kIsScalar<S>
Lanes<T, N> pow(S x, const Lanes<T, N>& y) {
  if (x == S(2) && detail::Expansion<T>() == FunctionExpansion::kMesa) return exp2(y);
  return pow(Lanes<T, N>(x), y);
}

// ------------------------------ ldexp
/// ldexp(x, e) = exp2(e) * x, DXC's expansion (translateLdExp); e is a float like x. With an
/// integer-valued e it is exact (exp2 of an integer is exact) unless it overflows, or, under
/// MathLibrary::kLlvmpipe, e < -126 (lavapipe's exp2 is +0 there). lavapipe's own ldexp is not
/// modelled (glslang passes it the float exponent, which GLSL.std.450 Ldexp takes as an integer).
template <class T, int N>
Lanes<T, N> ldexp(const Lanes<T, N>& x, const Lanes<T, N>& e) {
  WAVEEMU_FLOAT_LIKE("ldexp", T);
  return exp2(e) * x;
}

// ------------------------------ fmod
/// fmod(x, y) as DXC expands it (translateFMod; clang's DirectX fmod_impl is the same):
/// d = x / y; f = frac(abs(d)); (d >= -d ? f : -f) * y. The result has x's sign (or is +0), but
/// it is not the exact remainder: fmod(-7, 3) is -(1 - 2^-22), fmod(-0, 3) is +0. HLSL's % on
/// floats (Lanes operator%) is the exact one (DXIL FRem, std::fmod). glslang compiles both to
/// OpFMod (the sign of y), so under FunctionExpansion kMesa and kNvidia fmod is % as that device
/// computes OpFMod: x - y * floor(x / y) (run 15).
template <class T, int N>
Lanes<T, N> fmod(const Lanes<T, N>& x, const Lanes<T, N>& y) {
  WAVEEMU_FLOAT_LIKE("fmod", T);
  if (detail::Expansion<T>() != FunctionExpansion::kDxc) return x % y;  // OpFMod: lanes.h
  const Lanes<T, N> d = x / y;
  const Lanes<T, N> f = frac(abs(d));
  return select(d >= -d, f, -f) * y;
}

// ------------------------------ step
/// step(y, x) = x < y ? 0 : 1 (translateStep), so a NaN operand gives 1.
template <class T, int N>
Lanes<T, N> step(const Lanes<T, N>& y, const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("step", T);
  return select(x < y, Lanes<T, N>(T(0)), Lanes<T, N>(T(1)));
}

// ------------------------------ smoothstep
/// smoothstep(a, b, x): s = saturate((x - a) / (b - a)); s * (s * (3 - s * 2)), the operations
/// and order of translateSmoothStep; for fp32 under kNvidia GLSL's (s * s) * (3 - 2 * s). b == a
/// gives a division by zero (inf or NaN, saturated).
template <class T, int N>
Lanes<T, N> smoothstep(const Lanes<T, N>& a, const Lanes<T, N>& b, const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("smoothstep", T);
  const Lanes<T, N> s = saturate((x - a) / (b - a));
  const Lanes<T, N> three_minus_2s = Lanes<T, N>(T(3)) - s * T(2);  // s * 2 is exact
  if (detail::Expansion<T>() == FunctionExpansion::kNvidia) return (s * s) * three_minus_2s;
  return s * (s * three_minus_2s);
}

// ------------------------------ degrees
/// degrees(x) = T(180 / pi) * x (translateDegrees; 57.2957802f).
template <class T, int N>
Lanes<T, N> degrees(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("degrees", T);
  return Lanes<T, N>(T(180.0 / detail::kPi)) * x;
}

// ------------------------------ radians
/// radians(x) = T(pi / 180) * x (translateRadians; 0.0174532924f).
template <class T, int N>
Lanes<T, N> radians(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("radians", T);
  return Lanes<T, N>(T(detail::kPi / 180.0)) * x;
}

// ------------------------------ sin, cos, tan, asin, acos, atan, sinh, cosh, tanh
// One DXIL primitive each (Sin, Cos, Tan, Asin, Acos, Atan, Hsin, Hcos, Htan): std:: in float per
// lane, not bit-exact to any device (D3D: sin/cos absolute error 0.0008 on [-100 pi, 100 pi]); or,
// for fp32 under MathLibrary::kLlvmpipe, lavapipe's (LLVMPIPE, from llvmpipe_math.h), and under
// kH100 the H100's where it is modelled (H100: from nvidia_tables.h, or nullptr).
// LIBRARY_NAN: whether the host form's NaN follows LibraryNan (measured for sin, cos, tan only).
#define WAVEEMU_MATH_TRANSCENDENTAL(NAME, LIBRARY_NAN, LLVMPIPE, H100)                  \
  template <class T, int N>                                                             \
  Lanes<T, N> NAME(const Lanes<T, N>& x) {                                              \
    WAVEEMU_FLOAT_LIKE(#NAME, T);                                                       \
    return detail::MapTranscendental<LIBRARY_NAN>(                                      \
        x, [](float v) { return std::NAME(v); }, detail::llvmpipe::LLVMPIPE, H100);     \
  }
WAVEEMU_MATH_TRANSCENDENTAL(sin, true, Sin, detail::H100Sin)
WAVEEMU_MATH_TRANSCENDENTAL(cos, true, Cos, detail::H100Cos)
WAVEEMU_MATH_TRANSCENDENTAL(tan, true, Tan, detail::H100Tan)
WAVEEMU_MATH_TRANSCENDENTAL(asin, false, Asin, nullptr)
WAVEEMU_MATH_TRANSCENDENTAL(acos, false, Acos, nullptr)
WAVEEMU_MATH_TRANSCENDENTAL(atan, false, Atan, nullptr)
WAVEEMU_MATH_TRANSCENDENTAL(sinh, false, Sinh, detail::H100Sinh)
WAVEEMU_MATH_TRANSCENDENTAL(cosh, false, Cosh, detail::H100Cosh)
WAVEEMU_MATH_TRANSCENDENTAL(tanh, false, Tanh, detail::H100Tanh)
#undef WAVEEMU_MATH_TRANSCENDENTAL

// ------------------------------ atan2
/// atan2(y, x) as DXC expands it (translateAtan2): a = atan(y / x); then x < 0 && y >= 0:
/// a + pi; x < 0 && y < 0: a - pi; x == 0 && y < 0: -pi/2; x == 0 && y >= 0: pi/2 (so
/// atan2(0, 0) is pi/2 and the sign of a zero y is ignored). pi, pi/2 are rounded to T. Under
/// MathLibrary::kLlvmpipe (fp32) NIR's atan2 (llvmpipe_math.h: atan2(0, 0) is about 3pi/4).
template <class T, int N>
Lanes<T, N> atan2(const Lanes<T, N>& y, const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("atan2", T);
  if constexpr (std::is_same_v<T, float>) {
    const detail::FloatArithmetic p = detail::FloatArithmetic::Current<T>();
    if (p.math_library == MathLibrary::kLlvmpipe)
      return detail::MapLlvmpipe(y, x, detail::llvmpipe::Atan2, p);
  }
  const Lanes<T, N> a = atan(y / x);
  const Lanes<T, N> zero(T(0)), pi(T(detail::kPi));
  const Bool<N> x_lt0 = x < zero, x_eq0 = x == zero, y_ge0 = y >= zero, y_lt0 = y < zero;
  Lanes<T, N> r = a;
  r = select(x_lt0 & y_ge0, a + pi, r);
  r = select(x_lt0 & y_lt0, a - pi, r);
  r = select(x_eq0 & y_lt0, Lanes<T, N>(T(-detail::kPi / 2)), r);
  return select(x_eq0 & y_ge0, Lanes<T, N>(T(detail::kPi / 2)), r);
}

// ------------------------------ sincos
/// sincos(x, out s, out c): s = sin(x), c = cos(x), assigned (masked) like any assignment; s and
/// c may be per-thread variables or buffer/groupshared elements.
template <class T, int N, class S, class C>
void sincos(const Lanes<T, N>& x, S&& s, C&& c) {
  WAVEEMU_FLOAT_LIKE("sincos", T);
  s = sin(x);
  c = cos(x);
}

// ------------------------------ f32tof16
/// f32tof16(x): the half nearest x (ties to even; overflow gives inf) in the low 16 bits of a
/// uint, the high 16 bits 0. Exact. A NaN gives a half NaN: x86's (sign, quiet bit and the
/// payload's top bits kept), 0x7e00 with x's sign under LibraryNan::kDefault, 0x7fff under
/// NanResult::kCanonical (probe_nan_math).
template <class T, int N>
Lanes<uint32_t, N> f32tof16(const Lanes<T, N>& x) {
  static_assert(std::is_same_v<T, float>, "f32tof16 takes float (HLSL float<>)");
  const detail::FloatArithmetic p = detail::FloatArithmetic::Current<float>();
  return detail::MapScalar<uint32_t>(x, [p](float v) {
    if (std::isnan(v) && p.canonical_nan) return 0x7fffu;
    if (std::isnan(v) && p.default_library_nan) return std::signbit(v) ? 0xfe00u : 0x7e00u;
    return uint32_t(half(v).bits());  // x86's F16C conversion, NaNs included
  });
}

// ------------------------------ f16tof32
/// f16tof32(x): the half in the low 16 bits of x, as float (exact; the high bits are ignored).
template <class T, int N>
Lanes<float, N> f16tof32(const Lanes<T, N>& x) {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t>,
                "f16tof32 takes uint (HLSL uint<>); an int converts");
  return detail::MapScalar<float>(
      x, [](T v) { return float(half::FromBits(uint16_t(uint32_t(v) & 0xFFFFu))); });
}

// ------------------------------------------------------------------------------------------------
// Mixed arguments: a per-thread value with plain scalars, and vectors component by component.

#define WAVEEMU_MATH_BINARY_SCALARS(NAME)                                                       \
  template <class T, int N, class S>                                                            \
    requires kIsScalar<S>                                                                       \
  Lanes<T, N> NAME(const Lanes<T, N>& a, S b) {                                                 \
    return NAME(a, Lanes<T, N>(b));                                                             \
  }                                                                                             \
  template <class T, int N, class S>                                                            \
    requires kIsScalar<S>                                                                       \
  Lanes<T, N> NAME(S a, const Lanes<T, N>& b) {                                                 \
    return NAME(Lanes<T, N>(a), b);                                                             \
  }

/// A plain scalar operand goes to the per-thread-and-scalar form unchanged (pow(v, 2) is v * v).
#define WAVEEMU_MATH_BINARY_VECTORS(NAME)                                                       \
  template <class T, int C, int N>                                                              \
  Vector<T, C, N> NAME(const Vector<T, C, N>& a, const Vector<T, C, N>& b) {                    \
    return detail::BuildVector<T, C, N>([&](int i) { return NAME(a[i], b[i]); });               \
  }                                                                                             \
  template <class T, int C, int N, class B>                                                     \
    requires(!detail::kIsVectorArg<B> && !detail::HasLoad<B> && !detail::kIsUniformVectorArg<B>) \
  Vector<T, C, N> NAME(const Vector<T, C, N>& a, const B& b) {                                  \
    if constexpr (kIsScalar<B>) {                                                               \
      return detail::BuildVector<T, C, N>([&](int i) { return NAME(a[i], b); });                \
    } else {                                                                                    \
      const Lanes<T, N> bl(b);                                                                  \
      return detail::BuildVector<T, C, N>([&](int i) { return NAME(a[i], bl); });               \
    }                                                                                           \
  }                                                                                             \
  template <class T, int C, int N, class A>                                                     \
    requires(!detail::kIsVectorArg<A> && !detail::HasLoad<A> && !detail::kIsUniformVectorArg<A>) \
  Vector<T, C, N> NAME(const A& a, const Vector<T, C, N>& b) {                                  \
    const Lanes<T, N> al(a);                                                                    \
    return detail::BuildVector<T, C, N>([&](int i) { return NAME(al, b[i]); });                 \
  }

#define WAVEEMU_MATH_BINARY(NAME) \
  WAVEEMU_MATH_BINARY_SCALARS(NAME) \
  WAVEEMU_MATH_BINARY_VECTORS(NAME)

WAVEEMU_MATH_BINARY(min)
WAVEEMU_MATH_BINARY(max)
WAVEEMU_MATH_BINARY(fmod)
WAVEEMU_MATH_BINARY(step)
WAVEEMU_MATH_BINARY(atan2)
WAVEEMU_MATH_BINARY(ldexp)
WAVEEMU_MATH_BINARY_VECTORS(pow)  // pow's scalar forms are above (y == 2, 4, ...)
#undef WAVEEMU_MATH_BINARY
#undef WAVEEMU_MATH_BINARY_VECTORS
#undef WAVEEMU_MATH_BINARY_SCALARS

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
WAVEEMU_MATH_UNARY(isnan)
WAVEEMU_MATH_UNARY(isinf)
WAVEEMU_MATH_UNARY(isfinite)
WAVEEMU_MATH_UNARY(round)
WAVEEMU_MATH_UNARY(trunc)
WAVEEMU_MATH_UNARY(rcp)
WAVEEMU_MATH_UNARY(rsqrt)
WAVEEMU_MATH_UNARY(exp2)
WAVEEMU_MATH_UNARY(log2)
WAVEEMU_MATH_UNARY(exp)
WAVEEMU_MATH_UNARY(log)
WAVEEMU_MATH_UNARY(log10)
WAVEEMU_MATH_UNARY(degrees)
WAVEEMU_MATH_UNARY(radians)
WAVEEMU_MATH_UNARY(sin)
WAVEEMU_MATH_UNARY(cos)
WAVEEMU_MATH_UNARY(tan)
WAVEEMU_MATH_UNARY(asin)
WAVEEMU_MATH_UNARY(acos)
WAVEEMU_MATH_UNARY(atan)
WAVEEMU_MATH_UNARY(sinh)
WAVEEMU_MATH_UNARY(cosh)
WAVEEMU_MATH_UNARY(tanh)
WAVEEMU_MATH_UNARY(f32tof16)
WAVEEMU_MATH_UNARY(f16tof32)
#undef WAVEEMU_MATH_UNARY

#define WAVEEMU_MATH_TERNARY(NAME)                                                            \
  template <class T, int C, int N, class B, class D>                                          \
    requires(!detail::kAnyReference<B, D> && !detail::kAnyUniformVectorArg<B, D>)             \
  Vector<T, C, N> NAME(const Vector<T, C, N>& a, const B& b, const D& d) {                    \
    return detail::BuildVector<T, C, N>([&](int i) {                                          \
      return NAME(a[i], Lanes<T, N>(detail::ComponentOf(b, i)),                               \
                  Lanes<T, N>(detail::ComponentOf(d, i)));                                    \
    });                                                                                       \
  }

WAVEEMU_MATH_TERNARY(clamp)
WAVEEMU_MATH_TERNARY(mad)
WAVEEMU_MATH_TERNARY(lerp)
WAVEEMU_MATH_TERNARY(smoothstep)
#undef WAVEEMU_MATH_TERNARY

namespace detail {

template <class T, int N>
Lanes<T, N> PerThreadTypeOf(const Lanes<T, N>&);
template <class T, int C, int N>
Vector<T, C, N> PerThreadTypeOf(const Vector<T, C, N>&);
/// A per-thread scalar or vector, or a type derived from one (SV_GroupIndex<N>, v.x, v.xy()).
template <class X>
concept PerThreadValue = requires(const X& x) { PerThreadTypeOf(x); };

}  // namespace detail

/// sincos on a vector: s = sin(v), c = cos(v), component by component.
template <class T, int C, int N, class S, class Co>
void sincos(const Vector<T, C, N>& x, S&& s, Co&& c) {
  WAVEEMU_FLOAT_LIKE("sincos", T);
  s = sin(x);
  c = cos(x);
}

// ------------------------------------------------------------------------------------------------
// Geometry on per-thread vectors, as DXC expands each (lib/HLSL/HLOperationLower.cpp). A device
// compiles them itself (GLSL.std.450 from glslang); for fp32 the profile's FunctionExpansion says
// how: DXC's forms, Mesa's or the H100's (probe_division, probe_geometry).

// ------------------------------ dot
/// HLSL dot(a, b): a.x*b.x + a.y*b.y + ..., added left to right, each product and sum rounded
/// (DXIL's Dot2/3/4 leave order and rounding to the driver); for fp32 under kNvidia
/// mad(w, w', mad(z, z', mad(x, x', y * y'))), fused as the profile fuses mad.
template <class T, int C, int N>
Lanes<T, N> dot(const Vector<T, C, N>& a, const Vector<T, C, N>& b) {
  static_assert(!std::is_same_v<T, bool>, "dot needs numeric vectors, not bool vectors");
  if constexpr (C >= 2) {
    if (detail::Expansion<T>() == FunctionExpansion::kNvidia) {
      Lanes<T, N> sum = mad(a[0], b[0], a[1] * b[1]);
      for (int i = 2; i < C; ++i) sum = mad(a[i], b[i], sum);
      return sum;
    }
  }
  return [&]<size_t... I>(std::index_sequence<I...>) {
    return (... + Lanes<T, N>(a[int(I)] * b[int(I)]));
  }(std::make_index_sequence<C>{});
}

// ------------------------------ length
/// length(v) = sqrt(dot(v, v)) (translateLength); length of a per-thread scalar is abs(x).
template <class T, int C, int N>
Lanes<T, N> length(const Vector<T, C, N>& v) {
  WAVEEMU_FLOAT_LIKE("length", T);
  return sqrt(dot(v, v));
}
template <class T, int N>
Lanes<T, N> length(const Lanes<T, N>& x) {
  WAVEEMU_FLOAT_LIKE("length", T);
  return abs(x);
}

// ------------------------------ distance
/// distance(a, b) = length(a - b) (translateDistance).
template <class T, int C, int N>
Lanes<T, N> distance(const Vector<T, C, N>& a, const Vector<T, C, N>& b) {
  return length(a - b);
}
template <class T, int N>
Lanes<T, N> distance(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return length(a - b);
}

// ------------------------------ normalize
/// normalize(v) = v * rsqrt(dot(v, v)) (translateNormalize; DXIL Rsqrt, here 1 / sqrt), or for
/// fp32 under kMesa v / sqrt(dot(v, v)). A zero vector gives NaN components (0 * inf, 0 / 0).
template <class T, int C, int N>
Vector<T, C, N> normalize(const Vector<T, C, N>& v) {
  WAVEEMU_FLOAT_LIKE("normalize", T);
  const Lanes<T, N> squared = dot(v, v);
  if (detail::Expansion<T>() == FunctionExpansion::kMesa) return v / sqrt(squared);
  return v * rsqrt(squared);
}

// ------------------------------ cross
/// cross(a, b) = (a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x) (translateCross);
/// for fp32 under kNvidia the first product is fused: mad(a.y, b.z, -(a.z*b.y)), ...
template <class T, int C, int N>
Vector<T, 3, N> cross(const Vector<T, C, N>& a, const Vector<T, C, N>& b) {
  static_assert(C == 3, "cross takes two 3-component vectors (HLSL float_like<3>)");
  WAVEEMU_FLOAT_LIKE("cross", T);
  if (detail::Expansion<T>() == FunctionExpansion::kNvidia)
    return Vector<T, 3, N>(mad(a[1], b[2], -(a[2] * b[1])), mad(a[2], b[0], -(a[0] * b[2])),
                           mad(a[0], b[1], -(a[1] * b[0])));
  return Vector<T, 3, N>(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                         a[0] * b[1] - a[1] * b[0]);
}

// ------------------------------ reflect
/// reflect(i, n) = i - (2 * dot(i, n)) * n (translateReflect); for fp32 under kNvidia
/// mad(-(2 * dot(i, n)), n, i), fused.
template <class T, int C, int N>
Vector<T, C, N> reflect(const Vector<T, C, N>& i, const Vector<T, C, N>& n) {
  WAVEEMU_FLOAT_LIKE("reflect", T);
  const Lanes<T, N> twice_dot = Lanes<T, N>(T(2)) * dot(i, n);
  if (detail::Expansion<T>() == FunctionExpansion::kNvidia) {
    const Lanes<T, N> minus = -twice_dot;
    return detail::BuildVector<T, C, N>([&](int k) { return mad(minus, n[k], i[k]); });
  }
  return i - twice_dot * n;
}

// ------------------------------ refract
/// refract(i, n, eta): d = dot(i, n); t = 1 - (1 - d*d) * (eta*eta);
/// t >= 0 ? i*eta - (eta*d + sqrt(t)) * n : 0 (translateRefract). eta is a per-thread or plain
/// scalar. For fp32 the devices follow GLSL's refract: t < 0 ? 0 : r, so a NaN t gives NaN;
/// under kMesa t = 1 - eta * (eta * (1 - d*d)); under kNvidia every product is fused into the
/// add after it: t = mad(-(eta*eta), mad(-d, d, 1), 1), q = mad(eta, d, sqrt(t)),
/// r = mad(eta, i, -(q * n)).
template <class T, int C, int N, class E>
  requires detail::kBroadcastsTo<E, T, N>
Vector<T, C, N> refract(const Vector<T, C, N>& i, const Vector<T, C, N>& n, const E& eta_arg) {
  WAVEEMU_FLOAT_LIKE("refract", T);
  const Lanes<T, N> eta(eta_arg), one(T(1));
  const Lanes<T, N> d = dot(i, n);
  const Vector<T, C, N> zero(T(0));
  const FunctionExpansion form = detail::Expansion<T>();
  Lanes<T, N> t;
  Vector<T, C, N> r;
  if (form == FunctionExpansion::kNvidia) {
    t = mad(-(eta * eta), mad(-d, d, one), one);
    const Lanes<T, N> q = mad(eta, d, sqrt(t));
    r = detail::BuildVector<T, C, N>([&](int k) { return mad(eta, i[k], -(q * n[k])); });
  } else {
    t = form == FunctionExpansion::kMesa ? one - eta * (eta * (one - d * d))
                                         : one - (one - d * d) * (eta * eta);
    r = i * eta - (eta * d + sqrt(t)) * n;
  }
  // DXC tests t >= 0 (a NaN t gives 0); the devices test GLSL's t < 0 (a NaN t keeps r).
  return form == FunctionExpansion::kDxc ? select(t >= T(0), r, zero) : select(t < T(0), zero, r);
}

// ------------------------------ faceforward
/// faceforward(n, i, ng) = dot(i, ng) < 0 ? n : -n (translateFaceforward).
template <class T, int C, int N>
Vector<T, C, N> faceforward(const Vector<T, C, N>& n, const Vector<T, C, N>& i,
                            const Vector<T, C, N>& ng) {
  WAVEEMU_FLOAT_LIKE("faceforward", T);
  return select(dot(i, ng) < T(0), n, -n);
}

// ------------------------------------------------------------------------------------------------
// Uniform (plain scalar) forms, for values that are the same on every thread.

template <class T>
  requires kIsScalar<T>
T clamp(T x, T lo, T hi) {
  return clamp(Lanes<T, 1>(x), lo, hi).lane(0);
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

// The other uniform forms compute through a one-thread Lanes<T, 1>, so they follow exactly the
// per-thread rules above (and their static_asserts).
#define WAVEEMU_MATH_UNIFORM_UNARY(NAME)        \
  template <class T>                            \
    requires kIsScalar<T>                       \
  auto NAME(T x) {                              \
    return NAME(Lanes<T, 1>(x)).lane(0);        \
  }
WAVEEMU_MATH_UNIFORM_UNARY(abs)
WAVEEMU_MATH_UNIFORM_UNARY(saturate)
WAVEEMU_MATH_UNIFORM_UNARY(sqrt)
WAVEEMU_MATH_UNIFORM_UNARY(floor)
WAVEEMU_MATH_UNIFORM_UNARY(ceil)
WAVEEMU_MATH_UNIFORM_UNARY(frac)
WAVEEMU_MATH_UNIFORM_UNARY(sign)
WAVEEMU_MATH_UNIFORM_UNARY(isnan)
WAVEEMU_MATH_UNIFORM_UNARY(isinf)
WAVEEMU_MATH_UNIFORM_UNARY(isfinite)
WAVEEMU_MATH_UNIFORM_UNARY(round)
WAVEEMU_MATH_UNIFORM_UNARY(trunc)
WAVEEMU_MATH_UNIFORM_UNARY(rcp)
WAVEEMU_MATH_UNIFORM_UNARY(rsqrt)
WAVEEMU_MATH_UNIFORM_UNARY(exp2)
WAVEEMU_MATH_UNIFORM_UNARY(log2)
WAVEEMU_MATH_UNIFORM_UNARY(exp)
WAVEEMU_MATH_UNIFORM_UNARY(log)
WAVEEMU_MATH_UNIFORM_UNARY(log10)
WAVEEMU_MATH_UNIFORM_UNARY(degrees)
WAVEEMU_MATH_UNIFORM_UNARY(radians)
WAVEEMU_MATH_UNIFORM_UNARY(sin)
WAVEEMU_MATH_UNIFORM_UNARY(cos)
WAVEEMU_MATH_UNIFORM_UNARY(tan)
WAVEEMU_MATH_UNIFORM_UNARY(asin)
WAVEEMU_MATH_UNIFORM_UNARY(acos)
WAVEEMU_MATH_UNIFORM_UNARY(atan)
WAVEEMU_MATH_UNIFORM_UNARY(sinh)
WAVEEMU_MATH_UNIFORM_UNARY(cosh)
WAVEEMU_MATH_UNIFORM_UNARY(tanh)
WAVEEMU_MATH_UNIFORM_UNARY(length)
#undef WAVEEMU_MATH_UNIFORM_UNARY
inline uint32_t f32tof16(float x) { return f32tof16(Lanes<float, 1>(x)).lane(0); }
inline float f16tof32(uint32_t x) { return f16tof32(Lanes<uint32_t, 1>(x)).lane(0); }

#define WAVEEMU_MATH_UNIFORM_BINARY(NAME)                  \
  template <class T>                                       \
    requires kIsScalar<T>                                  \
  T NAME(T a, T b) {                                       \
    return NAME(Lanes<T, 1>(a), Lanes<T, 1>(b)).lane(0);   \
  }
WAVEEMU_MATH_UNIFORM_BINARY(min)
WAVEEMU_MATH_UNIFORM_BINARY(max)
WAVEEMU_MATH_UNIFORM_BINARY(fmod)
WAVEEMU_MATH_UNIFORM_BINARY(step)
WAVEEMU_MATH_UNIFORM_BINARY(atan2)
WAVEEMU_MATH_UNIFORM_BINARY(ldexp)
WAVEEMU_MATH_UNIFORM_BINARY(distance)
#undef WAVEEMU_MATH_UNIFORM_BINARY
template <class T>
  requires kIsScalar<T>
T pow(T x, T y) {
  return pow(Lanes<T, 1>(x), y).lane(0);  // y == 2 gives x * x (and 4, 1), as per thread
}
template <class T>
  requires kIsScalar<T>
T lerp(T a, T b, T s) {
  return lerp(Lanes<T, 1>(a), b, s).lane(0);
}
template <class T>
  requires kIsScalar<T>
T smoothstep(T a, T b, T x) {
  return smoothstep(Lanes<T, 1>(a), Lanes<T, 1>(b), Lanes<T, 1>(x)).lane(0);
}
// Where HLSL's result differs from <cmath>'s (ties to even, DXC's expansions, lerp's formula, a
// device's sqrt or transcendentals), the float forms are also plain functions. Code that
// sees both (a kernel at global scope with `using namespace waveemu`, where libstdc++'s <math.h>
// declares ::round(float) and friends) then gets an ambiguous call, a compile error, instead of
// the C library's result in silence; inside namespace waveemu these are found first.
#define WAVEEMU_MATH_NOT_CMATH_UNARY(NAME) \
  inline float NAME(float x) { return NAME<float>(x); }
#define WAVEEMU_MATH_NOT_CMATH_BINARY(NAME) \
  inline float NAME(float x, float y) { return NAME<float>(x, y); }
WAVEEMU_MATH_NOT_CMATH_UNARY(round)
WAVEEMU_MATH_NOT_CMATH_UNARY(sqrt)  // the H100's table under DivideSqrt::kH100Tables
WAVEEMU_MATH_NOT_CMATH_UNARY(exp)
WAVEEMU_MATH_NOT_CMATH_UNARY(log)
WAVEEMU_MATH_NOT_CMATH_UNARY(log10)
// lavapipe's under MathLibrary::kLlvmpipe, the H100's under kH100 (but asin, acos, atan, atan2)
WAVEEMU_MATH_NOT_CMATH_UNARY(exp2)
WAVEEMU_MATH_NOT_CMATH_UNARY(log2)
WAVEEMU_MATH_NOT_CMATH_UNARY(sin)
WAVEEMU_MATH_NOT_CMATH_UNARY(cos)
WAVEEMU_MATH_NOT_CMATH_UNARY(tan)
WAVEEMU_MATH_NOT_CMATH_UNARY(asin)
WAVEEMU_MATH_NOT_CMATH_UNARY(acos)
WAVEEMU_MATH_NOT_CMATH_UNARY(atan)
WAVEEMU_MATH_NOT_CMATH_UNARY(sinh)
WAVEEMU_MATH_NOT_CMATH_UNARY(cosh)
WAVEEMU_MATH_NOT_CMATH_UNARY(tanh)
WAVEEMU_MATH_NOT_CMATH_BINARY(fmod)
WAVEEMU_MATH_NOT_CMATH_BINARY(pow)
WAVEEMU_MATH_NOT_CMATH_BINARY(atan2)
WAVEEMU_MATH_NOT_CMATH_BINARY(ldexp)
inline float lerp(float a, float b, float s) { return lerp<float>(a, b, s); }
// HLSL declares lerp for float_like: a double lerp is computed in float (DXC, glslang). Deleted so
// that neither this nor C++20's std::lerp (which libstdc++'s <math.h> brings to global scope)
// computes it in double: write lerp(float(a), float(b), float(s)).
double lerp(double a, double b, double s) = delete;
#undef WAVEEMU_MATH_NOT_CMATH_BINARY
#undef WAVEEMU_MATH_NOT_CMATH_UNARY

template <class T>
  requires kIsScalar<T>
void sincos(T x, T& s, T& c) {
  s = sin(x);
  c = cos(x);
}

template <class T>
  requires kIsScalar<T>
T mad(T a, T b, T c) {
  // Fused or not as the running group's profile says, like a per-thread mad.
  return mad(Lanes<T, 1>(a), Lanes<T, 1>(b), Lanes<T, 1>(c)).lane(0);
}
/// select(cond, a, b) on uniform scalars: a where cond, else b (both are evaluated, as in HLSL).
template <class T>
  requires kIsScalar<T>
T select(bool cond, T a, T b) {
  return cond ? a : b;
}
template <class T>
  requires kIsScalar<T>
bool any(T x) {
  return x != T(0);
}
template <class T>
  requires kIsScalar<T>
bool all(T x) {
  return x != T(0);
}

#undef WAVEEMU_FLOAT_LIKE

// ------------------------------------------------------------------------------------------------
// Uniform vectors as arguments (normalize(LightDir), clamp(Color, 0.0f, 1.0f)), and calls that
// mix uniform and per-thread values (lerp(0.0f, 1.0f, t), dot(Normal, LightDir)).
//
// An all-uniform call runs as one thread (Vector<T, C, 1>) and gives a uniform result; a mixed
// call broadcasts its uniform arguments to the per-thread type first. Both then take the
// per-thread path, so a value computes to the same bits whether it is uniform or per-thread.

namespace detail {

/// The element type a mixed call broadcasts its plain scalars to: that of the first per-thread
/// argument that is not a bool (select's condition is one).
template <class First, class... Rest>
constexpr auto MixedScalarTag() {
  if constexpr (PerThreadValue<First>) {
    using P = decltype(PerThreadTypeOf(std::declval<const First&>()));
    if constexpr (!std::is_same_v<typename P::value_type, bool>)
      return std::type_identity<P>{};
    else if constexpr (sizeof...(Rest) > 0) return MixedScalarTag<Rest...>();
    else return std::type_identity<void>{};
  } else if constexpr (sizeof...(Rest) > 0) {
    return MixedScalarTag<Rest...>();
  } else {
    return std::type_identity<void>{};
  }
}

template <class A>
constexpr int ThreadsOfArg() {
  if constexpr (PerThreadValue<A>)
    return decltype(PerThreadTypeOf(std::declval<const A&>()))::kSize;
  else if constexpr (requires { A::kSize; }) return A::kSize;  // Bool<N>
  else return 0;
}
template <class... A>
inline constexpr int kThreadsOfCall = std::max({ThreadsOfArg<A>()...});

template <class A>
constexpr int ComponentsOfArg() {
  if constexpr (kIsUniformVectorArg<A>) {
    return kUniformArgComponents<A>;
  } else if constexpr (PerThreadValue<A>) {
    using P = decltype(PerThreadTypeOf(std::declval<const A&>()));
    if constexpr (kIsVectorArg<P>) return P::kComponents;
    else return 0;
  } else {
    return 0;
  }
}
/// The vector width of a call: its first vector argument's components; 0 when it has none.
template <class... A>
inline constexpr int kComponentsOfCall = std::max({ComponentsOfArg<A>()...});

/// A call that mixes uniform and per-thread arguments in a way the per-thread overloads do not
/// all take: a uniform vector, a plain scalar or bool among per-thread values, or a scalar first
/// argument with vectors after it (clamp(x, Lo3, 1.0f) is a vector clamp in HLSL). Where a
/// per-thread overload takes the call too (min(2.0f, x)), that overload is more specialised and
/// wins.
template <class First, class... Rest>
inline constexpr bool kMixedCall =
    (kThreadsOfCall<First, Rest...> > 0) && !kAnyReference<First, Rest...> &&
    (kAnyUniformVectorArg<First, Rest...> || kIsScalar<First> || (kIsScalar<Rest> || ...) ||
     (ComponentsOfArg<First>() == 0 && kComponentsOfCall<Rest...> > 0));

/// An argument of a mixed call as N threads see it: a uniform vector broadcast to
/// Vector<T, C, N>, a plain scalar to Lanes<S, N>, a bool to Bool<N>; per-thread values as they
/// are.
template <class S, int N, class A>
decltype(auto) PerThreadArg(const A& a) {
  if constexpr (kIsUniformVectorArg<A>) return BroadcastUniform<N>(a);
  else if constexpr (std::is_same_v<A, bool>) return Bool<N>(a);
  else if constexpr (kIsScalar<A>) return Lanes<S, N>(a);
  else return (a);
}

/// The first argument of a mixed call, which decides HLSL's result shape: as PerThreadArg, and a
/// scalar (plain or per-thread) broadcast to Vector<S, C, N> when the call has C-vectors.
template <class S, int N, int C, class A>
decltype(auto) FirstPerThreadArg(const A& a) {
  if constexpr (C > 0 && ComponentsOfArg<A>() == 0 && !std::is_same_v<A, bool> &&
                !std::is_same_v<A, Bool<N>>)
    return Vector<S, C, N>(Lanes<S, N>(a));
  else return PerThreadArg<S, N>(a);
}

}  // namespace detail

// A reference to a buffer element (RW[0u]) takes WAVEEMU_TAKES_REFERENCES's form instead, which
// reads it and calls again: both would match a reference to a uniform vector element.
#define WAVEEMU_UNIFORM_VECTOR_FORM(NAME)                                                       \
  template <class... A>                                                                         \
    requires(detail::kAnyUniformVectorArg<A...> && detail::kThreadsOfCall<A...> == 0 &&         \
             !detail::kAnyReference<A...>)                                                      \
  auto NAME(const A&... a)->decltype(detail::FromOneThread(NAME(detail::OneThread(a)...))) {    \
    return detail::FromOneThread(NAME(detail::OneThread(a)...));                                \
  }
#define WAVEEMU_MIXED_FORM(NAME)                                                                \
  template <class First, class... A>                                                            \
    requires detail::kMixedCall<First, A...>                                                    \
  auto NAME(const First& first, const A&... a) {                                                \
    using S = typename decltype(detail::MixedScalarTag<First, A...>())::type::value_type;       \
    constexpr int N = detail::kThreadsOfCall<First, A...>;                                      \
    return NAME(detail::FirstPerThreadArg<S, N, detail::kComponentsOfCall<First, A...>>(first), \
                detail::PerThreadArg<S, N>(a)...);                                              \
  }
#define WAVEEMU_UNIFORM_AND_MIXED_FORMS(NAME) \
  WAVEEMU_UNIFORM_VECTOR_FORM(NAME)           \
  WAVEEMU_MIXED_FORM(NAME)

// One argument: a uniform vector is the only new case.
WAVEEMU_UNIFORM_VECTOR_FORM(abs)
WAVEEMU_UNIFORM_VECTOR_FORM(saturate)
WAVEEMU_UNIFORM_VECTOR_FORM(asuint)
WAVEEMU_UNIFORM_VECTOR_FORM(asint)
WAVEEMU_UNIFORM_VECTOR_FORM(asfloat)
WAVEEMU_UNIFORM_VECTOR_FORM(countbits)
WAVEEMU_UNIFORM_VECTOR_FORM(firstbitlow)
WAVEEMU_UNIFORM_VECTOR_FORM(firstbithigh)
WAVEEMU_UNIFORM_VECTOR_FORM(reversebits)
WAVEEMU_UNIFORM_VECTOR_FORM(sqrt)
WAVEEMU_UNIFORM_VECTOR_FORM(floor)
WAVEEMU_UNIFORM_VECTOR_FORM(ceil)
WAVEEMU_UNIFORM_VECTOR_FORM(frac)
WAVEEMU_UNIFORM_VECTOR_FORM(sign)
WAVEEMU_UNIFORM_VECTOR_FORM(isnan)
WAVEEMU_UNIFORM_VECTOR_FORM(isinf)
WAVEEMU_UNIFORM_VECTOR_FORM(isfinite)
WAVEEMU_UNIFORM_VECTOR_FORM(round)
WAVEEMU_UNIFORM_VECTOR_FORM(trunc)
WAVEEMU_UNIFORM_VECTOR_FORM(rcp)
WAVEEMU_UNIFORM_VECTOR_FORM(rsqrt)
WAVEEMU_UNIFORM_VECTOR_FORM(exp2)
WAVEEMU_UNIFORM_VECTOR_FORM(log2)
WAVEEMU_UNIFORM_VECTOR_FORM(exp)
WAVEEMU_UNIFORM_VECTOR_FORM(log)
WAVEEMU_UNIFORM_VECTOR_FORM(log10)
WAVEEMU_UNIFORM_VECTOR_FORM(degrees)
WAVEEMU_UNIFORM_VECTOR_FORM(radians)
WAVEEMU_UNIFORM_VECTOR_FORM(sin)
WAVEEMU_UNIFORM_VECTOR_FORM(cos)
WAVEEMU_UNIFORM_VECTOR_FORM(tan)
WAVEEMU_UNIFORM_VECTOR_FORM(asin)
WAVEEMU_UNIFORM_VECTOR_FORM(acos)
WAVEEMU_UNIFORM_VECTOR_FORM(atan)
WAVEEMU_UNIFORM_VECTOR_FORM(sinh)
WAVEEMU_UNIFORM_VECTOR_FORM(cosh)
WAVEEMU_UNIFORM_VECTOR_FORM(tanh)
WAVEEMU_UNIFORM_VECTOR_FORM(f32tof16)
WAVEEMU_UNIFORM_VECTOR_FORM(f16tof32)
WAVEEMU_UNIFORM_VECTOR_FORM(length)
WAVEEMU_UNIFORM_VECTOR_FORM(normalize)
WAVEEMU_UNIFORM_VECTOR_FORM(any)
WAVEEMU_UNIFORM_VECTOR_FORM(all)
// Several arguments: uniform vectors, and mixes with per-thread values.
WAVEEMU_UNIFORM_AND_MIXED_FORMS(min)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(max)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(clamp)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(mad)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(lerp)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(fmod)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(step)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(atan2)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(ldexp)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(pow)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(smoothstep)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(dot)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(cross)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(distance)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(reflect)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(refract)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(faceforward)
WAVEEMU_UNIFORM_AND_MIXED_FORMS(select)
#undef WAVEEMU_UNIFORM_AND_MIXED_FORMS
#undef WAVEEMU_MIXED_FORM
#undef WAVEEMU_UNIFORM_VECTOR_FORM

// ------------------------------------------------------------------------------------------------
// Buffer and groupshared elements as arguments (max(Data[i], 0.0f), length(Normals[i])): each
// name's reference overload, after all its other overloads (emulator/lanes.h).

WAVEEMU_TAKES_REFERENCES(min)
WAVEEMU_TAKES_REFERENCES(max)
WAVEEMU_TAKES_REFERENCES(abs)
WAVEEMU_TAKES_REFERENCES(clamp)
WAVEEMU_TAKES_REFERENCES(saturate)
WAVEEMU_TAKES_REFERENCES(mad)
WAVEEMU_TAKES_REFERENCES(asuint)
WAVEEMU_TAKES_REFERENCES(asint)
WAVEEMU_TAKES_REFERENCES(asfloat)
WAVEEMU_TAKES_REFERENCES(asdouble)
WAVEEMU_TAKES_REFERENCES(countbits)
WAVEEMU_TAKES_REFERENCES(firstbitlow)
WAVEEMU_TAKES_REFERENCES(firstbithigh)
WAVEEMU_TAKES_REFERENCES(reversebits)
WAVEEMU_TAKES_REFERENCES(sqrt)
WAVEEMU_TAKES_REFERENCES(floor)
WAVEEMU_TAKES_REFERENCES(ceil)
WAVEEMU_TAKES_REFERENCES(frac)
WAVEEMU_TAKES_REFERENCES(lerp)
WAVEEMU_TAKES_REFERENCES(sign)
WAVEEMU_TAKES_REFERENCES(isnan)
WAVEEMU_TAKES_REFERENCES(isinf)
WAVEEMU_TAKES_REFERENCES(isfinite)
WAVEEMU_TAKES_REFERENCES(round)
WAVEEMU_TAKES_REFERENCES(trunc)
WAVEEMU_TAKES_REFERENCES(rcp)
WAVEEMU_TAKES_REFERENCES(rsqrt)
WAVEEMU_TAKES_REFERENCES(exp2)
WAVEEMU_TAKES_REFERENCES(log2)
WAVEEMU_TAKES_REFERENCES(exp)
WAVEEMU_TAKES_REFERENCES(log)
WAVEEMU_TAKES_REFERENCES(log10)
WAVEEMU_TAKES_REFERENCES(pow)
WAVEEMU_TAKES_REFERENCES(ldexp)
WAVEEMU_TAKES_REFERENCES(fmod)
WAVEEMU_TAKES_REFERENCES(step)
WAVEEMU_TAKES_REFERENCES(smoothstep)
WAVEEMU_TAKES_REFERENCES(degrees)
WAVEEMU_TAKES_REFERENCES(radians)
WAVEEMU_TAKES_REFERENCES(sin)
WAVEEMU_TAKES_REFERENCES(cos)
WAVEEMU_TAKES_REFERENCES(tan)
WAVEEMU_TAKES_REFERENCES(asin)
WAVEEMU_TAKES_REFERENCES(acos)
WAVEEMU_TAKES_REFERENCES(atan)
WAVEEMU_TAKES_REFERENCES(sinh)
WAVEEMU_TAKES_REFERENCES(cosh)
WAVEEMU_TAKES_REFERENCES(tanh)
WAVEEMU_TAKES_REFERENCES(atan2)
WAVEEMU_TAKES_REFERENCES(f32tof16)
WAVEEMU_TAKES_REFERENCES(f16tof32)
WAVEEMU_TAKES_REFERENCES(dot)
WAVEEMU_TAKES_REFERENCES(length)
WAVEEMU_TAKES_REFERENCES(distance)
WAVEEMU_TAKES_REFERENCES(normalize)
WAVEEMU_TAKES_REFERENCES(cross)
WAVEEMU_TAKES_REFERENCES(reflect)
WAVEEMU_TAKES_REFERENCES(refract)
WAVEEMU_TAKES_REFERENCES(faceforward)

// sincos and asuint(double, out, out) write through their last two arguments, which the macro
// would pass as copies: their reference forms read only the input.
template <class X, class S, class C>
  requires detail::HasLoad<X>
void sincos(const X& x, S&& s, C&& c) {
  sincos(x.Load(), std::forward<S>(s), std::forward<C>(c));
}
template <class X, int N>
  requires detail::HasLoad<X>
void asuint(const X& d, Lanes<uint32_t, N>& lowbits, Lanes<uint32_t, N>& highbits) {
  asuint(d.Load(), lowbits, highbits);
}

}  // namespace waveemu
