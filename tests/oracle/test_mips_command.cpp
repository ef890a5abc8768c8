// test_mips_command.cpp -- `waveemu mips` on bad and unusual input (issue 6): every PNG it cannot
// use is refused with exit 2 and a message naming the problem, before any work; gray and palette
// images are expanded to RGBA8 and run. The PNGs are written here with libpng, or byte by byte
// where libpng refuses to write them (zero size).
#if defined(WAVEEMU_ORACLE_TESTS)

#include "tests/support/file_text.h"
#include "tests/support/scratch_dir.h"
#include "tools/waveemu/mips_command.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <png.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace waveemu::oracle {
namespace {

namespace fs = std::filesystem;

// Runs CmdMips and returns its exit code and what it printed to stderr.
struct Outcome {
  int code;
  std::string err;
};
Outcome RunMips(MipsArgs args) {
  const fs::path log = test::ScratchDir() / "stderr.txt";
  std::fflush(stderr);
  const int saved = dup(fileno(stderr));
  REQUIRE(std::freopen(log.c_str(), "w", stderr) != nullptr);
  const int code = CmdMips(args);
  std::fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  return {code, test::FileText(log)};
}

MipsArgs Args(const fs::path& input, const std::string& out_name) {
  MipsArgs a;
  a.input = input.string();
  a.out = (test::ScratchDir() / out_name).string();
  return a;
}

// A PNG written by libpng's simplified API: `format` is a PNG_FORMAT_*; pixels are zero.
fs::path WritePng(const std::string& name, uint32_t w, uint32_t h, uint32_t format) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = w;
  image.height = h;
  image.format = format;
  if (format & PNG_FORMAT_FLAG_COLORMAP) image.colormap_entries = 1;
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(image), 0);
  std::vector<uint8_t> colormap(
      (format & PNG_FORMAT_FLAG_COLORMAP) ? PNG_IMAGE_COLORMAP_SIZE(image) : 0, 0);
  const fs::path path = test::ScratchDir() / name;
  REQUIRE(png_image_write_to_file(&image, path.c_str(), 0, pixels.data(), 0,
                                  colormap.empty() ? nullptr : colormap.data()));
  return path;
}

// A PNG signature and an IHDR chunk with a valid CRC, and nothing else: enough for the size check.
fs::path WriteHeaderOnly(const std::string& name, uint32_t w, uint32_t h) {
  std::vector<uint8_t> bytes = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13};
  std::vector<uint8_t> chunk = {'I', 'H', 'D', 'R'};
  for (uint32_t v : {w, h})
    for (int s = 24; s >= 0; s -= 8) chunk.push_back(uint8_t(v >> s));
  chunk.insert(chunk.end(), {8, 6, 0, 0, 0});  // 8-bit RGBA, deflate, no filter, no interlace
  const uint32_t crc = uint32_t(crc32(0, chunk.data(), uInt(chunk.size())));
  bytes.insert(bytes.end(), chunk.begin(), chunk.end());
  for (int s = 24; s >= 0; s -= 8) bytes.push_back(uint8_t(crc >> s));
  const fs::path path = test::ScratchDir() / name;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                               std::streamsize(bytes.size()));
  return path;
}

}  // namespace

TEST_CASE("waveemu mips refuses PNGs it cannot use, with exit 2 and a message naming the problem") {
  struct Bad {
    fs::path input;
    std::string expect;
  };
  const Bad cases[] = {
      {WriteHeaderOnly("zero_width.png", 0, 4), "the image has zero size (0x4)"},
      {WriteHeaderOnly("zero_height.png", 4, 0), "the image has zero size (4x0)"},
      {WriteHeaderOnly("too_wide.png", 20000, 1),
       "20000x1 is too large (at most 16384 per side and 67108864 texels)"},
      {WriteHeaderOnly("too_many.png", 9000, 9000),
       "9000x9000 is too large (at most 16384 per side and 67108864 texels)"},
      {WritePng("sixteen_bit.png", 2, 2, PNG_FORMAT_LINEAR_RGB_ALPHA), "16-bit PNGs are refused"},
      {test::ScratchDir() / "missing.png", "no such file"},
  };
  for (const Bad& b : cases) {
    const Outcome o = RunMips(Args(b.input, "out_bad"));
    INFO(b.input.filename().string(), ": ", o.err);
    CHECK(o.code == 2);
    CHECK(o.err.find(b.expect) != std::string::npos);
    CHECK(o.err.find(b.input.string()) != std::string::npos);
  }
}

TEST_CASE("waveemu mips checks --profile and --out before reading the image") {
  const fs::path png = WritePng("ok.png", 4, 4, PNG_FORMAT_RGBA);
  MipsArgs bad_profile = Args(png, "out_profile");
  bad_profile.profile = "amd";
  const Outcome p = RunMips(bad_profile);
  CHECK(p.code == 2);
  CHECK(p.err.find("unknown device profile 'amd'") != std::string::npos);
  CHECK_FALSE(fs::exists(bad_profile.out));

  const fs::path file = test::ScratchDir() / "a_file";
  std::ofstream(file) << "x";
  MipsArgs bad_out = Args(png, "");
  bad_out.out = (file / "sub").string();  // a folder inside a regular file cannot exist
  const Outcome o = RunMips(bad_out);
  CHECK(o.code == 2);
  CHECK(o.err.find("--out " + bad_out.out + ": cannot create the folder") != std::string::npos);
}

TEST_CASE("waveemu mips refuses a negative --max-ulp or --max-units on its command line") {
  // CLI11 alone would read "-1" into the uint64_t tolerance as 2^64 - 1: every level would pass.
  const auto parse = [](std::vector<std::string> flags) -> std::string {
    CLI::App app;
    MipsArgs args;
    AddMipsCommand(app, args);
    std::vector<std::string> argv = {"mips", "in.png", "--out", "o", "--compare"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    std::reverse(argv.begin(), argv.end());  // CLI11 takes a vector in reverse order
    try {
      app.parse(argv);
    } catch (const CLI::ParseError& e) {
      return e.what();
    }
    return fmt::format("ulp {} units {}", args.max_ulp, args.max_units);
  };
  CHECK(parse({"--max-units", "-1"}) == "--max-units: a tolerance cannot be negative (got -1)");
  CHECK(parse({"--max-ulp", "-5"}) == "--max-ulp: a tolerance cannot be negative (got -5)");
  CHECK(parse({"--max-ulp", "3", "--max-units", "2"}) == "ulp 3 units 2");
}

TEST_CASE("waveemu mips expands gray, gray+alpha and palette PNGs to RGBA8 and writes every level") {
  struct Good {
    const char* name;
    uint32_t format;
    const char* note;
  };
  const Good cases[] = {{"gray.png", PNG_FORMAT_GRAY, "grayscale"},
                        {"gray_alpha.png", PNG_FORMAT_GA, "grayscale"},
                        {"palette.png", PNG_FORMAT_RGB_COLORMAP, "a palette image"}};
  for (const Good& g : cases) {
    const fs::path png = WritePng(g.name, 5, 3, g.format);
    const MipsArgs a = Args(png, std::string("out_") + g.name);
    const Outcome o = RunMips(a);
    INFO(g.name, ": ", o.err);
    CHECK(o.code == 0);
    CHECK(o.err.find(fmt::format("is {}; expanded to RGBA8", g.note)) != std::string::npos);
    // 5x3 has levels 5x3, 2x1, 1x1.
    for (int m = 0; m < 3; ++m) CHECK(fs::exists(fs::path(a.out) / fmt::format("mip_{}.png", m)));
    CHECK_FALSE(fs::exists(fs::path(a.out) / "mip_3.png"));
    CHECK(fs::exists(fs::path(a.out) / "contact_sheet.png"));
  }
}

}  // namespace waveemu::oracle

#endif
