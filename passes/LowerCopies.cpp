//===- LowerCopies.cpp - attncc-lower-copies (staged copies as nvgpu ops) -===//
//
// Pre:  outlined tiled kernels after attncc-warp-specialize. A staged block
//       is a vector.transfer_read of a kernel argument marked attncc.stage
//       (#monoid.staged<sync|cp|tma, ...>) with layout smem and an
//       attncc.smem_offset naming one of attncc-allocate-smem's memref.views
//       (a TMA buffer's view is followed by its "full" and "empty"
//       nvgpu.mbarrier.create); attncc-place-waits wrote monoid.tma_wait and
//       monoid.tma_release for the TMA blocks.
// Post: every copy into shared memory is ops that name their source, their
//       destination and what says they landed:
//         memref.alloca : memref<i32>       per ring (cp) the slot the next
//                                           copy fills; per TMA buffer the
//                                           blocks issued (fills) and waited
//                                           for (waits): private counters
//         memref.subview %view[%slot, ...]  the slot a copy fills
//         scf.for %chunk = %tid to N step T one 16-byte chunk per thread and
//           nvgpu.device_async_copy         step (cp: cp.async.cg, the rows
//           | vector.load + arith.select    past the tensor's end zero-filled;
//             + vector.store                sync: loads and stores); in a
//                                           loop, when T divides N, a loop of
//                                           N / T steps {attncc.unroll}, each
//                                           chunk T / (chunks a row) rows
//                                           below the last
//         nvgpu.mbarrier.try_wait.parity    (TMA) the slot is free: every
//           %empty[%slot]                   warp arrived after its last read
//         nvgpu.mbarrier.arrive.expect_tx   (TMA) the bytes to expect on
//           %full[%slot]                    "full"
//         nvgpu.tma.async.load %desc[...]   (TMA) one box per 128-byte slab;
//                                           %desc a kernel argument of type
//                                           !nvgpu.tensormap.descriptor, made
//                                           on the host by
//                                           nvgpu.tma.create.descriptor
//       and the block its readers see is a read of that slot:
//         vector.transfer_read %slot_view   (swizzled slabs: a read of the
//           [+ vector.transpose               [slabs, rows, slab] slot, then
//              + vector.shape_cast]           rows x cols); it keeps
//                                           attncc.stage (how the block sits)
//                                           and the layout smem.
//       monoid.tma_wait becomes nvgpu.mbarrier.try_wait.parity on the
//       block's "full" barrier (slot and phase from the waits counter) and
//       monoid.tma_release an nvgpu.mbarrier.arrive by lane 0 of each warp
//       on its "empty" barrier (after nvvm.bar.warp.sync), guarded by the
//       slots of the `unless` blocks. A loop that carries TMA blocks, or
//       blocks of a ring of several slots, also carries their slots: one
//       iter_arg each, the slot's index for a TMA block (its barriers are
//       picked by it), the slot's memref.subview for a cp/sync ring block
//       (attncc-lower-mma reads the carried block from it, so the kernel
//       keeps one pointer per block rather than rebuilding it per read);
//       in a kernel with mma.sync atoms a TMA block also carries its slot's
//       memref.subview ("<block>_view"), for the same reason.
//       Who issues a TMA copy: thread 0 (scf.if), or under WSPEC the
//       producer role's thread (the consumers only advance the fill count
//       and take the slot). Blocks issued and never waited for are waited
//       for before the kernel (or the producer thread) ends.
// Refused: a staged read that is not a row-major 2-d block of a kernel
//       argument (or of a view of one: a varlen sequence's rows, whose TMA
//       boxes are the argument's at the view's offsets), or whose buffer
//       has no view.
// (Until 2026-12-02 the CUDA emitter printed each staged read as these
// copies, with the counters as mutable CUDA variables.)
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/KernelConstants.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "attncc-lower-copies"

namespace mlir::attncc {
#define GEN_PASS_DEF_LOWERCOPIES
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// The name of `v`'s NameLoc, or `dflt`.
std::string nameOr(Value v, StringRef dflt) {
  if (auto n = dyn_cast<NameLoc>(v.getLoc()))
    return n.getName().str();
  return dflt.str();
}

class Lowerer {
public:
  Lowerer(gpu::GPUFuncOp f) : f(f), b(f.getContext()), loc(f.getLoc()), consts(f) {
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    warps = tile.getAs<IntegerAttr>("warps").getInt();
    if (auto p = tile.getAs<IntegerAttr>("producers"))
      producers = p.getInt();
    persistent = f->hasAttr("attncc.persistent");
    // The atoms (attncc-lower-mma, attncc-lower-wgmma) read TMA blocks
    // from their slot's view (ldmatrix, descriptors): loops carry that view.
    f.walk([&](vector::ContractionOp c) {
      if (auto a = c->getAttrOfType<StringAttr>("attncc.atom"))
        mmaReaders = mmaReaders || a.getValue().starts_with("mma.") || a.getValue().starts_with("wgmma.") ||
                     a.getValue().starts_with("tcgen05.");
    });
  }

  LogicalResult run() {
    if (failed(findBuffers()))
      return failure();
    if (failed(addDescriptors()))
      return failure();
    addCounters();
    visit(f.getBody().front());
    if (failed(status))
      return failure();
    drain();
    return success();
  }

private:
  gpu::GPUFuncOp f;
  OpBuilder b;
  Location loc;
  int64_t warps = 0, producers = 0;
  bool persistent = false; // GRID=persistent: the kernel loops over tiles, so its rings must balance
  bool mmaReaders = false; // the kernel has tensor-core atoms (attncc-lower-mma and -lower-wgmma read the slots)
  LogicalResult status = success();

  struct Buffer {
    memref::ViewOp view;
    Value full, empty;   // TMA: its mbarrier groups
    Value fills, waits;  // TMA: blocks issued, blocks waited for; cp ring: the next slot (fills)
    int64_t slots = 1;
    bool tma = false;
  };
  std::map<int64_t, Buffer> buffers;              // by byte offset
  std::map<std::pair<unsigned, int64_t>, Value> descriptors; // (argument, box rows) -> kernel argument
  DenseMap<Value, Value> slotOf;                  // a TMA block -> its slot (index)
  DenseMap<Value, Value> viewOf;                  // a block of a cp/sync ring, or a TMA block mma.sync atoms read -> its slot's view
  DenseMap<Value, int64_t> bufferOf;              // a TMA block -> its buffer's offset
  Operation *issuer = nullptr;                    // WSPEC: the producer thread's scf.if

  mlir::attncc::KernelConstants consts;             // one constant at the kernel's top
  Value tidValue;                                   // gpu.thread_id x, at the kernel's top

  Value index(int64_t v) { return consts.index(v); }
  Value i32(int64_t v) { return consts.i32(v); }
  /// a + b, or b when a is the constant 0.
  Value add(Value a, Value bv) {
    if (auto c = getConstantIntValue(a); c && *c == 0)
      return bv;
    return arith::AddIOp::create(b, loc, a, bv);
  }
  Value tid() {
    if (!tidValue) {
      OpBuilder top = OpBuilder::atBlockBegin(&f.getBody().front());
      tidValue = gpu::ThreadIdOp::create(top, monoid::named(loc, "tid"), gpu::Dimension::x);
    }
    return tidValue;
  }

  /// The views and mbarriers attncc-allocate-smem wrote at the kernel's top.
  LogicalResult findBuffers() {
    Buffer *last = nullptr;
    for (Operation &op : f.getBody().front()) {
      if (auto v = dyn_cast<memref::ViewOp>(op)) {
        if (v.getType().getRank() < 3) { // a REPACK=smem slab: no copy fills it
          last = nullptr;
          continue;
        }
        auto off = getConstantIntValue(v.getByteShift());
        if (!off)
          return v.emitOpError("attncc-lower-copies: a shared buffer needs a constant offset");
        last = &buffers[*off];
        last->view = v;
        last->slots = v.getType().getDimSize(0);
      } else if (isa<nvgpu::MBarrierCreateOp>(op)) {
        if (!last)
          return op.emitOpError("attncc-lower-copies: an mbarrier group needs the view of its TMA buffer before it");
        (last->full ? last->empty : last->full) = op.getResult(0);
        last->tma = true;
      }
    }
    return success();
  }

  /// One !nvgpu.tensormap.descriptor argument per (argument, box), after the
  /// kernel's own, in the order monoid::tmaMaps lists them; each launch of the
  /// kernel passes one made by nvgpu.tma.create.descriptor on the host.
  LogicalResult addDescriptors() {
    SmallVector<monoid::TmaMap> maps = monoid::tmaMaps(f);
    if (maps.empty())
      return success();
    MLIRContext *ctx = f.getContext();
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto module = f->getParentOfType<ModuleOp>();
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp l) {
      if (SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(l, l.getKernel()) == f)
        launches.push_back(l);
    });
    for (const monoid::TmaMap &m : maps) {
      auto mt = cast<MemRefType>(f.getArgument(m.arg).getType());
      SmallVector<int64_t> box(mt.getRank(), 1);
      box[mt.getRank() - 2] = m.rows;
      box[mt.getRank() - 1] = m.cols;
      auto desc = nvgpu::TensorMapDescriptorType::get(
          ctx, MemRefType::get(box, mt.getElementType(), MemRefLayoutAttrInterface{}, wg),
          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B, nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
          nvgpu::TensorMapOOBKind::OOB_ZERO, nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
      // Named after the host's value (the kernel's arguments take those names).
      std::string name = "tm_" + (launches.empty() ? std::string("arg") + std::to_string(m.arg)
                                                   : nameOr(launches.front().getKernelOperands()[m.arg], "arg"));
      unsigned at = f.getNumArguments();
      if (failed(f.insertArgument(at, desc, DictionaryAttr(), monoid::named(loc, name))))
        return f.emitOpError("attncc-lower-copies: cannot add a TMA descriptor argument");
      descriptors[{m.arg, m.rows}] = f.getArgument(at);
      for (gpu::LaunchFuncOp l : launches) {
        OpBuilder h(l);
        Value src = l.getKernelOperands()[m.arg];
        auto unranked = UnrankedMemRefType::get(mt.getElementType(), mt.getMemorySpace());
        Value cast = memref::CastOp::create(h, l.getLoc(), unranked, src);
        SmallVector<Value> dims;
        for (int64_t d : box)
          dims.push_back(arith::ConstantIndexOp::create(h, l.getLoc(), d));
        Value d = nvgpu::TmaCreateDescriptorOp::create(h, monoid::named(l.getLoc(), name), desc, cast, dims);
        l.getKernelOperandsMutable().append(d);
      }
    }
    return success();
  }

  /// The private counters, after the shared memory's views and mbarriers.
  void addCounters() {
    Operation *after = nullptr;
    for (Operation &op : f.getBody().front())
      if (isa<gpu::DynamicSharedMemoryOp, memref::ViewOp, nvgpu::MBarrierCreateOp>(op))
        after = &op;
    if (!after)
      return;
    b.setInsertionPointAfter(after);
    auto counter = [&](const std::string &name) {
      Value c = memref::AllocaOp::create(b, monoid::named(loc, name), MemRefType::get({}, b.getI32Type()));
      memref::StoreOp::create(b, loc, i32(0), c, ValueRange{});
      return c;
    };
    for (auto &[off, buf] : buffers) {
      std::string base = nameOr(buf.view.getResult(), "buf");
      if (buf.tma) {
        buf.fills = counter(base + "_w");
        buf.waits = counter(base + "_r");
      } else if (buf.slots > 1) {
        buf.fills = counter(base + "_slot");
      }
    }
  }

  /// Ops in program order; loops carrying TMA or ring blocks first gain their slots.
  void visit(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
      if (failed(status))
        return;
      if (auto r = dyn_cast<vector::TransferReadOp>(op); r && monoid::isStaged(r) &&
                                                         monoid::globalBase(r.getBase())) {
        status = lowerRead(r);
        continue;
      }
      if (auto w = dyn_cast<monoid::TmaWaitOp>(op)) {
        status = lowerWait(w);
        continue;
      }
      if (auto rel = dyn_cast<monoid::TmaReleaseOp>(op)) {
        status = lowerRelease(rel);
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        visitLoop(loop);
        continue;
      }
      if (auto i = dyn_cast<scf::IfOp>(op); i && i->hasAttr("attncc.roles"))
        i.getThenRegion().walk([&](vector::TransferReadOp r) {
          if (!issuer && monoid::isTmaStaged(r))
            issuer = r->getParentOfType<scf::IfOp>();
        });
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          visit(inner);
    }
  }

  /// A loop whose iter_args carry TMA or ring blocks carries their slots
  /// too: a TMA block's index, a ring block's view, and, for a TMA block
  /// that mma.sync atoms read, its view after its index.
  void visitLoop(scf::ForOp loop) {
    struct Carried {
      unsigned k;                  // the block's iter_arg
      DenseMap<Value, Value> *map; // slotOf or viewOf
    };
    SmallVector<Carried> carried;
    SmallVector<Value> inits;
    for (auto [k, init] : llvm::enumerate(loop.getInitArgs())) {
      if (slotOf.count(init)) {
        carried.push_back({unsigned(k), &slotOf});
        inits.push_back(slotOf[init]);
      }
      if (viewOf.count(init)) {
        carried.push_back({unsigned(k), &viewOf});
        inits.push_back(viewOf[init]);
      }
    }
    if (carried.empty()) {
      visit(*loop.getBody());
      return;
    }
    IRRewriter rw(b.getContext());
    rw.setInsertionPoint(loop);
    unsigned first = loop.getNumRegionIterArgs();
    SmallVector<Location> argLocs; // the new loop's body takes fresh arguments: keep their names
    for (Value a : loop.getRegionIterArgs())
      argLocs.push_back(a.getLoc());
    Location ivLoc = loop.getInductionVar().getLoc();
    auto grown = loop.replaceWithAdditionalYields(
        rw, inits, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument> args) { return SmallVector<Value>(args); });
    if (failed(grown)) {
      status = loop.emitOpError("attncc-lower-copies: cannot carry the slots of its staged blocks");
      return;
    }
    auto l = cast<scf::ForOp>(grown->getOperation());
    l.getInductionVar().setLoc(ivLoc);
    for (auto [a, loc] : llvm::zip(l.getRegionIterArgs(), argLocs))
      a.setLoc(loc);
    // The layouts of the new iter_args (index scalars and memrefs: none).
    if (auto ls = l->getAttrOfType<ArrayAttr>("attncc.layouts")) {
      SmallVector<Attribute> all(ls.begin(), ls.end());
      while (all.size() < l.getNumRegionIterArgs())
        all.push_back(b.getStringAttr(""));
      l->setAttr("attncc.layouts", b.getArrayAttr(all));
    }
    for (auto [i, c] : llvm::enumerate(carried)) {
      Value arg = l.getRegionIterArgs()[c.k], extra = l.getRegionIterArgs()[first + i];
      // "<block>_slot"; a second value carried beside the same block is its "_view".
      bool second = i && carried[i - 1].k == c.k;
      extra.setLoc(monoid::named(loc, nameOr(arg, "block") + (second ? "_view" : "_slot")));
      (*c.map)[arg] = extra;
      (*c.map)[l.getResult(c.k)] = l.getResult(first + i);
      if (auto it = bufferOf.find(l.getInitArgs()[c.k]); it != bufferOf.end())
        bufferOf[arg] = bufferOf[l.getResult(c.k)] = it->second;
    }
    visit(*l.getBody());
    auto yield = cast<scf::YieldOp>(l.getBody()->getTerminator());
    for (auto [i, c] : llvm::enumerate(carried)) {
      Value y = yield.getOperand(c.k);
      if (!c.map->count(y)) {
        status = yield.emitOpError("attncc-lower-copies: the loop yields a staged block whose slot is not known");
        return;
      }
      yield->setOperand(first + i, (*c.map)[y]);
    }
  }

  bool inProducer(Operation *op) {
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
      if (auto i = dyn_cast<scf::IfOp>(p); i && i->hasAttr("attncc.roles"))
        return i.getThenRegion().isAncestor(op->getParentRegion());
    return false;
  }

  /// slot = count % slots; the phase a wait waits for is (count / slots) & 1.
  Value slotFor(Value count, int64_t slots) {
    if (slots == 1)
      return index(0);
    Value s = arith::RemUIOp::create(b, loc, count, i32(slots));
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), s);
  }
  Value phaseFor(Value count, int64_t slots, bool freed, const std::string &name) {
    Value q = slots == 1 ? count : arith::DivUIOp::create(b, loc, count, i32(slots)).getResult();
    Value bit = arith::AndIOp::create(b, loc, q, i32(1));
    // A fresh mbarrier counts as having completed the phase of parity 1: the
    // first wait for a free slot passes.
    return arith::CmpIOp::create(b, monoid::named(loc, name), freed ? arith::CmpIPredicate::eq
                                                                   : arith::CmpIPredicate::ne,
                                   bit, i32(0));
  }
  Value bump(Value counter) {
    Value c = memref::LoadOp::create(b, loc, counter, ValueRange{});
    memref::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, c, i32(1)), counter, ValueRange{});
    return c;
  }

  /// The slot of `view` a block fills: [slot, 0, ...] of its leading dimension.
  Value slotView(memref::ViewOp view, Value slot, const std::string &name) {
    auto vt = view.getType();
    SmallVector<OpFoldResult> offs{getAsOpFoldResult(slot)}, sizes{b.getIndexAttr(1)}, strides;
    for (int64_t k = 1; k < vt.getRank(); ++k) {
      offs.push_back(b.getIndexAttr(0));
      sizes.push_back(b.getIndexAttr(vt.getDimSize(k)));
    }
    strides.assign(vt.getRank(), b.getIndexAttr(1));
    auto type = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
        vt.getShape().drop_front(), vt, offs, sizes, strides));
    return memref::SubViewOp::create(b, monoid::named(loc, name), type, view, offs, sizes, strides);
  }

  /// The block its readers see: a read of the slot (swizzled slabs as rows
  /// x cols), with the staged read's attributes but its own operands.
  Value blockRead(vector::TransferReadOp r, Value slot) {
    auto vt = r.getVectorType();
    auto st = cast<MemRefType>(slot.getType());
    Value pad = r.getPadding();
    SmallVector<Value> zeros(st.getRank(), index(0));
    SmallVector<bool> inb(st.getRank(), true);
    auto smem = r->getAttr("attncc.layout");
    auto copyAttrs = [&](Operation *op) {
      for (NamedAttribute a : r->getAttrs())
        if (a.getName().getValue().starts_with("attncc.") && a.getName() != "attncc.smem_offset")
          op->setAttr(a.getName(), a.getValue());
    };
    if (st.getRank() == 2) {
      auto read = vector::TransferReadOp::create(b, r.getLoc(), vt, slot, zeros, pad, inb);
      copyAttrs(read);
      return read;
    }
    // [slabs, rows, slab] -> [rows, slabs, slab] -> rows x (slabs * slab)
    auto slabs = VectorType::get(st.getShape(), vt.getElementType());
    auto read = vector::TransferReadOp::create(b, monoid::unnamed(r.getLoc()), slabs, slot, zeros, pad, inb);
    copyAttrs(read);
    auto tr = vector::TransposeOp::create(b, monoid::unnamed(r.getLoc()), read, ArrayRef<int64_t>{1, 0, 2});
    tr->setAttr("attncc.layout", smem);
    auto cast = vector::ShapeCastOp::create(b, r.getLoc(), vt, tr);
    cast->setAttr("attncc.layout", smem);
    return cast;
  }

  LogicalResult lowerRead(vector::TransferReadOp r) {
    auto vt = r.getVectorType();
    if (vt.getRank() != 2 || !r.getPermutationMap().isMinorIdentity())
      return r.emitOpError("attncc-lower-copies: a staged read needs a 2-d block of its buffer's last two dimensions");
    auto it = buffers.find(monoid::smemOffset(r));
    if (it == buffers.end())
      return r.emitOpError("attncc-lower-copies: no shared buffer at offset ") << monoid::smemOffset(r);
    Buffer &buf = it->second;
    b.setInsertionPoint(r);
    std::string name = nameOr(r.getResult(), "block");
    Value block;
    if (monoid::isTma(r)) {
      if (!buf.tma)
        return r.emitOpError("attncc-lower-copies: a TMA buffer needs its mbarriers");
      block = lowerTma(r, buf, name);
    } else {
      Value slot = index(0);
      if (buf.slots > 1) {
        Value s = memref::LoadOp::create(b, loc, buf.fills, ValueRange{});
        Value next;
        if (buf.slots == 2) {
          next = arith::XOrIOp::create(b, loc, s, i32(1));
        } else { // the last slot is followed by the first
          Value after = arith::AddIOp::create(b, loc, s, i32(1));
          Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, i32(buf.slots - 1));
          next = arith::SelectOp::create(b, loc, last, i32(0), after);
        }
        memref::StoreOp::create(b, loc, next, buf.fills, ValueRange{});
        slot = arith::IndexCastOp::create(b, loc, b.getIndexType(), s);
      }
      Value dst = slotView(buf.view, slot, name + "_slot");
      copyChunks(r, dst);
      block = blockRead(r, dst);
      if (buf.slots > 1) // loops that carry the block carry its slot's view (attncc-lower-mma reads it)
        viewOf[block] = dst;
    }
    if (failed(status))
      return failure();
    if (block)
      r.getResult().replaceAllUsesWith(block);
    r->erase();
    return success();
  }

  /// Every thread copies 16-byte chunks of the rows x cols block (cp.async,
  /// or a load and a store); rows past the tensor's end are zeros. In a
  /// loop (the blocks of a fold), chunks that divide evenly among the
  /// threads are a loop of a constant number of steps, unrolled, each chunk
  /// a fixed number of rows below the thread's previous one in the same
  /// column (its addresses are the first ones plus a constant); otherwise,
  /// and for a copy made once, a loop over the chunks from the thread's
  /// index.
  void copyChunks(vector::TransferReadOp r, Value dst) {
    auto vt = r.getVectorType();
    int64_t rows = vt.getDimSize(0), cols = vt.getDimSize(1);
    int64_t per = 128 / vt.getElementTypeBitWidth(), cpr = cols / per;
    bool swz = monoid::isSwizzled(r), cp = monoid::isCp(r);
    Value src = r.getBase();
    auto srcType = cast<MemRefType>(src.getType());
    unsigned rank = srcType.getRank();
    Value first = arith::IndexCastOp::create(b, loc, b.getI32Type(), tid());
    int64_t chunks = rows * cpr, threads = warps * 32;
    Value row, ch, rowI;
    OpBuilder::InsertionGuard g(b);
    auto idx = [&](Value v) { return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult(); };
    bool inLoop = bool(monoid::innerLoopOf(r)); // a fold's blocks, not a tile's first ones
    if (inLoop && chunks % threads == 0 && threads % cpr == 0) {
      // The row in index arithmetic (no 32-bit wrap between the steps), so
      // the CUDA compiler folds each step into a constant offset.
      Value rowThread = idx(arith::DivUIOp::create(b, loc, first, i32(cpr)));
      ch = arith::RemUIOp::create(b, loc, first, i32(cpr));
      auto loop = scf::ForOp::create(b, loc, index(0), index(chunks / threads), index(1));
      loop->setAttr("attncc.unroll", b.getUnitAttr());
      loop.getInductionVar().setLoc(monoid::named(loc, "step"));
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value below = arith::MulIOp::create(b, loc, loop.getInductionVar(), index(threads / cpr));
      rowI = arith::AddIOp::create(b, monoid::named(loc, "row"), rowThread, below);
      if (swz) // the row's place in its 8-row swizzle pattern
        row = arith::IndexCastOp::create(b, loc, b.getI32Type(), rowI);
    } else {
      auto loop = scf::ForOp::create(b, loc, first, i32(chunks), i32(threads));
      loop.getInductionVar().setLoc(monoid::named(loc, "chunk"));
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value c = loop.getInductionVar();
      row = arith::DivUIOp::create(b, monoid::named(loc, "row"), c, i32(cpr));
      ch = arith::RemUIOp::create(b, loc, c, i32(cpr));
      rowI = idx(row);
    }
    Value colI = idx(arith::MulIOp::create(b, loc, ch, i32(per)));
    SmallVector<Value> at(r.getIndices());
    at[rank - 2] = add(at[rank - 2], rowI);
    at[rank - 1] = add(at[rank - 1], colI);
    Value in;
    if (!r.isDimInBounds(0)) { // rows past the end: zeros, read from row 0
      Value dim = memref::DimOp::create(b, loc, src, rank - 2);
      in = arith::CmpIOp::create(b, monoid::named(loc, "in"), arith::CmpIPredicate::ult, at[rank - 2], dim);
      at[rank - 2] = arith::SelectOp::create(b, loc, in, at[rank - 2], index(0));
    }
    SmallVector<Value> to{rowI, colI};
    if (swz) { // chunk ch of row r: slab ch / 8, chunk (ch % 8) ^ (r % 8) of it
      Value slab = idx(arith::DivUIOp::create(b, loc, ch, i32(8)));
      Value low = arith::AndIOp::create(b, loc, row, i32(7));
      Value inSlab = arith::RemUIOp::create(b, loc, ch, i32(8));
      Value x = arith::XOrIOp::create(b, loc, inSlab, low);
      to = {slab, rowI, idx(arith::MulIOp::create(b, loc, x, i32(per)))};
    }
    if (cp) {
      Value n;
      if (in) {
        Value all = index(per), none = index(0);
        n = arith::SelectOp::create(b, loc, in, all, none);
      }
      nvgpu::DeviceAsyncCopyOp::create(b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), dst, to, src, at,
                                         b.getIndexAttr(per), n, b.getUnitAttr());
      return;
    }
    auto chunk = VectorType::get({per}, vt.getElementType());
    Value v = vector::LoadOp::create(b, loc, chunk, src, at, /*nontemporal=*/false, llvm::MaybeAlign(16));
    if (in) {
      Value zero = arith::ConstantOp::create(b, loc, chunk, b.getZeroAttr(chunk));
      v = arith::SelectOp::create(b, loc, in, v, zero);
    }
    vector::StoreOp::create(b, loc, v, dst, to, /*nontemporal=*/false, llvm::MaybeAlign(16));
  }

  /// GRID=persistent: when a ring read is issued, so that each tile fills
  /// exactly the slots its fold waits for. A fold's prefetch: when there is
  /// a next block (iv + step < ub). The first block, read before the fold:
  /// when the fold runs at all (lb < ub; a tile of fully masked rows has
  /// no keys). The fold is the loop after `r` whose prefetch has r's ring.
  /// Null for other reads, which are waited for as often as issued, and for
  /// a ring attncc-place-waits marked attncc.ring_tail (OVERLAP=pv's fold,
  /// whose wait count runs one ahead: it waits for every fill, the prefetch
  /// past the end included, and the tile loop releases the last two).
  Value ringGuard(vector::TransferReadOp r) {
    auto ring = r->getAttrOfType<IntegerAttr>("attncc.ring");
    if (!ring || r->hasAttr("attncc.ring_tail")) // (a fold waited for after the loop: attncc-place-waits)
      return Value();
    if (monoid::isRingPrefetch(r)) {
      auto l = cast<scf::ForOp>(r->getParentOp());
      Value next = arith::AddIOp::create(b, loc, l.getInductionVar(), l.getStep());
      return arith::CmpIOp::create(b, monoid::named(loc, "has_next"), arith::CmpIPredicate::slt, next,
                                     l.getUpperBound());
    }
    for (Operation *op = r->getNextNode(); op; op = op->getNextNode()) {
      auto l = dyn_cast<scf::ForOp>(op);
      if (!l || llvm::none_of(l.getBody()->getOps<vector::TransferReadOp>(),
                              [&](vector::TransferReadOp p) { return p->getAttr("attncc.ring") == ring; }))
        continue;
      return arith::CmpIOp::create(b, monoid::named(loc, "has_first"), arith::CmpIPredicate::slt,
                                     l.getLowerBound(), l.getUpperBound());
    }
    status = r.emitOpError("attncc-lower-copies: GRID=persistent: no fold after the first block of its ring");
    return Value();
  }

  /// A TMA block: the fill count picks the slot; the issuing thread waits
  /// until the slot is free, announces the bytes on "full" and loads one
  /// box per 128-byte slab.
  Value lowerTma(vector::TransferReadOp r, Buffer &buf, const std::string &name) {
    auto vt = r.getVectorType();
    // The box's coordinates in the kernel argument the descriptor maps: a
    // view's (a varlen sequence's rows) offsets added. Rows past the view
    // but inside the argument are read (the next sequence's); only the
    // argument's end is zero-filled. Its readers mask them as they mask the
    // rows past the view: keys by the fold's range, query rows by the store.
    monoid::GlobalBase base = *monoid::globalBase(r.getBase());
    BlockArgument arg = base.arg;
    int64_t rows = vt.getDimSize(0), cols = vt.getDimSize(1);
    int64_t slab = monoid::slabElems(vt.getElementType());
    if (r.getIndices().size() > 4) {
      status = r.emitOpError("attncc-lower-copies: a TMA box of rank ") << r.getIndices().size()
                                                                         << "; at most 4 are lowered";
      return Value();
    }
    // GRID=persistent: a ring's copy is issued and counted only under
    // ringGuard's condition, so every tile fills exactly the slots its fold
    // waits for, and the next tile starts in step. Elsewhere the last
    // iteration's prefetch is issued past the end, never read, and drained
    // (drain()).
    scf::IfOp guard;
    if (Value more = persistent ? ringGuard(r) : Value()) {
      guard = scf::IfOp::create(b, loc, TypeRange{b.getIndexType()}, more, /*withElseRegion=*/true);
      guard->setAttr("attncc.ring_guard", b.getUnitAttr()); // warp roles take it whole (RoleSlice)
      b.setInsertionPointToStart(&guard.getElseRegion().front());
      scf::YieldOp::create(b, loc, index(0)); // no block: the slot is never read
      b.setInsertionPointToStart(&guard.getThenRegion().front());
    }
    Value w = bump(buf.fills);
    Value slot = slotFor(w, buf.slots);
    Value dst;
    if (guard) {
      scf::YieldOp::create(b, loc, slot);
      b.setInsertionPoint(guard.getThenRegion().front().getTerminator());
    } else if (!r.use_empty()) {
      dst = slotView(buf.view, slot, name + "_slot");
    }
    bool producer = inProducer(r);
    if (!producers || producer) {
      OpBuilder::InsertionGuard g(b);
      if (!producer) { // thread 0 issues it
        Value t = tid(), zero = index(0);
        Value first = arith::CmpIOp::create(b, monoid::named(loc, "issuer"), arith::CmpIPredicate::eq, t, zero);
        auto i = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
        b.setInsertionPoint(i.getThenRegion().front().getTerminator());
      }
      Value freed = phaseFor(w, buf.slots, /*freed=*/true, "free");
      nvgpu::MBarrierTryWaitParityOp::create(b, loc, buf.empty, freed, index(10000000), slot);
      nvgpu::MBarrierArriveExpectTxOp::create(b, loc, buf.full, index(rows * cols * vt.getElementTypeBitWidth() / 8),
                                                slot, Value());
      Value desc = descriptors[{arg.getArgNumber(), rows}];
      auto boxShape = cast<nvgpu::TensorMapDescriptorType>(desc.getType()).getTensor().getShape();
      unsigned rank = r.getIndices().size();
      for (int64_t s = 0; s < cols / slab; ++s) {
        // The slab's box, [1, ..., rows, slab]: [slot, s, 0, 0] of the view.
        SmallVector<OpFoldResult> offs{getAsOpFoldResult(slot), b.getIndexAttr(s), b.getIndexAttr(0), b.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes{b.getIndexAttr(1), b.getIndexAttr(1), b.getIndexAttr(rows),
                                        b.getIndexAttr(slab)};
        SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
        auto bt = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(boxShape, buf.view.getType(), offs,
                                                                                 sizes, strides));
        Value box = memref::SubViewOp::create(b, loc, bt, buf.view, offs, sizes, strides);
        // Coordinates innermost first.
        SmallVector<Value> crd;
        for (int64_t k = rank - 1; k >= 0; --k) {
          Value c = r.getIndices()[k];
          if (!base.offsets.empty() && !isConstantIntValue(base.offsets[k], 0))
            c = arith::AddIOp::create(b, loc, c, getValueOrCreateConstantIndexOp(b, loc, base.offsets[k]));
          crd.push_back(k == (int64_t)rank - 1 && s ? arith::AddIOp::create(b, loc, c, index(s * slab)).getResult() : c);
        }
        nvgpu::TmaAsyncLoadOp::create(b, loc, box, buf.full, desc, crd, slot, /*multicastMask=*/Value(),
                                        /*predicate=*/Value());
      }
    }
    if (r.use_empty()) // the producer's copy: the consumers read the block
      return Value();
    if (guard) {
      b.setInsertionPointAfter(guard);
      slot = guard.getResult(0);
      dst = slotView(buf.view, slot, name + "_slot");
    }
    Value block = blockRead(r, dst);
    slotOf[block] = slot;
    if (mmaReaders)
      viewOf[block] = dst;
    bufferOf[block] = monoid::smemOffset(r);
    return block;
  }

  Buffer *bufferFor(Value blk, Operation *at) {
    auto it = bufferOf.find(blk);
    if (it == bufferOf.end()) {
      at->emitOpError("attncc-lower-copies: the block is not a TMA block this pass lowered");
      return nullptr;
    }
    return &buffers[it->second];
  }

  /// monoid.tma_wait: the wait count picks the slot and the phase of "full".
  LogicalResult lowerWait(monoid::TmaWaitOp w) {
    Buffer *buf = bufferFor(w.getBlock(), w);
    if (!buf)
      return failure();
    b.setInsertionPoint(w);
    Value r = bump(buf->waits);
    Value slot = slotFor(r, buf->slots);
    Value landed = phaseFor(r, buf->slots, /*freed=*/false, nameOr(w.getBlock(), "block") + "_landed");
    nvgpu::MBarrierTryWaitParityOp::create(b, w.getLoc(), buf->full, landed, index(10000000), slot);
    w->erase();
    return success();
  }

  /// monoid.tma_release: lane 0 of each warp arrives on the block's "empty"
  /// barrier, unless the block is one the iteration passes on.
  LogicalResult lowerRelease(monoid::TmaReleaseOp rel) {
    Buffer *buf = bufferFor(rel.getBlock(), rel);
    if (!buf)
      return failure();
    b.setInsertionPoint(rel);
    Value slot = slotOf[rel.getBlock()];
    OpBuilder::InsertionGuard g(b);
    Value guard;
    for (Value u : rel.getUnless()) {
      if (!slotOf.count(u))
        return rel.emitOpError("attncc-lower-copies: an `unless` block is not a TMA block this pass lowered");
      Value ne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, slot, slotOf[u]);
      guard = guard ? arith::AndIOp::create(b, loc, guard, ne).getResult() : ne;
    }
    if (guard) {
      auto i = scf::IfOp::create(b, loc, guard, /*withElseRegion=*/false);
      b.setInsertionPoint(i.getThenRegion().front().getTerminator());
    }
    NVVM::SyncWarpOp::create(b, loc, i32(-1));
    Value lane = gpu::LaneIdOp::create(b, loc, nullptr);
    Value lane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0));
    auto i = scf::IfOp::create(b, loc, lane0, /*withElseRegion=*/false);
    b.setInsertionPoint(i.getThenRegion().front().getTerminator());
    nvgpu::MBarrierArriveOp::create(b, rel.getLoc(), nvgpu::MBarrierTokenType::get(b.getContext()), buf->empty, slot);
    rel->erase();
    return success();
  }

  /// Blocks issued and never waited for (the last prefetches) land before
  /// the issuing thread ends: thread 0 waits from the wait count on, the
  /// producer thread for the last `slots` fills.
  void drain() {
    if (llvm::none_of(buffers, [](auto &kv) { return kv.second.tma; }))
      return;
    auto waitRange = [&](Buffer &buf, Value lo, Value hi) {
      auto loop = scf::ForOp::create(b, loc, lo, hi, i32(1));
      loop.getInductionVar().setLoc(monoid::named(loc, "fill"));
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value n = loop.getInductionVar();
      // One statement per op: the order does not hang on the compiler's
      // order of evaluating arguments.
      Value slot = slotFor(n, buf.slots);
      Value ticks = index(10000000);
      Value landed = phaseFor(n, buf.slots, false, "landed");
      nvgpu::MBarrierTryWaitParityOp::create(b, loc, buf.full, landed, ticks, slot);
    };
    if (issuer) {
      b.setInsertionPoint(cast<scf::IfOp>(issuer).getThenRegion().front().getTerminator());
      for (auto &[off, buf] : buffers)
        if (buf.tma) {
          Value w = memref::LoadOp::create(b, loc, buf.fills, ValueRange{});
          Value back = arith::SubIOp::create(b, loc, w, i32(buf.slots));
          Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, w, i32(buf.slots));
          Value lo = arith::SelectOp::create(b, loc, more, back, i32(0));
          waitRange(buf, lo, w);
        }
      return;
    }
    b.setInsertionPoint(f.getBody().front().getTerminator());
    Value t = tid(), zero = index(0);
    Value first = arith::CmpIOp::create(b, monoid::named(loc, "issuer"), arith::CmpIPredicate::eq, t, zero);
    auto i = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(i.getThenRegion().front().getTerminator());
    for (auto &[off, buf] : buffers)
      if (buf.tma) {
        Value filled = memref::LoadOp::create(b, loc, buf.fills, ValueRange{});
        Value waited = memref::LoadOp::create(b, loc, buf.waits, ValueRange{});
        waitRange(buf, waited, filled);
      }
  }
};

struct LowerCopies : mlir::attncc::impl::LowerCopiesBase<LowerCopies> {
  void runOnOperation() override {
    if (failed(mlir::attncc::forEachTiledKernel(getOperation(), [](gpu::GPUFuncOp f) { return Lowerer(f).run(); })))
      signalPassFailure();
  }
};

} // namespace
