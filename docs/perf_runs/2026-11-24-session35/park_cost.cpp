// park_cost.cpp -- what parking a fiber costs, parked out of line (two returns after each resume,
// as dispatch.cpp did until session 35) and inline (as groups_in_flight.h does now).
//
// 64 Boost.Context fibers each run `rounds` steps of `work` dependent multiply-xorshifts and
// park after each; a scheduler resumes them in turn, as GroupsInFlight::Run does. Printed: ns
// per step, against the same steps in a plain loop. Every variant's results are checked
// against the plain loop's.
#include <boost/context/fiber.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace ctx = boost::context;

namespace {

constexpr int kFibers = 64;
constexpr int kRounds = 50000;

uint64_t Step(uint64_t x, int work) {
  for (int i = 0; i < work; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    x ^= x >> 29;
  }
  return x + 1;
}

struct Slot {
  ctx::fiber fiber;      // while the scheduler runs
  ctx::fiber scheduler;  // while the fiber runs
  uint64_t result = 0;
};
Slot* running = nullptr;

// The park as dispatch.cpp had it: Park called from DeferredFetchAdd, both out of line.
[[gnu::noinline]] void ParkOutOfLine() {
  Slot& s = *running;
  s.scheduler = std::move(s.scheduler).resume();
}
[[gnu::noinline]] void DeferredOutOfLine() {
  ParkOutOfLine();
  asm volatile("" ::: "memory");  // keeps the call from becoming a tail call
}
// The park as groups_in_flight.h has it: inline in the fiber's own code.
[[gnu::always_inline]] inline void ParkInline() {
  Slot& s = *running;
  s.scheduler = std::move(s.scheduler).resume();
}

template <bool kInline>
double RunFibers(int work, std::vector<uint64_t>& results) {
  std::vector<Slot> slots(kFibers);
  for (int f = 0; f < kFibers; ++f) {
    Slot* slot = &slots[size_t(f)];
    slot->fiber = ctx::fiber([slot, f, work](ctx::fiber&& scheduler) {
      slot->scheduler = std::move(scheduler);
      uint64_t x = uint64_t(f);
      for (int r = 0; r < kRounds; ++r) {
        x = Step(x, work);
        if constexpr (kInline) ParkInline();
        else DeferredOutOfLine();
      }
      slot->result = x;
      return std::move(slot->scheduler);
    });
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (bool live = true; live;) {
    live = false;
    for (Slot& slot : slots) {
      if (!slot.fiber) continue;
      running = &slot;
      slot.fiber = std::move(slot.fiber).resume();
      live = live || bool(slot.fiber);
    }
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  for (int f = 0; f < kFibers; ++f) results[size_t(f)] = slots[size_t(f)].result;
  return ns / (double(kFibers) * kRounds);
}

double RunPlain(int work, std::vector<uint64_t>& results) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int f = 0; f < kFibers; ++f) {
    uint64_t x = uint64_t(f);
    for (int r = 0; r < kRounds; ++r) x = Step(x, work);
    results[size_t(f)] = x;
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  return ns / (double(kFibers) * kRounds);
}

}  // namespace

int main(int argc, char** argv) {
  const int work = argc > 1 ? std::atoi(argv[1]) : 0;
  std::vector<uint64_t> plain(kFibers), out_of_line(kFibers), in_line(kFibers);
  bool same = true;
  std::printf("ns per step, %d fibers, %d dependent multiply-xorshifts per step\n", kFibers, work);
  for (int rep = 0; rep < 3; ++rep) {
    const double p = RunPlain(work, plain);
    const double o = RunFibers<false>(work, out_of_line);
    const double i = RunFibers<true>(work, in_line);
    same = same && plain == out_of_line && plain == in_line;
    std::printf("plain loop %6.2f   parked out of line %6.2f   parked inline %6.2f\n", p, o, i);
  }
  std::printf("results %s\n", same ? "match the plain loop" : "WRONG");
  return same ? 0 : 1;
}
