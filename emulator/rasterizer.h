// rasterizer.h -- per-pixel coverage of a 2-D target, given directly or from triangles with the
// D3D top-left fill rule. Vertices snap to 8 sub-pixel bits (1/256 pixel: D3D's 16.8 fixed-point
// rasterization precision), rounding to nearest even; edge functions are exact 64-bit integers, so a pixel centre on an edge
// shared by two triangles is decided by the fill rule alone: drawn once, never twice, never missed.
#pragma once

#include "emulator/error.h"
#include "emulator/vector.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace waveemu {

/// Which pixels of a width x height target a primitive covers (row-major, one byte each). The
/// size is fixed at construction (at least 1 x 1: a zero-size target is refused as a mistake)
/// and the bytes are private, so every pixel index stays inside.
class Coverage {
 public:
  Coverage() = default;  // 0 x 0: a placeholder to assign to; PixelDispatch refuses it
  Coverage(int w, int h) : width_(CheckedSize("Coverage", w, h)), height_(h) {
    covered_.assign(size_t(w) * size_t(h), 0);
  }
  int width() const { return width_; }
  int height() const { return height_; }
  /// Whether (x, y) is covered; false outside the target (helper pixels of an edge quad).
  bool Test(int x, int y) const {
    return x >= 0 && y >= 0 && x < width_ && y < height_ && covered_[Index(x, y)] != 0;
  }
  /// Marks (x, y); a UsageError outside the target (a wrong x would silently hit another row).
  void Set(int x, int y, bool on = true) {
    if (x < 0 || x >= width_ || y < 0 || y >= height_)
      throw UsageError(fmt::format("Coverage::Set({}, {}): x must be in 0..{} and y in 0..{} "
                                   "(the coverage is {} x {} pixels)",
                                   x, y, width_ - 1, height_ - 1, width_, height_));
    covered_[Index(x, y)] = on ? 1 : 0;
  }
  int Count() const {
    int n = 0;
    for (uint8_t c : covered_) n += c != 0;
    return n;
  }
  bool operator==(const Coverage&) const = default;

  /// The size checks of Coverage and RenderTarget: both sides at least 1 (and the product
  /// representable), checked before anything is allocated. Returns w.
  static int CheckedSize(const char* what, int w, int h) {
    if (w <= 0 || h <= 0)
      throw UsageError(fmt::format("{} of {} x {} pixels: width and height must be at least 1 "
                                   "(a zero-size target draws nothing; it is most likely a "
                                   "mistake)",
                                   what, w, h));
    return w;
  }


 private:
  size_t Index(int x, int y) const { return size_t(y) * size_t(width_) + size_t(x); }
  int width_ = 0, height_ = 0;
  std::vector<uint8_t> covered_;
};

/// A triangle in pixel coordinates (y down, pixel (x, y) spans [x, x+1) x [y, y+1), its centre
/// at (x + 0.5, y + 0.5)). Both windings draw (no culling).
struct Triangle {
  float2 v0, v1, v2;
};

/// Sub-pixel bits of the fixed-point vertex grid.
inline constexpr int kSubPixelBits = 8;
/// Vertices must lie within +-kMaxCoordinate pixels: edge-function products then stay below
/// 2^62 (coordinates of 2^20 * 2^8 = 2^28 fixed units, differences 2^29, products 2^58 plus sums).
inline constexpr float kMaxCoordinate = float(1 << 20);

namespace detail {

struct FixedPoint {
  int64_t x, y;
};

/// Round to nearest 1/256 pixel, ties to even (std::llrint in the default rounding mode; D3D's
/// ideal float-to-fixed conversion, semantics.md §4.1).
inline FixedPoint Snap(float2 v) {
  if (!(std::fabs(v.x) <= kMaxCoordinate && std::fabs(v.y) <= kMaxCoordinate))
    throw UsageError(fmt::format("triangle vertex ({}, {}) is outside +-{} pixels (or NaN): the "
                                 "fixed-point edge functions need the range",
                                 v.x, v.y, kMaxCoordinate));
  constexpr double kScale = double(1 << kSubPixelBits);
  return {std::llrint(double(v.x) * kScale), std::llrint(double(v.y) * kScale)};
}

/// Edge function of a->b at p: positive on the inside when the triangle's area is positive.
inline int64_t Edge(FixedPoint a, FixedPoint b, FixedPoint p) {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

/// With positive area (y down: clockwise on screen), a top edge runs exactly horizontally to
/// the right (the triangle lies below it), a left edge runs upwards.
inline bool IsTopLeft(FixedPoint a, FixedPoint b) {
  const int64_t dx = b.x - a.x, dy = b.y - a.y;
  return (dy == 0 && dx > 0) || dy < 0;
}

}  // namespace detail

/// Marks the pixels of `coverage` whose centre the triangle covers under the top-left rule: a
/// centre strictly inside, or exactly on a top or left edge. Degenerate triangles cover nothing.
inline void RasterizeTriangle(const Triangle& tri, Coverage& coverage) {
  using detail::FixedPoint;
  FixedPoint a = detail::Snap(tri.v0), b = detail::Snap(tri.v1), c = detail::Snap(tri.v2);
  int64_t area = detail::Edge(a, b, c);
  if (area == 0) return;
  if (area < 0) std::swap(b, c);
  const bool tl_ab = detail::IsTopLeft(a, b), tl_bc = detail::IsTopLeft(b, c),
             tl_ca = detail::IsTopLeft(c, a);
  constexpr int64_t kOne = int64_t(1) << kSubPixelBits, kHalf = kOne / 2;
  // Bounding box in pixels, clamped to the target.
  auto floor_px = [](int64_t v) { return v >= 0 ? v / kOne : -((-v + kOne - 1) / kOne); };
  const int64_t x0 = std::max<int64_t>(0, floor_px(std::min({a.x, b.x, c.x})) - 1);
  const int64_t x1 = std::min<int64_t>(coverage.width() - 1, floor_px(std::max({a.x, b.x, c.x})) + 1);
  const int64_t y0 = std::max<int64_t>(0, floor_px(std::min({a.y, b.y, c.y})) - 1);
  const int64_t y1 = std::min<int64_t>(coverage.height() - 1, floor_px(std::max({a.y, b.y, c.y})) + 1);
  auto inside = [](int64_t e, bool top_left) { return e > 0 || (e == 0 && top_left); };
  for (int64_t y = y0; y <= y1; ++y)
    for (int64_t x = x0; x <= x1; ++x) {
      const FixedPoint p{x * kOne + kHalf, y * kOne + kHalf};
      if (inside(detail::Edge(a, b, p), tl_ab) && inside(detail::Edge(b, c, p), tl_bc) &&
          inside(detail::Edge(c, a, p), tl_ca))
        coverage.Set(int(x), int(y));
    }
}

/// Coverage of a list of triangles on a width x height target.
inline Coverage Rasterize(std::span<const Triangle> triangles, int width, int height) {
  Coverage c(width, height);
  for (const Triangle& t : triangles) RasterizeTriangle(t, c);
  return c;
}

}  // namespace waveemu
