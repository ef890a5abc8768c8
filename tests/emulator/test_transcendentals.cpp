// test_transcendentals.cpp -- the fp32 transcendentals under each profile's MathLibrary. kHost
// computes them with the C library in DXC's expansions; kLlvmpipe (the lavapipe profile) as Mesa
// 22.3's llvmpipe does (emulator/llvmpipe_math.h). The device words are copied out of
// tests/golden/lavapipe/probe_transcendentals/ (thread, inputs and slot named beside each), not
// computed by the emulator; test_golden replays the whole probe, and CI's live lavapipe check
// runs it against the driver. The other expectations are worked by hand from the rules.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/one_lane.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>

using namespace waveemu;

namespace {

using test::B;
using test::F;
using test::Under;

}  // namespace

TEST_CASE("lavapipe's transcendentals: the probe's device words") {
  const DeviceProfile lavapipe = LavapipeProfile();
  const Float<1> big(F(0x501502f9u));  // thread 14's A: 1e10, 4/pi * |x| past 2^31
  // sin and cos slots (2, 3): the octant is INT32_MIN, so a value in [-1, 1] that is not the sine.
  CHECK(Under(lavapipe, [&] { return sin(big); }) == 0xbf800000u);
  CHECK(Under(lavapipe, [&] { return cos(big); }) == 0x3f800000u);
  // exp2 slot 0, thread 12: -126.5 is below exp2's bottom, so +0 (not the denormal 2^-126.5).
  CHECK(Under(lavapipe, [&] { return exp2(Float<1>(F(0xc2fd0000u))); }) == 0x00000000u);
  // log2 slot 1, thread 7: a denormal's exponent field reads as -127 (-126.99...).
  CHECK(Under(lavapipe, [&] { return log2(Float<1>(F(0x00012345u))); }) == 0xc2fdf977u);
  // atan2 slot 12, thread 0: atan2(0, 0) is pi/2 + atan(1), about 3pi/4.
  CHECK(Under(lavapipe, [&] { return atan2(Float<1>(0.0f), Float<1>(0.0f)); }) == 0x4016cbd6u);
  // Slots 13-21, thread 7's B, a signalling NaN: tanh returns it as it is, asin quieted.
  CHECK(Under(lavapipe, [&] { return tanh(Float<1>(F(0x7fa01234u))); }) == 0x7fa01234u);
  CHECK(Under(lavapipe, [&] { return asin(Float<1>(F(0x7fa01234u))); }) == 0x7fe01234u);
  // Thread 20: pow(b, 4.0) (slot 18) and pow(2.0, y) (slot 19), rewritten by NIR.
  const Float<1> b(F(0x3f1c559fu)), y(F(0x408b17c3u));
  CHECK(Under(lavapipe, [&] { return pow(b, 4.0f); }) == 0x3e0e6a83u);
  CHECK(Under(lavapipe, [&] { return pow(2.0f, y); }) == 0x41a2c3f4u);
  // Threads 62 and 63, where a slip in the model changes the word: sin(A) slot 2 (the third
  // reduction step fused), atan(A) slot 11 (x^11 * c as (x^9 * c) * x^2), asin(B) slot 9 (a
  // negative NaN's sign cleared; the small series rounded step by step).
  CHECK(Under(lavapipe, [] { return sin(Float<1>(F(0xccb27f93u))); }) == 0x3d9b7fd0u);
  CHECK(Under(lavapipe, [] { return atan(Float<1>(F(0x3f7ff5ceu))); }) == 0x3f490a8bu);
  CHECK(Under(lavapipe, [] { return asin(Float<1>(F(0xffc00000u))); }) == 0x7fc00000u);
  CHECK(Under(lavapipe, [] { return asin(Float<1>(F(0x3efff0f0u))); }) == 0x3f0601e0u);
  // Slot 0 and 2, threads 20 and 40: ordinary values.
  CHECK(Under(lavapipe, [&] { return exp2(Float<1>(F(0x41ce2418u))); }) == 0x4c59ea54u);
  CHECK(Under(lavapipe, [&] { return sin(Float<1>(F(0x4078821bu))); }) == 0xbf2cdf59u);
}

TEST_CASE("lavapipe's transcendentals: hand-worked rules, and the host library elsewhere") {
  const DeviceProfile lavapipe = LavapipeProfile(), spec = SpecProfile(), nvidia = NvidiaProfile();
  const float kNaN = F(0x7fc00000u);
  // exp2 of an integer is 2^k times the polynomial at 0, which is 1; log2 of a power of two is
  // its exponent (y = 0). Exact on every profile.
  for (const DeviceProfile& p : {lavapipe, spec}) {
    CHECK(Under(p, [] { return exp2(Float<1>(3.0f)); }) == B(8.0f));
    CHECK(Under(p, [] { return log2(Float<1>(0.25f)); }) == B(-2.0f));
  }
  // Below -126 lavapipe's exp2 is +0; the C library gives the denormal 2^-130.
  CHECK(Under(lavapipe, [] { return exp2(Float<1>(-130.0f)); }) == 0u);
  CHECK(Under(spec, [] { return exp2(Float<1>(-130.0f)); }) == B(std::ldexp(1.0f, -130)));
  // pow is +0 where x is 0 or NaN on lavapipe (an unordered compare after exp2(log2(x) * y)):
  // pow(0, -1) and pow(NaN, 0). DXC's expansion gives exp2(+inf) = inf and exp2(NaN) = NaN.
  CHECK(Under(lavapipe, [] { return pow(Float<1>(0.0f), Float<1>(-1.0f)); }) == 0u);
  CHECK(Under(lavapipe, [&] { return pow(Float<1>(kNaN), Float<1>(0.0f)); }) == 0u);
  CHECK(Under(spec, [] { return pow(Float<1>(0.0f), Float<1>(-1.0f)); }) == 0x7f800000u);
  // NIR rewrites pow(x, 1) to x: no exp2(log2(x)) rounding, and a negative x is not NaN.
  CHECK(Under(lavapipe, [] { return pow(Float<1>(-3.0f), 1.0f); }) == B(-3.0f));
  CHECK(std::isnan(F(Under(spec, [] { return pow(Float<1>(-3.0f), 1.0f); }))));
  // atan(NaN) is x's sign (+0 for a NaN) times a finite polynomial: +0. The host gives NaN.
  CHECK(Under(lavapipe, [&] { return atan(Float<1>(kNaN)); }) == 0u);
  CHECK(std::isnan(F(Under(spec, [&] { return atan(Float<1>(kNaN)); }))));
  // atan2(0, 0): lavapipe rotates the half-plane (pi/2 + atan(1), near 3pi/4); DXC's expansion
  // gives pi/2.
  const float quarter3 = F(Under(lavapipe, [] { return atan2(Float<1>(0.0f), Float<1>(0.0f)); }));
  CHECK(std::fabs(quarter3 - float(3 * std::numbers::pi / 4)) < 1e-5f);
  CHECK(Under(spec, [] { return atan2(Float<1>(0.0f), Float<1>(0.0f)); }) ==
        B(float(std::numbers::pi / 2)));
  // Past 2^31 / (4/pi) the sine is not reduced on lavapipe; the host library reduces it: 1e10 is
  // exact in float, and sin(10^10) = -0.48750602508751... The H100 reads a fraction of a turn
  // that is 0 past 2^23 turns (probe_special_functions slot 6, thread 12; test_h100_math.cpp).
  const Float<1> big(1e10f);
  constexpr float kSin1e10 = -0.48750602508751f;
  CHECK(F(Under(spec, [&] { return sin(big); })) == doctest::Approx(kSin1e10).epsilon(1e-6));
  CHECK(Under(nvidia, [&] { return sin(big); }) == 0u);
  CHECK(std::fabs(F(Under(lavapipe, [&] { return sin(big); })) - kSin1e10) > 0.5f);
  // tanh(-0) is x itself; sinh of a NaN is e^x's NaN (x quieted), cosh e^-x's (the sign flipped:
  // probe_transcendentals slot 14, thread 7, 0x7fa01234 gives 0xffe01234).
  CHECK(Under(lavapipe, [] { return tanh(Float<1>(-0.0f)); }) == 0x80000000u);
  CHECK(Under(lavapipe, [] { return sinh(Float<1>(F(0xffa01234u))); }) == 0xffe01234u);
  CHECK(Under(lavapipe, [] { return cosh(Float<1>(F(0xffa01234u))); }) == 0x7fe01234u);
  CHECK(Under(lavapipe, [] { return cosh(Float<1>(F(0x7fa01234u))); }) == 0xffe01234u);
}

TEST_CASE("pow(x, 4.0) is (x * x) * (x * x) on both devices, DXC's expansion under spec") {
  // Run 17 (docs/gpu_runs/2026-11-23-h100-run17/): probe_transcendentals slot 18 on the H100,
  // threads 8 and 9; a negative base is a number there, not exp2(log2(x) * 4)'s NaN.
  const Float<1> b8(F(0x3f31e663u)), b9(F(0xbf2b6f04u));
  CHECK(Under(NvidiaProfile(), [&] { return pow(b8, 4.0f); }) == 0x3e6ece12u);
  CHECK(Under(NvidiaProfile(), [&] { return pow(b9, 4.0f); }) == 0x3e4deeaau);
  CHECK(std::isnan(F(Under(SpecProfile(), [&] { return pow(b9, 4.0f); }))));
  // The same rewrite on lavapipe, worked by hand: (-2 * -2) * (-2 * -2) = 16.
  CHECK(Under(LavapipeProfile(), [] { return pow(Float<1>(-2.0f), 4.0f); }) == B(16.0f));
}

TEST_CASE("half keeps the host library under every profile") {
  // pow(0, -1) in half: exp2(log2(0) * -1) = inf; lavapipe's fp32 rule would give +0.
  half r{};
  test::RunGroup<1>(1, [&] {
    r = pow(Lanes<half, 1>(half(0.0f)), Lanes<half, 1>(half(-1.0f))).lane(0);
  }, LavapipeProfile());
  CHECK(std::isinf(float(r)));
}

TEST_CASE("uniform and vector arguments follow the profile too") {
  // A plain float (uniform) and a float2: sin(1e10) is -1 on lavapipe in each form. Beside
  // <math.h>, an unqualified sin(1e10f) is ambiguous (compile_fail/cmath_sin_on_uniform_float).
  float uniform = 0;
  Float2<1> vector{};
  test::RunGroup<1>(1, [&] {
    uniform = waveemu::sin(1e10f);
    vector = sin(Float2<1>(1e10f, 0.0f));
  }, LavapipeProfile());
  CHECK(B(uniform) == 0xbf800000u);
  CHECK(B(vector.x.lane(0)) == 0xbf800000u);
  CHECK(B(vector.y.lane(0)) == 0u);
}
