// test_profiles.cpp -- each float policy of the device profiles (DESIGN §3), shown bit-exactly on
// crafted inputs with hand-worked results: reduction and scan order, denormal flushing, NaN
// encoding, all-NaN min/max, float equality, and a user-defined profile.
#include "intrinsics/intrinsics.h"
#include "tests/support/check_lanes.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace {

using namespace waveemu;
using namespace waveemu::test;

constexpr int kN = 8;  // one wave of 8 lanes in every case below

Float<kN> Floats(std::array<float, kN> v) { return Float<kN>(v); }
Float<kN> FloatBits(std::array<uint32_t, kN> bits) {
  Float<kN> r;
  for (int t = 0; t < kN; ++t) r.set_lane(t, std::bit_cast<float>(bits[t]));
  return r;
}
uint32_t Bits(const Float<kN>& x, int t) { return std::bit_cast<uint32_t>(x.lane(t)); }
uint64_t Bits(const Double<kN>& x, int t) { return std::bit_cast<uint64_t>(x.lane(t)); }
uint16_t Bits(const Half<kN>& x, int t) { return x.lane(t).bits(); }

/// Runs body() as one wave of 8 under `profile`.
template <class F>
void InWave(const DeviceProfile& profile, F&& body, DispatchShared* shared = nullptr) {
  RunGroup<kN>(8, body, profile, shared);
}

// ------------------------------ ReductionOrder

TEST_CASE("ReductionOrder: a float sum whose bits depend on the order gives each profile its own") {
  // Sequential: ((1 + 1e8) + -1e8) + 1 = (1e8 - 1e8) + 1 = 1 (1e8 + 1 rounds to 1e8: ulp is 8).
  // Butterfly (lane 0): ((1 + 1e8) + (-1e8 + 1)) + (0 + 0 + 0 + 0) = (1e8 + -1e8) + 0 = 0.
  const Float<kN> x = Floats({1.0f, 1e8f, -1e8f, 1.0f, 0, 0, 0, 0});
  Float<kN> sum;
  InWave(SpecProfile(), [&] { sum = WaveActiveSum(x); });
  CHECK(Bits(sum, 0) == 0x3f800000u);
  InWave(LavapipeProfile(), [&] { sum = WaveActiveSum(x); });
  CHECK(Bits(sum, 0) == 0x3f800000u);
  InWave(NvidiaProfile(), [&] { sum = WaveActiveSum(x); });
  for (int t = 0; t < kN; ++t) CHECK(Bits(sum, t) == 0x00000000u);

  // The same with doubles (ulp of 1e17 is 16) and halves (ulp of 4096 is 4).
  const Double<kN> d(std::array<double, kN>{1, 1e17, -1e17, 1, 0, 0, 0, 0});
  const Half<kN> h(Float<kN>(std::array<float, kN>{1, 4096, -4096, 1, 0, 0, 0, 0}));
  Double<kN> dsum;
  Half<kN> hsum;
  InWave(LavapipeProfile(), [&] { dsum = WaveActiveSum(d); hsum = WaveActiveSum(h); });
  CHECK(dsum.lane(0) == 1.0);
  CHECK(Bits(hsum, 0) == 0x3c00u);  // 1.0h
  InWave(NvidiaProfile(), [&] { dsum = WaveActiveSum(d); hsum = WaveActiveSum(h); });
  CHECK(Bits(dsum, 0) == 0u);
  CHECK(Bits(hsum, 0) == 0u);
}

TEST_CASE("ReductionOrder: the nvidia butterfly gives inactive lanes the identity") {
  // Lanes 0-3 active: butterfly (1 + 1e8) + (-1e8 + 1) = 0 while the 5s of lanes 4-7 do not count.
  const Float<kN> x = Floats({1.0f, 1e8f, -1e8f, 1.0f, 5, 5, 5, 5});
  const Float<kN> product_in = Floats({3, 3, 3, 3, 7, 7, 7, 7});
  Float<kN> sum(-1.0f), product(-1.0f);
  for (const DeviceProfile& p : {LavapipeProfile(), NvidiaProfile()}) {
    InWave(p, [&] {
      if_(WaveGetLaneIndex<kN>() < 4u, [&] {
        sum = WaveActiveSum(x);
        product = WaveActiveProduct(product_in);
      });
    });
    CHECK(sum.lane(0) == (p.name == "nvidia" ? 0.0f : 1.0f));
    CHECK(product.lane(0) == 81.0f);
    CHECK(sum.lane(4) == -1.0f);  // inactive: untouched
  }
}

// ------------------------------ ScanOrder

TEST_CASE("ScanOrder: sequential and Hillis-Steele prefix sums differ where rounding does") {
  const Float<kN> x = Floats({1.0f, 1.0f, 1e8f, -1e8f, 0, 0, 0, 0});
  // Sequential: 0, 1, 2, 2 + 1e8 = 1e8 (rounded), 1e8 - 1e8 = 0, 0, 0, 0.
  const std::array<float, kN> sequential{0, 1, 2, 1e8f, 0, 0, 0, 0};
  // Hillis-Steele inclusive, v[l] = v[l - d] + v[l]: d=1 [1, 2, 1e8, 0, -1e8, 0, 0, 0];
  // d=2 [1, 2, 1e8, 2, 0, 0, -1e8, 0]; d=4 [1, 2, 1e8, 2, 1, 2, 0, 2]; shifted by one lane:
  const std::array<float, kN> hillis_steele{0, 1, 2, 1e8f, 2, 1, 2, 0};
  Float<kN> scan;
  InWave(SpecProfile(), [&] { scan = WavePrefixSum(x); });
  for (int t = 0; t < kN; ++t) CHECK(scan.lane(t) == sequential[t]);
  InWave(LavapipeProfile(), [&] { scan = WavePrefixSum(x); });
  for (int t = 0; t < kN; ++t) CHECK(scan.lane(t) == sequential[t]);
  InWave(NvidiaProfile(), [&] { scan = WavePrefixSum(x); });
  for (int t = 0; t < kN; ++t) CHECK(scan.lane(t) == hillis_steele[t]);
}

// ------------------------------ DenormMode

TEST_CASE("DenormMode: float denormals are flushed (sign kept) under nvidia and kept elsewhere") {
  const Float<kN> pos = FloatBits({1, 1, 1, 1, 1, 1, 1, 1});  // 8 x the smallest denormal
  const Float<kN> neg = FloatBits({0x80000001u, 0x80000001u, 0x80000001u, 0x80000001u,
                                   0x80000001u, 0x80000001u, 0x80000001u, 0x80000001u});
  const Float<kN> tiny = Floats({1e-20f, 1e-20f, 1, 1, 1, 1, 1, 1});  // product 1e-40: denormal
  const Float<kN> mixed = FloatBits({5, 0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u,
                                     0x3f800000u, 0x3f800000u, 0x3f800000u});  // denormal, 1s
  Float<kN> sum, nsum, product, scan, min;
  auto run = [&] {
    sum = WaveActiveSum(pos);
    nsum = WaveActiveSum(neg);
    product = WaveActiveProduct(tiny);
    scan = WavePrefixSum(pos);
    min = WaveActiveMin(mixed);
  };
  const float denormal_product = 1e-20f * 1e-20f;
  REQUIRE(std::fpclassify(denormal_product) == FP_SUBNORMAL);
  for (const DeviceProfile& p : {SpecProfile(), LavapipeProfile()}) {
    InWave(p, run);
    CHECK(Bits(sum, 0) == 8u);
    CHECK(Bits(nsum, 0) == 0x80000008u);
    CHECK(Bits(product, 0) == std::bit_cast<uint32_t>(denormal_product));
    CHECK(Bits(scan, 3) == 3u);
    CHECK(Bits(min, 0) == 5u);
  }
  InWave(NvidiaProfile(), run);
  CHECK(Bits(sum, 0) == 0x00000000u);
  CHECK(Bits(nsum, 0) == 0x80000000u);  // -0 + -0 stays -0
  CHECK(Bits(product, 0) == 0x00000000u);
  CHECK(Bits(scan, 3) == 0x00000000u);
  CHECK(Bits(min, 0) == 0x00000000u);  // the denormal compares (and returns) as +0

  // double and half keep denormals under every profile (DXIL flushes fp32 only).
  const Double<kN> dpos(std::bit_cast<double>(uint64_t{1}));
  const Half<kN> hpos(half::FromBits(1));
  Double<kN> dsum;
  Half<kN> hsum;
  InWave(NvidiaProfile(), [&] { dsum = WaveActiveSum(dpos); hsum = WaveActiveSum(hpos); });
  CHECK(Bits(dsum, 0) == 8u);
  CHECK(Bits(hsum, 0) == 8u);
}

// ------------------------------ NanResult

TEST_CASE("NanResult: a NaN result keeps the input payload (quieted) or becomes 0x7fffffff") {
  const Float<kN> quiet = FloatBits({0x3f800000u, 0x40000000u, 0x7fc0beefu, 0x40800000u, 0, 0, 0, 0});
  const Float<kN> signaling = FloatBits({0x3f800000u, 0x40000000u, 0x7f80beefu, 0, 0, 0, 0, 0});
  const float inf = std::numeric_limits<float>::infinity();
  const Float<kN> made = Floats({inf, -inf, 1, 1, 1, 1, 1, 1});  // inf + -inf makes a NaN
  const Double<kN> dquiet(std::array<double, kN>{1, 2, std::bit_cast<double>(0x7ff80000deadbeefull), 4});
  const Half<kN> hquiet(half::FromBits(0x7e5bu));
  Float<kN> sum, ssum, scan, msum, product;
  Double<kN> dsum;
  Half<kN> hsum;
  auto run = [&] {
    sum = WaveActiveSum(quiet);
    ssum = WaveActiveSum(signaling);
    scan = WavePrefixSum(quiet);
    msum = WaveActiveSum(made);
    product = WaveActiveProduct(quiet);
    dsum = WaveActiveSum(dquiet);
    hsum = WaveActiveSum(hquiet);
  };
  for (const DeviceProfile& p : {SpecProfile(), LavapipeProfile()}) {
    InWave(p, run);
    CHECK(Bits(sum, 0) == 0x7fc0beefu);
    CHECK(Bits(ssum, 0) == 0x7fc0beefu);  // signaling NaN comes out quieted
    CHECK(Bits(scan, 2) == 0x40400000u);  // 1 + 2, before the NaN lane
    CHECK(Bits(scan, 3) == 0x7fc0beefu);
    CHECK(std::isnan(msum.lane(0)));      // whatever the CPU's inf - inf gives
    CHECK(Bits(product, 0) == 0x7fc0beefu);
    CHECK(Bits(dsum, 0) == 0x7ff80000deadbeefull);
    CHECK(Bits(hsum, 0) == 0x7e5bu);
  }
  InWave(NvidiaProfile(), run);
  CHECK(Bits(sum, 0) == 0x7fffffffu);
  CHECK(Bits(ssum, 0) == 0x7fffffffu);
  CHECK(Bits(scan, 2) == 0x40400000u);
  CHECK(Bits(scan, 3) == 0x7fffffffu);
  CHECK(Bits(msum, 0) == 0x7fffffffu);
  CHECK(Bits(product, 0) == 0x7fffffffu);
  CHECK(Bits(dsum, 0) == 0x7fffffffffffffffull);
  CHECK(Bits(hsum, 0) == 0x7fffu);
}

// ------------------------------ AllNanMinMax

TEST_CASE("AllNanMinMax: min/max over all-NaN lanes give +-inf, 0x7fffffff, or poison and a "
          "diagnostic") {
  const Float<kN> nans(std::numeric_limits<float>::quiet_NaN());
  const Half<kN> hnans(half::FromBits(0x7e00u));
  const Float<kN> some_nan = FloatBits({0x7fc00000u, 0x40000000u, 0x7fc00000u, 0x3f800000u,
                                        0x7fc00000u, 0x7fc00000u, 0x7fc00000u, 0x7fc00000u});
  Float<kN> min, max, some_min, some_max;
  Half<kN> hmin, hmax;
  auto run = [&] {
    min = WaveActiveMin(nans);
    max = WaveActiveMax(nans);
    hmin = WaveActiveMin(hnans);
    hmax = WaveActiveMax(hnans);
    some_min = WaveActiveMin(some_nan);
    some_max = WaveActiveMax(some_nan);
  };
  DispatchShared lavapipe_log, nvidia_log, spec_log;
  InWave(LavapipeProfile(), run, &lavapipe_log);
  CHECK(Bits(min, 0) == 0x7f800000u);  // +inf
  CHECK(Bits(max, 0) == 0xff800000u);  // -inf
  CHECK(Bits(hmin, 0) == 0x7c00u);
  CHECK(Bits(hmax, 0) == 0xfc00u);
  CHECK(lavapipe_log.diagnostics.count() == 0u);
  InWave(NvidiaProfile(), run, &nvidia_log);
  CHECK(Bits(min, 0) == 0x7fffffffu);
  CHECK(Bits(max, 0) == 0x7fffffffu);
  CHECK(Bits(hmin, 0) == 0x7fffu);
  CHECK(Bits(hmax, 0) == 0x7fffu);
  CHECK(nvidia_log.diagnostics.count() == 0u);
  InWave(SpecProfile(), run, &spec_log);
  CHECK(Bits(min, 0) == std::bit_cast<uint32_t>(Poison<float>()));
  CHECK(Bits(max, 0) == std::bit_cast<uint32_t>(Poison<float>()));
  CHECK(Bits(hmin, 0) == Poison<half>().bits());
  CHECK(spec_log.diagnostics.count() == 4u);  // float and half, min and max
  // NaN lanes are skipped whenever a number is left, in every profile.
  CHECK(some_min.lane(0) == 1.0f);
  CHECK(some_max.lane(0) == 2.0f);
}

TEST_CASE("Min/max pick -0 for min and +0 for max on a zero tie, in either lane order") {
  const Float<kN> a = Floats({0.0f, -0.0f, 0.0f, -0.0f, 1, 1, 1, 1});
  const Float<kN> b = Floats({-0.0f, 0.0f, -0.0f, 0.0f, 1, 1, 1, 1});
  Float<kN> amin, amax, bmin, bmax;
  for (const DeviceProfile& p : {SpecProfile(), LavapipeProfile(), NvidiaProfile()}) {
    InWave(p, [&] {
      amin = WaveActiveMin(a);
      amax = WaveActiveMax(a);
      bmin = WaveActiveMin(b);
      bmax = WaveActiveMax(b);
    });
    CHECK(Bits(amin, 0) == 0x80000000u);
    CHECK(Bits(bmin, 0) == 0x80000000u);
    CHECK(Bits(amax, 0) == 0x3f800000u);  // 1 beats both zeros
    CHECK(Bits(bmax, 0) == 0x3f800000u);
  }
  const Float<kN> za = Floats({0.0f, -0.0f, -0.0f, 0.0f, -0.0f, -0.0f, -0.0f, -0.0f});
  const Float<kN> zb = Floats({-0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, 0.0f});
  for (const DeviceProfile& p : {SpecProfile(), LavapipeProfile(), NvidiaProfile()}) {
    InWave(p, [&] {
      amax = WaveActiveMax(za);
      bmax = WaveActiveMax(zb);
      amin = WaveActiveMin(za);
    });
    CHECK(Bits(amax, 0) == 0x00000000u);
    CHECK(Bits(bmax, 0) == 0x00000000u);
    CHECK(Bits(amin, 0) == 0x80000000u);
  }
}

// ------------------------------ FloatEquality

TEST_CASE("FloatEquality: AllEqual on all-NaN lanes is true bitwise, false ordered") {
  const Float<kN> nans(std::bit_cast<float>(0x7fc00001u));
  const Float<kN> zeros = Floats({0.0f, -0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f});
  const Double<kN> dnans(std::bit_cast<double>(0x7ff8000000000001ull));
  const Half<kN> hzeros(Float<kN>(std::array<float, kN>{0.0f, -0.0f, 0, 0, 0, 0, 0, 0}));
  Bool<kN> nan_eq, zero_eq, dnan_eq, hzero_eq;
  auto run = [&] {
    nan_eq = WaveActiveAllEqual(nans);
    zero_eq = WaveActiveAllEqual(zeros);
    dnan_eq = WaveActiveAllEqual(dnans);
    hzero_eq = WaveActiveAllEqual(hzeros);
  };
  DeviceProfile bitwise = SpecProfile();
  bitwise.float_equality = FloatEquality::kBitwise;
  InWave(bitwise, run);
  CHECK(nan_eq.lane(0));
  CHECK(dnan_eq.lane(0));
  CHECK_FALSE(zero_eq.lane(0));  // +0 and -0 differ in bits
  CHECK_FALSE(hzero_eq.lane(0));
  for (const DeviceProfile& p : {NvidiaProfile(), SpecProfile()}) {
    InWave(p, run);
    CHECK_FALSE(nan_eq.lane(0));
    CHECK_FALSE(dnan_eq.lane(0));
    CHECK(zero_eq.lane(0));  // +0 == -0
    CHECK(hzero_eq.lane(0));
  }
}

TEST_CASE("FloatEquality::kUnorderedWithLast (lavapipe): each lane against the last, NaN equal") {
  // The six cases of tests/pipelines/probe_float_equality, where lavapipe gave 1 1 1 1 0 1.
  const float nan = std::bit_cast<float>(0x7fc00001u), nan2 = std::bit_cast<float>(0x7fc00002u);
  const Float<kN> cases[] = {
      Float<kN>(nan),                                   // the same NaN everywhere
      Floats({0.0f, -0.0f, 0.0f, -0.0f, 0, 0, 0, 0}),   // +0 and -0
      Floats({nan, nan2, nan, nan2, nan, nan2, nan, nan2}),  // NaNs with distinct payloads
      Floats({1, 1, 1, nan, 1, 1, 1, 1}),               // one NaN among ones
      Floats({nan, 1, 2, 3, 4, 5, 6, 7}),               // NaN first, distinct values
      Floats({0, 1, 2, 3, 4, 5, 6, nan}),               // NaN last: everything equals it
  };
  const bool want[] = {true, true, true, true, false, true};
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    Bool<kN> eq;
    InWave(LavapipeProfile(), [&] { eq = WaveActiveAllEqual(cases[i]); });
    CHECK(eq.lane(0) == want[i]);
  }
}

// ------------------------------ user-defined profiles

TEST_CASE("A user-defined profile mixes policies: nvidia's flushing with sequential order") {
  DeviceProfile mine = NvidiaProfile();
  mine.name = "mine";
  mine.reduction_order = ReductionOrder::kSequential;
  mine.nan_result = NanResult::kPropagate;
  const Float<kN> order = Floats({1.0f, 1e8f, -1e8f, 1.0f, 0, 0, 0, 0});
  const Float<kN> denormals = FloatBits({1, 1, 1, 1, 1, 1, 1, 1});
  const Float<kN> nan = FloatBits({0x7fc0beefu, 0, 0, 0, 0, 0, 0, 0});
  Float<kN> a, b, c;
  InWave(mine, [&] {
    a = WaveActiveSum(order);
    b = WaveActiveSum(denormals);
    c = WaveActiveSum(nan);
  });
  CHECK(a.lane(0) == 1.0f);        // sequential, like lavapipe
  CHECK(Bits(b, 0) == 0u);         // flushed, like nvidia
  CHECK(Bits(c, 0) == 0x7fc0beefu);  // payload kept
}

}  // namespace
