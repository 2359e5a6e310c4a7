//===- DriverApi.h - the driver entry points resolved from libcuda --------===//
//
// One function pointer per entry point, typed from <cuda.h>. Each name goes
// through <cuda.h>'s macros first, so `cuMemAlloc` here is cuMemAlloc_v2
// (member and symbol alike) wherever the header #defines a versioned name;
// call them as api.cuMemAlloc(...). Add an entry to a list to use another.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_RUNTIME_DRIVERAPI_H
#define ATTNCC_RUNTIME_DRIVERAPI_H

#include <cuda.h>

#include <string>

namespace attncc::driver {

/// Must resolve, or Driver::get() fails ("the driver is too old").
#define ATTNCC_CU_REQUIRED(X)                                                                      \
  X(cuGetErrorName) X(cuGetErrorString) X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount)        \
  X(cuDeviceGet) X(cuDeviceGetAttribute) X(cuDeviceGetName) X(cuDeviceTotalMem)                    \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent)                      \
  X(cuCtxSynchronize) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)                 \
  X(cuFuncSetAttribute) X(cuFuncGetAttribute) X(cuLaunchKernel) X(cuMemAlloc) X(cuMemFree)         \
  X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemsetD8) X(cuMemGetInfo) X(cuEventCreate) X(cuEventRecord)  \
  X(cuEventSynchronize) X(cuEventDestroy)

/// May be missing (nullptr) on older drivers; check before use.
/// cuEventElapsedTime is cuEventElapsedTime_v2 (drivers >= 12.8); the loader
/// falls back to the unversioned symbol, which has the same signature.
#define ATTNCC_CU_OPTIONAL(X)                                                                      \
  X(cuEventElapsedTime) X(cuLaunchKernelEx) X(cuTensorMapEncodeTiled) X(cuStreamCreate)            \
  X(cuStreamDestroy) X(cuStreamSynchronize) X(cuStreamBeginCapture) X(cuStreamEndCapture)          \
  X(cuGraphInstantiate) X(cuGraphLaunch) X(cuGraphExecDestroy) X(cuGraphDestroy)                 \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)

struct Api {
#define ATTNCC_CU_DECLARE(name) decltype(&::name) name = nullptr;
  ATTNCC_CU_REQUIRED(ATTNCC_CU_DECLARE)
  ATTNCC_CU_OPTIONAL(ATTNCC_CU_DECLARE)
#undef ATTNCC_CU_DECLARE
  void *library = nullptr; // the dlopen handle (never closed)
  std::string path;        // which library name loaded
};

} // namespace attncc::driver

#endif // ATTNCC_RUNTIME_DRIVERAPI_H
