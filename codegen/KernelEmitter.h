//===- KernelEmitter.h - the CUDA emitter's kernel printer -----*- C++ -*-===//
//
// Private to codegen/. One KernelEmitter prints one gpu.func as a CUDA
// __global__ function; its member functions are defined by op family:
//   CudaEmitter.cpp   names, dispatch (emitOp), the kernel's frame
//                     (emitKernel), emitCuda
//   EmitScalar.cpp    types, literals, the arith/math op -> text table
//   EmitMemory.cpp    reads and writes, fragment layouts, shared memory
//                     (views, slots, cp.async copies, block reads), the
//                     waits and barriers attncc-place-waits wrote
//   EmitTma.cpp       TMA loads, the mbarrier ops, the warp roles
//   EmitMma.cpp       the mma.sync atom ops (nvgpu.ldmatrix, nvgpu.mma.sync)
//                     and a thread's registers (to_lanes, allocas)
//   EmitWgmma.cpp     the wgmma atom ops (monoid.smem_descriptor,
//                     monoid.wgmma), register fences, commits, turns
//   EmitControl.cpp   scf.for, scf.if, compares and reductions
//   EmitTcgen05.cpp   the tcgen05 and tensor-memory ops (attncc-allocate-
//                     tmem, attncc-lower-tcgen05) and their LLVM pointers
// (Until 2026-12-01 all of it was one 1,857-line CudaEmitter.cpp.)
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_CODEGEN_KERNELEMITTER_H
#define ATTNCC_CODEGEN_KERNELEMITTER_H

#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>
#include <map>
#include <string>

namespace attncc::codegen {

// A private header of codegen/: the emitter's files spell MLIR's types
// unqualified, as MLIR's own sources do.
using namespace mlir;

/// A TMA load of a rank-R box (coordinates innermost first) that completes
/// on an mbarrier.
std::string tmaLoadName(int64_t rank);
std::string tmaLoadFunction(int64_t rank);
/// One wgmma.mma_async shape as a device function: m64nNk16, f32 += A * B,
/// A from a descriptor (ss) or registers (rs), B from a descriptor, B
/// MN-major (transB) or K-major.
std::string wgmmaName(int64_t n, bool bf, bool regA, bool transB);
std::string wgmmaFunction(int64_t n, bool bf, bool regA, bool transB);

/// Whether a memref parameter is ever written (else it is `const`).
bool isWritten(Value m);

using Fmt = std::function<std::string(ArrayRef<std::string>)>;

class KernelEmitter {
public:
  KernelEmitter(raw_indented_ostream &os, std::map<std::string, std::string> &helpers)
      : os(os), helpers(helpers) {}
  LogicalResult emitKernel(gpu::GPUFuncOp f);

private:
  raw_indented_ostream &os;
  std::map<std::string, std::string> &helpers; // device functions the kernels call, by name
  DenseMap<Value, std::string> names;   // variables and inline literals
  DenseMap<Value, Value> broadcastOf;   // vector.broadcast -> its scalar
  DenseMap<Value, Value> spreadOf;      // vector.broadcast of a row/col vector -> its source
  gpu::GPUFuncOp kernel;                // the kernel being printed
  int64_t warps = 0, tileRows = 0, fm = 0; // attncc.tile of a tiled kernel (warps: those with rows)
  int64_t producers = 0;                // WSPEC=load1: a warp after them that only copies blocks in

  SmallVector<Operation *> waitsBeforeLoop; // attncc-place-waits ops printed inside emitFor
  DenseMap<Value, SmallVector<std::string>> dims; // memref -> dimension expressions
  llvm::StringMap<int> taken;

  // --- CudaEmitter.cpp: names and dispatch (EmitScalar.cpp: types, literals, the arith/math table)
  std::string fresh(std::string base);
  std::string define(Value v);
  std::string ref(Value v);
  std::string elem(Value v, StringRef e);
  bool isSplat(Value v);
  static std::string regType(Type t);
  static std::string scalarType(Type t);
  static std::string floatLiteral(double v);
  std::string literal(Attribute a);
  LogicalResult elementwise(Operation *op, const Fmt &f);
  static Fmt binary(std::string opText);
  static Fmt call(std::string fn);
  static Fmt unsignedOp(std::string opText);
  static Fmt unsignedOp32(std::string opText);
  static Fmt convert(Type from, Type to);
  static bool isSync(Operation *op);
  LogicalResult emitBlock(Block &block);
  void assign(ArrayRef<std::string> targets, ValueRange values, ValueRange like);
  void declareVar(const std::string &name, Value v);
  LogicalResult emitOp(Operation &op);
  LogicalResult emitScalar(Operation *op); // EmitScalar.cpp: the arith and math table
  LogicalResult builtin(Operation *op, const char *var, gpu::Dimension d);

  // --- EmitMemory.cpp: fragment layouts, reads and writes, staging and its waits
  static vector::TransferReadOp stagedRead(Value v);
  std::string layoutOf(Value v);
  static int64_t dimOr1(VectorType t, int k);
  int64_t count(Value v);
  SmallVector<std::string> coords(VectorType vt, const std::string &l, const std::string &e);
  static std::string owner(const std::string &l);
  void transferIndex(Operation *op, Value mem, ValueRange indices, AffineMap pm,
                     ArrayRef<bool> inBounds, ArrayRef<std::string> c,
                     SmallVector<std::string> &idx, std::string &ok);
  std::string offsetOf(Value m, ArrayRef<std::string> idx, bool narrow = false);
  /// The row-major offset of `indices` into `m`: 64-bit (its dimension
  /// expressions), or `narrow`: int arithmetic on its static shape.
  std::string offset(Value m, ValueRange indices, bool narrow = false);
  LogicalResult emitTransferRead(vector::TransferReadOp op);
  LogicalResult emitTransferWrite(vector::TransferWriteOp op);
  LogicalResult emitStep(vector::StepOp op);
  LogicalResult emitVectorLoad(vector::LoadOp op);
  LogicalResult emitVectorStore(vector::StoreOp op);
  LogicalResult emitBlockRead(vector::TransferReadOp op);
  int64_t rowStride(Value block);
  bool isChunkValue(Value v);
  LogicalResult emitChunkSelect(arith::SelectOp op);
  LogicalResult emitAsyncCopy(nvgpu::DeviceAsyncCopyOp op);
  LogicalResult emitSubview(memref::SubViewOp op);
  LogicalResult emitDynamicSmem(gpu::DynamicSharedMemoryOp op);
  LogicalResult emitView(memref::ViewOp op);
  LogicalResult emitSync(Operation *op);

  // --- EmitTma.cpp: TMA loads, the mbarrier ops, the warp roles (WSPEC)
  LogicalResult emitTmaLoad(nvgpu::TmaAsyncLoadOp op);
  LogicalResult emitMbarrier(Operation *op);
  LogicalResult emitRoles(scf::IfOp op);

  // --- EmitMma.cpp: the mma.sync atom ops (attncc-lower-mma) and a thread's registers
  bool isPacked(Value v);
  int64_t registers(Value v);
  FailureOr<std::string> registerAt(Operation *op, Value m, ValueRange indices);
  std::string registerType(Value v);
  std::string reg(Value v, const std::string &i);
  std::string declareRegisters(Value v);
  LogicalResult emitAlloca(memref::AllocaOp op);
  LogicalResult emitRegisterLoad(vector::LoadOp op);
  LogicalResult emitRegisterStore(vector::StoreOp op);
  LogicalResult emitExtract(vector::ExtractOp op);
  LogicalResult emitExtractSlice(vector::ExtractStridedSliceOp op);
  LogicalResult emitPack(arith::TruncFOp op);
  LogicalResult emitUnpack(arith::ExtFOp op);
  LogicalResult emitToLanes(monoid::ToLanesOp op);
  LogicalResult emitFromLanes(monoid::FromLanesOp op);
  LogicalResult emitLdmatrix(nvgpu::LdMatrixOp op);
  LogicalResult emitMmaSync(nvgpu::MmaSyncOp op);

  // --- EmitWgmma.cpp: the wgmma atom ops (attncc-lower-wgmma), fences, commits, turns
  LogicalResult emitFenceAccumulators(NVVM::InlinePtxOp op);
  LogicalResult emitSmemDescriptor(monoid::SmemDescriptorOp op);
  // EmitTcgen05.cpp
  LogicalResult emitTcgen05(Operation *op);
  LogicalResult emitTcgen05Descriptor(monoid::SmemDescriptorOp op);
  LogicalResult emitWgmmaAtom(monoid::WgmmaOp op);
  LogicalResult emitWgmmaSync(Operation *op);

  // --- EmitControl.cpp: loops, branches, compares, reductions
  LogicalResult emitFor(scf::ForOp f);
  LogicalResult emitIf(scf::IfOp op);
  LogicalResult emitCmpI(arith::CmpIOp op);
  LogicalResult emitCmpF(arith::CmpFOp op);
  LogicalResult emitReduction(vector::ReductionOp op);
  LogicalResult emitMultiReduction(vector::MultiDimReductionOp op);
};

} // namespace attncc::codegen

#endif
