// test_bench_turns.cpp -- waveemu-bench's timing in turns (tools/bench/bench_common.h): every
// contender runs its repeats, the order is balanced, and a wrong or unavailable contender stops
// with no time. The bench itself is not part of ctest; its timing logic is, here, beside the
// other tools' tests.
#include "tools/bench/bench_common.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

using waveemu::bench::Contender;
using waveemu::bench::Measure;
using waveemu::bench::MeasureInTurns;
using waveemu::bench::TurnOrder;

TEST_CASE("TurnOrder: each turn is a permutation, and over a cycle every ordered pair is adjacent "
          "equally often") {
  for (size_t n = 1; n <= 6; ++n) {
    // A Williams design balances first-order carry-over within turns: over n turns (even n) or
    // 2n turns (odd n), each ordered pair (a, b), a != b, has b right after a the same number
    // of times: once per n turns for even n, twice per 2n turns for odd n.
    const int cycle = int(n % 2 ? 2 * n : n);
    std::map<std::pair<size_t, size_t>, int> follows;
    for (int turn = 0; turn < cycle; ++turn) {
      const std::vector<size_t> order = TurnOrder(n, turn);
      CAPTURE(n);
      CAPTURE(turn);
      REQUIRE(order.size() == n);
      CHECK(std::set<size_t>(order.begin(), order.end()).size() == n);
      for (size_t i = 0; i < n; ++i) CHECK(order[i] < n);
      for (size_t i = 1; i < n; ++i) ++follows[{order[i - 1], order[i]}];
    }
    const int expected = n % 2 ? 2 : 1;
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b)
        if (a != b) {
          CAPTURE(n);
          CAPTURE(a);
          CAPTURE(b);
          CHECK(follows[{a, b}] == expected);
        }
  }
}

TEST_CASE("MeasureInTurns: each contender runs its repeats, one run per turn, and reports the "
          "median") {
  std::vector<char> log;
  std::vector<double> a_times{5, 1, 3, 9, 7};  // median 5
  int a_calls = 0;
  Contender a{5, [&] {
    log.push_back('a');
    return a_times[size_t(a_calls++)];
  }};
  Contender b{5, [&] {
    log.push_back('b');
    return 2.0;
  }};
  Contender c{2, [&] {  // fewer repeats, as lavapipe has
    log.push_back('c');
    return 4.0;
  }};
  Contender none;  // no runs (no lavapipe)
  MeasureInTurns({&a, &b, &c, &none});
  CHECK(std::count(log.begin(), log.end(), 'a') == 5);
  CHECK(std::count(log.begin(), log.end(), 'b') == 5);
  CHECK(std::count(log.begin(), log.end(), 'c') == 2);
  CHECK(log.size() == 12);
  // In turns: in every prefix of the log, the run counts of contenders with runs left differ
  // by at most one (c's two runs fall in the first two turns, the first 6 calls).
  std::map<char, int> seen;
  for (size_t i = 0; i < log.size(); ++i) {
    ++seen[log[i]];
    CAPTURE(i);
    CHECK(std::abs(seen['a'] - seen['b']) <= 1);
    if (i < 6) CHECK(std::abs(seen['a'] - seen['c']) <= 1);
  }
  CHECK(std::count(log.begin(), log.begin() + 6, 'c') == 2);
  CHECK(a.Result() == 5.0);
  CHECK(b.Result() == 2.0);
  CHECK(c.Result() == 4.0);
  CHECK(std::isnan(none.Result()));
  CHECK_FALSE(a.wrong);
  CHECK_FALSE(a.unavailable);
}

TEST_CASE("MeasureInTurns: a wrong output stops its contender with no time; the others go on") {
  int wrong_calls = 0, unavailable_calls = 0, good_calls = 0;
  Contender wrong{5, [&] { return ++wrong_calls == 2 ? -1.0 : 1.0; }};  // wrong on its 2nd run
  Contender unavailable{3, [&] {
    ++unavailable_calls;
    return unavailable_calls == 1 ? 6.0 : NAN;  // runs once, then cannot run (lavapipe)
  }};
  Contender good{4, [&] {
    ++good_calls;
    return 3.0;
  }};
  MeasureInTurns({&wrong, &unavailable, &good});
  CHECK(wrong_calls == 2);
  CHECK(wrong.wrong);
  CHECK(std::isnan(wrong.Result()));
  CHECK(unavailable_calls == 2);
  CHECK(unavailable.unavailable);
  CHECK_FALSE(unavailable.wrong);
  CHECK(std::isnan(unavailable.Result()));  // not the one run it made before
  CHECK(good_calls == 4);
  CHECK(good.Result() == 3.0);

  bool failed = false;
  int calls = 0;
  CHECK(std::isnan(Measure(3, failed, [&] { return ++calls == 3 ? -1.0 : 2.0; })));
  CHECK(failed);
  CHECK(calls == 3);
  failed = false;
  CHECK(Measure(4, failed, [] { return 2.5; }) == 2.5);
  CHECK_FALSE(failed);
}
