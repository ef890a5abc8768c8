// check_emulator.cpp -- run 11: the emulator's `nvidia` profile against every recorded word.
// Build from the repository root after a build of the library in BUILD:
//   g++ -std=c++20 -O2 -march=native -ffp-contract=off -I. -IBUILD -DHWY_COMPILE_ONLY_STATIC \
//     docs/gpu_runs/2026-11-23-h100-run11/check_emulator.cpp BUILD/libwaveemu.a \
//     -ltbb -lfmt -lboost_context -lhwy -lz -o check_emulator
//   ./check_emulator DIR     (DIR written by reconstruct.py)
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <bit>
#include <cstdio>
#include <string>
#include <vector>

using namespace waveemu;

namespace {

std::string dir;

std::vector<uint32_t> Load(const char* name) {
  std::vector<uint32_t> v(1u << 24);
  FILE* f = std::fopen((dir + "/" + name + ".bin").c_str(), "rb");
  if (!f || std::fread(v.data(), 4, v.size(), f) != v.size()) {
    std::fprintf(stderr, "cannot read %s/%s.bin\n", dir.c_str(), name);
    std::exit(2);
  }
  std::fclose(f);
  return v;
}

/// op over 64 threads at a time under the nvidia profile; prints how many words differ.
template <class Op>
long Check(const char* what, const std::vector<uint32_t>& a, const std::vector<uint32_t>* b,
           const std::vector<uint32_t>& device, Op op) {
  long differ = 0;
  test::RunGroup<64>(32, [&] {
    for (size_t base = 0; base < a.size(); base += 64) {
      Float<64> x, y(1.0f);
      for (int t = 0; t < 64; ++t) {
        x.set_lane(t, std::bit_cast<float>(a[base + t]));
        if (b) y.set_lane(t, std::bit_cast<float>((*b)[base + t]));
      }
      const Float<64> r = op(x, y);
      for (int t = 0; t < 64; ++t)
        if (std::bit_cast<uint32_t>(r.lane(t)) != device[base + t] && differ++ < 5)
          fmt::print("  {} of {:08x}: emulator {:08x}, device {:08x}\n", what, a[base + t],
                     std::bit_cast<uint32_t>(r.lane(t)), device[base + t]);
    }
  }, NvidiaProfile());
  fmt::print("{}: {} of {} words differ\n", what, differ, a.size());
  return differ;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: check_emulator DIR\n");
    return 2;
  }
  dir = argv[1];
  const auto x = Load("x"), s = Load("s"), a = Load("a"), b = Load("b"), x2 = Load("X2");
  long differ = 0;
  differ += Check("rcp(x)", x, nullptr, Load("Rcp"), [](auto& u, auto&) { return rcp(u); });
  differ += Check("sqrt(s)", s, nullptr, Load("Sqrt"), [](auto& u, auto&) { return sqrt(u); });
  differ += Check("rsqrt(s)", s, nullptr, Load("Rsqrt"), [](auto& u, auto&) { return rsqrt(u); });
  differ += Check("a / b", a, &b, Load("DivQ"), [](auto& u, auto& v) { return u / v; });
  differ += Check("sqrt(X2)", x2, nullptr, Load("Sqrt2"), [](auto& u, auto&) { return sqrt(u); });
  differ += Check("rsqrt(X2)", x2, nullptr, Load("Rsqrt2"), [](auto& u, auto&) { return rsqrt(u); });
  return differ ? 1 : 0;
}
