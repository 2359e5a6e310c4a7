//===- Nvrtc.cpp - NVRTC compile, option list, ptxas log parser -----------===//
//
// The ptxas -v log, as NVRTC 13.0 returns it (one block per function; the
// "Used" line belongs to the entry last named by "Compiling entry function",
// the stack/spill line to the function last named by "Function properties"):
//
//   ptxas info    : 0 bytes gmem, 256 bytes cmem[3]
//   ptxas info    : Compiling entry function 'smemk' for 'sm_80'
//   ptxas info    : Function properties for smemk
//   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 16 registers, used 1 barriers, 4224 bytes smem, 360 bytes cmem[0]
//   ptxas info    : Compile time = 1.659 ms
//
// For sm_90 and newer the "Used" line has no cmem[0] item; with a stack it
// ends in ", 776 bytes cumulative stack size". Mangled names appear as is
// ('_Z1kPf'). Warnings name their function in quotes:
//   ptxas warning : Registers are spilled to local memory in function 'spilly', 1216 bytes ...
//
//===----------------------------------------------------------------------===//
#include "runtime/nvrtc/Nvrtc.h"

#include <nvrtc.h>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#ifndef ATTNCC_CUDA_INCLUDE_DIR
#define ATTNCC_CUDA_INCLUDE_DIR ""
#endif

namespace attncc::nvrtc {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

bool startsWith(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }

/// The text between the first pair of single quotes after `from`, or "".
std::string quotedName(const std::string &s, size_t from = 0) {
  size_t a = s.find('\'', from);
  if (a == std::string::npos)
    return "";
  size_t b = s.find('\'', a + 1);
  return b == std::string::npos ? "" : s.substr(a + 1, b - a - 1);
}

/// "N <unit...>" -> N when `item` (trimmed) has the form "<N> <unit>", or the
/// form "<word> <N> <unit>" ("Used 40 registers", "used 0 barriers").
bool itemValue(const std::string &item, const char *unit, int &out) {
  std::istringstream in(item);
  std::string first;
  in >> first;
  long v = 0;
  char *end = nullptr;
  v = std::strtol(first.c_str(), &end, 10);
  if (end == first.c_str() || *end) { // a leading word: "Used", "used"
    if (!(in >> v))
      return false;
  }
  std::string rest;
  std::getline(in, rest);
  if (trim(rest) != unit)
    return false;
  out = static_cast<int>(v);
  return true;
}

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v)
    s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string hex16(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string fileSafe(const std::string &name) {
  std::string s;
  for (char c : name)
    s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '_';
  return s.empty() ? "kernel" : s.substr(0, 80);
}

/// Owns an nvrtcProgram.
struct Program {
  nvrtcProgram p = nullptr;
  ~Program() {
    if (p)
      nvrtcDestroyProgram(&p);
  }
};

std::string programLog(nvrtcProgram p) {
  size_t n = 0;
  if (nvrtcGetProgramLogSize(p, &n) != NVRTC_SUCCESS || n == 0)
    return "";
  std::string log(n, '\0');
  if (nvrtcGetProgramLog(p, &log[0]) != NVRTC_SUCCESS)
    return "";
  while (!log.empty() && log.back() == '\0')
    log.pop_back();
  return log;
}

} // namespace

uint64_t fnv1a64(const void *data, size_t size, uint64_t h) {
  const auto *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

//===----------------------------------------------------------------------===//
// ptxas log
//===----------------------------------------------------------------------===//

std::map<std::string, ResourceUsage> parsePtxasLog(const std::string &log) {
  std::map<std::string, ResourceUsage> out;
  std::string entry, props; // see the file header
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (!startsWith(line, "ptxas"))
      continue;
    size_t colon = line.find(':');
    std::string body = trim(colon == std::string::npos ? "" : line.substr(colon + 1));
    // Warnings, "Potential Performance Loss" notes, and the numbered notes on
    // warpgroup instructions ("(C7519) warpgroup.arrive is injected ...",
    // "(C7510) ... wgmma serialized", "(C7508) setmaxnreg ignored"), which
    // say a wgmma kernel runs slower than its source suggests.
    bool isWarning = startsWith(line, "ptxas warning") ||
                     line.find("Potential Performance Loss") != std::string::npos ||
                     startsWith(body, "(C75");
    if (isWarning) {
      size_t f = body.rfind("function '");
      std::string fn = f == std::string::npos ? "" : quotedName(body, f);
      if (!fn.empty())
        out[fn].warnings.push_back(body);
      continue;
    }
    if (startsWith(body, "Compiling entry function")) {
      entry = quotedName(body);
      if (!entry.empty())
        out[entry];
      continue;
    }
    if (startsWith(body, "Function properties for")) {
      props = trim(body.substr(std::strlen("Function properties for")));
      continue;
    }
    if (colon == std::string::npos) { // "ptxas         .     0 bytes stack frame, ..."
      size_t dot = line.find('.');
      body = trim(dot == std::string::npos ? "" : line.substr(dot + 1));
    }
    std::vector<std::string> items;
    std::istringstream parts(body);
    for (std::string item; std::getline(parts, item, ',');)
      items.push_back(trim(item));
    if (items.empty())
      continue;
    int v = 0;
    if (itemValue(items[0], "bytes stack frame", v) && !props.empty()) {
      ResourceUsage &u = out[props];
      u.stackBytes = v;
      for (const auto &it : items) {
        if (itemValue(it, "bytes spill stores", v))
          u.spillStoresBytes = v;
        else if (itemValue(it, "bytes spill loads", v))
          u.spillLoadsBytes = v;
      }
    } else if (itemValue(items[0], "registers", v) && !entry.empty()) {
      ResourceUsage &u = out[entry];
      u.registers = v;
      u.barriers = 0;
      u.staticSmemBytes = 0;
      for (const auto &it : items) {
        if (itemValue(it, "barriers", v))
          u.barriers = v;
        else if (itemValue(it, "bytes smem", v))
          u.staticSmemBytes = v;
        else if (itemValue(it, "bytes cmem[0]", v))
          u.constBytes = v;
      }
    }
  }
  return out;
}

std::string describe(const ResourceUsage &u) {
  if (!u.known())
    return "resource usage not reported";
  std::ostringstream s;
  s << u.registers << " registers, " << u.spillStoresBytes << " B spill stores, "
    << u.spillLoadsBytes << " B spill loads, " << u.staticSmemBytes << " B static smem, "
    << u.stackBytes << " B stack, " << u.barriers << (u.barriers == 1 ? " barrier" : " barriers");
  if (u.constBytes >= 0)
    s << ", " << u.constBytes << " B cmem[0]";
  return s.str();
}

//===----------------------------------------------------------------------===//
// Versions, targets, include directory, options
//===----------------------------------------------------------------------===//

std::string nvrtcVersion() {
  int major = 0, minor = 0;
  if (::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
    return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<int> supportedArchs() {
  int n = 0;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0)
    return {};
  std::vector<int> archs(static_cast<size_t>(n));
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS)
    return {};
  return archs;
}

/// libnvrtc opens libnvrtc-builtins.so.<major>.<minor> by name when it first
/// compiles, which finds it only where the dynamic linker is told about the
/// CUDA library folder (ld.so.conf, LD_LIBRARY_PATH). A CUDA toolkit that is
/// merely present, as in scripts/fresh-root-check.sh's root, fails with
/// NVRTC_ERROR_BUILTIN_OPERATION_FAILURE. So the library is loaded first from
/// the folder libnvrtc itself was loaded from; libnvrtc's own lookup then
/// finds it loaded. If that fails, NVRTC reports its own error as before.
static void loadBuiltinsBesideNvrtc() {
  static bool done = [] {
    Dl_info info{};
    int major = 0, minor = 0;
    if (::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS ||
        !dladdr(reinterpret_cast<void *>(&::nvrtcVersion), &info) || !info.dli_fname)
      return false;
    fs::path lib = fs::path(info.dli_fname).parent_path() /
                   ("libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor));
    return dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr;
  }();
  (void)done;
}

std::string cudaIncludeDir(std::string &why) {
  std::vector<std::string> candidates;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(var); v && *v)
      candidates.push_back(std::string(v) + "/include");
  candidates.push_back("/usr/local/cuda/include");
  if (*ATTNCC_CUDA_INCLUDE_DIR)
    candidates.push_back(ATTNCC_CUDA_INCLUDE_DIR);
  for (const auto &dir : candidates) {
    std::error_code ec;
    if (fs::exists(fs::path(dir) / "cuda_fp16.h", ec) &&
        fs::exists(fs::path(dir) / "cuda_bf16.h", ec))
      return dir;
  }
  why = "CUDA headers (cuda_fp16.h, cuda_bf16.h) not found in " + joined(candidates) +
        ": set CUDA_HOME to the CUDA toolkit";
  return "";
}

std::optional<std::vector<std::string>> buildOptions(const CompileOptions &opts,
                                                     std::string &err) {
  // sm_NN, sm_NNa (NN >= 90), sm_NNf (NN >= 100); the same with compute_.
  const std::string &a = opts.arch;
  bool compute = startsWith(a, "compute_");
  size_t at = compute ? 8 : startsWith(a, "sm_") ? 3 : std::string::npos;
  int number = -1;
  char suffix = 0;
  if (at != std::string::npos) {
    size_t end = at;
    while (end < a.size() && std::isdigit(static_cast<unsigned char>(a[end])))
      ++end;
    if (end > at && end - at <= 4 && (end == a.size() || end + 1 == a.size())) {
      number = std::atoi(a.substr(at, end - at).c_str());
      suffix = end < a.size() ? a[end] : 0;
    }
  }
  std::vector<int> archs = supportedArchs();
  bool known = std::find(archs.begin(), archs.end(), number) != archs.end();
  bool suffixOk = suffix == 0 || (suffix == 'a' && number >= 90) || (suffix == 'f' && number >= 100);
  if (!known || !suffixOk) {
    std::string list;
    for (int n : archs)
      list += (list.empty() ? "sm_" : ", sm_") + std::to_string(n);
    err = "unsupported target '" + a + "': NVRTC " + nvrtcVersion() + " compiles for " + list +
          " (an 'a' suffix from sm_90 on, an 'f' suffix from sm_100 on; compute_NN for PTX only)";
    return std::nullopt;
  }
  std::vector<std::string> o = {"-arch=" + a, "-std=c++17", "-default-device"};
  std::string why;
  std::string inc = cudaIncludeDir(why);
  if (!inc.empty())
    o.push_back("-I" + inc);
  if (!compute)
    o.push_back("-Xptxas=-v");
  // NVRTC >= 12.9 caches compiles in the driver's compute cache when a driver
  // is present; a hit skips ptxas and so prints no -v report (seen on the
  // H200). attncc has its own cache, which keeps the report.
  int major = 0, minor = 0;
  if (::nvrtcVersion(&major, &minor) == NVRTC_SUCCESS && (major > 12 || (major == 12 && minor >= 9)))
    o.push_back("--no-cache");
  o.insert(o.end(), opts.extra.begin(), opts.extra.end());
  return o;
}

//===----------------------------------------------------------------------===//
// compile
//===----------------------------------------------------------------------===//

std::optional<CompiledKernel> compile(const std::string &source, const std::string &kernelName,
                                      const CompileOptions &opts, std::string &err) {
  std::string where = "kernel '" + kernelName + "' for " + opts.arch;
  auto options = buildOptions(opts, err);
  if (!options) {
    err = "cannot compile " + where + ": " + err;
    return std::nullopt;
  }
  auto fail = [&](const std::string &what, const std::string &log) {
    std::ostringstream s;
    s << "NVRTC failed to compile " << where << ": " << what << "\n  options: " << joined(*options);
    if (!opts.dumpDir.empty()) {
      std::error_code ec;
      fs::create_directories(opts.dumpDir, ec);
      uint64_t h = fnv1a64(source.data(), source.size());
      fs::path file = fs::path(opts.dumpDir) / (fileSafe(kernelName) + "-" + hex16(h) + ".cu");
      std::ofstream f(file, std::ios::binary);
      f << source;
      s << "\n  source: " << (f.good() ? file.string() : "(could not write " + file.string() + ")");
    }
    std::string why;
    if (cudaIncludeDir(why).empty())
      s << "\n  note: " << why;
    if (log.find("__nv_name_map") != std::string::npos)
      s << "\n  note: no __global__ function named '" << kernelName << "' in the source";
    s << "\n  log:\n" << log;
    err = s.str();
    return std::nullopt;
  };

  loadBuiltinsBesideNvrtc();
  Program prog;
  std::string programName = fileSafe(kernelName) + ".cu";
  nvrtcResult r =
      nvrtcCreateProgram(&prog.p, source.c_str(), programName.c_str(), 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS)
    return fail(nvrtcGetErrorString(r), "");
  r = nvrtcAddNameExpression(prog.p, kernelName.c_str());
  if (r != NVRTC_SUCCESS)
    return fail(std::string("nvrtcAddNameExpression: ") + nvrtcGetErrorString(r), "");

  std::vector<const char *> argv;
  for (const auto &o : *options)
    argv.push_back(o.c_str());
  r = nvrtcCompileProgram(prog.p, static_cast<int>(argv.size()), argv.data());
  std::string log = programLog(prog.p);
  if (r != NVRTC_SUCCESS)
    return fail(nvrtcGetErrorString(r), log);

  CompiledKernel k;
  k.kernelName = kernelName;
  k.arch = opts.arch;
  k.options = *options;
  k.log = log;
  const char *lowered = nullptr;
  if (nvrtcGetLoweredName(prog.p, kernelName.c_str(), &lowered) != NVRTC_SUCCESS || !lowered)
    return fail("no lowered name for '" + kernelName + "'", log);
  k.loweredName = lowered;

  bool compute = startsWith(opts.arch, "compute_");
  if (!compute) {
    size_t n = 0;
    r = nvrtcGetCUBINSize(prog.p, &n);
    if (r != NVRTC_SUCCESS || n == 0)
      return fail(std::string("no cubin (") + nvrtcGetErrorString(r) + ")", log);
    k.cubin.resize(n);
    r = nvrtcGetCUBIN(prog.p, k.cubin.data());
    if (r != NVRTC_SUCCESS)
      return fail(std::string("nvrtcGetCUBIN: ") + nvrtcGetErrorString(r), log);
  }
  if (compute || opts.wantPtx) {
    size_t n = 0;
    r = nvrtcGetPTXSize(prog.p, &n);
    if (r != NVRTC_SUCCESS || n == 0)
      return fail(std::string("no PTX (") + nvrtcGetErrorString(r) + ")", log);
    k.ptx.assign(n, '\0');
    r = nvrtcGetPTX(prog.p, &k.ptx[0]);
    if (r != NVRTC_SUCCESS)
      return fail(std::string("nvrtcGetPTX: ") + nvrtcGetErrorString(r), log);
    while (!k.ptx.empty() && k.ptx.back() == '\0')
      k.ptx.pop_back();
  }
  auto usage = parsePtxasLog(log);
  if (auto it = usage.find(k.loweredName); it != usage.end())
    k.usage = it->second;
  return k;
}

std::optional<CompiledKernel> compileCached(const CubinCache *cache, const std::string &source,
                                            const std::string &kernelName,
                                            const CompileOptions &opts, std::string &err,
                                            bool *hit) {
  if (hit)
    *hit = false;
  std::optional<CacheKey> key;
  if (cache && !cache->dir().empty()) {
    std::string ignored;
    if (auto options = buildOptions(opts, ignored)) {
      key = CubinCache::key(source, kernelName, *options);
      if (auto k = cache->get(*key); k && (!opts.wantPtx || !k->ptx.empty())) {
        if (hit)
          *hit = true;
        return k;
      }
    }
  }
  auto k = compile(source, kernelName, opts, err);
  if (k && key)
    cache->put(*key, *k);
  return k;
}

} // namespace attncc::nvrtc
