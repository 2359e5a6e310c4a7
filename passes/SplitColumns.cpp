//===- SplitColumns.cpp - attncc-split-columns (the combine's columns) ----===//
//
// Pre:  loop IR after attncc-expand-carrier: the combine map of a split (the
//       top-level scf.parallel named "combine" by attncc-split-reduce), whose
//       vector values are rows of D elements (the o channel, the output row)
//       and whose ops act elementwise on them.
// Post: the map has one more axis, last, over the D / 4 column chunks of a
//       row: every vector<D x T> value becomes the vector<4 x T> of its chunk
//       (loads and stores at column chunk * 4), scalars are computed by every
//       chunk alike, and a scalar store (the LSE) is done by chunk 0 only.
// On the GPU the combine runs one thread a chunk, not a row: a decode's 256
// rows of 128 columns are 8192 threads, not 256, and the threads of a warp
// read one row's partial o contiguously. A map with any other vector op (a
// contraction, a reduction across the row, a shape change) is left alone.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

#define DEBUG_TYPE "attncc-split-columns"

namespace mlir::attncc {
#define GEN_PASS_DEF_SPLITCOLUMNS
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

constexpr int64_t kChunk = 4; // columns a point: 16 bytes of fp32

/// The row length D if every vector value in `map` is a 1-D vector of D
/// elements and every op that touches one is elementwise, a broadcast of a
/// scalar, a splat constant, a load or store of a row, or scf control flow.
std::optional<int64_t> rowLength(scf::ParallelOp map) {
  std::optional<int64_t> d;
  bool ok = true;
  auto check = [&](Type t) {
    auto vt = dyn_cast<VectorType>(t);
    if (!vt)
      return;
    if (vt.getRank() != 1 || vt.isScalable() || (d && *d != vt.getDimSize(0)))
      ok = false;
    d = vt.getDimSize(0);
  };
  map.getBody()->walk([&](Operation *op) {
    bool touches = false;
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      touches |= isa<VectorType>(t), check(t);
    for (Region &r : op->getRegions())
      for (Block &blk : r)
        for (BlockArgument a : blk.getArguments())
          touches |= isa<VectorType>(a.getType()), check(a.getType());
    if (!touches)
      return;
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      ok &= isa<SplatElementsAttr>(c.getValue());
      return;
    }
    bool elementwise = op->hasTrait<OpTrait::Elementwise>() &&
                       (isa<arith::ArithDialect>(op->getDialect()) || isa<math::MathDialect>(op->getDialect()));
    if (auto l = dyn_cast<vector::LoadOp>(op))
      ok &= l.getVectorType().getRank() == 1;
    else if (auto s = dyn_cast<vector::StoreOp>(op))
      ok &= s.getVectorType().getRank() == 1;
    else if (auto bc = dyn_cast<vector::BroadcastOp>(op))
      ok &= !isa<VectorType>(bc.getSourceType());
    else if (!elementwise && !isa<scf::ForOp, scf::YieldOp, scf::IfOp>(op))
      ok = false;
  });
  // Rows from outside the map (the fold's identity, hoisted) must be constants.
  SetVector<Value> above;
  getUsedValuesDefinedAbove(map.getRegion(), above);
  for (Value v : above)
    if (isa<VectorType>(v.getType()))
      ok &= v.getDefiningOp<arith::ConstantOp>() != nullptr;
  if (!ok || !d || *d % kChunk != 0)
    return std::nullopt;
  return d;
}

void narrow(Value v, int64_t d) {
  if (auto vt = dyn_cast<VectorType>(v.getType()); vt && vt.getRank() == 1 && vt.getDimSize(0) == d)
    v.setType(VectorType::get({kChunk}, vt.getElementType()));
}

LogicalResult splitColumns(scf::ParallelOp map, int64_t d) {
  OpBuilder b(map);
  Location loc = map.getLoc();
  SmallVector<Value> lbs(map.getLowerBound()), ubs(map.getUpperBound()), steps(map.getStep());
  Value c0 = arith::ConstantIndexOp::create(b, unnamed(loc), 0);
  lbs.push_back(c0);
  ubs.push_back(arith::ConstantIndexOp::create(b, unnamed(loc), d / kChunk));
  steps.push_back(arith::ConstantIndexOp::create(b, unnamed(loc), 1));
  auto split = scf::ParallelOp::create(b, loc, lbs, ubs, steps);
  Value chunk = split.getInductionVars().back();
  chunk.setLoc(named(unnamed(loc), "chunk"));
  IRMapping m;
  for (auto [o, n] : llvm::zip(map.getInductionVars(), split.getInductionVars())) {
    m.map(o, n);
    n.setLoc(o.getLoc()); // the listing keeps %b, %hkv, %r
  }
  OpBuilder nb = OpBuilder::atBlockBegin(split.getBody());
  Value col = arith::MulIOp::create(nb, named(unnamed(loc), "col"), chunk,
                                    arith::ConstantIndexOp::create(nb, unnamed(loc), kChunk));
  Value first = arith::CmpIOp::create(nb, unnamed(loc), arith::CmpIPredicate::eq, chunk, c0);
  // Constant rows from outside the map get copies of their own, narrowed below.
  SetVector<Value> above;
  getUsedValuesDefinedAbove(map.getRegion(), above);
  for (Value v : above)
    if (isa<VectorType>(v.getType()))
      m.map(v, nb.clone(*v.getDefiningOp())->getResult(0));
  for (Operation &op : map.getBody()->without_terminator())
    nb.clone(op, m);

  // Narrow every row vector, then place the loads and stores at the chunk.
  split.getBody()->walk([&](Operation *op) {
    for (Value r : op->getResults())
      narrow(r, d);
    for (Region &rg : op->getRegions())
      for (Block &blk : rg)
        for (BlockArgument a : blk.getArguments())
          narrow(a, d);
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      if (auto s = dyn_cast<SplatElementsAttr>(c.getValue()); s && s.getType().getShape() == ArrayRef<int64_t>{d})
        c.setValueAttr(SplatElementsAttr::get(cast<ShapedType>(c.getType()), s.getSplatValue<Attribute>()));
    auto atChunk = [&](MutableOperandRange idx) {
      OpBuilder ib(op);
      Value last = idx[idx.size() - 1].get();
      idx.slice(idx.size() - 1, 1).assign(arith::AddIOp::create(ib, unnamed(loc), last, col));
    };
    if (auto l = dyn_cast<vector::LoadOp>(op))
      atChunk(l.getIndicesMutable());
    else if (auto s = dyn_cast<vector::StoreOp>(op))
      atChunk(s.getIndicesMutable());
  });
  // A scalar store: by the first chunk only.
  SmallVector<memref::StoreOp> stores;
  split.getBody()->walk([&](memref::StoreOp s) { stores.push_back(s); });
  for (memref::StoreOp s : stores) {
    OpBuilder ib(s);
    auto guard = scf::IfOp::create(ib, unnamed(loc), first, /*withElseRegion=*/false);
    s->moveBefore(guard.thenBlock()->getTerminator());
  }
  map.erase();
  return success();
}

struct SplitColumnsPass : mlir::attncc::impl::SplitColumnsBase<SplitColumnsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ParallelOp, int64_t>> maps;
    for (auto map : getOperation().getBody().getOps<scf::ParallelOp>()) {
      auto name = dyn_cast<NameLoc>(map.getLoc());
      if (!name || name.getName() != "combine" || !map.getInitVals().empty())
        continue;
      if (std::optional<int64_t> d = rowLength(map))
        maps.push_back({map, *d});
    }
    for (auto [map, d] : maps)
      if (failed(splitColumns(map, d)))
        return signalPassFailure();
  }
};

} // namespace
