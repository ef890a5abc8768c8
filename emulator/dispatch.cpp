// dispatch.cpp -- the only file that knows oneTBB. Boost.Context's fibers are made and run here
// and parked by the inline code of groups_in_flight.h.
#include "emulator/dispatch.h"

#include "emulator/groups_in_flight.h"
#include "emulator/streaming_stores.h"

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <utility>
#include <vector>

// AddressSanitizer keeps state per stack and must be told when Boost.Context's fcontext changes
// it (see BeforeSwitch in groups_in_flight.h).
#if defined(__SANITIZE_ADDRESS__)
#define WAVEEMU_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WAVEEMU_ASAN_FIBERS 1
#endif
#endif
#if defined(WAVEEMU_ASAN_FIBERS)
#include <sanitizer/common_interface_defs.h>
#endif

namespace waveemu {

void ParallelForGroups(uint64_t count, bool deterministic, int max_threads,
                       const std::function<void(uint64_t, uint64_t)>& body, uint64_t grain) {
  if (count == 0) return;
  // Each chunk's streaming stores are fenced before the chunk ends.
  if (deterministic || max_threads == 1 || count == 1) {
    const detail::StreamingStoreFence fence;
    body(0, count);
    return;
  }
  auto run = [&] {
    // Groups are cheap and uniform; chunks of at least grain / 2 groups (16 by default) keep the
    // per-task cost (one GroupState, or the fibers of groups in flight) small.
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, count, std::max<uint64_t>(grain, 1)),
                      [&](const tbb::blocked_range<uint64_t>& r) {
                        const detail::StreamingStoreFence fence;
                        body(r.begin(), r.end());
                      });
  };
  if (max_threads > 0) {
    tbb::task_arena arena(max_threads);
    arena.execute(run);
  } else {
    run();
  }
}

int WorkerThreads(int max_threads) {
  const int cores = std::min(
      tbb::this_task_arena::max_concurrency(),
      int(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
  return max_threads > 0 ? std::min(max_threads, cores) : cores;
}

namespace detail {
namespace ctx = boost::context;

// External linkage from the declaration in groups_in_flight.h.
#if defined(WAVEEMU_ASAN_FIBERS)
const bool kFiberSwitchHooks = true;
void FiberSwitchStart(void** save, const StackBounds& to) {
  __sanitizer_start_switch_fiber(save, to.bottom, to.size);
}
void FiberSwitchFinish(void* save, StackBounds* from) {
  __sanitizer_finish_switch_fiber(save, from ? &from->bottom : nullptr,
                                  from ? &from->size : nullptr);
}
#else
const bool kFiberSwitchHooks = false;
void FiberSwitchStart(void**, const StackBounds&) {}
void FiberSwitchFinish(void*, StackBounds*) {}
#endif

namespace {

// A kernel's locals live on its fiber's stack, as they would on the thread's: 8 MiB, what Linux
// gives a main thread (oneTBB gives its workers 4 MiB), with a guard page below, so an overflow
// faults at once.
constexpr size_t kFiberStackBytes = size_t{8} << 20;

/// Stacks kept for reuse by this OS thread: mapping and unmapping one costs microseconds, more
/// than the groups a fiber may run. Pages a kernel touched stay committed until the thread ends.
class StackCache {
 public:
  ~StackCache() {
    for (ctx::stack_context& s : free_) allocator_.deallocate(s);
  }
  ctx::stack_context Take() {
    if (free_.empty()) return allocator_.allocate();
    ctx::stack_context s = free_.back();
    free_.pop_back();
    return s;
  }
  void Give(ctx::stack_context& s) noexcept { free_.push_back(s); }

 private:
  ctx::protected_fixedsize_stack allocator_{kFiberStackBytes};
  std::vector<ctx::stack_context> free_;
};

StackCache& ThisThreadsStacks() {
  static thread_local StackCache cache;
  return cache;
}

/// Boost.Context's StackAllocator, served from this thread's cache (fibers are created, run and
/// destroyed on the thread that made them); it notes where the stack it hands out lies.
struct CachedStack {
  StackCache* cache;
  StackBounds* bounds;
  ctx::stack_context allocate() {
    ctx::stack_context s = cache->Take();
    *bounds = StackBounds{static_cast<const char*>(s.sp) - s.size, s.size};
    return s;
  }
  void deallocate(ctx::stack_context& s) noexcept { cache->Give(s); }
};

}  // namespace

int GroupsInFlight::Run(int in_flight, const std::function<void(GroupsInFlight&)>& fiber_body) {
  const uint64_t fibers = std::min<uint64_t>(uint64_t(in_flight), end_ - next_);
  slots_.resize(size_t(fibers));
  for (Slot& slot : slots_) {
    slot.fiber = ctx::fiber(std::allocator_arg, CachedStack{&ThisThreadsStacks(), &slot.stack},
                            [this, &slot, &fiber_body](ctx::fiber&& scheduler) {
                              AfterSwitch(nullptr, &scheduler_stack_);
                              slot.scheduler = std::move(scheduler);
                              try {
                                fiber_body(*this);
                              } catch (const ctx::detail::forced_unwind&) {
                                throw;  // Boost unwinding a fiber: not the kernel's error
                              } catch (...) {
                                if (!error_) error_ = std::current_exception();
                              }
                              BeforeSwitch(nullptr, scheduler_stack_);  // this stack ends
                              return std::move(slot.scheduler);
                            });
  }
  for (bool live = true; live;) {
    live = false;
    for (Slot& slot : slots_) {
      if (!slot.fiber) continue;
      running_ = &slot;
      void* save = nullptr;
      BeforeSwitch(&save, slot.stack);
      slot.fiber = std::move(slot.fiber).resume();  // runs until it parks or ends
      AfterSwitch(save, nullptr);
      live = live || bool(slot.fiber);
    }
    Settle();
  }
  if (error_) std::rethrow_exception(error_);
  return int(fibers);
}

void GroupsInFlight::AddBatch(void* p, int bytes) { parking_.push_back(Batch{p, bytes, 0, 0}); }

/// The parked additions, element by element in the order of the first fiber parked at each:
/// one fetch_add of each element's total, whose original each fiber adds its offset to.
void GroupsInFlight::Settle() {
  for (Batch& b : parking_)
    b.base = b.bytes == 4 ? std::atomic_ref<uint32_t>(*static_cast<uint32_t*>(b.p))
                                .fetch_add(uint32_t(b.total))
                          : std::atomic_ref<uint64_t>(*static_cast<uint64_t*>(b.p))
                                .fetch_add(b.total);
  std::swap(parking_, settled_);
  parking_.clear();  // keeps its capacity for the next round
}

}  // namespace detail
}  // namespace waveemu
