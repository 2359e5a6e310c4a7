//===- Hoist.cpp - attncc-hoist (loop-invariant reads of read-only inputs) ===//
//
// Pre:  loop-level IR.
// Post: a read (vector.transfer_read, vector.load, memref.load) at the top
//       level of an scf.for body whose operands are all defined outside the
//       loop, from a buffer that nothing in the function writes, is moved in
//       front of the loop. For a partitioned fold this is the seed's "hoist":
//       the Q tile is read once per CTA instead of once per key block.
//
// HOIST=off (attncc.schedule on the function) keeps the reads where they
// are: the fold reads its Q tile in every iteration, as the seed's kernel did
// before this move (a rung of the ladder).
//
// First MLIR's loop-invariant code motion runs on each scf.for (not on the
// free-axis maps, whose values must stay inside the kernel): it moves
// side-effect-free ops, such as the key/value head of a GQA query head. A
// read is then movable because the function never writes that buffer.
//
//===----------------------------------------------------------------------===//
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#define DEBUG_TYPE "attncc-hoist"

namespace mlir::attncc {
#define GEN_PASS_DEF_HOIST
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

Value readBase(Operation *op) {
  if (auto r = dyn_cast<vector::TransferReadOp>(op)) return r.getBase();
  if (auto r = dyn_cast<vector::LoadOp>(op)) return r.getBase();
  if (auto r = dyn_cast<memref::LoadOp>(op)) return r.getMemRef();
  return {};
}

bool isWritten(func::FuncOp f, Value buffer) {
  bool written = false;
  f.walk([&](Operation *op) {
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface) {
      if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() && !isPure(op) &&
          llvm::is_contained(op->getOperands(), buffer))
        written = true; // unknown effects on the buffer: assume a write
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffectsOnValue(buffer, effects);
    for (auto &e : effects)
      if (isa<MemoryEffects::Write>(e.getEffect()))
        written = true;
  });
  return written;
}

struct HoistPass : mlir::attncc::impl::HoistBase<HoistPass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *sched = monoid::scheduleOf(f);
    bool reads = !(sched && sched->hoist == ::attncc::HoistKind::Off);
    SmallVector<scf::ForOp> loops;
    f.walk<WalkOrder::PostOrder>([&](scf::ForOp l) { loops.push_back(l); });
    for (scf::ForOp loop : loops) {
      moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
      if (!reads)
        continue;
      SmallVector<Operation *> move;
      for (Operation &op : loop.getBody()->without_terminator()) {
        Value base = readBase(&op);
        if (!base || !llvm::all_of(op.getOperands(), [&](Value v) {
              return loop.isDefinedOutsideOfLoop(v);
            }))
          continue;
        if (!isWritten(f, base))
          move.push_back(&op);
      }
      for (Operation *op : move)
        op->moveBefore(loop);
    }
  }
};

} // namespace
