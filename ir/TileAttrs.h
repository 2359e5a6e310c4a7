//===- TileAttrs.h - the attributes of tile-level IR ------------*- C++ -*-===//
//
// Below the monoid level, the GPU-shaping passes talk to the emitter through
// a few discardable attributes; their names and the one query they share
// live here:
//   attncc.stage  = #monoid.staged<cp, pad>  on a vector.transfer_read
//                                        staged in shared memory (attncc-stage):
//                                        transport sync|cp|tma, rows plain,
//                                        padded by 16 B, or 128-byte swizzled
//                                        slabs (the wgmma layout); tma: one
//                                        thread copies the block with TMA,
//                                        mbarriers say when it landed and
//                                        when its slot is free (a typed
//                                        attribute, MonoidAttrs.td)
//   attncc.page                          on the lift's j / P and j mod P of a
//                                        paged cache (the front end):
//                                        attncc-partition reads a block of
//                                        keys from one page
//   attncc.ring   = <id>                 reads of one operand sharing a ring
//                                        of buffers (attncc-stage, d2|d3/ring)
//   attncc.ring_slots = 2|3              its number of buffers
//   attncc.layout = #monoid.fragment<c>  which thread holds which element
//                                        (c, row, col, a, b.nk, b.kn, smem;
//                                        a typed attribute, MonoidAttrs.td)
//   attncc.layouts = [...]               the same for an scf.for's iter_args
//   attncc.schedule = #monoid.schedule   on a function: the knobs of its
//                                        reduce (attncc-partition); the loop
//                                        passes read it with scheduleOf()
//   attncc.ldmatrix = "x4"               an mma.sync contraction whose B
//                                        fragments of two n8 tiles come from
//                                        one ldmatrix.x4 (attncc-ldmatrix-x4)
//   attncc.handoff = "smem"              a contraction whose left operand (P)
//                                        goes through a shared slab
//                                        (attncc-handoff, REPACK=smem)
//   attncc.handoff_offset = <bytes>      where that slab is (attncc-atomize);
//                                        its row stride is handoffStride()
//   attncc.acc    = "f16x"               a contraction on the fp16-accumulate
//                                        atom (attncc-accumulate, ACC=f16x)
//   attncc.acc_steps = <s>               its k16 steps per promotion into
//                                        fp32 (ACC=f16x<s>; absent: one per
//                                        contraction)
//   attncc.align  = 1024|128             on gpu.dynamic_shared_memory: the
//                                        base's alignment (attncc-allocate-smem;
//                                        1024 when a block is swizzled)
//   attncc.turn                          a fold contraction issued in
//                                        warpgroup turns (attncc-overlap,
//                                        OVERLAP=wg; attncc-lower-wgmma
//                                        writes the turns' barriers)
//   attncc.roles  (unit)                 the scf.if that splits a kernel into
//                                        its producer (then) and consumer
//                                        (else) warps (attncc-warp-specialize)
//   attncc.family = "wgmma" | "tcgen05"  a contraction partition tiled for
//                                        wgmma or tcgen05 (absent: mma.sync)
//   attncc.atom   = "mma.m16n8k16"       a contraction's instruction
//                 | "wgmma.m64n<N>k16"   (attncc-atomize)
//                 | "tcgen05.m128n<N>k16"
//   attncc.tile   = {warps, rows, smem}  a kernel's CTA tile (attncc-atomize;
//                                        also producers = the TMA warps
//                                        after the W that own rows, mma = 1
//                                        for the tcgen05 mma warp after them,
//                                        idle = 2 for the warps that make
//                                        those a whole warpgroup, for
//                                        setmaxnreg, corr = 4 for the
//                                        tcgen05 correction warpgroup after
//                                        them)
//   attncc.issue  (unit)                 the scf.if in which one thread
//                                        issues a tcgen05 product, and
//   attncc.qtile  = <g>                  with two Q tiles: the issue block
//                                        of Q tile g's part of a product
//   attncc.issue_sync (unit)             the barrier before it
//                                        (attncc-lower-tcgen05; attncc-mma-
//                                        role moves them to the mma warp)
//   attncc.mma_ready (unit)              the mbarrier the row warps arrive
//                                        on when a product's operands are
//                                        ready (attncc-allocate-tmem, with
//                                        an mma warp)
//   attncc.mma_role (unit)               the scf.if of the mma warp in the
//                                        producer branch (attncc-mma-role)
//   attncc.o_rescale (unit)              with corr = 4: the scf.if that
//                                        rescales a fold's O in tensor
//                                        memory, and
//   attncc.o_resident (unit)             the issue blocks of the P*V
//                                        products that accumulate into it
//                                        (attncc-lower-tcgen05; attncc-corr-
//                                        role moves the rescale to the
//                                        correction warps)
//   attncc.corr_full, attncc.o_ready,    with corr = 4: the mbarriers the row
//   attncc.corr_scale (unit)             warps arrive on when a row factor
//                                        is published, the correction warps
//                                        when O is rescaled, and the factors
//                                        (attncc-allocate-tmem)
//   attncc.corr_role (unit)              the scf.if of the correction warps
//                                        (attncc-corr-role)
//   attncc.cta    = {threads, rows[, roles]} on a function: the CTA a tiled
//                                        map asks for (attncc-partition; read
//                                        by attncc-map-to-gpu); roles = {load,
//                                        mma, idle, corr}: WSPEC's warps that own
//                                        no rows
//   attncc.warp_roles = {load, mma, idle, corr} the same roles on the outlined
//                                        kernel (attncc-map-to-gpu through
//                                        attncc-kernel-attrs; read by
//                                        attncc-atomize, which writes
//                                        attncc.tile's producers/mma/idle)
//   attncc.tmem_col = <column>           a tcgen05 product's first column
//                                        of tensor memory (attncc-allocate-
//                                        tmem; attncc.tile.tmem: the
//                                        columns the kernel allocates;
//                                        attncc.tile.tmem_qtile, with two Q
//                                        tiles: the columns of one, where
//                                        the second tile's S and O start)
//   attncc.smem_offset = <bytes>         a staged read's place in the
//                                        kernel's shared memory
//                                        (attncc-allocate-smem; read by
//                                        attncc-lower-copies, which replaces
//                                        the read by a copy into that view)
//   attncc.clip   (unit)                 a min/max that clips a reduce's
//                                        range to where the lift is not the
//                                        identity (attncc-clip-identity; read
//                                        by attncc-partition)
//   attncc.rounded (unit)                an arith.mulf rounded on its own,
//                                        never contracted into an FMA
//                                        (attncc-exp2; the emitter prints
//                                        __fmul_rn)
//   attncc.lazy   (unit)                 the select that keeps a fold's
//                                        running maximum (attncc-lazy-rescale,
//                                        RESCALE=lazy<t>); attncc-lower-tcgen05
//                                        then skips O's rescale for a warp
//                                        whose rows all kept theirs
//   attncc.smem_limit, attncc.target     on the module: the target's opt-in
//                                        shared memory per block (the driver)
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_IR_TILEATTRS_H
#define ATTNCC_IR_TILEATTRS_H

#include "ir/MonoidDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include <string>

namespace mlir::monoid {

/// The schedule attncc-partition copied onto the function `f` (the knobs of
/// its reduce), or null when it has none.
inline const ::attncc::Schedule *scheduleOf(Operation *f) {
  auto a = f->getAttrOfType<ScheduleAttr>("attncc.schedule");
  return a ? &a.getSchedule() : nullptr;
}

/// How attncc-stage staged the read `op`, or null when it is not staged.
inline StagedAttr stagingOf(Operation *op) { return op->getAttrOfType<StagedAttr>("attncc.stage"); }
inline bool isStaged(Operation *op) { return bool(stagingOf(op)); }

/// The staged read that fills the shared-memory block `v`: `v` itself, or
/// (through the iter_args or results of a loop that carries it) the read
/// before the loop. Null if `v` is not a staged block.
inline vector::TransferReadOp stagedRead(Value v) {
  if (auto r = v.getDefiningOp<vector::TransferReadOp>())
    return isStaged(r) ? r : vector::TransferReadOp();
  if (auto a = dyn_cast<BlockArgument>(v))
    if (auto f = dyn_cast<scf::ForOp>(a.getOwner()->getParentOp()))
      if (a.getArgNumber() >= 1)
        return stagedRead(f.getInitArgs()[a.getArgNumber() - 1]);
  if (auto f = v.getDefiningOp<scf::ForOp>()) // a block the loop carried out
    return stagedRead(f.getInitArgs()[cast<OpResult>(v).getResultNumber()]);
  return {};
}

/// The fragment layout attncc-atomize gave `v` (attncc.layout on its
/// defining op, attncc.layouts on the loop whose iter_arg or result it is),
/// or "" when it has none.
inline std::string layoutOf(Value v) {
  if (auto r = dyn_cast<OpResult>(v)) {
    if (auto a = r.getOwner()->getAttrOfType<FragmentAttr>("attncc.layout"))
      return a.layoutName().str();
    if (auto f = dyn_cast<scf::ForOp>(r.getOwner()))
      return layoutOf(f.getRegionIterArgs()[r.getResultNumber()]);
    return "";
  }
  auto arg = cast<BlockArgument>(v);
  if (auto f = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
    if (auto ls = f->getAttrOfType<ArrayAttr>("attncc.layouts"))
      if (arg.getArgNumber() >= 1 && arg.getArgNumber() - 1 < ls.size())
        if (auto l = dyn_cast<FragmentAttr>(ls[arg.getArgNumber() - 1]))
          return l.layoutName().str();
  return "";
}

/// Whether `v` is a block staged in shared memory (its staged read, or a
/// loop value carrying one, with layout smem).
inline bool isStagedBlock(Value v) { return stagedRead(v) && layoutOf(v) == "smem"; }

/// The TMA read that fills `v` when `v` is a TMA block in shared memory.
inline vector::TransferReadOp tmaBlock(Value v) {
  auto r = stagedRead(v);
  return r && isa<VectorType>(v.getType()) && layoutOf(v) == "smem" &&
                 stagingOf(r).getTransport() == Transport::Tma
             ? r
             : vector::TransferReadOp();
}

/// A staged read's byte offset in the kernel's dynamic shared memory
/// (attncc-allocate-smem); reads with the same offset share one buffer.
inline int64_t smemOffset(vector::TransferReadOp r) {
  return r->getAttrOfType<IntegerAttr>("attncc.smem_offset").getInt();
}

/// Buffers of a ring read (2 or 3), 1 for a block that is not a ring.
inline int64_t ringSlots(vector::TransferReadOp r) {
  if (!r->hasAttr("attncc.ring"))
    return 1;
  auto n = r->getAttrOfType<IntegerAttr>("attncc.ring_slots");
  return n ? n.getInt() : 2;
}

/// GRID=persistent: the loop over a CTA's row tiles (attncc-map-to-gpu).
inline bool isTileLoop(Operation *op) { return isa<scf::ForOp>(op) && op->hasAttr("attncc.tile_loop"); }

/// The scf.for that `op` runs in, other than the tile loop: the fold (or
/// another loop inside a tile), or null.
inline scf::ForOp innerLoopOf(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (auto l = dyn_cast<scf::ForOp>(p))
      if (!isTileLoop(l))
        return l;
  return scf::ForOp();
}

/// Whether the ring read `r` is a fold's prefetch of its next block (the
/// read attncc-stage puts inside the loop; the loop's first block is read
/// before it). Under a tile loop it is issued only when there is a next
/// block (attncc-lower-copies), so every tile fills the slots it reads.
inline bool isRingPrefetch(vector::TransferReadOp r) {
  auto l = dyn_cast_or_null<scf::ForOp>(r->getParentOp());
  return r->hasAttr("attncc.ring") && l && !isTileLoop(l);
}

/// How a staged block sits in shared memory: row-major with `pad` elements
/// after each row, or (swizzled) as 128-byte slabs: column c of row r of an
/// R-row block is in slab c / S (S = slabElems, 128 B of elements), at row r
/// of it, with its 16-byte chunk index XOR-ed with r % 8 (the 128-byte
/// swizzle of wgmma descriptors and TMA).
inline int64_t slabElems(Type elem) { return 128 * 8 / elem.getIntOrFloatBitWidth(); }
inline bool isSwizzled(vector::TransferReadOp r) {
  return stagingOf(r).getArrangement() == Arrangement::Swz;
}
inline int64_t rowPad(vector::TransferReadOp r) {
  bool pad = stagingOf(r).getArrangement() == Arrangement::Pad;
  return pad ? 128 / r.getVectorType().getElementTypeBitWidth() : 0;
}

/// Row stride, in elements, of the REPACK=smem slab of a contraction's left
/// operand `lhs`: rows padded by 16 B, as /pad pads staged blocks.
inline int64_t handoffStride(VectorType lhs) { return lhs.getDimSize(1) + 128 / lhs.getElementTypeBitWidth(); }

inline bool isTma(vector::TransferReadOp r) { return stagingOf(r).getTransport() == Transport::Tma; }
inline bool isCp(vector::TransferReadOp r) { return stagingOf(r).getTransport() == Transport::Cp; }
/// Whether the read is staged with TMA (false for one that is not staged).
inline bool isTmaStaged(vector::TransferReadOp r) { return isStaged(r) && isTma(r); }

/// The kernel argument a global read or write addresses, and where in it:
/// the memref itself (no offsets), or the source of a memref.subview of it
/// with unit strides that keeps its rank (a varlen sequence's rows; the
/// front end), with that view's offsets. Null for anything else.
struct GlobalBase {
  BlockArgument arg;
  SmallVector<OpFoldResult> offsets; // one per dimension; empty: all 0
};
inline std::optional<GlobalBase> globalBase(Value mem) {
  if (auto arg = dyn_cast<BlockArgument>(mem))
    return GlobalBase{arg, {}};
  auto view = mem.getDefiningOp<memref::SubViewOp>();
  if (!view || view.getSourceType().getRank() != view.getType().getRank() || !view.hasUnitStride())
    return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(view.getSource());
  if (!arg)
    return std::nullopt;
  return GlobalBase{arg, view.getMixedOffsets()};
}

/// A TMA descriptor a kernel takes after its own arguments: the memref
/// argument `arg` in boxes of `rows` x `cols` (cols = one 128-byte slab).
struct TmaMap {
  unsigned arg;
  int64_t rows, cols;
  bool operator==(const TmaMap &o) const { return arg == o.arg && rows == o.rows && cols == o.cols; }
};
/// The kernel's TMA descriptors, one per (argument, box), in walk order of
/// its TMA-staged reads: attncc-lower-copies adds them as kernel arguments
/// in this order (the contract lists them from the launch's operands).
inline SmallVector<TmaMap> tmaMaps(Operation *kernel) {
  SmallVector<TmaMap> maps;
  kernel->walk([&](vector::TransferReadOp r) {
    if (!isTmaStaged(r))
      return;
    std::optional<GlobalBase> g = globalBase(r.getBase());
    if (!g)
      return;
    TmaMap m{g->arg.getArgNumber(), r.getVectorType().getDimSize(0), slabElems(r.getVectorType().getElementType())};
    if (!llvm::is_contained(maps, m))
      maps.push_back(m);
  });
  return maps;
}

/// Whether a contraction's right operand is [K x N] (P*V's V: the map of
/// the rhs starts with the reduction dim d2), not [N x K] (Q*K^T's K).
inline bool rightIsKN(vector::ContractionOp c) {
  return c.getIndexingMapsArray()[1].getResult(0) == getAffineDimExpr(2, c.getContext());
}

/// Whether attncc-atomize put a contraction on tcgen05 (tensor memory).
inline bool isTcgen05(vector::ContractionOp c) {
  auto atom = c->getAttrOfType<StringAttr>("attncc.atom");
  return atom && atom.getValue().starts_with("tcgen05");
}

/// Whether attncc-atomize put a contraction on wgmma.
inline bool isWgmma(vector::ContractionOp c) {
  auto atom = c->getAttrOfType<StringAttr>("attncc.atom");
  return atom && atom.getValue().starts_with("wgmma");
}

} // namespace mlir::monoid

#endif
