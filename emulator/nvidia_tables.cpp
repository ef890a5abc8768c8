// nvidia_tables.cpp -- decodes the H100's tables and computes rcp, sqrt, rsqrt, exp2, log2, sin,
// cos and tanh with them (nvidia_tables.h).
#include "emulator/nvidia_tables.h"

#include "emulator/lanes.h"  // FlushDenormal

#include <zlib.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

// The tables, zlib data written by tools/device/make_h100_tables.py, go into the library as
// they are; WAVEEMU_DATA_DIR is emulator/data (CMakeLists.txt). The labels are global (an LTO
// partition other than this asm's may refer to them) and hidden (no shared object exports them).
#define WAVEEMU_EMBED(name, file)                                                          \
  asm(".pushsection .rodata\n.balign 16\n.globl " #name "_begin\n.globl " #name "_end\n" \
      ".hidden " #name "_begin\n.hidden " #name "_end\n" #name "_begin:\n.incbin \""      \
      WAVEEMU_DATA_DIR "/" file "\"\n" #name "_end:\n.popsection\n")
WAVEEMU_EMBED(waveemu_h100_rcp, "h100_rcp.z");
WAVEEMU_EMBED(waveemu_h100_sqrt, "h100_sqrt.z");
WAVEEMU_EMBED(waveemu_h100_rsqrt, "h100_rsqrt.z");
WAVEEMU_EMBED(waveemu_h100_ex2, "h100_ex2.z");
WAVEEMU_EMBED(waveemu_h100_lg2, "h100_lg2.z");
WAVEEMU_EMBED(waveemu_h100_sin, "h100_sin.z");
#undef WAVEEMU_EMBED

extern "C" {
#define WAVEEMU_EMBEDDED(name)                                              \
  extern const unsigned char name##_begin[] __attribute__((visibility("hidden"))); \
  extern const unsigned char name##_end[] __attribute__((visibility("hidden")))
WAVEEMU_EMBEDDED(waveemu_h100_rcp);
WAVEEMU_EMBEDDED(waveemu_h100_sqrt);
WAVEEMU_EMBEDDED(waveemu_h100_rsqrt);
WAVEEMU_EMBEDDED(waveemu_h100_ex2);
WAVEEMU_EMBEDDED(waveemu_h100_lg2);
WAVEEMU_EMBEDDED(waveemu_h100_sin);
#undef WAVEEMU_EMBEDDED
}

namespace waveemu::detail {
namespace {

float FromBits(uint32_t b) { return std::bit_cast<float>(b); }

/// The embedded zlib data [begin, end), which must inflate to exactly `size` bytes.
std::vector<uint8_t> Inflate(const unsigned char* begin, const unsigned char* end, size_t size) {
  std::vector<uint8_t> bytes(size);
  uLongf length = uLongf(size);
  if (uncompress(bytes.data(), &length, begin, uLong(end - begin)) != Z_OK || length != size)
    throw std::runtime_error("waveemu: an H100 table in the library is damaged (rebuild it)");
  return bytes;
}

/// One table: 2-bit codes, entry k in bits 2 * (k % 4) of byte k / 4; the device's result is
/// the reference's bits plus code - bias.
class Table {
 public:
  Table(const unsigned char* begin, const unsigned char* end, uint32_t entries, int bias)
      : codes_(Inflate(begin, end, entries / 4)), bias_(bias) {}
  /// The device's bits for entry k whose correctly rounded reference is `reference`.
  uint32_t Bits(uint32_t k, float reference) const {
    const int code = (codes_[k >> 2] >> (2 * (k & 3))) & 3;
    return std::bit_cast<uint32_t>(reference) + uint32_t(code - bias_);
  }

 private:
  std::vector<uint8_t> codes_;
  int bias_;
};

/// Run 18's log2 and sin tables: the device's words, stored as their wrapped first differences
/// (little-endian uint32, make_h100_tables.py).
class Words {
 public:
  Words(const unsigned char* begin, const unsigned char* end, uint32_t entries)
      : words_(entries) {
    const std::vector<uint8_t> bytes = Inflate(begin, end, size_t(entries) * 4);
    uint32_t sum = 0;
    for (uint32_t k = 0; k < entries; ++k) {
      const uint8_t* b = &bytes[4 * size_t(k)];
      sum += uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
      words_[k] = FromBits(sum);
    }
  }
  float operator[](uint32_t k) const { return words_[k]; }

 private:
  std::vector<float> words_;
};

/// MUFU.LG2 of asfloat(0x3f800000 + m) at m, of asfloat(0x3f000000 + m) at 2^23 + m.
const Words& Lg2Table() {
  static const Words t(waveemu_h100_lg2_begin, waveemu_h100_lg2_end, 1u << 24);
  return t;
}
/// MUFU.SIN at p * 2^-25 of a turn at p < 2^23 (the first quadrant); MUFU.COS at p is the entry
/// at 2^23 - 1 - p (run 18: every p).
const Words& SinTable() {
  static const Words t(waveemu_h100_sin_begin, waveemu_h100_sin_end, 1u << 23);
  return t;
}

const Table& RcpTable() {
  static const Table t(waveemu_h100_rcp_begin, waveemu_h100_rcp_end, 1u << 23, 1);
  return t;
}
const Table& SqrtTable() {
  static const Table t(waveemu_h100_sqrt_begin, waveemu_h100_sqrt_end, 1u << 24, 1);
  return t;
}
/// MUFU.EX2 at k * 2^-23, k < 2^23, against Exp2Reference(k): within one ulp everywhere.
const Table& Ex2Table() {
  static const Table t(waveemu_h100_ex2_begin, waveemu_h100_ex2_end, 1u << 23, 1);
  return t;
}

/// 2^(k * 2^-23) rounded to float, from a Taylor series of e^(k * 2^-23 * ln 2) in double by
/// Horner's scheme, one IEEE operation a step and no library call, so that every machine gets the
/// bits make_h100_tables.py coded the table against (the library's exp2 may differ in the last
/// bit of a double, and so, rarely, in the float). Within 1e-16 of the true value.
float Exp2Reference(uint32_t k) {
  static const std::array<double, 18> coefficients = [] {
    std::array<double, 18> c{};
    double factorial = 1.0;  // exact up to 17!
    for (int n = 0; n < 18; ++n) {
      factorial *= n > 1 ? double(n) : 1.0;
      c[size_t(n)] = 1.0 / factorial;
    }
    return c;
  }();
  const double y = (double(k) / 8388608.0) * 0x1.62e42fefa39efp-1;  // ln 2
  double r = coefficients[17];
  for (int n = 16; n >= 0; --n) r = r * y + coefficients[size_t(n)];
  return float(r);
}

const Table& RsqrtTable() {
  static const Table t(waveemu_h100_rsqrt_begin, waveemu_h100_rsqrt_end, 1u << 24, 2);
  return t;
}

constexpr uint32_t kSign = 0x80000000u;
constexpr uint32_t kInf = 0x7f800000u;

/// The special-function unit's NaN.
float MufuNan() { return FromBits(0x7fffffffu); }

/// The H100's flush of an fp32 operand or result (an .ftz instruction's).
float Ftz(float v) { return FlushDenormal(v, DenormMode::kFlushToZero); }

/// e^x as the H100 computes it: exp2(x * 1.44269502f), the product flushed.
float H100Exp(float x) { return H100Exp2(Ftz(x * FromBits(0x3fb8aa3bu))); }

/// v rounded toward zero to float (v finite).
float ToFloatTowardZero(double v) {
  const float f = float(v);  // to nearest
  if (std::fabs(double(f)) > std::fabs(v)) return std::nextafter(f, 0.0f);
  return f;
}

/// Exponent field 0 (a zero, or a denormal the caller did not flush) counts as zero.
bool IsZeroOrDenormal(uint32_t b) { return (b & kInf) == 0; }

/// The sqrt/rsqrt tables' entry for a positive normal x and the power j with x = y * 4^j,
/// y = asfloat(0x3f800000 + entry) in [1, 4).
void SplitForRoot(uint32_t b, uint32_t& entry, int& j) {
  const int e = int(b >> 23) - 127;
  entry = (uint32_t(e & 1) << 23) | (b & 0x7fffffu);
  j = (e - (e & 1)) / 2;
}

}  // namespace

float H100Rcp(float x) {
  const uint32_t b = std::bit_cast<uint32_t>(x), sign = b & kSign;
  if (std::isnan(x)) return std::numeric_limits<float>::quiet_NaN();
  if (IsZeroOrDenormal(b)) return FromBits(sign | kInf);
  if ((b & ~kSign) == kInf) return FromBits(sign);
  const uint32_t m = b & 0x7fffffu;
  const float y = FromBits(0x3f800000u | m);  // in [1, 2)
  const uint32_t r = RcpTable().Bits(m, 1.0f / y);  // in (0.5, 1]
  const int exponent = int(r >> 23) - (int((b >> 23) & 0xffu) - 127);
  if (exponent <= 0) return FromBits(sign);  // below 2^-126: flushed
  return FromBits(sign | (uint32_t(exponent) << 23) | (r & 0x7fffffu));
}

float H100Sqrt(float x) {
  const uint32_t b = std::bit_cast<uint32_t>(x);
  if (IsZeroOrDenormal(b)) return FromBits(b & kSign);
  if (std::isnan(x) || (b & kSign)) return std::numeric_limits<float>::quiet_NaN();
  if (b == kInf) return x;
  uint32_t entry;
  int j;
  SplitForRoot(b, entry, j);
  const float y = FromBits(0x3f800000u + entry);
  return FromBits(SqrtTable().Bits(entry, std::sqrt(y)) + uint32_t(j * (1 << 23)));
}

float H100Rsqrt(float x) {
  const uint32_t b = std::bit_cast<uint32_t>(x);
  if (IsZeroOrDenormal(b)) return FromBits((b & kSign) | kInf);
  if (std::isnan(x) || (b & kSign)) return std::numeric_limits<float>::quiet_NaN();
  if (b == kInf) return 0.0f;
  uint32_t entry;
  int j;
  SplitForRoot(b, entry, j);
  const float y = FromBits(0x3f800000u + entry);
  const float reference = float(1.0 / std::sqrt(double(y)));
  return FromBits(RsqrtTable().Bits(entry, reference) - uint32_t(j * (1 << 23)));
}

float H100Exp2(float x) {
  if (std::isnan(x)) return MufuNan();
  if (x >= 128.0f) return std::numeric_limits<float>::infinity();
  if (x <= -128.0f) return 0.0f;
  // |x| * 2^23 < 2^30 is exact, and so is its truncation.
  const int64_t magnitude = int64_t(std::trunc(std::fabs(x) * 8388608.0f));
  const int64_t q = !std::signbit(x)        ? magnitude
                    : magnitude & 0x7fffff ? ~magnitude  // ones' complement, not -magnitude
                                           : -magnitude;
  const int i = int(q >> 23);  // floor: q's sign carries into the integer part
  if (i < -126) return 0.0f;
  const uint32_t k = uint32_t(q & 0x7fffff);
  return std::ldexp(FromBits(Ex2Table().Bits(k, Exp2Reference(k))), i);
}

float H100Log2(float x) {
  const uint32_t b = std::bit_cast<uint32_t>(x), m = b & 0x7fffffu;
  if (IsZeroOrDenormal(b)) return -std::numeric_limits<float>::infinity();  // -0 too
  if (std::isnan(x) || x < 0.0f) return MufuNan();
  if (std::isinf(x)) return x;
  const int e = int(b >> 23) - 127;
  // As run 18's model computed it on the device: the sum in double (exact but for e < 0 with
  // the smallest log2(m / 2), where it rounds to nearest first), then toward zero to float.
  const double v = e >= 0 ? double(e) + double(Lg2Table()[m])
                          : double(e) + 1.0 + double(Lg2Table()[(1u << 23) + m]);
  return ToFloatTowardZero(v);
}

float H100Tan(float x) { return Ftz(H100Sin(x) * H100Rcp(H100Cos(x))); }
float H100Sinh(float x) { return Ftz(Ftz(H100Exp(x) - H100Exp(-x)) * 0.5f); }
float H100Cosh(float x) { return Ftz(Ftz(H100Exp(x) + H100Exp(-x)) * 0.5f); }

float H100Tanh(float x) {
  // CUDA's tanhf, instruction for instruction (run 19: nvcc -ptx; its words are the Vulkan
  // driver's): 1 - 2 / (2^(2|x| log2 e) + 1) with the unit's ex2 and rcp from |x| >= 0.6 (1 from
  // 9.01), x's sign copied; below, an odd polynomial in fused steps.
  const float a = std::fabs(x);
  const float e = H100Exp2(Ftz(a * FromBits(0x4038aa3bu)));  // 2 log2 e
  const float t = Ftz(std::fma(H100Rcp(Ftz(e + 1.0f)), -2.0f, 1.0f));
  const float large = std::copysign(a >= FromBits(0x41102cb4u) ? 1.0f : t, x);
  const float x2 = Ftz(x * x);
  float p = Ftz(std::fma(FromBits(0x3c80f082u), x2, FromBits(0xbd563caeu)));
  p = Ftz(std::fma(p, x2, FromBits(0x3e085941u)));
  p = Ftz(std::fma(p, x2, FromBits(0xbeaaa9edu)));
  p = Ftz(std::fma(p, x2, 0.0f));
  const float small = Ftz(std::fma(p, x, x));
  return a >= FromBits(0x3f19999au) ? large : small;  // 0.6; a NaN takes small
}

namespace {

/// Where the special-function unit reads sin and cos of x: r = x * 0.159154937f (0x3e22f983,
/// 1/2pi) rounded toward zero and flushed, the fraction of a turn of |r| truncated to 25 bits
/// (a quadrant and the position in it), and the first quadrant's sin and cos there.
struct Turn {
  uint32_t quadrant;
  float sin, cos;
  bool negative;  // r's sign
};
Turn TurnOf(float x) {
  const float r = ToFloatTowardZero(double(x) * double(0.15915493667125701904f));  // exact product
  const float a = std::fabs(Ftz(r));
  const uint32_t t = uint32_t(std::trunc((a - std::floor(a)) * 33554432.0f));  // all exact
  const uint32_t p = t & 0x7fffff;
  const Words& table = SinTable();
  return {(t >> 23) & 3, table[p], table[0x7fffff - p], std::signbit(r)};
}

}  // namespace

float H100Sin(float x) {
  if (std::isnan(x) || std::isinf(x)) return MufuNan();
  const Turn t = TurnOf(x);
  const uint32_t q = t.quadrant;
  const float v = q == 0 ? t.sin : q == 1 ? t.cos : q == 2 ? -t.sin : -t.cos;
  return t.negative ? -v : v;  // odd
}

float H100Cos(float x) {
  if (std::isnan(x) || std::isinf(x)) return MufuNan();
  const Turn t = TurnOf(x);
  const uint32_t q = t.quadrant;
  return q == 0 ? t.cos : q == 1 ? -t.sin : q == 2 ? -t.cos : t.sin;  // even
}

}  // namespace waveemu::detail
