// fit_tables.cpp -- run 13: the H100's smoothstep and refract forms, which need its division and
// square-root tables, scored against probe_geometry's words with the emulator's nvidia profile
// (its tables, fused mad, and the dot this run fitted). Prints each candidate's matches (slot
// 17: of 64; refract: slots 21-23, of 192). Scratch program, not part of the build; from the
// repository root, with a Release build of waveemu in BUILD:
//   g++ -std=c++20 -O1 -march=native -ffp-contract=off -I. -IBUILD -DHWY_COMPILE_ONLY_STATIC \
//     tests/main.cpp docs/gpu_runs/2026-11-23-h100-run13/fit_tables.cpp -o fit_tables \
//     BUILD/libwaveemu.a -ltbb -lfmt -lboost_context -lhwy -lyaml-cpp -lz && ./fit_tables
#include "emulator/emulator.h"
#include "intrinsics/intrinsics.h"
#include "tests/support/run_group.h"
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <bit>
#include <cstdio>
#include <fstream>
#include <functional>
#include <vector>
using namespace waveemu;
constexpr int N = 64;
static std::vector<uint32_t> Read(const char* p) {
  std::ifstream f(p, std::ios::binary); std::vector<uint32_t> v(1 << 14);
  f.read((char*)v.data(), v.size() * 4); v.resize(f.gcount() / 4); return v;
}
TEST_CASE("fit") {
  auto in = Read("tests/golden/nvidia/probe_geometry/In.bin");
  auto out = Read("tests/golden/nvidia/probe_geometry/Out.bin");
  auto F = [&](int r) { Float<N> x; for (int t = 0; t < N; ++t) x.set_lane(t, std::bit_cast<float>(in[r * 64 + t])); return x; };
  auto count = [&](int slot, const Float<N>& x, const char* name) {
    int ok = 0; std::string bad;
    for (int t = 0; t < N; ++t) { if (std::bit_cast<uint32_t>(x.lane(t)) == out[slot * 64 + t]) ++ok; else bad += fmt::format(" {}", t); }
    fmt::print("slot {:2d} {:40s} {}/64 {}\n", slot, name, ok, bad);
  };
  test::RunGroup<N>(32, [&] {
    Float4<N> a(F(0), F(1), F(2), F(3)), b(F(4), F(5), F(6), F(7));
    Float<N> e0 = F(9), e1 = F(10), x = F(11), eta = F(12);
    Float<N> one(1.f), two(2.f), three(3.f), zero(0.f);
    // smoothstep
    Float<N> s = saturate((x - e0) / (e1 - e0));
    count(17, s * (s * (three - s * 2.f)), "s*(s*(3-2s))");
    count(17, (s * s) * (three - s * 2.f), "(s*s)*(3-2s)");
    count(17, s * (s * mad(-two, s, three)), "s*(s*fma(-2,s,3))");
    count(17, (s * s) * mad(-two, s, three), "(s*s)*fma(-2,s,3)");
    Float<N> s2 = saturate((x - e0) * rcp(e1 - e0));
    count(17, (s2 * s2) * mad(-two, s2, three), "rcp: (s*s)*fma(-2,s,3)");
    count(17, s * s * three - s * s * s * 2.f, "3s^2 - 2s^3");
    count(17, mad(s * s, three, -(s * s * s * 2.f)), "fma(s*s,3,-(2 s^3))");
    // refract
    Float3<N> I = normalize(a.xyz()), Nn = normalize(b.xyz());
    Float<N> d = dot(Nn, I);
    std::vector<std::pair<const char*, Float<N>>> ks = {
      {"1-(1-d*d)*(eta*eta)", one - (one - d * d) * (eta * eta)},
      {"1-eta*(eta*(1-d*d))", one - eta * (eta * (one - d * d))},
      {"fma(-(eta*eta), fma(-d,d,1), 1)", mad(-(eta * eta), mad(-d, d, one), one)},
      {"fma(-eta, eta*fma(-d,d,1), 1)", mad(-eta, eta * mad(-d, d, one), one)},
      {"fma(-(eta*eta), 1-d*d, 1)", mad(-(eta * eta), one - d * d, one)},
      {"fma(-eta, eta*(1-d*d), 1)", mad(-eta, eta * (one - d * d), one)},
      {"1-(eta*eta)*fma(-d,d,1)", one - (eta * eta) * mad(-d, d, one)},
      {"1-eta*(eta*fma(-d,d,1))", one - eta * (eta * mad(-d, d, one))},
      {"fma(-(eta*eta),1,..) eta2*d*d - eta2 + 1", mad(eta * eta, d * d, one - eta * eta)},
      {"fma(eta*eta, fma(d,d,-1), 1)", mad(eta * eta, mad(d, d, -one), one)},
      {"fma(eta, eta*fma(d,d,-1), 1)", mad(eta, eta * mad(d, d, -one), one)},
    };
    for (auto& [kn, k] : ks) {
      Float<N> q1 = eta * d + sqrt(k), q2 = mad(eta, d, sqrt(k));
      for (int form = 0; form < 4; ++form) {
        Float<N> q = form & 1 ? q2 : q1;
        int okc = 0;
        for (int c = 0; c < 3; ++c) {
          Float<N> r = (form & 2) ? mad(eta, I[c], -(q * Nn[c])) : mad(-q, Nn[c], eta * I[c]);
          r = select(k < 0.f, zero, r);
          int ok = 0; for (int t = 0; t < N; ++t) ok += std::bit_cast<uint32_t>(r.lane(t)) == out[(21 + c) * 64 + t];
          okc += ok;
        }
        fmt::print("refract {:40s} q {} r {}: {}/192\n", kn, form & 1 ? "fma(eta,d,sqrt k)" : "eta*d+sqrt k",
                   form & 2 ? "fma(eta,i,-(q n))" : "fma(-q,n,eta i)", okc);
      }
    }
  }, NvidiaProfile());
}
