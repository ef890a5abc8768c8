// test_control_flow.cpp -- masked control flow against hand-worked masks (DESIGN §1, semantics.md
// §3.2: SPV_KHR_maximal_reconvergence plus the DXIL switch rule of hlsl-specs proposal 0050).
//
// Each test traces, at chosen statements, which threads are active and what WaveActiveBallot,
// WaveActiveCountBits and WavePrefixCountBits return there. Expected masks are literals written in thread order
// (character t is thread t); the per-thread x is t % 8, so one 8-character pattern describes every
// group size. Expected ballots and counts come from a scalar loop over the expected mask, and for
// the 8-thread group at wave size 4 the counts also from literals worked out by hand.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <string>
#include <vector>

using namespace waveemu;
using waveemu::test::RunGroup;

namespace {

constexpr uint32_t kSentinel = 0xDEADu;

/// One traced statement: its label, the active mask ('1' = active, in thread order), and per
/// thread the counts the wave ops returned (-1 on inactive threads).
struct Event {
  std::string label;
  std::string mask;
  std::vector<int> count;
  std::vector<int> prefix;
  std::vector<int64_t> ballot;  // component x of WaveActiveBallot(true), -1 on inactive threads
};

template <int N>
std::string MaskString(const Mask<N>& m) {
  std::string s(N, '0');
  for (int t = 0; t < N; ++t)
    if (m.Test(t)) s[t] = '1';
  return s;
}

template <int N>
class Tracer {
 public:
  void operator()(std::string label) {
    const GroupState<N>& s = CurrentGroup<N>();
    Uint<N> count(kSentinel), prefix(kSentinel);  // construction is unmasked; assignment masked
    count = WaveActiveCountBits(Bool<N>(true));
    prefix = WavePrefixCountBits(Bool<N>(true));
    Uint<N> ballot(kSentinel);
    ballot = WaveActiveBallot<N>(true).x;
    Event e{std::move(label), MaskString(s.active()), {}, {}, {}};
    for (int t = 0; t < N; ++t) {
      e.ballot.push_back(s.active().Test(t) ? int64_t(ballot.lane(t)) : -1);
      e.count.push_back(count.lane(t) == kSentinel ? -1 : int(count.lane(t)));
      e.prefix.push_back(prefix.lane(t) == kSentinel ? -1 : int(prefix.lane(t)));
    }
    events.push_back(std::move(e));
  }
  std::vector<Event> events;
};

/// An expected event: mask as an 8-thread pattern (spaces ignored) repeated over the group, and
/// optionally the literal counts for an 8-thread group at wave size 4 ('-' = inactive).
struct Want {
  std::string label;
  std::string pattern;
  std::string count8 = "";
  std::string prefix8 = "";
};

std::string Strip(const std::string& s) {
  std::string r;
  for (char c : s)
    if (c != ' ') r += c;
  return r;
}

std::string Repeat(const std::string& pattern, int n) {
  const std::string p = Strip(pattern);
  std::string r;
  while (int(r.size()) < n) r += p;
  return r.substr(0, n);
}

/// The reference for the wave ops, straight from their definitions: thread t is lane t % W of
/// wave t / W; CountBits(true) counts the active threads of t's wave, PrefixCountBits(true)
/// those of them below t; Ballot(true).x has bit u % W set for each of them (waves up to 32).
void ReferenceCounts(const std::string& mask, int W, std::vector<int>& count,
                     std::vector<int>& prefix, std::vector<int64_t>& ballot) {
  const int n = int(mask.size());
  count.assign(n, -1);
  prefix.assign(n, -1);
  ballot.assign(n, -1);
  for (int t = 0; t < n; ++t) {
    if (mask[t] != '1') continue;
    int c = 0, p = 0;
    int64_t b = 0;
    for (int u = 0; u < n; ++u)
      if (u / W == t / W && mask[u] == '1') {
        ++c;
        if (u < t) ++p;
        b |= int64_t{1} << (u % W);
      }
    count[t] = c;
    prefix[t] = p;
    ballot[t] = b;
  }
}

std::vector<int> Digits(const std::string& s) {
  std::vector<int> r;
  for (char c : Strip(s)) r.push_back(c == '-' ? -1 : c - '0');
  return r;
}

template <class T>
std::string Show(const std::vector<T>& v, bool hex = false) {
  std::string s;
  for (T x : v)
    s += x < 0 ? std::string(" -") : hex ? fmt::format(" {:x}", x) : fmt::format(" {}", x);
  return s;
}

template <int N>
void CheckTrace(const Tracer<N>& tracer, int W, const std::vector<Want>& want) {
  std::string report;
  bool ok = tracer.events.size() == want.size();
  const size_t rows = std::max(tracer.events.size(), want.size());
  for (size_t i = 0; i < rows; ++i) {
    std::string wmask, amask, wlabel, alabel;
    std::vector<int> wcount, wprefix;
    std::vector<int64_t> wballot;
    if (i < want.size()) {
      wlabel = want[i].label;
      wmask = Repeat(want[i].pattern, N);
      ReferenceCounts(wmask, W, wcount, wprefix, wballot);
      if (N == 8 && W == 4 && !want[i].count8.empty()) {
        // The hand-worked literals must agree with the reference loop, and the trace with both.
        REQUIRE_MESSAGE(Digits(want[i].count8) == wcount, "hand-worked counts of ", wlabel);
        REQUIRE_MESSAGE(Digits(want[i].prefix8) == wprefix, "hand-worked prefixes of ", wlabel);
      }
    }
    bool row_ok = false;
    if (i < tracer.events.size()) {
      const Event& e = tracer.events[i];
      alabel = e.label;
      amask = e.mask;
      row_ok = i < want.size() && e.label == wlabel && e.mask == wmask && e.count == wcount &&
               e.prefix == wprefix && e.ballot == wballot;
      report += fmt::format("{:2} {:<18} active {}{}\n", i, alabel, amask,
                            row_ok ? "" : "   <-- differs");
      if (!row_ok)
        report += fmt::format("   {:<18} count  {}\n   {:<18} prefix {}\n   {:<18} ballot {}\n",
                              "", Show(e.count), "", Show(e.prefix), "", Show(e.ballot, true));
    }
    if (!row_ok && i < want.size())
      report += fmt::format(
          "   expected: {}\n   {:<18} active {}\n   {:<18} count  {}\n   {:<18} prefix {}\n"
          "   {:<18} ballot {}\n",
          wlabel, "", wmask, "", Show(wcount), "", Show(wprefix), "", Show(wballot, true));
    ok = ok && row_ok;
  }
  if (ok) {
    CHECK(true);
    return;
  }
  FAIL_CHECK(fmt::format("N = {}, wave size {}: trace (threads in order, '1' = active)\n{}", N,
                         W, report));
}

template <int N>
Uint<N> ThreadIndex() {
  Uint<N> r(0u);
  for (int t = 0; t < N; ++t) r.set_lane(t, uint32_t(t));
  return r;
}

/// Per-thread value table[t % 8].
template <int N>
Uint<N> ByThread(const std::array<uint32_t, 8>& table) {
  Uint<N> r(0u);
  for (int t = 0; t < N; ++t) r.set_lane(t, table[t % 8]);
  return r;
}

template <int N>
void CheckValues(const Uint<N>& actual, const std::array<uint32_t, 8>& expected,
                 const std::string& what) {
  for (int t = 0; t < N; ++t)
    CHECK_MESSAGE(actual.lane(t) == expected[t % 8], what, ": thread ", t, " expected ",
                  expected[t % 8], " got ", actual.lane(t));
}

template <int N>
Mask<N> MaskOf(const std::string& pattern) {
  const std::string s = Repeat(pattern, N);
  Mask<N> m;
  for (int t = 0; t < N; ++t) m.Set(t, s[t] == '1');
  return m;
}

/// Runs `test.template operator()<N>(W)` for every (group size, wave size) pair the suite
/// covers: groups of 8, 16 and 64 threads, waves of 4, 8 and 32 lanes.
template <class T>
void ForEachShape(T&& test) {
  for (int W : {4, 8, 32}) {
    test.template operator()<8>(W);
    test.template operator()<16>(W);
    test.template operator()<64>(W);
  }
}

}  // namespace

// ------------------------------ if / else

TEST_CASE("nested if/else three levels deep: each branch runs with its threads, all rejoin") {
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 8u;
      if_(x < 4u, [&] {
        trace("A x<4");
        if_((x & 1u) != 0u, [&] {
          trace("B odd");
          if_(x == 3u, [&] { trace("C1 x==3"); }).else_([&] { trace("C2 x==1"); });
        }).else_([&] {
          trace("D even");
          if_(x == 0u, [&] { trace("E1 x==0"); }).else_([&] { trace("E2 x==2"); });
        });
        trace("F after inner");
      }).else_([&] {
        trace("G x>=4");
        if_(x >= 6u, [&] { trace("H x>=6"); }).else_([&] { trace("I x<6"); });
        trace("J after inner");
      });
      trace("K after outer");
    });
    CheckTrace(trace, W,
               {{"A x<4", "1111 0000", "4444 ----", "0123 ----"},
                {"B odd", "0101 0000", "-2-2 ----", "-0-1 ----"},
                {"C1 x==3", "0001 0000", "---1 ----", "---0 ----"},
                {"C2 x==1", "0100 0000", "-1-- ----", "-0-- ----"},
                {"D even", "1010 0000", "2-2- ----", "0-1- ----"},
                {"E1 x==0", "1000 0000", "1--- ----", "0--- ----"},
                {"E2 x==2", "0010 0000", "--1- ----", "--0- ----"},
                {"F after inner", "1111 0000", "4444 ----", "0123 ----"},
                {"G x>=4", "0000 1111", "---- 4444", "---- 0123"},
                {"H x>=6", "0000 0011", "---- --22", "---- --01"},
                {"I x<6", "0000 1100", "---- 22--", "---- 01--"},
                {"J after inner", "0000 1111", "---- 4444", "---- 0123"},
                {"K after outer", "1111 1111", "4444 4444", "0123 0123"}});
  });
}

TEST_CASE("an else_if_ condition is evaluated only by the threads that reach it") {
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 8u;
      if_(x == 0u, [&] { trace("A x==0"); })
          .else_if_([&] { trace("cond1"); return x < 3u; }, [&] { trace("B x in 1,2"); })
          .else_if_([&] { trace("cond2"); return x < 6u; }, [&] { trace("C x in 3..5"); })
          .else_([&] { trace("D x in 6,7"); });
      trace("after");
    });
    CheckTrace(trace, W,
               {{"A x==0", "1000 0000", "1--- ----", "0--- ----"},
                {"cond1", "0111 1111", "-333 4444", "-012 0123"},
                {"B x in 1,2", "0110 0000", "-22- ----", "-01- ----"},
                {"cond2", "0001 1111", "---1 4444", "---0 0123"},
                {"C x in 3..5", "0001 1100", "---1 22--", "---0 01--"},
                {"D x in 6,7", "0000 0011", "---- --22", "---- --01"},
                {"after", "1111 1111", "4444 4444", "0123 0123"}});
  });
}

TEST_CASE("a wave op in an else_if_ condition sees only the threads reaching the else") {
  // if (x == 0) {} else if (WavePrefixCountBits(true) == 0) { ... }: the second branch is taken
  // by the lowest thread of each wave among those that reach it, which is thread 1 in the first
  // wave (thread 0 took the if), not thread 0.
  constexpr int N = 8;
  constexpr int W = 4;
  Uint<N> taken(0u);
  RunGroup<N>(W, [&] {
    const Uint<N> x = ThreadIndex<N>();
    if_(x == 0u, [] {}).else_if_([&] { return WavePrefixCountBits(Bool<N>(true)) == 0u; },
                                 [&] { taken = Uint<N>(1u); });
  });
  CheckValues(taken, {0, 1, 0, 0, 1, 0, 0, 0}, "else-if taken");
}

TEST_CASE("an else_if_ chain that no thread reaches evaluates none of its conditions") {
  int conditions = 0, bodies = 0;
  RunGroup<8>(4, [&] {
    const Uint<8> x = ThreadIndex<8>();
    if_(x < 100u, [] {})
        .else_if_([&] { ++conditions; return x == 1u; }, [&] { ++bodies; })
        .else_if_([&] { ++conditions; return x == 2u; }, [&] { ++bodies; })
        .else_([&] { ++bodies; });
  });
  CHECK(conditions == 0);
  CHECK(bodies == 0);
}

// ------------------------------ loops

TEST_CASE("while_ with per-thread trip counts: each iteration sees just the threads still in it") {
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    Uint<N> i(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> trip = ByThread<N>({3, 0, 1, 2, 3, 1, 0, 2});
      int k = 0;  // uniform: the group runs each iteration once
      while_([&] { trace(fmt::format("cond {}", k)); return i < trip; },
             [&] {
               trace(fmt::format("iter {}", k++));
               i = i + 1u;
             });
      trace("after loop");
    });
    CheckTrace(trace, W,
               {{"cond 0", "1111 1111", "4444 4444", "0123 0123"},
                {"iter 0", "1011 1101", "3-33 33-3", "0-12 01-2"},
                {"cond 1", "1011 1101", "3-33 33-3", "0-12 01-2"},
                {"iter 1", "1001 1001", "2--2 2--2", "0--1 0--1"},
                {"cond 2", "1001 1001", "2--2 2--2", "0--1 0--1"},
                {"iter 2", "1000 1000", "1--- 1---", "0--- 0---"},
                {"cond 3", "1000 1000", "1--- 1---", "0--- 0---"},
                {"after loop", "1111 1111", "4444 4444", "0123 0123"}});
    CheckValues(i, {3, 0, 1, 2, 3, 1, 0, 2}, "i after the loop");
  });
}

TEST_CASE("for_ with break_ and continue_: break blocks run with the breaking threads only, "
          "the step with the threads that finished or continued") {
  // for (uint i = 0; i < 4; i++) {
  //   if (i == brk) { <break block>; break; }
  //   if (i == cont) continue;
  //   <tail>
  // }
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    Uint<N> i(0u), after_break(0u), after_continue(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> brk = ByThread<N>({1, 9, 0, 2, 9, 3, 1, 9});
      const Uint<N> cont = ByThread<N>({0, 1, 9, 0, 2, 9, 0, 3});
      int k = 0;
      for_([&] { return i < 4u; },
           [&] {
             trace(fmt::format("step {}", k++));
             i = i + 1u;
           },
           [&] {
             trace(fmt::format("top {}", k));
             if_(i == brk, [&] {
               trace(fmt::format("break block {}", k));
               break_();
               after_break = Uint<N>(1u);  // no thread is left to take it
             });
             if_(i == cont, [&] {
               continue_();
               after_continue = Uint<N>(1u);
             });
             trace(fmt::format("tail {}", k));
           });
      trace("after loop");
    });
    CheckTrace(trace, W,
               {{"top 0", "1111 1111", "4444 4444", "0123 0123"},
                {"break block 0", "0010 0000", "--1- ----", "--0- ----"},
                {"tail 0", "0100 1101", "-1-- 33-3", "-0-- 01-2"},
                {"step 0", "1101 1111", "33-3 4444", "01-2 0123"},
                {"top 1", "1101 1111", "33-3 4444", "01-2 0123"},
                {"break block 1", "1000 0010", "1--- --1-", "0--- --0-"},
                {"tail 1", "0001 1101", "---1 33-3", "---0 01-2"},
                {"step 1", "0101 1101", "-2-2 33-3", "-0-1 01-2"},
                {"top 2", "0101 1101", "-2-2 33-3", "-0-1 01-2"},
                {"break block 2", "0001 0000", "---1 ----", "---0 ----"},
                {"tail 2", "0100 0101", "-1-- -2-2", "-0-- -0-1"},
                {"step 2", "0100 1101", "-1-- 33-3", "-0-- 01-2"},
                {"top 3", "0100 1101", "-1-- 33-3", "-0-- 01-2"},
                {"break block 3", "0000 0100", "---- -1--", "---- -0--"},
                {"tail 3", "0100 1000", "-1-- 1---", "-0-- 0---"},
                {"step 3", "0100 1001", "-1-- 2--2", "-0-- 0--1"},
                {"after loop", "1111 1111", "4444 4444", "0123 0123"}});
    CheckValues(i, {1, 4, 0, 2, 4, 3, 1, 4}, "i after the loop");
    CheckValues(after_break, {0, 0, 0, 0, 0, 0, 0, 0}, "statement after break_");
    CheckValues(after_continue, {0, 0, 0, 0, 0, 0, 0, 0}, "statement after continue_");
  });
}

TEST_CASE("do_while_ runs the body once before testing; continue_ goes to the condition") {
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    Uint<N> i(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> trip = ByThread<N>({1, 2, 3, 1, 4, 2, 1, 1});
      const Uint<N> skip = ByThread<N>({9, 1, 2, 9, 9, 9, 9, 9});
      int k = 0;
      do_while_(
          [&] {
            trace(fmt::format("top {}", k));
            i = i + 1u;
            if_(i == skip, [] { continue_(); });
            trace(fmt::format("tail {}", k));
          },
          [&] {
            trace(fmt::format("cond {}", k++));
            return i < trip;
          });
      trace("after loop");
    });
    CheckTrace(trace, W,
               {{"top 0", "1111 1111", "4444 4444", "0123 0123"},
                {"tail 0", "1011 1111", "3-33 4444", "0-12 0123"},
                {"cond 0", "1111 1111", "4444 4444", "0123 0123"},
                {"top 1", "0110 1100", "-22- 22--", "-01- 01--"},
                {"tail 1", "0100 1100", "-1-- 22--", "-0-- 01--"},
                {"cond 1", "0110 1100", "-22- 22--", "-01- 01--"},
                {"top 2", "0010 1000", "--1- 1---", "--0- 0---"},
                {"tail 2", "0010 1000", "--1- 1---", "--0- 0---"},
                {"cond 2", "0010 1000", "--1- 1---", "--0- 0---"},
                {"top 3", "0000 1000", "---- 1---", "---- 0---"},
                {"tail 3", "0000 1000", "---- 1---", "---- 0---"},
                {"cond 3", "0000 1000", "---- 1---", "---- 0---"},
                {"after loop", "1111 1111", "4444 4444", "0123 0123"}});
    CheckValues(i, {1, 2, 3, 1, 4, 2, 1, 1}, "i after the loop");
  });
}

TEST_CASE("a wave op in a while_ condition sees only the threads still looping") {
  // uint i = 0; while (WavePrefixCountBits(true) >= i) i++;
  // Iteration k keeps the threads whose rank among the wave's looping threads is at least k.
  constexpr int N = 8;
  constexpr int W = 4;
  Tracer<N> trace;
  Uint<N> i(0u);
  RunGroup<N>(W, [&] {
    int k = 0;
    while_([&] { return WavePrefixCountBits(Bool<N>(true)) >= i; },
           [&] {
             trace(fmt::format("iter {}", k++));
             i = i + 1u;
           });
  });
  CheckTrace(trace, W,
             {{"iter 0", "1111 1111", "4444 4444", "0123 0123"},
              {"iter 1", "0111 0111", "-333 -333", "-012 -012"},
              {"iter 2", "0001 0001", "---1 ---1", "---0 ---0"}});
  CheckValues(i, {1, 2, 2, 3, 1, 2, 2, 3}, "i after the loop");
}

TEST_CASE("while (true) with per-thread breaks: while_ on Bool<N>(true) ends when all broke") {
  // uint n = 0; while (true) { n++; if (n > tid % 3) break; }  (porting_guide's spelling)
  constexpr int N = 8;
  Uint<N> n(0u);
  int iterations = 0;
  RunGroup<N>(4, [&] {
    const Uint<N> tid(std::array<uint32_t, N>{0, 1, 2, 3, 4, 5, 6, 7});
    while_([&] { return Bool<N>(true); }, [&] {
      ++iterations;
      n = n + 1u;
      if_(n > tid % 3u, [&] { break_(); });
    });
  });
  for (int t = 0; t < N; ++t) CHECK(n.lane(t) == uint32_t(t % 3 + 1));  // scalar loop's count
  CHECK(iterations == 3);  // the body runs while any thread is left: max(t % 3) + 1 times
}

TEST_CASE("for_ runs the step for threads that continued, at the continue target") {
  ForEachShape([]<int N>(int W) {
    Uint<N> i(0u), steps(0u), sum(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 8u;
      for_([&] { return i < 3u; },
           [&] {
             steps = steps + 1u;
             i = i + 1u;
           },
           [&] {
             if_((x & 1u) != 0u, [] { continue_(); });
             sum = sum + i + 1u;  // even threads only: 1 + 2 + 3
           });
    });
    CheckValues(i, {3, 3, 3, 3, 3, 3, 3, 3}, "i");
    CheckValues(steps, {3, 3, 3, 3, 3, 3, 3, 3}, "steps run");
    CheckValues(sum, {6, 0, 6, 0, 6, 0, 6, 0}, "sum");
    (void)W;
  });
}

// ------------------------------ switch

TEST_CASE("switch_ groups threads per branch target, fall-through joins the next case, "
          "default may sit in the middle") {
  // switch (x) { case 0: A;  case 1: case 2: B; break;  default: D;  case 5: E; break;
  //              case 6: F; break;  case 100: never }
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    int unreached = 0;
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 8u;
      switch_(x,
              case_(0u, [&] { trace("A case 0"); }),
              case_({1u, 2u}, [&] { trace("B case 1,2"); break_(); }),
              default_([&] { trace("D default"); }),
              case_(5u, [&] { trace("E case 5"); break_(); }),
              case_(6u, [&] { trace("F case 6"); break_(); }),
              case_(100u, [&] { ++unreached; }));
      trace("after switch");
    });
    CheckTrace(trace, W,
               {{"A case 0", "1000 0000", "1--- ----", "0--- ----"},
                {"B case 1,2", "1110 0000", "333- ----", "012- ----"},
                {"D default", "0001 1001", "---1 2--2", "---0 0--1"},
                {"E case 5", "0001 1101", "---1 33-3", "---0 01-2"},
                {"F case 6", "0000 0010", "---- --1-", "---- --0-"},
                {"after switch", "1111 1111", "4444 4444", "0123 0123"}});
    CHECK(unreached == 0);
  });
}

TEST_CASE("switch_ refuses a case value given twice, as HLSL does") {
  RunGroup<8>(8, [] {
    const Uint<8> sel(std::array<uint32_t, 8>{0, 1, 0, 1, 0, 1, 0, 1});
    Uint<8> runs(0u);
    CHECK_THROWS_WITH_AS(
        switch_(sel, case_(0u, [&] { runs = runs + 1u; break_(); }),
                case_({2u, 0u}, [&] { runs = runs + 10u; break_(); })),
        "switch_: case value 0 appears twice (HLSL rejects duplicate case labels), group (0,0,0)",
        KernelError);
    for (int t = 0; t < 8; ++t) CHECK(runs.lane(t) == 0u);  // refused before any body ran
  });
}

TEST_CASE("switch_ on a signed selector with int labels, and no default: unmatched threads skip") {
  constexpr int N = 8;
  Tracer<N> trace;
  RunGroup<N>(4, [&] {
    const Int<N> s = Int<N>(ThreadIndex<N>()) - 4;  // -4 .. 3
    switch_(s, case_(-4, [&] { trace("case -4"); }), case_({0, 2}, [&] { trace("case 0,2"); }));
    trace("after switch");
  });
  CheckTrace(trace, 4,
             {{"case -4", "1000 0000", "1--- ----", "0--- ----"},
              {"case 0,2", "1000 1010", "1--- 2-2-", "0--- 0-1-"},
              {"after switch", "1111 1111", "4444 4444", "0123 0123"}});
}

TEST_CASE("break_ inside a switch_ inside a loop leaves the switch, not the loop") {
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    Uint<N> i(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 8u;
      for_([&] { return i < 2u; }, [&] { i = i + 1u; },
           [&] {
             switch_(x & 1u, case_(0u, [&] { trace("even"); break_(); }),
                     default_([&] { trace("odd"); }));
             trace("after switch");
           });
      trace("after loop");
    });
    CheckTrace(trace, W,
               {{"even", "1010 1010", "2-2- 2-2-", "0-1- 0-1-"},
                {"odd", "0101 0101", "-2-2 -2-2", "-0-1 -0-1"},
                {"after switch", "1111 1111", "4444 4444", "0123 0123"},
                {"even", "1010 1010", "2-2- 2-2-", "0-1- 0-1-"},
                {"odd", "0101 0101", "-2-2 -2-2", "-0-1 -0-1"},
                {"after switch", "1111 1111", "4444 4444", "0123 0123"},
                {"after loop", "1111 1111", "4444 4444", "0123 0123"}});
    CheckValues(i, {2, 2, 2, 2, 2, 2, 2, 2}, "iterations");
  });
}

TEST_CASE("continue_ inside a switch_ inside a loop continues the loop and skips fall-through") {
  // for (i = 0; i < 2; i++) { switch (x % 4) { case 0: continue; case 1: C1; break;
  //                                            default: D; }  <after switch> }
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    Uint<N> i(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 8u;
      for_([&] { return i < 2u; },
           [&] {
             trace("step");
             i = i + 1u;
           },
           [&] {
             switch_(x % 4u, case_(0u, [] { continue_(); }),
                     case_(1u, [&] { trace("case 1"); break_(); }),
                     default_([&] { trace("default"); }));
             trace("after switch");
           });
    });
    const std::vector<Want> one = {
        {"case 1", "0100 0100", "-1-- -1--", "-0-- -0--"},
        {"default", "0011 0011", "--22 --22", "--01 --01"},
        {"after switch", "0111 0111", "-333 -333", "-012 -012"},
        {"step", "1111 1111", "4444 4444", "0123 0123"}};
    std::vector<Want> want = one;
    want.insert(want.end(), one.begin(), one.end());
    CheckTrace(trace, W, want);
    CheckValues(i, {2, 2, 2, 2, 2, 2, 2, 2}, "iterations");
  });
}

// ------------------------------ return_ and function_

TEST_CASE("return_ from the kernel switches threads off for the rest of the group") {
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    std::string barrier_error;
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 8u;
      if_(x >= 5u, [] { return_(); });
      trace("after return");
      Uint<N> i(0u);
      while_([&] { return i < 2u; }, [&] {
        trace("loop");
        i = i + 1u;
      });
      if_(x < 2u, [&] { trace("then"); }).else_([&] { trace("else"); });
      function_([&] { trace("in function"); });
      trace("end");
      CHECK(MaskString(CurrentGroup<N>().returned()) == Repeat("0000 0111", N));
      try {
        GroupMemoryBarrierWithGroupSync();
      } catch (const KernelError& e) {
        barrier_error = e.what();
      }
    });
    CheckTrace(trace, W,
               {{"after return", "1111 1000", "4444 1---", "0123 0---"},
                {"loop", "1111 1000", "4444 1---", "0123 0---"},
                {"loop", "1111 1000", "4444 1---", "0123 0---"},
                {"then", "1100 0000", "22-- ----", "01-- ----"},
                {"else", "0011 1000", "--22 1---", "--01 0---"},
                {"in function", "1111 1000", "4444 1---", "0123 0---"},
                {"end", "1111 1000", "4444 1---", "0123 0---"}});
    CHECK_MESSAGE(barrier_error.find("GroupMemoryBarrierWithGroupSync") != std::string::npos,
                  barrier_error);
    CHECK_MESSAGE(barrier_error.find(fmt::format("reached by {} of the group's {} threads",
                                                 N / 8 * 5, N)) != std::string::npos,
                  barrier_error);
    CHECK_MESSAGE(barrier_error.find(fmt::format("{} returned from the kernel", N / 8 * 3)) !=
                      std::string::npos,
                  barrier_error);
  });
}

TEST_CASE("return_ with a value from a function_ sets the result, and callers rejoin after it") {
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    Uint<N> r(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 8u;
      // uint f(uint x) { if (x < 3) return x + 10; if (x == 7) return 99; return 5; }
      function_([&] {
        if_(x < 3u, [&] { return_(r, x + 10u); });
        trace("after first return");
        if_(x == 7u, [&] { return_(r, Uint<N>(99u)); });
        trace("end of function");
        return_(r, Uint<N>(5u));
      });
      trace("after call");
    });
    CheckTrace(trace, W,
               {{"after first return", "0001 1111", "---1 4444", "---0 0123"},
                {"end of function", "0001 1110", "---1 333-", "---0 012-"},
                {"after call", "1111 1111", "4444 4444", "0123 0123"}});
    CheckValues(r, {10, 11, 12, 5, 5, 5, 5, 99}, "f(x)");
  });
}

TEST_CASE("return_ inside a loop inside a function_ leaves both; the caller gets every thread back") {
  ForEachShape([]<int N>(int W) {
    Tracer<N> trace;
    Uint<N> r(0u);
    RunGroup<N>(W, [&] {
      const Uint<N> ret = ByThread<N>({0, 9, 1, 2, 9, 3, 0, 9});
      function_([&] {
        Uint<N> i(0u);
        int k = 0;
        for_([&] { return i < 4u; }, [&] { i = i + 1u; },
             [&] {
               trace(fmt::format("iter {}", k++));
               if_(i == ret, [&] { return_(r, i * 10u); });
             });
        trace("after loop");
        r = Uint<N>(7u);
      });
      trace("after call");
    });
    CheckTrace(trace, W,
               {{"iter 0", "1111 1111", "4444 4444", "0123 0123"},
                {"iter 1", "0111 1101", "-333 33-3", "-012 01-2"},
                {"iter 2", "0101 1101", "-2-2 33-3", "-0-1 01-2"},
                {"iter 3", "0100 1101", "-1-- 33-3", "-0-- 01-2"},
                {"after loop", "0100 1001", "-1-- 2--2", "-0-- 0--1"},
                {"after call", "1111 1111", "4444 4444", "0123 0123"}});
    CheckValues(r, {0, 7, 10, 20, 7, 30, 0, 7}, "result");
  });
}

TEST_CASE("threads that returned from the kernel stay off through a later function_ call") {
  constexpr int N = 8;
  Tracer<N> trace;
  RunGroup<N>(4, [&] {
    const Uint<N> x = ThreadIndex<N>();
    if_(x == 2u, [] { return_(); });
    function_([&] {
      if_(x < 4u, [] { return_(); });
      trace("in function");
    });
    trace("after call");
  });
  CheckTrace(trace, 4,
             {{"in function", "0000 1111", "---- 4444", "---- 0123"},
              {"after call", "1101 1111", "33-3 4444", "01-2 0123"}});
}

// ------------------------------ nesting and bodies that do not run

TEST_CASE("deep nesting: loop > if > switch > function_ > while_ > if, with return_, break_ "
          "and a continue_ that crosses a switch and an if") {
  // for (j = 0; j < 2; j++) {
  //   if (x & 1) {
  //     switch (x % 4) {
  //       case 1: f(x); break;      // f: k = 0; while (k < 3) { if (x == 5) return;
  //                                 //      if (x == 9 && k == 1) break; k++; }
  //       case 3: if (x > 10) continue;
  //     }
  //     <after switch>
  //   }
  //   <after if>
  // }
  // x = t % 16 here, so the patterns are 16 threads long.
  auto test = []<int N>(int W) {
    Tracer<N> trace;
    RunGroup<N>(W, [&] {
      const Uint<N> x = ThreadIndex<N>() % 16u;
      Uint<N> j(0u);
      for_([&] { return j < 2u; }, [&] { j = j + 1u; },
           [&] {
             trace("loop");
             if_((x & 1u) != 0u, [&] {
               switch_(x % 4u,
                       case_(1u,
                             [&] {
                               trace("case 1");
                               function_([&] {
                                 Uint<N> k(0u);
                                 while_([&] { return k < 3u; },
                                        [&] {
                                          trace("while");
                                          if_(x == 5u, [] { return_(); });
                                          if_((x == 9u) & (k == 1u), [] { break_(); });
                                          k = k + 1u;
                                        });
                                 trace("after while");
                               });
                               trace("after call");
                               break_();
                             }),
                       case_(3u, [&] {
                         trace("case 3");
                         if_(x > 10u, [] { continue_(); });
                       }));
               trace("after switch");
             });
             trace("after if");
           });
    });
    const std::vector<Want> one = {
        {"loop", "11111111 11111111"},
        {"case 1", "01000100 01000100"},
        {"while", "01000100 01000100"},
        {"while", "01000000 01000100"},
        {"while", "01000000 00000100"},
        {"after while", "01000000 01000100"},
        {"after call", "01000100 01000100"},
        {"case 3", "00010001 00010001"},
        {"after switch", "01010101 01000100"},
        {"after if", "11111111 11101110"}};
    std::vector<Want> want = one;
    want.insert(want.end(), one.begin(), one.end());
    CheckTrace(trace, W, want);
  };
  for (int W : {4, 8, 32}) {
    test.template operator()<16>(W);
    test.template operator()<64>(W);
  }
}

TEST_CASE("a body that no thread takes does not run: if, else, else_if_, loops, cases, "
          "function_") {
  int runs = 0, conds = 0;
  RunGroup<16>(8, [&] {
    const Uint<16> x = ThreadIndex<16>();
    if_(x > 100u, [&] { ++runs; });                            // no thread
    if_(x < 100u, [] {}).else_([&] { ++runs; });               // every thread took the then
    if_(x < 100u, [] {}).else_if_([&] { ++conds; return x == 0u; }, [&] { ++runs; });
    while_([&] { ++conds; return x > 100u; }, [&] { ++runs; });  // condition once, body never
    for_([&] { ++conds; return x > 100u; }, [&] { ++runs; }, [&] { ++runs; });
    switch_(x, case_(200u, [&] { ++runs; }), case_(300u, [&] { ++runs; }));
    switch_(x, case_(0u, [&] { break_(); }), case_(300u, [&] { ++runs; }),  // 0 breaks; no 300
            default_([&] { break_(); }));
    // Once every thread has returned, nothing runs, not even a loop condition or a function_.
    if_(x < 100u, [] { return_(); });
    if_(x < 100u, [&] { ++runs; });
    while_([&] { ++conds; return x < 100u; }, [&] { ++runs; });
    do_while_([&] { ++runs; }, [&] { ++conds; return x < 100u; });
    switch_(x, default_([&] { ++runs; }));
    function_([&] { ++runs; });
  });
  CHECK(runs == 0);
  CHECK(conds == 2);  // the while_ and for_ conditions before the return_, once each
}

TEST_CASE("a loop body is not entered by threads whose first condition fails, and an if_ on a "
          "lambda condition evaluates it under the current mask") {
  constexpr int N = 8;
  Tracer<N> trace;
  RunGroup<N>(4, [&] {
    const Uint<N> x = ThreadIndex<N>();
    if_(x < 6u, [&] {
      if_([&] { trace("if cond"); return (x & 1u) == 0u; }, [&] { trace("even"); });
    });
  });
  CheckTrace(trace, 4,
             {{"if cond", "1111 1100", "4444 22--", "0123 01--"},
              {"even", "1010 1000", "2-2- 1---", "0-1- 0---"}});
}

// ------------------------------ errors

TEST_CASE("break_ and continue_ outside a loop are KernelErrors that name the rule") {
  auto message = [](auto body) {
    std::string what;
    try {
      RunGroup<8>(4, body);
    } catch (const KernelError& e) {
      what = e.what();
    }
    return what;
  };
  const std::string b = message([] { break_(); });
  CHECK_MESSAGE(b.find("break_() outside a loop or switch_") != std::string::npos, b);
  // A porter's plain C++ loop around a per-thread break: the message names the fix.
  const std::string plain = message([] {
    const Uint<8> t(std::array<uint32_t, 8>{0, 1, 2, 3, 4, 5, 6, 7});
    for (uint32_t k = 0; k < 4; ++k) if_(t == k, [] { break_(); });
  });
  CHECK_MESSAGE(plain.find("a plain C++ for or while is not one") != std::string::npos, plain);
  const std::string c = message([] {
    switch_(Uint<8>(0u), default_([] { continue_(); }));
  });
  CHECK_MESSAGE(c.find("continue_() outside a loop") != std::string::npos, c);
  // A function_ body ends the search: HLSL cannot break out of a called function.
  const std::string f = message([] {
    Uint<8> i(0u);
    while_([&] { return i < 2u; }, [&] { function_([] { break_(); }); });
  });
  CHECK_MESSAGE(f.find("break_() outside a loop or switch_") != std::string::npos, f);
  CHECK_MESSAGE(f.find("function_") != std::string::npos, f);
}

TEST_CASE("a barrier under a partial mask is a KernelError naming the barrier and the counts") {
  std::string what;
  RunGroup<16>(8, [&] {
    const Uint<16> x = ThreadIndex<16>();
    GroupMemoryBarrierWithGroupSync();  // whole group: fine
    if_(x < 16u, [] { GroupMemoryBarrierWithGroupSync(); });
    if_(x < 3u, [&] {
      try {
        AllMemoryBarrierWithGroupSync();
      } catch (const KernelError& e) {
        what = e.what();
      }
    });
  });
  CHECK_MESSAGE(what.find("AllMemoryBarrierWithGroupSync: reached by 3 of the group's 16 "
                          "threads (0 returned from the kernel, 13 off in divergent control "
                          "flow)") != std::string::npos,
                what);
  CHECK_MESSAGE(what.find("first thread missing: 3") != std::string::npos, what);
}

TEST_CASE("a barrier that every thread has left through break_ is not reached, so not an error") {
  // for (;;) { if (x >= 0) break; GroupMemoryBarrierWithGroupSync(); }: in HLSL no thread
  // reaches the barrier. Here the rest of the body still runs as C++, with no thread active.
  int barriers = 0;
  RunGroup<8>(4, [&] {
    const Uint<8> x = ThreadIndex<8>();
    while_([&] { return x < 100u; }, [&] {
      if_(x < 100u, [] { break_(); });
      GroupMemoryBarrierWithGroupSync();
      ++barriers;
    });
  });
  CHECK(barriers == 1);  // the C++ statement ran once, with no thread active
}

TEST_CASE("a system value is a per-thread condition: if (SV_GroupIndex) means index != 0") {
  constexpr int N = 8;
  Tracer<N> trace;
  RunGroup<N>(4, [&] {
    SV_GroupIndex<N> gi;
    for (int t = 0; t < N; ++t) gi.set_lane(t, uint32_t(t % 3));
    if_(gi, [&] { trace("gi != 0"); });
  });
  CheckTrace(trace, 4, {{"gi != 0", "0110 1101", "-22- 33-3", "-01- 01-2"}});
}

// ------------------------------------------------------------------------------------------------
// switch default grouping: the DXIL rule (one group per branch target) against NVIDIA's observed
// grouping (one group per selector value reaching default, DESIGN §3).

TEST_CASE("switch_ default runs once for all its values per target, once per value under nvidia") {
  for (const bool per_value : {false, true}) {
    CAPTURE(per_value);
    DeviceProfile profile = SpecProfile();
    if (per_value) profile.switch_default = SwitchDefaultGrouping::kPerValue;
    Uint<8> seen = 99u, runs_of_default = 0u;
    RunGroup<8>(8, [&] {
      const Uint<8> lane = WaveGetLaneIndex<8>();
      switch_(lane % 4u,                                         // 0 1 2 3 0 1 2 3
              case_(0u, [&] { break_(); }),                      // threads 0, 4 leave
              default_([&] {
                seen = WaveActiveCountBits(Bool<8>(true));
                runs_of_default += 1u;
              }));
    }, profile);
    // Hand-worked: per target, threads 1,2,3,5,6,7 run default together (6 of them, once);
    // per value, {1,5}, {2,6} and {3,7} each run it alone (2 each).
    const std::array<uint32_t, 8> want_seen = per_value
        ? std::array<uint32_t, 8>{99, 2, 2, 2, 99, 2, 2, 2}
        : std::array<uint32_t, 8>{99, 6, 6, 6, 99, 6, 6, 6};
    for (int t = 0; t < 8; ++t) {
      CHECK(seen.lane(t) == want_seen[t]);
      CHECK(runs_of_default.lane(t) == (t % 4 == 0 ? 0u : 1u));
    }
  }
}

TEST_CASE("under per-value grouping, threads falling into default join its first value group") {
  DeviceProfile profile = SpecProfile();
  profile.switch_default = SwitchDefaultGrouping::kPerValue;
  Uint<8> seen = 99u;
  RunGroup<8>(8, [&] {
    const Uint<8> lane = WaveGetLaneIndex<8>();
    switch_(lane % 4u,
            case_(0u, [&] {}),  // no break: threads 0 and 4 fall through into default
            default_([&] { seen = WaveActiveCountBits(Bool<8>(true)); }));
  }, profile);
  // The first value group is selector 1 ({1,5}), joined by the fall-through {0,4}: 4 threads.
  const std::array<uint32_t, 8> want = {4, 4, 2, 2, 4, 4, 2, 2};
  for (int t = 0; t < 8; ++t) CHECK(seen.lane(t) == want[t]);
}
