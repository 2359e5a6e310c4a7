//===- Carrier.cpp - the carrier algebra as IR builders -------------------===//
#include "ir/Carrier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

SmallVector<Value> mlir::monoid::buildIdentity(OpBuilder &b, Location loc, CarrierAttr carrier,
                                               TypeRange types) {
  SmallVector<Value> out;
  for (auto [kind, t] : llvm::zip(carrier.getCombines(), types))
    out.push_back(scalarConstant(b, loc, t,
                                 kind == CombineKind::Max ? -std::numeric_limits<double>::infinity()
                                                          : 0.0));
  return out;
}

/// w(x) = x == -inf ? 0 : exp(x - mNew): the weight of a state whose max is x.
/// A state with max -inf holds nothing (d = o = 0), so its weight is 0 and no
/// exp(-inf - (-inf)) = NaN can arise.
static Value twistWeight(OpBuilder &b, Location loc, StringRef name, Value x, Value mNew) {
  Value ninf = scalarConstant(b, loc, x.getType(), -std::numeric_limits<double>::infinity());
  Value zero = scalarConstant(b, loc, x.getType(), 0.0);
  Value isEmpty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, ninf);
  Value e = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, mNew));
  return arith::SelectOp::create(b, named(loc, name), isEmpty, zero, e);
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
      wl[m] = twistWeight(b, loc, "alpha", lhs[m], newMax[m]);
      wr[m] = twistWeight(b, loc, "beta", rhs[m], newMax[m]);
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
