//===- Driver.cpp - loading libcuda, devices, memory, events, targets -----===//
#include "runtime/driver/Driver.h"

#include "runtime/driver/DriverApi.h"
#include "runtime/problem/Reference.h"

#include <cctype>
#include <cstdlib>
#include <sstream>
#include <type_traits>

#include <dlfcn.h>

namespace attncc::driver {

namespace {

#define ATTNCC_STR2(x) #x
#define ATTNCC_STR(x) ATTNCC_STR2(x) // after macro expansion: "cuMemAlloc_v2"

const char *kNoDriver = "no CUDA driver found (libcuda.so.1 could not be loaded): attncc compile "
                        "works without a GPU; run and bench need one";
const char *kNoDevice = "no CUDA device found";

bool isSticky(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    return true;
  default:
    return false;
  }
}

struct Arch {
  int major = 0, minor = 0;
  char suffix = 0; // 0, 'a' or 'f'
};

std::optional<Arch> parseArch(const std::string &s) {
  if (s.rfind("sm_", 0) != 0)
    return std::nullopt;
  size_t i = 3, end = 3;
  while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])))
    ++end;
  if (end - i < 2 || end - i > 3 || end + 1 < s.size())
    return std::nullopt;
  Arch a;
  int n = std::atoi(s.substr(i, end - i).c_str());
  a.major = n / 10;
  a.minor = n % 10;
  if (end < s.size()) {
    a.suffix = s[end];
    if (a.suffix != 'a' && a.suffix != 'f')
      return std::nullopt;
  }
  return a;
}

std::string cc(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

} // namespace

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

std::string archForDevice(int major, int minor) {
  if (major == 8)
    return "sm_80";
  std::string n = "sm_" + std::to_string(major) + std::to_string(minor);
  return major >= 9 ? n + "a" : n;
}

bool canRun(const std::string &targetArch, int major, int minor, std::string &why,
            std::string *compileArch) {
  auto t = parseArch(targetArch);
  std::string device = "the device is compute capability " + cc(major, minor) + " (" +
                       archForDevice(major, minor) + ")";
  if (!t) {
    why = "unknown target '" + targetArch + "' (expected sm_NN, sm_NNa or sm_NNf)";
    return false;
  }
  bool own = t->major == major && t->minor == minor;
  if (t->suffix == 'a') {
    if (!own) {
      why = "a schedule for " + targetArch + " uses arch-specific instructions and runs only on a "
            "compute capability " + cc(t->major, t->minor) + " device; " + device;
      if (t->major == 12)
        why += "; compile it for sm_120 to run it on any device from 9.0 on";
      return false;
    }
  } else if (t->suffix == 'f') {
    if (t->major != major || minor < t->minor) {
      why = "a schedule for " + targetArch + " runs only on compute capability " +
            cc(t->major, t->minor) + " to " + std::to_string(t->major) + ".9; " + device;
      return false;
    }
  } else {
    // Portable: mma.sync and cp.async (from 8.0 on), TMA (from 9.0 on).
    int floorMajor = t->major >= 9 ? 9 : t->major;
    int floorMinor = t->major >= 9 ? 0 : t->minor;
    if (major < floorMajor || (major == floorMajor && minor < floorMinor)) {
      why = "a schedule for " + targetArch + " needs compute capability " +
            cc(floorMajor, floorMinor) + " or newer (" +
            (floorMajor >= 9 ? "mma.sync, cp.async, TMA" : "mma.sync, cp.async") + "); " + device;
      return false;
    }
  }
  if (compileArch)
    *compileArch = (own || t->suffix == 'f') ? targetArch : archForDevice(major, minor);
  return true;
}

std::string Device::describe() const {
  std::ostringstream s;
  s << name << " (" << arch() << ", " << smCount << " SMs, " << smemPerBlockOptin / 1024
    << " KiB smem/block)";
  return s.str();
}

//===----------------------------------------------------------------------===//
// Host data
//===----------------------------------------------------------------------===//

size_t dtypeBytes(DType t) { return t == DType::F32 ? 4 : 2; }

std::vector<uint8_t> packAs(DType t, const std::vector<float> &values) {
  std::vector<uint8_t> out(values.size() * dtypeBytes(t));
  for (size_t i = 0; i < values.size(); ++i) {
    if (t == DType::F32) {
      std::memcpy(&out[i * 4], &values[i], 4);
    } else {
      uint16_t h = t == DType::F16 ? floatToHalfBits(values[i]) : floatToBf16Bits(values[i]);
      std::memcpy(&out[i * 2], &h, 2);
    }
  }
  return out;
}

std::vector<double> unpackFrom(DType t, const void *data, size_t count) {
  std::vector<double> out(count);
  const auto *p = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < count; ++i) {
    if (t == DType::F32) {
      float f;
      std::memcpy(&f, p + i * 4, 4);
      out[i] = f;
    } else {
      uint16_t h;
      std::memcpy(&h, p + i * 2, 2);
      out[i] = t == DType::F16 ? halfBitsToFloat(h) : bf16BitsToFloat(h);
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

struct DriverLoader {
  static Driver *load(std::string &err) {
    auto api = std::make_unique<Api>();
    std::string dlerr;
    for (const char *name : {"libcuda.so.1", "libcuda.so"}) {
      api->library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (api->library) {
        api->path = name;
        break;
      }
      if (const char *e = ::dlerror(); e && dlerr.empty())
        dlerr = e;
    }
    if (!api->library) {
      err = std::string(kNoDriver) + " [" + dlerr + "]";
      return nullptr;
    }
    std::string missing;
    auto resolve = [&](auto &fp, const char *sym, bool required) {
      fp = reinterpret_cast<std::remove_reference_t<decltype(fp)>>(::dlsym(api->library, sym));
      if (!fp && required)
        missing += (missing.empty() ? "" : ", ") + std::string(sym);
    };
#define ATTNCC_CU_REQ(name) resolve(api->name, ATTNCC_STR(name), true);
#define ATTNCC_CU_OPT(name) resolve(api->name, ATTNCC_STR(name), false);
    ATTNCC_CU_REQUIRED(ATTNCC_CU_REQ)
    ATTNCC_CU_OPTIONAL(ATTNCC_CU_OPT)
#undef ATTNCC_CU_REQ
#undef ATTNCC_CU_OPT
    if (!api->cuEventElapsedTime) // drivers before 12.8 have only the unversioned one
      resolve(api->cuEventElapsedTime, "cuEventElapsedTime", false);
    if (!missing.empty()) {
      err = "the CUDA driver (" + api->path + ") lacks " + missing +
            ": it is too old for attncc (update the NVIDIA driver)";
      return nullptr;
    }

    std::unique_ptr<Driver> d(new Driver());
    d->api_ = std::move(api);
    const Api &a = *d->api_;
    CUresult r = a.cuInit(0);
    if (r == CUDA_ERROR_STUB_LIBRARY) {
      err = std::string(kNoDriver) + " [" + a.path + " is the CUDA toolkit's stub library]";
      return nullptr;
    }
    if (r == CUDA_ERROR_NO_DEVICE) {
      err = std::string(kNoDevice) + " (cuInit: " + d->resultText(r) +
            "): attncc compile works without a GPU; run and bench need one";
      return nullptr;
    }
    if (r != CUDA_SUCCESS) {
      err = "CUDA driver initialization failed: cuInit: " + d->resultText(r);
      return nullptr;
    }
    a.cuDriverGetVersion(&d->driverVersion_);
    int count = 0;
    if ((r = a.cuDeviceGetCount(&count)) != CUDA_SUCCESS || count <= 0) {
      err = std::string(kNoDevice) + (r != CUDA_SUCCESS ? " (" + d->resultText(r) + ")" : "") +
            ": attncc compile works without a GPU; run and bench need one";
      return nullptr;
    }
    for (int i = 0; i < count; ++i) {
      CUdevice dev;
      if ((r = a.cuDeviceGet(&dev, i)) != CUDA_SUCCESS) {
        err = "cuDeviceGet(" + std::to_string(i) + "): " + d->resultText(r);
        return nullptr;
      }
      Device info;
      info.ordinal = i;
      char name[256] = {0};
      a.cuDeviceGetName(name, sizeof name - 1, dev);
      info.name = name;
      auto attr = [&](CUdevice_attribute at) {
        int v = 0;
        a.cuDeviceGetAttribute(&v, at, dev);
        return v;
      };
      info.smMajor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
      info.smMinor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
      info.smCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
      info.smemPerBlock = static_cast<size_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
      info.smemPerBlockOptin =
          static_cast<size_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
      info.smemPerSm =
          static_cast<size_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
      info.regsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
      info.maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
      info.l2Bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
      a.cuDeviceTotalMem(&info.totalMemBytes, dev);
      d->devices_.push_back(info);
    }
    int ordinal = 0;
    if (const char *env = std::getenv("ATTNCC_DEVICE"); env && *env) {
      char *end = nullptr;
      long v = std::strtol(env, &end, 10);
      if (*end || v < 0 || v >= count) {
        err = "invalid ATTNCC_DEVICE = " + std::string(env) + ": a device ordinal from 0 to " +
              std::to_string(count - 1);
        return nullptr;
      }
      ordinal = static_cast<int>(v);
    }
    d->current_ = ordinal;
    CUdevice dev;
    a.cuDeviceGet(&dev, ordinal);
    if ((r = a.cuDevicePrimaryCtxRetain(&d->ctx_, dev)) != CUDA_SUCCESS ||
        (r = a.cuCtxSetCurrent(d->ctx_)) != CUDA_SUCCESS) {
      err = "cannot create a CUDA context on " + d->devices_[ordinal].name + ": " +
            d->resultText(r);
      return nullptr;
    }
    return d.release(); // process lifetime: never destroyed
  }
};

Driver *Driver::get(std::string &err) {
  struct Loaded {
    Driver *driver = nullptr;
    std::string err;
  };
  static const Loaded loaded = [] {
    Loaded l;
    l.driver = DriverLoader::load(l.err);
    return l;
  }();
  if (!loaded.driver)
    err = loaded.err;
  return loaded.driver;
}

std::string Driver::resultText(CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  if (api_->cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    return "CUresult " + std::to_string(static_cast<int>(r));
  api_->cuGetErrorString(r, &text);
  return std::string(name) + (text ? " (" + std::string(text) + ")" : "");
}

bool Driver::enter(std::string &err) {
  CUresult r = api_->cuCtxSetCurrent(ctx_);
  if (!sticky_.empty()) {
    err = sticky_;
    return false;
  }
  if (r != CUDA_SUCCESS)
    return fail(r, "cuCtxSetCurrent", err);
  return true;
}

bool Driver::fail(CUresult r, const std::string &what, std::string &err) {
  err = what + ": " + resultText(r);
  if (isSticky(r)) {
    if (sticky_.empty())
      sticky_ = "the CUDA context is unusable after an earlier error (" + err +
                "); restart the process";
    err += " (this error is sticky: the process must be restarted to use the GPU again)";
  }
  return false;
}

bool Driver::memInfo(size_t &freeBytes, size_t &totalBytes, std::string &err) {
  if (!enter(err))
    return false;
  if (CUresult r = api_->cuMemGetInfo(&freeBytes, &totalBytes); r != CUDA_SUCCESS)
    return fail(r, "cuMemGetInfo", err);
  return true;
}

bool Driver::synchronize(std::string &err) {
  if (!enter(err))
    return false;
  if (CUresult r = api_->cuCtxSynchronize(); r != CUDA_SUCCESS)
    return fail(r, "kernel execution failed (reported by cuCtxSynchronize)", err);
  return true;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

std::optional<DeviceBuffer> Driver::alloc(size_t bytes, std::string &err) {
  if (!enter(err))
    return std::nullopt;
  DeviceBuffer b;
  b.drv_ = this;
  if (bytes == 0)
    return b;
  CUresult r = api_->cuMemAlloc(&b.ptr_, bytes);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    size_t freeB = 0, totalB = 0;
    api_->cuMemGetInfo(&freeB, &totalB);
    err = "device out of memory: asked for " + std::to_string(bytes) + " bytes (" +
          std::to_string(freeB) + " free of " + std::to_string(totalB) + " on " + device().name +
          ")";
    b.ptr_ = 0;
    return std::nullopt;
  }
  if (r != CUDA_SUCCESS) {
    fail(r, "cuMemAlloc(" + std::to_string(bytes) + " bytes)", err);
    b.ptr_ = 0;
    return std::nullopt;
  }
  b.size_ = bytes;
  return b;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    reset();
    drv_ = o.drv_;
    ptr_ = o.ptr_;
    size_ = o.size_;
    o.ptr_ = 0;
    o.size_ = 0;
  }
  return *this;
}

void DeviceBuffer::reset() {
  if (drv_ && ptr_) {
    std::string ignored;
    drv_->enter(ignored); // makes the context current even after a sticky error
    drv_->api().cuMemFree(ptr_);
  }
  ptr_ = 0;
  size_ = 0;
}

namespace {
bool inBounds(size_t offset, size_t bytes, size_t size, const char *what, std::string &err) {
  if (offset <= size && bytes <= size - offset)
    return true;
  err = std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " +
        std::to_string(offset) + " overflows a device buffer of " + std::to_string(size) +
        " bytes";
  return false;
}
} // namespace

bool DeviceBuffer::upload(const void *src, size_t bytes, std::string &err, size_t offset) {
  if (!drv_)
    return (err = "upload to an unallocated buffer", false);
  if (!inBounds(offset, bytes, size_, "upload", err) || !drv_->enter(err))
    return false;
  if (bytes == 0)
    return true;
  if (CUresult r = drv_->api().cuMemcpyHtoD(ptr_ + offset, src, bytes); r != CUDA_SUCCESS)
    return drv_->fail(r, "cuMemcpyHtoD(" + std::to_string(bytes) + " bytes)", err);
  return true;
}

bool DeviceBuffer::upload(DType t, const std::vector<float> &values, std::string &err) {
  std::vector<uint8_t> bytes = packAs(t, values);
  return upload(bytes.data(), bytes.size(), err);
}

bool DeviceBuffer::download(void *dst, size_t bytes, std::string &err, size_t offset) const {
  if (!drv_)
    return (err = "download from an unallocated buffer", false);
  if (!inBounds(offset, bytes, size_, "download", err) || !drv_->enter(err))
    return false;
  if (bytes == 0)
    return true;
  if (CUresult r = drv_->api().cuMemcpyDtoH(dst, ptr_ + offset, bytes); r != CUDA_SUCCESS)
    return drv_->fail(r, "cuMemcpyDtoH(" + std::to_string(bytes) + " bytes)", err);
  return true;
}

std::optional<std::vector<double>> DeviceBuffer::download(DType t, size_t count,
                                                          std::string &err) const {
  std::vector<uint8_t> bytes(count * dtypeBytes(t));
  if (!download(bytes.data(), bytes.size(), err))
    return std::nullopt;
  return unpackFrom(t, bytes.data(), count);
}

bool DeviceBuffer::fill(uint8_t byte, std::string &err) {
  if (!drv_)
    return (err = "fill of an unallocated buffer", false);
  if (!drv_->enter(err))
    return false;
  if (size_ == 0)
    return true;
  if (CUresult r = drv_->api().cuMemsetD8(ptr_, byte, size_); r != CUDA_SUCCESS)
    return drv_->fail(r, "cuMemsetD8", err);
  return true;
}

} // namespace attncc::driver
