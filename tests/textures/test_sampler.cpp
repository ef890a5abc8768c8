// test_sampler.cpp -- SampleLevel's arithmetic: point and linear filtering, every address mode,
// fixed-point sub-texel snapping (8 bits), mip selection. Expected values are worked by hand in
// the comments from D3D11.3 §7.18 (semantics.md §4.1).
#include "emulator/dispatch.h"
#include "emulator/texture.h"
#include "examples/generate_mips/sampler_probe.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace waveemu;

namespace {

/// 4x1 R32_FLOAT texture [0, 10, 20, 30] (plus its 2x1 and 1x1 mips [100, 200], [1000]).
Texture2DResource Row4() {
  Texture2DResource t(Format::R32_FLOAT, 4, 1, 3);
  for (uint32_t x = 0; x < 4; ++x) t.WriteFloat(0, x, 0, {10.0f * float(x), 0, 0, 1}, t.format());
  t.WriteFloat(1, 0, 0, {100, 0, 0, 1}, t.format());
  t.WriteFloat(1, 1, 0, {200, 0, 0, 1}, t.format());
  t.WriteFloat(2, 0, 0, {1000, 0, 0, 1}, t.format());
  return t;
}

float Sample(const Texture2DResource& t, const SamplerState& s, float u, float v = 0.5f,
             float lod = 0.0f, SamplerModel m = {}) {
  return SampleLevelTexel(t, t.format(), 0, t.mip_levels(), s, m, u, v, lod)[0];
}

SamplerState Sampler(Filter f, TextureAddressMode a) {
  SamplerState s;
  s.filter = f;
  s.address_u = s.address_v = a;
  s.border_color = {100, 100, 100, 100};
  return s;
}

}  // namespace

TEST_CASE("linear filtering at texel centres returns the texel and halfway the mean") {
  const auto t = Row4();
  const auto s = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  CHECK(Sample(t, s, 0.125f) == 0.0f);   // u*4 - 0.5 = 0
  CHECK(Sample(t, s, 0.375f) == 10.0f);  // = 1
  CHECK(Sample(t, s, 0.25f) == 5.0f);    // = 0.5: half of texel 0 and 1
  CHECK(Sample(t, s, 0.5f) == 15.0f);
}

TEST_CASE("the texel coordinate snaps to 8 fraction bits, rounding to nearest even") {
  const auto t = Row4();
  const auto s = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  // u = 0.3: 0.3f * 4 = 1.2000000477, - 0.5 = 0.70000005; * 256 = 179.2 -> 179, w = 179/256.
  CHECK(Sample(t, s, 0.3f) == 10.0f * 179.0f / 256.0f);  // 6.9921875
  // Without quantised weights the float fraction is the weight: 10 * 0.70000005.
  SamplerModel exact;
  exact.quantise_weights = false;
  CHECK(Sample(t, s, 0.3f, 0.5f, 0.0f, exact) == 10.0f * (0.3f * 4.0f - 0.5f));
  // Fraction 0.5/256 (u*4 - 0.5 = 1/512): a tie, rounds to even 0 -> exactly texel 0.
  CHECK(Sample(t, s, (0.5f + 1.0f / 512.0f) / 4.0f) == 0.0f);
  // Fraction 1.5/256: a tie, rounds to even 2 -> 10 * 2/256.
  CHECK(Sample(t, s, (0.5f + 3.0f / 512.0f) / 4.0f) == 10.0f * 2.0f / 256.0f);
  // With floor rounding the same coordinate gives 1/256.
  SamplerModel floor_model;
  floor_model.coordinate_rounding = FixedRounding::kFloor;
  CHECK(Sample(t, s, (0.5f + 3.0f / 512.0f) / 4.0f, 0.5f, 0.0f, floor_model) ==
        10.0f * 1.0f / 256.0f);
  // With 4 sub-texel bits (Vulkan's minimum): 0.70000005 * 16 = 11.2 -> 11, w = 11/16.
  SamplerModel four;
  four.subtexel_bits = 4;
  CHECK(Sample(t, s, 0.3f, 0.5f, 0.0f, four) == 10.0f * 11.0f / 16.0f);
}

TEST_CASE("linear filtering at the left edge: each address mode picks the tap left of texel 0") {
  const auto t = Row4();
  // u = 0: u*4 - 0.5 = -0.5 -> taps -1 and 0 with weights 0.5 each.
  auto at0 = [&](TextureAddressMode a) {
    return Sample(t, Sampler(Filter::MIN_MAG_MIP_LINEAR, a), 0.0f);
  };
  CHECK(at0(TextureAddressMode::WRAP) == 15.0f);        // texel 3 (30) and texel 0 (0)
  CHECK(at0(TextureAddressMode::MIRROR) == 0.0f);       // -1 mirrors to 0
  CHECK(at0(TextureAddressMode::CLAMP) == 0.0f);        // -1 clamps to 0
  CHECK(at0(TextureAddressMode::BORDER) == 50.0f);      // border 100 and texel 0
  CHECK(at0(TextureAddressMode::MIRROR_ONCE) == 0.0f);  // -1 mirrors to 0
}

TEST_CASE("point sampling outside [0, 1): wrap, mirror, clamp, border and mirror-once") {
  const auto t = Row4();
  auto at = [&](TextureAddressMode a, float u) {
    return Sample(t, Sampler(Filter::MIN_MAG_MIP_POINT, a), u);
  };
  using M = TextureAddressMode;
  // u = -0.125: texel -1 (floor(-0.5)).
  CHECK(at(M::WRAP, -0.125f) == 30.0f);
  CHECK(at(M::MIRROR, -0.125f) == 0.0f);
  CHECK(at(M::CLAMP, -0.125f) == 0.0f);
  CHECK(at(M::BORDER, -0.125f) == 100.0f);
  CHECK(at(M::MIRROR_ONCE, -0.125f) == 0.0f);
  // u = 1.125: texel 4.
  CHECK(at(M::WRAP, 1.125f) == 0.0f);
  CHECK(at(M::MIRROR, 1.125f) == 30.0f);
  CHECK(at(M::CLAMP, 1.125f) == 30.0f);
  CHECK(at(M::BORDER, 1.125f) == 100.0f);
  // u = 1.625: texel 6 -> wrap 2, mirror 8-1-6 = 1.
  CHECK(at(M::WRAP, 1.625f) == 20.0f);
  CHECK(at(M::MIRROR, 1.625f) == 10.0f);
  // u = -1.625: texel -7 -> wrap 1; mirror: -7 mod 8 = 1 -> 1; mirror-once: 6 -> clamp 3.
  CHECK(at(M::WRAP, -1.625f) == 10.0f);
  CHECK(at(M::MIRROR, -1.625f) == 10.0f);
  CHECK(at(M::MIRROR_ONCE, -1.625f) == 30.0f);
  // u = 0.999: texel 3 in every mode.
  for (M a : {M::WRAP, M::MIRROR, M::CLAMP, M::BORDER, M::MIRROR_ONCE}) CHECK(at(a, 0.999f) == 30.0f);
}

TEST_CASE("bilinear in two dimensions weights four texels by wU * wV") {
  Texture2DResource t(Format::R32G32B32A32_FLOAT, 2, 2);
  const float v[4] = {1, 2, 3, 4};
  for (uint32_t i = 0; i < 4; ++i) t.WriteFloat(0, i % 2, i / 2, {v[i], 0, 0, 1}, t.format());
  const auto s = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  CHECK(Sample(t, s, 0.5f, 0.5f) == 2.5f);  // all four at 1/4
  // (0.375, 0.5): u*2 - 0.5 = 0.25 -> wU1 = 0.25; v -> 0.5: 1*.375 + 2*.125 + 3*.375 + 4*.125.
  CHECK(Sample(t, s, 0.375f, 0.5f) == 2.25f);
  // Alpha is read as 1 (missing channels of R32G32B32A32 are present; this one wrote 1).
  CHECK(SampleLevelTexel(t, t.format(), 0, 1, s, {}, 0.3f, 0.7f, 0)[3] == 1.0f);
}

TEST_CASE("SampleLevel picks the nearest mip with point mip filtering and blends with linear") {
  const auto t = Row4();
  auto point_mip = Sampler(Filter::MIN_MAG_LINEAR_MIP_POINT, TextureAddressMode::CLAMP);
  CHECK(Sample(t, point_mip, 0.25f, 0.5f, 0.0f) == 100.0f * 0 + 5.0f);  // mip 0
  CHECK(Sample(t, point_mip, 0.25f, 0.5f, 0.49f) == 5.0f);              // 0.49 + 0.5 -> 0
  CHECK(Sample(t, point_mip, 0.25f, 0.5f, 0.5f) == 100.0f);             // mip 1, u*2-0.5 = 0
  CHECK(Sample(t, point_mip, 0.25f, 0.5f, 7.0f) == 1000.0f);            // clamped to mip 2
  auto linear_mip = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  // LOD 0.25: 0.75 * mip0 (5) + 0.25 * mip1 (100) = 28.75.
  CHECK(Sample(t, linear_mip, 0.25f, 0.5f, 0.25f) == 28.75f);
}

TEST_CASE("a sampler LOD range outside the view's levels clamps to the nearest level, and bad "
          "models and mip ranges are refused") {
  const auto t = Row4();  // mips: [0, 10, 20, 30], [100, 200], [1000]
  auto s = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  // D3D clamps the LOD to [MinLOD, MaxLOD] and then to the levels that exist: MaxLOD -1 gives
  // level 0, MinLOD 5 the last level.
  s.min_lod = -2.0f;
  s.max_lod = -1.0f;
  CHECK(Sample(t, s, 0.25f, 0.5f, 1.0f) == 5.0f);
  s.min_lod = 5.0f;
  s.max_lod = 6.0f;
  CHECK(Sample(t, s, 0.25f, 0.5f, 0.0f) == 1000.0f);
  SamplerModel bad;
  bad.subtexel_bits = 40;
  CHECK_THROWS_WITH_AS(Sample(t, Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP),
                              0.3f, 0.5f, 0.0f, bad),
                       "SamplerModel: subtexel_bits 40 must be 1..24 and lod_fraction_bits 8 0..24",
                       UsageError);
  CHECK_THROWS_WITH_AS(Texture2D<float>(t, t.format(), 1, 4294967295u, TextureOptions{}),
                       "Texture2D: mips 1..4294967295 are outside the texture's 3 levels, 0..2",
                       UsageError);
  CHECK_THROWS_WITH_AS(Texture2D<float>(t, t.format(), 0, 0u, TextureOptions{}),
                       "Texture2D: a view reads at least one mip (mip_count is 0)", UsageError);
}

// ------------------------------------------------------------------------------------------------
// The probe that measures devices (examples/generate_mips/SamplerProbe.hlsl), run on the model.

namespace {

std::vector<float> RunProbe(const SamplerModel& model) {
  Texture2DResource src(Format::R32_FLOAT, 2, 1);
  src.WriteFloat(0, 1, 0, {1.0f, 0, 0, 1}, src.format());
  std::vector<float> weights(4096, -1.0f);
  examples::SamplerProbe k;
  k.Src = Texture2D<float>(src, TextureOptions{model});
  k.Weights = RWStructuredBuffer<float>(std::span<float>(weights));
  DispatchOptions o;
  o.wave_size = 32;
  o.max_threads = 2;
  Dispatch(k, uint3{64, 1, 1}, o);
  return weights;
}

}  // namespace

TEST_CASE("the sampler probe reads back round(i / 16) / 256 with 8 bits, ties to even") {
  const auto w = RunProbe({});
  for (int i = 0; i < 4096; ++i) {
    INFO("thread " << i);
    CHECK(w[size_t(i)] == float(std::nearbyint(i / 16.0) / 256.0));
  }
  // With 4 bits and floor rounding the weight steps every 256 threads.
  SamplerModel coarse;
  coarse.subtexel_bits = 4;
  coarse.coordinate_rounding = FixedRounding::kFloor;
  const auto c = RunProbe(coarse);
  for (int i = 0; i < 4096; i += 17) CHECK(c[size_t(i)] == float(std::floor(i / 256.0) / 16.0));
}

// ------------------------------------------------------------------------------------------------
// The sampler model comes from the dispatch's device profile.

TEST_CASE("inside a dispatch SampleLevel and UNORM stores use the profile's sampler model unless the view overrides it") {
  const auto t = Row4();
  const auto s = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  DeviceProfile coarse = SpecProfile();
  coarse.sampler.subtexel_bits = 4;
  coarse.sampler.unorm_rounding = UnormRounding::kNearestEven;
  constexpr int N = 8;
  // u = 0.3: u*4 - 0.5 = 0.70000005 -> 8 bits: 179/256; 4 bits: 11/16 (worked above).
  auto sample = [&](const DeviceProfile& profile, TextureOptions options) {
    float got = -1.0f;
    test::RunGroup<N>(N, [&] {
      Texture2D<float> view(t, options);
      Float<N> r = view.SampleLevel(s, Float2<N>(Float<N>(0.3f), Float<N>(0.5f)), 0.0f);
      got = r.lane(3);
    }, profile);
    return got;
  };
  CHECK(sample(SpecProfile(), {}) == 10.0f * 179.0f / 256.0f);
  CHECK(sample(coarse, {}) == 10.0f * 11.0f / 16.0f);
  CHECK(sample(coarse, TextureOptions{SamplerModel{}}) == 10.0f * 179.0f / 256.0f);
  // 0x1.010102p-9 * 255 is exactly 0.5 in float: half up stores 1, nearest-even 0.
  auto store = [&](const DeviceProfile& profile) {
    Texture2DResource u(Format::R8G8B8A8_UNORM, 8, 1);
    test::RunGroup<N>(N, [&] {
      RWTexture2D<float4> out(u);
      Uint2<N> pos(WaveGetLaneIndex<N>(), Uint<N>(0u));
      out[pos] = Float4<N>(Float<N>(0x1.010102p-9f), Float<N>(0.0f), Float<N>(0.0f), Float<N>(1.0f));
    }, profile);
    return uint8_t(std::lround(u.ReadFloat(0, 5, 0, u.format())[0] * 255.0f));
  };
  CHECK(store(SpecProfile()) == 1);
  CHECK(store(coarse) == 0);
}

TEST_CASE("uniform-coordinate Load, [], SampleLevel and Write in a kernel use the profile's model "
          "too") {
  constexpr int N = 8;
  // UNORM code 3: D3D decodes 3/255 exactly rounded, lavapipe's model 3 * fl(1/255), which is
  // one ulp apart; the test needs them to differ.
  const float exact = 3.0f / 255.0f, times_reciprocal = 3.0f * (1.0f / 255.0f);
  REQUIRE(exact != times_reciprocal);
  Texture2DResource unorm(Format::R8G8B8A8_UNORM, 2, 1);
  unorm.Level(0)[4] = std::byte(3);  // texel 1, red
  auto load = [&](const DeviceProfile& profile) {
    std::array<float, 2> got{-1.0f, -1.0f};
    test::RunGroup<N>(N, [&] {
      const Texture2D<float4> view(unorm);
      got[0] = view.Load(int3{1, 0, 0}).x;
      got[1] = view[uint2{1, 0}].x;
    }, profile);
    return got;
  };
  CHECK(load(SpecProfile()) == std::array<float, 2>{exact, exact});
  CHECK(load(LavapipeProfile()) == std::array<float, 2>{times_reciprocal, times_reciprocal});

  // u = 0.3 on Row4: 8 sub-texel bits give 179/256 of the way from 0 to 10, 4 bits 11/16.
  const auto t = Row4();
  const auto s = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  DeviceProfile coarse = SpecProfile();
  coarse.sampler.subtexel_bits = 4;
  coarse.sampler.unorm_rounding = UnormRounding::kNearestEven;
  auto sample = [&](const DeviceProfile& profile) {
    float got = -1.0f;
    test::RunGroup<N>(N, [&] {
      const Texture2D<float> view(t);
      got = view.SampleLevel(s, float2{0.3f, 0.5f}, 0.0f);
    }, profile);
    return got;
  };
  CHECK(sample(SpecProfile()) == 10.0f * 179.0f / 256.0f);
  CHECK(sample(coarse) == 10.0f * 11.0f / 16.0f);

  // 0x1.010102p-9 * 255 is exactly 0.5: half up stores 1, nearest-even 0.
  auto store = [&](const DeviceProfile& profile) {
    Texture2DResource u(Format::R8G8B8A8_UNORM, 8, 1);
    test::RunGroup<N>(N, [&] {
      const RWTexture2D<float4> out(u);
      out.Write(5, 0, float4{0x1.010102p-9f, 0.0f, 0.0f, 1.0f});
    }, profile);
    return std::to_integer<int>(u.Level(0)[5 * 4]);
  };
  CHECK(store(SpecProfile()) == 1);
  CHECK(store(coarse) == 0);
}

// ------------------------------------------------------------------------------------------------
// The lavapipe model's parts, against values lavapipe recorded (tests/golden/lavapipe/
// probe_sampler_*) or worked by hand.

TEST_CASE("lavapipe's UNORM and sRGB decoders give the bits lavapipe recorded") {
  // probe_sampler_formats: Load of code c through UNORM and _SRGB views.
  CHECK(UnormToFloat(3, UnormDecode::kTimesReciprocal) == 0x1.818184p-7f);  // c/255: 0x1.818182p-7
  CHECK(UnormToFloat(3, UnormDecode::kExact) == 0x1.818182p-7f);
  CHECK(UnormToFloat(128, UnormDecode::kTimesReciprocal) == 0x1.010102p-1f);
  CHECK(SrgbToFloat(0, SrgbDecode::kLlvmpipePolynomial) == 0.0f);
  CHECK(SrgbToFloat(1, SrgbDecode::kLlvmpipePolynomial) == 0x1.465aacp-12f);    // linear part
  CHECK(SrgbToFloat(15, SrgbDecode::kLlvmpipePolynomial) == 0x1.31f502p-8f);    // last linear
  CHECK(SrgbToFloat(16, SrgbDecode::kLlvmpipePolynomial) == 0x1.5ae054p-8f);    // first cubic
  CHECK(SrgbToFloat(128, SrgbDecode::kLlvmpipePolynomial) == 0x1.bbacb8p-3f);
  CHECK(SrgbToFloat(254, SrgbDecode::kLlvmpipePolynomial) == 0x1.fb684ap-1f);
  CHECK(SrgbToFloat(255, SrgbDecode::kLlvmpipePolynomial) == 1.0f);
}

TEST_CASE("UNORM filtering in 8-bit fixed point: a + ((k * (b - a) + 128) >> 8), worked by hand") {
  SamplerModel fixed;
  fixed.unorm_filter = UnormFilter::kFixed8;
  const auto s = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  auto at = [&](uint8_t left, uint8_t right, float k) {  // weight k/256 of the right texel
    Texture2DResource t(Format::R8G8B8A8_UNORM, 2, 1);
    t.WriteFloat(0, 0, 0, {left / 255.0f, 0, 0, 1}, t.format());
    t.WriteFloat(0, 1, 0, {right / 255.0f, 0, 0, 1}, t.format());
    const float u = (k / 256.0f + 0.5f) / 2.0f;  // u * 2 - 0.5 = k / 256
    return SampleLevelTexel(t, t.format(), 0, 1, s, fixed, u, 0.5f, 0.0f)[0];
  };
  CHECK(at(0, 255, 1) == 1.0f / 255);      // (255 + 128) >> 8 = 1
  CHECK(at(0, 255, 129) == 128.0f / 255);  // (32895 + 128) >> 8 = 128 (float filtering: 129)
  CHECK(at(255, 0, 1) == 254.0f / 255);    // 255 + ((-255 + 128) >> 8) = 255 - 1
  CHECK(at(10, 20, 64) == 13.0f / 255);    // 10 + ((640 + 128) >> 8) = 10 + 3
}

TEST_CASE("fused lerps give the bits lavapipe recorded where the weighted sum rounds differently") {
  // probe_sampler_arithmetic threads 1 and 15, alpha: texels a, b of the top row, wU = 1/32 and
  // 15/32, wV = 0. At 1/32 D3D's a·(31/32) + b·(1/32) rounds to 0x1.4a1994p+1.
  Texture2DResource t(Format::R32_FLOAT, 2, 1);
  t.WriteFloat(0, 0, 0, {0x1.3b2818p+1f, 0, 0, 1}, t.format());
  t.WriteFloat(0, 1, 0, {0x1.8cabb4p+2f, 0, 0, 1}, t.format());
  const auto s = Sampler(Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP);
  auto u = [](float w) { return (w + 0.5f) / 2.0f; };
  const SamplerModel lavapipe = LavapipeProfile().sampler;
  CHECK(Sample(t, s, u(15.0f / 32), 0.5f, 0.0f, lavapipe) == 0x1.0da722p+2f);
  CHECK(Sample(t, s, u(1.0f / 32), 0.5f, 0.0f, lavapipe) == 0x1.4a1992p+1f);
  CHECK(Sample(t, s, u(1.0f / 32), 0.5f, 0.0f, {}) == 0x1.4a1994p+1f);
}

TEST_CASE("point sampling under MIRROR folds the coordinate first in llvmpipe's model, worked by hand") {
  const auto t = Row4();  // [0, 10, 20, 30]
  SamplerModel fold;
  fold.mirror_point_by_coordinate = true;
  auto at = [&](TextureAddressMode a, float u, const SamplerModel& m) {
    return Sample(t, Sampler(Filter::MIN_MAG_MIP_POINT, a), u, 0.5f, 0.0f, m);
  };
  using M = TextureAddressMode;
  // u = 1.25: u*4 = 5, texel 5 mirrors to 2 (D3D); the folded coordinate 0.75 * 4 = 3 -> texel 3.
  CHECK(at(M::MIRROR, 1.25f, {}) == 20.0f);
  CHECK(at(M::MIRROR, 1.25f, fold) == 30.0f);
  // u = -0.25: texel -1 mirrors to 0 (D3D); |-0.25| * 4 = 1 -> texel 1. MIRROR_ONCE alike.
  CHECK(at(M::MIRROR, -0.25f, {}) == 0.0f);
  CHECK(at(M::MIRROR, -0.25f, fold) == 10.0f);
  CHECK(at(M::MIRROR_ONCE, -0.25f, {}) == 0.0f);
  CHECK(at(M::MIRROR_ONCE, -0.25f, fold) == 10.0f);
  // Inside a texel both agree: u = 1.3 -> 5.2 -> texel 2; folded 0.7 * 4 = 2.8 -> texel 2.
  CHECK(at(M::MIRROR, 1.3f, fold) == 20.0f);
  CHECK(at(M::MIRROR, 1.3f, {}) == 20.0f);
}
