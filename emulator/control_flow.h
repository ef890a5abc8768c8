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

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace waveemu {

namespace detail {

template <class>
inline constexpr bool kNotACondition = false;

template <class C>
struct CondTraits {
  static_assert(kNotACondition<C>,
                "if_/else_if_/while_/do_while_/for_: the condition must be per-thread "
                "(Bool<N>, a Lanes value such as Uint<N>, or a lambda returning one); for a value "
                "that is the same on every thread (bool, uint32_t) write a plain C++ if/while, "
                "unless the body has break_/continue_/return_: then make it per-thread, as in "
                "while_([] { return Bool<N>(true); }, ...) for HLSL's while (true)");
  static constexpr int kSize = 1;
};
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

/// A condition is a per-thread value or a lambda returning one (evaluated where HLSL evaluates
/// it, under the mask of the threads that reach it).
template <class C>
struct CondResult {
  using type = std::remove_cvref_t<C>;
};
template <class C>
  requires std::is_invocable_v<C&>
struct CondResult<C> {
  using type = std::remove_cvref_t<std::invoke_result_t<C&>>;
};
/// Types derived from Lanes (SV_GroupIndex<N>, ...) are conditions as their Lanes base.
template <class T, int N>
Lanes<T, N> AsLanes(const Lanes<T, N>&);  // declaration only: used in decltype
template <class C>
struct CondBase {
  using type = C;
};
template <class C>
  requires requires(const C& c) { AsLanes(c); }
struct CondBase<C> {
  using type = decltype(AsLanes(std::declval<const C&>()));
};
template <class C>
using CondOf = CondTraits<typename CondBase<typename CondResult<C>::type>::type>;

template <class C>
decltype(auto) Evaluate(C&& c) {
  if constexpr (std::is_invocable_v<C&>) return c();
  else return std::forward<C>(c);
}

/// The threads of the current mask for which `cond` holds, with `cond` evaluated under it.
template <int N, class C>
HWY_INLINE Mask<N> TakenBy(GroupState<N>& s, C&& cond) {
  return s.active() & CondOf<C>::ToMask(Evaluate(cond));
}

/// Runs `body` with the mask narrowed to `m` (a subset of the current mask), unless `m` is
/// empty; then rejoins the threads outside `m` with those of `m` still active at the end of the
/// body. Threads outside `m` did not run it, so they cannot have left; threads of `m` that left
/// (break_, continue_, return_) are recorded in the frame they rejoin at, and a body never
/// re-admits a thread outside its own mask. So this is exact, and costs a few word operations.
template <int N, class F>
HWY_INLINE void RunMasked(GroupState<N>& s, const Mask<N>& m, F&& body) {
  if (m.Empty()) return;
  const Mask<N> outside = AndNot(s.active(), m);
  s.set_active(m);
  body();
  s.set_active(outside | s.active());
}

}  // namespace detail

// ------------------------------ if_ / else_if_ / else_

/// The tail of an if_: the threads of the if's entry mask that no branch has taken yet.
/// Not [[nodiscard]]: most if_ statements have no else.
template <int N>
class IfChain {
 public:
  explicit IfChain(const Mask<N>& rest) : rest_(rest) {}

  /// HLSL `else { ... }`.
  template <class F>
  void else_(F&& body) const {
    GroupState<N>& s = CurrentGroup<N>();
    detail::RunMasked(s, rest_ & s.active(), body);
  }
  /// HLSL `else if (cond) { ... }`. `cond` may be a lambda, so that a wave op in it runs with
  /// just the threads that reach the else, as in HLSL; no thread reaching it, no evaluation.
  template <class C, class F>
  IfChain else_if_(C&& cond, F&& body) const {
    static_assert(detail::CondOf<C>::kSize == N,
                  "else_if_: the condition must have as many threads as the if_ it continues");
    GroupState<N>& s = CurrentGroup<N>();
    const Mask<N> reach = rest_ & s.active();
    if (reach.Empty()) return IfChain(reach);
    const Mask<N> entry = s.active();
    s.set_active(reach);
    const Mask<N> taken = detail::TakenBy(s, cond);
    s.set_active(entry);
    detail::RunMasked(s, taken, body);
    return IfChain(AndNot(reach, taken));
  }

 private:
  Mask<N> rest_;
};

/// HLSL `if (cond) { body }` for a per-thread condition (Bool<N>, any Lanes: nonzero is true, or
/// a lambda returning one). For a value that is the same on every thread, plain C++ `if` is right.
template <class C, class F, int N = detail::CondOf<C>::kSize>
HWY_INLINE IfChain<N> if_(C&& cond, F&& body) {
  GroupState<N>& s = CurrentGroup<N>();
  const Mask<N> taken = detail::TakenBy(s, cond);
  const Mask<N> rest = AndNot(s.active(), taken);
  detail::RunMasked(s, taken, body);
  return IfChain<N>(rest);
}

// ------------------------------ loops

namespace detail {

/// One loop. Each iteration runs with the threads still in it: `cond` (a lambda returning a
/// per-thread condition) is evaluated under that mask; threads for which it fails leave; the
/// body runs; threads that called continue_ rejoin at the continue target, where `step` runs.
/// Threads that break_ wait in the loop's frame. After the loop the threads that left through
/// the condition and through break_ are active again (those that return_ed are not).
/// do-while skips the first test.
template <int N, class Cond, class Step, class Body>
void RunLoop(Cond&& cond, Step&& step, Body&& body, bool test_first) {
  GroupState<N>& s = CurrentGroup<N>();
  if (s.active().Empty()) return;  // no thread reaches the loop: nothing of it runs
  Mask<N> exited;                   // threads for which the condition failed
  s.PushFrame(FrameKind::kLoop);
  for (bool first = true;; first = false) {
    if (test_first || !first) {
      const Mask<N> stay = TakenBy(s, cond);
      exited |= AndNot(s.active(), stay);
      s.set_active(stay);
      if (stay.Empty()) break;
    }
    body();
    // Continue target: threads that finished the body and threads that continued meet here.
    Frame<N>& f = s.top();
    s.set_active(s.active() | f.continued);
    f.continued = Mask<N>();
    if (s.active().Empty()) break;
    step();
  }
  s.set_active(exited | s.PopFrame().left);
}

struct NoStep {
  void operator()() const {}
};

}  // namespace detail

/// HLSL `while (cond) body`; `cond` is a lambda so it is re-evaluated every iteration (a wave op
/// in it sees the threads still looping).
template <class Cond, class Body>
void while_(Cond&& cond, Body&& body) {
  constexpr int N = detail::CondOf<Cond>::kSize;
  detail::RunLoop<N>(cond, detail::NoStep{}, body, /*test_first=*/true);
}

/// HLSL `do body while (cond);` (continue_ goes to the condition).
template <class Body, class Cond>
void do_while_(Body&& body, Cond&& cond) {
  constexpr int N = detail::CondOf<Cond>::kSize;
  detail::RunLoop<N>(cond, detail::NoStep{}, body, /*test_first=*/false);
}

/// HLSL `for (init; cond; step) body`: write the init before the call, then
/// for_([&] { return cond; }, [&] { step; }, [&] { body }); the step runs at the continue
/// target, for the threads that finished the body or called continue_.
template <class Cond, class Step, class Body>
void for_(Cond&& cond, Step&& step, Body&& body) {
  constexpr int N = detail::CondOf<Cond>::kSize;
  detail::RunLoop<N>(cond, step, body, /*test_first=*/true);
}

// ------------------------------ break_ / continue_ / return_ / function_

/// HLSL `break;`: the calling threads leave the innermost loop or switch_; the rest of the body
/// runs without them and they rejoin after the construct.
inline void break_() { CurrentGroupBase("break_()").Break(); }

/// HLSL `continue;`: the calling threads skip to the loop's next iteration (its continue target).
inline void continue_() { CurrentGroupBase("continue_()").Continue(); }

/// HLSL `return;`: the calling threads leave the innermost function_ and rejoin after the call;
/// in the kernel's main() they are off for the rest of the group.
inline void return_() { CurrentGroupBase("return_()").Return(); }

/// HLSL `return value;` in a function_ with a result: sets `result` on the calling threads.
template <class R, class V>
void return_(R& result, const V& value) {
  result = value;
  return_();
}

/// The body of an HLSL function called from a kernel: threads that return_ inside it rejoin the
/// caller's threads when it ends (a function return is a reconvergence point). Called by no
/// thread (empty mask), the body does not run.
template <class F>
void function_(F&& body) {
  GroupBase& g = CurrentGroupBase("function_()");
  if (!g.AnyActive()) return;
  g.EnterFunction();
  body();
  g.LeaveFunction();
}

// ------------------------------ switch_ / case_ / default_

/// One `case` block with its K labels.
template <class T, std::size_t K, class F>
struct SwitchCase {
  static constexpr bool kIsDefault = false;
  std::array<T, K> values;
  F body;
};
/// The `default:` block.
template <class F>
struct DefaultCase {
  static constexpr bool kIsDefault = true;
  F body;
};

/// HLSL `case v:`. Bodies fall through into the next case unless they call break_(), exactly
/// as in HLSL.
template <class T, class F>
SwitchCase<T, 1, F> case_(T value, F body) {
  return {{value}, std::move(body)};
}
/// HLSL `case 1: case 2: { ... }` (several labels on one block): case_({1, 2}, body). One branch
/// target, so one group of threads, whatever their selector values.
template <class T, std::size_t K, class F>
SwitchCase<T, K, F> case_(const T (&values)[K], F body) {
  SwitchCase<T, K, F> c{{}, std::move(body)};
  std::copy(values, values + K, c.values.begin());
  return c;
}
/// HLSL `default:`, anywhere among the cases.
template <class F>
DefaultCase<F> default_(F body) {
  return {std::move(body)};
}

namespace detail {
template <class C>
struct IsSwitchCase : std::false_type {};
template <class T, std::size_t K, class F>
struct IsSwitchCase<SwitchCase<T, K, F>> : std::true_type {};
template <class F>
struct IsSwitchCase<DefaultCase<F>> : std::true_type {};
template <class C>
constexpr std::size_t LabelCount() {
  if constexpr (C::kIsDefault) return 0;
  else return std::tuple_size_v<decltype(C::values)>;
}
}  // namespace detail

/// HLSL `switch (selector) { ... }`: one group of threads per branch target (the DXIL rule of
/// hlsl-specs proposal 0050, also for a default reached by several values); threads falling
/// through a case join the next case's threads at its label. A case no thread reaches (by its
/// labels or by falling through) does not run.
template <class T, int N, class... Cases>
void switch_(const Lanes<T, N>& selector, Cases&&... cases) {
  static_assert((detail::IsSwitchCase<std::remove_cvref_t<Cases>>::value && ...),
                "switch_(selector, ...): every argument after the selector must be case_(value, "
                "body), case_({v1, v2}, body) or default_(body)");
  static_assert((int(std::remove_cvref_t<Cases>::kIsDefault) + ... + 0) <= 1,
                "switch_: at most one default_");
  GroupState<N>& s = CurrentGroup<N>();
  const Mask<N> entry = s.active();
  if (entry.Empty()) return;

  // HLSL (as C) rejects a case value given twice; here it would send threads to two targets.
  {
    std::array<T, (detail::LabelCount<std::remove_cvref_t<Cases>>() + ... + 0)> labels{};
    std::size_t n = 0;
    auto collect = [&](const auto& c) {
      if constexpr (!std::remove_cvref_t<decltype(c)>::kIsDefault)
        for (const auto& v : c.values) {
          for (std::size_t i = 0; i < n; ++i)
            if (labels[i] == v)
              throw KernelError(fmt::format("switch_: case value {} appears twice (HLSL rejects "
                                            "duplicate case labels), {}",
                                            v, s.Where()));
          labels[n++] = v;
        }
    };
    (collect(cases), ...);
  }

  // The branch target of each thread: the case with its value, else default_.
  std::array<Mask<N>, sizeof...(Cases)> targets;
  Mask<N> matched;
  {
    std::size_t k = 0;
    auto labels = [&](const auto& c) {
      Mask<N> m;
      if constexpr (!std::remove_cvref_t<decltype(c)>::kIsDefault)
        for (const auto& v : c.values) m |= (selector == Lanes<T, N>(v)).mask();
      m &= entry;
      matched |= m;
      targets[k++] = m;
    };
    (labels(cases), ...);
  }
  const Mask<N> unmatched = AndNot(entry, matched);
  bool has_default = false;
  {
    std::size_t k = 0;
    auto fill_default = [&](const auto& c) {
      if constexpr (std::remove_cvref_t<decltype(c)>::kIsDefault) {
        targets[k] = unmatched;
        has_default = true;
      }
      ++k;
    };
    (fill_default(cases), ...);
  }

  s.PushFrame(FrameKind::kSwitch);
  Mask<N> falling;  // threads that reached the end of the previous case body
  std::size_t k = 0;
  auto run_group = [&](auto& c, const Mask<N>& m) {
    if (m.Empty()) return Mask<N>();
    s.set_active(m);
    c.body();
    return s.active();
  };
  auto run = [&](auto& c) {
    const Mask<N> target = targets[k++];
    if constexpr (std::remove_cvref_t<decltype(c)>::kIsDefault) {
      if (s.profile().switch_default == SwitchDefaultGrouping::kPerValue) {
        // Some drivers (NVIDIA, DESIGN §3) run default once per selector value that reaches it.
        // Threads falling in from the previous case join the first group; every group's
        // survivors fall through together.
        Mask<N> rest = target, out;
        Mask<N> group = falling;
        while (rest.Any()) {
          const T value = selector.lane(rest.First());
          const Mask<N> same = rest & (selector == Lanes<T, N>(value)).mask();
          rest = AndNot(rest, same);
          out |= run_group(c, group | same);
          group = Mask<N>();
        }
        falling = out | run_group(c, group);
        return;
      }
    }
    falling = run_group(c, target | falling);
  };
  (run(cases), ...);
  // After the switch: threads that broke, that fell off the last case, or had no target.
  s.set_active(s.PopFrame().left | falling | (has_default ? Mask<N>() : unmatched));
}

}  // namespace waveemu
