// emulator_backend.cpp -- the port registry and RunOnEmulator (see emulator_backend.h).
#include "tools/waveemu/emulator_backend.h"

#include <charconv>
#include <map>
#include <utility>

namespace waveemu::oracle {

namespace {

/// "u1" or "u1 space2" -> ('u', 1, 2); false when malformed.
bool ParseSlot(std::string_view slot, char& cls, uint32_t& reg, uint32_t& space) {
  if (slot.size() < 2) return false;
  cls = slot[0];
  space = 0;
  const char* end = slot.data() + slot.size();
  auto r = std::from_chars(slot.data() + 1, end, reg);
  if (r.ec != std::errc()) return false;
  std::string_view rest(r.ptr, size_t(end - r.ptr));
  if (rest.empty()) return true;
  if (!rest.starts_with(" space")) return false;
  rest.remove_prefix(6);
  auto s = std::from_chars(rest.data(), rest.data() + rest.size(), space);
  return s.ec == std::errc() && s.ptr == rest.data() + rest.size();
}

}  // namespace

const ResourceBinding& PortContext::Find(std::string_view slot, std::string_view hlsl_name,
                                         ResourceKind kind) {
  char cls = 0;
  uint32_t reg = 0, space = 0;
  if (!ParseSlot(slot, cls, reg, space))
    throw PortError(fmt::format("port bug: '{}' is not a register such as t0, u1 or b0", slot));
  const ResourceBinding* found = nullptr;
  for (const auto& b : p_.bindings)
    if (b.has_dx_binding && RegisterClass(b.kind) == cls && b.dx_register == reg &&
        b.dx_space == space)
      found = &b;
  if (!found)
    for (const auto& b : p_.bindings)
      if (b.name == hlsl_name) found = &b;
  if (!found)
    throw PortError(fmt::format(
        "{}: the port of {} ({}) binds {} '{}' at register {}, but no resource of the pipeline "
        "has DirectXBinding {} (Register {}, Space {}) or is named '{}'", p_.path,
        p_.HlslFileName(), p_.entry, ToString(kind), hlsl_name, slot,
        cls == 't' ? "an SRV" : cls == 'u' ? "a UAV" : cls == 's' ? "a sampler" : "a CBV", reg,
        space, hlsl_name));
  if (found->kind != kind)
    throw PortError(fmt::format("{}:{}: resource '{}' is a {}, but the shader declares {} as a {}",
                                p_.path, found->source_line, found->name, ToString(found->kind),
                                hlsl_name, ToString(kind)));
  return *found;
}

Texture2DResource& PortContext::StageTexture(const ResourceBinding& b) {
  StagedTexture& t = textures_[b.name];
  if (!t.resource) {
    const BufferDesc& desc = *p_.FindBuffer(b.name);  // the reader checked both
    const TextureDesc& td = *desc.texture;
    t.resource = std::make_unique<Texture2DResource>(td.format, td.width, td.height,
                                                     td.mip_levels);
    const auto& bytes = buffers_.at(b.name);
    for (uint32_t m = 0; m < td.mip_levels; ++m) {
      const auto level = t.resource->Level(m);
      std::memcpy(level.data(), bytes.data() + td.LevelOffset(m), level.size());
    }
  }
  t.writable = t.writable || IsWritable(b.kind);
  return *t.resource;
}

SamplerState PortContext::SamplerStateOf(const ResourceBinding& b) const {
  const SamplerDesc& d = *p_.FindSampler(b.name);  // the reader checked it
  SamplerState s;
  s.filter = d.min_filter == SamplerFilter::kNearest ? Filter::MIN_MAG_MIP_POINT
             : d.mip_filter == SamplerFilter::kNearest ? Filter::MIN_MAG_LINEAR_MIP_POINT
                                                       : Filter::MIN_MAG_MIP_LINEAR;
  auto mode = [](SamplerAddress a) {
    switch (a) {
      case SamplerAddress::kRepeat: return TextureAddressMode::WRAP;
      case SamplerAddress::kMirror: return TextureAddressMode::MIRROR;
      case SamplerAddress::kBorder: return TextureAddressMode::BORDER;
      case SamplerAddress::kMirrorOnce: return TextureAddressMode::MIRROR_ONCE;
      case SamplerAddress::kClamp: break;
    }
    return TextureAddressMode::CLAMP;
  };
  s.address_u = mode(d.address_u);
  s.address_v = mode(d.address_v);
  switch (d.border) {
    case SamplerBorder::kTransparentBlack: s.border_color = {0, 0, 0, 0}; break;
    case SamplerBorder::kOpaqueBlack: s.border_color = {0, 0, 0, 1}; break;
    case SamplerBorder::kOpaqueWhite: s.border_color = {1, 1, 1, 1}; break;
  }
  s.min_lod = d.min_lod;
  s.max_lod = d.max_lod;
  return s;
}

const std::vector<Port>& Ports() {
  static const std::vector<Port> ports = [] {
    std::vector<Port> v;
    RegisterExamplePorts(v);
    RegisterTestPipelinePorts(v);
    std::map<std::pair<std::string, std::string>, const Port*> seen;
    for (const auto& p : v) {
      auto [it, fresh] = seen.emplace(std::pair{p.hlsl_file, p.entry}, &p);
      if (!fresh)
        throw PortError(fmt::format("two ports for {} entry {}: {} and {}", p.hlsl_file, p.entry,
                                    it->second->source, p.source));
    }
    return v;
  }();
  return ports;
}

const Port* FindPort(const std::string& hlsl_file, const std::string& entry) {
  for (const auto& p : Ports())
    if (p.hlsl_file == hlsl_file && p.entry == entry) return &p;
  return nullptr;
}

BufferContents InitialBuffers(const Pipeline& p) {
  BufferContents b;
  for (const auto& d : p.buffers) b[d.name] = d.data;
  return b;
}

EmulatorRun RunOnEmulator(const Pipeline& p, const EmulatorRunOptions& options) {
  const std::string file = p.HlslFileName();
  const Port* port = FindPort(file, p.entry);
  if (!port) {
    std::string near;
    for (const auto& q : Ports())
      if (q.hlsl_file == file) near += fmt::format(" '{}'", q.entry);
    throw PortError(fmt::format(
        "{}: no emulator port for {} entry '{}'{}; ports are registered in "
        "tools/waveemu/ports/ (examples) and tests/pipelines/ports/ (test pipelines) with "
        "MakePort<Kernel>(\"{}\", \"{}\", ...)", p.path, file, p.entry,
        near.empty() ? "" : fmt::format(" (that file has ports for entries{})", near), file,
        p.entry));
  }
  EmulatorRun run;
  run.port = port;
  run.buffers = InitialBuffers(p);
  DispatchOptions d;
  d.profile = options.profile;
  d.wave_size = options.wave_size ? options.wave_size : p.wave_size.value_or(0);
  d.deterministic = options.deterministic;
  const uint3 groups{p.dispatch[0], p.dispatch[1], p.dispatch[2]};
  {
    PortContext ctx(p, run.buffers);
    try {
      run.dispatch = port->run(ctx, groups, d);
    } catch (...) {
      if (options.notes) *options.notes = ctx.notes();
      throw;
    }
    ctx.Finish();
    if (options.notes) *options.notes = ctx.notes();
  }
  const uint64_t tpg = uint64_t(port->numthreads.x) * port->numthreads.y * port->numthreads.z;
  run.layout.threads_per_group = tpg;
  run.layout.total_threads = tpg * groups.x * groups.y * groups.z;
  run.layout.wave_size = run.dispatch.wave_size;
  return run;
}

}  // namespace waveemu::oracle
