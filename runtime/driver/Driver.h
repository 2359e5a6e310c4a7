//===- Driver.h - the CUDA driver API, loaded at run time -----------------===//
//
// libcuda is dlopen()ed on first use (libcuda.so.1, then libcuda.so), never
// linked: a binary built with this runs on machines without a driver, and
// `attncc compile` works there. <cuda.h> is used for types and enums only.
//
// Driver::get() retains the primary context of device $ATTNCC_DEVICE (default
// 0) and makes it current on each call into this API from any thread.
// Everything returns errors (std::nullopt / false + a message); nothing throws.
//
// Sticky errors (an illegal address, a trap, ...) make the context unusable:
// the Driver then refuses further work with a message that says so; the
// process has to be restarted. Out-of-memory is not sticky.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_RUNTIME_DRIVER_H
#define ATTNCC_RUNTIME_DRIVER_H

#include "runtime/problem/Problem.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attncc::driver {

//===----------------------------------------------------------------------===//
// Targets and devices (pure functions: no driver needed)
//===----------------------------------------------------------------------===//

/// The NVRTC arch for a device: "sm_90a" (9.0), "sm_100a" (10.0), "sm_103a",
/// "sm_120a" (12.0), "sm_80" for every 8.x, "sm_75" below.
std::string archForDevice(int major, int minor);

/// May a schedule built for `targetArch` run on a device of compute capability
/// major.minor? Arch-specific targets (sm_90a, sm_100a, sm_103a) run only on
/// their own chip; sm_100f on any 10.x from 10.0 on. The portable targets
/// (sm_80, sm_86, sm_89, sm_90, sm_120[a], sm_121[a]: their atoms are
/// mma.sync, cp.async and TMA, DESIGN.md section 6) run on any device that has
/// those instructions: from 8.0 on for sm_8x, from 9.0 on for sm_90 and sm_12x.
/// On true, `compileArch` (if given) is the arch to compile for: the target
/// itself on its own chip, else archForDevice(major, minor). On false, `why`
/// names the target, the device's compute capability and what would do.
bool canRun(const std::string &targetArch, int major, int minor, std::string &why,
            std::string *compileArch = nullptr);

struct Device {
  int ordinal = 0;
  std::string name;
  int smMajor = 0, smMinor = 0;
  int smCount = 0;
  size_t smemPerBlock = 0;       // without opt-in (48 KiB)
  size_t smemPerBlockOptin = 0;  // with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  size_t smemPerSm = 0;
  int regsPerBlock = 0;
  int maxThreadsPerBlock = 0;
  int l2Bytes = 0;
  size_t totalMemBytes = 0;
  std::string arch() const { return archForDevice(smMajor, smMinor); }
  /// "NVIDIA H200 (sm_90a, 132 SMs, 227 KiB smem/block)".
  std::string describe() const;
};

//===----------------------------------------------------------------------===//
// Host data in a tensor dtype (uses the rounding helpers of Reference.h)
//===----------------------------------------------------------------------===//

size_t dtypeBytes(DType t);

/// Why a 128-byte swizzled TMA box of `boxRows` x `boxCols` over a dense
/// row-major tensor of `shape` and dtype `t` cannot be encoded, or nothing.
/// (Driver::tensorMap checks this before it calls the driver.)
std::optional<std::string> tmaBoxError(DType t, const std::vector<int64_t> &shape, int64_t boxRows,
                                       int64_t boxCols);
/// Each float rounded to nearest-even into `t`'s bits (f32: copied).
std::vector<uint8_t> packAs(DType t, const std::vector<float> &values);
/// `count` elements of `t` at `data`, widened to double.
std::vector<double> unpackFrom(DType t, const void *data, size_t count);

//===----------------------------------------------------------------------===//
// Resources
//===----------------------------------------------------------------------===//

struct Api; // the resolved entry points (Driver.cpp)
class Driver;

/// Device memory, freed when the object dies (on every path). Move-only.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&o) noexcept { *this = std::move(o); }
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { reset(); }

  CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return size_; }
  /// Copies `bytes` from host `src` to offset `offset`; checked against size().
  bool upload(const void *src, size_t bytes, std::string &err, size_t offset = 0);
  bool upload(DType t, const std::vector<float> &values, std::string &err);
  bool download(void *dst, size_t bytes, std::string &err, size_t offset = 0) const;
  std::optional<std::vector<double>> download(DType t, size_t count, std::string &err) const;
  /// Sets every byte (poisoning outputs: 0xFF is a NaN in f16, bf16 and f32).
  bool fill(uint8_t byte, std::string &err);
  void reset(); // frees now

private:
  friend class Driver;
  Driver *drv_ = nullptr;
  CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
};

/// A kernel in a loaded module, with what the driver says about it.
struct Function {
  CUfunction fn = nullptr;
  std::string name;
  int numRegs = 0;
  int maxThreadsPerBlock = 0; // for this kernel (registers taken into account)
  int staticSmemBytes = 0;
  int localBytes = 0;
  int dynamicSmemOptIn = 48 * 1024; // current MAX_DYNAMIC_SHARED_SIZE_BYTES
};

/// A loaded cubin; unloaded when the object dies. Move-only.
class Module {
public:
  Module() = default;
  Module(Module &&o) noexcept { *this = std::move(o); }
  Module &operator=(Module &&o) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module() { reset(); }

  /// `name` is the symbol (CompiledKernel::loweredName).
  std::optional<Function> function(const std::string &name, std::string &err) const;
  /// Opts `f` in to `bytes` of dynamic shared memory (needed above 48 KiB);
  /// "required X, limit Y" when the device has less.
  bool setMaxDynamicSmem(Function &f, size_t bytes, std::string &err) const;
  /// How many CTAs of `f` (`threads` threads, `smemBytes` of dynamic shared
  /// memory, opted in) the device runs at once: the occupancy API's CTAs
  /// per SM times the SMs; at least 1 (GRID=persistent launches this many).
  std::optional<int64_t> residentCtas(Function &f, unsigned threads, size_t smemBytes, std::string &err) const;
  void reset();

private:
  friend class Driver;
  Driver *drv_ = nullptr;
  CUmodule mod_ = nullptr;
};

/// A CUDA event (for timing); destroyed when the object dies. Move-only.
class Event {
public:
  Event() = default;
  Event(Event &&o) noexcept { *this = std::move(o); }
  Event &operator=(Event &&o) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event() { reset(); }

  bool record(std::string &err, CUstream stream = nullptr);
  bool synchronize(std::string &err);
  /// Milliseconds from `start` to `stop` (both recorded and complete).
  static std::optional<float> elapsedMs(const Event &start, const Event &stop, std::string &err);
  void reset();

private:
  friend class Driver;
  Driver *drv_ = nullptr;
  CUevent ev_ = nullptr;
};

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

/// Kernel arguments by value, in order (what cuLaunchKernel's kernelParams
/// point to). add() copies the value, so temporaries are fine.
class KernelArgs {
public:
  template <class T> KernelArgs &add(const T &v) {
    auto buf = std::make_unique<std::max_align_t[]>((sizeof(T) + sizeof(std::max_align_t) - 1) /
                                                    sizeof(std::max_align_t));
    std::memcpy(buf.get(), &v, sizeof(T));
    ptrs_.push_back(buf.get());
    store_.push_back(std::move(buf));
    return *this;
  }
  KernelArgs &add(const DeviceBuffer &b) { return add(b.ptr()); }
  void **data() { return ptrs_.empty() ? nullptr : ptrs_.data(); }
  size_t size() const { return ptrs_.size(); }

private:
  std::vector<std::unique_ptr<std::max_align_t[]>> store_;
  std::vector<void *> ptrs_;
};

struct LaunchConfig {
  Dim3 grid, block;
  size_t smemBytes = 0; // dynamic shared memory
  Dim3 cluster;         // 1x1x1: no cluster attribute (also for __cluster_dims__ kernels)
  /// Programmatic dependent launch (LAUNCH=pdl): the kernel may be scheduled
  /// before the previous one in the stream has finished; it waits for it
  /// with griddepcontrol.wait (sm_90+).
  bool programmatic = false;
  CUstream stream = nullptr;
};

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

class Driver {
public:
  /// The process-wide driver, loaded and initialized on the first call. On
  /// failure nullptr and `err` = "no CUDA driver found (libcuda.so.1 could not
  /// be loaded): ..." or "no CUDA device found ..." (the same on every call).
  static Driver *get(std::string &err);

  const Device &device() const { return devices_[static_cast<size_t>(current_)]; }
  const std::vector<Device> &devices() const { return devices_; }
  /// The installed driver's CUDA version, e.g. 13000.
  int driverVersion() const { return driverVersion_; }

  /// "device out of memory: asked for N bytes (F free of T on <device>)" on OOM.
  std::optional<DeviceBuffer> alloc(size_t bytes, std::string &err);
  /// Loads a cubin (CompiledKernel::cubin) or NUL-terminated PTX.
  std::optional<Module> loadModule(const std::vector<char> &image, std::string &err);
  std::optional<Event> createEvent(std::string &err);

  /// Checks the block size and shared memory against the kernel's and the
  /// device's limits ("required X, limit Y"), opts in to dynamic shared memory
  /// above 48 KiB, then launches (cuLaunchKernelEx when a cluster is given).
  bool launch(Function &f, const LaunchConfig &cfg, KernelArgs &args, std::string &err);
  bool launch(Function &f, Dim3 grid, Dim3 block, size_t smemBytes, KernelArgs &args,
              std::string &err);
  /// A TMA descriptor (cuTensorMapEncodeTiled) for a dense row-major tensor
  /// of `shape` (outermost first) at `base`: boxes of `boxRows` x `boxCols`
  /// over the last two dimensions (1 in the others), 128-byte swizzle, zero
  /// fill out of bounds. Errors name the requirement that failed.
  std::optional<CUtensorMap> tensorMap(CUdeviceptr base, DType t, const std::vector<int64_t> &shape,
                                       int64_t boxRows, int64_t boxCols, std::string &err);
  /// Waits for all work; reports errors of earlier launches.
  bool synchronize(std::string &err);
  bool memInfo(size_t &freeBytes, size_t &totalBytes, std::string &err);

  /// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  std::string resultText(CUresult r) const;
  /// true after a sticky error; every call then fails with `err` saying why.
  bool unusable() const { return !sticky_.empty(); }
  const Api &api() const { return *api_; }

  /// Internal: make the context current; false (and `err`) when unusable.
  bool enter(std::string &err);
  /// Internal: `what` failed with `r`; records sticky errors; returns false.
  bool fail(CUresult r, const std::string &what, std::string &err);

private:
  Driver() = default;
  std::unique_ptr<Api> api_;
  CUcontext ctx_ = nullptr;
  std::vector<Device> devices_;
  int current_ = 0;
  int driverVersion_ = 0;
  std::string sticky_;
  friend struct DriverLoader;
};

} // namespace attncc::driver

#endif // ATTNCC_RUNTIME_DRIVER_H
