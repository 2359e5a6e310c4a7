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
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#define DEBUG_TYPE "attncc-cut-fold"

namespace mlir::attncc {
#define GEN_PASS_DEF_CUTFOLD
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

bool isZero(Value v) { return getConstantIntValue(v) == std::optional<int64_t>(0); }
bool isOne(Value v) { return getConstantIntValue(v) == std::optional<int64_t>(1); }

/// Clones, at `b`, what is needed to compute `v` inside `map` (the free-axis
/// scf.parallel), with `m` already mapping the map's induction variables and
/// the lift's index. Values defined outside `map` are used as they are.
Value cloneSlice(OpBuilder &b, Value v, scf::ParallelOp map, IRMapping &m) {
  if (m.contains(v))
    return m.lookup(v);
  Operation *def = v.getDefiningOp();
  if (!def || !map->isProperAncestor(def))
    return v;
  for (Value operand : def->getOperands())
    cloneSlice(b, operand, map, m);
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(def->getRegions(), captured);
  for (Value c : captured)
    cloneSlice(b, c, map, m);
  b.clone(*def, m);
  return m.lookup(v);
}

LogicalResult cutFold(ReduceOp r) {
  auto map = dyn_cast<scf::ParallelOp>(r->getParentOp());
  if (!map || !llvm::all_of(map.getLowerBound(), isZero) || !llvm::all_of(map.getStep(), isOne))
    return r.emitOpError("PLACE@fold=cut needs the reduce directly inside the free-axis "
                         "scf.parallel, with zero lower bounds and unit steps");
  Value lo = r.getLower(), hi = r.getUpper();
  for (Value bound : {lo, hi})
    if (Operation *d = bound.getDefiningOp(); d && map->isProperAncestor(d))
      return r.emitOpError("PLACE@fold=cut needs the reduce bounds defined outside the map");

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
  SmallVector<int64_t> shape;
  SmallVector<Value> dynSizes;
  SmallVector<Value> extents(map.getUpperBound());
  extents.push_back(b.createOrFold<arith::SubIOp>(loc, hi, lo));
  for (Value e : extents) {
    std::optional<int64_t> c = getConstantIntValue(e);
    shape.push_back(c ? *c : ShapedType::kDynamic);
    if (!c)
      dynSizes.push_back(e);
  }
  SmallVector<Value> buffers;
  for (unsigned i : cut) {
    auto type = MemRefType::get(shape, yield.getValues()[i].getType());
    buffers.push_back(memref::AllocOp::create(b, named(loc, "scores"), type, dynSizes));
  }

  // 2. Stage 1: every (free index, j) computes and stores its lifted values.
  SmallVector<Value> lbs(map.getLowerBound()), ubs(map.getUpperBound()), steps(map.getStep());
  lbs.push_back(lo);
  ubs.push_back(hi);
  steps.push_back(steps.front());
  scf::ParallelOp::create(b, loc, lbs, ubs, steps, [&](OpBuilder &sb, Location l, ValueRange ivs) {
    for (auto [iv, orig] : llvm::zip(ivs.drop_back(), map.getInductionVars()))
      iv.setLoc(orig.getLoc());
    ivs.back().setLoc(r.getIndex().getLoc());
    IRMapping m;
    m.map(map.getInductionVars(), ivs.drop_back());
    m.map(r.getIndex(), ivs.back());
    SmallVector<Value> idx(ivs.drop_back());
    idx.push_back(sb.createOrFold<arith::SubIOp>(l, ivs.back(), lo));
    for (auto [i, buf] : llvm::zip(cut, buffers))
      memref::StoreOp::create(sb, l, cloneSlice(sb, yield.getValues()[i], map, m), buf, idx);
  });

  // 3. Stage 2: the lift reads them back; what computed them dies.
  b.setInsertionPoint(yield);
  SmallVector<Value> idx(map.getInductionVars());
  idx.push_back(b.createOrFold<arith::SubIOp>(loc, r.getIndex(), lo));
  for (auto [i, buf] : llvm::zip(cut, buffers))
    yield->setOperand(i, memref::LoadOp::create(b, loc, buf, idx));
  SmallVector<Operation *> lift;
  for (Operation &op : r.getLiftBlock().without_terminator())
    lift.push_back(&op);
  for (Operation *op : llvm::reverse(lift)) // users before their operands
    if (op->use_empty() && (isPure(op) || isa<vector::LoadOp, memref::LoadOp>(op)))
      op->erase();

  // 4. Free the buffers after the map.
  b.setInsertionPointAfter(map);
  for (Value buf : buffers)
    memref::DeallocOp::create(b, loc, buf);
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
