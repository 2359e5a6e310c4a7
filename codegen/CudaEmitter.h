//===- CudaEmitter.h - tile-level IR -> CUDA C++ ----------------*- C++ -*-===//
//
// The only place CUDA text is produced. Input: a module at the `tile` stage
// (gpu.module / gpu.func kernels over scf, arith, math, memref, vector).
// Output: one readable .cu with an extern "C" __global__ function per kernel.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_CODEGEN_CUDAEMITTER_H
#define ATTNCC_CODEGEN_CUDAEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace attncc {

/// What the emitter needs to know of a target. One per arch; later rungs add
/// the instruction families (mma.sync, wgmma, tcgen05) here.
struct CudaTargetInfo {
  std::string arch; // "sm_90a"
  int sm = 90;
};
CudaTargetInfo cudaTargetInfo(const std::string &arch);

/// Emits every gpu.func of `module`. Fails (with a diagnostic on the
/// offending op) on an op the emitter does not know.
mlir::LogicalResult emitCuda(mlir::ModuleOp module, const CudaTargetInfo &target,
                             llvm::raw_ostream &os);

} // namespace attncc

#endif
