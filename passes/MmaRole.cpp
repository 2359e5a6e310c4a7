//===- MmaRole.cpp - attncc-mma-role (WSPEC=load1/mma1 with tcgen05) ------===//
//
// Pre:  an outlined tiled kernel after attncc-lower-tcgen05 whose
//       attncc.tile has mma = 1 (WSPEC=load1/mma1: after the W row warps,
//       warp W is the TMA producer, warp W + 1 the mma warp), split by
//       attncc-warp-specialize (the scf.if marked attncc.roles) and with
//       attncc-allocate-tmem's second mbarrier (the view marked
//       attncc.mma_ready, W * 32 arrivals a phase). Each tcgen05 product
//       of the row warps is, from attncc-lower-tcgen05,
//         ... nvvm.tcgen05.fence before
//         <barrier of the row warps> {attncc.issue_sync}
//         nvvm.tcgen05.fence after
//         scf.if thread 0 {attncc.issue} { descriptors, MMAs, commit }
//         <wait on mma_done>, fence after, tcgen05.ld ...
// Post: the products are issued by the mma warp, FlashAttention-4's mma
//       role. In the row warps each product becomes
//         ... nvvm.tcgen05.fence before
//         nvvm.mbarrier.arrive %mma_ready      the operands are in place
//         <wait on mma_done>, fence after, tcgen05.ld ...
//       and the TMA waits for K and V blocks (nvgpu.mbarrier.try_wait.parity
//       on their full barriers) leave the row warps: only the products read
//       the blocks. In the producer branch, after the TMA warp's region:
//         scf.if %warp == W + 1 {                      the mma warp
//           <the loops of the row warps around the products, with the
//            iter_args, index math and ring counters the products and the
//            TMA waits need, and nothing else>
//           per TMA wait: the same wait (the blocks the products read)
//           per product:
//             nvvm.mbarrier.try_wait.parity %mma_ready (a counter in a
//                 private alloca, its parity), nvvm.tcgen05.fence after
//             scf.if lane == 0 { the descriptors, MMAs and the commit }
//         }
//       The row warps keep their wait on mma_done after every product (the
//       protocol stays one product at a time: the ready and done phases
//       alternate, so neither mbarrier can run a phase ahead) and release
//       the K and V slots after it, as before.
//       Two Q tiles (w8x1, attncc.tile.tmem_qtile): the issue blocks come
//       one per Q tile (attncc.qtile = g), each committing to its tile's
//       mma_done; warpgroup g arrives on its own mma_ready (element 2g of
//       the view), and the mma warp waits on tile g's before it issues
//       tile g's block (one count a product: both tiles wait for the same
//       phase). So warpgroup 0 runs its softmax while tile 1's product is
//       computed, and the other way round (seed 000, chapter 5).
//       OVERLAP=early: a P*V comes in two parts, and the second part's
//       barrier and issue blocks (attncc.early_part) use allocate-tmem's
//       p_ready mbarrier and a count of their own, so that the row warps'
//       two arrivals in a row cannot complete two phases of one mbarrier
//       before the mma warp has waited for the first. With a correction
//       warpgroup, attncc-corr-role (which runs first) has put the wait on
//       o_ready into P*V's first issue blocks; they are cloned with it.
// Refused: a product or a TMA wait inside a branch of the row warps, or one
//       whose operands depend on a branch's result.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidDialect.h"
#include "ir/TileAttrs.h"
#include "passes/AtomUtils.h"
#include "passes/KernelConstants.h"
#include "passes/Passes.h"
#include "passes/RoleSlice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "attncc-mma-role"

namespace mlir::attncc {
#define GEN_PASS_DEF_MMAROLE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct MmaRole : mlir::attncc::impl::MmaRoleBase<MmaRole> {
  Value parity;     // the mma warp's wait of the product being cloned
  Value readyBars;  // the mma_ready view (Q tile g's mbarrier: qtileMbarrier)
  Value pReadyBars; // OVERLAP=early: the p_ready view, for the second part of a P*V
  Value pWaits;     // and the mma warp's count of waits on it
  LogicalResult split(gpu::GPUFuncOp f) {
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    if (!tile || !tile.getAs<IntegerAttr>("mma"))
      return success();
    int64_t warps = tile.getAs<IntegerAttr>("warps").getInt();
    int64_t producers = tile.getAs<IntegerAttr>("producers") ? tile.getAs<IntegerAttr>("producers").getInt() : 0;
    scf::IfOp roles;
    f.walk([&](scf::IfOp i) {
      if (i->hasAttr("attncc.roles"))
        roles = i;
    });
    memref::ViewOp readyView, pReadyView;
    f.walk([&](memref::ViewOp v) {
      if (v->hasAttr("attncc.mma_ready"))
        readyView = v;
      if (v->hasAttr("attncc.p_ready"))
        pReadyView = v;
    });
    if (!roles || !readyView)
      return f.emitOpError("attncc-mma-role: needs the warp roles of attncc-warp-specialize and the mbarrier "
                           "of attncc-allocate-tmem");
    Block &rows = roles.getElseRegion().front();
    // The mma warp runs every product's issue block and TMA wait, and what
    // they need (their operands' backward slice, the loops around them).
    auto seed = [](Operation *op) { return op->hasAttr("attncc.issue") || isa<nvgpu::MBarrierTryWaitParityOp>(op); };
    mlir::attncc::RoleSlice slice(rows, seed, /*operands=*/true, "attncc-mma-role",
                                  "attncc-mma-role: WSPEC=load1/mma1: a tcgen05 product or a TMA wait inside a "
                                  "branch of the row warps is not supported");
    if (failed(slice.build()))
      return failure();

    MLIRContext *ctx = f.getContext();
    Location loc = f.getLoc();
    OpBuilder b(ctx);
    mlir::attncc::KernelConstants consts(f);
    // The ready mbarrier's pointer, where both roles see it.
    b.setInsertionPointAfter(readyView);
    Value readyPtr = mlir::attncc::sharedPointer(b, loc, readyView, Value(), monoid::named(loc, "mma_ready"));
    // Two Q tiles: each warpgroup arrives on its own mbarrier, the mma warp
    // waits on each before it issues that tile's product.
    readyBars = readyView;
    bool perTile = static_cast<bool>(tile.getAs<IntegerAttr>("tmem_qtile"));
    // The row warps' mbarrier, made where they arrive rather than kept
    // live through the fold.
    // OVERLAP=early: the second part of a P*V (attncc.early_part) goes
    // through p_ready, so the row warps' two arrivals in a row land on two
    // mbarriers and neither can run a phase ahead of the mma warp.
    pReadyBars = pReadyView;
    auto rowReady = [&](bool second) -> Value {
      if (second)
        return perTile ? mlir::attncc::myQtileMbarrier(b, loc, pReadyView, consts, monoid::named(loc, "p_ready_mine"))
                       : mlir::attncc::sharedPointer(b, loc, pReadyView, Value(), monoid::named(loc, "p_ready"));
      return perTile ? mlir::attncc::myQtileMbarrier(b, loc, readyView, consts, monoid::named(loc, "mma_ready_mine"))
                     : readyPtr;
    };

    // The mma warp, after the producer's region.
    b.setInsertionPoint(roles.getThenRegion().front().getTerminator());
    Value warp = gpu::SubgroupIdOp::create(b, monoid::named(loc, "warp"), /*upperBound=*/nullptr);
    Value isMma = arith::CmpIOp::create(b, monoid::named(loc, "mma_warp"), arith::CmpIPredicate::eq, warp,
                                          consts.index(warps + producers));
    auto mma = scf::IfOp::create(b, loc, isMma, /*withElseRegion=*/false);
    mma->setAttr("attncc.mma_role", b.getUnitAttr());
    b.setInsertionPoint(mma.thenBlock()->getTerminator());
    Value lane = gpu::LaneIdOp::create(b, monoid::named(loc, "lane"), /*upperBound=*/nullptr);
    Value issuer = arith::CmpIOp::create(b, monoid::named(loc, "issuer"), arith::CmpIPredicate::eq, lane,
                                           consts.index(0));
    Value waits = mlir::attncc::privateArray(f, loc, "ready_waits", {}, b.getI32Type());
    memref::StoreOp::create(b, loc, consts.i32(0), waits, ValueRange{});
    if (pReadyView) {
      pWaits = mlir::attncc::privateArray(f, loc, "p_ready_waits", {}, b.getI32Type());
      memref::StoreOp::create(b, loc, consts.i32(0), pWaits, ValueRange{});
    }
    IRMapping map;
    mlir::attncc::cloneRole(b, rows, slice, map, [&](Operation &op, IRMapping &m) {
      cloneIssue(b, op, m, readyPtr, waits, issuer, consts);
    });

    // The row warps: arrive where they met, no longer issue, no longer wait
    // for the blocks.
    SmallVector<Operation *> issues, syncs, tmaWaits;
    rows.walk([&](Operation *op) {
      if (op->hasAttr("attncc.issue"))
        issues.push_back(op);
      else if (op->hasAttr("attncc.issue_sync"))
        syncs.push_back(op);
      else if (isa<nvgpu::MBarrierTryWaitParityOp>(op))
        tmaWaits.push_back(op);
    });
    for (Operation *s : syncs) {
      Operation *fence = s->getNextNode();
      auto after = dyn_cast_or_null<NVVM::Tcgen05FenceOp>(fence);
      if (!after || after.getKind() != NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC)
        return s->emitOpError("attncc-mma-role: expected nvvm.tcgen05.fence <after> after the product's barrier");
      b.setInsertionPoint(s);
      bool second = s->hasAttr("attncc.early_part");
      if (second && !pReadyView)
        return s->emitOpError("attncc-mma-role: a second part of a product (OVERLAP=early) needs attncc-allocate-tmem's "
                              "p_ready mbarrier");
      NVVM::MBarrierArriveOp::create(b, monoid::named(loc, "the operands are in tensor memory and the last results "
                                                           "were read"),
                                       Type{}, rowReady(second), Value{});
      fence->erase();
      s->erase();
    }
    // What only the erased ops read (the issuing thread's test, the
    // parities of the TMA waits) goes too.
    llvm::SetVector<Operation *> dead;
    auto erase = [&](Operation *op) {
      for (Value v : op->getOperands())
        if (Operation *d = v.getDefiningOp())
          dead.insert(d);
      dead.remove(op);
      op->erase();
    };
    for (Operation *op : issues)
      erase(op);
    for (Operation *op : tmaWaits)
      erase(op);
    while (!dead.empty()) {
      Operation *d = dead.pop_back_val();
      if (isOpTriviallyDead(d))
        erase(d);
    }
    return success();
  }

  /// The mma warp's copy of a slice op: an issue block becomes the wait
  /// for the operands and lane 0's issue; anything else is cloned.
  void cloneIssue(OpBuilder &b, Operation &op, IRMapping &map, Value readyPtr, Value waits, Value issuer,
                  mlir::attncc::KernelConstants &consts) {
    Location loc = op.getParentOp()->getLoc(); // the enclosing loop's: its name names the counters
    if (!op.hasAttr("attncc.issue")) {
      b.clone(op, map);
      return;
    }
    // One phase a product: Q tile g > 0's issue block follows tile 0's
    // of the same product and waits for the same phase on its own
    // mbarrier.
    auto qtile = op.getAttrOfType<IntegerAttr>("attncc.qtile");
    int64_t g = qtile ? qtile.getInt() : 0;
    bool second = op.hasAttr("attncc.early_part"); // OVERLAP=early: on p_ready, counted apart
    if (g == 0) {
      Value counter = second ? pWaits : waits;
      Value count = memref::LoadOp::create(b, loc, counter, ValueRange{});
      memref::StoreOp::create(b, loc, Value(arith::AddIOp::create(b, loc, count, consts.i32(1))), counter, ValueRange{});
      parity = arith::AndIOp::create(b, monoid::named(loc, "parity"), count, consts.i32(1));
    }
    Value tileReady =
        second ? mlir::attncc::qtileMbarrier(b, loc, pReadyBars, g, consts,
                                             monoid::named(loc, g ? "p_ready_q" + std::to_string(g) : std::string("p_ready")))
        : g    ? mlir::attncc::qtileMbarrier(b, loc, readyBars, g, consts,
                                             monoid::named(loc, "mma_ready_q" + std::to_string(g)))
               : readyPtr;
    NVVM::MBarrierTryWaitParityOp::create(b, monoid::named(loc, "the operands are ready"), tileReady, parity,
                                            consts.i32(10000000));
    NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    auto issue = scf::IfOp::create(b, op.getLoc(), issuer, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(issue.thenBlock()->getTerminator());
    for (Operation &in : cast<scf::IfOp>(op).thenBlock()->without_terminator())
      b.clone(in, map);
  }

  void runOnOperation() override {
    if (failed(mlir::attncc::forEachTiledKernel(getOperation(), [&](gpu::GPUFuncOp f) { return split(f); })))
      signalPassFailure();
  }
};

} // namespace
