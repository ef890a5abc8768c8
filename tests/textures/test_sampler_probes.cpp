// test_sampler_probes.cpp -- the sampler-model probes (tests/pipelines/probe_sampler_*.hlsl, whose
// ports are tests/pipelines/ports/probe_sampler.h) run on the emulator: with the D3D defaults each
// output equals a plain scalar loop written here from D3D11.3 §7.18 and §3.2 (not from the
// emulator's sampler), and another model changes the bits (a probe that cannot tell models apart
// measures nothing). The inputs are the pipelines' (tests/pipelines/gen_sampler_probes.py).
#include "emulator/dispatch.h"
#include "tests/pipelines/ports/probe_sampler.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

using namespace waveemu;
using namespace waveemu::oracle;

namespace {

/// The arithmetic probe's 2x2 R32G32B32A32_FLOAT texels (row-major, RGBA), full mantissas.
constexpr std::array<float, 16> kArithmeticF = {
    0x1.9ccda2p+2f, 0x1.aa89b6p+2f, 0x1.08d10ep+2f, 0x1.3b2818p+1f, 0x1.01bc0ep-1f, 0x1.5e2726p+2f,
    0x1.01b8d8p+2f, 0x1.8cabb4p+2f, 0x1.a63be4p+1f, 0x1.91aac8p+2f, 0x1.45ca48p+1f, 0x1.a0eb60p+2f,
    0x1.7e50e0p+2f, 0x1.cd723ap+1f, 0x1.2262f2p+2f, 0x1.676284p+2f};
/// The arithmetic probe's 2x2 R8G8B8A8_UNORM codes.
constexpr std::array<uint8_t, 16> kArithmeticU = {17, 200, 93,  255, 0,  128, 77,  3,
                                                  250, 64, 31, 190, 101, 11, 222, 145};

/// Component c of a float4 (HLSL's v[c]).
float At(const float4& v, int c) { return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w; }

DispatchOptions Options(const DeviceProfile& profile) {
  DispatchOptions o;
  o.profile = profile;
  o.wave_size = 32;
  o.max_threads = 2;
  return o;
}

DeviceProfile WithSampler(SamplerModel m) {
  DeviceProfile p = SpecProfile();
  p.sampler = m;
  return p;
}

/// D3D §7.18.8 on one axis: scaled = c * size - 0.5 (float), 8 fraction bits rounded to nearest
/// even; returns the lower texel index and the weight k/256 of the upper one.
std::pair<int64_t, float> D3dAxis(float c, uint32_t size) {
  const float scaled = c * float(size) - 0.5f;
  const double fixed = std::nearbyint(double(scaled) * 256.0);
  const double t0 = std::floor(fixed / 256.0);
  return {int64_t(t0), float((fixed - t0 * 256.0) / 256.0)};
}

// ------------------------------ probe_sampler_weights

std::vector<float> RunWeights(const DeviceProfile& profile) {
  Texture2DResource wx(Format::R32_FLOAT, 2, 1), wy(Format::R32_FLOAT, 1, 2),
      ux(Format::R8G8B8A8_UNORM, 2, 1), ramp(Format::R32_FLOAT, 5, 1);
  wx.WriteFloat(0, 1, 0, {1, 0, 0, 1}, wx.format());
  wy.WriteFloat(0, 0, 1, {1, 0, 0, 1}, wy.format());
  ux.WriteFloat(0, 1, 0, {1, 1, 1, 1}, ux.format());
  for (uint32_t x = 0; x < 5; ++x) ramp.WriteFloat(0, x, 0, {float(x), 0, 0, 1}, ramp.format());
  std::vector<float> out(4 * 4096, -1.0f);
  ProbeSamplerWeights k;
  k.WX = Texture2D<float>(wx);
  k.WY = Texture2D<float>(wy);
  k.UX = Texture2D<float4>(ux);
  k.Ramp = Texture2D<float>(ramp);
  k.Out = RWStructuredBuffer<float>(std::span<float>(out));
  Dispatch(k, uint3{64, 1, 1}, Options(profile));
  return out;
}

TEST_CASE("probe_sampler_weights reads back the D3D weights round(i / 16) / 256 and the ramp's fixed-point coordinate") {
  const auto out = RunWeights(SpecProfile());
  for (int i = 0; i < 4096; ++i) {
    const float weight = float(std::nearbyint(i / 16.0) / 256.0);  // ties to even
    // Ramp: texel values are their indices, so the result is index + weight, both taps clamped.
    auto [t0, w] = D3dAxis(float(i) / 4096.0f, 5);
    const float v0 = float(std::clamp<int64_t>(t0, 0, 4)), v1 = float(std::clamp<int64_t>(t0 + 1, 0, 4));
    const float ramp = v0 * (1.0f - w) + v1 * w;
    INFO("thread ", i);
    CHECK(out[size_t(i)] == weight);
    CHECK(out[size_t(4096 + i)] == weight);
    CHECK(out[size_t(2 * 4096 + i)] == weight);
    CHECK(out[size_t(3 * 4096 + i)] == ramp);
  }
}

TEST_CASE("probe_sampler_weights tells 4 sub-texel bits, floor rounding and float weights apart from D3D's") {
  const auto d3d = RunWeights(SpecProfile());
  SamplerModel four, floor_rounding, unquantised;
  four.subtexel_bits = 4;
  floor_rounding.coordinate_rounding = FixedRounding::kFloor;
  unquantised.quantise_weights = false;
  for (const SamplerModel& m : {four, floor_rounding, unquantised}) {
    const auto other = RunWeights(WithSampler(m));
    CHECK(!std::equal(d3d.begin(), d3d.begin() + 4096, other.begin()));
  }
  // Thread 8 is the tie 0.5/256: nearest even gives 0, and so does floor; 1.5/256 (thread 24)
  // gives 2/256 rounded to even and 1/256 by floor.
  const auto f = RunWeights(WithSampler(floor_rounding));
  CHECK(f[24] == 1.0f / 256);
  CHECK(d3d[24] == 2.0f / 256);
  CHECK(d3d[8] == 0.0f);
}

// ------------------------------ probe_sampler_arithmetic

std::vector<float4> RunArithmetic(const DeviceProfile& profile) {
  Texture2DResource f(Format::R32G32B32A32_FLOAT, 2, 2), u(Format::R8G8B8A8_UNORM, 2, 2);
  for (uint32_t t = 0; t < 4; ++t) {
    std::array<float, 4> fv{}, uv{};
    for (size_t c = 0; c < 4; ++c) {
      fv[c] = kArithmeticF[4 * t + c];
      uv[c] = float(kArithmeticU[4 * t + c]) / 255.0f;
    }
    f.WriteFloat(0, t % 2, t / 2, fv, f.format());
    u.WriteFloat(0, t % 2, t / 2, uv, u.format());
  }
  std::vector<float4> out(2048, float4{-1, -1, -1, -1});
  ProbeSamplerArithmetic k;
  k.F = Texture2D<float4>(f);
  k.U = Texture2D<float4>(u);
  k.Out = RWStructuredBuffer<float4>(std::span<float4>(out));
  Dispatch(k, uint3{16, 1, 1}, Options(profile));
  return out;
}

/// Texel t, channel c of the probe's textures as floats (UNORM: c / 255).
float TexelF(int t, int c) { return kArithmeticF[size_t(4 * t + c)]; }
float TexelU(int t, int c) { return float(kArithmeticU[size_t(4 * t + c)]) / 255.0f; }

TEST_CASE("probe_sampler_arithmetic gives D3D's weighted sum, and lerps along U then V round differently") {
  const auto sum = RunArithmetic(SpecProfile());
  SamplerModel lerp_model;
  lerp_model.arithmetic = FilterArithmetic::kLerpUThenV;
  const auto lerp = RunArithmetic(WithSampler(lerp_model));
  int lerp_differs = 0;
  for (int i = 0; i < 1024; ++i) {
    const float wu = float(i % 32) / 32.0f, wv = float(i / 32) / 32.0f;
    for (int tex = 0; tex < 2; ++tex) {
      auto texel = tex == 0 ? TexelF : TexelU;
      const float4 got_sum = sum[size_t(tex * 1024 + i)], got_lerp = lerp[size_t(tex * 1024 + i)];
      for (int c = 0; c < 4; ++c) {
        const float a = texel(0, c), b = texel(1, c), cc = texel(2, c), d = texel(3, c);
        // D3D §7.18.8: Σ texel · wU · wV, in tap order.
        const float expected_sum = a * ((1 - wu) * (1 - wv)) + b * (wu * (1 - wv)) +
                                   cc * ((1 - wu) * wv) + d * (wu * wv);
        const float top = a * (1 - wu) + b * wu, bottom = cc * (1 - wu) + d * wu;
        const float expected_lerp = top * (1 - wv) + bottom * wv;
        INFO("thread ", i, " texture ", tex, " channel ", c, " wU ", wu, " wV ", wv);
        CHECK(At(got_sum, c) == expected_sum);
        CHECK(At(got_lerp, c) == expected_lerp);
        if (expected_sum != expected_lerp) ++lerp_differs;
      }
    }
  }
  // The texel values were chosen so that the two orders disagree often.
  CHECK(lerp_differs > 500);
}

// ------------------------------ probe_sampler_formats

TEST_CASE("probe_sampler_formats decodes UNORM as c / 255 and sRGB with the exact curve before filtering") {
  Texture2DResource unorm(Format::R8G8B8A8_UNORM, 256, 1), srgb(Format::R8G8B8A8_UNORM_SRGB, 256, 1);
  auto code = [](uint32_t i) {
    return std::array<uint32_t, 4>{i, 255 - i, (i * 7) % 256, i};
  };
  for (uint32_t i = 0; i < 256; ++i) {
    std::array<float, 4> v{};
    for (size_t c = 0; c < 4; ++c) v[c] = float(code(i)[c]) / 255.0f;
    unorm.WriteFloat(0, i, 0, v, unorm.format());
    srgb.WriteFloat(0, i, 0, v, Format::R8G8B8A8_UNORM);  // the same bytes
  }
  std::vector<float4> out(768, float4{-1, -1, -1, -1});
  ProbeSamplerFormats k;
  k.Unorm = Texture2D<float4>(unorm);
  k.Srgb = Texture2D<float4>(srgb);
  k.Out = RWStructuredBuffer<float4>(std::span<float4>(out));
  Dispatch(k, uint3{4, 1, 1}, Options(SpecProfile()));
  // IEC 61966-2-1 in double, rounded once to float (D3D §3.2.3.7); alpha is linear.
  auto decode = [](uint32_t c) {
    const double s = c / 255.0;
    return float(s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4));
  };
  for (uint32_t i = 0; i < 256; ++i) {
    const uint32_t j = std::min(i + 1, 255u);
    for (int c = 0; c < 4; ++c) {
      INFO("texel ", i, " channel ", c, " code ", code(i)[size_t(c)]);
      CHECK(At(out[i], c) == float(code(i)[size_t(c)]) / 255.0f);
      const float lin_i = c == 3 ? float(code(i)[3]) / 255.0f : decode(code(i)[size_t(c)]);
      const float lin_j = c == 3 ? float(code(j)[3]) / 255.0f : decode(code(j)[size_t(c)]);
      CHECK(At(out[256 + i], c) == lin_i);
      // Halfway: weights 1/2 in u, (1, 0) in v: a·½ + b·½ + c·0 + d·0 (c, d the clamped row).
      const float halfway = lin_i * 0.5f + lin_j * 0.5f + lin_i * 0.0f + lin_j * 0.0f;
      CHECK(At(out[512 + i], c) == halfway);
    }
  }
}

// ------------------------------ probe_sampler_address

TEST_CASE("probe_sampler_address: wrap, mirror, clamp, border and mirror-once past both edges, point and linear") {
  Texture2DResource row(Format::R32_FLOAT, 4, 1);
  const float texels[4] = {2, 4, 8, 16};
  for (uint32_t x = 0; x < 4; ++x) row.WriteFloat(0, x, 0, {texels[x], 0, 0, 1}, row.format());
  std::vector<float> out(640, -1.0f);
  ProbeSamplerAddress k;
  k.Row = Texture2D<float>(row);
  k.Out = RWStructuredBuffer<float>(std::span<float>(out));
  Dispatch(k, uint3{1, 1, 1}, Options(SpecProfile()));
  // D3D §7.18.7: the texel of index i under each mode; -1 is the border (opaque white, 1.0).
  auto fetch = [&](int mode, int64_t i) -> float {
    int64_t a = i;
    switch (mode) {
      case 0: a = ((i % 4) + 4) % 4; break;                         // WRAP
      case 1: { int64_t m = ((i % 8) + 8) % 8; a = m < 4 ? m : 7 - m; break; }  // MIRROR
      case 2: a = std::clamp<int64_t>(i, 0, 3); break;              // CLAMP
      case 3: if (i < 0 || i > 3) return 1.0f; break;               // BORDER
      default: a = std::clamp<int64_t>(i < 0 ? -i - 1 : i, 0, 3);   // MIRROR_ONCE
    }
    return texels[a];
  };
  for (int s = 0; s < 10; ++s)
    for (int i = 0; i < 64; ++i) {
      const float u = (float(i) - 24.0f) / 16.0f;  // u * 4 = (i - 24) / 4, exact
      float expected;
      if (s % 2 == 0) {
        expected = fetch(s / 2, int64_t(std::floor(u * 4.0f)));
      } else {
        auto [t0, w] = D3dAxis(u, 4);
        // v: one row, weights (1, 0); the second row is the same texels (v clamps or wraps to 0).
        const float a = fetch(s / 2, t0), b = fetch(s / 2, t0 + 1);
        expected = a * ((1 - w) * 1.0f) + b * (w * 1.0f) + a * ((1 - w) * 0.0f) + b * (w * 0.0f);
      }
      INFO("sampler ", s, " (mode ", s / 2, s % 2 ? ", linear" : ", point", ") thread ", i, " u ", u);
      CHECK(out[size_t(s * 64 + i)] == expected);
    }
}

}  // namespace

// ------------------------------ probe_sampler_encode

namespace {

/// The probe's inputs, as gen_sampler_probes.py's encode_inputs builds them: per k a float t with
/// fl(t·255) = k + 0.5 (searched next to (k + 0.5)/255), (k + 0.4)/255, (k + 0.6)/255 and the
/// float below t; per j the half tie 1 + (2j+1)·2^-11, 2^-20 above it, its negative, 65500 + 4j.
std::vector<float4> EncodeInputs() {
  std::vector<float4> in;
  for (int k = 0; k < 256; ++k) {
    float t = float((k + 0.5) / 255.0);
    for (float c : {t, std::nextafter(t, 2.0f), std::nextafter(t, -1.0f)})
      if (c * 255.0f == float(k) + 0.5f) { t = c; break; }
    in.push_back({t, float((k + 0.4) / 255.0), float((k + 0.6) / 255.0), std::nextafter(t, -1.0f)});
  }
  for (int j = 0; j < 256; ++j) {
    const float tie = float(1.0 + (2 * j + 1) * std::ldexp(1.0, -11));
    in.push_back({tie, tie + std::ldexp(1.0f, -20), -tie, 65500.0f + 4.0f * float(j)});
  }
  return in;
}

}  // namespace

TEST_CASE("probe_sampler_encode stores UNORM8 by +0.5 and truncate and half by the model's rounding") {
  const auto in = EncodeInputs();
  Texture2DResource unorm(Format::R8G8B8A8_UNORM, 256, 1), half_tex(Format::R16G16B16A16_FLOAT, 256, 1);
  auto run = [&](const DeviceProfile& profile) {
    ProbeSamplerEncode k;
    k.In = StructuredBuffer<float4>(std::span<const float4>(in));
    k.Unorm8 = RWTexture2D<float4>(unorm);
    k.Half = RWTexture2D<float4>(half_tex);
    Dispatch(k, uint3{4, 1, 1}, Options(profile));
  };
  run(SpecProfile());
  int ties = 0;
  for (uint32_t i = 0; i < 256; ++i) {
    const auto codes = unorm.ReadCodes(0, i, 0);
    for (int c = 0; c < 4; ++c) {
      // D3D §3.2.3.6: clamp, scale by 255 in float, +0.5, truncate.
      const float scaled = std::clamp(At(in[i], c), 0.0f, 1.0f) * 255.0f;
      const auto expected = uint8_t(std::floor(double(scaled) + 0.5));
      if (c == 0 && scaled == float(i) + 0.5f) ++ties;
      INFO("texel ", i, " channel ", c, " input ", At(in[i], c), " scaled ", scaled);
      CHECK(codes[size_t(c)] == expected);
    }
  }
  CHECK(ties == 255);  // every k < 255 has an exact tie (k = 255 clamps)
  // Half, worked by hand for j = 0 and 1: 1 + 2^-11 is the tie between 0x3c00 and 0x3c01 (even:
  // 0x3c00); 1 + 3·2^-11 between 0x3c01 and 0x3c02 (even: 0x3c02); just above a tie rounds up;
  // 65500 lies between 65472 (0x7bfe) and 65504 (0x7bff), nearer the latter.
  auto h = [&](uint32_t x, int c) {
    uint16_t bits;
    std::memcpy(&bits, half_tex.Level(0).data() + x * 8 + size_t(c) * 2, 2);
    return bits;
  };
  CHECK(h(0, 0) == 0x3c00);
  CHECK(h(0, 1) == 0x3c01);
  CHECK(h(0, 2) == 0xbc00);
  CHECK(h(0, 3) == 0x7bff);
  CHECK(h(1, 0) == 0x3c02);
  CHECK(h(5, 3) == 0x7c00);  // 65520: halfway to 65536, rounds to even: infinity
  // Toward zero (D3D's rule, and lavapipe's): every tie and everything above it goes down, and
  // overflow stops at the largest finite half.
  DeviceProfile toward_zero = SpecProfile();
  toward_zero.sampler.half_rounding = HalfRounding::kTowardZero;
  toward_zero.sampler.unorm_rounding = UnormRounding::kNearestEven;
  run(toward_zero);
  CHECK(h(0, 1) == 0x3c00);
  CHECK(h(1, 0) == 0x3c01);
  CHECK(h(0, 3) == 0x7bfe);
  CHECK(h(5, 3) == 0x7bff);
  CHECK(unorm.ReadCodes(0, 0, 0)[0] == 0);  // 0.5 to nearest even
  CHECK(unorm.ReadCodes(0, 1, 0)[0] == 2);  // 1.5 to nearest even
}
