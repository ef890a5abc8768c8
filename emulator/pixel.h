// pixel.h -- pixel-shader dispatch: runs a kernel once per 2x2 quad of covered pixels, with helper
// lanes for the uncovered members of a partly covered quad, SV_Position and SV_Target.
//
// Quads are aligned to even coordinates: quad (qx, qy) holds pixels (2qx..2qx+1, 2qy..2qy+1).
// Quads with at least one covered pixel are launched, N/4 per group, packed as
// PixelDispatchOptions::packing says (row-major by default; lavapipe's aligned runs of a quad
// row as an option); thread t of a group is quad slot t/4 of it, pixel (2qx + (t&1),
// 2qy + ((t>>1)&1)), so QuadReadAcrossX is t^1, AcrossY t^2, Diagonal t^3. Lane = t % W as in
// compute (W divides N, so quads never straddle waves; W = N by default: one wave per group).
// Empty slots are inactive (never launched). See docs/execution_model.md "Pixel quads and
// helper lanes".
#pragma once

#include "emulator/dispatch.h"
#include "emulator/exec.h"
#include "emulator/profile.h"
#include "emulator/rasterizer.h"
#include "emulator/streaming_stores.h"
#include "emulator/vector.h"

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace waveemu {

/// SV_Position: the pixel centre (x + 0.5, y + 0.5), z = 0, w = 1 (waveemu interpolates no
/// depth). Helper lanes get their own pixel's centre, also outside the target.
template <int N>
struct SV_Position : Float4<N> {};

/// SV_Target (render target 0): main() takes it by reference and assigns it. Only threads that
/// end main() as non-helpers write it back (helper writes have no effect). A shader that leaves
/// it unassigned writes an undefined colour in D3D; waveemu starts it as the target's current
/// value, so there the pixel keeps its value (its choice for an undefined output, not a rule).
template <int N>
struct SV_Target : Float4<N> {
  using Float4<N>::operator=;
};

/// A width x height float4 colour target (row-major), at least 1 x 1 (Coverage::CheckedSize).
class RenderTarget {
 public:
  RenderTarget() = default;  // 0 x 0: a placeholder to assign to; DrawTriangles refuses it
  RenderTarget(int w, int h, float4 clear = {})
      : width_(Coverage::CheckedSize("RenderTarget", w, h)), height_(h) {
    texels_.assign(size_t(w) * size_t(h), clear);
  }
  int width() const { return width_; }
  int height() const { return height_; }
  /// The texel at (x, y); a UsageError outside the target (a wrong x would hit another row).
  float4& at(int x, int y) { return texels_[Index(x, y)]; }
  const float4& at(int x, int y) const { return texels_[Index(x, y)]; }
  bool operator==(const RenderTarget&) const = default;

 private:
  size_t Index(int x, int y) const {
    if (x < 0 || x >= width_ || y < 0 || y >= height_)
      throw UsageError(fmt::format("RenderTarget::at({}, {}): x must be in 0..{} and y in 0..{} "
                                   "(the target is {} x {} pixels)",
                                   x, y, width_ - 1, height_ - 1, width_, height_));
    return size_t(y) * size_t(width_) + size_t(x);
  }
  int width_ = 0, height_ = 0;
  std::vector<float4> texels_;
};

/// How launched quads fill groups (and so waves). D3D and Vulkan leave it to the driver.
enum class QuadPacking {
  kRowMajor,     // launched quads in row-major order of the quad grid, N/4 per group
  kAlignedRuns,  // group g holds the N/4 quads of one aligned run of a quad row, quads
                 // (k*N/4 .. k*N/4 + N/4-1, qy); runs without a covered pixel are not launched,
                 // quads of a launched run without one are inactive slots. lavapipe at N = W = 8:
                 // 4x2-pixel blocks at x % 4 == 0, y % 2 == 0 (measured, docs/execution_model.md)
};

/// Which pixels a coarse derivative (ddx_coarse, ddy_coarse, and ddx/ddy/fwidth, which waveemu
/// computes coarse) takes. D3D: "up to the hardware vendor", one value per quad or finer.
enum class CoarseDerivatives {
  kQuadCorner,  // the quad's top row (ddx) and left column (ddy): one value per quad
  kAsFine,      // the thread's own row / column, as ddx_fine / ddy_fine (lavapipe, measured)
};

struct PixelDispatchOptions {
  DeviceProfile profile = SpecProfile();
  int wave_size = 0;  // 0: N (one wave per group); else a valid wave size that divides N
  QuadPacking packing = QuadPacking::kRowMajor;
  CoarseDerivatives coarse_derivatives = CoarseDerivatives::kQuadCorner;
  // Nonzero: the kernel's N must equal it (a UsageError otherwise), for option sets that model
  // a driver's waves only at one group size, such as LavapipePixelOptions().
  int required_n = 0;
  const char* required_n_why = "";  // the reason, for the error message
};

/// What lavapipe (Mesa 22.3, wave 8) does with fragment quads, as measured by
/// tests/oracle/test_pixel_lavapipe.cpp: its profile, wave 8, 4x2-pixel waves, coarse = fine.
/// The kernel must have N = 8 (checked): aligned runs are N/4 quads long, so only N = 8 gives
/// lavapipe's 4x2-pixel waves.
inline PixelDispatchOptions LavapipePixelOptions() {
  PixelDispatchOptions o;
  o.profile = LavapipeProfile();
  o.wave_size = 8;
  o.required_n = 8;
  o.required_n_why =
      "LavapipePixelOptions() reproduce lavapipe's waves of one 4x2-pixel block (2 quads), which "
      "the aligned-run packing gives only with N = 8 threads per group";
  o.packing = QuadPacking::kAlignedRuns;
  o.coarse_derivatives = CoarseDerivatives::kAsFine;
  return o;
}

struct PixelDispatchResult : DispatchResult {
  int quads = 0;          // quads launched
  int groups = 0;         // groups run
  int helper_lanes = 0;   // launched lanes that start as helpers (uncovered pixels)
};

/// A pixel kernel: `static constexpr int N` (threads per group, a multiple of 4), an optional
/// `static constexpr bool WaveOpsIncludeHelperLanes = true;` (HLSL [WaveOpsIncludeHelperLanes]),
/// and `void main(...) const` taking any of SV_Position<N> and SV_Target<N>&.
template <class K>
concept PixelKernel = requires {
  { K::N } -> std::convertible_to<int>;
  &K::main;
};

/// One launched quad: its position in the quad grid.
struct QuadCoord {
  int qx = 0, qy = 0;
};

/// True when a pixel of quad (qx, qy) is covered.
inline bool QuadLaunched(const Coverage& coverage, int qx, int qy) {
  bool any = false;
  for (int i = 0; i < 4; ++i) any = any || coverage.Test(2 * qx + (i & 1), 2 * qy + (i >> 1));
  return any;
}

/// The quads a coverage launches, in launch order (row-major over the quad grid).
inline std::vector<QuadCoord> LaunchedQuads(const Coverage& coverage) {
  std::vector<QuadCoord> quads;
  for (int qy = 0; 2 * qy < coverage.height(); ++qy)
    for (int qx = 0; 2 * qx < coverage.width(); ++qx)
      if (QuadLaunched(coverage, qx, qy)) quads.push_back({qx, qy});
  return quads;
}

/// One group's quad slots (slot s = threads 4s..4s+3); an empty slot's threads are inactive.
using QuadGroup = std::vector<std::optional<QuadCoord>>;

/// The groups PixelDispatch runs for `coverage`, `quads_per_group` slots each, in run order.
inline std::vector<QuadGroup> PackQuads(const Coverage& coverage, int quads_per_group,
                                        QuadPacking packing) {
  std::vector<QuadGroup> groups;
  if (packing == QuadPacking::kRowMajor) {
    const std::vector<QuadCoord> quads = LaunchedQuads(coverage);
    for (size_t i = 0; i < quads.size(); ++i) {
      if (i % size_t(quads_per_group) == 0) groups.emplace_back(size_t(quads_per_group));
      groups.back()[i % size_t(quads_per_group)] = quads[i];
    }
    return groups;
  }
  const int quads_x = (coverage.width() + 1) / 2, quads_y = (coverage.height() + 1) / 2;
  for (int qy = 0; qy < quads_y; ++qy)
    for (int run = 0; run * quads_per_group < quads_x; ++run) {
      QuadGroup g(static_cast<size_t>(quads_per_group));
      bool any = false;
      for (int s = 0; s < quads_per_group; ++s) {
        const int qx = run * quads_per_group + s;
        if (qx < quads_x && QuadLaunched(coverage, qx, qy)) {
          g[size_t(s)] = QuadCoord{qx, qy};
          any = true;
        }
      }
      if (any) groups.push_back(std::move(g));
    }
  return groups;
}

namespace detail {

/// The coarse-derivative rule of the pixel dispatch running on this thread (intrinsics/pixel.h
/// reads it); kQuadCorner outside PixelDispatch, e.g. for SM 6.6 compute derivatives.
inline CoarseDerivatives& CurrentCoarseDerivatives() {
  thread_local CoarseDerivatives mode = CoarseDerivatives::kQuadCorner;
  return mode;
}

/// Sets the coarse-derivative rule for one dispatch and restores the previous one.
class ScopedCoarseDerivatives {
 public:
  explicit ScopedCoarseDerivatives(CoarseDerivatives mode)
      : saved_(CurrentCoarseDerivatives()) {
    CurrentCoarseDerivatives() = mode;
  }
  ~ScopedCoarseDerivatives() { CurrentCoarseDerivatives() = saved_; }
  ScopedCoarseDerivatives(const ScopedCoarseDerivatives&) = delete;
  ScopedCoarseDerivatives& operator=(const ScopedCoarseDerivatives&) = delete;

 private:
  CoarseDerivatives saved_;
};

template <class K>
constexpr bool KernelIncludesHelperLanes() {
  if constexpr (requires { K::WaveOpsIncludeHelperLanes; })
    return bool(K::WaveOpsIncludeHelperLanes);
  else
    return false;
}

template <class K, int N, class... Args>
void InvokePixelMain(const K& kernel, void (K::*)(Args...) const, SV_Position<N>& position,
                     SV_Target<N>& target) {
  auto pick = [&]<class A>() -> auto& {
    using P = std::remove_cvref_t<A>;
    if constexpr (std::is_same_v<P, SV_Position<N>>) {
      return position;
    } else if constexpr (std::is_same_v<P, SV_Target<N>>) {
      static_assert(std::is_lvalue_reference_v<A> && !std::is_const_v<std::remove_reference_t<A>>,
                    "take SV_Target<N> by reference (SV_Target<N>& target) and assign it");
      return target;
    } else {
      static_assert(kDependentFalse<P>,
                    "pixel main() parameters must be SV_Position<N> or SV_Target<N>&, with N "
                    "= the kernel's threads per group");
      return position;
    }
  };
  kernel.main(pick.template operator()<Args>()...);
}

}  // namespace detail

/// Runs `kernel` once per group of N/4 launched quads of `coverage`, in launch order on the
/// calling thread (deterministic). SV_Target writes of non-helper threads go to `target` when
/// given (it must be at least as large as the coverage).
template <PixelKernel K>
PixelDispatchResult PixelDispatch(const K& kernel, const Coverage& coverage,
                                  RenderTarget* target = nullptr,
                                  const PixelDispatchOptions& options = {}) {
  constexpr int N = K::N;
  static_assert(N >= 4 && N % 4 == 0 && N <= kMaxThreadsPerGroup,
                "a pixel kernel's N (threads per group) must be a multiple of 4, at most 1024");
  if (options.required_n != 0 && options.required_n != N)
    throw UsageError(fmt::format("pixel dispatch: the kernel has N = {}, these options need N = "
                                 "{}: {}",
                                 N, options.required_n, options.required_n_why));
  if (coverage.width() == 0 || coverage.height() == 0)
    throw UsageError("pixel dispatch: the coverage is 0 x 0 (a default-constructed Coverage); "
                     "give it the target's size, at least 1 x 1");
  const int wave_size = options.wave_size ? options.wave_size : (N <= 128 ? N : 128);
  if (!IsValidWaveSize(wave_size) || N % wave_size != 0)
    throw UsageError(fmt::format("pixel dispatch: wave size {} must be one of 4..128 and divide "
                                 "the kernel's N = {} (quads must not straddle waves)",
                                 wave_size, N));
  if (target && (target->width() < coverage.width() || target->height() < coverage.height()))
    throw UsageError(fmt::format("pixel dispatch: render target {} x {} is smaller than the "
                                 "coverage {} x {}",
                                 target->width(), target->height(), coverage.width(),
                                 coverage.height()));
  constexpr int kQuadsPerGroup = N / 4;
  const std::vector<QuadGroup> groups = PackQuads(coverage, kQuadsPerGroup, options.packing);
  DispatchShared shared;
  PixelDispatchResult r;
  detail::ScopedCoarseDerivatives coarse(options.coarse_derivatives);
  GroupState<N> state(wave_size, options.profile, uint3{}, &shared);
  state.set_pixel_shader(true);
  state.set_include_helpers_in_wave_ops(detail::KernelIncludesHelperLanes<K>());
  ScopedGroup<N> scope(state);
  // The groups' streaming stores are fenced when this returns or throws, as ParallelForGroups's.
  const detail::StreamingStoreFence fence;
  for (size_t group = 0; group < groups.size(); ++group) {
    Mask<N> launched, helper;
    SV_Position<N> position;
    position.x = Float<N>(0.0f);
    position.y = Float<N>(0.0f);
    position.z = Float<N>(0.0f);
    position.w = Float<N>(1.0f);
    SV_Target<N> out;
    std::array<int, N> px{}, py{};
    for (int t = 0; t < N; ++t) {
      const std::optional<QuadCoord>& q = groups[group][size_t(t / 4)];
      if (!q) continue;
      px[t] = 2 * q->qx + (t & 1);
      py[t] = 2 * q->qy + ((t >> 1) & 1);
      launched.Set(t, true);
      helper.Set(t, !coverage.Test(px[t], py[t]));
      position.x.set_lane(t, float(px[t]) + 0.5f);
      position.y.set_lane(t, float(py[t]) + 0.5f);
      if (target && px[t] < target->width() && py[t] < target->height()) {
        const float4 v = target->at(px[t], py[t]);
        out.x.set_lane(t, v.x);
        out.y.set_lane(t, v.y);
        out.z.set_lane(t, v.z);
        out.w.set_lane(t, v.w);
      }
    }
    r.quads += launched.Count() / 4;
    r.helper_lanes += helper.Count();
    state.Reset(uint3{uint32_t(group), 0, 0});
    state.set_active(launched);
    state.set_helper(helper);
    detail::InvokePixelMain(kernel, &K::main, position, out);
    if (target)
      AndNot(launched, state.helper()).ForEach([&](int t) {
        target->at(px[t], py[t]) = float4{out.x.lane(t), out.y.lane(t), out.z.lane(t),
                                          out.w.lane(t)};
      });
    ++r.groups;
  }
  r.wave_size = wave_size;
  r.profile = options.profile.name;
  r.diagnostic_count = shared.diagnostics.count();
  r.diagnostics = shared.diagnostics.kept();
  r.out_of_bounds_reads = shared.out_of_bounds_reads.load();
  r.out_of_bounds_writes = shared.out_of_bounds_writes.load();
  r.out_of_bounds_atomics = shared.out_of_bounds_atomics.load();
  return r;
}

/// Draws `triangles` in order onto `target`: each is rasterized (top-left rule) and dispatched
/// on its own, as D3D and Vulkan shade each primitive with its own quads, so a pixel of a quad
/// that another triangle covers is a helper here, and a later triangle's target writes land
/// after an earlier one's. The result adds up the dispatches.
template <PixelKernel K>
PixelDispatchResult DrawTriangles(const K& kernel, std::span<const Triangle> triangles,
                                  RenderTarget& target, const PixelDispatchOptions& options = {}) {
  if (target.width() == 0 || target.height() == 0)
    throw UsageError("DrawTriangles: the render target is 0 x 0 (a default-constructed "
                     "RenderTarget); give it a size of at least 1 x 1");
  PixelDispatchResult total;
  total.wave_size = options.wave_size ? options.wave_size : (K::N <= 128 ? K::N : 128);
  total.profile = options.profile.name;
  for (const Triangle& triangle : triangles) {
    PixelDispatchResult r = PixelDispatch(
        kernel, Rasterize(std::span<const Triangle>(&triangle, 1), target.width(), target.height()),
        &target, options);
    total.quads += r.quads;
    total.groups += r.groups;
    total.helper_lanes += r.helper_lanes;
    total.diagnostic_count += r.diagnostic_count;
    for (Diagnostic& d : r.diagnostics)
      if (total.diagnostics.size() < DiagnosticLog::kMaxKept) total.diagnostics.push_back(d);
    total.out_of_bounds_reads += r.out_of_bounds_reads;
    total.out_of_bounds_writes += r.out_of_bounds_writes;
    total.out_of_bounds_atomics += r.out_of_bounds_atomics;
  }
  return total;
}

}  // namespace waveemu
