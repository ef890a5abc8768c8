// check_lanes.h -- lane-by-lane comparison that prints the whole picture on failure: inputs,
// mask, expected and actual, in lane order (DESIGN §6).
#pragma once

#include "emulator/lanes.h"
#include "emulator/mask.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <bit>
#include <cstring>
#include <string>

namespace waveemu::test {

/// Bits of a value, so floats compare exactly (NaN payloads and -0 included).
template <class T>
auto BitsOf(T v) {
  if constexpr (std::is_same_v<T, half>) return v.bits();
  else if constexpr (std::is_same_v<T, bool>) return uint8_t(v);
  else {
    using U = std::conditional_t<sizeof(T) == 2, uint16_t,
              std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
    return std::bit_cast<U>(v);
  }
}

template <class T>
std::string Show(T v) {
  if constexpr (std::is_same_v<T, half>) return fmt::format("{}h", float(v));
  else if constexpr (std::is_floating_point_v<T>)
    return fmt::format("{}(0x{:x})", v, BitsOf(v));
  else return fmt::format("{}", v);
}

/// Compares actual to expected on the threads of `mask` (bit-exact), and requires every other
/// thread to still hold `sentinel`. On mismatch, prints one row per thread.
template <class T, int N, class In>
void CheckLanes(const Lanes<T, N>& actual, const std::array<T, size_t(N)>& expected,
                const Mask<N>& mask, T sentinel, const std::array<In, size_t(N)>& inputs,
                const std::string& context) {
  int bad = -1;
  for (int t = 0; t < N && bad < 0; ++t) {
    const T want = mask.Test(t) ? expected[t] : sentinel;
    if (BitsOf(actual.lane(t)) != BitsOf(want)) bad = t;
  }
  if (bad < 0) {
    CHECK(true);
    return;
  }
  std::string table = fmt::format("{}\nfirst mismatch at thread {}\n thread active input expected actual\n",
                                  context, bad);
  for (int t = 0; t < N; ++t)
    table += fmt::format("{:7} {:6} {:>5} {:>8} {:>6}{}\n", t, mask.Test(t) ? "yes" : "-",
                         Show(inputs[t]), mask.Test(t) ? Show(expected[t]) : "(keep)",
                         Show(actual.lane(t)), t == bad ? "  <--" : "");
  FAIL_CHECK(table);
}

}  // namespace waveemu::test
