// pipeline.cpp -- reads llvm/offload-test-suite pipelines (YAML, alone or in a split-file test)
// into a Pipeline. Every problem becomes a PipelineError naming the file, the line (yaml-cpp's
// marks, shifted by where the YAML section starts) and what is wrong; nothing here crashes.
#include "tools/waveemu/pipeline.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <set>
#include <span>
#include <sstream>

namespace waveemu::oracle {

namespace fs = std::filesystem;

// ------------------------------------------------------------------------------------------------
// Names

namespace {

struct FormatInfo {
  DataFormat format;
  const char* name;
  size_t size;
};
constexpr FormatInfo kFormats[] = {
    {DataFormat::kBool, "Bool", 4},       {DataFormat::kInt16, "Int16", 2},
    {DataFormat::kUInt16, "UInt16", 2},   {DataFormat::kInt32, "Int32", 4},
    {DataFormat::kUInt32, "UInt32", 4},   {DataFormat::kInt64, "Int64", 8},
    {DataFormat::kUInt64, "UInt64", 8},   {DataFormat::kFloat16, "Float16", 2},
    {DataFormat::kFloat32, "Float32", 4}, {DataFormat::kFloat64, "Float64", 8},
    {DataFormat::kHex8, "Hex8", 1},       {DataFormat::kHex16, "Hex16", 2},
    {DataFormat::kHex32, "Hex32", 4},     {DataFormat::kHex64, "Hex64", 8},
};

struct KindInfo {
  ResourceKind kind;
  const char* name;
  bool writable;
  char reg;
};
constexpr KindInfo kKinds[] = {
    {ResourceKind::kStructuredBuffer, "StructuredBuffer", false, 't'},
    {ResourceKind::kRWStructuredBuffer, "RWStructuredBuffer", true, 'u'},
    {ResourceKind::kBuffer, "Buffer", false, 't'},
    {ResourceKind::kRWBuffer, "RWBuffer", true, 'u'},
    {ResourceKind::kByteAddressBuffer, "ByteAddressBuffer", false, 't'},
    {ResourceKind::kRWByteAddressBuffer, "RWByteAddressBuffer", true, 'u'},
    {ResourceKind::kConstantBuffer, "ConstantBuffer", false, 'b'},
    {ResourceKind::kTexture2D, "Texture2D", false, 't'},
    {ResourceKind::kRWTexture2D, "RWTexture2D", true, 'u'},
    {ResourceKind::kSampler, "Sampler", false, 's'},
};

struct TextureFormatInfo {
  Format format;
  const char* name;
};
constexpr TextureFormatInfo kTextureFormats[] = {
    {Format::R8G8B8A8_UNORM, "R8G8B8A8_UNORM"},
    {Format::R8G8B8A8_UNORM_SRGB, "R8G8B8A8_UNORM_SRGB"},
    {Format::R16G16B16A16_FLOAT, "R16G16B16A16_FLOAT"},
    {Format::R32G32B32A32_FLOAT, "R32G32B32A32_FLOAT"},
    {Format::R32_FLOAT, "R32_FLOAT"},
    {Format::R32_UINT, "R32_UINT"},
};

// The texture format a buffer's Format and Channels name when TextureFormat is absent.
std::optional<Format> ImpliedTextureFormat(DataFormat f, uint32_t channels) {
  if (f == DataFormat::kFloat32 && channels == 4) return Format::R32G32B32A32_FLOAT;
  if (f == DataFormat::kFloat32 && channels == 1) return Format::R32_FLOAT;
  if ((f == DataFormat::kUInt32 || f == DataFormat::kHex32) && channels == 1)
    return Format::R32_UINT;
  if ((f == DataFormat::kFloat16 || f == DataFormat::kHex16) && channels == 4)
    return Format::R16G16B16A16_FLOAT;
  if (f == DataFormat::kHex8 && channels == 4) return Format::R8G8B8A8_UNORM;
  return std::nullopt;
}

struct RuleInfo {
  RuleKind kind;
  const char* name;
};
constexpr RuleInfo kRules[] = {
    {RuleKind::kBufferExact, "BufferExact"},
    {RuleKind::kBufferFloatULP, "BufferFloatULP"},
    {RuleKind::kBufferFloatEpsilon, "BufferFloatEpsilon"},
    {RuleKind::kBufferMultiset, "BufferMultiset"},
};

template <class Table>
std::string NameList(const Table& table) {
  std::string s;
  for (const auto& e : table) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

}  // namespace

size_t ElementSize(DataFormat f) {
  for (const auto& e : kFormats)
    if (e.format == f) return e.size;
  return 4;
}
const char* ToString(DataFormat f) {
  for (const auto& e : kFormats)
    if (e.format == f) return e.name;
  return "?";
}
std::optional<DataFormat> ParseDataFormat(std::string_view name) {
  for (const auto& e : kFormats)
    if (name == e.name) return e.format;
  return std::nullopt;
}
bool IsFloatFormat(DataFormat f) {
  return f == DataFormat::kFloat16 || f == DataFormat::kFloat32 || f == DataFormat::kFloat64;
}

const char* ToString(ResourceKind k) {
  for (const auto& e : kKinds)
    if (e.kind == k) return e.name;
  return "?";
}
std::optional<ResourceKind> ParseResourceKind(std::string_view name) {
  for (const auto& e : kKinds)
    if (name == e.name) return e.kind;
  return std::nullopt;
}
bool IsTextureKind(ResourceKind k) {
  return k == ResourceKind::kTexture2D || k == ResourceKind::kRWTexture2D;
}
std::optional<Format> ParseTextureFormat(std::string_view name) {
  for (const auto& e : kTextureFormats)
    if (name == e.name) return e.format;
  return std::nullopt;
}
bool IsWritable(ResourceKind k) {
  for (const auto& e : kKinds)
    if (e.kind == k) return e.writable;
  return false;
}
char RegisterClass(ResourceKind k) {
  for (const auto& e : kKinds)
    if (e.kind == k) return e.reg;
  return '?';
}

const char* ToString(RuleKind k) {
  for (const auto& e : kRules)
    if (e.kind == k) return e.name;
  return "?";
}
std::optional<RuleKind> ParseRuleKind(std::string_view name) {
  for (const auto& e : kRules)
    if (name == e.name) return e.kind;
  return std::nullopt;
}

const BufferDesc* Pipeline::FindBuffer(const std::string& name) const {
  for (const auto& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}
const ResourceBinding* Pipeline::FindBinding(const std::string& name) const {
  for (const auto& b : bindings)
    if (b.name == name) return &b;
  return nullptr;
}
const SamplerDesc* Pipeline::FindSampler(const std::string& name) const {
  for (const auto& s : samplers)
    if (s.name == name) return &s;
  return nullptr;
}
std::string Pipeline::HlslFileName() const {
  return fs::path(hlsl_path.empty() ? path : hlsl_path).filename().string();
}

PipelineError::PipelineError(std::string file, int line, std::string problem)
    : std::runtime_error(line > 0 ? fmt::format("{}:{}: {}", file, line, problem)
                                  : fmt::format("{}: {}", file, problem)),
      file_(std::move(file)),
      line_(line),
      problem_(std::move(problem)) {}

// ------------------------------------------------------------------------------------------------
// Scalars: integers and floats as llvm's YAML reader takes them, with range checks

namespace {

/// Decimal, 0x hex or 0b binary, optional sign; false when malformed or out of T's range.
template <class T>
bool ParseInteger(std::string_view s, T& out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s.remove_prefix(2);
  }
  if (s.empty()) return false;
  unsigned __int128 v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else if (c == '_') continue;
    else return false;
    if (d >= base) return false;
    v = v * unsigned(base) + unsigned(d);
    if (v > (unsigned __int128)(1) << 65) return false;
  }
  if constexpr (std::is_signed_v<T>) {
    const unsigned __int128 max_pos = (unsigned __int128)std::numeric_limits<T>::max();
    if (negative) {
      if (v > max_pos + 1) return false;
      out = v == max_pos + 1 ? std::numeric_limits<T>::min() : T(-(__int128)v);
    } else {
      if (v > max_pos) return false;
      out = T(v);
    }
  } else {
    if (negative && v != 0) return false;
    if (v > (unsigned __int128)std::numeric_limits<T>::max()) return false;
    out = T(v);
  }
  return true;
}

enum class ParsedFloat { kOk, kMalformed, kTooLarge };

/// strtod/strtof syntax plus YAML's .nan, .inf, -.inf. A finite number too large for T is
/// kTooLarge: 1e39 as a float would silently become infinity, where .inf says so. Numbers too
/// small for T round to a denormal or to zero, as every conversion to float does.
template <class T>
ParsedFloat ParseFloat(const std::string& s, T& out) {
  std::string lower = s;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
    return char(std::tolower(c));
  });
  constexpr T kInf = std::numeric_limits<T>::infinity();
  if (lower == ".nan") { out = std::numeric_limits<T>::quiet_NaN(); return ParsedFloat::kOk; }
  if (lower == ".inf" || lower == "+.inf") { out = kInf; return ParsedFloat::kOk; }
  if (lower == "-.inf") { out = -kInf; return ParsedFloat::kOk; }
  if (s.empty()) return ParsedFloat::kMalformed;
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  if constexpr (std::is_same_v<T, float>) out = std::strtof(begin, &end);
  else out = std::strtod(begin, &end);
  if (end != begin + s.size()) return ParsedFloat::kMalformed;
  if (errno == ERANGE && std::isinf(out)) return ParsedFloat::kTooLarge;
  return ParsedFloat::kOk;
}

// ------------------------------------------------------------------------------------------------
// The reader

class Reader {
 public:
  Reader(std::string file, int line_base) : file_(std::move(file)), line_base_(line_base) {}

  [[noreturn]] void Fail(int line, std::string problem) const {
    throw PipelineError(file_, line, std::move(problem));
  }
  [[noreturn]] void Fail(const YAML::Node& n, std::string problem) const {
    Fail(Line(n), std::move(problem));
  }
  int Line(const YAML::Node& n) const {
    if (!n.IsDefined()) return 0;
    const YAML::Mark m = n.Mark();
    return m.line >= 0 ? line_base_ + m.line : 0;
  }
  int Line(const YAML::Mark& m) const { return m.line >= 0 ? line_base_ + m.line : 0; }

  /// Fails on a key that is not in `known` (typos such as `Fillsize` must not pass silently) and
  /// on a key given twice (yaml-cpp keeps both, and a lookup sees only the first).
  void CheckKeys(const YAML::Node& map, const char* what,
                 std::initializer_list<const char*> known,
                 std::initializer_list<const char*> ignored = {}) const {
    std::vector<std::pair<std::string, int>> seen;  // key, line
    for (const auto& kv : map) {
      const std::string key = kv.first.Scalar();
      for (const auto& [k, line] : seen)
        if (k == key)
          Fail(kv.first, fmt::format("key '{}' appears twice in {} (first at line {})", key, what,
                                     line));
      seen.emplace_back(key, Line(kv.first));
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      for (const char* k : ignored) ok = ok || key == k;
      if (!ok) {
        std::string list;
        for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        Fail(kv.first, fmt::format("unknown key '{}' in {} (known keys: {})", key, what, list));
      }
    }
  }

  YAML::Node Map(const YAML::Node& n, const char* what) const {
    if (!n.IsMap()) Fail(n, fmt::format("{} must be a mapping (key: value lines)", what));
    return n;
  }
  YAML::Node Seq(const YAML::Node& n, const char* what) const {
    if (!n.IsSequence()) Fail(n, fmt::format("{} must be a list", what));
    return n;
  }
  /// map[key], failing when it is missing.
  YAML::Node Required(const YAML::Node& map, const char* key, const char* what) const {
    const YAML::Node n = map[key];
    if (!n.IsDefined() || n.IsNull()) Fail(map, fmt::format("{} has no '{}'", what, key));
    return n;
  }
  std::string String(const YAML::Node& n, const char* key) const {
    if (!n.IsScalar()) Fail(n, fmt::format("'{}' must be a single value", key));
    return n.Scalar();
  }
  template <class T>
  T Integer(const YAML::Node& n, const char* key) const {
    T v{};
    if (!n.IsScalar() || !ParseInteger<T>(n.Scalar(), v))
      Fail(n, fmt::format("'{}' must be an integer from {} to {}, not '{}'", key,
                          int64_t(std::numeric_limits<T>::min()),
                          uint64_t(std::numeric_limits<T>::max()),
                          n.IsScalar() ? n.Scalar() : std::string("a list or mapping")));
    return v;
  }
  /// A flag: YAML's booleans (true, False, yes, off, ...) or 1 / 0. `what` names it in the error.
  bool Flag(const YAML::Node& n, const std::string& what) const {
    bool v = false;
    if (n.IsScalar() && (n.Scalar() == "1" || n.Scalar() == "0")) return n.Scalar() == "1";
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v))
      Fail(n, fmt::format("{} must be true or false (or 1 or 0), not '{}'", what,
                          n.IsScalar() ? n.Scalar() : std::string("a list or mapping")));
    return v;
  }
  double Double(const YAML::Node& n, const char* key) const {
    double v = 0;
    if (!n.IsScalar() || ParseFloat(n.Scalar(), v) != ParsedFloat::kOk)
      Fail(n, fmt::format("'{}' must be a number", key));
    return v;
  }

  /// Appends one value of `format` written as `n` to `out`.
  void AppendValue(const YAML::Node& n, DataFormat format, std::vector<std::byte>& out) const {
    if (!n.IsScalar()) Fail(n, fmt::format("a {} value must be a single number", ToString(format)));
    const std::string& s = n.Scalar();
    auto put = [&](auto v) {
      const auto bytes = std::bit_cast<std::array<std::byte, sizeof(v)>>(v);
      out.insert(out.end(), bytes.begin(), bytes.end());
    };
    static constexpr const char* kTooLarge = "finite in this format (write .inf for infinity)";
    auto bad = [&](const char* expect) {
      Fail(n, fmt::format("'{}' is not {} ({})", s, expect, ToString(format)));
    };
    auto integer = [&](auto zero, const char* expect) {
      decltype(zero) v{};
      if (!ParseInteger(s, v)) bad(expect);
      put(v);
    };
    auto floating = [&](auto zero, const char* expect) {
      decltype(zero) v{};
      const ParsedFloat parsed = ParseFloat(s, v);
      if (parsed != ParsedFloat::kOk) bad(parsed == ParsedFloat::kTooLarge ? kTooLarge : expect);
      put(v);
    };
    switch (format) {
      case DataFormat::kBool: {
        if (s == "true" || s == "True" || s == "TRUE") put(uint32_t(1));
        else if (s == "false" || s == "False" || s == "FALSE") put(uint32_t(0));
        else integer(uint32_t{}, "a bool (true, false or a 32-bit unsigned integer)");
        break;
      }
      case DataFormat::kInt16: integer(int16_t{}, "a 16-bit signed integer"); break;
      case DataFormat::kUInt16: integer(uint16_t{}, "a 16-bit unsigned integer"); break;
      case DataFormat::kInt32: integer(int32_t{}, "a 32-bit signed integer"); break;
      case DataFormat::kUInt32: integer(uint32_t{}, "a 32-bit unsigned integer"); break;
      case DataFormat::kInt64: integer(int64_t{}, "a 64-bit signed integer"); break;
      case DataFormat::kUInt64: integer(uint64_t{}, "a 64-bit unsigned integer"); break;
      case DataFormat::kHex8: integer(uint8_t{}, "an 8-bit unsigned integer"); break;
      case DataFormat::kHex16:
      case DataFormat::kFloat16:  // as llvm's reader: half values are written as their bits
        integer(uint16_t{}, "a 16-bit unsigned integer (half values are written as bits)");
        break;
      case DataFormat::kHex32: integer(uint32_t{}, "a 32-bit unsigned integer"); break;
      case DataFormat::kHex64: integer(uint64_t{}, "a 64-bit unsigned integer"); break;
      case DataFormat::kFloat32: floating(float{}, "a float"); break;
      case DataFormat::kFloat64: floating(double{}, "a double"); break;
    }
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
  int line_base_;
};

/// A split-file section: its name and text, and the file line its first line is on.
struct Section {
  std::string name;
  std::string text;
  int first_line = 1;
};

std::vector<Section> SplitFile(std::string_view text) {
  std::vector<Section> sections;
  int line_no = 0;
  size_t pos = 0;
  Section* current = nullptr;
  bool ended = false;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    std::string_view trimmed = line;
    if (!trimmed.empty() && trimmed.back() == '\r') trimmed.remove_suffix(1);
    std::string_view marker;
    if (trimmed.starts_with("#--- ")) marker = trimmed.substr(5);
    else if (trimmed.starts_with("//--- ")) marker = trimmed.substr(6);
    if (!marker.empty()) {
      while (!marker.empty() && marker.back() == ' ') marker.remove_suffix(1);
      if (marker == "end") {
        current = nullptr;
        ended = true;
        continue;
      }
      if (ended) continue;
      sections.push_back(Section{std::string(marker), "", line_no + 1});
      current = &sections.back();
      continue;
    }
    if (current) {
      current->text.append(trimmed);
      current->text.push_back('\n');
    }
  }
  return sections;
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// D3D12's largest resource: max(128, min(VRAM / 4, 2048)) MiB on any device
/// (D3D12_REQ_RESOURCE_SIZE_IN_MEGABYTES_EXPRESSION_A/B/C_TERM), so never more than 2048 MiB.
constexpr uint64_t kMaxBufferBytes = uint64_t(2048) << 20;

/// Why `p` cannot be read as a file ("does not exist", "is a directory", ...), or "" when it
/// is a regular file. std::ifstream opens a directory without complaint and reads nothing.
std::string NotAFile(const fs::path& p) {
  std::error_code ec;
  const fs::file_status st = fs::status(p, ec);
  if (st.type() == fs::file_type::regular) return "";
  if (st.type() == fs::file_type::not_found || ec) return "does not exist";
  if (st.type() == fs::file_type::directory) return "is a directory, not a file";
  return "is not a regular file";
}

std::optional<std::string> ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::array<uint32_t, 3> GroupCount(const Reader& r, const YAML::Node& n, const char* key) {
  r.Seq(n, key);
  if (n.size() != 3) r.Fail(n, fmt::format("'{}' must list 3 group counts [x, y, z]", key));
  std::array<uint32_t, 3> v{};
  for (size_t i = 0; i < 3; ++i) {
    v[i] = r.Integer<uint32_t>(n[i], key);
    if (v[i] == 0) r.Fail(n[i], fmt::format("'{}': a group count must be at least 1", key));
    // D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION; Vulkan guarantees at least as many.
    if (v[i] > 65535)
      r.Fail(n[i], fmt::format("'{}': {} groups in one dimension; D3D12 allows at most 65535 "
                               "(spread them over x, y and z)", key, v[i]));
  }
  return v;
}

// OutputProps (offload-test-suite) and TextureFormat (waveemu): the buffer is a 2-D texture whose
// Data holds every level.
void ReadTextureProps(const Reader& r, const YAML::Node& n, const YAML::Node& props, int size_line,
                      BufferDesc& b) {
  r.Map(props, "OutputProps");
  r.CheckKeys(props, "OutputProps", {"Height", "Width", "Depth", "MipLevels", "ArraySlices"});
  const std::string what = fmt::format("buffer '{}'", b.name);
  TextureDesc t;
  t.width = r.Integer<uint32_t>(r.Required(props, "Width", what.c_str()), "Width");
  t.height = r.Integer<uint32_t>(r.Required(props, "Height", what.c_str()), "Height");
  const YAML::Node depth = r.Required(props, "Depth", what.c_str());
  if (r.Integer<uint32_t>(depth, "Depth") != 1)
    r.Fail(depth, fmt::format("{}: Depth must be 1 (waveemu has 2-D textures only)", what));
  if (const YAML::Node a = props["ArraySlices"]; a.IsDefined() &&
                                                 r.Integer<uint32_t>(a, "ArraySlices") != 1)
    r.Fail(a, fmt::format("{}: texture arrays (ArraySlices > 1) are not supported", what));
  constexpr uint32_t kMaxSide = 16384;  // D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION
  if (t.width == 0 || t.height == 0 || t.width > kMaxSide || t.height > kMaxSide)
    r.Fail(props, fmt::format("{}: a texture of {}x{} is outside 1..{} per side", what, t.width,
                              t.height, kMaxSide));
  uint32_t full = 1;
  for (uint32_t m = std::max(t.width, t.height); m > 1; m >>= 1) ++full;
  if (const YAML::Node ml = props["MipLevels"]; ml.IsDefined()) {
    t.mip_levels = r.Integer<uint32_t>(ml, "MipLevels");
    if (t.mip_levels < 1 || t.mip_levels > full)
      r.Fail(ml, fmt::format("{}: MipLevels {} is outside 1..{} (the full chain of {}x{})", what,
                             t.mip_levels, full, t.width, t.height));
  }
  const size_t esize = ElementSize(b.format);
  if (const YAML::Node tf = n["TextureFormat"]; tf.IsDefined()) {
    const std::string name = r.String(tf, "TextureFormat");
    const auto f = ParseTextureFormat(name);
    if (!f)
      r.Fail(tf, fmt::format("{}: unknown TextureFormat '{}' (known: {})", what, name,
                             NameList(kTextureFormats)));
    t.format = *f;
    if (esize * b.channels != t.TexelBytes())
      r.Fail(tf, fmt::format("{}: a {} texel is {} bytes, but Format {} x Channels {} is {} "
                             "bytes", what, name, t.TexelBytes(), ToString(b.format), b.channels,
                             esize * b.channels));
  } else {
    const auto f = ImpliedTextureFormat(b.format, b.channels);
    if (!f)
      r.Fail(props, fmt::format("{}: Format {} with Channels {} names no texture format; add "
                                "TextureFormat (one of {})", what, ToString(b.format), b.channels,
                                NameList(kTextureFormats)));
    t.format = *f;
  }
  if (b.data.size() != t.TotalBytes())
    r.Fail(size_line, fmt::format(
        "{} holds {} bytes, but a {}x{} {} texture with {} mip level(s) needs {} (each level "
        "max(1, w >> m) x max(1, h >> m) texels of {} bytes, level 0 first)", what,
        b.data.size(), t.width, t.height, InfoOf(t.format).name, t.mip_levels, t.TotalBytes(),
        t.TexelBytes()));
  b.texture = t;
}

void ReadBuffer(const Reader& r, const YAML::Node& n, const fs::path& dir, BufferDesc& b) {
  r.Map(n, "a buffer");
  r.CheckKeys(n, "a buffer",
              {"Name", "Format", "Stride", "Data", "FillSize", "FillValue", "DataFile", "Channels",
               "ArraySize", "OutputProps", "TextureFormat"});
  b.source_line = r.Line(n);
  b.name = r.String(r.Required(n, "Name", "a buffer"), "Name");
  const YAML::Node fmt_node = r.Required(n, "Format", fmt::format("buffer '{}'", b.name).c_str());
  const std::string fmt_name = r.String(fmt_node, "Format");
  const auto format = ParseDataFormat(fmt_name);
  if (!format)
    r.Fail(fmt_node, fmt::format("buffer '{}': unknown Format '{}' (known: {})", b.name, fmt_name,
                                 NameList(kFormats)));
  b.format = *format;
  const size_t esize = ElementSize(b.format);
  if (const YAML::Node s = n["Stride"]; s.IsDefined()) {
    b.stride = r.Integer<uint32_t>(s, "Stride");
    if (b.stride % esize != 0)
      r.Fail(s, fmt::format("buffer '{}': Stride {} is not a multiple of the {}-byte {} element",
                            b.name, b.stride, esize, fmt_name));
  }
  const YAML::Node props = n["OutputProps"];
  if (const YAML::Node c = n["Channels"]; c.IsDefined()) {
    b.channels = r.Integer<uint32_t>(c, "Channels");
    if (b.channels < 1 || b.channels > 4)
      r.Fail(c, fmt::format("buffer '{}': Channels must be 1 to 4, not {}", b.name, b.channels));
    if (b.channels != 1 && !props.IsDefined())
      r.Fail(c, fmt::format("buffer '{}': Channels other than 1 describe texels; give the "
                            "texture's OutputProps (Height, Width, Depth, MipLevels)", b.name));
    if (b.channels != 1 && b.stride != 0)
      r.Fail(c, fmt::format("buffer '{}': cannot set a structure Stride and more than one "
                            "channel", b.name));
  }
  if (const YAML::Node a = n["ArraySize"]; a.IsDefined() && r.Integer<uint32_t>(a, "ArraySize") != 1)
    r.Fail(a, fmt::format("buffer '{}': resource arrays (ArraySize > 1) are not supported",
                          b.name));

  const YAML::Node data = n["Data"], fill = n["FillSize"], fill_value = n["FillValue"],
                   file = n["DataFile"];
  const int sources = int(data.IsDefined()) + int(fill.IsDefined()) + int(file.IsDefined());
  if (sources != 1)
    r.Fail(n, fmt::format("buffer '{}' needs exactly one of Data, FillSize or DataFile (has {})",
                          b.name, sources));
  if (fill_value.IsDefined() && !fill.IsDefined())
    r.Fail(fill_value, fmt::format("buffer '{}': 'FillValue' specified without 'FillSize'",
                                   b.name));
  int size_line = b.source_line;
  if (data.IsDefined()) {
    size_line = r.Line(data);
    if (data.IsSequence()) {
      for (const auto& v : data) {
        if (v.IsSequence())
          r.Fail(v, fmt::format("buffer '{}': nested Data lists (resource arrays) are not "
                                "supported", b.name));
        r.AppendValue(v, b.format, b.data);
      }
    } else if (data.IsNull()) {
      // `Data:` with nothing: an empty buffer, caught below.
    } else {
      r.AppendValue(data, b.format, b.data);
    }
  } else if (fill.IsDefined()) {
    size_line = r.Line(fill);
    const uint64_t bytes = r.Integer<uint32_t>(fill, "FillSize");
    if (bytes % esize != 0)
      r.Fail(fill, fmt::format("buffer '{}': FillSize {} (bytes) is not a multiple of the "
                               "{}-byte {} element", b.name, bytes, esize, fmt_name));
    if (bytes > kMaxBufferBytes)
      r.Fail(fill, fmt::format("buffer '{}': FillSize {} is over D3D12's largest resource, "
                               "2048 MiB ({} bytes)", b.name, bytes, kMaxBufferBytes));
    std::vector<std::byte> one;
    if (fill_value.IsDefined()) r.AppendValue(fill_value, b.format, one);
    else one.assign(esize, std::byte{0});
    b.data.resize(bytes);
    // The pattern doubled by memcpy: a few dozen calls for the largest buffer.
    if (bytes != 0) std::memcpy(b.data.data(), one.data(), esize);
    for (size_t done = esize; done < bytes; done *= 2)
      std::memcpy(b.data.data() + done, b.data.data(), std::min<size_t>(done, bytes - done));
  } else {
    size_line = r.Line(file);
    const fs::path p = dir / r.String(file, "DataFile");
    b.data_file = p.string();
    if (const std::string why = NotAFile(p); !why.empty())
      r.Fail(file, fmt::format("buffer '{}': DataFile '{}' {}", b.name, p.string(), why));
    std::error_code ec;
    if (const uintmax_t bytes = fs::file_size(p, ec); !ec && bytes > kMaxBufferBytes)
      r.Fail(file, fmt::format("buffer '{}': DataFile '{}' holds {} bytes, over D3D12's largest "
                               "resource, 2048 MiB ({} bytes)", b.name, p.string(), bytes,
                               kMaxBufferBytes));
    const auto text = ReadText(p);
    if (!text) r.Fail(file, fmt::format("buffer '{}': cannot read DataFile '{}'", b.name, p.string()));
    b.data.resize(text->size());
    if (!text->empty()) std::memcpy(b.data.data(), text->data(), text->size());
    if (b.data.size() % esize != 0)
      r.Fail(file, fmt::format("buffer '{}': DataFile '{}' holds {} bytes, not a multiple of the "
                               "{}-byte {} element", b.name, p.string(), b.data.size(), esize,
                               fmt_name));
  }
  if (b.data.empty()) r.Fail(size_line, fmt::format("buffer '{}' is empty", b.name));
  if (props.IsDefined()) ReadTextureProps(r, n, props, size_line, b);
  else if (const YAML::Node tf = n["TextureFormat"]; tf.IsDefined())
    r.Fail(tf, fmt::format("buffer '{}': TextureFormat needs OutputProps (a texture's Height, "
                           "Width, Depth and MipLevels)", b.name));
  if (b.stride && b.data.size() % b.stride != 0)
    r.Fail(size_line, fmt::format("buffer '{}' holds {} bytes ({} {} values), not a whole number "
                                  "of {}-byte records (Stride {})", b.name, b.data.size(),
                                  b.data.size() / esize, fmt_name, b.stride, b.stride));
}

// MostDetailedMip/MipLevels (Texture2D), MipSlice (RWTexture2D) and ViewFormat (waveemu).
void ReadTextureView(const Reader& r, const YAML::Node& n, const std::string& kind_name,
                     const TextureDesc& t, ResourceBinding& b) {
  const std::string what = fmt::format("resource '{}' ({})", b.name, kind_name);
  const bool srv = b.kind == ResourceKind::kTexture2D;
  static constexpr const char* kSrvOnly[] = {"MostDetailedMip", "MipLevels"};
  static constexpr const char* kUavOnly[] = {"MipSlice"};
  for (const char* key : srv ? std::span<const char* const>(kUavOnly)
                             : std::span<const char* const>(kSrvOnly))
    if (const YAML::Node k = n[key]; k.IsDefined())
      r.Fail(k, fmt::format("{}: {} belongs to {}", what, key,
                            srv ? "RWTexture2D (the one level a UAV writes)"
                                : "Texture2D (the levels an SRV reads)"));
  if (const YAML::Node k = n["MostDetailedMip"]; k.IsDefined())
    b.most_detailed_mip = r.Integer<uint32_t>(k, "MostDetailedMip");
  if (const YAML::Node k = n["MipLevels"]; k.IsDefined()) {
    b.mip_count = r.Integer<uint32_t>(k, "MipLevels");
    if (b.mip_count == 0) r.Fail(k, fmt::format("{}: MipLevels must be at least 1", what));
  }
  // Compared by subtraction: the sum of two large uint32 values would wrap past the check.
  if (srv && (b.most_detailed_mip >= t.mip_levels ||
              std::max(b.mip_count, 1u) > t.mip_levels - b.most_detailed_mip))
    r.Fail(n, fmt::format("{}: levels {}..{} are outside the texture's {} level(s), 0..{}",
                          what, b.most_detailed_mip,
                          uint64_t(b.most_detailed_mip) + std::max(b.mip_count, 1u) - 1,
                          t.mip_levels, t.mip_levels - 1));
  if (srv && b.mip_count == 0) b.mip_count = t.mip_levels - b.most_detailed_mip;
  if (const YAML::Node k = n["MipSlice"]; k.IsDefined()) {
    b.mip_slice = r.Integer<uint32_t>(k, "MipSlice");
    if (b.mip_slice >= t.mip_levels)
      r.Fail(k, fmt::format("{}: MipSlice {} is outside the texture's {} level(s)", what,
                            b.mip_slice, t.mip_levels));
  }
  const bool rgba8 = t.format == Format::R8G8B8A8_UNORM ||
                     t.format == Format::R8G8B8A8_UNORM_SRGB;
  Format view = t.format;
  if (!srv && t.format == Format::R8G8B8A8_UNORM_SRGB) view = Format::R8G8B8A8_UNORM;
  if (const YAML::Node k = n["ViewFormat"]; k.IsDefined()) {
    const std::string name = r.String(k, "ViewFormat");
    const auto f = ParseTextureFormat(name);
    if (!f)
      r.Fail(k, fmt::format("{}: unknown ViewFormat '{}' (known: {})", what, name,
                            NameList(kTextureFormats)));
    const bool f_rgba8 = *f == Format::R8G8B8A8_UNORM || *f == Format::R8G8B8A8_UNORM_SRGB;
    if (*f != t.format && !(rgba8 && f_rgba8))
      r.Fail(k, fmt::format("{}: a {} view cannot be made of a {} texture (only R8G8B8A8_UNORM "
                            "and R8G8B8A8_UNORM_SRGB views of each other)", what, name,
                            InfoOf(t.format).name));
    if (!srv && *f == Format::R8G8B8A8_UNORM_SRGB)
      r.Fail(k, fmt::format("{}: R8G8B8A8_UNORM_SRGB is not a typed-UAV format (D3D12); write "
                            "through R8G8B8A8_UNORM and encode sRGB in the shader", what));
    view = *f;
  }
  b.view_format = view;
}

void ReadSampler(const Reader& r, const YAML::Node& n, Pipeline& p) {
  r.Map(n, "a sampler");
  r.CheckKeys(n, "a sampler",
              {"Name", "Kind", "MinFilter", "MagFilter", "MipFilter", "Address", "AddressU",
               "AddressV", "BorderColor", "MinLOD", "MaxLOD", "MipLODBias", "ComparisonOp"});
  SamplerDesc s;
  s.source_line = r.Line(n);
  s.name = r.String(r.Required(n, "Name", "a sampler"), "Name");
  const std::string what = fmt::format("sampler '{}'", s.name);
  if (p.FindSampler(s.name))
    r.Fail(n, fmt::format("{} is declared twice", what));
  auto pick = [&]<class E, size_t K>(const char* key, const std::pair<const char*, E> (&names)[K],
                                     E& out) {
    const YAML::Node v = n[key];
    if (!v.IsDefined()) return false;
    const std::string name = r.String(v, key);
    std::string list;
    for (const auto& [text, value] : names) {
      if (name == text) {
        out = value;
        return true;
      }
      list += (list.empty() ? "" : ", ") + std::string(text);
    }
    r.Fail(v, fmt::format("{}: unknown {} '{}' (known: {})", what, key, name, list));
  };
  static constexpr std::pair<const char*, SamplerFilter> kFilters[] = {
      {"Nearest", SamplerFilter::kNearest}, {"Linear", SamplerFilter::kLinear}};
  static constexpr std::pair<const char*, SamplerAddress> kAddress[] = {
      {"Clamp", SamplerAddress::kClamp}, {"Repeat", SamplerAddress::kRepeat},
      {"Mirror", SamplerAddress::kMirror}, {"Border", SamplerAddress::kBorder},
      {"MirrorOnce", SamplerAddress::kMirrorOnce}};
  static constexpr std::pair<const char*, SamplerBorder> kBorders[] = {
      {"TransparentBlack", SamplerBorder::kTransparentBlack},
      {"OpaqueBlack", SamplerBorder::kOpaqueBlack}, {"OpaqueWhite", SamplerBorder::kOpaqueWhite}};
  static constexpr std::pair<const char*, int> kKindsOfSampler[] = {{"Sampler", 0},
                                                                    {"SamplerComparison", 1}};
  int sampler_kind = 0;
  if (pick("Kind", kKindsOfSampler, sampler_kind) && sampler_kind != 0)
    r.Fail(n["Kind"], fmt::format("{}: comparison samplers are not supported", what));
  if (const YAML::Node c = n["ComparisonOp"]; c.IsDefined() && r.String(c, "ComparisonOp") != "Never")
    r.Fail(c, fmt::format("{}: comparison samplers are not supported (ComparisonOp must be Never)",
                          what));
  pick("MinFilter", kFilters, s.min_filter);
  pick("MagFilter", kFilters, s.mag_filter);
  s.mip_filter = s.min_filter;
  pick("MipFilter", kFilters, s.mip_filter);
  if (s.min_filter != s.mag_filter)
    r.Fail(n, fmt::format("{}: MinFilter and MagFilter differ; waveemu models MIN_MAG_MIP_POINT, "
                          "MIN_MAG_LINEAR_MIP_POINT and MIN_MAG_MIP_LINEAR only", what));
  if (s.min_filter == SamplerFilter::kNearest && s.mip_filter == SamplerFilter::kLinear)
    r.Fail(n, fmt::format("{}: MIN_MAG_POINT_MIP_LINEAR is not modelled; waveemu models "
                          "MIN_MAG_MIP_POINT, MIN_MAG_LINEAR_MIP_POINT and MIN_MAG_MIP_LINEAR",
                          what));
  SamplerAddress both = SamplerAddress::kClamp;
  if (pick("Address", kAddress, both)) s.address_u = s.address_v = both;
  pick("AddressU", kAddress, s.address_u);
  pick("AddressV", kAddress, s.address_v);
  pick("BorderColor", kBorders, s.border);
  if (const YAML::Node v = n["MinLOD"]; v.IsDefined()) s.min_lod = float(r.Double(v, "MinLOD"));
  if (const YAML::Node v = n["MaxLOD"]; v.IsDefined()) s.max_lod = float(r.Double(v, "MaxLOD"));
  if (!(s.min_lod <= s.max_lod))
    r.Fail(n, fmt::format("{}: MinLOD {} is above MaxLOD {}", what, s.min_lod, s.max_lod));
  if (const YAML::Node v = n["MipLODBias"]; v.IsDefined() && r.Double(v, "MipLODBias") != 0.0)
    r.Fail(v, fmt::format("{}: MipLODBias other than 0 is not modelled", what));
  p.samplers.push_back(s);
}

void ReadResource(const Reader& r, const YAML::Node& n, uint32_t set, Pipeline& p) {
  r.Map(n, "a resource");
  r.CheckKeys(n, "a resource", {"Name", "Kind", "DirectXBinding", "VulkanBinding", "HasCounter",
                                "MostDetailedMip", "MipLevels", "MipSlice", "ViewFormat"});
  ResourceBinding b;
  b.set = set;
  b.source_line = r.Line(n);
  const YAML::Node name = r.Required(n, "Name", "a resource");
  b.name = r.String(name, "Name");
  const YAML::Node kind_node = r.Required(n, "Kind", fmt::format("resource '{}'", b.name).c_str());
  const std::string kind_name = r.String(kind_node, "Kind");
  const auto kind = ParseResourceKind(kind_name);
  if (!kind)
    r.Fail(kind_node, fmt::format("resource '{}': unknown Kind '{}' (known: {})", b.name,
                                  kind_name, NameList(kKinds)));
  b.kind = *kind;
  if (const YAML::Node c = n["HasCounter"];
      c.IsDefined() && r.Flag(c, fmt::format("resource '{}': HasCounter", b.name)))
    r.Fail(c, fmt::format("resource '{}': counters (HasCounter) are not supported", b.name));
  if (const YAML::Node dx = n["DirectXBinding"]; dx.IsDefined()) {
    r.Map(dx, "DirectXBinding");
    r.CheckKeys(dx, "DirectXBinding", {"Register", "Space"});
    b.dx_register = r.Integer<uint32_t>(r.Required(dx, "Register", "DirectXBinding"), "Register");
    if (const YAML::Node s = dx["Space"]; s.IsDefined()) b.dx_space = r.Integer<uint32_t>(s, "Space");
    b.has_dx_binding = true;
    b.binding = b.dx_register;
  }
  if (const YAML::Node vk = n["VulkanBinding"]; vk.IsDefined()) {
    r.Map(vk, "VulkanBinding");
    r.CheckKeys(vk, "VulkanBinding", {"Binding"}, {"CounterBinding"});
    b.binding = r.Integer<uint32_t>(r.Required(vk, "Binding", "VulkanBinding"), "Binding");
    b.has_vulkan_binding = true;
  }
  if (!b.has_dx_binding && !b.has_vulkan_binding)
    r.Fail(n, fmt::format("resource '{}' needs a DirectXBinding or a VulkanBinding", b.name));
  for (const auto& o : p.bindings) {
    if (o.set == b.set && o.binding == b.binding)
      r.Fail(n, fmt::format("resources '{}' and '{}' share set {} binding {}", o.name, b.name,
                            b.set, b.binding));
    if (b.has_dx_binding && o.has_dx_binding && RegisterClass(o.kind) == RegisterClass(b.kind) &&
        o.dx_register == b.dx_register && o.dx_space == b.dx_space)
      r.Fail(n, fmt::format("resources '{}' and '{}' share register {}{} space {}", o.name, b.name,
                            RegisterClass(b.kind), b.dx_register, b.dx_space));
  }
  const bool texture_kind = IsTextureKind(b.kind);
  for (const char* key : {"MostDetailedMip", "MipLevels", "MipSlice", "ViewFormat"})
    if (const YAML::Node k = n[key]; k.IsDefined() && !texture_kind)
      r.Fail(k, fmt::format("resource '{}': {} belongs to Texture2D and RWTexture2D resources, "
                            "not {}", b.name, key, kind_name));
  if (b.kind == ResourceKind::kSampler) {
    if (!p.FindSampler(b.name))
      r.Fail(name, fmt::format("resource '{}' is a Sampler, but no Samplers entry has Name: {}",
                               b.name, b.name));
    p.bindings.push_back(b);
    return;
  }
  const BufferDesc* buf = p.FindBuffer(b.name);
  if (!buf) r.Fail(name, fmt::format("resource '{}' names no buffer (no Buffers entry has "
                                     "Name: {})", b.name, b.name));
  if (const ResourceBinding* other = p.FindBinding(b.name);
      other && !(texture_kind && IsTextureKind(other->kind)))
    r.Fail(name, fmt::format("buffer '{}' is bound twice (first at line {}); only textures may "
                             "be bound more than once (as views of different levels)", b.name,
                             other->source_line));
  if (texture_kind && !buf->texture)
    r.Fail(kind_node, fmt::format("resource '{}' is a {}, but buffer '{}' has no OutputProps "
                                  "(Height, Width, Depth, MipLevels) that make it a texture",
                                  b.name, kind_name, buf->name));
  if (!texture_kind && buf->texture)
    r.Fail(kind_node, fmt::format("resource '{}' is a {}, but buffer '{}' is a texture "
                                  "(OutputProps); bind it as Texture2D or RWTexture2D", b.name,
                                  kind_name, buf->name));
  if (texture_kind) ReadTextureView(r, n, kind_name, *buf->texture, b);
  if ((b.kind == ResourceKind::kByteAddressBuffer || b.kind == ResourceKind::kRWByteAddressBuffer) &&
      buf->data.size() % 4 != 0)
    r.Fail(n, fmt::format("resource '{}': a {} must be a multiple of 4 bytes (buffer '{}' has {})",
                          b.name, kind_name, buf->name, buf->data.size()));
  p.bindings.push_back(b);
}

void ReadResult(const Reader& r, const YAML::Node& n, Pipeline& p) {
  r.Map(n, "a result");
  r.CheckKeys(n, "a result",
              {"Result", "Rule", "Actual", "Expected", "ULPT", "Epsilon", "Count", "DenormMode"},
              {"ZeroTolerance"});
  ResultRule rule;
  rule.source_line = r.Line(n);
  rule.name = r.String(r.Required(n, "Result", "a result"), "Result");
  const std::string what = fmt::format("result '{}'", rule.name);
  const YAML::Node rule_node = r.Required(n, "Rule", what.c_str());
  const std::string rule_name = r.String(rule_node, "Rule");
  const auto kind = ParseRuleKind(rule_name);
  if (!kind)
    r.Fail(rule_node, fmt::format("{}: unknown Rule '{}' (known: {})", what, rule_name,
                                  NameList(kRules)));
  rule.kind = *kind;
  auto buffer = [&](const char* key, bool required) -> const BufferDesc* {
    const YAML::Node v = n[key];
    if (!v.IsDefined()) {
      if (required) r.Fail(n, fmt::format("{} has no '{}'", what, key));
      return nullptr;
    }
    const std::string name = r.String(v, key);
    const BufferDesc* b = p.FindBuffer(name);
    if (!b) r.Fail(v, fmt::format("{}: {} '{}' names no buffer", what, key, name));
    return b;
  };
  const BufferDesc* actual = buffer("Actual", true);
  // A multiset rule may stand alone (waveemu check compares the two backends' Actual).
  const BufferDesc* expected = buffer("Expected", rule.kind != RuleKind::kBufferMultiset);
  rule.actual = actual->name;
  if (expected) rule.expected = expected->name;
  // A rule on a buffer the shader cannot write would pass or fail on its input alone.
  // (A texture may have several views; one RW view is enough.)
  const bool written = std::any_of(p.bindings.begin(), p.bindings.end(), [&](const auto& b) {
    return b.name == actual->name && IsWritable(b.kind);
  });
  if (!written) {
    const ResourceBinding* bound = p.FindBinding(actual->name);
    r.Fail(n["Actual"], fmt::format("{}: Actual '{}' is {}, so the shader never writes it; name "
                                    "the RW buffer the shader writes", what, actual->name,
                                    bound ? fmt::format("bound only as a {}", ToString(bound->kind))
                                          : std::string("bound to no resource")));
  }
  if (expected == actual)
    r.Fail(n["Expected"], fmt::format("{}: Expected and Actual are both '{}'", what,
                                      actual->name));
  if (rule.kind == RuleKind::kBufferFloatULP || rule.kind == RuleKind::kBufferFloatEpsilon) {
    if (!IsFloatFormat(actual->format) || !IsFloatFormat(expected->format))
      r.Fail(rule_node, fmt::format("{}: {} compares Float16/32/64 buffers, and '{}' is {}, '{}' "
                                    "is {}", what, rule_name, actual->name,
                                    ToString(actual->format), expected->name,
                                    ToString(expected->format)));
    if (actual->format != expected->format)
      r.Fail(rule_node, fmt::format("{}: '{}' ({}) and '{}' ({}) must have the same Format", what,
                                    actual->name, ToString(actual->format), expected->name,
                                    ToString(expected->format)));
  }
  if (rule.kind == RuleKind::kBufferFloatULP)
    rule.ulp_tolerance = r.Integer<uint32_t>(r.Required(n, "ULPT", what.c_str()), "ULPT");
  else if (const YAML::Node u = n["ULPT"]; u.IsDefined())
    r.Fail(u, fmt::format("{}: ULPT belongs to BufferFloatULP, not {}", what, rule_name));
  if (rule.kind == RuleKind::kBufferFloatEpsilon) {
    rule.epsilon = r.Double(r.Required(n, "Epsilon", what.c_str()), "Epsilon");
    if (!(rule.epsilon >= 0)) r.Fail(n["Epsilon"], fmt::format("{}: Epsilon must be >= 0", what));
  } else if (const YAML::Node e = n["Epsilon"]; e.IsDefined()) {
    r.Fail(e, fmt::format("{}: Epsilon belongs to BufferFloatEpsilon, not {}", what, rule_name));
  }
  if (const YAML::Node c = n["Count"]; c.IsDefined()) {
    if (rule.kind != RuleKind::kBufferMultiset)
      r.Fail(c, fmt::format("{}: Count belongs to BufferMultiset, not {}", what, rule_name));
    const BufferDesc* cb = buffer("Count", false);
    if (cb->data.size() < 4)
      r.Fail(c, fmt::format("{}: Count buffer '{}' must hold at least one 32-bit element", what,
                            cb->name));
    rule.count_buffer = cb->name;
  }
  p.results.push_back(rule);
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// ParsePipeline

Pipeline ParsePipeline(std::string_view text, const std::string& path) {
  Pipeline p;
  p.path = path;
  const fs::path dir = fs::path(path).parent_path();

  std::string yaml_text;
  int yaml_first_line = 1;
  const std::vector<Section> sections = SplitFile(text);
  if (!sections.empty()) {
    const Section* yaml = nullptr;
    for (const auto& s : sections) {
      if ((EndsWith(s.name, ".yaml") || EndsWith(s.name, ".yml")) && !yaml) yaml = &s;
      if (EndsWith(s.name, ".hlsl") && p.hlsl_source.empty()) {
        p.hlsl_source = s.text;
        p.hlsl_path = path;
        p.hlsl_first_line = s.first_line;
      }
    }
    if (!yaml)
      throw PipelineError(path, 0, "split-file test has no pipeline section ('#--- pipeline.yaml')");
    yaml_text = yaml->text;
    yaml_first_line = yaml->first_line;
  } else {
    yaml_text = std::string(text);
  }
  const Reader r(path, yaml_first_line);

  YAML::Node root;
  try {
    // Every document is parsed, so text after the first (a second '---', or anything after
    // '...') is checked rather than silently skipped as YAML::Load would.
    const std::vector<YAML::Node> docs = YAML::LoadAll(yaml_text);
    if (!docs.empty()) root = docs[0];
    for (size_t i = 1; i < docs.size(); ++i)
      if (!docs[i].IsNull())  // a bare trailing '---' adds an empty document: harmless
        r.Fail(docs[i], "a second YAML document ('---' or text after '...'): a pipeline file "
                        "holds one");
  } catch (const YAML::Exception& e) {
    r.Fail(r.Line(e.mark), fmt::format("malformed YAML: {}", e.msg));
  }
  if (!root.IsMap())
    r.Fail(root.IsDefined() && !root.IsNull() ? r.Line(root) : yaml_first_line,
           "the pipeline must be a YAML mapping with Shaders, Buffers and DescriptorSets");

  try {
    r.CheckKeys(root, "the pipeline",
                {"Shaders", "Buffers", "Samplers", "Results", "DescriptorSets",
                 "DispatchParameters", "WaveSize"},
                {"RuntimeSettings"});
    // ---- Shaders
    const YAML::Node shaders = root["Shaders"];
    if (!shaders.IsDefined() || shaders.IsNull())
      r.Fail(yaml_first_line, "the pipeline has no Shaders (a list with one Stage: Compute entry)");
    r.Seq(shaders, "Shaders");
    if (shaders.size() != 1)
      r.Fail(shaders, fmt::format("Shaders lists {} shaders; waveemu runs one compute shader",
                                  shaders.size()));
    const YAML::Node sh = r.Map(shaders[0], "a shader");
    r.CheckKeys(sh, "a shader", {"Stage", "Entry", "DispatchSize", "Source"});
    p.shader_line = r.Line(sh);
    const YAML::Node stage = r.Required(sh, "Stage", "the shader");
    if (r.String(stage, "Stage") != "Compute")
      r.Fail(stage, fmt::format("Stage '{}' is not supported; waveemu runs Compute shaders",
                                stage.Scalar()));
    p.entry = r.String(r.Required(sh, "Entry", "the shader"), "Entry");
    std::optional<std::array<uint32_t, 3>> dispatch_size;
    if (const YAML::Node d = sh["DispatchSize"]; d.IsDefined())
      dispatch_size = GroupCount(r, d, "DispatchSize");
    if (const YAML::Node dp = root["DispatchParameters"]; dp.IsDefined()) {
      r.Map(dp, "DispatchParameters");
      r.CheckKeys(dp, "DispatchParameters", {"DispatchGroupCount"});
      if (const YAML::Node g = dp["DispatchGroupCount"]; g.IsDefined()) {
        const auto count = GroupCount(r, g, "DispatchGroupCount");
        if (dispatch_size && *dispatch_size != count)
          r.Fail(g, "DispatchParameters.DispatchGroupCount and the shader's DispatchSize differ");
        dispatch_size = count;
      }
    }
    if (dispatch_size) p.dispatch = *dispatch_size;
    if (const YAML::Node src = sh["Source"]; src.IsDefined()) {
      const fs::path hp = dir / r.String(src, "Source");
      if (const std::string why = NotAFile(hp); !why.empty())
        r.Fail(src, fmt::format("the HLSL file '{}' {}", hp.string(), why));
      const auto t = ReadText(hp);
      if (!t) r.Fail(src, fmt::format("cannot read the HLSL file '{}'", hp.string()));
      p.hlsl_source = *t;
      p.hlsl_path = hp.lexically_normal().string();
      p.hlsl_first_line = 1;
    } else if (p.hlsl_source.empty()) {
      fs::path hp = fs::path(path);
      hp.replace_extension(".hlsl");
      const auto t = ReadText(hp);
      if (!t)
        r.Fail(sh, fmt::format("no HLSL: the test has no '#--- source.hlsl' section, the shader "
                               "no 'Source:', and '{}' does not exist", hp.string()));
      p.hlsl_source = *t;
      p.hlsl_path = hp.string();
    }
    // ---- WaveSize
    if (const YAML::Node w = root["WaveSize"]; w.IsDefined()) {
      const uint32_t ws = r.Integer<uint32_t>(w, "WaveSize");
      if (ws < 4 || ws > 128 || !std::has_single_bit(ws))
        r.Fail(w, fmt::format("WaveSize {} is not one of 4, 8, 16, 32, 64, 128", ws));
      p.wave_size = int(ws);
    }
    // ---- Buffers
    const YAML::Node buffers = r.Required(root, "Buffers", "the pipeline");
    r.Seq(buffers, "Buffers");
    for (const auto& bn : buffers) {
      BufferDesc b;
      ReadBuffer(r, bn, dir, b);
      if (const BufferDesc* other = p.FindBuffer(b.name))
        r.Fail(bn, fmt::format("buffer '{}' is declared twice (first at line {})", b.name,
                               other->source_line));
      p.buffers.push_back(std::move(b));
    }
    // ---- Samplers
    if (const YAML::Node samplers = root["Samplers"]; samplers.IsDefined() && !samplers.IsNull()) {
      r.Seq(samplers, "Samplers");
      for (const auto& sn : samplers) ReadSampler(r, sn, p);
    }
    // ---- DescriptorSets
    const YAML::Node sets = r.Required(root, "DescriptorSets", "the pipeline");
    r.Seq(sets, "DescriptorSets");
    for (size_t s = 0; s < sets.size(); ++s) {
      const YAML::Node set = r.Map(sets[s], "a descriptor set");
      r.CheckKeys(set, "a descriptor set", {"Resources"});
      const YAML::Node res = r.Required(set, "Resources", "a descriptor set");
      r.Seq(res, "Resources");
      for (const auto& rn : res) ReadResource(r, rn, uint32_t(s), p);
    }
    // ---- Results
    if (const YAML::Node results = root["Results"]; results.IsDefined() && !results.IsNull()) {
      r.Seq(results, "Results");
      for (const auto& rn : results) ReadResult(r, rn, p);
    }
  } catch (const YAML::Exception& e) {
    // Conversion or access errors yaml-cpp raises itself (should not happen: every access above
    // checks the node first), still reported with a line rather than escaping.
    r.Fail(r.Line(e.mark), fmt::format("bad pipeline: {}", e.msg));
  }
  return p;
}

Pipeline ReadPipeline(const std::string& path) {
  if (const std::string why = NotAFile(path); !why.empty())
    throw PipelineError(path, 0, why == "does not exist" ? "no such file" : why);
  const auto text = ReadText(path);
  if (!text) throw PipelineError(path, 0, "cannot read the file");
  return ParsePipeline(*text, path);
}

}  // namespace waveemu::oracle
