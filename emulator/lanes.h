// lanes.h -- per-thread values of a thread group: Lanes<T, N> (one T per thread) and Bool<N>.
//
// A group of N threads runs in lockstep, so an HLSL local `uint x` becomes Uint<N>: N values in
// one aligned array, computed all at once through Highway. Assignment obeys the current
// execution mask (only active threads change), exactly like a store in a divergent HLSL branch;
// construction initialises every thread. HLSL's integer and conversion rules (DESIGN §2 rule 3)
// hold on every thread, so no C++ undefined behaviour leaks through.
#pragma once

#include "emulator/exec.h"
#include "emulator/half.h"
#include "emulator/mask.h"
#include "emulator/nvidia_tables.h"
#include "emulator/poison.h"
#include "emulator/simd.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

namespace waveemu {

template <class T>
inline constexpr bool kIsLaneType =
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, double>;

namespace detail {
template <class S>
constexpr auto HlslScalarTag() {
  if constexpr (kIsLaneType<S>) {
    return std::type_identity<S>{};
  } else if constexpr (std::is_integral_v<S> && !std::is_same_v<S, bool> && sizeof(S) >= 2 &&
                       sizeof(S) <= 8) {
    using Signed = std::conditional_t<sizeof(S) == 8, int64_t,
                                      std::conditional_t<sizeof(S) == 4, int32_t, int16_t>>;
    return std::type_identity<
        std::conditional_t<std::is_signed_v<S>, Signed, std::make_unsigned_t<Signed>>>{};
  } else {
    return std::type_identity<void>{};
  }
}
}  // namespace detail

/// The HLSL scalar type a C++ scalar stands for: a lane type itself; a C++ integer type that
/// HLSL lacks (1ull is unsigned long long, not uint64_t, here) the HLSL integer of the same size
/// and signedness; void for the rest (bool, 8-bit types, long double).
template <class S>
using HlslScalarOf = typename decltype(detail::HlslScalarTag<S>())::type;

/// Types Highway computes on directly (half goes through float one lane at a time).
template <class T>
inline constexpr bool kIsSimdType = kIsLaneType<T> && !std::is_same_v<T, half>;

template <class T>
inline constexpr bool kIsFloatLike =
    std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, double>;

/// A plain (uniform) scalar that per-thread operators accept on either side and broadcast.
template <class S>
inline constexpr bool kIsScalar = std::is_arithmetic_v<S> || std::is_same_v<S, half>;

template <int N>
class Bool;

struct NoInit {};

namespace detail {

template <class D, size_t... I>
HWY_INLINE void CopyVectors(D d, uint8_t* HWY_RESTRICT out, const uint8_t* HWY_RESTRICT in,
                            std::index_sequence<I...>) {
  constexpr size_t kVec = hn::MaxLanes(D());
  (void)d;  // unused when the copy is shorter than one vector (no I)
  (hn::StoreU(hn::LoadU(d, in + I * kVec), d, out + I * kVec), ...);
}

/// Copies kBytes from src to dst a vector at a time. Per-statement copies of per-thread values
/// (256 bytes for one Uint<64>) are hot; GCC turns both a memcpy and a copy loop into a call to
/// memmove for these sizes (loop distribution recognises the loop), so the vectors are expanded
/// by a fold instead: no loop to recognise. The tail uses memcpy of a constant size below one
/// vector, which GCC inlines.
template <size_t kBytes>
HWY_INLINE void CopyBytes(void* HWY_RESTRICT dst, const void* HWY_RESTRICT src) {
  const hn::ScalableTag<uint8_t> d;
  constexpr size_t kVec = hn::MaxLanes(d);
  constexpr size_t kFull = kBytes / kVec;
  auto* out = static_cast<uint8_t*>(dst);
  const auto* in = static_cast<const uint8_t*>(src);
  CopyVectors(d, out, in, std::make_index_sequence<kFull>());
  if constexpr (kBytes % kVec != 0) {
    WAVEEMU_BOUNDS_CHECKED_COPY_BEGIN  // callers copy only what they checked
    std::memcpy(out + kFull * kVec, in + kFull * kVec, kBytes % kVec);
    WAVEEMU_BOUNDS_CHECKED_COPY_END
  }
}

/// A reference to memory: a buffer or groupshared element, or one component or member of one.
/// It is read with .Load(), under the mask of the statement that reads it.
template <class V>
concept HasLoad = requires(const V& v) { v.Load(); };
template <class... A>
inline constexpr bool kAnyReference = (HasLoad<A> || ...);

/// A reference argument as the value it refers to, read now; any other argument as it is.
template <class A>
decltype(auto) ValueOf(const A& a) {
  if constexpr (HasLoad<A>) return a.Load();
  else return (a);
}

/// How the running group's device converts fp32 to 32-bit integers (FloatToInt). Outside a
/// group: D3D's saturating rule.
inline FloatToInt CurrentFloatToInt() {
  const GroupBase* g = GroupBase::Current();
  return g ? g->profile().float_to_int : FloatToInt::kSaturate;
}

/// (int)x or (uint)x as x86's truncating conversions give it (rule kX86 or kX86Avx2): the
/// truncation where it fits, else (NaN included) 0x80000000 for int and, under kX86, 0xffffffff
/// for uint; under kX86Avx2 a uint is the low half of the 64-bit truncation, 0 where that does
/// not fit either.
template <class I>
I X86Truncate(float x, FloatToInt rule = FloatToInt::kX86) {
  static_assert(sizeof(I) == 4 && std::is_integral_v<I>);
  const double t = std::trunc(double(x));
  if constexpr (!std::is_signed_v<I>) {
    if (rule == FloatToInt::kX86Avx2) {
      if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0)) return 0;
      return I(uint64_t(int64_t(t)));  // keeps the low 32 bits
    }
  }
  constexpr double kLow = std::is_signed_v<I> ? -2147483648.0 : 0.0;
  constexpr double kEnd = std::is_signed_v<I> ? 2147483648.0 : 4294967296.0;
  if (!(t >= kLow && t < kEnd)) return std::is_signed_v<I> ? std::numeric_limits<I>::min()
                                                           : std::numeric_limits<I>::max();
  return I(t);
}

}  // namespace detail

/// The ten compound assignments of a class Self whose current value is VALUE (an expression of
/// *this): x op= r is x = VALUE op r, so each goes through Self's own operator=, masked as a plain
/// assignment is. Lanes, Vector, swizzles, v[k] and buffer elements share it.
#define WAVEEMU_COMPOUND_ASSIGNMENTS(Self, VALUE)                                             \
  template <class R> Self& operator+=(const R& r) { return *this = (VALUE) + r; }           \
  template <class R> Self& operator-=(const R& r) { return *this = (VALUE) - r; }           \
  template <class R> Self& operator*=(const R& r) { return *this = (VALUE) * r; }           \
  template <class R> Self& operator/=(const R& r) { return *this = (VALUE) / r; }           \
  template <class R> Self& operator%=(const R& r) { return *this = (VALUE) % r; }           \
  template <class R> Self& operator&=(const R& r) { return *this = (VALUE) & r; }           \
  template <class R> Self& operator|=(const R& r) { return *this = (VALUE) | r; }           \
  template <class R> Self& operator^=(const R& r) { return *this = (VALUE) ^ r; }           \
  template <class R> Self& operator<<=(const R& r) { return *this = (VALUE) << r; }         \
  template <class R> Self& operator>>=(const R& r) { return *this = (VALUE) >> r; }

/// ++ and -- of a write-through reference (Self derives from a copy of the value, Base): through
/// its own compound assignment, since the inherited ++ would change only the copy.
#define WAVEEMU_WRITE_THROUGH_INCREMENTS(Self, Base) \
  Self& operator++() { return *this += 1; }          \
  Self& operator--() { return *this -= 1; }          \
  Base operator++(int) {                             \
    const Base old = *this;                          \
    ++*this;                                         \
    return old;                                      \
  }                                                  \
  Base operator--(int) {                             \
    const Base old = *this;                          \
    --*this;                                         \
    return old;                                      \
  }

/// HLSL passes buffer and groupshared elements straight to its intrinsics: WaveActiveSum(Data[i]),
/// max(Data[i], 0), dot(Normals[i], L). A C++ template does not deduce its parameters through a
/// reference's conversion to its value, so each intrinsic NAME gets one more overload, declared
/// after NAME's others: it reads the reference arguments and calls NAME on the values. It takes
/// part only where some argument is a reference and NAME accepts the values; NAME<N>(...), the
/// form with a uniform argument, is forwarded too.
#define WAVEEMU_TAKES_REFERENCES(NAME)                                                        \
  template <class... A>                                                                      \
    requires(::waveemu::detail::kAnyReference<A...>)                                         \
  auto NAME(const A&... a)->decltype(NAME(::waveemu::detail::ValueOf(a)...)) {               \
    return NAME(::waveemu::detail::ValueOf(a)...);                                           \
  }                                                                                          \
  template <int WAVEEMU_N, class... A>                                                       \
    requires(::waveemu::detail::kAnyReference<A...>)                                         \
  auto NAME(const A&... a)->decltype(NAME<WAVEEMU_N>(::waveemu::detail::ValueOf(a)...)) {    \
    return NAME<WAVEEMU_N>(::waveemu::detail::ValueOf(a)...);                                \
  }

/// false, but only once T is known: a static_assert that fires when its template is used.
template <class T>
inline constexpr bool kDependentFalse = false;

template <class T, int N>
class Lanes {
  static_assert(kIsLaneType<T>,
                "Lanes<T, N>: T must be an HLSL scalar type (int16_t, uint16_t, int32_t, uint32_t, "
                "int64_t, uint64_t, half, float, double); per-thread bools are Bool<N>");
  // Mask<0>'s static_assert explains N = 0 (a uniform-argument intrinsic without <N>); checked
  // here, where the call's result type is made, it is the first error, before any conversion.
  static_assert(sizeof(Mask<N>) != 0);

 public:
  using value_type = T;
  static constexpr int kSize = N;
  /// Storage is padded to whole vectors; padding lanes are computed and never observed.
  static constexpr int kPadded =
      (N + kVectorBytes / int(sizeof(T)) - 1) / (kVectorBytes / int(sizeof(T))) *
      (kVectorBytes / int(sizeof(T)));

  Lanes() { Fill(T{}); }
  /// For results about to be written in full: the caller writes every lane below N. Only the
  /// padding lanes are zeroed here. Zeroing them all cost nothing up to 64 threads, where the
  /// compiler drops the stores that the caller's unrolled loop overwrites, but from 128 threads
  /// on it stayed, a call to memset for every result: the free-ID kernel at 256 threads took
  /// 1802 instructions per 64 IDs with it, 1664 without (docs/performance_history.md, session 48).
  explicit Lanes(NoInit) { std::fill(v_ + N, v_ + kPadded, T{}); }
  Lanes(T value) { Fill(value); }  // NOLINT: broadcast, as HLSL does
  /// Broadcast of another scalar type, converted as HLSL converts literals (uint x = -1).
  template <class S>
    requires(kIsScalar<S> && !std::is_same_v<S, T> && !std::is_same_v<S, bool>)
  Lanes(S value) : Lanes(ConvertScalar(value)) {}  // NOLINT
  explicit Lanes(const std::array<T, N>& values) {
    std::copy(values.begin(), values.end(), v_);
    std::fill(v_ + N, v_ + kPadded, T{});
  }
  /// HLSL cast between scalar types: (uint)f truncates and saturates, NaN gives 0 (D3D ftoi;
  /// fp32 to 32-bit integers as the device's FloatToInt says).
  template <class U>
    requires(!std::is_same_v<U, T>)
  explicit Lanes(const Lanes<U, N>& other) {
    if constexpr (std::is_integral_v<T> && std::is_integral_v<U> && sizeof(T) == sizeof(U)) {
      // int <-> uint of one width keeps the bits (C++20 wraps as HLSL does): a copy, no loop.
      detail::CopyBytes<sizeof(v_)>(v_, other.data());
    } else {
      if constexpr (std::is_same_v<U, float> && std::is_integral_v<T> && sizeof(T) == 4) {
        if (const FloatToInt rule = detail::CurrentFloatToInt(); rule != FloatToInt::kSaturate) {
          for (int t = 0; t < kPadded; ++t) v_[t] = detail::X86Truncate<T>(other.data()[t], rule);
          return;
        }
      }
      Fill(T{});
      for (int t = 0; t < kPadded && t < Lanes<U, N>::kPadded; ++t)
        v_[t] = Lanes<U, N>::template ConvertScalarTo<T>(other.data()[t]);
    }
  }
  /// (uint)b: 1 for true, 0 for false.
  explicit Lanes(const Bool<N>& b);
  /// (float)RW[i], (float)gs[i]: a buffer or groupshared reference converts through its value.
  template <class R>
    requires(detail::HasLoad<R> && !std::is_base_of_v<Lanes, R>)
  explicit Lanes(const R& ref) : Lanes(ref.Load()) {}

  Lanes(const Lanes& other) { detail::CopyBytes<sizeof(v_)>(v_, other.v_); }
  /// Masked: only active threads take the new value.
  HWY_INLINE Lanes& operator=(const Lanes& other) {
    if (this != &other) AssignMasked(other, CurrentMask<N>());
    return *this;
  }

  T lane(int t) const { return v_[t]; }
  /// Unmasked single-thread write, for host code and tests.
  void set_lane(int t, T value) { v_[t] = value; }
  T* data() { return v_; }
  const T* data() const { return v_; }

  /// A per-thread value has no single truth value; this catches HLSL's `if (x)` at compile time.
  template <class U = void>
  explicit operator bool() const {
    static_assert(kDependentFalse<U>,
                  "Lanes<T, N> (Uint<N>, Float<N>, ...) is a per-thread value and does not "
                  "convert to bool: for HLSL's if (x) branch with if_(x != 0u, [&] { ... }) (or "
                  "if_(x, ...)), for c ? a : b write select(c, a, b)");
    return false;
  }

  /// Writes `other` into the threads of `mask` and leaves the rest.
  HWY_INLINE void AssignMasked(const Lanes& other, const Mask<N>& mask) {
    if (mask.IsAll()) {
      detail::CopyBytes<sizeof(v_)>(v_, other.v_);
      return;
    }
    if constexpr (kIsSimdType<T>) {
      const hn::ScalableTag<T> d;
      constexpr int L = int(hn::MaxLanes(d));
      if constexpr (L % 8 == 0) {
        for (int i = 0; i < N; i += L) {
          const auto m = MaskOfBits(d, mask.Bits64(i, 64));
          hn::Store(hn::IfThenElse(m, hn::Load(d, other.v_ + i), hn::Load(d, v_ + i)), d, v_ + i);
        }
        return;
      }
    }
    mask.ForEach([&](int t) { v_[t] = other.v_[t]; });
  }

  // Compound assignments are masked like plain assignment.
  WAVEEMU_COMPOUND_ASSIGNMENTS(Lanes, *this)
  Lanes& operator++() { return *this = *this + Lanes(T(1)); }
  Lanes& operator--() { return *this = *this - Lanes(T(1)); }
  Lanes operator++(int) {
    Lanes old = *this;
    ++*this;
    return old;
  }
  Lanes operator--(int) {
    Lanes old = *this;
    --*this;
    return old;
  }

  /// D3D conversion of one value of this lane type to U (ftoi/ftou for float to integer).
  template <class U>
  static U ConvertScalarTo(T x) {
    if constexpr (std::is_same_v<U, T>) {
      return x;
    } else if constexpr (kIsFloatLike<T> && std::is_integral_v<U>) {
      const double f = static_cast<double>(static_cast<std::conditional_t<
          std::is_same_v<T, half>, float, T>>(x));
      if (std::isnan(f)) return U(0);
      if (f <= static_cast<double>(std::numeric_limits<U>::min())) return std::numeric_limits<U>::min();
      if (f >= static_cast<double>(std::numeric_limits<U>::max())) return std::numeric_limits<U>::max();
      return static_cast<U>(f);  // truncates toward zero, in range
    } else if constexpr (std::is_same_v<U, half>) {
      // double rounds to half in one step (through float it could round twice); every other
      // type is exact in float up to half's range (|x| >= 65520 becomes inf either way).
      if constexpr (std::is_same_v<T, double>) return half(x);
      else return half(static_cast<float>(x));
    } else if constexpr (std::is_same_v<T, half>) {
      return static_cast<U>(static_cast<float>(x));
    } else {
      return static_cast<U>(x);  // integer to integer wraps (C++20), to float rounds to nearest
    }
  }

 private:
  template <class S>
  static T ConvertScalar(S value) {
    if constexpr (std::is_same_v<S, float> && std::is_integral_v<T> && sizeof(T) == 4) {
      // A uniform float converts as the device converts (FloatToInt), like a per-thread one.
      if (const FloatToInt rule = detail::CurrentFloatToInt(); rule != FloatToInt::kSaturate)
        return detail::X86Truncate<T>(value, rule);
    }
    if constexpr (kIsLaneType<S>) {
      return Lanes<S, N>::template ConvertScalarTo<T>(value);
    } else if constexpr (std::is_floating_point_v<S>) {
      return Lanes<double, N>::template ConvertScalarTo<T>(static_cast<double>(value));
    } else {
      return static_cast<T>(value);  // other integer literal types (long long, ...) wrap
    }
  }

  /// Every lane, padding included, to `value`.
  void Fill(T value) {
    if constexpr (kIsSimdType<T>) {
      const hn::ScalableTag<T> d;
      const auto v = hn::Set(d, value);
      for (int i = 0; i < kPadded; i += int(hn::Lanes(d))) hn::Store(v, d, v_ + i);
    } else {
      std::fill_n(v_, kPadded, value);
    }
  }

  // Not initialised here: every constructor writes all kPadded lanes.
  alignas(kVectorBytes) T v_[kPadded];
};

// ------------------------------------------------------------------------------------------------
// Bool<N>: a per-thread bool, one bit per thread.

template <int N>
class Bool {
 public:
  static constexpr int kSize = N;
  Bool() = default;
  Bool(bool value) : bits_(value ? Mask<N>::All() : Mask<N>()) {}  // NOLINT: broadcast
  static Bool FromMask(const Mask<N>& m) {
    Bool b;
    b.bits_ = m;
    return b;
  }
  /// (bool)x: true where x != 0.
  template <class T>
  explicit Bool(const Lanes<T, N>& x);

  Bool(const Bool&) = default;
  /// Masked: only active threads take the new value.
  Bool& operator=(const Bool& other) {
    const Mask<N> m = CurrentMask<N>();
    bits_ = AndNot(bits_, m) | (other.bits_ & m);
    return *this;
  }
  Bool& operator&=(const Bool& o) { return *this = *this & o; }
  Bool& operator|=(const Bool& o) { return *this = *this | o; }
  Bool& operator^=(const Bool& o) { return *this = *this ^ o; }

  /// A per-thread bool has no single truth value; this catches `if (cond)` at compile time.
  template <class U = void>
  explicit operator bool() const {
    static_assert(kDependentFalse<U>,
                  "Bool<N> is a per-thread value and does not convert to bool: branch with "
                  "if_(cond, [&] { ... }), write HLSL's cond ? a : b as select(cond, a, b), or "
                  "test the whole wave with WaveActiveAnyTrue / WaveActiveAllTrue");
    return false;
  }

  const Mask<N>& mask() const { return bits_; }
  bool lane(int t) const { return bits_.Test(t); }
  void set_lane(int t, bool on) { bits_.Set(t, on); }
  /// Writes every thread, whatever the execution mask (building a value, not assigning one).
  void AssignMasked(const Bool& other, const Mask<N>& mask) {
    bits_ = AndNot(bits_, mask) | (other.bits_ & mask);
  }

  friend Bool operator&(const Bool& a, const Bool& b) { return FromMask(a.bits_ & b.bits_); }
  friend Bool operator|(const Bool& a, const Bool& b) { return FromMask(a.bits_ | b.bits_); }
  friend Bool operator^(const Bool& a, const Bool& b) { return FromMask(a.bits_ ^ b.bits_); }
  // HLSL's && and || on per-thread bools; both sides are evaluated (as glslang does; DXC's
  // HLSL 2021 short-circuits scalars, which only matters when the right side has a wave op).
  friend Bool operator&&(const Bool& a, const Bool& b) { return a & b; }
  friend Bool operator||(const Bool& a, const Bool& b) { return a | b; }
  // A uniform bool on either side (`x > 0u && flag`): without these the built-in && competes.
  friend Bool operator&&(const Bool& a, bool b) { return a & Bool(b); }
  friend Bool operator&&(bool a, const Bool& b) { return Bool(a) & b; }
  friend Bool operator||(const Bool& a, bool b) { return a | Bool(b); }
  friend Bool operator||(bool a, const Bool& b) { return Bool(a) | b; }
  Bool operator!() const { return FromMask(~bits_); }
  friend Bool operator==(const Bool& a, const Bool& b) { return FromMask(~(a.bits_ ^ b.bits_)); }
  friend Bool operator!=(const Bool& a, const Bool& b) { return FromMask(a.bits_ ^ b.bits_); }

 private:
  Mask<N> bits_;
};

template <class T, int N>
Lanes<T, N>::Lanes(const Bool<N>& b) {
  Fill(T(0));
  for (int t = 0; t < N; ++t) v_[t] = b.lane(t) ? T(1) : T(0);
}

namespace detail {

/// r[t] = op(a[t], b[t]) over whole vectors; `vop` for Highway types, `sop` for half.
/// kSimd = false forces the scalar loop (for ops Highway gets wrong on some target).
template <bool kSimd = true, class T, int N, class VecOp, class ScalarOp>
HWY_INLINE Lanes<T, N> Zip(const Lanes<T, N>& a, const Lanes<T, N>& b, VecOp vop, ScalarOp sop) {
  Lanes<T, N> r{NoInit{}};
  if constexpr (kSimd && kIsSimdType<T>) {
    const hn::ScalableTag<T> d;
    for (int i = 0; i < Lanes<T, N>::kPadded; i += int(hn::Lanes(d)))
      hn::Store(vop(d, hn::Load(d, a.data() + i), hn::Load(d, b.data() + i)), d, r.data() + i);
  } else {
    for (int i = 0; i < Lanes<T, N>::kPadded; ++i) r.data()[i] = sop(a.data()[i], b.data()[i]);
  }
  return r;
}

/// A float denormal becomes a zero of the same sign under kFlushToZero. Only `float` flushes:
/// DXIL's fp32-denorm-mode covers fp32 alone, and fp16 and fp64 always preserve denormals.
template <class T>
T FlushDenormal(T v, DenormMode mode) {
  if constexpr (std::is_same_v<T, float>) {
    if (mode == DenormMode::kFlushToZero && std::fpclassify(v) == FP_SUBNORMAL)
      return std::copysign(0.0f, v);
  }
  return v;
}

/// The canonical NaN of NanResult::kCanonical: every payload bit set, sign clear
/// (0x7fff for half, 0x7fffffff for float, 0x7fffffffffffffff for double).
template <class T>
T CanonicalNan() {
  if constexpr (std::is_same_v<T, half>) return half::FromBits(0x7fffu);
  else if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(0x7fffffffu);
  else return std::bit_cast<double>(0x7fffffffffffffffull);
}

/// What the running group's device does to per-thread fp32 arithmetic, where devices differ
/// (the H100: probe_denormals, probe_denormals_ops). Only `float`: half and double keep IEEE's
/// rules under every profile. Any group, whatever its width: a uniform value computes as one
/// thread of it. Outside a group, nothing changes.
struct FloatArithmetic {
  bool flush_denormals = false;  // float_denormals == kFlushToZero: operands and results
  bool canonical_nan = false;    // nan_result == kCanonical: every NaN result is 0x7fffffff
  // library_nan == kDefault where canonical_nan does not override it: the math functions'
  // NaNs are 0x7fc00000 (LibraryResult).
  bool default_library_nan = false;
  bool h100_tables = false;  // divide_sqrt == kH100Tables: /, rcp, sqrt, rsqrt as the H100's
  MathLibrary math_library = MathLibrary::kHost;  // whose transcendentals (kHost but for float)

  template <class T>
  static FloatArithmetic Current() {
    if constexpr (!std::is_same_v<T, float>) return {};
    else return Of(GroupBase::Current());
  }
  /// The fp32 rules of group g's device (nullptr: outside a group, IEEE's).
  static FloatArithmetic Of(const GroupBase* g) {
    if (!g) return {};
    const DeviceProfile& p = g->profile();
    const bool canonical = p.nan_result == NanResult::kCanonical;
    return {p.float_denormals == DenormMode::kFlushToZero, canonical,
            !canonical && p.library_nan == LibraryNan::kDefault,
            p.divide_sqrt == DivideSqrt::kH100Tables, p.math_library};
  }
  bool Changes() const { return flush_denormals || canonical_nan; }

  // Operand: an operation's input; Result: its output. Vectors of any float type (the flags are
  // false but for float), or one float lane.
  template <class D, class V>
  HWY_INLINE V Operand(D d, V v) const {
    return flush_denormals ? FlushDenormals(d, v) : v;
  }
  template <class D, class V>
  HWY_INLINE V Result(D d, V v) const {
    if (flush_denormals) v = FlushDenormals(d, v);
    return canonical_nan ? CanonicalNaN(d, v) : v;
  }
  template <class T>
  T Operand(T v) const {
    return flush_denormals ? FlushDenormal(v, DenormMode::kFlushToZero) : v;
  }
  template <class T>
  T Result(T v) const {
    v = Operand(v);
    if constexpr (std::is_same_v<T, float>) {
      if (canonical_nan && std::isnan(v)) return CanonicalNan<float>();
    }
    return v;
  }
  /// f(x) for one of the table functions (H100Rcp, H100Sqrt, H100Rsqrt): the operand and
  /// the result under these rules.
  float TableResult(float (*f)(float), float x) const { return Result(f(Operand(x))); }
  /// a / b on the H100: a * rcp(b), one rounding after the table's.
  float TableQuotient(float a, float b) const {
    return Result(Operand(a) * H100Rcp(Operand(b)));
  }
  /// Result() of a math function the driver computes in software (LibraryNan): under kDefault
  /// every NaN is 0x7fc00000.
  template <class T>
  T LibraryResult(T v) const {
    v = Result(v);
    if constexpr (std::is_same_v<T, float>) {
      if (default_library_nan && std::isnan(v)) return std::bit_cast<float>(0x7fc00000u);
    }
    return v;
  }
};

/// Zip for a float arithmetic operation, under the running device's FloatArithmetic (p: a caller
/// that has read it already passes it on).
template <class T, int N, class VecOp, class ScalarOp>
HWY_INLINE Lanes<T, N> ZipArithmetic(const Lanes<T, N>& a, const Lanes<T, N>& b, VecOp vop,
                                     ScalarOp sop,
                                     const FloatArithmetic& p = FloatArithmetic::Current<T>()) {
  if constexpr (std::is_same_v<T, float>) {
    if (p.Changes()) {
      return Zip(
          a, b,
          [&](auto d, auto x, auto y) {
            return p.Result(d, vop(d, p.Operand(d, x), p.Operand(d, y)));
          },
          sop);
    }
  }
  return Zip(a, b, vop, sop);
}

/// Bool of op(a[t], b[t]), the operands as they are; padding bits are cleared. kComplement:
/// vcmp computes !op and the mask is inverted a word at a time (scmp is op itself). AVX2 has no
/// vector `!=` and Highway 1.0.3 no integer `<=`; a vector NOT per eight threads became one
/// scalar NOT per 64.
template <bool kComplement = false, class T, int N, class VecCmp, class ScalarCmp>
HWY_INLINE Bool<N> CompareLanes(const Lanes<T, N>& a, const Lanes<T, N>& b, VecCmp vcmp,
                                ScalarCmp scmp) {
  if constexpr (kIsSimdType<T>) {
    const hn::ScalableTag<T> d;
    constexpr int L = int(hn::MaxLanes(d));
    if constexpr (L % 8 == 0) {
      // Mask bits gathered in a register, a word written once (see BitsOfMask).
      return Bool<N>::FromMask(
          Mask<N>::template FromVectorBits<L, Lanes<T, N>::kPadded, kComplement>([&](int i) {
            return BitsOfMask(d, vcmp(hn::Load(d, a.data() + i), hn::Load(d, b.data() + i)));
          }));
    }
  }
  Mask<N> m;
  for (int t = 0; t < N; ++t) m.Set(t, scmp(a.data()[t], b.data()[t]));
  return Bool<N>::FromMask(m);
}

/// Bool of op(a[t], b[t]) for a comparison operator. Float operands lose their denormals under a
/// flushing profile (the H100 compares flushed values: probe_denormals).
template <bool kComplement = false, class T, int N, class VecCmp, class ScalarCmp>
HWY_INLINE Bool<N> Compare(const Lanes<T, N>& a, const Lanes<T, N>& b, VecCmp vcmp,
                           ScalarCmp scmp) {
  if constexpr (std::is_same_v<T, float>) {
    const FloatArithmetic p = FloatArithmetic::Current<T>();
    if (p.flush_denormals) {
      const hn::ScalableTag<T> d;
      return CompareLanes<kComplement>(
          a, b, [&](auto x, auto y) { return vcmp(p.Operand(d, x), p.Operand(d, y)); },
          [&](T x, T y) { return scmp(p.Operand(x), p.Operand(y)); });
    }
  }
  return CompareLanes<kComplement>(a, b, vcmp, scmp);
}

template <class T>
using Unsigned = std::make_unsigned_t<T>;

/// op(x, y) with two's-complement wrap-around for integers: computed in an unsigned type at least
/// as wide as unsigned int, so neither signed overflow nor uint16_t -> int promotion (65535 *
/// 65535 overflows int) can happen. Floats (and half) use op directly.
template <class T, class Op>
T Wrap(T x, T y, Op op) {
  if constexpr (std::is_integral_v<T>) {
    using W = std::conditional_t<(sizeof(T) <= sizeof(unsigned)), unsigned, uint64_t>;
    return static_cast<T>(op(static_cast<W>(x), static_cast<W>(y)));
  } else {
    return static_cast<T>(op(x, y));
  }
}

/// Highway 1.0.3's SSSE3 target compiles 16-bit variable shifts with an SSE4.1 instruction
/// (_mm_packus_epi32) and fails to build; those take the scalar loop there.
template <class T>
inline constexpr bool kSimdShift = !(sizeof(T) == 2 && HWY_TARGET == HWY_SSSE3);

/// Shift count as HLSL masks it: the low log2(bits) bits.
template <class T>
constexpr T ShiftMask() {
  return T(sizeof(T) * 8 - 1);
}

/// The running group's FunctionExpansion for values of type T: fp32 only (with kDouble, fp64
/// too: % was measured for both); kDxc for other types and outside a group.
template <class T, bool kDouble = false>
FunctionExpansion Expansion() {
  if constexpr (std::is_same_v<T, float> || (kDouble && std::is_same_v<T, double>)) {
    if (const GroupBase* g = GroupBase::Current()) return g->profile().function_expansion;
  }
  return FunctionExpansion::kDxc;
}

}  // namespace detail

template <int N>
template <class T>
Bool<N>::Bool(const Lanes<T, N>& x) : Bool(x != Lanes<T, N>(T(0))) {}

namespace detail {

constexpr bool IsShift(std::string_view op) { return op == "<<" || op == ">>"; }

/// The type HLSL computes a (op) b in when a and b are per-thread values of different types, for
/// the pairs whose rule is C's usual arithmetic conversion with no doubt left: an integer with a
/// float type goes to the float type, int with uint to uint (so int(-1) < 5u is false, as in
/// HLSL); a shift keeps its left operand's type. Other pairs (different integer or float sizes,
/// where 16-bit promotion rules differ between compilers) ask for the conversion written out.
template <class T, class U, bool kShift = false>
constexpr auto MixedOperandTag() {
  if constexpr (kShift && std::is_integral_v<T> && std::is_integral_v<U>) {
    return std::type_identity<T>{};
  } else if constexpr (kIsFloatLike<T> && std::is_integral_v<U>) {
    return std::type_identity<T>{};
  } else if constexpr (std::is_integral_v<T> && kIsFloatLike<U>) {
    return std::type_identity<U>{};
  } else if constexpr (std::is_integral_v<T> && std::is_integral_v<U> && sizeof(T) == 4 &&
                       sizeof(U) == 4) {
    return std::type_identity<uint32_t>{};
  } else {
    static_assert(kDependentFalse<T>,
                  "per-thread values of two different types in one operation: waveemu converts "
                  "int with uint (to uint) and an integer with a float type (to the float type) "
                  "as HLSL does; for other pairs write the conversion, e.g. Float<N>(h) * f or "
                  "Int64<N>(i) + l");
    return std::type_identity<T>{};
  }
}
template <class T, class U, bool kShift = false>
using MixedOperandType = typename decltype(MixedOperandTag<T, U, kShift>())::type;

}  // namespace detail

// ------------------------------------------------------------------------------------------------
// Arithmetic. Every operator has Lanes (op) Lanes, Lanes (op) scalar and scalar (op) Lanes, and
// Lanes<T> (op) Lanes<U> for the mixed pairs detail::MixedOperandType converts.
// The per-statement operators, comparisons, select and masked assignment are forced inline
// (HWY_INLINE): in a kernel's main() GCC declined to inline them, and every call spilled the
// per-thread values the statement around it held in vector registers (all are caller-saved).

namespace detail {
/// x as Lanes<R, N>: itself when it already is one (no copy), else converted.
template <class R, class T, int N>
HWY_INLINE decltype(auto) AsLanes(const Lanes<T, N>& x) {
  if constexpr (std::is_same_v<R, T>) return (x);
  else return Lanes<R, N>(x);
}
}  // namespace detail

#define WAVEEMU_LANES_BINARY(OP, NAME)                                                    \
  template <class T, int N>                                                               \
  HWY_INLINE Lanes<T, N> operator OP(const Lanes<T, N>& a, const Lanes<T, N>& b) {        \
    return NAME(a, b);                                                                    \
  }                                                                                       \
  template <class T, class U, int N>                                                      \
    requires(!std::is_same_v<T, U>)                                                       \
  HWY_INLINE auto operator OP(const Lanes<T, N>& a, const Lanes<U, N>& b) {               \
    using R = detail::MixedOperandType<T, U, detail::IsShift(#OP)>;                       \
    return NAME(detail::AsLanes<R>(a), detail::AsLanes<R>(b));                            \
  }                                                                                       \
  template <class T, int N, class S>                                                      \
    requires kIsScalar<S>                                                                 \
  HWY_INLINE Lanes<T, N> operator OP(const Lanes<T, N>& a, S b) {                         \
    return NAME(a, Lanes<T, N>(b));                                                       \
  }                                                                                       \
  template <class T, int N, class S>                                                      \
    requires kIsScalar<S>                                                                 \
  HWY_INLINE Lanes<T, N> operator OP(S a, const Lanes<T, N>& b) {                         \
    return NAME(Lanes<T, N>(a), b);                                                       \
  }

#define WAVEEMU_LANES_COMPARE(OP, NAME)                                                   \
  template <class T, int N>                                                               \
  HWY_INLINE Bool<N> operator OP(const Lanes<T, N>& a, const Lanes<T, N>& b) {            \
    return NAME(a, b);                                                                    \
  }                                                                                       \
  template <class T, class U, int N>                                                      \
    requires(!std::is_same_v<T, U>)                                                       \
  HWY_INLINE Bool<N> operator OP(const Lanes<T, N>& a, const Lanes<U, N>& b) {            \
    using R = detail::MixedOperandType<T, U>;                                             \
    return NAME(detail::AsLanes<R>(a), detail::AsLanes<R>(b));                            \
  }                                                                                       \
  template <class T, int N, class S>                                                      \
    requires kIsScalar<S>                                                                 \
  HWY_INLINE Bool<N> operator OP(const Lanes<T, N>& a, S b) {                             \
    return NAME(a, Lanes<T, N>(b));                                                       \
  }                                                                                       \
  template <class T, int N, class S>                                                      \
    requires kIsScalar<S>                                                                 \
  HWY_INLINE Bool<N> operator OP(S a, const Lanes<T, N>& b) {                             \
    return NAME(Lanes<T, N>(a), b);                                                       \
  }

template <class T, int N>
HWY_INLINE Lanes<T, N> Add(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::ZipArithmetic(a, b, [](auto, auto x, auto y) { return hn::Add(x, y); },
                               [](T x, T y) { return detail::Wrap<T>(x, y, std::plus<>()); });
}
template <class T, int N>
HWY_INLINE Lanes<T, N> Sub(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::ZipArithmetic(a, b, [](auto, auto x, auto y) { return hn::Sub(x, y); },
                               [](T x, T y) { return detail::Wrap<T>(x, y, std::minus<>()); });
}
template <class T, int N>
HWY_INLINE Lanes<T, N> Mul(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::ZipArithmetic(
      a, b,
      [](auto, auto x, auto y) {
        auto p = hn::Mul(x, y);
#if HWY_ARCH_X86
        // Keeps a * b + c two roundings: GCC contracts Mul + Add into an FMA by default
        // (-ffp-contract=fast), which would make results depend on -march. mad() fuses on demand.
        if constexpr (std::is_floating_point_v<T>) asm("" : "+v"(p.raw));
#endif
        return p;
      },
      [](T x, T y) { return detail::Wrap<T>(x, y, std::multiplies<>()); });
}

/// Integer division with HLSL's rules: unsigned x / 0 and x % 0 give all ones; signed division
/// by zero and INT_MIN / -1 are undefined and follow the profile (poison, or -1 as on NVIDIA).
template <class T, int N>
Lanes<T, N> DivOrMod(const Lanes<T, N>& a, const Lanes<T, N>& b, bool is_mod) {
  Lanes<T, N> r{NoInit{}};
  if constexpr (kIsFloatLike<T>) {
    // The running device's FloatArithmetic applies to float operands and results.
    using F = std::conditional_t<std::is_same_v<T, half>, float, T>;
    const detail::FloatArithmetic p = detail::FloatArithmetic::Current<T>();
    const FunctionExpansion form =
        is_mod ? detail::Expansion<T, /*kDouble=*/true>() : FunctionExpansion::kDxc;
    if (form != FunctionExpansion::kDxc) {
      // glslang's OpFMod (the sign of y), as both devices compute it: x - y * floor(x / y) with
      // the profile's division; kMesa rounds each step, kNvidia fuses the product into the
      // subtraction as the profile fuses mad (probe_remainder, docs/gpu_runs/2026-11-23-h100-run15/).
      const Lanes<T, N> quotient = Div(a, b);
      const bool fused =
          form == FunctionExpansion::kNvidia && GroupBase::Current()->profile().fuse_multiply_add;
      for (int t = 0; t < Lanes<T, N>::kPadded; ++t) {
        const F x = p.Operand(F(a.data()[t])), y = p.Operand(F(b.data()[t]));
        const F q = std::floor(F(quotient.data()[t]));
        r.data()[t] = p.Result(T(fused ? std::fma(-y, q, x) : F(x - p.Result(F(y * q)))));
      }
      return r;
    }
    // DXIL FRem: HLSL % on floats truncates like C's fmod (the result takes the dividend's sign).
    for (int t = 0; t < Lanes<T, N>::kPadded; ++t) {
      const F x = p.Operand(F(a.data()[t])), y = p.Operand(F(b.data()[t]));
      r.data()[t] = p.Result(T(is_mod ? std::fmod(x, y) : x / y));
    }
  } else if constexpr (std::is_unsigned_v<T>) {
    for (int t = 0; t < Lanes<T, N>::kPadded; ++t) {
      const T x = a.data()[t], y = b.data()[t];
      r.data()[t] = y == 0 ? T(~T(0)) : T(is_mod ? x % y : x / y);
    }
  } else {
    // The running group's profile decides, whatever its width: a uniform value computes as one
    // thread (N == 1) of a group of 64, and must follow the same rule as a per-thread one.
    const GroupBase* group = GroupBase::Current();
    const bool uniform = GroupState<N>::Current() == nullptr;
    const Mask<N> active = CurrentMask<N>();
    const bool poison = !group || group->profile().signed_division == SignedDivision::kPoison;
    int undefined_lane = -1;
    for (int t = 0; t < Lanes<T, N>::kPadded; ++t) {
      const T x = a.data()[t], y = b.data()[t];
      if (y == 0 || (y == T(-1) && x == std::numeric_limits<T>::min())) {
        r.data()[t] = poison ? Poison<T>() : T(-1);
        if (t < N && active.Test(t) && undefined_lane < 0) undefined_lane = t;
      } else {
        r.data()[t] = T(is_mod ? x % y : x / y);
      }
    }
    if (undefined_lane >= 0 && group && poison)
      group->Report(is_mod ? "signed remainder by zero or INT_MIN % -1 is undefined"
                           : "signed division by zero or INT_MIN / -1 is undefined",
                    uniform ? fmt::format("{}, a uniform value", group->Where())
                            : fmt::format("{}, thread {}", group->Where(), undefined_lane));
  }
  return r;
}
template <class T, int N>
Lanes<T, N> Div(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  if constexpr (kIsSimdType<T> && kIsFloatLike<T>) {
    const detail::FloatArithmetic p = detail::FloatArithmetic::Current<T>();
    if (p.h100_tables) {  // float only: the flag is false for double
      Lanes<T, N> r{NoInit{}};
      for (int t = 0; t < Lanes<T, N>::kPadded; ++t)
        r.data()[t] = p.TableQuotient(a.data()[t], b.data()[t]);
      return r;
    }
    return detail::ZipArithmetic(a, b, [](auto, auto x, auto y) { return hn::Div(x, y); },
                                 [](T x, T y) { return T(x / y); }, p);
  } else {
    return DivOrMod(a, b, false);
  }
}
template <class T, int N>
Lanes<T, N> Mod(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return DivOrMod(a, b, true);
}

template <class T>
inline constexpr bool kIsIntLane = kIsLaneType<T> && std::is_integral_v<T>;

template <class T, int N>
HWY_INLINE Lanes<T, N> BitAnd(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  static_assert(kIsIntLane<T>, "& | ^ ~ << >> need integer lanes (HLSL has no bit ops on floats)");
  return detail::Zip(a, b, [](auto, auto x, auto y) { return hn::And(x, y); },
                     [](T x, T y) { return T(x & y); });
}
template <class T, int N>
HWY_INLINE Lanes<T, N> BitOr(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  static_assert(kIsIntLane<T>, "& | ^ ~ << >> need integer lanes (HLSL has no bit ops on floats)");
  return detail::Zip(a, b, [](auto, auto x, auto y) { return hn::Or(x, y); },
                     [](T x, T y) { return T(x | y); });
}
template <class T, int N>
HWY_INLINE Lanes<T, N> BitXor(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  static_assert(kIsIntLane<T>, "& | ^ ~ << >> need integer lanes (HLSL has no bit ops on floats)");
  return detail::Zip(a, b, [](auto, auto x, auto y) { return hn::Xor(x, y); },
                     [](T x, T y) { return T(x ^ y); });
}
/// a << b with the shift count masked to bit width - 1, as DXC emits it.
template <class T, int N>
HWY_INLINE Lanes<T, N> ShiftLeft(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  static_assert(kIsIntLane<T>, "& | ^ ~ << >> need integer lanes (HLSL has no bit ops on floats)");
  using U = detail::Unsigned<T>;
  return detail::Zip<detail::kSimdShift<T>>(
      a, b,
      [](auto d, auto x, auto y) {
        return hn::Shl(x, hn::And(y, hn::Set(d, T(detail::ShiftMask<T>()))));
      },
      [](T x, T y) {
        return detail::Wrap<T>(x, T(U(y) & detail::ShiftMask<U>()),
                               [](auto p, auto q) { return p << q; });
      });
}
/// a >> b, arithmetic for signed types, count masked to bit width - 1.
template <class T, int N>
HWY_INLINE Lanes<T, N> ShiftRight(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  static_assert(kIsIntLane<T>, "& | ^ ~ << >> need integer lanes (HLSL has no bit ops on floats)");
  using U = detail::Unsigned<T>;
  return detail::Zip<detail::kSimdShift<T>>(
      a, b,
      [](auto d, auto x, auto y) {
        return hn::Shr(x, hn::And(y, hn::Set(d, T(detail::ShiftMask<T>()))));
      },
      [](T x, T y) { return T(x >> (U(y) & detail::ShiftMask<U>())); });
}

WAVEEMU_LANES_BINARY(+, Add)
WAVEEMU_LANES_BINARY(-, Sub)
WAVEEMU_LANES_BINARY(*, Mul)
WAVEEMU_LANES_BINARY(/, Div)
WAVEEMU_LANES_BINARY(%, Mod)
WAVEEMU_LANES_BINARY(&, BitAnd)
WAVEEMU_LANES_BINARY(|, BitOr)
WAVEEMU_LANES_BINARY(^, BitXor)
WAVEEMU_LANES_BINARY(<<, ShiftLeft)
WAVEEMU_LANES_BINARY(>>, ShiftRight)

template <class T, int N>
HWY_INLINE Bool<N> Equal(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::Compare(a, b, [](auto x, auto y) { return hn::Eq(x, y); },
                         [](T x, T y) { return x == y; });
}
template <class T, int N>
HWY_INLINE Bool<N> NotEqual(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  // The complement of Eq: Highway 1.0.3's AVX-512 Ne uses _CMP_NEQ_OQ, which is false for NaN.
  return detail::Compare<true>(a, b, [](auto x, auto y) { return hn::Eq(x, y); },
                               [](T x, T y) { return !(x == y); });
}
template <class T, int N>
HWY_INLINE Bool<N> Less(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::Compare(a, b, [](auto x, auto y) { return hn::Lt(x, y); },
                         [](T x, T y) { return x < y; });
}
template <class T, int N>
HWY_INLINE Bool<N> LessEqual(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  // Integers: the complement of b < a (Highway 1.0.3 has Le only for floats; no NaN here).
  if constexpr (std::is_integral_v<T>)
    return detail::Compare<true>(a, b, [](auto x, auto y) { return hn::Lt(y, x); },
                                 [](T x, T y) { return x <= y; });
  else
    return detail::Compare(a, b, [](auto x, auto y) { return hn::Le(x, y); },
                           [](T x, T y) { return x <= y; });
}
template <class T, int N>
HWY_INLINE Bool<N> Greater(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return detail::Compare(a, b, [](auto x, auto y) { return hn::Gt(x, y); },
                         [](T x, T y) { return x > y; });
}
template <class T, int N>
HWY_INLINE Bool<N> GreaterEqual(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  return LessEqual(b, a);  // the same for NaN too: both are false
}

WAVEEMU_LANES_COMPARE(==, Equal)
WAVEEMU_LANES_COMPARE(!=, NotEqual)
WAVEEMU_LANES_COMPARE(<, Less)
WAVEEMU_LANES_COMPARE(<=, LessEqual)
WAVEEMU_LANES_COMPARE(>, Greater)
WAVEEMU_LANES_COMPARE(>=, GreaterEqual)

#undef WAVEEMU_LANES_BINARY
#undef WAVEEMU_LANES_COMPARE

/// HLSL's !x on a number: x == 0 on each thread (NaN is true as a bool, so !NaN is false).
template <class T, int N>
Bool<N> operator!(const Lanes<T, N>& x) {
  return x == Lanes<T, N>(T(0));
}

/// -a: flips the sign bit of floats (so -(+0) == -0 and NaN stays NaN, like DXIL fneg; under
/// the H100's FloatArithmetic a denormal gives the zero of the other sign, a NaN 0x7fffffff);
/// integers wrap (-INT_MIN == INT_MIN, -1u == 0xFFFFFFFF).
template <class T, int N>
Lanes<T, N> operator-(const Lanes<T, N>& a) {
  if constexpr (kIsFloatLike<T>) {
    Lanes<T, N> r{NoInit{}};
    if constexpr (kIsSimdType<T>) {
      const hn::ScalableTag<T> d;
      const detail::FloatArithmetic p = detail::FloatArithmetic::Current<T>();
      for (int i = 0; i < Lanes<T, N>::kPadded; i += int(hn::Lanes(d)))
        hn::Store(p.Result(d, hn::Neg(p.Operand(d, hn::Load(d, a.data() + i)))), d, r.data() + i);
    } else {
      for (int i = 0; i < Lanes<T, N>::kPadded; ++i) r.data()[i] = -a.data()[i];
    }
    return r;
  } else {
    return Lanes<T, N>(T(0)) - a;
  }
}
template <class T, int N>
Lanes<T, N> operator~(const Lanes<T, N>& a) {
  return a ^ Lanes<T, N>(T(~T(0)));
}
template <class T, int N>
Lanes<T, N> operator+(const Lanes<T, N>& a) {
  return a;
}

/// HLSL select(cond, a, b) and the per-thread ?: operator: a where cond, else b.
template <class T, int N>
HWY_INLINE Lanes<T, N> select(const Bool<N>& cond, const Lanes<T, N>& a, const Lanes<T, N>& b) {
  if constexpr (kIsSimdType<T>) {
    const hn::ScalableTag<T> d;
    constexpr int L = int(hn::MaxLanes(d));
    if constexpr (L % 8 == 0) {
      Lanes<T, N> r{NoInit{}};
      cond.mask().template ForEachVectorWord<L, Lanes<T, N>::kPadded>([&](int i, uint64_t word) {
        hn::Store(hn::IfThenElse(MaskOfBits(d, word >> (i & 63)), hn::Load(d, a.data() + i),
                                 hn::Load(d, b.data() + i)),
                  d, r.data() + i);
      });
      return r;
    }
  }
  Lanes<T, N> r = b;
  r.AssignMasked(a, cond.mask());
  return r;
}
template <class T, int N, class S>
  requires kIsScalar<S>
HWY_INLINE Lanes<T, N> select(const Bool<N>& cond, const Lanes<T, N>& a, S b) {
  return select(cond, a, Lanes<T, N>(b));
}
template <class T, int N, class S>
  requires kIsScalar<S>
HWY_INLINE Lanes<T, N> select(const Bool<N>& cond, S a, const Lanes<T, N>& b) {
  return select(cond, Lanes<T, N>(a), b);
}
/// select with two scalars needs the lane type spelled out: select<uint32_t>(c, 1, 0).
template <class T, int N>
HWY_INLINE Lanes<T, N> select(const Bool<N>& cond, T a, T b) {
  return select(cond, Lanes<T, N>(a), Lanes<T, N>(b));
}
template <int N>
Bool<N> select(const Bool<N>& cond, const Bool<N>& a, const Bool<N>& b) {
  return (cond & a) | ((!cond) & b);
}

// ------------------------------------------------------------------------------------------------
// HLSL-named per-thread value types.

template <int N> using Int16 = Lanes<int16_t, N>;
template <int N> using Uint16 = Lanes<uint16_t, N>;
template <int N> using Int = Lanes<int32_t, N>;
template <int N> using Uint = Lanes<uint32_t, N>;
template <int N> using Int64 = Lanes<int64_t, N>;
template <int N> using Uint64 = Lanes<uint64_t, N>;
template <int N> using Half = Lanes<half, N>;
template <int N> using Float = Lanes<float, N>;
template <int N> using Double = Lanes<double, N>;

}  // namespace waveemu
