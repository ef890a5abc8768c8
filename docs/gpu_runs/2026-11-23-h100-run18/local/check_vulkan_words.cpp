// check_vulkan_words.cpp -- run 18, on the session's machine: the emulator's nvidia profile
// against the kept Vulkan words (write_records.py's files in DIR): exp2, exp, sin, cos of X,
// log2, log, log10 of Y, pow(B, E) (2^19 each), tan of X, sinh and cosh of Z (2^20 each).
//   g++ -std=c++20 -O1 -march=native -ffp-contract=off -I. -IBUILD -DHWY_COMPILE_ONLY_STATIC \
//     docs/gpu_runs/2026-11-23-h100-run18/local/check_vulkan_words.cpp -o check_vulkan_words \
//     BUILD/libwaveemu.a -ltbb -lfmt -lboost_context -lhwy -lyaml-cpp -lz
//   ./check_vulkan_words DIR
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

std::vector<uint32_t> Read(const std::string& name) {
  std::vector<uint32_t> v;
  if (FILE* f = std::fopen((dir + "/" + name + ".bin").c_str(), "rb")) {
    uint32_t w;
    while (std::fread(&w, 4, 1, f) == 1) v.push_back(w);
    std::fclose(f);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: check_vulkan_words DIR\n"), 2;
  dir = argv[1];
  const char* names[] = {"Exp2",  "Exp", "Sin", "Cos",  "Log2", "Log",
                         "Log10", "Pow", "Tan", "Sinh", "Cosh"};
  const char* inputs[] = {"X", "X", "X", "X", "Y", "Y", "Y", "B", "X", "Z", "Z"};
  const std::vector<uint32_t> e = Read("in_E");
  int failures = 0;
  for (int f = 0; f < 11; ++f) {
    const std::vector<uint32_t> want = Read(std::string("out_") + names[f]);
    const std::vector<uint32_t> in = Read(std::string("in_") + inputs[f]);
    long differ = 0;
    constexpr int N = 64;
    for (size_t base = 0; base + N <= want.size(); base += N) {
      Float<N> x, y, r;
      for (int t = 0; t < N; ++t) {
        x.set_lane(t, std::bit_cast<float>(in[base + t]));
        y.set_lane(t, std::bit_cast<float>(e[base + t]));
      }
      test::RunGroup<N>(32, [&] {
        switch (f) {
          case 0: r = exp2(x); break;
          case 1: r = exp(x); break;
          case 2: r = sin(x); break;
          case 3: r = cos(x); break;
          case 4: r = log2(x); break;
          case 5: r = log(x); break;
          case 6: r = log10(x); break;
          case 7: r = pow(x, y); break;
          case 8: r = tan(x); break;
          case 9: r = sinh(x); break;
          default: r = cosh(x); break;
        }
      }, NvidiaProfile());
      for (int t = 0; t < N; ++t) differ += std::bit_cast<uint32_t>(r.lane(t)) != want[base + t];
    }
    std::printf("%s: %ld of %zu words differ\n", names[f], differ, want.size());
    failures += differ != 0 || want.empty();
  }
  return failures ? 1 : 0;
}
