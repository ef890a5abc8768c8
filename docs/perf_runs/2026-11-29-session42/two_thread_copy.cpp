// two_thread_copy.cpp -- session 42's probe (not part of the build): how much a second core adds to
// a plain AVX2 stream over the wave-op rows' traffic on this VM. g++ -O2 -march=native -pthread
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>
#include <algorithm>
static void Copy(const uint32_t* a, uint32_t* b, size_t lo, size_t hi) {
  for (size_t i = lo; i < hi; i += 8) {
    __m256i v = _mm256_load_si256((const __m256i*)(a + i));
    _mm256_store_si256((__m256i*)(b + i), _mm256_add_epi32(v, v));
  }
}
int main() {
  const size_t n = 1u << 24;
  uint32_t* a = (uint32_t*)aligned_alloc(64, n * 4);
  uint32_t* b = (uint32_t*)aligned_alloc(64, n * 4);
  for (size_t i = 0; i < n; ++i) { a[i] = uint32_t(i * 2654435761u); b[i] = 0; }
  std::vector<double> t1, t2;
  for (int r = 0; r < 15; ++r) {
    auto s = std::chrono::steady_clock::now();
    Copy(a, b, 0, n);
    t1.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
    s = std::chrono::steady_clock::now();
    std::thread th([&] { Copy(a, b, n / 2, n); });
    Copy(a, b, 0, n / 2);
    th.join();
    t2.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
  }
  std::sort(t1.begin(), t1.end());
  std::sort(t2.begin(), t2.end());
  printf("copy 64 MiB -> 64 MiB: one thread median %.2f ms (min %.2f), two threads median %.2f ms (min %.2f), speed-up %.2fx (medians)\n",
         t1[7], t1[0], t2[7], t2[0], t1[7] / t2[7]);
}
