// check_emulator.cpp -- run 18: the emulator's H100Exp2, H100Log2, H100Sin and H100Cos (operand
// flushed as the nvidia profile flushes it) over every fp32 bit pattern, checksummed as
// checksums.cu checksums the device, and compared with the device's checksums.txt.
//   g++ -std=c++20 -O2 -march=native -ffp-contract=off -I. -IBUILD -DHWY_COMPILE_ONLY_STATIC \
//     docs/gpu_runs/2026-11-23-h100-run18/check_emulator.cpp -o check_emulator \
//     BUILD/libwaveemu.a -ltbb -lfmt -lboost_context -lhwy -lyaml-cpp -lz -lpthread
//   ./check_emulator docs/gpu_runs/2026-11-23-h100-run18/checksums.txt
#include "emulator/nvidia_tables.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

uint64_t Mix(uint64_t v) {  // checksums.cu's
  v ^= v >> 30; v *= 0xbf58476d1ce4e5b9ull;
  v ^= v >> 27; v *= 0x94d049bb133111ebull;
  return v ^ (v >> 31);
}

float Flushed(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: check_emulator checksums.txt\n"), 2;
  float (*const functions[])(float) = {waveemu::detail::H100Exp2, waveemu::detail::H100Log2,
                                       waveemu::detail::H100Sin, waveemu::detail::H100Cos};
  for (auto f : functions) f(1.0f);  // decode the tables before the threads start
  std::ifstream device(argv[1]);
  int failures = 0;
  for (auto f : functions) {
    std::string line;
    std::getline(device, line);
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    std::vector<uint64_t> sums(512);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < threads; ++w)
      pool.emplace_back([&, w] {
        for (uint32_t bin = w; bin < 512; bin += threads) {
          uint64_t sum = 0;
          for (uint32_t j = 0; j < (1u << 23); ++j) {
            const uint32_t x = (bin << 23) | j;
            const uint32_t r = std::bit_cast<uint32_t>(f(Flushed(std::bit_cast<float>(x))));
            sum += Mix(uint64_t(x) << 32 | r);
          }
          sums[bin] = sum;
        }
      });
    for (auto& t : pool) t.join();
    int differ = 0;
    for (int bin = 0; bin < 512; ++bin) {
      std::string hex;
      fields >> hex;
      if (std::stoull(hex, nullptr, 16) != sums[bin]) {
        if (differ < 4) std::printf("  %s: sign %d exponent %d: checksums differ\n", name.c_str(), bin >> 8, bin & 255);
        ++differ;
      }
    }
    std::printf("%s: %d of 512 checksums (2^23 bit patterns each) differ\n", name.c_str(), differ);
    failures += differ;
  }
  return failures ? 1 : 0;
}
