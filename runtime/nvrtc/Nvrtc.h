//===- Nvrtc.h - CUDA C++ -> cubin through NVRTC, with resource usage -----===//
//
// compile() turns the CUDA text that codegen/ emits into a cubin for one exact
// target (-arch=sm_90a, sm_80, sm_100a, sm_120a, ...), and reports what ptxas
// said about the kernel (registers, spills, static shared memory, stack). It
// needs libnvrtc only: no GPU and no driver, so `attncc compile` and CI use it.
//
// Options always passed, in this order (see buildOptions):
//   -arch=<arch> -std=c++17 -default-device -I<CUDA include dir> -Xptxas=-v --no-cache <extra...>
// -Xptxas=-v makes ptxas print a block per function into the program log
// (format: see parsePtxasLog in Nvrtc.cpp). --no-cache (NVRTC >= 12.9) turns
// off NVRTC's own cache in the driver's compute cache, whose hits skip ptxas
// and print no report. --use_fast_math is never implied.
//
// Never throws: failures return std::nullopt / false and a message.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_RUNTIME_NVRTC_H
#define ATTNCC_RUNTIME_NVRTC_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attncc::nvrtc {

/// What ptxas reported for one function. -1 means "not reported". Static
/// shared memory and barriers are 0 when the "Used ..." line omits them (ptxas
/// prints them only when non-zero); constBytes (cmem[0]: parameters and driver
/// constants) is printed by ptxas 13 for sm_80 but not for sm_90 and newer.
struct ResourceUsage {
  int registers = -1;
  int barriers = -1;
  int spillStoresBytes = -1;
  int spillLoadsBytes = -1;
  int staticSmemBytes = -1;
  int stackBytes = -1; // "N bytes stack frame" (local memory per thread)
  int constBytes = -1; // "N bytes cmem[0]"
  /// ptxas warnings, "Potential Performance Loss" notes and the (C75xx) notes
  /// on warpgroup instructions naming this function.
  std::vector<std::string> warnings;

  bool known() const { return registers >= 0; }
  bool spills() const { return spillStoresBytes > 0 || spillLoadsBytes > 0; }
};
/// "40 registers, 0 B spill stores, 0 B spill loads, 4224 B static smem, 0 B stack, 1 barrier".
std::string describe(const ResourceUsage &u);

/// One entry per function that ptxas named in a `-v` log (mangled names, as
/// in the log). Lines it does not know are skipped.
std::map<std::string, ResourceUsage> parsePtxasLog(const std::string &log);

struct CompileOptions {
  /// "sm_90a", "sm_80", "sm_100a", "sm_120a", "sm_90", ... (any sm_NN[a|f]
  /// NVRTC supports), or "compute_NN[a]" for PTX only (no cubin, no usage).
  std::string arch;
  /// Appended verbatim after the defaults, e.g. {"-maxrregcount=128", "-lineinfo"}.
  std::vector<std::string> extra;
  /// Also return the PTX. NVRTC keeps the PTX it handed to ptxas, so this
  /// costs no second compile (its .target is the arch asked for, e.g. sm_90a).
  bool wantPtx = false;
  /// When non-empty, a failing compile writes the source to
  /// <dumpDir>/<kernel>-<hash>.cu and names that file in the error.
  std::string dumpDir;
};

struct CompiledKernel {
  std::string ptx;          // empty unless wantPtx (or a compute_ arch)
  std::vector<char> cubin;  // empty for a compute_ arch
  std::string log;          // the whole NVRTC + ptxas log
  ResourceUsage usage;      // of this kernel
  std::string kernelName;   // as asked for (may be a C++ name expression, e.g. "k<64>")
  std::string loweredName;  // the symbol: what cuModuleGetFunction wants
  std::string arch;
  std::vector<std::string> options; // the full option list passed to NVRTC
};

/// "13.0" (from nvrtcVersion).
std::string nvrtcVersion();
/// The sm numbers NVRTC can compile for, e.g. {75, 80, 86, ..., 120, 121}.
std::vector<int> supportedArchs();

/// The directory holding cuda_fp16.h / cuda_bf16.h: $CUDA_HOME/include,
/// $CUDA_PATH/include, /usr/local/cuda/include, then the toolkit CMake found
/// at build time. Empty (and `why` says where it looked) when none has them.
std::string cudaIncludeDir(std::string &why);

/// The full option list compile() passes (arch checked against
/// supportedArchs()). std::nullopt and `err` for an unknown arch.
std::optional<std::vector<std::string>> buildOptions(const CompileOptions &opts,
                                                     std::string &err);

/// Compiles `source` and looks up `kernelName` (an extern "C" name, or any C++
/// name expression of a __global__ function). On failure `err` holds the
/// NVRTC result, the kernel name, the target, the full option list and the log.
std::optional<CompiledKernel> compile(const std::string &source, const std::string &kernelName,
                                      const CompileOptions &opts, std::string &err);

//===----------------------------------------------------------------------===//
// Disk cache.
//
// Key: FNV-1a 64 over the length-prefixed fields
//   "attncc-cubin-v1", nvrtcVersion(), kernelName, each option of the full
//   option list (buildOptions: arch, include dir and extra options included), source
// printed as 16 hex digits. Entry <dir>/<key>.cubin (+ <key>.ptx) and the
// sidecar <key>.json (format, kernel, lowered name, arch, options, NVRTC
// version, source size, cubin size and FNV-1a of the cubin, resource usage,
// log). Every file is written to a temporary name then renamed; the sidecar
// goes last. get() ignores an entry whose sidecar does not parse, whose
// fields differ from the key's (a hash collision) or whose cubin size or hash
// differs from the sidecar's (a truncated or half-written file).
//===----------------------------------------------------------------------===//

uint64_t fnv1a64(const void *data, size_t size, uint64_t h = 0xcbf29ce484222325ull);

struct CacheKey {
  std::string hex; // 16 hex digits
  std::string kernelName;
  std::vector<std::string> options;
  std::string nvrtcVersion;
  uint64_t sourceBytes = 0;
};

class CubinCache {
public:
  /// An empty dir disables the cache (get misses, put does nothing).
  explicit CubinCache(std::string dir);

  static CacheKey key(const std::string &source, const std::string &kernelName,
                      const std::vector<std::string> &fullOptions);
  std::optional<CompiledKernel> get(const CacheKey &key) const;
  /// Creates the directory if needed. false (nothing stored) on an I/O error.
  bool put(const CacheKey &key, const CompiledKernel &k) const;
  /// Removes every cache entry (and stray temporaries) from the directory.
  void clear() const;
  const std::string &dir() const { return dir_; }

  /// $ATTNCC_CACHE_DIR, else $XDG_CACHE_HOME/attncc, else $HOME/.cache/attncc;
  /// "" (caching off) when none of them is set.
  static std::string defaultDir();

private:
  std::string dir_;
};

/// compile() through a cache (may be null): a hit returns the stored kernel
/// (a hit without PTX when opts.wantPtx counts as a miss). `hit` (optional)
/// tells which happened.
std::optional<CompiledKernel> compileCached(const CubinCache *cache, const std::string &source,
                                            const std::string &kernelName,
                                            const CompileOptions &opts, std::string &err,
                                            bool *hit = nullptr);

} // namespace attncc::nvrtc

#endif // ATTNCC_RUNTIME_NVRTC_H
