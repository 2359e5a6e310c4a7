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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "attncc-allocate-smem"

namespace mlir::attncc {
#define GEN_PASS_DEF_ALLOCATESMEM
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct AllocateSmem : mlir::attncc::impl::AllocateSmemBase<AllocateSmem> {
  /// The kernel's shared memory as ops at the top of its body: the dynamic
  /// shared memory, one memref.view per buffer (a ring: its slots as the
  /// leading dimension; swizzled blocks as 128-byte slabs), and for each TMA
  /// buffer its "full" and "empty" mbarriers, initialized by thread 0.
  void writeViews(gpu::GPUFuncOp f, bool swizzled) {
    MLIRContext *ctx = f.getContext();
    Block &entry = f.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    Location loc = f.getLoc();
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto raw = gpu::DynamicSharedMemoryOp::create(b,
        monoid::named(loc, "attncc_smem"),
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface{}, wg));
    // One constant per value, after the base, in the order first needed.
    DenseMap<int64_t, Value> consts;
    Operation *lastConst = raw;
    auto index = [&](int64_t v) {
      Value &c = consts[v];
      if (!c) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointAfter(lastConst);
        c = arith::ConstantIndexOp::create(b, loc, v).getResult();
        lastConst = c.getDefiningOp();
      }
      return c;
    };
    raw->setAttr("attncc.align", b.getI64IntegerAttr(swizzled ? 1024 : 128));
    struct Tma {
      Value full, empty;
      int64_t slots;
    };
    SmallVector<Tma> tma;
    DenseSet<int64_t> done;
    f.walk([&](vector::TransferReadOp r) {
      if (!monoid::isStaged(r) || !done.insert(monoid::smemOffset(r)).second)
        return;
      auto vt = r.getVectorType();
      int64_t slots = monoid::ringSlots(r), rows = vt.getDimSize(0), cols = vt.getDimSize(1);
      SmallVector<int64_t> shape{slots, rows, cols + monoid::rowPad(r)};
      if (monoid::isSwizzled(r)) {
        int64_t slab = monoid::slabElems(vt.getElementType());
        shape = {slots, cols / slab, rows, slab};
      }
      std::string base = "block";
      if (auto nl = dyn_cast<NameLoc>(r.getLoc()))
        base = nl.getName().str();
      memref::ViewOp::create(b, monoid::named(loc, base + "_smem"),
                               MemRefType::get(shape, vt.getElementType(), MemRefLayoutAttrInterface{}, wg), raw,
                               index(monoid::smemOffset(r)), ValueRange{});
      if (!monoid::isTma(r))
        return;
      auto group = nvgpu::MBarrierGroupType::get(ctx, wg, slots);
      Value full = nvgpu::MBarrierCreateOp::create(b, monoid::named(loc, base + "_smem_full"), group);
      Value empty = nvgpu::MBarrierCreateOp::create(b, monoid::named(loc, base + "_smem_empty"), group);
      tma.push_back({full, empty, slots});
    });
    f.walk([&](vector::ContractionOp c) {
      auto off = c->getAttrOfType<IntegerAttr>("attncc.handoff_offset");
      if (!off)
        return;
      auto vt = cast<VectorType>(c.getLhsType());
      memref::ViewOp::create(b, monoid::named(loc, "handoff_smem"),
                               MemRefType::get({vt.getDimSize(0), monoid::handoffStride(vt)}, vt.getElementType(),
                                               MemRefLayoutAttrInterface{}, wg),
                               raw, index(off.getInt()), ValueRange{});
    });
    if (tma.empty())
      return;
    // "full" completes on the issuing thread's arrival plus the TMA bytes,
    // "empty" on one arrival per warp that reads the block.
    int64_t warps = f->getAttrOfType<DictionaryAttr>("attncc.tile").getAs<IntegerAttr>("warps").getInt();
    Value tid = gpu::ThreadIdOp::create(b, monoid::named(loc, "tid"), gpu::Dimension::x);
    Value first = arith::CmpIOp::create(b, monoid::named(loc, "initializer"), arith::CmpIPredicate::eq, tid, index(0));
    auto init = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(init.getThenRegion().front().getTerminator());
      for (const Tma &t : tma)
        for (int64_t i = 0; i < t.slots; ++i) {
          nvgpu::MBarrierInitOp::create(b, loc, t.full, index(1), index(i), Value());
          nvgpu::MBarrierInitOp::create(b, loc, t.empty, index(warps), index(i), Value());
        }
      NVVM::FenceMbarrierInitOp::create(b, loc);
    }
    gpu::BarrierOp::create(b, monoid::named(loc, "the mbarriers are initialized"));
  }

  LogicalResult allocate(gpu::GPUFuncOp f) {
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    if (!tile)
      return success(); // not a tiled kernel: nothing is staged
    OpBuilder b(f.getContext());
    // 1. Staged blocks.
    int64_t smem = 0;
    bool swizzled = false, wgmma = false;
    DenseMap<int64_t, int64_t> ringOffset;
    f.walk([&](vector::ContractionOp c) { wgmma = wgmma || monoid::isWgmma(c) || monoid::isTcgen05(c); });
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
      return f.emitOpError("attncc-allocate-smem: the staged blocks need more shared memory than ")
             << (limitAttr ? (targetAttr ? targetAttr.str() : std::string("the target")) + " allows a block"
                           : std::string("every target of a") + (wgmma ? " wgmma" : "n mma") +
                                 " atom allows a block")
             << ": required " << smem << " B, limit " << kSmemLimit << " B (use a smaller tile, no ring, or no /pad)";
    NamedAttrList attrs(tile);
    attrs.set("smem", b.getI64IntegerAttr(smem));
    f->setAttr("attncc.tile", attrs.getDictionary(f.getContext()));
    if (smem)
      writeViews(f, swizzled);
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
