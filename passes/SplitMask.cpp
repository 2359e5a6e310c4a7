//===- SplitMask.cpp - attncc-split-mask (interior blocks skip the mask) --===//
//
// Pre:  loop IR after attncc-stream-reduce and canonicalization: each fold
//       is an scf.for over blocks of keys whose body masks the block's
//       scores with chains of
//         %s1 = arith.select %c1, %x, %id     (%id a splat constant: the
//         %s2 = arith.select %c2, %s1, %id     identity of the fold's max)
//       where each %c is a comparison of index vectors built from the block
//       offset, vector.step, broadcasts of scalars (the tile's first row,
//       a symbolic length) and constants: the causal mask kv <= i, a window
//       kv >= i - w, the key bound kv < seq_k.
// Post: each such chain becomes
//         %all = <scalar: every %c is true over the whole block>
//         %s = scf.if %all -> (T) { scf.yield %x }
//              else { <the comparisons>; %c = arith.andi %c1, %c2;
//                     %s2 = arith.select %c, %x, %id; scf.yield %s2 }
//       with each comparison of the block's keys against a per-row bound
//       relative to the block in the else branch: (kv0 + step) <= i as
//       step <= (i - kv0).
//       The bounds of an index vector are found by interval arithmetic
//       (step: [0, n-1]; broadcast and shape_cast: their source's; addi,
//       subi: sums and differences of bounds); a signed comparison is true
//       everywhere when it holds between the right bounds (a <= b
//       everywhere iff max a <= min b). A chain with a condition outside
//       this grammar is left alone.
//
// So a block that lies inside the mask (below the causal diagonal, before a
// symbolic end) computes no index vectors, comparisons or selects: per
// block one uniform branch instead of per element a 64-bit add, a compare
// and a select. The result is bitwise the same: where %all holds, every
// select returns %x.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "passes/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

#define DEBUG_TYPE "attncc-split-mask"

namespace mlir::attncc {
#define GEN_PASS_DEF_SPLITMASK
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// Scalar index bounds [lo, hi] of an index scalar or vector.
struct Bounds {
  Value lo, hi;
};

class BoundsBuilder {
public:
  BoundsBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  std::optional<Bounds> of(Value v) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    std::optional<Bounds> r = compute(v);
    if (r)
      memo[v] = *r;
    return r;
  }

  std::optional<Bounds> compute(Value v) {
    if (auto c = v.getDefiningOp<arith::ConstantOp>()) {
      if (auto s = dyn_cast<SplatElementsAttr>(c.getValue()))
        if (s.getElementType().isIndex()) {
          Value k = arith::ConstantIndexOp::create(b, loc, s.getSplatValue<APInt>().getSExtValue());
          return Bounds{k, k};
        }
      if (c.getType().isIndex())
        return Bounds{v, v};
      return std::nullopt;
    }
    if (!isa<VectorType>(v.getType()))
      return v.getType().isIndex() ? std::optional<Bounds>(Bounds{v, v}) : std::nullopt;
    if (auto s = v.getDefiningOp<vector::StepOp>()) {
      int64_t n = s.getResult().getType().getDimSize(0);
      return Bounds{arith::ConstantIndexOp::create(b, loc, 0), arith::ConstantIndexOp::create(b, loc, n - 1)};
    }
    if (auto bc = v.getDefiningOp<vector::BroadcastOp>())
      return of(bc.getSource());
    if (auto sc = v.getDefiningOp<vector::ShapeCastOp>())
      return of(sc.getSource());
    if (auto a = v.getDefiningOp<arith::AddIOp>()) {
      auto l = of(a.getLhs()), r = of(a.getRhs());
      if (!l || !r)
        return std::nullopt;
      return Bounds{add(l->lo, r->lo), add(l->hi, r->hi)};
    }
    if (auto s = v.getDefiningOp<arith::SubIOp>()) {
      auto l = of(s.getLhs()), r = of(s.getRhs());
      if (!l || !r)
        return std::nullopt;
      return Bounds{sub(l->lo, r->hi), sub(l->hi, r->lo)};
    }
    return std::nullopt;
  }

  /// An i1 scalar that is true iff the i1 vector `c` is true everywhere.
  Value allTrue(Value c) {
    if (auto k = c.getDefiningOp<arith::ConstantOp>()) {
      auto s = dyn_cast<SplatElementsAttr>(k.getValue());
      if (s && s.getSplatValue<bool>())
        return arith::ConstantIntOp::create(b, loc, 1, 1);
      return {};
    }
    if (auto bc = c.getDefiningOp<vector::BroadcastOp>())
      return isa<VectorType>(bc.getSourceType()) ? allTrue(bc.getSource()) : Value();
    if (auto sc = c.getDefiningOp<vector::ShapeCastOp>())
      return allTrue(sc.getSource());
    if (auto a = c.getDefiningOp<arith::AndIOp>()) {
      Value l = allTrue(a.getLhs()), r = l ? allTrue(a.getRhs()) : Value();
      return r ? arith::AndIOp::create(b, loc, l, r).getResult() : Value();
    }
    auto cmp = c.getDefiningOp<arith::CmpIOp>();
    if (!cmp)
      return {};
    using P = arith::CmpIPredicate;
    P p = cmp.getPredicate();
    if (p != P::slt && p != P::sle && p != P::sgt && p != P::sge)
      return {};
    auto l = of(cmp.getLhs()), r = l ? of(cmp.getRhs()) : std::nullopt;
    if (!r)
      return {};
    // a < b (<=) everywhere iff max a < min b; a > b (>=) iff min a > max b.
    bool less = p == P::slt || p == P::sle;
    return arith::CmpIOp::create(b, loc, p, less ? l->hi : l->lo, less ? r->lo : r->hi);
  }

private:
  static bool isZero(Value v) { return matchPattern(v, m_Zero()); }
  Value add(Value x, Value y) {
    return isZero(y) ? x : isZero(x) ? y : arith::AddIOp::create(b, loc, x, y).getResult();
  }
  Value sub(Value x, Value y) { return isZero(y) ? x : arith::SubIOp::create(b, loc, x, y).getResult(); }

  OpBuilder &b;
  Location loc;
  DenseMap<Value, Bounds> memo;
};

/// `v` as `broadcast(x) + rest` (through broadcasts and shape casts of
/// vectors), x the fold's block offset `kv0` (its induction variable), as in
/// `kv0 + step`. Returns rest rebuilt at v's type, or nothing.
std::optional<Value> peelOffset(OpBuilder &b, Location loc, Value v, Value x) {
  auto rewrap = [&](Operation *op, Value src) -> std::optional<Value> {
    auto inner = peelOffset(b, loc, src, x);
    if (!inner)
      return std::nullopt;
    Type t = op->getResult(0).getType();
    return isa<vector::BroadcastOp>(op) ? vector::BroadcastOp::create(b, loc, t, *inner).getResult()
                                        : vector::ShapeCastOp::create(b, loc, t, *inner).getResult();
  };
  if (auto bc = v.getDefiningOp<vector::BroadcastOp>())
    return isa<VectorType>(bc.getSourceType()) ? rewrap(bc, bc.getSource()) : std::nullopt;
  if (auto sc = v.getDefiningOp<vector::ShapeCastOp>())
    return rewrap(sc, sc.getSource());
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  auto isOffset = [&](Value y) {
    auto bc = y.getDefiningOp<vector::BroadcastOp>();
    return bc && bc.getSource() == x;
  };
  if (isOffset(add.getLhs()))
    return add.getRhs();
  if (isOffset(add.getRhs()))
    return add.getLhs();
  return std::nullopt;
}

/// `v - broadcast(x)` for a `v` that is not uniform (isUniform), the
/// subtraction pushed below v's broadcasts and shape casts of vectors, so
/// that it is done once per row rather than once per element of the block.
Value minusScalar(OpBuilder &b, Location loc, Value v, Value x) {
  Type t = v.getType();
  if (auto bc = v.getDefiningOp<vector::BroadcastOp>())
    return vector::BroadcastOp::create(b, loc, t, minusScalar(b, loc, bc.getSource(), x));
  if (auto sc = v.getDefiningOp<vector::ShapeCastOp>())
    return vector::ShapeCastOp::create(b, loc, t, minusScalar(b, loc, sc.getSource(), x));
  return arith::SubIOp::create(b, loc, v, vector::BroadcastOp::create(b, loc, t, x).getResult());
}

/// One value for the whole vector: a splat constant or a broadcast scalar,
/// through broadcasts and shape casts.
bool isUniform(Value v) {
  while (true) {
    if (auto bc = v.getDefiningOp<vector::BroadcastOp>()) {
      if (!isa<VectorType>(bc.getSourceType()))
        return true;
      v = bc.getSource();
    } else if (auto sc = v.getDefiningOp<vector::ShapeCastOp>()) {
      v = sc.getSource();
    } else {
      break;
    }
  }
  auto c = v.getDefiningOp<arith::ConstantOp>();
  return c && isa<SplatElementsAttr>(c.getValue());
}

/// A mask comparison `(kv0 + step) p r`, r a per-row bound (the causal
/// diagonal, a window's edge), written as `step p (r - kv0)`: the same truth
/// value (index arithmetic does not wrap at these sizes), but per element
/// only a compare of the column's constant with the row's bound. With the
/// offset added per element, ptxas kept a block's worth of key indices alive
/// and spilled (a 128-column tcgen05 row with seq_q > seq_k, causal: 308 B).
/// A bound that is one value for the block (the key bound kv < n) keeps its
/// form: moving the offset there saves one add per element but no live
/// value, and it tipped ptxas into spilling a rung at 255 registers
/// (L1-mma of bench/ladder.txt, 0 -> 16 B).
void relativeCompare(arith::CmpIOp cmp, Value kv0) {
  if (!isa<VectorType>(cmp.getType()) || !getElementTypeOrSelf(cmp.getLhs().getType()).isIndex())
    return;
  OpBuilder b(cmp);
  Location loc = cmp.getLoc();
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  if (isUniform(lhs) || isUniform(rhs))
    return;
  if (auto rest = peelOffset(b, loc, lhs, kv0)) {
    lhs = *rest;
    rhs = minusScalar(b, loc, rhs, kv0);
  } else if (auto rest = peelOffset(b, loc, rhs, kv0)) {
    rhs = *rest;
    lhs = minusScalar(b, loc, lhs, kv0);
  } else {
    return;
  }
  cmp.getLhsMutable().assign(lhs);
  cmp.getRhsMutable().assign(rhs);
}

/// A select that masks with a splat constant.
bool isMaskSelect(Operation *op) {
  auto s = dyn_cast_or_null<arith::SelectOp>(op);
  if (!s || !isa<VectorType>(s.getType()) || !isa<VectorType>(s.getCondition().getType()))
    return false;
  auto k = s.getFalseValue().getDefiningOp<arith::ConstantOp>();
  return k && isa<SplatElementsAttr>(k.getValue());
}

struct SplitMaskPass : mlir::attncc::impl::SplitMaskBase<SplitMaskPass> {
  void split(scf::ForOp loop) {
    Block *body = loop.getBody();
    // Chain heads: mask selects whose true value is not itself a mask select
    // with the same identity.
    SmallVector<arith::SelectOp> heads;
    for (auto s : body->getOps<arith::SelectOp>()) {
      if (!isMaskSelect(s))
        continue;
      auto prev = s.getTrueValue().getDefiningOp<arith::SelectOp>();
      if (prev && isMaskSelect(prev) && prev.getFalseValue() == s.getFalseValue() &&
          prev->getBlock() == body && prev->hasOneUse())
        continue;
      heads.push_back(s);
    }
    for (arith::SelectOp head : heads) {
      SmallVector<arith::SelectOp> chain{head};
      while (chain.back()->hasOneUse()) {
        auto next = dyn_cast<arith::SelectOp>(*chain.back()->getUsers().begin());
        if (!next || !isMaskSelect(next) || next.getTrueValue() != chain.back().getResult() ||
            next.getFalseValue() != head.getFalseValue() || next->getBlock() != body)
          break;
        chain.push_back(next);
      }
      arith::SelectOp last = chain.back();
      OpBuilder b(last->getBlock(), std::next(last->getIterator()));
      Location loc = NameLoc::get(StringAttr::get(loop.getContext(), "inside"), head.getLoc());
      // The scalar test goes into a scratch block first: a chain we cannot
      // bound leaves no ops behind.
      Block scratch;
      OpBuilder sb(loop.getContext()); // the block has no region yet
      sb.setInsertionPointToEnd(&scratch);
      BoundsBuilder bounds(sb, loc);
      Value all;
      for (arith::SelectOp s : chain) {
        Value t = bounds.allTrue(s.getCondition());
        if (!t) {
          all = {};
          break;
        }
        all = all ? arith::AndIOp::create(sb, loc, all, t).getResult() : t;
      }
      if (!all) {
        while (!scratch.empty())
          scratch.back().erase(); // the last op has no users left
        continue;
      }
      // Bounds the test did not need (the other end of an interval) go.
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(scratch)))
        if (op.use_empty() && op.getResult(0) != all)
          op.erase();
      for (Operation &op : llvm::make_early_inc_range(scratch))
        op.moveBefore(last->getBlock(), b.getInsertionPoint());
      auto ifOp = scf::IfOp::create(b, last.getLoc(), TypeRange{last.getType()}, all, /*withElseRegion=*/true);
      last.getResult().replaceAllUsesWith(ifOp.getResult(0));
      OpBuilder tb = ifOp.getThenBodyBuilder();
      scf::YieldOp::create(tb, loc, head.getTrueValue());
      // The selects and what only they use move into the else branch.
      llvm::SetVector<Operation *> moved;
      for (arith::SelectOp s : chain)
        moved.insert(s);
      bool grew = true;
      while (grew) {
        grew = false;
        for (Operation &op : *body) {
          if (moved.contains(&op) || op.getNumRegions() || op.hasTrait<OpTrait::IsTerminator>() ||
              op.use_empty() || !isPure(&op))
            continue;
          if (llvm::all_of(op.getUsers(), [&](Operation *u) { return moved.contains(u); })) {
            moved.insert(&op);
            grew = true;
          }
        }
      }
      Block *elseBlock = &ifOp.getElseRegion().front();
      OpBuilder eb = OpBuilder::atBlockEnd(elseBlock);
      auto yield = scf::YieldOp::create(eb, loc, last.getResult());
      for (Operation &op : llvm::make_early_inc_range(*body))
        if (moved.contains(&op))
          op.moveBefore(yield);
      // In the else branch, the chain is one select of the conditions'
      // conjunction: bitwise the same (each select falls back to the same
      // identity), and each element's conditions and select are computed
      // together instead of in a pass per condition, which kept a whole
      // block of conditions and partial results alive at once (two mask
      // conditions on a 128-column row: 255 registers and spills on sm_100a).
      if (chain.size() > 1) {
        eb.setInsertionPoint(yield);
        Value all = chain.front().getCondition();
        for (arith::SelectOp c : ArrayRef(chain).drop_front())
          all = arith::AndIOp::create(eb, loc, all, c.getCondition());
        auto one = arith::SelectOp::create(eb, last.getLoc(), all, head.getTrueValue(), head.getFalseValue());
        yield->setOperand(0, one.getResult());
        for (arith::SelectOp c : llvm::reverse(chain))
          c->erase();
      }
      // The comparisons relative to the block: see relativeCompare.
      SmallVector<arith::CmpIOp> cmps(elseBlock->getOps<arith::CmpIOp>());
      for (arith::CmpIOp c : cmps)
        relativeCompare(c, loop.getInductionVar());
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*elseBlock)))
        if (op.use_empty() && isPure(&op) && !op.hasTrait<OpTrait::IsTerminator>())
          op.erase();
    }
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> folds;
    getOperation().walk([&](scf::ForOp f) {
      bool contracts = false;
      for (Operation &op : *f.getBody())
        contracts |= isa<vector::ContractionOp>(op);
      if (contracts)
        folds.push_back(f);
    });
    for (scf::ForOp f : folds)
      split(f);
  }
};

} // namespace
