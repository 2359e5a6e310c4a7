//===- Handoff.cpp - attncc-handoff (REPACK=smem) --------------------------===//
//
// Pre:  loop IR; the function carries attncc.schedule.
// Post: with REPACK=smem, every vector.contract whose left operand is
//       computed in registers (not a vector.transfer_read: P = softmax(S),
//       the first product's C fragments) is marked
//         attncc.handoff = "smem"
//       attncc-atomize gives each marked contraction a shared-memory slab of
//       its left operand's shape, rows padded by 16 B; the emitter writes the
//       operand's C fragments there and reads them back as A fragments with
//       ldmatrix.x4. Each warp writes and reads only its own rows, so a
//       __syncwarp before the writes (the previous block's reads are done)
//       and one after them (the writes are visible) order it.
//
// This is the seed's first P*V: ~36 shared-memory operations and a barrier
// per block, where the default (REPACK=regs, done by attncc-atomize) turns
// two adjacent C fragments into one A fragment with four conversions. It
// exists as a rung of the ladder, to measure what the repack is worth; the
// same values reach the same mma instructions, so results are bitwise equal.
// The knob is refused without an mma atom (Built.cpp): wgmma is built to
// read P from registers only.
//
//===----------------------------------------------------------------------===//
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-handoff"

namespace mlir::attncc {
#define GEN_PASS_DEF_HANDOFF
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct HandoffPass : mlir::attncc::impl::HandoffBase<HandoffPass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *s = monoid::scheduleOf(f);
    if (!s || s->repack != ::attncc::RepackKind::Smem)
      return;
    StringAttr smem = StringAttr::get(f.getContext(), "smem");
    f.walk([&](vector::ContractionOp c) {
      if (!c.getLhs().getDefiningOp<vector::TransferReadOp>())
        c->setAttr("attncc.handoff", smem);
    });
  }
};

} // namespace
