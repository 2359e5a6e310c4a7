//===- Carrier.h - the carrier algebra as IR builders -----------*- C++ -*-===//
//
// The one place that knows how carrier channels combine. Passes that need the
// algebra in arith/math form (expand-carrier today, the GPU lowerings later)
// call these; no pass spells out a rescale by hand.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_IR_CARRIER_H
#define ATTNCC_IR_CARRIER_H

#include "ir/MonoidDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::monoid {

/// Identity values (-inf for max, 0 for add; splatted for vectors).
SmallVector<Value> buildIdentity(OpBuilder &b, Location loc, CarrierAttr carrier, TypeRange types);

/// lhs (+) rhs, channel-wise:
///   max:          max(a, b)
///   add:          a + b
///   add twist(m): a * w(a_m) + b * w(b_m),  w(x) = x == -inf ? 0 : exp(x - max(a_m, b_m))
/// Each twist source's new maximum and weights are computed once and shared by
/// all channels it twists.
SmallVector<Value> buildCombine(OpBuilder &b, Location loc, CarrierAttr carrier, ValueRange lhs,
                                ValueRange rhs);

/// Common carriers, built by the front end.
CarrierAttr getSoftmaxWeightedSumCarrier(MLIRContext *ctx); // (m: max, d: add~m, o: add~m)
CarrierAttr getLogSumExpCarrier(MLIRContext *ctx);          // (m: max, d: add~m)
CarrierAttr getSumCarrier(MLIRContext *ctx);                // (s: add)

} // namespace mlir::monoid

#endif // ATTNCC_IR_CARRIER_H
