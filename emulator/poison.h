// poison.h -- the recognisable values the `spec` profile gives to undefined results.
#pragma once

#include "emulator/half.h"

#include <bit>
#include <cstdint>
#include <type_traits>

namespace waveemu {

/// 0xDEADBEEF-style pattern per type; floats get a quiet NaN whose payload spells DEAD.
template <class T>
constexpr T Poison() {
  if constexpr (std::is_same_v<T, bool>) return false;
  else if constexpr (std::is_same_v<T, half>) return half::FromBits(0x7EADu);
  else if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(0x7FC0DEADu);
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(0x7FF8DEADBEEFDEADull);
  else if constexpr (sizeof(T) == 2) return static_cast<T>(0xDEADu);
  else if constexpr (sizeof(T) == 4) return static_cast<T>(0xDEADBEEFu);
  else return static_cast<T>(0xDEADBEEFDEADBEEFull);
}

}  // namespace waveemu
