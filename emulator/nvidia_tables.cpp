// nvidia_tables.cpp -- decodes the H100's rcp, sqrt and rsqrt tables (nvidia_tables.h).
#include "emulator/nvidia_tables.h"

#include <zlib.h>

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
#undef WAVEEMU_EMBED

extern "C" {
#define WAVEEMU_EMBEDDED(name)                                              \
  extern const unsigned char name##_begin[] __attribute__((visibility("hidden"))); \
  extern const unsigned char name##_end[] __attribute__((visibility("hidden")))
WAVEEMU_EMBEDDED(waveemu_h100_rcp);
WAVEEMU_EMBEDDED(waveemu_h100_sqrt);
WAVEEMU_EMBEDDED(waveemu_h100_rsqrt);
#undef WAVEEMU_EMBEDDED
}

namespace waveemu::detail {
namespace {

/// One table: 2-bit codes, entry k in bits 2 * (k % 4) of byte k / 4; the device's result is
/// the reference's bits plus code - bias.
class Table {
 public:
  Table(const unsigned char* begin, const unsigned char* end, uint32_t entries, int bias)
      : codes_(entries / 4), bias_(bias) {
    uLongf size = uLongf(codes_.size());
    if (uncompress(codes_.data(), &size, begin, uLong(end - begin)) != Z_OK ||
        size != codes_.size())
      throw std::runtime_error("waveemu: an H100 table in the library is damaged (rebuild it)");
  }
  /// The device's bits for entry k whose correctly rounded reference is `reference`.
  uint32_t Bits(uint32_t k, float reference) const {
    const int code = (codes_[k >> 2] >> (2 * (k & 3))) & 3;
    return std::bit_cast<uint32_t>(reference) + uint32_t(code - bias_);
  }

 private:
  std::vector<uint8_t> codes_;
  int bias_;
};

const Table& RcpTable() {
  static const Table t(waveemu_h100_rcp_begin, waveemu_h100_rcp_end, 1u << 23, 1);
  return t;
}
const Table& SqrtTable() {
  static const Table t(waveemu_h100_sqrt_begin, waveemu_h100_sqrt_end, 1u << 24, 1);
  return t;
}
const Table& RsqrtTable() {
  static const Table t(waveemu_h100_rsqrt_begin, waveemu_h100_rsqrt_end, 1u << 24, 2);
  return t;
}

constexpr uint32_t kSign = 0x80000000u;
constexpr uint32_t kInf = 0x7f800000u;

float FromBits(uint32_t b) { return std::bit_cast<float>(b); }

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

}  // namespace waveemu::detail
