// cuda_math.cu -- run 19: CUDA's own asinf, acosf, atanf, tanhf and atan2f (libdevice), compiled
// by analyze_run19.py with CuPy's NVRTC under several options and compared with what the Vulkan
// driver gives for GLSL.std.450 Asin, Acos, Atan, Tanh and Atan2; `nvcc -ptx` prints the code.
extern "C" __global__ void CudaMath(const unsigned* a, const unsigned* t, const unsigned* u,
                                    unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = __uint_as_float(a[i]), y = __uint_as_float(t[i]), z = __uint_as_float(u[i]);
  out[0 * n + i] = __float_as_uint(asinf(x));
  out[1 * n + i] = __float_as_uint(acosf(x));
  out[2 * n + i] = __float_as_uint(atanf(y));
  out[3 * n + i] = __float_as_uint(tanhf(y));
  out[4 * n + i] = __float_as_uint(atan2f(z, y));
}
