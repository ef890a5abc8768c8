// profile.h -- device profiles: the wave size plus one policy per implementation-defined or
// undefined point of the HLSL wave model (DESIGN §3).
//
// A profile is plain data so users can build their own. The built-in ones are `spec` (the
// default: deterministic rules, undefined values poisoned and reported), `lavapipe` and `nvidia`
// (measured on real drivers; see docs/quick_reference.md for what each policy does). The
// texture sampler's device parameters are a SamplerModel (docs/textures.md).
#pragma once

#include "emulator/format.h"

#include <string>
#include <string_view>
#include <vector>

namespace waveemu {

/// Order in which float WaveActiveSum/Product (and the float parts of scans) combine lanes.
enum class ReductionOrder {
  kSequential,  // lane order, active lanes only: ((x0 + x1) + x2) + ...
  kButterfly,   // xor butterfly, offsets 1, 2, 4, ...; inactive lanes contribute the identity
  kCompactedHillisSteele,  // the active lanes renumbered 0..k-1, inclusive Hillis-Steele scan over
                           // them (offsets 1, 2, 4, ...), its last element; equals kButterfly on
                           // a full wave (measured on NVIDIA: docs/nvidia_float_order.md)
};

/// Order of float exclusive scans (WavePrefixSum/Product, WaveMultiPrefixSum/Product).
enum class ScanOrder {
  kSequential,   // running value in lane order over active lanes
  kHillisSteele, // inclusive Hillis-Steele scan (offsets 1, 2, 4, ...) with the identity in
                 // inactive lanes, shifted up by one lane
  kCompactedHillisSteele,  // the same over the active lanes renumbered 0..k-1: active lane a_i
                           // gets element i-1 (NVIDIA, docs/nvidia_float_order.md)
};

/// Float denormals: kept, or replaced by a zero of the same sign (as inputs and results of wave
/// reductions and scans: `wave_denormals`; as operands and results of per-thread fp32
/// arithmetic, comparisons and math functions: `float_denormals`).
enum class DenormMode { kPreserve, kFlushToZero };

/// What per-thread float min and max (and clamp and saturate, built on them) return when the two
/// operands compare equal as +0 and -0 (probe_minmax).
enum class ZeroTie {
  kSecondOperand,     // the second operand: min(+0, -0) == -0, min(-0, +0) == +0 (x86
                      // minps/maxps; lavapipe)
  kNegativeZeroBelow, // -0 orders below +0: min gives -0 and max +0 in either order (the H100)
};

/// Bit pattern of a NaN produced by a wave reduction or scan, of per-thread float min and max
/// when both operands are NaN, and of every other per-thread fp32 operation that gives a NaN
/// (arithmetic, unary minus, the math functions).
enum class NanResult {
  kPropagate,  // whatever the IEEE operation gives (x86: first NaN operand, quieted)
  kCanonical,  // 0x7fffffff (float), 0x7fffffffffffffff (double)
};

/// The NaN of the math functions a driver computes in software (log2, sin, cos, tan, and log,
/// log10 and pow built on log2) and of f32tof16, under NanResult::kPropagate (kCanonical gives 0x7fffffff
/// and the half 0x7fff: the H100, probe_nan_math). For fp32 under MathLibrary::kLlvmpipe the
/// functions give lavapipe's own NaNs and this applies to f32tof16 only.
enum class LibraryNan {
  kHost,     // x86's C library and F16C: a NaN operand's payload, quieted (log2 of 0x7fa01234 is
             // 0x7fe01234; f32tof16 keeps the payload's top bits); an invalid operation (log2(-1),
             // sin(inf)) gives 0xffc00000
  kDefault,  // +NaN 0x7fc00000 for every NaN result; f32tof16 gives 0x7e00 with the operand's sign
             // (Mesa llvmpipe, probe_nan_math)
};

/// How the fp32 transcendentals are computed: exp2, log2, sin, cos, tan, asin, acos, atan, atan2,
/// sinh, cosh, tanh, pow, and exp, log, log10 and sincos built on them (half and double: kHost).
enum class MathLibrary {
  kHost,      // the C library in float (std::exp2, ...), in DXC's expansions: close to every
              // device, bit-exact to none (D3D allows error; docs/quick_reference.md)
  kLlvmpipe,  // Mesa 22.3 lavapipe's own polynomials and NIR expansions, bit for bit
              // (emulator/llvmpipe_math.h; probe_transcendentals)
  kH100,      // the H100's special-function unit for exp2, log2, sin and cos, bit for bit
              // (emulator/nvidia_tables.h; run 18), so exp, log, log10, pow and sincos built
              // on them are too, and tan, sinh, cosh and tanh as its compiler builds them
              // (run 19: tanh is CUDA's tanhf); asin, acos, atan and atan2 stay kHost's (not
              // modelled)
};

/// (int)x and (uint)x of fp32 lanes where x is NaN or out of the integer's range.
enum class FloatToInt {
  kSaturate,  // D3D ftoi/ftou: NaN gives 0, other values the nearest representable integer
  kX86,       // x86's truncating conversions (cvttps2dq, AVX-512 cvttps2udq; Mesa llvmpipe on an
              // AVX-512 host): a NaN or a value whose truncation is out of range gives 0x80000000
              // (int) or 0xffffffff (uint, so (uint)-1.0f too; (uint)-0.5f is 0)
  kX86Avx2,   // llvmpipe on an x86 host without AVX-512 (measured on an AMD Zen 3, session 41):
              // (int) as kX86; (uint) is the low 32 bits of a 64-bit signed truncation, 0 where
              // that is out of range, so NaN, infinities, +-FLT_MAX and 2^32 give 0, -1.0f
              // 0xffffffff, -2.0f 0xfffffffe, -2^31 0x80000000 and -2147483904.0f 0x7fffff00
};

/// How llvmpipe, which compiles for the CPU it runs on, converts fp32 to integers on this host:
/// kX86Avx2 on an x86 CPU without AVX-512F, else kX86 (the only hosts measured are x86).
FloatToInt LlvmpipeFloatToInt();

/// How per-thread fp32 division, rcp, sqrt and rsqrt round.
enum class DivideSqrt {
  kCorrectlyRounded,  // IEEE: a / b, rcp(x) = 1 / x and sqrt(x) rounded once; rsqrt(x) =
                      // 1 / sqrt(x), two roundings (Mesa llvmpipe: every float in [1, 4), run 11)
  kH100Tables,        // the H100's: rcp, sqrt and rsqrt read from its tables, measured over every
                      // significand (run 11: within 0.98, 0.95 and 1.52 ulp, not correctly
                      // rounded), scaled by the exponent; a / b = a * rcp(b), rounded once
                      // (emulator/nvidia_tables.h)
};

/// Whose expansion of the functions a compiler writes out in arithmetic: dot, length, distance,
/// normalize, cross, lerp, smoothstep, reflect and refract of float (fp32) values, and % and fmod
/// of fp32 (% of fp64 too); half and double otherwise take kDxc's (nothing measured them).
/// probe_division, probe_geometry and probe_remainder.
enum class FunctionExpansion {
  kDxc,     // DXC's (lib/HLSL/HLOperationLower.cpp): each product and sum rounded, dot left to
            // right, normalize = v * rsqrt(dot(v, v)), lerp = a + s * (b - a); % is DXIL FRem
            // (C's fmod: exact, the dividend's sign), fmod DXC's frac-based expansion
  kMesa,    // Mesa's (llvmpipe): DXC's, but normalize = v / sqrt(dot(v, v)), lerp =
            // a * (1 - s) + b * s and refract's k = 1 - eta * (eta * (1 - d * d)); % and fmod
            // are glslang's OpFMod, x - y * floor(x / y), each step rounded
  kNvidia,  // the H100's: DXC's with each product fused into the add after it (as the profile
            // fuses mad), dot summed y, x, z, w: mad(w, w', mad(z, z', mad(x, x', y * y'))),
            // smoothstep as GLSL's (s * s) * (3 - 2 * s); % and fmod are OpFMod,
            // mad(-y, floor(x / y), x) with the profile's division
};

/// WaveActiveMin/Max when every active lane holds NaN.
enum class AllNanMinMax {
  kIdentity,   // +inf for Min, -inf for Max (NaNs are skipped and nothing is left)
  kCanonical,  // 0x7fffffff / 0x7fffffffffffffff
  kPoison,     // undefined: poison value and a diagnostic
};

/// How WaveActiveAllEqual and WaveMatch compare floats.
enum class FloatEquality {
  kBitwise,  // same bits: NaN equals an identical NaN, +0 != -0
  kOrdered,  // IEEE ordered-equal: any NaN makes it false, +0 == -0
  kUnorderedWithLast,  // WaveActiveAllEqual compares each active lane with the last active one by
                       // IEEE unordered-or-equal (a NaN on either side is equal, +0 == -0), as
                       // Mesa llvmpipe's vote_feq (fcmp ueq); WaveMatch compares bits
};

/// Value read from a lane that is inactive (WaveReadLaneAt, quad reads of inactive lanes).
enum class InactiveRead {
  kLaneValue,  // whatever the lane's register holds
  kZero,       // 0
  kPoison,     // poison value and a diagnostic
};

/// Signed integer division or remainder by zero, and INT_MIN / -1.
enum class SignedDivision {
  kAllOnes,  // -1 (0xffffffff), as NVIDIA and WARP
  kPoison,   // poison value and a diagnostic
};

/// Threads that reach a switch's `default` through several different selector values.
enum class SwitchDefaultGrouping {
  kPerTarget,  // one group for the whole default block (the DXIL rule: tangles per branch target)
  kPerValue,   // one group per distinct selector value, in ascending order of first thread
};

// ------------------------------------------------------------------------------------------------
// The sampler model: what D3D leaves to the implementation in SampleLevel and in format
// conversions (semantics.md §4.1, §4.2). Measured per device by tests/pipelines/probe_sampler_*
// (docs/textures.md).

/// How a float texel coordinate becomes fixed point.
/// kHalfUp: floor(x + 1/2), ties toward +infinity (NVIDIA H100).
enum class FixedRounding : uint8_t { kNearestEven, kFloor, kHalfUp };
/// How the four bilinear taps of a float (or decoded) texture combine: D3D's Σ texel·wU·wV in tap
/// order; two lerps a·(1−w) + b·w along U, then one along V; or fma(w, b − a, a) along U, then V
/// (Mesa llvmpipe: LLVM fuses its fmuladd); or (NVIDIA H100) four fixed-point tap weights from
/// the quantised wU = U/2^b, wV = V/2^b: k11 = (U·V + 2^(b−1)) >> b, k10 = U − k11, k01 = V − k11,
/// k00 = 2^b − U − V + k11, and Σ texel·k / 2^b computed exactly, rounded once to float with ties
/// away from zero.
enum class FilterArithmetic : uint8_t {
  kWeightedSum,
  kLerpUThenV,
  kFusedLerpUThenV,
  kExactSplitWeights,
};
/// How bilinear filtering treats R8G8B8A8_UNORM texels: decoded to float and filtered like a float
/// texture, or (Mesa llvmpipe's AoS path) on the 8-bit codes with 8-bit weights k/256 (rounded to
/// nearest even): a + ((k·(b − a) + 128) >> 8) along U, then V, the resulting code decoded last;
/// or (NVIDIA H100) with kExactSplitWeights' four weights on the codes, S = Σ code·k, and the
/// result a 16-bit UNORM value: ((257·S + 128) >> 8) / 65535.
enum class UnormFilter : uint8_t { kFloat, kFixed8, kUnorm16Result };
/// What bilinear filtering of R16G16B16A16_FLOAT texels returns: the filter's float result
/// (kFloat), or (NVIDIA H100, probe_sampler_precision, with kExactSplitWeights) a half: each tap
/// with a non-zero weight truncated toward zero to a multiple of 2^(E−14), E the exponent of the
/// largest of them, Σ tap·k / 2^bits exactly, rounded to the nearest half, ties away from zero
/// (kHalfResult; other arithmetic: its float result rounded so).
enum class HalfFilter : uint8_t { kFloat, kHalfResult };

/// The sampler's and the format conversions' device parameters. Defaults: the D3D minimums and
/// ideal rules.
struct SamplerModel {
  int subtexel_bits = 8;  // fraction bits of the fixed-point texel coordinate (D3D: ≥ 8)
  FixedRounding coordinate_rounding = FixedRounding::kNearestEven;  // float -> fixed (D3D: RNE)
  bool quantise_weights = true;  // weights are k / 2^bits; false: the float fraction itself
  int lod_fraction_bits = 8;     // LOD as 8.8 fixed point (D3D §7.18.10)
  FilterArithmetic arithmetic = FilterArithmetic::kWeightedSum;
  UnormFilter unorm_filter = UnormFilter::kFloat;
  HalfFilter half_filter = HalfFilter::kFloat;  // R16G16B16A16_FLOAT under linear filtering
  UnormDecode unorm_decode = UnormDecode::kExact;  // UNORM8 reads (Load and filtering)
  SrgbDecode srgb_decode = SrgbDecode::kExact;     // sRGB8 reads
  // Point sampling with MIRROR / MIRROR_ONCE: false mirrors the texel index floor(u·size) (D3D
  // §7.18.7); true mirrors the normalised coordinate first and floors after (llvmpipe), which
  // picks the other texel where u·size lands exactly on a texel edge in a mirrored copy.
  bool mirror_point_by_coordinate = false;
  UnormRounding unorm_rounding = UnormRounding::kHalfUp;  // float -> UNORM/sRGB stores
  HalfRounding half_rounding = HalfRounding::kNearestEven;  // float -> R16G16B16A16_FLOAT stores

  bool operator==(const SamplerModel&) const = default;
};

struct DeviceProfile {
  std::string name;
  int wave_size = 32;
  ReductionOrder reduction_order = ReductionOrder::kSequential;
  ScanOrder scan_order = ScanOrder::kSequential;
  DenormMode wave_denormals = DenormMode::kPreserve;
  NanResult nan_result = NanResult::kPropagate;
  AllNanMinMax all_nan_min_max = AllNanMinMax::kPoison;
  FloatEquality float_equality = FloatEquality::kOrdered;
  InactiveRead inactive_read = InactiveRead::kPoison;
  SignedDivision signed_division = SignedDivision::kPoison;
  SwitchDefaultGrouping switch_default = SwitchDefaultGrouping::kPerTarget;
  bool fuse_multiply_add = false;  // whether mad() contracts a*b+c into one rounding
  // Per-thread min/max, clamp and saturate on float (half and double always take the defaults;
  // nothing measured them). Two NaN operands give nan_result's NaN.
  ZeroTie min_max_zero_tie = ZeroTie::kSecondOperand;
  // Per-thread float (fp32) operations on per-thread and uniform Lanes values: + - * / %,
  // comparisons, negation, abs, min/max, mad and the math functions but floor, ceil, round and
  // trunc flush their operands and results (kFlushToZero) or keep denormals. Selects, loads,
  // stores, bit casts and conversions never flush; half and double always keep theirs (DXIL's
  // fp32-denorm-mode is fp32 only).
  DenormMode float_denormals = DenormMode::kPreserve;
  LibraryNan library_nan = LibraryNan::kHost;
  MathLibrary math_library = MathLibrary::kHost;
  FloatToInt float_to_int = FloatToInt::kSaturate;
  DivideSqrt divide_sqrt = DivideSqrt::kCorrectlyRounded;  // per-thread fp32 /, rcp, sqrt, rsqrt
  FunctionExpansion function_expansion = FunctionExpansion::kDxc;
  bool poison_undefined = true;    // spec profile: undefined points get the poison pattern
  SamplerModel sampler{};          // SampleLevel and texel format conversions (docs/textures.md)
};

/// The default profile: deterministic choices, every undefined point poisoned and reported.
inline DeviceProfile SpecProfile() {
  DeviceProfile p;
  p.name = "spec";
  return p;
}

/// Mesa lavapipe 22.3 (llvmpipe JIT), wave 8 on this project's machines.
inline DeviceProfile LavapipeProfile() {
  DeviceProfile p;
  p.name = "lavapipe";
  p.wave_size = 8;
  p.reduction_order = ReductionOrder::kSequential;
  p.scan_order = ScanOrder::kSequential;
  p.wave_denormals = DenormMode::kPreserve;
  p.nan_result = NanResult::kPropagate;
  p.all_nan_min_max = AllNanMinMax::kIdentity;
  p.float_equality = FloatEquality::kUnorderedWithLast;
  p.inactive_read = InactiveRead::kLaneValue;
  p.signed_division = SignedDivision::kAllOnes;
  p.fuse_multiply_add = false;
  // probe_nan_math: llvmpipe's log2, sin, cos, tan give 0x7fc00000 for NaNs, its f32tof16 a
  // payload-free half NaN; its float-to-int conversions are x86's, as this host has them.
  p.library_nan = LibraryNan::kDefault;
  p.float_to_int = LlvmpipeFloatToInt();
  // probe_transcendentals: exp2, log2, sin, cos and pow are gallivm's polynomials, the others
  // NIR's expansions of them (docs/lavapipe_transcendentals.md).
  p.math_library = MathLibrary::kLlvmpipe;
  // probe_division and probe_geometry: normalize divides by the length, lerp weighs both ends,
  // refract's k multiplies by eta twice.
  p.function_expansion = FunctionExpansion::kMesa;
  p.poison_undefined = false;
  // Measured by tests/pipelines/probe_sampler_*.yaml (docs/textures.md): float textures filter
  // with the float fraction as weight and fused lerps; UNORM8 in 8-bit fixed point; llvmpipe's
  // UNORM and sRGB decoders; point MIRROR folds the coordinate; stores round to nearest even
  // (UNORM8) and toward zero (half).
  p.sampler.quantise_weights = false;
  p.sampler.arithmetic = FilterArithmetic::kFusedLerpUThenV;
  p.sampler.unorm_filter = UnormFilter::kFixed8;
  p.sampler.unorm_decode = UnormDecode::kTimesReciprocal;
  p.sampler.srgb_decode = SrgbDecode::kLlvmpipePolynomial;
  p.sampler.mirror_point_by_coordinate = true;
  p.sampler.unorm_rounding = UnormRounding::kNearestEven;
  p.sampler.half_rounding = HalfRounding::kTowardZero;
  return p;
}

/// NVIDIA H100, driver 580, Vulkan, wave 32.
inline DeviceProfile NvidiaProfile() {
  DeviceProfile p;
  p.name = "nvidia";
  p.wave_size = 32;
  p.reduction_order = ReductionOrder::kCompactedHillisSteele;
  p.scan_order = ScanOrder::kCompactedHillisSteele;
  p.wave_denormals = DenormMode::kFlushToZero;
  p.nan_result = NanResult::kCanonical;
  p.all_nan_min_max = AllNanMinMax::kCanonical;
  p.float_equality = FloatEquality::kOrdered;
  p.inactive_read = InactiveRead::kZero;
  p.signed_division = SignedDivision::kAllOnes;
  p.switch_default = SwitchDefaultGrouping::kPerValue;
  p.fuse_multiply_add = true;
  // Runs 8 to 10 (probe_minmax, probe_denormals, probe_denormals_ops, probe_nan_math): min and
  // max order -0 below +0; per-thread fp32 arithmetic and comparisons flush denormal operands
  // and results (not floor, ceil, round, trunc); every NaN they give is 0x7fffffff (nan_result),
  // f32tof16's 0x7fff; conversions to int saturate (float_to_int's default).
  p.min_max_zero_tie = ZeroTie::kNegativeZeroBelow;
  p.float_denormals = DenormMode::kFlushToZero;
  // Run 11: fp32 division is a * rcp(b); rcp, sqrt and rsqrt come from the device's tables.
  p.divide_sqrt = DivideSqrt::kH100Tables;
  // Run 18: exp2, log2, sin and cos are MUFU.EX2, LG2, SIN and COS (every fp32 bit pattern).
  p.math_library = MathLibrary::kH100;
  // probe_division (run 12) and probe_geometry (run 13): dot sums y*y', x*x', z*z', w*w' in
  // fused steps; cross, lerp, reflect and refract fuse each product into the add after it.
  p.function_expansion = FunctionExpansion::kNvidia;
  p.poison_undefined = false;
  // Measured by tests/pipelines/probe_sampler_*.yaml on the H100 (docs/textures.md): 8-bit
  // weights rounded half up, split into four fixed-point tap weights and summed exactly; UNORM8
  // filtered into 16-bit UNORM; sRGB decoded through the device's table; UNORM8 stores round ties
  // down, half stores toward zero; run 5 (probe_sampler_precision): UNORM8 stores truncate to 12
  // fraction bits first, half textures filter to a half result from taps cut to 15 bits below
  // the largest. Not modelled: sRGB filtering's last bit (docs/textures.md).
  p.sampler.coordinate_rounding = FixedRounding::kHalfUp;
  p.sampler.arithmetic = FilterArithmetic::kExactSplitWeights;
  p.sampler.unorm_filter = UnormFilter::kUnorm16Result;
  p.sampler.srgb_decode = SrgbDecode::kNvidiaTable;
  p.sampler.unorm_rounding = UnormRounding::kFixed12HalfDown;
  p.sampler.half_rounding = HalfRounding::kTowardZero;
  p.sampler.half_filter = HalfFilter::kHalfResult;
  return p;
}

/// The built-in profiles by name ("spec", "lavapipe", "nvidia"); throws UsageError otherwise.
DeviceProfile ProfileByName(std::string_view name);
std::vector<std::string> ProfileNames();

}  // namespace waveemu
