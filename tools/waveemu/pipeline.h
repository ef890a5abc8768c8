// pipeline.h -- one compute pipeline as llvm/offload-test-suite describes it in YAML: the HLSL,
// the dispatch size, the buffers with their initial data, the descriptor bindings, and the
// result rules. Both backends (emulator, Vulkan) run a Pipeline and return its buffers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace waveemu::oracle {

/// offload-test-suite `Format`: how Data is written in the YAML and how results are compared.
enum class DataFormat {
  kBool, kInt16, kUInt16, kInt32, kUInt32, kInt64, kUInt64,
  kFloat16, kFloat32, kFloat64, kHex8, kHex16, kHex32, kHex64,
};

/// Bytes per element of a format (Bool is 4 bytes, as HLSL stores bool).
size_t ElementSize(DataFormat f);
/// The YAML spelling ("UInt32"), and back (nullopt for an unknown name).
const char* ToString(DataFormat f);
std::optional<DataFormat> ParseDataFormat(std::string_view name);
/// Float16/32/64: compared as floats by BufferFloatULP/Epsilon.
bool IsFloatFormat(DataFormat f);

struct BufferDesc {
  std::string name;
  DataFormat format = DataFormat::kUInt32;
  uint32_t stride = 0;          // bytes per structured element; 0 = ElementSize(format)
  std::vector<std::byte> data;  // initial contents (Data, FillSize/FillValue or DataFile)
  std::string data_file;        // DataFile extension: the resolved path, when used
  int source_line = 0;          // where it is declared, for messages

  /// Bytes per record: the stride, or one element of the format.
  size_t RecordSize() const { return stride ? stride : ElementSize(format); }
};

enum class ResourceKind {
  kStructuredBuffer, kRWStructuredBuffer, kBuffer, kRWBuffer,
  kByteAddressBuffer, kRWByteAddressBuffer, kConstantBuffer,
};
const char* ToString(ResourceKind k);
std::optional<ResourceKind> ParseResourceKind(std::string_view name);
/// RW kinds: UAVs, written by the shader (compared after a run).
bool IsWritable(ResourceKind k);
/// D3D register class of a kind: 't' (SRV), 'u' (UAV) or 'b' (CBV).
char RegisterClass(ResourceKind k);

struct ResourceBinding {
  std::string name;  // a BufferDesc name
  ResourceKind kind = ResourceKind::kRWStructuredBuffer;
  uint32_t set = 0;      // descriptor set index (position in DescriptorSets)
  uint32_t binding = 0;  // VulkanBinding.Binding (defaults to DirectXBinding.Register)
  uint32_t dx_register = 0, dx_space = 0;
  bool has_dx_binding = false, has_vulkan_binding = false;
  int source_line = 0;
};

enum class RuleKind { kBufferExact, kBufferFloatULP, kBufferFloatEpsilon, kBufferMultiset };
const char* ToString(RuleKind k);
std::optional<RuleKind> ParseRuleKind(std::string_view name);

struct ResultRule {
  std::string name;  // `Result:`
  RuleKind kind = RuleKind::kBufferExact;
  std::string actual, expected;  // buffer names
  uint32_t ulp_tolerance = 0;    // BufferFloatULP: ULPT
  double epsilon = 0;            // BufferFloatEpsilon: Epsilon
  // BufferMultiset (waveemu extension): compare the first `count` elements as multisets, with
  // the count read from element 0 of `count_buffer` (or all elements when empty).
  std::string count_buffer;
  int source_line = 0;
};

struct Pipeline {
  std::string path;         // the .test / .yaml file
  std::string hlsl_path;    // where the HLSL came from (split-file section or a file beside it)
  std::string hlsl_source;  // the HLSL text
  int hlsl_first_line = 1;  // line of `path` where the HLSL text starts (split-file form)
  std::string entry = "main";
  int shader_line = 0;      // line of the Shaders entry, for messages
  std::array<uint32_t, 3> dispatch = {1, 1, 1};
  std::vector<BufferDesc> buffers;
  std::vector<ResourceBinding> bindings;
  std::vector<ResultRule> results;
  std::optional<int> wave_size;  // waveemu extension `WaveSize:` hint

  const BufferDesc* FindBuffer(const std::string& name) const;
  const ResourceBinding* FindBinding(const std::string& name) const;
  /// The HLSL file's name without its directory ("compacted_append.hlsl"); for split-file
  /// pipelines, the pipeline file's name. Ports are registered under it (emulator_backend.h).
  std::string HlslFileName() const;
};

/// Bad pipeline input. what() is "FILE:LINE: PROBLEM" ("FILE: PROBLEM" when there is no line).
class PipelineError : public std::runtime_error {
 public:
  PipelineError(std::string file, int line, std::string problem);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  int line_;
  std::string problem_;
};

/// Reads a pipeline: a split-file test (`#--- source.hlsl`, `#--- pipeline.yaml`, `#--- end`;
/// `//---` too) or a YAML file whose shader names its HLSL with `Source:` (else FILE.hlsl
/// beside it). Throws PipelineError on any bad input.
Pipeline ReadPipeline(const std::string& path);
/// The same from text; `path` names it in messages and anchors relative paths.
Pipeline ParsePipeline(std::string_view text, const std::string& path);

/// Buffers after a run, by name.
using BufferContents = std::map<std::string, std::vector<std::byte>>;

}  // namespace waveemu::oracle
