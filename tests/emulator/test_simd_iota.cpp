// test_simd_iota.cpp -- IotaFrom (emulator/simd.h), the stall-free form of hn::Iota that the
// consecutive-index checks of gathers and stores use: lane i is first + i, wrapping, for every
// lane of the static target's vectors, against a scalar loop.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "emulator/simd.h"

namespace {

using namespace waveemu;

template <class T>
void CheckIotaFrom(T first) {
  const hn::ScalableTag<T> d;
  std::vector<T> got(hn::Lanes(d));
  hn::StoreU(IotaFrom(d, first), d, got.data());
  for (size_t i = 0; i < got.size(); ++i) {
    // Unsigned arithmetic wraps as the vector add does; the cast back is two's complement.
    using U = std::make_unsigned_t<T>;
    const T expected = T(U(U(first) + U(i)));
    INFO("first = ", first, ", lane ", i);
    CHECK(got[i] == expected);
  }
}

}  // namespace

TEST_CASE("IotaFrom: lane i holds first + i, wrapping at the type's end") {
  for (uint32_t first : {0u, 1u, 16u, 1000003u, 0xFFFFFFF8u, 0xFFFFFFFFu}) CheckIotaFrom(first);
  for (int32_t first : {0, -1, -8, std::numeric_limits<int32_t>::max() - 3,
                        std::numeric_limits<int32_t>::min()})
    CheckIotaFrom(first);
  for (uint64_t first : {uint64_t(0), ~uint64_t(0) - 2}) CheckIotaFrom(first);
}
