// models.cu -- run 18's second call (analyze_models.py compiles it with CuPy's NVRTC): the models
// of MUFU.EX2, MUFU.LG2, MUFU.SIN and MUFU.COS that the first call's records suggested, held to
// the device over every fp32 bit pattern, with tables the device itself fills.
extern "C" {

__device__ float Ex2Ftz(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float Lg2Ftz(float x) { float r; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float SinFtz(float x) { float r; asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float CosFtz(float x) { float r; asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }

__device__ float Device(int op, float x) {
  return op == 0 ? Ex2Ftz(x) : op == 1 ? Lg2Ftz(x) : op == 2 ? SinFtz(x) : CosFtz(x);
}

#define INF __int_as_float(0x7f800000)
#define NAN_ __int_as_float(0x7fffffff)
#define TWO_PI_INV 0.15915493667125701904f  // the constant of the FMUL.RZ (sass.cu)

__device__ float Flush(float x) { return fabsf(x) < 1.17549435e-38f ? copysignf(0.0f, x) : x; }

// ex2: x in fixed point with 23 fraction bits, the magnitude truncated; a negative x with a
// nonzero fraction takes the ones' complement (-q - 1), else -q. Then T23[f] * 2^i.
__device__ float ModelEx2(float x, const float* T23) {
  x = Flush(x);
  if (x != x) return NAN_;
  if (x >= 128.0f) return INF;
  if (x <= -128.0f) return 0.0f;
  long long qm = (long long)truncf(fabsf(x) * 8388608.0f);
  long long q = x < 0 ? ((qm & 0x7fffff) ? ~qm : -qm) : qm;
  int i = (int)(q >> 23), f = (int)(q & 0x7fffff);
  if (i < -126) return 0.0f;
  return ldexpf(T23[f], i);
}

// lg2 of a positive normal x = 2^e * (1 + m * 2^-23): e >= 0 rounds e + R0[m] toward zero,
// e < 0 rounds e + 1 + R1[m] toward zero (R0, R1: the device over [1, 2) and [0.5, 1)).
__device__ float ModelLg2(float x, const float* R0, const float* R1) {
  x = Flush(x);
  if (x != x || x < 0.0f) return NAN_;
  if (x == 0.0f) return -INF;
  if (x == INF) return INF;
  unsigned b = __float_as_uint(x);
  int e = int(b >> 23) - 127;
  unsigned m = b & 0x7fffffu;
  double v = e >= 0 ? (double)e + (double)R0[m] : (double)e + 1.0 + (double)R1[m];
  return __double2float_rz(v);
}

// sin and cos: r = x * (1 / 2pi) rounded toward zero; its fraction of a turn in fixed point with
// 25 bits, the top two the quadrant q, the low 23 the position p in it; Qs and Qc hold the device's
// sin and cos over the first quadrant. Negative r, by variant: 0 odd/even symmetry of the
// magnitude, 1 the fraction r - floor(r), 2 the magnitude's ones' complement when its fraction is
// nonzero (as ex2).
__device__ float ModelTrig(int op, int variant, float x, const float* Qs, const float* Qc) {
  x = Flush(x);
  if (x != x || fabsf(x) == INF) return NAN_;
  float r = Flush(__fmul_rz(x, TWO_PI_INV));
  bool neg = r < 0.0f || (r == 0.0f && signbit(r));
  float a = fabsf(r);
  unsigned long long t;  // the turn's fraction * 2^25
  bool flip = false;
  if (variant == 1 && neg) {
    float fr = r - floorf(r);
    t = (unsigned long long)truncf(fr * 33554432.0f);
    if (fr >= 1.0f) t = 0;
  } else {
    float fr = a - floorf(a);
    unsigned long long tm = (unsigned long long)truncf(fr * 33554432.0f);
    if (variant == 2 && neg) t = tm ? ((~tm) & 0x1ffffffull) : 0;
    else { t = tm; flip = neg; }
  }
  unsigned q = unsigned(t >> 23) & 3, p = unsigned(t & 0x7fffff);
  float s = Qs[p], c = Qc[p];
  float v;
  if (op == 2) v = q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
  else v = q == 0 ? c : q == 1 ? -s : q == 2 ? -c : s;
  if (flip && op == 2) v = -v;
  return v;
}

__device__ float Model(int op, int variant, float x, const float* A, const float* B) {
  return op == 0 ? ModelEx2(x, A) : op == 1 ? ModelLg2(x, A, B) : ModelTrig(op, variant, x, A, B);
}

__device__ bool Same(float a, float b) { return __float_as_uint(a) == __float_as_uint(b); }

// Every bit pattern base + 64 * t + j, j < 64: miss[0] counts mismatches (NaN bits included),
// hist[sign * 256 + biased exponent] where; nan[0] NaN results that are 0x7fffffff, nan[1]
// other NaN results; the first 16 mismatches go to ex as (x, device, model).
__global__ void Test(int op, int variant, unsigned long long base, const float* A, const float* B,
                     unsigned long long* miss, unsigned* hist, unsigned long long* nan,
                     unsigned* nex, unsigned* ex) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned first = (unsigned)(base + 64ull * t);
  unsigned local = 0, canon = 0, other = 0;
  for (unsigned j = 0; j < 64; ++j) {
    unsigned bits = first + j;
    float x = __uint_as_float(bits);
    float dev = Device(op, x);
    if (dev != dev) { if (__float_as_uint(dev) == 0x7fffffffu) ++canon; else ++other; }
    float mod = Model(op, variant, x, A, B);
    if (!Same(dev, mod)) {
      if (++local == 1 && nex[0] < 16) {
        unsigned slot = atomicAdd(&nex[0], 1u);
        if (slot < 16) {
          ex[3 * slot] = bits;
          ex[3 * slot + 1] = __float_as_uint(dev);
          ex[3 * slot + 2] = __float_as_uint(mod);
        }
      }
    }
  }
  if (local) {
    atomicAdd(&miss[0], (unsigned long long)local);
    atomicAdd(&hist[first >> 23], local);
  }
  if (canon) atomicAdd(&nan[0], (unsigned long long)canon);
  if (other) atomicAdd(&nan[1], (unsigned long long)other);
}

// T23[f] = ex2(f * 2^-23).
__global__ void GridEx2(float* T, unsigned n) {
  unsigned f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f < n) T[f] = Ex2Ftz(__uint2float_rn(f) * 1.1920928955078125e-07f);
}

// out[m] = lg2(asfloat(base + m)) for m < n: one binade.
__global__ void BinadeLg2(float* out, unsigned base, unsigned n) {
  unsigned m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m < n) out[m] = Lg2Ftz(__uint_as_float(base + m));
}

// Qs, Qc over the first quadrant, from every x in [0, pi/2): the position p of r = x / 2pi (as
// above) gets sin(x) and cos(x). filled[p] counts the x that landed there; a second pass counts
// the x whose device value differs from what the first pass left there.
__global__ void FillQuadrant(unsigned n, float* Qs, float* Qc, unsigned* filled, int check,
                             unsigned long long* conflicts) {
  unsigned bits = blockIdx.x * blockDim.x + threadIdx.x;
  if (bits >= n) return;
  float x = __uint_as_float(bits);
  float r = Flush(__fmul_rz(Flush(x), TWO_PI_INV));
  unsigned long long t = (unsigned long long)truncf(r * 33554432.0f);
  if (t >= 0x800000ull) return;  // not in the first quadrant
  float s = SinFtz(x), c = CosFtz(x);
  if (!check) {
    Qs[t] = s; Qc[t] = c; atomicAdd(&filled[t], 1u);
  } else if (!Same(Qs[t], s) || !Same(Qc[t], c)) {
    atomicAdd(&conflicts[0], 1ull);
  }
}

}  // extern "C"
