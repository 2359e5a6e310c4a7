//===- Splat.h - a float constant of a scalar or vector type ----*- C++ -*-===//
//
// The loop passes that rewrite arithmetic (attncc-exp2, attncc-lazy-rescale,
// attncc-exp-poly) make constants of the type of the value they rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_PASSES_SPLAT_H
#define ATTNCC_PASSES_SPLAT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::attncc {

/// `v` as a constant of type `t` (a float, or a vector of floats: a splat).
inline Value floatSplat(OpBuilder &b, Location loc, Type t, double v) {
  auto ft = cast<FloatType>(getElementTypeOrSelf(t));
  if (auto vt = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(b, loc, vt, DenseElementsAttr::get(vt, b.getFloatAttr(ft, v)));
  return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
}

} // namespace mlir::attncc

#endif
