// test_format.cpp -- UNORM8, sRGB and half conversions at their exact boundaries. Expected values
// are worked by hand or computed here from the spec's formula (semantics.md §4.2).
#include "emulator/format.h"
#include "emulator/texture.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace waveemu;

namespace {

/// The float f nearest (k + 0.5) / 255 whose float product f * 255 is exactly k + 0.5, if any.
bool FindHalfwayFloat(int k, float& found) {
  float f = float((k + 0.5) / 255.0);
  for (int step = 0; step < 8; ++step) f = std::nextafter(f, 0.0f);
  for (int step = 0; step < 16; ++step, f = std::nextafter(f, 2.0f)) {
    if (f * 255.0f == float(k) + 0.5f) {
      found = f;
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("UNORM8 to float is c/255 with 0 and 255 exactly 0 and 1") {
  CHECK(UnormToFloat(0) == 0.0f);
  CHECK(UnormToFloat(255) == 1.0f);
  CHECK(UnormToFloat(51) == 0.2f);  // 51/255 = 0.2 exactly in reals; 0.2f is its nearest float
  for (int c = 0; c < 256; ++c) {
    // Correct rounding: no float lies closer to c/255 than the result.
    const double exact = c / 255.0;
    const float r = UnormToFloat(uint8_t(c));
    CHECK(std::abs(double(r) - exact) <= std::abs(double(std::nextafter(r, 2.0f)) - exact));
    CHECK(std::abs(double(r) - exact) <= std::abs(double(std::nextafter(r, -1.0f)) - exact));
  }
}

TEST_CASE("float to UNORM8 maps NaN to 0, clamps, and rounds half up by default") {
  CHECK(FloatToUnorm8(std::numeric_limits<float>::quiet_NaN()) == 0);
  CHECK(FloatToUnorm8(-1.0f) == 0);
  CHECK(FloatToUnorm8(-0.0f) == 0);
  CHECK(FloatToUnorm8(2.0f) == 255);
  CHECK(FloatToUnorm8(std::numeric_limits<float>::infinity()) == 255);
  CHECK(FloatToUnorm8(1.0f) == 255);
  CHECK(FloatToUnorm8(0.0f) == 0);
  for (int c = 0; c < 256; ++c) CHECK(FloatToUnorm8(UnormToFloat(uint8_t(c))) == c);  // round trip
}

TEST_CASE("float to UNORM8 exactly halfway: half up gives k+1, nearest-even gives the even one") {
  int tested = 0;
  for (int k : {0, 1, 2, 100, 127, 253, 254}) {
    float f;
    if (!FindHalfwayFloat(k, f)) continue;
    ++tested;
    INFO("k = " << k << ", f = " << f);
    CHECK(FloatToUnorm8(f, UnormRounding::kHalfUp) == k + 1);
    CHECK(FloatToUnorm8(f, UnormRounding::kNearestEven) == (k % 2 == 0 ? k : k + 1));
    // A few floats either side is no longer a tie (one step of f may round to the same product).
    float below = f, above = f;
    for (int i = 0; i < 4; ++i) below = std::nextafter(below, 0.0f), above = std::nextafter(above, 2.0f);
    CHECK(FloatToUnorm8(below, UnormRounding::kHalfUp) == k);
    CHECK(FloatToUnorm8(above, UnormRounding::kNearestEven) == k + 1);
  }
  CHECK(tested >= 3);  // the search must find real ties, or this test proves nothing
}

TEST_CASE("sRGB decode follows the piecewise curve, linear up to code 10, with exact ends") {
  CHECK(SrgbToFloat(0) == 0.0f);
  CHECK(SrgbToFloat(255) == 1.0f);
  // Code 10: 10/255 = 0.0392 <= 0.04045, linear segment: 10 / 255 / 12.92.
  CHECK(SrgbToFloat(10) == float(10.0 / 255.0 / 12.92));
  // Code 11: 0.0431 > 0.04045, power segment.
  CHECK(SrgbToFloat(11) == float(std::pow((11.0 / 255.0 + 0.055) / 1.055, 2.4)));
  // Code 188 is about 0.5 linear (hand: ((188/255 + 0.055)/1.055)^2.4 = 0.5029).
  CHECK(SrgbToFloat(188) == doctest::Approx(0.5029).epsilon(1e-3));
  for (int c = 1; c < 256; ++c) CHECK(SrgbToFloat(uint8_t(c)) > SrgbToFloat(uint8_t(c - 1)));
}

TEST_CASE("sRGB encode is the inverse of decode on every code and clamps like UNORM") {
  for (int c = 0; c < 256; ++c) CHECK(FloatToSrgb8(SrgbToFloat(uint8_t(c))) == c);
  CHECK(FloatToSrgb8(std::numeric_limits<float>::quiet_NaN()) == 0);
  CHECK(FloatToSrgb8(-0.5f) == 0);
  CHECK(FloatToSrgb8(7.0f) == 255);
  // Linear 0.5 -> sRGB 1.055 * 0.5^(1/2.4) - 0.055 = 0.735357, * 255 = 187.52 -> 188.
  CHECK(FloatToSrgb8(0.5f) == 188);
  // Linear 0.0031308 is the knee: 12.92 * 0.0031308 = 0.04045, * 255 = 10.31 -> 10.
  CHECK(FloatToSrgb8(0.0031308f) == 10);
}

TEST_CASE("float to half rounds toward zero or to nearest even as the model says") {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10 in half.
  const float tie = 1.0f + std::ldexp(1.0f, -11);
  CHECK(FloatToHalfBits(tie, HalfRounding::kNearestEven) == 0x3C00);
  CHECK(FloatToHalfBits(tie, HalfRounding::kTowardZero) == 0x3C00);
  const float above = 1.0f + 3 * std::ldexp(1.0f, -12);  // 1.00073: nearest is 1 + 2^-10
  CHECK(FloatToHalfBits(above, HalfRounding::kNearestEven) == 0x3C01);
  CHECK(FloatToHalfBits(above, HalfRounding::kTowardZero) == 0x3C00);
  CHECK(FloatToHalfBits(-above, HalfRounding::kTowardZero) == 0xBC00);
  CHECK(FloatToHalfBits(1e6f, HalfRounding::kTowardZero) == 0x7BFF);  // overflow: max finite
  CHECK(FloatToHalfBits(std::ldexp(1.0f, -24), HalfRounding::kTowardZero) == 0x0001);  // denormal
  CHECK(HalfBitsToFloat(0x3C01) == 1.0f + std::ldexp(1.0f, -10));
}

// ------------------------------ kFixed12HalfDown (NVIDIA H100, H100 run 5)
// Inputs and codes recorded by probe_sampler_precision on the H100
// (docs/gpu_runs/2026-11-21-h100-run5/golden/probe_sampler_precision): the expected code is worked
// by hand as floor(x·4096)·255/4096, ties down.
TEST_CASE("H100 UNORM8 stores truncate x to 12 fraction bits before scaling, so values just above a tie store the lower code") {
  struct Case {
    float x;
    int device_code;  // what the H100 stored
  };
  const Case cases[] = {
      {0x1.0p-1f, 127},         // 2048·255/4096 = 127.5: tie, down
      {0x1.00002p-1f, 127},     // 0.5 + 2^-19: still 2048/4096
      {0x1.0002p-1f, 127},      // 0.5 + 2^-17 (the mip generator's 0.50000763): 2048
      {0x1.000202p-1f, 127},    // fl(x·255) = 127.5039, yet floor(x·4096) = 2048: tie, down
      {0x1.00202p-1f, 128},     // floor(x·4096) = 2049: 127.56 -> 128
      {0x1.819192p-8f, 1},      // floor(24.098) = 24: 1.494 -> 1
      {0x1.929414p-1f, 200},    // floor(3220.6) = 3220: 200.46 -> 200
      {0x1.ff1f2p-1f, 255},     // floor(4088.97) = 4088: 254.502 -> 255
  };
  for (const Case& c : cases) {
    INFO("x = " << c.x);
    const double q = std::floor(double(c.x) * 4096.0);
    const double hand = std::ceil(q * 255.0 / 4096.0 - 0.5);
    CHECK(FloatToUnorm8(c.x, UnormRounding::kFixed12HalfDown) == c.device_code);
    CHECK(hand == c.device_code);
  }
  CHECK(FloatToUnorm8(1.0f, UnormRounding::kFixed12HalfDown) == 255);
  CHECK(FloatToUnorm8(-0.25f, UnormRounding::kFixed12HalfDown) == 0);
  CHECK(FloatToUnorm8(std::numeric_limits<float>::quiet_NaN(), UnormRounding::kFixed12HalfDown) == 0);
  // The plain half-down rule on fl(x·255) stores 128 here: the truncation is what differs.
  CHECK(FloatToUnorm8(0x1.000202p-1f, UnormRounding::kHalfDown) == 128);
}

// ------------------------------ RoundToHalfTiesAway
TEST_CASE("rounding a float to the nearest half value sends ties away from zero, subnormals included") {
  // Hand-worked: halves in [4, 8) are 2^-8 apart, in [64, 128) 2^-4, below 2^-14 2^-24.
  CHECK(RoundToHalfTiesAway(0x1.0e8p+2f + 0x1.0p-9f) == 0x1.0ecp+2f);   // tie: away
  CHECK(RoundToHalfTiesAway(-(0x1.0e8p+2f + 0x1.0p-9f)) == -0x1.0ecp+2f);
  CHECK(RoundToHalfTiesAway(4.2269134521484375f) == 4.2265625f);        // H100 run 5, thread 1
  CHECK(RoundToHalfTiesAway(123.08467864990234f) == 123.0625f);
  CHECK(RoundToHalfTiesAway(4.634726792573929e-06f) == 78.0f * 0x1.0p-24f);  // subnormal half
  CHECK(RoundToHalfTiesAway(0.5f * 0x1.0p-24f) == 0x1.0p-24f);           // the smallest tie
  CHECK(RoundToHalfTiesAway(0.0f) == 0.0f);
  CHECK(std::isinf(RoundToHalfTiesAway(65520.0f)));
  CHECK(RoundToHalfTiesAway(65504.0f) == 65504.0f);
}

// ------------------------------ HalfTapSum (HalfFilter::kHalfResult)
TEST_CASE("H100 half-texture filtering cuts the taps to 2^(E-14) below the largest before summing") {
  // probe_sampler_precision, g channel, weights U = 222, V = 14 (split: 32, 210, 2, 12); the H100
  // returned 14.7109375 (docs/gpu_runs/2026-11-21-h100-run5). By hand: E = 6 (124.125), grid
  // 2^-8; -0.82275390625 -> -0.8203125 (-210.6 -> -210), -0.02093505859375 -> -0.01953125;
  // 124.125·32 - 0.8203125·210 - 17.25·2 - 0.01953125·12 = 3765, / 256 = 14.70703125, a tie
  // between halves 2^-7 apart: away -> 14.7109375. The uncut exact sum, 14.70705..., gives 14.703125.
  const std::array<float, 4> taps{124.125f, -0.82275390625f, -17.25f, -0.02093505859375f};
  const auto k = texture_detail::SplitWeights(222, 14, 8);
  CHECK(k == std::array<int64_t, 4>{32, 210, 2, 12});
  CHECK(texture_detail::HalfTapSum(taps, k, 8).value() == 14.7109375f);
  // U = V = 0: only the first tap has a weight, and comes back whole.
  CHECK(texture_detail::HalfTapSum(taps, texture_detail::SplitWeights(0, 0, 8), 8).value() == 124.125f);
  CHECK(!texture_detail::HalfTapSum({INFINITY, 0, 0, 0}, k, 8).has_value());
}
