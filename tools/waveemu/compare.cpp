// compare.cpp -- result rules and run-to-run comparison (see compare.h). Floats are compared in
// their Format's type: ULP distance on the ordered bit patterns, any NaN equal to any NaN (as
// llvm's offloader does); BufferExact and CompareExact compare bytes.
#include "tools/waveemu/compare.h"

#include "emulator/half.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>

namespace waveemu::oracle {

namespace {

template <class T>
T Load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// A float's value as double (Float16 through waveemu::half).
double FloatValue(DataFormat f, const std::byte* p) {
  switch (f) {
    case DataFormat::kFloat16: return float(half::FromBits(Load<uint16_t>(p)));
    case DataFormat::kFloat32: return Load<float>(p);
    default: return Load<double>(p);
  }
}

/// Sign-magnitude bits mapped to a monotonic integer line, so ULP distance is a subtraction.
int64_t OrderedBits(DataFormat f, const std::byte* p) {
  switch (f) {
    case DataFormat::kFloat16: {
      const uint16_t b = Load<uint16_t>(p);
      return (b & 0x8000u) ? -int64_t(b & 0x7fffu) : int64_t(b);
    }
    case DataFormat::kFloat32: {
      const uint32_t b = Load<uint32_t>(p);
      return (b & 0x80000000u) ? -int64_t(b & 0x7fffffffu) : int64_t(b);
    }
    default: {
      const uint64_t b = Load<uint64_t>(p);
      return (b >> 63) ? -int64_t(b & 0x7fffffffffffffffull) : int64_t(b);
    }
  }
}

uint64_t UlpDistance(DataFormat f, const std::byte* a, const std::byte* b) {
  const int64_t x = OrderedBits(f, a), y = OrderedBits(f, b);
  // Both fit in 64-bit signed magnitude; the difference of two 63-bit magnitudes may not fit in
  // int64 when signs differ, so compute it unsigned.
  return x > y ? uint64_t(x) - uint64_t(y) : uint64_t(y) - uint64_t(x);
}

/// Name of a buffer's element layout: "Int32" or "Int32, Stride 16".
std::string Layout(const BufferDesc& d) {
  return d.stride && d.stride != ElementSize(d.format)
             ? fmt::format("{}, Stride {}", ToString(d.format), d.stride)
             : std::string(ToString(d.format));
}

/// "level 1 (4x2) texel (3, 1) channel 2" for the value at `offset` bytes of a texture's data.
std::string DescribeTexel(const TextureDesc& t, uint64_t offset, size_t esize) {
  uint32_t mip = 0;
  while (mip + 1 < t.mip_levels && offset >= t.LevelOffset(mip + 1)) ++mip;
  const uint64_t in_level = offset - t.LevelOffset(mip);
  const uint64_t texel = in_level / t.TexelBytes();
  const uint64_t channel = (in_level % t.TexelBytes()) / esize;
  std::string s = fmt::format("level {} ({}x{}) texel ({}, {})", mip, t.Width(mip), t.Height(mip),
                              texel % t.Width(mip), texel / t.Width(mip));
  if (t.TexelBytes() != esize) s += fmt::format(" channel {}", channel);
  return s;
}

/// Lists differing values of `desc`'s format between `a` and `b` (same size), with `differs`
/// deciding per value; fills `out`.
template <class Differs>
void ListValueDiffs(const BufferDesc& desc, std::span<const std::byte> a,
                    std::span<const std::byte> b, const ThreadLayout& layout,
                    const std::string& a_name, const std::string& b_name, Differs differs,
                    CompareOutcome& out) {
  const size_t esize = ElementSize(desc.format);
  const size_t rsize = desc.RecordSize();
  const uint64_t values = a.size() / esize;
  const uint64_t records = a.size() / rsize;
  for (uint64_t v = 0; v < values; ++v) {
    const std::byte* pa = a.data() + v * esize;
    const std::byte* pb = b.data() + v * esize;
    if (!differs(pa, pb)) continue;
    if (out.mismatches++ < kMaxListed) {
      const uint64_t record = v * esize / rsize;
      const uint64_t component = (v * esize % rsize) / esize;
      std::string where = desc.texture ? DescribeTexel(*desc.texture, v * esize, esize)
                                       : DescribeRecord(record, records, layout);
      if (!desc.texture && rsize != esize) where += fmt::format(" value {}", component);
      out.lines.push_back(fmt::format("{}: {} {}, {} {}", where, a_name,
                                      FormatValue(desc.format, pa), b_name,
                                      FormatValue(desc.format, pb)));
    }
  }
  if (out.mismatches) {
    out.ok = false;
    out.summary = fmt::format("{} of {} {} values differ", out.mismatches, values,
                              ToString(desc.format));
    if (out.mismatches > kMaxListed)
      out.lines.push_back(fmt::format("... and {} more", out.mismatches - kMaxListed));
  }
}

bool SizesDiffer(const BufferDesc& desc, std::span<const std::byte> a, std::span<const std::byte> b,
                 const std::string& a_name, const std::string& b_name, CompareOutcome& out) {
  if (a.size() == b.size()) return false;
  out.ok = false;
  out.summary = fmt::format("sizes differ: {} has {} bytes, {} has {} ({})", a_name, a.size(),
                            b_name, b.size(), Layout(desc));
  return true;
}

std::span<const std::byte> Contents(const BufferContents& run, const std::string& name) {
  const auto it = run.find(name);
  if (it == run.end()) return {};
  return it->second;
}

uint64_t CountFrom(const BufferContents& run, const std::string& name) {
  const auto c = Contents(run, name);
  return c.size() >= 4 ? Load<uint32_t>(c.data()) : 0;
}

}  // namespace

std::string DescribeRecord(uint64_t record, uint64_t records, const ThreadLayout& layout) {
  std::string s = fmt::format("element {}", record);
  if (layout.threads_per_group == 0 || layout.total_threads == 0 || layout.wave_size <= 0 ||
      records % layout.total_threads != 0)
    return s;
  const uint64_t thread = record % layout.total_threads;
  const uint64_t group = thread / layout.threads_per_group;
  const uint64_t local = thread % layout.threads_per_group;
  const uint64_t w = uint64_t(layout.wave_size);
  if (records == layout.total_threads)
    return s + fmt::format(" (group {}, wave {}, lane {})", group, local / w, local % w);
  return s + fmt::format(" (slot {}, thread {}: group {}, wave {}, lane {})",
                         record / layout.total_threads, thread, group, local / w, local % w);
}

std::string FormatValue(DataFormat format, const std::byte* p) {
  switch (format) {
    case DataFormat::kBool: return fmt::format("{}", Load<uint32_t>(p));
    case DataFormat::kInt16: return fmt::format("{}", Load<int16_t>(p));
    case DataFormat::kUInt16: return fmt::format("{}", Load<uint16_t>(p));
    case DataFormat::kInt32: return fmt::format("{}", Load<int32_t>(p));
    case DataFormat::kUInt32: return fmt::format("{}", Load<uint32_t>(p));
    case DataFormat::kInt64: return fmt::format("{}", Load<int64_t>(p));
    case DataFormat::kUInt64: return fmt::format("{}", Load<uint64_t>(p));
    case DataFormat::kHex8: return fmt::format("0x{:02x}", Load<uint8_t>(p));
    case DataFormat::kHex16: return fmt::format("0x{:04x}", Load<uint16_t>(p));
    case DataFormat::kHex32: return fmt::format("0x{:08x}", Load<uint32_t>(p));
    case DataFormat::kHex64: return fmt::format("0x{:016x}", Load<uint64_t>(p));
    case DataFormat::kFloat16:
      return fmt::format("{} (0x{:04x})", float(half::FromBits(Load<uint16_t>(p))),
                         Load<uint16_t>(p));
    case DataFormat::kFloat32: return fmt::format("{} (0x{:08x})", Load<float>(p), Load<uint32_t>(p));
    case DataFormat::kFloat64:
      return fmt::format("{} (0x{:016x})", Load<double>(p), Load<uint64_t>(p));
  }
  return "?";
}

CompareOutcome CompareExact(const BufferDesc& desc, std::span<const std::byte> a,
                            std::span<const std::byte> b, const ThreadLayout& layout,
                            const std::string& a_name, const std::string& b_name) {
  CompareOutcome out;
  out.title = fmt::format("buffer '{}' ({}), bit for bit", desc.name, Layout(desc));
  out.summary = "ok";
  if (SizesDiffer(desc, a, b, a_name, b_name, out)) return out;
  const size_t esize = ElementSize(desc.format);
  ListValueDiffs(desc, a, b, layout, a_name, b_name,
                 [&](const std::byte* x, const std::byte* y) { return std::memcmp(x, y, esize) != 0; },
                 out);
  // Trailing bytes that do not fill a whole element (never produced by the reader, but a
  // backend could return them).
  if (out.ok && a.size() % esize && std::memcmp(a.data(), b.data(), a.size()) != 0) {
    out.ok = false;
    out.summary = "trailing bytes differ";
  }
  return out;
}

CompareOutcome CompareMultiset(const BufferDesc& desc, std::span<const std::byte> a,
                               std::span<const std::byte> b, uint64_t count_a, uint64_t count_b,
                               const ThreadLayout& layout, const std::string& a_name,
                               const std::string& b_name) {
  CompareOutcome out;
  out.title = fmt::format("buffer '{}' ({}), first {} records as a multiset", desc.name,
                          Layout(desc), count_a);
  out.summary = "ok";
  if (SizesDiffer(desc, a, b, a_name, b_name, out)) return out;
  const size_t rsize = desc.RecordSize();
  const uint64_t records = a.size() / rsize;
  if (count_a != count_b) {
    out.ok = false;
    out.summary = fmt::format("counts differ: {} {}, {} {}", a_name, count_a, b_name, count_b);
    return out;
  }
  if (count_a > records) {
    out.ok = false;
    out.summary = fmt::format("count {} exceeds the buffer's {} records", count_a, records);
    return out;
  }
  // Sorted record offsets; records compare by their bytes.
  auto records_of = [&](std::span<const std::byte> s) {
    std::vector<const std::byte*> v(count_a);
    for (uint64_t i = 0; i < count_a; ++i) v[i] = s.data() + i * rsize;
    std::sort(v.begin(), v.end(), [&](const std::byte* x, const std::byte* y) {
      return std::memcmp(x, y, rsize) < 0;
    });
    return v;
  };
  const auto ra = records_of(a), rb = records_of(b);
  auto less = [&](const std::byte* x, const std::byte* y) { return std::memcmp(x, y, rsize) < 0; };
  // Records in one multiset and not the other (sorted merge).
  size_t i = 0, j = 0;
  auto show = [&](const std::byte* r) {
    std::string s;
    const size_t esize = ElementSize(desc.format);
    for (size_t k = 0; k + esize <= rsize; k += esize)
      s += (s.empty() ? "" : ", ") + FormatValue(desc.format, r + k);
    return rsize == esize ? s : "(" + s + ")";
  };
  while (i < ra.size() || j < rb.size()) {
    std::string line;
    if (j == rb.size() || (i < ra.size() && less(ra[i], rb[j]))) {
      line = fmt::format("{} only in {}", show(ra[i++]), a_name);
    } else if (i == ra.size() || less(rb[j], ra[i])) {
      line = fmt::format("{} only in {}", show(rb[j++]), b_name);
    } else {
      ++i, ++j;
      continue;
    }
    if (out.mismatches++ < kMaxListed) out.lines.push_back(line);
  }
  if (out.mismatches) {
    out.ok = false;
    out.summary = fmt::format("the first {} records differ as multisets ({} records unmatched)",
                              count_a, out.mismatches);
    if (out.mismatches > kMaxListed)
      out.lines.push_back(fmt::format("... and {} more", out.mismatches - kMaxListed));
    return out;
  }
  // Past the count: what neither run wrote must agree too.
  const auto tail = CompareExact(desc, a.subspan(count_a * rsize), b.subspan(count_a * rsize),
                                 ThreadLayout{}, a_name, b_name);
  if (!tail.ok) {
    out.ok = false;
    out.summary = fmt::format("records past the count {} differ: {}", count_a, tail.summary);
    for (const auto& l : tail.lines) out.lines.push_back(l + fmt::format(" (after the count)"));
  }
  (void)layout;
  return out;
}

CompareOutcome CheckRule(const Pipeline& p, const ResultRule& rule, const BufferContents& run,
                         const ThreadLayout& layout) {
  CompareOutcome out;
  out.summary = "ok";
  const BufferDesc* actual = p.FindBuffer(rule.actual);
  const BufferDesc* expected = rule.expected.empty() ? nullptr : p.FindBuffer(rule.expected);
  out.title = fmt::format("result '{}' ({}: {} vs {})", rule.name, ToString(rule.kind), rule.actual,
                          rule.expected.empty() ? "the other run" : rule.expected);
  if (!actual || (!rule.expected.empty() && !expected)) {
    out.ok = false;
    out.summary = "names a buffer the pipeline does not declare";
    return out;
  }
  const auto a = Contents(run, rule.actual);
  if (rule.kind == RuleKind::kBufferMultiset && !expected) return out;
  const auto e = Contents(run, rule.expected);
  if (SizesDiffer(*actual, a, e, "actual", "expected", out)) return out;
  switch (rule.kind) {
    case RuleKind::kBufferExact: {
      CompareOutcome c = CompareExact(*actual, a, e, layout, "actual", "expected");
      c.title = out.title;
      return c;
    }
    case RuleKind::kBufferMultiset: {
      const uint64_t count = rule.count_buffer.empty() ? a.size() / actual->RecordSize()
                                                       : CountFrom(run, rule.count_buffer);
      CompareOutcome c = CompareMultiset(*actual, a, e, count, count, layout, "actual", "expected");
      c.title = out.title + fmt::format(", first {} records", count);
      return c;
    }
    case RuleKind::kBufferFloatULP: {
      const DataFormat f = actual->format;
      ListValueDiffs(*actual, a, e, layout, "actual", "expected",
                     [&](const std::byte* x, const std::byte* y) {
                       const double vx = FloatValue(f, x), vy = FloatValue(f, y);
                       if (std::isnan(vx) || std::isnan(vy)) return std::isnan(vx) != std::isnan(vy);
                       return UlpDistance(f, x, y) > rule.ulp_tolerance;
                     },
                     out);
      if (!out.ok) out.summary += fmt::format(" by more than {} ULP", rule.ulp_tolerance);
      return out;
    }
    case RuleKind::kBufferFloatEpsilon: {
      const DataFormat f = actual->format;
      ListValueDiffs(*actual, a, e, layout, "actual", "expected",
                     [&](const std::byte* x, const std::byte* y) {
                       const double vx = FloatValue(f, x), vy = FloatValue(f, y);
                       if (std::isnan(vx) || std::isnan(vy)) return std::isnan(vx) != std::isnan(vy);
                       if (vx == vy) return false;  // equal infinities
                       return !(std::fabs(vx - vy) <= rule.epsilon);
                     },
                     out);
      if (!out.ok) out.summary += fmt::format(" by more than {}", rule.epsilon);
      return out;
    }
  }
  return out;
}

std::vector<CompareOutcome> CompareRuns(const Pipeline& p, const BufferContents& a,
                                        const BufferContents& b, const ThreadLayout& layout,
                                        const std::string& a_name, const std::string& b_name) {
  std::vector<CompareOutcome> outcomes;
  std::vector<std::string> done;  // a texture bound through several UAVs is compared once
  for (const auto& binding : p.bindings) {
    if (!IsWritable(binding.kind)) continue;
    const BufferDesc* desc = p.FindBuffer(binding.name);
    if (!desc) continue;
    if (std::find(done.begin(), done.end(), desc->name) != done.end()) continue;
    done.push_back(desc->name);
    const ResultRule* multiset = nullptr;
    for (const auto& r : p.results)
      if (r.kind == RuleKind::kBufferMultiset && r.actual == desc->name) multiset = &r;
    if (multiset) {
      const uint64_t records = Contents(a, desc->name).size() / desc->RecordSize();
      const uint64_t ca = multiset->count_buffer.empty() ? records : CountFrom(a, multiset->count_buffer);
      const uint64_t cb = multiset->count_buffer.empty() ? records : CountFrom(b, multiset->count_buffer);
      outcomes.push_back(CompareMultiset(*desc, Contents(a, desc->name), Contents(b, desc->name),
                                         ca, cb, layout, a_name, b_name));
    } else {
      outcomes.push_back(CompareExact(*desc, Contents(a, desc->name), Contents(b, desc->name),
                                      layout, a_name, b_name));
    }
  }
  return outcomes;
}

}  // namespace waveemu::oracle
