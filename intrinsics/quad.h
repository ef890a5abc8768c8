// quad.h -- quad intrinsics: QuadReadAcrossX/Y/Diagonal, QuadReadLaneAt (SM 6.0), QuadAny,
// QuadAll (SM 6.7).
//
// Quads are the group's (QuadThread in exec.h): threads 4q..4q+3 (pixel quads and SM 6.6 1-D
// compute quads; every wave size is a multiple of 4, so the cores take no W), or 2x2 blocks of
// SV_GroupThreadID in the 2-D compute layout (`row_width` = numthreads.x). Quad ops see helper
// lanes: their mask is the execution mask, not the wave-op mask.
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
                 bool poison_bad_id, Mask<N>* undefined = nullptr, Mask<N>* bad_id = nullptr,
                 int row_width = 0) {
  std::array<int, size_t(N)> source;
  Mask<N> defined;
  for (int t = 0; t < N; ++t) {
    const int src = QuadThread(t, int(quad_lane.lane(t) & 3u), row_width);
    source[t] = src < N ? src : -1;
    defined.Set(t, src < N && mask.Test(src));
  }
  C r = detail::GatherLanes(x, source, defined, policy, mask, undefined);
  for (int t = 0; t < N; ++t) {
    if (quad_lane.lane(t) <= 3u) continue;
    if (bad_id && mask.Test(t)) bad_id->Set(t, true);
    if (poison_bad_id) r.set_lane(t, Poison<typename detail::WaveArg<C>::Scalar>());
  }
  return r;
}

/// x of quad index (own index ^ partner) (1: across X, 2: across Y, 3: diagonal); reads of lanes outside
/// `mask` follow `policy` and add the reading thread of `mask` to `undefined`.
template <class C, int N = detail::WaveArg<C>::kN>
  requires detail::kIsScalarArg<C>
C QuadSwap(const C& x, int partner, const Mask<N>& mask, InactiveRead policy,
           Mask<N>* undefined = nullptr, int row_width = 0) {
  std::array<int, size_t(N)> source;
  Mask<N> defined;
  for (int t = 0; t < N; ++t) {
    const int src = QuadThread(t, QuadIndex(t, row_width) ^ partner, row_width);
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
                 Mask<N>* nonuniform = nullptr, int row_width = 0) {
  Bool<N> r;
  for (int q = 0; q < N; ++q) {
    if (QuadIndex(q, row_width) != 0) continue;  // q leads its quad
    int members[4], present = 0, in_mask = 0;
    for (int i = 0; i < 4; ++i)
      if (const int t = QuadThread(q, i, row_width); t < N) members[present++] = t;
    bool acc = !any;
    for (int k = 0; k < present; ++k) {
      if (!mask.Test(members[k])) continue;
      ++in_mask;
      acc = any ? (acc || x.lane(members[k])) : (acc && x.lane(members[k]));
    }
    if (in_mask == 0) continue;
    if (in_mask < present) {
      if (nonuniform)
        for (int k = 0; k < present; ++k)
          if (mask.Test(members[k])) nonuniform->Set(members[k], true);
      if (poison) acc = Poison<bool>();
    }
    for (int k = 0; k < present; ++k) r.set_lane(members[k], acc);
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
  const GroupState<WaveArg<V>::kN>& g = CurrentGroup<WaveArg<V>::kN>();
  const int W = g.wave_size(), rw = g.quad_row_width();
  return QuadRead(
      op, value,
      [&](const auto& s, const auto& c, auto* undefined) {
        return core::QuadSwap(c, partner, s.active(), s.profile().inactive_read, undefined, rw);
      },
      [&](int t) { return QuadThread(t, QuadIndex(t, rw) ^ partner, rw) % W; });
}

}  // namespace detail

// ------------------------------ QuadReadAcrossX

/// localValue of the horizontal neighbour in the quad (lane ^ 1); helper lanes are read too.
template <class V>
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
  requires std::is_integral_v<I>
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
                                      undefined, undefined ? &bad_id : nullptr,
                                      st.quad_row_width());
        },
        [&](int t) {
          return QuadThread(t, int(id.lane(t) & 3u), s.quad_row_width()) % s.wave_size();
        });
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
  const int rw = s.quad_row_width();
  Bool<N> r = core::QuadVote(expr, s.active(), any, poison, &nonuniform, rw);
  if (poison && nonuniform.Any()) {
    std::string quads;
    int count = 0;
    for (int q = 0; q < N; ++q) {
      if (QuadIndex(q, rw) != 0) continue;
      std::string members;
      bool partial = false;
      for (int i = 0; i < 4; ++i) {
        const int t = QuadThread(q, i, rw);
        if (t >= N) break;
        partial |= nonuniform.Test(t);
        members += fmt::format("{}{}{}", members.empty() ? "" : ",", t,
                               s.active().Test(t) ? "" : " (inactive)");
      }
      if (partial && count++ < 8)
        quads += fmt::format("{}threads {}", quads.empty() ? "" : "; ", members);
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

}  // namespace waveemu
