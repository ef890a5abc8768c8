// test_vulkan_backend.cpp -- the oracle's Vulkan side on a real driver (lavapipe here, whatever
// VK_DRIVER_FILES selects elsewhere): device facts, the prefix rewrite at run time, buffer round
// trips by Kind, D3D out-of-bounds rules, WaveSize, lane mapping, and every error path's message.
// Tests skip with a message when Vulkan or glslang is absent (WAVEEMU_REQUIRE_VULKAN=1: fail).
#if defined(WAVEEMU_ORACLE_TESTS) && WAVEEMU_HAVE_VULKAN_BACKEND

#include "tools/waveemu/hlsl_compile.h"
#include "tools/waveemu/spirv_rewrite.h"
#include "tools/waveemu/vulkan_backend.h"
#include "tests/oracle/vulkan_test_support.h"
#include "tests/support/file_text.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace waveemu::oracle {
namespace {

namespace fs = std::filesystem;

// Only lavapipe, unless the caller chose ICDs: the tests' lavapipe facts need that device.
const bool kIcdChosen = vktest::PreferLavapipe();

fs::path ShaderPath(const std::string& name) {
  return fs::path(__FILE__).parent_path() / "shaders" / name;
}

using waveemu::test::FileText;


// The device RunOnVulkan picks with default options.
VulkanDeviceInfo DefaultDevice() {
  const auto devices = ListVulkanDevices();
  for (const auto& d : devices)
    if (d.type != "CPU" && d.type != "other") return d;
  return devices.front();
}

bool IsLavapipe(const VulkanDeviceInfo& d) { return d.name.find("llvmpipe") != std::string::npos; }

template <class T>
BufferDesc Buffer(const std::string& name, DataFormat format, const std::vector<T>& values,
                  uint32_t stride = 0) {
  BufferDesc b;
  b.name = name;
  b.format = format;
  b.stride = stride;
  b.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(b.data.data(), values.data(), b.data.size());
  return b;
}

template <class T>
std::vector<T> Read(const BufferContents& out, const std::string& name) {
  auto it = out.find(name);
  REQUIRE_MESSAGE(it != out.end(), "no buffer '" << name << "' in the results");
  std::vector<T> values(it->second.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), it->second.data(), values.size() * sizeof(T));
  return values;
}

ResourceBinding Bind(const std::string& name, ResourceKind kind, uint32_t set, uint32_t binding) {
  ResourceBinding b;
  b.name = name;
  b.kind = kind;
  b.set = set;
  b.binding = binding;
  return b;
}

Pipeline FromShader(const std::string& file, const std::string& prefix = "") {
  Pipeline p;
  p.path = "test_vulkan_backend.yaml";
  p.hlsl_path = ShaderPath(file).string();
  p.hlsl_source = prefix + FileText(ShaderPath(file));
  return p;
}

/// A pipeline named NAME.yaml whose HLSL, entry main, is `hlsl` (as NAME.hlsl).
Pipeline InlineShader(const std::string& name, const std::string& hlsl) {
  Pipeline p;
  p.path = name + ".yaml";
  p.hlsl_path = name + ".hlsl";
  p.entry = "main";
  p.hlsl_source = hlsl;
  return p;
}

// Element-by-element comparison; on a mismatch prints every element in order.
template <class T>
void CheckElements(const std::string& what, const std::vector<T>& actual,
                   const std::vector<T>& expected) {
  bool same = actual.size() == expected.size();
  for (size_t i = 0; same && i < actual.size(); ++i)
    same = std::memcmp(&actual[i], &expected[i], sizeof(T)) == 0;
  if (same) {
    CHECK(true);
    return;
  }
  std::string table = fmt::format("{}: {} elements, expected {}\n index expected actual\n", what,
                                  actual.size(), expected.size());
  for (size_t i = 0; i < std::max(actual.size(), expected.size()); ++i)
    table += fmt::format("{:6} {:>8} {:>6}\n", i,
                         i < expected.size() ? fmt::format("{}", expected[i]) : "-",
                         i < actual.size() ? fmt::format("{}", actual[i]) : "-");
  FAIL_CHECK(table);
}

// Message of the exception `f` throws, checked to be of type E (empty when none).
template <class E, class F>
std::string MessageOf(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  FAIL("no exception was thrown");
  return "";
}

}  // namespace

// ------------------------------ devices
TEST_CASE("ListVulkanDevices describes lavapipe as vulkaninfo does: subgroup size 8 in compute, "
          "seven operation families, size control 8..8, robustness2 with nullDescriptor") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  const VulkanDeviceInfo d = DefaultDevice();
  MESSAGE(Describe(d));
  CHECK(d.subgroup_size >= 1);
  CHECK(std::find(d.subgroup_stages.begin(), d.subgroup_stages.end(), "compute") !=
        d.subgroup_stages.end());
  if (!IsLavapipe(d)) {
    MESSAGE("lavapipe-specific checks skipped on " << d.name);
    return;
  }
  // `vulkaninfo` with lavapipe (Mesa 22.3.6) on this machine printed these values.
  CHECK(d.type == "CPU");
  CHECK(d.driver_name == "llvmpipe");
  CHECK(d.subgroup_size == 8);
  const std::vector<std::string> ops = {"basic", "vote", "arithmetic", "ballot",
                                        "shuffle", "shuffle_relative", "quad"};
  CHECK(d.subgroup_operations == ops);
  CHECK(d.subgroup_size_control);
  CHECK(d.min_subgroup_size == 8);
  CHECK(d.max_subgroup_size == 8);
  CHECK(d.robustness2);
  CHECK(d.null_descriptor);
  CHECK(d.api_version_text.rfind("1.3.", 0) == 0);
}

TEST_CASE("WaveGetLaneCount is the subgroup size (8 on lavapipe) and thread t of a 1-D group of 16 "
          "is lane t % 8 of wave t / 8 there") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("lane_info.hlsl", "#define NUMTHREADS_X 16\n#define NUMTHREADS_Y 1\n");
  for (const char* name : {"Count", "Lane", "First"})
    p.buffers.push_back(Buffer(name, DataFormat::kUInt32, std::vector<uint32_t>(16, 0xdead)));
  p.bindings = {Bind("Count", ResourceKind::kRWStructuredBuffer, 0, 0),
                Bind("Lane", ResourceKind::kRWStructuredBuffer, 0, 1),
                Bind("First", ResourceKind::kRWStructuredBuffer, 0, 2)};
  VulkanRunReport report;
  VulkanRunOptions options;
  options.report = &report;
  const BufferContents out = RunOnVulkan(p, options);
  const uint32_t w = report.subgroup_size;
  if (IsLavapipe(report.device)) CHECK(w == 8);
  // D3D's numbering (DESIGN §1): lane t % W of wave t / W; first lane of the wave is t - t % W.
  std::vector<uint32_t> count(16), lane(16), first(16);
  for (uint32_t t = 0; t < 16; ++t) {
    count[t] = w;  // the wave's size, not its active lanes (HLSL WaveGetLaneCount)
    lane[t] = t % w;
    first[t] = t - t % w;
  }
  CHECK(report.full_subgroups == (16 % w == 0));
  CheckElements("WaveGetLaneCount", Read<uint32_t>(out, "Count"), count);
  CheckElements("WaveGetLaneIndex", Read<uint32_t>(out, "Lane"), lane);
  CheckElements("WaveReadLaneFirst(SV_GroupIndex)", Read<uint32_t>(out, "First"), first);
}

// ------------------------------ the prefix rewrite at run time
TEST_CASE("with the rewrite, WavePrefixSum and WavePrefixProduct give the identity at lane 0 and "
          "the fold of the lanes below at lane 3; without it glslang's inclusive scan shows") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("prefix_identity.hlsl");
  p.buffers = {Buffer("Sums", DataFormat::kUInt32, std::vector<uint32_t>(8, 0xdead)),
               Buffer("Products", DataFormat::kFloat32, std::vector<float>(8, -1.0f)),
               Buffer("Lanes", DataFormat::kUInt32, std::vector<uint32_t>(8, 0xdead))};
  p.bindings = {Bind("Sums", ResourceKind::kRWStructuredBuffer, 0, 0),
                Bind("Products", ResourceKind::kRWStructuredBuffer, 0, 1),
                Bind("Lanes", ResourceKind::kRWStructuredBuffer, 0, 2)};
  VulkanRunReport report;
  VulkanRunOptions options;
  options.report = &report;
  const BufferContents out = RunOnVulkan(p, options);
  CHECK(report.prefix_scans_rewritten == 2);
  // HLSL spec: WavePrefixSum(x) at lane L = sum of x over the active lanes below L (exclusive).
  // Every lane of the 8-thread group is active; x = lane + 1 and lane + 2.
  const std::vector<uint32_t> lanes = Read<uint32_t>(out, "Lanes");
  std::vector<uint32_t> sums(8);
  std::vector<float> products(8);
  for (size_t t = 0; t < 8; ++t) {
    uint32_t s = 0;
    float prod = 1.0f;
    for (uint32_t below = 0; below < lanes[t]; ++below) {
      s += below + 1;
      prod *= float(below + 2);
    }
    sums[t] = s;
    products[t] = prod;
  }
  CheckElements("WavePrefixSum(lane + 1)", Read<uint32_t>(out, "Sums"), sums);
  CheckElements("WavePrefixProduct(lane + 2)", Read<float>(out, "Products"), products);
  REQUIRE(lanes[0] == 0);
  REQUIRE(lanes[3] == 3);
  CHECK(Read<uint32_t>(out, "Sums")[0] == 0);          // the identity
  CHECK(Read<uint32_t>(out, "Sums")[3] == 1 + 2 + 3);  // lanes 0, 1, 2
  CHECK(Read<float>(out, "Products")[0] == 1.0f);
  CHECK(Read<float>(out, "Products")[3] == 2.0f * 3.0f * 4.0f);

  options.rewrite_prefix_scans = false;
  const BufferContents raw = RunOnVulkan(p, options);
  CHECK(report.prefix_scans_rewritten == 0);
  // glslang 12's InclusiveScan: lane 0 reads its own value, lane 3 includes itself.
  CHECK(Read<uint32_t>(raw, "Sums")[0] == 1);
  CHECK(Read<uint32_t>(raw, "Sums")[3] == 1 + 2 + 3 + 4);
  CHECK(Read<float>(raw, "Products")[0] == 2.0f);
}

// ------------------------------ buffers by Kind
TEST_CASE("StructuredBuffer, ByteAddressBuffer and a cbuffer are read, RWStructuredBuffer and "
          "RWByteAddressBuffer written, across two descriptor sets; unbound buffers come back "
          "unchanged") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("structured.hlsl");
  p.dispatch = {2, 1, 1};  // 16 threads, numthreads(8,1,1)
  std::vector<uint32_t> in(32), raw(16);
  for (uint32_t i = 0; i < 16; ++i) {
    in[2 * i] = i + 1;
    in[2 * i + 1] = 1000 * i;
    raw[i] = 0x01010101u * i;
  }
  const std::vector<uint32_t> constants = {3, 7, 0, 0};  // Scale, Offset (padded to 16 bytes)
  const std::vector<uint32_t> spare = {1, 2, 3};
  p.buffers = {Buffer("In", DataFormat::kUInt32, in, 8),
               Buffer("Raw", DataFormat::kHex32, raw),
               Buffer("Constants", DataFormat::kUInt32, constants),
               Buffer("Out", DataFormat::kUInt32, std::vector<uint32_t>(16, 0xdead)),
               Buffer("RawOut", DataFormat::kHex32, std::vector<uint32_t>(16, 0xdead)),
               Buffer("Spare", DataFormat::kUInt32, spare)};
  p.bindings = {Bind("In", ResourceKind::kStructuredBuffer, 0, 0),
                Bind("Raw", ResourceKind::kByteAddressBuffer, 0, 1),
                Bind("Constants", ResourceKind::kConstantBuffer, 0, 2),
                Bind("Out", ResourceKind::kRWStructuredBuffer, 1, 0),
                Bind("RawOut", ResourceKind::kRWByteAddressBuffer, 1, 1)};
  const BufferContents out = RunOnVulkan(p);
  std::vector<uint32_t> want_out(16), want_raw(16);
  for (uint32_t i = 0; i < 16; ++i) {
    want_out[i] = in[2 * i] * 3 + in[2 * i + 1] + 7;  // In[i].x * Scale + In[i].y + Offset
    want_raw[i] = raw[i] ^ 0xffffffffu;
  }
  CheckElements("Out", Read<uint32_t>(out, "Out"), want_out);
  CheckElements("RawOut", Read<uint32_t>(out, "RawOut"), want_raw);
  CheckElements("In (read-only)", Read<uint32_t>(out, "In"), in);
  CheckElements("Spare (unbound)", Read<uint32_t>(out, "Spare"), spare);
  CHECK(out.size() == p.buffers.size());
}

TEST_CASE("DirectXBinding/VulkanBinding pairs with one shift per register class (t+0, u+16, "
          "b+32) reach glslang as binding shifts, so t0 and u0 no longer collide") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("structured.hlsl");  // t0, t1, b2, u0 space1, u1 space1
  std::vector<uint32_t> in(16), raw(8);
  for (uint32_t i = 0; i < 8; ++i) {
    in[2 * i] = 5 * i;
    in[2 * i + 1] = 2;
    raw[i] = i << 24;
  }
  p.buffers = {Buffer("In", DataFormat::kUInt32, in, 8), Buffer("Raw", DataFormat::kHex32, raw),
               Buffer("Constants", DataFormat::kUInt32, std::vector<uint32_t>{2, 1, 0, 0}),
               Buffer("Out", DataFormat::kUInt32, std::vector<uint32_t>(8)),
               Buffer("RawOut", DataFormat::kHex32, std::vector<uint32_t>(8))};
  auto bind = [](const char* name, ResourceKind kind, uint32_t set, uint32_t reg,
                 uint32_t binding) {
    ResourceBinding b = Bind(name, kind, set, binding);
    b.dx_register = reg;
    b.dx_space = set;
    b.has_dx_binding = b.has_vulkan_binding = true;
    return b;
  };
  p.bindings = {bind("In", ResourceKind::kStructuredBuffer, 0, 0, 0),
                bind("Raw", ResourceKind::kByteAddressBuffer, 0, 1, 1),
                bind("Constants", ResourceKind::kConstantBuffer, 0, 2, 34),
                bind("Out", ResourceKind::kRWStructuredBuffer, 1, 0, 16),
                bind("RawOut", ResourceKind::kRWByteAddressBuffer, 1, 1, 17)};
  VulkanRunReport report;
  VulkanRunOptions options;
  options.report = &report;
  const BufferContents out = RunOnVulkan(p, options);
  CHECK(report.binding_shifts.find("--shift-uav-binding 16") != std::string::npos);
  CHECK(report.binding_shifts.find("--shift-cbuffer-binding 32") != std::string::npos);
  std::vector<uint32_t> want_out(8), want_raw(8);
  for (uint32_t i = 0; i < 8; ++i) {
    want_out[i] = in[2 * i] * 2 + in[2 * i + 1] + 1;  // In[i].x * Scale + In[i].y + Offset
    want_raw[i] = ~raw[i];
  }
  CheckElements("Out", Read<uint32_t>(out, "Out"), want_out);
  CheckElements("RawOut", Read<uint32_t>(out, "RawOut"), want_raw);

  // Two different shifts within class u cannot be one glslang option: noted, no u shift.
  p.bindings[4].binding = 18;
  const std::string msg = MessageOf<VulkanBackendError>([&] { RunOnVulkan(p, options); });
  CHECK(msg.find("resource 'Out'") != std::string::npos);  // u0 stays at binding 0
}

TEST_CASE("Buffer and RWBuffer become texel buffers whose format follows Format and Stride: "
          "R32_SFLOAT, R32_SINT and R32G32B32A32_SFLOAT for a stride of 16") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("typed.hlsl");
  p.dispatch = {2, 1, 1};  // 8 threads
  const std::vector<float> in = {-3.5f, -1.0f, 0.0f, 0.75f, 1.5f, 2.0f, 10.25f, 100.0f};
  std::vector<float> in4(32);
  for (size_t i = 0; i < in4.size(); ++i) in4[i] = float(i) * 0.5f - 4.0f;
  p.buffers = {Buffer("In", DataFormat::kFloat32, in),
               Buffer("In4", DataFormat::kFloat32, in4, 16),
               Buffer("Out", DataFormat::kInt32, std::vector<int32_t>(8, 12345)),
               Buffer("Out4", DataFormat::kFloat32, std::vector<float>(32, -9.0f), 16)};
  p.bindings = {Bind("In", ResourceKind::kBuffer, 0, 0), Bind("In4", ResourceKind::kBuffer, 0, 1),
                Bind("Out", ResourceKind::kRWBuffer, 0, 2),
                Bind("Out4", ResourceKind::kRWBuffer, 0, 3)};
  const BufferContents out = RunOnVulkan(p);
  std::vector<int32_t> want(8);
  std::vector<float> want4(32);
  for (size_t i = 0; i < 8; ++i) {
    want[i] = int32_t(in[i] * 2.0f) - 5;  // int() truncates toward zero
    for (size_t c = 0; c < 4; ++c) want4[4 * i + c] = in4[4 * i + (3 - c)];  // .wzyx
  }
  CheckElements("Out = int(In * 2) - 5", Read<int32_t>(out, "Out"), want);
  CheckElements("Out4 = In4.wzyx", Read<float>(out, "Out4"), want4);
}

TEST_CASE("with robustBufferAccess2, out-of-bounds structured and typed buffer reads give 0 "
          "(alpha too) and out-of-bounds writes are dropped, as in D3D") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("out_of_bounds.hlsl");
  const std::vector<uint32_t> in = {10, 20, 30, 40};
  const std::vector<uint32_t> small = {0xaaaa, 0xbbbb, 0xcccc, 0xdddd};
  const std::vector<float> typed = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<float> typed_small = {-1, -2, -3, -4, -5, -6, -7, -8};
  p.buffers = {Buffer("In", DataFormat::kUInt32, in),
               Buffer("Out", DataFormat::kUInt32, std::vector<uint32_t>(8, 0xdead)),
               Buffer("Small", DataFormat::kUInt32, small),
               Buffer("Typed", DataFormat::kFloat32, typed, 16),
               Buffer("TypedOut", DataFormat::kFloat32, std::vector<float>(32, -9.0f), 16),
               Buffer("TypedSmall", DataFormat::kFloat32, typed_small, 16)};
  p.bindings = {Bind("In", ResourceKind::kStructuredBuffer, 0, 0),
                Bind("Out", ResourceKind::kRWStructuredBuffer, 0, 1),
                Bind("Small", ResourceKind::kRWStructuredBuffer, 0, 2),
                Bind("Typed", ResourceKind::kBuffer, 0, 3),
                Bind("TypedOut", ResourceKind::kRWBuffer, 0, 4),
                Bind("TypedSmall", ResourceKind::kRWBuffer, 0, 5)};
  VulkanRunReport report;
  VulkanRunOptions options;
  options.report = &report;
  const BufferContents out = RunOnVulkan(p, options);
  MESSAGE("robustness: " << report.robustness);
  if (!report.robustness2) {
    MESSAGE("skipped: device '" << report.device.name << "' has no robustBufferAccess2");
    return;
  }
  CHECK(report.robustness.find("robustBufferAccess2") != std::string::npos);
  // D3D: In[4..7] read 0, so Out = 0 + 100 there; Small[4..11] writes vanish.
  CheckElements("Out = In[gi] + 100", Read<uint32_t>(out, "Out"),
                std::vector<uint32_t>{110, 120, 130, 140, 100, 100, 100, 100});
  CheckElements("Small (every write out of bounds)", Read<uint32_t>(out, "Small"), small);
  std::vector<float> typed_out(32, 0.0f);  // D3D: out-of-bounds typed loads are all zero
  std::copy(typed.begin(), typed.end(), typed_out.begin());
  CheckElements("TypedOut = Typed[gi]", Read<float>(out, "TypedOut"), typed_out);
  CheckElements("TypedSmall (every write out of bounds)", Read<float>(out, "TypedSmall"),
                typed_small);
}

// ------------------------------ wave size and lane mapping
TEST_CASE("a WaveSize the device supports is required through subgroup size control; one "
          "outside its range is reported as not honoured") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("lane_info.hlsl");  // numthreads(8,1,1)
  for (const char* name : {"Count", "Lane", "First"})
    p.buffers.push_back(Buffer(name, DataFormat::kUInt32, std::vector<uint32_t>(8, 0)));
  p.bindings = {Bind("Count", ResourceKind::kRWStructuredBuffer, 0, 0),
                Bind("Lane", ResourceKind::kRWStructuredBuffer, 0, 1),
                Bind("First", ResourceKind::kRWStructuredBuffer, 0, 2)};
  const VulkanDeviceInfo d = DefaultDevice();
  VulkanRunReport report;
  VulkanRunOptions options;
  options.report = &report;
  if (d.subgroup_size_control) {
    p.wave_size = int(d.min_subgroup_size);
    const BufferContents out = RunOnVulkan(p, options);
    CHECK(report.wave_size_honoured);
    CHECK(report.subgroup_size == d.min_subgroup_size);
    CHECK(Read<uint32_t>(out, "Count")[0] == d.min_subgroup_size);
  }
  p.wave_size = int(d.max_subgroup_size ? d.max_subgroup_size * 2 : 256);
  const BufferContents out = RunOnVulkan(p, options);
  CHECK_FALSE(report.wave_size_honoured);
  CHECK(report.subgroup_size == d.subgroup_size);
  const std::string expected_note = fmt::format("WaveSize {} is not honoured", *p.wave_size);
  CHECK_MESSAGE(std::any_of(report.notes.begin(), report.notes.end(),
                            [&](const std::string& n) {
                              return n.find(expected_note) != std::string::npos;
                            }),
                "notes: " << fmt::format("{}", fmt::join(report.notes, " | ")));
  CHECK(Read<uint32_t>(out, "Count")[0] == d.subgroup_size);
}

TEST_CASE("lavapipe gives each row of a 2-D group its own waves: numthreads(2,2,1) has lanes "
          "0,1,0,1 and numthreads(12,2,1) splits each row of 12 into 8 + 4, unlike D3D") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  if (!IsLavapipe(DefaultDevice())) {
    MESSAGE("skipped: records lavapipe's mapping; the device is " << DefaultDevice().name);
    return;
  }
  struct Shape {
    uint32_t x, y;
    std::vector<uint32_t> lane, first;  // hand-worked from "a wave never spans two rows"
  };
  const std::vector<Shape> shapes = {
      {2, 2, {0, 1, 0, 1}, {0, 0, 2, 2}},
      {4, 2, {0, 1, 2, 3, 0, 1, 2, 3}, {0, 0, 0, 0, 4, 4, 4, 4}},
      {12, 2,
       {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3},
       {0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 12, 12, 12, 12, 12, 12, 12, 12, 20, 20, 20, 20}},
  };
  for (const Shape& s : shapes) {
    CAPTURE(s.x);
    CAPTURE(s.y);
    const uint32_t n = s.x * s.y;
    Pipeline p = FromShader("lane_info.hlsl", fmt::format("#define NUMTHREADS_X {}\n"
                                                         "#define NUMTHREADS_Y {}\n", s.x, s.y));
    for (const char* name : {"Count", "Lane", "First"})
      p.buffers.push_back(Buffer(name, DataFormat::kUInt32, std::vector<uint32_t>(n, 0xdead)));
    p.bindings = {Bind("Count", ResourceKind::kRWStructuredBuffer, 0, 0),
                  Bind("Lane", ResourceKind::kRWStructuredBuffer, 0, 1),
                  Bind("First", ResourceKind::kRWStructuredBuffer, 0, 2)};
    VulkanRunReport report;
    VulkanRunOptions options;
    options.report = &report;
    const BufferContents out = RunOnVulkan(p, options);
    CheckElements(fmt::format("WaveGetLaneIndex, numthreads({},{},1)", s.x, s.y),
                  Read<uint32_t>(out, "Lane"), s.lane);
    CheckElements(fmt::format("first thread of the wave, numthreads({},{},1)", s.x, s.y),
                  Read<uint32_t>(out, "First"), s.first);
    CHECK_FALSE(report.full_subgroups);
    CHECK_FALSE(report.notes.empty());  // the mapping note
  }
}

// ------------------------------ errors
TEST_CASE("an HLSL compile error names the HLSL file and line, from CompileHlsl and RunOnVulkan") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  const std::string path = ShaderPath("compile_error.hlsl").string();
  try {
    CompileHlsl(FileText(path), path);
    FAIL("compile_error.hlsl compiled");
  } catch (const HlslCompileError& e) {
    CHECK(e.file == path);
    CHECK(e.line == 7);  // the line that uses the undeclared name
    CHECK(std::string(e.what()).rfind(path + ":7: error:", 0) == 0);
    CHECK(std::string(e.what()).find("waveemu-hlsl-") == std::string::npos);  // no temp path
  }
  Pipeline p = FromShader("compile_error.hlsl");
  const std::string msg = MessageOf<HlslCompileError>([&] { RunOnVulkan(p); });
  CHECK(msg.find("compile_error.hlsl:7:") != std::string::npos);

  p = FromShader("prefix_identity.hlsl");
  p.entry = "CSMain";
  const std::string entry_msg = MessageOf<HlslCompileError>([&] { RunOnVulkan(p); });
  CHECK(entry_msg.find("entry point 'CSMain' not found") != std::string::npos);
}

TEST_CASE("an HLSL compile error in a split-file test names the test file's line, not the "
          "source section's") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  // The error is on the test file's line 4: the third line of a source section that starts on
  // line 2.
  const std::string text = "#--- source.hlsl\n"
                           "RWStructuredBuffer<uint> Out : register(u0);\n"
                           "[numthreads(4, 1, 1)]\n"
                           "void main(uint t : SV_GroupIndex) { Out[t] = t +; }\n"
                           "#--- pipeline.yaml\n"
                           "Shaders:\n  - Stage: Compute\n    Entry: main\n"
                           "Buffers:\n  - Name: Out\n    Format: UInt32\n    FillSize: 16\n"
                           "DescriptorSets:\n  - Resources:\n    - Name: Out\n"
                           "      Kind: RWStructuredBuffer\n"
                           "      DirectXBinding: { Register: 0, Space: 0 }\n"
                           "      VulkanBinding: { Binding: 0 }\n";
  const Pipeline p = ParsePipeline(text, "split.test");
  REQUIRE(p.hlsl_first_line == 2);
  const std::string msg = MessageOf<HlslCompileError>([&] { RunOnVulkan(p); });
  CHECK(msg.rfind("split.test:4: error:", 0) == 0);
}

TEST_CASE("a shader resource with no binding is reported by its HLSL name, set and binding; a "
          "binding of an undefined buffer or of the wrong Kind is reported by name") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("prefix_identity.hlsl");  // Sums u0, Products u1, Lanes u2
  p.buffers = {Buffer("Sums", DataFormat::kUInt32, std::vector<uint32_t>(8)),
               Buffer("Products", DataFormat::kFloat32, std::vector<float>(8)),
               Buffer("Lanes", DataFormat::kUInt32, std::vector<uint32_t>(8))};
  p.bindings = {Bind("Sums", ResourceKind::kRWStructuredBuffer, 0, 0),
                Bind("Lanes", ResourceKind::kRWStructuredBuffer, 0, 2)};
  auto run = [&] { RunOnVulkan(p); };
  std::string msg = MessageOf<VulkanBackendError>(run);
  CHECK(msg.find("resource 'Products'") != std::string::npos);
  CHECK(msg.find("descriptor set 0, binding 1") != std::string::npos);
  CHECK(msg.find("prefix_identity.hlsl") != std::string::npos);

  p.bindings.push_back(Bind("Produce", ResourceKind::kRWStructuredBuffer, 0, 1));
  msg = MessageOf<VulkanBackendError>(run);
  CHECK(msg.find("buffer 'Produce', which Buffers does not define") != std::string::npos);
  CHECK(msg.find("test_vulkan_backend.yaml") != std::string::npos);

  p.bindings.back() = Bind("Products", ResourceKind::kRWBuffer, 0, 1);
  msg = MessageOf<VulkanBackendError>(run);
  CHECK(msg.find("bound as RWBuffer") != std::string::npos);
  CHECK(msg.find("declares 'Products' there as a storage buffer") != std::string::npos);

  p.bindings.back() = Bind("Products", ResourceKind::kRWStructuredBuffer, 0, 2);
  msg = MessageOf<VulkanBackendError>(run);
  CHECK(msg.find("are both bound at descriptor set 0, binding 2") != std::string::npos);
}

TEST_CASE("a structured buffer whose records differ from the shader's array stride is noted, "
          "with or without Stride") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = InlineShader(
      "stride", "StructuredBuffer<uint2> In : register(t0);\n"
                "RWStructuredBuffer<uint> Out : register(u1);\n"
                "[numthreads(4, 1, 1)] void main(uint t : SV_GroupIndex) { Out[t] = In[t].y; }\n");
  p.bindings = {Bind("In", ResourceKind::kStructuredBuffer, 0, 0),
                Bind("Out", ResourceKind::kRWStructuredBuffer, 0, 1)};
  const auto notes_with_stride = [&](uint32_t stride) {
    p.buffers = {Buffer("In", DataFormat::kUInt32, std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                                                         10, 11, 12, 13, 14, 15},
                        stride),
                 Buffer("Out", DataFormat::kUInt32, std::vector<uint32_t>(4))};
    VulkanRunReport report;
    VulkanRunOptions options;
    options.report = &report;
    const BufferContents out = RunOnVulkan(p, options);
    // The shader reads with its own stride, 8 bytes, whatever the pipeline says.
    CheckElements("Out", Read<uint32_t>(out, "Out"), std::vector<uint32_t>{1, 3, 5, 7});
    std::string stride_notes;
    for (const auto& n : report.notes)
      if (n.find("array stride") != std::string::npos) stride_notes += n;
    return stride_notes;
  };
  const std::string std430 = " (glslang lays structured buffers out as std430: 3-component "
                             "elements take 16 bytes)";
  CHECK(notes_with_stride(0) == "buffer 'In' has 4-byte records (UInt32, no Stride) but the "
                                "shader's 'In' has array stride 8" + std430);
  CHECK(notes_with_stride(16) ==
        "buffer 'In' has Stride 16 but the shader's 'In' has array stride 8" + std430);
  CHECK(notes_with_stride(8) == "");
}

TEST_CASE("numthreads with a dimension of 0, which glslang accepts, is refused before the run") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = InlineShader(
      "zero", "RWStructuredBuffer<uint> Out : register(u0);\n"
              "[numthreads(0, 1, 1)] void main(uint t : SV_GroupIndex) { Out[t] = t; }\n");
  p.buffers = {Buffer("Out", DataFormat::kUInt32, std::vector<uint32_t>(8))};
  p.bindings = {Bind("Out", ResourceKind::kRWStructuredBuffer, 0, 0)};
  CHECK(MessageOf<VulkanBackendError>([&] { RunOnVulkan(p); }) ==
        "zero.hlsl: numthreads(0, 1, 1) has a dimension of 0; each must be at least 1");
}

TEST_CASE("a shader needing subgroup operations the device lacks fails naming the operation and "
          "the SPIR-V capability (clustered, from GLSL: lavapipe lacks it)") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  const VulkanDeviceInfo d = DefaultDevice();
  if (std::find(d.subgroup_operations.begin(), d.subgroup_operations.end(), "clustered") !=
      d.subgroup_operations.end()) {
    MESSAGE("skipped: " << d.name << " supports clustered subgroup operations");
    return;
  }
  // HLSL has no clustered wave op: compile GLSL with glslangValidator directly.
  char dir[] = "/tmp/waveemu-vk-test-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string spv = std::string(dir) + "/clustered.spv";
  std::string src = ShaderPath("clustered.comp").string();
  std::vector<std::string> args = {"glslangValidator", "-S", "comp", "--target-env",
                                   "vulkan1.1", "-V", src, "-o", spv};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  posix_spawn_file_actions_t quiet;  // glslangValidator prints the file name on stdout
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
  const int spawned = posix_spawnp(&pid, "glslangValidator", &quiet, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&quiet);
  REQUIRE(spawned == 0);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  const std::string bytes = FileText(spv);
  fs::remove_all(dir);
  std::vector<uint32_t> words =
      SpirvWordsFromBytes({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()});

  Pipeline p;
  p.path = "clustered.yaml";
  p.hlsl_path = src;
  p.buffers = {Buffer("Out", DataFormat::kUInt32, std::vector<uint32_t>(8))};
  p.bindings = {Bind("Out", ResourceKind::kRWStructuredBuffer, 0, 0)};
  try {
    RunSpirvOnVulkan(p, words);
    FAIL("ran a clustered shader on a device without clustered subgroup operations");
  } catch (const VulkanBackendError& e) {
    CHECK(e.kind == VulkanBackendError::Kind::kUnsupported);
    const std::string msg = e.what();
    CHECK(msg.find("'clustered'") != std::string::npos);
    CHECK(msg.find("GroupNonUniformClustered") != std::string::npos);
    CHECK(msg.find(d.name) != std::string::npos);
  }
}

TEST_CASE("an unknown device index or name is an error listing the devices; no driver at all "
          "says where lavapipe comes from") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  Pipeline p = FromShader("prefix_identity.hlsl");
  VulkanRunOptions options;
  options.device_index = 99;
  std::string msg = MessageOf<VulkanBackendError>([&] { RunOnVulkan(p, options); });
  CHECK(msg.find("no Vulkan device 99") != std::string::npos);
  CHECK(msg.find(DefaultDevice().name) != std::string::npos);
  options.device_index.reset();
  options.device_name = "no-such-gpu";
  msg = MessageOf<VulkanBackendError>([&] { RunOnVulkan(p, options); });
  CHECK(msg.find("contains 'no-such-gpu'") != std::string::npos);

  // The loader reads VK_DRIVER_FILES at each vkCreateInstance.
  const char* saved = std::getenv("VK_DRIVER_FILES");
  const std::string saved_value = saved ? saved : "";
  setenv("VK_DRIVER_FILES", "/nonexistent/waveemu_icd.json", 1);
  std::string none;
  VulkanBackendError::Kind kind = VulkanBackendError::Kind::kVulkanCall;
  try {
    ListVulkanDevices();
  } catch (const VulkanBackendError& e) {
    none = e.what();
    kind = e.kind;
  }
  if (saved) setenv("VK_DRIVER_FILES", saved_value.c_str(), 1);
  else unsetenv("VK_DRIVER_FILES");
  CHECK(kind == VulkanBackendError::Kind::kNoDevice);
  CHECK(none.find("mesa-vulkan-drivers") != std::string::npos);
}

TEST_CASE("a missing glslangValidator is reported with how to install it") {
  CHECK_FALSE(FindGlslangValidator("/nonexistent/glslangValidator").has_value());
  HlslCompileOptions options;
  options.validator = "/nonexistent/glslangValidator";
  const std::string msg =
      MessageOf<HlslToolMissing>([&] { CompileHlsl("[numthreads(1,1,1)] void main() {}",
                                                   "x.hlsl", options); });
  CHECK(msg.find("glslang-tools") != std::string::npos);
}

// The abandoned dispatch keeps one core busy until the process exits (ctest runs each case in
// its own process); lavapipe's process exit does not wait for it. Lavapipe only: what a GPU
// driver does at exit with work still running is its own business.
TEST_CASE("a dispatch that never finishes fails with kTimeout after the limit instead of hanging") {
  WAVEEMU_REQUIRE_VULKAN_OR_SKIP();
  if (!IsLavapipe(DefaultDevice())) {
    MESSAGE("skipped: abandons a running dispatch, tried on lavapipe only; the device is "
            << DefaultDevice().name);
    return;
  }
  Pipeline p = FromShader("endless.hlsl");
  p.buffers = {Buffer("Out", DataFormat::kUInt32, std::vector<uint32_t>{1, 65535, 0, 0})};
  p.dispatch = {65535, 65535, 1};
  p.bindings = {Bind("Out", ResourceKind::kRWStructuredBuffer, 0, 0)};
  VulkanRunOptions options;
  options.timeout_seconds = 2;
  const auto start = std::chrono::steady_clock::now();
  try {
    RunOnVulkan(p, options);
    FAIL("the endless shader finished");
  } catch (const VulkanBackendError& e) {
    CHECK(e.kind == VulkanBackendError::Kind::kTimeout);
    CHECK(std::string(e.what()).find("did not finish within 2 s") != std::string::npos);
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
}

}  // namespace waveemu::oracle

#endif  // WAVEEMU_ORACLE_TESTS && WAVEEMU_HAVE_VULKAN_BACKEND
