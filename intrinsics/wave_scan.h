// wave_scan.h -- wave prefix operations (SM 6.0): WavePrefixCountBits, WavePrefixSum,
// WavePrefixProduct. All are exclusive: the first active lane gets the identity (0, 1).
//
// Float scans follow the profile's ScanOrder, DenormMode and NanResult (DESIGN §3); the per-wave
// scan kernels are in core:: so the multi-prefix ops can run them on one partition at a time.
#pragma once

#include "emulator/emulator.h"
#include "intrinsics/wave_reduce.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>

namespace waveemu {

namespace core {

/// Exclusive integer scan of Op over the lanes of `lanes`, modulo 2^bits: out[l] is the
/// combination of x over the set lanes below l (the identity if none), for every l < present,
/// set or not. A fully active wave takes a branch-free contiguous loop.
template <class Op, class T>
void ScanWaveInt(const T* x, const WaveLanes& lanes, int present, T* out) {
  using U = WrapType<T>;
  constexpr U kId = Op::template Identity<U>();
  U acc = kId;
  if (AllPresentOn(lanes, present)) {
    for (int l = 0; l < present; ++l) {
      out[l] = T(acc);
      acc = Op::Apply(acc, U(x[l]));
    }
  } else {
    for (int l = 0; l < present; ++l) {
      out[l] = T(acc);
      acc = Op::Apply(acc, LaneOn(lanes, l) ? U(x[l]) : kId);
    }
  }
}

/// Exclusive float scan of Op over the lanes of `lanes`, in the profile's order:
///  - kSequential: out[l] = ((x[a0] op x[a1]) op ...) over the set lanes a_k < l, in ascending
///    order; the identity when there is none;
///  - kHillisSteele: inclusive Hillis-Steele scan over all W lanes with the identity in lanes not
///    set (offsets 1, 2, 4, ..., v[l] = v[l - d] op v[l] for l >= d), then shifted up one lane:
///    out[l] = v[l - 1], out[0] = the identity;
///  - kCompactedHillisSteele (NVIDIA): see intrinsics/nvidia_float_order.h.
/// Inputs and every intermediate result are flushed under kFlushToZero (float only); NaN outputs
/// are encoded per NanResult. Writes out[l] for every l < present, set or not.
template <class Op, class T>
void ScanWaveFloatCompacted(const T* x, const WaveLanes& lanes, int present, int W,
                            const WaveFloatPolicy& p, T* out);  // intrinsics/nvidia_float_order.h

template <class Op, class T>
void ScanWaveFloat(const T* x, const WaveLanes& lanes, int present, int W,
                   const WaveFloatPolicy& p, T* out) {
  if (p.scan_order == ScanOrder::kCompactedHillisSteele) {
    ScanWaveFloatCompacted<Op>(x, lanes, present, W, p, out);
    return;
  }
  const DenormMode dm = p.denormals;
  const T id = Op::template Identity<T>();
  if (p.scan_order == ScanOrder::kSequential) {
    T acc = id;
    bool any = false;
    for (int l = 0; l < present; ++l) {
      out[l] = any ? EncodeNan(acc, p.nan_result) : id;
      if (!LaneOn(lanes, l)) continue;
      const T v = FlushDenormal(x[l], dm);
      acc = any ? CombineFloat<Op>(acc, v, dm) : v;
      any = true;
    }
    return;
  }
  T v[kMaxWaveSize];
  for (int l = 0; l < W; ++l)
    v[l] = l < present && LaneOn(lanes, l) ? FlushDenormal(x[l], dm) : id;
  // Descending, so v[l - d] still holds the previous step's value.
  for (int d = 1; d < W; d *= 2)
    for (int l = W - 1; l >= d; --l) v[l] = CombineFloat<Op>(v[l - d], v[l], dm);
  for (int l = 0; l < present; ++l) out[l] = l == 0 ? id : EncodeNan(v[l - 1], p.nan_result);
}

/// Exclusive scan of Op for any numeric T: integers wrap, floats follow the policy.
template <class Op, class T>
void ScanWave(const T* x, const WaveLanes& lanes, int present, int W, const WaveFloatPolicy& p,
              T* out) {
  if constexpr (kIsFloatLike<T>) ScanWaveFloat<Op>(x, lanes, present, W, p, out);
  else ScanWaveInt<Op>(x, lanes, present, out);
}

/// Exclusive 32-bit integer sum within segments of kSeg lanes (kSeg = min(kW, vector length)),
/// one vector of threads at a time, for the whole group: inactive lanes are zeroed from the mask
/// bits, a log-step inclusive scan runs inside each segment (lane l adds lane l - k while
/// l % kSeg >= k), waves longer than a vector carry the last lane's running sum into the next
/// vector, and subtracting each lane's own (masked) input makes it exclusive. Every lane gets
/// the sum over the active lanes below it in its wave, as ScanWaveInt writes; padding lanes
/// beyond N get values that are never observed.
template <int kW, class T, int N>
void ScanSum32Segments(const Lanes<T, N>& x, const Mask<N>& mask, Lanes<T, N>& r) {
  static_assert(sizeof(T) == 4 && std::is_integral_v<T>, "32-bit integer lanes only");
  const hn::ScalableTag<uint32_t> d;
  constexpr int L = int(hn::MaxLanes(d));
  constexpr int kSeg = std::min(kW, L);
  static_assert(64 % L == 0, "a vector of threads must lie in one mask word");
  // uint32_t may alias int32_t (same type up to signedness); unsigned adds wrap without UB.
  const uint32_t* in = reinterpret_cast<const uint32_t*>(x.data());
  uint32_t* out = reinterpret_cast<uint32_t*>(r.data());
  static_assert(kSeg >= kMinWaveSize, "segments are waves or whole vectors");
  const SegmentedSum32<kSeg> segments;
  constexpr bool kLongWave = kW > L;
  const bool all = mask.IsAll();  // every thread active: nothing to zero (padding comes last)
  auto carry = hn::Zero(d);
  for (int t0 = 0; t0 < Lanes<T, N>::kPadded; t0 += L) {
    auto v = hn::Load(d, in + t0);
    if (!all) v = hn::IfThenElseZero(MaskOfBits(d, mask.Bits64(t0, 64)), v);
    auto s = segments.Inclusive(v);
    if constexpr (kLongWave) {
      if ((t0 & (kW - 1)) == 0) carry = hn::Zero(d);
      s = hn::Add(s, carry);
      carry = segments.LastLane(s);
    }
    hn::Store(hn::Sub(s, v), d, out + t0);
  }
}

/// Exclusive scan of Op within each wave over the lanes in `mask`.
template <class Op, class T, int N>
Lanes<T, N> ExclusiveScan(const Lanes<T, N>& x, const Mask<N>& mask, int W,
                          const WaveFloatPolicy& p) {
  if constexpr (std::is_same_v<Op, SumOp> && std::is_integral_v<T> && sizeof(T) == 4) {
    constexpr int L = int(hn::MaxLanes(hn::ScalableTag<uint32_t>()));
    // Segments (min(W, L) lanes) of 4 to 16 lanes; vectors wider than 16 lanes take the per-wave
    // loop below for longer waves.
    if constexpr (L >= 4) {
      Lanes<T, N> r{NoInit{}};
      const bool scanned = WithWaveSize(W, [&]<int kW>() {
        if constexpr (std::min(kW, L) <= 16) {
          ScanSum32Segments<kW>(x, mask, r);
          return true;
        } else {
          return false;
        }
      });
      if (scanned) return r;
    }
  }
  Lanes<T, N> r;
  ForEachWave(mask, W, [&](const WaveSlice& w) {
    if (!w.lanes.Any()) return;
    ScanWave<Op>(x.data() + w.first_thread, w.lanes, w.lanes_present, W, p,
                 r.data() + w.first_thread);
  });
  return r;
}

/// PrefixCountBits for waves of W lanes, inlined where W is a constant.
template <int N>
HWY_INLINE Uint<N> PrefixCountBitsOfWaves(const Mask<N>& bits, int W) {
  Uint<N> r{NoInit{}};
  // Vector popcounts, one vector of threads at a time. A vector's threads lie in one 32-bit half
  // of a mask word; thread t counts the set bits of that half below bit t % 32 and, when its
  // wave is narrower than 32, at or above its wave's first bit; waves of 64 or 128 add the
  // lower half and (upper 64 lanes of a wave of 128) the wave's lower word, as scalars.
  const hn::ScalableTag<uint32_t> d;
  constexpr int L = int(hn::MaxLanes(d));
  static_assert(32 % L == 0, "a vector of threads must lie in one 32-bit half of a mask word");
  if constexpr (L == 8) {
    // No vector popcount (AVX2): the vector's own bits from a byte table, plus the wave's bits
    // below the vector as a scalar popcount (waves of 4 lie within the byte).
    for (int t0 = 0; t0 < Uint<N>::kPadded; t0 += L) {
      const uint32_t byte = uint32_t(bits.Bits64(t0, 8));
      if (W == 4) {
        hn::Store(detail::ByteCountsAt(d, detail::kBitsBelowInNibble, byte), d, r.data() + t0);
        continue;
      }
      // The wave's threads below t0: [from, t0), at most 120 of them (a wave of 128).
      int from = t0 & ~(W - 1);
      uint32_t base = 0;
      if (t0 - from >= 64) {
        base = uint32_t(std::popcount(bits.word(from >> 6)));
        from += 64;
      }
      base += uint32_t(std::popcount(bits.Bits64(from, t0 - from)));
      hn::Store(hn::Add(detail::ByteCountsAt(d, detail::kBitsBelowInByte, byte), hn::Set(d, base)),
                d, r.data() + t0);
    }
    return r;
  }
  const auto one = hn::Set(d, 1u);
  const auto wave_start = hn::Set(d, uint32_t(~(W - 1) & 31));
  for (int t0 = 0; t0 < Uint<N>::kPadded; t0 += L) {
    const uint64_t word = bits.word(t0 >> 6);
    const uint32_t half = uint32_t(word >> (t0 & 32));
    const auto bit = IotaFrom(d, uint32_t(t0 & 31));
    const auto below = hn::Sub(hn::Shl(one, bit), one);
    const auto before_wave = hn::Sub(hn::Shl(one, hn::And(bit, wave_start)), one);
    uint32_t base = 0;
    if (W >= 64 && (t0 & 32)) base += uint32_t(std::popcount(uint32_t(word)));
    if (W == 128 && (t0 & 64)) base += uint32_t(std::popcount(bits.word((t0 >> 6) - 1)));
    const auto counted = hn::AndNot(before_wave, hn::And(hn::Set(d, half), below));
    hn::Store(hn::Add(PopulationCount32(counted), hn::Set(d, base)), d, r.data() + t0);
  }
  return r;
}

/// For each lane, how many lanes below it in its wave have x true and are in `mask`.
template <int N>
HWY_INLINE Uint<N> PrefixCountBits(const Bool<N>& x, const Mask<N>& mask, int W) {
  const Mask<N> bits = x.mask() & mask;
  return WithWaveSize(W, [&]<int kW>() { return PrefixCountBitsOfWaves(bits, kW); });
}

/// Exclusive sum within each wave over the lanes in `mask`.
template <class T, int N>
Lanes<T, N> PrefixSum(const Lanes<T, N>& x, const Mask<N>& mask, int W, const WaveFloatPolicy& p) {
  return ExclusiveScan<SumOp>(x, mask, W, p);
}

/// Exclusive product within each wave over the lanes in `mask`.
template <class T, int N>
Lanes<T, N> PrefixProduct(const Lanes<T, N>& x, const Mask<N>& mask, int W,
                          const WaveFloatPolicy& p) {
  return ExclusiveScan<ProductOp>(x, mask, W, p);
}

}  // namespace core

// ------------------------------ WavePrefixCountBits

/// Number of active lanes below this one in its wave where bBit is true. Uniform argument:
/// WavePrefixCountBits<N>(true) is the lane's rank among the active lanes.
template <int N>
HWY_INLINE Uint<N> WavePrefixCountBits(const Bool<N>& bBit) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::PrefixCountBits(bBit, s.wave_active(), s.wave_size());
}
template <int N = 0>
Uint<N> WavePrefixCountBits(bool bBit) {
  return WavePrefixCountBits(Bool<N>(bBit));
}
/// HLSL converts a numeric argument to bool: bBit != 0.
template <int N, class T>  // N first: WavePrefixCountBits<N>(x) works too
Uint<N> WavePrefixCountBits(const Lanes<T, N>& bBit) {
  return WavePrefixCountBits(Bool<N>(bBit));
}

// ------------------------------ WavePrefixSum

/// Sum of value over the active lanes below this one in its wave; 0 on the first active lane.
/// Integers wrap; floats in the profile's ScanOrder. Uniform argument: WavePrefixSum<N>(1u).
template <class T, int N>
Lanes<T, N> WavePrefixSum(const Lanes<T, N>& value) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::PrefixSum(value, s.wave_active(), s.wave_size(),
                         core::WaveFloatPolicy::Of(s.profile()));
}
template <class T, int C, int N>
Vector<T, C, N> WavePrefixSum(const Vector<T, C, N>& value) {
  return core::PerComponent<T>(value, [](const auto& c) { return WavePrefixSum(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WavePrefixSum(S value) {
  return WavePrefixSum(UniformArgLanes<S, N>(value));
}
template <int N>
Bool<N> WavePrefixSum(const Bool<N>&) {
  static_assert(N < 0, "WavePrefixSum takes numeric values, not bool (HLSL's numeric<> type class): "
                       "count with WaveActiveCountBits / WavePrefixCountBits, or convert with "
                       "Uint<N>(b)");
  return {};
}

// ------------------------------ WavePrefixProduct

/// Product of value over the active lanes below this one in its wave; 1 on the first active
/// lane. Integers wrap; floats in the profile's ScanOrder.
template <class T, int N>
Lanes<T, N> WavePrefixProduct(const Lanes<T, N>& value) {
  const GroupState<N>& s = CurrentGroup<N>();
  return core::PrefixProduct(value, s.wave_active(), s.wave_size(),
                             core::WaveFloatPolicy::Of(s.profile()));
}
template <class T, int C, int N>
Vector<T, C, N> WavePrefixProduct(const Vector<T, C, N>& value) {
  return core::PerComponent<T>(value, [](const auto& c) { return WavePrefixProduct(c); });
}
template <int N = 0, class S>
  requires detail::kIsUniformWaveArg<S>
UniformArgLanes<S, N> WavePrefixProduct(S value) {
  return WavePrefixProduct(UniformArgLanes<S, N>(value));
}
template <int N>
Bool<N> WavePrefixProduct(const Bool<N>&) {
  static_assert(N < 0, "WavePrefixProduct takes numeric values, not bool (HLSL's numeric<> type class): "
                       "count with WaveActiveCountBits / WavePrefixCountBits, or convert with "
                       "Uint<N>(b)");
  return {};
}

// Buffer and groupshared elements as arguments (see WAVEEMU_TAKES_REFERENCES).
WAVEEMU_TAKES_REFERENCES(WavePrefixCountBits)
WAVEEMU_TAKES_REFERENCES(WavePrefixProduct)
WAVEEMU_TAKES_REFERENCES(WavePrefixSum)

}  // namespace waveemu
