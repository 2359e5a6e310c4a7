//===- CutFold.cpp - attncc-cut-fold (PLACE@fold=cut) ---------------------===//
//
// Pre:  a monoid.reduce whose schedule says PLACE@fold=cut sits directly in an
//       scf.parallel (the free-axis map) with zero lower bounds and unit steps;
//       its bounds are defined outside that map.
// Post: the two-stage, materialized form:
//   1. S_c = memref.alloc [free extents..., hi - lo] f32 for every lifted value
//      c that is a non-constant scalar (for attention: the score s_j);
//   2. stage 1, a new scf.parallel over (free indices..., j) before the map,
//      recomputes c from the lift (and whatever it uses from the map's body)
//      and stores it in S_c;
//   3. stage 2, the original map: the lift loads c from S_c instead; the score
//      computation becomes dead and is erased;
//   4. memref.dealloc S_c after the map.
// This is the form FlashAttention exists to avoid (the [Sq, Sk] store and
// reload per head); it is here to teach and to check against.
//
//===----------------------------------------------------------------------===//
#include "passes/MapUtils.h"
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "attncc-cut-fold"

namespace mlir::attncc {
#define GEN_PASS_DEF_CUTFOLD
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;
using namespace mlir::attncc;

namespace {

LogicalResult cutFold(ReduceOp r) {
  scf::ParallelOp map = getFreeAxisMap(r, "PLACE@fold=cut");
  if (!map)
    return failure();
  Value lo = r.getLower(), hi = r.getUpper();

  // What to materialize: non-constant scalar lifted values.
  YieldOp yield = r.getLiftYield();
  SmallVector<unsigned> cut;
  for (auto [i, v] : llvm::enumerate(yield.getValues()))
    if (isa<FloatType>(v.getType()) && !matchPattern(v, m_Constant()))
      cut.push_back(i);
  if (cut.empty())
    return success();

  Location loc = unnamed(r.getLoc());
  OpBuilder b(map);
  // 1. Buffers [free extents..., hi - lo].
  Value n = b.createOrFold<arith::SubIOp>(loc, hi, lo);
  SmallVector<Value> buffers;
  for (unsigned i : cut)
    buffers.push_back(allocOverMap(b, loc, map, {n}, yield.getValues()[i].getType(), "scores"));

  // 2. Stage 1: every (free index, j) computes and stores its lifted values.
  buildMapBefore(b, loc, map, lo, hi, r.getAxis(), "scores", "fold", [&](OpBuilder &sb, IRMapping &m, ValueRange ivs) {
    m.map(r.getIndex(), ivs.back());
    SmallVector<Value> idx(ivs.drop_back());
    idx.push_back(sb.createOrFold<arith::SubIOp>(loc, ivs.back(), lo));
    for (auto [i, buf] : llvm::zip(cut, buffers))
      storeElement(sb, loc, cloneIntoMap(sb, yield.getValues()[i], map, m), buf, idx);
  });

  // 3. Stage 2: the lift reads them back; what computed them dies.
  b.setInsertionPoint(yield);
  SmallVector<Value> idx(map.getInductionVars());
  idx.push_back(b.createOrFold<arith::SubIOp>(loc, r.getIndex(), lo));
  for (auto [i, buf] : llvm::zip(cut, buffers))
    yield->setOperand(i, loadElement(b, loc, yield.getValues()[i].getType(), buf, idx));
  SmallVector<Operation *> lift;
  for (Operation &op : r.getLiftBlock().without_terminator())
    lift.push_back(&op);
  for (Operation *op : llvm::reverse(lift)) // users before their operands
    if (op->use_empty() && (isPure(op) || isa<vector::LoadOp, memref::LoadOp>(op)))
      op->erase();

  // 4. Free the buffers after the map.
  deallocAfter(b, loc, map, buffers);
  return success();
}

struct CutFoldPass : mlir::attncc::impl::CutFoldBase<CutFoldPass> {
  void runOnOperation() override {
    SmallVector<ReduceOp> reduces;
    getOperation().walk([&](ReduceOp r) {
      if (auto s = r.getScheduleAttr(); s && s.getSchedule().placement() == ::attncc::Place::Cut)
        reduces.push_back(r);
    });
    for (ReduceOp r : reduces)
      if (failed(cutFold(r)))
        return signalPassFailure();
  }
};

} // namespace
