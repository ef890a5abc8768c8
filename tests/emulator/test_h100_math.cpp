// test_h100_math.cpp -- the nvidia profile's fp32 exp2, log2, sin and cos (MathLibrary::kH100:
// the H100's special-function unit, emulator/nvidia_tables.h) and what the H100's compiler builds
// on them. Every expected word is the H100's, recorded through Vulkan in runs 18 and 19
// (docs/gpu_runs/2026-11-23-h100-run18/, -run19/), not computed by the emulator: 2048 threads per
// function of their measurement pipelines (data/h100_run18_words.bin, h100_run19_words.bin;
// extract_test_words.py in each run), and the probe words named below
// (tests/golden/nvidia/probe_special_functions/, which test_golden replays whole). Run 18 also
// held the model of the four to every fp32 bit pattern on the device.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/one_lane.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace waveemu;

namespace {

using test::B;
using test::F;
using test::Under;

/// One record of data/h100_run*_words.bin: x, y (pow's exponent) and the device's result.
struct Record {
  uint32_t x, y, result;
};

std::vector<Record> ReadRecords(const char* file) {
  const auto path = std::filesystem::path(__FILE__).parent_path() / "data" / file;
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing ", path.string());
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Record> records(bytes.size() / sizeof(Record));
  REQUIRE(records.size() * sizeof(Record) == bytes.size());
  std::memcpy(records.data(), bytes.data(), bytes.size());
  return records;
}

}  // namespace

TEST_CASE("the nvidia profile's special functions reproduce the H100's words of runs 18 and 19") {
  std::vector<Record> records = ReadRecords("h100_run18_words.bin");
  const std::vector<Record> run19 = ReadRecords("h100_run19_words.bin");
  records.insert(records.end(), run19.begin(), run19.end());
  constexpr int kPerFunction = 2048, kLanes = 64;
  const char* const names[] = {"exp2", "exp",   "sin", "cos",  "log2", "log",
                               "log10", "pow", "tan", "sinh", "cosh", "tanh"};
  REQUIRE(records.size() == std::size(names) * kPerFunction);
  for (int f = 0; f < int(std::size(names)); ++f) {
    int differ = 0;
    for (int base = 0; base < kPerFunction; base += kLanes) {
      const Record* r = &records[size_t(f) * kPerFunction + size_t(base)];
      Float<kLanes> x, y, got;
      for (int t = 0; t < kLanes; ++t) {
        x.set_lane(t, F(r[t].x));
        y.set_lane(t, F(r[t].y));
      }
      test::RunGroup<kLanes>(32, [&] {
        switch (f) {
          case 0: got = exp2(x); break;
          case 1: got = exp(x); break;
          case 2: got = sin(x); break;
          case 3: got = cos(x); break;
          case 4: got = log2(x); break;
          case 5: got = log(x); break;
          case 6: got = log10(x); break;
          case 7: got = pow(x, y); break;
          case 8: got = tan(x); break;
          case 9: got = sinh(x); break;
          case 10: got = cosh(x); break;
          default: got = tanh(x); break;
        }
      }, NvidiaProfile());
      for (int t = 0; t < kLanes; ++t) {
        if (B(got.lane(t)) == r[t].result) continue;
        if (++differ <= 4)
          FAIL_CHECK(names[f], "(0x", std::hex, r[t].x, ", 0x", r[t].y, "): device 0x",
                     r[t].result, ", emulator 0x", B(got.lane(t)));
      }
    }
    INFO(names[f]);
    CHECK(differ == 0);
  }
  // The words are not the C library's: the spec profile misses many of them.
  int spec_differs = 0;
  for (int base = 0; base < kPerFunction; base += kLanes) {
    Float<kLanes> x, got;
    for (int t = 0; t < kLanes; ++t) x.set_lane(t, F(records[size_t(base + t)].x));
    test::RunGroup<kLanes>(32, [&] { got = exp2(x); }, SpecProfile());
    for (int t = 0; t < kLanes; ++t)
      spec_differs += B(got.lane(t)) != records[size_t(base + t)].result;
  }
  CHECK(spec_differs > kPerFunction / 4);
}

TEST_CASE("the H100's exp2: fixed point with 23 fraction bits, negative fractions complemented") {
  const DeviceProfile nvidia = NvidiaProfile();
  auto exp2_of = [&](uint32_t x) { return Under(nvidia, [&] { return exp2(Float<1>(F(x))); }); };
  // probe_special_functions slot 0 (threads named): below 2^-23 in magnitude the fraction is 0,
  // so 1.0 for either sign (18, 19, and 23: -1.11e-7 is -0.93 * 2^-23).
  CHECK(exp2_of(0x322bcc77u) == 0x3f800000u);
  CHECK(exp2_of(0xb22bcc77u) == 0x3f800000u);
  CHECK(exp2_of(0xb3ee9ac0u) == 0x3f800000u);
  // +-2^-23 (20, 21): one step up gives 1 + 2^-23; one step down is read at 1 - 2 * 2^-23 (the
  // ones' complement of the step), half of 2^(1 - 2^-22), two ulps below 1.
  CHECK(exp2_of(0x34000000u) == 0x3f800001u);
  CHECK(exp2_of(0xb4000000u) == 0x3f7ffffeu);
  // -0.5937247 (25): one ulp below the correctly rounded 0x3f29a21e.
  CHECK(exp2_of(0xbf17fe58u) == 0x3f29a21du);
  // 128 overflows (12), -126 is the smallest normal (14), -126.5 is flushed to +0 (15); a NaN
  // gives 0x7fffffff whatever its payload (4, 5).
  CHECK(exp2_of(0x43000000u) == 0x7f800000u);
  CHECK(exp2_of(0xc2fc0000u) == 0x00800000u);
  CHECK(exp2_of(0xc2fd0000u) == 0x00000000u);
  CHECK(exp2_of(0x7fa01234u) == 0x7fffffffu);
  // An integer is exact (the table's 2^0 is 1), as in the C library: worked by hand.
  CHECK(exp2_of(B(3.0f)) == B(8.0f));
  CHECK(exp2_of(B(-3.0f)) == B(0.125f));
}

TEST_CASE("the H100's log2: e + log2(m) rounded toward zero, e + 1 + log2(m / 2) below 1") {
  const DeviceProfile nvidia = NvidiaProfile();
  auto log2_of = [&](uint32_t x) { return Under(nvidia, [&] { return log2(Float<1>(F(x))); }); };
  // probe_special_functions slot 2: log2(1) = 0 (thread 0), but the table's log2 at 0.5 is
  // -(1 - 2^-23) (1), and so log2(0.25) = -1 + that = -(2 - 2^-23) (2); the C library gives -1
  // and -2 exactly.
  CHECK(log2_of(0x3f800000u) == 0x00000000u);
  CHECK(log2_of(0x3f000000u) == 0xbf7ffffeu);
  CHECK(log2_of(0x3e800000u) == 0xbfffffffu);
  CHECK(Under(SpecProfile(), [] { return log2(Float<1>(0.25f)); }) == B(-2.0f));
  // The floats beside 1 (5, 6): fixed-point steps, not the C library's 1.72e-7 and -8.6e-8.
  CHECK(log2_of(0x3f800001u) == 0x3495f600u);
  CHECK(log2_of(0x3f7fffffu) == 0xb24b4000u);
  // Powers of two at or above 1 are exact: e + log2(1) = e (worked by hand).
  CHECK(log2_of(B(1024.0f)) == B(10.0f));
  // A denormal is flushed: -inf (16), as 0 (17); a negative operand gives 0x7fffffff (19).
  CHECK(log2_of(0x00012345u) == 0xff800000u);
  CHECK(log2_of(0x00000000u) == 0xff800000u);
  CHECK(log2_of(0xbf800000u) == 0x7fffffffu);
}

TEST_CASE("the H100's sin and cos: x / 2pi toward zero, 2^-25 of a turn, quadrant symmetry") {
  const DeviceProfile nvidia = NvidiaProfile();
  auto sin_of = [&](uint32_t x) { return Under(nvidia, [&] { return sin(Float<1>(F(x))); }); };
  auto cos_of = [&](uint32_t x) { return Under(nvidia, [&] { return cos(Float<1>(F(x))); }); };
  // probe_special_functions slot 6: 1e-7 is 0.5 of a 2^-25 step: 0 (thread 2); -3.11e-7 is 1.66
  // steps: minus the first step, -sin(2pi * 2^-25) (3); 8.02e-7 is 4.28 steps: sin(2pi * 2^-23) (4).
  CHECK(sin_of(0x33d6bf95u) == 0x00000000u);
  CHECK(sin_of(0xb4a733d7u) == 0xb4491200u);
  CHECK(sin_of(0x35573961u) == 0x35491200u);
  CHECK(sin_of(0x80000000u) == 0x80000000u);  // -0 keeps its sign (1)
  // pi/2 and pi (5, 6): 1 and 0 exactly.
  CHECK(sin_of(0x3fc90fdbu) == 0x3f800000u);
  CHECK(sin_of(0x40490fdbu) == 0x00000000u);
  // 1e10 / 2pi is past 2^23 turns, so its fraction is 0: sin 0 (12), cos 1 (slot 7).
  CHECK(sin_of(0x501502f9u) == 0x00000000u);
  CHECK(cos_of(0x501502f9u) == 0x3f800000u);
  CHECK(cos_of(0x33d6bf95u) == 0x3f800000u);
  // tan(pi/2) (slot 8, thread 5): sin 1 over cos +0 is +inf.
  CHECK(Under(nvidia, [] { return tan(Float<1>(F(0x3fc90fdbu))); }) == 0x7f800000u);
}

TEST_CASE("sinh, cosh and tanh at their edges, and half keeps the host library") {
  const DeviceProfile nvidia = NvidiaProfile();
  // probe_special_functions slots 9 and 10 (threads 9, 10): sinh(88) = (e^88 - e^-88) * 0.5;
  // cosh(90) overflows in e^90 (the C library's cosh(90) overflows too, but through 2^128).
  CHECK(Under(nvidia, [] { return sinh(Float<1>(88.0f)); }) == 0x7e788299u);
  CHECK(Under(nvidia, [] { return cosh(Float<1>(90.0f)); }) == 0x7f800000u);
  // tanh (slot 11): 1 from 9.01 on with x's sign (thread 11, -88), -0 stays -0 (thread 1), a NaN
  // gives 0x7fffffff (thread 2).
  CHECK(Under(nvidia, [] { return tanh(Float<1>(-88.0f)); }) == B(-1.0f));
  CHECK(Under(nvidia, [] { return tanh(Float<1>(-0.0f)); }) == 0x80000000u);
  CHECK(Under(nvidia, [] { return tanh(Float<1>(F(0x7fc00000u))); }) == 0x7fffffffu);
  // half stays on the host library: sin(2^-23) is 2^-23 (a half denormal, kept), where the
  // H100's fp32 sin reads less than one 2^-25 step of a turn and gives 0 (worked by hand).
  half r{};
  const half tiny(std::ldexp(1.0f, -23));
  test::RunGroup<1>(1, [&] { r = sin(Lanes<half, 1>(tiny)).lane(0); }, nvidia);
  CHECK(float(r) == std::ldexp(1.0f, -23));
  CHECK(Under(nvidia, [] { return sin(Float<1>(std::ldexp(1.0f, -23))); }) == 0u);
}
