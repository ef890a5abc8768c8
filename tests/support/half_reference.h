// half_reference.h -- binary16 rounding written out bit by bit, so tests of `half` arithmetic do
// not take their expected values from half's own conversion (which uses _Float16).
#pragma once

#include "emulator/half.h"

#include <cmath>
#include <cstdint>

namespace waveemu::test {

/// x rounded to the nearest binary16, ties to even; overflow gives infinity. NaN gives the
/// quiet NaN 0x7E00 with x's sign (payloads are compared by other tests).
inline half RoundToHalf(double x) {
  const uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
  if (std::isnan(x)) return half::FromBits(sign | 0x7E00u);
  const double a = std::fabs(x);
  if (a >= 65520.0) return half::FromBits(sign | 0x7C00u);  // 65504 + half an ulp (16) and up
  if (a < std::ldexp(1.0, -14)) {
    // Subnormal (or zero): a count of 2^-24 steps; 1024 steps is the smallest normal, 0x0400.
    const double steps = std::nearbyint(a * 16777216.0);  // exact scaling, rounds to even
    return half::FromBits(uint16_t(sign | uint16_t(steps)));
  }
  int e;
  const double m = std::frexp(a, &e);                  // a = m * 2^e, m in [0.5, 1)
  double significand = std::nearbyint(std::ldexp(m, 11));  // 1024..2048: 1.f with 10 bits of f
  int exponent = e - 1 + 15;
  if (significand == 2048.0) {
    significand = 1024.0;
    ++exponent;
  }
  if (exponent >= 31) return half::FromBits(sign | 0x7C00u);
  return half::FromBits(uint16_t(sign | (exponent << 10) | (int(significand) - 1024)));
}

}  // namespace waveemu::test
