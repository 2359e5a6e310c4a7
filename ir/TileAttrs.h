//===- TileAttrs.h - the attributes of tile-level IR ------------*- C++ -*-===//
//
// Below the monoid level, the GPU-shaping passes talk to the emitter through
// a few discardable attributes; their names and the one query they share
// live here:
//   attncc.stage  = "sync"|"cp"[".pad"]  on a vector.transfer_read staged in
//                                        shared memory (attncc-stage)
//   attncc.ring   = <id>                 reads of one operand sharing a ring
//                                        of 2 buffers (attncc-stage, d2/ring)
//   attncc.layout = "c"|"row"|...        which thread holds which element
//   attncc.layouts = [...]               the same for an scf.for's iter_args
//   attncc.atom   = "mma.m16n8k16"       a contraction's instruction
//   attncc.tile   = {warps, rows}        a kernel's CTA tile (attncc-atomize)
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_IR_TILEATTRS_H
#define ATTNCC_IR_TILEATTRS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::monoid {

/// The staged read that fills the shared-memory block `v`: `v` itself, or
/// (through the iter_args of a ring) the read before the loop. Null if `v`
/// is not a staged block.
inline vector::TransferReadOp stagedRead(Value v) {
  if (auto r = v.getDefiningOp<vector::TransferReadOp>())
    return r->hasAttr("attncc.stage") ? r : vector::TransferReadOp();
  if (auto a = dyn_cast<BlockArgument>(v))
    if (auto f = dyn_cast<scf::ForOp>(a.getOwner()->getParentOp()))
      if (a.getArgNumber() >= 1)
        return stagedRead(f.getInitArgs()[a.getArgNumber() - 1]);
  return {};
}

} // namespace mlir::monoid

#endif
