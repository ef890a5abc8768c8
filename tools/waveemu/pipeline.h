// pipeline.h -- one compute pipeline as llvm/offload-test-suite describes it in YAML: the HLSL,
// the dispatch size, the buffers with their initial data, the descriptor bindings, and the
// result rules. Both backends (emulator, Vulkan) run a Pipeline and return its buffers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace waveemu::oracle {

/// offload-test-suite `Format`: how Data is written in the YAML and how results are compared.
enum class DataFormat {
  kBool, kInt16, kUInt16, kInt32, kUInt32, kInt64, kUInt64,
  kFloat16, kFloat32, kFloat64, kHex8, kHex16, kHex32, kHex64,
};

/// Bytes per element of a format (Bool is 4 bytes, as HLSL stores bool).
size_t ElementSize(DataFormat f);

struct BufferDesc {
  std::string name;
  DataFormat format = DataFormat::kUInt32;
  uint32_t stride = 0;          // bytes per structured element; 0 = ElementSize(format)
  std::vector<std::byte> data;  // initial contents (Data, FillSize/FillValue or DataFile)
  int source_line = 0;          // where it is declared, for messages
};

enum class ResourceKind {
  kStructuredBuffer, kRWStructuredBuffer, kBuffer, kRWBuffer,
  kByteAddressBuffer, kRWByteAddressBuffer, kConstantBuffer,
};

struct ResourceBinding {
  std::string name;  // a BufferDesc name
  ResourceKind kind = ResourceKind::kRWStructuredBuffer;
  uint32_t set = 0;      // descriptor set index (position in DescriptorSets)
  uint32_t binding = 0;  // VulkanBinding.Binding (defaults to DirectXBinding.Register)
  uint32_t dx_register = 0, dx_space = 0;
};

enum class RuleKind { kBufferExact, kBufferFloatULP, kBufferFloatEpsilon, kBufferMultiset };

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
  std::string entry = "main";
  std::array<uint32_t, 3> dispatch = {1, 1, 1};
  std::vector<BufferDesc> buffers;
  std::vector<ResourceBinding> bindings;
  std::vector<ResultRule> results;
  std::optional<int> wave_size;  // waveemu extension `WaveSize:` hint

  const BufferDesc* FindBuffer(const std::string& name) const;
};

/// Buffers after a run, by name.
using BufferContents = std::map<std::string, std::vector<std::byte>>;

}  // namespace waveemu::oracle
