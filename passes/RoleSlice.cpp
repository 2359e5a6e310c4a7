//===- RoleSlice.cpp - what a warp role runs of the row warps' code -------===//
#include "passes/RoleSlice.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace mlir::attncc {

LogicalResult RoleSlice::build() {
  rows.walk([&](memref::StoreOp s) {
    if (s.getMemRef().getDefiningOp<memref::AllocaOp>())
      counterStores[s.getMemRef()].push_back(s);
  });
  WalkResult bad = rows.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!seed(op))
      return WalkResult::advance();
    if (failed(addOp(op, /*isSeed=*/true)))
      return WalkResult::interrupt();
    return WalkResult::skip();
  });
  if (bad.wasInterrupted())
    return failure();
  while (!work.empty())
    if (failed(need(work.pop_back_val())))
      return failure();
  return success();
}

bool RoleSlice::inRows(Operation *op) const { return op && rows.getParent()->isAncestor(op->getParentRegion()); }

/// An op the role runs whole, and the loops around it.
LogicalResult RoleSlice::addOp(Operation *op, bool isSeed) {
  if (isa<scf::ForOp>(op))
    return addLoop(cast<scf::ForOp>(op));
  if (!ops.insert(op).second)
    return success();
  // A seed's operands are the role's own business unless `operands`; a
  // seed's own condition (the row warps' issuing thread) never is.
  if (!isSeed || operands)
    op->walk([&](Operation *in) {
      if (isSeed && in == op && isa<scf::IfOp>(op))
        return;
      for (Value v : in->getOperands())
        if (!op->isAncestor(v.getParentBlock()->getParentOp()))
          work.push_back(v);
    });
  // A private counter (a ring's fill or wait count) the op reads: every
  // update of it too, so the role's copy counts the same.
  // (A branch taken whole, attncc.ring_guard, may read one inside.)
  SmallVector<memref::LoadOp> loads;
  op->walk([&](memref::LoadOp l) { loads.push_back(l); });
  for (memref::LoadOp l : loads)
    for (Operation *s : counterStores.lookup(l.getMemRef())) {
      if (op->isAncestor(s))
        continue;
      for (Operation *p = s->getParentOp(); p && p != rows.getParentOp(); p = p->getParentOp())
        if (p->hasAttr("attncc.ring_guard"))
          s = p; // a store in such a branch: the branch
      if (failed(addOp(s, /*isSeed=*/false)))
        return failure();
    }
  return enclose(op);
}

LogicalResult RoleSlice::addLoop(scf::ForOp l) {
  if (!ops.insert(l).second)
    return success();
  carriedArgs[l.getOperation()].assign(l.getNumRegionIterArgs(), false);
  work.append({l.getLowerBound(), l.getUpperBound(), l.getStep()});
  return enclose(l);
}

/// The ops around `op` in the row warps' region: loops, and nothing else.
LogicalResult RoleSlice::enclose(Operation *op) {
  for (Operation *p = op->getParentOp(); p != rows.getParentOp(); p = p->getParentOp()) {
    if (auto l = dyn_cast<scf::ForOp>(p)) {
      if (failed(addLoop(l)))
        return failure();
      continue;
    }
    if (seed(p))
      continue;
    return op->emitOpError(branchError);
  }
  return success();
}

void RoleSlice::carry(scf::ForOp l, unsigned i) {
  (void)addLoop(l);
  SmallVector<bool> &c = carriedArgs[l.getOperation()];
  if (c[i])
    return;
  c[i] = true;
  work.push_back(l.getInitArgs()[i]);
  work.push_back(cast<scf::YieldOp>(l.getBody()->getTerminator()).getOperand(i));
}

LogicalResult RoleSlice::need(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (!inRows(owner) || seed(owner))
      return success();
    auto l = dyn_cast<scf::ForOp>(owner);
    if (!l)
      return owner->emitOpError(pass + ": a product's operand is a block argument of this op");
    if (arg == l.getInductionVar())
      return addLoop(l);
    carry(l, arg.getArgNumber() - 1);
    return success();
  }
  Operation *d = v.getDefiningOp();
  if (!inRows(d))
    return success();
  for (Operation *p = d; p != rows.getParentOp(); p = p->getParentOp())
    if (seed(p) && p != d)
      return success(); // inside a seed, which is taken whole
  if (auto l = dyn_cast<scf::ForOp>(d)) {
    carry(l, cast<OpResult>(v).getResultNumber());
    return success();
  }
  // GRID=persistent's guard around a ring's fill count (attncc-lower-copies):
  // the role counts the same fills, so it takes the branch whole.
  if (d->getNumRegions() && !d->hasAttr("attncc.ring_guard"))
    return d->emitOpError(pass + ": the operands of a tcgen05 product depend on this op's result");
  return addOp(d, /*isSeed=*/false);
}

void cloneRole(OpBuilder &b, Block &from, RoleSlice &slice, IRMapping &map,
               function_ref<void(Operation &, IRMapping &)> cloneSeed) {
  for (Operation &op : from.without_terminator()) {
    if (!slice.contains(&op))
      continue;
    auto l = dyn_cast<scf::ForOp>(op);
    if (!l) {
      // A seed is any op the slice holds that is not a loop and whose
      // clone the role writes itself; the rest are cloned as they are.
      cloneSeed(op, map);
      continue;
    }
    ArrayRef<bool> keep = slice.carried(l);
    SmallVector<Value> inits;
    for (auto [i, init] : llvm::enumerate(l.getInitArgs()))
      if (keep[i])
        inits.push_back(map.lookupOrDefault(init));
    auto bare = scf::ForOp::create(b, l.getLoc(), map.lookupOrDefault(l.getLowerBound()),
                                     map.lookupOrDefault(l.getUpperBound()), map.lookupOrDefault(l.getStep()), inits);
    bare->setDiscardableAttrs(l->getDiscardableAttrDictionary());
    bare.getInductionVar().setLoc(l.getInductionVar().getLoc());
    map.map(l.getInductionVar(), bare.getInductionVar());
    unsigned k = 0;
    for (auto [i, arg] : llvm::enumerate(l.getRegionIterArgs()))
      if (keep[i]) {
        map.map(arg, bare.getRegionIterArgs()[k]);
        bare.getRegionIterArgs()[k].setLoc(arg.getLoc());
        map.map(l.getResult(i), bare.getResult(k));
        ++k;
      }
    OpBuilder::InsertionGuard g(b);
    // scf.for is built with its yield only when it carries nothing.
    if (inits.empty())
      b.setInsertionPoint(bare.getBody()->getTerminator());
    else
      b.setInsertionPointToEnd(bare.getBody());
    cloneRole(b, *l.getBody(), slice, map, cloneSeed);
    auto yield = cast<scf::YieldOp>(l.getBody()->getTerminator());
    SmallVector<Value> ys;
    for (auto [i, y] : llvm::enumerate(yield.getOperands()))
      if (keep[i])
        ys.push_back(map.lookupOrDefault(y));
    if (!inits.empty())
      scf::YieldOp::create(b, yield.getLoc(), ys);
  }
}

} // namespace mlir::attncc
