// test_simd_masks.cpp -- the mask helpers of emulator/simd.h that take their own route on some
// targets (BitsOfMask, MaskOfBits: register moves on AVX-512 and AVX2; Compress32 and
// Compressor32: a table of their own on AVX2), against scalar loops over the lanes, for every
// lane width the static target's full vectors have.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdint>
#include <random>
#include <vector>

#include "emulator/simd.h"

namespace {

using namespace waveemu;

/// Bit patterns to try for a vector of `lanes` lanes: every one when there are at most 256,
/// otherwise the corner cases and random words (fixed seed).
std::vector<uint64_t> MaskPatterns(size_t lanes) {
  const uint64_t all = lanes >= 64 ? ~uint64_t(0) : (uint64_t(1) << lanes) - 1;
  std::vector<uint64_t> patterns;
  if (lanes <= 8) {
    for (uint64_t bits = 0; bits <= all; ++bits) patterns.push_back(bits);
    return patterns;
  }
  patterns = {0, all, 1, uint64_t(1) << (lanes - 1), all & 0x5555555555555555u,
              all & 0xAAAAAAAAAAAAAAAAu, all >> 1, all & ~uint64_t(1)};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) patterns.push_back(rng() & all);
  return patterns;
}

template <class T>
void CheckMaskBitsRoundTrip() {
  const hn::ScalableTag<T> d;
  const size_t lanes = hn::Lanes(d);
  using U = hn::TFromD<hn::RebindToUnsigned<decltype(d)>>;
  std::vector<U> got(lanes);
  for (uint64_t bits : MaskPatterns(lanes)) {
    INFO(fmt::format("{}-bit lanes, bits {:#x}", 8 * sizeof(T), bits));
    // MaskOfBits: lane i is on exactly when bit i is; bits past the lanes are ignored.
    const uint64_t garbage = lanes >= 64 ? 0 : ~uint64_t(0) << lanes;
    const auto m = MaskOfBits(d, bits | garbage);
    const hn::RebindToUnsigned<decltype(d)> du;
    hn::StoreU(hn::VecFromMask(du, hn::RebindMask(du, m)), du, got.data());
    for (size_t i = 0; i < lanes; ++i) CHECK(got[i] == (((bits >> i) & 1) ? U(~U(0)) : U(0)));
    // BitsOfMask of a mask made by a comparison, not by MaskOfBits.
    for (size_t i = 0; i < lanes; ++i) got[i] = U((bits >> i) & 1);
    const auto compared = hn::RebindMask(d, hn::Eq(hn::LoadU(du, got.data()), hn::Set(du, U(1))));
    CHECK(BitsOfMask(d, compared) == bits);
  }
}

template <class T>
void CheckCompress32() {
  const hn::ScalableTag<T> d;
  const size_t lanes = hn::Lanes(d);
  std::vector<T> in(lanes), out(lanes);
  for (size_t i = 0; i < lanes; ++i) in[i] = T(100 + 3 * int(i));  // distinct, exact as float
  for (uint64_t bits : MaskPatterns(lanes)) {
    INFO(fmt::format("bits {:#x}", bits));
    hn::StoreU(Compress32(d, hn::LoadU(d, in.data()), MaskOfBits(d, bits)), d, out.data());
    // The selected lanes first, in lane order, then the others in lane order (a permutation).
    std::vector<T> expected;
    for (size_t i = 0; i < lanes; ++i)
      if ((bits >> i) & 1) expected.push_back(in[i]);
    const size_t selected = expected.size();
    for (size_t i = 0; i < lanes; ++i)
      if (!((bits >> i) & 1)) expected.push_back(in[i]);
    for (size_t k = 0; k < selected; ++k) CHECK(out[k] == expected[k]);
    // Highway's own Compress leaves the others' order to the target, so only ours is held to it.
    if (lanes == 8)
      for (size_t k = selected; k < lanes; ++k) CHECK(out[k] == expected[k]);
    // Compressor32: the same compression worked out from the bits alone (bits past the lanes
    // ignored), its count, and the one plan applied to a second vector.
    const uint64_t garbage = lanes >= 64 ? 0 : ~uint64_t(0) << lanes;
    const Compressor32<hn::ScalableTag<T>> compress(d, bits | garbage);
    CHECK(compress.count() == int(selected));
    hn::StoreU(compress(hn::LoadU(d, in.data())), d, out.data());
    for (size_t k = 0; k < selected; ++k) CHECK(out[k] == expected[k]);
    std::vector<T> other(lanes), out_other(lanes);
    for (size_t i = 0; i < lanes; ++i) other[i] = T(7 + 5 * int(i));
    hn::StoreU(compress(hn::LoadU(d, other.data())), d, out_other.data());
    size_t k = 0;
    for (size_t i = 0; i < lanes; ++i)
      if ((bits >> i) & 1) CHECK(out_other[k++] == other[i]);
  }
}

}  // namespace

TEST_CASE("MaskOfBits and BitsOfMask agree with the lanes, every lane width") {
  CheckMaskBitsRoundTrip<uint8_t>();
  CheckMaskBitsRoundTrip<uint16_t>();
  CheckMaskBitsRoundTrip<uint32_t>();
  CheckMaskBitsRoundTrip<float>();
  CheckMaskBitsRoundTrip<uint64_t>();
  CheckMaskBitsRoundTrip<double>();
}

TEST_CASE("Compress32 and Compressor32 put the selected lanes first, in order") {
  CheckCompress32<uint32_t>();
  CheckCompress32<int32_t>();
  CheckCompress32<float>();
}
