// file_text.h -- a whole file's bytes as a string, for tests that read what they or the code
// under test wrote (or a checked-in input).
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace waveemu::test {

/// The bytes of `path`; a file that cannot be read fails the test case there, naming the file,
/// so a missing file never reads as empty text.
inline std::string FileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read ", path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace waveemu::test
