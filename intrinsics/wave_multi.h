// wave_multi.h -- wave match and multi-prefix intrinsics (SM 6.5): WaveMatch,
// WaveMultiPrefixSum/Product/CountBits/BitAnd/BitOr/BitXor.
//
// A multi-prefix op is an exclusive scan inside each group of lanes that the per-lane uint4 masks
// name (the groups WaveMatch produces). Masks that do not partition the active lanes are
// undefined in HLSL: poisoned and reported in a poison_undefined profile.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/wave_broadcast.h"
#include "intrinsics/wave_reduce.h"  // uniform arguments: kIsUniformWaveArg, UniformArgLanes

#include <bit>
#include <type_traits>

namespace waveemu {

namespace detail {

/// Equality as WaveMatch and WaveActiveAllEqual see it: floats per the profile's policy.
template <class T>
bool MatchEqual(T a, T b, FloatEquality eq) {
  if constexpr (kIsFloatLike<T>) {
    if (eq != FloatEquality::kOrdered) {  // kBitwise, kUnorderedWithLast
      if constexpr (std::is_same_v<T, half>) return a.bits() == b.bits();
      else if constexpr (sizeof(T) == 4)
        return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
      else
        return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
    }
    return a == b;  // ordered: NaN != anything, +0 == -0 (half compares through float)
  } else {
    return a == b;
  }
}

/// The uint4 mask of thread t as a lane set (component c holds lanes 32c .. 32c + 31).
template <int N>
WaveLanes LanesOfUint4(const Uint4<N>& m, int t) {
  WaveLanes r;
  r.word[0] = uint64_t(m.x.lane(t)) | uint64_t(m.y.lane(t)) << 32;
  r.word[1] = uint64_t(m.z.lane(t)) | uint64_t(m.w.lane(t)) << 32;
  return r;
}

/// Wrapping integer arithmetic computed in unsigned types (no C++ overflow, no int promotion
/// of 16-bit operands); floats and half round per operation.
template <class T>
T WrapAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    using P = std::conditional_t<(sizeof(T) < 4), uint32_t, U>;
    return T(U(P(U(a)) + P(U(b))));
  } else {
    return T(a + b);
  }
}
template <class T>
T WrapMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    using P = std::conditional_t<(sizeof(T) < 4), uint32_t, U>;
    return T(U(P(U(a)) * P(U(b))));
  } else {
    return T(a * b);
  }
}

struct MultiSum {
  static constexpr bool kIntegersOnly = false;
  static constexpr const char* kName = "WaveMultiPrefixSum";
  template <class T> static T Identity() { return T(0); }
  template <class T> static T Apply(T a, T b) { return WrapAdd(a, b); }
};
struct MultiProduct {
  static constexpr bool kIntegersOnly = false;
  static constexpr const char* kName = "WaveMultiPrefixProduct";
  template <class T> static T Identity() { return T(1); }
  template <class T> static T Apply(T a, T b) { return WrapMul(a, b); }
};
struct MultiBitAnd {
  static constexpr bool kIntegersOnly = true;  // HLSL's int_only<>
  static constexpr const char* kName = "WaveMultiPrefixBitAnd";
  template <class T> static T Identity() { return T(~T(0)); }
  template <class T> static T Apply(T a, T b) { return T(a & b); }
};
struct MultiBitOr {
  static constexpr bool kIntegersOnly = true;  // HLSL's int_only<>
  static constexpr const char* kName = "WaveMultiPrefixBitOr";
  template <class T> static T Identity() { return T(0); }
  template <class T> static T Apply(T a, T b) { return T(a | b); }
};
struct MultiBitXor {
  static constexpr bool kIntegersOnly = true;  // HLSL's int_only<>
  static constexpr const char* kName = "WaveMultiPrefixBitXor";
  template <class T> static T Identity() { return T(0); }
  template <class T> static T Apply(T a, T b) { return T(a ^ b); }
};

/// Each present lane's group of one wave: the active lanes its mask names. Also whether the
/// groups of the active lanes partition them (each active lane in its own group, and every
/// member of a group naming the same group); returns the first active lane that breaks it, or
/// -1.
template <int N>
int MultiGroups(const Uint4<N>& masks, const WaveSlice& w, WaveLanes* groups) {
  for (int l = 0; l < w.lanes_present; ++l) {
    const WaveLanes m = LanesOfUint4(masks, w.first_thread + l);
    groups[l].word[0] = m.word[0] & w.lanes.word[0];
    groups[l].word[1] = m.word[1] & w.lanes.word[1];
  }
  int broken = -1;
  w.lanes.ForEach([&](int l) {
    if (broken >= 0) return;
    if (!groups[l].Test(l)) {
      broken = l;
      return;
    }
    groups[l].ForEach([&](int m) {
      if (broken < 0 && !(groups[m] == groups[l])) broken = l;
    });
  });
  return broken;
}

/// Reports a wave whose multi-prefix masks do not partition its active lanes.
template <int N>
void ReportBadPartition(const GroupState<N>& s, const char* op, const WaveSlice& w,
                        const Uint4<N>& masks, int lane) {
  const int t = w.first_thread + lane;
  s.Report(fmt::format("{}: the masks do not partition the active lanes (undefined in HLSL)", op),
           fmt::format("{}, wave {} of size {}, active lanes {:#x}'{:016x}: lane {} has mask "
                       "({:#x}, {:#x}, {:#x}, {:#x})",
                       s.Where(), w.index, s.wave_size(), w.lanes.word[1], w.lanes.word[0], lane,
                       masks.x.lane(t), masks.y.lane(t), masks.z.lane(t), masks.w.lane(t)));
}

}  // namespace detail

namespace core {

/// For each lane, the uint4 mask of the lanes in `mask` of its wave whose x equals its own, its
/// own bit always set.
template <class C, int N = detail::WaveArg<C>::kN>
  requires(detail::kIsScalarArg<C> && detail::kIsNumericArg<C>)
Uint4<N> Match(const C& x, const Mask<N>& mask, int W, FloatEquality eq) {
  Uint4<N> r;
  ForEachWave(mask, W, [&](const WaveSlice& w) {
    for (int l = 0; l < w.lanes_present; ++l) {
      const int t = w.first_thread + l;
      WaveLanes same;
      same.word[l >> 6] |= uint64_t{1} << (l & 63);
      w.lanes.ForEach([&](int m) {
        if (detail::MatchEqual(x.lane(w.first_thread + m), x.lane(t), eq))
          same.word[m >> 6] |= uint64_t{1} << (m & 63);
      });
      for (int c = 0; c < 4; ++c) r[c].set_lane(t, same.Component(c));
    }
  });
  return r;
}

/// Exclusive scan with Op inside each lane's group: the lanes in `mask` that its uint4 mask names
/// below it, folded in ascending lane order from Op's identity. A wave whose masks do not
/// partition its lanes in `mask` gets Poison<T>() when `poison` is set; its first offending lane
/// is reported through on_bad(slice, lane).
template <class Op, class C, int N = detail::WaveArg<C>::kN, class OnBad>
  requires detail::kIsScalarArg<C>
C MultiPrefix(const C& x, const Uint4<N>& masks, const Mask<N>& mask, int W, bool poison,
              OnBad&& on_bad) {
  using T = typename detail::WaveArg<C>::Scalar;
  C r = x;
  WaveLanes groups[kMaxWaveSize];
  ForEachWave(mask, W, [&](const WaveSlice& w) {
    const int broken = detail::MultiGroups(masks, w, groups);
    if (broken >= 0) on_bad(w, broken);
    for (int l = 0; l < w.lanes_present; ++l) {
      T acc = Op::template Identity<T>();
      if (broken >= 0 && poison) {
        acc = Poison<T>();
      } else {
        groups[l].ForEach([&](int m) {
          if (m < l) acc = Op::Apply(acc, x.lane(w.first_thread + m));
        });
      }
      r.set_lane(w.first_thread + l, acc);
    }
  });
  return r;
}

/// For each lane, how many lanes of its group (see MultiPrefix) below it have x true.
template <int N, class OnBad>
Uint<N> MultiPrefixCountBits(const Bool<N>& x, const Uint4<N>& masks, const Mask<N>& mask, int W,
                             bool poison, OnBad&& on_bad) {
  Uint<N> r;
  WaveLanes groups[kMaxWaveSize];
  ForEachWave(mask, W, [&](const WaveSlice& w) {
    const int broken = detail::MultiGroups(masks, w, groups);
    if (broken >= 0) on_bad(w, broken);
    const WaveLanes set = LanesOfWave(x.mask(), w.index, W);
    for (int l = 0; l < w.lanes_present; ++l) {
      WaveLanes counted;
      counted.word[0] = groups[l].word[0] & set.word[0];
      counted.word[1] = groups[l].word[1] & set.word[1];
      r.set_lane(w.first_thread + l,
                 broken >= 0 && poison ? Poison<uint32_t>() : uint32_t(counted.CountBelow(l)));
    }
  });
  return r;
}

}  // namespace core

namespace detail {

/// The HLSL-named multi-prefix wrapper shared by Sum, Product and the bit ops.
template <class Op, class V, int N>
typename WaveArg<V>::Value WaveMultiPrefix(const V& value, const Uint4<N>& mask) {
  static_assert(WaveArg<V>::kN == N,
                "WaveMultiPrefix*: the value and the mask must belong to the same group (same N)");
  const GroupState<N>& s = CurrentGroup<N>();
  const bool poison = s.profile().poison_undefined;
  return MapWaveArg(value, [&](const auto& c, int i) {
    // Every component sees the same masks: report the bad partition once.
    auto on_bad = [&](const WaveSlice& w, int lane) {
      if (poison && i == 0) ReportBadPartition(s, Op::kName, w, mask, lane);
    };
    return core::MultiPrefix<Op>(c, mask, s.wave_active(), s.wave_size(), poison, on_bad);
  });
}

/// The group size a multi-prefix call runs on: its per-thread value's or mask's N, else the <N>
/// written at the call (0 when none: Mask<0>'s static_assert then says to write it).
template <int N, class V, class M>
constexpr int MultiPrefixGroupSize() {
  constexpr int from_args = [] {
    if constexpr (kIsAnyArg<V>)
      return WaveArg<V>::kN;
    else if constexpr (kIsAnyArg<M>)
      return WaveArg<M>::kN;
    else
      return 0;
  }();
  static_assert(N == 0 || from_args == 0 || N == from_args,
                "WaveMultiPrefix*<N>: N differs from the per-thread arguments' group size; leave "
                "<N> out when an argument is per-thread");
  return from_args != 0 ? from_args : N;
}

/// A multi-prefix argument as every thread's value: a per-thread one as it is; a uniform scalar
/// (1u, true) or a uniform vector (a uint4 mask) the same on all N threads. Anything else comes
/// back unchanged, for the caller's static_assert to name.
template <int N, class A>
auto PerThreadMultiPrefixArg(const A& a) {
  if constexpr (kIsAnyArg<A>) {
    return a;
  } else if constexpr (std::is_same_v<A, bool>) {
    return Bool<N>(a);
  } else if constexpr (kIsUniformWaveArg<A>) {
    return UniformArgLanes<A, N>(a);
  } else if constexpr (kVectorComponents<A> != 0) {
    return Vector<typename VectorElementTraits<A>::component_type, kVectorComponents<A>, N>(a);
  } else {
    return a;
  }
}

/// Calls f(value, mask) with both per-thread, so that each intrinsic below has one body for
/// HLSL's mix of uniform and per-thread arguments (WaveMultiPrefixSum(1u, mask) counts threads).
template <int N, class V, class M, class F>
auto WithPerThreadMultiPrefixArgs(const V& value, const M& mask, F&& f) {
  constexpr int G = MultiPrefixGroupSize<N, V, M>();
  if constexpr (kIsAnyArg<V> && kIsAnyArg<M>) {
    static_assert(std::is_same_v<M, Uint4<G>>,
                  "WaveMultiPrefix*: the mask is a uint4 (Uint4<N> per thread, or a uniform "
                  "uint4), as WaveMatch returns");
    return f(value, mask);
  } else {
    using PV = decltype(PerThreadMultiPrefixArg<G>(value));
    using PM = decltype(PerThreadMultiPrefixArg<G>(mask));
    if constexpr (!kIsAnyArg<PV> || !kIsAnyArg<PM>) {
      static_assert(kIsAnyArg<PV> && kIsAnyArg<PM>,
                    "WaveMultiPrefix*(value, mask): value is an HLSL scalar or vector (per-thread "
                    "or uniform), mask a uint4 (Uint4<N> per thread, or a uniform uint4)");
      return value;
    } else {
      return WithPerThreadMultiPrefixArgs<G>(PerThreadMultiPrefixArg<G>(value),
                                             PerThreadMultiPrefixArg<G>(mask), f);
    }
  }
}

/// WaveMultiPrefixSum, Product, BitAnd, BitOr and BitXor: Op's scan over any mix of uniform and
/// per-thread arguments.
template <class Op, int N, class V, class M>
auto MultiPrefixIntrinsic(const V& value, const M& mask) {
  return WithPerThreadMultiPrefixArgs<N>(value, mask, [](const auto& v, const auto& m) {
    using PV = std::remove_cvref_t<decltype(v)>;
    constexpr bool kTakes = Op::kIntegersOnly ? kIsAnyIntArg<PV> : kIsNumericArg<PV>;
    if constexpr (!kTakes) {
      static_assert(kTakes || Op::kIntegersOnly,
                    "WaveMultiPrefixSum and WaveMultiPrefixProduct take a numeric scalar or "
                    "vector (Lanes<T, N>, Vector<T, C, N> or a uniform value) of int16_t, "
                    "uint16_t, int, uint, int64_t, uint64_t, half, float or double; for bools use "
                    "WaveMultiPrefixCountBits");
      static_assert(kTakes || !Op::kIntegersOnly,
                    "WaveMultiPrefixBitAnd, BitOr and BitXor take an integer scalar or vector "
                    "(Lanes<T, N>, Vector<T, C, N> or a uniform value) of int16_t, uint16_t, int, "
                    "uint, int64_t or uint64_t");
      return v;
    } else {
      return WaveMultiPrefix<Op>(v, m);
    }
  });
}

}  // namespace detail

// ------------------------------ WaveMatch

/// uint4 mask of the active lanes whose value equals this lane's (vectors: all components).
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
auto WaveMatch(const V& value) {
  if constexpr (!detail::kIsNumericArg<V>) {
    static_assert(detail::kIsNumericArg<V>,
                  "WaveMatch takes a per-thread numeric scalar or vector: Lanes<T, N> or "
                  "Vector<T, C, N> of int16_t, uint16_t, int, uint, int64_t, uint64_t, half, "
                  "float or double (HLSL has no bool overload: match (uint)b instead)");
    return value;
  } else {
    constexpr int N = detail::WaveArg<V>::kN;
    const GroupState<N>& s = CurrentGroup<N>();
    const FloatEquality eq = s.profile().float_equality;
    // Vectors: one match per component, ANDed (what DXC emits before SM 6.9).
    Uint4<N> r = core::Match(detail::WaveArgComponent(value, 0), s.wave_active(), s.wave_size(), eq);
    for (int i = 1; i < detail::WaveArg<V>::kComponents; ++i) {
      const Uint4<N> m =
          core::Match(detail::WaveArgComponent(value, i), s.wave_active(), s.wave_size(), eq);
      for (int k = 0; k < 4; ++k)
        for (int t = 0; t < N; ++t) r[k].set_lane(t, r[k].lane(t) & m[k].lane(t));
    }
    return r;
  }
}

// ------------------------------ WaveMultiPrefixSum

/// Sum of value over the lanes of this lane's mask group below it; the first lane gets 0.
template <int N = 0, class V, class M>
  requires(!detail::kAnyReference<V, M>)  // references: WAVEEMU_TAKES_REFERENCES below
auto WaveMultiPrefixSum(const V& value, const M& mask) {
  return detail::MultiPrefixIntrinsic<detail::MultiSum, N>(value, mask);
}

// ------------------------------ WaveMultiPrefixProduct

/// Product of value over the lanes of this lane's mask group below it; the first lane gets 1.
template <int N = 0, class V, class M>
  requires(!detail::kAnyReference<V, M>)  // references: WAVEEMU_TAKES_REFERENCES below
auto WaveMultiPrefixProduct(const V& value, const M& mask) {
  return detail::MultiPrefixIntrinsic<detail::MultiProduct, N>(value, mask);
}

// ------------------------------ WaveMultiPrefixCountBits

/// Number of lanes of this lane's mask group below it where value is true.
template <int N>
Uint<N> WaveMultiPrefixCountBits(const Bool<N>& value, const Uint4<N>& mask) {
  const GroupState<N>& s = CurrentGroup<N>();
  const bool poison = s.profile().poison_undefined;
  return core::MultiPrefixCountBits(value, mask, s.wave_active(), s.wave_size(), poison,
                                    [&](const WaveSlice& w, int lane) {
                                      if (poison)
                                        detail::ReportBadPartition(s, "WaveMultiPrefixCountBits",
                                                                   w, mask, lane);
                                    });
}
/// A numeric value converts to bool (value != 0), as in HLSL; a uniform value or mask applies to
/// every thread: WaveMultiPrefixCountBits(true, mask).
template <int N = 0, class V, class M>
  requires(!detail::kAnyReference<V, M>)  // references: WAVEEMU_TAKES_REFERENCES below
auto WaveMultiPrefixCountBits(const V& value, const M& mask) {
  return detail::WithPerThreadMultiPrefixArgs<N>(value, mask, [](const auto& v, const auto& m) {
    using PV = std::remove_cvref_t<decltype(v)>;
    if constexpr (!detail::kIsScalarArg<PV>) {
      static_assert(detail::kIsScalarArg<PV>,
                    "WaveMultiPrefixCountBits takes a per-thread bool (Bool<N>) or a scalar that "
                    "converts to one (value != 0), or a uniform bool");
      return v;
    } else {
      return WaveMultiPrefixCountBits(Bool<detail::WaveArg<PV>::kN>(v), m);
    }
  });
}

// ------------------------------ WaveMultiPrefixBitAnd

/// AND of value over the lanes of this lane's mask group below it; the first lane gets all ones.
template <int N = 0, class V, class M>
  requires(!detail::kAnyReference<V, M>)  // references: WAVEEMU_TAKES_REFERENCES below
auto WaveMultiPrefixBitAnd(const V& value, const M& mask) {
  return detail::MultiPrefixIntrinsic<detail::MultiBitAnd, N>(value, mask);
}

// ------------------------------ WaveMultiPrefixBitOr

/// OR of value over the lanes of this lane's mask group below it; the first lane gets 0.
template <int N = 0, class V, class M>
  requires(!detail::kAnyReference<V, M>)  // references: WAVEEMU_TAKES_REFERENCES below
auto WaveMultiPrefixBitOr(const V& value, const M& mask) {
  return detail::MultiPrefixIntrinsic<detail::MultiBitOr, N>(value, mask);
}

// ------------------------------ WaveMultiPrefixBitXor

/// XOR of value over the lanes of this lane's mask group below it; the first lane gets 0.
template <int N = 0, class V, class M>
  requires(!detail::kAnyReference<V, M>)  // references: WAVEEMU_TAKES_REFERENCES below
auto WaveMultiPrefixBitXor(const V& value, const M& mask) {
  return detail::MultiPrefixIntrinsic<detail::MultiBitXor, N>(value, mask);
}

// Buffer and groupshared elements as arguments (see WAVEEMU_TAKES_REFERENCES).
WAVEEMU_TAKES_REFERENCES(WaveMatch)
WAVEEMU_TAKES_REFERENCES(WaveMultiPrefixBitAnd)
WAVEEMU_TAKES_REFERENCES(WaveMultiPrefixBitOr)
WAVEEMU_TAKES_REFERENCES(WaveMultiPrefixBitXor)
WAVEEMU_TAKES_REFERENCES(WaveMultiPrefixCountBits)
WAVEEMU_TAKES_REFERENCES(WaveMultiPrefixProduct)
WAVEEMU_TAKES_REFERENCES(WaveMultiPrefixSum)

}  // namespace waveemu
