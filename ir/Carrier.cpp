//===- Carrier.cpp - the carrier algebra as IR builders -------------------===//
#include "ir/Carrier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;
using namespace mlir::monoid;

static Value scalarConstant(OpBuilder &b, Location loc, Type t, double v) {
  auto ft = cast<FloatType>(getElementTypeOrSelf(t));
  if (auto vt = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(b, loc, vt,
                                     DenseElementsAttr::get(vt, b.getFloatAttr(ft, v)));
  return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
}

Value mlir::monoid::buildIdentityConstant(OpBuilder &b, Location loc, CombineKind kind, Type t) {
  return scalarConstant(b, loc, t,
                        kind == CombineKind::Max ? -std::numeric_limits<double>::infinity() : 0.0);
}

SmallVector<Value> mlir::monoid::buildIdentity(OpBuilder &b, Location loc, CarrierAttr carrier,
                                               TypeRange types) {
  SmallVector<Value> out;
  for (auto [kind, t] : llvm::zip(carrier.getCombines(), types))
    out.push_back(buildIdentityConstant(b, loc, kind, t));
  return out;
}

/// The maximum that weights are taken against: mNew, or 0 where mNew = -inf.
/// mNew = -inf only when every contributing max is -inf, and then
/// exp(-inf - 0) = 0; elsewhere exp(-inf - mNew) = 0 too. So one select per
/// new maximum (per row) guards every weight, and no exp(-inf - (-inf)) = NaN
/// can arise: a state with max -inf holds nothing (d = o = 0) and weighs 0.
static Value safeMax(OpBuilder &b, Location loc, Value mNew) {
  Value ninf = scalarConstant(b, loc, mNew.getType(), -std::numeric_limits<double>::infinity());
  Value zero = scalarConstant(b, loc, mNew.getType(), 0.0);
  Value isEmpty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, mNew, ninf);
  return arith::SelectOp::create(b, named(loc, "m_safe"), isEmpty, zero, mNew);
}

/// w(x) = exp(x - safe): the weight of a state whose max is x (0 for x = -inf).
static Value twistWeight(OpBuilder &b, Location loc, StringRef name, Value x, Value safe) {
  return math::ExpOp::create(b, named(loc, name), arith::SubFOp::create(b, loc, x, safe));
}

static Value broadcastTo(OpBuilder &b, Location loc, Value scalar, Type t) {
  if (isa<VectorType>(t))
    return vector::BroadcastOp::create(b, loc, t, scalar);
  return scalar;
}

SmallVector<Value> mlir::monoid::buildCombine(OpBuilder &b, Location loc, CarrierAttr carrier,
                                              ValueRange lhs, ValueRange rhs) {
  unsigned n = carrier.size();
  // New maxima and the two weights, once per twist source.
  SmallVector<Value> newMax(n), wl(n), wr(n);
  for (unsigned i = 0; i < n; ++i) {
    if (carrier.getCombines()[i] != CombineKind::Max)
      continue;
    newMax[i] = arith::MaximumFOp::create(b, named(loc, carrier.getNames()[i].getValue()), lhs[i],
                                          rhs[i]);
  }
  SmallVector<Value> out(n);
  for (unsigned i = 0; i < n; ++i) {
    if (carrier.getCombines()[i] == CombineKind::Max) {
      out[i] = newMax[i];
      continue;
    }
    if (!carrier.isTwisted(i)) {
      out[i] = arith::AddFOp::create(b, named(loc, carrier.getNames()[i].getValue()), lhs[i], rhs[i]);
      continue;
    }
    int64_t m = carrier.getTwists()[i];
    if (!wl[m]) { // alpha rescales the left state, beta the right one
      Value safe = safeMax(b, loc, newMax[m]);
      wl[m] = twistWeight(b, loc, "alpha", lhs[m], safe);
      wr[m] = twistWeight(b, loc, "beta", rhs[m], safe);
    }
    Type t = lhs[i].getType();
    Value a = arith::MulFOp::create(b, loc, lhs[i], broadcastTo(b, loc, wl[m], t));
    Value c = arith::MulFOp::create(b, loc, rhs[i], broadcastTo(b, loc, wr[m], t));
    out[i] = arith::AddFOp::create(b, named(loc, carrier.getNames()[i].getValue()), a, c);
  }
  return out;
}

static CarrierAttr makeCarrier(MLIRContext *ctx, ArrayRef<StringRef> names,
                               ArrayRef<CombineKind> kinds, ArrayRef<int64_t> twists) {
  SmallVector<StringAttr> n;
  for (StringRef s : names)
    n.push_back(StringAttr::get(ctx, s));
  return CarrierAttr::get(ctx, n, kinds, twists);
}

CarrierAttr mlir::monoid::getSoftmaxWeightedSumCarrier(MLIRContext *ctx) {
  return makeCarrier(ctx, {"m", "d", "o"}, {CombineKind::Max, CombineKind::Add, CombineKind::Add},
                     {-1, 0, 0});
}
CarrierAttr mlir::monoid::getLogSumExpCarrier(MLIRContext *ctx) {
  return makeCarrier(ctx, {"m", "d"}, {CombineKind::Max, CombineKind::Add}, {-1, 0});
}
CarrierAttr mlir::monoid::getSumCarrier(MLIRContext *ctx) {
  return makeCarrier(ctx, {"s"}, {CombineKind::Add}, {-1});
}

//===----------------------------------------------------------------------===//
// Block fold (tile of rows x block of elements)
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> innerShape(Type t, bool perRow, bool perKey) {
  auto vt = dyn_cast<VectorType>(t);
  if (!vt)
    return {};
  ArrayRef<int64_t> s = vt.getShape();
  size_t lead = size_t(perRow) + size_t(perKey);
  return SmallVector<int64_t>(s.begin() + std::min(lead, s.size()), s.end());
}

Value mlir::monoid::broadcastBlock(OpBuilder &b, Location loc, Value v, bool perRow, bool perKey,
                                   bool toRow, bool toKey, int64_t rows, int64_t block) {
  if (perRow == toRow && perKey == toKey)
    return v;
  SmallVector<int64_t> inner = innerShape(v.getType(), perRow, perKey);
  Type elem = getElementTypeOrSelf(v.getType());
  SmallVector<int64_t> to;
  if (toRow) to.push_back(rows);
  if (toKey) to.push_back(block);
  to.append(inner.begin(), inner.end());
  if (perRow && !perKey && toKey) {
    // [M] + inner -> [M x 1] + inner, whose unit dimension broadcast stretches.
    SmallVector<int64_t> unit{rows, 1};
    unit.append(inner.begin(), inner.end());
    v = vector::ShapeCastOp::create(b, loc, VectorType::get(unit, elem), v);
  }
  return vector::BroadcastOp::create(b, loc, VectorType::get(to, elem), v);
}

SmallVector<Value> mlir::monoid::buildBlockCombine(OpBuilder &b, Location loc, CarrierAttr carrier,
                                                   ValueRange state, ArrayRef<BlockElement> lift,
                                                   int64_t rows, int64_t block) {
  unsigned n = carrier.size();
  MLIRContext *ctx = b.getContext();
  auto full = [&](unsigned i) {
    return broadcastBlock(b, loc, lift[i].value, lift[i].perRow, lift[i].perKey, true, true, rows,
                          block);
  };
  auto rowReduce = [&](vector::CombiningKind kind, Value src, Value acc, StringRef name) -> Value {
    return vector::MultiDimReductionOp::create(b, named(loc, name), src, acc,
                                               ArrayRef<bool>{false, true}, kind);
  };
  SmallVector<Value> out(n), beta(n), alpha(n);
  for (unsigned i = 0; i < n; ++i) {
    if (carrier.getCombines()[i] != CombineKind::Max)
      continue;
    if (!innerShape(lift[i].value.getType(), lift[i].perRow, lift[i].perKey).empty()) {
      emitError(loc) << "block fold: max channel '" << carrier.getNames()[i].getValue()
                     << "' must be a scalar per element";
      return {};
    }
    out[i] = rowReduce(vector::CombiningKind::MAXIMUMF, full(i), state[i],
                       carrier.getNames()[i].getValue());
  }
  for (unsigned i = 0; i < n; ++i) {
    if (carrier.getCombines()[i] == CombineKind::Max)
      continue;
    StringRef name = carrier.getNames()[i].getValue();
    SmallVector<int64_t> inner = innerShape(lift[i].value.getType(), lift[i].perRow, lift[i].perKey);
    if (!carrier.isTwisted(i)) {
      if (!inner.empty()) {
        emitError(loc) << "block fold: untwisted vector channel '" << name << "' is not supported";
        return {};
      }
      out[i] = rowReduce(vector::CombiningKind::ADD, full(i), state[i], name);
      continue;
    }
    int64_t m = carrier.getTwists()[i];
    if (!alpha[m]) {
      Value safe = safeMax(b, loc, out[m]);
      alpha[m] = twistWeight(b, loc, "alpha", state[m], safe);
      Value lm = full(m);
      Value mNew = broadcastBlock(b, loc, safe, true, false, true, true, rows, block);
      beta[m] = twistWeight(b, loc, "p", lm, mNew);
    }
    // The old state, rescaled to the new maximum.
    Value a = broadcastBlock(b, loc, alpha[m], true, false, true, false, rows, block);
    if (!inner.empty()) {
      SmallVector<int64_t> shape{rows};
      shape.append(inner.begin(), inner.end());
      SmallVector<int64_t> unit{rows, 1};
      auto elem = getElementTypeOrSelf(a.getType());
      a = vector::ShapeCastOp::create(b, loc, VectorType::get(unit, elem), a);
      a = vector::BroadcastOp::create(b, loc, VectorType::get(shape, elem), a);
    }
    Value scaled = arith::MulFOp::create(b, loc, state[i], a);
    const BlockElement &x = lift[i];
    if (x.perKey && !x.perRow && inner.size() == 1) {
      // sum_j p[r, j] * x[j, :]: a contraction over the block (P * V).
      Value lhs = beta[m], rhs = x.value;
      if (auto ext = rhs.getDefiningOp<arith::ExtFOp>()) {
        rhs = ext.getIn();
        auto lowp = VectorType::get({rows, block}, getElementTypeOrSelf(rhs.getType()));
        lhs = arith::TruncFOp::create(b, loc, lowp, lhs);
      }
      AffineExpr r, c, k;
      bindDims(ctx, r, c, k);
      SmallVector<SmallVector<AffineExpr, 4>> exprs{{r, k}, {k, c}, {r, c}};
      auto maps = AffineMap::inferFromExprList(exprs, ctx);
      auto iters = b.getArrayAttr(
          {vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
           vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
           vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction)});
      out[i] = vector::ContractionOp::create(b, named(loc, name), lhs, rhs, scaled,
                                             b.getAffineMapArrayAttr(maps), iters);
    } else if (inner.empty() && !x.perKey && !x.perRow && matchPattern(x.value, m_OneFloat())) {
      // Each element counts once: d' = d * alpha + rowsum(p).
      out[i] = rowReduce(vector::CombiningKind::ADD, beta[m], scaled, name);
    } else if (inner.empty() && !x.perKey && !x.perRow) {
      // A per-element constant: rowsum(p) * x.
      Value sum = rowReduce(vector::CombiningKind::ADD, beta[m],
                            scalarConstant(b, loc, state[i].getType(), 0.0), "rowsum");
      Value xs = broadcastBlock(b, loc, x.value, false, false, true, false, rows, block);
      Value t = arith::MulFOp::create(b, loc, sum, xs);
      out[i] = arith::AddFOp::create(b, named(loc, name), scaled, t);
    } else if (inner.empty()) {
      Value px = arith::MulFOp::create(b, loc, beta[m], full(i));
      out[i] = rowReduce(vector::CombiningKind::ADD, px, scaled, name);
    } else {
      emitError(loc) << "block fold: twisted vector channel '" << name
                     << "' that varies per row is not supported";
      return {};
    }
  }
  return out;
}
