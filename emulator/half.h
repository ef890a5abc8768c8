// half.h -- HLSL `half` (with -enable-16bit-types: IEEE binary16).
//
// Stored as its 16 bits; every operation converts to float, computes, and rounds back to
// nearest-even. For + - * / that gives the correctly rounded binary16 result (float carries more
// than 2*11+2 significand bits, so rounding twice cannot differ), which is what D3D requires of
// unfused fp16 arithmetic.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace waveemu {

class half {
 public:
  constexpr half() = default;
  half(float f) : bits_(FromFloat(f)) {}  // NOLINT: HLSL converts float to half implicitly
  /// One rounding, to nearest even (going through float could round twice: 1 + 2^-11 + 2^-40
  /// must give 1 + 2^-10, not 1).
  explicit half(double d) : bits_(FromDouble(d)) {}
  /// Integers round to nearest even; every integer of half's range is exact in float first.
  template <class I>
    requires std::is_integral_v<I>
  explicit half(I i) : half(static_cast<float>(i)) {}

  static constexpr half FromBits(uint16_t b) {
    half h;
    h.bits_ = b;
    return h;
  }
  constexpr uint16_t bits() const { return bits_; }
  operator float() const { return ToFloat(bits_); }  // NOLINT: exact widening

  friend half operator+(half a, half b) { return half(float(a) + float(b)); }
  friend half operator-(half a, half b) { return half(float(a) - float(b)); }
  friend half operator*(half a, half b) { return half(float(a) * float(b)); }
  friend half operator/(half a, half b) { return half(float(a) / float(b)); }
  half operator-() const { return FromBits(bits_ ^ 0x8000u); }
  half& operator+=(half o) { return *this = *this + o; }
  half& operator-=(half o) { return *this = *this - o; }
  half& operator*=(half o) { return *this = *this * o; }
  half& operator/=(half o) { return *this = *this / o; }
  friend bool operator==(half a, half b) { return float(a) == float(b); }
  friend bool operator<(half a, half b) { return float(a) < float(b); }
  friend bool operator<=(half a, half b) { return float(a) <= float(b); }
  friend bool operator>(half a, half b) { return float(a) > float(b); }
  friend bool operator>=(half a, half b) { return float(a) >= float(b); }

 private:
  static uint16_t FromFloat(float f) {
    _Float16 h = static_cast<_Float16>(f);  // round to nearest even
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  static uint16_t FromDouble(double d) {
    _Float16 h = static_cast<_Float16>(d);
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
  }
  static float ToFloat(uint16_t b) {
    _Float16 h;
    std::memcpy(&h, &b, 2);
    return static_cast<float>(h);
  }

  uint16_t bits_ = 0;
};

}  // namespace waveemu
