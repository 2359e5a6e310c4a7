//===- KernelConstants.h - one constant of each value per kernel -*- C++ -*-===//
//
// The tile passes that write index arithmetic into a kernel (attncc-lower-
// copies, attncc-lower-mma) make each index or i32 constant once, at the
// top of the kernel's body, and reuse it; both lower every tiled kernel of
// the module (forEachTiledKernel).
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_PASSES_KERNELCONSTANTS_H
#define ATTNCC_PASSES_KERNELCONSTANTS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <map>

namespace mlir::attncc {

class KernelConstants {
public:
  KernelConstants(gpu::GPUFuncOp f) : f(f) {}
  /// The constant `v` as i32 (`narrow`) or index.
  Value get(bool narrow, int64_t v) {
    Value &c = consts[{narrow, v}];
    if (!c) {
      OpBuilder top = OpBuilder::atBlockBegin(&f.getBody().front());
      c = narrow ? arith::ConstantIntOp::create(top, f.getLoc(), v, 32).getResult()
                 : arith::ConstantIndexOp::create(top, f.getLoc(), v).getResult();
    }
    return c;
  }
  Value index(int64_t v) { return get(false, v); }
  Value i32(int64_t v) { return get(true, v); }

private:
  gpu::GPUFuncOp f;
  std::map<std::pair<bool, int64_t>, Value> consts; // (i32?, value) -> its op at the kernel's top
};

/// A barrier among the threads that compute: gpu.barrier, or in a kernel
/// with producer warps (attncc.tile's `producers`, WSPEC=load<n>: they
/// return early) the named barrier 15 over the computing warps' threads,
/// the one attncc-place-waits uses for them.
inline void computeBarrier(OpBuilder &b, Location loc, gpu::GPUFuncOp f, KernelConstants &consts) {
  auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
  auto producers = tile ? tile.getAs<IntegerAttr>("producers") : IntegerAttr();
  auto warps = tile ? tile.getAs<IntegerAttr>("warps") : IntegerAttr();
  if (!producers || !warps || producers.getInt() == 0) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  NVVM::BarrierOp::create(b, loc, TypeRange{}, consts.i32(15), consts.i32(warps.getInt() * 32),
                          NVVM::BarrierReductionAttr{}, Value{});
}

/// A shared-memory view's first byte, plus `offset` bytes (an index; null:
/// none), as the llvm.ptr<3> the NVVM mbarrier and tcgen05 ops take:
///   memref.extract_aligned_pointer_as_index [arith.addi] arith.index_cast
///   llvm.inttoptr (at `ptrLoc`, which names it in the CUDA)
inline Value sharedPointer(OpBuilder &b, Location loc, Value view, Value offset, Location ptrLoc) {
  Value addr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
  if (offset)
    addr = arith::AddIOp::create(b, loc, addr, offset);
  Value a64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), addr);
  return LLVM::IntToPtrOp::create(b, ptrLoc, LLVM::LLVMPointerType::get(b.getContext(), 3), a64);
}

/// attncc-allocate-tmem's per-Q-tile mbarriers (the mma_done view, and the
/// mma_ready view 8 bytes after it): Q tile g's is element 2g, so a thread
/// finds both of its tile's from one offset.
inline constexpr int64_t kQtileMbarrierStride = 16;

/// Q tile g's mbarrier of such a view.
inline Value qtileMbarrier(OpBuilder &b, Location loc, Value view, int64_t g, KernelConstants &consts,
                           Location ptrLoc) {
  return sharedPointer(b, loc, view, g ? consts.index(kQtileMbarrierStride * g) : Value(), ptrLoc);
}

/// The mbarrier of this thread's Q tile (warp w: tile w / 4), made where
/// the builder is (at its use: a value kept live through a fold costs
/// registers).
inline Value myQtileMbarrier(OpBuilder &b, Location loc, Value view, KernelConstants &consts, Location ptrLoc) {
  Value w = gpu::SubgroupIdOp::create(b, loc, /*upperBound=*/nullptr);
  Value tile = arith::ShRUIOp::create(b, loc, w, consts.index(2));
  Value offset = arith::MulIOp::create(b, loc, tile, consts.index(kQtileMbarrierStride));
  return sharedPointer(b, loc, view, offset, ptrLoc);
}

/// Runs `lower` on every tiled kernel (a gpu.func with attncc.tile) under
/// `root`, and stops at the first that fails.
inline LogicalResult forEachTiledKernel(Operation *root, function_ref<LogicalResult(gpu::GPUFuncOp)> lower) {
  WalkResult r = root->walk([&](gpu::GPUFuncOp f) {
    if (!f->hasAttr("attncc.tile"))
      return WalkResult::advance();
    return failed(lower(f)) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

} // namespace mlir::attncc

#endif
