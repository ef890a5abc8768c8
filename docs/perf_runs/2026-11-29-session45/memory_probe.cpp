// memory_probe.cpp -- session 45's probe (not part of the build): does a second core add memory
// bandwidth on this VM? A sum over 256 MiB of ints (scalar adds: bound by the core at -O2, a
// control) and a memcpy of 256 MiB, each on one thread and split over two, ten rounds.
//   g++ -O2 -march=native -pthread memory_probe.cpp -o memory_probe
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
#include <algorithm>
using Clock = std::chrono::steady_clock;
static std::vector<int> buf(64 << 20, 1), out(64 << 20);
__attribute__((noinline)) long Sum(const int* p, size_t n) { long s = 0; for (size_t i = 0; i < n; ++i) s += p[i]; return s; }
__attribute__((noinline)) void Copy(const int* p, int* q, size_t n) { std::memcpy(q, p, n * 4); }
template <class F> double Run(int threads, F f) {
  auto t0 = Clock::now();
  std::vector<std::thread> ts;
  size_t n = buf.size() / threads;
  for (int t = 1; t < threads; ++t) ts.emplace_back([&, t] { f(t * n, n); });
  f(0, n);
  for (auto& t : ts) t.join();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
int main() {
  volatile long sink = 0;
  auto rd = [&](size_t b, size_t n) { sink += Sum(buf.data() + b, n); };
  auto cp = [&](size_t b, size_t n) { Copy(buf.data() + b, out.data() + b, n); };
  std::vector<double> r, c;
  for (int i = 0; i < 10; ++i) {
    double r1 = Run(1, rd), r2 = Run(2, rd), c1 = Run(1, cp), c2 = Run(2, cp);
    printf("read 256MiB: 1thr %.1f ms (%.1f GB/s) 2thr %.1f ms = %.2fx | copy: 1thr %.1f ms 2thr %.1f ms = %.2fx\n",
           r1, 0.268 / r1 * 1000, r2, r1 / r2, c1, c2, c1 / c2);
    r.push_back(r1 / r2); c.push_back(c1 / c2);
  }
  std::sort(r.begin(), r.end()); std::sort(c.begin(), c.end());
  printf("median: read %.2fx copy %.2fx\n", r[5], c[5]);
}
