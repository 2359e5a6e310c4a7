//===- ExpandCarrier.cpp - attncc-expand-carrier --------------------------===//
//
// Pre:  no monoid.reduce (stream-reduce has run); monoid.identity,
//       monoid.combine and monoid.project anywhere.
// Post: only arith/math/vector remain of the carrier algebra:
//   1. identity -> constants (-inf for max channels, 0 for add channels);
//   2. combine  -> ir/Carrier.h's buildCombine: the new max, the weights
//                  w = exp(m_old - m_new) (w(-inf) = 0), the channel updates;
//   3. project  -> its body, inlined on the folded state.
//
//===----------------------------------------------------------------------===//
#include "ir/Carrier.h"
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "attncc-expand-carrier"

namespace mlir::attncc {
#define GEN_PASS_DEF_EXPANDCARRIER
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

struct ExpandCarrierPass : mlir::attncc::impl::ExpandCarrierBase<ExpandCarrierPass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    WalkResult unstreamed = f.walk([&](ReduceOp r) {
      r.emitOpError("must be streamed (attncc-stream-reduce) before the carrier is expanded");
      return WalkResult::interrupt();
    });
    if (unstreamed.wasInterrupted())
      return signalPassFailure();

    SmallVector<Operation *> ops;
    f.walk([&](Operation *op) {
      if (isa<IdentityOp, CombineOp, ProjectOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      SmallVector<Value> repl;
      if (auto id = dyn_cast<IdentityOp>(op)) {
        repl = buildIdentity(b, unnamed(op->getLoc()), id.getCarrier(), id.getResultTypes());
      } else if (auto c = dyn_cast<CombineOp>(op)) {
        repl = buildCombine(b, unnamed(op->getLoc()), c.getCarrier(), c.getLhs(), c.getRhs());
      } else {
        auto p = cast<ProjectOp>(op);
        Block &body = p.getBody().front();
        IRMapping map;
        map.map(body.getArguments(), p.getState());
        for (Operation &inner : body.without_terminator())
          b.clone(inner, map);
        for (Value v : cast<YieldOp>(body.getTerminator()).getValues())
          repl.push_back(map.lookupOrDefault(v));
      }
      op->replaceAllUsesWith(repl);
      op->erase();
    }
  }
};

} // namespace
