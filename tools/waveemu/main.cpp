// main.cpp -- the `waveemu` command: run a pipeline on the emulator or on Vulkan, check one
// against the other bit for bit, list Vulkan devices and emulator ports.
// Exit codes: 0 everything held, 1 a result rule or comparison failed, 2 bad input or no device
// (the message names the file, the line where there is one, and the problem).
#include "tools/waveemu/compare.h"
#include "tools/waveemu/emulator_backend.h"
#include "tools/waveemu/mips_command.h"
#include "tools/waveemu/pipeline.h"

#if WAVEEMU_HAVE_VULKAN_BACKEND
#include "tools/waveemu/hlsl_compile.h"
#include "tools/waveemu/spirv_rewrite.h"
#include "tools/waveemu/vulkan_backend.h"
#endif

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>

namespace fs = std::filesystem;
using namespace waveemu;
using namespace waveemu::oracle;

namespace {

constexpr int kOk = 0, kFailed = 1, kBadInput = 2;

/// An error that ends the command with exit code 2.
struct Fatal {
  std::string message;
};

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c == '\n') out += "\\n";
    else if (c < 0x20) out += fmt::format("\\u{:04x}", c);
    else out += char(c);
  }
  return out + "\"";
}

/// A buffer name as a file name: characters other than [A-Za-z0-9_.-] become '_'.
std::string FileNameFor(const std::string& name) {
  std::string s = name;
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) c = '_';
  return s.empty() ? "_" : s;
}

/// The files of the buffers under --out, in p.buffers order: each name made safe by
/// FileNameFor, with -2, -3, ... added where two names would give one file ('a b' and 'a_b'), so
/// no buffer's file overwrites another's. summary.json maps each buffer to its file.
std::vector<std::string> BufferFileNames(const Pipeline& p) {
  std::map<std::string, int> uses;
  for (const auto& b : p.buffers) ++uses[FileNameFor(b.name)];
  std::set<std::string> taken;
  std::vector<std::string> files;
  for (const auto& b : p.buffers) {
    const std::string base = FileNameFor(b.name);
    std::string file = base;
    for (int k = 2; taken.count(file) || (file != base && uses.count(file)); ++k)
      file = fmt::format("{}-{}", base, k);
    taken.insert(file);
    files.push_back(file + ".bin");
  }
  return files;
}

void PrintOutcome(const CompareOutcome& o, const std::string& prefix = "") {
  fmt::print("{}{} {}: {}\n", prefix, o.ok ? "PASS" : "FAIL", o.title, o.summary);
  for (const auto& l : o.lines) fmt::print("{}    {}\n", prefix, l);
}

/// One backend's run, as written to the summary.
struct RunRecord {
  std::string backend;
  std::string profile;
  int wave_size = 0;
  BufferContents buffers;
  ThreadLayout layout;
  std::vector<std::string> facts;  // "key": value JSON members, already formatted
};

void WriteBuffers(const Pipeline& p, const RunRecord& run, const fs::path& dir,
                  const std::vector<CompareOutcome>& outcomes, bool all_ok) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Fatal{fmt::format("{}: cannot create the output folder: {}", dir.string(), ec.message())};
  std::string json = "{\n";
  json += fmt::format("  \"pipeline\": {},\n  \"hlsl\": {},\n  \"entry\": {},\n", JsonString(p.path),
                      JsonString(p.hlsl_path), JsonString(p.entry));
  json += fmt::format("  \"backend\": {},\n  \"profile\": {},\n  \"wave_size\": {},\n",
                      JsonString(run.backend), JsonString(run.profile), run.wave_size);
  json += fmt::format("  \"dispatch\": [{}, {}, {}],\n", p.dispatch[0], p.dispatch[1], p.dispatch[2]);
  for (const auto& f : run.facts) json += "  " + f + ",\n";
  json += "  \"buffers\": [\n";
  const std::vector<std::string> files = BufferFileNames(p);
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const BufferDesc& b = p.buffers[i];
    const auto it = run.buffers.find(b.name);
    const std::string& file = files[i];
    if (it != run.buffers.end()) {
      std::ofstream out(dir / file, std::ios::binary);
      out.write(reinterpret_cast<const char*>(it->second.data()), std::streamsize(it->second.size()));
      if (!out) throw Fatal{fmt::format("{}: cannot write", (dir / file).string())};
    }
    const ResourceBinding* binding = p.FindBinding(b.name);
    json += fmt::format(
        "    {{\"name\": {}, \"file\": {}, \"format\": {}, \"stride\": {}, \"bytes\": {}, "
        "\"kind\": {}, \"binding\": {}}}{}\n",
        JsonString(b.name), JsonString(file), JsonString(ToString(b.format)), b.RecordSize(),
        it == run.buffers.end() ? 0 : it->second.size(),
        binding ? JsonString(ToString(binding->kind)) : "null",
        binding ? std::to_string(binding->binding) : "null", i + 1 < p.buffers.size() ? "," : "");
  }
  json += "  ],\n  \"results\": [\n";
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const auto& o = outcomes[i];
    std::string lines;
    for (const auto& l : o.lines) lines += (lines.empty() ? "" : ", ") + JsonString(l);
    json += fmt::format("    {{\"title\": {}, \"ok\": {}, \"summary\": {}, \"details\": [{}]}}{}\n",
                        JsonString(o.title), o.ok, JsonString(o.summary), lines,
                        i + 1 < outcomes.size() ? "," : "");
  }
  json += fmt::format("  ],\n  \"ok\": {}\n}}\n", all_ok);
  std::ofstream out(dir / "summary.json");
  out << json;
  if (!out) throw Fatal{fmt::format("{}: cannot write", (dir / "summary.json").string())};
}

DeviceProfile Profile(const std::string& name) {
  try {
    return ProfileByName(name);
  } catch (const std::exception& e) {
    throw Fatal{fmt::format("--profile {}: {}", name, e.what())};
  }
}

/// Prints each note on stderr and returns them as the summary's "notes" member.
std::string NotesFact(const std::vector<std::string>& notes) {
  std::string list;
  for (const auto& n : notes) {
    fmt::print(stderr, "note: {}\n", n);
    list += (list.empty() ? "" : ", ") + JsonString(n);
  }
  return fmt::format("\"notes\": [{}]", list);
}

/// The error of a failed run, after its notes: one made before the failure can explain it (a
/// Stride wider than the port's element, a binding shift that could not be inferred).
Fatal FatalAfterNotes(const std::vector<std::string>& notes, std::string message) {
  NotesFact(notes);
  return Fatal{std::move(message)};
}

RunRecord RunEmulator(const Pipeline& p, const DeviceProfile& profile, int wave_size,
                      bool deterministic) {
  EmulatorRunOptions o;
  o.profile = profile;
  o.wave_size = wave_size;
  o.deterministic = deterministic;
  std::vector<std::string> notes;
  o.notes = &notes;
  const auto fail = [&](std::string message) { return FatalAfterNotes(notes, std::move(message)); };
  EmulatorRun r;
  try {
    r = RunOnEmulator(p, o);
  } catch (const PortError& e) {
    throw fail(e.what());
  } catch (const UsageError& e) {
    throw fail(fmt::format("{}: emulator: {}", p.path, e.what()));
  } catch (const KernelError& e) {
    throw fail(fmt::format("{}: emulator: the port broke a rule: {}", p.path, e.what()));
  }
  RunRecord rec;
  rec.backend = "emulator";
  rec.profile = profile.name;
  rec.wave_size = r.dispatch.wave_size;
  rec.buffers = std::move(r.buffers);
  rec.layout = r.layout;
  rec.facts.push_back(fmt::format("\"port\": {}", JsonString(r.port->source)));
  rec.facts.push_back(fmt::format("\"deterministic\": {}", deterministic));
  rec.facts.push_back(fmt::format("\"diagnostic_count\": {}", r.dispatch.diagnostic_count));
  std::string diags;
  for (const auto& d : r.dispatch.diagnostics)
    diags += (diags.empty() ? "" : ", ") + JsonString(d.rule + ": " + d.details);
  rec.facts.push_back(fmt::format("\"diagnostics\": [{}]", diags));
  rec.facts.push_back(fmt::format("\"out_of_bounds\": {{\"reads\": {}, \"writes\": {}, \"atomics\": {}}}",
                                  r.dispatch.out_of_bounds_reads, r.dispatch.out_of_bounds_writes,
                                  r.dispatch.out_of_bounds_atomics));
  rec.facts.push_back(NotesFact(notes));
  if (r.dispatch.diagnostic_count)
    fmt::print(stderr, "note: the emulator reached {} undefined point(s); first: {}: {}\n",
               r.dispatch.diagnostic_count, r.dispatch.diagnostics.at(0).rule,
               r.dispatch.diagnostics.at(0).details);
  const auto& d = r.dispatch;
  if (d.out_of_bounds_reads || d.out_of_bounds_writes || d.out_of_bounds_atomics)
    fmt::print(stderr, "note: out-of-bounds accesses: {} reads, {} writes, {} atomics (D3D "
               "buffer views: a read gives 0, a write or an atomic does nothing)\n",
               d.out_of_bounds_reads, d.out_of_bounds_writes, d.out_of_bounds_atomics);
  return rec;
}

#if WAVEEMU_HAVE_VULKAN_BACKEND
struct VulkanRecord {
  RunRecord run;
  VulkanRunReport report;
};

VulkanRecord RunVulkan(const Pipeline& p, const std::string& device) {
  VulkanRecord v;
  VulkanRunOptions o;
  o.device_name = device;
  o.report = &v.report;
  // #include "x.hlsli" beside the HLSL, wherever the command runs from.
  std::error_code ec;
  const fs::path hlsl_dir = fs::absolute(fs::path(p.hlsl_path), ec).parent_path();
  if (!ec && !hlsl_dir.empty()) o.include_dirs.push_back(hlsl_dir.string());
  const auto fail = [&](std::string message) {
    return FatalAfterNotes(v.report.notes, std::move(message));
  };
  try {
    v.run.buffers = RunOnVulkan(p, o);
  } catch (const HlslToolMissing& e) {
    throw fail(e.what());
  } catch (const HlslCompileError& e) {
    throw fail(e.what());
  } catch (const SpirvError& e) {
    throw fail(fmt::format("{}: SPIR-V: {}", p.path, e.what()));
  } catch (const VulkanBackendError& e) {
    throw fail(fmt::format("{}: vulkan: {}", p.path, e.what()));
  }
  const auto& r = v.report;
  v.run.backend = "vulkan";
  v.run.profile = "";
  v.run.wave_size = int(r.subgroup_size);
  const uint64_t tpg = uint64_t(r.local_size[0]) * r.local_size[1] * r.local_size[2];
  v.run.layout = ThreadLayout{tpg, tpg * p.dispatch[0] * p.dispatch[1] * p.dispatch[2],
                              int(r.subgroup_size)};
  v.run.facts.push_back(fmt::format("\"device\": {}", JsonString(r.device.name)));
  v.run.facts.push_back(fmt::format("\"driver\": {}", JsonString(r.device.driver_info.empty()
                                                                    ? r.device.driver_version_text
                                                                    : r.device.driver_info)));
  v.run.facts.push_back(fmt::format("\"robustness\": {}", JsonString(r.robustness)));
  v.run.facts.push_back(fmt::format("\"prefix_scans_rewritten\": {}", r.prefix_scans_rewritten));
  v.run.facts.push_back(
      fmt::format("\"storage_images_rewritten\": {}", r.storage_images_rewritten));
  v.run.facts.push_back(fmt::format("\"local_size\": [{}, {}, {}]", r.local_size[0],
                                    r.local_size[1], r.local_size[2]));
  v.run.facts.push_back(fmt::format("\"dispatch_ms\": {}", r.dispatch_ms));
  v.run.facts.push_back(NotesFact(r.notes));
  return v;
}
#endif

[[noreturn, maybe_unused]] void NoVulkanBackend() {
  throw Fatal{"this waveemu was built without the Vulkan backend (tools/waveemu/vulkan_backend.cpp "
              "or libvulkan-dev was missing at configure time)"};
}

std::vector<CompareOutcome> CheckResults(const Pipeline& p, const RunRecord& run) {
  std::vector<CompareOutcome> out;
  for (const auto& rule : p.results) {
    if (rule.kind == RuleKind::kBufferMultiset && rule.expected.empty()) continue;
    out.push_back(CheckRule(p, rule, run.buffers, run.layout));
  }
  return out;
}

bool AllOk(const std::vector<CompareOutcome>& v) {
  return std::all_of(v.begin(), v.end(), [](const CompareOutcome& o) { return o.ok; });
}

Pipeline Read(const std::string& path) {
  try {
    return ReadPipeline(path);
  } catch (const PipelineError& e) {
    throw Fatal{e.what()};
  }
}

// ------------------------------------------------------------------------------------------------
// Subcommands

struct RunArgs {
  std::string pipeline, backend = "emulator", profile, out, device;
  int wave_size = 0;
  bool deterministic = false;
};

int CmdRun(const RunArgs& a) {
  const Pipeline p = Read(a.pipeline);
  RunRecord run;
  if (a.backend == "emulator") {
    run = RunEmulator(p, Profile(a.profile.empty() ? "spec" : a.profile), a.wave_size,
                      a.deterministic);
  } else {
#if WAVEEMU_HAVE_VULKAN_BACKEND
    if (!a.profile.empty() || a.wave_size || a.deterministic)
      fmt::print(stderr, "note: --profile, --wave-size and --deterministic apply to the emulator "
                         "only; the device decides on Vulkan\n");
    run = RunVulkan(p, a.device).run;
#else
    NoVulkanBackend();
#endif
  }
  const auto outcomes = CheckResults(p, run);
  const bool ok = AllOk(outcomes);
  fmt::print("{} on {} (profile {}, wave {}): {} buffer(s), {} result rule(s)\n", p.path,
             run.backend, run.profile.empty() ? "-" : run.profile, run.wave_size,
             run.buffers.size(), outcomes.size());
  for (const auto& o : outcomes) PrintOutcome(o);
  if (!a.out.empty()) {
    WriteBuffers(p, run, a.out, outcomes, ok);
    fmt::print("buffers and summary.json written to {}\n", a.out);
  }
  return ok ? kOk : kFailed;
}

struct CheckArgs {
  std::string pipeline, profile, out, device;
};

int CmdCheck(const CheckArgs& a) {
  const Pipeline p = Read(a.pipeline);
#if WAVEEMU_HAVE_VULKAN_BACKEND
  // The port must exist before the GPU run is worth doing.
  if (!FindPort(p.HlslFileName(), p.entry)) {
    try {
      RunOnEmulator(p, {});
    } catch (const PortError& e) {
      throw Fatal{e.what()};
    }
  }
  VulkanRecord vk = RunVulkan(p, a.device);
  std::string profile_name = a.profile;
  if (profile_name.empty()) {
    std::string name = vk.report.device.name;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (name.find("llvmpipe") != std::string::npos || name.find("lavapipe") != std::string::npos)
      profile_name = "lavapipe";
    else if (vk.report.device.vendor_id == 0x10de)
      profile_name = "nvidia";
    else
      throw Fatal{fmt::format("no built-in profile for device '{}'; pass --profile NAME ({})",
                              vk.report.device.name, fmt::join(ProfileNames(), ", "))};
  }
  DeviceProfile profile = Profile(profile_name);
  // The emulator runs at the wave size the device used, whatever the profile says.
  RunRecord emu = RunEmulator(p, profile, int(vk.report.subgroup_size), /*deterministic=*/true);
  const auto& port_size = FindPort(p.HlslFileName(), p.entry)->numthreads;
  if (vk.report.local_size != std::array<uint32_t, 3>{port_size.x, port_size.y, port_size.z})
    throw Fatal{fmt::format("{}: the port's numthreads ({}, {}, {}) differs from the shader's "
                            "({}, {}, {})", p.path, port_size.x, port_size.y, port_size.z,
                            vk.report.local_size[0], vk.report.local_size[1],
                            vk.report.local_size[2])};
  vk.run.profile = profile.name;
  fmt::print("{}: emulator (profile {}, wave {}) vs vulkan ({}, {}, wave {})\n", p.path,
             profile.name, emu.wave_size, vk.report.device.name, vk.report.device.driver_info,
             vk.report.subgroup_size);
  const auto runs = CompareRuns(p, emu.buffers, vk.run.buffers, emu.layout, "emulator", "vulkan");
  for (const auto& o : runs) PrintOutcome(o);
  const auto emu_rules = CheckResults(p, emu);
  const auto vk_rules = CheckResults(p, vk.run);
  for (const auto& o : emu_rules) PrintOutcome(o, "emulator: ");
  for (const auto& o : vk_rules) PrintOutcome(o, "vulkan:   ");
  const bool ok = AllOk(runs) && AllOk(emu_rules) && AllOk(vk_rules);
  if (!a.out.empty()) {
    WriteBuffers(p, emu, fs::path(a.out) / "emulator", emu_rules, AllOk(emu_rules));
    WriteBuffers(p, vk.run, fs::path(a.out) / "vulkan", vk_rules, AllOk(vk_rules));
    fmt::print("buffers written to {}/emulator and {}/vulkan\n", a.out, a.out);
  }
  fmt::print("{}\n", ok ? "check passed: bit-exact" : "check FAILED");
  return ok ? kOk : kFailed;
#else
  (void)p;
  (void)a;
  NoVulkanBackend();
#endif
}

int CmdDevices() {
#if WAVEEMU_HAVE_VULKAN_BACKEND
  std::vector<VulkanDeviceInfo> devices;
  try {
    devices = ListVulkanDevices();
  } catch (const VulkanBackendError& e) {
    throw Fatal{fmt::format("vulkan: {}", e.what())};
  }
  if (devices.empty()) throw Fatal{"no Vulkan device found (is mesa-vulkan-drivers installed? "
                                   "VK_DRIVER_FILES may point at an ICD)"};
  for (const auto& d : devices) fmt::print("{}\n", Describe(d));
  return kOk;
#else
  NoVulkanBackend();
#endif
}

int CmdPorts() {
  try {
    for (const auto& p : Ports())
      fmt::print("{:<32} {:<16} numthreads({}, {}, {})  {}\n", p.hlsl_file, p.entry, p.numthreads.x,
                 p.numthreads.y, p.numthreads.z, p.source);
  } catch (const PortError& e) {
    throw Fatal{e.what()};
  }
  return kOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"waveemu: run llvm/offload-test-suite compute pipelines on the wave emulator and on "
               "Vulkan, and check them bit for bit"};
  app.require_subcommand(1);

  RunArgs run;
  CLI::App* run_cmd = app.add_subcommand("run", "run one pipeline on one backend, check its Results");
  run_cmd->add_option("pipeline", run.pipeline, "pipeline (.test split file or .yaml)")->required();
  run_cmd->add_option("--backend", run.backend, "emulator or vulkan")
      ->check(CLI::IsMember({"emulator", "vulkan"}));
  run_cmd->add_option("--profile", run.profile, "emulator device profile (spec, lavapipe, nvidia)");
  run_cmd->add_option("--wave-size", run.wave_size, "emulator wave size (4, 8, 16, 32, 64, 128)")
      ->check(CLI::IsMember({4, 8, 16, 32, 64, 128}));
  run_cmd->add_flag("--deterministic", run.deterministic, "emulator: groups in order on one thread");
  run_cmd->add_option("--out", run.out, "folder for every buffer (NAME.bin) and summary.json");
  run_cmd->add_option("--device", run.device, "vulkan: first device whose name contains this");

  CheckArgs check;
  CLI::App* check_cmd = app.add_subcommand(
      "check", "run on the emulator and on Vulkan; compare every RW buffer bit for bit");
  check_cmd->add_option("pipeline", check.pipeline, "pipeline (.test split file or .yaml)")->required();
  check_cmd->add_option("--profile", check.profile,
                        "emulator profile (default: lavapipe on llvmpipe, nvidia on NVIDIA)");
  check_cmd->add_option("--out", check.out, "folder for both runs' buffers");
  check_cmd->add_option("--device", check.device, "first device whose name contains this");

  CLI::App* devices_cmd = app.add_subcommand("devices", "list Vulkan devices with subgroup support");
  CLI::App* ports_cmd = app.add_subcommand("ports", "list the emulator's registered ports");
  MipsArgs mips;
  CLI::App* mips_cmd = AddMipsCommand(app, mips);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kBadInput;
  }
  try {
    if (*run_cmd) return CmdRun(run);
    if (*check_cmd) return CmdCheck(check);
    if (*devices_cmd) return CmdDevices();
    if (*ports_cmd) return CmdPorts();
    if (*mips_cmd) return CmdMips(mips);
  } catch (const Fatal& f) {
    fmt::print(stderr, "waveemu: error: {}\n", f.message);
    return kBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "waveemu: error: {}\n", e.what());
    return kBadInput;
  }
  return kBadInput;
}
