// cores_probe.cpp -- session 45's probe (not part of the build): are this VM's two vCPUs two
// cores, or two threads of one core? Two kinds of work, each on one thread and then split over
// two, in alternating rounds: throughput-bound AVX2 work (eight independent chains of vector
// adds, shifts and xors: it fills the vector ports, so two hardware threads of one core would
// share them and gain little) and latency-bound scalar work (one chain of multiplies, which
// leaves the ports idle, so it doubles even on one core's two threads). Argument: rounds.
//   g++ -O2 -march=native -pthread cores_probe.cpp -o cores_probe
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#include <algorithm>
using Clock = std::chrono::steady_clock;
__attribute__((noinline)) unsigned ThroughputWork(long iters, unsigned seed) {
  __m256i a[8];
  for (int i = 0; i < 8; ++i) a[i] = _mm256_set1_epi32(seed + i);
  const __m256i k = _mm256_set1_epi32(0x9e3779b9);
  for (long n = 0; n < iters; ++n) {
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
      a[i] = _mm256_add_epi32(a[i], k);
      a[i] = _mm256_xor_si256(a[i], _mm256_srli_epi32(a[i], 7));
    }
    asm volatile("" : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]), "+x"(a[3]), "+x"(a[4]), "+x"(a[5]), "+x"(a[6]), "+x"(a[7]));
  }
  __m256i s = a[0];
  for (int i = 1; i < 8; ++i) s = _mm256_add_epi32(s, a[i]);
  return _mm256_extract_epi32(s, 0);
}
__attribute__((noinline)) unsigned LatencyWork(long iters, unsigned seed) {
  unsigned long x = seed + 1;
  for (long n = 0; n < iters * 8; ++n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    x ^= x >> 29;
  }
  return unsigned(x);
}
template <class F>
double Run(int threads, long iters, F f) {
  auto t0 = Clock::now();
  std::vector<std::thread> ts;
  volatile unsigned sink = 0;
  for (int t = 1; t < threads; ++t) ts.emplace_back([&, t] { sink += f(iters / threads, t); });
  sink += f(iters / threads, 0);
  for (auto& t : ts) t.join();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
int main(int argc, char** argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  const long iters = 40'000'000;
  std::vector<double> tp, lat;
  for (int r = 0; r < rounds; ++r) {
    double t1 = Run(1, iters, ThroughputWork), t2 = Run(2, iters, ThroughputWork);
    double l1 = Run(1, iters / 4, LatencyWork), l2 = Run(2, iters / 4, LatencyWork);
    printf("round %2d: throughput 1thr %7.1f ms 2thr %7.1f ms = %.2fx | latency 1thr %7.1f 2thr %7.1f = %.2fx\n",
           r, t1, t2, t1 / t2, l1, l2, l1 / l2);
    tp.push_back(t1 / t2); lat.push_back(l1 / l2);
  }
  std::sort(tp.begin(), tp.end()); std::sort(lat.begin(), lat.end());
  printf("median speed-up: throughput-bound SIMD %.2fx, latency-bound scalar %.2fx (min %.2f / %.2f, max %.2f / %.2f)\n",
         tp[tp.size() / 2], lat[lat.size() / 2], tp.front(), lat.front(), tp.back(), lat.back());
}
