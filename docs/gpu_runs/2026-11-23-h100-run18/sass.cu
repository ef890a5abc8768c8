// sass.cu -- one small kernel per PTX approximation, for `cuobjdump -sass`: what the PTX
// assembler makes of each on sm_90 (run 18's run.log).
#define OP(name, ptx)                                                            \
  extern "C" __global__ void name(const float* in, float* out) {                \
    float r, x = in[threadIdx.x];                                                \
    asm(ptx " %0, %1;" : "=f"(r) : "f"(x));                                      \
    out[threadIdx.x] = r;                                                        \
  }
OP(ex2_approx_ftz, "ex2.approx.ftz.f32")
OP(ex2_approx, "ex2.approx.f32")
OP(lg2_approx_ftz, "lg2.approx.ftz.f32")
OP(lg2_approx, "lg2.approx.f32")
OP(sin_approx_ftz, "sin.approx.ftz.f32")
OP(cos_approx_ftz, "cos.approx.ftz.f32")
