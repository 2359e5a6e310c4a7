//===- AllocateTmem.cpp - attncc-allocate-tmem (tensor memory, tcgen05) ---===//
//
// Pre:  outlined tiled kernels after attncc-allocate-smem. A tcgen05
//       contraction is a vector.contract marked attncc.atom =
//       "tcgen05.m128nNk16" (issue 14; atomize does not write it yet, so
//       today only hand-written IR has one): its accumulator lives in tensor
//       memory, lane = row, one 32-bit column per f32 element.
// Post: each such contraction carries attncc.tmem_col, its accumulator's
//       first column: every Q*K^T product (B = [N x K], K-major) shares S's
//       columns from 0, every P*V product (B = [K x N]) O's, after S's. P
//       is written over S (docs/design-tcgen05.md), so it needs none of its
//       own. With two Q tiles (w8x1: warps 4-7 own rows 128-255, the same
//       lane quarters as warps 0-3) each Q tile has its own S and O: the
//       second tile's columns follow the first's, and attncc.tile gets
//       tmem_qtile = the columns of one tile (S + O). The kernel's
//       attncc.tile gets tmem = the columns allocated: the sum over the Q
//       tiles rounded up to a power of two, at least 32 (the ISA's rule for
//       tcgen05.alloc). The allocation is ops:
//         a 4-byte shared word for the address and an 8-byte mbarrier
//         per Q tile that the products' commits arrive on (memref.views
//         after the other buffers, marked attncc.mma_done, Q tile g's at
//         element 2g; attncc.tile.smem grows by 16 bytes a Q tile; with an
//         mma warp, attncc.tile.mma, a second view 8 bytes on, marked
//         attncc.mma_ready, whose element 2g each Q tile's warpgroup
//         arrives on, 8 bytes more; with a correction warpgroup,
//         attncc.tile.corr, two more per Q tile after those, marked
//         attncc.corr_full (128 arrivals of the tile's row warps) and
//         attncc.o_ready (128 of the correction warps), and an f32 a row,
//         the view marked attncc.corr_scale); thread 0
//         initializes the mbarriers (one arrival for the commits, 32 W / Q
//         for the row warps of a Q tile)
//         warp 0: nvvm.tcgen05.alloc into it, nvvm.tcgen05.relinquish_alloc_permit
//         nvvm.tcgen05.fence before, gpu.barrier, nvvm.tcgen05.fence after
//         %tmem = memref.load of the word (i32: lane 31-16, column 15-0),
//         marked attncc.tmem_base
//       and before the kernel returns: the fence, a barrier, and warp 0's
//       nvvm.tcgen05.dealloc of the same columns. The NVVM ops take LLVM
//       pointers: llvm.inttoptr of the word's address (shared) and of %tmem
//       (tensor memory), the one LLVM-dialect op the tile IR uses
//       (docs/design-tcgen05.md says why).
// Refused: more than 512 columns ("required X, limit 512"), a kernel split
//       into warp roles (WSPEC: not built with tcgen05 yet), a kernel
//       without dynamic shared memory.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/KernelConstants.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "attncc-allocate-tmem"

namespace mlir::attncc {
#define GEN_PASS_DEF_ALLOCATETMEM
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

constexpr int64_t kTmemColumns = 512; // per CTA (PTX ISA, "Tensor Memory")

bool isTcgen05(vector::ContractionOp c) {
  auto a = c->getAttrOfType<StringAttr>("attncc.atom");
  return a && a.getValue().starts_with("tcgen05.");
}

LogicalResult allocate(gpu::GPUFuncOp f) {
  SmallVector<vector::ContractionOp> products;
  f.walk([&](vector::ContractionOp c) {
    if (isTcgen05(c))
      products.push_back(c);
  });
  if (products.empty())
    return success();
  MLIRContext *ctx = f.getContext();
  if (f->walk([](scf::IfOp i) { return i->hasAttr("attncc.roles") ? WalkResult::interrupt() : WalkResult::advance(); })
          .wasInterrupted())
    return f.emitOpError("attncc-allocate-tmem: tcgen05 atoms in a kernel split into warp roles (WSPEC) are not built yet");
  // The columns of S (Q*K^T) and of O (P*V): the widest product of each.
  int64_t sCols = 0, oCols = 0;
  for (vector::ContractionOp c : products) {
    int64_t &cols = monoid::rightIsKN(c) ? oCols : sCols;
    cols = std::max(cols, cast<VectorType>(c.getAccType()).getDimSize(1));
  }
  auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
  int64_t qTiles = tile.getAs<IntegerAttr>("warps").getInt() / 4; // a warpgroup a Q tile of 128 rows
  int64_t need = qTiles * (sCols + oCols);
  int64_t cols = std::max<int64_t>(32, static_cast<int64_t>(llvm::PowerOf2Ceil(need)));
  if (cols > kTmemColumns) {
    auto d = f.emitOpError("attncc-allocate-tmem: the products need more tensor memory than a CTA has: required ")
             << need << " columns (S " << sCols << ", O " << oCols;
    if (qTiles > 1)
      d << ", for each of " << qTiles << " Q tiles";
    return d << "), limit " << kTmemColumns;
  }
  for (vector::ContractionOp c : products)
    c->setAttr("attncc.tmem_col", IntegerAttr::get(IntegerType::get(ctx, 64), monoid::rightIsKN(c) ? sCols : 0));

  // The shared word that receives the address, after the other buffers.
  gpu::DynamicSharedMemoryOp raw;
  f.walk([&](gpu::DynamicSharedMemoryOp d) { raw = d; });
  if (!raw)
    return f.emitOpError("attncc-allocate-tmem: needs the kernel's dynamic shared memory (attncc-allocate-smem)");
  int64_t smem = tile.getAs<IntegerAttr>("smem").getInt();
  int64_t at = llvm::alignTo(smem, 16);
  auto mmaRole = tile.getAs<IntegerAttr>("mma");
  NamedAttrList t(tile);
  // The address word (8 bytes with padding), then the mbarriers, 16 bytes
  // a Q tile: its mma_done, and with an mma warp its mma_ready after it (so
  // a thread finds both from one address).
  int64_t bars = 8 + mlir::attncc::kQtileMbarrierStride * (qTiles - 1) + (mmaRole ? 16 : 8);
  // A correction warpgroup (corr = 4, with the mma warp): per Q tile the
  // mbarrier the row warps arrive on when their row factors are published
  // (corr_full) and the one the correction warps arrive on when O is
  // rescaled (o_ready, 8 bytes after it), then the factors, an f32 a row.
  bool corr = tile.getAs<IntegerAttr>("corr") && mmaRole;
  // OVERLAP=early with the mma warp: per Q tile an mbarrier the row warps
  // arrive on when the rest of P is stored (p_ready; attncc-mma-role).
  bool early = mmaRole && llvm::any_of(products, [](vector::ContractionOp c) { return c->hasAttr("attncc.early_pv"); });
  int64_t corrBars = at + 8 + mlir::attncc::kQtileMbarrierStride * qTiles;
  int64_t pReady = corrBars + (corr ? mlir::attncc::kQtileMbarrierStride * qTiles : 0);
  int64_t scales = llvm::alignTo(pReady + (early ? mlir::attncc::kQtileMbarrierStride * qTiles : 0), 16);
  int64_t end = corr ? scales + 4 * 128 * qTiles : early ? scales : at + bars;
  t.set("smem", IntegerAttr::get(IntegerType::get(ctx, 64), end));
  t.set("tmem", IntegerAttr::get(IntegerType::get(ctx, 64), cols));
  if (qTiles > 1)
    t.set("tmem_qtile", IntegerAttr::get(IntegerType::get(ctx, 64), sCols + oCols));
  f->setAttr("attncc.tile", t.getDictionary(ctx));

  mlir::attncc::KernelConstants consts(f);
  Location loc = f.getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointAfter(raw);
  auto wordT = MemRefType::get({1}, b.getI32Type(), MemRefLayoutAttrInterface{},
                               gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  Value word = memref::ViewOp::create(b, monoid::named(loc, "tmem_addr"), wordT, raw, consts.index(at), ValueRange{});
  Value c0 = consts.index(0), nCols = consts.i32(cols);
  Value warp = gpu::SubgroupIdOp::create(b, monoid::named(loc, "warp"), /*upperBound=*/nullptr);
  Value first = arith::CmpIOp::create(b, monoid::named(loc, "allocator"), arith::CmpIPredicate::eq, warp, c0);
  auto tmemPtr = LLVM::LLVMPointerType::get(ctx, 6);
  {
    auto i = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(i.thenBlock()->getTerminator());
    Value p = mlir::attncc::sharedPointer(b, loc, word, Value(), loc);
    NVVM::Tcgen05AllocOp::create(b, loc, p, nCols);
    NVVM::Tcgen05RelinquishAllocPermitOp::create(b, loc);
  }
  // The mbarrier the products' tcgen05.commit arrives on (attncc-lower-
  // tcgen05 waits on it), one arrival a phase, initialized by thread 0.
  // Element 2g is Q tile g's mbarrier.
  auto barT = MemRefType::get({2 * qTiles - 1}, b.getI64Type(), MemRefLayoutAttrInterface{},
                              gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  Value bar = memref::ViewOp::create(b, monoid::named(loc, "mma_done"), barT, raw, consts.index(at + 8), ValueRange{});
  bar.getDefiningOp()->setAttr("attncc.mma_done", b.getUnitAttr());
  {
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value t0 = arith::CmpIOp::create(b, monoid::named(loc, "initializer"), arith::CmpIPredicate::eq, tid, c0);
    auto i = scf::IfOp::create(b, loc, t0, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(i.thenBlock()->getTerminator());
    for (int64_t g = 0; g < qTiles; ++g)
      NVVM::MBarrierInitOp::create(b, loc, mlir::attncc::qtileMbarrier(b, loc, bar, g, consts, loc), consts.i32(1),
                                     Value{});
    // A per-Q-tile mbarrier view (Q tile g's at element 2g) before the
    // initializing branch, marked `attr`, and its inits for `arrivals`.
    auto tileBarriers = [&](StringRef name, int64_t offset, int64_t arrivals) {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPoint(i);
      Value view = memref::ViewOp::create(b, monoid::named(loc, name), barT, raw, consts.index(offset), ValueRange{});
      view.getDefiningOp()->setAttr(("attncc." + name).str(), b.getUnitAttr());
      b.setInsertionPoint(i.thenBlock()->getTerminator());
      for (int64_t g = 0; g < qTiles; ++g)
        NVVM::MBarrierInitOp::create(b, loc, mlir::attncc::qtileMbarrier(b, loc, view, g, consts, loc),
                                       consts.i32(arrivals), Value{});
    };
    if (mmaRole) {
      // WSPEC=load1/mma1: the mbarrier every thread of the row warps
      // arrives on when a product's operands are in place (attncc-mma-role
      // makes the mma warp wait on it before it issues); each Q tile's
      // warpgroup arrives on its own.
      int64_t rowThreads = tile.getAs<IntegerAttr>("warps").getInt() * 32 / qTiles;
      tileBarriers("mma_ready", at + 16, rowThreads);
      // OVERLAP=early: the second part of a P*V (attncc-mma-role).
      if (early)
        tileBarriers("p_ready", pReady, rowThreads);
      if (corr) {
        // WSPEC=.../corr4: a Q tile's row warps publish their factors (128
        // arrivals) and the correction warpgroup says O is rescaled (128);
        // attncc-corr-role writes both sides.
        tileBarriers("corr_full", corrBars, rowThreads);
        tileBarriers("o_ready", corrBars + 8, 128);
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPoint(i);
        auto scaleT = MemRefType::get({128 * qTiles}, b.getF32Type(), MemRefLayoutAttrInterface{},
                                      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
        Value scale = memref::ViewOp::create(b, monoid::named(loc, "corr_scale"), scaleT, raw, consts.index(scales),
                                               ValueRange{});
        scale.getDefiningOp()->setAttr("attncc.corr_scale", b.getUnitAttr());
      }
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  gpu::BarrierOp::create(b, monoid::named(loc, "the tensor memory's address is in shared memory"));
  NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  Value tmem = memref::LoadOp::create(b, monoid::named(loc, "tmem"), word, ValueRange{c0});
  tmem.getDefiningOp()->setAttr("attncc.tmem_base", b.getUnitAttr());

  // Every column back before the kernel returns.
  SmallVector<gpu::ReturnOp> returns;
  f.walk([&](gpu::ReturnOp r) { returns.push_back(r); });
  for (gpu::ReturnOp r : returns) {
    b.setInsertionPoint(r);
    NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    computeBarrier(b, monoid::named(loc, "every product and load of tensor memory is done"), f, consts);
    auto i = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(i.thenBlock()->getTerminator());
    Value p = LLVM::IntToPtrOp::create(b, loc, tmemPtr, tmem);
    NVVM::Tcgen05DeallocOp::create(b, loc, p, nCols);
  }
  return success();
}

struct AllocateTmemPass : mlir::attncc::impl::AllocateTmemBase<AllocateTmemPass> {
  void runOnOperation() override {
    if (failed(mlir::attncc::forEachTiledKernel(getOperation(), allocate)))
      signalPassFailure();
  }
};

} // namespace
