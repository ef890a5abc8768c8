// test_compare.cpp -- result rules on hand-made buffers: what passes, what fails, and how a
// failure names the element, its wave and its lane.
#if WAVEEMU_ORACLE_TESTS
#include "tools/waveemu/compare.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

using namespace waveemu::oracle;

// GCC 12 warns falsely when it inlines the assignment of a short literal to a std::string here
// (-Wrestrict on memcpy with sizes near 2^63; GCC bug 105329, in 12.1 and 12.2, Debian 12's).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

namespace {

template <class T>
std::vector<std::byte> Bytes(std::initializer_list<T> v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  std::memcpy(b.data(), std::data(v), b.size());
  return b;
}

Pipeline TwoBuffers(DataFormat f, uint32_t stride = 0) {
  Pipeline p;
  p.path = "t.yaml";
  p.buffers.resize(2);
  p.buffers[0].name = "A";
  p.buffers[1].name = "E";
  for (auto& b : p.buffers) b.format = f, b.stride = stride;
  return p;
}

ResultRule Rule(RuleKind k) {
  ResultRule r;
  r.name = "R";
  r.kind = k;
  r.actual = "A";
  r.expected = "E";
  return r;
}

}  // namespace

TEST_CASE("BufferExact fails on one differing bit and names element, group, wave and lane") {
  Pipeline p = TwoBuffers(DataFormat::kUInt32);
  BufferContents run{{"A", Bytes<uint32_t>({1, 2, 3, 4, 5, 6, 7, 8})},
                     {"E", Bytes<uint32_t>({1, 2, 3, 4, 5, 7, 7, 8})}};
  const ThreadLayout layout{4, 8, 2};  // two groups of 4 threads, waves of 2
  const CompareOutcome o = CheckRule(p, Rule(RuleKind::kBufferExact), run, layout);
  CHECK_FALSE(o.ok);
  CHECK(o.summary == "1 of 8 UInt32 values differ");
  REQUIRE(o.lines.size() == 1);
  CHECK(o.lines[0] == "element 5 (group 1, wave 0, lane 1): actual 6, expected 7");
  run["E"] = run["A"];
  CHECK(CheckRule(p, Rule(RuleKind::kBufferExact), run, layout).ok);
}

TEST_CASE("BufferExact of records names the value within the record; sizes must agree") {
  Pipeline p = TwoBuffers(DataFormat::kInt32, 8);
  BufferContents run{{"A", Bytes<int32_t>({1, 2, 3, -4})}, {"E", Bytes<int32_t>({1, 2, 3, 4})}};
  const CompareOutcome o = CheckRule(p, Rule(RuleKind::kBufferExact), run, ThreadLayout{2, 2, 2});
  REQUIRE(o.lines.size() == 1);
  CHECK(o.lines[0] == "element 1 (group 0, wave 0, lane 1) value 1: actual -4, expected 4");
  run["E"] = Bytes<int32_t>({1, 2});
  CHECK(CheckRule(p, Rule(RuleKind::kBufferExact), run, {}).summary ==
        "sizes differ: actual has 16 bytes, expected has 8 (Int32, Stride 8)");
}

TEST_CASE("BufferFloatULP counts units in the last place, across zero, and treats NaN as equal to NaN") {
  Pipeline p = TwoBuffers(DataFormat::kFloat32);
  const float one = 1.0f, next = std::nextafter(1.0f, 2.0f);
  const float next3 = std::nextafter(std::nextafter(next, 2.0f), 2.0f);
  const float nan = std::bit_cast<float>(0x7fc00001u);
  ResultRule r = Rule(RuleKind::kBufferFloatULP);
  r.ulp_tolerance = 1;
  BufferContents run{{"A", Bytes<float>({one, next, nan, 0.0f})},
                     {"E", Bytes<float>({next, next, nan, -0.0f})}};
  CHECK(CheckRule(p, r, run, {}).ok);  // 1 ulp, equal, NaN/NaN, +0/-0 (0 ulp apart)
  run["A"] = Bytes<float>({one, next3, nan, 0.0f});  // 2 ulp from next
  const CompareOutcome o = CheckRule(p, r, run, {});
  CHECK_FALSE(o.ok);
  CHECK(o.summary == "1 of 4 Float32 values differ by more than 1 ULP");
  run["A"] = Bytes<float>({next, next, 1.0f, 0.0f});
  CHECK_FALSE(CheckRule(p, r, run, {}).ok);  // a number where NaN is expected
}

TEST_CASE("BufferFloatEpsilon compares absolute differences of doubles") {
  Pipeline p = TwoBuffers(DataFormat::kFloat64);
  ResultRule r = Rule(RuleKind::kBufferFloatEpsilon);
  r.epsilon = 0.01;
  BufferContents run{{"A", Bytes<double>({1.0, 2.005})}, {"E", Bytes<double>({1.0, 2.0})}};
  CHECK(CheckRule(p, r, run, {}).ok);
  run["A"] = Bytes<double>({1.02, 2.0});
  CHECK_FALSE(CheckRule(p, r, run, {}).ok);
}

TEST_CASE("BufferMultiset ignores order within the count and still compares the rest bit for bit") {
  Pipeline p = TwoBuffers(DataFormat::kUInt32);
  p.buffers.push_back(BufferDesc{});
  p.buffers[2].name = "Count";
  ResultRule r = Rule(RuleKind::kBufferMultiset);
  r.count_buffer = "Count";
  BufferContents run{{"A", Bytes<uint32_t>({3, 1, 2, 9})}, {"E", Bytes<uint32_t>({1, 2, 3, 9})},
                     {"Count", Bytes<uint32_t>({3})}};
  CHECK(CheckRule(p, r, run, {}).ok);
  run["A"] = Bytes<uint32_t>({3, 1, 1, 9});
  CompareOutcome o = CheckRule(p, r, run, {});
  CHECK_FALSE(o.ok);
  REQUIRE(o.lines.size() == 2);
  CHECK(o.lines[0] == "1 only in actual");
  CHECK(o.lines[1] == "2 only in expected");
  run["A"] = Bytes<uint32_t>({3, 1, 2, 8});
  o = CheckRule(p, r, run, {});
  CHECK_FALSE(o.ok);
  CHECK(o.summary == "records past the count 3 differ: 1 of 1 UInt32 values differ");
}

TEST_CASE("CompareRuns compares every RW buffer, as a multiset where a rule says so") {
  Pipeline p = TwoBuffers(DataFormat::kUInt32);
  p.buffers.push_back(BufferDesc{});
  p.buffers[2].name = "N";
  ResourceBinding a, e, n;
  a.name = "A", a.kind = ResourceKind::kRWStructuredBuffer;
  e.name = "E", e.kind = ResourceKind::kStructuredBuffer;  // read-only: not compared
  n.name = "N", n.kind = ResourceKind::kRWStructuredBuffer;
  p.bindings = {a, e, n};
  ResultRule r = Rule(RuleKind::kBufferMultiset);
  r.expected.clear();
  r.count_buffer = "N";
  p.results = {r};
  BufferContents x{{"A", Bytes<uint32_t>({5, 6, 0})}, {"E", Bytes<uint32_t>({1})}, {"N", Bytes<uint32_t>({2})}};
  BufferContents y{{"A", Bytes<uint32_t>({6, 5, 0})}, {"E", Bytes<uint32_t>({2})}, {"N", Bytes<uint32_t>({2})}};
  auto outcomes = CompareRuns(p, x, y, {}, "emulator", "vulkan");
  REQUIRE(outcomes.size() == 2);
  CHECK(outcomes[0].ok);
  CHECK(outcomes[1].ok);
  y["N"] = Bytes<uint32_t>({3});
  outcomes = CompareRuns(p, x, y, {}, "emulator", "vulkan");
  CHECK(outcomes[0].summary == "counts differ: emulator 2, vulkan 3");
  CHECK(outcomes[1].lines.at(0) == "element 0: emulator 2, vulkan 3");
}

TEST_CASE("records of several slots per thread name the slot and the thread") {
  CHECK(DescribeRecord(70, 128, ThreadLayout{64, 64, 8}) ==
        "element 70 (slot 1, thread 6: group 0, wave 0, lane 6)");
  CHECK(DescribeRecord(70, 100, ThreadLayout{64, 64, 8}) == "element 70");
}
#endif
