//===- CubinCache.cpp - on-disk cache of compiled kernels -----------------===//
//
// Layout and key: see Nvrtc.h. Everything here is defensive: a missing, short,
// garbled or mismatching file is a miss, never an error or a crash.
//
//===----------------------------------------------------------------------===//
#include "runtime/nvrtc/Nvrtc.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <unistd.h>

namespace attncc::nvrtc {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr int kFormat = 1;

std::string hex16(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::optional<std::string> readFile(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  if (!f)
    return std::nullopt;
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad())
    return std::nullopt;
  return s;
}

/// Writes to a unique temporary in the same directory, then renames it over
/// `p` (atomic on POSIX): a reader sees the old file or the new one, whole.
bool writeAtomic(const fs::path &p, const char *data, size_t size) {
  static std::atomic<unsigned> counter{0};
  fs::path tmp = p.parent_path() / (".tmp-" + p.filename().string() + "-" +
                                    std::to_string(::getpid()) + "-" +
                                    std::to_string(counter.fetch_add(1)));
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f)
      return false;
    f.write(data, static_cast<std::streamsize>(size));
    f.close();
    if (!f) {
      std::error_code ec;
      fs::remove(tmp, ec);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

json usageToJson(const ResourceUsage &u) {
  return json{{"registers", u.registers},
              {"barriers", u.barriers},
              {"spill_stores_bytes", u.spillStoresBytes},
              {"spill_loads_bytes", u.spillLoadsBytes},
              {"static_smem_bytes", u.staticSmemBytes},
              {"stack_bytes", u.stackBytes},
              {"const_bytes", u.constBytes},
              {"warnings", u.warnings}};
}

ResourceUsage usageFromJson(const json &j) {
  ResourceUsage u;
  u.registers = j.at("registers").get<int>();
  u.barriers = j.at("barriers").get<int>();
  u.spillStoresBytes = j.at("spill_stores_bytes").get<int>();
  u.spillLoadsBytes = j.at("spill_loads_bytes").get<int>();
  u.staticSmemBytes = j.at("static_smem_bytes").get<int>();
  u.stackBytes = j.at("stack_bytes").get<int>();
  u.constBytes = j.at("const_bytes").get<int>();
  u.warnings = j.at("warnings").get<std::vector<std::string>>();
  return u;
}

bool isHexStem(const std::string &s) {
  if (s.size() != 16)
    return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

} // namespace

CubinCache::CubinCache(std::string dir) : dir_(std::move(dir)) {}

std::string CubinCache::defaultDir() {
  if (const char *d = std::getenv("ATTNCC_CACHE_DIR"); d && *d)
    return d;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/attncc";
  if (const char *h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.cache/attncc";
  return "";
}

CacheKey CubinCache::key(const std::string &source, const std::string &kernelName,
                         const std::vector<std::string> &fullOptions) {
  CacheKey k;
  k.kernelName = kernelName;
  k.options = fullOptions;
  k.nvrtcVersion = nvrtcVersion();
  k.sourceBytes = source.size();
  uint64_t h = 0xcbf29ce484222325ull;
  auto add = [&h](const std::string &field) { // length-prefixed: "3:abc"
    std::string len = std::to_string(field.size()) + ":";
    h = fnv1a64(len.data(), len.size(), h);
    h = fnv1a64(field.data(), field.size(), h);
  };
  add("attncc-cubin-v1");
  add(k.nvrtcVersion);
  add(kernelName);
  add(std::to_string(fullOptions.size()));
  for (const auto &o : fullOptions)
    add(o);
  add(source);
  k.hex = hex16(h);
  return k;
}

std::optional<CompiledKernel> CubinCache::get(const CacheKey &key) const {
  if (dir_.empty() || !isHexStem(key.hex))
    return std::nullopt;
  fs::path base = fs::path(dir_) / key.hex;
  auto side = readFile(base.string() + ".json");
  if (!side)
    return std::nullopt;
  json j = json::parse(*side, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return std::nullopt;
  try {
    if (j.at("format").get<int>() != kFormat || j.at("kernel").get<std::string>() != key.kernelName ||
        j.at("options").get<std::vector<std::string>>() != key.options ||
        j.at("nvrtc").get<std::string>() != key.nvrtcVersion ||
        j.at("source_bytes").get<uint64_t>() != key.sourceBytes)
      return std::nullopt; // another key with the same hash, or an older format
    CompiledKernel k;
    k.kernelName = key.kernelName;
    k.options = key.options;
    k.loweredName = j.at("lowered_name").get<std::string>();
    k.arch = j.at("arch").get<std::string>();
    k.log = j.at("log").get<std::string>();
    k.usage = usageFromJson(j.at("usage"));
    // Each payload must match the size and hash the sidecar recorded.
    for (const char *ext : {"cubin", "ptx"}) {
      uint64_t bytes = j.at(std::string(ext) + "_bytes").get<uint64_t>();
      if (bytes == 0)
        continue;
      auto data = readFile(base.string() + "." + ext);
      if (!data || data->size() != bytes ||
          hex16(fnv1a64(data->data(), data->size())) != j.at(std::string(ext) + "_fnv1a"))
        return std::nullopt;
      if (std::string(ext) == "cubin")
        k.cubin.assign(data->begin(), data->end());
      else
        k.ptx = std::move(*data);
    }
    if (k.cubin.empty() && k.ptx.empty())
      return std::nullopt;
    return k;
  } catch (...) { // a field missing or of the wrong type
    return std::nullopt;
  }
}

bool CubinCache::put(const CacheKey &key, const CompiledKernel &k) const {
  if (dir_.empty() || !isHexStem(key.hex))
    return false;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec)
    return false;
  fs::path base = fs::path(dir_) / key.hex;
  try {
    json j = {{"format", kFormat},
              {"kernel", key.kernelName},
              {"lowered_name", k.loweredName},
              {"arch", k.arch},
              {"options", key.options},
              {"nvrtc", key.nvrtcVersion},
              {"source_bytes", key.sourceBytes},
              {"cubin_bytes", k.cubin.size()},
              {"cubin_fnv1a", hex16(fnv1a64(k.cubin.data(), k.cubin.size()))},
              {"ptx_bytes", k.ptx.size()},
              {"ptx_fnv1a", hex16(fnv1a64(k.ptx.data(), k.ptx.size()))},
              {"usage", usageToJson(k.usage)},
              {"log", k.log}};
    // Invalid UTF-8 in the log must not make dump() throw.
    std::string text = j.dump(2, ' ', false, json::error_handler_t::replace);
    if (!k.cubin.empty() && !writeAtomic(base.string() + ".cubin", k.cubin.data(), k.cubin.size()))
      return false;
    if (!k.ptx.empty() && !writeAtomic(base.string() + ".ptx", k.ptx.data(), k.ptx.size()))
      return false;
    return writeAtomic(base.string() + ".json", text.data(), text.size());
  } catch (...) {
    return false;
  }
}

void CubinCache::clear() const {
  if (dir_.empty())
    return;
  std::error_code ec;
  fs::directory_iterator it(dir_, ec), end;
  std::vector<fs::path> doomed;
  for (; !ec && it != end; it.increment(ec)) {
    fs::path p = it->path();
    std::string name = p.filename().string(), ext = p.extension().string();
    bool entry = (ext == ".cubin" || ext == ".json" || ext == ".ptx") && isHexStem(p.stem().string());
    if (entry || name.rfind(".tmp-", 0) == 0)
      doomed.push_back(p);
  }
  for (const auto &p : doomed)
    fs::remove(p, ec);
}

} // namespace attncc::nvrtc
