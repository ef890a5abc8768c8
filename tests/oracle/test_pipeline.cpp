// test_pipeline.cpp -- the offload-test-suite pipeline reader: good files in both forms, and each
// kind of bad input giving its exact "file:line: problem" message.
#if WAVEEMU_ORACLE_TESTS
#include "tools/waveemu/pipeline.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <string>

using namespace waveemu::oracle;

namespace {

// A split-file test as llvm/offload-test-suite writes them (line numbers matter below).
constexpr const char* kSplit = R"(#--- source.hlsl
RWStructuredBuffer<uint> Out : register(u1);
[numthreads(4, 1, 1)]
void main(uint tid : SV_GroupIndex) { Out[tid] = WavePrefixCountBits(true); }
//--- pipeline.yaml
---
Shaders:
  - Stage: Compute
    Entry: main
    DispatchSize: [2, 1, 1]
Buffers:
  - Name: Out
    Format: UInt32
    Stride: 4
    FillSize: 32
    FillValue: 7
  - Name: Expected
    Format: Int16
    Data: [ -1, 0x7fff ]
Results:
  - Result: Test1
    Rule: BufferExact
    Actual: Out
    Expected: Expected
DescriptorSets:
  - Resources:
    - Name: Out
      Kind: RWStructuredBuffer
      DirectXBinding:
        Register: 1
        Space: 0
...
#--- end
# RUN: anything
)";

/// The message ParsePipeline gives for `yaml` (a plain YAML file named bad.yaml whose HLSL is
/// inline through a split section), or "no error".
std::string ErrorOf(const std::string& yaml_body) {
  const std::string text = "#--- source.hlsl\nvoid main() {}\n#--- pipeline.yaml\n" + yaml_body;
  try {
    ParsePipeline(text, "bad.test");
  } catch (const PipelineError& e) {
    return e.what();
  }
  return "no error";
}

constexpr const char* kShaders = "Shaders:\n  - Stage: Compute\n    Entry: main\n";  // lines 4-6

}  // namespace

TEST_CASE("the reader takes a split-file test: HLSL, entry, dispatch, fill, data, results, bindings") {
  const Pipeline p = ParsePipeline(kSplit, "t.test");
  CHECK(p.hlsl_source.find("WavePrefixCountBits") != std::string::npos);
  CHECK(p.hlsl_first_line == 2);
  CHECK(p.entry == "main");
  CHECK(p.dispatch == std::array<uint32_t, 3>{2, 1, 1});
  REQUIRE(p.buffers.size() == 2);
  const BufferDesc& out = p.buffers[0];
  CHECK(out.format == DataFormat::kUInt32);
  REQUIRE(out.data.size() == 32);
  uint32_t v;
  std::memcpy(&v, out.data.data() + 28, 4);
  CHECK(v == 7u);
  CHECK(out.source_line == 12);
  const BufferDesc& e = p.buffers[1];
  REQUIRE(e.data.size() == 4);
  int16_t h[2];
  std::memcpy(h, e.data.data(), 4);
  CHECK(h[0] == -1);
  CHECK(h[1] == 0x7fff);
  REQUIRE(p.results.size() == 1);
  CHECK(p.results[0].kind == RuleKind::kBufferExact);
  REQUIRE(p.bindings.size() == 1);
  CHECK(p.bindings[0].kind == ResourceKind::kRWStructuredBuffer);
  CHECK(p.bindings[0].dx_register == 1u);
  CHECK(p.bindings[0].binding == 1u);  // no VulkanBinding: the register
  CHECK(p.HlslFileName() == "t.test");
}

TEST_CASE("the reader takes DispatchParameters, VulkanBinding, floats, Bool, hex, WaveSize and multiset rules") {
  const Pipeline p = ParsePipeline(std::string("#--- a.hlsl\n\n#--- p.yaml\n") + kShaders + R"(DispatchParameters:
  DispatchGroupCount: [3, 2, 1]
WaveSize: 16
Buffers:
  - Name: F
    Format: Float32
    Data: [ 1.5, -.inf, .nan ]
  - Name: B
    Format: Bool
    Data: [ true, 0 ]
  - Name: H
    Format: Hex64
    Data: [ 0xffffffffffffffff ]
  - Name: C
    Format: UInt32
    Data: [ 2 ]
Results:
  - Result: M
    Rule: BufferMultiset
    Actual: F
    Count: C
DescriptorSets:
  - Resources:
    - Name: F
      Kind: RWBuffer
      DirectXBinding: { Register: 0, Space: 0 }
      VulkanBinding: { Binding: 16 }
)", "p.test");
  CHECK(p.dispatch == std::array<uint32_t, 3>{3, 2, 1});
  CHECK(p.wave_size == 16);
  float f[3];
  std::memcpy(f, p.buffers[0].data.data(), 12);
  CHECK(f[0] == 1.5f);
  CHECK(f[1] < -3e38f);
  CHECK(f[2] != f[2]);
  CHECK(p.buffers[1].data.size() == 8);
  CHECK(p.buffers[2].data.size() == 8);
  CHECK(p.results[0].kind == RuleKind::kBufferMultiset);
  CHECK(p.results[0].count_buffer == "C");
  CHECK(p.bindings[0].binding == 16u);
}

TEST_CASE("malformed YAML names the file and the line") {
  CHECK(ErrorOf(std::string(kShaders) + "Buffers: [ { Name: X\n") ==
        "bad.test:8: malformed YAML: end of map flow not found");
}

TEST_CASE("an unknown Format, Kind or Rule names the line and the known names") {
  const std::string buf = std::string(kShaders) + "Buffers:\n  - Name: X\n    Format: UInt33\n    Data: [1]\n";
  CHECK(ErrorOf(buf) ==
        "bad.test:9: buffer 'X': unknown Format 'UInt33' (known: Bool, Int16, UInt16, Int32, "
        "UInt32, Int64, UInt64, Float16, Float32, Float64, Hex8, Hex16, Hex32, Hex64)");
  const std::string ok_buf = std::string(kShaders) + "Buffers:\n  - Name: X\n    Format: UInt32\n    Data: [1]\n";
  CHECK(ErrorOf(ok_buf + "DescriptorSets:\n  - Resources:\n    - Name: X\n      Kind: Texture3D\n"
                         "      VulkanBinding: { Binding: 0 }\n") ==
        "bad.test:14: resource 'X': unknown Kind 'Texture3D' (known: StructuredBuffer, "
        "RWStructuredBuffer, Buffer, RWBuffer, ByteAddressBuffer, RWByteAddressBuffer, "
        "ConstantBuffer, Texture2D, RWTexture2D, Sampler)");
  CHECK(ErrorOf(ok_buf + "Results:\n  - Result: R\n    Rule: BufferClose\n    Actual: X\n"
                         "    Expected: X\nDescriptorSets: []\n") ==
        "bad.test:13: result 'R': unknown Rule 'BufferClose' (known: BufferExact, BufferFloatULP, "
        "BufferFloatEpsilon, BufferMultiset)");
}

TEST_CASE("HasCounter is a flag (YAML booleans or 1/0); a counter is refused by name") {
  const std::string head = std::string(kShaders) +
                           "Buffers:\n  - Name: X\n    Format: UInt32\n    Data: [1]\n"
                           "DescriptorSets:\n  - Resources:\n    - Name: X\n      Kind: "
                           "RWStructuredBuffer\n      VulkanBinding: { Binding: 0 }\n"
                           "      HasCounter: ";  // line 16
  const std::string refused = "bad.test:16: resource 'X': counters (HasCounter) are not supported";
  CHECK(ErrorOf(head + "true\n") == refused);
  CHECK(ErrorOf(head + "1\n") == refused);
  CHECK(ErrorOf(head + "false\n") == "no error");
  CHECK(ErrorOf(head + "0\n") == "no error");
  CHECK(ErrorOf(head + "True\n") == refused);  // YAML's other spellings, as yaml-cpp reads them
  CHECK(ErrorOf(head + "no\n") == "no error");
  CHECK(ErrorOf(head + "maybe\n") ==
        "bad.test:16: resource 'X': HasCounter must be true or false (or 1 or 0), not 'maybe'");
}

TEST_CASE("Data that is not a whole number of Stride records is refused at its line") {
  CHECK(ErrorOf(std::string(kShaders) +
                "Buffers:\n  - Name: X\n    Format: Int32\n    Stride: 16\n    Data: [1, 2, 3]\n"
                "DescriptorSets: []\n") ==
        "bad.test:11: buffer 'X' holds 12 bytes (3 Int32 values), not a whole number of 16-byte "
        "records (Stride 16)");
  CHECK(ErrorOf(std::string(kShaders) +
                "Buffers:\n  - Name: X\n    Format: Int16\n    Data: [70000]\n"
                "DescriptorSets: []\n") ==
        "bad.test:10: '70000' is not a 16-bit signed integer (Int16)");
}

TEST_CASE("a binding or a result naming no buffer is refused at its line") {
  const std::string ok_buf = std::string(kShaders) + "Buffers:\n  - Name: X\n    Format: UInt32\n    Data: [1]\n";
  CHECK(ErrorOf(ok_buf + "DescriptorSets:\n  - Resources:\n    - Name: Y\n      Kind: RWBuffer\n"
                         "      VulkanBinding: { Binding: 0 }\n") ==
        "bad.test:13: resource 'Y' names no buffer (no Buffers entry has Name: Y)");
  CHECK(ErrorOf(ok_buf + "Results:\n  - Result: R\n    Rule: BufferExact\n    Actual: X\n"
                         "    Expected: Z\nDescriptorSets: []\n") ==
        "bad.test:15: result 'R': Expected 'Z' names no buffer");
}

TEST_CASE("a pipeline without Shaders, or with an unknown key, is refused") {
  CHECK(ErrorOf("Buffers: []\nDescriptorSets: []\n") ==
        "bad.test:4: the pipeline has no Shaders (a list with one Stage: Compute entry)");
  CHECK(ErrorOf(std::string(kShaders) + "Buffers:\n  - Name: X\n    Format: UInt32\n    Fillsize: 4\n") ==
        "bad.test:10: unknown key 'Fillsize' in a buffer (known keys: Name, Format, Stride, Data, "
        "FillSize, FillValue, DataFile, Channels, ArraySize, OutputProps, TextureFormat)");
}

TEST_CASE("a key given twice, a shared register, or a rule on a buffer no shader writes: refused") {
  // yaml-cpp keeps both keys of a map and a lookup sees the first: the second must not vanish.
  CHECK(ErrorOf(std::string(kShaders) +
                "Buffers:\n  - Name: X\n    Format: UInt32\n    Data: [1]\n    Data: [2]\n"
                "DescriptorSets: []\n") ==
        "bad.test:11: key 'Data' appears twice in a buffer (first at line 10)");
  const std::string two_bufs = std::string(kShaders) +
                               "Buffers:\n"
                               "  - Name: X\n    Format: UInt32\n    Data: [1]\n"    // lines 8-10
                               "  - Name: Y\n    Format: UInt32\n    Data: [1]\n"    // lines 11-13
                               "  - Name: Z\n    Format: UInt32\n    Data: [1]\n"    // lines 14-16
                               "DescriptorSets:\n  - Resources:\n"                   // lines 17-18
                               "    - Name: X\n      Kind: RWBuffer\n"               // lines 19-20
                               "      DirectXBinding: { Register: 0 }\n"
                               "      VulkanBinding: { Binding: 0 }\n"
                               "    - Name: Y\n";                                     // line 23
  const std::string vk1 = "      VulkanBinding: { Binding: 1 }\n";
  // u0 twice; t0 beside u0 is another register.
  const std::string y_u0 =
      "      Kind: RWStructuredBuffer\n      DirectXBinding: { Register: 0 }\n";
  CHECK(ErrorOf(two_bufs + y_u0 + vk1) ==
        "bad.test:23: resources 'X' and 'Y' share register u0 space 0");
  const std::string y_srv =
      two_bufs + "      Kind: StructuredBuffer\n      DirectXBinding: { Register: 0 }\n" + vk1;
  CHECK(ErrorOf(y_srv) == "no error");
  // Results start at line 27.
  const auto rule = [](const char* actual, const char* expected) {
    return fmt::format("Results:\n  - Result: R\n    Rule: BufferExact\n    Actual: {}\n"
                       "    Expected: {}\n", actual, expected);
  };
  CHECK(ErrorOf(y_srv + rule("X", "Z")) == "no error");
  CHECK(ErrorOf(y_srv + rule("Y", "X")) ==
        "bad.test:30: result 'R': Actual 'Y' is bound only as a StructuredBuffer, so the shader "
        "never writes it; name the RW buffer the shader writes");
  CHECK(ErrorOf(y_srv + rule("Z", "X")) ==
        "bad.test:30: result 'R': Actual 'Z' is bound to no resource, so the shader never writes "
        "it; name the RW buffer the shader writes");
  CHECK(ErrorOf(y_srv + rule("X", "X")) ==
        "bad.test:31: result 'R': Expected and Actual are both 'X'");
}

TEST_CASE("a dispatch of more than 65535 groups in one dimension is refused, as D3D12 refuses it") {
  const auto with_size = [](const char* size) {
    return std::string(kShaders) + "    DispatchSize: " + size +
           "\nBuffers: []\nDescriptorSets: []\n";
  };
  CHECK(ErrorOf(with_size("[65535, 65535, 1]")) == "no error");
  CHECK(ErrorOf(with_size("[1, 65536, 1]")) ==
        "bad.test:7: 'DispatchSize': 65536 groups in one dimension; D3D12 allows at most 65535 "
        "(spread them over x, y and z)");
}

TEST_CASE("a float literal too large for its Format is refused; .inf and denormals are kept") {
  const auto data = [](const char* format, const char* values) {
    return ErrorOf(std::string(kShaders) + "Buffers:\n  - Name: X\n    Format: " + format +
                   "\n    Data: [" + values + "]\nDescriptorSets: []\n");
  };
  CHECK(data("Float32", "3.4e38, .inf, -.inf, 1e-45, 1e-50") == "no error");
  // What was kept, as bits: infinities, the least denormal (2^-149 = 1.4e-45, nearest to
  // 1e-45) and zero (1e-50 is below half of it).
  const Pipeline p = ParsePipeline("#--- source.hlsl\nvoid main() {}\n#--- pipeline.yaml\n" +
                                       std::string(kShaders) +
                                       "Buffers:\n  - Name: X\n    Format: Float32\n"
                                       "    Data: [.inf, -.inf, 1e-45, 1e-50]\n"
                                       "DescriptorSets: []\n",
                                   "kept.test");
  REQUIRE(p.buffers.size() == 1);
  REQUIRE(p.buffers[0].data.size() == 16);
  uint32_t bits[4];
  std::memcpy(bits, p.buffers[0].data.data(), sizeof bits);
  CHECK(bits[0] == 0x7f800000u);
  CHECK(bits[1] == 0xff800000u);
  CHECK(bits[2] == 0x00000001u);
  CHECK(bits[3] == 0x00000000u);
  CHECK(data("Float32", "1, 1e39") ==
        "bad.test:10: '1e39' is not finite in this format (write .inf for infinity) (Float32)");
  CHECK(data("Float64", "1e39, 1e308") == "no error");
  CHECK(data("Float64", "-1e400") ==
        "bad.test:10: '-1e400' is not finite in this format (write .inf for infinity) (Float64)");
}

TEST_CASE("a missing file and a missing HLSL are reported without a line") {
  try {
    ReadPipeline("/nonexistent/p.yaml");
    FAIL("no error");
  } catch (const PipelineError& e) {
    CHECK(std::string(e.what()) == "/nonexistent/p.yaml: no such file");
  }
  try {
    ParsePipeline(std::string(kShaders) + "Buffers: []\nDescriptorSets: []\n", "/nonexistent/q.yaml");
    FAIL("no error");
  } catch (const PipelineError& e) {
    CHECK(std::string(e.what()) ==
          "/nonexistent/q.yaml:2: no HLSL: the test has no '#--- source.hlsl' section, the shader "
          "no 'Source:', and '/nonexistent/q.hlsl' does not exist");
  }
}

TEST_CASE("FillSize repeats FillValue through every element, up to D3D12's 2048 MiB") {
  // 7 elements (not a power of two) of an 8-byte pattern: each must hold it whole.
  const Pipeline p = ParsePipeline(
      std::string("#--- a.hlsl\n\n#--- p.yaml\n") + kShaders +
          "Buffers:\n  - Name: X\n    Format: UInt64\n    FillSize: 56\n"
          "    FillValue: 0x0102030405060708\nDescriptorSets: []\n",
      "f.test");
  REQUIRE(p.buffers.at(0).data.size() == 56);
  for (int i = 0; i < 7; ++i) {
    uint64_t v;
    std::memcpy(&v, p.buffers[0].data.data() + 8 * i, 8);
    CHECK(v == 0x0102030405060708ull);
  }
  CHECK(ErrorOf(std::string(kShaders) + "Buffers:\n  - Name: X\n    Format: UInt32\n"
                "    FillSize: 2147483652\nDescriptorSets: []\n") ==
        "bad.test:10: buffer 'X': FillSize 2147483652 is over D3D12's largest resource, 2048 MiB "
        "(2147483648 bytes)");
}

TEST_CASE("a directory where a file belongs is named as one") {
  const std::string dir = std::string(WAVEEMU_SOURCE_ROOT) + "/examples";
  try {
    ReadPipeline(dir);
    FAIL("no error");
  } catch (const PipelineError& e) {
    CHECK(std::string(e.what()) == dir + ": is a directory, not a file");
  }
  // Before: an ifstream opened the directory, read nothing, and the run reported "no port".
  CHECK(ErrorOf("Shaders:\n  - Stage: Compute\n    Entry: main\n    Source: " + dir +
                "\nBuffers: []\nDescriptorSets: []\n") ==
        "bad.test:7: the HLSL file '" + dir + "' is a directory, not a file");
  CHECK(ErrorOf(std::string(kShaders) + "Buffers:\n  - Name: X\n    Format: UInt32\n"
                "    DataFile: " + dir + "\nDescriptorSets: []\n") ==
        "bad.test:10: buffer 'X': DataFile '" + dir + "' is a directory, not a file");
}

TEST_CASE("a second YAML document, or text after '...', is refused rather than skipped") {
  const std::string one = std::string(kShaders) + "Buffers: []\nDescriptorSets: []\n";
  CHECK(ErrorOf(one + "---\nBuffers: []\n") ==
        "bad.test:10: a second YAML document ('---' or text after '...'): a pipeline file holds one");
  CHECK(ErrorOf(one + "...\nResults: []\n") ==
        "bad.test:10: a second YAML document ('---' or text after '...'): a pipeline file holds one");
  // A bare '---' at the end and comments after '...' add nothing, and pass.
  CHECK(ErrorOf(one + "---\n") == "no error");
  CHECK(ErrorOf(one + "...\n# a comment\n") == "no error");
}

TEST_CASE("every pipeline in tests/pipelines reads without error") {
  for (const char* name : {"wave_uint.yaml", "wave_int.yaml", "wave_float.yaml", "wave_double.yaml",
                           "compacted_append.yaml", "ordered_append.yaml", "free_ids_wave.yaml",
                           "bounding_box.yaml", "average_position.yaml"}) {
    CAPTURE(name);
    CHECK_NOTHROW(ReadPipeline(std::string(WAVEEMU_SOURCE_ROOT) + "/tests/pipelines/" + name));
  }
}
#endif
