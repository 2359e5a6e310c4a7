//===- DeferRowSum.cpp - attncc-defer-rowsum (ROWSUM=end) -----------------===//
//
// Pre:  loop-level IR after attncc-partition and attncc-stream-reduce; the
//       function carries attncc.schedule with ROWSUM=end and an mma.sync or
//       wgmma TILE (schedule/Built.cpp refuses the rest). A block fold is an
//       scf.for holding a vector.contract whose iter_args include a running
//       row sum %d : vector<M x f32>, zero at the start, rescaled and added
//       to once a block:
//         %a  = arith.mulf %d, %alpha                        (optional)
//         %d1 = vector.multi_reduction <add>, %p, %a [1]
//               : vector<M x N x f32> to vector<M x f32>
//         scf.yield ..., %d1, ...
//       with no other use of %d or %d1 in the loop.
// Post: the row sum is carried as an [M x 4] tile %dq of partial sums, zero
//       at the start:
//         %aq  = arith.mulf %dq, broadcast(shape_cast(%alpha) : M x 1) : M x 4
//         %pq  = vector.shape_cast %p : M x N -> M x (N/8) x 4 x 2
//         %dq1 = vector.multi_reduction <add>, %pq, %aq [1, 3] : -> M x 4
//       and after the loop
//         %d = vector.multi_reduction <add>, %dq, zeros [1] : M x 4 -> M
//       replaces every use of the loop's old result.
//
// Why: in the mma.sync / wgmma accumulator layout (attncc-atomize's c) the
// four lanes 4g .. 4g + 3 of a quad hold a row's columns 8f + 2t + {0, 1}.
// Element (r, f, t, j) of the cast is column 8f + 2t + j, so %dq's element
// (r, t) is what lane t holds of row r: attncc-atomize gives %dq the layout
// quad (one value a row a thread, as a row vector) and the reduction over
// dims 1 and 3 needs no shuffles. Only the reduction after the loop sums
// across the quad (two shuffles a row). The row sum is a sum, so splitting
// it over the lanes and adding the four at the end is the same element of
// the carrier's monoid, up to the order of the additions; every lane
// rescales its share by the same correction %alpha (a row value, the same
// across the quad). The running maximum cannot be deferred this way: each
// block's exponentials need the row's maximum over all its columns.
// FlashAttention-2 keeps its row sums so; attncc did the quad sum after
// every key block (ROWSUM=block, the default).
//
// A fold whose row sum does not start at zero (the second loop of
// PLACE@fold=cut continues the first's) or is read inside the loop is left
// alone. ROWSUM=end on a function where no fold matches is an error.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"
#include "passes/Splat.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#define DEBUG_TYPE "attncc-defer-rowsum"

namespace mlir::attncc {
#define GEN_PASS_DEF_DEFERROWSUM
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

constexpr int64_t kQuad = 4; // the lanes of a quad that share a row of the c layout

/// The pieces of one deferrable row sum: iter_arg `arg`, its optional
/// rescale `mul` (arg * alpha), and the block's reduction `red`.
struct RowSum {
  unsigned index;
  arith::MulFOp mul;
  Value alpha;
  vector::MultiDimReductionOp red;
};

bool isZeroSplat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto dense = c ? dyn_cast<DenseFPElementsAttr>(c.getValue()) : DenseFPElementsAttr();
  return dense && dense.isSplat() && dense.getSplatValue<APFloat>().isZero();
}

std::optional<RowSum> match(scf::ForOp loop, unsigned i) {
  BlockArgument arg = loop.getRegionIterArgs()[i];
  auto vt = dyn_cast<VectorType>(arg.getType());
  if (!vt || vt.getRank() != 1 || !vt.getElementType().isF32() || !isZeroSplat(loop.getInitArgs()[i]))
    return std::nullopt;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto red = yield.getOperand(i).getDefiningOp<vector::MultiDimReductionOp>();
  if (!red || red.getKind() != vector::CombiningKind::ADD || red.getReductionDims() != ArrayRef<int64_t>{1} ||
      !red->getResult(0).hasOneUse() || red->getParentOp() != loop.getOperation())
    return std::nullopt;
  VectorType src = red.getSourceVectorType();
  if (src.getRank() != 2 || src.getDimSize(1) % (2 * kQuad) != 0)
    return std::nullopt;
  RowSum r{i, nullptr, Value(), red};
  if (red.getAcc() != Value(arg)) {
    auto mul = red.getAcc().getDefiningOp<arith::MulFOp>();
    if (!mul || !mul->hasOneUse() || mul->getParentOp() != loop.getOperation())
      return std::nullopt;
    Value other = mul.getLhs() == arg ? mul.getRhs() : mul.getRhs() == arg ? mul.getLhs() : Value();
    if (!other || other == Value(arg))
      return std::nullopt;
    r.mul = mul;
    r.alpha = other;
  }
  if (!arg.hasOneUse()) // the rescale (or the reduction) is its only reader
    return std::nullopt;
  return r;
}

void defer(scf::ForOp loop, RowSum r) {
  MLIRContext *ctx = loop.getContext();
  BlockArgument arg = loop.getRegionIterArgs()[r.index];
  auto rowType = cast<VectorType>(arg.getType());
  int64_t m = rowType.getDimSize(0);
  auto quadType = VectorType::get({m, kQuad}, rowType.getElementType());
  Location loc = monoid::named(r.red.getLoc(), "d_lanes");

  // The init: the lanes' partials start at zero like the sum.
  OpBuilder b(ctx);
  b.setInsertionPoint(loop);
  Value init = mlir::attncc::floatSplat(b, loc, quadType, 0.0);
  loop.getInitArgsMutable()[r.index].set(init);
  arg.setType(quadType);

  // The block: each lane rescales its partial and adds its own columns.
  b.setInsertionPoint(r.red);
  Value acc = arg;
  if (r.mul) {
    auto colType = VectorType::get({m, 1}, rowType.getElementType());
    Value col = vector::ShapeCastOp::create(b, loc, colType, r.alpha);
    Value spread = vector::BroadcastOp::create(b, loc, quadType, col);
    acc = arith::MulFOp::create(b, loc, arg, spread).getResult();
  }
  VectorType src = r.red.getSourceVectorType();
  int64_t n = src.getDimSize(1);
  auto lanesType = VectorType::get({m, n / (2 * kQuad), kQuad, 2}, src.getElementType());
  Value lanes = vector::ShapeCastOp::create(b, loc, lanesType, r.red.getSource());
  auto part = vector::MultiDimReductionOp::create(b, loc, lanes, acc, ArrayRef<bool>{false, true, false, true},
                                                  vector::CombiningKind::ADD);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  yield->setOperand(r.index, part.getResult());
  r.red.erase();
  if (r.mul)
    r.mul.erase();

  // After the loop: the quad's four partials make the row sum.
  OpResult result = loop->getResult(r.index);
  SmallVector<OpOperand *> uses;
  for (OpOperand &u : result.getUses())
    uses.push_back(&u);
  result.setType(quadType);
  b.setInsertionPointAfter(loop);
  Value zero = mlir::attncc::floatSplat(b, loc, rowType, 0.0);
  auto sum = vector::MultiDimReductionOp::create(b, monoid::named(loop.getLoc(), "d"), result, zero,
                                                 ArrayRef<bool>{false, true}, vector::CombiningKind::ADD);
  for (OpOperand *u : uses)
    u->set(sum.getResult());
}

struct DeferRowSumPass : mlir::attncc::impl::DeferRowSumBase<DeferRowSumPass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *s = monoid::scheduleOf(f);
    if (!s || !s->rowsum || *s->rowsum != ::attncc::RowSumKind::End)
      return;
    SmallVector<std::pair<scf::ForOp, RowSum>> found;
    f.walk([&](scf::ForOp loop) {
      bool blockFold = false;
      for (Operation &op : loop.getBody()->getOperations())
        blockFold |= isa<vector::ContractionOp>(op);
      if (!blockFold)
        return;
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
        if (std::optional<RowSum> r = match(loop, i))
          found.push_back({loop, *r});
    });
    if (found.empty()) {
      f.emitError("ROWSUM=end: no block fold here carries a row sum that starts at zero and is read only "
                  "by its own update (attncc-defer-rowsum); use ROWSUM=block");
      return signalPassFailure();
    }
    for (auto &[loop, r] : found)
      defer(loop, r);
  }
};

} // namespace
