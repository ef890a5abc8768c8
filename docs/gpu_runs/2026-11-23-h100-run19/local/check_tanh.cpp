// check_tanh.cpp -- run 19, on the session's machine: the emulator's nvidia-profile tanh against
// the kept Vulkan words (write_records.py's files in DIR, 2^19).
//   g++ -std=c++20 -O1 -march=native -ffp-contract=off -I. -IBUILD -DHWY_COMPILE_ONLY_STATIC \
//     docs/gpu_runs/2026-11-23-h100-run19/local/check_tanh.cpp -o check_tanh \
//     BUILD/libwaveemu.a -ltbb -lfmt -lboost_context -lhwy -lyaml-cpp -lz
//   ./check_tanh DIR
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <bit>
#include <cstdio>
#include <string>
#include <vector>

using namespace waveemu;

std::vector<uint32_t> Read(const std::string& path) {
  std::vector<uint32_t> v;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    uint32_t w;
    while (std::fread(&w, 4, 1, f) == 1) v.push_back(w);
    std::fclose(f);
  }
  return v;
}

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: check_tanh DIR\n"), 2;
  const std::vector<uint32_t> in = Read(std::string(argv[1]) + "/in_T.bin");
  const std::vector<uint32_t> want = Read(std::string(argv[1]) + "/out_Tanh.bin");
  long differ = 0;
  constexpr int N = 64;
  for (size_t base = 0; base + N <= want.size(); base += N) {
    Float<N> x, r;
    for (int t = 0; t < N; ++t) x.set_lane(t, std::bit_cast<float>(in[base + t]));
    test::RunGroup<N>(32, [&] { r = tanh(x); }, NvidiaProfile());
    for (int t = 0; t < N; ++t) differ += std::bit_cast<uint32_t>(r.lane(t)) != want[base + t];
  }
  std::printf("tanh: %ld of %zu words differ\n", differ, want.size());
  return differ != 0 || want.empty();
}
