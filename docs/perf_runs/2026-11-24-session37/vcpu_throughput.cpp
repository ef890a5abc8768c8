// vcpu_throughput.cpp -- are this VM's two vCPUs two cores, or two hyperthreads of one?
//
// Three loops run on one thread, then on two (one pinned to each vCPU), each thread doing the
// same work: twelve independent 512-bit adds an iteration (bound by the vector ports), eight
// independent scalar operations (bound by the integer ports), and one chain of multiplies
// (bound by latency). Hyperthreads of one core share the ports: the two throughput-bound loops
// would give well under 2x there, the latency-bound one about 2x. Two cores give 2x on all three.
//
//   g++ -O2 -march=native -pthread vcpu_throughput.cpp -o vcpu_throughput && ./vcpu_throughput
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
#include <pthread.h>
static volatile long sink;
// throughput-bound: 12 independent vector adds per iteration (ports 0/5 for 512-bit)
__attribute__((noinline)) long vec_tp(long n) {
  __m512i a[12]; for (int i=0;i<12;++i) a[i]=_mm512_set1_epi32(i);
  __m512i one=_mm512_set1_epi32(1);
  for (long k=0;k<n;++k) {
#pragma GCC unroll 12
    for (int i=0;i<12;++i) { a[i]=_mm512_add_epi32(a[i],one); asm volatile(""::"v"(a[i])); }
  }
  long s=0; for(int i=0;i<12;++i) s+=_mm512_reduce_add_epi32(a[i]); return s;
}
// scalar throughput: 8 independent adds
__attribute__((noinline)) long int_tp(long n) {
  long a0=0,a1=1,a2=2,a3=3,a4=4,a5=5,a6=6,a7=7;
  for (long k=0;k<n;++k){ a0+=k;a1^=k;a2+=a0;a3^=a1;a4+=k;a5^=k;a6+=a4;a7^=a5; asm volatile(""::"r"(a0),"r"(a1),"r"(a2),"r"(a3),"r"(a4),"r"(a5),"r"(a6),"r"(a7));}
  return a0+a1+a2+a3+a4+a5+a6+a7;
}
// latency-bound chain
__attribute__((noinline)) long lat(long n){ long x=1; for(long k=0;k<n;++k){ x=x*3+k; asm volatile(""::"r"(x)); } return x; }
template<class F> double run(int threads, F f, long n){
  auto t0=std::chrono::steady_clock::now();
  std::vector<std::thread> ts;
  for(int t=0;t<threads;++t) ts.emplace_back([&,t]{ cpu_set_t s; CPU_ZERO(&s); CPU_SET(t,&s); pthread_setaffinity_np(pthread_self(),sizeof s,&s); sink=f(n);});
  for(auto&t:ts)t.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count();
}
int main(){
  long n=200000000;
  for(int r=0;r<3;++r){
    double v1=run(1,vec_tp,n/2), v2=run(2,vec_tp,n/2);
    double i1=run(1,int_tp,n), i2=run(2,int_tp,n);
    double l1=run(1,lat,n), l2=run(2,lat,n);
    printf("vec: 1thr %.3fs 2thr %.3fs -> throughput x%.2f | int: %.3f %.3f x%.2f | lat: %.3f %.3f x%.2f\n",v1,v2,2*v1/v2,i1,i2,2*i1/i2,l1,l2,2*l1/l2);
  }
}
