// Tests of Mask<N>, the one-bit-per-thread set behind execution masks and Bool<N>.
#include "emulator/mask.h"
#include "emulator/profile.h"
#include "emulator/error.h"

#include <doctest/doctest.h>

#include <random>
#include <vector>

using waveemu::Mask;

namespace {

/// The same set as a plain vector<bool>, the independent reference.
template <int N>
std::vector<bool> Reference(const Mask<N>& m) {
  std::vector<bool> r(N);
  for (int t = 0; t < N; ++t) r[t] = m.Test(t);
  return r;
}

template <int N>
Mask<N> RandomMask(uint32_t seed) {
  std::mt19937 rng(seed);
  Mask<N> m;
  for (int t = 0; t < N; ++t) m.Set(t, rng() % 3 == 0);
  return m;
}

}  // namespace

// Group sizes: under a word, one word, a second word that ends inside it, four whole words.
#define MASK_SIZES                                                                       \
  std::integral_constant<int, 1>, std::integral_constant<int, 24>,                       \
      std::integral_constant<int, 64>, std::integral_constant<int, 100>,                 \
      std::integral_constant<int, 256>

TEST_CASE_TEMPLATE("Mask set operations agree with a per-thread loop", Size, MASK_SIZES) {
  constexpr int N = Size::value;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const Mask<N> a = RandomMask<N>(seed), b = RandomMask<N>(seed + 100);
    const auto ra = Reference(a), rb = Reference(b);
    int count = 0, first = -1;
    for (int t = 0; t < N; ++t) {
      CHECK((a & b).Test(t) == (ra[t] && rb[t]));
      CHECK((a | b).Test(t) == (ra[t] || rb[t]));
      CHECK((a ^ b).Test(t) == (ra[t] != rb[t]));
      CHECK((~a).Test(t) == !ra[t]);
      CHECK(AndNot(a, b).Test(t) == (ra[t] && !rb[t]));
      count += ra[t];
      if (ra[t] && first < 0) first = t;
    }
    CHECK(a.Count() == count);
    CHECK(a.First() == first);
    CHECK(a.Any() == (count > 0));
    CHECK(a.Empty() == (count == 0));
    std::vector<int> visited;
    a.ForEach([&](int t) { visited.push_back(t); });
    CHECK(visited.size() == size_t(count));
    for (size_t i = 1; i < visited.size(); ++i) CHECK(visited[i - 1] < visited[i]);
  }
}

/// Visits and builds a mask vector by vector (L threads each, up to `padded`) and compares with
/// the per-thread reference: the vectors come in order, each seeing its own threads' bits, and
/// FromVectorBits keeps bits below N only (f sets every padding thread; inverted, it clears them).
template <int N, int L, int padded>
void CheckVectorWalk(uint32_t seed) {
  const Mask<N> a = RandomMask<N>(seed);
  const auto ra = Reference(a);
  // Bits of threads [i, i + L); with padding_set, threads at or beyond N read as set.
  const auto reference_bits = [&](int i, bool padding_set) {
    uint64_t bits = 0;
    for (int k = 0; k < L; ++k)
      if (i + k < N ? bool(ra[size_t(i + k)]) : padding_set) bits |= uint64_t{1} << k;
    return bits;
  };
  std::vector<int> starts;
  a.template ForEachVectorWord<L, padded>([&](int i, uint64_t word) {
    starts.push_back(i);
    const uint64_t got = (word >> (i & 63)) & ((uint64_t{1} << L) - 1);
    CHECK_MESSAGE(got == reference_bits(i, false), "N ", N, " L ", L, " vector at ", i);
  });
  REQUIRE(starts.size() == size_t(padded / L));
  for (size_t v = 0; v < starts.size(); ++v) CHECK(starts[v] == int(v) * L);
  std::vector<int> built_starts;
  const auto built = Mask<N>::template FromVectorBits<L, padded>([&](int i) {
    built_starts.push_back(i);
    return reference_bits(i, true);
  });
  CHECK(built_starts == starts);  // the same vectors, in order, none at or past `padded`
  CHECK(built == a);
  // Inverted, the padding threads f leaves clear must not come back as set.
  const auto inverted = Mask<N>::template FromVectorBits<L, padded, /*kInverted=*/true>(
      [&](int i) { return reference_bits(i, false); });
  for (int t = 0; t < N; ++t) CHECK(inverted.Test(t) == !ra[size_t(t)]);
  CHECK(inverted.Count() == N - a.Count());
}

TEST_CASE_TEMPLATE("Mask walks vector by vector: ForEachVectorWord and FromVectorBits", Size,
                   MASK_SIZES) {
  constexpr int N = Size::value;
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    CheckVectorWalk<N, 8, (N + 7) / 8 * 8>(seed);
    CheckVectorWalk<N, 16, (N + 15) / 16 * 16>(seed);
    CheckVectorWalk<N, 4, (N + 3) / 4 * 4>(seed);
    // Lanes<T, N>::kPadded pads to 64 bytes, so whole vectors can be padding: 32-bit lanes on
    // AVX2 (8 a vector, padded to 16), 16-bit lanes on AVX2 (16, padded to 32) and AVX-512 (32).
    CheckVectorWalk<N, 8, (N + 15) / 16 * 16>(seed);
    CheckVectorWalk<N, 16, (N + 31) / 32 * 32>(seed);
    CheckVectorWalk<N, 32, (N + 31) / 32 * 32>(seed);
  }
}

#undef MASK_SIZES

TEST_CASE("Mask::All and complement never set bits at or beyond N") {
  const Mask<70> all = Mask<70>::All();
  CHECK(all.Count() == 70);
  CHECK(all.word(1) == (uint64_t{1} << 6) - 1);
  CHECK((~Mask<70>()).Count() == 70);
  CHECK((~all).Empty());
  CHECK(all.IsAll());
}

TEST_CASE("Mask::Bits64 extracts one wave's lanes, shifted to bit 0") {
  Mask<128> m;
  for (int t : {3, 8, 9, 15, 64, 127}) m.Set(t, true);
  CHECK(m.Bits64(0, 8) == 0b0000'1000u);   // lanes 0-7 of wave 0 at W = 8: only thread 3
  CHECK(m.Bits64(8, 8) == 0b1000'0011u);   // threads 8, 9, 15
  CHECK(m.Bits64(64, 64) == (uint64_t{1} | (uint64_t{1} << 63)));
  CHECK(Mask<128>::Range(4, 8).Bits64(0, 16) == 0xF0u);
}

TEST_CASE("Profiles are found by name, and an unknown name is refused with the known ones") {
  CHECK(waveemu::ProfileByName("spec").wave_size == 32);
  CHECK(waveemu::ProfileByName("lavapipe").wave_size == 8);
  CHECK(waveemu::ProfileByName("nvidia").reduction_order ==
        waveemu::ReductionOrder::kCompactedHillisSteele);
  CHECK_THROWS_WITH_AS(waveemu::ProfileByName("amd"),
                       "unknown device profile 'amd' (known: spec, lavapipe, nvidia)",
                       waveemu::UsageError);
}
