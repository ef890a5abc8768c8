// pixel.h -- pixel-shader intrinsics: IsHelperLane (SM 6.6), discard, clip, and the derivatives
// ddx, ddy, ddx_coarse, ddy_coarse, ddx_fine, ddy_fine, fwidth (pixel quads, and the SM 6.6
// compute layouts). A quad is the four threads GroupState::QuadMember names, in quad index order
// 0 = (x,y), 1 = (x+1,y), 2 = (x,y+1), 3 = (x+1,y+1); helper lanes take part in derivatives.
#pragma once

#include "emulator/exec.h"
#include "emulator/lanes.h"
#include "emulator/pixel.h"
#include "emulator/vector.h"

#include <cmath>
#include <type_traits>

namespace waveemu {

namespace core {

enum class Derivative { kCoarseX, kCoarseY, kFineX, kFineY };

/// The derivative of p on every thread of `mask`, quads as `state.QuadMember` groups them.
/// Coarse (deriv_rtx_coarse: one value per quad, "the exact calculation is up to the hardware
/// vendor", e.g. the top row and left column; waveemu takes those): ddx = p1 - p0, ddy = p2 - p0. Fine (per row / per column): ddx = p(x+1,y) - p(x,y) of the thread's row,
/// ddy = p(x,y+1) - p(x,y) of its column. Threads of `mask` whose quad lacks a thread of `mask`
/// (non-quad-uniform control flow, undefined in D3D) go to `nonuniform`; their result uses the
/// stale values of the missing threads.
template <class T, int N>
Lanes<T, N> Derive(const Lanes<T, N>& p, Derivative kind, const GroupState<N>& state,
                   const Mask<N>& mask, Mask<N>* nonuniform = nullptr) {
  static_assert(std::is_floating_point_v<T> || std::is_same_v<T, half>,
                "derivatives take half, float or double values (HLSL: ddx(float) etc.)");
  Lanes<T, N> r(T(0));
  mask.ForEach([&](int t) {
    int q[4];
    bool whole = true;
    for (int i = 0; i < 4; ++i) {
      q[i] = state.QuadMember(t, i);
      if (q[i] < 0 || !mask.Test(q[i])) whole = false;
    }
    if (!whole && nonuniform) nonuniform->Set(t, true);
    auto v = [&](int i) { return q[i] >= 0 ? float(p.lane(q[i])) : 0.0f; };
    auto vd = [&](int i) { return q[i] >= 0 ? double(p.lane(q[i])) : 0.0; };
    int self = 0;
    for (int i = 0; i < 4; ++i)
      if (q[i] == t) self = i;
    const int row = self & 2, col = self & 1;
    auto diff = [&](int a, int b) -> T {
      if constexpr (std::is_same_v<T, double>) return T(vd(a) - vd(b));
      else if constexpr (std::is_same_v<T, half>) return T(v(a) - v(b));  // half math in float
      else return T(p.lane(q[a]) - p.lane(q[b]));
    };
    // Missing threads (q[i] < 0) only occur in a partial quad, already reported as nonuniform.
    for (int i = 0; i < 4; ++i)
      if (q[i] < 0) q[i] = t;
    switch (kind) {
      case Derivative::kCoarseX: r.set_lane(t, diff(1, 0)); break;
      case Derivative::kCoarseY: r.set_lane(t, diff(2, 0)); break;
      case Derivative::kFineX: r.set_lane(t, diff(row + 1, row)); break;
      case Derivative::kFineY: r.set_lane(t, diff(col + 2, col)); break;
    }
  });
  return r;
}

}  // namespace core

namespace detail {

template <class V>
struct DerivArg : std::false_type {};
template <class T, int N>
struct DerivArg<Lanes<T, N>> : std::bool_constant<std::is_floating_point_v<T> ||
                                                  std::is_same_v<T, half>> {
  static constexpr int kN = N;
};
template <class T, int C, int N>
struct DerivArg<Vector<T, C, N>> : std::bool_constant<std::is_floating_point_v<T> ||
                                                      std::is_same_v<T, half>> {
  static constexpr int kN = N;
};

/// The derivative of `value` on every active thread; threads whose quad is not whole under the
/// mask (non-quad-uniform control flow) go to `nonuniform`.
template <class V, int N = DerivArg<V>::kN>
V DeriveValues(const V& value, core::Derivative kind, Mask<N>& nonuniform) {
  static_assert(DerivArg<V>::value,
                "derivatives take a per-thread half, float or double scalar or vector "
                "(Float<N>, Float2<N>, ...); convert integers first");
  const GroupState<N>& s = CurrentGroup<N>();
  // A pixel dispatch may compute coarse derivatives per pixel (PixelDispatchOptions).
  if (s.pixel_shader() && CurrentCoarseDerivatives() == CoarseDerivatives::kAsFine) {
    if (kind == core::Derivative::kCoarseX) kind = core::Derivative::kFineX;
    if (kind == core::Derivative::kCoarseY) kind = core::Derivative::kFineY;
  }
  V r;
  if constexpr (requires { V::kComponents; }) {
    for (int c = 0; c < V::kComponents; ++c)
      r[c] = core::Derive(value[c], kind, s, s.active(), c == 0 ? &nonuniform : nullptr);
  } else {
    r = core::Derive(value, kind, s, s.active(), &nonuniform);
  }
  return r;
}

/// A derivative with part of its quad inactive is undefined (D3D): in the poisoning profiles
/// those threads get Poison<T>() on every component and the call is reported once, under the
/// name the shader called (`op`); the others keep the value from the missing threads' stale
/// values.
template <class V, int N = DerivArg<V>::kN>
void PoisonNonUniform(const char* op, V& r, const Mask<N>& nonuniform) {
  const GroupState<N>& s = CurrentGroup<N>();
  if (nonuniform.Empty() || !s.profile().poison_undefined) return;
  nonuniform.ForEach([&](int t) {
    if constexpr (requires { V::kComponents; }) {
      for (int c = 0; c < V::kComponents; ++c)
        r[c].set_lane(t, Poison<typename V::value_type>());
    } else {
      r.set_lane(t, Poison<typename V::value_type>());
    }
  });
  s.Report(fmt::format("{}: derivative in non-quad-uniform control flow (undefined in D3D)", op),
           fmt::format("{}, thread {} has a quad member that is not active", s.Where(),
                       nonuniform.First()));
}

template <class V>
V DeriveWrapper(const char* op, const V& value, core::Derivative kind) {
  Mask<DerivArg<V>::kN> nonuniform;
  V r = DeriveValues(value, kind, nonuniform);
  PoisonNonUniform(op, r, nonuniform);
  return r;
}

template <class T, int N>
Lanes<T, N> AbsSum(const Lanes<T, N>& a, const Lanes<T, N>& b) {
  Lanes<T, N> r(T(0));
  for (int t = 0; t < N; ++t) {
    if constexpr (std::is_same_v<T, half>)
      r.set_lane(t, T(std::fabs(float(a.lane(t))) + std::fabs(float(b.lane(t)))));
    else
      r.set_lane(t, std::fabs(a.lane(t)) + std::fabs(b.lane(t)));
  }
  return r;
}

}  // namespace detail

// ------------------------------ IsHelperLane

/// True on helper lanes of a pixel shader (uncovered quad members and discarded lanes), false
/// elsewhere. HLSL: IsHelperLane() (SM 6.6).
template <int N = 0>
Bool<N> IsHelperLane() {
  static_assert(N > 0, "write IsHelperLane<N>(), N = threads per group: C++ cannot deduce it "
                       "from an empty argument list");
  const GroupState<N>& s = CurrentGroup<N>();
  Bool<N> r(false);
  s.helper().ForEach([&](int t) { r.set_lane(t, true); });
  return r;
}

// ------------------------------ discard

/// HLSL `discard;` (a statement): every currently active thread becomes a helper lane for the
/// rest of the shader (D3D demote semantics, D3D11.3 §22.5.1). It keeps running for quad reads
/// and derivatives, leaves wave ops (unless [WaveOpsIncludeHelperLanes]) and its render-target
/// writes, stores and atomics have no effect. Put it under if_ to discard some threads.
template <int N = 0>
void discard() {
  static_assert(N > 0, "write discard<N>(), N = threads per group: C++ cannot deduce it from "
                       "an empty argument list");
  GroupState<N>& s = CurrentGroup<N>();
  if (!s.pixel_shader())
    throw KernelError(fmt::format("discard is valid only in pixel shaders (run the kernel with "
                                  "PixelDispatch), {}",
                                  s.Where()));
  s.set_helper(s.helper() | s.active());
}

// ------------------------------ clip

/// HLSL clip(x): discards the threads where any component of x is less than zero.
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
void clip(const V& x) {
  static_assert(detail::DerivArg<V>::value,
                "clip takes a per-thread half, float or double scalar or vector");
  constexpr int N = detail::DerivArg<V>::kN;
  GroupState<N>& s = CurrentGroup<N>();
  if (!s.pixel_shader())
    throw KernelError(fmt::format("clip is valid only in pixel shaders (run the kernel with "
                                  "PixelDispatch), {}",
                                  s.Where()));
  Mask<N> negative;
  s.active().ForEach([&](int t) {
    bool any = false;
    if constexpr (requires { V::kComponents; }) {
      for (int c = 0; c < V::kComponents; ++c) any = any || float(x[c].lane(t)) < 0.0f;
    } else {
      any = float(x.lane(t)) < 0.0f;
    }
    negative.Set(t, any);
  });
  s.set_helper(s.helper() | negative);
}

// ------------------------------ ddx_coarse

/// p(x+1,y) - p(x,y) of the quad's top row, the same on all four threads of the quad
/// (CoarseDerivatives::kAsFine in PixelDispatchOptions: of the thread's own row, as lavapipe).
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
V ddx_coarse(const V& value) {
  return detail::DeriveWrapper("ddx_coarse", value, core::Derivative::kCoarseX);
}

// ------------------------------ ddy_coarse

/// p(x,y+1) - p(x,y) of the quad's left column, the same on all four threads of the quad
/// (CoarseDerivatives::kAsFine: of the thread's own column).
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
V ddy_coarse(const V& value) {
  return detail::DeriveWrapper("ddy_coarse", value, core::Derivative::kCoarseY);
}

// ------------------------------ ddx_fine

/// p(x+1,y) - p(x,y) of the thread's own row of the quad.
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
V ddx_fine(const V& value) {
  return detail::DeriveWrapper("ddx_fine", value, core::Derivative::kFineX);
}

// ------------------------------ ddy_fine

/// p(x,y+1) - p(x,y) of the thread's own column of the quad.
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
V ddy_fine(const V& value) {
  return detail::DeriveWrapper("ddy_fine", value, core::Derivative::kFineY);
}

// ------------------------------ ddx

/// Hardware-dependent in D3D (deriv_rtx): the SM 4 reference rasterizer uses the thread's own
/// row (fine), drivers may use coarse (NVIDIA uses fine, per vkd3d's tests); waveemu picks coarse
/// (which PixelDispatchOptions::coarse_derivatives may make per-pixel; lavapipe: per-pixel).
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
V ddx(const V& value) {
  return detail::DeriveWrapper("ddx", value, core::Derivative::kCoarseX);
}

// ------------------------------ ddy

/// D3D lets ddy be coarse or fine; waveemu picks coarse, like ddx.
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
V ddy(const V& value) {
  return detail::DeriveWrapper("ddy", value, core::Derivative::kCoarseY);
}

// ------------------------------ fwidth

/// abs(ddx(x)) + abs(ddy(x)), both coarse. Diagnostics name fwidth, once per call (the two
/// derivatives see the same quads).
template <class V>
  requires(!detail::HasLoad<V>)  // a reference: WAVEEMU_TAKES_REFERENCES below
V fwidth(const V& value) {
  Mask<detail::DerivArg<V>::kN> nonuniform;
  const V dx = detail::DeriveValues(value, core::Derivative::kCoarseX, nonuniform);
  const V dy = detail::DeriveValues(value, core::Derivative::kCoarseY, nonuniform);
  V r = dx;
  if constexpr (requires { V::kComponents; }) {
    for (int c = 0; c < V::kComponents; ++c) r[c] = detail::AbsSum(dx[c], dy[c]);
  } else {
    r = detail::AbsSum(dx, dy);
  }
  detail::PoisonNonUniform("fwidth", r, nonuniform);
  return r;
}

// Buffer and groupshared elements as arguments (see WAVEEMU_TAKES_REFERENCES).
WAVEEMU_TAKES_REFERENCES(ddx)
WAVEEMU_TAKES_REFERENCES(ddy)
WAVEEMU_TAKES_REFERENCES(ddx_coarse)
WAVEEMU_TAKES_REFERENCES(ddx_fine)
WAVEEMU_TAKES_REFERENCES(ddy_coarse)
WAVEEMU_TAKES_REFERENCES(ddy_fine)
WAVEEMU_TAKES_REFERENCES(fwidth)
WAVEEMU_TAKES_REFERENCES(clip)

}  // namespace waveemu
