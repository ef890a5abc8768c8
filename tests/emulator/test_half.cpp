// test_half.cpp -- HLSL `half` (IEEE binary16): rounding to nearest even at ties, overflow to
// infinity, denormals, and exact widening, with hand-worked bit patterns.
#include "emulator/half.h"
#include "emulator/lanes.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using waveemu::half;

TEST_CASE("float to half rounds to nearest, ties to even") {
  // Half has 10 fraction bits: near 1 the spacing is 2^-10.
  CHECK(half(1.0f).bits() == 0x3C00);
  CHECK(half(1.0f + std::ldexp(1.0f, -11)).bits() == 0x3C00);      // tie: down to even 1.0
  CHECK(half(1.0f + 3 * std::ldexp(1.0f, -11)).bits() == 0x3C02);  // tie: up to even 1+2^-9
  CHECK(half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)).bits() == 0x3C01);  // above
  CHECK(half(-1.0f - std::ldexp(1.0f, -11)).bits() == 0xBC00);     // symmetric for negatives
  CHECK(half(0.1f).bits() == 0x2E66);                               // 0.0999755859375
}

TEST_CASE("float to half overflows to infinity past the rounding boundary of 65504") {
  CHECK(half(65504.0f).bits() == 0x7BFF);  // largest finite half
  CHECK(half(65519.0f).bits() == 0x7BFF);  // below 65520: rounds down to 65504
  CHECK(half(65520.0f).bits() == 0x7C00);  // 65520 is the tie with 2^16: to even, +inf
  CHECK(half(-1e6f).bits() == 0xFC00);
  CHECK(half(std::numeric_limits<float>::infinity()).bits() == 0x7C00);
  CHECK(std::isnan(float(half(std::numeric_limits<float>::quiet_NaN()))));
}

TEST_CASE("half denormals are kept and rounded to nearest even") {
  CHECK(half(std::ldexp(1.0f, -14)).bits() == 0x0400);  // smallest normal
  CHECK(half(std::ldexp(1.0f, -24)).bits() == 0x0001);  // smallest denormal
  CHECK(half(std::ldexp(1.0f, -25)).bits() == 0x0000);  // tie between 0 and 2^-24: even, 0
  CHECK(half(std::ldexp(3.0f, -26)).bits() == 0x0001);  // 0.75 * 2^-24: up
  CHECK(half(std::ldexp(3.0f, -25)).bits() == 0x0002);  // 1.5 * 2^-24: tie, to even 2
  CHECK(half(-std::ldexp(1.0f, -24)).bits() == 0x8001);
  CHECK(float(half::FromBits(0x0001)) == std::ldexp(1.0f, -24));
  CHECK(float(half::FromBits(0x03FF)) == std::ldexp(1023.0f, -24));  // largest denormal
  // Denormal arithmetic is exact where the result is representable.
  CHECK((half::FromBits(0x0001) + half::FromBits(0x0001)).bits() == 0x0002);
  CHECK((half::FromBits(0x0400) - half::FromBits(0x0001)).bits() == 0x03FF);
}

TEST_CASE("half to float is exact: every half round-trips through float") {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const half h = half::FromBits(uint16_t(b));
    const float f = float(h);
    if (std::isnan(f)) {
      CHECK((b & 0x7C00) == 0x7C00);
      CHECK((b & 0x03FF) != 0);
    } else if (half(f).bits() != b) {
      FAIL_CHECK("half 0x", std::hex, b, " -> ", f, " -> 0x", half(f).bits());
    }
  }
}

TEST_CASE("half arithmetic is correctly rounded, checked against exact double arithmetic") {
  // 2049 * 1 is not representable (11 significant bits hold up to 2048 exactly, then steps of 2).
  CHECK((half(2048.0f) + half(1.0f)).bits() == 0x6800);  // tie to even 2048 (2^11)
  CHECK((half(2050.0f) + half(1.0f)).bits() == 0x6802);  // tie to even 2052
  CHECK((half(1.0f) / half(3.0f)).bits() == 0x3555);                   // 0.333251953125
  CHECK((half(300.0f) * half(300.0f)).bits() == 0x7C00);               // 90000 overflows
  CHECK((-half(0.0f)).bits() == 0x8000);
  // Comparisons: NaN unordered, -0 == +0.
  const half nan = half::FromBits(0x7E00);
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);
  CHECK_FALSE(nan < half(1.0f));
  CHECK(half::FromBits(0x8000) == half::FromBits(0x0000));
}

TEST_CASE("half converts from integers and double with one rounding") {
  CHECK(half(3).bits() == 0x4200);
  CHECK(half(2049u).bits() == 0x6800);  // tie to even 2048
  CHECK(half(int64_t(1) << 40).bits() == 0x7C00);
  CHECK(half(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)).bits() == 0x3C01);
  CHECK(half(1.0 + std::ldexp(1.0, -11)).bits() == 0x3C00);
}
