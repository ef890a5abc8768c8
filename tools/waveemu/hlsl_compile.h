// hlsl_compile.h -- HLSL shader text (compute by default; fragment and vertex for the pixel
// oracle) to SPIR-V through Debian's glslangValidator (DESIGN §4: `glslangValidator -D -S comp
// -e ENTRY --target-env vulkan1.1 -V`), run as a child process with an argument vector (no
// shell), its messages mapped back to the HLSL file.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace waveemu::oracle {

/// glslangValidator is not installed (or not runnable); the message says how to install it.
class HlslToolMissing : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// glslang rejected the HLSL. what() is "FILE:LINE: error: MESSAGE" for the first error plus
/// glslang's full log; `file` is the HLSL path as given, `line` 0 when glslang named none.
class HlslCompileError : public std::runtime_error {
 public:
  HlslCompileError(const std::string& what, std::string file, int line, std::string log)
      : std::runtime_error(what), file(std::move(file)), line(line), log(std::move(log)) {}
  std::string file;
  int line = 0;
  std::string log;
};

struct HlslCompileOptions {
  std::string entry = "main";
  // glslang's -S: "comp", "frag" or "vert". The entry point must exist with that stage's
  // execution model.
  std::string stage = "comp";
  // vulkan1.1 gives SPIR-V 1.3, where glslang compiles HLSL `discard` to OpKill (terminate);
  // vulkan1.3 gives SPIR-V 1.6, where it emits OpDemoteToHelperInvocation (HLSL's demote).
  std::string target_env = "vulkan1.1";
  std::string validator = "glslangValidator";  // looked up in PATH unless it has a '/'
  std::vector<std::string> include_dirs;       // -I; the HLSL file's own folder is added
  std::vector<std::string> defines;            // -D is taken (HLSL input): these become -DNAME
  std::vector<std::string> extra_args;         // more glslangValidator options (binding shifts)
  int timeout_seconds = 60;                    // kill glslang after this (never hang)
  // The line of the HLSL file where `source` starts (a split-file test's source section): the
  // lines above it are left blank in glslang's input, so its messages give the file's lines.
  int first_line = 1;
};

/// Full path of the glslangValidator that CompileHlsl would run, or nothing.
std::optional<std::string> FindGlslangValidator(const std::string& validator = "glslangValidator");

/// Compiles `source` (HLSL text; `hlsl_path` is where it came from, used in messages and for
/// #include) to SPIR-V words. Throws HlslToolMissing or HlslCompileError.
std::vector<uint32_t> CompileHlsl(const std::string& source, const std::string& hlsl_path,
                                  const HlslCompileOptions& options = {});

}  // namespace waveemu::oracle
