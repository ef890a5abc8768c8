// test_generate_mips.cpp -- the GenerateMipsCS port driven by MiniEngine's host loop, every level
// against plain loops: (1) square power-of-two sources against the 2x2 box-average chain (exact in
// float); (2) every size, format and sRGB setting against a reference written here from the
// algorithm's definition, independent of the port and of its dispatch plan: which levels one
// dispatch writes (MiniEngine's "exact 2:1" rule), the four NON_POWER_OF_TWO tap patterns at the
// shader's exact float UVs through a bilinear-clamp sampler (a scalar function from the D3D rules,
// not the emulator's sampler), the 2x2 groupshared averages over the whole dispatched grid
// (threads past an edge sample clamped texels and feed the next levels), and the stores' format
// conversions (UNORM +0.5 truncate, MiniEngine's sRGB curve, sRGB decode on the next read).
#include "examples/generate_mips/generate_mips_host.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace waveemu;
using namespace waveemu::examples;

namespace {

using Rgba = std::array<float, 4>;

struct Image {
  uint32_t w = 0, h = 0;
  std::vector<Rgba> px;
  Rgba& at(uint32_t x, uint32_t y) { return px[size_t(y) * w + x]; }
  const Rgba& at(uint32_t x, uint32_t y) const { return px[size_t(y) * w + x]; }
};

Image Blank(uint32_t w, uint32_t h) { return Image{w, h, std::vector<Rgba>(size_t(w) * h)}; }

/// Test images in 8-bit codes / 255 (exact in every format): 0 gradients (red along x, green along
/// y, blue diagonal), 1 a 4x4 black/white checkerboard with scattered alpha, 2 scattered codes.
Image Pattern(uint32_t w, uint32_t h, int kind) {
  Image im = Blank(w, h);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const uint32_t checker = ((x / 4 + y / 4) % 2) ? 255 : 0;
      std::array<uint32_t, 4> c{};
      if (kind == 0) c = {w > 1 ? x * 255 / (w - 1) : 0, h > 1 ? y * 255 / (h - 1) : 0, (x + y) % 256, 255};
      else if (kind == 1) c = {checker, checker, checker, (x * 37 + y * 11) % 256};
      else c = {(x * 7 + y * 13) % 256, (x ^ y) % 256, (x * y) % 256, 128};
      for (size_t k = 0; k < 4; ++k) im.at(x, y)[k] = float(c[k]) / 255.0f;
    }
  return im;
}

// ------------------------------------------------------------------------------------------------
// The reference's own conversions and sampler, from the D3D rules (semantics.md §4).

/// float -> UNORM8 (D3D §3.2.3.6): NaN -> 0, clamp to [0, 1], scale by 255 in float, +0.5, truncate.
uint32_t ToUnorm8(float f) {
  if (std::isnan(f)) return 0;
  const float c = std::min(std::max(f, 0.0f), 1.0f) * 255.0f;
  return uint32_t(double(c) + 0.5);
}
/// sRGB8 -> linear (D3D §3.2.3.7): the exact curve in double, rounded once to float.
float FromSrgb8(uint32_t c) {
  const double s = c / 255.0;
  return float(s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4));
}
/// MiniEngine's ApplySRGBCurve (the shader's approximation, in float as the shader computes it).
float MiniEngineSrgbCurve(float x) {
  return x < 0.0031308f ? 12.92f * x
                        : 1.13005f * std::sqrt(std::fabs(x - 0.00228f)) - 0.13448f * x + 0.005719f;
}

/// SampleLevel with a MIN_MAG_MIP_LINEAR / CLAMP sampler on one level, D3D §7.18.8: per axis
/// scaled = c * size - 0.5 in float, to fixed point with 8 fraction bits rounding to nearest even,
/// taps floor and floor + 1 clamped to the level, weights k / 256; result Σ texel · wU · wV in tap
/// order (the D3D defaults, the spec profile's sampler).
Rgba BilinearClamp(const Image& src, float u, float v) {
  auto axis = [](float c, uint32_t size, int64_t& i0, float& w1) {
    const double fixed = std::nearbyint(double(c * float(size) - 0.5f) * 256.0);
    i0 = int64_t(std::floor(fixed / 256.0));
    w1 = float((fixed - double(i0) * 256.0) / 256.0);
  };
  int64_t x0, y0;
  float wu, wv;
  axis(u, src.w, x0, wu);
  axis(v, src.h, y0, wv);
  auto tap = [&](int64_t x, int64_t y) {
    return src.at(uint32_t(std::clamp<int64_t>(x, 0, src.w - 1)),
                  uint32_t(std::clamp<int64_t>(y, 0, src.h - 1)));
  };
  const Rgba a = tap(x0, y0), b = tap(x0 + 1, y0), c = tap(x0, y0 + 1), d = tap(x0 + 1, y0 + 1);
  Rgba r{};
  for (size_t k = 0; k < 4; ++k)
    r[k] = a[k] * ((1 - wu) * (1 - wv)) + b[k] * (wu * (1 - wv)) + c[k] * ((1 - wu) * wv) +
           d[k] * (wu * wv);
  return r;
}

Rgba Add(const Rgba& a, const Rgba& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]}; }
Rgba Scale(float s, const Rgba& a) { return {s * a[0], s * a[1], s * a[2], s * a[3]}; }

// ------------------------------------------------------------------------------------------------
// The reference chain.

enum class Storage { kFloat32, kUnorm8, kSrgb8 };

/// What the texture holds after the shader stores `v` (PackColor, then the UAV's format), read
/// back through the texture's own format (UNORM: code / 255).
Rgba Stored(const Rgba& v, Storage storage) {
  if (storage == Storage::kFloat32) return v;
  Rgba r{};
  for (size_t k = 0; k < 4; ++k)
    r[k] = float(ToUnorm8(storage == Storage::kSrgb8 && k < 3 ? MiniEngineSrgbCurve(v[k]) : v[k])) / 255.0f;
  return r;
}
/// A stored texel as the next dispatch's SRV reads it: sRGB colour channels decoded.
Rgba AsRead(const Rgba& stored, Storage storage) {
  if (storage != Storage::kSrgb8) return stored;
  Rgba r = stored;
  for (size_t k = 0; k < 3; ++k) r[k] = FromSrgb8(uint32_t(std::lround(stored[k] * 255.0f)));
  return r;
}
Image AsRead(const Image& stored, Storage storage) {
  Image r = stored;
  for (auto& p : r.px) p = AsRead(p, storage);
  return r;
}

/// Every level as the texture stores it (level 0 is `level0`; levels 1.. as MiniEngine's GenerateMipMaps and
/// GenerateMipsCS define them. A dispatch reads level `top` and writes level top+1 (one of the four
/// tap patterns, chosen by whether the source's sides are odd), then up to three more levels while
/// each side halves exactly: a side already 1 at level top+1 may stay 1, a side that reaches 1
/// later stops the run ("clamped dimensions should not limit us", MiniEngine's comment).
std::vector<Image> ReferenceChain(const Image& level0, uint32_t levels, Storage storage) {
  auto size = [&](uint32_t m) {
    return std::pair{std::max(1u, level0.w >> m), std::max(1u, level0.h >> m)};
  };
  std::vector<Image> chain{level0};
  for (uint32_t top = 0; top + 1 < levels;) {
    const Image src = AsRead(chain[top], storage);
    const auto [dst_w, dst_h] = size(top + 1);
    uint32_t count = 1;
    while (count < 4 && top + count + 1 < levels) {
      const auto [w, h] = size(top + count);
      const auto [nw, nh] = size(top + count + 1);
      const bool x_ok = dst_w == 1 || nw * 2 == w, y_ok = dst_h == 1 || nh * 2 == h;
      if (!x_ok || !y_ok) break;
      ++count;
    }
    // Dispatch2D(dst_w, dst_h, 8, 8): every thread of the covering 8x8 groups runs.
    const uint32_t gw = (dst_w + 7) / 8 * 8, gh = (dst_h + 7) / 8 * 8;
    const float tx = 1.0f / float(dst_w), ty = 1.0f / float(dst_h);  // TexelSize
    // The case: is the source side odd? MiniEngine shifts the level-0 size without clamping, so a
    // side that has shrunk past 1 counts as 0, even (one tap across a 1-texel side, not two).
    const bool odd_x = (level0.w >> top) % 2 == 1, odd_y = (level0.h >> top) % 2 == 1;
    Image grid = Blank(gw, gh);
    for (uint32_t y = 0; y < gh; ++y)
      for (uint32_t x = 0; x < gw; ++x) {
        const float fx = float(x), fy = float(y);
        auto s = [&](float u, float v) { return BilinearClamp(src, u, v); };
        Rgba v;
        if (!odd_x && !odd_y) {
          v = s(tx * (fx + 0.5f), ty * (fy + 0.5f));
        } else if (odd_x && !odd_y) {  // UV1 = TexelSize * (DTid + (0.25, 0.5)), Off = (tx/2, 0)
          const float u1 = tx * (fx + 0.25f), v1 = ty * (fy + 0.5f);
          v = Scale(0.5f, Add(s(u1, v1), s(u1 + tx * 0.5f, v1 + ty * 0.0f)));
        } else if (!odd_x && odd_y) {  // UV1 = TexelSize * (DTid + (0.5, 0.25)), Off = (0, ty/2)
          const float u1 = tx * (fx + 0.5f), v1 = ty * (fy + 0.25f);
          v = Scale(0.5f, Add(s(u1, v1), s(u1 + tx * 0.0f, v1 + ty * 0.5f)));
        } else {  // UV1 = TexelSize * (DTid + 0.25), O = TexelSize * 0.5: four taps
          const float u1 = tx * (fx + 0.25f), v1 = ty * (fy + 0.25f);
          const float ox = tx * 0.5f, oy = ty * 0.5f;
          v = s(u1, v1);
          v = Add(v, s(u1 + ox, v1 + 0.0f));
          v = Add(v, s(u1 + 0.0f, v1 + oy));
          v = Add(v, s(u1 + ox, v1 + oy));
          v = Scale(0.25f, v);
        }
        grid.at(x, y) = v;
      }
    for (uint32_t n = 1; n <= count; ++n) {
      const uint32_t step = 1u << (n - 1);  // grid spacing of level top+n's values
      const uint32_t half = step / 2;
      if (n > 1)  // Src1 = 0.25 * (Src1 + Src2 + Src3 + Src4): self, +x, +y, +x+y
        for (uint32_t y = 0; y < gh; y += step)
          for (uint32_t x = 0; x < gw; x += step)
            grid.at(x, y) = Scale(0.25f, Add(Add(Add(grid.at(x, y), grid.at(x + half, y)),
                                                 grid.at(x, y + half)),
                                             grid.at(x + half, y + half)));
      const auto [w, h] = size(top + n);
      Image out = Blank(w, h);
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) out.at(x, y) = Stored(grid.at(x * step, y * step), storage);
      chain.push_back(out);
    }
    top += count;
  }
  return chain;
}

Texture2DResource Upload(const Image& im, Format f) {
  Texture2DResource t(f, im.w, im.h, 0);
  for (uint32_t y = 0; y < im.h; ++y)
    for (uint32_t x = 0; x < im.w; ++x) t.WriteFloat(0, x, y, im.at(x, y), f);
  return t;
}

/// Every texel of every level equal (bit for bit) to the reference.
void CheckChain(const Texture2DResource& t, const std::vector<Image>& ref) {
  REQUIRE(ref.size() == t.mip_levels());
  for (uint32_t m = 1; m < t.mip_levels(); ++m) {
    uint64_t bad = 0;
    for (uint32_t y = 0; y < ref[m].h; ++y)
      for (uint32_t x = 0; x < ref[m].w; ++x) {
        Rgba got = t.ReadFloat(m, x, y, t.format());
        if (got != ref[m].at(x, y) && bad++ < 3)
          FAIL_CHECK(fmt::format("mip {} texel ({}, {}): expected ({}) got ({})", m, x, y,
                                 fmt::join(ref[m].at(x, y), ", "), fmt::join(got, ", ")));
      }
    CHECK_MESSAGE(bad == 0, fmt::format("mip {} ({}x{}): {} texels differ", m, ref[m].w, ref[m].h, bad));
  }
}

DispatchOptions Options() {
  DispatchOptions o;
  o.wave_size = 32;
  o.max_threads = 2;
  return o;
}

}  // namespace

TEST_CASE("MiniEngine's host loop plans the case and the levels per dispatch from the size") {
  // 256x256: 9 levels; dispatches write 1-4, 5-8 (each a clean 2:1 chain from 128 and 8).
  auto p = PlanMipDispatches(256, 256, 9);
  REQUIRE(p.size() == 2);
  CHECK((p[0].top_mip == 0 && p[0].num_mips == 4 && p[0].non_power_of_two == 0));
  CHECK((p[1].top_mip == 4 && p[1].num_mips == 4 && p[1].dst_width == 8));
  // 257x129: dst 128x64 but the source is odd both ways -> case 3; then 128x64 -> 4 levels...
  p = PlanMipDispatches(257, 129, 9);
  REQUIRE(p.size() == 3);
  CHECK((p[0].non_power_of_two == 3 && p[0].num_mips == 4 && p[0].dst_width == 128));
  CHECK((p[1].top_mip == 4 && p[1].non_power_of_two == 0 && p[1].num_mips == 3));  // 16x8 -> 2x1
  CHECK((p[2].top_mip == 7 && p[2].num_mips == 1 && p[2].dst_width == 1 && p[2].dst_height == 1));
  // 3x5: 3 levels: 3x5 -> 1x2 (case 3, then 1x2 -> 1x1 in the same dispatch).
  p = PlanMipDispatches(3, 5, 3);
  REQUIRE(p.size() == 1);
  CHECK((p[0].non_power_of_two == 3 && p[0].num_mips == 2));
  // 6x4: width even, height even -> case 0; 5x4 -> case 1; 4x5 -> case 2.
  CHECK(PlanMipDispatches(5, 4, 3)[0].non_power_of_two == 1);
  CHECK(PlanMipDispatches(4, 5, 3)[0].non_power_of_two == 2);
  CHECK(PlanMipDispatches(1, 1, 1).empty());  // a 1x1 texture has nothing to generate
}

TEST_CASE("square power-of-two RGBA32F sources give exactly the 2x2 box-average chain") {
  // Square only: when one side reaches 1 inside a multi-level dispatch (64x32 -> ... 2x1 -> 1x1),
  // MiniEngine's threads past that side sample clamped texels and bias the last level (README).
  for (uint32_t size : {8u, 64u, 128u}) {
    for (int kind : {0, 1}) {
      const Image im = Pattern(size, size, kind);
      auto t = Upload(im, Format::R32G32B32A32_FLOAT);
      GenerateMips(t, false, Options());
      // Plain box chain: every texel the mean of its 2x2 block of the level above.
      Image prev = im;
      for (uint32_t m = 1; m < t.mip_levels(); ++m) {
        Image next{std::max(1u, prev.w / 2), std::max(1u, prev.h / 2), {}};
        next.px.resize(size_t(next.w) * next.h);
        for (uint32_t y = 0; y < next.h; ++y)
          for (uint32_t x = 0; x < next.w; ++x) {
            auto p = [&](uint32_t dx, uint32_t dy) {
              return prev.at(std::min(2 * x + dx, prev.w - 1), std::min(2 * y + dy, prev.h - 1));
            };
            Rgba s{};
            for (size_t k = 0; k < 4; ++k)
              s[k] = (p(0, 0)[k] + p(1, 0)[k] + p(0, 1)[k] + p(1, 1)[k]) / 4.0f;
            next.at(x, y) = s;
          }
        for (uint32_t y = 0; y < next.h; ++y)
          for (uint32_t x = 0; x < next.w; ++x) {
            INFO("size " << size << " kind " << kind << " mip " << m << " (" << x << "," << y << ")");
            CHECK(t.ReadFloat(m, x, y, t.format()) == next.at(x, y));
          }
        prev = next;
      }
    }
  }
}

TEST_CASE("every level of every size, pattern, format and sRGB setting equals the independent reference chain") {
  struct Size { uint32_t w, h; };
  struct Setting { Format format; bool srgb; Storage storage; };
  // 1x1 (nothing to do), 3x5 (case 3, then 1x2 -> 1x1 in the same dispatch), 5x4 (case 1), 4x5
  // (case 2), 6x8 (case 0, then 3x4 -> odd), 40x2 (height 1 from the first level: four levels in
  // one dispatch), 4x16 (width reaches 1 inside a dispatch: the run stops), 33x17, 64x32, 257x129.
  const Size sizes[] = {{1, 1}, {3, 5}, {5, 4}, {4, 5}, {6, 8}, {40, 2}, {4, 16}, {33, 17}, {64, 32}, {257, 129}};
  const Setting settings[] = {{Format::R32G32B32A32_FLOAT, false, Storage::kFloat32},
                              {Format::R8G8B8A8_UNORM, false, Storage::kUnorm8},
                              {Format::R8G8B8A8_UNORM, true, Storage::kSrgb8}};
  for (const Setting& setting : settings)
    for (Size s : sizes)
      for (int kind : {0, 1, 2}) {
        INFO(fmt::format("{}x{} {}{}, pattern {} (0 gradients, 1 checkerboard, 2 scattered)", s.w,
                         s.h, InfoOf(setting.format).name, setting.srgb ? " sRGB" : "", kind));
        const Image im = Pattern(s.w, s.h, kind);
        auto t = Upload(im, setting.format);
        GenerateMips(t, setting.srgb, Options());
        CheckChain(t, ReferenceChain(im, t.mip_levels(), setting.storage));
      }
}

TEST_CASE("the reference chain can fail: a source texel changed after the run shows up in the levels below it") {
  // Guards against a reference that would follow whatever the port does.
  Image im = Pattern(33, 17, 2);
  auto t = Upload(im, Format::R32G32B32A32_FLOAT);
  GenerateMips(t, false, Options());
  im.at(16, 8) = {9, 9, 9, 9};
  const auto ref = ReferenceChain(im, t.mip_levels(), Storage::kFloat32);
  CHECK(t.ReadFloat(1, 8, 4, t.format()) != ref[1].at(8, 4));
  CHECK(t.ReadFloat(t.mip_levels() - 1, 0, 0, t.format()) != ref.back().at(0, 0));
}

TEST_CASE("sRGB mips decode the source, average in linear and encode with MiniEngine's curve") {
  // A 2x2 black/white checkerboard in sRGB: the 1x1 mip is linear 0.5, which MiniEngine's
  // approximate curve 1.13005*sqrt(0.5 - 0.00228) - 0.13448*0.5 + 0.005719 = 0.7355 encodes; the
  // exact curve gives 0.7354. Either way * 255 = 187.55 -> 188 (and 0.5 stored linearly is 128).
  Texture2DResource t(Format::R8G8B8A8_UNORM, 2, 2, 0);
  for (uint32_t i = 0; i < 4; ++i) {
    float c = (i == 0 || i == 3) ? 1.0f : 0.0f;
    t.WriteFloat(0, i % 2, i / 2, {c, c, c, 1}, t.format());
  }
  Texture2DResource linear = t;
  GenerateMips(t, true, Options());
  GenerateMips(linear, false, Options());
  // Expected 188 by hand: the shader's curve at 0.5 is 1.13005 * sqrt(0.5 - 0.00228)
  // - 0.13448 * 0.5 + 0.005719 = 0.73572, and floor(0.73572 * 255 + 0.5) = 188.
  CHECK(t.ReadFloat(1, 0, 0, Format::R8G8B8A8_UNORM)[0] == 188.0f / 255);
  CHECK(t.ReadFloat(1, 0, 0, Format::R8G8B8A8_UNORM)[3] == 1.0f);
  CHECK(linear.ReadFloat(1, 0, 0, Format::R8G8B8A8_UNORM)[0] == 128.0f / 255);
}

TEST_CASE("threads past a level's edge are dropped stores, counted, and leave no diagnostic") {
  auto t = Upload(Pattern(20, 12, 0), Format::R32G32B32A32_FLOAT);
  auto r = GenerateMips(t, false, Options());
  // First dispatch: dst 10x6 in 2x1 groups of 8x8 = 16x8 threads -> 128 - 60 dropped at mip 1;
  // mip 2 (5x3) from the 8x4 even threads: 32 - 15 = 17 dropped. Later dispatches likewise.
  CHECK(r.out_of_bounds_writes >= 128 - 60 + 32 - 15);
  CHECK(t.out_of_bounds_writes() == r.out_of_bounds_writes);
  CHECK(r.diagnostics == 0);
}
