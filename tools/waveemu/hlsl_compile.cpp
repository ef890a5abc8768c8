// hlsl_compile.cpp -- runs glslangValidator on HLSL in a private temporary folder, through
// posix_spawn with an argv array (the HLSL path and entry never meet a shell), with a time limit,
// and turns glslang's "ERROR: FILE:LINE: ..." lines into HlslCompileError.
#include "tools/waveemu/hlsl_compile.h"

#include "tools/waveemu/spirv_rewrite.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace waveemu::oracle {
namespace {

namespace fs = std::filesystem;

constexpr const char* kInstallHint =
    "glslangValidator was not found: install Debian's glslang-tools (`apt-get install "
    "glslang-tools`), or put glslangValidator in PATH";

// A folder of our own under the system temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "waveemu-hlsl-XXXXXX").string();
    if (!mkdtemp(templ.data()))
      throw std::runtime_error(fmt::format("cannot create a temporary folder {}: {}", templ,
                                           std::strerror(errno)));
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

struct ProcessResult {
  int exit_code = -1;
  bool timed_out = false;
  std::string output;  // stdout and stderr together
};

ProcessResult RunProcess(const std::string& program, const std::vector<std::string>& args,
                         const fs::path& log_path, int timeout_seconds) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw HlslToolMissing(fmt::format("cannot run {}: {}. {}", program, std::strerror(err),
                                      kInstallHint));

  ProcessResult result;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.output = ReadFile(log_path);
  return result;
}

// SPIR-V ExecutionModel of a glslang -S stage name.
std::optional<uint32_t> ExecutionModelOf(const std::string& stage) {
  if (stage == "vert") return 0;  // Vertex
  if (stage == "frag") return 4;  // Fragment
  if (stage == "comp") return 5;  // GLCompute
  return std::nullopt;
}

const char* StageWord(const std::string& stage) {
  return stage == "frag" ? "pixel" : stage == "vert" ? "vertex" : "compute";
}

// An OpEntryPoint (opcode 15: model, id, nul-terminated name) with this model and name; a
// malformed stream finds none.
bool HasEntryPoint(const std::vector<uint32_t>& words, uint32_t model, const std::string& name) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) return false;
    if (opcode == 15 && count >= 4 && words[i + 1] == model) {
      std::string literal;
      for (size_t b = 0; b < 4 * size_t(count - 3); ++b) {
        const char c = char((words[i + 3 + b / 4] >> (8 * (b % 4))) & 0xff);
        if (c == '\0') break;
        literal += c;
      }
      if (literal == name) return true;
    }
    i += count;
  }
  return false;
}

}  // namespace

std::optional<std::string> FindGlslangValidator(const std::string& validator) {
  if (validator.find('/') != std::string::npos)
    return access(validator.c_str(), X_OK) == 0 ? std::optional(validator) : std::nullopt;
  const char* path_env = std::getenv("PATH");
  std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  std::istringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = (dir.empty() ? fs::path(".") : fs::path(dir)) / validator;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate))
      return candidate.string();
  }
  return std::nullopt;
}

std::vector<uint32_t> CompileHlsl(const std::string& source, const std::string& hlsl_path,
                                  const HlslCompileOptions& options) {
  const std::optional<std::string> tool = FindGlslangValidator(options.validator);
  if (!tool) throw HlslToolMissing(kInstallHint);

  TempDir dir;
  // Keep the HLSL's own file name so glslang's messages read naturally; only the folder is ours.
  std::string base = fs::path(hlsl_path).filename().string();
  if (base.empty() || base == "." || base == "..") base = "shader.hlsl";
  const fs::path input = dir.path() / base;
  const fs::path output = dir.path() / "out.spv";
  const fs::path log = dir.path() / "glslang.log";
  {
    std::ofstream out(input, std::ios::binary);
    out << std::string(size_t(std::max(options.first_line - 1, 0)), '\n') << source;
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", input.string()));
  }

  const std::optional<uint32_t> model = ExecutionModelOf(options.stage);
  if (!model)
    throw std::invalid_argument(fmt::format("CompileHlsl: stage '{}' is not one of comp, frag, "
                                            "vert",
                                            options.stage));
  std::vector<std::string> args = {"-D", "-S", options.stage, "-e", options.entry,
                                   "--target-env", options.target_env, "-V"};
  const fs::path hlsl_dir = fs::path(hlsl_path).parent_path();
  if (!hlsl_dir.empty()) args.push_back("-I" + hlsl_dir.string());
  for (const std::string& inc : options.include_dirs) args.push_back("-I" + inc);
  for (const std::string& def : options.defines) args.push_back("-D" + def);
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  args.insert(args.end(), {input.string(), "-o", output.string()});

  ProcessResult run = RunProcess(*tool, args, log, options.timeout_seconds);
  std::string messages = run.output;
  ReplaceAll(messages, input.string(), hlsl_path);
  if (run.timed_out)
    throw HlslCompileError(fmt::format("{}: error: glslangValidator did not finish within {} s",
                                       hlsl_path, options.timeout_seconds),
                           hlsl_path, 0, messages);

  if (run.exit_code != 0 || !fs::exists(output)) {
    // glslang: "ERROR: FILE:LINE: 'token' : message". Report the first such line.
    const std::string prefix = "ERROR: " + hlsl_path + ":";
    std::istringstream lines(messages);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(prefix, 0) != 0) continue;
      size_t end = prefix.size();
      while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
      if (end == prefix.size() || line.compare(end, 2, ": ") != 0) continue;
      const int line_no = std::stoi(line.substr(prefix.size(), end - prefix.size()));
      throw HlslCompileError(fmt::format("{}:{}: error: {}\nglslangValidator output:\n{}",
                                         hlsl_path, line_no, line.substr(end + 2), messages),
                             hlsl_path, line_no, messages);
    }
    throw HlslCompileError(fmt::format("{}: error: glslangValidator failed (exit code {}):\n{}",
                                       hlsl_path, run.exit_code, messages),
                           hlsl_path, 0, messages);
  }

  const std::string bytes = ReadFile(output);
  std::vector<uint32_t> words =
      SpirvWordsFromBytes({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()});
  // For a missing entry function glslang only warns ("Entry point not found") and emits an
  // empty function of that name with numthreads(1,1,1).
  if (messages.find("Entry point not found") != std::string::npos ||
      !HasEntryPoint(words, *model, options.entry))
    throw HlslCompileError(fmt::format("{}: error: entry point '{}' not found (a {} shader "
                                       "function of that name)\nglslangValidator output:\n{}",
                                       hlsl_path, options.entry, StageWord(options.stage),
                                       messages),
                           hlsl_path, 0, messages);
  return words;
}

}  // namespace waveemu::oracle
