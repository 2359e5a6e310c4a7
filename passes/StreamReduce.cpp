//===- StreamReduce.cpp - attncc-stream-reduce (Move 1) -------------------===//
//
// Pre:  monoid.reduce ops with their lift regions; schedule attribute optional.
// Post: no monoid.reduce; each became scf.for loop(s) carrying the carrier
//       state in iter_args, folding lifted elements with monoid.combine from
//       monoid.identity. monoid.project is untouched (the divide stays last).
//
// Algorithm, per reduce over [lo, hi) with block B (TILE@<axis>, else 1):
//   1. state0 = identity
//   2. B == 1:  for j in [lo, hi):          state = state (+) lift(j)
//      B  > 1:  for t in [lo, hi) step B:
//                 for jj in [0, B):  j = t + jj
//                   e = j < hi ? lift(j) : identity      (the tail is padded
//                   state = state (+) e                    with the identity,
//                                                          never read)
//   3. replace the reduce's results by the loop's.
//   The function gets the reduce's schedule (attncc.schedule), unless
//   attncc-partition gave it one, for the loop passes after this one.
//
//===----------------------------------------------------------------------===//
#include "schedule/Geometry.h"
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "attncc-stream-reduce"

namespace mlir::attncc {
#define GEN_PASS_DEF_STREAMREDUCE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

/// Clones the lift of `reduce` at the builder's point with the element index
/// `j`; returns the lifted state.
SmallVector<Value> cloneLift(OpBuilder &b, ReduceOp reduce, Value j) {
  IRMapping map;
  map.map(reduce.getIndex(), j);
  for (Operation &op : reduce.getLiftBlock().without_terminator())
    b.clone(op, map);
  SmallVector<Value> out;
  for (Value v : reduce.getLiftYield().getValues())
    out.push_back(map.lookupOrDefault(v));
  return out;
}

/// state (+) e, as a monoid.combine (expand-carrier spells it out later).
SmallVector<Value> combine(OpBuilder &b, Location loc, CarrierAttr c, ValueRange state,
                           ValueRange e) {
  auto op = CombineOp::create(b, loc, state.getTypes(), c, state, e);
  return SmallVector<Value>(op.getResults());
}

/// Names the loop's index after the axis and its iter_args after the
/// channels, so the listing reads `%m`, `%d`, `%o` (also for an inner loop).
void nameState(scf::ForOp loop, ReduceOp reduce) {
  for (scf::ForOp l = loop; l;) {
    bool tiled = !l.getBody()->getOps<scf::ForOp>().empty();
    std::string axis = reduce.getAxis().str();
    l.getInductionVar().setLoc(
        named(l.getLoc(), l != loop ? std::string("jj") : tiled ? axis + "_tile" : axis));
    for (auto [arg, name] : llvm::zip(l.getRegionIterArgs(), reduce.getCarrier().getNames()))
      arg.setLoc(named(l.getLoc(), name.getValue()));
    auto inner = l.getBody()->getOps<scf::ForOp>();
    l = inner.empty() ? scf::ForOp() : *inner.begin();
  }
}

int64_t blockFor(ReduceOp reduce) {
  if (auto s = reduce.getScheduleAttr())
    if (const ::attncc::TileKnob *t = s.getSchedule().tile(reduce.getAxis().str()))
      return ::attncc::reduceBlock(*t);
  return 1;
}

void streamReduce(ReduceOp reduce) {
  // The later loop passes (exp2, lazy-rescale, ...) read the knobs from
  // the function, as attncc-partition leaves them for a tiled reduce.
  if (auto s = reduce.getScheduleAttr())
    if (auto fn = reduce->getParentOfType<func::FuncOp>(); fn && !fn->hasAttr("attncc.schedule"))
      fn->setAttr("attncc.schedule", s);
  OpBuilder b(reduce);
  Location loc = unnamed(reduce.getLoc());
  CarrierAttr carrier = reduce.getCarrier();
  TypeRange types = reduce.getState().getTypes();
  Value lo = reduce.getLower(), hi = reduce.getUpper();
  int64_t block = blockFor(reduce);

  auto init = IdentityOp::create(b, loc, types, carrier);
  Location foldLoc = named(loc, "fold"); // names the loop's results, not its body
  scf::ForOp loop;
  if (block == 1) {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    loop = scf::ForOp::create(
        b, foldLoc, lo, hi, one, init.getResults(),
        [&](OpBuilder &nb, Location, Value j, ValueRange state) {
          SmallVector<Value> e = cloneLift(nb, reduce, j);
          scf::YieldOp::create(nb, loc, combine(nb, loc, carrier, state, e));
        });
  } else {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value step = arith::ConstantIndexOp::create(b, loc, block);
    loop = scf::ForOp::create(
        b, foldLoc, lo, hi, step, init.getResults(),
        [&](OpBuilder &ob, Location, Value t, ValueRange outer) {
          auto inner = scf::ForOp::create(
              ob, foldLoc, zero, step, one, outer,
              [&](OpBuilder &ib, Location, Value jj, ValueRange state) {
                Location il = loc;
                Value j = arith::AddIOp::create(ib, named(il, reduce.getAxis()), t, jj);
                Value inRange = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::ult, j, hi);
                auto pick = scf::IfOp::create(
                    ib, il, inRange,
                    [&](OpBuilder &tb, Location tl) {
                      scf::YieldOp::create(tb, tl, cloneLift(tb, reduce, j));
                    },
                    [&](OpBuilder &eb, Location el) {
                      auto pad = IdentityOp::create(eb, el, types, carrier);
                      scf::YieldOp::create(eb, el, pad.getResults());
                    });
                scf::YieldOp::create(ib, il, combine(ib, il, carrier, state, pick.getResults()));
              });
          scf::YieldOp::create(ob, loc, inner.getResults());
        });
  }
  nameState(loop, reduce);
  reduce.replaceAllUsesWith(loop.getResults());
  reduce.erase();
}

struct StreamReducePass : mlir::attncc::impl::StreamReduceBase<StreamReducePass> {
  void runOnOperation() override {
    SmallVector<ReduceOp> reduces;
    getOperation().walk([&](ReduceOp r) { reduces.push_back(r); });
    for (ReduceOp r : reduces)
      streamReduce(r);
  }
};

} // namespace
