// dispatch.cpp -- the only file that knows oneTBB.
#include "emulator/dispatch.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

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

}  // namespace waveemu
