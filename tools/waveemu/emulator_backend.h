// emulator_backend.h -- runs a Pipeline on the emulator through a registry of ports: C++ kernels
// keyed by (HLSL file name, entry point) that bind the pipeline's buffers to their resource
// members by register and dispatch with a profile, wave size and deterministic flag.
// Ports are registered in tools/waveemu/ports/ (examples) and tests/pipelines/ports/ (tests).
#pragma once

#include "tools/waveemu/compare.h"
#include "tools/waveemu/pipeline.h"

#include "emulator/emulator.h"

#include <fmt/format.h>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace waveemu::oracle {

/// A pipeline and a port disagree (no port, a register the pipeline does not bind, a kind or
/// size that does not fit). The CLI exits 2 with it.
class PortError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where the bytes of one host struct field sit in a device record: glslang lays structured
/// buffers out std430 (float3 aligned to 16), the host struct packs them (DESIGN §4).
struct FieldCopy {
  size_t host_offset, device_offset, size;
};

template <class R>
inline constexpr bool kIsTexture2D = false;
template <class T>
inline constexpr bool kIsTexture2D<Texture2D<T>> = true;
template <class R>
inline constexpr bool kIsRWTexture2D = false;
template <class T>
inline constexpr bool kIsRWTexture2D<RWTexture2D<T>> = true;

/// Binds a pipeline's buffers to a port's resources. Each Bind copies the buffer into typed host
/// memory (no aliasing of the byte vectors); Finish() copies writable ones back.
class PortContext {
 public:
  explicit PortContext(const Pipeline& p, BufferContents& buffers) : p_(p), buffers_(buffers) {}
  PortContext(const PortContext&) = delete;
  PortContext& operator=(const PortContext&) = delete;

  const Pipeline& pipeline() const { return p_; }

  /// The resource at HLSL register `slot` ("t0", "u1", "b0"; space 0, or "u1 space2"), or, when
  /// no resource has a DirectXBinding there, the one named `hlsl_name`. R is the kernel member's
  /// type: StructuredBuffer<T>, RWStructuredBuffer<T>, Buffer<T>, RWBuffer<T>,
  /// ByteAddressBuffer or RWByteAddressBuffer. `fields` maps a host struct T into records whose
  /// layout differs (default: T's bytes at the start of each record).
  /// Texture2D<T>, RWTexture2D<T> and SamplerState bind the same way (docs/pipelines.md,
  /// "Textures and samplers"): one Texture2DResource per texture buffer, shared by its views.
  template <class R>
  R Bind(std::string_view slot, std::string_view hlsl_name, std::vector<FieldCopy> fields = {}) {
    const ResourceBinding& b = Find(slot, hlsl_name, KindOf<R>());
    if constexpr (std::is_same_v<R, SamplerState>) {
      return SamplerStateOf(b);
    } else if constexpr (kIsTexture2D<R> || kIsRWTexture2D<R>) {
      Texture2DResource& tex = StageTexture(b);
      try {
        if constexpr (kIsTexture2D<R>)
          return R(tex, *b.view_format, b.most_detailed_mip, b.mip_count);
        else
          return R(tex, *b.view_format, b.mip_slice);
      } catch (const UsageError& e) {
        throw PortError(fmt::format("{}:{}: the port binds {} at {} over texture '{}': {}",
                                    p_.path, b.source_line, hlsl_name, slot, b.name, e.what()));
      }
    } else if constexpr (std::is_same_v<R, ByteAddressBuffer> ||
                         std::is_same_v<R, RWByteAddressBuffer>) {
      auto& words = Stage<uint32_t>(b, {}, slot);
      return R(std::span<uint32_t>(words));
    } else {
      using T = typename R::element_type;
      auto& v = Stage<T>(b, std::move(fields), slot);
      if constexpr (IsWritableType<R>()) return R(std::span<T>(v));
      else return R(std::span<const T>(v));
    }
  }

  /// A value of a cbuffer at register `slot` (or named `hlsl_name`), `offset` bytes in.
  template <class T>
  T Constant(std::string_view slot, std::string_view hlsl_name, size_t offset = 0) {
    static_assert(std::is_trivially_copyable_v<T>, "Constant<T>: T must be plain data");
    const ResourceBinding& b = Find(slot, hlsl_name, ResourceKind::kConstantBuffer);
    const auto& bytes = buffers_.at(b.name);
    if (offset + sizeof(T) > bytes.size())
      throw PortError(fmt::format("{}: port reads {} bytes at offset {} of cbuffer {} ('{}'), "
                                  "which holds {} bytes", p_.path, sizeof(T), offset, slot,
                                  b.name, bytes.size()));
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof(T));
    return v;
  }

  /// What binding noticed and let pass, for the user (printed as "note: ..." by waveemu).
  const std::vector<std::string>& notes() const { return notes_; }

  /// Copies writable staged buffers and textures back into the pipeline's buffer contents.
  void Finish() {
    for (auto& s : staged_) s->WriteBack(buffers_);
    for (auto& [name, t] : textures_)
      if (t.writable) {
        auto& bytes = buffers_.at(name);
        size_t offset = 0;
        for (uint32_t m = 0; m < t.resource->mip_levels(); ++m) {
          const auto level = t.resource->Level(m);
          std::memcpy(bytes.data() + offset, level.data(), level.size());
          offset += level.size();
        }
      }
  }

 private:
  struct StagedTexture {
    std::unique_ptr<Texture2DResource> resource;  // stable address: views point at it
    bool writable = false;
  };
  Texture2DResource& StageTexture(const ResourceBinding& b);
  SamplerState SamplerStateOf(const ResourceBinding& b) const;

  struct StagedBase {
    virtual ~StagedBase() = default;
    virtual void WriteBack(BufferContents& buffers) = 0;
  };
  template <class T>
  struct Staged : StagedBase {
    std::string name;
    bool writable = false;
    size_t record = 0;
    std::vector<FieldCopy> fields;
    std::vector<T> data;
    void WriteBack(BufferContents& buffers) override {
      if (!writable) return;
      auto& bytes = buffers.at(name);
      for (size_t i = 0; i < data.size(); ++i)
        for (const auto& f : fields)
          std::memcpy(bytes.data() + i * record + f.device_offset,
                      reinterpret_cast<const std::byte*>(&data[i]) + f.host_offset, f.size);
    }
  };

  template <class R>
  static constexpr bool IsWritableType() {
    return std::is_base_of_v<ReadWriteBuffer<typename R::element_type>, R>;
  }
  template <class R>
  static ResourceKind KindOf() {
    if constexpr (std::is_same_v<R, SamplerState>) return ResourceKind::kSampler;
    else if constexpr (kIsTexture2D<R>) return ResourceKind::kTexture2D;
    else if constexpr (kIsRWTexture2D<R>) return ResourceKind::kRWTexture2D;
    else if constexpr (std::is_same_v<R, ByteAddressBuffer>) return ResourceKind::kByteAddressBuffer;
    else if constexpr (std::is_same_v<R, RWByteAddressBuffer>) return ResourceKind::kRWByteAddressBuffer;
    else if constexpr (std::is_same_v<R, StructuredBuffer<typename R::element_type>>)
      return ResourceKind::kStructuredBuffer;
    else if constexpr (std::is_same_v<R, RWStructuredBuffer<typename R::element_type>>)
      return ResourceKind::kRWStructuredBuffer;
    else if constexpr (std::is_same_v<R, Buffer<typename R::element_type>>)
      return ResourceKind::kBuffer;
    else return ResourceKind::kRWBuffer;
  }

  const ResourceBinding& Find(std::string_view slot, std::string_view hlsl_name, ResourceKind kind);

  template <class T>
  std::vector<T>& Stage(const ResourceBinding& b, std::vector<FieldCopy> fields,
                        std::string_view slot) {
    static_assert(std::is_trivially_copyable_v<T>, "buffer elements must be plain data");
    const BufferDesc& desc = *p_.FindBuffer(b.name);
    const bool raw = b.kind == ResourceKind::kByteAddressBuffer ||
                     b.kind == ResourceKind::kRWByteAddressBuffer;
    const size_t record = raw ? sizeof(T) : desc.RecordSize();
    if (fields.empty()) {
      fields.push_back({0, 0, sizeof(T)});
      // Legal (D3D addresses a structured view by its own stride, a typed view reads its first
      // component), but a Stride the shader does not share is usually a mistake: say so.
      if (record > sizeof(T))
        notes_.push_back(fmt::format(
            "buffer '{}' bound at {} has {}-byte records but the port's element is {} bytes: "
            "each element is the first {} bytes of its record, and the rest is neither read "
            "nor written", desc.name, slot, record, sizeof(T), sizeof(T)));
    }
    for (const auto& f : fields)
      if (f.device_offset + f.size > record || f.host_offset + f.size > sizeof(T))
        throw PortError(fmt::format(
            "{}:{}: buffer '{}' bound at {} has {}-byte records, too small for the port's "
            "{}-byte element (set Stride to the shader's layout; glslang's std430 gives float3 "
            "a 16-byte stride)", p_.path, desc.source_line, desc.name, slot, record, sizeof(T)));
    const auto& bytes = buffers_.at(b.name);
    auto s = std::make_unique<Staged<T>>();
    s->name = b.name;
    s->writable = IsWritable(b.kind);
    s->record = record;
    s->fields = std::move(fields);
    s->data.resize(bytes.size() / record);
    for (size_t i = 0; i < s->data.size(); ++i)
      for (const auto& f : s->fields)
        std::memcpy(reinterpret_cast<std::byte*>(&s->data[i]) + f.host_offset,
                    bytes.data() + i * record + f.device_offset, f.size);
    auto& ref = s->data;
    staged_.push_back(std::move(s));
    return ref;
  }

  const Pipeline& p_;
  BufferContents& buffers_;
  std::vector<std::unique_ptr<StagedBase>> staged_;
  std::map<std::string, StagedTexture> textures_;
  std::vector<std::string> notes_;
};

/// One registered port.
struct Port {
  std::string hlsl_file;  // file name of the HLSL, without folders: "compacted_append.hlsl"
  std::string entry;      // entry point: "main"
  uint3 numthreads{1, 1, 1};
  std::string source;     // where the port's code lives, for listings
  std::function<DispatchResult(PortContext&, uint3 groups, const DispatchOptions&)> run;
};

/// A port of kernel K whose resources `bind(ctx, kernel)` sets.
template <class K, class BindFn>
Port MakePort(std::string hlsl_file, std::string entry, std::string source, BindFn bind) {
  Port p;
  p.hlsl_file = std::move(hlsl_file);
  p.entry = std::move(entry);
  p.numthreads = K::numthreads;
  p.source = std::move(source);
  p.run = [bind](PortContext& ctx, uint3 groups, const DispatchOptions& options) {
    K kernel;
    bind(ctx, kernel);
    return Dispatch(kernel, groups, options);
  };
  return p;
}

/// Registration functions, called once when the registry is first used (no static
/// initialisers, so nothing is lost when linking from a static library).
void RegisterExamplePorts(std::vector<Port>& ports);        // tools/waveemu/ports/
void RegisterTestPipelinePorts(std::vector<Port>& ports);  // tests/pipelines/ports/

/// Every registered port; throws PortError when two share a key.
const std::vector<Port>& Ports();
/// The port for (file name, entry), or nullptr.
const Port* FindPort(const std::string& hlsl_file, const std::string& entry);

struct EmulatorRunOptions {
  DeviceProfile profile = SpecProfile();
  int wave_size = 0;  // 0: the pipeline's WaveSize hint, else the kernel's/profile's
  bool deterministic = false;
  /// If set, receives what binding noticed and let pass (PortContext::notes), also when the run
  /// then throws: a note (a Stride wider than the port's element) can explain the error.
  std::vector<std::string>* notes = nullptr;
};

struct EmulatorRun {
  BufferContents buffers;  // every buffer of the pipeline after the dispatch
  DispatchResult dispatch;
  ThreadLayout layout;
  const Port* port = nullptr;
};

/// Runs the pipeline's port. Throws PortError (no port, bad binding) or UsageError (wave size).
EmulatorRun RunOnEmulator(const Pipeline& p, const EmulatorRunOptions& options);

/// The buffers of a pipeline before any run (its initial data), by name.
BufferContents InitialBuffers(const Pipeline& p);

}  // namespace waveemu::oracle
