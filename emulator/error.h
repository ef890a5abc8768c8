// error.h -- how waveemu reports misuse and undefined behaviour.
//
// Three kinds of trouble, three channels:
//  - UsageError: the host program set up something impossible (a bad wave size, a buffer
//    too large for 32-bit indices). Thrown before any kernel code runs. An unbound resource is
//    not one: like D3D12's null view it reads 0 and drops writes (counted as out of bounds).
//  - KernelError: the kernel broke a rule whose HLSL outcome is a hang or garbage (a barrier in
//    divergent flow, break_ outside a loop). Thrown; the dispatch stops.
//  - Diagnostic: the kernel reached an undefined-but-survivable point (reading an inactive lane).
//    The profile decides the value; the point is recorded and the dispatch goes on.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace waveemu {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One undefined point reached by a kernel: which rule, where.
struct Diagnostic {
  std::string rule;     // e.g. "WaveReadLaneAt: source lane is inactive"
  std::string details;  // group, wave, lanes involved
};

/// Collects diagnostics of one dispatch; shared by all worker threads, so it locks. Only the
/// first kMaxKept are kept in full; the rest are counted.
class DiagnosticLog {
 public:
  static constexpr size_t kMaxKept = 64;

  void Add(std::string rule, std::string details) {
    std::lock_guard lock(mutex_);
    ++count_;
    if (kept_.size() < kMaxKept) kept_.push_back({std::move(rule), std::move(details)});
  }
  uint64_t count() const {
    std::lock_guard lock(mutex_);
    return count_;
  }
  std::vector<Diagnostic> kept() const {
    std::lock_guard lock(mutex_);
    return kept_;
  }

 private:
  mutable std::mutex mutex_;
  uint64_t count_ = 0;
  std::vector<Diagnostic> kept_;
};

}  // namespace waveemu
