// control_flow.h -- masked control flow with maximal reconvergence (DESIGN §1).
//
// A branch body is a lambda that runs once for the whole group with the execution mask narrowed
// to the threads that take the branch; a body with no such thread does not run. Threads rejoin
// where SPV_KHR_maximal_reconvergence says: after an if, at a loop's continue target each
// iteration, after a loop or switch for those that broke, after a function_ for those that
// returned. break_(), continue_() and return_() do not jump: they switch the calling threads
// off, and the rest of the body runs without them (ISPC's model). Plain C++ `if`/`for` stay
// right for values that are the same on every thread of the group.
#pragma once

#include "emulator/exec.h"
#include "emulator/lanes.h"

#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

namespace waveemu {

namespace detail {

template <class C>
struct CondTraits;
template <int N>
struct CondTraits<Bool<N>> {
  static constexpr int kSize = N;
  static Mask<N> ToMask(const Bool<N>& b) { return b.mask(); }
};
template <class T, int N>
struct CondTraits<Lanes<T, N>> {  // HLSL: if (x) means x != 0
  static constexpr int kSize = N;
  static Mask<N> ToMask(const Lanes<T, N>& x) { return (x != Lanes<T, N>(T(0))).mask(); }
};

template <class C>
using CondOf = CondTraits<std::remove_cvref_t<C>>;

/// Runs `body` with the mask `m` (if any thread is in it), then rejoins the threads of `entry`
/// that did not leave through break_/continue_/return_.
template <int N, class F>
void RunMasked(GroupState<N>& s, const Mask<N>& entry, const Mask<N>& m, F&& body) {
  if (m.Empty()) return;
  s.set_active(m);
  body();
  s.set_active(s.Reconverge(entry));
}

template <class F>
decltype(auto) Evaluate(F&& f) {
  if constexpr (std::is_invocable_v<F>) return f();
  else return std::forward<F>(f);
}

}  // namespace detail

// ------------------------------ if_ / else_if_ / else_

/// The tail of an if_: threads of the if's entry mask that no branch has taken yet.
template <int N>
class [[nodiscard("chain .else_(...) or drop the result; the then-branch has already run")]] IfChain {
 public:
  IfChain(const Mask<N>& entry, const Mask<N>& rest) : entry_(entry), rest_(rest) {}

  /// HLSL `else { ... }`.
  template <class F>
  void else_(F&& body) const {
    GroupState<N>& s = CurrentGroup<N>();
    detail::RunMasked(s, entry_, AndNot(rest_, s.escaped()), body);
  }
  /// HLSL `else if (cond) { ... }`. `cond` may be a lambda, so that a wave op in it runs with the
  /// threads that reach the else, as in HLSL.
  template <class C, class F>
  IfChain else_if_(C&& cond, F&& body) const {
    GroupState<N>& s = CurrentGroup<N>();
    const Mask<N> reach = AndNot(rest_, s.escaped());
    Mask<N> taken;
    if (reach.Any()) {
      s.set_active(reach);
      taken = reach & detail::CondOf<decltype(detail::Evaluate(cond))>::ToMask(
                          detail::Evaluate(cond));
      s.set_active(s.Reconverge(entry_));
      detail::RunMasked(s, entry_, taken, body);
    }
    return IfChain(entry_, AndNot(reach, taken));
  }

 private:
  Mask<N> entry_;
  Mask<N> rest_;
};

/// HLSL `if (cond) { body }` for a per-thread condition (Bool<N>, or any Lanes: nonzero is true).
template <class C, class F, int N = detail::CondOf<C>::kSize>
IfChain<N> if_(const C& cond, F&& body) {
  GroupState<N>& s = CurrentGroup<N>();
  const Mask<N> entry = s.active();
  const Mask<N> c = detail::CondOf<C>::ToMask(cond);
  detail::RunMasked(s, entry, entry & c, body);
  return IfChain<N>(entry, AndNot(entry, c));
}

// ------------------------------ loops

namespace detail {

/// One loop: `cond` (a lambda returning a per-thread condition) is evaluated under the mask of
/// the threads still looping; `step` runs at the continue target. do-while skips the first test.
template <int N, class Cond, class Step, class Body>
void RunLoop(Cond&& cond, Step&& step, Body&& body, bool test_first) {
  GroupState<N>& s = CurrentGroup<N>();
  const Mask<N> entry = s.active();
  s.PushFrame(FrameKind::kLoop);
  for (bool first = true;; first = false) {
    if (test_first || !first) {
      if (s.active().Empty()) break;
      const Mask<N> c = CondOf<decltype(cond())>::ToMask(cond());
      s.set_active(s.active() & c);
    }
    if (s.active().Empty()) break;
    body();
    // Continue target: threads that finished the body and threads that continued meet here.
    Frame<N>& f = s.top();
    s.set_active(s.active() | f.continued);
    f.continued = Mask<N>();
    if (s.active().Empty()) break;
    step();
  }
  s.PopFrame();
  s.set_active(s.Reconverge(entry));
}

struct NoStep {
  void operator()() const {}
};

}  // namespace detail

/// HLSL `while (cond) body`; `cond` is a lambda so it is re-evaluated every iteration.
template <class Cond, class Body>
void while_(Cond&& cond, Body&& body) {
  constexpr int N = detail::CondOf<decltype(cond())>::kSize;
  detail::RunLoop<N>(cond, detail::NoStep{}, body, /*test_first=*/true);
}

/// HLSL `do body while (cond);`.
template <class Body, class Cond>
void do_while_(Body&& body, Cond&& cond) {
  constexpr int N = detail::CondOf<decltype(cond())>::kSize;
  detail::RunLoop<N>(cond, detail::NoStep{}, body, /*test_first=*/false);
}

/// HLSL `for (init; cond; step) body`: write the init before the call, then
/// for_([&] { return cond; }, [&] { step; }, [&] { body });
template <class Cond, class Step, class Body>
void for_(Cond&& cond, Step&& step, Body&& body) {
  constexpr int N = detail::CondOf<decltype(cond())>::kSize;
  detail::RunLoop<N>(cond, step, body, /*test_first=*/true);
}

// ------------------------------ break_ / continue_ / return_ / function_

/// HLSL `break;`: the calling threads leave the innermost loop or switch_; the rest of the body
/// runs without them and they rejoin after the construct.
inline void break_() { CurrentGroupBase("break_()").Break(); }

/// HLSL `continue;`: the calling threads skip to the loop's next iteration.
inline void continue_() { CurrentGroupBase("continue_()").Continue(); }

/// HLSL `return;`: the calling threads leave the innermost function_ (for the entry point: for
/// good) and rejoin after the call.
inline void return_() { CurrentGroupBase("return_()").Return(); }

/// HLSL `return value;` in a function_ with a result: sets `result` on the calling threads.
template <class R, class V>
void return_(R& result, const V& value) {
  result = value;
  return_();
}

/// The body of an HLSL function called from a kernel: threads that return_ inside it rejoin the
/// caller's threads when it ends (a function return is a reconvergence point).
template <class F>
void function_(F&& body) {
  GroupBase& g = CurrentGroupBase("function_()");
  g.EnterFunction();
  body();
  g.LeaveFunction();
}

// ------------------------------ switch_ / case_ / default_

template <class T, class F>
struct SwitchCase {
  std::vector<T> values;  // empty for default_
  bool is_default;
  F body;
};

/// HLSL `case v:` (several labels on one block: case_({1, 2}, ...)). Bodies fall through into
/// the next case unless they call break_(), exactly as in HLSL.
template <class T, class F>
SwitchCase<T, F> case_(T value, F body) {
  return {{value}, false, std::move(body)};
}
template <class T, class F>
SwitchCase<T, F> case_(std::initializer_list<T> values, F body) {
  return {std::vector<T>(values), false, std::move(body)};
}
/// HLSL `default:`.
template <class F>
SwitchCase<void*, F> default_(F body) {
  return {{}, true, std::move(body)};
}

/// HLSL `switch (selector) { ... }`: one group of threads per branch target (the DXIL rule);
/// threads falling through a case join the next case's threads.
template <class T, int N, class... Cases>
void switch_(const Lanes<T, N>& selector, Cases&&... cases) {
  GroupState<N>& s = CurrentGroup<N>();
  const Mask<N> entry = s.active();
  Mask<N> matched;
  auto target = [&](const auto& c) {
    Mask<N> m;
    if (!c.is_default)
      for (const auto& v : c.values) m |= (selector == Lanes<T, N>(v)).mask();
    return m;
  };
  std::array<Mask<N>, sizeof...(Cases)> targets = {target(cases)...};
  for (const Mask<N>& m : targets) matched |= m;
  int k = 0;
  ((targets[k] = cases.is_default ? AndNot(entry, matched) : entry & targets[k], ++k), ...);

  s.PushFrame(FrameKind::kSwitch);
  Mask<N> falling;
  k = 0;
  auto run = [&](auto& c) {
    const Mask<N> m = AndNot(targets[k++] | falling, s.escaped());
    falling = Mask<N>();
    if (m.Empty()) return;
    s.set_active(m);
    c.body();
    falling = s.active();
  };
  (run(cases), ...);
  s.PopFrame();
  s.set_active(s.Reconverge(entry));
}

}  // namespace waveemu
