// probes.cpp -- ports of the device-profile probes tests/pipelines/probe_order.hlsl,
// probe_special.hlsl, probe_float_equality.hlsl, probe_minmax.hlsl, probe_minmax_literals.hlsl,
// probe_denormals.hlsl, probe_denormals_ops.hlsl, probe_nan_math.hlsl, probe_division.hlsl
// and probe_geometry.hlsl (DESIGN §3), statement for statement. Their expected bits are recorded per device under
// tests/golden/; tests/oracle/test_golden.cpp replays them on the emulator.
#include "tests/pipelines/ports/ports.h"

#include "intrinsics/intrinsics.h"

namespace waveemu::oracle {

namespace {

// ------------------------------ probe_order.hlsl
struct ProbeOrder {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> X;      // t0
  StructuredBuffer<uint32_t> Y;      // t1
  RWStructuredBuffer<uint32_t> Out;  // u2

  void Masked(uint32_t slot, const Uint<N>& tid, const Float<N>& x) const {
    Out[slot * 64u + tid] = asuint(WaveActiveSum(x));
    Out[(slot + 6u) * 64u + tid] = asuint(WavePrefixSum(x));
  }

  void main(SV_GroupIndex<N> tid) const {
    Float<N> x = asfloat(X[tid]);
    Float<N> y = asfloat(Y[tid]);
    Uint<N> lane = WaveGetLaneIndex<N>();
    Out[0u * 64u + tid] = asuint(WaveActiveSum(x));
    Out[1u * 64u + tid] = asuint(WaveActiveProduct(y));
    Out[2u * 64u + tid] = asuint(WavePrefixSum(x));
    Out[3u * 64u + tid] = asuint(WavePrefixProduct(y));
    if_((lane & 1u) == 1u, [&] { Masked(4, tid, x); });
    if_((lane & 1u) == 0u, [&] { Masked(5, tid, x); });
    if_(lane >= 5u, [&] { Masked(6, tid, x); });
    if_(lane % 3u == 1u, [&] { Masked(7, tid, x); });
    if_(lane < 13u, [&] { Masked(8, tid, x); });
    if_(((Uint<N>(0x9E3779B9u) >> (lane & 31u)) & 1u) == 1u, [&] { Masked(9, tid, x); });
  }
};

// ------------------------------ probe_special.hlsl
struct ProbeSpecial {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& tid) const { return asfloat(In[region * 64u + tid]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Uint<N> lane = WaveGetLaneIndex<N>();
    Float<N> den = F(0, tid);
    Out[0u * 64u + tid] = asuint(WaveActiveSum(den));
    Out[1u * 64u + tid] = asuint(WavePrefixSum(den));
    Out[2u * 64u + tid] = asuint(WaveActiveMin(den));
    Float<N> nan1 = F(1, tid);
    Out[3u * 64u + tid] = asuint(WaveActiveSum(nan1));
    Out[4u * 64u + tid] = asuint(WaveActiveProduct(nan1));
    Out[5u * 64u + tid] = asuint(WaveActiveSum(F(2, tid)));
    Float<N> all_nan = F(3, tid);
    Out[6u * 64u + tid] = asuint(WaveActiveMin(all_nan));
    Out[7u * 64u + tid] = asuint(WaveActiveMax(all_nan));
    Float<N> a = F(4, tid), b = F(5, tid), c = F(6, tid);
    Out[8u * 64u + tid] = asuint(mad(a, b, c));
    // glslang 12's legalization passes turn the plain a*b+c into GLSL.std.450 Fma too (spirv-dis;
    // -Od keeps OpFMul + OpFAdd), so the port writes mad here as well.
    Out[9u * 64u + tid] = asuint(mad(a, b, c));
    Uint<N> v = In[7u * 64u + tid];
    if_((lane & 1u) == 0u, [&] { Out[10u * 64u + tid] = WaveReadLaneAt(v, lane + 1u); });
    switch_(tid % 5u,
            case_(0u, [&] {
              Out[11u * 64u + tid] = 0xc0000000u | WaveActiveBallot<N>(true).x;
              break_();
            }),
            case_(1u, [&] {
              Out[11u * 64u + tid] = 0xc1000000u | WaveActiveBallot<N>(true).x;
              break_();
            }),
            default_([&] {
              Out[11u * 64u + tid] = WaveActiveBallot<N>(true).x;
              Out[12u * 64u + tid] = WaveActiveSum(tid);
              break_();
            }));
  }
};

// ------------------------------ probe_float_equality.hlsl
struct ProbeFloatEquality {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  void main(SV_GroupIndex<N> tid) const {
    // The loop is uniform (k is the same in every thread), so a plain C++ loop.
    for (uint32_t k = 0; k < 6; ++k)
      Out[k * 64u + tid] = select(WaveActiveAllEqual(asfloat(In[k * 64u + tid])), 1u, 0u);
  }
};

// ------------------------------ probe_minmax.hlsl
struct ProbeMinMax {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& tid) const { return asfloat(In[region * 64u + tid]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> a = F(0, tid), b = F(1, tid);
    Float<N> zero = F(2, 0u), one = F(2, 1u);
    Out[0u * 64u + tid] = asuint(min(a, b));
    Out[1u * 64u + tid] = asuint(max(a, b));
    Out[2u * 64u + tid] = asuint(saturate(a));
    Out[3u * 64u + tid] = asuint(clamp(a, 0.0f, 1.0f));
    Out[4u * 64u + tid] = asuint(clamp(a, -1.0f, 1.0f));
    Out[5u * 64u + tid] = asuint(clamp(a, -zero, zero));
    Out[6u * 64u + tid] = asuint(min(a, 0.0f));
    Out[7u * 64u + tid] = asuint(min(a, -0.0f));
    Out[8u * 64u + tid] = asuint(max(a, 0.0f));
    Out[9u * 64u + tid] = asuint(max(a, -0.0f));
    Float<N> m = select(isnan(b), 1.0f, abs(b));
    Out[10u * 64u + tid] = asuint(clamp(a, -m, m));
    Out[11u * 64u + tid] = asuint(min(max(a, 0.0f), 1.0f));
    Out[12u * 64u + tid] = asuint(max(min(a, one), zero));
  }
};

// ------------------------------ probe_minmax_literals.hlsl
struct ProbeMinMaxLiterals {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> a = asfloat(In[tid]);
    Out[0u * 64u + tid] = asuint(clamp(a, -0.0f, 0.0f));
    Out[1u * 64u + tid] = asuint(min(max(a, -0.0f), 0.0f));
    Out[2u * 64u + tid] = asuint(max(min(a, 1.0f), 0.0f));
  }
};

// ------------------------------ probe_denormals.hlsl
struct ProbeDenormals {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& tid) const { return asfloat(In[region * 64u + tid]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> a = F(0, tid), b = F(1, tid);
    Float<N> one = F(2, 0u);
    Out[0u * 64u + tid] = asuint(a + b);
    Out[1u * 64u + tid] = asuint(a - b);
    Out[2u * 64u + tid] = asuint(a * b);
    Out[3u * 64u + tid] = asuint(a * one);
    Out[4u * 64u + tid] = select(a == b, 1u, 0u);
    Out[5u * 64u + tid] = select(a < b, 1u, 0u);
    Out[6u * 64u + tid] = asuint(-a);
    Out[7u * 64u + tid] = asuint(abs(a));
  }
};

// ------------------------------ probe_denormals_ops.hlsl
struct ProbeDenormalsOps {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& tid) const { return asfloat(In[region * 64u + tid]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> a = F(0, tid), b = F(1, tid), c = F(2, tid);
    Out[0u * 64u + tid] = asuint(a / b);
    Out[1u * 64u + tid] = asuint(frac(a));
    Out[2u * 64u + tid] = asuint(mad(a, b, a));
    Out[3u * 64u + tid] = select(a != b, 1u, 0u);
    Out[4u * 64u + tid] = select(a <= b, 1u, 0u);
    Out[5u * 64u + tid] = select(a > b, 1u, 0u);
    Out[6u * 64u + tid] = select(a >= b, 1u, 0u);
    Out[7u * 64u + tid] = asuint(floor(a));
    Out[8u * 64u + tid] = asuint(sqrt(abs(a)));
    Out[9u * 64u + tid] = asuint(ceil(a));
    Out[10u * 64u + tid] = asuint(round(a));
    Out[11u * 64u + tid] = asuint(trunc(a));
    Out[12u * 64u + tid] = asuint(c + b);
    Out[13u * 64u + tid] = asuint(c * a);
    Out[14u * 64u + tid] = asuint(sqrt(c));
    Out[15u * 64u + tid] = asuint(-c);
    Out[16u * 64u + tid] = asuint(c + F(2, tid ^ 1u));
  }
};

// ------------------------------ probe_nan_math.hlsl
struct ProbeNanMath {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& tid) const { return asfloat(In[region * 64u + tid]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> x = F(0, tid), s = F(1, tid), r = F(2, tid);
    Out[0u * 64u + tid] = asuint(abs(x));
    Out[1u * 64u + tid] = asuint(floor(x));
    Out[2u * 64u + tid] = asuint(ceil(x));
    Out[3u * 64u + tid] = asuint(round(x));
    Out[4u * 64u + tid] = asuint(trunc(x));
    Out[5u * 64u + tid] = asuint(frac(x));
    Out[6u * 64u + tid] = asuint(saturate(x));
    Out[7u * 64u + tid] = asuint(Int<N>(sign(x)));  // HLSL: (int) for glslang, whose sign is a float
    Out[8u * 64u + tid] = asuint(rcp(x));
    Out[9u * 64u + tid] = f32tof16(x);
    Out[10u * 64u + tid] = asuint(Int<N>(x));
    Out[11u * 64u + tid] = Uint<N>(x);
    Out[12u * 64u + tid] = asuint(exp2(s));
    Out[13u * 64u + tid] = asuint(log2(s));
    Out[14u * 64u + tid] = asuint(exp(s));
    Out[15u * 64u + tid] = asuint(log(s));
    Out[16u * 64u + tid] = asuint(sin(s));
    Out[17u * 64u + tid] = asuint(cos(s));
    Out[18u * 64u + tid] = asuint(rsqrt(s));
    Out[19u * 64u + tid] = asuint(Int<N>(r));
    Out[20u * 64u + tid] = Uint<N>(r);
    Out[21u * 64u + tid] = f32tof16(r);
    Out[22u * 64u + tid] = asuint(tan(s));
    Out[23u * 64u + tid] = asuint(log10(s));
  }
};

// ------------------------------ probe_division.hlsl
struct ProbeDivision {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& i) const { return asfloat(In[region * 64u + i]); }
  Float3<N> V(const Uint<N>& i) const { return Float3<N>(F(4, i), F(5, i), F(6, i)); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> a = F(0, tid), b = F(1, tid), x = F(2, tid), y = F(3, tid);
    Float3<N> v = V(tid);
    Out[0u * 64u + tid] = asuint(a / b);
    Out[1u * 64u + tid] = asuint(a / F(1, (tid * 7u + 3u) % 64u));
    Out[2u * 64u + tid] = asuint(F(0, (tid * 13u + 5u) % 64u) / b);
    Out[3u * 64u + tid] = asuint(rcp(x));
    Out[4u * 64u + tid] = asuint(sqrt(y));
    Out[5u * 64u + tid] = asuint(rsqrt(y));
    Out[6u * 64u + tid] = asuint(rcp(a));
    Out[7u * 64u + tid] = asuint(sqrt(abs(a)));
    Out[8u * 64u + tid] = asuint(rsqrt(abs(b)));
    Float3<N> n = normalize(v);
    Out[9u * 64u + tid] = asuint(n.x);
    Out[10u * 64u + tid] = asuint(n.y);
    Out[11u * 64u + tid] = asuint(n.z);
    Out[12u * 64u + tid] = asuint(length(v));
    Out[13u * 64u + tid] = asuint(distance(v, V(tid ^ 5u)));
    Out[14u * 64u + tid] = asuint(a * rcp(b));
  }
};

// ------------------------------ probe_geometry.hlsl
struct ProbeGeometry {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& i) const { return asfloat(In[region * 64u + i]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float4<N> a = Float4<N>(F(0, tid), F(1, tid), F(2, tid), F(3, tid));
    Float4<N> b = Float4<N>(F(4, tid), F(5, tid), F(6, tid), F(7, tid));
    Float<N> t = F(8, tid), e0 = F(9, tid), e1 = F(10, tid), x = F(11, tid), eta = F(12, tid);
    Out[0u * 64u + tid] = asuint(dot(a.xy(), b.xy()));
    Out[1u * 64u + tid] = asuint(dot(a.xyz(), b.xyz()));
    Out[2u * 64u + tid] = asuint(dot(a, b));
    Out[3u * 64u + tid] = asuint(length(a.xy()));
    Out[4u * 64u + tid] = asuint(length(a));
    Float2<N> n2 = normalize(a.xy());
    Out[5u * 64u + tid] = asuint(n2.x);
    Out[6u * 64u + tid] = asuint(n2.y);
    Float4<N> n4 = normalize(a);
    Out[7u * 64u + tid] = asuint(n4.x);
    Out[8u * 64u + tid] = asuint(n4.y);
    Out[9u * 64u + tid] = asuint(n4.z);
    Out[10u * 64u + tid] = asuint(n4.w);
    Out[11u * 64u + tid] = asuint(distance(a.xy(), b.xy()));
    Out[12u * 64u + tid] = asuint(distance(a, b));
    Float3<N> c = cross(a.xyz(), b.xyz());
    Out[13u * 64u + tid] = asuint(c.x);
    Out[14u * 64u + tid] = asuint(c.y);
    Out[15u * 64u + tid] = asuint(c.z);
    Out[16u * 64u + tid] = asuint(lerp(Float<N>(a.x), b.x, t));
    Out[17u * 64u + tid] = asuint(smoothstep(e0, e1, x));
    Float3<N> r = reflect(a.xyz(), b.xyz());
    Out[18u * 64u + tid] = asuint(r.x);
    Out[19u * 64u + tid] = asuint(r.y);
    Out[20u * 64u + tid] = asuint(r.z);
    Float3<N> f = refract(normalize(a.xyz()), normalize(b.xyz()), eta);
    Out[21u * 64u + tid] = asuint(f.x);
    Out[22u * 64u + tid] = asuint(f.y);
    Out[23u * 64u + tid] = asuint(f.z);
    Out[24u * 64u + tid] = asuint(dot(a.xyz(), a.xyz()));
    Out[25u * 64u + tid] = asuint(length(a.xyz()));
  }
};

// ------------------------------ probe_remainder.hlsl
struct ProbeRemainder {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& i) const { return asfloat(In[region * 64u + i]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> a = F(0, tid), b = F(1, tid);
    Out[0u * 64u + tid] = asuint(a % b);
    Out[1u * 64u + tid] = asuint(fmod(a, b));
    Out[2u * 64u + tid] = asuint(a % F(1, (tid * 7u + 3u) % 64u));
    Out[3u * 64u + tid] = asuint(fmod(F(0, (tid * 13u + 5u) % 64u), b));
  }
};

// ------------------------------ probe_transcendentals.hlsl
struct ProbeTranscendentals {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& i) const { return asfloat(In[region * 64u + i]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> a = F(0, tid), b = F(1, tid), y = F(2, tid);
    Out[0u * 64u + tid] = asuint(exp2(a));
    Out[1u * 64u + tid] = asuint(log2(a));
    Out[2u * 64u + tid] = asuint(sin(a));
    Out[3u * 64u + tid] = asuint(cos(a));
    Out[4u * 64u + tid] = asuint(exp(a));
    Out[5u * 64u + tid] = asuint(log(a));
    Out[6u * 64u + tid] = asuint(log10(a));
    Out[7u * 64u + tid] = asuint(pow(a, y));
    Out[8u * 64u + tid] = asuint(tan(a));
    Out[9u * 64u + tid] = asuint(asin(b));
    Out[10u * 64u + tid] = asuint(acos(b));
    Out[11u * 64u + tid] = asuint(atan(a));
    Out[12u * 64u + tid] = asuint(atan2(y, a));
    Out[13u * 64u + tid] = asuint(sinh(b));
    Out[14u * 64u + tid] = asuint(cosh(b));
    Out[15u * 64u + tid] = asuint(tanh(b));
    Out[16u * 64u + tid] = asuint(atan(b));
    Out[17u * 64u + tid] = asuint(pow(abs(b), y));
    Out[18u * 64u + tid] = asuint(pow(b, 4.0f));
    Out[19u * 64u + tid] = asuint(pow(2.0f, y));
    Float<N> s, c;
    sincos(b, s, c);
    Out[20u * 64u + tid] = asuint(s);
    Out[21u * 64u + tid] = asuint(c);
  }
};

// ------------------------------ probe_special_functions.hlsl
struct ProbeSpecialFunctions {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  Float<N> F(uint32_t region, const Uint<N>& i) const { return asfloat(In[region * 64u + i]); }

  void main(SV_GroupIndex<N> tid_in) const {
    const Uint<N> tid = tid_in;
    Float<N> e = F(0, tid), l = F(1, tid), s = F(2, tid), y = F(3, tid);
    Out[0u * 64u + tid] = asuint(exp2(e));
    Out[1u * 64u + tid] = asuint(exp(e));
    Out[2u * 64u + tid] = asuint(log2(l));
    Out[3u * 64u + tid] = asuint(log(l));
    Out[4u * 64u + tid] = asuint(log10(l));
    Out[5u * 64u + tid] = asuint(pow(l, y));
    Out[6u * 64u + tid] = asuint(sin(s));
    Out[7u * 64u + tid] = asuint(cos(s));
    Out[8u * 64u + tid] = asuint(tan(s));
    Out[9u * 64u + tid] = asuint(sinh(y));
    Out[10u * 64u + tid] = asuint(cosh(y));
    Out[11u * 64u + tid] = asuint(tanh(y));
    Out[12u * 64u + tid] = asuint(tanh(s));
  }
};

// ------------------------------ transcendentals_wide.hlsl
struct TranscendentalsWide {
  static constexpr int N = 64;
  static constexpr uint3 numthreads{64, 1, 1};

  StructuredBuffer<uint32_t> In;     // t0
  RWStructuredBuffer<uint32_t> Out;  // u1

  void main(SV_DispatchThreadID<N> id) const {
    const Uint<N> pair = id.x;
    Float<N> x = asfloat(In[2u * pair]), y = asfloat(In[2u * pair + 1u]);
    Uint<N> o = 16u * pair;
    Out[o + 0u] = asuint(exp2(x));
    Out[o + 1u] = asuint(log2(x));
    Out[o + 2u] = asuint(sin(x));
    Out[o + 3u] = asuint(cos(x));
    Out[o + 4u] = asuint(exp(x));
    Out[o + 5u] = asuint(log(x));
    Out[o + 6u] = asuint(log10(x));
    Out[o + 7u] = asuint(pow(x, y));
    Out[o + 8u] = asuint(tan(x));
    Out[o + 9u] = asuint(asin(x));
    Out[o + 10u] = asuint(acos(x));
    Out[o + 11u] = asuint(atan(x));
    Out[o + 12u] = asuint(atan2(y, x));
    Out[o + 13u] = asuint(sinh(x));
    Out[o + 14u] = asuint(cosh(x));
    Out[o + 15u] = asuint(tanh(x));
  }
};

/// The port of a probe with `In` at t0 and `Out` at u1 (every probe but probe_order).
template <class Probe>
Port InOutProbePort(const char* hlsl_file) {
  return MakePort<Probe>(hlsl_file, "main", "tests/pipelines/ports/probes.cpp",
                         [](PortContext& ctx, Probe& k) {
                           k.In = ctx.Bind<StructuredBuffer<uint32_t>>("t0", "In");
                           k.Out = ctx.Bind<RWStructuredBuffer<uint32_t>>("u1", "Out");
                         });
}

}  // namespace

void RegisterProbePorts(std::vector<Port>& ports) {
  ports.push_back(MakePort<ProbeOrder>("probe_order.hlsl", "main", "tests/pipelines/ports/probes.cpp",
                                       [](PortContext& ctx, ProbeOrder& k) {
                                         k.X = ctx.Bind<StructuredBuffer<uint32_t>>("t0", "X");
                                         k.Y = ctx.Bind<StructuredBuffer<uint32_t>>("t1", "Y");
                                         k.Out = ctx.Bind<RWStructuredBuffer<uint32_t>>("u2", "Out");
                                       }));
  ports.push_back(InOutProbePort<ProbeSpecial>("probe_special.hlsl"));
  ports.push_back(InOutProbePort<ProbeFloatEquality>("probe_float_equality.hlsl"));
  ports.push_back(InOutProbePort<ProbeMinMax>("probe_minmax.hlsl"));
  ports.push_back(InOutProbePort<ProbeMinMaxLiterals>("probe_minmax_literals.hlsl"));
  ports.push_back(InOutProbePort<ProbeDenormals>("probe_denormals.hlsl"));
  ports.push_back(InOutProbePort<ProbeDenormalsOps>("probe_denormals_ops.hlsl"));
  ports.push_back(InOutProbePort<ProbeNanMath>("probe_nan_math.hlsl"));
  ports.push_back(InOutProbePort<ProbeDivision>("probe_division.hlsl"));
  ports.push_back(InOutProbePort<ProbeGeometry>("probe_geometry.hlsl"));
  ports.push_back(InOutProbePort<ProbeRemainder>("probe_remainder.hlsl"));
  ports.push_back(InOutProbePort<ProbeTranscendentals>("probe_transcendentals.hlsl"));
  ports.push_back(InOutProbePort<TranscendentalsWide>("transcendentals_wide.hlsl"));
  ports.push_back(InOutProbePort<ProbeSpecialFunctions>("probe_special_functions.hlsl"));
}

}  // namespace waveemu::oracle
