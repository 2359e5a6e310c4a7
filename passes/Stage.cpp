//===- Stage.cpp - attncc-stage (block operands through shared memory) ----===//
//
// Pre:  partitioned loop IR; the function carries attncc.schedule.
// Post: for STAGE@<axis>=d1/<transport>[/pad], each vector.contract in an
//       scf.for body whose right-hand operand is a vector.transfer_read in
//       the same body has that read marked
//         attncc.stage = #monoid.staged<transport[, pad|swz]>  (sync | cp |
//                                                   tma; tma only with swz and
//                                                   only on the fold axis)
//       and moved to the top of the body (after the ops its operands need),
//       keeping the reads' order. All block copies are then in flight before
//       the first contraction waits for one: V arrives while S = Q K^T and
//       the softmax run.
//       With d2/.../ring the loop is software-pipelined: each staged read is
//       issued once before the loop for the first block, and inside the loop
//       for the next block (index + step), carried to the next iteration in
//       an iter_arg. Both reads of one operand share a ring of 2 buffers
//       (attncc.ring = <id>), so block i+1 is copied while block i is used.
//       The last iteration prefetches past the end: those rows are
//       out of bounds and zero-filled, never read. Where every block is whole
//       (a static length that is a multiple of the block, blocks from a
//       multiple of it), a cp.async or sync ring prefetches min(i + step,
//       S - B) instead, in bounds: the last block again, never read, and no
//       per-row test in its copies. Indices computed in the
//       body from the loop index (a paged cache: the page from the block
//       table, the row in the page) are computed again for the next block
//       (their ops cloned with index + step; before the loop, with lo).
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "attncc-stage"

namespace mlir::attncc {
#define GEN_PASS_DEF_STAGE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

/// Whether a read can be copied in 16-byte chunks of rows along the
/// buffer's last dimension.
bool isStageable(vector::TransferReadOp r) {
  auto vt = r.getVectorType();
  auto mt = dyn_cast<MemRefType>(r.getBase().getType());
  int64_t bytes = vt.getRank() == 2 ? vt.getDimSize(1) * vt.getElementTypeBitWidth() / 8 : 0;
  return mt && bytes % 16 == 0 && r.getPermutationMap().isMinorIdentity() && r.isDimInBounds(1);
}

/// The axis the fold runs over: the one a tensor-core TILE names.
bool isFoldAxis(const ::attncc::Schedule &s, const std::string &axis) {
  for (const ::attncc::TileKnob &t : s.tiles)
    if (t.atom && t.axis == axis)
      return true;
  return false;
}

struct StagePass : mlir::attncc::impl::StageBase<StagePass> {
  int nextRing = 0;

  /// The ops of the loop's body that compute `r`'s indices from the loop
  /// index (a paged cache's page lookup: j / P, a load of the block table,
  /// j mod P), in order; fails if an index depends on the loop's carried
  /// state or on an op with regions or writes.
  LogicalResult indexSlice(scf::ForOp loop, vector::TransferReadOp r, SetVector<Operation *> &slice) {
    Value iv = loop.getInductionVar();
    SmallVector<Value> work(r->getOperands());
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (v == iv || loop.isDefinedOutsideOfLoop(v))
        continue;
      Operation *d = v.getDefiningOp();
      bool pure = d && d->getNumRegions() == 0 &&
                  (isMemoryEffectFree(d) || isa<memref::LoadOp>(d));
      if (!pure || d->getBlock() != loop.getBody())
        return r.emitOpError("attncc-stage: a ring needs the read's indices to be computed from "
                             "the loop index and loop-invariant values (by loads and arithmetic)");
      if (slice.insert(d))
        llvm::append_range(work, d->getOperands());
    }
    slice = topologicalSort(slice);
    return success();
  }

  /// The last block start S - B that keeps the prefetch of a cp.async or
  /// sync ring inside its buffer, when that needs no per-row test: the read
  /// takes B rows at the loop index (no index computed from it) along a
  /// buffer dimension of static size S, a multiple of B, and every block
  /// starts at a multiple of B (a constant lower bound, step B). Every block
  /// before the end is then whole, and the prefetch after the last one reads
  /// the last block again (never used) instead of rows past the end, so the
  /// read is in bounds. TMA tests its boxes' bounds itself.
  std::optional<int64_t> lastBlockStart(scf::ForOp loop, vector::TransferReadOp r,
                                        const SetVector<Operation *> &slice) {
    if (!slice.empty() || monoid::isTmaStaged(r))
      return std::nullopt;
    auto mt = dyn_cast<MemRefType>(r.getBase().getType());
    auto rows = dyn_cast<AffineDimExpr>(r.getPermutationMap().getResult(0));
    auto lb = getConstantIntValue(loop.getLowerBound()), step = getConstantIntValue(loop.getStep());
    if (!mt || !rows || !lb || !step || r.getIndices()[rows.getPosition()] != loop.getInductionVar())
      return std::nullopt;
    int64_t b = r.getVectorType().getDimSize(0), extent = mt.getDimSize(rows.getPosition());
    if (*step != b || *lb % b || ShapedType::isDynamic(extent) || extent % b || extent < b)
      return std::nullopt;
    return extent - b;
  }

  /// Reads of block i+1 inside the loop, of block lo before it; the loop
  /// carries the prefetched block.
  LogicalResult pipeline(scf::ForOp loop, ArrayRef<vector::TransferReadOp> staged, int slots) {
    Value iv = loop.getInductionVar();
    SmallVector<SetVector<Operation *>> slices(staged.size());
    for (auto [r, slice] : llvm::zip(staged, slices))
      if (failed(indexSlice(loop, r, slice)))
        return failure();
    SmallVector<std::optional<int64_t>> clamps;
    for (auto [r, slice] : llvm::zip(staged, slices))
      clamps.push_back(lastBlockStart(loop, r, slice));
    SmallVector<Location> argLocs;
    for (Value a : loop.getRegionIterArgs())
      argLocs.push_back(a.getLoc());
    Location ivLoc = iv.getLoc();
    IRRewriter rw(loop.getContext());
    rw.setInsertionPoint(loop);
    SmallVector<Value> first;
    SmallVector<int> ids;
    for (auto [r, slice] : llvm::zip(staged, slices)) {
      IRMapping m;
      m.map(iv, loop.getLowerBound());
      for (Operation *op : slice)
        rw.clone(*op, m);
      Operation *c = rw.clone(*r, m);
      int id = nextRing++;
      ids.push_back(id);
      c->setAttr("attncc.ring", rw.getI64IntegerAttr(id));
      c->setAttr("attncc.ring_slots", rw.getI64IntegerAttr(slots));
      first.push_back(c->getResult(0));
    }
    auto grown = loop.replaceWithAdditionalYields(
        rw, first, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args) {
          SmallVector<Value> next;
          Block *body = b.getInsertionBlock();
          Value niv = body->getArgument(0); // the body moved into the new loop
          auto newFor = cast<scf::ForOp>(body->getParentOp());
          b.setInsertionPointToStart(body);
          Value nextIv = arith::AddIOp::create(b, loc, niv, newFor.getStep());
          DenseMap<int64_t, Value> clamped; // one min per bound, shared by the reads
          for (auto [r, id, slice, clamp] : llvm::zip(staged, ids, slices, clamps)) {
            Value at = nextIv;
            if (clamp) {
              Value &min = clamped[*clamp];
              if (!min)
                min = arith::MinUIOp::create(b, monoid::named(loc, "next_block"), nextIv,
                                             arith::ConstantIndexOp::create(b, loc, *clamp));
              at = min;
            }
            IRMapping m;
            m.map(niv, at);
            for (Operation *op : slice)
              b.clone(*op, m);
            Operation *c = b.clone(*r, m);
            if (clamp) {
              auto read = cast<vector::TransferReadOp>(c);
              SmallVector<bool> inb(read.getInBoundsValues());
              inb[0] = true;
              read.setInBoundsAttr(b.getBoolArrayAttr(inb));
            }
            c->setAttr("attncc.ring", b.getI64IntegerAttr(id));
            c->setAttr("attncc.ring_slots", b.getI64IntegerAttr(slots));
            next.push_back(c->getResult(0));
          }
          return next;
        });
    if (failed(grown))
      return loop.emitOpError("attncc-stage: could not pipeline this loop");
    auto newLoop = cast<scf::ForOp>(grown->getOperation());
    newLoop.getInductionVar().setLoc(ivLoc); // keep the listing's names
    for (auto [a, l] : llvm::zip(newLoop.getRegionIterArgs(), argLocs))
      a.setLoc(l);
    auto args = newLoop.getRegionIterArgs().take_back(staged.size());
    for (auto [r, a] : llvm::zip(staged, args)) {
      vector::TransferReadOp read = r;
      read.getResult().replaceAllUsesWith(a);
      read.erase();
    }
    return success();
  }

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *sched = scheduleOf(f);
    if (!sched)
      return;
    const ::attncc::Schedule &s = *sched;
    for (const ::attncc::StageKnob &k : s.stages) {
      // The knob's legality (depths, rings, transports, layouts, axes) was
      // checked before lowering (checkSchedule, compiler/Targets.cpp).
      bool tma = k.transport == ::attncc::Transport::Tma;
      bool swz = k.swizzled(); // tma: always the 128-byte swizzle
      monoid::Transport transport = tma ? monoid::Transport::Tma
                                    : k.transport == ::attncc::Transport::CpAsync ? monoid::Transport::Cp
                                                                                  : monoid::Transport::Sync;
      monoid::Arrangement arrangement = k.layout == ::attncc::SmemLayout::Pad ? monoid::Arrangement::Pad
                                        : swz                                ? monoid::Arrangement::Swz
                                                                             : monoid::Arrangement::Plain;
      // The 128-byte swizzle permutes the 16-byte chunks of 128-byte rows:
      // a swizzled block's rows are whole 128-byte slabs.
      auto stageable = [&](vector::TransferReadOp r) {
        if (!isStageable(r))
          return false;
        auto vt = r.getVectorType();
        return !swz || vt.getDimSize(1) * vt.getElementTypeBitWidth() / 8 % 128 == 0;
      };
      auto markAttr = monoid::StagedAttr::get(f.getContext(), transport, arrangement);
      if (!isFoldAxis(s, k.axis)) {
        // A free axis (q): the contractions' left operands tiled over it,
        // read once before the fold (attncc-hoist), go to shared memory too;
        // each k-step then reads its A fragments with ldmatrix.
        f.walk([&](vector::ContractionOp c) {
          auto loop = c->getParentOfType<scf::ForOp>();
          auto r = c.getLhs().getDefiningOp<vector::TransferReadOp>();
          if (loop && r && loop.isDefinedOutsideOfLoop(r.getResult()) && stageable(r))
            r->setAttr("attncc.stage", markAttr);
        });
        continue;
      }

      // The blocks that hold contractions: fold bodies, and the map's body
      // when the fold had a single block and canonicalization removed it
      // (short key ranges); the latter are staged once, without a ring.
      SmallVector<Block *> blocks;
      f.walk([&](vector::ContractionOp c) {
        if (!llvm::is_contained(blocks, c->getBlock()))
          blocks.push_back(c->getBlock());
      });
      for (Block *body : blocks) {
        auto loop = dyn_cast<scf::ForOp>(body->getParentOp());
        SmallVector<vector::TransferReadOp> staged;
        for (auto c : body->getOps<vector::ContractionOp>()) {
          auto r = c.getRhs().getDefiningOp<vector::TransferReadOp>();
          if (!r || r->getBlock() != body || monoid::isStaged(r))
            continue;
          if (!stageable(r)) {
            auto vt = r.getVectorType();
            r.emitOpError("attncc-stage: a staged block needs rows of whole ")
                << (swz ? "128-byte slabs (swz128)" : "16-byte chunks")
                << " along the buffer's last dimension; this read has " << vt;
            return signalPassFailure();
          }
          r->setAttr("attncc.stage", markAttr);
          staged.push_back(r);
        }
        if (!loop)
          continue; // the read already precedes its one use
        if (k.ring && !staged.empty()) {
          if (failed(pipeline(loop, staged, k.depth)))
            return signalPassFailure();
          continue;
        }
        // Move to the top, after whatever the read's operands need.
        Operation *after = nullptr;
        for (vector::TransferReadOp r : staged) {
          Operation *last = after;
          for (Value v : r->getOperands())
            if (Operation *d = v.getDefiningOp(); d && d->getBlock() == body &&
                                                    (!last || last->isBeforeInBlock(d)))
              last = d;
          if (last)
            r->moveAfter(last);
          else
            r->moveBefore(&body->front());
          after = r;
        }
      }
    }
  }
};

} // namespace
