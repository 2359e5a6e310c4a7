//===- LdmatrixX4.cpp - attncc-ldmatrix-x4 (STAGE@kv=.../x4) --------------===//
//
// Pre:  loop IR after attncc-stage; the function carries attncc.schedule.
// Post: with STAGE@<fold axis>=d<n>/sync|cp[/ring][/pad]/x4, every
//       vector.contract whose right-hand operand is a block staged in
//       shared memory by sync or cp copies (a read marked attncc.stage, or a
//       ring iter_arg carrying one) is marked
//         attncc.ldmatrix = "x4"
//       The emitter then reads the B fragments of two adjacent n8 tiles
//       with one ldmatrix.x4 (.trans for a [k x n] block such as V) instead
//       of two ldmatrix.x2: half the shared-memory load instructions for
//       the same bytes. A contraction whose N is an odd number of n8 tiles
//       is not marked (it keeps x2).
//
// The peephole changes which instruction moves the bytes, not what the
// kernel computes: the same registers end up holding the same fragments.
// A staged Q tile (STAGE@q) is an A operand, already read by ldmatrix.x4;
// x4 on a free axis is refused. swz128 and tma blocks feed wgmma through
// descriptors; the knob parser refuses x4 with them.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-ldmatrix-x4"

namespace mlir::attncc {
#define GEN_PASS_DEF_LDMATRIXX4
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct LdmatrixX4Pass : mlir::attncc::impl::LdmatrixX4Base<LdmatrixX4Pass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *sched = monoid::scheduleOf(f);
    if (!sched)
      return;
    const ::attncc::Schedule &s = *sched;
    for (const ::attncc::StageKnob &k : s.stages) {
      if (!k.x4)
        continue;
      const ::attncc::TileKnob *tile = s.tile(k.axis);
      if (!tile || !tile->atom) { // not the axis a tensor-core TILE folds
        f.emitError() << "knob STAGE@" << k.axis << ": 'x4' is not allowed; expected x4 only on the "
                      << "axis the fold tiles (TILE@<axis>): a staged " << k.axis
                      << " tile is a left operand, whose A fragments are already read by ldmatrix.x4";
        return signalPassFailure();
      }
      StringAttr x4 = StringAttr::get(f.getContext(), "x4");
      f.walk([&](vector::ContractionOp c) {
        vector::TransferReadOp r = monoid::stagedRead(c.getRhs());
        if (!r)
          return;
        // ldmatrix.x4 reads two adjacent n8 tiles: N must hold an even
        // number of them (an odd one keeps x2).
        auto acc = dyn_cast<VectorType>(c.getAccType());
        if (!monoid::isTma(r) && acc && acc.getRank() == 2 && acc.getDimSize(1) / 8 % 2 == 0)
          c->setAttr("attncc.ldmatrix", x4);
      });
    }
  }
};

} // namespace
