// reduce_scan_reference.h -- the scalar oracle for wave reductions and scans, written from the
// spec text with plain loops over std::array (never from intrinsics/), plus the sweep harness
// that runs an intrinsic under every profile x wave size x mask pattern and compares lane by lane.
//
// Float order models: sequential lane order (spec, lavapipe), a full xor butterfly over the wave
// and a double-buffered Hillis-Steele scan (nvidia), each written here independently of core::.
#pragma once

#include "intrinsics/intrinsics.h"
#include "tests/support/check_lanes.h"
#include "tests/support/half_reference.h"
#include "tests/support/mask_patterns.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace waveemu::test::ref {

// ------------------------------------------------------------------------------------------------
// Types and values

/// std::array of one value per thread. size_t(N) keeps N out of deduction (std::array's size is a
/// size_t, Mask's an int); functions deduce N from their Mask<N> argument.
template <class T, int N>
using Arr = std::array<T, size_t(N)>;

template <class T>
inline constexpr bool kFloat = std::is_same_v<T, half> || std::is_floating_point_v<T>;

template <class T>
std::string TypeName() {
  if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int";
  else if constexpr (std::is_same_v<T, uint32_t>) return "uint";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
  else if constexpr (std::is_same_v<T, half>) return "half";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else return "double";
}

template <class T>
T FromBits(uint64_t bits) {
  if constexpr (std::is_same_v<T, half>) return half::FromBits(uint16_t(bits));
  else if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(uint32_t(bits));
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(bits);
  else return static_cast<T>(bits);
}

/// What inactive threads must still hold after a masked assignment.
template <class T>
T Sentinel() {
  return FromBits<T>(0x5a5a5a5a5a5a5a5aull);
}

template <class T>
bool IsNan(T v) {
  if constexpr (kFloat<T>) return std::isnan(double(v));
  else return false;
}

template <class T>
bool SignBit(T v) {
  return std::signbit(double(v));
}

/// The NaN of NanResult::kCanonical / AllNanMinMax::kCanonical: sign clear, every other bit set.
template <class T>
T CanonicalNan() {
  if constexpr (std::is_same_v<T, half>) return FromBits<T>(0x7fff);
  else if constexpr (std::is_same_v<T, float>) return FromBits<T>(0x7fffffff);
  else return FromBits<T>(0x7fffffffffffffffull);
}

/// DenormMode::kFlushToZero: a float denormal becomes a zero of the same sign (float only).
template <class T>
T Ftz(T v, bool flush) {
  if constexpr (std::is_same_v<T, float>) {
    if (flush && v != 0.0f && std::fabs(v) < std::numeric_limits<float>::min())
      return v < 0 ? -0.0f : 0.0f;
  }
  return v;
}

template <class T>
bool FlushesFloat(const DeviceProfile& prof) {
  return std::is_same_v<T, float> && prof.wave_denormals == DenormMode::kFlushToZero;
}

template <class T>
T EncodeNan(T v, const DeviceProfile& prof) {
  if (kFloat<T> && prof.nan_result == NanResult::kCanonical && IsNan(v)) return CanonicalNan<T>();
  return v;
}

// ------------------------------------------------------------------------------------------------
// Operations: + and * (integers wrap modulo 2^bits, computed in uint64_t), & | ^.

enum class Op { kSum, kProduct, kBitAnd, kBitOr, kBitXor };

template <class T>
T Identity(Op op) {
  switch (op) {
    case Op::kProduct: return T(1);
    case Op::kBitAnd: return FromBits<T>(~uint64_t{0});
    default: return T(0);
  }
}

template <class T>
T Apply(Op op, T a, T b) {
  if constexpr (kFloat<T>) {
    if constexpr (std::is_same_v<T, half>) {
      // Exact in double, then rounded once to half (written out in half_reference.h); NaN keeps
      // the payload rule of half's own arithmetic, which other tests pin down.
      const double x = float(a), y = float(b), r = op == Op::kSum ? x + y : x * y;
      if (!std::isnan(r)) return RoundToHalf(r);
    }
    return op == Op::kSum ? T(a + b) : T(a * b);
  } else {
    const uint64_t x = uint64_t(a), y = uint64_t(b);
    switch (op) {
      case Op::kSum: return T(x + y);
      case Op::kProduct: return T(x * y);
      case Op::kBitAnd: return T(x & y);
      case Op::kBitOr: return T(x | y);
      case Op::kBitXor: return T(x ^ y);
    }
    return T(0);
  }
}

// ------------------------------------------------------------------------------------------------
// Waves

/// Threads of wave `wave` that are in `mask`, ascending.
template <int N>
std::vector<int> ActiveThreads(const Mask<N>& mask, int wave, int W) {
  std::vector<int> r;
  for (int t = wave * W; t < std::min(N, (wave + 1) * W); ++t)
    if (mask.Test(t)) r.push_back(t);
  return r;
}

template <int N>
int WaveCount(int W) {
  return (N + W - 1) / W;
}

/// NVIDIA's order (docs/nvidia_float_order.md): the active lanes renumbered 0..k-1, then an
/// inclusive Hillis-Steele scan over just those k values (step d: element i >= d takes
/// element[i-d] op element[i], all from the previous step). Returns the k scanned values.
template <class T, int N>
std::vector<T> CompactedInclusive(Op op, const Arr<T, N>& x, const Mask<N>& mask, int wave,
                                  int W, bool ftz) {
  std::vector<T> v;
  for (int t : ActiveThreads(mask, wave, W)) v.push_back(Ftz(x[t], ftz));
  for (size_t d = 1; d < v.size(); d *= 2) {
    std::vector<T> next = v;
    for (size_t i = d; i < v.size(); ++i) next[i] = Ftz(Apply(op, v[i - d], v[i]), ftz);
    v = next;
  }
  return v;
}

/// "The sum/product/... of the values of all active lanes in the wave" (spec), in the profile's
/// order: sequential lane order, or (floats under kButterfly) every lane combining with lane^d for
/// d = 1, 2, ..., W/2, inactive lanes holding the identity.
template <class T, int N>
T ReduceWave(Op op, const Arr<T, N>& x, const Mask<N>& mask, int wave, int W,
             const DeviceProfile& prof) {
  const bool ftz = FlushesFloat<T>(prof);
  T r{};
  if (!kFloat<T> || prof.reduction_order == ReductionOrder::kSequential) {
    bool first = true;
    for (int t : ActiveThreads(mask, wave, W)) {
      const T v = Ftz(x[t], ftz);
      r = first ? v : Ftz(Apply(op, r, v), ftz);
      first = false;
    }
  } else if (prof.reduction_order == ReductionOrder::kCompactedHillisSteele) {
    const std::vector<T> v = CompactedInclusive(op, x, mask, wave, W, ftz);
    r = v.back();
  } else {
    std::vector<T> v(W);
    for (int l = 0; l < W; ++l) {
      const int t = wave * W + l;
      v[l] = t < N && mask.Test(t) ? Ftz(x[t], ftz) : Identity<T>(op);
    }
    for (int d = 1; d < W; d *= 2) {
      std::vector<T> next(W);
      for (int l = 0; l < W; ++l) next[l] = Ftz(Apply(op, v[l], v[l ^ d]), ftz);
      v = next;
    }
    for (int l = 1; l < W; ++l)  // the model itself: every lane ends with the same value
      if (!IsNan(v[0])) REQUIRE(BitsOf(v[l]) == BitsOf(v[0]));
    r = v[0];
  }
  return EncodeNan(r, prof);
}

/// Exclusive scan: each active lane gets op over the active lanes below it, the first one the
/// identity. Floats under kHillisSteele: inclusive scan over the whole wave (inactive lanes hold
/// the identity; step d: lane l >= d takes lane[l-d] op lane[l]), then lane l reads lane l-1.
template <class T, int N>
void ScanWave(Op op, const Arr<T, N>& x, const Mask<N>& mask, int wave, int W,
              const DeviceProfile& prof, Arr<T, N>& out) {
  const bool ftz = FlushesFloat<T>(prof);
  if (!kFloat<T> || prof.scan_order == ScanOrder::kSequential) {
    const std::vector<int> active = ActiveThreads(mask, wave, W);
    for (size_t i = 0; i < active.size(); ++i) {
      T acc = Identity<T>(op);
      for (size_t j = 0; j < i; ++j) {
        const T v = Ftz(x[active[j]], ftz);
        acc = j == 0 ? v : Ftz(Apply(op, acc, v), ftz);
      }
      out[active[i]] = i == 0 ? acc : EncodeNan(acc, prof);
    }
    return;
  }
  if (prof.scan_order == ScanOrder::kCompactedHillisSteele) {
    const std::vector<int> active = ActiveThreads(mask, wave, W);
    if (active.empty()) return;
    const std::vector<T> v = CompactedInclusive(op, x, mask, wave, W, ftz);
    for (size_t i = 0; i < active.size(); ++i)
      out[active[i]] = i == 0 ? Identity<T>(op) : EncodeNan(v[i - 1], prof);
    return;
  }
  std::vector<T> v(W);
  for (int l = 0; l < W; ++l) {
    const int t = wave * W + l;
    v[l] = t < N && mask.Test(t) ? Ftz(x[t], ftz) : Identity<T>(op);
  }
  for (int d = 1; d < W; d *= 2) {
    std::vector<T> next = v;
    for (int l = d; l < W; ++l) next[l] = Ftz(Apply(op, v[l - d], v[l]), ftz);
    v = next;
  }
  for (int t : ActiveThreads(mask, wave, W)) {
    const int l = t - wave * W;
    out[t] = l == 0 ? Identity<T>(op) : EncodeNan(v[l - 1], prof);
  }
}

/// Min or max over the active lanes: integers by their type's order; floats skip NaN lanes,
/// compare flushed values under kFlushToZero, take -0 for min and +0 for max on a zero tie; all
/// NaN gives the profile's AllNanMinMax value (and counts one diagnostic under kPoison).
template <class T, int N>
T MinMaxWave(bool is_max, const Arr<T, N>& x, const Mask<N>& mask, int wave, int W,
             const DeviceProfile& prof, int& diagnostics) {
  const bool ftz = FlushesFloat<T>(prof);
  bool have = false;
  T best{};
  for (int t : ActiveThreads(mask, wave, W)) {
    if (IsNan(x[t])) continue;
    const T v = Ftz(x[t], ftz);
    bool better;
    if (!have) better = true;
    else if (is_max) better = v > best || (v == best && !SignBit(v) && SignBit(best));
    else better = v < best || (v == best && SignBit(v) && !SignBit(best));
    if (better) best = v;
    have = true;
  }
  if (have) return best;
  if constexpr (kFloat<T>) {
    switch (prof.all_nan_min_max) {
      case AllNanMinMax::kIdentity: {
        const float inf = std::numeric_limits<float>::infinity();
        return is_max ? T(-inf) : T(inf);
      }
      case AllNanMinMax::kCanonical: return CanonicalNan<T>();
      case AllNanMinMax::kPoison: ++diagnostics; return Poison<T>();
    }
  }
  return best;
}

/// "All active lanes have the same value": bits under kBitwise, == (NaN never equal, +0 == -0)
/// under kOrdered, unordered-or-equal against the last active lane under kUnorderedWithLast.
template <class T, int N>
bool AllEqualWave(const Arr<T, N>& x, const Mask<N>& mask, int wave, int W,
                  const DeviceProfile& prof) {
  const std::vector<int> active = ActiveThreads(mask, wave, W);
  for (int t : active) {
    const T a = x[active[0]], b = x[t];
    if constexpr (kFloat<T>) {
      if (prof.float_equality == FloatEquality::kUnorderedWithLast) {
        // Each lane against the LAST active lane; a NaN on either side counts as equal.
        const T last = x[active.back()];
        const bool either_nan = std::isnan(double(b)) || std::isnan(double(last));
        if (!either_nan && !(b == last)) return false;
        continue;
      }
      if (prof.float_equality == FloatEquality::kBitwise ? BitsOf(a) != BitsOf(b) : !(a == b))
        return false;
    } else if (a != b) {
      return false;
    }
  }
  return true;
}

/// Gives every active thread of each wave f(wave)'s value.
template <class R, int N, class F>
Arr<R, N> PerWave(const Mask<N>& mask, int W, F&& f) {
  Arr<R, N> out{};
  for (int wave = 0; wave < WaveCount<N>(W); ++wave) {
    const std::vector<int> active = ActiveThreads(mask, wave, W);
    if (active.empty()) continue;
    const R v = f(wave);
    for (int t : active) out[t] = v;
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Inputs, all from fixed seeds.

/// Floats of mixed magnitudes and signs, so that the order of a sum changes its bits.
template <class T, int N>
std::array<T, N> Mixed(uint32_t seed) {
  std::mt19937 rng(seed);
  std::array<T, N> a{};
  const int range = std::is_same_v<T, half> ? 6 : std::is_same_v<T, float> ? 24 : 60;
  for (auto& v : a) {
    if constexpr (kFloat<T>) {
      const double m = 1.0 + double(rng() >> 8) / double(1u << 24);
      const int e = int(rng() % uint32_t(2 * range + 1)) - range;
      v = static_cast<T>(std::ldexp(rng() & 1 ? -m : m, e));
    } else {
      v = FromBits<T>((uint64_t(rng()) << 32) | rng());
    }
  }
  return a;
}

/// Factors for products: odd integers (so wrapped products stay non-zero), floats in
/// +-[0.5, 2) so a whole wave's product stays in range.
template <class T, int N>
std::array<T, N> Factors(uint32_t seed) {
  std::mt19937 rng(seed);
  std::array<T, N> a{};
  for (auto& v : a) {
    if constexpr (kFloat<T>) {
      const double m = 0.5 + 1.5 * double(rng() >> 8) / double(1u << 24);
      v = static_cast<T>(rng() & 1 ? -m : m);
    } else {
      v = FromBits<T>(((uint64_t(rng()) << 32) | rng()) | 1u);
    }
  }
  return a;
}

/// Float values near and below the smallest normal, so denormal flushing changes results.
template <class T, int N>
std::array<T, N> Tiny(uint32_t seed) {
  std::mt19937 rng(seed);
  std::array<T, N> a{};
  for (auto& v : a) {
    if constexpr (std::is_same_v<T, float>) {
      v = std::bit_cast<float>(uint32_t((rng() & 0x80000000u) | (rng() & 0x00ffffffu)));
    } else if constexpr (std::is_same_v<T, double>) {
      v = std::bit_cast<double>((uint64_t(rng() & 1u) << 63) | (uint64_t(rng()) << 32 | rng()) >>
                                                                    11);
    } else if constexpr (std::is_same_v<T, half>) {
      v = half::FromBits(uint16_t((rng() & 0x8000u) | (rng() & 0x07ffu)));
    }
  }
  return a;
}

/// Input sets for sums and products of type T: order-sensitive values, NaN, infinities, and
/// denormals for floats.
template <class T, int N>
std::vector<std::array<T, N>> ArithmeticInputs(bool product) {
  std::vector<std::array<T, N>> sets;
  for (uint32_t seed : {11u, 12u}) sets.push_back(product ? Factors<T, N>(seed) : Mixed<T, N>(seed));
  if constexpr (kFloat<T>) {
    sets.push_back(Tiny<T, N>(13));
    auto with_nan = sets[0];  // one NaN with a payload: propagated (quieted) or canonical
    with_nan[77 % N] = FromBits<T>(std::is_same_v<T, half> ? 0x7e5bull
                                   : std::is_same_v<T, float> ? 0x7fc0beefull
                                                              : 0x7ff80000beefbeefull);
    sets.push_back(with_nan);
    auto with_inf = sets[0];  // inf - inf produces a NaN inside the reduction
    const float inf = std::numeric_limits<float>::infinity();
    with_inf[5 % N] = T(inf);
    with_inf[6 % N] = product ? T(0.0f) : T(-inf);
    with_inf[200 % N] = T(inf);
    sets.push_back(with_inf);
  }
  return sets;
}

// ------------------------------------------------------------------------------------------------
// The sweep

inline const std::vector<DeviceProfile>& Profiles() {
  static const std::vector<DeviceProfile> profiles{SpecProfile(), LavapipeProfile(),
                                                   NvidiaProfile()};
  return profiles;
}

/// For every built-in profile, wave size and mask pattern: runs `out = call(x)` inside
/// if_(mask) in one group and compares with ref(inputs, mask, W, profile, diagnostics), which
/// fills the expected values of active threads and counts the diagnostics it expects.
template <class R, class T, int N, class Call, class Ref>
void Sweep(const std::string& what, const std::vector<Arr<T, N>>& input_sets, Call call, Ref ref) {
  const auto patterns = AllMaskPatterns<N>();
  for (const DeviceProfile& prof : Profiles())
    for (int W : kWaveSizes)
      for (const auto& p : patterns)
        for (size_t s = 0; s < input_sets.size(); ++s) {
          const Arr<T, N>& in = input_sets[s];
          const Lanes<T, N> x(in);
          Lanes<R, N> out(Sentinel<R>());
          DispatchShared shared;
          RunGroup<N>(
              W, [&] { if_(Bool<N>::FromMask(p.mask), [&] { out = call(x); }); }, prof, &shared);
          int diagnostics = 0;
          const Arr<R, N> expected = ref(in, p.mask, W, prof, diagnostics);
          const std::string context =
              fmt::format("{}<{}>, N = {}, wave size {}, mask '{}', profile {}, input set {}",
                          what, TypeName<T>(), N, W, p.name, prof.name, s);
          CheckLanes<R, N, T>(out, expected, p.mask, Sentinel<R>(), in, context);
          CHECK_MESSAGE(shared.diagnostics.count() == uint64_t(diagnostics), context);
        }
}

}  // namespace waveemu::test::ref
