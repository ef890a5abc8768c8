#include <immintrin.h>
#include <thread>
#include <vector>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <atomic>
// Streams: read-only sum; compaction (keep half: store every other 64B vector) with normal vs NT stores.
static uint32_t* in; static uint32_t* out;
const size_t N = 1u<<24;
std::atomic<uint64_t> sink;
void readsum(size_t b, size_t e){ __m512i s=_mm512_setzero_si512(); for(size_t i=b;i<e;i+=16) s=_mm512_add_epi32(s,_mm512_load_si512(in+i)); sink+=_mm512_reduce_add_epi32(s);}
void compact(size_t b, size_t e, bool nt){ // input block of 16 -> keep mask of odd ids, ~half
  uint32_t* o = out + b/2; __m512i buf; int fill=0; alignas(64) uint32_t tmp[32]; size_t oi=0;
  for(size_t i=b;i<e;i+=16){ __m512i v=_mm512_load_si512(in+i); __mmask16 m=_mm512_test_epi32_mask(v,_mm512_set1_epi32(1));
    if(!nt){ _mm512_mask_compressstoreu_epi32(o+oi,m,v); oi+=__builtin_popcount(m);} 
    else { _mm512_mask_compressstoreu_epi32(tmp+fill,m,v); fill+=__builtin_popcount(m); if(fill>=16){ _mm512_stream_si512((__m512i*)(o+oi), _mm512_load_si512(tmp)); oi+=16; fill-=16; memcpy(tmp,tmp+16,64);} }
  }
  if(nt) _mm_sfence();
}
template<class F> double run(int threads, F f){ double best=1e9; for(int r=0;r<7;r++){ auto t0=std::chrono::steady_clock::now(); std::vector<std::thread> ts; size_t chunk=N/threads; for(int t=0;t<threads;t++) ts.emplace_back([&,t]{ f(t*chunk,(t+1)*chunk);}); for(auto&x:ts) x.join(); double ms=std::chrono::duration<double,std::milli>(std::chrono::steady_clock::now()-t0).count(); best=std::min(best,ms);} return best;}
int main(){ in=(uint32_t*)aligned_alloc(64,N*4); out=(uint32_t*)aligned_alloc(64,N*4); for(size_t i=0;i<N;i++) in[i]=uint32_t(i*2654435761u); memset(out,1,N*4);
 for(int rep=0;rep<3;rep++){
 double r1=run(1,readsum), r2=run(2,readsum);
 double c1=run(1,[](size_t b,size_t e){compact(b,e,false);}), c2=run(2,[](size_t b,size_t e){compact(b,e,false);});
 double n1=run(1,[](size_t b,size_t e){compact(b,e,true);}), n2=run(2,[](size_t b,size_t e){compact(b,e,true);});
 printf("read: 1t %.2f ms 2t %.2f ms x%.2f | compact: %.2f %.2f x%.2f | compact NT: %.2f %.2f x%.2f\n", r1,r2,r1/r2,c1,c2,c1/c2,n1,n2,n1/n2);}
}
