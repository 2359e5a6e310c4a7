//===- LastCombine.cpp - attncc-last-combine (REDUCE@<axis>=g<n>a) --------===//
//
// Pre:  loop IR after attncc-prefetch-parts: a split's two top-level maps,
//       the parts (named "parts" by attncc-split-reduce) and the combine
//       (named "combine"; its column chunk axis from attncc-split-columns,
//       if any); the function's schedule says
//       REDUCE@<axis>=g<n>a (combine in the last CTA to arrive).
// Post: one map. Each point of the parts map, after it has stored its
//       partial state, arrives on a counter of its row block, and the point
//       that arrives last folds the block's rows itself:
//
//         %arrivals = memref.alloc() {attncc.zero_init} : memref<E...xi32>
//         scf.parallel (%i..., %part, %j...) {          the parts
//           ... stores (m, d, o) of part %part at row %row0 ...
//           %n = memref.atomic_rmw addi %c1, %arrivals[%i..., %j...] {attncc.arrival}
//           %last = arith.cmpi eq, %n, (G - 1)
//           scf.if %last {
//             memref.store %c0, %arrivals[%i..., %j...] {attncc.arrival_reset}
//             scf.parallel (%ri, %chunk) = (0, 0) to (min(M, R - %row0), D / 4) {
//               the combine's body at row %row0 + %ri      loc("combine")
//             }
//           }
//         }
//
//       E... are the parts map's extents without the part axis (one counter
//       a row block: the point that stored rows [%row0, %row0 + M) of every
//       part but its own before it arrived is the last), M the rows one
//       point stores (a vector write of M rows with an atom's row tile; 1
//       for a scalar store), R the combine's rows. The counter is zero when
//       the kernel starts (attncc.zero_init: the runtime zeroes it once,
//       the CPU tier after allocating it) and zero again when it ends (the
//       last arrival resets it), so launch after launch needs no memset.
//
// What makes it safe on the GPU is attncc-map-to-gpu's lowering of the
// arrival (the stores, a fence, the count; the count, a fence, the loads).
// The fold is the combine's own code in the same order of parts, so the
// result is bitwise the one of the combine kernel, whichever point is last.
//
// Why: the combine kernel's launch, and its start after the parts' last
// wave, are a few microseconds of a decode's 250 (docs/design-decode.md).
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/MapUtils.h"
#include "passes/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

#define DEBUG_TYPE "attncc-last-combine"

namespace mlir::attncc {
#define GEN_PASS_DEF_LASTCOMBINE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;
using namespace mlir::attncc;

namespace {

/// The top-level map of `f` whose location is named `role`.
scf::ParallelOp mapNamed(func::FuncOp f, StringRef role) {
  for (auto map : f.getBody().getOps<scf::ParallelOp>())
    if (auto n = dyn_cast<NameLoc>(map.getLoc()); n && n.getName() == role)
      return map;
  return {};
}

/// Loops of at most this many trips in the folded combine are unrolled.
constexpr uint64_t kUnrollBatches = 4;

struct LastCombinePass : mlir::attncc::impl::LastCombineBase<LastCombinePass> {
  LogicalResult fuse(scf::ParallelOp parts, scf::ParallelOp combine) {
    auto fail = [&](Operation *at, const Twine &why) {
      return at->emitOpError("attncc-last-combine: REDUCE@<axis>=g<n>a (the combine in the last CTA) ") << why;
    };
    // A channel the combine reads with a scalar load (m), and where the
    // parts store it: the store's indices give the combine's row for each
    // point of the parts.
    Block *partsBody = parts.getBody();
    Operation *store = nullptr;
    memref::LoadOp load;
    int64_t rows = 1;
    // (The store may sit in a row guard, scf.if, but its indices must be
    // there at the end of the point, where the arrival goes.)
    auto atEnd = [&](Value v) {
      Block *b = v.getParentBlock();
      return b == partsBody || !parts->isAncestor(b->getParentOp());
    };
    combine.getBody()->walk([&](memref::LoadOp l) {
      if (load || !l.getMemRef().getDefiningOp<memref::AllocOp>())
        return;
      partsBody->walk([&](Operation *op) {
        if (load)
          return;
        auto w = dyn_cast<vector::TransferWriteOp>(op);
        auto s = dyn_cast<memref::StoreOp>(op);
        if (w && w.getBase() == l.getMemRef() && w.getVectorType().getRank() == 1 &&
            w.getPermutationMap().isMinorIdentity() && llvm::all_of(w.getIndices(), atEnd))
          store = op, load = l, rows = w.getVectorType().getDimSize(0);
        else if (s && s.getMemRef() == l.getMemRef() && llvm::all_of(s.getIndices(), atEnd))
          store = op, load = l, rows = 1;
      });
    });
    if (!load)
      return fail(combine, "needs a state the parts map stores and the combine loads back");
    ValueRange storeIdx = isa<memref::StoreOp>(store) ? cast<memref::StoreOp>(store).getIndices()
                                                      : cast<vector::TransferWriteOp>(store).getIndices();
    ValueRange loadIdx = load.getIndices();
    if (storeIdx.size() != loadIdx.size())
      return fail(combine, "internal: the parts store and the combine loads a state at different ranks");

    // The part axis: where the combine reads at its fold's index (neither
    // one of its axes nor from above), the parts store at it.
    auto civs = combine.getInductionVars();
    int partAxis = -1;
    for (size_t k = 0; k < loadIdx.size(); ++k) {
      if (llvm::is_contained(civs, loadIdx[k]) || combine.isDefinedOutsideOfLoop(loadIdx[k]))
        continue;
      auto pivs = parts.getInductionVars();
      auto at = llvm::find(pivs, storeIdx[k]);
      if (partAxis >= 0 || at == pivs.end())
        return fail(combine, "internal: the combine reads a state at a part index the parts map does not store at");
      partAxis = int(at - pivs.begin());
    }
    if (partAxis < 0)
      return fail(combine, "internal: the combine reads a state at no part index");
    Value partIv = parts.getInductionVars()[partAxis];
    Value groups = parts.getUpperBound()[partAxis];

    // The combine's axes in terms of the parts': each index the combine
    // reads at is one of its axes (or a constant the parts store at too),
    // but the part's.
    IRMapping m;
    int rowAxis = -1;
    Value rowBase;
    for (size_t k = 0; k < loadIdx.size(); ++k) {
      Value c = loadIdx[k], p = storeIdx[k];
      auto civ = llvm::find(civs, c);
      if (civ != civs.end()) {
        int axis = int(civ - civs.begin());
        if (m.contains(c) || axis == rowAxis)
          return fail(combine, "internal: the combine reads a state at an axis twice");
        bool last = k + 1 == loadIdx.size();
        if (rows > 1 && last) {
          rowAxis = axis;
          rowBase = p;
        } else {
          m.map(c, p);
        }
        continue;
      }
      if (p == partIv && !combine.isDefinedOutsideOfLoop(c))
        continue;
      std::optional<int64_t> cc = getConstantIntValue(c), pc = getConstantIntValue(p);
      if (!cc || cc != pc)
        return fail(combine, "internal: the combine reads a state at an index the parts map does not store at");
    }
    // The one axis left, if any, is attncc-split-columns' column chunk.
    int chunkAxis = -1;
    for (auto [k, civ] : llvm::enumerate(civs)) {
      if (int(k) == rowAxis || m.contains(civ))
        continue;
      if (chunkAxis >= 0)
        return fail(combine, "internal: the combine's axes ") << chunkAxis << " and " << k
                                                              << " are not ones the parts map stores at";
      chunkAxis = int(k);
    }
    // (A combine of one row, whose unit row axis canonicalization removed,
    // reads at a constant row, which the constant test above matched.)
    if (rows > 1 && rowAxis < 0 && !getConstantIntValue(loadIdx.back()))
      return fail(combine, "internal: the parts store a row block the combine reads at no row axis");

    // What the combine uses from above must be there before the parts.
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(combine.getRegion(), above);
    for (Value v : combine.getUpperBound())
      above.insert(v);
    IRRewriter rewriter(parts.getContext());
    if (failed(moveValueDefinitions(rewriter, above.getArrayRef(), parts)))
      return fail(combine, "uses a value computed between the two maps that cannot move before the parts");

    OpBuilder b(parts);
    Location loc = unnamed(parts.getLoc());
    auto cst = [&](OpBuilder &ob, int64_t v) { return arith::ConstantIndexOp::create(ob, loc, v).getResult(); };

    // The counters: the parts map's extents without the part axis.
    SmallVector<int64_t> shape;
    SmallVector<Value> dynSizes, counterIvs;
    for (auto [k, ub] : llvm::enumerate(parts.getUpperBound())) {
      if (int(k) == partAxis)
        continue;
      counterIvs.push_back(parts.getInductionVars()[k]);
      std::optional<int64_t> c = getConstantIntValue(ub);
      shape.push_back(c ? *c : ShapedType::kDynamic);
      if (!c)
        dynSizes.push_back(ub);
    }
    auto counterT = MemRefType::get(shape, b.getI32Type());
    auto arrivals = memref::AllocOp::create(b, named(loc, "arrivals"), counterT, dynSizes);
    arrivals->setAttr("attncc.zero_init", b.getUnitAttr());
    deallocAfter(b, loc, parts, ValueRange{arrivals.getResult()});

    // The arrival, at the end of a point of the parts.
    OpBuilder pb(partsBody->getTerminator());
    Value one = arith::ConstantIntOp::create(pb, loc, 1, 32);
    auto n = memref::AtomicRMWOp::create(pb, named(loc, "arrived"), arith::AtomicRMWKind::addi, one, arrivals,
                                         counterIvs);
    n->setAttr("attncc.arrival", pb.getUnitAttr());
    Value lastCount = arith::IndexCastOp::create(pb, loc, pb.getI32Type(),
                                                 arith::SubIOp::create(pb, loc, groups, cst(pb, 1)));
    Value last = arith::CmpIOp::create(pb, named(loc, "last"), arith::CmpIPredicate::eq, n, lastCount);
    auto ifLast = scf::IfOp::create(pb, loc, last, /*withElseRegion=*/false);
    OpBuilder lb(ifLast.thenBlock()->getTerminator());
    Value zero = arith::ConstantIntOp::create(lb, loc, 0, 32);
    memref::StoreOp::create(lb, loc, zero, arrivals, counterIvs)->setAttr("attncc.arrival_reset", lb.getUnitAttr());

    // The combine of the row block, a point a (row, column chunk); without
    // either (one row of a scalar state) the point itself.
    SmallVector<Value> lbs, ubs, steps;
    if (rowAxis >= 0) {
      Value r = combine.getUpperBound()[rowAxis];
      Value left = arith::SubIOp::create(lb, loc, r, rowBase);
      lbs.push_back(cst(lb, 0)), steps.push_back(cst(lb, 1));
      ubs.push_back(arith::MinUIOp::create(lb, named(loc, "rows_left"), left, cst(lb, rows)));
    }
    if (chunkAxis >= 0) {
      lbs.push_back(cst(lb, 0)), steps.push_back(cst(lb, 1));
      ubs.push_back(combine.getUpperBound()[chunkAxis]);
    }
    OpBuilder ib = lb;
    if (!lbs.empty()) {
      auto inner = scf::ParallelOp::create(lb, combine.getLoc(), lbs, ubs, steps);
      for (NamedAttribute a : combine->getDiscardableAttrs())
        inner->setAttr(a.getName(), a.getValue());
      ib.setInsertionPoint(inner.getBody()->getTerminator());
      ValueRange iivs = inner.getInductionVars();
      if (rowAxis >= 0) {
        iivs[0].setLoc(named(loc, "ri"));
        Value row = arith::AddIOp::create(ib, civs[rowAxis].getLoc(), rowBase, iivs[0]);
        m.map(civs[rowAxis], row);
      }
      if (chunkAxis >= 0) {
        iivs.back().setLoc(civs[chunkAxis].getLoc());
        m.map(civs[chunkAxis], iivs.back());
      }
    }
    Block *into = ib.getInsertionBlock();
    for (Operation &op : combine.getBody()->without_terminator())
      ib.clone(op, m);
    // A fold of a few batches of parts (attncc-prefetch-parts) is unrolled
    // here: the loads of every batch only need the indices, so unrolled they
    // can all be in flight while a thread of the last CTA folds several
    // points in a row (the combine kernel had one point a thread).
    into->walk([&](scf::ForOp f) {
      std::optional<APInt> trips = f.getStaticTripCount();
      if (!f->hasAttr("attncc.unroll") && trips && trips->getZExtValue() <= kUnrollBatches)
        f->setAttr("attncc.unroll", ib.getUnitAttr());
    });
    combine.erase();
    return success();
  }

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *s = monoid::scheduleOf(f);
    if (!s || !llvm::any_of(s->reduces, [](const ::attncc::ReduceKnob &r) {
          return r.combine == ::attncc::SplitCombine::Atomic && (r.groups > 1 || r.autoGroups);
        }))
      return;
    scf::ParallelOp parts = mapNamed(f, "parts"), combine = mapNamed(f, "combine");
    if (!parts || !combine) {
      f.emitOpError("attncc-last-combine: REDUCE@<axis>=g<n>a needs the split's parts and combine maps "
                    "(attncc-split-reduce)");
      return signalPassFailure();
    }
    if (failed(fuse(parts, combine)))
      return signalPassFailure();
  }
};

} // namespace
