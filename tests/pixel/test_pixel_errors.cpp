// Misuse of the pixel-shader API must fail loudly, with a message that names the broken rule:
// coordinates outside a Coverage or RenderTarget (checked per axis, so a wrong x cannot land in
// another row), sizes below 1 x 1 (refused before anything is allocated), option sets that need
// a particular N, and diagnostics that name the intrinsic the shader called.
#include "emulator/emulator.h"
#include "emulator/pixel.h"
#include "intrinsics/intrinsics.h"
#include "intrinsics/pixel.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <string>

using namespace waveemu;
using waveemu::test::RunGroup;

namespace {

const Triangle kCorner[] = {{{0, 0}, {4, 0}, {0, 4}}};  // covers x + y <= 2 of a 4x4 target

template <int kN>
struct WhiteShader {
  static constexpr int N = kN;
  void main(SV_Target<N>& target) const { target = Float4<N>(1.0f, 1.0f, 1.0f, 1.0f); }
};

}  // namespace

// ------------------------------ Coverage and RenderTarget bounds

TEST_CASE("Coverage::Set outside the target names the coordinate and the size, per axis") {
  Coverage c(4, 4);
  // Flat index (1 * 4 - 1) = 3 would be pixel (3, 0): the x check must catch it first.
  CHECK_THROWS_WITH_AS(c.Set(-1, 1),
                       "Coverage::Set(-1, 1): x must be in 0..3 and y in 0..3 (the coverage is "
                       "4 x 4 pixels)",
                       UsageError);
  CHECK_THROWS_WITH_AS(c.Set(4, 0),  // flat index 4 = (0, 1)
                       "Coverage::Set(4, 0): x must be in 0..3 and y in 0..3 (the coverage is "
                       "4 x 4 pixels)",
                       UsageError);
  CHECK_THROWS_AS(c.Set(0, 4), UsageError);
  CHECK_THROWS_AS(c.Set(0, -1), UsageError);
  CHECK(c.Count() == 0);  // nothing was set by the refused calls
  CHECK_FALSE(c.Test(-1, 1));  // Test stays a plain "no" outside: helpers of edge quads ask it
  CHECK_FALSE(c.Test(4, 0));
}

TEST_CASE("RenderTarget::at outside the target names the coordinate and the size, per axis") {
  RenderTarget rt(4, 4, float4{7, 7, 7, 7});
  CHECK_THROWS_WITH_AS(rt.at(4, 0) = float4{},  // flat index 4 would be (0, 1)
                       "RenderTarget::at(4, 0): x must be in 0..3 and y in 0..3 (the target is "
                       "4 x 4 pixels)",
                       UsageError);
  CHECK(rt.at(0, 1) == float4{7, 7, 7, 7});
  const RenderTarget& view = rt;
  CHECK_THROWS_WITH_AS(view.at(-1, 2),
                       "RenderTarget::at(-1, 2): x must be in 0..3 and y in 0..3 (the target is "
                       "4 x 4 pixels)",
                       UsageError);
  CHECK_THROWS_AS(view.at(0, 4), UsageError);
}

TEST_CASE("a Coverage or RenderTarget smaller than 1 x 1 is refused before allocating") {
  // A negative side used to reach std::vector first (std::length_error); a zero side drew nothing.
  CHECK_THROWS_WITH_AS(Coverage(-1, 5),
                       "Coverage of -1 x 5 pixels: width and height must be at least 1 (a "
                       "zero-size target draws nothing; it is most likely a mistake)",
                       UsageError);
  CHECK_THROWS_WITH_AS(RenderTarget(-1, 4),
                       "RenderTarget of -1 x 4 pixels: width and height must be at least 1 (a "
                       "zero-size target draws nothing; it is most likely a mistake)",
                       UsageError);
  CHECK_THROWS_AS(Coverage(4, 0), UsageError);
  CHECK_THROWS_AS(RenderTarget(0, 4), UsageError);
  CHECK_THROWS_AS(Rasterize(kCorner, 0, 0), UsageError);
}

TEST_CASE("drawing on a default-constructed (0 x 0) target or coverage is refused") {
  RenderTarget empty;
  CHECK_THROWS_WITH_AS(DrawTriangles(WhiteShader<4>{}, kCorner, empty),
                       "DrawTriangles: the render target is 0 x 0 (a default-constructed "
                       "RenderTarget); give it a size of at least 1 x 1",
                       UsageError);
  CHECK_THROWS_WITH_AS(PixelDispatch(WhiteShader<4>{}, Coverage{}),
                       "pixel dispatch: the coverage is 0 x 0 (a default-constructed Coverage); "
                       "give it the target's size, at least 1 x 1",
                       UsageError);
}

// ------------------------------ LavapipePixelOptions

TEST_CASE("LavapipePixelOptions refuse a kernel whose N is not 8, saying why") {
  RenderTarget rt(4, 4);
  CHECK_THROWS_WITH_AS(
      DrawTriangles(WhiteShader<16>{}, kCorner, rt, LavapipePixelOptions()),
      "pixel dispatch: the kernel has N = 16, these options need N = 8: LavapipePixelOptions() "
      "reproduce lavapipe's waves of one 4x2-pixel block (2 quads), which the aligned-run "
      "packing gives only with N = 8 threads per group",
      UsageError);
  CHECK_THROWS_AS(DrawTriangles(WhiteShader<4>{}, kCorner, rt, LavapipePixelOptions()),
                  UsageError);
  // N = 8 runs: the 6 covered pixels of kCorner are written.
  DrawTriangles(WhiteShader<8>{}, kCorner, rt, LavapipePixelOptions());
  int white = 0;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) white += rt.at(x, y) == float4{1, 1, 1, 1};
  CHECK(white == 6);
}

// ------------------------------ fwidth

TEST_CASE("fwidth in non-quad-uniform control flow is poisoned and reported once, under its own "
          "name") {
  DispatchShared shared;
  Half<8> f(half(1.0f));
  RunGroup<8>(8, [&] {
    if_(WaveGetLaneIndex<8>() != 2u, [&] { f = fwidth(f); });
  }, SpecProfile(), &shared);
  REQUIRE(shared.diagnostics.count() == 1);
  const std::string rule = shared.diagnostics.kept()[0].rule;
  INFO("rule: " << rule);
  CHECK(rule == "fwidth: derivative in non-quad-uniform control flow (undefined in D3D)");
  for (int t : {0, 1, 3}) CHECK(f.lane(t).bits() == Poison<half>().bits());  // quad 0
  for (int t : {4, 5, 6, 7}) CHECK(float(f.lane(t)) == 0.0f);              // whole quad
}
