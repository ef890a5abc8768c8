// helper_lanes_port.h -- C++ port of tests/pixel/helper_lanes.hlsl, statement for statement, for
// the pixel dispatch (tests/pixel/test_pixel.cpp with hand-worked values, tests/oracle/
// test_pixel_lavapipe.cpp against lavapipe). `Out` holds kRecordWords words per pixel.
#pragma once

#include "emulator/emulator.h"
#include "emulator/pixel.h"
#include "intrinsics/intrinsics.h"
#include "intrinsics/pixel.h"

#include <cstdint>

namespace waveemu::test {

/// Words per pixel record: 10 uint4.
inline constexpr int kRecordWords = 40;
/// Record word 36 of every pixel that reached the end of main() as a non-helper.
inline constexpr uint32_t kRecordWritten = 0x600Du;

template <int kN>
struct HelperLanesPort {
  static constexpr int N = kN;
  int WIDTH = 16;                   // the HLSL's WIDTH define
  RWStructuredBuffer<uint4> Out;    // u0

  // A quad member as its partners see it: valid bit and pixel position (inputs only: defined on
  // helpers too).
  static Uint<N> Code(const Uint<N>& px, const Uint<N>& py) {
    return 0x80000000u | (py << 12u) | px;
  }

  static Uint<N> HelperFromBallot(const Uint4<N>& ballot, const Uint<N>& lane) {
    const Uint<N> word = select(lane < 32u, ballot.x,
                                select(lane < 64u, ballot.y, select(lane < 96u, ballot.z, ballot.w)));
    return ((word >> (lane % 32u)) & 1u) ^ 1u;
  }

  // What a non-helper knows of a quad partner: its lane (bits 8..15) and whether that lane is a
  // helper (bit 0: its bit is missing from this lane's own ballot).
  static Uint<N> Partner(const Uint4<N>& my_ballot, const Uint<N>& partner_lane) {
    return (partner_lane << 8u) | HelperFromBallot(my_ballot, partner_lane);
  }

  // Top-left pixel of every third quad, and bottom-right pixel of the quads after those.
  static Bool<N> Discarded(const Uint<N>& px, const Uint<N>& py) {
    const Uint<N> quad = (px >> 1u) + (py >> 1u);
    return ((px & 1u) == 0u && (py & 1u) == 0u && quad % 3u == 0u) ||
           ((px & 1u) == 1u && (py & 1u) == 1u && quad % 3u == 1u);
  }

  void main(SV_Position<N> pos, SV_Target<N>& target) const {
    const Uint<N> px = Uint<N>(pos.x), py = Uint<N>(pos.y);  // uint2 p = uint2(pos.xy)
    const Uint<N> i = 10u * (py * uint32_t(WIDTH) + px);
    const Uint<N> lane = WaveGetLaneIndex<N>();
    const Uint4<N> ballot = WaveActiveBallot(Bool<N>(true));  // undefined on helpers: unread
    const Uint<N> code = Code(px, py);
    const Uint<N> value = px + 16u * py + 1u;
    Out[i + 0u] = Uint4<N>(lane, Uint<N>(WaveGetLaneCount()), ballot.x,
                           ballot.y | ballot.z | ballot.w);
    Out[i + 1u] = Uint4<N>(WaveActiveCountBits(Bool<N>(true)),
                           WavePrefixCountBits(Bool<N>(true)), WaveActiveSum(value), code);
    Out[i + 2u] = Uint4<N>(QuadReadAcrossX(code), QuadReadAcrossY(code),
                           QuadReadAcrossDiagonal(code), asuint(QuadReadAcrossX(pos.x)));
    const Float<N> l = 3.0f * pos.x + 5.0f * pos.y;
    const Float<N> q = pos.x * pos.y;
    Out[i + 3u] = Uint4<N>(asuint(ddx(l)), asuint(ddy(l)), asuint(ddx_coarse(l)),
                           asuint(ddy_coarse(l)));
    Out[i + 4u] = Uint4<N>(asuint(ddx_fine(l)), asuint(ddy_fine(l)), asuint(ddx(q)),
                           asuint(ddy(q)));
    Out[i + 5u] = Uint4<N>(asuint(ddx_coarse(q)), asuint(ddy_coarse(q)), asuint(ddx_fine(q)),
                           asuint(ddy_fine(q)));
    Out[i + 6u] = Uint4<N>(asuint(fwidth(q)), Partner(ballot, QuadReadAcrossX(lane)),
                           Partner(ballot, QuadReadAcrossY(lane)),
                           Partner(ballot, QuadReadAcrossDiagonal(lane)));
    if_(Discarded(px, py), [&] { discard<N>(); });
    const Uint4<N> ballot2 = WaveActiveBallot(Bool<N>(true));
    const Float<N> q2 = pos.x * pos.y + 1.0f;
    Out[i + 7u] = Uint4<N>(ballot2.x, WaveActiveCountBits(Bool<N>(true)),
                           Partner(ballot2, QuadReadAcrossX(lane)),
                           Partner(ballot2, QuadReadAcrossY(lane)));
    Out[i + 8u] = Uint4<N>(Partner(ballot2, QuadReadAcrossDiagonal(lane)), WaveActiveSum(value),
                           asuint(ddx_fine(q2)), asuint(ddy_fine(q2)));
    Out[i + 9u] = Uint4<N>(Uint<N>(kRecordWritten), px, py, Uint<N>(0u));
    target = Float4<N>(pos.x, pos.y, Float<N>(lane), 1.0f);
  }
};

}  // namespace waveemu::test
