// test_spirv_rewrite.cpp -- the WavePrefixSum/WavePrefixProduct rewrite (DESIGN §4) on words
// built by hand and on glslang's real output, counted by spirv-dis (an independent tool), plus
// malformed input and the reflection the Vulkan backend relies on. Run-time proof on lavapipe:
// test_vulkan_backend.cpp.
#if defined(WAVEEMU_ORACLE_TESTS) && WAVEEMU_HAVE_VULKAN_BACKEND

#include "tools/waveemu/hlsl_compile.h"
#include "tools/waveemu/spirv_rewrite.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

extern char** environ;

namespace waveemu::oracle {
namespace {

namespace fs = std::filesystem;

fs::path ShaderPath(const std::string& name) {
  return fs::path(__FILE__).parent_path() / "shaders" / name;
}

std::string ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Compiles a test shader, or returns nothing after saying why (no glslangValidator).
std::optional<std::vector<uint32_t>> CompileOrSkip(const std::string& name) {
  if (!FindGlslangValidator()) {
    if (std::getenv("WAVEEMU_REQUIRE_VULKAN")) FAIL("glslangValidator not found");
    MESSAGE("skipped: glslangValidator not found (apt-get install glslang-tools)");
    return std::nullopt;
  }
  const fs::path p = ShaderPath(name);
  return CompileHlsl(ReadText(p), p.string());
}

// Runs a SPIRV-Tools program on a module; returns its exit code and output.
std::pair<int, std::string> RunSpirvTool(const std::string& tool, const std::vector<uint32_t>& words,
                                         std::vector<std::string> extra_args) {
  char dir_template[] = "/tmp/waveemu-spirv-test-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const fs::path dir = dir_template, spv = dir / "m.spv", out = dir / "out.txt";
  {
    std::ofstream f(spv, std::ios::binary);
    f.write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size() * 4));
  }
  std::vector<std::string> args = {tool};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  args.push_back(spv.string());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, tool.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (err == 0) waitpid(pid, &status, 0);
  std::string text = ReadText(out);
  fs::remove_all(dir);
  if (err != 0) return {127, tool + " not found (apt-get install spirv-tools)"};
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, text};
}

// Lines of spirv-dis output that contain every one of `parts`.
int CountLines(const std::string& text, std::initializer_list<std::string> parts) {
  int n = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    n += std::all_of(parts.begin(), parts.end(),
                     [&](const std::string& p) { return line.find(p) != std::string::npos; });
  return n;
}

// OpGroupNonUniform{IAdd,FAdd,IMul,FMul} lines with the given GroupOperation.
int CountArithmetic(const std::string& text, const std::string& operation) {
  int n = 0;
  for (const char* op : {"OpGroupNonUniformIAdd ", "OpGroupNonUniformFAdd ",
                         "OpGroupNonUniformIMul ", "OpGroupNonUniformFMul "})
    n += CountLines(text, {op, " " + operation + " "});
  return n;
}

constexpr uint32_t Op(uint32_t words, uint32_t opcode) { return words << 16 | opcode; }

}  // namespace

TEST_CASE("glslang 12 emits InclusiveScan for WavePrefixSum/Product; the rewrite makes all four "
          "exclusive and leaves reductions and WavePrefixCountBits alone (counted by spirv-dis)") {
  auto words = CompileOrSkip("prefix_ops.hlsl");
  if (!words) return;
  // prefix_ops.hlsl: WavePrefixSum(uint), WavePrefixProduct(int), WavePrefixSum(float),
  // WavePrefixProduct(float) = 4 scans; WaveActiveSum(uint), WaveActiveProduct(float) = 2
  // reductions; WavePrefixCountBits = 1 OpGroupNonUniformBallotBitCount ExclusiveScan.
  auto [rc, before] = RunSpirvTool("spirv-dis", *words, {});
  REQUIRE_MESSAGE(rc == 0, before);
  CHECK(CountArithmetic(before, "InclusiveScan") == 4);
  CHECK(CountArithmetic(before, "ExclusiveScan") == 0);
  CHECK(CountArithmetic(before, "Reduce") == 2);
  CHECK(CountLines(before, {"OpGroupNonUniformBallotBitCount ", " ExclusiveScan "}) == 1);

  const ScanCounts counted = CountArithmeticGroupOps(*words);
  CHECK(counted.inclusive == 4);
  CHECK(counted.reduce == 2);

  CHECK(RewritePrefixScansToExclusive(*words) == 4);
  auto [rc2, after] = RunSpirvTool("spirv-dis", *words, {});
  REQUIRE_MESSAGE(rc2 == 0, after);
  INFO("after the rewrite:\n" << after);
  CHECK(CountArithmetic(after, "InclusiveScan") == 0);
  CHECK(CountArithmetic(after, "ExclusiveScan") == 4);
  CHECK(CountArithmetic(after, "Reduce") == 2);
  CHECK(CountLines(after, {"OpGroupNonUniformBallotBitCount ", " ExclusiveScan "}) == 1);
  // Only GroupOperation words changed: the disassembly differs in exactly those four lines.
  CHECK(CountLines(before, {""}) == CountLines(after, {""}));

  auto [val_rc, val_out] = RunSpirvTool("spirv-val", *words, {"--target-env", "vulkan1.1"});
  CHECK_MESSAGE(val_rc == 0, "spirv-val rejects the rewritten module:\n" << val_out);
  CHECK(RewritePrefixScansToExclusive(*words) == 0);  // idempotent
}

TEST_CASE("storage images lose glslang's Rgba32f ImageFormat (texel buffers keep theirs) and the "
          "module gains the WithoutFormat capabilities it then needs, as spirv-dis and spirv-val "
          "see it") {
  auto words = CompileOrSkip("storage_images.hlsl");
  if (!words) return;
  // storage_images.hlsl: RWTexture2D<float4> Dst and Acc share one OpTypeImage (2D, Sampled 2,
  // Rgba32f); RWBuffer<float> Flat is a Buffer image (R32f); Texture2D Src has Sampled 1.
  auto [rc, before] = RunSpirvTool("spirv-dis", *words, {});
  REQUIRE_MESSAGE(rc == 0, before);
  CHECK(CountLines(before, {"OpTypeImage", " 2D ", " Rgba32f"}) == 1);
  CHECK(CountLines(before, {"OpTypeImage", " Buffer ", " R32f"}) == 1);
  CHECK(CountLines(before, {"OpCapability StorageImageWriteWithoutFormat"}) == 0);

  CHECK(RewriteStorageImagesToUnknownFormat(*words) == 1);
  auto [rc2, after] = RunSpirvTool("spirv-dis", *words, {});
  REQUIRE_MESSAGE(rc2 == 0, after);
  INFO("after the rewrite:\n" << after);
  CHECK(CountLines(after, {"OpTypeImage", " 2D ", " Rgba32f"}) == 0);
  CHECK(CountLines(after, {"OpTypeImage", " 2D ", " 2 Unknown"}) == 1);
  CHECK(CountLines(after, {"OpTypeImage", " Buffer ", " R32f"}) == 1);
  // Acc[id.xy] is an OpImageRead, so both capabilities.
  CHECK(CountLines(after, {"OpCapability StorageImageWriteWithoutFormat"}) == 1);
  CHECK(CountLines(after, {"OpCapability StorageImageReadWithoutFormat"}) == 1);
  auto [val_rc, val_out] = RunSpirvTool("spirv-val", *words, {"--target-env", "vulkan1.1"});
  CHECK_MESSAGE(val_rc == 0, "spirv-val rejects the rewritten module:\n" << val_out);
  CHECK(RewriteStorageImagesToUnknownFormat(*words) == 0);  // idempotent
}

TEST_CASE("the rewrite changes only the GroupOperation word of inclusive IAdd/FAdd/IMul/FMul, "
          "not reductions, clustered or exclusive ones, nor other group ops") {
  // Hand-built module: header, then group ops with (type %1, result, scope 3, operation, value).
  const std::vector<uint32_t> module = {
      0x07230203, 0x00010300, 0, 100, 0,
      Op(2, 17), 1,                           // OpCapability Shader
      Op(6, 349), 1, 10, 3, 1, 9,             // IAdd InclusiveScan       -> exclusive (word 11)
      Op(6, 350), 1, 11, 3, 2, 9,             // FAdd ExclusiveScan       (kept)
      Op(6, 351), 1, 12, 3, 0, 9,             // IMul Reduce              (kept)
      Op(6, 352), 1, 13, 3, 1, 9,             // FMul InclusiveScan       -> exclusive (word 29)
      Op(7, 349), 1, 14, 3, 3, 9, 4,          // IAdd ClusteredReduce     (kept)
      Op(6, 353), 1, 15, 3, 1, 9,             // SMin InclusiveScan: not from a prefix op (kept)
      Op(6, 350), 1, 16, 3, 1, 9,             // FAdd InclusiveScan       -> exclusive (word 48)
  };
  std::vector<uint32_t> words = module;
  CHECK(RewritePrefixScansToExclusive(words) == 3);
  std::vector<uint32_t> expected = module;
  expected[11] = 2;
  expected[29] = 2;
  expected[48] = 2;
  for (size_t i = 0; i < words.size(); ++i)
    CHECK_MESSAGE(words[i] == expected[i], "word " << i << ": expected " << expected[i]
                                                    << ", got " << words[i]);
  const ScanCounts counts = CountArithmeticGroupOps(words);
  CHECK(counts.inclusive == 0);
  CHECK(counts.exclusive == 4);
  CHECK(counts.reduce == 1);
  CHECK(counts.other == 1);  // ClusteredReduce
}

TEST_CASE("malformed SPIR-V is refused with a message that says what is wrong, and left unchanged") {
  const std::vector<uint32_t> header = {0x07230203, 0x00010300, 0, 100, 0};
  auto refuse = [](std::vector<uint32_t> words, const std::string& fragment) {
    const std::vector<uint32_t> original = words;
    try {
      RewritePrefixScansToExclusive(words);
      FAIL("accepted malformed SPIR-V; expected an error mentioning '" << fragment << "'");
    } catch (const SpirvError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos,
                    "message '" << e.what() << "' does not mention '" << fragment << "'");
    }
    CHECK(words == original);
  };
  refuse({}, "header");
  refuse({0x07230203, 0x00010300, 0}, "header");
  refuse({0xdeadbeef, 0x00010300, 0, 100, 0}, "magic");
  refuse({0x03022307, 0x00010300, 0, 100, 0}, "byte-swapped");
  auto zero_count = header;
  zero_count.push_back(Op(0, 17));
  refuse(zero_count, "word count 0");
  // A good inclusive IAdd first, then an instruction claiming 9 words with 2 left: the IAdd
  // must not be rewritten either (validation runs before any change).
  auto truncated = header;
  truncated.insert(truncated.end(), {Op(6, 349), 1, 10, 3, 1, 9, Op(9, 17), 1});
  refuse(truncated, "only 2 remain");
  auto short_op = header;
  short_op.insert(short_op.end(), {Op(4, 350), 1, 10, 3});
  refuse(short_op, "needs at least 6");
  CHECK_THROWS_AS(SpirvWordsFromBytes(std::vector<std::byte>(7)), SpirvError);
}

TEST_CASE("ReflectSpirv reads each resource's HLSL name, set, binding, descriptor type, stride "
          "and format, the numthreads and the capabilities") {
  auto structured = CompileOrSkip("structured.hlsl");
  if (!structured) return;
  // structured.hlsl: In t0 (uint2, stride 8), Raw t1, cbuffer Constants b2, Out u0 space1,
  // RawOut u1 space1; numthreads(8,1,1).
  const SpirvModuleInfo m = ReflectSpirv(*structured, "main");
  CHECK(m.has_entry);
  REQUIRE(m.local_size.has_value());
  CHECK(*m.local_size == std::array<uint32_t, 3>{8, 1, 1});
  struct Want {
    const char* name;
    uint32_t set, binding;
    SpirvDescriptorType type;
    uint32_t stride;
  };
  const Want want[] = {
      {"In", 0, 0, SpirvDescriptorType::kStorageBuffer, 8},
      {"Raw", 0, 1, SpirvDescriptorType::kStorageBuffer, 4},
      {"Constants", 0, 2, SpirvDescriptorType::kUniformBuffer, 0},
      {"Out", 1, 0, SpirvDescriptorType::kStorageBuffer, 4},
      {"RawOut", 1, 1, SpirvDescriptorType::kStorageBuffer, 4},
  };
  CHECK(m.resources.size() == std::size(want));
  for (const Want& w : want) {
    CAPTURE(w.name);
    auto it = std::find_if(m.resources.begin(), m.resources.end(),
                           [&](const SpirvResource& r) { return r.name == w.name; });
    REQUIRE(it != m.resources.end());
    CHECK(it->set == w.set);
    CHECK(it->binding == w.binding);
    CHECK(it->type == w.type);
    CHECK(it->array_stride == w.stride);
  }
  CHECK(ReflectSpirv(*structured, "other").has_entry == false);

  auto typed = CompileOrSkip("typed.hlsl");
  REQUIRE(typed);
  const SpirvModuleInfo t = ReflectSpirv(*typed, "main");
  CHECK(*t.local_size == std::array<uint32_t, 3>{4, 1, 1});
  std::map<std::string, std::pair<SpirvDescriptorType, std::string>> typed_want = {
      {"In", {SpirvDescriptorType::kUniformTexelBuffer, "R32f"}},
      {"In4", {SpirvDescriptorType::kUniformTexelBuffer, "Rgba32f"}},
      {"Out", {SpirvDescriptorType::kStorageTexelBuffer, "R32i"}},
      {"Out4", {SpirvDescriptorType::kStorageTexelBuffer, "Rgba32f"}},
  };
  CHECK(t.resources.size() == typed_want.size());
  for (const SpirvResource& r : t.resources) {
    CAPTURE(r.name);
    REQUIRE(typed_want.count(r.name));
    CHECK(r.type == typed_want[r.name].first);
    CHECK(SpirvImageFormatName(r.image_format) == typed_want[r.name].second);
  }
  const auto has_cap = [&](uint32_t c) {
    return std::find(t.capabilities.begin(), t.capabilities.end(), c) != t.capabilities.end();
  };
  CHECK(has_cap(46));  // SampledBuffer (Buffer<T>)
  CHECK(has_cap(47));  // ImageBuffer (RWBuffer<T>)
  CHECK(SpirvCapabilityName(63) == "GroupNonUniformArithmetic");
}

}  // namespace waveemu::oracle

#endif  // WAVEEMU_ORACLE_TESTS && WAVEEMU_HAVE_VULKAN_BACKEND
