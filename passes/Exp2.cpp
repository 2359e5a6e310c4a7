//===- Exp2.cpp - attncc-exp2 (EXP=ex2: base-2 exponentials) --------------===//
//
// Pre:  loop-level IR; the function carries attncc.schedule with EXP=ex2
//       (or EXP=poly<k>, which attncc-exp-poly then rewrites in part).
// Post: every math.exp becomes the hardware's base-2 exponential:
//         exp(x - y)  ->  exp2(fma(x, log2 e, -(y * log2 e)))
//                         when y is a broadcast (a block's weights)
//         exp(x - y)  ->  exp2(x * log2 e - y * log2 e)
//                         when x and y are row values (the fold's
//                         correction exp(m - m')): exactly 1 when the
//                         maximum does not move (the FMA form gives
//                         exp2 of y * log2 e's rounding error, and the
//                         running sum drifted by it once per block: the
//                         LSE error grew with the key length). The
//                         products y * log2 e carry attncc.rounded: the
//                         emitter prints them as __fmul_rn, which the
//                         CUDA compiler does not contract (with a plain
//                         `*`, -fmad=true fused m * log2 e - m' * log2 e
//                         back into the FMA, and nothing changed)
//         exp(z)      ->  exp2(z * log2 e)
//       with fastmath<afn> (the emitter writes ex2.approx.ftz.f32). When y
//       is a broadcast (the new row maximum spread over the block), y*log2 e
//       is computed before the broadcast: once per row, not per element.
//       So each weight of the block fold costs one FMA and one MUFU.EX2.
//       When x is a scaled score, x = y * c with c a positive constant
//       (the 1/sqrt(d) of attention), used only by that FMA and by row
//       maxima, the scale folds into the FMA's constant:
//         fma(y, c * log2 e, -(m * log2 e))
//       and each row maximum max(m, max_j x_j) becomes max(m, c * max_j y_j)
//       (equal: rounding is monotone), so the per-element multiply is gone.
//
// The result is the same function up to rounding (ex2.approx has at most
// 2 ulp of error); the TESTING.md rule judges it like any other rung.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"
#include "passes/Splat.h"

#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "attncc-exp2"

namespace mlir::attncc {
#define GEN_PASS_DEF_EXP2
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// y * c, computed before any broadcasts and shape casts that produced y.
/// The product is marked attncc.rounded: rounded on its own, never fused
/// with the subtraction it feeds (see the header).
Value scaleThrough(OpBuilder &b, Location loc, Value y, double c) {
  if (auto bc = y.getDefiningOp<vector::BroadcastOp>())
    return vector::BroadcastOp::create(b, loc, y.getType(), scaleThrough(b, loc, bc.getSource(), c));
  if (auto sc = y.getDefiningOp<vector::ShapeCastOp>())
    return vector::ShapeCastOp::create(b, loc, y.getType(), scaleThrough(b, loc, sc.getSource(), c));
  auto mul = arith::MulFOp::create(b, loc, y, mlir::attncc::floatSplat(b, loc, y.getType(), c));
  mul->setAttr("attncc.rounded", b.getUnitAttr());
  return mul;
}

struct Exp2Pass : mlir::attncc::impl::Exp2Base<Exp2Pass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *s = monoid::scheduleOf(f);
    if (!s || (s->exp != ::attncc::ExpKind::Ex2 && s->exp != ::attncc::ExpKind::Poly))
      return; // EXP=poly<k> is ex2 plus attncc-exp-poly's software share
    const double log2e = 1.4426950408889634;
    SmallVector<math::ExpOp> exps;
    f.walk([&](math::ExpOp e) { exps.push_back(e); });
    auto afn = arith::FastMathFlagsAttr::get(f.getContext(), arith::FastMathFlags::afn);
    for (math::ExpOp e : exps) {
      OpBuilder b(e);
      Location loc = e.getLoc();
      Value z = e.getOperand(), arg;
      auto sub = z.getDefiningOp<arith::SubFOp>();
      if (sub && sub.getLhs().getType() == sub.getRhs().getType() &&
          !sub.getRhs().getDefiningOp<vector::BroadcastOp>() &&
          !sub.getRhs().getDefiningOp<vector::ShapeCastOp>()) {
        // Two values of one row each (the fold's correction exp(m - m')):
        // both products rounded, so x == y gives exactly exp2(0) = 1. The
        // FMA would give exp2 of the rounding error of y * log2 e, the same
        // for every block while the maximum stays, so the running sum would
        // drift by it once per block.
        Value xl = scaleThrough(b, loc, sub.getLhs(), log2e);
        Value yl = scaleThrough(b, loc, sub.getRhs(), log2e);
        arg = arith::SubFOp::create(b, loc, xl, yl);
      } else if (sub) {
        Value yl = scaleThrough(b, loc, sub.getRhs(), log2e);
        Value neg = arith::NegFOp::create(b, loc, yl);
        arg = math::FmaOp::create(b, loc, sub.getLhs(), mlir::attncc::floatSplat(b, loc, z.getType(), log2e), neg);
      } else {
        arg = arith::MulFOp::create(b, loc, z, mlir::attncc::floatSplat(b, loc, z.getType(), log2e));
      }
      auto e2 = math::Exp2Op::create(b, loc, arg, afn);
      e.replaceAllUsesWith(e2.getResult());
      e.erase();
      if (Operation *d = z.getDefiningOp(); d && d->use_empty())
        d->erase(); // the subtraction the FMA replaced
      if (auto fma = arg.getDefiningOp<math::FmaOp>())
        foldScale(fma, log2e);
    }
  }

  static std::optional<double> splatValue(Value v) {
    DenseElementsAttr d;
    if (matchPattern(v, m_Constant(&d)) && d.isSplat() && isa<FloatType>(d.getElementType()))
      return d.getSplatValue<APFloat>().convertToDouble();
    FloatAttr f;
    if (matchPattern(v, m_Constant(&f)))
      return f.getValueAsDouble();
    return std::nullopt;
  }

  /// A select that keeps x or masks it to -inf: select(c, x, -inf) scaled
  /// by a positive constant is select(c, x * k, -inf).
  static bool isNegInfMask(arith::SelectOp s) {
    std::optional<double> f = splatValue(s.getFalseValue());
    return f && std::isinf(*f) && *f < 0;
  }

  /// fma(y * c, log2e, z) -> fma(y, c * log2e, z), and the row maxima of
  /// y * c from y (see the header). The product may also reach the FMA
  /// through the mask attncc-split-mask builds,
  ///   a = scf.if %inside { yield y * c } else { select(..(y * c)..); yield },
  /// with -inf as every select's masked value: positive scaling commutes
  /// with both, so the branches yield y and its masked form instead.
  static void foldScale(math::FmaOp fma, double log2e) {
    Value a = fma.getA();
    arith::MulFOp mul = a.getDefiningOp<arith::MulFOp>();
    SmallVector<OpOperand *> throughIf; // the uses of y * c inside the branches
    if (auto i = a.getDefiningOp<scf::IfOp>(); i && i.getNumResults() == 1) {
      Value t = i.thenYield().getOperand(0), e = i.elseYield().getOperand(0);
      mul = t.getDefiningOp<arith::MulFOp>();
      // The else branch: a chain of -inf masks whose first keeps y * c.
      auto sel = e.getDefiningOp<arith::SelectOp>();
      while (sel && isNegInfMask(sel) && sel->hasOneUse() && sel.getTrueValue() != t)
        sel = sel.getTrueValue().getDefiningOp<arith::SelectOp>();
      if (!mul || !sel || !isNegInfMask(sel) || sel.getTrueValue() != t)
        return;
      for (OpOperand &u : mul->getUses())
        if (u.getOwner() != i.thenYield().getOperation() && u.getOwner() != sel.getOperation())
          return;
      for (OpOperand &u : mul->getUses())
        throughIf.push_back(&u);
    }
    if (!mul)
      return;
    std::optional<double> c = splatValue(mul.getRhs());
    if (!c || !(*c > 0))
      return;
    SmallVector<vector::MultiDimReductionOp> maxima;
    for (Operation *u : a.getUsers()) {
      if (u == fma.getOperation())
        continue;
      auto r = dyn_cast<vector::MultiDimReductionOp>(u);
      if (!r || r.getKind() != vector::CombiningKind::MAXIMUMF || r.getSource() != a ||
          !isa<VectorType>(r.getDest().getType()))
        return;
      maxima.push_back(r);
    }
    if (fma.getA() == fma.getB() || fma.getA() == fma.getC())
      return;
    Value y = mul.getLhs();
    // What the row maxima and the FMA read once the scale is gone: y, or the
    // branch's result, which now carries y (masked).
    Value unscaled = throughIf.empty() ? y : a;
    for (OpOperand *u : throughIf)
      u->set(y);
    for (vector::MultiDimReductionOp r : maxima) {
      OpBuilder b(r);
      Location loc = r.getLoc();
      Type t = r.getDest().getType();
      Value ninf = mlir::attncc::floatSplat(b, loc, t, -std::numeric_limits<double>::infinity());
      auto ry = vector::MultiDimReductionOp::create(b, loc, unscaled, ninf, r.getReductionMask(),
                                                    vector::CombiningKind::MAXIMUMF);
      Value scaled = arith::MulFOp::create(b, loc, ry.getResult(), mlir::attncc::floatSplat(b, loc, t, *c));
      Value m = arith::MaximumFOp::create(b, loc, r.getAcc(), scaled);
      r.getResult().replaceAllUsesWith(m);
      r.erase();
    }
    OpBuilder b(fma);
    fma.getAMutable().assign(unscaled);
    fma.getBMutable().assign(mlir::attncc::floatSplat(b, fma.getLoc(), fma.getType(), *c * log2e));
    mul.erase();
  }
};

} // namespace
