// dispatch.cpp -- the only file that knows oneTBB and Boost.Context.
#include "emulator/dispatch.h"

#include "emulator/resource_atomic.h"

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <exception>
#include <utility>

namespace waveemu {

void ParallelForGroups(uint64_t count, bool deterministic, int max_threads,
                       const std::function<void(uint64_t, uint64_t)>& body) {
  if (count == 0) return;
  if (deterministic || max_threads == 1 || count == 1) {
    body(0, count);
    return;
  }
  auto run = [&] {
    // Groups are cheap and uniform; chunks of 16+ keep the per-task cost (one GroupState) small.
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, count, 16),
                      [&](const tbb::blocked_range<uint64_t>& r) { body(r.begin(), r.end()); });
  };
  if (max_threads > 0) {
    tbb::task_arena arena(max_threads);
    arena.execute(run);
  } else {
    run();
  }
}

int WorkerThreads(int max_threads) {
  const int cores = tbb::this_task_arena::max_concurrency();
  return max_threads > 0 ? std::min(max_threads, cores) : cores;
}

namespace detail {
namespace ctx = boost::context;

namespace {

// A kernel's locals live on its fiber's stack, as they would on a worker thread's: 8 MiB, the
// size Linux gives a main thread, with a guard page below, so an overflow faults at once.
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

/// Boost.Context's StackAllocator, served from this thread's cache (fibers are created, run and
/// destroyed on the thread that made them).
struct CachedStack {
  StackCache* cache;
  ctx::stack_context allocate() { return cache->Take(); }
  void deallocate(ctx::stack_context& s) noexcept { cache->Give(s); }
};

StackCache& ThisThreadsStacks() {
  static thread_local StackCache cache;
  return cache;
}

}  // namespace

/// One worker's groups in flight: up to `in_flight` fibers take the chunk's groups in order;
/// a fiber that reaches a device InterlockedAdd parks; when every fiber has parked or ended,
/// the parked additions to each element go out as one fetch_add, in fiber order, and the
/// fibers resume. Nothing else is deferred, and each group's statements run in program order.
class GroupsInFlight {
 public:
  GroupsInFlight(uint64_t begin, uint64_t end) : next_(begin), end_(end) {}

  bool Next(uint64_t& group) {
    if (next_ == end_) return false;
    group = next_++;
    return true;
  }

  void Run(int in_flight, const std::function<void(GroupsInFlight&)>& fiber_body) {
    const uint64_t fibers = std::min<uint64_t>(uint64_t(in_flight), end_ - next_);
    slots_.resize(size_t(fibers));
    for (Slot& slot : slots_) {
      slot.fiber = ctx::fiber(std::allocator_arg, CachedStack{&ThisThreadsStacks()},
                              [this, &slot, &fiber_body](ctx::fiber&& scheduler) {
                                slot.scheduler = std::move(scheduler);
                                try {
                                  fiber_body(*this);
                                } catch (const ctx::detail::forced_unwind&) {
                                  throw;  // a parked fiber being destroyed: let Boost unwind it
                                } catch (...) {
                                  if (!error_) error_ = std::current_exception();
                                }
                                return std::move(slot.scheduler);
                              });
    }
    for (bool live = true; live;) {
      live = false;
      for (size_t i = 0; i < slots_.size() && !error_; ++i) {
        Slot& slot = slots_[i];
        if (!slot.fiber) continue;
        running_ = &slot;
        slot.fiber = std::move(slot.fiber).resume();  // runs until it parks or ends
        live = live || bool(slot.fiber);
      }
      if (error_) {
        slots_.clear();  // destroying a parked fiber unwinds its stack
        std::rethrow_exception(error_);
      }
      Settle();
    }
  }

  /// Called on the running fiber by DeferredFetchAdd.
  uint64_t Park(void* p, uint64_t value, int bytes) {
    Slot& slot = *running_;
    slot.request = Request{p, value, bytes, 0};
    slot.parked = true;
    slot.scheduler = std::move(slot.scheduler).resume();
    return slot.request.original;
  }

 private:
  struct Request {
    void* p;
    uint64_t value;
    int bytes;
    uint64_t original;
  };
  struct Slot {
    ctx::fiber fiber;      // the group fiber, while the scheduler runs
    ctx::fiber scheduler;  // the scheduler, while the group fiber runs
    Request request{};
    bool parked = false;
  };

  /// The parked additions, element by element in fiber order: one fetch_add of each element's
  /// total, and each fiber's original the value before it plus the lower fibers' values.
  void Settle() {
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (!slots_[i].parked) continue;
      const Request& first = slots_[i].request;
      uint64_t total = 0;
      for (size_t j = i; j < slots_.size(); ++j)
        if (Same(slots_[j], first)) total += slots_[j].request.value;
      uint64_t running = first.bytes == 4
                             ? std::atomic_ref<uint32_t>(*static_cast<uint32_t*>(first.p))
                                   .fetch_add(uint32_t(total))
                             : std::atomic_ref<uint64_t>(*static_cast<uint64_t*>(first.p))
                                   .fetch_add(total);
      const void* p = first.p;
      const int bytes = first.bytes;
      for (size_t j = i; j < slots_.size(); ++j) {
        Slot& s = slots_[j];
        if (!s.parked || s.request.p != p || s.request.bytes != bytes) continue;
        s.request.original = running;
        running += s.request.value;  // the caller truncates to its width
        s.parked = false;
      }
    }
  }
  static bool Same(const Slot& s, const Request& r) {
    return s.parked && s.request.p == r.p && s.request.bytes == r.bytes;
  }

  uint64_t next_, end_;
  std::vector<Slot> slots_;
  Slot* running_ = nullptr;
  std::exception_ptr error_;
};

void RunGroupsInFlight(uint64_t begin, uint64_t end, int in_flight,
                       const std::function<void(GroupsInFlight&)>& fiber_body) {
  GroupsInFlight groups(begin, end);
  groups.Run(in_flight, fiber_body);
}

bool NextGroup(GroupsInFlight& groups, uint64_t& group) { return groups.Next(group); }

uint64_t DeferredFetchAdd(GroupBase& group, void* p, uint64_t value, int bytes) {
  const uint64_t original = group.in_flight->Park(p, value, bytes);
  group.MakeCurrent();  // the fibers that ran meanwhile installed their own groups
  return original;
}

}  // namespace detail
}  // namespace waveemu
