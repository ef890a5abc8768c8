// simd.h -- the one place that includes Highway.
//
// waveemu compiles for the static target only: Highway 1.0.3's dynamic dispatch fails to build
// with -march=native on AVX-512-FP16 hosts, and a reference emulator gains nothing from
// run-time target selection. tests/emulator/test_simd_target.cpp asserts the target we get.
#pragma once

#ifndef HWY_COMPILE_ONLY_STATIC
#define HWY_COMPILE_ONLY_STATIC 1
#endif
#include <hwy/highway.h>

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

// Around a copy whose bounds the caller checked at run time. When inlining shows GCC 12 a small
// buffer and a constant index, -O3 warns (-Warray-bounds, -Wstringop-overflow/-overread) about
// the copy on the path that the check rules out; this keeps such false alarms out of users'
// -Wall builds.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11  // -Wstringop-overread: GCC 11
#define WAVEEMU_BOUNDS_CHECKED_COPY_BEGIN                       \
  _Pragma("GCC diagnostic push")                                \
  _Pragma("GCC diagnostic ignored \"-Warray-bounds\"")          \
  _Pragma("GCC diagnostic ignored \"-Wstringop-overflow\"")     \
  _Pragma("GCC diagnostic ignored \"-Wstringop-overread\"")
#define WAVEEMU_BOUNDS_CHECKED_COPY_END _Pragma("GCC diagnostic pop")
#else
#define WAVEEMU_BOUNDS_CHECKED_COPY_BEGIN
#define WAVEEMU_BOUNDS_CHECKED_COPY_END
#endif

namespace waveemu {
namespace hn = hwy::HWY_NAMESPACE;

namespace detail {
#if HWY_TARGET == HWY_AVX2
/// D is a whole 256-bit vector (not a capped or half tag, which are 128-bit types on AVX2).
template <class D>
inline constexpr bool kIsFull256 = std::is_same_v<D, hn::Full256<hn::TFromD<D>>>;
#endif
}  // namespace detail

/// Widest vector of the static target, in bytes; Lanes storage is padded to a multiple of it.
inline constexpr int kVectorBytes = 64;
static_assert(HWY_MAX_BYTES <= kVectorBytes, "Lanes padding assumes vectors of at most 64 bytes");

// Masks as bits in a register. Highway 1.0.3 moves masks to and from bits only through memory
// (StoreMaskBits/LoadMaskBits, a byte at a time); a Mask<N> word written that way and then read
// whole stalls store forwarding, on every comparison. On AVX-512 a vector mask already is a bit
// register, so these are register moves there; on AVX2 they take the register steps of
// Highway's own StoreMaskBits/LoadMaskBits without the memory between; elsewhere the memory
// route.

/// The lanes of m as bits, lane i in bit i (at most 64 lanes).
template <class D>
HWY_INLINE uint64_t BitsOfMask(D d, hn::Mask<D> m) {
  static_assert(hn::MaxLanes(D()) <= 64, "a mask of at most 64 lanes fits one word");
#if HWY_TARGET <= HWY_AVX3
  (void)d;
  return uint64_t(m.raw);
#else
#if HWY_TARGET == HWY_AVX2
  // A full 256-bit vector: VMOVMSKPS and friends, the step StoreMaskBits takes before its store.
  if constexpr (detail::kIsFull256<D>) return hn::detail::BitsFromMask(m);
#endif
  uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, m, bytes);
  uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = bits << 8 | bytes[i];
  return bits;
#endif
}

/// The mask whose lane i is bit i of bits (bits at or beyond the lane count are ignored).
template <class D>
HWY_INLINE hn::Mask<D> MaskOfBits(D d, uint64_t bits) {
  static_assert(hn::MaxLanes(D()) <= 64, "a mask of at most 64 lanes fits one word");
#if HWY_TARGET <= HWY_AVX3
  (void)d;
  using Raw = decltype(hn::Mask<D>().raw);
  return hn::Mask<D>{static_cast<Raw>(bits)};
#else
#if HWY_TARGET == HWY_AVX2
  // A full 256-bit vector: the broadcast and bit test LoadMaskBits makes after its load.
  if constexpr (detail::kIsFull256<D>) return hn::detail::LoadMaskBits256(d, bits);
#endif
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = uint8_t(bits >> (8 * i));
  return hn::LoadMaskBits(d, bytes);
#endif
}

/// Lanes first, first + 1, first + 2, ... of an integer vector (wrapping), as hn::Iota.
/// Highway 1.0.3's Iota writes its lanes to an array on the stack, in narrower stores, and loads
/// it as one vector, a load that store forwarding cannot serve: with a run-time `first` every
/// call waits for the stores to retire. The free-ID kernel's gather and store check their runs
/// of indices with it; this form took 13-17% off its one-thread time on an Intel Xeon
/// (docs/performance_history.md, session 33). Iota from 0 folds to a constant; the add is one
/// instruction.
template <class D>
HWY_INLINE hn::Vec<D> IotaFrom(D d, hn::TFromD<D> first) {
  static_assert(std::is_integral_v<hn::TFromD<D>>, "IotaFrom is for integer lanes");
  return hn::Add(hn::Iota(d, hn::TFromD<D>(0)), hn::Set(d, first));
}

namespace detail {
/// For each 8-bit mask m: the lane indices of m's set bits in ascending order, then those of its
/// clear bits, a byte each. Compressor32 widens one entry to its permutation (VPMOVZXBD).
constexpr std::array<std::array<uint8_t, 8>, 256> MakeCompress8Table() {
  std::array<std::array<uint8_t, 8>, 256> table{};
  for (uint32_t m = 0; m < 256; ++m) {
    int out = 0;
    for (uint32_t selected : {1u, 0u})
      for (uint32_t lane = 0; lane < 8; ++lane)
        if (((m >> lane) & 1u) == selected) table[m][out++] = uint8_t(lane);
  }
  return table;
}
// A std::array of bytes is only byte-aligned: at 64, every 8-byte entry sits within one cache
// line and the 2 KiB table fills 32 whole lines.
alignas(64) inline constexpr std::array<std::array<uint8_t, 8>, 256> kCompress8Table =
    MakeCompress8Table();
}  // namespace detail

/// hn::Compress of 32-bit lanes for the lanes set in `bits`, worked out once and applied to as
/// many vectors as share those lanes (a store's indices and its values): the lanes of the bits
/// first, in order; what follows them is the target's (the other lanes in order on AVX2, zeros
/// from VPCOMPRESSD on AVX-512). Highway 1.0.3's AVX2 Compress keeps its 1 KiB index table in a
/// function-local constexpr array that GCC 12 copies onto the stack (a call to memcpy) at every
/// call; on an AMD EPYC (Zen 3) that copy was 26% of the free-ID benchmark's samples
/// (docs/performance_history.md, session 41). For full 256-bit vectors on AVX2 this reads the
/// 8-byte entry of a table built once, straight from the bits, and widens it to the permutation
/// in one VPMOVZXBD: no mask vector is made. (A 4-byte entry of nibbles, broadcast, shifted and
/// masked, took three instructions more a vector: session 45.) Narrower vectors and other
/// targets keep Highway's (VPCOMPRESSD on AVX-512).
template <class D>
class Compressor32 {
  static_assert(sizeof(hn::TFromD<D>) == 4, "Compressor32 is for 32-bit lanes");

 public:
  Compressor32() = default;  // to fill an array of them
  HWY_INLINE Compressor32(D d, uint64_t bits) {
    bits &= hn::MaxLanes(d) >= 64 ? ~uint64_t{0} : (uint64_t{1} << hn::MaxLanes(d)) - 1;
    count_ = std::popcount(bits);
    if constexpr (kPermutes) {
      const hn::RebindToUnsigned<D> du;
      const hn::Rebind<uint8_t, decltype(du)> d8;
      const auto index = hn::PromoteTo(du, hn::Load(d8, detail::kCompress8Table[bits].data()));
      plan_ = hn::IndicesFromVec(d, hn::BitCast(hn::RebindToSigned<D>(), index));
    } else {
      plan_ = MaskOfBits(d, bits);
    }
  }
  /// How many lanes the bits select: the compressed vector's lanes that count.
  int count() const { return count_; }
  HWY_INLINE hn::Vec<D> operator()(hn::Vec<D> v) const {
    if constexpr (kPermutes) return hn::TableLookupLanes(v, plan_);
    else return hn::Compress(v, plan_);
  }

 private:
#if HWY_TARGET == HWY_AVX2
  static constexpr bool kPermutes = detail::kIsFull256<D>;  // 8 lanes: one byte of bits
#else
  static constexpr bool kPermutes = false;
#endif
  using Indices = decltype(hn::IndicesFromVec(D(), hn::Zero(hn::RebindToSigned<D>())));
  using Plan = std::conditional_t<kPermutes, Indices, hn::Mask<D>>;
  Plan plan_;
  int count_ = 0;
};

/// hn::Compress of 32-bit lanes: the lanes of m first, in order; the rest as Compressor32 says.
template <class D>
HWY_INLINE hn::Vec<D> Compress32([[maybe_unused]] D d, hn::Vec<D> v, hn::Mask<D> m) {
  static_assert(sizeof(hn::TFromD<D>) == 4, "Compress32 is for 32-bit lanes");
#if HWY_TARGET == HWY_AVX2
  if constexpr (detail::kIsFull256<D>) return Compressor32<D>(d, BitsOfMask(d, m))(v);
#endif
  return hn::Compress(v, m);
}

/// v with each denormal lane replaced by a zero of its sign (a device's flush to zero); zeros,
/// normals, infinities and NaNs unchanged.
template <class D, class V>
HWY_INLINE V FlushDenormals(D d, V v) {
  const auto smallest_normal = hn::Set(d, std::numeric_limits<hn::TFromD<D>>::min());
  return hn::IfThenElse(hn::Lt(hn::Abs(v), smallest_normal), hn::And(v, hn::SignBit(d)), v);
}

/// v with each NaN lane replaced by the canonical NaN 0x7fffffff (float) or 0x7fffffffffffffff
/// (double), as NVIDIA's arithmetic gives it.
template <class D, class V>
HWY_INLINE V CanonicalNaN(D d, V v) {
  const hn::RebindToUnsigned<D> du;
  using U = hn::TFromD<decltype(du)>;
  const auto canonical = hn::BitCast(d, hn::Set(du, std::numeric_limits<U>::max() >> 1));
  return hn::IfThenElse(hn::IsNaN(v), canonical, v);
}

/// Per-lane population count of 32-bit lanes. Highway 1.0.3 uses VPOPCNTD only on its AVX3_DL
/// target; plain AVX3 builds on CPUs that have the instruction (Zen 4) would otherwise count
/// bits with nibble table lookups. The raw intrinsic is valid only because
/// HWY_COMPILE_ONLY_STATIC makes HWY_TARGET the one static target chosen by -march (so the
/// vector is 512 bits and the compiler enables VPOPCNTDQ); any other build takes
/// PopulationCount.
template <class V>
HWY_INLINE V PopulationCount32(V v) {
#if defined(HWY_COMPILE_ONLY_STATIC) && HWY_TARGET == HWY_AVX3 && defined(__AVX512VPOPCNTDQ__)
  return V{_mm512_popcnt_epi32(v.raw)};
#else
  return hn::PopulationCount(v);
#endif
}

/// Inclusive sums of 32-bit lanes within segments of kSeg lanes of a vector (kSeg a power of two,
/// at most the vector length): log2(kSeg) steps, step j adding lane l - 2^j to lane l where
/// l % kSeg >= 2^j (on AVX2, for kSeg 4 and 8, shifts within each 128-bit block and then the
/// lower block's total added to the upper block). The shuffles and masks are loop-invariant, so
/// callers build one of these before their loop over vectors. Wave scans use kSeg = the wave
/// size; a group-wide scan uses kSeg = the vector length (the default) and carries LastLane
/// across vectors.
template <int kSeg = int(hn::MaxLanes(hn::ScalableTag<uint32_t>()))>
class SegmentedSum32 {
 public:
  using D = hn::ScalableTag<uint32_t>;
  using V = hn::Vec<D>;
  static constexpr int kLanes = int(hn::MaxLanes(D()));
  static_assert(kSeg >= 1 && kSeg <= kLanes && (kSeg & (kSeg - 1)) == 0,
                "segments are a power of two lanes, at most one vector");

  SegmentedSum32() {
    const D d;
    // The index tables go through an array and the masks through bits, which GCC folds into
    // constants (vector arithmetic on lane indices it computes at run time, in every caller).
    // Unused where neither table is built (AVX2 with segments of 4 lanes or more).
    [[maybe_unused]] alignas(64) int32_t idx[kLanes];
    if constexpr (!kInBlockShifts) {
      for (int j = 0; j < kSteps; ++j) {
        uint64_t keep = 0;  // lanes at least 2^j into their segment
        for (int l = 0; l < kLanes; ++l) {
          idx[l] = l >= (1 << j) ? l - (1 << j) : 0;
          if (l % kSeg >= (1 << j)) keep |= uint64_t{1} << l;
        }
        down_[j] = hn::SetTableIndices(d, idx);
        keep_[j] = MaskOfBits(d, keep);
      }
    }
    if constexpr (!kTwoShuffleLastLane) {
      for (int l = 0; l < kLanes; ++l) idx[l] = kLanes - 1;
      last_ = hn::SetTableIndices(d, idx);
    }
  }

  HWY_INLINE V Inclusive(V v) const {
    if constexpr (kInBlockShifts) {
      const D d;
      v = hn::Add(v, hn::ShiftLeftLanes<1>(d, v));
      v = hn::Add(v, hn::ShiftLeftLanes<2>(d, v));
      if constexpr (kSeg >= 8)  // the lower block's last sum onto every lane of the upper block
        v = hn::Add(v, hn::Broadcast<3>(hn::ConcatLowerLower(d, v, hn::Zero(d))));
      return v;
    }
    for (int j = 0; j < kSteps; ++j)
      v = hn::Add(v, hn::IfThenElseZero(keep_[j], hn::TableLookupLanes(v, down_[j])));
    return v;
  }
  /// The vector's last lane on every lane: the running sum a long segment carries onward.
  HWY_INLINE V LastLane(V v) const {
    if constexpr (kTwoShuffleLastLane) return hn::Broadcast<3>(hn::ConcatUpperUpper(D(), v, v));
    else return hn::TableLookupLanes(v, last_);
  }

 private:
  static constexpr int kSteps = std::countr_zero(unsigned(kSeg));
  // AVX2: in-block shifts (VPSLLDQ, one cycle) and one cross-block step instead of the tables,
  // each step of which costs a VPERMD (three cycles on Zen 3) and an AND: uint WavePrefixSum at
  // wave 32 went from 76 to 55 ns a group of 64 threads in cache. Not for segments of 2, where
  // the in-block shifts would carry lane 1 into lane 2; the tables are then left unbuilt.
  static constexpr bool kInBlockShifts = kLanes == 8 && HWY_TARGET == HWY_AVX2 && kSeg >= 4;
  // AVX2: LastLane as the upper block on both halves, then its lane 3 (VPERM2I128, VPSHUFD).
  // GCC 12 makes the one-table VPERMD a move, an extract and a broadcast: four instructions on
  // the carry's path.
  static constexpr bool kTwoShuffleLastLane = kLanes == 8 && HWY_TARGET == HWY_AVX2;
  using Indices = decltype(hn::IndicesFromVec(D(), hn::Zero(hn::RebindToSigned<D>())));
  Indices down_[kSteps > 0 ? kSteps : 1];
  hn::Mask<D> keep_[kSteps > 0 ? kSteps : 1];
  Indices last_;
};

}  // namespace waveemu
