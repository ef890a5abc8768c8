// compare.h -- the Results rules of a pipeline (BufferExact, BufferFloatULP, BufferFloatEpsilon,
// and waveemu's BufferMultiset), and the bit-for-bit comparison of two runs of one pipeline.
// A failure lists the first differing elements with their index and, where an element belongs
// to one thread, that thread's group, wave and lane at the run's wave size.
#pragma once

#include "tools/waveemu/pipeline.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace waveemu::oracle {

/// How threads of a run map to waves, so a record index can be named by wave and lane.
/// Record i of a buffer with exactly total_threads records belongs to thread i (dispatch order,
/// 1-D); with k * total_threads records, to thread i % total_threads (slot i / total_threads).
struct ThreadLayout {
  uint64_t threads_per_group = 0;  // 0: unknown (no lane information is printed)
  uint64_t total_threads = 0;      // threads_per_group * groups
  int wave_size = 0;
};

/// What a rule or comparison found. `lines` holds the first differing elements, one per line.
struct CompareOutcome {
  bool ok = true;
  std::string title;  // "result 'Test1' (BufferExact: Out1 vs ExpectedOut1)"
  std::string summary;  // "ok" or what failed ("3 of 64 elements differ")
  std::vector<std::string> lines;
  uint64_t mismatches = 0;
};

/// Most differing elements listed in one outcome.
inline constexpr size_t kMaxListed = 8;

/// "record 12 (group 0, wave 1, lane 4)"; the thread part only when the layout maps it.
std::string DescribeRecord(uint64_t record, uint64_t records, const ThreadLayout& layout);

/// One value of `format` at `bytes`, as text: integers in decimal, floats with their bits.
std::string FormatValue(DataFormat format, const std::byte* bytes);

/// Runs `rule` on the buffers of one run (Actual and Expected are both looked up in `run`).
/// A BufferMultiset rule with no Expected passes here (it only constrains CompareRuns).
CompareOutcome CheckRule(const Pipeline& p, const ResultRule& rule, const BufferContents& run,
                         const ThreadLayout& layout);

/// Bit-for-bit comparison of one buffer's contents from two runs labelled `a_name`, `b_name`.
CompareOutcome CompareExact(const BufferDesc& desc, std::span<const std::byte> a,
                            std::span<const std::byte> b, const ThreadLayout& layout,
                            const std::string& a_name, const std::string& b_name);

/// The first `count_a`/`count_b` records of `a` and `b` as multisets; the records past them
/// bit for bit. Counts are records (Stride bytes, or one element).
CompareOutcome CompareMultiset(const BufferDesc& desc, std::span<const std::byte> a,
                               std::span<const std::byte> b, uint64_t count_a, uint64_t count_b,
                               const ThreadLayout& layout, const std::string& a_name,
                               const std::string& b_name);

/// Compares two runs of `p`: every buffer bound to a writable (RW) resource bit for bit, or as a
/// multiset where a BufferMultiset rule names it as Actual.
std::vector<CompareOutcome> CompareRuns(const Pipeline& p, const BufferContents& a,
                                        const BufferContents& b, const ThreadLayout& layout,
                                        const std::string& a_name, const std::string& b_name);

}  // namespace waveemu::oracle
