// mufu.cu -- run 18's CUDA side (analyze_on_device.py compiles it with CuPy's NVRTC; nvcc and
// cuobjdump print its machine code in run.log): the PTX approximations that NVIDIA's compilers
// lower to the MUFU unit, applied to the Vulkan run's inputs, and candidate models of MUFU.EX2
// and MUFU.LG2 held to the device over every fp32 bit pattern.
extern "C" {

__device__ float Ex2Ftz(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float Ex2(float x) { float r; asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float Lg2Ftz(float x) { float r; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float Lg2(float x) { float r; asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float SinFtz(float x) { float r; asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float CosFtz(float x) { float r; asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }

__device__ float Apply(int op, float x) {
  switch (op) {
    case 0: return Ex2Ftz(x);
    case 1: return Ex2(x);
    case 2: return Lg2Ftz(x);
    case 3: return Lg2(x);
    case 4: return SinFtz(x);
    case 5: return CosFtz(x);
  }
  return 0.0f;
}

// out[i] = op(in[i]).
__global__ void ApplyOp(const unsigned* in, unsigned* out, int op, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float_as_uint(Apply(op, __uint_as_float(in[i])));
}

// out[f] = op(f * scale) for f < n: the device's value at every point of a fixed-point grid
// (scale = 2^-G; f * scale is exact for f < 2^24).
__global__ void Grid(unsigned* out, int op, float scale, unsigned n) {
  unsigned f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f < n) out[f] = __float_as_uint(Apply(op, __uint2float_rn(f) * scale));
}

// out[m] = op(asfloat(base + m)) for m < n: one binade (or any run of bit patterns).
__global__ void Run(unsigned* out, int op, unsigned base, unsigned n) {
  unsigned m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m < n) out[m] = __float_as_uint(Apply(op, __uint_as_float(base + m)));
}

__device__ bool Same(float a, float b) {
  return __float_as_uint(a) == __float_as_uint(b) || (a != a && b != b);
}

// Candidate model of ex2.approx.ftz: x (denormals flushed) is taken to fixed point with G
// fraction bits (round: 0 floor, 1 nearest even, 2 toward zero), q = i * 2^G + f, and the result
// is T_G[f] * 2^i, T_G[f] being the device's ex2 at f * 2^-G; flushed below 2^-126.
__device__ float ModelEx2(float x, int G, int round, const float* T) {
  if (x != x) return x;
  if (fabsf(x) < 1.17549435e-38f) x = 0.0f;
  if (x >= 128.0f) return __int_as_float(0x7f800000);
  if (x < -200.0f) return 0.0f;
  float s = x * __int_as_float((127 + G) << 23);
  float q = round == 0 ? floorf(s) : round == 1 ? rintf(s) : truncf(s);
  long long qi = (long long)q;
  int i = (int)(qi >> G);
  int f = (int)(qi & ((1LL << G) - 1));
  if (i < -126) return 0.0f;
  if (i > 127) return __int_as_float(0x7f800000);
  return ldexpf(T[f], i);
}

// Every bit pattern base + 64 * t + j, j < 64, against the 9 models (G = 22, 23, 24 x round);
// miss[m] counts mismatches, hist[m * 256 + biased exponent] where, and the first 16 of each
// model go to ex[m * 48 + 3 * slot] as (x, device, model).
__global__ void TestEx2(unsigned long long base, const float* T22, const float* T23,
                        const float* T24, unsigned long long* miss, unsigned* hist,
                        unsigned* nex, unsigned* ex) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned first = (unsigned)(base + 64ull * t);
  unsigned local[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (unsigned j = 0; j < 64; ++j) {
    unsigned bits = first + j;
    float x = __uint_as_float(bits);
    float dev = Ex2Ftz(x);
    for (int m = 0; m < 9; ++m) {
      int G = 22 + m / 3;
      const float* T = G == 22 ? T22 : G == 23 ? T23 : T24;
      float mod = ModelEx2(x, G, m % 3, T);
      if (!Same(dev, mod)) {
        if (++local[m] == 1 && nex[m] < 16) {  // one try per thread: few atomics
          unsigned slot = atomicAdd(&nex[m], 1u);
          if (slot < 16) {
            ex[m * 48 + 3 * slot] = bits;
            ex[m * 48 + 3 * slot + 1] = __float_as_uint(dev);
            ex[m * 48 + 3 * slot + 2] = __float_as_uint(mod);
          }
        }
      }
    }
  }
  for (int m = 0; m < 9; ++m)
    if (local[m]) {
      atomicAdd(&miss[m], (unsigned long long)local[m]);
      atomicAdd(&hist[m * 256 + ((first >> 23) & 255)], local[m]);
    }
}

// Candidate models of lg2.approx.ftz for a positive normal x = 2^e * (1 + m * 2^-23):
//   0: (float)e + R0[m] rounded once (R0 = the device's lg2 over [1, 2));
//   1: e + L[m] rounded to nearest, L[m] = 1 + R1[m] exactly (R1 = lg2 over [0.5, 1));
//   2: the same rounded toward zero;
//   3: e + R0[m] rounded toward zero.
__device__ float ModelLg2(int model, int e, unsigned m, const float* R0, const float* R1) {
  double L = model == 1 || model == 2 ? (double)R1[m] + 1.0 : (double)R0[m];
  double v = (double)e + L;
  return model == 2 || model == 3 ? __double2float_rz(v) : __double2float_rn(v);
}

__global__ void TestLg2(unsigned long long base, const float* R0, const float* R1,
                        unsigned long long* miss, unsigned* hist, unsigned* nex, unsigned* ex) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned first = (unsigned)(base + 64ull * t);
  unsigned local[4] = {0, 0, 0, 0};
  for (unsigned j = 0; j < 64; ++j) {
    unsigned bits = first + j;
    unsigned biased = (bits >> 23) & 255;
    if ((bits >> 31) || biased == 0 || biased == 255) continue;
    float dev = Lg2Ftz(__uint_as_float(bits));
    for (int m = 0; m < 4; ++m) {
      float mod = ModelLg2(m, int(biased) - 127, bits & 0x7fffffu, R0, R1);
      if (!Same(dev, mod)) {
        if (++local[m] == 1 && nex[m] < 16) {  // one try per thread: few atomics
          unsigned slot = atomicAdd(&nex[m], 1u);
          if (slot < 16) {
            ex[m * 48 + 3 * slot] = bits;
            ex[m * 48 + 3 * slot + 1] = __float_as_uint(dev);
            ex[m * 48 + 3 * slot + 2] = __float_as_uint(mod);
          }
        }
      }
    }
  }
  for (int m = 0; m < 4; ++m)
    if (local[m]) {
      atomicAdd(&miss[m], (unsigned long long)local[m]);
      atomicAdd(&hist[m * 256 + ((first >> 23) & 255)], local[m]);
    }
}

}  // extern "C"
