//===- ClipIdentity.cpp - attncc-clip-identity (mask skipping) ------------===//
//
// Pre:  monoid.reduce ops.
// Post: a reduce whose lift maps some elements to the carrier identity, in a
//       way the IR states with affine comparisons of the element index, folds
//       only over the other elements:
//   1. the carrier must have one max channel m, every add channel twisted by m:
//      then a lifted state with m = -inf is (equivalent to) the identity;
//   2. the lift's m value must be select(pred, x, -inf);
//   3. pred, an and-tree of `arith.cmpi` with predicate slt/sle/sgt/sge
//      between the index j and a value e that does not depend on j, gives
//      j < e, j <= e, j > e, j >= e: upper bounds U = e or e + 1, lower
//      bounds L = e + 1 or e; other leaves are ignored (no bound);
//   4. each bound's computation is cloned before the reduce, and the range
//      becomes [maxsi(lo, L...), minsi(hi, U...)).
// Elements removed this way would each have folded as the identity, so the
// result is unchanged; an empty range folds to the identity, as before.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "attncc-clip-identity"

namespace mlir::attncc {
#define GEN_PASS_DEF_CLIPIDENTITY
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

/// The max channel that twists every add channel, if the carrier has exactly
/// one max channel and no untwisted add channel.
std::optional<unsigned> identityChannel(CarrierAttr c) {
  std::optional<unsigned> max;
  for (unsigned i = 0; i < c.size(); ++i)
    if (c.getCombines()[i] == CombineKind::Max) {
      if (max)
        return std::nullopt;
      max = i;
    }
  if (!max)
    return std::nullopt;
  for (unsigned i = 0; i < c.size(); ++i)
    if (c.getCombines()[i] == CombineKind::Add && c.getTwists()[i] != int64_t(*max))
      return std::nullopt;
  return max;
}

bool isNegInf(Value v) {
  FloatAttr f;
  return matchPattern(v, m_Constant(&f)) && f.getValue().isInfinity() && f.getValue().isNegative();
}

struct Bounds {
  SmallVector<std::pair<Value, int64_t>> upper; // j < e + k  (k = 0 or 1)
  SmallVector<std::pair<Value, int64_t>> lower; // j >= e + k
};

class Clipper {
public:
  explicit Clipper(ReduceOp r) : r(r), lift(&r.getLiftBlock()), j(r.getIndex()) {}

  /// Whether `v` is computed without the index (so it can move before the reduce).
  bool independent(Value v) {
    if (v == j)
      return false;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != lift)
      return v.getParentBlock() != lift; // defined outside the lift
    if (!isPure(def) || def->getNumRegions() != 0)
      return false;
    return llvm::all_of(def->getOperands(), [&](Value o) { return independent(o); });
  }

  /// Collects bounds from an and-tree of comparisons.
  void collect(Value pred, Bounds &b) {
    if (auto a = pred.getDefiningOp<arith::AndIOp>()) {
      collect(a.getLhs(), b);
      collect(a.getRhs(), b);
      return;
    }
    auto c = pred.getDefiningOp<arith::CmpIOp>();
    if (!c)
      return;
    using P = arith::CmpIPredicate;
    P p = c.getPredicate();
    Value e;
    if (c.getLhs() == j && independent(c.getRhs())) {
      e = c.getRhs();
    } else if (c.getRhs() == j && independent(c.getLhs())) {
      e = c.getLhs(); // e ? j: mirror the predicate
      p = p == P::slt ? P::sgt : p == P::sle ? P::sge : p == P::sgt ? P::slt : p == P::sge ? P::sle : p;
    } else {
      return;
    }
    switch (p) {
    case P::slt: b.upper.push_back({e, 0}); break;
    case P::sle: b.upper.push_back({e, 1}); break;
    case P::sgt: b.lower.push_back({e, 1}); break;
    case P::sge: b.lower.push_back({e, 0}); break;
    default: break; // unsigned or equality: no bound
    }
  }

  /// Clones the computation of an independent value before the reduce.
  Value hoist(OpBuilder &b, Value v) {
    if (Value m = map.lookupOrNull(v))
      return m;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != lift)
      return v;
    for (Value o : def->getOperands())
      hoist(b, o);
    return b.clone(*def, map)->getResult(cast<OpResult>(v).getResultNumber());
  }

  LogicalResult run() {
    std::optional<unsigned> m = identityChannel(r.getCarrier());
    if (!m)
      return failure();
    auto sel = r.getLiftYield().getValues()[*m].getDefiningOp<arith::SelectOp>();
    if (!sel || !isNegInf(sel.getFalseValue()))
      return failure();
    Bounds bounds;
    collect(sel.getCondition(), bounds);
    if (bounds.upper.empty() && bounds.lower.empty())
      return failure();

    OpBuilder b(r);
    Location loc = unnamed(r.getLoc());
    auto plus = [&](Value e, int64_t k) {
      Value h = hoist(b, e);
      if (k == 0)
        return h;
      return b.createOrFold<arith::AddIOp>(loc, h, arith::ConstantIndexOp::create(b, loc, k));
    };
    // Each clip is marked attncc.clip: outside it the lift is the identity by
    // itself, so a later pass that folds whole blocks (attncc-partition)
    // masks only the original range, operand 0.
    Value lo = r.getLower(), hi = r.getUpper();
    UnitAttr mark = b.getUnitAttr();
    for (auto [e, k] : bounds.lower) {
      lo = arith::MaxSIOp::create(b, named(loc, "clip_lo"), lo, plus(e, k));
      lo.getDefiningOp()->setAttr("attncc.clip", mark);
    }
    for (auto [e, k] : bounds.upper) {
      hi = arith::MinSIOp::create(b, named(loc, "clip_hi"), hi, plus(e, k));
      hi.getDefiningOp()->setAttr("attncc.clip", mark);
    }
    r.getLowerMutable().assign(lo);
    r.getUpperMutable().assign(hi);
    return success();
  }

private:
  ReduceOp r;
  Block *lift;
  Value j;
  IRMapping map;
};

struct ClipIdentityPass : mlir::attncc::impl::ClipIdentityBase<ClipIdentityPass> {
  void runOnOperation() override {
    SmallVector<ReduceOp> reduces;
    getOperation().walk([&](ReduceOp r) { reduces.push_back(r); });
    for (ReduceOp r : reduces)
      (void)Clipper(r).run(); // failure means "nothing to clip", never an error
  }
};

} // namespace
