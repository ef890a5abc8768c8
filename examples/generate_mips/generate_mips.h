// generate_mips.h -- port of GenerateMipsCS.hlsl (MiniEngine): one dispatch writes one to four mip
// levels through groupshared memory. NON_POWER_OF_TWO and CONVERT_TO_SRGB are the shader's
// #defines, template parameters here. Statement for statement; "HLSL:" comments mark differences.
#pragma once

#include "emulator/emulator.h"
#include "emulator/texture.h"  // until emulator.h includes it
#include "intrinsics/intrinsics.h"

#include <cstdint>

namespace waveemu::examples {

template <int NON_POWER_OF_TWO, bool CONVERT_TO_SRGB>
struct GenerateMipsCS {
  static_assert(NON_POWER_OF_TWO >= 0 && NON_POWER_OF_TWO <= 3, "NON_POWER_OF_TWO is 0..3");
  static constexpr int N = 64;
  static constexpr uint3 numthreads{8, 8, 1};

  RWTexture2D<float4> OutMip1;  // u0
  RWTexture2D<float4> OutMip2;  // u1
  RWTexture2D<float4> OutMip3;  // u2
  RWTexture2D<float4> OutMip4;  // u3
  Texture2D<float4> SrcMip;     // t0
  SamplerState BilinearClamp{Filter::MIN_MAG_MIP_LINEAR, TextureAddressMode::CLAMP,
                             TextureAddressMode::CLAMP};  // s0

  // cbuffer CB0 : register(b0)
  uint32_t SrcMipLevel = 0;   // Texture level of source mip
  uint32_t NumMipLevels = 1;  // Number of OutMips to write: [1, 4]
  float2 TexelSize{};         // 1.0 / OutMip1.Dimensions

  static Float3<N> ApplySRGBCurve(const Float3<N>& x) {
    // This is cheaper but nearly equivalent (to the exact sRGB curve)
    // HLSL: x < 0.0031308 ? ... on a float3 selects per component.
    Float3<N> r;
    for (int i = 0; i < 3; ++i)
      r[i] = select(x[i] < 0.0031308f, 12.92f * x[i],
                    1.13005f * sqrt(abs(x[i] - 0.00228f)) - 0.13448f * x[i] + 0.005719f);
    return r;
  }

  static Float4<N> PackColor(const Float4<N>& Linear) {
    if constexpr (CONVERT_TO_SRGB) return Float4<N>(ApplySRGBCurve(Linear.rgb()), Linear.a());
    else return Linear;
  }

  void main(SV_GroupIndex<N> GI, SV_DispatchThreadID<N> DTid) const {
    // HLSL: groupshared arrays are declared at file scope; here they are locals of main(), which
    // runs once per group.
    GroupShared<float, 64> gs_R;
    GroupShared<float, 64> gs_G;
    GroupShared<float, 64> gs_B;
    GroupShared<float, 64> gs_A;

    auto StoreColor = [&](const Uint<N>& Index, const Float4<N>& Color) {
      gs_R[Index] = Color.r();
      gs_G[Index] = Color.g();
      gs_B[Index] = Color.b();
      gs_A[Index] = Color.a();
    };
    auto LoadColor = [&](const Uint<N>& Index) {
      return Float4<N>(Float<N>(gs_R[Index]), Float<N>(gs_G[Index]), Float<N>(gs_B[Index]),
                       Float<N>(gs_A[Index]));
    };

    // HLSL: uint2 + 0.5 converts the uint to float first; TexelSize * v is per component.
    const Float2<N> DTxy(DTid.xy());
    const Float2<N> Texel(TexelSize);
    Float4<N> Src1;
    if constexpr (NON_POWER_OF_TWO == 0) {
      Float2<N> UV = Texel * (DTxy + 0.5f);
      Src1 = SrcMip.SampleLevel(BilinearClamp, UV, SrcMipLevel);
    } else if constexpr (NON_POWER_OF_TWO == 1) {
      // > 2:1 in X dimension
      Float2<N> UV1 = Texel * (DTxy + Float2<N>(float2{0.25f, 0.5f}));
      Float2<N> Off = Texel * Float2<N>(float2{0.5f, 0.0f});
      Src1 = 0.5f * (SrcMip.SampleLevel(BilinearClamp, UV1, SrcMipLevel) +
                     SrcMip.SampleLevel(BilinearClamp, UV1 + Off, SrcMipLevel));
    } else if constexpr (NON_POWER_OF_TWO == 2) {
      // > 2:1 in Y dimension
      Float2<N> UV1 = Texel * (DTxy + Float2<N>(float2{0.5f, 0.25f}));
      Float2<N> Off = Texel * Float2<N>(float2{0.0f, 0.5f});
      Src1 = 0.5f * (SrcMip.SampleLevel(BilinearClamp, UV1, SrcMipLevel) +
                     SrcMip.SampleLevel(BilinearClamp, UV1 + Off, SrcMipLevel));
    } else {
      // > 2:1 in in both dimensions
      Float2<N> UV1 = Texel * (DTxy + Float2<N>(float2{0.25f, 0.25f}));
      Float2<N> O = Texel * 0.5f;
      Src1 = SrcMip.SampleLevel(BilinearClamp, UV1, SrcMipLevel);
      Src1 += SrcMip.SampleLevel(BilinearClamp, UV1 + Float2<N>(O.x, Float<N>(0.0f)), SrcMipLevel);
      Src1 += SrcMip.SampleLevel(BilinearClamp, UV1 + Float2<N>(Float<N>(0.0f), O.y), SrcMipLevel);
      Src1 += SrcMip.SampleLevel(BilinearClamp, UV1 + Float2<N>(O.x, O.y), SrcMipLevel);
      Src1 *= 0.25f;
    }

    OutMip1[DTid.xy()] = PackColor(Src1);

    // A scalar (constant) branch can exit all threads coherently. HLSL: a uniform cbuffer value,
    // so a plain C++ return.
    if (NumMipLevels == 1) return;

    StoreColor(GI, Src1);
    GroupMemoryBarrierWithGroupSync();

    // With low three bits for X and high three bits for Y, this bit mask (binary: 001001) checks
    // that X and Y are even.
    if_((GI & 0x9u) == 0u, [&] {
      Float4<N> Src2 = LoadColor(GI + 0x01u);
      Float4<N> Src3 = LoadColor(GI + 0x08u);
      Float4<N> Src4 = LoadColor(GI + 0x09u);
      Src1 = 0.25f * (Src1 + Src2 + Src3 + Src4);

      OutMip2[DTid.xy() / 2u] = PackColor(Src1);
      StoreColor(GI, Src1);
    });

    if (NumMipLevels == 2) return;

    GroupMemoryBarrierWithGroupSync();

    // This bit mask (binary: 011011) checks that X and Y are multiples of four.
    if_((GI & 0x1Bu) == 0u, [&] {
      Float4<N> Src2 = LoadColor(GI + 0x02u);
      Float4<N> Src3 = LoadColor(GI + 0x10u);
      Float4<N> Src4 = LoadColor(GI + 0x12u);
      Src1 = 0.25f * (Src1 + Src2 + Src3 + Src4);

      OutMip3[DTid.xy() / 4u] = PackColor(Src1);
      StoreColor(GI, Src1);
    });

    if (NumMipLevels == 3) return;

    GroupMemoryBarrierWithGroupSync();

    // This bit mask would be 111111 (X & Y multiples of 8), but only one thread fits that
    // criteria.
    if_(GI == 0u, [&] {
      Float4<N> Src2 = LoadColor(GI + 0x04u);
      Float4<N> Src3 = LoadColor(GI + 0x20u);
      Float4<N> Src4 = LoadColor(GI + 0x24u);
      Src1 = 0.25f * (Src1 + Src2 + Src3 + Src4);

      OutMip4[DTid.xy() / 8u] = PackColor(Src1);
    });
  }
};

}  // namespace waveemu::examples
