// lane_values.h -- test scaffolding for intrinsics that take any scalar or vector shape: building
// per-thread values from plain arrays, storing results for CheckLanes (bool as 0/1), sentinels,
// and random inputs. The expected values themselves stay in each test, next to the call.
#pragma once

#include "emulator/emulator.h"
#include "tests/support/check_lanes.h"

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>

namespace waveemu::test {

/// A test type: component type T, C components (1 = scalar).
template <class T, int C = 1>
struct Shape {
  using Scalar = T;
  static constexpr int kC = C;
};

/// "float3", "uint16_t", ... for failure messages.
template <class S>
std::string ShapeName() {
  using T = typename S::Scalar;
  const char* name = std::is_same_v<T, bool>       ? "bool"
                     : std::is_same_v<T, int16_t>  ? "int16_t"
                     : std::is_same_v<T, uint16_t> ? "uint16_t"
                     : std::is_same_v<T, int32_t>  ? "int"
                     : std::is_same_v<T, uint32_t> ? "uint"
                     : std::is_same_v<T, int64_t>  ? "int64_t"
                     : std::is_same_v<T, uint64_t> ? "uint64_t"
                     : std::is_same_v<T, half>     ? "half"
                     : std::is_same_v<T, float>    ? "float"
                                                   : "double";
  return S::kC == 1 ? std::string(name) : fmt::format("{}{}", name, S::kC);
}

template <class S, int N>
using ValueOf = std::conditional_t<S::kC == 1, LanesOf<typename S::Scalar, N>,
                                   Vector<typename S::Scalar, S::kC, N>>;

/// How a component is stored for CheckLanes: bool as uint32_t 0/1 (a Bool<N> has no sentinel).
template <class T>
using StoreOf = std::conditional_t<std::is_same_v<T, bool>, uint32_t, T>;

/// Per component, per thread.
template <class T, int C, int N>
using Columns = std::array<std::array<T, N>, C>;

/// Component c of a scalar (itself) or vector.
template <class V>
auto& Comp(V& v, int c) {
  if constexpr (requires { V::kComponents; }) return v[c];
  else return v;
}

template <class S, int N>
ValueOf<S, N> Make(const Columns<typename S::Scalar, S::kC, N>& in) {
  ValueOf<S, N> v;
  for (int c = 0; c < S::kC; ++c)
    for (int t = 0; t < N; ++t) Comp(v, c).set_lane(t, in[c][t]);
  return v;
}

template <int N>
Uint<N> ToStore(const Bool<N>& b) {
  return Uint<N>(b);
}
template <class T, int N>
const Lanes<T, N>& ToStore(const Lanes<T, N>& x) {
  return x;
}

/// A value no correct result is likely to hold.
template <class T>
StoreOf<T> Sentinel() {
  if constexpr (std::is_same_v<T, bool>) return 7u;
  else if constexpr (std::is_same_v<T, half>) return half(-1234.0f);
  else if constexpr (std::is_floating_point_v<T>) return T(-1234.5);
  else return T(0x5EED5EED5EED5EEDull);
}

/// Any bit pattern of T (NaN payloads included: reads must copy bits).
template <class T>
T RandomBits(std::mt19937_64& rng) {
  const uint64_t r = rng();
  if constexpr (std::is_same_v<T, bool>) return (r & 1) != 0;
  else if constexpr (std::is_same_v<T, half>) return half::FromBits(uint16_t(r));
  else if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(uint32_t(r));
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(r);
  else return T(r);
}

/// One of `k` small values 0..k-1 as T (so that equal values and exact float sums happen).
template <class T>
T SmallValue(std::mt19937_64& rng, int k) {
  const int v = int(rng() % uint64_t(k));
  if constexpr (std::is_same_v<T, bool>) return (v & 1) != 0;
  else if constexpr (std::is_same_v<T, half>) return half(float(v));
  else return T(v);
}

template <class T, int C, int N, class Gen>
Columns<T, C, N> RandomColumns(Gen&& gen) {
  Columns<T, C, N> in;
  for (auto& column : in)
    for (auto& v : column) v = gen();
  return in;
}

/// Outputs initialised to the sentinel, one per component.
template <class S, int N>
std::array<Lanes<StoreOf<typename S::Scalar>, N>, S::kC> SentinelOutputs() {
  using L = Lanes<StoreOf<typename S::Scalar>, N>;
  std::array<L, S::kC> out;
  for (auto& o : out) o.AssignMasked(L(Sentinel<typename S::Scalar>()), Mask<N>::All());
  return out;
}

/// HLSL `if (mask) { body }`: runs body with the execution mask narrowed by the real if_
/// plumbing. (The IfChain result is dropped on purpose: there is no else.)
template <int N, class F>
void Under(const Mask<N>& mask, F&& body) {
  (void)if_(Bool<N>::FromMask(mask), body);
}

}  // namespace waveemu::test
