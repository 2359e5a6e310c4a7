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
/// The identity of one combine (-inf for max, 0 for add) as a constant of
/// type `t` (a float or a vector of floats): what padding and a fold's
/// initial state are made of.
Value buildIdentityConstant(OpBuilder &b, Location loc, CombineKind kind, Type t);

/// lhs (+) rhs, channel-wise:
///   max:          max(a, b)
///   add:          a + b
///   add twist(m): a * w(a_m) + b * w(b_m),  w(x) = exp(x - safe),
///                 safe = max(a_m, b_m), or 0 where that is -inf (then w = 0)
/// Each twist source's new maximum and weights are computed once and shared by
/// all channels it twists.
SmallVector<Value> buildCombine(OpBuilder &b, Location loc, CarrierAttr carrier, ValueRange lhs,
                                ValueRange rhs);

/// One channel's lifted values for a whole block of B elements, seen from a
/// tile of M rows: `value` has shape [M if perRow][B if perKey] + inner, where
/// inner is the channel's own shape (empty for a scalar channel).
struct BlockElement {
  Value value;
  bool perRow = false, perKey = false;
};

/// state (+) lift(j0) (+) ... (+) lift(j0 + B - 1) for a tile of M rows at
/// once, the bracket of B elements folded by the carrier's associativity:
///   max:          m' = max(m, rowmax(lift_m))
///   add twist(m): c' = c * w(m)  +  sum_j w(lift_m[j]) * lift_c[j]
///                 with w(x) = exp(x - safe(m')) (safe: 0 where m' = -inf); the sum is a
///                 contraction over j when lift_c is a key-dependent vector
///                 (for attention, P * V), a row sum when lift_c does not
///                 depend on the key (for attention, d' = d*alpha + rowsum(P));
///   add:          c' = c + rowsum(lift_c).
/// A twisted sum over an `arith.extf` of a low-precision value contracts in
/// that precision (the weights are rounded to it) and accumulates in f32, the
/// tensor-core contract. `state` has shapes [M] + inner. Elements padded with
/// the max channel's identity (-inf) contribute nothing to the channels it
/// twists. Returns an empty vector, with an error on `loc`, for a channel
/// shape it cannot fold (a vector channel that varies per row and key).
SmallVector<Value> buildBlockCombine(OpBuilder &b, Location loc, CarrierAttr carrier,
                                     ValueRange state, ArrayRef<BlockElement> lift, int64_t rows,
                                     int64_t block);

/// `v` of shape [M if perRow][B if perKey] + inner, broadcast to
/// [M if toRow][B if toKey] + inner (perRow <= toRow, perKey <= toKey).
Value broadcastBlock(OpBuilder &b, Location loc, Value v, bool perRow, bool perKey, bool toRow,
                     bool toKey, int64_t rows, int64_t block);

/// Common carriers, built by the front end.
CarrierAttr getSoftmaxWeightedSumCarrier(MLIRContext *ctx); // (m: max, d: add~m, o: add~m)
CarrierAttr getLogSumExpCarrier(MLIRContext *ctx);          // (m: max, d: add~m)
CarrierAttr getSumCarrier(MLIRContext *ctx);                // (s: add)

} // namespace mlir::monoid

#endif // ATTNCC_IR_CARRIER_H
