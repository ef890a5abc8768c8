// Tests of the pixel-shader model: the rasterizer's top-left rule, quad launch and lane order,
// helper lanes in wave ops with and without [WaveOpsIncludeHelperLanes], quad reads across
// helpers, discard / clip (demote to helper), SV_Target and side-effect masks, and derivatives
// (pixel quads and the SM 6.6 compute layouts). Expected values are hand-worked pictures of the
// target, one number per pixel (row by row), written from the rules quoted next to them.
#include "emulator/emulator.h"
#include "emulator/pixel.h"
#include "intrinsics/intrinsics.h"
#include "intrinsics/pixel.h"
#include "tests/pixel/helper_lanes_port.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace waveemu;
using namespace waveemu::test;

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();  // pixel not recorded

/// One value per pixel of a small target, written from a kernel by SV_Position.
struct Picture {
  int width = 0, height = 0;
  std::vector<double> v;
  Picture(int w, int h) : width(w), height(h), v(size_t(w) * h, kNone) {}

  /// Records value on the threads of `mask` at their pixel (pixels outside the picture are
  /// dropped).
  template <int N, class L>
  void Put(const SV_Position<N>& pos, const L& value, const Mask<N>& mask) {
    mask.ForEach([&](int t) {
      const int x = int(pos.x.lane(t)), y = int(pos.y.lane(t));
      if (x < width && y < height) v[size_t(y) * width + x] = double(value.lane(t));
    });
  }
};

std::string Show(const std::vector<double>& v, int width) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    s += std::isnan(v[i]) ? fmt::format("{:>6}", "-") : fmt::format("{:>6}", v[i]);
    if (int(i % width) == width - 1) s += "\n";
  }
  return s;
}

void CheckPicture(const char* what, const Picture& actual, const std::vector<double>& expected) {
  bool same = actual.v.size() == expected.size();
  for (size_t i = 0; same && i < expected.size(); ++i)
    same = (std::isnan(expected[i]) && std::isnan(actual.v[i])) || expected[i] == actual.v[i];
  INFO(fmt::format("{} ('-': not recorded)\nexpected:\n{}actual:\n{}", what,
                   Show(expected, actual.width), Show(actual.v, actual.width)));
  CHECK(same);
}

const double _ = kNone;

// The scene of most tests: triangle (0,0) (4,0) (0,4) on a 4x4 target. A pixel centre
// (x+.5, y+.5) is inside when x + y + 1 < 4; centres with x + y == 3 lie exactly on the edge
// (4,0)-(0,4), which runs down-left: a right edge, so by the top-left rule they are not drawn.
// Covered: x + y <= 2 (6 pixels). Quads (aligned 2x2): Q(0,0) fully covered; Q(1,0) only (2,0);
// Q(0,1) only (0,2); Q(1,1) none (not launched). Launch order Q(0,0), Q(1,0), Q(0,1); lane =
// 4 * quad + (y&1)*2 + (x&1):
//   lane  0 (0,0)  1 (1,0)  2 (0,1)  3 (1,1)   covered
//   lane  4 (2,0)  covered; 5 (3,0) 6 (2,1) 7 (3,1) helpers
//   lane  8 (0,2)  covered; 9 (1,2) 10 (0,3) 11 (1,3) helpers; lanes 12..15 not launched.
const Triangle kScene[] = {{{0, 0}, {4, 0}, {0, 4}}};

/// Lane index, helper flag, and wave ops over all lanes of the scene.
template <int kN, bool kInclude>
struct WaveOpsShader {
  static constexpr int N = kN;
  static constexpr bool WaveOpsIncludeHelperLanes = kInclude;
  Picture* lane;
  Picture* helper;
  Picture* ballot;
  Picture* count;
  Picture* sum;
  Picture* first;
  Picture* first_late;

  void main(SV_Position<N> pos, SV_Target<N>& target) const {
    const GroupState<N>& s = CurrentGroup<N>();
    // Wave-op results are undefined on helpers unless [WaveOpsIncludeHelperLanes]: record them
    // only where defined.
    const Mask<N> defined = kInclude ? s.active() : AndNot(s.active(), s.helper());
    lane->Put(pos, WaveGetLaneIndex<N>(), s.active());
    helper->Put(pos, IsHelperLane<N>(), s.active());
    ballot->Put(pos, WaveActiveBallot(Bool<N>(true)).x, defined);
    count->Put(pos, WaveActiveCountBits(Bool<N>(true)), defined);
    sum->Put(pos, WaveActiveSum(pos.x), defined);
    first->Put(pos, WaveIsFirstLane<N>(), s.active());
    if_(WaveGetLaneIndex<N>() >= 5u, [&] { first_late->Put(pos, WaveIsFirstLane<N>(), s.active()); });
    target = Float4<N>(pos.x, pos.y, 0.0f, 1.0f);
  }
};

template <int N, bool kInclude>
struct WaveOpsRun {
  Picture lane{4, 4}, helper{4, 4}, ballot{4, 4}, count{4, 4}, sum{4, 4}, first{4, 4},
      first_late{4, 4};
  RenderTarget target{4, 4, float4{-1, -1, -1, -1}};
  PixelDispatchResult result;
  explicit WaveOpsRun(int wave_size) {
    WaveOpsShader<N, kInclude> k{&lane, &helper, &ballot, &count, &sum, &first, &first_late};
    PixelDispatchOptions o;
    o.wave_size = wave_size;
    result = DrawTriangles(k, kScene, target, o);
  }
};

}  // namespace

// ------------------------------ rasterizer: the top-left rule

TEST_CASE("a triangle covers the pixel centres inside it and those on its top and left edges") {
  Coverage c = Rasterize(kScene, 4, 4);
  // Hand-worked: x + y <= 2 (the hypotenuse is a right edge; the top edge y = 0 and the left
  // edge x = 0 hold no centres).
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      INFO(fmt::format("pixel ({}, {})", x, y));
      CHECK(c.Test(x, y) == (x + y <= 2));
    }
  // A square with corners on pixel centres: centres on its top and left edges are drawn, those
  // on its bottom and right edges are not: pixels 0..3 x 0..3 of (0.5,0.5)-(4.5,4.5).
  const Triangle square[] = {{{0.5f, 0.5f}, {4.5f, 0.5f}, {4.5f, 4.5f}},
                             {{0.5f, 0.5f}, {4.5f, 4.5f}, {0.5f, 4.5f}}};
  Coverage s = Rasterize(square, 6, 6);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 6; ++x) {
      INFO(fmt::format("pixel ({}, {})", x, y));
      CHECK(s.Test(x, y) == (x < 4 && y < 4));
    }
}

TEST_CASE("two triangles sharing an edge draw every pixel of their union exactly once") {
  // Square (0,0)-(8,8) split along its diagonal: the diagonal passes through the centres of
  // pixels (i, i), which the top-left rule gives to exactly one of the two triangles. Both
  // windings and both diagonals must tile the 64 pixels exactly.
  const Triangle splits[][2] = {
      {{{0, 0}, {8, 0}, {8, 8}}, {{0, 0}, {8, 8}, {0, 8}}},   // clockwise, diagonal \ .
      {{{0, 0}, {8, 8}, {8, 0}}, {{0, 0}, {0, 8}, {8, 8}}},   // counter-clockwise
      {{{8, 0}, {0, 8}, {0, 0}}, {{8, 0}, {8, 8}, {0, 8}}},   // diagonal /
      // A skewed quadrilateral whose diagonal runs through centres at a slope of 1/2.
      {{{0.5f, 0.5f}, {8.5f, 4.5f}, {0.5f, 8.5f}}, {{8.5f, 4.5f}, {8.5f, 8.5f}, {0.5f, 8.5f}}}};
  const int expected_drawn[] = {64, 64, 64, 44};
  int index = 0;
  for (const auto& pair : splits) {
    Coverage a(10, 10), b(10, 10);
    RasterizeTriangle(pair[0], a);
    RasterizeTriangle(pair[1], b);
    int twice = 0, drawn = 0;
    for (int y = 0; y < 10; ++y)
      for (int x = 0; x < 10; ++x) {
        twice += a.Test(x, y) && b.Test(x, y);
        drawn += a.Test(x, y) || b.Test(x, y);
      }
    INFO(fmt::format("triangles ({},{}) ({},{}) ({},{}) and ({},{}) ({},{}) ({},{})",
                     pair[0].v0.x, pair[0].v0.y, pair[0].v1.x, pair[0].v1.y, pair[0].v2.x,
                     pair[0].v2.y, pair[1].v0.x, pair[1].v0.y, pair[1].v1.x, pair[1].v1.y,
                     pair[1].v2.x, pair[1].v2.y));
    CHECK(twice == 0);
    // The squares hold 64 centres. The skewed one is (0.5,0.5) (8.5,4.5) (8.5,8.5) (0.5,8.5):
    // its left edge x = .5 is drawn, its bottom and right edges are not, and its upper edge
    // y = .5 + (x - .5) / 2 is a right edge (it runs down-right on the triangle's right side),
    // so column px holds rows py > px/2 up to 7: 7+7+6+6+5+5+4+4 = 44.
    CHECK(drawn == expected_drawn[index++]);
  }
  // The same quadrilateral split along its other diagonal covers the same pixels.
  const Triangle one[] = {{{1, 1}, {7.5f, 2}, {6, 7}}, {{1, 1}, {6, 7}, {2, 6.5f}}};
  const Triangle other[] = {{{7.5f, 2}, {6, 7}, {2, 6.5f}}, {{7.5f, 2}, {2, 6.5f}, {1, 1}}};
  Coverage p = Rasterize(one, 10, 10), q = Rasterize(other, 10, 10);
  CHECK(p == q);
  CHECK(p.Count() > 20);
}

TEST_CASE("vertices snap to 1/256 pixel: a shift below half a unit changes nothing") {
  const Triangle a[] = {{{0.25f, 0.25f}, {5.75f, 1.0f}, {2.0f, 6.5f}}};
  const Triangle b[] = {{{0.25f + 1.0f / 1024, 0.25f}, {5.75f, 1.0f - 1.0f / 1024}, {2.0f, 6.5f}}};
  CHECK(Rasterize(a, 8, 8).Count() > 10);  // the triangle covers something to compare
  CHECK(Rasterize(a, 8, 8) == Rasterize(b, 8, 8));
  // One whole unit (1/256) moves the edge onto or off a centre: (0,0)-(4,0)-(0,4) covers 6
  // pixels; with (4,0) moved right by 1/256 the hypotenuse passes just right of the centres
  // x + y == 3, which become inside.
  const Triangle c[] = {{{0, 0}, {4.0f + 1.0f / 256, 0}, {0, 4.0f + 1.0f / 256}}};
  CHECK(Rasterize(c, 4, 4).Count() == 10);
}

// ------------------------------ quads, helpers and wave ops

TEST_CASE("pixel dispatch launches partly covered quads with helper lanes in row-major quad order") {
  WaveOpsRun<16, false> r(16);
  CHECK(r.result.quads == 3);
  CHECK(r.result.groups == 1);
  CHECK(r.result.helper_lanes == 6);
  CheckPicture("WaveGetLaneIndex", r.lane, {0, 1, 4, 5,  //
                                            2, 3, 6, 7,  //
                                            8, 9, _, _,  //
                                            10, 11, _, _});
  CheckPicture("IsHelperLane", r.helper, {0, 0, 0, 1,  //
                                          0, 0, 1, 1,  //
                                          0, 1, _, _,  //
                                          1, 1, _, _});
  // SV_Target: covered pixels only; the rest keeps the clear value -1.
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      INFO(fmt::format("pixel ({}, {})", x, y));
      const float4 e = x + y <= 2 ? float4{x + 0.5f, y + 0.5f, 0, 1} : float4{-1, -1, -1, -1};
      CHECK(r.target.at(x, y) == e);
    }
}

TEST_CASE("wave ops exclude helper lanes by default: ballot 0x11F, count 6, sum over covered") {
  WaveOpsRun<16, false> r(16);
  // Covered lanes 0,1,2,3,4,8 -> 0x11F; 6 of them; sum of their x = .5+1.5+.5+1.5+2.5+.5 = 7.
  CheckPicture("WaveActiveBallot(true).x", r.ballot, {0x11F, 0x11F, 0x11F, _,  //
                                                      0x11F, 0x11F, _, _,      //
                                                      0x11F, _, _, _,          //
                                                      _, _, _, _});
  CheckPicture("WaveActiveCountBits(true)", r.count, {6, 6, 6, _, 6, 6, _, _, 6, _, _, _, _, _, _, _});
  CheckPicture("WaveActiveSum(pos.x)", r.sum, {7, 7, 7, _, 7, 7, _, _, 7, _, _, _, _, _, _, _});
  // WaveIsFirstLane: false on helpers. Among lanes >= 5 the helpers 5, 6, 7 come first, so the
  // first lane is 8 (pixel (0,2)).
  CheckPicture("WaveIsFirstLane", r.first, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, _, _, 0, 0, _, _});
  CheckPicture("WaveIsFirstLane in lanes >= 5", r.first_late,
               {_, _, _, 0, _, _, 0, 0, 1, 0, _, _, 0, 0, _, _});
}

TEST_CASE("[WaveOpsIncludeHelperLanes] makes helper lanes count: ballot 0xFFF, count 12") {
  WaveOpsRun<16, true> r(16);
  // Lanes 0..11 launched; x sum over the three quads: 4 + 12 + 4 = 20.
  CheckPicture("WaveActiveBallot(true).x", r.ballot,
               {0xFFF, 0xFFF, 0xFFF, 0xFFF, 0xFFF, 0xFFF, 0xFFF, 0xFFF, 0xFFF, 0xFFF, _, _,
                0xFFF, 0xFFF, _, _});
  CheckPicture("WaveActiveCountBits(true)", r.count,
               {12, 12, 12, 12, 12, 12, 12, 12, 12, 12, _, _, 12, 12, _, _});
  CheckPicture("WaveActiveSum(pos.x)", r.sum,
               {20, 20, 20, 20, 20, 20, 20, 20, 20, 20, _, _, 20, 20, _, _});
  // Lane 5 (pixel (3,0), a helper) is now the first of lanes >= 5.
  CheckPicture("WaveIsFirstLane in lanes >= 5", r.first_late,
               {_, _, _, 1, _, _, 0, 0, 0, 0, _, _, 0, 0, _, _});
  // Helper writes still have no effect on the render target.
  CHECK(r.target.at(3, 0) == float4{-1, -1, -1, -1});
  CHECK(r.target.at(2, 0) == float4{2.5f, 0.5f, 0, 1});
}

TEST_CASE("at wave size 8 the scene's three quads fill two waves of two groups") {
  WaveOpsRun<8, false> r(8);
  CHECK(r.result.groups == 2);
  // Group 0: Q(0,0) lanes 0-3, Q(1,0) lanes 4-7; group 1: Q(0,1) lanes 0-3.
  CheckPicture("WaveGetLaneIndex", r.lane, {0, 1, 4, 5, 2, 3, 6, 7, 0, 1, _, _, 2, 3, _, _});
  CheckPicture("WaveActiveBallot(true).x", r.ballot,
               {0x1F, 0x1F, 0x1F, _, 0x1F, 0x1F, _, _, 0x1, _, _, _, _, _, _, _});
  CheckPicture("WaveActiveCountBits(true)", r.count, {5, 5, 5, _, 5, 5, _, _, 1, _, _, _, _, _, _, _});
}

namespace {

template <bool kInclude>
struct QuadShader {
  static constexpr int N = 16;
  static constexpr bool WaveOpsIncludeHelperLanes = kInclude;
  Picture* across_x;
  Picture* diagonal_helper;
  Picture* any_helper;
  Picture* all_covered;
  void main(SV_Position<N> pos) const {
    const GroupState<N>& s = CurrentGroup<N>();
    across_x->Put(pos, QuadReadAcrossX(pos.x), s.active());
    diagonal_helper->Put(pos, QuadReadAcrossDiagonal(select(IsHelperLane<N>(), Uint<N>(1u), Uint<N>(0u))),
                         s.active());
    any_helper->Put(pos, QuadAny(IsHelperLane<N>()), s.active());
    all_covered->Put(pos, QuadAll(!IsHelperLane<N>()), s.active());
  }
};

}  // namespace

TEST_CASE("quad reads, QuadAny and QuadAll see helper lanes, with or without the attribute") {
  auto run = [](auto kernel_tag) {
    constexpr bool kInclude = decltype(kernel_tag)::value;
    Picture across_x(4, 4), diag(4, 4), any(4, 4), all(4, 4);
    QuadShader<kInclude> k{&across_x, &diag, &any, &all};
    RenderTarget rt(4, 4);
    DrawTriangles(k, kScene, rt);
    // QuadReadAcrossX(pos.x): the neighbour's centre, helpers included: pixel (2,0) reads the
    // helper (3,0): 3.5.
    CheckPicture("QuadReadAcrossX(pos.x)", across_x,
                 {1.5, .5, 3.5, 2.5, 1.5, .5, 3.5, 2.5, 1.5, .5, _, _, 1.5, .5, _, _});
    // The diagonal partner of a covered pixel of Q(1,0) and Q(0,1) is a helper; of (3,1) is
    // (2,0), covered.
    CheckPicture("QuadReadAcrossDiagonal(IsHelperLane())", diag,
                 {0, 0, 1, 1, 0, 0, 1, 0, 1, 1, _, _, 1, 0, _, _});
    CheckPicture("QuadAny(IsHelperLane())", any, {0, 0, 1, 1, 0, 0, 1, 1, 1, 1, _, _, 1, 1, _, _});
    CheckPicture("QuadAll(!IsHelperLane())", all, {1, 1, 0, 0, 1, 1, 0, 0, 0, 0, _, _, 0, 0, _, _});
  };
  run(std::false_type{});
  run(std::true_type{});
}

// ------------------------------ discard and clip

namespace {

/// DXC's HelperLane conformance scene: one quad, pixel (0,1) (lane 2) uncovered.
Coverage ThreeOfFour() {
  Coverage c(2, 2);
  c.Set(0, 0);
  c.Set(1, 0);
  c.Set(1, 1);
  return c;
}

template <bool kInclude>
struct DiscardShader {
  static constexpr int N = 4;
  static constexpr bool WaveOpsIncludeHelperLanes = kInclude;
  std::vector<uint32_t>* log;  // per step: ballot of lane 1, count, sum(4), any helper
  Picture* local;
  Picture* diag_helper;
  void main(SV_Position<N> pos, SV_Target<N>& target) const {
    auto note = [&] {
      // Lane 1 (pixel (1,0)) stays covered throughout: its wave-op results are defined.
      log->push_back(WaveActiveBallot(Bool<N>(true)).x.lane(1));
      log->push_back(WaveActiveCountBits(Bool<N>(true)).lane(1));
      log->push_back(WaveActiveSum(Uint<N>(4u)).lane(1));
      log->push_back(WaveActiveAnyTrue(IsHelperLane<N>()).lane(1));
    };
    note();
    Uint<N> v = 1u;
    if_(WaveGetLaneIndex<N>() == 0u, [&] { discard<N>(); });
    note();
    v = 7u;  // a local assigned after discard changes in the demoted lane too
    local->Put(pos, v, Mask<N>::All());
    diag_helper->Put(pos, QuadReadAcrossDiagonal(select(IsHelperLane<N>(), Uint<N>(1u), Uint<N>(0u))),
                     Mask<N>::All());
    // Side effects: the write mask drops lanes 0 (discarded) and 2 (uncovered).
    log->push_back(uint32_t(CurrentWriteMask<N>().Bits64(0, 4)));
    target = Float4<N>(1.0f, 2.0f, 3.0f, 4.0f);
  }
};

}  // namespace

TEST_CASE("discard demotes a lane: ballot 0xB becomes 0xA, it keeps computing for its quad") {
  std::vector<uint32_t> log;
  Picture local(2, 2), diag(2, 2);
  RenderTarget rt(2, 2);
  DiscardShader<false> k{&log, &local, &diag};
  PixelDispatch(k, ThreeOfFour(), &rt);
  // ExecutionTest.cpp HelperLane_PS: ballot 0xB, count 3, WaveActiveSum(4) = 12, no helper seen;
  // after discarding lane 0: 0xA, 2, 8; write mask lanes 1 and 3.
  CHECK(log == std::vector<uint32_t>{0xB, 3, 12, 0, 0xA, 2, 8, 0, 0xA});
  CheckPicture("v = 7 after discard", local, {7, 7, 7, 7});
  // Lane 3 (1,1) reads lane 0 (0,0), now a helper; lane 1 reads lane 2, uncovered.
  CheckPicture("QuadReadAcrossDiagonal(IsHelperLane())", diag, {0, 1, 0, 1});
  CHECK(rt.at(0, 0) == float4{});  // discarded
  CHECK(rt.at(1, 0) == float4{1, 2, 3, 4});
  CHECK(rt.at(0, 1) == float4{});  // uncovered
  CHECK(rt.at(1, 1) == float4{1, 2, 3, 4});
}

TEST_CASE("with [WaveOpsIncludeHelperLanes] discarded and uncovered lanes stay in wave ops") {
  std::vector<uint32_t> log;
  Picture local(2, 2), diag(2, 2);
  RenderTarget rt(2, 2);
  DiscardShader<true> k{&log, &local, &diag};
  PixelDispatch(k, ThreeOfFour(), &rt);
  // IncludesHelperLane_PS: ballot 0xF, WaveActiveAnyTrue(IsHelperLane()) = 1, before and after.
  CHECK(log == std::vector<uint32_t>{0xF, 4, 16, 1, 0xF, 4, 16, 1, 0xA});
  CHECK(rt.at(0, 0) == float4{});
  CHECK(rt.at(1, 1) == float4{1, 2, 3, 4});
}

namespace {
struct ClipShader {
  static constexpr int N = 4;
  Picture* helper;
  void main(SV_Position<N> pos, SV_Target<N>& target) const {
    clip(Float2<N>(pos.x - 1.0f, 1.0f - pos.y));  // negative where x < 1 or y > 1
    helper->Put(pos, IsHelperLane<N>(), Mask<N>::All());
    target = Float4<N>(9.0f, 9.0f, 9.0f, 9.0f);
  }
};
}  // namespace

TEST_CASE("clip discards the lanes where any component is negative") {
  Coverage all(2, 2);
  for (int i = 0; i < 4; ++i) all.Set(i & 1, i >> 1);
  Picture helper(2, 2);
  RenderTarget rt(2, 2);
  PixelDispatch(ClipShader{&helper}, all, &rt);
  // Only (1,0): x = 1.5 >= 1 and y = 0.5 <= 1.
  CheckPicture("IsHelperLane after clip", helper, {1, 0, 1, 1});
  CHECK(rt.at(1, 0) == float4{9, 9, 9, 9});
  CHECK(rt.at(0, 0) == float4{});
  CHECK(rt.at(1, 1) == float4{});
}

TEST_CASE("discard outside a pixel shader is an error") {
  CHECK_THROWS_AS(RunGroup<4>(4, [] { discard<4>(); }), KernelError);
}

// Buffer writes and atomics of helper lanes must have no effect (D3D11.3 §16.13): the resource
// headers mask side effects with CurrentWriteMask (active and not helper).
namespace {
struct StoreShader {
  static constexpr int N = 4;
  RWStructuredBuffer<uint32_t>* out;
  void main(SV_Position<N> pos) const {
    (*out)[Uint<N>(pos.y) * 2u + Uint<N>(pos.x)] = 5u;
  }
};
}  // namespace

TEST_CASE("a buffer store from a helper lane has no effect") {
  std::vector<uint32_t> data(4, 0);
  RWStructuredBuffer<uint32_t> buf{std::span<uint32_t>(data)};
  PixelDispatch(StoreShader{&buf}, ThreeOfFour());
  CHECK(data == std::vector<uint32_t>{5, 5, 0, 5});
}

// ------------------------------ derivatives

namespace {
struct DerivShader {
  static constexpr int N = 16;
  Picture *lin_dx, *lin_dy, *lin_fw, *cx, *cy, *fx, *fy;
  void main(SV_Position<N> pos) const {
    const Mask<N> all = CurrentGroup<N>().active();
    const Float<N> linear = 3.0f * pos.x + 5.0f * pos.y;
    lin_dx->Put(pos, ddx_fine(linear), all);
    lin_dy->Put(pos, ddy(linear), all);
    lin_fw->Put(pos, fwidth(Float2<N>(linear, -linear)).y, all);
    const Float<N> q = pos.x * pos.y;
    cx->Put(pos, ddx_coarse(q), all);
    cy->Put(pos, ddy_coarse(q), all);
    fx->Put(pos, ddx_fine(q), all);
    fy->Put(pos, ddy_fine(q), all);
  }
};
}  // namespace

TEST_CASE("derivatives: exact for a linear function; coarse and fine differ for x*y") {
  Picture ldx(4, 4), ldy(4, 4), lfw(4, 4), cx(4, 4), cy(4, 4), fx(4, 4), fy(4, 4);
  RenderTarget rt(4, 4);
  DrawTriangles(DerivShader{&ldx, &ldy, &lfw, &cx, &cy, &fx, &fy}, kScene, rt);
  // 3x + 5y: ddx 3, ddy 5 in every launched lane, helpers included; fwidth 8.
  CheckPicture("ddx_fine(3x+5y)", ldx, {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, _, _, 3, 3, _, _});
  CheckPicture("ddy(3x+5y)", ldy, {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, _, _, 5, 5, _, _});
  CheckPicture("fwidth(-(3x+5y))", lfw, {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, _, _, 8, 8, _, _});
  // x*y with quad centres x0 = 2qx + .5, y0 = 2qy + .5: coarse (from the top-left pixel) ddx =
  // y0, ddy = x0 on all four; fine ddx = the pixel's own row y, fine ddy = its own column x.
  // Q(0,0): x0 = y0 = .5; Q(1,0): x0 = 2.5, y0 = .5; Q(0,1): x0 = .5, y0 = 2.5.
  CheckPicture("ddx_coarse(x*y)", cx, {.5, .5, .5, .5, .5, .5, .5, .5, 2.5, 2.5, _, _, 2.5, 2.5, _, _});
  CheckPicture("ddy_coarse(x*y)", cy, {.5, .5, 2.5, 2.5, .5, .5, 2.5, 2.5, .5, .5, _, _, .5, .5, _, _});
  CheckPicture("ddx_fine(x*y)", fx, {.5, .5, .5, .5, 1.5, 1.5, 1.5, 1.5, 2.5, 2.5, _, _, 3.5, 3.5, _, _});
  CheckPicture("ddy_fine(x*y)", fy, {.5, 1.5, 2.5, 3.5, .5, 1.5, 2.5, 3.5, .5, 1.5, _, _, .5, 1.5, _, _});
}

TEST_CASE("compute derivatives: SM 6.6 1-D quads are four consecutive SV_GroupIndex") {
  RunGroup<8>(8, [] {
    Float<8> gi(0.0f);
    for (int t = 0; t < 8; ++t) gi.set_lane(t, float(t));
    const Float<8> f = gi * gi;  // quad 0: 0 1 4 9; quad 1: 16 25 36 49
    const Float<8> cx = ddx_coarse(f), cy = ddy_coarse(f), fx = ddx_fine(f), fy = ddy_fine(f);
    const float ecx[] = {1, 1, 1, 1, 9, 9, 9, 9}, ecy[] = {4, 4, 4, 4, 20, 20, 20, 20};
    const float efx[] = {1, 1, 5, 5, 9, 9, 13, 13}, efy[] = {4, 8, 4, 8, 20, 24, 20, 24};
    for (int t = 0; t < 8; ++t) {
      INFO(fmt::format("thread {}", t));
      CHECK(cx.lane(t) == ecx[t]);
      CHECK(cy.lane(t) == ecy[t]);
      CHECK(fx.lane(t) == efx[t]);
      CHECK(fy.lane(t) == efy[t]);
    }
  });
}

namespace {
/// numthreads(4, 4, 1), f = x * y of SV_GroupThreadID; the four derivatives by SV_GroupIndex.
struct Derivatives2D {
  static constexpr uint3 numthreads{4, 4, 1};
  static constexpr int N = 16;
  RWStructuredBuffer<float> cx, cy, fx, fy;
  void main(const SV_GroupThreadID<N>& gtid, SV_GroupIndex<N> gi) const {
    const Float<N> f = Float<N>(gtid.x) * Float<N>(gtid.y);
    cx[gi] = ddx_coarse(f);
    cy[gi] = ddy_coarse(f);
    fx[gi] = ddx_fine(f);
    fy[gi] = ddy_fine(f);
  }
};
}  // namespace

TEST_CASE("compute derivatives: SM 6.6 2-D quads are 2x2 blocks of SV_GroupThreadID") {
  // f = x*y, so (HLSL_SM_6_6_Derivatives.md, quad = (x0,y0) (x0+1,y0) (x0,y0+1) (x0+1,y0+1))
  // coarse ddx = y0, ddy = x0; fine ddx = y, ddy = x. Waves of 4 hold one quad each.
  for (int w : {4, 16}) {
    std::vector<float> cx(16, -1), cy(16, -1), fx(16, -1), fy(16, -1);
    auto rw = [](std::vector<float>& v) { return RWStructuredBuffer<float>{std::span(v)}; };
    DispatchOptions options;
    options.wave_size = w;
    const DispatchResult r = Dispatch(Derivatives2D{rw(cx), rw(cy), rw(fx), rw(fy)},
                                      uint3{1, 1, 1}, options);
    CHECK(r.diagnostic_count == 0);
    for (int t = 0; t < 16; ++t) {
      const int x = t % 4, y = t / 4;
      INFO(fmt::format("wave {} thread {} = ({}, {})", w, t, x, y));
      CHECK(cx[t] == float(y & ~1));
      CHECK(cy[t] == float(x & ~1));
      CHECK(fx[t] == float(y));
      CHECK(fy[t] == float(x));
    }
  }
}

TEST_CASE("a derivative in a quad that is not fully active is poisoned and reported in spec") {
  // p = 10 * lane; lane 2 is off, so quad 0 (lanes 0-3) is not whole: undefined in D3D. Quad 1
  // is whole: coarse ddx = p5 - p4 = 10, ddy = p6 - p4 = 20.
  for (const DeviceProfile& profile : {SpecProfile(), LavapipeProfile()}) {
    DispatchShared shared;
    Float<8> dx(-1.0f), dy2(-1.0f);
    Float2<8> d2(-1.0f);
    RunGroup<8>(8, [&] {
      const Float<8> p = Float<8>(WaveGetLaneIndex<8>()) * 10.0f;
      if_(WaveGetLaneIndex<8>() != 2u, [&] {
        dx = ddx(p);
        d2 = ddy_fine(Float2<8>(p, p * 2.0f));
      });
    }, profile, &shared);
    INFO(profile.name);
    for (int t : {4, 5, 6, 7}) {
      CHECK(dx.lane(t) == 10.0f);
      CHECK(d2[0].lane(t) == 20.0f);  // p6 - p4 or p7 - p5
      CHECK(d2[1].lane(t) == 40.0f);
    }
    CHECK(dx.lane(2) == -1.0f);  // inactive: untouched
    for (int t : {0, 1, 3}) {
      if (profile.poison_undefined) {
        CHECK(std::bit_cast<uint32_t>(dx.lane(t)) == std::bit_cast<uint32_t>(Poison<float>()));
        CHECK(std::bit_cast<uint32_t>(d2[1].lane(t)) == std::bit_cast<uint32_t>(Poison<float>()));
      } else {
        CHECK(dx.lane(t) == 10.0f);  // p1 - p0, from values the threads hold
      }
    }
    REQUIRE(shared.diagnostics.count() == (profile.poison_undefined ? 2u : 0u));
    if (profile.poison_undefined)
      CHECK(shared.diagnostics.kept()[0].rule ==
            "ddx: derivative in non-quad-uniform control flow (undefined in D3D)");
  }
}

namespace {
struct AtomicShader {
  static constexpr int N = 4;
  RWStructuredBuffer<uint32_t>* out;
  void main(SV_Position<N>) const { InterlockedAdd((*out)[Uint<N>(0u)], Uint<N>(1u)); }
};
}  // namespace

// As above: atomics of helper lanes do nothing.
TEST_CASE("an atomic from a helper lane has no effect") {
  std::vector<uint32_t> data(1, 0);
  RWStructuredBuffer<uint32_t> buf{std::span<uint32_t>(data)};
  PixelDispatch(AtomicShader{&buf}, ThreeOfFour());
  CHECK(data[0] == 3u);  // the three covered pixels, not the uncovered one
}

TEST_CASE("the write mask drops helper lanes while the assignment mask keeps them") {
  RunGroup<8>(8, [] {
    GroupState<8>& s = CurrentGroup<8>();
    s.set_pixel_shader(true);
    Mask<8> helper;
    helper.Set(2, true);
    helper.Set(5, true);
    s.set_helper(helper);
    CHECK(CurrentMask<8>().Bits64(0, 8) == 0xFFu);
    CHECK(CurrentWriteMask<8>().Bits64(0, 8) == 0xDBu);
    CHECK(s.WriteActiveCount() == 6);
    Uint<8> v(0u);
    v = 3u;
    for (int t = 0; t < 8; ++t) CHECK(v.lane(t) == 3u);
  });
}

TEST_CASE("derivatives take half, double and vectors, component by component") {
  RunGroup<4>(4, [] {
    // Quad values 1 2 4 8: coarse ddx 1, ddy 3; fine ddx 1 1 4 4, ddy 3 6 3 6.
    const float p[] = {1, 2, 4, 8};
    Double<4> d(0.0);
    Half<4> h(half(0.0f));
    Float3<4> v;
    for (int t = 0; t < 4; ++t) {
      d.set_lane(t, p[t]);
      h.set_lane(t, half(p[t]));
    }
    v.x = Float<4>(0.0f);
    v.y = Float<4>(0.0f);
    v.z = Float<4>(0.0f);
    for (int t = 0; t < 4; ++t) v.z.set_lane(t, -p[t]);
    const Double<4> dx = ddx_fine(d);
    const Half<4> hy = ddy_fine(h);
    const Float3<4> vy = ddy(v);
    const Float3<4> fw = fwidth(v);
    const double edx[] = {1, 1, 4, 4};
    const float ehy[] = {3, 6, 3, 6};
    for (int t = 0; t < 4; ++t) {
      INFO(fmt::format("thread {}", t));
      CHECK(dx.lane(t) == edx[t]);
      CHECK(float(hy.lane(t)) == ehy[t]);
      CHECK(vy.z.lane(t) == -3.0f);
      CHECK(vy.x.lane(t) == 0.0f);
      CHECK(fw.z.lane(t) == 4.0f);  // |-1| + |-3|
    }
  });
}

// ------------------------------ quad packing and coarse derivatives as options

TEST_CASE("aligned-run packing puts the quads of one 4x2 block in one group, empty slots inactive") {
  // 8 x 4 target; covered: (1,0) in Q(0,0); (4,1) and (7,0) in run 1 (Q(2,0), Q(3,0)); (2,3)
  // in Q(1,1). Runs of 2 quads: row 0 -> {Q(0,0), -} and {Q(2,0), Q(3,0)}; row 1 -> {-, Q(1,1)}.
  Coverage c(8, 4);
  c.Set(1, 0);
  c.Set(4, 1);
  c.Set(7, 0);
  c.Set(2, 3);
  const std::vector<QuadGroup> g = PackQuads(c, 2, QuadPacking::kAlignedRuns);
  REQUIRE(g.size() == 3);
  auto show = [](const QuadGroup& q) {
    std::string s;
    for (const auto& slot : q) s += slot ? fmt::format("({},{}) ", slot->qx, slot->qy) : "- ";
    return s;
  };
  CHECK(show(g[0]) == "(0,0) - ");
  CHECK(show(g[1]) == "(2,0) (3,0) ");
  CHECK(show(g[2]) == "- (1,1) ");
  // Row-major packing of the same coverage: (0,0) (2,0) | (3,0) (1,1).
  const std::vector<QuadGroup> r = PackQuads(c, 2, QuadPacking::kRowMajor);
  REQUIRE(r.size() == 2);
  CHECK(show(r[0]) == "(0,0) (2,0) ");
  CHECK(show(r[1]) == "(3,0) (1,1) ");
}

namespace {
template <int kN>
struct LaneShader {
  static constexpr int N = kN;
  Picture* lane;
  Picture* count;
  Picture* dxc;
  void main(SV_Position<N> pos) const {
    const Mask<N> all = CurrentGroup<N>().active();
    lane->Put(pos, WaveGetLaneIndex<N>(), all);
    count->Put(pos, WaveActiveCountBits(Bool<N>(true)), all);
    dxc->Put(pos, ddx_coarse(pos.x * pos.y), all);
  }
};
}  // namespace

TEST_CASE("lavapipe's pixel options: waves of 4x2 pixels and coarse derivatives computed fine") {
  Picture lane(4, 4), count(4, 4), dxc(4, 4);
  RenderTarget rt(4, 4);
  const PixelDispatchResult r =
      DrawTriangles(LaneShader<8>{&lane, &count, &dxc}, kScene, rt, LavapipePixelOptions());
  // kScene's quads Q(0,0), Q(1,0) form the block x 0..3, y 0..1: one wave; Q(0,1) opens the
  // block y 2..3, whose second quad Q(1,1) is empty: lanes 4..7 inactive.
  CHECK(r.groups == 2);
  CHECK(r.quads == 3);
  CheckPicture("WaveGetLaneIndex", lane, {0, 1, 4, 5, 2, 3, 6, 7, 0, 1, _, _, 2, 3, _, _});
  // Covered lanes: block 0 has 5 ((0,0) (1,0) (0,1) (1,1) (2,0)), block 1 has 1 ((0,2)).
  CheckPicture("WaveActiveCountBits(true)", count, {5, 5, 5, 5, 5, 5, 5, 5, 1, 1, _, _, 1, 1, _, _});
  // ddx_coarse(x*y) computed fine: the pixel's own row y + .5 (x*y grows by y per pixel in x).
  CheckPicture("ddx_coarse(x*y) as fine", dxc,
               {.5, .5, .5, .5, 1.5, 1.5, 1.5, 1.5, 2.5, 2.5, _, _, 3.5, 3.5, _, _});
  // Outside a pixel dispatch the default (quad corner) is back: compute derivatives unchanged.
  CHECK(detail::CurrentCoarseDerivatives() == CoarseDerivatives::kQuadCorner);
}

// ------------------------------ the lavapipe comparison shader

namespace {

/// The record tests/pixel/helper_lanes.hlsl writes for covered pixel (x, y) of kScene (4 x 4,
/// WIDTH 4) at N = 16, row-major packing, quad-corner coarse derivatives, worked from the rules:
/// lane = kScene's table; wave ops see the 6 covered lanes (helpers excluded); quad partners are
/// x^1 / y^1 / both, read as positions (`code`) and as lane + helper flag (`partner`, the
/// reader's own ballot lacks a helper's bit); discard demotes (0,0) (the top-left of quad sum 0),
/// so afterwards it leaves the ballot and reads as a helper; derivatives of 3x+5y are 3 and 5, of x*y coarse (top row y0,
/// left column x0) and fine (own row y, own column x).
std::array<uint32_t, kRecordWords> SceneRecord(int x, int y) {
  auto covered = [](int px, int py) { return px + py <= 2; };
  auto lane_of = [](int px, int py) {
    const int quad = py / 2 == 0 ? px / 2 : 2;  // Q(0,0), Q(1,0), Q(0,1)
    return 4 * quad + (py & 1) * 2 + (px & 1);
  };
  auto code = [](int px, int py) { return 0x80000000u | (uint32_t(py) << 12) | uint32_t(px); };
  auto f = [](float v) { return std::bit_cast<uint32_t>(v); };
  const int lane = lane_of(x, y);
  const float cx = x + .5f, cy = y + .5f, x0 = (x & ~1) + .5f, y0 = (y & ~1) + .5f;
  const bool discarded_zero = true;  // (0,0) is covered and discarded
  uint32_t prefix = 0, sum = 0, sum2 = 0;
  for (int py = 0; py < 4; ++py)
    for (int px = 0; px < 4; ++px)
      if (covered(px, py)) {
        const uint32_t value = uint32_t(px + 16 * py + 1);
        sum += value;
        if (!(px == 0 && py == 0 && discarded_zero)) sum2 += value;
        if (lane_of(px, py) < lane) ++prefix;
      }
  auto helper_before = [&](int px, int py) { return !covered(px, py); };
  auto helper_after = [&](int px, int py) { return !covered(px, py) || (px == 0 && py == 0); };
  auto partner = [&](int px, int py, bool helper) {
    return (uint32_t(lane_of(px, py)) << 8) | uint32_t(helper);
  };
  return {uint32_t(lane), 16, 0x11F, 0,
          6, prefix, sum, code(x, y),
          code(x ^ 1, y), code(x, y ^ 1), code(x ^ 1, y ^ 1), f((x ^ 1) + .5f),
          f(3), f(5), f(3), f(5),
          f(3), f(5), f(y0), f(x0),
          f(y0), f(x0), f(cy), f(cx),
          f(y0 + x0), partner(x ^ 1, y, helper_before(x ^ 1, y)),
          partner(x, y ^ 1, helper_before(x, y ^ 1)),
          partner(x ^ 1, y ^ 1, helper_before(x ^ 1, y ^ 1)),
          0x11E, 5, partner(x ^ 1, y, helper_after(x ^ 1, y)),
          partner(x, y ^ 1, helper_after(x, y ^ 1)),
          partner(x ^ 1, y ^ 1, helper_after(x ^ 1, y ^ 1)), sum2, f(cy), f(cx),
          kRecordWritten, uint32_t(x), uint32_t(y), 0};
}

}  // namespace

TEST_CASE("the lavapipe comparison shader's port records what its wave and quad saw") {
  std::vector<uint4> out(size_t(kRecordWords / 4) * 16, uint4{0, 0, 0, 0});
  RenderTarget rt(4, 4);
  HelperLanesPort<16> port;
  port.WIDTH = 4;
  port.Out = RWStructuredBuffer<uint4>(std::span<uint4>(out));
  DrawTriangles(port, kScene, rt);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      std::array<uint32_t, kRecordWords> actual{}, expected{};
      for (int k = 0; k < kRecordWords / 4; ++k) {
        const uint4 v = out[size_t(10 * (y * 4 + x) + k)];
        actual[size_t(4 * k)] = v.x;
        actual[size_t(4 * k + 1)] = v.y;
        actual[size_t(4 * k + 2)] = v.z;
        actual[size_t(4 * k + 3)] = v.w;
      }
      // (0,0) is discarded: its first 28 words were stored before discard, the rest dropped.
      if (x + y <= 2) expected = SceneRecord(x, y);
      if (x == 0 && y == 0) std::fill(expected.begin() + 28, expected.end(), 0u);
      INFO(fmt::format("pixel ({}, {})\nexpected {:08x}\nactual   {:08x}", x, y,
                       fmt::join(expected, " "), fmt::join(actual, " ")));
      CHECK(actual == expected);
    }
  // SV_Target: (x + .5, y + .5, lane, 1) on covered pixels except the discarded (0,0).
  CHECK(rt.at(0, 0) == float4{});
  CHECK(rt.at(2, 0) == float4{2.5f, .5f, 4, 1});
  CHECK(rt.at(0, 2) == float4{.5f, 2.5f, 8, 1});
}
