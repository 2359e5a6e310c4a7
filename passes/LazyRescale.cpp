//===- LazyRescale.cpp - attncc-lazy-rescale (RESCALE=lazy<t>) ------------===//
//
// Pre:  loop-level IR; the function carries attncc.schedule with
//       RESCALE=lazy<t>. A fold is an scf.for that carries a running
//       maximum %m (an iter_arg) and yields its new value
//         %m1 = vector.multi_reduction <maximumf>, %x, %m   (a block fold)
//         %m1 = arith.maximumf %m, %x                       (one element)
//       and rescales the channels it twists by the correction
//         math.exp(%m - %m1)   (or of m_safe(%m1) = select(%m1 == -inf, 0, %m1))
// Post: the fold keeps its maximum unless the new one is larger by more
//       than t * ln 2:
//         %dm    = arith.subf %m1, %m
//         %moved = arith.cmpf ogt, %dm, t*ln2
//         %m_lazy = arith.select %moved, %m1, %m
//       (marked attncc.lazy) and every use of %m1 reads %m_lazy instead.
//       Where the maximum stays, the correction is exp(0) = 1 exactly (attncc-exp2 keeps it
//       exact: docs/results.md, "The fold's correction factor"), so the
//       rescale of O and of the row sum changes nothing and a lowering may
//       skip it: attncc-lower-tcgen05 skips the in-place rescale of O in
//       tensor memory for a warp whose 32 rows all kept their maximum
//       (FlashAttention-4's conditional rescaling, seed 000 kernel 14).
//
// The algebra: the carrier's state (m, d, o) stands for the class of all
// (m', d e^(m-m'), o e^(m-m')); the combine and the project (o / d and
// m + log d) give the same answer for any member. The maximum only keeps
// the weights exp(x - m) from overflowing; with the lazy one every weight
// is at most e^(t ln 2) = 2^t, so t <= 15 keeps P inside fp16's range
// (schedule/Built.cpp refuses larger t, and ACC=f16x, whose fp16 partial
// sums would not fit). A maximum of -inf (nothing yet) moves to any finite
// one (the difference is +inf) and stays when both are -inf (the
// difference is NaN: ogt is false).
//
// A loop whose running maximum twists nothing (no correction exp reads it)
// is left alone: its maximum is an output, not a reference point.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"
#include "passes/Splat.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

#define DEBUG_TYPE "attncc-lazy-rescale"

namespace mlir::attncc {
#define GEN_PASS_DEF_LAZYRESCALE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// %m1 = max(%m, ...) with %m the loop's iter_arg `arg`.
bool isRunningMax(Value m1, BlockArgument arg) {
  if (auto r = m1.getDefiningOp<vector::MultiDimReductionOp>())
    return r.getKind() == vector::CombiningKind::MAXIMUMF && r.getAcc() == arg;
  if (auto mx = m1.getDefiningOp<arith::MaximumFOp>())
    return mx.getLhs() == arg || mx.getRhs() == arg;
  return false;
}

/// x, or the m_safe select of x: select(x == -inf, 0, x).
bool isSafeOf(Value v, Value x) {
  if (v == x)
    return true;
  auto s = v.getDefiningOp<arith::SelectOp>();
  if (!s || s.getFalseValue() != x)
    return false;
  auto c = s.getCondition().getDefiningOp<arith::CmpFOp>();
  return c && c.getPredicate() == arith::CmpFPredicate::OEQ && c.getLhs() == x;
}

/// Some math.exp(%m - f(%m1)) reads the new maximum: the correction of a
/// twisted channel.
bool twists(Value m1, BlockArgument m) {
  for (Operation *u : m.getUsers()) {
    auto sub = dyn_cast<arith::SubFOp>(u);
    if (!sub || sub.getLhs() != m || !isSafeOf(sub.getRhs(), m1))
      continue;
    for (Operation *e : sub->getUsers())
      if (isa<math::ExpOp>(e))
        return true;
  }
  return false;
}

struct LazyRescalePass : mlir::attncc::impl::LazyRescaleBase<LazyRescalePass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *s = monoid::scheduleOf(f);
    if (!s || !s->rescale || *s->rescale == "always")
      return;
    const double threshold = s->rescaleThreshold * std::log(2.0);
    SmallVector<scf::ForOp> loops;
    f.walk([&](scf::ForOp l) { loops.push_back(l); });
    for (scf::ForOp loop : loops) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
        Value m1 = yield.getOperand(i);
        if (!isa<FloatType>(getElementTypeOrSelf(m1.getType())) || !isRunningMax(m1, arg) ||
            !twists(m1, arg))
          continue;
        OpBuilder b(loop.getContext());
        b.setInsertionPointAfterValue(m1);
        Location loc = m1.getLoc();
        auto dm = arith::SubFOp::create(b, loc, m1, arg);
        Value thr = mlir::attncc::floatSplat(b, loc, m1.getType(), threshold);
        auto moved = arith::CmpFOp::create(b, monoid::named(loc, "moved"), arith::CmpFPredicate::OGT, dm, thr);
        auto lazy = arith::SelectOp::create(b, monoid::named(loc, "m_lazy"), moved, m1, arg);
        lazy->setAttr("attncc.lazy", b.getUnitAttr());
        m1.replaceUsesWithIf(lazy.getResult(), [&](OpOperand &u) {
          return u.getOwner() != dm.getOperation() && u.getOwner() != lazy.getOperation();
        });
      }
    }
  }
};

} // namespace
