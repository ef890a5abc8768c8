// groups_in_flight.h -- one worker's groups in flight (DispatchOptions::groups_in_flight): each
// group on a fiber of its own (Boost.Context), parked at a device InterlockedAdd until the
// worker's other groups have reached one too.
//
// The park is inline so that, with the kernel compiled into the group loop (DispatchInlined), a
// resumed fiber continues in the kernel's own code. Parked in an out-of-line function, it came
// back through two returns whose addresses the processor's return predictor, filled by the
// scheduler and the previous fiber, got wrong: about 19 ns more per park on this project's Xeon
// (docs/perf_runs/2026-11-24-session35/park_cost.cpp). Run and Settle, off the per-group path,
// are in dispatch.cpp. Kernels compile this header's Boost.Context types into their own code, so
// they must see the same Boost.Context configuration as the library (Debian's: fcontext, no
// BOOST_USE_UCONTEXT or BOOST_USE_SEGMENTED_STACKS).
#pragma once

#include "emulator/exec.h"

#include <boost/context/fiber.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <utility>
#include <vector>

namespace waveemu::detail {

/// Where a stack lies, for AddressSanitizer.
struct StackBounds {
  const void* bottom = nullptr;
  size_t size = 0;
};

// For AddressSanitizer, which keeps state per stack and must be told when Boost.Context's
// fcontext changes it: before a switch, where to (save = nullptr when the stack being left ends);
// after it, where from. Whether to tell it is the library's decision (dispatch.cpp, compiled with
// or without ASan), not each kernel's, so a kernel built with other flags stays consistent with
// the library's scheduler; in other builds this is one predictable branch per switch.
extern const bool kFiberSwitchHooks;
void FiberSwitchStart(void** save, const StackBounds& to);
void FiberSwitchFinish(void* save, StackBounds* from);
inline void BeforeSwitch(void** save, const StackBounds& to) {
  if (kFiberSwitchHooks) [[unlikely]] FiberSwitchStart(save, to);
}
inline void AfterSwitch(void* save, StackBounds* from) {
  if (kFiberSwitchHooks) [[unlikely]] FiberSwitchFinish(save, from);
}

/// One worker's groups in flight: up to `in_flight` fibers take the chunk's groups in order;
/// a fiber that reaches a device InterlockedAdd parks; when every fiber has parked or ended,
/// the parked additions to each element go out as one fetch_add, in fiber order, and the
/// fibers resume. Nothing else is deferred, and each group's statements run in program order.
class GroupsInFlight {
 public:
  GroupsInFlight(uint64_t begin, uint64_t end) : next_(begin), end_(end) {}

  /// The next group, in order; none once a group has thrown (the groups already started run
  /// to their end, as other workers' do, and the exception then reaches Dispatch's caller).
  bool Next(uint64_t& group) {
    if (next_ == end_ || error_) return false;
    group = next_++;
    return true;
  }

  /// Runs the groups on up to `in_flight` fibers of this thread, each calling fiber_body, which
  /// takes groups with Next until it returns false; returns how many fibers ran (dispatch.cpp).
  /// After a group throws, no group starts, the started ones run to their end, and then the
  /// exception reaches the caller.
  int Run(int in_flight, const std::function<void(GroupsInFlight&)>& fiber_body);

  /// Called on the running fiber: waits for the batch, returns the value before its addition.
  /// The additions are summed per element as the fibers park (each group's offset in its
  /// element's batch), so Settle has one fetch_add per element to make and no pass over the
  /// slots.
  uint64_t Park(void* p, uint64_t value, int bytes) {
    Slot& slot = *running_;
    size_t i = 0;  // the round's batch for this element: in practice the first, the one counter
    while (i < parking_.size() && !(parking_[i].p == p && parking_[i].bytes == bytes)) ++i;
    if (i == parking_.size()) [[unlikely]] AddBatch(p, bytes);
    slot.batch = i;
    slot.offset = parking_[i].total;
    parking_[i].total += value;
    void* save = nullptr;
    BeforeSwitch(&save, scheduler_stack_);
    slot.scheduler = std::move(slot.scheduler).resume();
    AfterSwitch(save, &scheduler_stack_);
    // settled_ is this fiber's round until the next Settle, which comes only after every fiber
    // of the round has resumed (the caller truncates to its width).
    return settled_[slot.batch].base + slot.offset;
  }

 private:
  struct Slot {
    boost::context::fiber fiber;      // the group fiber, while the scheduler runs
    boost::context::fiber scheduler;  // the scheduler, while the group fiber runs
    StackBounds stack;                // the group fiber's
    size_t batch = 0;                 // where the group parked: its round's batch
    uint64_t offset = 0;              // the batch's additions before this group's
  };
  /// A round's additions to one element, in fiber order; base: the element before them.
  struct Batch {
    void* p;
    int bytes;
    uint64_t total;
    uint64_t base;
  };

  void AddBatch(void* p, int bytes);  // out of line: a round's first park at an element
  void Settle();

  uint64_t next_, end_;
  std::vector<Slot> slots_;
  Slot* running_ = nullptr;
  // This round's batches, in the order of the first fiber parked at each element, and the last
  // round's, settled: its fibers read their bases as they resume while this round's park.
  std::vector<Batch> parking_, settled_;
  StackBounds scheduler_stack_;  // the worker thread's, learnt when a fiber first starts
  std::exception_ptr error_;
};

/// Parks the calling group until the other groups its worker keeps in flight have reached an
/// atomic or ended, then adds `value` (a `bytes`-wide integer) to *p as part of one fetch_add
/// for all of them; returns the value before this group's addition.
inline uint64_t DeferredFetchAdd(GroupBase& group, void* p, uint64_t value, int bytes) {
  const uint64_t original = group.in_flight->Park(p, value, bytes);
  group.MakeCurrent();  // the fibers that ran meanwhile installed their own groups
  return original;
}

}  // namespace waveemu::detail
