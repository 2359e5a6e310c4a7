//===- WarpSpecialize.cpp - attncc-warp-specialize (WSPEC=load1|load4) ----===//
//
// Pre:  an outlined tiled kernel after attncc-place-waits whose attncc.tile
//       has producers = P (WSPEC=load1: P = 1, load4: P = 4 warps after the
//       W warps that hold rows), with its blocks staged by TMA
//       (attncc.stage = #monoid.staged<tma, swz>).
// Post: the kernel body is split by warp role:
//         %warp = gpu.subgroup_id, %lane = gpu.lane_id
//         scf.if %warp >= W {                    attncc.roles: the producers
//           nvvm.setmaxregister decrease 40      (load4: a whole warpgroup;
//                                                 56 with tcgen05's load and
//                                                 mma warps and two idle ones,
//                                                 attncc.tile.idle = 2)
//           scf.if %warp == W { scf.if lane == 0 {   one thread issues every copy
//             <the TMA copies, the index math they need, and the loops
//              around them as bare counted loops>
//           } }
//         } else {                               the consumers
//           nvvm.setmaxregister increase R       (load4, idle: R = the registers the
//                                                 producers leave, per thread,
//                                                 at most 256)
//           <the kernel as it was>
//         }
//       The kernel's shared memory (attncc-allocate-smem's views and
//       mbarriers, and their initialization) stays before the split.
//       The producer's TMA reads are clones of the consumers' (same staging,
//       ring and shared-memory offset): the producer issues each copy as soon
//       as its slot is free, the consumers only wait for it to land.
//       Under GRID=persistent the tile loop holds the copies, so the
//       producer runs its own bare copy of it (attncc.tile_loop kept):
//       set-up and setmaxnreg once, then every tile of the CTA.
// Refused: a TMA copy inside a branch, or one whose index depends on the
// fold's carried state (the producer runs the loops without it).
// (Until 2026-12-01 the CUDA emitter computed this slice, collectProducerOps,
// and printed the body twice.)
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidDialect.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "attncc-warp-specialize"

namespace mlir::attncc {
#define GEN_PASS_DEF_WARPSPECIALIZE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

bool holdsTma(Operation *op) {
  bool any = false;
  op->walk([&](vector::TransferReadOp r) { any = any || monoid::isTmaStaged(r); });
  return any;
}

/// The ops the producer needs: the TMA reads, the backward slice of their
/// indices and of the bounds of the loops around them. An index loop in it
/// (a clip) is needed whole, with what its body reads from outside.
LogicalResult producerSlice(gpu::GPUFuncOp f, DenseSet<Operation *> &slice) {
  SmallVector<Value> work;
  auto addOp = [&](Operation *d) {
    if (!slice.insert(d).second)
      return;
    for (Value v : d->getOperands())
      work.push_back(v);
    if (!isa<scf::ForOp>(d) || !holdsTma(d))
      d->walk([&](Operation *in) {
        for (Value v : in->getOperands())
          work.push_back(v);
      });
  };
  WalkResult bad = f.walk([&](vector::TransferReadOp r) {
    if (!monoid::isTmaStaged(r))
      return WalkResult::advance();
    slice.insert(r);
    for (Value v : r->getOperands()) // the indices, and the padding the clone names
      work.push_back(v);
    for (Operation *p = r->getParentOp(); p != f.getOperation(); p = p->getParentOp()) {
      auto l = dyn_cast<scf::ForOp>(p);
      if (!l) {
        r.emitOpError("attncc-warp-specialize: WSPEC=load1: a TMA copy inside a branch is not supported");
        return WalkResult::interrupt();
      }
      slice.insert(l);
      work.append({l.getLowerBound(), l.getUpperBound(), l.getStep()});
    }
    return WalkResult::advance();
  });
  if (bad.wasInterrupted())
    return failure();
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (Operation *d = v.getDefiningOp()) {
      addOp(d);
      continue;
    }
    auto arg = cast<BlockArgument>(v);
    auto l = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (l && arg != l.getInductionVar() && holdsTma(l))
      return l.emitOpError("attncc-warp-specialize: WSPEC=load1: a TMA copy's index depends on the fold's "
                           "carried state");
  }
  return success();
}

/// Clones the slice ops of `from` into the builder's block, in order; a
/// loop that holds TMA copies becomes a bare counted loop over its slice.
void cloneSlice(OpBuilder &b, Block &from, const DenseSet<Operation *> &slice, IRMapping &map) {
  for (Operation &op : from.without_terminator()) {
    if (!slice.contains(&op))
      continue;
    auto l = dyn_cast<scf::ForOp>(op);
    if (!l || !holdsTma(l)) {
      b.clone(op, map);
      continue;
    }
    auto bare = scf::ForOp::create(b, l.getLoc(), map.lookupOrDefault(l.getLowerBound()),
                                     map.lookupOrDefault(l.getUpperBound()), map.lookupOrDefault(l.getStep()));
    bare.getInductionVar().setLoc(l.getInductionVar().getLoc());
    if (monoid::isTileLoop(l)) // GRID=persistent: the producer runs every tile of its CTA too
      bare->setAttr("attncc.tile_loop", l->getAttr("attncc.tile_loop"));
    map.map(l.getInductionVar(), bare.getInductionVar());
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(bare.getBody()->getTerminator());
    cloneSlice(b, *l.getBody(), slice, map);
  }
}

struct WarpSpecialize : mlir::attncc::impl::WarpSpecializeBase<WarpSpecialize> {
  LogicalResult specialize(gpu::GPUFuncOp f) {
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    auto p = tile ? tile.getAs<IntegerAttr>("producers") : IntegerAttr();
    if (!p)
      return success();
    int64_t producers = p.getInt(), warps = tile.getAs<IntegerAttr>("warps").getInt();
    DenseSet<Operation *> slice;
    if (failed(producerSlice(f, slice)))
      return failure();

    Block &body = f.getBody().front();
    Operation *ret = body.getTerminator();
    // The shared memory attncc-allocate-smem wrote (buffers, mbarriers and
    // their initialization) stays before the split: both roles use it.
    Operation *shared = nullptr;
    for (Operation &op : body.without_terminator())
      if (isa<gpu::DynamicSharedMemoryOp, memref::ViewOp, nvgpu::MBarrierCreateOp>(op) ||
          (isa<gpu::BarrierOp>(op) && op.getPrevNode() &&
           op.getPrevNode()->walk([](nvgpu::MBarrierInitOp) { return WalkResult::interrupt(); }).wasInterrupted()))
        shared = &op;
    SmallVector<Operation *> kernel;
    for (Operation &op : body.without_terminator())
      if (shared && (op.isBeforeInBlock(shared) || &op == shared))
        continue;
      else
        kernel.push_back(&op);

    Location loc = f.getLoc();
    OpBuilder b(ret);
    auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
    // The warp (subgroup) and lane of this thread.
    Value warp = gpu::SubgroupIdOp::create(b, monoid::named(loc, "warp"), /*upper_bound=*/nullptr);
    Value lane = gpu::LaneIdOp::create(b, monoid::named(loc, "lane"), /*upper_bound=*/nullptr);
    Value isProducer =
        arith::CmpIOp::create(b, monoid::named(loc, "producer"), arith::CmpIPredicate::sge, warp, index(warps));
    auto roles = scf::IfOp::create(b, loc, isProducer, /*withElseRegion=*/true);
    roles->setAttr("attncc.roles", b.getUnitAttr());

    // The consumers: the kernel as it was.
    Block *consumer = &roles.getElseRegion().front();
    for (Operation *op : kernel)
      op->moveBefore(consumer->getTerminator());
    // A producer warpgroup (load4; with tcgen05 the load and mma warps and
    // two idle ones, attncc.tile.idle) hands registers to the consumers:
    // setmaxnreg is per warpgroup, so it needs whole warpgroups.
    // With tcgen05's correction warpgroup (corr = 4, after the load/mma
    // one) the producer branch is two warpgroups, each keeping prodRegs.
    auto count = [&](StringRef k) {
      auto a = tile.getAs<IntegerAttr>(k);
      return a ? a.getInt() : 0;
    };
    int64_t others = producers + count("mma") + count("idle") + count("corr"); // whole warpgroups
    bool handOver = producers == 4 || count("idle") > 0;
    const int64_t prodRegs = producers == 4 ? 40 : 56; // the mma warp builds descriptors
    if (handOver) {
      int64_t consRegs = std::min<int64_t>(256, (65536 - 32 * others * prodRegs) / (warps * 32) / 8 * 8);
      b.setInsertionPointToStart(consumer);
      NVVM::SetMaxRegisterOp::create(b, loc, consRegs, NVVM::SetMaxRegisterAction::increase);
    }

    // The producers: one thread issues every copy.
    b.setInsertionPoint(roles.getThenRegion().front().getTerminator());
    if (handOver)
      NVVM::SetMaxRegisterOp::create(b, loc, prodRegs, NVVM::SetMaxRegisterAction::decrease);
    Value first = arith::CmpIOp::create(b, monoid::named(loc, "loader"), arith::CmpIPredicate::eq, warp, index(warps));
    auto firstWarp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(firstWarp.getThenRegion().front().getTerminator());
    Value lane0 = arith::CmpIOp::create(b, monoid::named(loc, "issuer"), arith::CmpIPredicate::eq, lane, index(0));
    auto issuer = scf::IfOp::create(b, loc, lane0, /*withElseRegion=*/false);
    b.setInsertionPoint(issuer.getThenRegion().front().getTerminator());
    IRMapping map;
    cloneSlice(b, *consumer, slice, map);
    return success();
  }

  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](gpu::GPUFuncOp f) {
      return failed(specialize(f)) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
