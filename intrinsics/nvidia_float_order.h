// nvidia_float_order.h -- the order in which NVIDIA (H100, Vulkan, driver 580, wave 32) combines
// float lanes in WaveActiveSum/Product and WavePrefixSum/Product under any mask: a Hillis-Steele
// scan over the *compacted* active lanes (docs/nvidia_float_order.md has the evidence).
// wave_reduce.h and wave_scan.h dispatch here for ReductionOrder/ScanOrder::kCompactedHillisSteele
// (the nvidia profile) and include this file at their end.
#pragma once

#include "intrinsics/wave_reduce.h"

namespace waveemu {

namespace core {

// ------------------------------ compacted Hillis-Steele (nvidia)

/// Inclusive Hillis-Steele scan of Op over the set lanes of `lanes` below `present`, compacted:
/// the k set lanes a_0 < a_1 < ... < a_{k-1} are renumbered 0..k-1 (unset lanes contribute
/// nothing, not even the identity), then for d = 1, 2, 4, ... while d < k:
/// v[i] = v[i - d] op v[i] for every i >= d (all reads from the previous step).
/// Writes v[0..k-1] to `v`, returns k. Inputs and every step are flushed under kFlushToZero.
template <class Op, class T>
int CompactedInclusiveScan(const T* x, const WaveLanes& lanes, int present, DenormMode dm,
                           T* v) {
  int k = 0;
  lanes.ForEach([&](int l) {
    if (l < present) v[k++] = FlushDenormal(x[l], dm);
  });
  // Descending, so v[i - d] still holds the previous step's value.
  for (int d = 1; d < k; d *= 2)
    for (int i = k - 1; i >= d; --i) v[i] = CombineFloat<Op>(v[i - d], v[i], dm);
  return k;
}

/// Float Op over the set lanes of `lanes` (at least one), NVIDIA order: the last element of the
/// compacted inclusive Hillis-Steele scan, v[k - 1]. With all W lanes set (W a power of two) this
/// is the pairwise tree T(block) = T(lower half) op T(upper half), i.e. the xor butterfly's
/// result; under sparse masks the tree is aligned to the *last* active lane, e.g. for k = 3:
/// x[a0] op (x[a1] op x[a2]). `W` is unused (the shape matches ReduceWaveFloat). NaN results are
/// encoded per NanResult.
template <class Op, class T>
T ReduceWaveFloatCompacted(const T* x, const WaveLanes& lanes, int present, int /*W*/,
                           const WaveFloatPolicy& p) {
  T v[kMaxWaveSize];
  const int k = CompactedInclusiveScan<Op>(x, lanes, present, p.denormals, v);
  return k == 0 ? Op::template Identity<T>() : EncodeNan(v[k - 1], p.nan_result);
}

/// Exclusive float scan of Op, NVIDIA order: set lane a_i gets v[i - 1] of the compacted
/// inclusive scan (the identity for a_0). Writes out[l] for every l < present, set or not: an unset
/// lane gets the value a set lane in its place would get (v[c - 1], c = set lanes below it).
template <class Op, class T>
void ScanWaveFloatCompacted(const T* x, const WaveLanes& lanes, int present, int /*W*/,
                            const WaveFloatPolicy& p, T* out) {
  T v[kMaxWaveSize];
  CompactedInclusiveScan<Op>(x, lanes, present, p.denormals, v);
  const T id = Op::template Identity<T>();
  int below = 0;
  for (int l = 0; l < present; ++l) {
    out[l] = below == 0 ? id : EncodeNan(v[below - 1], p.nan_result);
    if (LaneOn(lanes, l)) ++below;
  }
}

}  // namespace core

}  // namespace waveemu
