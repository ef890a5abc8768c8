// test_divide_sqrt.cpp -- fp32 division, rcp, sqrt and rsqrt under DivideSqrt, and normalize
// and length of a float3 under FunctionExpansion. Expected values are the devices' own words: the H100's from
// run 11's records and run 12's probe_division bytes (docs/gpu_runs/2026-11-23-h100-run11/,
// -run12/), worked out of those files by hand, not by the emulator's code; lavapipe's are IEEE's.
// test_golden replays probe_division in full, and run 11's README says how all 100 million
// recorded words were compared.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>

using namespace waveemu;

namespace {

float FromBits(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

struct Case {
  const char* what;
  uint32_t a, b;    // operands (b unused by the unary functions)
  uint32_t h100;    // the device's word
  uint32_t ieee;    // the correctly rounded word (lavapipe's for / rcp sqrt; see each table)
};

enum class Op { kDivide, kRcp, kSqrt, kRsqrt };

uint32_t Apply(Op op, uint32_t a, uint32_t b, const DeviceProfile& profile) {
  uint32_t out = 0;
  test::RunGroup<1>(1, [&] {
    const Float<1> x(FromBits(a)), y(FromBits(b));
    Float<1> r;
    switch (op) {
      case Op::kDivide: r = x / y; break;
      case Op::kRcp: r = rcp(x); break;
      case Op::kSqrt: r = sqrt(x); break;
      case Op::kRsqrt: r = rsqrt(x); break;
    }
    out = Bits(r.lane(0));
  }, profile);
  return out;
}

void CheckTable(Op op, const Case* cases, int count, bool lavapipe_too) {
  for (int i = 0; i < count; ++i) {
    const Case& c = cases[i];
    INFO(fmt::format("{}: a 0x{:08x} b 0x{:08x}", c.what, c.a, c.b));
    CHECK(fmt::format("{:08x}", Apply(op, c.a, c.b, NvidiaProfile())) ==
          fmt::format("{:08x}", c.h100));
    if (lavapipe_too)
      CHECK(fmt::format("{:08x}", Apply(op, c.a, c.b, LavapipeProfile())) ==
            fmt::format("{:08x}", c.ieee));
  }
}

}  // namespace

TEST_CASE("H100 rcp, sqrt and rsqrt: entries where the device is not correctly rounded") {
  // Run 11: thread words of Rcp, Sqrt and Rsqrt whose device value differs from IEEE's.
  const Case rcp_cases[] = {
      {"rcp one ulp up", 0x3faf7e35u, 0, 0x3f3ab83fu, 0x3f3ab83eu},
      {"rcp one ulp down", 0x3f96a541u, 0, 0x3f59846au, 0x3f59846bu},
      {"rcp scaled by 2^-100", 0x0daf7e35u, 0, 0x713ab83fu, 0x713ab83eu},
      {"rcp negative", 0xbfaf7e35u, 0, 0xbf3ab83fu, 0xbf3ab83eu},
  };
  CheckTable(Op::kRcp, rcp_cases, 4, true);
  const Case sqrt_cases[] = {
      {"sqrt one ulp up", 0x3ff3fe25u, 0, 0x3fb0b921u, 0x3fb0b920u},
      {"sqrt one ulp down", 0x3fd54526u, 0, 0x3fa53909u, 0x3fa5390au},
      {"sqrt scaled by 4^-36", 0x1bf3fe25u, 0, 0x2db0b921u, 0x2db0b920u},
  };
  CheckTable(Op::kSqrt, sqrt_cases, 3, true);
  // lavapipe's rsqrt is 1 / sqrt(x), two roundings (run 11, every float of [1, 4)).
  const Case rsqrt_cases[] = {
      {"rsqrt one ulp up", 0x3fd3a7ccu, 0, 0x3f4714c9u, 0},
      {"rsqrt one ulp down", 0x3fc34dd5u, 0, 0x3f4f3f5du, 0},
      {"rsqrt two ulps down (one of 8 such significands)", 0x3f8200b8u, 0, 0x3f7e0537u, 0},
      {"rsqrt scaled by 4^10", 0x49d3a7ccu, 0, 0x3a4714c9u, 0},
  };
  CheckTable(Op::kRsqrt, rsqrt_cases, 4, false);
}

TEST_CASE("H100 division is a * rcp(b), rounded once") {
  // Run 11's DivQ words that differ from IEEE division by one ulp, then probe_division's edges
  // (run 12): a reciprocal below 2^-126 flushes, so FLT_MAX * (1 / 2^127*1.5) is 0, and
  // 2^-126 / 28 is a denormal, flushed.
  const Case cases[] = {
      {"run 11 pair 1", 0x3a505634u, 0x3f692f6cu, 0x3a64b866u, 0x3a64b867u},
      {"run 11 pair 2", 0xb6c6cb39u, 0xc3fa056du, 0x324b8c33u, 0x324b8c32u},
      {"run 11 pair 3", 0xc4aab42du, 0x40d82737u, 0xc34a2c18u, 0xc34a2c19u},
      {"average_position's 4.5 / 28 (runs 1-6: the H100's 0x3e24924a)", 0x40900000u, 0x41e00000u,
       0x3e24924au, 0x3e249249u},
      {"FLT_MAX / 3", 0x7f7fffffu, 0x40400000u, 0x7eaaaaaau, 0x7eaaaaaau},
      {"2^-126 / 28 flushes", 0x00800000u, 0x41e00000u, 0x00000000u, 0x00049249u},
      {"1 / 1.5*2^127: the reciprocal flushes", 0x3f800000u, 0x7f400000u, 0x00000000u,
       0x002aaaabu},
      {"-0 / 2^126", 0x80000000u, 0x7e800000u, 0x80000000u, 0x80000000u},
      {"denormal / -0: 0 / 0", 0x00012345u, 0x80000000u, 0x7fffffffu, 0},
      {"1 / NaN", 0x3f800000u, 0xffc00000u, 0x7fffffffu, 0},
      {"NaN / inf", 0x7fc00000u, 0x7f800000u, 0x7fffffffu, 0},
  };
  CheckTable(Op::kDivide, cases, 4, true);
  CheckTable(Op::kDivide, cases + 4, 7, false);
  CHECK(Apply(Op::kDivide, 0x7f7fffffu, 0x40400000u, LavapipeProfile()) == 0x7eaaaaaau);
  CHECK(Apply(Op::kDivide, 0x00800000u, 0x41e00000u, LavapipeProfile()) == 0x00049249u);
  CHECK(Apply(Op::kDivide, 0x3f800000u, 0x7f400000u, LavapipeProfile()) == 0x002aaaabu);
}

TEST_CASE("H100 sqrt, rsqrt and rcp of zeros, denormals, infinities, NaN and negatives") {
  // probe_division (run 12), slots 4 (sqrt y), 5 (rsqrt y) and 6 (rcp a).
  struct Root {
    const char* what;
    uint32_t x, sqrt, rsqrt;  // the operand and the device's words
  };
  const Root roots[] = {
      {"-1", 0xbf800000u, 0x7fffffffu, 0x7fffffffu},
      {"+0", 0x00000000u, 0x00000000u, 0x7f800000u},
      {"-0", 0x80000000u, 0x80000000u, 0xff800000u},
      {"denormal", 0x00000100u, 0x00000000u, 0x7f800000u},
      {"+inf", 0x7f800000u, 0x7f800000u, 0x00000000u},
      {"NaN", 0x7fc00000u, 0x7fffffffu, 0x7fffffffu},
      {"4", 0x40800000u, 0x40000000u, 0x3f000000u},
      {"2^-126", 0x00800000u, 0x20000000u, 0x5f000000u},
  };
  for (const Root& c : roots) {
    INFO(c.what);
    CHECK(Apply(Op::kSqrt, c.x, 0, NvidiaProfile()) == c.sqrt);
    CHECK(Apply(Op::kRsqrt, c.x, 0, NvidiaProfile()) == c.rsqrt);
  }
  const Case reciprocals[] = {
      {"+0", 0x00000000u, 0, 0x7f800000u, 0},       {"-0", 0x80000000u, 0, 0xff800000u, 0},
      {"denormal", 0x00012345u, 0, 0x7f800000u, 0}, {"+inf", 0x7f800000u, 0, 0x00000000u, 0},
      {"NaN", 0x7fc00000u, 0, 0x7fffffffu, 0},      {"1", 0x3f800000u, 0, 0x3f800000u, 0},
      {"FLT_MAX", 0x7f7fffffu, 0, 0x00000000u, 0},  {"2^-126", 0x00800000u, 0, 0x7e800000u, 0},
  };
  CheckTable(Op::kRcp, reciprocals, 8, false);
}

TEST_CASE("H100 tables over every significand: within the measured error, and as many inexact") {
  // Run 11's records: rcp within 0.975 ulp of 1/x and 1,108,522 of 2^23 significands not
  // correctly rounded; sqrt within 0.944 ulp, 2,829,803 of 2^24; rsqrt within 1.515 ulp,
  // 3,634,130 of 2^24 (counted from the records, not from the emulator).
  struct Stats {
    double worst = 0;
    int64_t inexact = 0;
  };
  Stats rcp_stats, sqrt_stats, rsqrt_stats;
  test::RunGroup<64>(32, [&] {
    for (uint32_t base = 0; base < (1u << 24); base += 64) {
      Float<64> x;
      for (int t = 0; t < 64; ++t) x.set_lane(t, FromBits(0x3f800000u + base + uint32_t(t)));
      const Float<64> r = rcp(x), s = sqrt(x), q = rsqrt(x);
      for (int t = 0; t < 64; ++t) {
        const double v = x.lane(t);
        auto account = [](Stats& st, float got, double exact, float ieee) {
          const double ulp = std::ldexp(1.0, std::ilogb(got) - 23);
          st.worst = std::max(st.worst, std::abs(double(got) - exact) / ulp);
          st.inexact += got != ieee;
        };
        if (base + uint32_t(t) < (1u << 23))
          account(rcp_stats, r.lane(t), 1.0 / v, 1.0f / x.lane(t));
        account(sqrt_stats, s.lane(t), std::sqrt(v), std::sqrt(x.lane(t)));
        account(rsqrt_stats, q.lane(t), 1.0 / std::sqrt(v), float(1.0 / std::sqrt(v)));
      }
    }
  }, NvidiaProfile());
  CHECK(rcp_stats.inexact == 1108522);
  CHECK(sqrt_stats.inexact == 2829803);
  CHECK(rsqrt_stats.inexact == 3634130);
  CHECK(rcp_stats.worst < 0.9749);
  CHECK(rcp_stats.worst > 0.9748);
  CHECK(sqrt_stats.worst < 0.9439);
  CHECK(rsqrt_stats.worst < 1.5145);
}

TEST_CASE("normalize and length: lavapipe divides by the length, the H100 sums y, x, z fused") {
  // probe_division thread 0 (run 12's golden bytes of both devices): v = (54.4976, -55.4878,
  // 3.2332), where the devices differ in the last bit of every word.
  const uint32_t v[3] = {0x4259fd89u, 0xc25df375u, 0x404eecd5u};
  struct Words {
    uint32_t n[3], length;
  };
  auto run = [&](const DeviceProfile& profile) {
    Words w{};
    test::RunGroup<1>(1, [&] {
      const Float3<1> x(Float<1>(FromBits(v[0])), Float<1>(FromBits(v[1])),
                        Float<1>(FromBits(v[2])));
      const Float3<1> n = normalize(x);
      w = {{Bits(n.x.lane(0)), Bits(n.y.lane(0)), Bits(n.z.lane(0))}, Bits(length(x).lane(0))};
    }, profile);
    return w;
  };
  const Words h100 = run(NvidiaProfile()), llvmpipe = run(LavapipeProfile());
  CHECK(h100.n[0] == 0x3f333a44u);
  CHECK(h100.n[1] == 0xbf367be5u);
  CHECK(h100.n[2] == 0x3d2a2145u);
  CHECK(h100.length == 0x429baef5u);
  CHECK(llvmpipe.n[0] == 0x3f333a45u);
  CHECK(llvmpipe.n[1] == 0xbf367be6u);
  CHECK(llvmpipe.n[2] == 0x3d2a2147u);
  CHECK(llvmpipe.length == 0x429baef4u);
  // Each policy matters here: the H100's tables with the left-to-right sum, or lavapipe's
  // arithmetic with v * rsqrt, give other words.
  DeviceProfile left_to_right = NvidiaProfile();
  left_to_right.function_expansion = FunctionExpansion::kDxc;
  CHECK(run(left_to_right).length != 0x429baef5u);
  DeviceProfile times_rsqrt = LavapipeProfile();
  times_rsqrt.function_expansion = FunctionExpansion::kDxc;
  const Words w = run(times_rsqrt);
  CHECK((w.n[0] != 0x3f333a45u || w.n[1] != 0xbf367be6u || w.n[2] != 0x3d2a2147u));
}
