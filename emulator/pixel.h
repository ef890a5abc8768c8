// pixel.h -- pixel-shader dispatch: runs a kernel once per 2x2 quad of covered pixels, with helper
// lanes for the uncovered members of a partly covered quad, SV_Position and SV_Target.
//
// Quads are aligned to even coordinates: quad (qx, qy) holds pixels (2qx..2qx+1, 2qy..2qy+1).
// Quads with at least one covered pixel are launched, in row-major order of the quad grid, N/4
// per group; thread t of a group is quad t/4 of it, pixel (2qx + (t&1), 2qy + ((t>>1)&1)), so
// QuadReadAcrossX is t^1, AcrossY t^2, Diagonal t^3. Lane = t % W as in compute (W divides N, so
// quads never straddle waves; W = N by default: one wave per group). A last group's missing
// quads are inactive (never launched). See docs/execution_model.md "Pixel quads and helper lanes".
#pragma once

#include "emulator/dispatch.h"
#include "emulator/exec.h"
#include "emulator/profile.h"
#include "emulator/rasterizer.h"
#include "emulator/vector.h"

#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace waveemu {

/// SV_Position: the pixel centre (x + 0.5, y + 0.5), z = 0, w = 1 (waveemu interpolates no
/// depth). Helper lanes get their own pixel's centre, also outside the target.
template <int N>
struct SV_Position : Float4<N> {};

/// SV_Target (render target 0): main() takes it by reference and assigns it. It starts as the
/// render target's current value, so a thread that never assigns it leaves its pixel unchanged.
/// Only threads that end main() as non-helpers write it back (helper writes have no effect).
template <int N>
struct SV_Target : Float4<N> {
  using Float4<N>::operator=;
};

/// A width x height float4 colour target (row-major).
struct RenderTarget {
  int width = 0, height = 0;
  std::vector<float4> texels;

  RenderTarget() = default;
  RenderTarget(int w, int h, float4 clear = {})
      : width(w), height(h), texels(size_t(w) * size_t(h), clear) {}
  float4& at(int x, int y) { return texels.at(size_t(y) * width + x); }
  const float4& at(int x, int y) const { return texels.at(size_t(y) * width + x); }
};

struct PixelDispatchOptions {
  DeviceProfile profile = SpecProfile();
  int wave_size = 0;  // 0: N (one wave per group); else a valid wave size that divides N
};

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

/// The quads a coverage launches, in launch order (row-major over the quad grid).
inline std::vector<QuadCoord> LaunchedQuads(const Coverage& coverage) {
  std::vector<QuadCoord> quads;
  for (int qy = 0; 2 * qy < coverage.height; ++qy)
    for (int qx = 0; 2 * qx < coverage.width; ++qx) {
      bool any = false;
      for (int i = 0; i < 4; ++i) any = any || coverage.Test(2 * qx + (i & 1), 2 * qy + (i >> 1));
      if (any) quads.push_back({qx, qy});
    }
  return quads;
}

namespace detail {

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
  const int wave_size = options.wave_size ? options.wave_size : (N <= 128 ? N : 128);
  if (!IsValidWaveSize(wave_size) || N % wave_size != 0)
    throw UsageError(fmt::format("pixel dispatch: wave size {} must be one of 4..128 and divide "
                                 "the kernel's N = {} (quads must not straddle waves)",
                                 wave_size, N));
  if (target && (target->width < coverage.width || target->height < coverage.height))
    throw UsageError(fmt::format("pixel dispatch: render target {} x {} is smaller than the "
                                 "coverage {} x {}",
                                 target->width, target->height, coverage.width, coverage.height));
  const std::vector<QuadCoord> quads = LaunchedQuads(coverage);
  constexpr int kQuadsPerGroup = N / 4;
  DispatchShared shared;
  PixelDispatchResult r;
  GroupState<N> state(wave_size, options.profile, uint3{}, &shared);
  state.set_pixel_shader(true);
  state.set_include_helpers_in_wave_ops(detail::KernelIncludesHelperLanes<K>());
  ScopedGroup<N> scope(state);
  for (size_t first = 0; first < quads.size(); first += kQuadsPerGroup) {
    const int group = int(first / kQuadsPerGroup);
    const int count = int(std::min<size_t>(kQuadsPerGroup, quads.size() - first));
    Mask<N> launched, helper;
    SV_Position<N> position;
    position.x = Float<N>(0.0f);
    position.y = Float<N>(0.0f);
    position.z = Float<N>(0.0f);
    position.w = Float<N>(1.0f);
    SV_Target<N> out;
    std::array<int, N> px{}, py{};
    for (int t = 0; t < 4 * count; ++t) {
      const QuadCoord q = quads[first + t / 4];
      px[t] = 2 * q.qx + (t & 1);
      py[t] = 2 * q.qy + ((t >> 1) & 1);
      launched.Set(t, true);
      helper.Set(t, !coverage.Test(px[t], py[t]));
      position.x.set_lane(t, float(px[t]) + 0.5f);
      position.y.set_lane(t, float(py[t]) + 0.5f);
      if (target && px[t] < target->width && py[t] < target->height) {
        const float4 v = target->at(px[t], py[t]);
        out.x.set_lane(t, v.x);
        out.y.set_lane(t, v.y);
        out.z.set_lane(t, v.z);
        out.w.set_lane(t, v.w);
      }
    }
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
  r.quads = int(quads.size());
  r.wave_size = wave_size;
  r.profile = options.profile.name;
  r.diagnostic_count = shared.diagnostics.count();
  r.diagnostics = shared.diagnostics.kept();
  r.out_of_bounds_reads = shared.out_of_bounds_reads.load();
  r.out_of_bounds_writes = shared.out_of_bounds_writes.load();
  r.out_of_bounds_atomics = shared.out_of_bounds_atomics.load();
  return r;
}

/// Rasterizes `triangles` onto `target` (top-left rule) and runs `kernel` over the coverage.
template <PixelKernel K>
PixelDispatchResult DrawTriangles(const K& kernel, std::span<const Triangle> triangles,
                                  RenderTarget& target, const PixelDispatchOptions& options = {}) {
  return PixelDispatch(kernel, Rasterize(triangles, target.width, target.height), &target,
                       options);
}

}  // namespace waveemu
