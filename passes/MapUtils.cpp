//===- MapUtils.cpp - restructuring the free-axis map ---------------------===//
#include "passes/MapUtils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::monoid;

namespace mlir::attncc {

static bool isConstant(Value v, int64_t c) {
  return getConstantIntValue(v) == std::optional<int64_t>(c);
}

scf::ParallelOp getFreeAxisMap(ReduceOp r, StringRef knob, bool perSequence) {
  Operation *parent = r->getParentOp();
  // perSequence: the front end's row guard (a varlen sequence's rows) may
  // hold the reduce.
  if (auto guard = dyn_cast<scf::IfOp>(parent); perSequence && guard && guard->hasAttr("attncc.row_guard"))
    parent = guard->getParentOp();
  auto map = dyn_cast<scf::ParallelOp>(parent);
  if (!map || !llvm::all_of(map.getLowerBound(), [](Value v) { return isConstant(v, 0); }) ||
      !llvm::all_of(map.getStep(), [](Value v) { return isConstant(v, 1); })) {
    r.emitOpError() << knob << " needs the reduce directly inside the free-axis scf.parallel, "
                                "with zero lower bounds and unit steps";
    return {};
  }
  Value row = map.getInductionVars().back();
  for (Value bound : {r.getLower(), r.getUpper()}) {
    Operation *d = bound.getDefiningOp();
    if (bound == row || (d && map->isProperAncestor(d) && !perSequence)) {
      r.emitOpError() << knob << " needs the reduce bounds defined outside the free-axis map";
      return {};
    }
    // perSequence: bounds computed in the map's body, but not from its
    // last axis (the rows): the same for every row of a sequence.
    if (dependsOnRow(bound, map)) {
      r.emitOpError() << knob << " needs the reduce bounds the same for every row of the map";
      return {};
    }
  }
  return map;
}

BlockArgument argWithRole(func::FuncOp fn, StringRef role) {
  for (BlockArgument a : fn.getArguments())
    if (auto r = fn.getArgAttrOfType<StringAttr>(a.getArgNumber(), kRoleAttr); r && r.getValue() == role)
      return a;
  return {};
}

bool dependsOnRow(Value v, scf::ParallelOp map) {
  Value row = map.getInductionVars().back();
  if (v == row)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || !map->isProperAncestor(def))
    return false;
  SetVector<Operation *> slice;
  BackwardSliceOptions opts;
  opts.filter = [&](Operation *op) { return map->isProperAncestor(op); };
  (void)getBackwardSlice(v, &slice, opts);
  slice.insert(def);
  return llvm::any_of(slice, [&](Operation *op) { return llvm::is_contained(op->getOperands(), row); });
}

std::optional<std::pair<Value, OperandRange>> memoryAccess(Operation *op) {
  if (auto l = dyn_cast<vector::LoadOp>(op)) return std::make_pair(l.getBase(), l.getIndices());
  if (auto s = dyn_cast<vector::StoreOp>(op)) return std::make_pair(s.getBase(), s.getIndices());
  if (auto l = dyn_cast<memref::LoadOp>(op)) return std::make_pair(l.getMemRef(), l.getIndices());
  if (auto s = dyn_cast<memref::StoreOp>(op)) return std::make_pair(s.getMemRef(), s.getIndices());
  return std::nullopt;
}

Value allocOverMap(OpBuilder &b, Location loc, scf::ParallelOp map, ArrayRef<Value> extra,
                   Type elem, StringRef name, bool beforeLast) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(map);
  SmallVector<Value> extents(map.getUpperBound());
  extents.insert(beforeLast ? extents.end() - 1 : extents.end(), extra.begin(), extra.end());
  SmallVector<int64_t> shape;
  SmallVector<Value> dynSizes;
  for (Value e : extents) {
    std::optional<int64_t> c = getConstantIntValue(e);
    shape.push_back(c ? *c : ShapedType::kDynamic);
    if (!c)
      dynSizes.push_back(e);
  }
  Type scalar = elem;
  if (auto vt = dyn_cast<VectorType>(elem)) {
    shape.append(vt.getShape().begin(), vt.getShape().end());
    scalar = vt.getElementType();
  }
  return memref::AllocOp::create(b, named(loc, name), MemRefType::get(shape, scalar), dynSizes);
}

void storeElement(OpBuilder &b, Location loc, Value v, Value buffer, ValueRange indices) {
  SmallVector<Value> idx(indices);
  if (isa<VectorType>(v.getType())) {
    idx.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    vector::StoreOp::create(b, loc, v, buffer, idx);
    return;
  }
  memref::StoreOp::create(b, loc, v, buffer, idx);
}

Value loadElement(OpBuilder &b, Location loc, Type elem, Value buffer, ValueRange indices) {
  SmallVector<Value> idx(indices);
  if (auto vt = dyn_cast<VectorType>(elem)) {
    idx.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    return vector::LoadOp::create(b, loc, vt, buffer, idx);
  }
  return memref::LoadOp::create(b, loc, buffer, idx);
}

Value cloneIntoMap(OpBuilder &b, Value v, scf::ParallelOp map, IRMapping &m) {
  if (m.contains(v))
    return m.lookup(v);
  Operation *def = v.getDefiningOp();
  if (!def || !map->isProperAncestor(def))
    return v;
  for (Value operand : def->getOperands())
    cloneIntoMap(b, operand, map, m);
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(def->getRegions(), captured);
  for (Value c : captured)
    cloneIntoMap(b, c, map, m);
  b.clone(*def, m);
  return m.lookup(v);
}

void buildMapBefore(OpBuilder &b, Location loc, scf::ParallelOp map, Value lo, Value hi,
                    StringRef lastName, StringRef role, StringRef mainRole,
                    function_ref<void(OpBuilder &, IRMapping &, ValueRange ivs)> body,
                    bool beforeLast) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(map);
  SmallVector<Value> lbs(map.getLowerBound()), ubs(map.getUpperBound()), steps(map.getStep());
  size_t at = beforeLast ? lbs.size() - 1 : lbs.size();
  lbs.insert(lbs.begin() + at, lo);
  ubs.insert(ubs.begin() + at, hi);
  steps.insert(steps.begin() + at, arith::ConstantIndexOp::create(b, loc, 1));
  if (!isa<NameLoc>(map.getLoc()))
    map->setLoc(named(map.getLoc(), mainRole));
  scf::ParallelOp::create(b, named(loc, role), lbs, ubs, steps, [&](OpBuilder &nb, Location, ValueRange ivs) {
    SmallVector<Value> old(ivs);
    old.erase(old.begin() + at);
    for (auto [iv, orig] : llvm::zip(old, map.getInductionVars()))
      iv.setLoc(orig.getLoc());
    ivs[at].setLoc(named(loc, lastName));
    IRMapping m;
    m.map(map.getInductionVars(), old);
    body(nb, m, ivs);
  });
}

void deallocAfter(OpBuilder &b, Location loc, scf::ParallelOp map, ValueRange buffers) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointAfter(map);
  for (Value buf : buffers)
    memref::DeallocOp::create(b, loc, buf);
}

} // namespace mlir::attncc
