// mips_command.cpp -- `waveemu mips`: PNG in (libpng's simplified API), GenerateMipsCS on the
// emulator or on Vulkan (or both, compared level by level), every level and a contact sheet out. Grayscale, palette and low-bit-depth PNGs are
// expanded to RGBA8; 16-bit PNGs, zero or oversized images and non-PNG files are refused.
#include "tools/waveemu/mips_command.h"

#include "emulator/profile.h"
#include "emulator/texture.h"
#include "examples/generate_mips/generate_mips_host.h"
#include "tools/waveemu/mips_vulkan.h"

#include <fmt/format.h>
#include <png.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace waveemu::oracle {

namespace {

constexpr int kOk = 0, kCompareFailed = 1, kBadInput = 2;

struct MipsError {
  std::string message;
};

struct Rgba8Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // rows top to bottom, 4 bytes per pixel
};

Rgba8Image ReadPng(const std::string& path) {
  if (!fs::is_regular_file(path)) throw MipsError{fmt::format("{}: no such file", path)};
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw MipsError{fmt::format("{}: cannot open", path)};
  unsigned char head[24] = {};  // signature, then the IHDR chunk's length, type, width, height
  const size_t got = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  if (got < 8 || png_sig_cmp(head, 0, 8) != 0)
    throw MipsError{fmt::format("{}: not a PNG file (bad signature)", path)};
  // libpng refuses a zero width or height as "Invalid IHDR data"; say what is wrong instead.
  auto be32 = [&](int at) {
    return uint32_t(head[at]) << 24 | uint32_t(head[at + 1]) << 16 | uint32_t(head[at + 2]) << 8 |
           uint32_t(head[at + 3]);
  };
  auto check_size = [&](uint32_t w, uint32_t h) {
    if (w == 0 || h == 0)
      throw MipsError{fmt::format("{}: the image has zero size ({}x{})", path, w, h)};
    if (w > kMipsMaxSide || h > kMipsMaxSide || uint64_t(w) * h > kMipsMaxTexels)
      throw MipsError{fmt::format("{}: {}x{} is too large (at most {} per side and {} texels)",
                                  path, w, h, kMipsMaxSide, kMipsMaxTexels)};
  };
  // From the header, before libpng allocates or decodes anything.
  if (got == sizeof head && std::memcmp(head + 12, "IHDR", 4) == 0) check_size(be32(16), be32(20));

  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str()))
    throw MipsError{fmt::format("{}: unreadable PNG: {}", path, image.message)};
  auto fail = [&](std::string why) {
    png_image_free(&image);
    throw MipsError{fmt::format("{}: {}", path, why)};
  };
  try {
    check_size(image.width, image.height);  // what libpng read, should the header check miss
  } catch (...) {
    png_image_free(&image);
    throw;
  }
  if (image.format & PNG_FORMAT_FLAG_LINEAR)
    fail("16-bit PNGs are refused (libpng would treat them as linear light and re-encode them); "
         "convert to 8 bits per channel first");
  if (!(image.format & PNG_FORMAT_FLAG_COLOR) || (image.format & PNG_FORMAT_FLAG_COLORMAP))
    fmt::print(stderr, "waveemu mips: note: {} is {}; expanded to RGBA8\n", path,
               (image.format & PNG_FORMAT_FLAG_COLORMAP) ? "a palette image" : "grayscale");
  image.format = PNG_FORMAT_RGBA;
  Rgba8Image out;
  out.width = image.width;
  out.height = image.height;
  out.rgba.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.rgba.data(), 0, nullptr))
    fail(fmt::format("unreadable PNG: {}", image.message));
  return out;
}

void WritePng(const fs::path& path, const Rgba8Image& im) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = im.width;
  image.height = im.height;
  image.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_file(&image, path.string().c_str(), 0, im.rgba.data(), 0, nullptr))
    throw MipsError{fmt::format("{}: cannot write PNG: {}", path.string(), image.message)};
}

Format ParseFormat(const std::string& name) {
  if (name == "rgba8") return Format::R8G8B8A8_UNORM;
  if (name == "rgba16f") return Format::R16G16B16A16_FLOAT;
  if (name == "rgba32f") return Format::R32G32B32A32_FLOAT;
  throw MipsError{fmt::format("--format {}: use rgba8, rgba16f or rgba32f", name)};
}

/// One level as RGBA8: UNORM bytes as they are, float formats through float -> UNORM8.
Rgba8Image LevelImage(const Texture2DResource& t, uint32_t mip) {
  Rgba8Image im{t.Width(mip), t.Height(mip), {}};
  im.rgba.resize(size_t(im.width) * im.height * 4);
  for (uint32_t y = 0; y < im.height; ++y)
    for (uint32_t x = 0; x < im.width; ++x) {
      auto v = t.ReadFloat(mip, x, y, t.format());
      for (int c = 0; c < 4; ++c)
        im.rgba[(size_t(y) * im.width + x) * 4 + size_t(c)] = FloatToUnorm8(v[size_t(c)]);
    }
  return im;
}

/// All levels side by side, top-aligned, 4 transparent pixels apart.
Rgba8Image ContactSheet(const std::vector<Rgba8Image>& levels) {
  constexpr uint32_t kGap = 4;
  Rgba8Image sheet;
  for (const auto& l : levels) {
    sheet.width += l.width + (sheet.width ? kGap : 0);
    sheet.height = std::max(sheet.height, l.height);
  }
  sheet.rgba.assign(size_t(sheet.width) * sheet.height * 4, 0);
  uint32_t x0 = 0;
  for (const auto& l : levels) {
    for (uint32_t y = 0; y < l.height; ++y)
      std::memcpy(&sheet.rgba[(size_t(y) * sheet.width + x0) * 4], &l.rgba[size_t(y) * l.width * 4],
                  size_t(l.width) * 4);
    x0 += l.width + kGap;
  }
  return sheet;
}

// Writes mip_N.png for every level and contact_sheet.png into `dir`.
void WriteLevels(const Texture2DResource& tex, const fs::path& dir) {
  fs::create_directories(dir);
  std::vector<Rgba8Image> levels;
  for (uint32_t m = 0; m < tex.mip_levels(); ++m) {
    levels.push_back(LevelImage(tex, m));
    WritePng(dir / fmt::format("mip_{}.png", m), levels.back());
  }
  WritePng(dir / "contact_sheet.png", ContactSheet(levels));
}

void PrintPlan(const std::vector<examples::MipDispatch>& plan) {
  for (const auto& d : plan)
    fmt::print("  dispatch: source mip {} -> mips {}..{}, NON_POWER_OF_TWO {}, {}x{} groups\n",
               d.top_mip, d.top_mip + 1, d.top_mip + d.num_mips, d.non_power_of_two, d.groups.x,
               d.groups.y);
}

#if WAVEEMU_HAVE_VULKAN_BACKEND
VulkanMipsResult RunVulkan(Texture2DResource& tex, const MipsArgs& args) {
  VulkanRunOptions options;
  options.device_name = args.device;
  try {
    return GenerateMipsOnVulkan(tex, args.srgb, options);
  } catch (const std::exception& e) {  // no device, no glslang, a failed Vulkan call
    throw MipsError{fmt::format("--backend vulkan: {}", e.what())};
  }
}
#endif

int Run(const MipsArgs& args) {
  const bool want_vulkan = args.backend == "vulkan" || args.compare;
#if !WAVEEMU_HAVE_VULKAN_BACKEND
  if (want_vulkan) {
    fmt::print(stderr, "waveemu mips: this waveemu was built without the Vulkan backend "
                       "(libvulkan-dev was missing); use --backend emulator\n");
    return kBadInput;
  }
#endif
  const Format format = ParseFormat(args.format);
  if (args.srgb && format != Format::R8G8B8A8_UNORM)
    throw MipsError{"--srgb needs --format rgba8 (sRGB is an 8-bit encoding)"};
  // Every argument is checked before the chain is computed, so a typo costs no work.
  const DeviceProfile profile = ProfileByName(args.profile);
  if (std::error_code ec; !fs::create_directories(args.out, ec) && ec)
    throw MipsError{fmt::format("--out {}: cannot create the folder: {}", args.out, ec.message())};
  const Rgba8Image src = ReadPng(args.input);

  Texture2DResource tex(format, src.width, src.height, 0);
  for (uint32_t y = 0; y < src.height; ++y)
    for (uint32_t x = 0; x < src.width; ++x) {
      const uint8_t* p = &src.rgba[(size_t(y) * src.width + x) * 4];
      tex.WriteFloat(0, x, y,
                     {UnormToFloat(p[0]), UnormToFloat(p[1]), UnormToFloat(p[2]), UnormToFloat(p[3])},
                     format);
    }
  fmt::print("{}: {}x{} {}{}, {} levels\n", args.input, src.width, src.height,
             InfoOf(format).name, args.srgb ? " (sRGB)" : "", tex.mip_levels());

  Texture2DResource emulated = tex;
  if (args.backend == "emulator" || args.compare) {
    DispatchOptions options;
    options.profile = profile;
    const auto result = examples::GenerateMips(emulated, args.srgb, options);
    fmt::print("emulator (profile {}):\n", args.profile);
    PrintPlan(result.plan);
    fmt::print("  out-of-bounds stores dropped (threads past a level's edge): {}\n",
               result.out_of_bounds_writes);
  }
  Texture2DResource device = tex;
#if WAVEEMU_HAVE_VULKAN_BACKEND
  if (want_vulkan) {
    const VulkanMipsResult r = RunVulkan(device, args);
    fmt::print("vulkan ({}, {} {}):\n", r.device.name, r.device.driver_name,
               r.device.driver_info);
    PrintPlan(r.plan);
    for (const std::string& n : r.notes) fmt::print("  note: {}\n", n);
  }
#endif

  const bool vulkan_first = args.backend == "vulkan";
  const Texture2DResource& chosen = vulkan_first ? device : emulated;
  WriteLevels(chosen, args.out);
  fmt::print("wrote {} levels (mip_0.png .. mip_{}.png) and contact_sheet.png to {}\n",
             chosen.mip_levels(), chosen.mip_levels() - 1, args.out);
  if (!args.compare) return kOk;

  const std::string other = vulkan_first ? "emulator" : "vulkan";
  WriteLevels(vulkan_first ? emulated : device, fs::path(args.out) / other);
  std::string report = fmt::format(
      "{}: {}x{} {}{}, emulator profile {} vs vulkan; tolerance {} ULP (float formats), {} units "
      "(rgba8)\n", args.input, src.width, src.height, InfoOf(format).name,
      args.srgb ? " (sRGB)" : "", args.profile, args.max_ulp, args.max_units);
  bool within = true;
  for (const LevelDifference& d : CompareMipChains(emulated, device)) {
    const uint64_t limit = std::string(d.unit) == "units" ? args.max_units : args.max_ulp;
    const bool ok = d.max_distance <= limit;
    within = within && ok;
    report += fmt::format("{} {}\n", ok ? "PASS" : "FAIL", Describe(d, "emulator", "vulkan"));
  }
  report += within ? "compare passed\n" : "compare failed: a level is beyond the tolerance\n";
  fmt::print("{}", report);
  std::FILE* f = std::fopen((fs::path(args.out) / "compare.txt").string().c_str(), "w");
  if (f) {
    std::fputs(report.c_str(), f);
    std::fclose(f);
  }
  return within ? kOk : kCompareFailed;
}

}  // namespace

CLI::App* AddMipsCommand(CLI::App& app, MipsArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "mips", "generate a full mip chain of a PNG with MiniEngine's GenerateMipsCS; write every "
              "level and a contact sheet");
  cmd->add_option("input", args.input, "input PNG (8-bit RGB/RGBA; gray and palette are expanded)")
      ->required();
  cmd->add_option("--out", args.out, "folder for mip_N.png and contact_sheet.png")->required();
  cmd->add_flag("--srgb", args.srgb, "treat the texels as sRGB (decode on read, encode on write)");
  cmd->add_option("--format", args.format, "texture format: rgba8 (default), rgba16f, rgba32f");
  cmd->add_option("--profile", args.profile, "emulator device profile (spec, lavapipe, nvidia)");
  cmd->add_option("--backend", args.backend,
                  "emulator (default) or vulkan (the original HLSL through glslang); its levels go "
                  "to --out")
      ->check(CLI::IsMember({"emulator", "vulkan"}));
  cmd->add_flag("--compare", args.compare,
                "run both backends and report each level: bit-exact or the largest difference "
                "(ULPs or UNORM units) and where; the other backend's PNGs go to --out/NAME/, the "
                "report to --out/compare.txt; exit 1 beyond --max-ulp/--max-units");
  // CLI11 would read -1 into the uint64_t as 2^64 - 1, a tolerance that lets everything pass.
  const CLI::Validator not_negative(
      [](std::string& v) {
        const size_t first = v.find_first_not_of(" \t");
        return first == std::string::npos || v[first] != '-'
                   ? std::string()
                   : "a tolerance cannot be negative (got " + v + ")";
      },
      "");
  cmd->add_option("--max-ulp", args.max_ulp, "--compare: ULPs allowed per float value (0)")
      ->check(not_negative);
  cmd->add_option("--max-units", args.max_units, "--compare: UNORM units allowed (rgba8) (0)")
      ->check(not_negative);
  cmd->add_option("--device", args.device, "Vulkan device: a substring of its name");
  return cmd;
}

int CmdMips(const MipsArgs& args) {
  try {
    return Run(args);
  } catch (const MipsError& e) {
    fmt::print(stderr, "waveemu mips: error: {}\n", e.message);
    return kBadInput;
  } catch (const UsageError& e) {  // an unknown --profile
    fmt::print(stderr, "waveemu mips: error: --profile: {}\n", e.what());
    return kBadInput;
  }
}

}  // namespace waveemu::oracle
