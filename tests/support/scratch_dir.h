// scratch_dir.h -- a folder of the test process's own for files it writes, removed when it ends.
//
// A fixed name under /tmp is shared by test programs that run at once (two clones, two build
// trees), and a per-process name left behind piles up: each test run used to leave one folder.
#pragma once

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace waveemu::test {

/// A new folder under the system's temporary folder, made on first use; it and everything in it
/// are removed at normal exit (a crashed test leaves it, for a look at what it wrote).
inline const std::filesystem::path& ScratchDir() {
  struct Dir {
    std::filesystem::path path;
    Dir() {
      std::string name = (std::filesystem::temp_directory_path() / "waveemu-test-XXXXXX").string();
      if (mkdtemp(name.data()) == nullptr)
        throw std::runtime_error("cannot make a scratch folder from " + name);
      path = name;
    }
    ~Dir() {
      std::error_code ignored;  // nothing to do about a folder that cannot be removed
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path;
}

}  // namespace waveemu::test
