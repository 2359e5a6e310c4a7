//===- PlaceWaits.cpp - attncc-place-waits (when copies and products land) ===//
//
// Pre:  outlined tiled kernels after attncc-allocate-smem. Staged blocks are
//       vector.transfer_reads marked attncc.stage (sync, cp or tma) whose
//       result has layout "smem"; wgmma contractions are marked attncc.atom
//       = "wgmma...".
// Post: the kernel says when its asynchronous work is issued, waited for and
//       visible, with core ops:
//         nvvm.cp.async.commit.group           after each cp.async-staged copy
//         nvvm.cp.async.wait.group N           before the first reader of a
//                                              block: N later copies may stay
//                                              in flight
//         nvvm.fence.proxy <async.shared>      (wgmma kernels) shared memory
//                                              written by threads becomes
//                                              visible to the async proxy
//         gpu.barrier                          every thread's part of a block
//                                              landed / every warp is done
//                                              with the buffer a copy refills;
//                                              nvvm.barrier id = 15 with the
//                                              consumers' thread count when a
//                                              producer warp (WSPEC) does not
//                                              take part
//         nvvm.wgmma.wait.group.sync.aligned N before the first reader of a
//                                              wgmma product: N later groups
//                                              may stay in flight
//         nvvm.inline_ptx "" rw(%acc ...)      after that wait: a register
//                                              fence on the accumulators of
//                                              every group now complete, so
//                                              no access of them moves above
//                                              the wait
//         monoid.tma_wait %blk                 before the first reader of a
//                                              TMA-staged block
//         monoid.tma_release %blk [unless %c]  after its last reader in a fold
//                                              iteration (or at the end of
//                                              it): its slot may be refilled;
//                                              unless it is one of the blocks
//                                              of its buffer the iteration
//                                              passes on
//       (attncc-lower-copies turns the last two into nvgpu.mbarrier ops on
//       the buffer's mbarriers, with the counts that pick a slot and a
//       phase as private counters).
//
// Algorithm: one walk in program order with two ledgers, the staged copies
// issued and not waited for, and the wgmma groups committed and not waited
// for (groups of each kind complete in order, so a wait names how many
// later ones may stay in flight):
//   * before an op that reads a pending product: wait for it; before an op
//     with regions, and at the end of a loop body, a branch and the kernel:
//     wait for every pending product (an scf.if waits only for the products
//     its regions read; each branch starts with an empty ledger of its own);
//   * a run of adjacent staged copies is preceded by one barrier (every warp
//     is done with the buffers they refill), after a wait for every pending
//     product (a product may still read such a buffer); a ring's prefetch at
//     the top of the fold also waits there for the blocks the loop carried
//     in, so that one barrier says both;
//   * before a contraction reads a staged block: wait for the block (later
//     copies stay in flight) and a barrier;
//   * a TMA block is released right after the wgmma wait that completes
//     its last reader in the iteration, or else at the end of the
//     iteration, unless the iteration passes it on;
//   * blocks copied before a loop and not carried into it are waited for
//     once, before the loop; a loop that leaves copies pending (the last
//     prefetch, never read) waits for them after it;
//   * GRID=persistent's tile loop (attncc.tile_loop) is not a fold: its
//     iteration releases no block it read, only, at its end, the blocks a
//     fold carried out and a later op waited for (OVERLAP=pv's last P*V)
//     and the other blocks of their buffer that fold carried out; their
//     ring's reads are marked attncc.ring_tail (attncc-lower-copies issues
//     them unguarded).
// (Until 2026-12-01 the CUDA emitter ran this ledger while it printed.)
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#define DEBUG_TYPE "attncc-place-waits"

namespace mlir::attncc {
#define GEN_PASS_DEF_PLACEWAITS
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// The name a staged block or product goes by in comments (its NameLoc).
std::string nameOf(Value v) {
  if (auto n = dyn_cast<NameLoc>(v.getLoc()))
    return n.getName().str();
  if (auto a = dyn_cast<BlockArgument>(v))
    if (auto f = dyn_cast<scf::ForOp>(a.getOwner()->getParentOp()); f && a.getArgNumber() >= 1)
      return nameOf(f.getInitArgs()[a.getArgNumber() - 1]);
  return "a block";
}

bool isCp(Value staged) {
  return monoid::isCp(monoid::stagedRead(staged));
}

class Placer {
public:
  Placer(gpu::GPUFuncOp f) : b(f.getContext()), kernel(f) {
    persistent = f->hasAttr("attncc.persistent");
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    warps = tile.getAs<IntegerAttr>("warps").getInt();
    if (auto p = tile.getAs<IntegerAttr>("producers"))
      producers = p.getInt();
    // tcgen05.mma reads shared memory through the async proxy too: the same
    // proxy fence after threads' (cp.async) writes.
    f.walk([&](vector::ContractionOp c) { wgmma = wgmma || monoid::isWgmma(c) || monoid::isTcgen05(c); });
  }

  LogicalResult run(gpu::GPUFuncOp f) {
    Block &body = f.getBody().front();
    visitBlock(body);
    b.setInsertionPoint(body.getTerminator());
    flushMma();
    return status;
  }

private:
  OpBuilder b;
  gpu::GPUFuncOp kernel;
  bool persistent = false;          // GRID=persistent: rings must balance per tile
  SmallVector<Value> tailBlocks;    // TMA blocks a fold carried out and a later op waited for
  int64_t warps = 0, producers = 0;
  bool wgmma = false;
  SmallVector<Value> pendingStages; // staged copies issued, not yet waited for
  SmallVector<Value> pendingMma;    // wgmma products committed, not yet waited for
  bool inIssueRun = false;          // the last op issued a staged copy
  DenseSet<Value> tmaWaited;        // TMA blocks waited for
  DenseSet<Value> tmaReleased;      // TMA blocks whose slots were given back
  LogicalResult status = success();

  Location note(const std::string &text) { return NameLoc::get(b.getStringAttr(text)); }

  /// A CTA barrier among the threads that compute (not a producer warp).
  void barrier(const std::string &why) {
    if (!producers) {
      gpu::BarrierOp::create(b, note(why));
      return;
    }
    auto i32 = [&](int64_t v, const char *name) {
      return arith::ConstantOp::create(b, note(name), b.getI32IntegerAttr(v)).getResult();
    };
    Value id = i32(15, "consumers_barrier"), n = i32(warps * 32, "consumer_threads");
    NVVM::BarrierOp::create(b, note(why), TypeRange{}, id, n, NVVM::BarrierReductionAttr{}, Value{});
  }

  void fenceProxy() {
    NVVM::FenceProxyOp::create(b, note("visible to wgmma"), NVVM::ProxyKind::async_shared,
                                 NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
  }

  /// Wait until product `v` is done (the groups committed after it may stay
  /// in flight) and fence the accumulators of every group that now is.
  void waitMma(Value v) {
    auto it = llvm::find(pendingMma, v);
    if (it == pendingMma.end())
      return;
    NVVM::WgmmaWaitGroupSyncOp::create(b, note(nameOf(v) + " is done"), pendingMma.end() - it - 1);
    SmallVector<Value> done(pendingMma.begin(), it + 1);
    NVVM::InlinePtxOp::create(b, note("the accumulators of the completed groups"), TypeRange{}, ValueRange{},
                                ValueRange(done), b.getStringAttr(""), Value{});
    pendingMma.erase(pendingMma.begin(), it + 1);
    // A TMA block whose last reader in this iteration just completed goes
    // back to the producer now, not at the end of the iteration.
    for (Value d : done) {
      Operation *c = d.getDefiningOp();
      for (Value blk : c->getOperands())
        if (releasableAfter(blk, c))
          release(blk, carriedLike(blk), c);
    }
  }

  /// Whether `blk`, a TMA block of the fold body that holds `c`, is free
  /// once `c` completes: read in this iteration, not passed on, no later op
  /// of the body reads it, and the wait is placed at the body's level.
  bool releasableAfter(Value blk, Operation *c) {
    auto loop = dyn_cast_or_null<scf::ForOp>(c->getParentOp());
    if (!loop || b.getInsertionBlock() != c->getBlock() || tmaReleased.contains(blk) ||
        !tmaWaited.contains(blk) || !monoid::tmaBlock(blk))
      return false;
    bool ofLoop = isa<BlockArgument>(blk) ? cast<BlockArgument>(blk).getOwner() == loop.getBody()
                                          : blk.getParentBlock() == loop.getBody();
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (!ofLoop || llvm::is_contained(yield.getOperands(), blk))
      return false;
    for (Operation *u : blk.getUsers()) {
      if (isa<monoid::TmaWaitOp, monoid::TmaReleaseOp>(u))
        continue;
      Operation *at = loop.getBody()->findAncestorOpInBlock(*u);
      if (at && at != c && c->isBeforeInBlock(at))
        return false;
    }
    return true;
  }

  /// The blocks of `blk`'s buffer that the loop carrying `blk` passes on to
  /// the next iteration (not fresh reads): `blk` may be one of them at run
  /// time.
  SmallVector<Value> carriedLike(Value blk) {
    SmallVector<Value> carried;
    auto arg = dyn_cast<BlockArgument>(blk);
    if (!arg)
      return carried;
    auto loop = cast<scf::ForOp>(arg.getOwner()->getParentOp());
    int64_t at = monoid::smemOffset(monoid::stagedRead(blk));
    for (Value y : cast<scf::YieldOp>(loop.getBody()->getTerminator()).getOperands())
      if (auto ry = monoid::tmaBlock(y); ry && monoid::smemOffset(ry) == at && !y.getDefiningOp<vector::TransferReadOp>())
        carried.push_back(y);
    return carried;
  }

  void release(Value blk, ArrayRef<Value> carried, Operation *at) {
    if (!tmaWaited.contains(blk)) {
      status = at->emitOpError("attncc-place-waits: a TMA block is released before it is read");
      return;
    }
    tmaReleased.insert(blk);
    monoid::TmaReleaseOp::create(b, note("this warp is done with " + nameOf(blk)), blk, carried);
  }

  void flushMma() {
    if (!pendingMma.empty())
      waitMma(pendingMma.back());
  }

  /// Before staged block `v` is read: its copy has landed (later copies may
  /// stay in flight) and every thread's part of it is visible.
  void waitStage(Value v) {
    if (monoid::isTma(monoid::stagedRead(v))) {
      if (monoid::tmaBlock(v) && tmaWaited.insert(v).second) {
        monoid::TmaWaitOp::create(b, note(nameOf(v) + " landed"), v);
        if (persistent && v.getDefiningOp<scf::ForOp>())
          waitedAfterFold(v);
      }
      return;
    }
    auto it = llvm::find(pendingStages, v);
    if (it == pendingStages.end())
      return;
    if (isCp(v))
      NVVM::CpAsyncWaitGroupOp::create(b, note(nameOf(v) + " landed"), pendingStages.end() - it - 1);
    if (wgmma)
      fenceProxy();
    barrier(nameOf(v) + " is in shared memory");
    pendingStages.erase(pendingStages.begin(), it + 1);
  }

  /// GRID=persistent: a block a fold carried out and an op after it reads
  /// (OVERLAP=pv's last P*V). That fold waits for one more fill than it has
  /// blocks (its wait count runs one ahead), so its ring keeps the prefetch
  /// past the end: its reads are marked attncc.ring_tail, which
  /// attncc-lower-copies does not guard. The tile loop releases the block,
  /// and the prefetch, at the end of its iteration (releaseTails).
  void waitedAfterFold(Value v) {
    tailBlocks.push_back(v);
    Attribute ring = monoid::tmaBlock(v)->getAttr("attncc.ring");
    if (!ring)
      return;
    kernel.walk([&](vector::TransferReadOp r) {
      if (r->getAttr("attncc.ring") == ring)
        r->setAttr("attncc.ring_tail", b.getUnitAttr());
    });
  }

  /// At the end of a tile loop's iteration (after every product is done):
  /// each block waited for after its fold goes back to the producer, and so
  /// do the other blocks of its buffer the fold carried out (the prefetch
  /// past the end, which that wait waited for), unless they share its slot
  /// (an empty fold carries the first block out twice).
  void releaseTails() {
    for (Value v : tailBlocks) {
      auto loop = v.getDefiningOp<scf::ForOp>();
      int64_t at = monoid::smemOffset(monoid::tmaBlock(v));
      if (!tmaReleased.contains(v))
        release(v, {}, loop);
      for (Value r : loop.getResults())
        if (r != v && monoid::tmaBlock(r) && monoid::smemOffset(monoid::tmaBlock(r)) == at &&
            tmaReleased.insert(r).second)
          monoid::TmaReleaseOp::create(b, note("this warp is done with " + nameOf(r)), r, ValueRange{v});
    }
    tailBlocks.clear();
  }

  void visitBlock(Block &block) {
    SmallVector<Operation *> ops;
    for (Operation &op : block.without_terminator())
      ops.push_back(&op);
    for (Operation *op : ops)
      visitOp(op);
  }

  void visitOp(Operation *op) {
    b.setInsertionPoint(op);
    if (!pendingMma.empty()) {
      if (auto i = dyn_cast<scf::IfOp>(op)) {
        i->walk([&](Operation *in) {
          for (Value v : in->getOperands())
            if (Operation *def = v.getParentBlock()->getParentOp(); !def || !i->isAncestor(def))
              waitMma(v);
        });
      } else if (op->getNumRegions()) {
        flushMma();
      } else {
        for (Value v : op->getOperands())
          waitMma(v);
      }
    }
    auto read = dyn_cast<vector::TransferReadOp>(op);
    bool staged = read && monoid::isStagedBlock(read.getResult());
    if (!isa<arith::ConstantOp>(op) && !staged)
      inIssueRun = false;
    if (staged && !monoid::isTma(read))
      return visitCopy(read);
    if (auto c = dyn_cast<vector::ContractionOp>(op)) {
      if (monoid::isStagedBlock(c.getLhs()))
        waitStage(c.getLhs());
      if (monoid::isStagedBlock(c.getRhs()))
        waitStage(c.getRhs());
      if (monoid::isWgmma(c))
        pendingMma.push_back(c.getResult());
      return;
    }
    if (auto f = dyn_cast<scf::ForOp>(op))
      return visitFor(f);
    if (auto i = dyn_cast<scf::IfOp>(op))
      return visitIf(i);
  }

  void visitCopy(vector::TransferReadOp op) {
    if (!inIssueRun)
      flushMma(); // no product may still read a buffer this copy overwrites
    if (!inIssueRun && op->hasAttr("attncc.ring") && !pendingStages.empty()) {
      // A ring's prefetch at the top of the fold: the blocks this iteration
      // reads were copied an iteration ago. Waiting for them here lets one
      // barrier say both "they are in shared memory" and "every warp is
      // done with the buffers the prefetch overwrites".
      std::string names;
      for (Value v : pendingStages)
        names += (names.empty() ? "" : ", ") + nameOf(v);
      if (llvm::any_of(pendingStages, isCp))
        NVVM::CpAsyncWaitGroupOp::create(b, note(names + " landed"), 0);
      if (wgmma)
        fenceProxy();
      barrier(names + " in shared memory; every warp is done with the previous blocks");
      pendingStages.clear();
    } else if (!inIssueRun) {
      barrier("every warp is done with the previous blocks");
    }
    if (isCp(op.getResult())) {
      b.setInsertionPointAfter(op);
      NVVM::CpAsyncCommitGroupOp::create(b, note(nameOf(op.getResult()) + " is one group"));
    }
    pendingStages.push_back(op.getResult());
    inIssueRun = true;
  }

  void visitFor(scf::ForOp f) {
    // Copies issued before the loop and not carried into it (a free-axis
    // tile) are waited for here, once, not in every iteration.
    Value lastFree;
    for (Value p : pendingStages)
      if (!llvm::is_contained(f.getInitArgs(), p))
        lastFree = p;
    if (lastFree)
      waitStage(lastFree);
    // Blocks copied before the loop (or by the previous iteration) arrive
    // in the iter_args that carry them.
    for (auto [init, arg] : llvm::zip(f.getInitArgs(), f.getRegionIterArgs()))
      for (Value &p : pendingStages)
        if (p == init)
          p = arg;
    visitBlock(*f.getBody());
    auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
    b.setInsertionPoint(yield);
    flushMma();
    if (monoid::isTileLoop(f))
      releaseTails();
    // TMA blocks this iteration read and does not pass on: their slots are
    // free for the fills of later iterations. Candidates: the blocks
    // carried in, and blocks read in this body without a ring (d1: one
    // buffer, refilled every iteration).
    // (Not in GRID=persistent's tile loop: a tile's first blocks go to its
    // fold, which releases them.)
    SmallVector<Value> blocks(f.getRegionIterArgs());
    for (auto r : f.getBody()->getOps<vector::TransferReadOp>())
      if (!monoid::isTileLoop(f))
        blocks.push_back(r.getResult());
    for (Value blk : blocks)
      if (monoid::tmaBlock(blk) && !llvm::is_contained(yield.getOperands(), blk) && !tmaReleased.contains(blk))
        release(blk, carriedLike(blk), f);
    if (!pendingStages.empty()) {
      // The last prefetch is never read; it must land before the CTA exits.
      b.setInsertionPointAfter(f);
      NVVM::CpAsyncWaitGroupOp::create(b, note("the last prefetch landed"), 0);
      pendingStages.clear();
    }
  }

  void visitIf(scf::IfOp op) {
    // Products issued before the branch and not read in it stay pending
    // across it; each branch waits for its own.
    SmallVector<Value> outer;
    std::swap(outer, pendingMma);
    for (Region *r : {&op.getThenRegion(), &op.getElseRegion()}) {
      if (r->empty())
        continue;
      visitBlock(r->front());
      b.setInsertionPoint(r->front().getTerminator());
      flushMma();
    }
    pendingMma.insert(pendingMma.begin(), outer.begin(), outer.end());
  }
};

struct PlaceWaits : mlir::attncc::impl::PlaceWaitsBase<PlaceWaits> {
  void runOnOperation() override {
    getOperation().walk([&](gpu::GPUFuncOp f) {
      if (f.isKernel() && f->hasAttr("attncc.tile") && failed(Placer(f).run(f)))
        signalPassFailure();
    });
  }
};

} // namespace
