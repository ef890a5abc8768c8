// test_cli.cpp -- the waveemu command end to end: exit codes and messages for good pipelines,
// failing results, bad input and missing ports.
#if WAVEEMU_ORACLE_TESTS
#include "tests/support/file_text.h"
#include "tests/support/scratch_dir.h"
#if WAVEEMU_HAVE_VULKAN_BACKEND
#include "tests/oracle/vulkan_test_support.h"
#endif

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <sys/wait.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Result {
  int code = -1;
  std::string output;  // stdout and stderr
};

Result Run(const std::string& args) {
  const std::string cmd = fmt::format("'{}' {} 2>&1", WAVEEMU_CLI, args);
  Result r;
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f != nullptr);
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(f);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string Pipelines() { return std::string(WAVEEMU_SOURCE_ROOT) + "/tests/pipelines/"; }

std::string TempFile(const std::string& name, const std::string& text) {
  const auto path = waveemu::test::ScratchDir() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("waveemu run of an example pipeline on the emulator meets its results and writes buffers") {
  const auto out = waveemu::test::ScratchDir() / "out";
  const Result r = Run(fmt::format("run '{}compacted_append.yaml' --backend emulator --profile "
                                   "lavapipe --deterministic --out '{}'", Pipelines(), out.string()));
  CAPTURE(r.output);
  CHECK(r.code == 0);
  CHECK(r.output.find("PASS result 'AppendedItems'") != std::string::npos);
  CHECK(std::filesystem::file_size(out / "buffer.bin") == 256);
  CHECK(std::filesystem::exists(out / "summary.json"));
}

TEST_CASE("waveemu run exits 1 when a result rule fails") {
  // wave_uint's expected buffer holds wave-8 values; at wave 16 the lane count slot differs.
  const Result r = Run(fmt::format("run '{}wave_uint.yaml' --wave-size 16", Pipelines()));
  CAPTURE(r.output);
  CHECK(r.code == 1);
  CHECK(r.output.find("FAIL result 'AllSlotsAtWave8'") != std::string::npos);
  CHECK(r.output.find("(slot ") != std::string::npos);
}

TEST_CASE("waveemu run refuses a wave size that is not one, naming the flag") {
  const Result r = Run(fmt::format("run '{}wave_uint.yaml' --wave-size 12", Pipelines()));
  CAPTURE(r.output);
  CHECK(r.code != 0);
  CHECK(r.output.find("--wave-size") != std::string::npos);
  CHECK(r.output.find("DispatchOptions") == std::string::npos);  // no internal names
}

TEST_CASE("waveemu exits 2 with file and line for a bad pipeline") {
  const std::string path = TempFile("bad.test", "#--- s.hlsl\n\n#--- p.yaml\n"
                                                "Shaders:\n  - Stage: Compute\n    Entry: main\n"
                                                "Buffers:\n  - Name: X\n    Format: UInt33\n");
  const Result r = Run(fmt::format("run '{}'", path));
  CHECK(r.code == 2);
  CHECK(r.output.find(path + ":9: buffer 'X': unknown Format 'UInt33'") != std::string::npos);
}

TEST_CASE("waveemu exits 2 naming the file and entry when no port exists") {
  const std::string path = TempFile("noport.test",
      "#--- source.hlsl\n[numthreads(1,1,1)] void main() {}\n#--- pipeline.yaml\n"
      "Shaders:\n  - Stage: Compute\n    Entry: main\nBuffers: []\nDescriptorSets: []\n#--- end\n");
  const Result r = Run(fmt::format("run '{}'", path));
  CHECK(r.code == 2);
  CAPTURE(r.output);
  CHECK(r.output.find("no emulator port for noport.test entry 'main'") != std::string::npos);
  CHECK(r.output.find("tests/pipelines/ports/") != std::string::npos);
}

/// compacted_append.yaml with its Source made absolute and each {from, to} edit made once, as
/// a file in the scratch folder.
std::string CompactedAppendWith(const std::string& name,
                                std::vector<std::pair<std::string, std::string>> edits) {
  std::string text = waveemu::test::FileText(Pipelines() + "compacted_append.yaml");
  edits.emplace_back("Source: ../../examples/", "Source: " WAVEEMU_SOURCE_ROOT "/examples/");
  for (const auto& [from, to] : edits) {
    CAPTURE(from);
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), to);
  }
  return TempFile(name, text);
}

using waveemu::test::FileText;

TEST_CASE("--out gives buffers whose names make one file name files of their own") {
  // 'a b' and 'a_b' both become a_b; a buffer really named a_b-2 keeps its name.
  const std::string path = CompactedAppendWith(
      "collide.yaml", {{"Buffers:\n", "Buffers:\n"
                                      "  - Name: 'a b'\n    Format: UInt32\n    Data: [ 1 ]\n"
                                      "  - Name: a_b\n    Format: UInt32\n    Data: [ 2 ]\n"
                                      "  - Name: a_b-2\n    Format: UInt32\n    Data: [ 3 ]\n"}});
  const auto out = waveemu::test::ScratchDir() / "collide";
  const Result r = Run(fmt::format("run '{}' --out '{}'", path, out.string()));
  CAPTURE(r.output);
  REQUIRE(r.code == 0);
  const auto word = [](uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
  CHECK(FileText(out / "a_b.bin") == word(1));
  CHECK(FileText(out / "a_b-3.bin") == word(2));
  CHECK(FileText(out / "a_b-2.bin") == word(3));
  const std::string summary = FileText(out / "summary.json");
  CHECK(summary.find(R"("name": "a b", "file": "a_b.bin")") != std::string::npos);
  CHECK(summary.find(R"("name": "a_b", "file": "a_b-3.bin")") != std::string::npos);
  CHECK(summary.find(R"("name": "a_b-2", "file": "a_b-2.bin")") != std::string::npos);
}

TEST_CASE("a Stride wider than the port's element, and out-of-bounds accesses, are noted") {
  // Input's 64 words read as 32 records of 8 bytes: the kernel's 64 threads each read
  // Input[thread], so threads 32-63 read past the end.
  const std::string path = CompactedAppendWith(
      "stride8.yaml", {{"  - Name: Input\n    Format: UInt32\n",
                        "  - Name: Input\n    Format: UInt32\n    Stride: 8\n"}});
  const auto out = waveemu::test::ScratchDir() / "stride8";
  const Result r = Run(fmt::format("run '{}' --out '{}'", path, out.string()));
  CAPTURE(r.output);
  CHECK(r.code == 1);  // the expected items assume 4-byte records
  const std::string stride_note =
      "buffer 'Input' bound at t0 has 8-byte records but the port's element is 4 bytes: each "
      "element is the first 4 bytes of its record, and the rest is neither read nor written";
  CHECK(r.output.find("note: " + stride_note + "\n") != std::string::npos);
  CHECK(r.output.find("note: out-of-bounds accesses: 32 reads, 0 writes, 0 atomics (D3D buffer "
                      "views: a read gives 0, a write or an atomic does nothing)\n") !=
        std::string::npos);
  CHECK(FileText(out / "summary.json").find("\"notes\": [\"" + stride_note + "\"]") !=
        std::string::npos);
  // The unchanged pipeline gives neither note.
  const Result plain = Run(fmt::format("run '{}compacted_append.yaml'", Pipelines()));
  CHECK(plain.code == 0);
  CHECK(plain.output.find("note:") == std::string::npos);
}

TEST_CASE("a note made before an emulator run fails is still printed") {
  // Input binds first, with its Stride note; bufferSize, a byte-address buffer where the port
  // declares a structured one, then fails the binding.
  const std::string path = CompactedAppendWith(
      "stride_then_kind.yaml",
      {{"  - Name: Input\n    Format: UInt32\n", "  - Name: Input\n    Format: UInt32\n    Stride: 8\n"},
       {"    - Name: bufferSize\n      Kind: RWStructuredBuffer\n",
        "    - Name: bufferSize\n      Kind: RWByteAddressBuffer\n"}});
  const Result r = Run(fmt::format("run '{}'", path));
  CAPTURE(r.output);
  CHECK(r.code == 2);
  CHECK(r.output.find("note: buffer 'Input' bound at t0 has 8-byte records but the port's "
                      "element is 4 bytes") != std::string::npos);
  CHECK(r.output.find("resource 'bufferSize' is a RWByteAddressBuffer, but the shader declares "
                      "bufferSize as a RWStructuredBuffer") != std::string::npos);
}

#if WAVEEMU_HAVE_VULKAN_BACKEND
TEST_CASE("a note made before a Vulkan run fails is still printed") {
  WAVEEMU_VULKAN_OR_SKIP(false);
  // u0 -> 16 but u1 -> 5: no one shift for class u, so glslang keeps binding = register and the
  // shader's 'buffer' lands at binding 1, where nothing is bound. The note says why.
  const std::string path = CompactedAppendWith(
      "shift.yaml", {{"VulkanBinding: { Binding: 17 }", "VulkanBinding: { Binding: 5 }"}});
  const Result r = Run(fmt::format("run '{}' --backend vulkan", path));
  CAPTURE(r.output);
  CHECK(r.code == 2);
  CHECK(r.output.find("note: register class 'u': VulkanBinding - DirectXBinding.Register is not "
                      "one non-negative number across its resources, so glslang keeps binding = "
                      "register for it\n") != std::string::npos);
  CHECK(r.output.find("has no binding in the pipeline") != std::string::npos);
}
#endif

TEST_CASE("waveemu exits 2 for a missing file, an unknown profile and bad arguments") {
  CHECK(Run("run /nonexistent.yaml").code == 2);
  CHECK(Run(fmt::format("run '{}wave_int.yaml' --profile amd", Pipelines())).code == 2);
  CHECK(Run("run").code == 2);
  CHECK(Run("frobnicate").code == 2);
}
#endif
