//===- Launch.cpp - modules, kernels, launches, events --------------------===//
#include "runtime/driver/Driver.h"

#include "runtime/driver/DriverApi.h"

#include <sstream>

namespace attncc::driver {

namespace {

std::string dims(Dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

uint64_t volume(Dim3 d) { return uint64_t(d.x) * d.y * d.z; }

bool isElf(const std::vector<char> &image) {
  return image.size() >= 4 && image[0] == 0x7f && image[1] == 'E' && image[2] == 'L' &&
         image[3] == 'F';
}

} // namespace

//===----------------------------------------------------------------------===//
// Modules and functions
//===----------------------------------------------------------------------===//

std::optional<Module> Driver::loadModule(const std::vector<char> &image, std::string &err) {
  if (!enter(err))
    return std::nullopt;
  if (image.empty()) {
    err = "cannot load an empty module image (the compile produced no cubin)";
    return std::nullopt;
  }
  std::vector<char> ptx; // PTX text must be NUL-terminated
  const void *data = image.data();
  if (!isElf(image) && image.back() != '\0') {
    ptx = image;
    ptx.push_back('\0');
    data = ptx.data();
  }
  Module m;
  CUresult r = api_->cuModuleLoadData(&m.mod_, data);
  if (r != CUDA_SUCCESS) {
    std::string what = "cannot load the module on " + device().describe();
    if (r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE)
      what += " (a cubin runs only on the arch it was compiled for: compile for " +
              device().arch() + ")";
    else if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      what += " (the PTX is newer than the driver, version " + std::to_string(driverVersion_) + ")";
    fail(r, what, err);
    return std::nullopt;
  }
  m.drv_ = this;
  return m;
}

Module &Module::operator=(Module &&o) noexcept {
  if (this != &o) {
    reset();
    drv_ = o.drv_;
    mod_ = o.mod_;
    o.mod_ = nullptr;
  }
  return *this;
}

void Module::reset() {
  if (drv_ && mod_) {
    std::string ignored;
    drv_->enter(ignored);
    drv_->api().cuModuleUnload(mod_);
  }
  mod_ = nullptr;
}

std::optional<Function> Module::function(const std::string &name, std::string &err) const {
  if (!drv_ || !mod_) {
    err = "no module loaded";
    return std::nullopt;
  }
  if (!drv_->enter(err))
    return std::nullopt;
  const Api &a = drv_->api();
  Function f;
  f.name = name;
  CUresult r = a.cuModuleGetFunction(&f.fn, mod_, name.c_str());
  if (r != CUDA_SUCCESS) {
    drv_->fail(r, "no kernel '" + name + "' in the module (use CompiledKernel::loweredName)", err);
    return std::nullopt;
  }
  auto attr = [&](CUfunction_attribute at, int &out) {
    return a.cuFuncGetAttribute(&out, at, f.fn);
  };
  if ((r = attr(CU_FUNC_ATTRIBUTE_NUM_REGS, f.numRegs)) != CUDA_SUCCESS ||
      (r = attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f.maxThreadsPerBlock)) != CUDA_SUCCESS ||
      (r = attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f.staticSmemBytes)) != CUDA_SUCCESS ||
      (r = attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f.localBytes)) != CUDA_SUCCESS ||
      (r = attr(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f.dynamicSmemOptIn)) !=
          CUDA_SUCCESS) {
    drv_->fail(r, "cuFuncGetAttribute('" + name + "')", err);
    return std::nullopt;
  }
  return f;
}

namespace {
/// Opts `f` in to `bytes` of dynamic shared memory after checking the limit.
bool optInSmem(Driver &drv, Function &f, size_t bytes, std::string &err) {
  const Device &d = drv.device();
  size_t total = bytes + static_cast<size_t>(f.staticSmemBytes);
  if (total > d.smemPerBlockOptin) {
    err = "shared memory of kernel '" + f.name + "': required " + std::to_string(total) +
          " bytes (" + std::to_string(f.staticSmemBytes) + " static + " + std::to_string(bytes) +
          " dynamic), limit " + std::to_string(d.smemPerBlockOptin) + " bytes per block on " +
          d.name;
    return false;
  }
  CUresult r = drv.api().cuFuncSetAttribute(f.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                            static_cast<int>(bytes));
  if (r != CUDA_SUCCESS)
    return drv.fail(r, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                           std::to_string(bytes) + ") for '" + f.name + "'",
                    err);
  f.dynamicSmemOptIn = static_cast<int>(bytes);
  return true;
}
} // namespace

bool Module::setMaxDynamicSmem(Function &f, size_t bytes, std::string &err) const {
  if (!drv_ || !f.fn)
    return (err = "no kernel", false);
  return drv_->enter(err) && optInSmem(*drv_, f, bytes, err);
}

std::optional<int64_t> Module::residentCtas(Function &f, unsigned threads, size_t smemBytes,
                                            std::string &err) const {
  if (!drv_ || !f.fn)
    return (err = "no kernel", std::nullopt);
  if (!drv_->enter(err) || (smemBytes > static_cast<size_t>(f.dynamicSmemOptIn) && !optInSmem(*drv_, f, smemBytes, err)))
    return std::nullopt;
  const Api &a = drv_->api();
  int perSm = 1;
  if (a.cuOccupancyMaxActiveBlocksPerMultiprocessor) {
    CUresult r = a.cuOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, f.fn, static_cast<int>(threads), smemBytes);
    if (r != CUDA_SUCCESS) {
      drv_->fail(r, "cuOccupancyMaxActiveBlocksPerMultiprocessor('" + f.name + "')", err);
      return std::nullopt;
    }
  }
  return static_cast<int64_t>(std::max(perSm, 1)) * std::max(drv_->device().smCount, 1);
}

//===----------------------------------------------------------------------===//
// TMA descriptors
//===----------------------------------------------------------------------===//

std::optional<std::string> tmaBoxError(DType t, const std::vector<int64_t> &shape, int64_t boxRows,
                                       int64_t boxCols) {
  size_t rank = shape.size();
  if (rank < 2 || rank > 5 || t == DType::F32)
    return "a TMA descriptor needs a rank-2..5 f16 or bf16 tensor (got rank " + std::to_string(rank) +
           ", " + dtypeName(t) + ")";
  int64_t eb = static_cast<int64_t>(dtypeBytes(t));
  if (boxCols * eb != 128 || boxRows < 1 || boxRows > 256)
    return "a 128-byte swizzled TMA box is 128 bytes wide and 1..256 rows (got " +
           std::to_string(boxRows) + " x " + std::to_string(boxCols) + " " + dtypeName(t) + ")";
  if (shape.back() * eb % 16 != 0)
    return "a TMA tensor's rows must be a multiple of 16 bytes (got " + std::to_string(shape.back() * eb) +
           ")";
  for (int64_t d : shape)
    if (d < 1)
      return "a TMA tensor needs every dimension >= 1 (got " + std::to_string(d) + ")";
  return std::nullopt;
}

std::optional<CUtensorMap> Driver::tensorMap(CUdeviceptr base, DType t, const std::vector<int64_t> &shape,
                                             int64_t boxRows, int64_t boxCols, std::string &err) {
  if (!enter(err))
    return std::nullopt;
  if (!api_->cuTensorMapEncodeTiled) {
    err = "this CUDA driver has no cuTensorMapEncodeTiled (TMA needs CUDA 12 or newer)";
    return std::nullopt;
  }
  if (std::optional<std::string> why = tmaBoxError(t, shape, boxRows, boxCols)) {
    err = *why;
    return std::nullopt;
  }
  size_t rank = shape.size(), eb = dtypeBytes(t);
  // TMA lists dimensions innermost first; strides (bytes) of all but the first.
  cuuint64_t dim[5], stride[4];
  cuuint32_t box[5], elemStride[5];
  uint64_t s = eb;
  for (size_t k = 0; k < rank; ++k) {
    dim[k] = static_cast<cuuint64_t>(shape[rank - 1 - k]);
    if (k)
      stride[k - 1] = s;
    s *= dim[k];
    box[k] = k == 0 ? static_cast<cuuint32_t>(boxCols) : k == 1 ? static_cast<cuuint32_t>(boxRows) : 1;
    elemStride[k] = 1;
  }
  CUtensorMap map;
  CUresult r = api_->cuTensorMapEncodeTiled(
      &map, t == DType::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
      static_cast<cuuint32_t>(rank), reinterpret_cast<void *>(base), dim, stride, box, elemStride,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    fail(r, "cuTensorMapEncodeTiled (box " + std::to_string(boxRows) + " x " + std::to_string(boxCols) + ")",
         err);
    return std::nullopt;
  }
  return map;
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

bool Driver::launch(Function &f, Dim3 grid, Dim3 block, size_t smemBytes, KernelArgs &args,
                    std::string &err) {
  LaunchConfig cfg;
  cfg.grid = grid;
  cfg.block = block;
  cfg.smemBytes = smemBytes;
  return launch(f, cfg, args, err);
}

bool Driver::launch(Function &f, const LaunchConfig &cfg, KernelArgs &args, std::string &err) {
  if (!f.fn)
    return (err = "launch of an unloaded kernel", false);
  if (!enter(err))
    return false;
  std::string what = "launch of kernel '" + f.name + "' (grid " + dims(cfg.grid) + ", block " +
                     dims(cfg.block) + ", " + std::to_string(cfg.smemBytes) +
                     " bytes dynamic shared memory)";
  const Device &d = device();
  // Limits first, with "required X, limit Y" messages, rather than a bare
  // CUDA_ERROR_INVALID_VALUE from the driver.
  uint64_t threads = volume(cfg.block);
  if (volume(cfg.grid) == 0 || threads == 0)
    return (err = what + ": grid and block extents must be >= 1", false);
  if (threads > static_cast<uint64_t>(f.maxThreadsPerBlock))
    return (err = what + ": block of " + std::to_string(threads) + " threads: limit " +
                  std::to_string(f.maxThreadsPerBlock) + " for this kernel (" +
                  std::to_string(f.numRegs) + " registers per thread, " +
                  std::to_string(d.regsPerBlock) + " per block)",
            false);
  if (cfg.grid.y > 65535 || cfg.grid.z > 65535)
    return (err = what + ": grid y and z: limit 65535", false);
  size_t smem = cfg.smemBytes + static_cast<size_t>(f.staticSmemBytes);
  if (smem > d.smemPerBlockOptin)
    return (err = what + ": shared memory: required " + std::to_string(smem) + " bytes (" +
                  std::to_string(f.staticSmemBytes) + " static + " +
                  std::to_string(cfg.smemBytes) + " dynamic), limit " +
                  std::to_string(d.smemPerBlockOptin) + " bytes per block on " + d.name,
            false);
  // The driver starts every kernel at 48 KiB - static; more needs the opt-in.
  if (cfg.smemBytes > static_cast<size_t>(f.dynamicSmemOptIn) &&
      !optInSmem(*this, f, cfg.smemBytes, err))
    return (err = what + ": " + err, false);

  CUresult r;
  bool cluster = volume(cfg.cluster) > 1;
  if (!cluster && !cfg.programmatic) {
    r = api_->cuLaunchKernel(f.fn, cfg.grid.x, cfg.grid.y, cfg.grid.z, cfg.block.x, cfg.block.y,
                             cfg.block.z, static_cast<unsigned>(cfg.smemBytes), cfg.stream,
                             args.data(), nullptr);
  } else {
    if (!api_->cuLaunchKernelEx)
      return (err = what + ": clusters and programmatic launches need cuLaunchKernelEx (CUDA 12 driver or newer)",
              false);
    if (cluster && (cfg.grid.x % cfg.cluster.x || cfg.grid.y % cfg.cluster.y || cfg.grid.z % cfg.cluster.z))
      return (err = what + ": grid " + dims(cfg.grid) + " is not a multiple of cluster " +
                    dims(cfg.cluster),
              false);
    CUlaunchAttribute attrs[2]{};
    unsigned n = 0;
    if (cluster) {
      attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attrs[n].value.clusterDim.x = cfg.cluster.x;
      attrs[n].value.clusterDim.y = cfg.cluster.y;
      attrs[n].value.clusterDim.z = cfg.cluster.z;
      ++n;
      what += " with cluster " + dims(cfg.cluster);
    }
    if (cfg.programmatic) {
      if (d.smMajor < 9)
        return (err = what + ": a programmatic launch (LAUNCH=pdl) needs sm_90 or newer; this device is " +
                      d.arch(),
                false);
      attrs[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      attrs[n].value.programmaticStreamSerializationAllowed = 1;
      ++n;
      what += ", programmatic";
    }
    CUlaunchConfig lc{};
    lc.gridDimX = cfg.grid.x;
    lc.gridDimY = cfg.grid.y;
    lc.gridDimZ = cfg.grid.z;
    lc.blockDimX = cfg.block.x;
    lc.blockDimY = cfg.block.y;
    lc.blockDimZ = cfg.block.z;
    lc.sharedMemBytes = static_cast<unsigned>(cfg.smemBytes);
    lc.hStream = cfg.stream;
    lc.attrs = attrs;
    lc.numAttrs = n;
    r = api_->cuLaunchKernelEx(&lc, f.fn, args.data(), nullptr);
  }
  if (r != CUDA_SUCCESS)
    return fail(r, what, err);
  return true;
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

std::optional<Event> Driver::createEvent(std::string &err) {
  if (!enter(err))
    return std::nullopt;
  Event e;
  if (CUresult r = api_->cuEventCreate(&e.ev_, CU_EVENT_DEFAULT); r != CUDA_SUCCESS) {
    fail(r, "cuEventCreate", err);
    return std::nullopt;
  }
  e.drv_ = this;
  return e;
}

Event &Event::operator=(Event &&o) noexcept {
  if (this != &o) {
    reset();
    drv_ = o.drv_;
    ev_ = o.ev_;
    o.ev_ = nullptr;
  }
  return *this;
}

void Event::reset() {
  if (drv_ && ev_) {
    std::string ignored;
    drv_->enter(ignored);
    drv_->api().cuEventDestroy(ev_);
  }
  ev_ = nullptr;
}

bool Event::record(std::string &err, CUstream stream) {
  if (!drv_ || !ev_)
    return (err = "record of a destroyed event", false);
  if (!drv_->enter(err))
    return false;
  if (CUresult r = drv_->api().cuEventRecord(ev_, stream); r != CUDA_SUCCESS)
    return drv_->fail(r, "cuEventRecord", err);
  return true;
}

bool Event::synchronize(std::string &err) {
  if (!drv_ || !ev_)
    return (err = "synchronize on a destroyed event", false);
  if (!drv_->enter(err))
    return false;
  if (CUresult r = drv_->api().cuEventSynchronize(ev_); r != CUDA_SUCCESS)
    return drv_->fail(r, "cuEventSynchronize", err);
  return true;
}

std::optional<float> Event::elapsedMs(const Event &start, const Event &stop, std::string &err) {
  Driver *d = start.drv_;
  if (!d || !start.ev_ || !stop.ev_) {
    err = "elapsed time of a destroyed event";
    return std::nullopt;
  }
  if (!d->enter(err))
    return std::nullopt;
  if (!d->api().cuEventElapsedTime) {
    err = "the CUDA driver has no cuEventElapsedTime";
    return std::nullopt;
  }
  float ms = 0;
  if (CUresult r = d->api().cuEventElapsedTime(&ms, start.ev_, stop.ev_); r != CUDA_SUCCESS) {
    d->fail(r, "cuEventElapsedTime", err);
    return std::nullopt;
  }
  return ms;
}

} // namespace attncc::driver
