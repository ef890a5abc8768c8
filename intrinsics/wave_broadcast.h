// wave_broadcast.h -- wave broadcast intrinsics (SM 6.0): WaveReadLaneFirst, WaveReadLaneAt.
//
// Also home of what every family of cross-lane reads shares: the classification of wave-op
// arguments (scalar or vector, which component type) and the reporting of undefined reads, which
// quad.h and wave_multi.h reuse. Contracts in full: docs/quick_reference.md.
#pragma once

#include "emulator/emulator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <type_traits>
#include <utility>

namespace waveemu {

namespace detail {

// ------------------------------ wave-op argument kinds

/// What a per-thread argument is: component type T, C components (1 for a scalar), N threads.
template <class T, int C, int N>
struct WaveArgInfo {
  using Scalar = T;
  using Component = LanesOf<T, N>;
  using Value = std::conditional_t<C == 1, Component, Vector<T, C, N>>;
  static constexpr int kComponents = C;
  static constexpr int kN = N;
};
struct NotAWaveArg {};

// Overloads instead of specialisations, so types derived from Lanes or Vector (SV_GroupIndex,
// SV_GroupThreadID) classify as their base.
template <class T, int N>
WaveArgInfo<T, 1, N> ClassifyWaveArg(const Lanes<T, N>*);
template <int N>
WaveArgInfo<bool, 1, N> ClassifyWaveArg(const Bool<N>*);
template <class T, int C, int N>
WaveArgInfo<T, C, N> ClassifyWaveArg(const Vector<T, C, N>*);
NotAWaveArg ClassifyWaveArg(const void*);

template <class V>
using WaveArg = decltype(ClassifyWaveArg(static_cast<const std::remove_cvref_t<V>*>(nullptr)));

template <class V, class A = WaveArg<V>>
inline constexpr bool kIsAnyArg = !std::is_same_v<A, NotAWaveArg>;
template <class V, class A = WaveArg<V>>
inline constexpr bool kIsNumericArg = [] {
  if constexpr (std::is_same_v<A, NotAWaveArg>) return false;
  else return !std::is_same_v<typename A::Scalar, bool>;
}();
template <class V, class A = WaveArg<V>>
inline constexpr bool kIsAnyIntArg = [] {
  if constexpr (std::is_same_v<A, NotAWaveArg>) return false;
  else return std::is_integral_v<typename A::Scalar> && !std::is_same_v<typename A::Scalar, bool>;
}();
/// A single per-thread component: Lanes<T, N> or Bool<N>.
template <class V, class A = WaveArg<V>>
inline constexpr bool kIsScalarArg = [] {
  if constexpr (std::is_same_v<A, NotAWaveArg>) return false;
  else return A::kComponents == 1;
}();

/// Component i of v (v itself for a scalar).
template <class V>
const typename WaveArg<V>::Component& WaveArgComponent(const V& v, int i) {
  if constexpr (WaveArg<V>::kComponents == 1) return v;
  else return v[i];
}

/// f(component, index) for each component of v, gathered into a value of v's shape. Builds the
/// result by construction, never by (masked) assignment.
template <class V, class F>
typename WaveArg<V>::Value MapWaveArg(const V& v, F&& f) {
  using A = WaveArg<V>;
  if constexpr (A::kComponents == 1) {
    return f(static_cast<const typename A::Component&>(v), 0);
  } else {
    return BuildVector<typename A::Scalar, A::kComponents, A::kN>(
        [&](int i) { return f(v[i], i); });
  }
}

/// HLSL scalar `0` of a component type, for reads that the profile answers with zero.
template <class T>
T ZeroOf() {
  if constexpr (std::is_same_v<T, bool>) return false;
  else if constexpr (std::is_same_v<T, half>) return half::FromBits(0);
  else return T(0);
}

// ------------------------------ cross-lane reads

/// r[t] = x[source[t]] where the read is defined (`defined`), otherwise what `policy` says:
/// kLaneValue reads source[t] anyway (a lane that does not exist, source -1, reads 0), kZero
/// gives 0, kPoison gives Poison<T>(). Threads of `readers` with an undefined read go to
/// `undefined`.
template <class C, int N = WaveArg<C>::kN>
C GatherLanes(const C& x, const std::array<int, size_t(N)>& source, const Mask<N>& defined,
              InactiveRead policy, const Mask<N>& readers, Mask<N>* undefined) {
  using T = typename WaveArg<C>::Scalar;
  C r = x;
  for (int t = 0; t < N; ++t) {
    const int src = source[t];
    if (defined.Test(t)) {
      r.set_lane(t, x.lane(src));
      continue;
    }
    if (undefined && readers.Test(t)) undefined->Set(t, true);
    switch (policy) {
      case InactiveRead::kLaneValue: r.set_lane(t, src >= 0 ? x.lane(src) : ZeroOf<T>()); break;
      case InactiveRead::kZero: r.set_lane(t, ZeroOf<T>()); break;
      case InactiveRead::kPoison: r.set_lane(t, Poison<T>()); break;
    }
  }
  return r;
}

/// Why a read was undefined, for the diagnostic.
enum class ReadFault { kInactive, kHelper, kOutOfRange };

/// Records one diagnostic per kind of fault among the threads of `bad`, naming up to eight of
/// the reads. `fault_of(t)` returns {ReadFault, requested lane} for thread t.
template <int N, class FaultOf>
void ReportUndefinedReads(const GroupState<N>& s, const char* op, const Mask<N>& bad,
                          FaultOf&& fault_of) {
  static constexpr const char* kWhat[] = {
      "source lane is inactive (undefined in HLSL)",
      "source lane is a helper lane (undefined in HLSL)",
      "source lane is out of range (undefined in HLSL)"};
  std::string details[3];
  int count[3] = {0, 0, 0};
  const int W = s.wave_size();
  bad.ForEach([&](int t) {
    const auto [fault, lane] = fault_of(t);
    const int k = int(fault);
    if (count[k]++ < 8)
      details[k] += fmt::format("{}thread {} (wave {} lane {}) read lane {}",
                                details[k].empty() ? "" : "; ", t, t / W, t % W, lane);
  });
  for (int k = 0; k < 3; ++k) {
    if (count[k] == 0) continue;
    if (count[k] > 8) details[k] += fmt::format("; and {} more", count[k] - 8);
    s.Report(fmt::format("{}: {}", op, kWhat[k]),
             fmt::format("{}, wave size {}: {}", s.Where(), W, details[k]));
  }
}

/// The thread WaveReadLaneAt(x, want) of thread t reads: lane want % W of t's wave (it may lie
/// past the group's last thread; the vector form in core::ReadLaneAt computes the same).
/// W is a power of two: the wave starts at t & ~(W - 1), and want % W = want & (W - 1).
inline int SourceThread(int t, uint32_t want, int W) {
  return (t & ~(W - 1)) | int(want & uint32_t(W - 1));
}

}  // namespace detail

namespace core {

/// The value of the lowest lane in `mask` of each wave, on every lane of that wave (waves with
/// no lane in `mask` keep x).
template <class C, int N = detail::WaveArg<C>::kN>
  requires detail::kIsScalarArg<C>
HWY_INLINE C ReadLaneFirst(const C& x, const Mask<N>& mask, int W) {
  if constexpr (requires { x.data(); }) {
    using T = typename C::value_type;
    if constexpr (kIsSimdType<T> && sizeof(T) == 4) {
      const hn::ScalableTag<T> d;
      constexpr int L = int(hn::MaxLanes(d));
      if (L == 8 && W == L) {
        // One wave per vector, on a target without a vector popcount (AVX2): the wave's first
        // lane from a scalar count of trailing zeros, broadcast (a wave with no lane in `mask`
        // keeps x).
        C r{NoInit{}};
        for (int i = 0; i < C::kPadded; i += L) {
          const uint64_t bits = mask.Bits64(i, L);
          const auto first =
              bits ? hn::Set(d, x.lane(i + std::countr_zero(bits))) : hn::Load(d, x.data() + i);
          hn::Store(first, d, r.data() + i);
        }
        return r;
      }
      if (W <= L) {
        // Waves lie inside vectors: each lane takes its wave's first lane in `mask` with one
        // in-vector permutation, no per-wave loop. Lane i of a vector is in the wave starting
        // at i & ~(W - 1); its wave's bits of `mask` (WaveBlocksAt) have their lowest set bit
        // at (b & -b), whose index is popcount((b & -b) - 1). A wave without a lane in `mask`
        // keeps x (index i itself).
        const hn::RebindToUnsigned<decltype(d)> du;
        const hn::RebindToSigned<decltype(d)> di;
        const auto lane = hn::Iota(du, 0u);
        const auto wave_start = hn::And(lane, hn::Set(du, ~uint32_t(W - 1)));
        const auto one = hn::Set(du, 1u);
        C r{NoInit{}};
        for (int i = 0; i < C::kPadded; i += L) {
          const auto b = WaveBlocksAt(du, mask, W, i);
          const auto lowest = hn::And(b, hn::Sub(hn::Zero(du), b));
          const auto first = PopulationCount32(hn::Sub(lowest, one));
          const auto source =
              hn::IfThenElse(hn::Eq(b, hn::Zero(du)), lane, hn::Add(wave_start, first));
          hn::Store(hn::TableLookupLanes(hn::Load(d, x.data() + i),
                                         hn::IndicesFromVec(d, hn::BitCast(di, source))),
                    d, r.data() + i);
        }
        return r;
      }
    }
  }
  C r = x;
  // One bit per wave with an active lane: its first one (SWAR, no per-wave search).
  FirstOfWaves(mask, W).ForEach([&](int t) {
    const int first_thread = t & ~(W - 1);
    const int present = std::min(W, N - first_thread);
    const auto v = x.lane(t);
    if constexpr (requires { r.data(); }) {
      FillWave(r.data() + first_thread, present, v);  // vector stores
    } else {
      for (int l = 0; l < present; ++l) r.set_lane(first_thread + l, v);
    }
  });
  return r;
}

/// x of lane lane[t] of thread t's wave. A read is defined when that lane is in `mask` (lane <
/// W); other reads follow `policy` (kLaneValue: lane lane[t] % W, 0 where the partial last wave
/// lacks it). Threads of `mask` whose read is undefined are added to `undefined`.
template <class C, int N = detail::WaveArg<C>::kN>
  requires detail::kIsScalarArg<C>
C ReadLaneAt(const C& x, const Uint<N>& lane, const Mask<N>& mask, int W, InactiveRead policy,
             Mask<N>* undefined = nullptr) {
  std::array<int, size_t(N)> source;
  Mask<N> defined;
  const hn::ScalableTag<int32_t> di;
  constexpr int L = int(hn::MaxLanes(di));
  // Targets with fewer than 8 int lanes (SSE/NEON-128) take the scalar loop below.
  if constexpr (L % 8 == 0) {
    // A vector of threads at a time: source lanes, and whether each read is defined (in range,
    // inside the group, and the source in `mask`, looked up in `mask` spread to one int per
    // thread).
    constexpr int kPadded = Uint<N>::kPadded;
    const hn::RebindToUnsigned<decltype(di)> du;
    alignas(kVectorBytes) int32_t in_mask[kPadded];
    alignas(kVectorBytes) int32_t src_of[kPadded];
    for (int i = 0; i < kPadded; i += L)
      hn::Store(hn::IfThenElseZero(MaskOfBits(di, mask.Bits64(i, 64)), hn::Set(di, 1)),
                di, in_mask + i);
    for (int i = 0; i < kPadded; i += L) {
      const auto want = hn::Load(du, lane.data() + i);
      // detail::SourceThread, a vector of threads at a time.
      const auto src = hn::Or(hn::And(IotaFrom(di, i), hn::Set(di, ~(W - 1))),
                              hn::BitCast(di, hn::And(want, hn::Set(du, uint32_t(W - 1)))));
      const auto in_group = hn::Lt(src, hn::Set(di, N));
      const auto safe = hn::IfThenElseZero(in_group, src);
      const auto on = hn::Ne(hn::GatherIndex(di, in_mask, safe), hn::Zero(di));
      const auto ok = hn::And(hn::And(hn::RebindMask(di, hn::Lt(want, hn::Set(du, uint32_t(W)))),
                                      in_group),
                              on);
      defined.word(i >> 6) |= BitsOfMask(di, ok) << (i & 63);
      hn::Store(hn::IfThenElse(in_group, src, hn::Set(di, -1)), di, src_of + i);
    }
    defined.Normalize();
    using T = typename detail::WaveArg<C>::Scalar;
    if constexpr (requires { x.data(); } && kIsSimdType<T> && sizeof(T) == 4) {
      if (defined.IsAll()) {  // the common case: vector gathers, no per-thread policy
        C r = x;
        const hn::ScalableTag<T> d;
        // Padding threads past N have source -1: Max(src, 0) keeps their gather inside the
        // array (their result lanes are padding, never read).
        for (int i = 0; i < kPadded; i += L)
          hn::Store(hn::GatherIndex(d, x.data(), hn::Max(hn::Load(di, src_of + i), hn::Zero(di))),
                    d, r.data() + i);
        return r;
      }
    }
    std::copy_n(src_of, N, source.begin());
  } else {
    for (int t = 0; t < N; ++t) {
      const uint32_t want = lane.lane(t);
      const int src = detail::SourceThread(t, want, W);
      source[t] = src < N ? src : -1;
      defined.Set(t, want < uint32_t(W) && src < N && mask.Test(src));
    }
  }
  return detail::GatherLanes(x, source, defined, policy, mask, undefined);
}

}  // namespace core

// ------------------------------ WaveReadLaneFirst

/// expr of the first active lane of the wave (bool, numeric, scalar or vector).
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
auto WaveReadLaneFirst(const V& expr) {
  if constexpr (!detail::kIsAnyArg<V>) {
    static_assert(detail::kIsAnyArg<V>,
                  "WaveReadLaneFirst takes a per-thread value: Bool<N>, Lanes<T, N> or "
                  "Vector<T, C, N> of bool, int16_t, uint16_t, int, uint, int64_t, uint64_t, "
                  "half, float or double (a uniform value is already its own broadcast)");
    return expr;
  } else {
    const GroupState<detail::WaveArg<V>::kN>& s = CurrentGroup<detail::WaveArg<V>::kN>();
    return detail::MapWaveArg(expr, [&](const auto& c, int) {
      return core::ReadLaneFirst(c, s.wave_active(), s.wave_size());
    });
  }
}

// ------------------------------ WaveReadLaneAt

/// expr of lane laneIndex (per-thread or uniform) of this thread's wave. Reading an inactive,
/// helper or out-of-range lane follows the profile's InactiveRead (kPoison: poison + diagnostic).
template <class V, class I, int N>
  requires(std::is_integral_v<I> && !detail::HasLoad<V>)
auto WaveReadLaneAt(const V& expr, const Lanes<I, N>& laneIndex) {
  if constexpr (!detail::kIsAnyArg<V>) {
    static_assert(detail::kIsAnyArg<V>,
                  "WaveReadLaneAt takes a per-thread value: Bool<N>, Lanes<T, N> or "
                  "Vector<T, C, N> of bool, int16_t, uint16_t, int, uint, int64_t, uint64_t, "
                  "half, float or double (a uniform value is the same in every lane)");
    return expr;
  } else {
    static_assert(detail::WaveArg<V>::kN == N,
                  "WaveReadLaneAt: the value and the lane index must belong to the same group "
                  "(same N)");
    const GroupState<N>& s = CurrentGroup<N>();
    const int W = s.wave_size();
    const InactiveRead policy = s.profile().inactive_read;
    const Uint<N> lane(laneIndex);
    Mask<N> undefined;
    auto r = detail::MapWaveArg(expr, [&](const auto& c, int i) {
      return core::ReadLaneAt(c, lane, s.wave_active(), W, policy, i == 0 ? &undefined : nullptr);
    });
    if (policy == InactiveRead::kPoison && undefined.Any()) {
      detail::ReportUndefinedReads(s, "WaveReadLaneAt", undefined, [&](int t) {
        const uint32_t want = lane.lane(t);
        if (want >= uint32_t(W)) return std::pair{detail::ReadFault::kOutOfRange, want};
        const int src = detail::SourceThread(t, want, W);  // want < W here
        return std::pair{src < N && s.helper().Test(src) ? detail::ReadFault::kHelper
                                                         : detail::ReadFault::kInactive,
                         want};
      });
    }
    return r;
  }
}

/// WaveReadLaneAt with a uniform lane index (the broadcast form).
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
auto WaveReadLaneAt(const V& expr, uint32_t laneIndex) {
  if constexpr (!detail::kIsAnyArg<V>) {
    static_assert(detail::kIsAnyArg<V>,
                  "WaveReadLaneAt takes a per-thread value: Bool<N>, Lanes<T, N> or "
                  "Vector<T, C, N> of bool, int16_t, uint16_t, int, uint, int64_t, uint64_t, "
                  "half, float or double (a uniform value is the same in every lane)");
    return expr;
  } else {
    return WaveReadLaneAt(expr, Uint<detail::WaveArg<V>::kN>(laneIndex));
  }
}

// Buffer and groupshared elements as arguments (see WAVEEMU_TAKES_REFERENCES).
WAVEEMU_TAKES_REFERENCES(WaveReadLaneAt)
WAVEEMU_TAKES_REFERENCES(WaveReadLaneFirst)

}  // namespace waveemu
