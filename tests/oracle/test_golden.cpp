// test_golden.cpp -- the device-profile probes (tests/pipelines/probe_*.yaml, DESIGN §3) replayed
// on the emulator: with a device's profile, at the wave size the device ran, every buffer must
// equal, bit for bit, what that device wrote (tests/golden/<device>/<probe>/, recorded by
// `waveemu run --backend vulkan --out`; see tests/golden/README.md). The spec profile is not held
// to any device's bits. (A row a profile cannot model yet needs its own probe and a note in
// tests/golden/README.md, not an exception here: every recorded byte must match.)
#if WAVEEMU_ORACLE_TESTS
#include "tests/support/file_text.h"
#include "tools/waveemu/emulator_backend.h"
#include "tools/waveemu/pipeline.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <algorithm>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using waveemu::oracle::BufferContents;

fs::path Root() { return fs::path(WAVEEMU_SOURCE_ROOT); }

using waveemu::test::FileText;

/// The wave size the device ran at, from the run's summary.json ("wave_size": N).
int WaveSizeOf(const fs::path& golden_dir) {
  const std::string json = FileText(golden_dir / "summary.json");
  const auto at = json.find("\"wave_size\":");
  REQUIRE_MESSAGE(at != std::string::npos, (golden_dir / "summary.json").string(), " has no wave_size");
  return std::stoi(json.substr(at + std::strlen("\"wave_size\":")));
}

/// Up to 8 differing 32-bit words as "Out[slot 3, thread 17]: device 0x.., emulator 0x..".
std::string Differences(const std::string& buffer, const std::vector<std::byte>& device,
                        const std::vector<std::byte>& emulator) {
  std::string text;
  int shown = 0;
  for (size_t w = 0; w + 4 <= device.size() && w + 4 <= emulator.size() && shown < 8; w += 4) {
    uint32_t d, e;
    std::memcpy(&d, device.data() + w, 4);
    std::memcpy(&e, emulator.data() + w, 4);
    if (d == e) continue;
    // The probes write Out[slot * 64 + tid].
    text += fmt::format("\n  {}[{}] (slot {}, thread {}): device 0x{:08x}, emulator 0x{:08x}",
                        buffer, w / 4, w / 4 / 64, w / 4 % 64, d, e);
    ++shown;
  }
  return text;
}

constexpr const char* kProbes[] = {
    "probe_order",           "probe_special",           "probe_float_equality",
    "probe_sampler_weights", "probe_sampler_arithmetic", "probe_sampler_formats",
    "probe_sampler_address", "probe_sampler_encode",     "probe_sampler_precision",
    "probe_minmax",          "probe_minmax_literals",    "probe_denormals",
    "probe_denormals_ops",   "probe_nan_math",           "probe_division",
    "probe_geometry",        "probe_remainder",         "probe_transcendentals",
    "probe_special_functions"};

std::vector<std::byte> ReadBytes(const fs::path& path) {
  const std::string bytes = FileText(path);
  return {reinterpret_cast<const std::byte*>(bytes.data()),
          reinterpret_cast<const std::byte*>(bytes.data()) + bytes.size()};
}

struct Golden {
  std::string device;  // profile name: lavapipe, nvidia
  std::string probe;   // pipeline name: probe_order
  fs::path dir;
};

std::vector<Golden> Goldens() {
  std::vector<Golden> all;
  for (const auto& device : fs::directory_iterator(Root() / "tests/golden")) {
    if (!device.is_directory()) continue;
    for (const auto& probe : fs::directory_iterator(device.path()))
      if (fs::exists(probe.path() / "summary.json"))
        all.push_back({device.path().filename().string(), probe.path().filename().string(),
                       probe.path()});
  }
  return all;
}

}  // namespace

TEST_CASE("the lavapipe golden files of every device-profile probe are present") {
  for (const char* probe : kProbes) {
    INFO("probe ", std::string(probe));
    CHECK(fs::exists(Root() / "tests/golden/lavapipe" / probe / "summary.json"));
    const auto p = waveemu::oracle::ReadPipeline(
        (Root() / "tests/pipelines" / (std::string(probe) + ".yaml")).string());
    for (const auto& b : p.buffers)
      CHECK_MESSAGE(fs::exists(Root() / "tests/golden/lavapipe" / probe / (b.name + ".bin")),
                    "buffer " << b.name);
  }
}

TEST_CASE("the emulator with a device's profile reproduces that device's golden probe outputs bit for bit") {
  const auto goldens = Goldens();
  REQUIRE(!goldens.empty());
  for (const auto& g : goldens) {
    const auto pipeline_path = Root() / "tests/pipelines" / (g.probe + ".yaml");
    const auto p = waveemu::oracle::ReadPipeline(pipeline_path.string());
    waveemu::oracle::EmulatorRunOptions options;
    options.profile = waveemu::ProfileByName(g.device);
    // The lavapipe goldens were recorded on hosts with AVX-512 (tests/golden/README.md), and
    // llvmpipe's float-to-uint conversion follows the host (LlvmpipeFloatToInt): take theirs.
    if (g.device == "lavapipe") options.profile.float_to_int = waveemu::FloatToInt::kX86;
    options.wave_size = WaveSizeOf(g.dir);
    options.deterministic = true;
    const auto run = waveemu::oracle::RunOnEmulator(p, options);
    for (const auto& b : p.buffers) {
      const auto file = g.dir / (b.name + ".bin");
      INFO("device ", g.device, ", probe ", g.probe, ", wave ", options.wave_size, ", buffer ",
           b.name, " (", file.string(), ")");
      REQUIRE(fs::exists(file));
      const auto device = ReadBytes(file);
      const auto& emulator = run.buffers.at(b.name);
      REQUIRE(device.size() == emulator.size());
      INFO("first differences:", Differences(b.name, device, emulator));
      CHECK(device == emulator);
    }
  }
}

TEST_CASE("the probes tell profiles apart: the nvidia profile at lavapipe's wave size does not reproduce lavapipe's golden bits") {
  // Each probe must be able to fail: with another device's policies its bits change.
  for (const char* probe : kProbes) {
    const auto dir = Root() / "tests/golden/lavapipe" / probe;
    const auto p = waveemu::oracle::ReadPipeline((Root() / "tests/pipelines" / (std::string(probe) + ".yaml")).string());
    waveemu::oracle::EmulatorRunOptions options;
    options.profile = waveemu::NvidiaProfile();
    options.wave_size = WaveSizeOf(dir);
    options.deterministic = true;
    const auto run = waveemu::oracle::RunOnEmulator(p, options);
    bool any_differs = false;
    for (const auto& b : p.buffers)
      any_differs |= ReadBytes(dir / (b.name + ".bin")) != run.buffers.at(b.name);
    INFO("probe ", std::string(probe));
    CHECK(any_differs);
  }
}
#endif
