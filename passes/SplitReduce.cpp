//===- SplitReduce.cpp - attncc-split-reduce (Flash-Decoding) -------------===//
//
// Pre:  monoid.reduce ops; those whose schedule has REDUCE@<axis>=g<G>... with
//       G > 1 are split. Reduces marked `partial` are left alone.
// Post: each split reduce R over [lo, hi) became
//   1. C = ceil(ceil((hi - lo) / G) / B) * B  (B = TILE block of the axis, or 1)
//   2. one workspace buffer per channel, G slots (memref.alloc)
//   3. scf.parallel over g in [0, G): a copy of R over
//        [min(lo + g C, hi), min(lo + (g + 1) C, hi)), marked `partial`,
//      storing its state into slot g          (on the GPU: G CTAs)
//   4. scf.for over the slots folding them with monoid.combine from
//      monoid.identity                         (on the GPU: the combine kernel)
//   5. memref.dealloc of the workspace
// Empty parts (more splits than elements) fold nothing and store the identity,
// which the combine absorbs.
//
//===----------------------------------------------------------------------===//
#include "compiler/knobs/Geometry.h"
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-split-reduce"

namespace mlir::attncc {
#define GEN_PASS_DEF_SPLITREDUCE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

/// The split count and the TILE block of the reduce's axis (1 without TILE).
std::pair<int64_t, int64_t> splitOf(ReduceOp r) {
  ScheduleAttr s = r.getScheduleAttr();
  if (!s || r.getPartial())
    return {1, 1};
  const ::attncc::Schedule &sched = s.getSchedule();
  std::string axis = r.getAxis().str();
  const ::attncc::ReduceKnob *k = sched.reduce(axis);
  int64_t groups = k && k->groups > 0 ? k->groups : 1;
  const ::attncc::TileKnob *t = sched.tile(axis);
  return {groups, t ? ::attncc::reduceBlock(*t) : 1};
}

void splitReduce(ReduceOp r, int64_t groups, int64_t block) {
  OpBuilder b(r);
  Location loc = unnamed(r.getLoc());
  CarrierAttr carrier = r.getCarrier();
  TypeRange types = r.getState().getTypes();
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value c0 = cst(0), c1 = cst(1), cG = cst(groups), cB = cst(block);
  Value lo = r.getLower(), hi = r.getUpper();

  // 1. Part size, rounded up to whole blocks.
  Value n = b.createOrFold<arith::SubIOp>(loc, hi, lo);
  Value perPart = arith::CeilDivUIOp::create(b, loc, n, cG);
  Value chunk = arith::MulIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, perPart, cB), cB);

  // 2. Workspace: one G-slot buffer per channel.
  SmallVector<Value> slots;
  for (auto [t, name] : llvm::zip(types, carrier.getNames()))
    slots.push_back(memref::AllocOp::create(b, named(loc, ("partial_" + name.getValue()).str()),
                                            MemRefType::get({groups}, t)));

  // 3. The parts.
  scf::ParallelOp::create(
      b, loc, ValueRange{c0}, ValueRange{cG}, ValueRange{c1},
      [&](OpBuilder &pb, Location l, ValueRange ivs) {
        Value g = ivs[0];
        g.setLoc(named(loc, "part"));
        Value start = arith::AddIOp::create(pb, l, lo, arith::MulIOp::create(pb, l, g, chunk));
        Value partLo = arith::MinUIOp::create(pb, named(loc, "part_lo"), start, hi);
        Value partHi = arith::MinUIOp::create(
            pb, named(loc, "part_hi"), arith::AddIOp::create(pb, l, partLo, chunk), hi);
        auto part = cast<ReduceOp>(pb.clone(*r.getOperation()));
        part.getLowerMutable().assign(partLo);
        part.getUpperMutable().assign(partHi);
        part.setPartial(true);
        for (auto [v, slot] : llvm::zip(part.getState(), slots))
          memref::StoreOp::create(pb, l, v, slot, ValueRange{g});
      });

  // 4. Fold the partial states.
  auto init = IdentityOp::create(b, loc, types, carrier);
  auto fold = scf::ForOp::create(
      b, named(loc, "combined"), c0, cG, c1, init.getResults(),
      [&](OpBuilder &fb, Location, Value g, ValueRange acc) {
        SmallVector<Value> part;
        for (Value slot : slots)
          part.push_back(memref::LoadOp::create(fb, loc, slot, ValueRange{g}));
        auto c = CombineOp::create(fb, loc, types, carrier, acc, part);
        scf::YieldOp::create(fb, loc, c.getResults());
      });
  fold.getInductionVar().setLoc(named(loc, "part"));
  for (auto [arg, name] : llvm::zip(fold.getRegionIterArgs(), carrier.getNames()))
    arg.setLoc(named(loc, name.getValue()));

  // 5. Release the workspace once the fold is done.
  b.setInsertionPointAfter(fold);
  for (Value slot : slots)
    memref::DeallocOp::create(b, loc, slot);

  r.replaceAllUsesWith(fold.getResults());
  r.erase();
}

struct SplitReducePass : mlir::attncc::impl::SplitReduceBase<SplitReducePass> {
  void runOnOperation() override {
    SmallVector<ReduceOp> reduces;
    getOperation().walk([&](ReduceOp r) { reduces.push_back(r); });
    for (ReduceOp r : reduces) {
      auto [groups, block] = splitOf(r);
      if (groups > 1)
        splitReduce(r, groups, block);
    }
  }
};

} // namespace
