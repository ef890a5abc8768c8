// test_nvidia_float_order.cpp -- core::ReduceWaveFloatCompacted / ScanWaveFloatCompacted (the
// NVIDIA float order, intrinsics/nvidia_float_order.h) against bytes an H100 wrote
// (tests/golden/nvidia/probe_order/, README there): every slot and wave of probe_order, and the
// sum/product/prefix slots of wave_float and wave_double; plus one hand-worked case.
#include "intrinsics/nvidia_float_order.h"
#include "intrinsics/wave_scan.h"
#include "tests/support/check_lanes.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace waveemu;
using namespace waveemu::core;
namespace fs = std::filesystem;

constexpr int kW = 32;        // the H100's wave size in these runs
constexpr int kThreads = 64;  // one group of 64 threads: 2 waves

fs::path GoldenDir() {
#ifdef WAVEEMU_SOURCE_ROOT
  return fs::path(WAVEEMU_SOURCE_ROOT) / "tests/golden/nvidia/probe_order";
#else
  // tests/intrinsics/<this file> -> repository root
  return fs::path(__FILE__).parent_path().parent_path() / "golden/nvidia/probe_order";
#endif
}

template <class T>
std::vector<T> ReadAs(const std::string& name) {
  const fs::path path = GoldenDir() / name;
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing golden file ", path.string());
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() % sizeof(T) == 0);
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

WaveLanes LanesWhere(const std::function<bool(int)>& on) {
  WaveLanes w;
  for (int l = 0; l < kW; ++l)
    if (on(l)) w.word[l >> 6] |= uint64_t(1) << (l & 63);
  return w;
}

WaveFloatPolicy Nvidia() { return WaveFloatPolicy::Of(NvidiaProfile()); }

template <class T>
std::string Row(const char* what, const T* x, const WaveLanes& lanes, const std::vector<T>& exp,
                const std::vector<T>& act) {
  std::string s = fmt::format("{}\n lane  on  input  device  model\n", what);
  for (int l = 0, i = 0; l < kW; ++l) {
    if (!lanes.Test(l)) continue;
    s += fmt::format(" {:4}  {}  {}  {}  {}\n", l, 1, test::Show(x[l]), test::Show(exp[i]),
                     test::Show(act[i]));
    ++i;
  }
  return s;
}

/// Checks one wave: `device` holds the device's per-thread results of a reduction (scan false)
/// or an exclusive scan (scan true) of Op over the lanes `lanes` of inputs `x`.
template <class Op, class T, class Bits>
void CheckWave(const char* what, const T* x, const WaveLanes& lanes, const Bits* device, bool scan) {
  const WaveFloatPolicy p = Nvidia();
  std::vector<T> exp, act;
  T out[kW];
  if (scan) ScanWaveFloatCompacted<Op>(x, lanes, kW, kW, p, out);
  const T red = ReduceWaveFloatCompacted<Op>(x, lanes, kW, kW, p);
  bool same = true;
  for (int l = 0; l < kW; ++l) {
    if (!lanes.Test(l)) continue;
    T d;
    std::memcpy(&d, &device[l], sizeof(T));
    const T m = scan ? out[l] : red;
    exp.push_back(d);
    act.push_back(m);
    same = same && test::BitsOf(d) == test::BitsOf(m);
  }
  INFO(Row(what, x, lanes, exp, act));
  CHECK(same);
}

const std::function<bool(int)> kProbeMasks[] = {
    [](int l) { return (l & 1) == 1; },                  // 4 / 10: odd lanes
    [](int l) { return (l & 1) == 0; },                  // 5 / 11: even lanes
    [](int l) { return l >= 5; },                        // 6 / 12
    [](int l) { return l % 3 == 1; },                    // 7 / 13
    [](int l) { return l < 13; },                        // 8 / 14
    [](int l) { return ((0x9E3779B9u >> l) & 1) == 1; },  // 9 / 15: fixed random bits
};

}  // namespace

TEST_CASE("the compacted Hillis-Steele order reproduces every H100 probe_order slot bit for bit") {
  const auto x = ReadAs<float>("X.bin");
  const auto y = ReadAs<float>("Y.bin");
  const auto out = ReadAs<uint32_t>("Out.bin");
  REQUIRE(x.size() == kThreads);
  REQUIRE(out.size() == 16 * kThreads);
  const WaveLanes all = LanesWhere([](int) { return true; });
  for (int w = 0; w < 2; ++w) {
    const int t0 = w * kW;
    CAPTURE(w);
    CheckWave<SumOp>("slot 0 WaveActiveSum, full", &x[t0], all, &out[0 * 64 + t0], false);
    CheckWave<ProductOp>("slot 1 WaveActiveProduct, full", &y[t0], all, &out[1 * 64 + t0], false);
    CheckWave<SumOp>("slot 2 WavePrefixSum, full", &x[t0], all, &out[2 * 64 + t0], true);
    CheckWave<ProductOp>("slot 3 WavePrefixProduct, full", &y[t0], all, &out[3 * 64 + t0], true);
    for (int m = 0; m < 6; ++m) {
      const WaveLanes lanes = LanesWhere(kProbeMasks[m]);
      const std::string red = fmt::format("slot {} WaveActiveSum, sparse", 4 + m);
      const std::string pre = fmt::format("slot {} WavePrefixSum, sparse", 10 + m);
      CheckWave<SumOp>(red.c_str(), &x[t0], lanes, &out[(4 + m) * 64 + t0], false);
      CheckWave<SumOp>(pre.c_str(), &x[t0], lanes, &out[(10 + m) * 64 + t0], true);
    }
  }
}

TEST_CASE_TEMPLATE("the compacted Hillis-Steele order reproduces the H100's wave_float and wave_double sums, products and prefixes",
                   T, float, double) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  const std::string name = sizeof(T) == 4 ? "wave_float" : "wave_double";
  const auto in = ReadAs<T>(name + ".In.bin");
  const auto out = ReadAs<Bits>(name + ".Out.bin");
  REQUIRE(in.size() == kThreads);
  // wave_arith_body.hlsli: patterns all threads, tid % 3 != 0, even tid; 16 slots each; slot 0
  // sum, 1 product, 4 prefix sum, 5 prefix product.
  const std::function<bool(int)> patterns[] = {[](int) { return true; },
                                               [](int t) { return t % 3 != 0; },
                                               [](int t) { return t % 2 == 0; }};
  for (int pat = 0; pat < 3; ++pat) {
    for (int w = 0; w < 2; ++w) {
      const int t0 = w * kW;
      CAPTURE(pat);
      CAPTURE(w);
      const WaveLanes lanes = LanesWhere([&](int l) { return patterns[pat](t0 + l); });
      const int base = pat * 16 * 64 + t0;
      CheckWave<SumOp>("WaveActiveSum", &in[t0], lanes, &out[base + 0 * 64], false);
      CheckWave<ProductOp>("WaveActiveProduct", &in[t0], lanes, &out[base + 1 * 64], false);
      CheckWave<SumOp>("WavePrefixSum", &in[t0], lanes, &out[base + 4 * 64], true);
      CheckWave<ProductOp>("WavePrefixProduct", &in[t0], lanes, &out[base + 5 * 64], true);
    }
  }
}

TEST_CASE("under three active lanes the sum is x[a0] + (x[a1] + x[a2]), not a fold from the left") {
  // Hand-worked: 2^24 + (1 + 1) = 16777218 exactly; (2^24 + 1) + 1 would round twice to 2^24.
  float x[kW] = {};
  x[3] = 16777216.0f;
  x[9] = 1.0f;
  x[20] = 1.0f;
  x[25] = 1000.0f;  // not active: must not contribute
  const WaveLanes lanes = LanesWhere([](int l) { return l == 3 || l == 9 || l == 20; });
  const float r = ReduceWaveFloatCompacted<SumOp>(x, lanes, kW, kW, Nvidia());
  CHECK(test::BitsOf(r) == test::BitsOf(16777218.0f));
  float out[kW];
  ScanWaveFloatCompacted<SumOp>(x, lanes, kW, kW, Nvidia(), out);
  CHECK(test::BitsOf(out[3]) == test::BitsOf(0.0f));
  CHECK(test::BitsOf(out[9]) == test::BitsOf(16777216.0f));
  CHECK(test::BitsOf(out[20]) == test::BitsOf(16777216.0f));  // 2^24 + 1 rounds to even
}

TEST_CASE("the nvidia policy reaches the compacted order through the per-thread cores Reduce and "
          "ExclusiveScan, which broadcast the reduction and place each wave's scan") {
  Mask<kThreads> mask;
  std::array<float, kThreads> v{};
  for (int t = 0; t < kThreads; ++t) {
    v[t] = float(t + 1);
    mask.Set(t, t % 3 == 1);
  }
  const Lanes<float, kThreads> x(v);
  const auto red = Reduce<SumOp>(x, mask, kW, Nvidia());
  const auto pre = ExclusiveScan<SumOp>(x, mask, kW, Nvidia());
  // Small integers: every order is exact, so a scalar loop gives the expected values.
  for (int w = 0; w < 2; ++w) {
    float total = 0, running = 0;
    for (int t = w * kW; t < (w + 1) * kW; ++t)
      if (t % 3 == 1) total += v[t];
    for (int t = w * kW; t < (w + 1) * kW; ++t) {
      if (t % 3 != 1) continue;
      CAPTURE(t);
      CHECK(red.data()[t] == total);
      CHECK(pre.data()[t] == running);
      running += v[t];
    }
  }
}
