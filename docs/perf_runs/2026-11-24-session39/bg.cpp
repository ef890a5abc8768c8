#include <immintrin.h>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <cstdint>
int main(int argc,char**argv){ int mode=atoi(argv[1]); size_t N=1u<<25; uint32_t* a=(uint32_t*)aligned_alloc(64,N*4); uint32_t* b=(uint32_t*)aligned_alloc(64,N*4); memset(a,1,N*4); memset(b,1,N*4);
 volatile uint64_t sink=0; __m512i s=_mm512_setzero_si512(), x=_mm512_set1_epi32(3);
 for(;;){ if(mode==0){ for(long i=0;i<100000000;i++){ s=_mm512_add_epi32(s,x); x=_mm512_xor_si512(x,s);} sink+=_mm512_reduce_add_epi32(s);} 
  else if(mode==1){ for(size_t i=0;i<N;i+=16) s=_mm512_add_epi32(s,_mm512_load_si512(a+i)); sink+=_mm512_reduce_add_epi32(s);} 
  else { for(size_t i=0;i<N;i+=16) _mm512_store_si512(b+i,_mm512_load_si512(a+i)); sink+=b[7]; } }
}
