//===- ExpPoly.cpp - attncc-exp-poly (EXP=poly<k>: exp2 on the FMA pipe) --===//
//
// Pre:  loop-level IR after attncc-exp2; the function carries
//       attncc.schedule with EXP=poly<k> (attncc-exp2 treats it as ex2, so
//       every block weight is a math.exp2 fastmath<afn> of a [rows x block]
//       tile).
// Post: one 8-column group in four of every such tile (columns c with
//       c mod 32 >= 24: 25 %, FlashAttention-4's share) takes a software
//       exp2 made of FMAs and integer ops instead of the MUFU unit:
//         x  = max(a, -127)
//         xi = floor(x), f = x - xi                 f in [0, 1)
//         q  = poly_k(f) ~ 2^f                      k FMAs (Horner)
//         r  = bitcast<f32>(bitcast<i32>(q) + (i32(xi) << 23))
//         p  = a < -126 ? 0 : r                     masked scores weigh 0
//       and the weight is select(c mod 32 >= 24, p, exp2(a)). poly_k is
//       the degree-k polynomial through 2^f at the k + 1 Chebyshev-Lobatto
//       nodes of [0, 1] (computed here; exact at 0 and 1). The group is
//       chosen by column so that every thread of a warp makes the same choice in
//       every layout (mma.sync and wgmma C fragments hold whole 8-column
//       groups per register pair; tcgen05's rowthread holds a row), and the
//       choice is a compile-time constant per register once the emitter's
//       loops are unrolled: the CUDA compiler keeps one side of each select.
//
// The CPU tier runs this IR as it is; the GPU check measures it like any
// rung (TESTING.md).
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"
#include "passes/Splat.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

#define DEBUG_TYPE "attncc-exp-poly"

namespace mlir::attncc {
#define GEN_PASS_DEF_EXPPOLY
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// The monomial coefficients c_0..c_k of the degree-k polynomial that
/// interpolates 2^f at the k + 1 Chebyshev-Lobatto nodes of [0, 1]
/// (1 - cos(i pi / k)) / 2: the ends are nodes, so p(0) = 1 and p(1) = 2
/// exactly. A block's largest weight is 2^0 (the row maximum itself), and
/// rows with few keys weigh little else: with the plain Chebyshev nodes
/// (p(0) = 0.9999 at k = 3) the CPU check's LSE error of a causal case was
/// 2.3e-5 against a bound of 1.1e-5.
SmallVector<double> lobattoExp2(int k) {
  int n = k + 1;
  SmallVector<SmallVector<double>> a(n, SmallVector<double>(n + 1));
  for (int i = 0; i < n; ++i) {
    double x = 0.5 * (1.0 - std::cos(i * M_PI / k));
    double p = 1.0;
    for (int j = 0; j < n; ++j, p *= x)
      a[i][j] = p;
    a[i][n] = std::exp2(x);
  }
  for (int c = 0; c < n; ++c) { // Gaussian elimination, partial pivoting
    int piv = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[piv][c]))
        piv = r;
    std::swap(a[c], a[piv]);
    for (int r = 0; r < n; ++r) {
      if (r == c)
        continue;
      double f = a[r][c] / a[c][c];
      for (int j = c; j <= n; ++j)
        a[r][j] -= f * a[c][j];
    }
  }
  SmallVector<double> coef(n);
  for (int i = 0; i < n; ++i)
    coef[i] = a[i][n] / a[i][i];
  return coef;
}

struct ExpPolyPass : mlir::attncc::impl::ExpPolyBase<ExpPolyPass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *s = monoid::scheduleOf(f);
    if (!s || s->exp != ::attncc::ExpKind::Poly)
      return;
    SmallVector<double> coef = lobattoExp2(s->expPolyDegree);
    SmallVector<math::Exp2Op> todo;
    f.walk([&](math::Exp2Op e) {
      auto vt = dyn_cast<VectorType>(e.getType());
      if (vt && vt.getRank() == 2 && vt.getDimSize(1) % 32 == 0 && vt.getElementType().isF32())
        todo.push_back(e);
    });
    for (math::Exp2Op e : todo) {
      OpBuilder b(e);
      b.setInsertionPointAfter(e);
      Location loc = e.getLoc();
      auto vt = cast<VectorType>(e.getType());
      auto it = VectorType::get(vt.getShape(), b.getI32Type());
      auto idx = VectorType::get(vt.getShape(), b.getIndexType());
      auto fc = [&](double v) { return mlir::attncc::floatSplat(b, loc, vt, v); };
      auto ic = [&](int64_t v, VectorType t) -> Value {
        Attribute a = t.getElementType().isIndex() ? Attribute(b.getIndexAttr(v))
                                                   : Attribute(b.getI32IntegerAttr(static_cast<int32_t>(v)));
        return arith::ConstantOp::create(b, loc, t, DenseElementsAttr::get(t, a));
      };
      Value a = e.getOperand();
      // Which columns: c mod 32 >= 24.
      Value cols = vector::StepOp::create(b, loc, VectorType::get({vt.getDimSize(1)}, b.getIndexType()));
      Value colsB = vector::BroadcastOp::create(b, loc, idx, cols);
      Value rem = arith::RemUIOp::create(b, loc, colsB, ic(32, idx));
      Value soft = arith::CmpIOp::create(b, monoid::named(loc, "soft_exp2"), arith::CmpIPredicate::uge, rem,
                                         ic(24, idx));
      // The software exp2.
      Value x = arith::MaximumFOp::create(b, loc, a, fc(-127.0));
      Value xi = math::FloorOp::create(b, loc, x);
      Value fr = arith::SubFOp::create(b, loc, x, xi);
      Value q = fc(coef.back());
      for (int i = static_cast<int>(coef.size()) - 2; i >= 0; --i)
        q = math::FmaOp::create(b, loc, q, fr, fc(coef[i]));
      Value qi = arith::BitcastOp::create(b, loc, it, q);
      Value ii = arith::FPToSIOp::create(b, loc, it, xi);
      Value sh = arith::ShLIOp::create(b, loc, ii, ic(23, it));
      Value ri = arith::AddIOp::create(b, loc, qi, sh);
      Value r = arith::BitcastOp::create(b, loc, vt, ri);
      Value under = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a, fc(-126.0));
      Value p = arith::SelectOp::create(b, monoid::named(loc, "poly_exp2"), under, fc(0.0), r);
      auto sel = arith::SelectOp::create(b, monoid::named(loc, "p"), soft, p, e.getResult());
      e.getResult().replaceAllUsesExcept(sel.getResult(), sel.getOperation());
    }
  }
};

} // namespace
