// mips_command.h -- `waveemu mips INPUT.png --out DIR`: runs MiniEngine's GenerateMipsCS (the
// emulator port, or the original HLSL on Vulkan, driven by MiniEngine's host loop) on a PNG and
// writes every level and a contact sheet as PNGs; `--compare` runs both and reports per level.
// Exit 0 on success, 1 when --compare finds a level beyond its tolerance, 2 on bad input or an
// unavailable backend.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace waveemu::oracle {

struct MipsArgs {
  std::string input;
  std::string out;
  bool srgb = false;
  std::string format = "rgba8";  // rgba8 (R8G8B8A8_UNORM), rgba16f, rgba32f
  std::string profile = "spec";
  std::string backend = "emulator";
  bool compare = false;       // run both backends, compare level by level
  uint64_t max_ulp = 0;       // --compare tolerance for float formats
  uint64_t max_units = 0;     // --compare tolerance for rgba8 (UNORM units)
  std::string device;         // Vulkan device (name substring), default as `waveemu run`
};

/// Largest PNG side `waveemu mips` accepts (D3D12's 2-D texture limit) and largest texel count.
inline constexpr uint32_t kMipsMaxSide = 16384;
inline constexpr uint64_t kMipsMaxTexels = uint64_t(8192) * 8192;

/// Registers the subcommand on `app`; returns it (test `*cmd` after parsing).
CLI::App* AddMipsCommand(CLI::App& app, MipsArgs& args);
/// Runs it: 0 done, 1 --compare beyond tolerance, 2 bad input or backend not available.
int CmdMips(const MipsArgs& args);

}  // namespace waveemu::oracle
