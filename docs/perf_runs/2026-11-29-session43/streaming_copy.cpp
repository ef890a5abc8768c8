// streaming_copy.cpp -- session 43's probe (not part of the build): a 64 MiB -> 64 MiB copy (with
// an add) on one thread, AVX2 stores against non-temporal (streaming) stores, fastest of 8 runs
// each, three rounds. Built with: g++ -O2 -mavx2 streaming_copy.cpp -o streaming_copy
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
int main() {
  const size_t n = size_t(1) << 24;
  uint32_t* in = static_cast<uint32_t*>(std::aligned_alloc(64, n * 4));
  uint32_t* out = static_cast<uint32_t*>(std::aligned_alloc(64, n * 4));
  for (size_t i = 0; i < n; ++i) in[i] = uint32_t(i * 7);
  std::memset(out, 0, n * 4);
  for (int round = 0; round < 3; ++round) {
    double best[2] = {1e9, 1e9};
    for (int r = 0; r < 8; ++r) {
      for (int nt = 0; nt < 2; ++nt) {
        auto t0 = std::chrono::steady_clock::now();
        if (nt) {
          for (size_t i = 0; i < n; i += 8)
            _mm256_stream_si256(reinterpret_cast<__m256i*>(out + i), _mm256_add_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(in + i)), _mm256_set1_epi32(1)));
          _mm_sfence();
        } else {
          for (size_t i = 0; i < n; i += 8)
            _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), _mm256_add_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(in + i)), _mm256_set1_epi32(1)));
        }
        auto t1 = std::chrono::steady_clock::now();
        best[nt] = std::min(best[nt], std::chrono::duration<double, std::nano>(t1 - t0).count() / (n / 64));
        if (out[n - 1] != in[n - 1] + 1) return 1;
      }
    }
    printf("ns per 64 lanes: regular stores %.1f, streaming stores %.1f\n", best[0], best[1]);
  }
}
