// test_texture_pipelines.cpp -- textures and samplers in pipelines (docs/pipelines.md, "Textures
// and samplers"): what the reader takes, each bad input's exact "file:line: problem", a port
// binding a texture the pipeline does not have, and (on lavapipe) a shader resource the pipeline
// does not bind. Expected sizes are worked by hand next to each case.
#if WAVEEMU_ORACLE_TESTS
#include "tools/waveemu/emulator_backend.h"
#include "tools/waveemu/pipeline.h"
#if WAVEEMU_HAVE_VULKAN_BACKEND
#include "tools/waveemu/hlsl_compile.h"
#include "tools/waveemu/vulkan_backend.h"
#endif

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

using namespace waveemu;
using namespace waveemu::oracle;

namespace {

// HLSL (lines 2-5) and the pipeline's first lines (7-9: Shaders); bodies start at line 10.
constexpr const char* kHead = R"(#--- source.hlsl
Texture2D<float4> Src : register(t0);
SamplerState Smp : register(s0);
RWStructuredBuffer<float4> Out : register(u0);
[numthreads(1, 1, 1)] void main() { Out[0] = Src.SampleLevel(Smp, float2(0.5, 0.5), 0); }
#--- pipeline.yaml
Shaders:
  - Stage: Compute
    Entry: main
)";

/// Where view settings of resource Src go (before its DirectXBinding).
constexpr std::string_view kSrcViewEnd =
    "      DirectXBinding: { Register: 0, Space: 0 }\n    - Name: Smp";

/// `text` with its first `what` replaced by `with`; the test fails if `what` is missing.
std::string Edited(std::string text, std::string_view what, std::string_view with) {
  const size_t at = text.find(what);
  REQUIRE_MESSAGE(at != std::string::npos, "the test's YAML has no \"" << what << "\"");
  return text.replace(at, what.size(), with);
}

/// `text` with `what` inserted before its first `before`.
std::string Inserted(const std::string& text, std::string_view before, std::string_view what) {
  return Edited(text, before, std::string(what) + std::string(before));
}

std::string ErrorOf(const std::string& body) {
  try {
    ParsePipeline(std::string(kHead) + body, "tex.test");
  } catch (const PipelineError& e) {
    return e.what();
  }
  return "no error";
}

// A 4x2 RGBA32F texture with 2 levels: 4*2 + 2*1 = 10 texels of 16 bytes = 160 bytes.
constexpr const char* kTexture = R"(Buffers:
  - Name: Src
    Format: Float32
    Channels: 4
    OutputProps: { Height: 2, Width: 4, Depth: 1, MipLevels: 2 }
    FillSize: 160
  - Name: Out
    Format: Float32
    FillSize: 16
)";
// Lines 10-18 above; the sampler list and sets follow from line 19.
constexpr const char* kRest = R"(Samplers:
  - Name: Smp
    MinFilter: Linear
    MagFilter: Linear
    Address: Border
    BorderColor: OpaqueWhite
DescriptorSets:
  - Resources:
    - Name: Src
      Kind: Texture2D
      DirectXBinding: { Register: 0, Space: 0 }
    - Name: Smp
      Kind: Sampler
      DirectXBinding: { Register: 0, Space: 0 }
      VulkanBinding: { Binding: 48 }
    - Name: Out
      Kind: RWStructuredBuffer
      DirectXBinding: { Register: 0, Space: 0 }
      VulkanBinding: { Binding: 16 }
)";

}  // namespace

TEST_CASE("the reader takes a texture with OutputProps, a sampler and their resources") {
  const Pipeline p = ParsePipeline(std::string(kHead) + kTexture + kRest, "tex.test");
  const BufferDesc* src = p.FindBuffer("Src");
  REQUIRE(src);
  REQUIRE(src->texture);
  CHECK(src->texture->format == Format::R32G32B32A32_FLOAT);  // Float32 x 4
  CHECK(src->texture->width == 4);
  CHECK(src->texture->height == 2);
  CHECK(src->texture->mip_levels == 2);
  CHECK(src->texture->LevelOffset(1) == 128);  // 4 x 2 texels x 16 bytes
  CHECK(src->texture->TotalBytes() == 160);
  REQUIRE(p.samplers.size() == 1);
  CHECK(p.samplers[0].address_u == SamplerAddress::kBorder);
  CHECK(p.samplers[0].address_v == SamplerAddress::kBorder);
  CHECK(p.samplers[0].border == SamplerBorder::kOpaqueWhite);
  const ResourceBinding* b = p.FindBinding("Src");
  REQUIRE(b);
  CHECK(b->kind == ResourceKind::kTexture2D);
  CHECK(b->mip_count == 2);  // every level by default
  CHECK(RegisterClass(ResourceKind::kSampler) == 's');
}

TEST_CASE("a texture whose data is not its whole mip chain is refused with the size it needs") {
  const std::string body = Edited(kTexture, "FillSize: 160", "FillSize: 128");
  CHECK(ErrorOf(body + kRest) ==
        "tex.test:15: buffer 'Src' holds 128 bytes, but a 4x2 R32G32B32A32_FLOAT texture with 2 "
        "mip level(s) needs 160 (each level max(1, w >> m) x max(1, h >> m) texels of 16 bytes, "
        "level 0 first)");
}

TEST_CASE("an unknown TextureFormat and a Format that names no texture format are refused") {
  const std::string unknown =
      Inserted(kTexture, "    OutputProps", "    TextureFormat: R8G8_UNORM\n");
  CHECK(ErrorOf(unknown + kRest) ==
        "tex.test:14: buffer 'Src': unknown TextureFormat 'R8G8_UNORM' (known: R8G8B8A8_UNORM, "
        "R8G8B8A8_UNORM_SRGB, R16G16B16A16_FLOAT, R32G32B32A32_FLOAT, R32_FLOAT, R32_UINT)");
  const std::string mismatch =
      Inserted(kTexture, "    OutputProps", "    TextureFormat: R32_FLOAT\n");
  CHECK(ErrorOf(mismatch + kRest) ==
        "tex.test:14: buffer 'Src': a R32_FLOAT texel is 4 bytes, but Format Float32 x Channels 4 "
        "is 16 bytes");
  const std::string none = Edited(kTexture, "Channels: 4", "Channels: 2");
  CHECK(ErrorOf(none + kRest) ==
        "tex.test:14: buffer 'Src': Format Float32 with Channels 2 names no texture format; add "
        "TextureFormat (one of R8G8B8A8_UNORM, R8G8B8A8_UNORM_SRGB, R16G16B16A16_FLOAT, "
        "R32G32B32A32_FLOAT, R32_FLOAT, R32_UINT)");
}

TEST_CASE("textures and buffers cannot stand in for each other, and views must fit the texture") {
  const std::string as_buffer = Edited(kRest, "Kind: Texture2D", "Kind: StructuredBuffer");
  CHECK(ErrorOf(kTexture + as_buffer) ==
        "tex.test:28: resource 'Src' is a StructuredBuffer, but buffer 'Src' is a texture "
        "(OutputProps); bind it as Texture2D or RWTexture2D");
  const std::string out_as_texture = Edited(kRest, "Kind: RWStructuredBuffer", "Kind: RWTexture2D");
  CHECK(ErrorOf(kTexture + out_as_texture) ==
        "tex.test:35: resource 'Out' is a RWTexture2D, but buffer 'Out' has no OutputProps "
        "(Height, Width, Depth, MipLevels) that make it a texture");
  const std::string slice = Inserted(kRest, kSrcViewEnd, "      MostDetailedMip: 2\n");
  CHECK(ErrorOf(kTexture + slice) ==
        "tex.test:27: resource 'Src' (Texture2D): levels 2..2 are outside the texture's 2 "
        "level(s), 0..1");
  // Values whose sum wraps around uint32 must not slip past the check.
  const std::string wrap =
      Inserted(kRest, kSrcViewEnd, "      MostDetailedMip: 1\n      MipLevels: 4294967295\n");
  CHECK(ErrorOf(kTexture + wrap) ==
        "tex.test:27: resource 'Src' (Texture2D): levels 1..4294967295 are outside the "
        "texture's 2 level(s), 0..1");
  const std::string huge = Inserted(kRest, kSrcViewEnd, "      MostDetailedMip: 4294967295\n");
  CHECK(ErrorOf(kTexture + huge) ==
        "tex.test:27: resource 'Src' (Texture2D): levels 4294967295..4294967295 are outside the "
        "texture's 2 level(s), 0..1");
  const std::string srgb_uav =  // 10 texels x 4 bytes
      Edited(Edited(kTexture, "Format: Float32\n    Channels", "Format: Hex8\n    Channels"),
             "FillSize: 160", "FillSize: 40");
  const std::string rw =
      Edited(kRest, "Kind: Texture2D", "Kind: RWTexture2D\n      ViewFormat: R8G8B8A8_UNORM_SRGB");
  CHECK(ErrorOf(srgb_uav + rw) ==
        "tex.test:29: resource 'Src' (RWTexture2D): R8G8B8A8_UNORM_SRGB is not a typed-UAV "
        "format (D3D12); write through R8G8B8A8_UNORM and encode sRGB in the shader");
}

TEST_CASE("a Sampler resource naming no sampler, and sampler settings waveemu cannot model, are "
          "refused") {
  const std::string missing =
      Edited(kRest, "    - Name: Smp\n      Kind", "    - Name: Smq\n      Kind");
  CHECK(ErrorOf(kTexture + missing) ==
        "tex.test:30: resource 'Smq' is a Sampler, but no Samplers entry has Name: Smq");
  const std::string mixed = Edited(kRest, "MagFilter: Linear", "MagFilter: Nearest");
  CHECK(ErrorOf(kTexture + mixed) ==
        "tex.test:20: sampler 'Smp': MinFilter and MagFilter differ; waveemu models "
        "MIN_MAG_MIP_POINT, MIN_MAG_LINEAR_MIP_POINT and MIN_MAG_MIP_LINEAR only");
  const std::string bias = Inserted(kRest, "    BorderColor", "    MipLODBias: 0.5\n");
  CHECK(ErrorOf(kTexture + bias) ==
        "tex.test:24: sampler 'Smp': MipLODBias other than 0 is not modelled");
}

TEST_CASE("a port that binds a texture the pipeline does not have fails naming the register") {
  // texture_views.hlsl's port binds t1 'Srgb'; this pipeline binds only t0.
  std::string text = std::string(kHead) + kTexture + kRest;
  Pipeline p = ParsePipeline(text, "texture_views.test");
  p.hlsl_path = "texture_views.hlsl";
  EmulatorRunOptions options;
  try {
    RunOnEmulator(p, options);
    FAIL("RunOnEmulator accepted a pipeline without t1");
  } catch (const PortError& e) {
    CHECK(std::string(e.what()) ==
          "texture_views.test: the port of texture_views.hlsl (main) binds Texture2D 'Srgb' at "
          "register t1, but no resource of the pipeline has DirectXBinding an SRV (Register 1, "
          "Space 0) or is named 'Srgb'");
  }
}

#if WAVEEMU_HAVE_VULKAN_BACKEND
TEST_CASE("on Vulkan, a shader's texture that the pipeline does not bind is refused by name") {
  if (!FindGlslangValidator()) {
    if (std::getenv("WAVEEMU_REQUIRE_VULKAN")) FAIL("glslangValidator not found");
    MESSAGE("skipped: glslangValidator not found");
    return;
  }
  const std::string rest = Edited(kRest,
                                  "    - Name: Src\n      Kind: Texture2D\n"
                                  "      DirectXBinding: { Register: 0, Space: 0 }\n",
                                  "");
  const Pipeline p = ParsePipeline(std::string(kHead) + kTexture + rest, "tex.test");
  try {
    RunOnVulkan(p);
    FAIL("RunOnVulkan accepted a shader texture without a binding");
  } catch (const VulkanBackendError& e) {
    if (e.kind == VulkanBackendError::Kind::kNoDevice && !std::getenv("WAVEEMU_REQUIRE_VULKAN")) {
      MESSAGE("skipped: " << e.what());
      return;
    }
    CHECK(e.kind == VulkanBackendError::Kind::kPipeline);
    CHECK(std::string(e.what()).find("the shader's resource 'Src' (sampled image, descriptor set "
                                     "0, binding 0) has no binding in the pipeline") !=
          std::string::npos);
  }
}
#endif
#endif
