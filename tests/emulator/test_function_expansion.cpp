// test_function_expansion.cpp -- FunctionExpansion: the forms of dot, length, normalize, cross,
// lerp, smoothstep, reflect and refract that each device's compiler uses. Inputs and expected
// words are four threads of probe_geometry as the devices wrote them (tests/golden/{nvidia,
// lavapipe}/probe_geometry/, run 13 and 14: docs/gpu_runs/2026-11-23-h100-run13/), copied out of
// those files, not computed by the emulator; test_golden replays the whole probe.
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <bit>
#include <cstdint>

using namespace waveemu;

namespace {

constexpr int kFunctions = 8;
constexpr const char* kNames[kFunctions] = {"dot(a, b) (float4)", "length(a) (float4)",
                                            "normalize(a.xy).x",  "cross(a.xyz, b.xyz).x",
                                            "lerp(a.x, b.x, t)",  "smoothstep(e0, e1, x)",
                                            "reflect(a.xyz, b.xyz).x",
                                            "refract(normalize(a.xyz), normalize(b.xyz), eta).x"};
using Words = std::array<uint32_t, kFunctions>;

struct Thread {
  int tid;                      // the thread of probe_geometry
  uint32_t in[13];              // a.xyzw, b.xyzw, t, e0, e1, x, eta
  Words h100, llvmpipe;         // the devices' words
};

// probe_geometry's threads 1, 2, 10 and 11.
constexpr Thread kThreads[] = {
    {1, {0x40f3372fu, 0x42079a03u, 0xc3062b13u, 0xc1880057u, 0xc09f8d4du, 0x41a9b0ceu, 0x42f64af4u,
         0x41b8d696u, 0x3ebcc32du, 0xbf604ad8u, 0x3ff9245du, 0x3f73e417u, 0x3f5c1caau},
     {0xc67da7c8u, 0x430ba1d3u, 0x3e600522u, 0x45db64ccu, 0x403d7300u, 0x3f37265au, 0xc81a421au,
      0x3d59d8c3u},
     {0xc67da7c9u, 0x430ba1d3u, 0x3e600521u, 0x45db64ccu, 0x403d7301u, 0x3f37265au, 0xc81a421bu,
      0x3d59d8c5u}},
    {2, {0x4193b140u, 0x436f0bfdu, 0xc0914e89u, 0xc234497eu, 0xc0c09ed7u, 0xc3a837a0u, 0x447a3a86u,
         0x44a5c75fu, 0x3f35438cu, 0xbf8020f5u, 0x3f9746cau, 0xbf326b97u, 0x3faee4ffu},
     {0xc80d75d2u, 0x43740028u, 0x3d9db276u, 0x48682a6eu, 0x3f9052d3u, 0x3d5845abu, 0xc97a0edbu,
      0x00000000u},
     {0xc80d75d2u, 0x43740028u, 0x3d9db276u, 0x48682a6fu, 0x3f9052d4u, 0x3d5845aau, 0xc97a0edbu,
      0x00000000u}},
    {10, {0x42b3bab8u, 0xc1eea7a0u, 0xc39a2e2cu, 0xc3a36370u, 0xc39caa66u, 0xc4754f5bu, 0x44018e30u,
          0x3f89cb7eu, 0xbd6f0b9eu, 0xbf26a5cdu, 0x3f99d430u, 0x402e21c7u, 0x3f9212f4u},
     {0xc81b4f0du, 0x43e5957au, 0x3f72f66au, 0xc89b4a6bu, 0x42e2ca7cu, 0x3f800000u, 0xccbdab69u,
      0x00000000u},
     {0xc81b4f0cu, 0x43e5957au, 0x3f72f669u, 0xc89b4a6bu, 0x42e2ca7cu, 0x3f800000u, 0xccbdab68u,
      0x00000000u}},
    {11, {0xc166d210u, 0xc023c8e4u, 0x3f63c5b4u, 0xc21c1ebbu, 0xc413258cu, 0xbfb93ebau, 0x41872386u,
          0xc07cc960u, 0x3f8a4faau, 0xbfe290c0u, 0x40153ac9u, 0x401bf88eu, 0x3f985d55u},
     {0x4607600cu, 0x4226cbb2u, 0xbf7c108eu, 0xc227c4c7u, 0xc41eb5b0u, 0x3f800000u, 0x4b18db14u,
      0x3f7ab1fbu},
     {0x4607600du, 0x4226cbb2u, 0xbf7c108eu, 0xc227c4c8u, 0xc41eb5b0u, 0x3f800000u, 0x4b18db16u,
      0x3f7ab1feu}},
};

/// The eight functions of one thread, as probe_geometry.hlsl writes them, under `profile`.
Words Evaluate(const Thread& thread, const DeviceProfile& profile) {
  Words out{};
  test::RunGroup<1>(1, [&] {
    auto in = [&](int i) { return Float<1>(std::bit_cast<float>(thread.in[i])); };
    const Float4<1> a(in(0), in(1), in(2), in(3)), b(in(4), in(5), in(6), in(7));
    const Float<1> t = in(8), e0 = in(9), e1 = in(10), x = in(11), eta = in(12);
    const Float<1> results[kFunctions] = {
        dot(a, b),
        length(a),
        normalize(a.xy()).x,
        cross(a.xyz(), b.xyz()).x,
        lerp(Float<1>(a.x), b.x, t),
        smoothstep(e0, e1, x),
        reflect(a.xyz(), b.xyz()).x,
        refract(normalize(a.xyz()), normalize(b.xyz()), eta).x};
    for (int f = 0; f < kFunctions; ++f) out[f] = std::bit_cast<uint32_t>(results[f].lane(0));
  }, profile);
  return out;
}

void CheckWords(const Words& got, const Words& device, int tid, const char* who) {
  for (int f = 0; f < kFunctions; ++f)
    CHECK_MESSAGE(got[f] == device[f],
                  fmt::format("{} thread {} {}: emulator {:#010x}, device {:#010x}", who, tid,
                              kNames[f], got[f], device[f]));
}

/// How many of the words differ from the device's.
int Misses(const Words& got, const Words& device) {
  int n = 0;
  for (int f = 0; f < kFunctions; ++f) n += got[f] != device[f];
  return n;
}

}  // namespace

TEST_CASE("each profile's function expansion gives its device's words") {
  for (const Thread& thread : kThreads) {
    CheckWords(Evaluate(thread, NvidiaProfile()), thread.h100, thread.tid, "nvidia");
    CheckWords(Evaluate(thread, LavapipeProfile()), thread.llvmpipe, thread.tid, "lavapipe");
  }
}

TEST_CASE("the expansion is what tells the devices apart on these threads") {
  // Every other rule of each profile kept (the H100's tables and fused mad, lavapipe's IEEE
  // division): with DXC's forms both profiles miss words their devices wrote.
  DeviceProfile h100_as_dxc = NvidiaProfile(), llvmpipe_as_dxc = LavapipeProfile();
  h100_as_dxc.function_expansion = FunctionExpansion::kDxc;
  llvmpipe_as_dxc.function_expansion = FunctionExpansion::kDxc;
  const Words h100_t1 = Evaluate(kThreads[0], h100_as_dxc);
  CHECK(h100_t1[0] != kThreads[0].h100[0]);  // dot: y, x, z, w fused, not left to right
  CHECK(h100_t1[6] != kThreads[0].h100[6]);  // reflect: fused
  CHECK(h100_t1[7] != kThreads[0].h100[7]);  // refract: fused
  const Words h100_t2 = Evaluate(kThreads[1], h100_as_dxc);
  CHECK(h100_t2[3] != kThreads[1].h100[3]);  // cross: the first product fused
  CHECK(h100_t2[4] != kThreads[1].h100[4]);  // lerp: mad(t, b - a, a)
  CHECK(h100_t2[5] != kThreads[1].h100[5]);  // smoothstep: (s * s) * (3 - 2s)
  // lavapipe: lerp weighs both ends (thread 2), normalize divides by the length (thread 10),
  // refract's k multiplies by eta twice (thread 11).
  CHECK(Evaluate(kThreads[1], llvmpipe_as_dxc)[4] != kThreads[1].llvmpipe[4]);
  CHECK(Evaluate(kThreads[2], llvmpipe_as_dxc)[2] != kThreads[2].llvmpipe[2]);
  CHECK(Evaluate(kThreads[3], llvmpipe_as_dxc)[7] != kThreads[3].llvmpipe[7]);
  // And the other device's expansion is no substitute: each profile with the other's misses.
  DeviceProfile h100_as_mesa = NvidiaProfile(), llvmpipe_as_nvidia = LavapipeProfile();
  h100_as_mesa.function_expansion = FunctionExpansion::kMesa;
  llvmpipe_as_nvidia.function_expansion = FunctionExpansion::kNvidia;
  int h100_misses = 0, llvmpipe_misses = 0;
  for (const Thread& thread : kThreads) {
    h100_misses += Misses(Evaluate(thread, h100_as_mesa), thread.h100);
    llvmpipe_misses += Misses(Evaluate(thread, llvmpipe_as_nvidia), thread.llvmpipe);
  }
  CHECK(h100_misses > 0);
  CHECK(llvmpipe_misses > 0);
}

TEST_CASE("a NaN under the square root: refract gives NaN on both devices, DXC's form 0") {
  // probe_geometry thread 60: a = 0, so normalize(a.xyz) is NaN and refract's k is NaN. DXC
  // selects r where k >= 0 (0 here); both devices return 0 only where k < 0 (GLSL), so NaN:
  // the H100's 0x7fffffff, lavapipe's x86 default NaN 0xffc00000 (their golden words).
  const Thread thread60{60, {0, 0, 0, 0, 0x43c50d7eu, 0xbfeb03c4u, 0x41868dc4u, 0x4195320au,
                             0x3f49917du, 0xbe139ccfu, 0x3f1e1f19u, 0xbe6ae6d5u, 0x3f73343eu},
                        {}, {}};
  CHECK(Evaluate(thread60, NvidiaProfile())[7] == 0x7fffffffu);
  CHECK(Evaluate(thread60, LavapipeProfile())[7] == 0xffc00000u);
  CHECK(Evaluate(thread60, SpecProfile())[7] == 0u);
}

TEST_CASE("uniform vectors follow the profile; half and double keep DXC's dot") {
  // Thread 1's dot(a, b) as plain float4 values inside a group: the device's word.
  const Thread& t1 = kThreads[0];
  auto f = [&](int i) { return std::bit_cast<float>(t1.in[i]); };
  uint32_t uniform_dot = 0;
  test::RunGroup<1>(1, [&] {
    const float4 a{f(0), f(1), f(2), f(3)}, b{f(4), f(5), f(6), f(7)};
    uniform_dot = std::bit_cast<uint32_t>(dot(a, b));
  }, NvidiaProfile());
  CHECK(uniform_dot == t1.h100[0]);
  // fp64 under the nvidia profile: left to right, each step rounded (nothing measured double).
  // a = (1 + 2^-27, 1, 0), b = (1 - 2^-27, -1, 0): x*X = 1 - 2^-54 rounds to 1 (a tie, to even),
  // so the sum is 0; the H100's fused fp32 chain would keep -2^-54.
  double d = 1;
  test::RunGroup<1>(1, [&] {
    const Double3<1> a(Lanes<double, 1>(1 + 0x1p-27), Lanes<double, 1>(1.0), Lanes<double, 1>(0.0));
    const Double3<1> b(Lanes<double, 1>(1 - 0x1p-27), Lanes<double, 1>(-1.0), Lanes<double, 1>(0.0));
    d = dot(a, b).lane(0);
  }, NvidiaProfile());
  CHECK(d == 0.0);
}
