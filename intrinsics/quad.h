// quad.h -- quad intrinsics: QuadReadAcrossX/Y/Diagonal, QuadReadLaneAt (SM 6.0), QuadAny,
// QuadAll (SM 6.7).
//
// Quad k of a wave is lanes 4k..4k+3 (pixel quads and both SM 6.6 compute layouts: Dispatch
// numbers a 2-D layout's threads in quad order). Since every wave size is a multiple of 4, that
// is threads 4q..4q+3 of the group whatever the wave size, so the cores take no W. Quad ops see
// helper lanes: their mask is the execution mask, not the wave-op mask.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/wave_broadcast.h"
#include "intrinsics/wave_query.h"

#include <array>
#include <utility>

namespace waveemu {

namespace core {

/// x of quad lane quad_lane[t] & 3 of thread t's quad. A read of a lane outside `mask` follows
/// `policy`; with `poison_bad_id`, a quad_lane outside 0..3 gives Poison<T>() instead. Threads of
/// `mask` that read an inactive lane go to `undefined`, those with a bad ID to `bad_id`.
template <class C, int N = detail::WaveArg<C>::kN>
  requires detail::kIsScalarArg<C>
C QuadReadLaneAt(const C& x, const Uint<N>& quad_lane, const Mask<N>& mask, InactiveRead policy,
                 bool poison_bad_id, Mask<N>* undefined = nullptr, Mask<N>* bad_id = nullptr) {
  std::array<int, size_t(N)> source;
  Mask<N> defined;
  for (int t = 0; t < N; ++t) {
    const int src = (t & ~3) | int(quad_lane.lane(t) & 3u);
    source[t] = src < N ? src : -1;
    defined.Set(t, src < N && mask.Test(src));
  }
  C r = detail::GatherLanes(x, source, defined, policy, mask, undefined);
  for (int t = 0; t < N; ++t) {
    if (quad_lane.lane(t) <= 3u) continue;
    // A bad ID is the thread's fault, whatever lane its low bits name: one report, as bad_id.
    if (undefined) undefined->Set(t, false);
    if (bad_id && mask.Test(t)) bad_id->Set(t, true);
    if (poison_bad_id) r.set_lane(t, Poison<typename detail::WaveArg<C>::Scalar>());
  }
  return r;
}

/// x of thread t ^ partner (1: across X, 2: across Y, 3: diagonal); reads of lanes outside
/// `mask` follow `policy` and add the reading thread of `mask` to `undefined`.
template <class C, int N = detail::WaveArg<C>::kN>
  requires detail::kIsScalarArg<C>
C QuadSwap(const C& x, int partner, const Mask<N>& mask, InactiveRead policy,
           Mask<N>* undefined = nullptr) {
  std::array<int, size_t(N)> source;
  Mask<N> defined;
  for (int t = 0; t < N; ++t) {
    const int src = t ^ partner;
    source[t] = src < N ? src : -1;
    defined.Set(t, src < N && mask.Test(src));
  }
  return detail::GatherLanes(x, source, defined, policy, mask, undefined);
}

/// OR (any = true) or AND (any = false) of x over the lanes of `mask` in each quad, on every lane
/// of the quad. A quad with some but not all of its threads in `mask` is non-uniform: its threads
/// of `mask` go to `nonuniform`, and with `poison` it gets Poison<bool>(). Threads a partial last
/// quad of the group lacks do not count.
template <int N>
Bool<N> QuadVote(const Bool<N>& x, const Mask<N>& mask, bool any, bool poison,
                 Mask<N>* nonuniform = nullptr) {
  Bool<N> r;
  for (int q = 0; q < N; q += 4) {
    const int present = std::min(4, N - q);
    int in_mask = 0;
    bool acc = !any;
    for (int t = q; t < q + present; ++t) {
      if (!mask.Test(t)) continue;
      ++in_mask;
      acc = any ? (acc || x.lane(t)) : (acc && x.lane(t));
    }
    if (in_mask == 0) continue;
    if (in_mask < present) {
      if (nonuniform)
        for (int t = q; t < q + present; ++t)
          if (mask.Test(t)) nonuniform->Set(t, true);
      if (poison) acc = Poison<bool>();
    }
    for (int t = q; t < q + present; ++t) r.set_lane(t, acc);
  }
  return r;
}

}  // namespace core

namespace detail {

/// The wrapper of every quad read: runs `read(component, undefined)` per component and reports
/// reads of inactive lanes under a kPoison profile. `source_lane(t)` is the wave lane t reads.
template <class V, class Read, class SourceLane>
auto QuadRead(const char* op, const V& value, Read&& read, SourceLane&& source_lane) {
  constexpr int N = WaveArg<V>::kN;
  const GroupState<N>& s = CurrentGroup<N>();
  Mask<N> undefined;
  auto r = MapWaveArg(value, [&](const auto& c, int i) {
    return read(s, c, i == 0 ? &undefined : nullptr);
  });
  if (s.profile().inactive_read == InactiveRead::kPoison && undefined.Any())
    ReportUndefinedReads(s, op, undefined,
                         [&](int t) { return std::pair{ReadFault::kInactive, source_lane(t)}; });
  return r;
}

template <class V>
auto QuadSwapWrapper(const char* op, const V& value, int partner) {
  const int W = CurrentGroupBase(op).wave_size();
  return QuadRead(
      op, value,
      [&](const auto& s, const auto& c, auto* undefined) {
        return core::QuadSwap(c, partner, s.active(), s.profile().inactive_read, undefined);
      },
      [&](int t) { return (t % W) ^ partner; });
}

}  // namespace detail

// ------------------------------ QuadReadAcrossX

/// localValue of the horizontal neighbour in the quad (lane ^ 1); helper lanes are read too.
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
auto QuadReadAcrossX(const V& localValue) {
  if constexpr (!detail::kIsNumericArg<V>) {
    static_assert(detail::kIsNumericArg<V>, "QuadReadAcrossX takes a per-thread numeric scalar "
                                            "or vector of int16_t, uint16_t, int, uint, int64_t, "
                                            "uint64_t, half, float or double");
    return localValue;
  } else {
    return detail::QuadSwapWrapper("QuadReadAcrossX", localValue, 1);
  }
}

// ------------------------------ QuadReadAcrossY

/// localValue of the vertical neighbour in the quad (lane ^ 2); helper lanes are read too.
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
auto QuadReadAcrossY(const V& localValue) {
  if constexpr (!detail::kIsNumericArg<V>) {
    static_assert(detail::kIsNumericArg<V>, "QuadReadAcrossY takes a per-thread numeric scalar "
                                            "or vector of int16_t, uint16_t, int, uint, int64_t, "
                                            "uint64_t, half, float or double");
    return localValue;
  } else {
    return detail::QuadSwapWrapper("QuadReadAcrossY", localValue, 2);
  }
}

// ------------------------------ QuadReadAcrossDiagonal

/// localValue of the diagonal neighbour in the quad (lane ^ 3); helper lanes are read too.
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
auto QuadReadAcrossDiagonal(const V& localValue) {
  if constexpr (!detail::kIsNumericArg<V>) {
    static_assert(detail::kIsNumericArg<V>, "QuadReadAcrossDiagonal takes a per-thread numeric "
                                            "scalar or vector of int16_t, uint16_t, int, uint, "
                                            "int64_t, uint64_t, half, float or double");
    return localValue;
  } else {
    return detail::QuadSwapWrapper("QuadReadAcrossDiagonal", localValue, 3);
  }
}

// ------------------------------ QuadReadLaneAt

/// sourceValue of quad lane quadLaneID (0..3, per-thread or uniform) of this thread's quad.
template <class V, class I, int N>
  requires(std::is_integral_v<I> && !detail::HasLoad<V>)
auto QuadReadLaneAt(const V& sourceValue, const Lanes<I, N>& quadLaneID) {
  if constexpr (!detail::kIsNumericArg<V>) {
    static_assert(detail::kIsNumericArg<V>, "QuadReadLaneAt takes a per-thread numeric scalar "
                                            "or vector of int16_t, uint16_t, int, uint, int64_t, "
                                            "uint64_t, half, float or double");
    return sourceValue;
  } else {
    static_assert(detail::WaveArg<V>::kN == N,
                  "QuadReadLaneAt: the value and the quad lane ID must belong to the same group "
                  "(same N)");
    const Uint<N> id(quadLaneID);
    const GroupState<N>& s = CurrentGroup<N>();
    const bool poison = s.profile().poison_undefined;
    Mask<N> bad_id;
    auto r = detail::QuadRead(
        "QuadReadLaneAt", sourceValue,
        [&](const auto& st, const auto& c, auto* undefined) {
          return core::QuadReadLaneAt(c, id, st.active(), st.profile().inactive_read, poison,
                                      undefined, undefined ? &bad_id : nullptr);
        },
        [&](int t) { return ((t % s.wave_size()) & ~3) | int(id.lane(t) & 3u); });
    if (poison && bad_id.Any()) {
      std::string details;
      int count = 0;
      bad_id.ForEach([&](int t) {
        if (count++ < 8)
          details += fmt::format("{}thread {} asked for quad lane {}",
                                 details.empty() ? "" : "; ", t, id.lane(t));
      });
      if (count > 8) details += fmt::format("; and {} more", count - 8);
      s.Report("QuadReadLaneAt: quadLaneID is outside 0..3 (undefined in HLSL)",
               fmt::format("{}: {}", s.Where(), details));
    }
    return r;
  }
}
/// QuadReadLaneAt with a uniform quad lane ID (the usual form).
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
auto QuadReadLaneAt(const V& sourceValue, uint32_t quadLaneID) {
  if constexpr (!detail::kIsNumericArg<V>) {
    static_assert(detail::kIsNumericArg<V>, "QuadReadLaneAt takes a per-thread numeric scalar "
                                            "or vector of int16_t, uint16_t, int, uint, int64_t, "
                                            "uint64_t, half, float or double");
    return sourceValue;
  } else {
    return QuadReadLaneAt(sourceValue, Uint<detail::WaveArg<V>::kN>(quadLaneID));
  }
}

// ------------------------------ QuadAny

namespace detail {
template <int N>
Bool<N> QuadVoteWrapper(const char* op, const Bool<N>& expr, bool any) {
  const GroupState<N>& s = CurrentGroup<N>();
  const bool poison = s.profile().poison_undefined;
  Mask<N> nonuniform;
  Bool<N> r = core::QuadVote(expr, s.active(), any, poison, &nonuniform);
  if (poison && nonuniform.Any()) {
    std::string quads;
    int count = 0;
    for (int q = 0; q < N; q += 4) {
      const int present = std::min(4, N - q);
      if (nonuniform.Bits64(q, present) == 0) continue;
      const uint32_t bits = uint32_t(s.active().Bits64(q, present));
      if (count++ < 8)
        quads += fmt::format("{}threads {}..{} active {:#06b}", quads.empty() ? "" : "; ", q,
                             q + present - 1, bits);
    }
    if (count > 8) quads += fmt::format("; and {} more quads", count - 8);
    s.Report(fmt::format("{}: called with part of a quad active (non-quad-uniform control "
                         "flow; undefined in HLSL)",
                         op),
             fmt::format("{}: {}", s.Where(), quads));
  }
  return r;
}
}  // namespace detail

/// True on every lane of the quad if expr is true on any of its lanes (helpers included).
template <int N>
Bool<N> QuadAny(const Bool<N>& expr) {
  return detail::QuadVoteWrapper("QuadAny", expr, true);
}
/// Uniform argument: write QuadAny<N>(expr).
template <int N = 0>
Bool<N> QuadAny(bool expr) {
  static_assert(kNeedsGroupSize<N>,
                "write QuadAny<N>(expr) for a uniform bool, N = threads per group: C++ cannot "
                "deduce it from a plain bool");
  return QuadAny(Bool<N>(expr));
}
/// HLSL converts a numeric argument to bool: expr != 0.
template <int N, class T>  // N first: QuadAny<N>(x) works too
Bool<N> QuadAny(const Lanes<T, N>& expr) {
  return QuadAny(Bool<N>(expr));
}

// ------------------------------ QuadAll

/// True on every lane of the quad if expr is true on all of its lanes (helpers included).
template <int N>
Bool<N> QuadAll(const Bool<N>& expr) {
  return detail::QuadVoteWrapper("QuadAll", expr, false);
}
/// Uniform argument: write QuadAll<N>(expr).
template <int N = 0>
Bool<N> QuadAll(bool expr) {
  static_assert(kNeedsGroupSize<N>,
                "write QuadAll<N>(expr) for a uniform bool, N = threads per group: C++ cannot "
                "deduce it from a plain bool");
  return QuadAll(Bool<N>(expr));
}
/// HLSL converts a numeric argument to bool: expr != 0.
template <int N, class T>  // N first: QuadAll<N>(x) works too
Bool<N> QuadAll(const Lanes<T, N>& expr) {
  return QuadAll(Bool<N>(expr));
}

// Buffer and groupshared elements as arguments (see WAVEEMU_TAKES_REFERENCES).
WAVEEMU_TAKES_REFERENCES(QuadReadAcrossX)
WAVEEMU_TAKES_REFERENCES(QuadReadAcrossY)
WAVEEMU_TAKES_REFERENCES(QuadReadAcrossDiagonal)
WAVEEMU_TAKES_REFERENCES(QuadReadLaneAt)
WAVEEMU_TAKES_REFERENCES(QuadAny)
WAVEEMU_TAKES_REFERENCES(QuadAll)

}  // namespace waveemu
