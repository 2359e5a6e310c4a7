//===- Overlap.cpp - attncc-overlap (P*V of block j under softmax j+1) ----===//
//
// Pre:  loop-level IR after attncc-stage; the function carries
//       attncc.schedule with OVERLAP=pv. Each fold is an scf.for whose body
//       ends in a twisted channel's block combine
//         %acc = arith.mulf %o, %w          (%o: the channel's iter_arg)
//         %o'  = vector.contract %p, %v, %acc   (%v: a ring iter_arg)
//         scf.yield ..., %o', ...
// Post: the contraction is rotated one iteration later (software pipelining
//       of the fold): the loop carries the previous block's %p and %v, and
//       its body starts the previous block's product right after the first
//       contraction of the current block (Q*K of block j):
//         %x   = vector.contract %p_prev, %v_prev, %o
//         %acc = arith.mulf %x, %w
//         scf.yield ..., %acc, ..., %p, %v
//       and the last block's product follows the loop. %p_prev starts at
//       zero, so the first iteration adds nothing. On wgmma attncc-place-waits waits
//       for a product at its first use, so block j's softmax runs while the
//       tensor cores finish block j-1's P*V (FlashAttention-3's
//       intra-warpgroup overlap). The algebra: the standard fold is
//       O_j = w_j O_{j-1} + P_j V_j; the rotated one carries
//       A_j = w_j (A_{j-1} + P_{j-1} V_{j-1}) = w_j O_{j-1}, and after the
//       loop O = A_n + P_n V_n.
//       With OVERLAP=wg (or pv+wg) every contraction in a fold body is
//       marked attncc.turn: attncc-lower-wgmma makes the CTA's warpgroups take turns
//       issuing each run of adjacent marked contractions (FlashAttention-3's
//       ping-pong: one warpgroup's softmax under another's products). The
//       last block's product after the loop is not marked.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-overlap"

namespace mlir::attncc {
#define GEN_PASS_DEF_OVERLAP
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct Match {
  vector::ContractionOp first;   // the block's first contraction (Q*K)
  vector::ContractionOp product; // the combine's contraction (P*V)
  arith::MulFOp scale;           // %o * %w
  unsigned channel;              // the iter_arg index of %o
  unsigned ring;                 // the iter_arg index of %v
};

FailureOr<Match> match(scf::ForOp loop) {
  Block *body = loop.getBody();
  auto contracts = llvm::to_vector(body->getOps<vector::ContractionOp>());
  if (contracts.size() != 2)
    return loop.emitOpError("attncc-overlap: a fold with two contractions (Q*K, P*V) is what "
                            "OVERLAP=pv rotates; this one has ")
           << contracts.size();
  Match m;
  m.first = contracts[0];
  m.product = contracts[1];
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  Value res = m.product.getResult();
  m.scale = m.product.getAcc().getDefiningOp<arith::MulFOp>();
  auto ringArg = dyn_cast<BlockArgument>(m.product.getRhs());
  if (!res.hasOneUse() || !isa<scf::YieldOp>(*res.getUsers().begin()) || !m.scale ||
      !ringArg || ringArg.getOwner() != body || ringArg.getArgNumber() == 0)
    return m.product.emitOpError("attncc-overlap: the P*V contraction must be yielded directly, "
                                 "accumulate into (iter_arg * weight), and read its right operand "
                                 "from a ring iter_arg (STAGE@kv=d3/.../ring)");
  m.channel = res.getUses().begin()->getOperandNumber();
  m.ring = ringArg.getArgNumber() - 1;
  Value o = loop.getRegionIterArgs()[m.channel];
  if (m.scale.getLhs() != o || !o.hasOneUse() || yield.getOperand(m.channel) != res)
    return m.product.emitOpError("attncc-overlap: the accumulator must be the channel's iter_arg "
                                 "times a weight, used nowhere else");
  Operation *lhs = m.product.getLhs().getDefiningOp();
  if (!lhs || lhs->getBlock() != body)
    return m.product.emitOpError("attncc-overlap: the left operand (P) must be computed in the fold");
  return m;
}

FailureOr<scf::ForOp> rotate(scf::ForOp loop) {
  FailureOr<Match> mm = match(loop);
  if (failed(mm))
    return failure();
  Match m = *mm;
  IRRewriter rw(loop.getContext());
  rw.setInsertionPoint(loop);
  Location loc = m.product.getLoc();
  auto pType = cast<VectorType>(m.product.getLhsType());
  Value zeroP = arith::ConstantOp::create(rw, loc, pType, rw.getZeroAttr(pType));
  Value firstV = loop.getInitArgs()[m.ring];
  SmallVector<Location> argLocs;
  for (Value a : loop.getRegionIterArgs())
    argLocs.push_back(a.getLoc());
  Location ivLoc = loop.getInductionVar().getLoc();
  vector::ContractionOp product = m.product;
  unsigned channel = m.channel;
  auto grown = loop.replaceWithAdditionalYields(
      rw, ValueRange{zeroP, firstV}, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        return SmallVector<Value>{product.getLhs(), product.getRhs()};
      });
  if (failed(grown))
    return loop.emitOpError("attncc-overlap: could not rotate this fold");
  auto nl = cast<scf::ForOp>(grown->getOperation());
  nl.getInductionVar().setLoc(ivLoc);
  for (auto [a, l] : llvm::zip(nl.getRegionIterArgs(), argLocs))
    a.setLoc(l);
  Block *body = nl.getBody();
  unsigned n = nl.getNumRegionIterArgs();
  Value pPrev = nl.getRegionIterArgs()[n - 2], vPrev = nl.getRegionIterArgs()[n - 1];
  Value o = nl.getRegionIterArgs()[channel];
  pPrev.setLoc(NameLoc::get(rw.getStringAttr("p_prev")));
  vPrev.setLoc(NameLoc::get(rw.getStringAttr("v_prev")));
  // The previous block's product, issued right after this block's first.
  rw.setInsertionPointAfter(m.first);
  IRMapping map;
  map.map(product.getLhs(), pPrev);
  map.map(product.getRhs(), vPrev);
  map.map(product.getAcc(), o);
  auto x = cast<vector::ContractionOp>(rw.clone(*product, map));
  m.scale.getLhsMutable().assign(x.getResult());
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  yield->setOperand(channel, m.scale.getResult());
  rw.eraseOp(product);
  // The last block's product.
  rw.setInsertionPointAfter(nl);
  IRMapping after;
  after.map(x.getLhs(), nl.getResult(n - 2));
  after.map(x.getRhs(), nl.getResult(n - 1));
  after.map(x.getAcc(), nl.getResult(channel));
  auto last = cast<vector::ContractionOp>(rw.clone(*x, after));
  nl.getResult(channel).replaceAllUsesExcept(last.getResult(), last);
  return nl;
}

struct OverlapPass : mlir::attncc::impl::OverlapBase<OverlapPass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *s = monoid::scheduleOf(f);
    if (!s || !s->overlap)
      return;
    ::attncc::OverlapKind k = *s->overlap;
    SmallVector<scf::ForOp> folds;
    f.walk([&](scf::ForOp l) {
      if (!l.getBody()->getOps<vector::ContractionOp>().empty())
        folds.push_back(l);
    });
    if (::attncc::overlapsPv(k))
      for (scf::ForOp &l : folds) {
        FailureOr<scf::ForOp> r = rotate(l);
        if (failed(r))
          return signalPassFailure();
        l = *r;
      }
    // OVERLAP=wg: the fold's products are issued in turns (attncc-lower-wgmma
    // puts a named-barrier wait before each run of marked contractions and
    // passes the turn on after it).
    if (::attncc::overlapsWg(k))
      for (scf::ForOp l : folds)
        for (vector::ContractionOp c : l.getBody()->getOps<vector::ContractionOp>())
          c->setAttr("attncc.turn", UnitAttr::get(f.getContext()));
  }
};

} // namespace
