// runtime/: NVRTC compile for every target, the ptxas log parser, the cubin
// cache, the driver loader and the target/device table. Nothing here needs a
// GPU; where a driver and a device are present (the H200), the driver tests
// also launch a kernel and provoke out-of-memory and shared-memory errors.
#include "runtime/driver/Driver.h"
#include "runtime/nvrtc/Nvrtc.h"
#include "runtime/problem/Reference.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace attncc;
namespace fs = std::filesystem;

namespace {

// A plain kernel, an mma.sync.m16n8k16 kernel (fp16 in, fp32 accumulate), a
// templated one, and a kernel that spills under -maxrregcount=32.
const char *kSource = R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void scale2(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
extern "C" __global__ void mma16816(float *d, const unsigned *a, const unsigned *b) {
  unsigned t = threadIdx.x;
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  unsigned a0 = a[t], a1 = a[t + 32], a2 = a[t + 64], a3 = a[t + 96], b0 = b[t], b1 = b[t + 32];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  d[4 * t] = c0; d[4 * t + 1] = c1; d[4 * t + 2] = c2; d[4 * t + 3] = c3;
}
template <int N> __global__ void fill(__half *o) { o[threadIdx.x] = __float2half(float(N)); }
template __global__ void fill<7>(__half *);
extern "C" __global__ void spilly(float *o, const float *a, int n) {
  float v[96];
  #pragma unroll
  for (int i = 0; i < 96; ++i) v[i] = a[threadIdx.x + i * n];
  float s = 0;
  for (int it = 0; it < n; ++it) {
    #pragma unroll
    for (int i = 0; i < 96; ++i) { v[i] = v[i] * v[(i + 1) % 96] + s; s += v[i]; }
  }
  #pragma unroll
  for (int i = 0; i < 96; ++i) o[threadIdx.x + i * n] = v[i];
}
)";

// Captured from NVRTC 13.0 (-arch=sm_80 -Xptxas=-v -maxrregcount=32) on kernels
// with a __constant__ array, static shared memory and register spills.
const char *kLogSm80 = R"(ptxas info    : Overriding maximum register limit 256 for 'cmemk' with  32 of maxrregcount option
ptxas info    : Overriding maximum register limit 256 for 'smemk' with  32 of maxrregcount option
ptxas info    : Overriding maximum register limit 256 for 'spilly' with  32 of maxrregcount option
ptxas info    : 0 bytes gmem, 256 bytes cmem[3]
ptxas info    : Compiling entry function 'cmemk' for 'sm_80'
ptxas info    : Function properties for cmemk
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, used 0 barriers, 360 bytes cmem[0]
ptxas info    : Compile time = 1.654 ms
ptxas info    : Compiling entry function 'smemk' for 'sm_80'
ptxas info    : Function properties for smemk
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 16 registers, used 1 barriers, 4224 bytes smem, 360 bytes cmem[0]
ptxas info    : Compile time = 1.659 ms
ptxas info    : Compiling entry function 'spilly' for 'sm_80'
ptxas info    : Function properties for spilly
ptxas         .     632 bytes stack frame, 976 bytes spill stores, 1012 bytes spill loads
ptxas info    : Used 32 registers, used 0 barriers, 632 bytes cumulative stack size, 372 bytes cmem[0]
ptxas info    : Compile time = 48.706 ms
)";

// Captured from NVRTC 13.0 (-arch=sm_90a -Xptxas=-v -Xptxas=-warn-spills
// -maxrregcount=32): no cmem items for sm_90+, a mangled name, a noinline
// callee's properties after its caller, a warning naming its function.
const char *kLogSm90a = R"(ptxas warning : Registers are spilled to local memory in function 'spilly', 1216 bytes spill stores, 1272 bytes spill loads
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90a'
ptxas info    : Function properties for _Z1kPf
ptxas         .     256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, used 0 barriers, 256 bytes cumulative stack size
ptxas info    : Compile time = 12.164 ms
ptxas info    : Function properties for _Z6helperPfi
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'spilly' for 'sm_90a'
ptxas info    : Function properties for spilly
ptxas         .     776 bytes stack frame, 1216 bytes spill stores, 1272 bytes spill loads
ptxas info    : Used 32 registers, used 0 barriers, 776 bytes cumulative stack size
ptxas info    : Compile time = 60.808 ms
)";

/// A fresh, empty directory under the system temp dir, removed at scope exit.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string &tag) {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("attncc-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

/// Sets an environment variable for the scope, restoring the old value.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(const std::string &n, const char *value) : name(n) {
    if (const char *o = std::getenv(n.c_str()))
      old = o;
    if (value)
      ::setenv(n.c_str(), value, 1);
    else
      ::unsetenv(n.c_str());
  }
  ~ScopedEnv() {
    if (old)
      ::setenv(name.c_str(), old->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

nvrtc::CompileOptions opts(const std::string &arch, std::vector<std::string> extra = {}) {
  nvrtc::CompileOptions o;
  o.arch = arch;
  o.extra = std::move(extra);
  return o;
}

size_t fileCount(const fs::path &dir) {
  size_t n = 0;
  for (auto it = fs::directory_iterator(dir); it != fs::directory_iterator(); ++it)
    ++n;
  return n;
}

} // namespace

//===----------------------------------------------------------------------===//
// NVRTC
//===----------------------------------------------------------------------===//

TEST_CASE("nvrtc compiles plain and mma.sync kernels for every target", "[runtime][nvrtc]") {
  for (std::string arch : {"sm_80", "sm_90a", "sm_100a", "sm_120a", "sm_90"}) {
    for (std::string kernel : {"scale2", "mma16816"}) {
      INFO(arch << " " << kernel);
      std::string err;
      auto k = nvrtc::compile(kSource, kernel, opts(arch), err);
      INFO(err);
      REQUIRE(k);
      INFO("log: " << k->log);
      CHECK(!k->cubin.empty());
      CHECK(k->ptx.empty()); // not asked for
      CHECK(k->loweredName == kernel);
      CHECK(k->arch == arch);
      CHECK(k->usage.registers >= 1);
      CHECK(k->usage.spillStoresBytes == 0);
      CHECK(k->usage.spillLoadsBytes == 0);
      CHECK(k->usage.staticSmemBytes == 0);
      CHECK(k->usage.stackBytes == 0);
      CHECK(!k->usage.spills());
      CHECK(k->log.find("Compiling entry function '" + kernel + "' for '" + arch + "'") !=
            std::string::npos);
      CHECK(k->options.front() == "-arch=" + arch);
      CHECK(std::find(k->options.begin(), k->options.end(), "-Xptxas=-v") != k->options.end());
      CHECK(std::find(k->options.begin(), k->options.end(), "--use_fast_math") == k->options.end());
    }
  }
}

TEST_CASE("nvrtc options and PTX", "[runtime][nvrtc]") {
  std::string err;
  auto o = opts("sm_90a", {"-lineinfo"});
  auto list = nvrtc::buildOptions(o, err);
  REQUIRE(list);
  CHECK((*list)[0] == "-arch=sm_90a");
  CHECK((*list)[1] == "-std=c++17");
  CHECK((*list)[2] == "-default-device");
  CHECK((*list)[3].rfind("-I", 0) == 0);
  CHECK((*list)[4] == "-Xptxas=-v");
  CHECK((*list)[5] == "--no-cache");
  CHECK(list->back() == "-lineinfo");
  CHECK(nvrtc::nvrtcVersion().find('.') != std::string::npos);

  o.wantPtx = true;
  auto k = nvrtc::compile(kSource, "scale2", o, err);
  REQUIRE(k);
  CHECK(!k->cubin.empty());
  CHECK(k->ptx.find(".target sm_90a") != std::string::npos);
  CHECK(k->ptx.find(".entry scale2") != std::string::npos);

  // compute_ arch: PTX only.
  k = nvrtc::compile(kSource, "scale2", opts("compute_90a"), err);
  REQUIRE(k);
  CHECK(k->cubin.empty());
  CHECK(k->ptx.find(".target sm_90a") != std::string::npos);
  CHECK(!k->usage.known());
}

TEST_CASE("nvrtc looks kernels up by C++ name expression", "[runtime][nvrtc]") {
  std::string err;
  auto k = nvrtc::compile(kSource, "fill<7>", opts("sm_90a"), err);
  INFO(err);
  REQUIRE(k);
  CHECK(k->kernelName == "fill<7>");
  CHECK(k->loweredName == "_Z4fillILi7EEvP6__half");
  CHECK(k->usage.registers >= 1);
}

TEST_CASE("nvrtc failures name the log, the target, the options and the kernel",
          "[runtime][nvrtc]") {
  std::string err;
  auto k = nvrtc::compile("extern \"C\" __global__ void broken(float *o) { o[0] = undefined_q; }",
                          "broken", opts("sm_90a", {"-DMARKER=1"}), err);
  CHECK(!k);
  CHECK_THAT(err, Catch::Contains("kernel 'broken'"));
  CHECK_THAT(err, Catch::Contains("sm_90a"));
  CHECK_THAT(err, Catch::Contains("NVRTC_ERROR_COMPILATION"));
  CHECK_THAT(err, Catch::Contains("-arch=sm_90a -std=c++17 -default-device"));
  CHECK_THAT(err, Catch::Contains("-DMARKER=1"));
  CHECK_THAT(err, Catch::Contains("identifier \"undefined_q\" is undefined"));

  SECTION("a kernel that is not in the source") {
    k = nvrtc::compile(kSource, "nosuch", opts("sm_80"), err);
    CHECK(!k);
    CHECK_THAT(err, Catch::Contains("no __global__ function named 'nosuch'"));
  }
  SECTION("an unknown target") {
    k = nvrtc::compile(kSource, "scale2", opts("sm_99"), err);
    CHECK(!k);
    CHECK_THAT(err, Catch::Contains("unsupported target 'sm_99'"));
    CHECK_THAT(err, Catch::Contains("sm_90"));
    k = nvrtc::compile(kSource, "scale2", opts("sm_80a"), err);
    CHECK(!k);
    CHECK_THAT(err, Catch::Contains("unsupported target 'sm_80a'"));
  }
  SECTION("a ptxas failure: wgmma does not exist on sm_80") {
    const char *src = R"(extern "C" __global__ void w() { asm volatile("wgmma.fence.sync.aligned;"); })";
    k = nvrtc::compile(src, "w", opts("sm_80"), err);
    CHECK(!k);
    CHECK_THAT(err, Catch::Contains("kernel 'w' for sm_80"));
    CHECK_THAT(err, Catch::Contains("ptxas"));
    CHECK(nvrtc::compile(src, "w", opts("sm_90a"), err));
  }
  SECTION("the source is dumped on request") {
    TempDir dir("dump");
    auto o = opts("sm_90a");
    o.dumpDir = dir.path.string();
    k = nvrtc::compile("extern \"C\" __global__ void broken() { nope; }", "broken", o, err);
    CHECK(!k);
    CHECK_THAT(err, Catch::Contains("source: " + dir.path.string()));
    CHECK(fileCount(dir.path) == 1);
  }
}

TEST_CASE("nvrtc reports forced spills", "[runtime][nvrtc]") {
  std::string err;
  auto k = nvrtc::compile(kSource, "spilly", opts("sm_90a", {"-maxrregcount=32"}), err);
  INFO(err);
  REQUIRE(k);
  CHECK(k->usage.registers <= 32);
  CHECK(k->usage.spills());
  CHECK(k->usage.spillStoresBytes > 0);
  CHECK(k->usage.spillLoadsBytes > 0);
  CHECK(k->usage.stackBytes > 0);
}

TEST_CASE("ptxas log parser on captured logs", "[runtime][nvrtc]") {
  auto u = nvrtc::parsePtxasLog(kLogSm80);
  REQUIRE(u.size() == 3);
  CHECK(u["cmemk"].registers == 8);
  CHECK(u["cmemk"].barriers == 0);
  CHECK(u["cmemk"].staticSmemBytes == 0);
  CHECK(u["cmemk"].constBytes == 360);
  CHECK(u["smemk"].registers == 16);
  CHECK(u["smemk"].barriers == 1);
  CHECK(u["smemk"].staticSmemBytes == 4224);
  CHECK(!u["smemk"].spills());
  CHECK(u["spilly"].registers == 32);
  CHECK(u["spilly"].stackBytes == 632);
  CHECK(u["spilly"].spillStoresBytes == 976);
  CHECK(u["spilly"].spillLoadsBytes == 1012);
  CHECK(u["spilly"].constBytes == 372);
  CHECK(u["spilly"].spills());

  u = nvrtc::parsePtxasLog(kLogSm90a);
  REQUIRE(u.size() == 3);
  CHECK(u["_Z1kPf"].registers == 40);
  CHECK(u["_Z1kPf"].stackBytes == 256);
  CHECK(u["_Z1kPf"].constBytes == -1);
  CHECK(u["_Z6helperPfi"].registers == -1); // a callee: no "Used" line of its own
  CHECK(u["_Z6helperPfi"].stackBytes == 0);
  CHECK(u["spilly"].registers == 32);
  CHECK(u["spilly"].spillStoresBytes == 1216);
  CHECK(u["spilly"].spillLoadsBytes == 1272);
  REQUIRE(u["spilly"].warnings.size() == 1);
  CHECK_THAT(u["spilly"].warnings[0], Catch::Contains("Registers are spilled"));
  CHECK(nvrtc::describe(u["spilly"]) ==
        "32 registers, 1216 B spill stores, 1272 B spill loads, 0 B static smem, 776 B stack, "
        "0 barriers");

  // ptxas's numbered notes on warpgroup instructions count as warnings.
  u = nvrtc::parsePtxasLog(
      "ptxas info    : (C7519) warpgroup.arrive is injected in around line 3972 by compiler to "
      "allow use of registers in GMMA in function 'attention'\n"
      "ptxas info    : Compiling entry function 'attention' for 'sm_90a'\n"
      "ptxas info    : Used 207 registers, used 1 barriers\n");
  CHECK(u["attention"].registers == 207);
  REQUIRE(u["attention"].warnings.size() == 1);
  CHECK_THAT(u["attention"].warnings[0], Catch::StartsWith("(C7519) warpgroup.arrive is injected"));

  CHECK(nvrtc::parsePtxasLog("").empty());
  CHECK(nvrtc::parsePtxasLog("garbage\nptxas info : Used x registers\nptxas\n").empty());
  CHECK(nvrtc::describe(nvrtc::ResourceUsage{}) == "resource usage not reported");
}

//===----------------------------------------------------------------------===//
// Cache
//===----------------------------------------------------------------------===//

TEST_CASE("cubin cache", "[runtime][cache]") {
  TempDir dir("cache");
  nvrtc::CubinCache cache(dir.path.string());
  std::string err;
  auto o = opts("sm_90a");
  auto list = nvrtc::buildOptions(o, err);
  REQUIRE(list);
  auto key = nvrtc::CubinCache::key(kSource, "scale2", *list);
  CHECK(key.hex.size() == 16);
  CHECK(!cache.get(key));

  auto k = nvrtc::compile(kSource, "scale2", o, err);
  REQUIRE(k);
  REQUIRE(cache.put(key, *k));
  auto back = cache.get(key);
  REQUIRE(back);
  CHECK(back->cubin == k->cubin);
  CHECK(back->log == k->log);
  CHECK(back->loweredName == "scale2");
  CHECK(back->arch == "sm_90a");
  CHECK(back->options == *list);
  CHECK(back->usage.registers == k->usage.registers);
  CHECK(back->usage.spillStoresBytes == 0);

  SECTION("the key follows source, options, kernel and version") {
    CHECK(nvrtc::CubinCache::key(kSource, "scale2", *list).hex == key.hex);
    CHECK(nvrtc::CubinCache::key(std::string(kSource) + " ", "scale2", *list).hex != key.hex);
    CHECK(nvrtc::CubinCache::key(kSource, "mma16816", *list).hex != key.hex);
    auto other = *list;
    other.push_back("-lineinfo");
    CHECK(nvrtc::CubinCache::key(kSource, "scale2", other).hex != key.hex);
    other = *list;
    other[0] = "-arch=sm_80";
    CHECK(nvrtc::CubinCache::key(kSource, "scale2", other).hex != key.hex);
    // Length prefixes: moving a boundary between fields changes the key.
    CHECK(nvrtc::CubinCache::key("ab", "c", {}).hex != nvrtc::CubinCache::key("b", "ac", {}).hex);
    CHECK(nvrtc::CubinCache::key(kSource, "scale2", *list).nvrtcVersion == nvrtc::nvrtcVersion());
  }
  SECTION("clear() empties it") {
    CHECK(fileCount(dir.path) == 2); // .cubin + .json
    std::ofstream(dir.path / "keep.txt") << "not ours";
    cache.clear();
    CHECK(!cache.get(key));
    CHECK(fileCount(dir.path) == 1);
  }
  SECTION("a truncated cubin is ignored") {
    fs::path cubin = dir.path / (key.hex + ".cubin");
    fs::resize_file(cubin, fs::file_size(cubin) / 2);
    CHECK(!cache.get(key));
    fs::remove(cubin);
    CHECK(!cache.get(key));
  }
  SECTION("a corrupt sidecar is ignored") {
    std::ofstream(dir.path / (key.hex + ".json"), std::ios::trunc) << "{\"format\": 1, \"kern";
    CHECK(!cache.get(key));
    std::ofstream(dir.path / (key.hex + ".json"), std::ios::trunc) << "[1, 2, 3]";
    CHECK(!cache.get(key));
    std::ofstream(dir.path / (key.hex + ".json"), std::ios::trunc) << "{\"format\": \"one\"}";
    CHECK(!cache.get(key));
  }
  SECTION("a colliding entry (same hash, other inputs) is a miss") {
    auto forged = key;
    forged.kernelName = "mma16816";
    CHECK(!cache.get(forged));
  }
  SECTION("compileCached hits the second time and fetches PTX when asked") {
    bool hit = true;
    auto a = nvrtc::compileCached(&cache, kSource, "mma16816", o, err, &hit);
    REQUIRE(a);
    CHECK(!hit);
    auto b = nvrtc::compileCached(&cache, kSource, "mma16816", o, err, &hit);
    REQUIRE(b);
    CHECK(hit);
    CHECK(b->cubin == a->cubin);
    auto withPtx = o;
    withPtx.wantPtx = true;
    auto c = nvrtc::compileCached(&cache, kSource, "mma16816", withPtx, err, &hit);
    REQUIRE(c);
    CHECK(!hit);
    CHECK(!c->ptx.empty());
    auto d = nvrtc::compileCached(&cache, kSource, "mma16816", withPtx, err, &hit);
    REQUIRE(d);
    CHECK(hit);
    CHECK(d->ptx == c->ptx);
    CHECK(nvrtc::compileCached(nullptr, kSource, "mma16816", o, err, &hit));
    CHECK(!hit);
  }
  SECTION("a disabled cache") {
    nvrtc::CubinCache off("");
    CHECK(!off.put(key, *k));
    CHECK(!off.get(key));
  }
}

TEST_CASE("cubin cache default directory", "[runtime][cache]") {
  ScopedEnv a("ATTNCC_CACHE_DIR", "/x/attncc-cache");
  ScopedEnv x("XDG_CACHE_HOME", "/xdg");
  ScopedEnv h("HOME", "/home/u");
  CHECK(nvrtc::CubinCache::defaultDir() == "/x/attncc-cache");
  ::unsetenv("ATTNCC_CACHE_DIR");
  CHECK(nvrtc::CubinCache::defaultDir() == "/xdg/attncc");
  ::unsetenv("XDG_CACHE_HOME");
  CHECK(nvrtc::CubinCache::defaultDir() == "/home/u/.cache/attncc");
  ::unsetenv("HOME");
  CHECK(nvrtc::CubinCache::defaultDir().empty());
}

//===----------------------------------------------------------------------===//
// Targets and the driver
//===----------------------------------------------------------------------===//

TEST_CASE("archForDevice", "[runtime][driver]") {
  using driver::archForDevice;
  CHECK(archForDevice(9, 0) == "sm_90a");
  CHECK(archForDevice(10, 0) == "sm_100a");
  CHECK(archForDevice(10, 3) == "sm_103a");
  CHECK(archForDevice(12, 0) == "sm_120a");
  CHECK(archForDevice(8, 0) == "sm_80");
  CHECK(archForDevice(8, 6) == "sm_80");
  CHECK(archForDevice(8, 9) == "sm_80");
  CHECK(archForDevice(7, 5) == "sm_75");
}

TEST_CASE("canRun: which schedule runs on which device", "[runtime][driver]") {
  struct Row {
    const char *target;
    int major, minor;
    bool ok;
    const char *compileArch; // when ok
  };
  const Row rows[] = {
      // On the H200 (9.0): portable schedules are compiled for the device.
      {"sm_80", 9, 0, true, "sm_90a"},
      {"sm_90", 9, 0, true, "sm_90"},
      {"sm_90a", 9, 0, true, "sm_90a"},
      {"sm_120", 9, 0, true, "sm_90a"},
      {"sm_120a", 9, 0, false, ""},
      {"sm_100a", 9, 0, false, ""},
      // Arch-specific targets on their own chip only.
      {"sm_100a", 10, 0, true, "sm_100a"},
      {"sm_100a", 10, 3, false, ""},
      {"sm_90a", 10, 0, false, ""},
      {"sm_90a", 12, 0, false, ""},
      {"sm_120a", 12, 0, true, "sm_120a"},
      {"sm_100f", 10, 3, true, "sm_100f"},
      {"sm_100f", 12, 0, false, ""},
      // Portable targets need their instructions: TMA from 9.0 on.
      {"sm_120", 12, 0, true, "sm_120"},
      {"sm_120", 10, 0, true, "sm_100a"},
      {"sm_120", 8, 6, false, ""},
      {"sm_90", 8, 0, false, ""},
      {"sm_80", 8, 0, true, "sm_80"},
      {"sm_80", 8, 6, true, "sm_80"},
      {"sm_80", 12, 0, true, "sm_120a"},
      {"sm_80", 7, 5, false, ""},
      // Not a target at all.
      {"sm90", 9, 0, false, ""},
      {"sm_90x", 9, 0, false, ""},
      {"", 9, 0, false, ""},
  };
  for (const Row &r : rows) {
    INFO(r.target << " on " << r.major << "." << r.minor);
    std::string why, arch;
    bool ok = driver::canRun(r.target, r.major, r.minor, why, &arch);
    CHECK(ok == r.ok);
    if (ok) {
      CHECK(arch == r.compileArch);
    } else {
      CHECK(!why.empty());
      if (std::string(r.target).rfind("sm_", 0) == 0 && std::string(r.target) != "sm_90x") {
        CHECK_THAT(why, Catch::Contains(r.target));
        CHECK_THAT(why, Catch::Contains(std::to_string(r.major) + "." + std::to_string(r.minor)));
      }
    }
  }
  std::string why;
  CHECK(!driver::canRun("sm_100a", 9, 0, why));
  CHECK(why == "a schedule for sm_100a uses arch-specific instructions and runs only on a compute "
               "capability 10.0 device; the device is compute capability 9.0 (sm_90a)");
}

TEST_CASE("host data in a dtype", "[runtime][driver]") {
  std::vector<float> v = {1.0f, -2.5f, 0.333333f, 65504.0f};
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    auto bytes = driver::packAs(t, v);
    REQUIRE(bytes.size() == v.size() * driver::dtypeBytes(t));
    auto back = driver::unpackFrom(t, bytes.data(), v.size());
    for (size_t i = 0; i < v.size(); ++i)
      CHECK(back[i] == roundToDType(t, v[i]));
  }
  CHECK(driver::packAs(DType::F16, {1.0f}) == std::vector<uint8_t>{0x00, 0x3c});
  CHECK(driver::packAs(DType::BF16, {1.0f}) == std::vector<uint8_t>{0x80, 0x3f});
}

TEST_CASE("the driver, or a clear message without one", "[runtime][driver]") {
  std::string err;
  driver::Driver *d = driver::Driver::get(err);
  if (!d) {
    // CI and the build machine: no libcuda.so.1, or no device.
    bool noDriver = err.find("no CUDA driver found (libcuda.so.1 could not be loaded): attncc "
                             "compile works without a GPU; run and bench need one") == 0;
    bool noDevice = err.find("no CUDA device found") == 0;
    INFO(err);
    CHECK((noDriver || noDevice));
    std::string again;
    CHECK(driver::Driver::get(again) == nullptr);
    CHECK(again == err);
    return;
  }
  // A GPU machine: a device is listed and works end to end.
  REQUIRE(!d->devices().empty());
  const driver::Device &dev = d->device();
  INFO(dev.describe());
  CHECK(!dev.name.empty());
  CHECK(dev.smMajor >= 7);
  CHECK(dev.smCount > 0);
  CHECK(dev.smemPerBlockOptin >= 48 * 1024);
  CHECK(d->driverVersion() >= 12000);
  CHECK(driver::Driver::get(err) == d);

  // Compile for the device (a portable sm_80 schedule), launch, check.
  std::string arch;
  REQUIRE(driver::canRun("sm_80", dev.smMajor, dev.smMinor, err, &arch));
  auto k = nvrtc::compile(kSource, "scale2", opts(arch), err);
  INFO(err);
  REQUIRE(k);
  auto mod = d->loadModule(k->cubin, err);
  REQUIRE(mod);
  auto fn = mod->function(k->loweredName, err);
  REQUIRE(fn);
  CHECK(fn->numRegs == k->usage.registers);

  const int n = 1000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i) - 17.5f;
  auto bin = d->alloc(n * sizeof(float), err);
  auto bout = d->alloc(n * sizeof(float), err);
  REQUIRE(bin);
  REQUIRE(bout);
  REQUIRE(bin->upload(DType::F32, in, err));
  REQUIRE(bout->fill(0xff, err));
  driver::KernelArgs args;
  args.add(*bout).add(*bin).add(n);
  REQUIRE(d->launch(*fn, {(n + 127) / 128, 1, 1}, {128, 1, 1}, 0, args, err));
  REQUIRE(d->synchronize(err));
  auto out = bout->download(DType::F32, n, err);
  REQUIRE(out);
  for (int i = 0; i < n; ++i)
    REQUIRE((*out)[i] == 2.0 * in[i]);

  // Events time a launch.
  auto e0 = d->createEvent(err), e1 = d->createEvent(err);
  REQUIRE((e0 && e1));
  REQUIRE(e0->record(err));
  REQUIRE(d->launch(*fn, {(n + 127) / 128, 1, 1}, {128, 1, 1}, 0, args, err));
  REQUIRE(e1->record(err));
  REQUIRE(e1->synchronize(err));
  auto ms = driver::Event::elapsedMs(*e0, *e1, err);
  REQUIRE(ms);
  CHECK(*ms >= 0.0f);

  // Limits are checked before the launch: "required X, limit Y".
  CHECK(!d->launch(*fn, {1, 1, 1}, {2048, 1, 1}, 0, args, err));
  CHECK_THAT(err, Catch::Contains("block of 2048 threads: limit"));
  CHECK(!d->launch(*fn, {1, 1, 1}, {128, 1, 1}, dev.smemPerBlockOptin + 1, args, err));
  CHECK_THAT(err, Catch::Contains("shared memory: required"));
  CHECK_THAT(err, Catch::Contains("limit " + std::to_string(dev.smemPerBlockOptin)));
  // Above 48 KiB the launch opts in by itself.
  REQUIRE(d->launch(*fn, {(n + 127) / 128, 1, 1}, {128, 1, 1}, 100 * 1024, args, err));
  CHECK(fn->dynamicSmemOptIn == 100 * 1024);
  REQUIRE(d->synchronize(err));

  // A missing kernel and a cubin for another chip.
  CHECK(!mod->function("nosuch", err));
  CHECK_THAT(err, Catch::Contains("no kernel 'nosuch'"));
  std::string other = dev.smMajor == 10 ? "sm_90a" : "sm_100a";
  auto wrong = nvrtc::compile(kSource, "scale2", opts(other), err);
  REQUIRE(wrong);
  CHECK(!d->loadModule(wrong->cubin, err));
  CHECK_THAT(err, Catch::Contains("compile for " + dev.arch()));

  // Out of memory is reported, leaks nothing and leaves the driver usable.
  size_t free0 = 0, total = 0;
  REQUIRE(d->memInfo(free0, total, err));
  size_t huge = total * 4;
  CHECK(!d->alloc(huge, err));
  CHECK_THAT(err, Catch::Contains("device out of memory: asked for " + std::to_string(huge) +
                                  " bytes"));
  {
    auto big = d->alloc(free0 / 4, err);
    REQUIRE(big);
    size_t free1 = 0;
    REQUIRE(d->memInfo(free1, total, err));
    CHECK(free1 < free0);
  } // freed here
  size_t free2 = 0;
  REQUIRE(d->memInfo(free2, total, err));
  CHECK(free2 + 64 * 1024 * 1024 >= free0);
  auto small = d->alloc(4096, err);
  REQUIRE(small);
  CHECK(!small->upload(in.data(), 8192, err));
  CHECK_THAT(err, Catch::Contains("overflows a device buffer of 4096 bytes"));
  CHECK(!d->unusable());
}

TEST_CASE("TMA boxes: what the runtime refuses before it calls the driver", "[runtime][driver]") {
  using attncc::DType;
  using attncc::driver::tmaBoxError;
  CHECK_FALSE(tmaBoxError(DType::BF16, {8, 16, 4096, 128}, 128, 64));
  CHECK_FALSE(tmaBoxError(DType::F16, {1, 2, 17, 64}, 64, 64));
  auto has = [](const std::optional<std::string> &e, const std::string &what) {
    INFO(e.value_or("(no error)"));
    return e && e->find(what) != std::string::npos;
  };
  CHECK(has(tmaBoxError(DType::F32, {1, 2, 64, 64}, 64, 32), "rank-2..5 f16 or bf16 tensor (got rank 4, f32)"));
  CHECK(has(tmaBoxError(DType::F16, {64}, 64, 64), "(got rank 1, f16)"));
  CHECK(has(tmaBoxError(DType::F16, {1, 1, 1, 1, 64, 64}, 64, 64), "(got rank 6, f16)"));
  CHECK(has(tmaBoxError(DType::F16, {1, 2, 64, 64}, 64, 32), "128 bytes wide and 1..256 rows (got 64 x 32 f16)"));
  CHECK(has(tmaBoxError(DType::BF16, {1, 2, 512, 64}, 512, 64), "(got 512 x 64 bf16)"));
  CHECK(has(tmaBoxError(DType::F16, {1, 2, 64, 68}, 64, 64), "multiple of 16 bytes (got 136)"));
  CHECK(has(tmaBoxError(DType::F16, {0, 2, 64, 64}, 64, 64), "every dimension >= 1 (got 0)"));
}
