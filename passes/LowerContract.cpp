//===- LowerContract.cpp - attncc-lower-contract --------------------------===//
//
// Pre:  monoid.contract ops on 1-D float vectors.
// Post: widen both operands to the accumulator type, multiply, and sum in
//       index order with vector.reduction <add> (no reassociation), the
//       scalar realization used on the CPU.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-lower-contract"

namespace mlir::attncc {
#define GEN_PASS_DEF_LOWERCONTRACT
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

Value widen(OpBuilder &b, Location loc, Value v, FloatType acc) {
  auto vt = cast<VectorType>(v.getType());
  if (vt.getElementType() == acc)
    return v;
  return arith::ExtFOp::create(b, loc, vt.clone(acc), v);
}

struct LowerContractPass : mlir::attncc::impl::LowerContractBase<LowerContractPass> {
  void runOnOperation() override {
    SmallVector<ContractOp> ops;
    getOperation().walk([&](ContractOp c) { ops.push_back(c); });
    for (ContractOp c : ops) {
      OpBuilder b(c);
      Location loc = unnamed(c.getLoc());
      auto acc = cast<FloatType>(c.getType());
      Value prod = arith::MulFOp::create(b, loc, widen(b, loc, c.getLhs(), acc),
                                         widen(b, loc, c.getRhs(), acc));
      Value sum = vector::ReductionOp::create(b, c.getLoc(), vector::CombiningKind::ADD, prod);
      c.replaceAllUsesWith(sum);
      c.erase();
    }
  }
};

} // namespace
