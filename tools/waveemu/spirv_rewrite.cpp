// spirv_rewrite.cpp -- walks SPIR-V word streams (SPIR-V 1.x spec §2.3-2.4: a 5-word header,
// then instructions whose first word is word_count << 16 | opcode). Opcode and enum values are
// the spec's numbers, written out here so the tool needs no SPIRV-Headers package.
#include "tools/waveemu/spirv_rewrite.h"

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <set>

namespace waveemu::oracle {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;

// Opcodes.
constexpr uint32_t kOpName = 5;
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kOpTypeInt = 21;
constexpr uint32_t kOpTypeFloat = 22;
constexpr uint32_t kOpTypeVector = 23;
constexpr uint32_t kOpTypeImage = 25;
constexpr uint32_t kOpTypeSampler = 26;
constexpr uint32_t kOpImageRead = 98;
constexpr uint32_t kOpTypeArray = 28;
constexpr uint32_t kOpTypeRuntimeArray = 29;
constexpr uint32_t kOpTypeStruct = 30;
constexpr uint32_t kOpTypePointer = 32;
constexpr uint32_t kOpConstant = 43;
constexpr uint32_t kOpVariable = 59;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kOpExecutionModeId = 331;
constexpr uint32_t kOpGroupNonUniformFirst = 333;  // OpGroupNonUniformElect
constexpr uint32_t kOpGroupNonUniformAllEqual = 336;
constexpr uint32_t kOpGroupNonUniformIAdd = 349;
constexpr uint32_t kOpGroupNonUniformFAdd = 350;
constexpr uint32_t kOpGroupNonUniformIMul = 351;
constexpr uint32_t kOpGroupNonUniformFMul = 352;
constexpr uint32_t kOpGroupNonUniformLast = 366;  // OpGroupNonUniformQuadSwap

// GroupOperation.
constexpr uint32_t kReduce = 0;
constexpr uint32_t kInclusiveScan = 1;
constexpr uint32_t kExclusiveScan = 2;

// Decorations, storage classes, execution model/modes, image dims.
constexpr uint32_t kDecorationBlock = 2;
constexpr uint32_t kDecorationBufferBlock = 3;
constexpr uint32_t kDecorationArrayStride = 6;
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;
constexpr uint32_t kStorageUniformConstant = 0;
constexpr uint32_t kStorageUniform = 2;
constexpr uint32_t kStorageStorageBuffer = 12;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr uint32_t kModeLocalSize = 17;
constexpr uint32_t kModeLocalSizeId = 38;
constexpr uint32_t kDimBuffer = 5;
constexpr uint32_t kCapabilityStorageImageReadWithoutFormat = 55;
constexpr uint32_t kCapabilityStorageImageWriteWithoutFormat = 56;

struct Instruction {
  uint32_t opcode;
  std::span<const uint32_t> words;  // including the first word
  size_t offset;                    // word index in the module, for messages
};

// Checks the header and every word count, then calls f for each instruction.
template <class F>
void ForEachInstruction(std::span<const uint32_t> words, F&& f) {
  if (words.size() < kHeaderWords)
    throw SpirvError(fmt::format("SPIR-V module is {} words long; the header alone is {} words",
                                 words.size(), kHeaderWords));
  if (words[0] != kMagic) {
    if (words[0] == 0x03022307)
      throw SpirvError("SPIR-V module has byte-swapped magic 0x03022307: convert it to host "
                       "byte order first");
    throw SpirvError(fmt::format("not a SPIR-V module: magic number is 0x{:08x}, expected "
                                 "0x{:08x}", words[0], kMagic));
  }
  for (size_t i = kHeaderWords; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    const uint32_t opcode = words[i] & 0xffff;
    if (count == 0)
      throw SpirvError(fmt::format("malformed SPIR-V: instruction at word {} (opcode {}) has word "
                                   "count 0", i, opcode));
    if (i + count > words.size())
      throw SpirvError(fmt::format("malformed SPIR-V: instruction at word {} (opcode {}) has {} "
                                   "words but only {} remain", i, opcode, count, words.size() - i));
    f(Instruction{opcode, words.subspan(i, count), i});
    i += count;
  }
}

bool IsArithmeticScanOp(uint32_t opcode) {
  return opcode == kOpGroupNonUniformIAdd || opcode == kOpGroupNonUniformFAdd ||
         opcode == kOpGroupNonUniformIMul || opcode == kOpGroupNonUniformFMul;
}

void RequireWords(const Instruction& in, size_t n, const char* what) {
  if (in.words.size() < n)
    throw SpirvError(fmt::format("malformed SPIR-V: {} at word {} has {} words, needs at least {}",
                                 what, in.offset, in.words.size(), n));
}

// A literal string operand starting at word `first` (nul-terminated, padded to words).
std::string LiteralString(const Instruction& in, size_t first) {
  std::string s;
  for (size_t w = first; w < in.words.size(); ++w) {
    for (int b = 0; b < 4; ++b) {
      const char c = char((in.words[w] >> (8 * b)) & 0xff);
      if (c == '\0') return s;
      s += c;
    }
  }
  throw SpirvError(fmt::format("malformed SPIR-V: string operand of the instruction at word {} "
                               "is not nul-terminated", in.offset));
}

}  // namespace

// ------------------------------ RewritePrefixScansToExclusive
// HLSL has no inclusive-scan intrinsic: its only scans are WavePrefixSum, WavePrefixProduct,
// WavePrefixCountBits and the WaveMultiPrefix* family, all exclusive. So every InclusiveScan in
// glslang's output for HLSL came from a prefix op that glslang 12 lowered wrongly (glslang issue
// 2929 fixed the same bug for WavePrefixCountBits only), and changing the GroupOperation operand
// to ExclusiveScan restores the HLSL meaning. Do not run this on SPIR-V compiled from GLSL,
// where subgroupInclusiveAdd is legitimate.
size_t RewritePrefixScansToExclusive(std::vector<uint32_t>& words) {
  std::vector<size_t> targets;  // word index of each GroupOperation operand to change
  ForEachInstruction(words, [&](const Instruction& in) {
    if (!IsArithmeticScanOp(in.opcode)) return;
    // result type, result id, execution scope, GroupOperation, value [, cluster size]
    RequireWords(in, 6, "OpGroupNonUniform arithmetic instruction");
    if (in.words[4] == kInclusiveScan) targets.push_back(in.offset + 4);
  });
  for (size_t w : targets) words[w] = kExclusiveScan;
  return targets.size();
}

ScanCounts CountArithmeticGroupOps(std::span<const uint32_t> words) {
  ScanCounts counts;
  ForEachInstruction(words, [&](const Instruction& in) {
    if (!IsArithmeticScanOp(in.opcode)) return;
    RequireWords(in, 6, "OpGroupNonUniform arithmetic instruction");
    switch (in.words[4]) {
      case kReduce: ++counts.reduce; break;
      case kInclusiveScan: ++counts.inclusive; break;
      case kExclusiveScan: ++counts.exclusive; break;
      default: ++counts.other; break;
    }
  });
  return counts;
}

// ------------------------------ RewriteStorageImagesToUnknownFormat
// glslang gives RWTexture2D<float4> the ImageFormat Rgba32f whatever texture it will see; Vulkan
// requires a storage image's declared format to match its view's (or be Unknown with the
// *WithoutFormat capabilities), so an R8G8B8A8_UNORM or R16G16B16A16_FLOAT texture could not be
// bound. Texel buffers (Dim Buffer) are left alone: the buffer path matches their formats itself.
size_t RewriteStorageImagesToUnknownFormat(std::vector<uint32_t>& words) {
  std::vector<size_t> targets;  // word index of each ImageFormat operand to change
  std::set<uint32_t> capabilities;
  size_t after_capabilities = kHeaderWords;
  bool reads = false;  // OpImageRead (RWTexture2D loads): needs ReadWithoutFormat too
  ForEachInstruction(words, [&](const Instruction& in) {
    if (in.opcode == kOpImageRead) reads = true;
    if (in.opcode == kOpCapability) {
      RequireWords(in, 2, "OpCapability");
      capabilities.insert(in.words[1]);
      after_capabilities = in.offset + in.words.size();
    }
    if (in.opcode != kOpTypeImage) return;
    // result id, sampled type, Dim, Depth, Arrayed, MS, Sampled, Image Format
    RequireWords(in, 9, "OpTypeImage");
    if (in.words[3] != kDimBuffer && in.words[7] == 2 && in.words[8] != 0)
      targets.push_back(in.offset + 8);
  });
  if (targets.empty()) return 0;
  for (size_t w : targets) words[w] = 0;
  std::vector<uint32_t> added;
  for (uint32_t c : {kCapabilityStorageImageReadWithoutFormat,
                     kCapabilityStorageImageWriteWithoutFormat})
    if (!capabilities.count(c) && (reads || c == kCapabilityStorageImageWriteWithoutFormat)) {
      added.push_back(2u << 16 | kOpCapability);
      added.push_back(c);
    }
  words.insert(words.begin() + std::ptrdiff_t(after_capabilities), added.begin(), added.end());
  return targets.size();
}

// ------------------------------ ReflectSpirv
const char* ToString(SpirvDescriptorType t) {
  switch (t) {
    case SpirvDescriptorType::kStorageBuffer: return "storage buffer";
    case SpirvDescriptorType::kUniformBuffer: return "uniform buffer";
    case SpirvDescriptorType::kUniformTexelBuffer: return "uniform texel buffer";
    case SpirvDescriptorType::kStorageTexelBuffer: return "storage texel buffer";
    case SpirvDescriptorType::kSampledImage: return "sampled image";
    case SpirvDescriptorType::kStorageImage: return "storage image";
    case SpirvDescriptorType::kSampler: return "sampler";
    case SpirvDescriptorType::kOther: return "other descriptor";
  }
  return "?";
}

SpirvModuleInfo ReflectSpirv(std::span<const uint32_t> words, const std::string& entry) {
  SpirvModuleInfo info;
  struct Type {
    uint32_t opcode = 0;
    std::vector<uint32_t> operands;  // the words after the result id
  };
  std::map<uint32_t, Type> types;
  std::map<uint32_t, std::string> names;
  std::map<uint32_t, std::set<uint32_t>> flags;          // id -> decorations without operands
  std::map<uint32_t, std::map<uint32_t, uint32_t>> deco;  // id -> decoration -> first literal
  std::map<uint32_t, uint32_t> constants;                 // 32-bit OpConstant values
  struct Variable {
    uint32_t id, pointer_type, storage;
  };
  std::vector<Variable> variables;
  uint32_t entry_id = 0;
  bool entry_seen = false;
  struct Mode {
    uint32_t target, mode;
    std::vector<uint32_t> operands;
    bool ids;
  };
  std::vector<Mode> modes;
  std::vector<uint32_t> group_result_types;

  ForEachInstruction(words, [&](const Instruction& in) {
    const auto& w = in.words;
    switch (in.opcode) {
      case kOpCapability:
        RequireWords(in, 2, "OpCapability");
        info.capabilities.push_back(w[1]);
        break;
      case kOpExtension:
        RequireWords(in, 2, "OpExtension");
        info.extensions.push_back(LiteralString(in, 1));
        break;
      case kOpEntryPoint: {
        RequireWords(in, 4, "OpEntryPoint");
        const std::string name = LiteralString(in, 3);
        if (w[1] == kExecutionModelGLCompute && name == entry) {
          entry_id = w[2];
          entry_seen = true;
        }
        break;
      }
      case kOpExecutionMode:
      case kOpExecutionModeId:
        RequireWords(in, 3, "OpExecutionMode");
        modes.push_back({w[1], w[2], {w.begin() + 3, w.end()}, in.opcode == kOpExecutionModeId});
        break;
      case kOpName:
        RequireWords(in, 3, "OpName");
        names[w[1]] = LiteralString(in, 2);
        break;
      case kOpDecorate:
        RequireWords(in, 3, "OpDecorate");
        if (w.size() >= 4) deco[w[1]][w[2]] = w[3];
        else flags[w[1]].insert(w[2]);
        break;
      case kOpTypeInt: case kOpTypeFloat: case kOpTypeVector: case kOpTypeImage: case kOpTypeSampler:
      case kOpTypeArray: case kOpTypeRuntimeArray: case kOpTypeStruct: case kOpTypePointer:
        RequireWords(in, 2, "OpType");
        types[w[1]] = Type{in.opcode, {w.begin() + 2, w.end()}};
        break;
      case kOpConstant:
        RequireWords(in, 4, "OpConstant");
        constants[w[2]] = w[3];
        break;
      case kOpVariable:
        RequireWords(in, 4, "OpVariable");
        variables.push_back({w[2], w[1], w[3]});
        break;
      default:
        if (in.opcode >= kOpGroupNonUniformFirst && in.opcode <= kOpGroupNonUniformLast &&
            in.opcode != kOpGroupNonUniformAllEqual) {
          RequireWords(in, 3, "OpGroupNonUniform instruction");
          group_result_types.push_back(w[1]);
        }
        break;
    }
  });

  info.version = words[1];
  info.has_entry = entry_seen;
  for (const Mode& m : modes) {
    if (m.target != entry_id || m.operands.size() < 3) continue;
    if (!m.ids && m.mode == kModeLocalSize) {
      info.local_size = std::array<uint32_t, 3>{m.operands[0], m.operands[1], m.operands[2]};
    } else if (m.ids && m.mode == kModeLocalSizeId) {
      std::array<uint32_t, 3> size{};
      bool known = true;
      for (int i = 0; i < 3; ++i) {
        auto c = constants.find(m.operands[i]);
        if (c == constants.end()) known = false;
        else size[i] = c->second;
      }
      if (known) info.local_size = size;
    }
  }

  auto type_of = [&](uint32_t id) -> const Type* {
    auto t = types.find(id);
    return t == types.end() ? nullptr : &t->second;
  };
  for (uint32_t id : group_result_types) {
    const Type* t = type_of(id);
    if (t && t->opcode == kOpTypeVector && !t->operands.empty()) t = type_of(t->operands[0]);
    if (!t || t->operands.empty()) continue;
    const uint32_t width = t->operands[0];
    if ((t->opcode == kOpTypeInt && width != 32) || (t->opcode == kOpTypeFloat && width == 16))
      info.group_ops_on_extended_types = true;
  }

  for (const Variable& v : variables) {
    auto d = deco.find(v.id);
    if (d == deco.end() || !d->second.count(kDecorationBinding)) continue;
    if (v.storage != kStorageUniform && v.storage != kStorageUniformConstant &&
        v.storage != kStorageStorageBuffer)
      continue;
    SpirvResource r;
    r.set = d->second.count(kDecorationDescriptorSet) ? d->second[kDecorationDescriptorSet] : 0;
    r.binding = d->second[kDecorationBinding];
    const Type* ptr = type_of(v.pointer_type);
    uint32_t pointee = ptr && ptr->opcode == kOpTypePointer && ptr->operands.size() >= 2
                           ? ptr->operands[1] : 0;
    const Type* t = type_of(pointee);
    // Arrays of descriptors: the element decides the descriptor type.
    while (t && (t->opcode == kOpTypeArray || t->opcode == kOpTypeRuntimeArray) &&
           !t->operands.empty()) {
      pointee = t->operands[0];
      t = type_of(pointee);
    }
    r.name = names.count(v.id) ? names[v.id] : "";
    if (t && t->opcode == kOpTypeStruct) {
      const bool buffer_block = flags[pointee].count(kDecorationBufferBlock) > 0;
      const bool block = flags[pointee].count(kDecorationBlock) > 0;
      if (v.storage == kStorageStorageBuffer || buffer_block)
        r.type = SpirvDescriptorType::kStorageBuffer;
      else if (block)
        r.type = SpirvDescriptorType::kUniformBuffer;
      // A cbuffer's variable is unnamed; its block type carries the HLSL name.
      if (r.name.empty() && names.count(pointee)) r.name = names[pointee];
      if (!t->operands.empty()) {
        const uint32_t last = t->operands.back();
        const Type* lt = type_of(last);
        if (lt && lt->opcode == kOpTypeRuntimeArray && deco.count(last) &&
            deco[last].count(kDecorationArrayStride))
          r.array_stride = deco[last][kDecorationArrayStride];
      }
    } else if (t && t->opcode == kOpTypeImage && t->operands.size() >= 7 &&
               t->operands[1] == kDimBuffer) {
      // sampled type, Dim, Depth, Arrayed, MS, Sampled, Image Format
      r.type = t->operands[5] == 2 ? SpirvDescriptorType::kStorageTexelBuffer
                                   : SpirvDescriptorType::kUniformTexelBuffer;
      r.image_format = t->operands[6];
    } else if (t && t->opcode == kOpTypeImage && t->operands.size() >= 7) {
      r.type = t->operands[5] == 2 ? SpirvDescriptorType::kStorageImage
                                   : SpirvDescriptorType::kSampledImage;
      r.image_format = t->operands[6];
      r.image_dim = t->operands[1];
    } else if (t && t->opcode == kOpTypeSampler) {
      r.type = SpirvDescriptorType::kSampler;
    }
    if (r.name.empty()) r.name = fmt::format("%{}", v.id);
    info.resources.push_back(std::move(r));
  }
  return info;
}

// ------------------------------ names
std::string SpirvCapabilityName(uint32_t c) {
  static const std::map<uint32_t, const char*> kNames = {
      {0, "Matrix"}, {1, "Shader"}, {8, "Float16Buffer"}, {9, "Float16"}, {10, "Float64"},
      {11, "Int64"}, {12, "Int64Atomics"}, {22, "Int16"}, {39, "Int8"}, {46, "SampledBuffer"},
      {47, "ImageBuffer"}, {49, "StorageImageExtendedFormats"}, {50, "ImageQuery"},
      {55, "StorageImageReadWithoutFormat"}, {56, "StorageImageWriteWithoutFormat"},
      {61, "GroupNonUniform"}, {62, "GroupNonUniformVote"}, {63, "GroupNonUniformArithmetic"},
      {64, "GroupNonUniformBallot"}, {65, "GroupNonUniformShuffle"},
      {66, "GroupNonUniformShuffleRelative"}, {67, "GroupNonUniformClustered"},
      {68, "GroupNonUniformQuad"}, {4423, "SubgroupBallotKHR"}, {4431, "SubgroupVoteKHR"},
      {4433, "StorageBuffer16BitAccess"}, {4434, "UniformAndStorageBuffer16BitAccess"},
      {4448, "StorageBuffer8BitAccess"}, {5297, "GroupNonUniformPartitionedNV"},
      {5345, "VulkanMemoryModel"}, {5379, "DemoteToHelperInvocation"},
      {6033, "AtomicFloat32AddEXT"}, {6034, "AtomicFloat64AddEXT"},
  };
  auto it = kNames.find(c);
  return it != kNames.end() ? it->second : fmt::format("Capability{}", c);
}

std::string SpirvImageFormatName(uint32_t f) {
  static const char* const kNames[] = {
      "Unknown", "Rgba32f", "Rgba16f", "R32f", "Rgba8", "Rgba8Snorm", "Rg32f", "Rg16f",
      "R11fG11fB10f", "R16f", "Rgba16", "Rgb10A2", "Rg16", "Rg8", "R16", "R8", "Rgba16Snorm",
      "Rg16Snorm", "Rg8Snorm", "R16Snorm", "R8Snorm", "Rgba32i", "Rgba16i", "Rgba8i", "R32i",
      "Rg32i", "Rg16i", "Rg8i", "R16i", "R8i", "Rgba32ui", "Rgba16ui", "Rgba8ui", "R32ui",
      "Rgb10a2ui", "Rg32ui", "Rg16ui", "Rg8ui", "R16ui", "R8ui", "R64ui", "R64i"};
  if (f < std::size(kNames)) return kNames[f];
  return fmt::format("ImageFormat{}", f);
}

std::vector<uint32_t> SpirvWordsFromBytes(std::span<const std::byte> bytes) {
  if (bytes.size() % 4 != 0)
    throw SpirvError(fmt::format("SPIR-V binary is {} bytes, not a whole number of 32-bit words",
                                 bytes.size()));
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

}  // namespace waveemu::oracle
