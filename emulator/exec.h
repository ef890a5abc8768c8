// exec.h -- the execution state of one thread group running in lockstep.
//
// A kernel's main() runs once per group, over all its threads at once. GroupState<N> holds what
// decides which threads a statement touches: the current execution mask, the helper mask, and a
// stack of control-flow frames (function, loop, switch) that remember which threads left through
// return_, break_ or continue_ and where they rejoin. Dispatch installs the state in a
// thread-local slot; Lanes assignment, resources and intrinsics read it from there.
// Helper lanes (pixel shaders, emulator/pixel.h) stay in the execution mask, so locals keep
// computing for quad reads and derivatives; write_active() drops them for side effects.
#pragma once

#include "emulator/error.h"
#include "emulator/mask.h"
#include "emulator/profile.h"

#include <array>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <string>
#include <utility>

namespace waveemu {

/// A vector component index past the last component. HLSL rejects a constant one and leaves a
/// dynamic one undefined; waveemu stops the kernel. `what` names the vector ("vector",
/// "element"); the message names the running group (defined after GroupBase).
/// `thread` >= 0: the index is per-thread, and that thread's was out of range. The index keeps
/// its own type, so that no conversion hides a bad one (2^32 + 1 is not 1).
template <std::integral I>
[[noreturn, gnu::cold]] void ThrowComponentIndex(I i, int components, const char* what,
                                                 int thread = -1);
template <std::integral I>
constexpr void CheckComponentIndex(I i, int components, const char* what = "vector") {
  if (std::cmp_less(i, 0) || std::cmp_greater_equal(i, components)) [[unlikely]]
    ThrowComponentIndex(i, components, what);
}

namespace detail {
/// Component k of a uniform vector of 2 to 4 components (uint3, float4, a struct {T x, y, z;}),
/// by its member names; k is in range.
template <class E>
constexpr auto& ShortVectorComponent(E& e, int k) {
  if constexpr (requires { e.w; }) return k == 0 ? e.x : k == 1 ? e.y : k == 2 ? e.z : e.w;
  else if constexpr (requires { e.z; }) return k == 0 ? e.x : k == 1 ? e.y : e.z;
  else return k == 0 ? e.x : e.y;
}
}  // namespace detail

/// HLSL's u[i] on a uniform vector of C components of type T named x, y[, z[, w]] (uint3,
/// UniformVector2/3/4): checked, then by member name.
#define WAVEEMU_UNIFORM_VECTOR_SUBSCRIPT(T, C)       \
  template <std::integral I>                        \
  constexpr T& operator[](I i) {                    \
    CheckComponentIndex(i, C);                      \
    return detail::ShortVectorComponent(*this, i);  \
  }                                                 \
  template <std::integral I>                        \
  constexpr const T& operator[](I i) const {        \
    CheckComponentIndex(i, C);                      \
    return detail::ShortVectorComponent(*this, i);  \
  }

// Uniform vectors: one value for the whole group (constants, SV_GroupID, buffer elements). Plain
// aggregates, so float3{1, 2, 3} and buffers of them work as in HLSL; their arithmetic and math
// are in vector.h and math.h.
template <class T>
struct UniformVector2 {
  T x = 0, y = 0;
  WAVEEMU_UNIFORM_VECTOR_SUBSCRIPT(T, 2)
  friend constexpr bool operator==(const UniformVector2&, const UniformVector2&) = default;
};
template <class T>
struct UniformVector3 {
  T x = 0, y = 0, z = 0;
  WAVEEMU_UNIFORM_VECTOR_SUBSCRIPT(T, 3)
  friend constexpr bool operator==(const UniformVector3&, const UniformVector3&) = default;
};
template <class T>
struct UniformVector4 {
  T x = 0, y = 0, z = 0, w = 0;
  WAVEEMU_UNIFORM_VECTOR_SUBSCRIPT(T, 4)
  friend constexpr bool operator==(const UniformVector4&, const UniformVector4&) = default;
};

using uint3 = UniformVector3<uint32_t>;

/// Per-dispatch data every group of a dispatch shares: out-of-bounds counters and the
/// diagnostic log.
struct DispatchShared {
  DiagnosticLog diagnostics;
  std::atomic<uint64_t> out_of_bounds_reads{0};
  std::atomic<uint64_t> out_of_bounds_writes{0};
  std::atomic<uint64_t> out_of_bounds_atomics{0};
};

namespace detail {
class GroupsInFlight;  // groups_in_flight.h: one worker's groups, each on its own fiber
}  // namespace detail

enum class FrameKind : uint8_t { kFunction, kLoop, kSwitch };

/// One open control-flow construct. `left` holds threads that left it early and rejoin at its
/// end (break_ for loops and switches, return_ for functions); `continued` holds threads waiting
/// at a loop's continue target.
template <int N>
struct Frame {
  FrameKind kind;
  Mask<N> left;
  Mask<N> continued;
};

/// What control flow without a per-thread argument needs (break_, continue_, return_, function_,
/// barriers, WaveGetLaneCount): the group running on this OS thread, whatever its size.
class GroupBase {
 public:
  virtual ~GroupBase() = default;
  virtual void Break() = 0;
  virtual void Continue() = 0;
  virtual void Return() = 0;
  virtual void EnterFunction() = 0;
  virtual void LeaveFunction() = 0;
  /// Whether any thread is active (a construct no thread reaches does not run).
  virtual bool AnyActive() const = 0;
  /// How many threads are active (helpers included), for operations without a per-thread
  /// argument that act once per active thread (an Interlocked* whose arguments are all uniform).
  virtual int ActiveCount() const = 0;
  /// How many threads are active and not helpers: those whose atomics take effect.
  virtual int WriteActiveCount() const = 0;
  /// The lowest active thread (helpers included; with `write`, not), or -1 when there is none.
  virtual int FirstActive(bool write) const = 0;
  /// Checks that every thread of the group reaches a barrier together.
  virtual void Barrier(const char* name) = 0;
  virtual int wave_size() const = 0;
  /// Not virtual: per-thread float operations read it on every call (FloatArithmetic).
  const DeviceProfile& profile() const { return *profile_; }
  virtual DispatchShared* shared() const = 0;
  /// Records an undefined point the kernel reached (see DiagnosticLog).
  virtual void Report(std::string rule, std::string details) const = 0;
  virtual std::string Where() const = 0;
  /// Installs this group as the one running on this OS thread (a fiber that Dispatch resumes
  /// takes its group back with it).
  virtual void MakeCurrent() = 0;

  /// Set while Dispatch keeps this worker's groups in flight (DispatchOptions::groups_in_flight):
  /// device InterlockedAdds on one element then wait for the worker's other groups and go out
  /// as one fetch_add. nullptr: every atomic goes to memory at once.
  detail::GroupsInFlight* in_flight = nullptr;

  static GroupBase*& Current() {
    static thread_local GroupBase* current = nullptr;
    return current;
  }

 protected:
  explicit GroupBase(const DeviceProfile& profile) : profile_(&profile) {}

 private:
  const DeviceProfile* profile_;
};

template <std::integral I>
[[noreturn, gnu::cold]] void ThrowComponentIndex(I i, int components, const char* what,
                                                 int thread) {
  const GroupBase* g = GroupBase::Current();
  throw KernelError(fmt::format("vector component index {} is out of range: the {} has {} "
                                "components (0 to {}), {}{}",
                                i, what, components, components - 1,
                                g ? g->Where() : std::string("outside a dispatch"),
                                thread >= 0 ? fmt::format(", thread {}", thread) : ""));
}

inline GroupBase& CurrentGroupBase(const char* what) {
  GroupBase* g = GroupBase::Current();
  if (!g)
    throw UsageError(fmt::format("{} works only inside a kernel run by Dispatch (or RunGroup in "
                                 "tests)",
                                 what));
  return *g;
}

template <int N>
class GroupState final : public GroupBase {
 public:
  static constexpr int kMaxDepth = 64;

  /// Keeps a pointer to `profile`, which must outlive the state (a temporary would not).
  GroupState(int wave_size, const DeviceProfile& profile, uint3 group_id, DispatchShared* shared)
      : GroupBase(profile), wave_size_(wave_size), shared_(shared) {
    Reset(group_id);
  }
  GroupState(int, DeviceProfile&&, uint3, DispatchShared*) = delete;

  /// Starts the next group: all threads active, no open construct. Dispatch reuses one state
  /// for the groups one worker runs, and calls this also after a group threw, so nothing a
  /// half-finished construct left behind (frames, masks) reaches the next group.
  void Reset(uint3 group_id) {
    group_id_ = group_id;
    active_ = Mask<N>::All();
    helper_ = Mask<N>();
    depth_ = 0;
    function_depth_ = 0;
    PushFrame(FrameKind::kFunction);  // the entry point: its return_ ends a thread for good
  }

  // ------------------------------ control flow without a per-thread argument
  // Reconvergence needs no search: a construct remembers which threads it started with, and
  // every thread that leaves early is recorded in exactly one frame (the construct it rejoins
  // after). So each operation below touches one frame and the current mask, nothing else.
  void Break() override {
    Frame<N>* f = Innermost(/*loop=*/true, /*sw=*/true);
    if (!f)
      throw KernelError(fmt::format(
          "break_() outside a loop or switch_: HLSL `break` leaves the innermost loop or switch "
          "of the current function (a function_ body ends the search); a plain C++ for or "
          "while is not one: a loop that threads may leave at different times is for_ or "
          "while_, {}",
          Where()));
    f->left |= active_;
    active_ = Mask<N>();
  }
  void Continue() override {
    Frame<N>* f = Innermost(/*loop=*/true, /*sw=*/false);
    if (!f)
      throw KernelError(fmt::format(
          "continue_() outside a loop: HLSL `continue` goes to the next iteration of the "
          "innermost loop of the current function (a switch_ alone is not enough); a plain C++ "
          "for or while is not one: write for_ or while_, {}",
          Where()));
    f->continued |= active_;
    active_ = Mask<N>();
  }
  void Return() override {
    InnermostFunction().left |= active_;
    active_ = Mask<N>();
  }
  void EnterFunction() override {
    if (function_depth_ == kMaxDepth)
      throw KernelError(fmt::format("function_ calls nested deeper than {} levels, {}",
                                    kMaxDepth, Where()));
    function_entry_[function_depth_++] = active_;
    PushFrame(FrameKind::kFunction);
  }
  /// Every thread that called the function is back after it: return_ is the only way out of
  /// a function, and it rejoins here.
  void LeaveFunction() override {
    PopFrame();
    active_ = function_entry_[--function_depth_];
  }
  /// A barrier no thread reaches (every thread left the body through break_, continue_ or
  /// return_) is not executed at all, as in HLSL; one that some but not all threads reach is
  /// undefined in HLSL (D3D11.3 §18.6.7: no barrier in divergent flow control) and an error here.
  void Barrier(const char* name) override {
    if (active_.Empty() || active_.IsAll()) return;
    const int returned = frames_[0].left.Count();
    throw KernelError(fmt::format(
        "{}: reached by {} of the group's {} threads ({} returned from the kernel, {} off in "
        "divergent control flow); a group barrier must be reached by every thread of the group "
        "together (group-uniform control flow, no early return_), HLSL leaves anything else "
        "undefined; first thread missing: {}, {}",
        name, active_.Count(), N, returned, N - active_.Count() - returned,
        AndNot(Mask<N>::All(), active_).First(), Where()));
  }

  // ------------------------------ masks
  bool AnyActive() const override { return active_.Any(); }
  int ActiveCount() const override { return active_.Count(); }
  int WriteActiveCount() const override { return write_active().Count(); }
  int FirstActive(bool write) const override {
    return write ? write_active().First() : active_.First();
  }
  const Mask<N>& active() const { return active_; }
  void set_active(const Mask<N>& m) { active_ = m; }
  const Mask<N>& helper() const { return helper_; }
  void set_helper(const Mask<N>& m) { helper_ = m; }
  /// Threads wave ops see: active and, unless [WaveOpsIncludeHelperLanes], not helpers.
  Mask<N> wave_active() const {
    return include_helpers_in_wave_ops_ ? active_ : AndNot(active_, helper_);
  }
  void set_include_helpers_in_wave_ops(bool on) { include_helpers_in_wave_ops_ = on; }
  bool include_helpers_in_wave_ops() const { return include_helpers_in_wave_ops_; }
  /// Threads whose side effects happen: active and not helpers. Resource stores, atomics and
  /// render-target writes use it (D3D11.3 §16.13: helper writes have no effect); Lanes
  /// assignment does not, since a helper's locals must keep changing for its quad's
  /// derivatives and quad reads.
  Mask<N> write_active() const { return AndNot(active_, helper_); }
  /// Pixel shaders only: discard demotes to helper, IsHelperLane can be true (set by the pixel
  /// dispatch; compute groups leave it off and discard is an error there).
  bool pixel_shader() const { return pixel_shader_; }
  void set_pixel_shader(bool on) { pixel_shader_ = on; }
  /// Thread of quad index i (0..3: (0,0) (1,0) (0,1) (1,1)) in thread t's quad, or -1 when the
  /// group has no such thread. Quads are threads 4k..4k+3 (lanes 4k..4k+3 of a wave): pixel
  /// quads, and both SM 6.6 compute layouts (Dispatch numbers 2-D layouts in quad order).
  int QuadMember(int t, int i) const {
    const int m = (t & ~3) + i;
    return m < N ? m : -1;
  }
  /// Threads that returned from the kernel: off for the rest of the group.
  const Mask<N>& returned() const { return frames_[0].left; }
  /// Threads that left the innermost function (through any construct) and are not back yet.
  /// The control-flow constructs do not need it (they reconverge from masks they keep); it is
  /// here for tests and tools. Walks the open frames of the current function.
  Mask<N> escaped() const {
    Mask<N> m;
    for (int d = depth_ - 1; d >= 0; --d) {
      m |= frames_[d].left;
      m |= frames_[d].continued;
      if (frames_[d].kind == FrameKind::kFunction) break;
    }
    return m;
  }

  // ------------------------------ frames
  void PushFrame(FrameKind kind) {
    if (depth_ == kMaxDepth)
      throw KernelError(
          fmt::format("control flow nested deeper than {} levels, {}", kMaxDepth, Where()));
    Frame<N>& f = frames_[depth_++];
    f.kind = kind;
    f.left = Mask<N>();
    f.continued = Mask<N>();
  }
  Frame<N> PopFrame() { return frames_[--depth_]; }
  Frame<N>& top() { return frames_[depth_ - 1]; }
  int depth() const { return depth_; }
  /// Innermost frame of one of the given kinds inside the current function, or nullptr.
  Frame<N>* Innermost(bool loop, bool sw) {
    for (int d = depth_ - 1; d >= 0; --d) {
      FrameKind k = frames_[d].kind;
      if ((loop && k == FrameKind::kLoop) || (sw && k == FrameKind::kSwitch)) return &frames_[d];
      if (k == FrameKind::kFunction) return nullptr;
    }
    return nullptr;
  }
  Frame<N>& InnermostFunction() {
    for (int d = depth_ - 1; d >= 0; --d)
      if (frames_[d].kind == FrameKind::kFunction) return frames_[d];
    return frames_[0];
  }

  // ------------------------------ waves
  int wave_size() const override { return wave_size_; }
  int wave_count() const { return (N + wave_size_ - 1) / wave_size_; }
  uint3 group_id() const { return group_id_; }
  DispatchShared* shared() const override { return shared_; }

  void Report(std::string rule, std::string details) const override {
    if (shared_) shared_->diagnostics.Add(std::move(rule), std::move(details));
  }
  std::string Where() const override {
    return fmt::format("group ({},{},{})", group_id_.x, group_id_.y, group_id_.z);
  }
  void MakeCurrent() override {
    Current() = this;
    GroupBase::Current() = this;
  }

  /// The state of the group running on this thread, or nullptr outside a dispatch.
  static GroupState*& Current() {
    static thread_local GroupState* current = nullptr;
    return current;
  }

 private:
  Mask<N> active_;
  Mask<N> helper_;
  bool include_helpers_in_wave_ops_ = false;
  bool pixel_shader_ = false;
  int wave_size_;
  DispatchShared* shared_;
  uint3 group_id_;
  // Only frames_[0, depth_) and function_entry_[0, function_depth_) are meaningful; PushFrame
  // and EnterFunction write an entry before it is read, so Reset clears nothing here. The
  // depths come before the arrays, next to the masks: every group's Reset writes them, and
  // after the arrays they cost two more cache lines per group.
  int depth_ = 0;
  int function_depth_ = 0;
  std::array<Frame<N>, kMaxDepth> frames_;
  std::array<Mask<N>, kMaxDepth> function_entry_;
};

/// Puts back, at the end of its scope, the group states installed on this thread at its start
/// (Dispatch's groups in flight each install their own while they run).
template <int N>
class KeepCurrentGroup {
 public:
  KeepCurrentGroup() = default;
  ~KeepCurrentGroup() {
    GroupState<N>::Current() = typed_;
    GroupBase::Current() = base_;
  }
  KeepCurrentGroup(const KeepCurrentGroup&) = delete;
  KeepCurrentGroup& operator=(const KeepCurrentGroup&) = delete;

 private:
  GroupState<N>* typed_ = GroupState<N>::Current();
  GroupBase* base_ = GroupBase::Current();
};

/// Installs a group state as current for its scope (Dispatch and the test helpers use it).
template <int N>
class ScopedGroup {
 public:
  explicit ScopedGroup(GroupState<N>& state) { state.MakeCurrent(); }  // after keep_ saved

 private:
  KeepCurrentGroup<N> keep_;
};

namespace detail {
/// CurrentGroup's error, out of line: with the message built inline CurrentGroup was too big to
/// inline, and each intrinsic paid a call, which also spills every live vector register.
template <int N>
[[noreturn, gnu::noinline, gnu::cold]] void ThrowNoGroup() {
  throw UsageError(fmt::format(
      "no thread group of {} threads is running: wave intrinsics and control flow work only "
      "inside Dispatch (or RunGroup in tests)",
      N));
}
}  // namespace detail

/// The current group state; a UsageError when called outside a dispatch.
template <int N>
[[gnu::always_inline]] inline GroupState<N>& CurrentGroup() {
  GroupState<N>* s = GroupState<N>::Current();
  if (!s) [[unlikely]] detail::ThrowNoGroup<N>();
  return *s;
}

/// The execution mask assignments obey: the current one, or all threads outside a dispatch.
/// Helper lanes are in it (their locals keep computing); side effects use CurrentWriteMask.
template <int N>
Mask<N> CurrentMask() {
  GroupState<N>* s = GroupState<N>::Current();
  return s ? s->active() : Mask<N>::All();
}

/// The threads whose stores and atomics take effect: the current mask less helper lanes, or
/// all threads outside a dispatch. Equal to CurrentMask outside pixel shaders.
template <int N>
Mask<N> CurrentWriteMask() {
  GroupState<N>* s = GroupState<N>::Current();
  return s ? s->write_active() : Mask<N>::All();
}

}  // namespace waveemu
