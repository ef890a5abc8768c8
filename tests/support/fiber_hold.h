// fiber_hold.h -- makes a test dispatch with groups in flight run groups both ways.
//
// With DispatchOptions::groups_in_flight > 1, the thread that called Dispatch runs its groups one
// by one and the other workers run theirs on fibers. A small dispatch can end on the calling
// thread before the OS has woken another worker (ctest runs two test programs at once on CI's two
// cores), and then no fiber runs. A test kernel that calls HoldCallerUntilAFiberRuns() first
// makes the calling thread wait there until some group has started on a fiber.
#pragma once

#include "emulator/emulator.h"

#include <atomic>
#include <chrono>
#include <thread>

namespace waveemu::test {

struct FiberHold {
  std::atomic<bool> fiber_ran{false};
  bool armed = false;
  std::chrono::steady_clock::time_point deadline;
};

inline FiberHold& TheFiberHold() {
  static FiberHold hold;
  return hold;
}

/// Before a dispatch: hold the calling thread's groups when `armed` (several workers and groups
/// in flight), for at most 10 s in all, so a broken scheduler fails the test instead of hanging it.
inline void ArmFiberHold(bool armed) {
  FiberHold& h = TheFiberHold();
  h.fiber_ran = false;
  h.armed = armed;
  h.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
}

/// First statement of a test kernel's main(): a group on a fiber says so; a group on the calling
/// thread (no fiber) waits until one has.
inline void HoldCallerUntilAFiberRuns() {
  FiberHold& h = TheFiberHold();
  if (!h.armed) return;
  if (GroupBase::Current()->in_flight) {
    h.fiber_ran = true;
    return;
  }
  while (!h.fiber_ran && std::chrono::steady_clock::now() < h.deadline) std::this_thread::yield();
}

}  // namespace waveemu::test
