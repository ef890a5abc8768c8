// pipeline.h -- one compute pipeline as llvm/offload-test-suite describes it in YAML: the HLSL,
// the dispatch size, the buffers with their initial data, the descriptor bindings, and the
// result rules. Both backends (emulator, Vulkan) run a Pipeline and return its buffers.
#pragma once

#include "emulator/format.h"

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

/// A buffer that holds a texture (offload-test-suite `OutputProps`): its Data is every mip level
/// in order, each level's rows top to bottom, tightly packed (Vulkan's and D3D's subresource
/// order, without D3D's row padding).
struct TextureDesc {
  Format format = Format::R32G32B32A32_FLOAT;  // waveemu `TextureFormat`, or from Format+Channels
  uint32_t width = 1, height = 1, mip_levels = 1;

  uint32_t Width(uint32_t mip) const { return width >> mip ? width >> mip : 1; }
  uint32_t Height(uint32_t mip) const { return height >> mip ? height >> mip : 1; }
  size_t TexelBytes() const { return InfoOf(format).bytes_per_texel; }
  size_t LevelBytes(uint32_t mip) const { return size_t(Width(mip)) * Height(mip) * TexelBytes(); }
  size_t LevelOffset(uint32_t mip) const {
    size_t o = 0;
    for (uint32_t m = 0; m < mip; ++m) o += LevelBytes(m);
    return o;
  }
  size_t TotalBytes() const { return LevelOffset(mip_levels); }
};

/// The formats a texture may have, by name ("R8G8B8A8_UNORM"), and back.
std::optional<Format> ParseTextureFormat(std::string_view name);

struct BufferDesc {
  std::string name;
  DataFormat format = DataFormat::kUInt32;
  uint32_t stride = 0;          // bytes per structured element; 0 = ElementSize(format)
  std::vector<std::byte> data;  // initial contents (Data, FillSize/FillValue or DataFile)
  std::string data_file;        // DataFile extension: the resolved path, when used
  int source_line = 0;          // where it is declared, for messages
  uint32_t channels = 1;        // offload-test-suite Channels (textures: components per texel)
  std::optional<TextureDesc> texture;  // set by OutputProps: the buffer is a texture

  /// Bytes per record: the stride, or one element of the format.
  size_t RecordSize() const { return stride ? stride : ElementSize(format); }
};

enum class ResourceKind {
  kStructuredBuffer, kRWStructuredBuffer, kBuffer, kRWBuffer,
  kByteAddressBuffer, kRWByteAddressBuffer, kConstantBuffer,
  kTexture2D, kRWTexture2D, kSampler,
};
const char* ToString(ResourceKind k);
std::optional<ResourceKind> ParseResourceKind(std::string_view name);
/// RW kinds: UAVs, written by the shader (compared after a run).
bool IsWritable(ResourceKind k);
/// Texture2D and RWTexture2D (bound to a buffer with OutputProps).
bool IsTextureKind(ResourceKind k);
/// D3D register class of a kind: 't' (SRV), 'u' (UAV), 'b' (CBV) or 's' (sampler).
char RegisterClass(ResourceKind k);

struct ResourceBinding {
  std::string name;  // a BufferDesc name
  ResourceKind kind = ResourceKind::kRWStructuredBuffer;
  uint32_t set = 0;      // descriptor set index (position in DescriptorSets)
  uint32_t binding = 0;  // VulkanBinding.Binding (defaults to DirectXBinding.Register)
  uint32_t dx_register = 0, dx_space = 0;
  bool has_dx_binding = false, has_vulkan_binding = false;
  int source_line = 0;
  // Texture views (waveemu extensions). Texture2D: levels most_detailed_mip ..
  // most_detailed_mip + mip_count - 1 (0: to the last), read through view_format (default: the
  // texture's format). RWTexture2D: level mip_slice, written through view_format (default: the
  // texture's format, or R8G8B8A8_UNORM for an _SRGB texture: sRGB is not a UAV format).
  uint32_t most_detailed_mip = 0, mip_count = 0, mip_slice = 0;
  std::optional<Format> view_format;
};

/// offload-test-suite `Samplers:` entries (Kind: Sampler resources name one), plus waveemu's
/// MipFilter, AddressU/AddressV and BorderColor.
enum class SamplerFilter { kNearest, kLinear };
enum class SamplerAddress { kClamp, kRepeat, kMirror, kBorder, kMirrorOnce };
enum class SamplerBorder { kTransparentBlack, kOpaqueBlack, kOpaqueWhite };
struct SamplerDesc {
  std::string name;
  SamplerFilter min_filter = SamplerFilter::kLinear, mag_filter = SamplerFilter::kLinear,
                mip_filter = SamplerFilter::kLinear;
  SamplerAddress address_u = SamplerAddress::kClamp, address_v = SamplerAddress::kClamp;
  SamplerBorder border = SamplerBorder::kTransparentBlack;
  float min_lod = 0.0f, max_lod = 3.402823466e+38f;
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
  std::vector<SamplerDesc> samplers;
  std::vector<ResultRule> results;
  std::optional<int> wave_size;  // waveemu extension `WaveSize:` hint

  const BufferDesc* FindBuffer(const std::string& name) const;
  const ResourceBinding* FindBinding(const std::string& name) const;
  const SamplerDesc* FindSampler(const std::string& name) const;
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
