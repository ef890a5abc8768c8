// checksums.cu -- run 18's third call (checksums.py compiles it with CuPy): a checksum of the
// device's ex2, lg2, sin and cos over every fp32 bit pattern, per 2^23 patterns (the sign and
// exponent of x), to hold the emulator's C++ model (emulator/nvidia_tables.cpp, run here by
// check_emulator.cpp) to all 2^32 words without bringing them back.
extern "C" {

__device__ float Op(int op, float x) {
  float r;
  if (op == 0) asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  else if (op == 1) asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  else if (op == 2) asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  else asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

// splitmix64's finalizer: a word's position and value mixed into 64 bits.
__device__ unsigned long long Mix(unsigned long long v) {
  v ^= v >> 30; v *= 0xbf58476d1ce4e5b9ull;
  v ^= v >> 27; v *= 0x94d049bb133111ebull;
  return v ^ (v >> 31);
}

// sum[x >> 23] += Mix(x << 32 | op(x)) over x = 64 t + j, j < 64 (wrapping).
__global__ void Checksum(int op, unsigned long long base, unsigned long long* sum) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned first = (unsigned)(base + 64ull * t);
  unsigned long long local = 0;
  for (unsigned j = 0; j < 64; ++j) {
    unsigned x = first + j;
    unsigned r = __float_as_uint(Op(op, __uint_as_float(x)));
    local += Mix((unsigned long long)x << 32 | r);
  }
  atomicAdd(&sum[first >> 23], local);
}

}  // extern "C"
