// wave_reduce.h -- wave reductions (SM 6.0): WaveActiveAllEqual, WaveActiveCountBits,
// WaveActiveSum, WaveActiveProduct, WaveActiveBitAnd/Or/Xor, WaveActiveMin/Max.
//
// Results are uniform within a wave but may differ between the waves of a group, so they are
// per-thread values. Float order, denormals, NaN encodings and float equality follow the device
// profile (DESIGN §3); the per-wave combine steps live in core:: so scans and multi-prefix reuse
// them.
#pragma once

#include "emulator/emulator.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace waveemu {

namespace core {

// ------------------------------------------------------------------------------------------------
// Policies and combine steps shared by reductions, scans and multi-prefix ops.

/// The profile's policies that decide the bits of a float wave reduction or scan.
struct WaveFloatPolicy {
  ReductionOrder reduction_order = ReductionOrder::kSequential;
  ScanOrder scan_order = ScanOrder::kSequential;
  DenormMode denormals = DenormMode::kPreserve;
  NanResult nan_result = NanResult::kPropagate;
  AllNanMinMax all_nan_min_max = AllNanMinMax::kPoison;
  FloatEquality float_equality = FloatEquality::kOrdered;

  static WaveFloatPolicy Of(const DeviceProfile& p) {
    return {p.reduction_order, p.scan_order,      p.wave_denormals,
            p.nan_result,      p.all_nan_min_max, p.float_equality};
  }
};

/// Unsigned type in which T's + and * wrap modulo 2^bits without C++ undefined behaviour
/// (16-bit values would otherwise promote to int, whose products can overflow).
template <class T>
using WrapType = std::conditional_t<sizeof(T) < 4, uint32_t, std::make_unsigned_t<T>>;

/// `+` of the wave ops: identity 0.
struct SumOp {
  template <class T>
  static constexpr T Identity() {
    return T(0);
  }
  template <class U>
  static U Apply(U a, U b) {
    return U(a + b);
  }
};

/// `*` of the wave ops: identity 1.
struct ProductOp {
  template <class T>
  static constexpr T Identity() {
    return T(1);
  }
  template <class U>
  static U Apply(U a, U b) {
    return U(a * b);
  }
};

/// `&` of the wave ops: identity all ones.
struct BitAndOp {
  template <class T>
  static constexpr T Identity() {
    return T(~T(0));
  }
  template <class U>
  static U Apply(U a, U b) {
    return U(a & b);
  }
};

/// `|` of the wave ops: identity 0.
struct BitOrOp {
  template <class T>
  static constexpr T Identity() {
    return T(0);
  }
  template <class U>
  static U Apply(U a, U b) {
    return U(a | b);
  }
};

/// `^` of the wave ops: identity 0.
struct BitXorOp {
  template <class T>
  static constexpr T Identity() {
    return T(0);
  }
  template <class U>
  static U Apply(U a, U b) {
    return U(a ^ b);
  }
};

using detail::FlushDenormal;

template <class T>
bool IsNan(T v) {
  if constexpr (std::is_same_v<T, half>) return std::isnan(float(v));
  else if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

using detail::CanonicalNan;

/// A result's NaN encoding per the profile: the canonical NaN, or whatever IEEE gave.
template <class T>
T EncodeNan(T v, NanResult mode) {
  return mode == NanResult::kCanonical && IsNan(v) ? CanonicalNan<T>() : v;
}

/// One float combine step a op b: computed in T (half rounds to half after every step), the
/// result flushed when the profile flushes. Inputs are expected flushed already.
template <class Op, class T>
T CombineFloat(T a, T b, DenormMode mode) {
  if constexpr (std::is_same_v<T, half>) return half(Op::Apply(float(a), float(b)));
  else return FlushDenormal(Op::Apply(a, b), mode);
}

/// One integer combine step, wrapping modulo 2^bits.
template <class Op, class T>
T CombineInt(T a, T b) {
  using U = WrapType<T>;
  return T(Op::Apply(U(a), U(b)));
}

inline bool LaneOn(const WaveLanes& lanes, int lane) { return lanes.Test(lane); }

/// Whether every one of the first `present` lanes is in `lanes`.
inline bool AllPresentOn(const WaveLanes& lanes, int present) {
  return lanes.Count() == present;
}

// ------------------------------------------------------------------------------------------------
// Per-wave kernels. `x` points at lane 0 of one wave; lanes at or beyond `present` (the missing
// lanes of a partial wave) and lanes not in `lanes` are never read. `lanes` need not be the
// wave's active mask: multi-prefix ops pass one partition at a time.

/// Integer Op over the lanes of `lanes`, modulo 2^bits. A fully active wave takes a branch-free
/// contiguous loop.
template <class Op, class T>
T ReduceWaveInt(const T* x, const WaveLanes& lanes, int present) {
  using U = WrapType<T>;
  constexpr U kId = Op::template Identity<U>();
  U acc = kId;
  if (AllPresentOn(lanes, present)) {
    for (int l = 0; l < present; ++l) acc = Op::Apply(acc, U(x[l]));
  } else {
    for (int l = 0; l < present; ++l) acc = Op::Apply(acc, LaneOn(lanes, l) ? U(x[l]) : kId);
  }
  return T(acc);
}

/// Float Op over the lanes of `lanes` (at least one), in the profile's order:
///  - kSequential: ((x[a0] op x[a1]) op x[a2]) ... over the set lanes in ascending order;
///  - kButterfly: xor butterfly over all W lanes with the identity in lanes not set, offsets
///    1, 2, ..., W/2. Lane 0's value is returned (it is the pairwise tree
///    T(block) = T(lower half) op T(upper half)); every lane's value has the same bits unless NaN
///    payloads differ;
///  - kCompactedHillisSteele (NVIDIA): see intrinsics/nvidia_float_order.h.
/// Inputs and every intermediate result are flushed under kFlushToZero (float only); a NaN
/// result is encoded per NanResult.
template <class Op, class T>
T ReduceWaveFloatCompacted(const T* x, const WaveLanes& lanes, int present, int W,
                           const WaveFloatPolicy& p);  // intrinsics/nvidia_float_order.h

template <class Op, class T>
T ReduceWaveFloat(const T* x, const WaveLanes& lanes, int present, int W,
                  const WaveFloatPolicy& p) {
  if (p.reduction_order == ReductionOrder::kCompactedHillisSteele)
    return ReduceWaveFloatCompacted<Op>(x, lanes, present, W, p);
  const DenormMode dm = p.denormals;
  if (p.reduction_order == ReductionOrder::kSequential) {
    T acc = Op::template Identity<T>();
    bool any = false;
    lanes.ForEach([&](int l) {
      if (l >= present) return;
      const T v = FlushDenormal(x[l], dm);
      acc = any ? CombineFloat<Op>(acc, v, dm) : v;
      any = true;
    });
    return EncodeNan(acc, p.nan_result);
  }
  T v[kMaxWaveSize];
  for (int l = 0; l < W; ++l)
    v[l] = l < present && LaneOn(lanes, l) ? FlushDenormal(x[l], dm) : Op::template Identity<T>();
  for (int d = 1; d < W; d *= 2)
    for (int l = 0; l < W; l += 2 * d) v[l] = CombineFloat<Op>(v[l], v[l + d], dm);
  return EncodeNan(v[0], p.nan_result);
}

/// Op over the lanes of `lanes` for any numeric T: integers wrap, floats follow the policy.
template <class Op, class T>
T ReduceWave(const T* x, const WaveLanes& lanes, int present, int W, const WaveFloatPolicy& p) {
  if constexpr (kIsFloatLike<T>) return ReduceWaveFloat<Op>(x, lanes, present, W, p);
  else return ReduceWaveInt<Op>(x, lanes, present);
}

/// Min (kMax false) or max of two non-NaN values; the +0/-0 tie gives -0 for min and +0 for max
/// (IEEE 754-2019 minimum/maximum; HLSL leaves the tie unspecified).
template <bool kMax, class T>
T MinMax2(T a, T b) {
  if constexpr (kIsFloatLike<T>) {
    using F = std::conditional_t<std::is_same_v<T, half>, float, T>;
    const F fa = F(a), fb = F(b);
    if (fa < fb) return kMax ? b : a;
    if (fb < fa) return kMax ? a : b;
    return std::signbit(fa) != kMax ? a : b;  // equal: only zeros' signs can differ
  } else {
    return (b < a) != kMax ? b : a;
  }
}

/// Min or max over the lanes of `lanes` (at least one). Integers compare by their type's
/// signedness. Floats skip NaN lanes (DXIL/SPIR-V: NaN-ignoring) and compare flushed inputs under
/// kFlushToZero (float only); when every lane is NaN the result follows AllNanMinMax, and
/// `*all_nan` is set so the caller can report the kPoison case.
template <bool kMax, class T>
T MinMaxWave(const T* x, const WaveLanes& lanes, int present, const WaveFloatPolicy& p,
             bool* all_nan) {
  if constexpr (kIsFloatLike<T>) {
    T acc{};
    bool any = false;
    lanes.ForEach([&](int l) {
      if (l >= present || IsNan(x[l])) return;
      const T v = FlushDenormal(x[l], p.denormals);
      acc = any ? MinMax2<kMax>(acc, v) : v;
      any = true;
    });
    if (any) return acc;
    if (all_nan) *all_nan = true;
    switch (p.all_nan_min_max) {
      case AllNanMinMax::kIdentity: {
        using F = std::conditional_t<std::is_same_v<T, half>, float, T>;
        const F inf = std::numeric_limits<F>::infinity();
        return T(kMax ? -inf : inf);
      }
      case AllNanMinMax::kCanonical: return CanonicalNan<T>();
      case AllNanMinMax::kPoison: break;
    }
    return Poison<T>();
  } else {
    const int first = lanes.First();
    T acc = x[first];
    if (AllPresentOn(lanes, present)) {
      for (int l = 1; l < present; ++l) acc = MinMax2<kMax>(acc, x[l]);
    } else {
      for (int l = first + 1; l < present; ++l)
        if (LaneOn(lanes, l)) acc = MinMax2<kMax>(acc, x[l]);
    }
    return acc;
  }
}

/// Whether every lane of `lanes` (at least one) holds the same value as the first. Floats compare
/// per FloatEquality: bits (NaN equals an identical NaN, +0 != -0) or IEEE ordered-equal (any NaN
/// gives false, +0 == -0).
template <class T>
bool AllEqualWave(const T* x, const WaveLanes& lanes, int present, FloatEquality eq) {
  int ref_lane = lanes.First();
  if constexpr (kIsFloatLike<T>) {
    if (eq == FloatEquality::kUnorderedWithLast)
      lanes.ForEach([&](int l) { if (l < present) ref_lane = l; });
  }
  const T ref = x[ref_lane];
  bool same = true;
  lanes.ForEach([&](int l) {
    if (l >= present) return;
    const T v = x[l];
    if constexpr (kIsFloatLike<T>) {
      if (eq == FloatEquality::kUnorderedWithLast) {
        same &= v == ref || std::isnan(float(v)) || std::isnan(float(ref));
      } else if (eq == FloatEquality::kBitwise) {
        if constexpr (std::is_same_v<T, half>) same &= v.bits() == ref.bits();
        else if constexpr (sizeof(T) == 4) same &= std::bit_cast<uint32_t>(v) == std::bit_cast<uint32_t>(ref);
        else same &= std::bit_cast<uint64_t>(v) == std::bit_cast<uint64_t>(ref);
      } else {
        same &= v == ref;  // false whenever either is NaN
      }
    } else {
      same &= v == ref;
    }
  });
  return same;
}

// ------------------------------------------------------------------------------------------------
// Whole-group cores: every wave of the group, the wave's result on each of its present lanes.
// Waves with no lane in `mask` keep 0.

/// f(slice) -> T for every wave with a lane in `mask`, broadcast to that wave's lanes.
template <class T, int N, class F>
Lanes<T, N> PerWave(const Mask<N>& mask, int W, F&& f) {
  Lanes<T, N> r;
  ForEachWave(mask, W, [&](const WaveSlice& w) {
    if (!w.lanes.Any()) return;
    FillWave(r.data() + w.first_thread, w.lanes_present, T(f(w)));
  });
  return r;
}

/// Min (kMax false) or max of 32-bit integers as an Op of the vector path below: the identity is
/// the type's largest (smallest) value, and the comparison follows T's signedness.
template <bool kMax>
struct IntMinMaxOp {
  template <class T>
  static constexpr T Identity() {
    return kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
  template <class V>
  static V Apply(V a, V b) {
    return kMax ? hn::Max(a, b) : hn::Min(a, b);
  }
};

/// A 32-bit integer Op over each wave's lanes in `mask`, for the whole group one vector of
/// threads at a time (kSeg = min(kW, vector length)): lanes not in `mask` take Op's identity from
/// the mask bits; a wave longer than a vector first combines its vectors lane by lane; an xor
/// butterfly within kSeg lanes (offsets 1, 2, ..., kSeg / 2) then leaves the wave's result on
/// every lane. Every Op here is associative and commutative on integers (+ and * wrap), so any
/// order gives ReduceWaveInt's bits. As in PerWave, a wave with no lane in `mask` gets 0 (an op
/// whose identity is 0 gives it with no extra step); padding lanes beyond N get values that are
/// never observed.
template <int kW, class Op, class T, int N>
void Reduce32Vectors(const Lanes<T, N>& x, const Mask<N>& mask, Lanes<T, N>& r) {
  static_assert(sizeof(T) == 4 && std::is_integral_v<T>, "32-bit integer lanes only");
  const hn::ScalableTag<T> d;
  constexpr int L = int(hn::MaxLanes(d));
  constexpr int kSeg = std::min(kW, L);
  constexpr int kPadded = Lanes<T, N>::kPadded;
  static_assert(64 % L == 0 && kSeg <= L, "a vector of threads must lie in one mask word");
  using V = hn::Vec<hn::ScalableTag<T>>;
  constexpr T kIdentity = Op::template Identity<T>();
  const V identity = hn::Set(d, kIdentity);
  // Every thread active and no padding lanes (whose values are not the identity): no blend.
  const bool all = kPadded == N && mask.IsAll();
  const auto load = [&](int t0) {
    if (all) return hn::Load(d, x.data() + t0);
    return hn::IfThenElse(MaskOfBits(d, mask.Bits64(t0, 64)), hn::Load(d, x.data() + t0),
                          identity);
  };
  const Mask<N> reached = kIdentity == T(0) ? Mask<N>() : WavesWithAny(mask, kW);
  const auto store = [&](V v, int t0) {
    if constexpr (kIdentity != T(0))
      v = hn::IfThenElseZero(MaskOfBits(d, reached.Bits64(t0, 64)), v);
    hn::Store(v, d, r.data() + t0);
  };
  const auto butterfly = [&](V v) {
    if constexpr (L == 8 && HWY_TARGET == HWY_AVX2) {
      // In-block shuffles (VPSHUFD, one cycle) and a block swap where the table lookups below
      // are a VPERMD (three cycles on Zen 3) each.
      if constexpr (kSeg >= 2) v = Op::Apply(v, hn::Shuffle2301(v));
      if constexpr (kSeg >= 4) v = Op::Apply(v, hn::Shuffle1032(v));
      if constexpr (kSeg >= 8) v = Op::Apply(v, hn::SwapAdjacentBlocks(v));
      return v;
    }
    alignas(64) int32_t idx[L];
    for (int k = 1; k < kSeg; k *= 2) {
      for (int l = 0; l < L; ++l) idx[l] = l ^ k;  // folded to constants: kSeg and L are fixed
      v = Op::Apply(v, hn::TableLookupLanes(v, hn::SetTableIndices(d, idx)));
    }
    return v;
  };
  if constexpr (kW <= L) {
    for (int t0 = 0; t0 < kPadded; t0 += L) store(butterfly(load(t0)), t0);
    return;
  }
  for (int first = 0; first < kPadded; first += kW) {
    const int end = std::min(first + kW, kPadded);
    V acc = load(first);
    for (int t0 = first + L; t0 < end; t0 += L) acc = Op::Apply(acc, load(t0));
    acc = butterfly(acc);
    for (int t0 = first; t0 < end; t0 += L) store(acc, t0);
  }
}

/// Op over the lanes of each wave in `mask`, through Reduce32Vectors where it applies (32-bit
/// integers, vectors of at most 16 lanes) and `fallback` otherwise.
template <class Op, class T, int N, class Fallback>
Lanes<T, N> ReduceVectorsOr(const Lanes<T, N>& x, const Mask<N>& mask, int W,
                            Fallback&& fallback) {
  constexpr int L = int(hn::MaxLanes(hn::ScalableTag<uint32_t>()));
  if constexpr (std::is_integral_v<T> && sizeof(T) == 4 && L <= 16) {
    Lanes<T, N> r{NoInit{}};
    WithWaveSize(W, [&]<int kW>() { Reduce32Vectors<kW, Op>(x, mask, r); });
    return r;
  } else {
    return fallback();
  }
}

/// Op over the lanes of each wave in `mask`.
template <class Op, class T, int N>
Lanes<T, N> Reduce(const Lanes<T, N>& x, const Mask<N>& mask, int W, const WaveFloatPolicy& p) {
  return ReduceVectorsOr<Op>(x, mask, W, [&] {
    return PerWave<T>(mask, W, [&](const WaveSlice& w) {
      return ReduceWave<Op>(x.data() + w.first_thread, w.lanes, w.lanes_present, W, p);
    });
  });
}

/// For waves of W <= 32 lanes: on every thread, the number of bits of `bits` in its wave.
template <int N>
HWY_INLINE Uint<N> WaveBlockCounts(const Mask<N>& bits, int W) {
  Uint<N> r{NoInit{}};
  WaveBlockBits</*kPopcount=*/true>(bits, W, r.data(), Uint<N>::kPadded);
  return r;
}

/// Number of threads of each wave where x is true and `mask` is set, on every lane of the wave.
template <int N>
HWY_INLINE Uint<N> CountBits(const Bool<N>& x, const Mask<N>& mask, int W) {
  // Each path makes its own NoInit result and writes every lane below N of it.
  return WithWaveSize(W, [&]<int kW>() {
    if constexpr (kW <= 32) {
      return WaveBlockCounts(x.mask() & mask, kW);
    } else {
      Uint<N> r{NoInit{}};
      ForEachWave(x.mask() & mask, kW, [&](const WaveSlice& w) {
        FillWave(r.data() + w.first_thread, w.lanes_present, uint32_t(w.lanes.Count()));
      });
      return r;
    }
  });
}

/// Sum over the lanes of each wave in `mask`.
template <class T, int N>
Lanes<T, N> ActiveSum(const Lanes<T, N>& x, const Mask<N>& mask, int W, const WaveFloatPolicy& p) {
  return Reduce<SumOp>(x, mask, W, p);
}

/// Product over the lanes of each wave in `mask`.
template <class T, int N>
Lanes<T, N> ActiveProduct(const Lanes<T, N>& x, const Mask<N>& mask, int W,
                          const WaveFloatPolicy& p) {
  return Reduce<ProductOp>(x, mask, W, p);
}

/// Float min (kMax false) or max over each wave's lanes in `mask`, as 32-bit integers: the bits
/// b of a float map to b ^ ((b >> 31, arithmetic) & 0x7fffffff), an involution that orders every
/// non-NaN float as a signed integer with -0 below +0 (MinMax2's tie rule); min and max are then
/// order-free, so the integer vector path gives MinMaxWave's bits. NaN lanes take the op's
/// identity (INT32_MAX for min, INT32_MIN for max), which only NaN bits map to, so a wave whose
/// lanes are all NaN ends with it: then this returns false and leaves the group to MinMaxWave,
/// which applies the profile's AllNanMinMax and reports. Denormals are flushed first under
/// kFlushToZero, as MinMaxWave does.
template <bool kMax, int N>
bool FloatMinMaxVectors(const Lanes<float, N>& x, const Mask<N>& mask, int W, DenormMode dm,
                        Lanes<float, N>& r) {
  const hn::ScalableTag<int32_t> d;
  const hn::ScalableTag<float> df;
  constexpr int L = int(hn::MaxLanes(d));
  constexpr int kPadded = Lanes<float, N>::kPadded;
  constexpr int32_t kAllNan = IntMinMaxOp<kMax>::template Identity<int32_t>();
  const auto magnitude = hn::Set(d, 0x7fffffff);
  const auto key_of = [&](auto bits) {  // its own inverse
    return hn::Xor(bits, hn::And(hn::ShiftRight<31>(bits), magnitude));
  };
  Lanes<int32_t, N> keys{NoInit{}};
  for (int t0 = 0; t0 < kPadded; t0 += L) {
    auto v = hn::Load(df, x.data() + t0);
    if (dm == DenormMode::kFlushToZero) v = FlushDenormals(df, v);
    const auto bits = hn::BitCast(d, v);
    const auto nan = hn::Gt(hn::And(bits, magnitude), hn::Set(d, 0x7f800000));
    hn::Store(hn::IfThenElse(nan, hn::Set(d, kAllNan), key_of(bits)), d, keys.data() + t0);
  }
  const Lanes<int32_t, N> best = ReduceVectorsOr<IntMinMaxOp<kMax>>(keys, mask, W, [&] {
    return PerWave<int32_t>(mask, W, [&](const WaveSlice& w) {
      return MinMaxWave<kMax>(keys.data() + w.first_thread, w.lanes, w.lanes_present, {},
                              nullptr);
    });
  });
  // A wave with no lane in `mask` holds 0, the bits of +0.0f, as in PerWave.
  auto all_nan = hn::FirstN(d, 0);
  for (int t0 = 0; t0 < kPadded; t0 += L) {
    const auto k = hn::Load(d, best.data() + t0);
    all_nan = hn::Or(all_nan, hn::Eq(k, hn::Set(d, kAllNan)));
    hn::Store(hn::BitCast(df, key_of(k)), df, r.data() + t0);
  }
  return hn::AllFalse(d, all_nan);
}

/// Min (kMax false) or max over the lanes of each wave in `mask`; calls on_all_nan(wave index)
/// for each wave whose lanes were all NaN.
template <bool kMax, class T, int N, class OnAllNan>
Lanes<T, N> ActiveMinMax(const Lanes<T, N>& x, const Mask<N>& mask, int W,
                         const WaveFloatPolicy& p, OnAllNan&& on_all_nan) {
  const auto per_wave = [&] {
    return PerWave<T>(mask, W, [&](const WaveSlice& w) {
      bool all_nan = false;
      const T v =
          MinMaxWave<kMax>(x.data() + w.first_thread, w.lanes, w.lanes_present, p, &all_nan);
      if (all_nan) on_all_nan(w.index);
      return v;
    });
  };
  if constexpr (std::is_same_v<T, float>) {
    Lanes<float, N> r{NoInit{}};
    if (FloatMinMaxVectors<kMax>(x, mask, W, p.denormals, r)) return r;
    return per_wave();
  } else {
    return ReduceVectorsOr<IntMinMaxOp<kMax>>(x, mask, W, per_wave);
  }
}

/// True on each wave whose lanes in `mask` all hold the same value (floats per FloatEquality).
template <class T, int N>
Bool<N> ActiveAllEqual(const Lanes<T, N>& x, const Mask<N>& mask, int W, FloatEquality eq) {
  Mask<N> r;
  ForEachWave(mask, W, [&](const WaveSlice& w) {
    if (!w.lanes.Any()) return;
    if (AllEqualWave(x.data() + w.first_thread, w.lanes, w.lanes_present, eq))
      r.SetRange(w.first_thread, w.first_thread + w.lanes_present);
  });
  return Bool<N>::FromMask(r);
}

/// Bool version: true on each wave whose lanes in `mask` are all true or all false.
template <int N>
Bool<N> ActiveAllEqual(const Bool<N>& x, const Mask<N>& mask, int W) {
  // True where the wave has a lane in `mask` and not both a true and a false one.
  const Mask<N> some_true = WavesWithAny(x.mask() & mask, W);
  const Mask<N> some_false = WavesWithAny(AndNot(mask, x.mask()), W);
  return Bool<N>::FromMask(AndNot(WavesWithAny(mask, W), some_true & some_false));
}

/// Applies f to every component of a vector, building the result unmasked (copy construction):
/// a wave op returns a value, and only the caller's assignment is masked.
template <class R, class T, int C, int N, class F>
Vector<R, C, N> PerComponent(const Vector<T, C, N>& v, F&& f) {
  return detail::BuildVector<R, C, N>([&](int i) { return f(v[i]); });
}

}  // namespace core

namespace detail {
/// A plain scalar a uniform-argument wave op accepts (WaveActiveSum<N>(1u)); bool has its own
/// overloads.
template <class S>
inline constexpr bool kIsUniformWaveArg =
    (std::is_arithmetic_v<S> && !std::is_same_v<S, bool>) || std::is_same_v<S, half>;
template <class S, int N>
constexpr auto UniformArgTag() {
  static_assert(!std::is_void_v<HlslScalarOf<S>>,
                "wave ops take HLSL scalars, and this C++ type has none (an 8-bit integer, long "
                "double): convert the argument, e.g. WaveActiveSum<N>(uint32_t(x))");
  if constexpr (std::is_void_v<HlslScalarOf<S>>) return std::type_identity<Lanes<uint32_t, N>>{};
  else return std::type_identity<Lanes<HlslScalarOf<S>, N>>{};
}
}  // namespace detail

/// The per-thread value a uniform wave-op argument S becomes: Lanes of the HLSL scalar S stands
/// for (HlslScalarOf: 1ull is a uint64_t). The uniform-argument overloads default N to 0, so
/// that a call without <N> resolves and Mask<0>'s static_assert says to write it.
template <class S, int N>
using UniformArgLanes = typename decltype(detail::UniformArgTag<S, N>())::type;

/// HLSL's uint_only<> class: WaveActiveBitAnd/Or/Xor accept uint and uint64_t and nothing else.
template <class T>
inline constexpr bool kIsUintOnly = std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>;

// ------------------------------ WaveActiveAllEqual

/// True on every lane of a wave whose active lanes all hold the same value; one bool per
/// component for vectors. Floats compare per the profile's FloatEquality. Uniform argument:
/// WaveActiveAllEqual<N>(x).
template <class T, int N>
Bool<N> WaveActiveAllEqual(const Lanes<T, N>& expr) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::ActiveAllEqual(expr, s.wave_active(), s.wave_size(), s.profile().float_equality);
}
template <int N>
Bool<N> WaveActiveAllEqual(const Bool<N>& expr) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::ActiveAllEqual(expr, s.wave_active(), s.wave_size());
}
template <class T, int C, int N>
Vector<bool, C, N> WaveActiveAllEqual(const Vector<T, C, N>& expr) {
  return core::PerComponent<bool>(expr, [](const auto& c) { return WaveActiveAllEqual(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
Bool<N> WaveActiveAllEqual(S expr) {
  return WaveActiveAllEqual(UniformArgLanes<S, N>(expr));
}

// ------------------------------ WaveActiveCountBits

/// Number of active lanes of the wave where bBit is true. Uniform argument:
/// WaveActiveCountBits<N>(true) counts the active lanes.
template <int N>
HWY_INLINE Uint<N> WaveActiveCountBits(const Bool<N>& bBit) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::CountBits(bBit, s.wave_active(), s.wave_size());
}
template <int N = 0>
Uint<N> WaveActiveCountBits(bool bBit) {
  return WaveActiveCountBits(Bool<N>(bBit));
}
/// HLSL converts a numeric argument to bool: bBit != 0 (the seed's WaveActiveCountBits(IsFree)).
template <int N, class T>  // N first: WaveActiveCountBits<N>(x) works too
Uint<N> WaveActiveCountBits(const Lanes<T, N>& bBit) {
  return WaveActiveCountBits(Bool<N>(bBit));
}

// ------------------------------ WaveActiveSum

/// Sum of value over the wave's active lanes: integers wrap modulo 2^bits, floats in the
/// profile's ReductionOrder. Uniform argument: WaveActiveSum<N>(1u).
template <class T, int N>
Lanes<T, N> WaveActiveSum(const Lanes<T, N>& value) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::ActiveSum(value, s.wave_active(), s.wave_size(),
                         core::WaveFloatPolicy::Of(s.profile()));
}
template <class T, int C, int N>
Vector<T, C, N> WaveActiveSum(const Vector<T, C, N>& value) {
  return core::PerComponent<T>(value, [](const auto& c) { return WaveActiveSum(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WaveActiveSum(S value) {
  return WaveActiveSum(UniformArgLanes<S, N>(value));
}
template <int N>
Bool<N> WaveActiveSum(const Bool<N>&) {
  static_assert(N < 0, "WaveActiveSum takes numeric values, not bool (HLSL's numeric<> type class): "
                       "count with WaveActiveCountBits / WavePrefixCountBits, or convert with "
                       "Uint<N>(b)");
  return {};
}

// ------------------------------ WaveActiveProduct

/// Product of value over the wave's active lanes: integers wrap modulo 2^bits, floats in the
/// profile's ReductionOrder.
template <class T, int N>
Lanes<T, N> WaveActiveProduct(const Lanes<T, N>& value) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::ActiveProduct(value, s.wave_active(), s.wave_size(),
                             core::WaveFloatPolicy::Of(s.profile()));
}
template <class T, int C, int N>
Vector<T, C, N> WaveActiveProduct(const Vector<T, C, N>& value) {
  return core::PerComponent<T>(value, [](const auto& c) { return WaveActiveProduct(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WaveActiveProduct(S value) {
  return WaveActiveProduct(UniformArgLanes<S, N>(value));
}
template <int N>
Bool<N> WaveActiveProduct(const Bool<N>&) {
  static_assert(N < 0, "WaveActiveProduct takes numeric values, not bool (HLSL's numeric<> type class): "
                       "count with WaveActiveCountBits / WavePrefixCountBits, or convert with "
                       "Uint<N>(b)");
  return {};
}

// ------------------------------ WaveActiveBitAnd

#define WAVEEMU_UINT_ONLY(NAME)                                                                  \
  static_assert(kIsUintOnly<T>, #NAME " takes uint or uint64_t (scalars or vectors) only, as "  \
                                      "HLSL's uint_only<> type class: convert first, e.g. " #NAME \
                                      "(Uint<N>(x)), or write an unsigned literal (0xffu)")

/// Bitwise AND of expr over the wave's active lanes (uint and uint64_t only). Uniform argument:
/// WaveActiveBitAnd<N>(0xffu).
template <class T, int N>
Lanes<T, N> WaveActiveBitAnd(const Lanes<T, N>& expr) {
  WAVEEMU_UINT_ONLY(WaveActiveBitAnd);
  const GroupState<N>& s = CurrentGroup<N>();
  if constexpr (kIsUintOnly<T>)
    return core::Reduce<core::BitAndOp>(expr, s.wave_active(), s.wave_size(), {});
  else return expr;
}
template <class T, int C, int N>
Vector<T, C, N> WaveActiveBitAnd(const Vector<T, C, N>& expr) {
  WAVEEMU_UINT_ONLY(WaveActiveBitAnd);
  return core::PerComponent<T>(expr, [](const auto& c) { return WaveActiveBitAnd(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WaveActiveBitAnd(S expr) {
  return WaveActiveBitAnd(UniformArgLanes<S, N>(expr));
}

// ------------------------------ WaveActiveBitOr

/// Bitwise OR of expr over the wave's active lanes (uint and uint64_t only). Uniform argument:
/// WaveActiveBitOr<N>(1u).
template <class T, int N>
Lanes<T, N> WaveActiveBitOr(const Lanes<T, N>& expr) {
  WAVEEMU_UINT_ONLY(WaveActiveBitOr);
  const GroupState<N>& s = CurrentGroup<N>();
  if constexpr (kIsUintOnly<T>)
    return core::Reduce<core::BitOrOp>(expr, s.wave_active(), s.wave_size(), {});
  else return expr;
}
template <class T, int C, int N>
Vector<T, C, N> WaveActiveBitOr(const Vector<T, C, N>& expr) {
  WAVEEMU_UINT_ONLY(WaveActiveBitOr);
  return core::PerComponent<T>(expr, [](const auto& c) { return WaveActiveBitOr(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WaveActiveBitOr(S expr) {
  return WaveActiveBitOr(UniformArgLanes<S, N>(expr));
}

// ------------------------------ WaveActiveBitXor

/// Bitwise XOR of expr over the wave's active lanes (uint and uint64_t only). Uniform argument:
/// WaveActiveBitXor<N>(1u).
template <class T, int N>
Lanes<T, N> WaveActiveBitXor(const Lanes<T, N>& expr) {
  WAVEEMU_UINT_ONLY(WaveActiveBitXor);
  const GroupState<N>& s = CurrentGroup<N>();
  if constexpr (kIsUintOnly<T>)
    return core::Reduce<core::BitXorOp>(expr, s.wave_active(), s.wave_size(), {});
  else return expr;
}
template <class T, int C, int N>
Vector<T, C, N> WaveActiveBitXor(const Vector<T, C, N>& expr) {
  WAVEEMU_UINT_ONLY(WaveActiveBitXor);
  return core::PerComponent<T>(expr, [](const auto& c) { return WaveActiveBitXor(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WaveActiveBitXor(S expr) {
  return WaveActiveBitXor(UniformArgLanes<S, N>(expr));
}

#undef WAVEEMU_UINT_ONLY

namespace detail {

/// Reports an all-NaN WaveActiveMin/Max under AllNanMinMax::kPoison (undefined in SPIR-V).
template <int N>
auto AllNanReporter(const GroupState<N>& s, const char* name) {
  return [&s, name](int wave) {
    if (s.profile().all_nan_min_max == AllNanMinMax::kPoison)
      s.Report(fmt::format("{}: every active lane is NaN (the result is undefined)", name),
               fmt::format("{}, wave {}", s.Where(), wave));
  };
}

}  // namespace detail

// ------------------------------ WaveActiveMin

/// Minimum of value over the wave's active lanes; signed or unsigned by type; floats ignore NaN
/// lanes, and all-NaN follows the profile's AllNanMinMax. Uniform argument: WaveActiveMin<N>(-3).
template <class T, int N>
Lanes<T, N> WaveActiveMin(const Lanes<T, N>& value) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::ActiveMinMax<false>(value, s.wave_active(), s.wave_size(),
                                   core::WaveFloatPolicy::Of(s.profile()),
                                   detail::AllNanReporter(s, "WaveActiveMin"));
}
template <class T, int C, int N>
Vector<T, C, N> WaveActiveMin(const Vector<T, C, N>& value) {
  return core::PerComponent<T>(value, [](const auto& c) { return WaveActiveMin(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WaveActiveMin(S value) {
  return WaveActiveMin(UniformArgLanes<S, N>(value));
}
template <int N>
Bool<N> WaveActiveMin(const Bool<N>&) {
  static_assert(N < 0, "WaveActiveMin takes numeric values, not bool (HLSL's numeric<> type class): "
                       "count with WaveActiveCountBits / WavePrefixCountBits, or convert with "
                       "Uint<N>(b)");
  return {};
}

// ------------------------------ WaveActiveMax

/// Maximum of value over the wave's active lanes; signed or unsigned by type; floats ignore NaN
/// lanes, and all-NaN follows the profile's AllNanMinMax. Uniform argument: WaveActiveMax<N>(7).
template <class T, int N>
Lanes<T, N> WaveActiveMax(const Lanes<T, N>& value) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::ActiveMinMax<true>(value, s.wave_active(), s.wave_size(),
                                  core::WaveFloatPolicy::Of(s.profile()),
                                  detail::AllNanReporter(s, "WaveActiveMax"));
}
template <class T, int C, int N>
Vector<T, C, N> WaveActiveMax(const Vector<T, C, N>& value) {
  return core::PerComponent<T>(value, [](const auto& c) { return WaveActiveMax(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WaveActiveMax(S value) {
  return WaveActiveMax(UniformArgLanes<S, N>(value));
}
template <int N>
Bool<N> WaveActiveMax(const Bool<N>&) {
  static_assert(N < 0, "WaveActiveMax takes numeric values, not bool (HLSL's numeric<> type class): "
                       "count with WaveActiveCountBits / WavePrefixCountBits, or convert with "
                       "Uint<N>(b)");
  return {};
}

// Buffer and groupshared elements as arguments (see WAVEEMU_TAKES_REFERENCES).
WAVEEMU_TAKES_REFERENCES(WaveActiveAllEqual)
WAVEEMU_TAKES_REFERENCES(WaveActiveBitAnd)
WAVEEMU_TAKES_REFERENCES(WaveActiveBitOr)
WAVEEMU_TAKES_REFERENCES(WaveActiveBitXor)
WAVEEMU_TAKES_REFERENCES(WaveActiveCountBits)
WAVEEMU_TAKES_REFERENCES(WaveActiveMax)
WAVEEMU_TAKES_REFERENCES(WaveActiveMin)
WAVEEMU_TAKES_REFERENCES(WaveActiveProduct)
WAVEEMU_TAKES_REFERENCES(WaveActiveSum)

}  // namespace waveemu

// The NVIDIA order needs CombineFloat and friends above, so its definitions come last.
#include "intrinsics/nvidia_float_order.h"  // IWYU pragma: keep
