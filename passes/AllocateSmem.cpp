//===- AllocateSmem.cpp - attncc-allocate-smem (a kernel's shared memory) -===//
//
// Pre:  outlined kernels after attncc-atomize (attncc.tile = {warps, rows}),
//       whose staged blocks are vector.transfer_reads marked by attncc-stage
//       (attncc.stage, and attncc.ring / attncc.ring_slots for a ring) and
//       whose REPACK=smem contractions are marked attncc.handoff.
// Post: each staged block has attncc.smem_offset (its byte offset in the
//       kernel's dynamic shared memory; the reads of one ring share one),
//       each handoff contraction attncc.handoff_offset, and attncc.tile
//       gains smem = the bytes the kernel asks for. Refused, naming both
//       numbers, when that exceeds the module's attncc.smem_limit (the
//       target's opt-in limit per block, recorded by the driver); without it
//       the smallest limit of the targets the kernel's atoms run on.
//
// Algorithm, in program order:
//   1. each staged block (a ring: all its slots) after the previous one,
//      aligned to 128 B, or to 1024 B when swizzled (the 128-byte swizzle
//      repeats every 8 rows and applies to absolute addresses);
//   2. each handoff slab (rows padded to handoffStride) after them, 128 B
//      aligned;
//   3. the total rounded up to 128 B, plus 1024 B when anything is swizzled
//      (the emitter aligns the base of the dynamic shared memory up to 1024).
// (Until 2026-12-01 this was the tail of attncc-atomize.)
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidDialect.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#define DEBUG_TYPE "attncc-allocate-smem"

namespace mlir::attncc {
#define GEN_PASS_DEF_ALLOCATESMEM
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct AllocateSmem : mlir::attncc::impl::AllocateSmemBase<AllocateSmem> {
  LogicalResult allocate(gpu::GPUFuncOp f) {
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    if (!tile)
      return success(); // not a tiled kernel: nothing is staged
    OpBuilder b(f.getContext());
    // 1. Staged blocks.
    int64_t smem = 0;
    bool swizzled = false, wgmma = false;
    DenseMap<int64_t, int64_t> ringOffset;
    f.walk([&](vector::ContractionOp c) { wgmma = wgmma || monoid::isWgmma(c); });
    f.walk([&](vector::TransferReadOp r) {
      if (!monoid::isStaged(r))
        return;
      auto ring = r->getAttrOfType<IntegerAttr>("attncc.ring");
      if (ring && ringOffset.count(ring.getInt())) {
        r->setAttr("attncc.smem_offset", b.getI64IntegerAttr(ringOffset[ring.getInt()]));
        return; // the ring's other read shares its buffers
      }
      auto vt = r.getVectorType();
      int64_t align = monoid::isSwizzled(r) ? 1024 : 128;
      swizzled = swizzled || monoid::isSwizzled(r);
      int64_t bytes = monoid::ringSlots(r) * vt.getDimSize(0) * (vt.getDimSize(1) + monoid::rowPad(r)) *
                      vt.getElementTypeBitWidth() / 8;
      smem = (smem + align - 1) / align * align;
      r->setAttr("attncc.smem_offset", b.getI64IntegerAttr(smem));
      if (ring)
        ringOffset[ring.getInt()] = smem;
      smem += bytes;
    });
    // 2. REPACK=smem slabs (attncc-handoff; atomize checked that the left
    //    operand is in C fragments), rows padded as for /pad.
    f.walk([&](vector::ContractionOp c) {
      if (!c->hasAttr("attncc.handoff"))
        return;
      auto vt = cast<VectorType>(c.getLhsType());
      smem = (smem + 127) / 128 * 128;
      c->setAttr("attncc.handoff_offset", b.getI64IntegerAttr(smem));
      smem += vt.getDimSize(0) * monoid::handoffStride(vt) * vt.getElementTypeBitWidth() / 8;
    });
    // 3. The total, within the target's limit.
    smem = (smem + 127) / 128 * 128 + (swizzled ? 1024 : 0);
    auto limitAttr = getOperation()->getAttrOfType<IntegerAttr>("attncc.smem_limit");
    auto targetAttr = getOperation()->getAttrOfType<StringAttr>("attncc.target");
    const int64_t kSmemLimit = limitAttr ? limitAttr.getInt() : (wgmma ? 227 : 99) * 1024;
    if (smem > kSmemLimit)
      return f.emitOpError("attncc-allocate-smem: the staged blocks need ")
             << smem << " B of shared memory, more than the " << kSmemLimit << " B "
             << (limitAttr ? (targetAttr ? targetAttr.str() : std::string("the target")) + " allows a block"
                           : std::string("every target of a") + (wgmma ? " wgmma" : "n mma") +
                                 " atom allows a block")
             << " (use a smaller tile, no ring, or no /pad)";
    NamedAttrList attrs(tile);
    attrs.set("smem", b.getI64IntegerAttr(smem));
    f->setAttr("attncc.tile", attrs.getDictionary(f.getContext()));
    return success();
  }

  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](gpu::GPUFuncOp f) {
      return failed(allocate(f)) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
