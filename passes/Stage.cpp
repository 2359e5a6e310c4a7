//===- Stage.cpp - attncc-stage (block operands through shared memory) ----===//
//
// Pre:  partitioned loop IR; the function carries attncc.schedule.
// Post: for STAGE@<axis>=d1/<transport>[/pad], each vector.contract in an
//       scf.for body whose right-hand operand is a vector.transfer_read in
//       the same body has that read marked
//         attncc.stage = "<transport>[.pad]"     (sync | cp)
//       and moved to the top of the body (after the ops its operands need),
//       keeping the reads' order. All block copies are then in flight before
//       the first contraction waits for one: V arrives while S = Q K^T and
//       the softmax run.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-stage"

namespace mlir::attncc {
#define GEN_PASS_DEF_STAGE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

struct StagePass : mlir::attncc::impl::StageBase<StagePass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    auto attr = f->getAttrOfType<ScheduleAttr>("attncc.schedule");
    if (!attr)
      return;
    const ::attncc::Schedule &s = attr.getSchedule();
    for (const ::attncc::StageKnob &k : s.stages) {
      std::string knob = "STAGE@" + k.axis;
      auto refuse = [&](const std::string &what, const std::string &allowed) {
        f.emitError() << "knob " << knob << ": '" << what << "' is not allowed; expected "
                      << allowed;
        signalPassFailure();
      };
      if (k.depth != 1)
        return refuse("d" + std::to_string(k.depth), "d1 (deeper rings are not built yet)");
      if (k.ring)
        return refuse("ring", "no ring (not built yet)");
      if (k.transport == ::attncc::Transport::Tma)
        return refuse("tma", "sync or cp (TMA is not built yet)");
      if (k.layout == ::attncc::SmemLayout::Swz128)
        return refuse("swz128", "dense or pad (swizzled layouts are not built yet)");
      if (k.regDepth != 0)
        return refuse("p" + std::to_string(k.regDepth), "no register prefetch (not built yet)");
      std::string mark = k.transport == ::attncc::Transport::CpAsync ? "cp" : "sync";
      if (k.layout == ::attncc::SmemLayout::Pad)
        mark += ".pad";
      StringAttr markAttr = StringAttr::get(f.getContext(), mark);

      SmallVector<scf::ForOp> loops;
      f.walk([&](scf::ForOp l) { loops.push_back(l); });
      for (scf::ForOp loop : loops) {
        Block *body = loop.getBody();
        SmallVector<vector::TransferReadOp> staged;
        for (auto c : body->getOps<vector::ContractionOp>()) {
          auto r = c.getRhs().getDefiningOp<vector::TransferReadOp>();
          if (!r || r->getBlock() != body || r->hasAttr("attncc.stage"))
            continue;
          auto vt = r.getVectorType();
          auto mt = dyn_cast<MemRefType>(r.getBase().getType());
          int64_t bytes = vt.getRank() == 2 ? vt.getDimSize(1) * vt.getElementTypeBitWidth() / 8 : 0;
          if (!mt || bytes % 16 != 0 || !r.getPermutationMap().isMinorIdentity() ||
              !r.isDimInBounds(1)) {
            r.emitOpError("attncc-stage: a staged block needs rows of whole 16-byte chunks along "
                          "the buffer's last dimension; this read has ")
                << vt;
            return signalPassFailure();
          }
          r->setAttr("attncc.stage", markAttr);
          staged.push_back(r);
        }
        // Move to the top, after whatever the read's operands need.
        Operation *after = nullptr;
        for (vector::TransferReadOp r : staged) {
          Operation *last = after;
          for (Value v : r->getOperands())
            if (Operation *d = v.getDefiningOp(); d && d->getBlock() == body &&
                                                    (!last || last->isBeforeInBlock(d)))
              last = d;
          if (last)
            r->moveAfter(last);
          else
            r->moveBefore(&body->front());
          after = r;
        }
      }
    }
  }
};

} // namespace
