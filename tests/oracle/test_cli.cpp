// test_cli.cpp -- the waveemu command end to end: exit codes and messages for good pipelines,
// failing results, bad input and missing ports.
#if WAVEEMU_ORACLE_TESTS
#include "tests/support/scratch_dir.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <sys/wait.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

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

/// compacted_append.yaml with its Source made absolute and `extra` added to its Buffers, as a
/// file in the scratch folder.
std::string CompactedAppendWith(const std::string& name, const std::string& extra) {
  std::ifstream in(Pipelines() + "compacted_append.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string rel = "Source: ../../examples/", abs = "Source: " WAVEEMU_SOURCE_ROOT "/examples/";
  REQUIRE(text.find(rel) != std::string::npos);
  text.replace(text.find(rel), rel.size(), abs);
  REQUIRE(text.find("Buffers:\n") != std::string::npos);
  text.insert(text.find("Buffers:\n") + 9, extra);
  return TempFile(name, text);
}

std::string FileText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST_CASE("--out gives buffers whose names make one file name files of their own") {
  // 'a b' and 'a_b' both become a_b; a buffer really named a_b-2 keeps its name.
  const std::string path = CompactedAppendWith(
      "collide.yaml",
      "  - Name: 'a b'\n    Format: UInt32\n    Data: [ 1 ]\n"
      "  - Name: a_b\n    Format: UInt32\n    Data: [ 2 ]\n"
      "  - Name: a_b-2\n    Format: UInt32\n    Data: [ 3 ]\n");
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

TEST_CASE("waveemu exits 2 for a missing file, an unknown profile and bad arguments") {
  CHECK(Run("run /nonexistent.yaml").code == 2);
  CHECK(Run(fmt::format("run '{}wave_int.yaml' --profile amd", Pipelines())).code == 2);
  CHECK(Run("run").code == 2);
  CHECK(Run("frobnicate").code == 2);
}
#endif
