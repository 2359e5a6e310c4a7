//===- LowerWgmma.cpp - attncc-lower-wgmma (the wgmma atom as ops) --------===//
//
// Pre:  outlined tiled kernels after attncc-lower-copies. A wgmma
//       contraction is a vector.contract marked attncc.atom =
//       "wgmma.m64nNk16" (attncc-atomize) whose right operand is a staged
//       block (a read of its 128-byte swizzled slot, or a block a loop
//       carries beside its slot's view or index) and whose left operand is
//       a staged block too (the SS form) or registers in layout a or c (the
//       RS form; P, often arith.truncf of the f32 scores). attncc-place-waits
//       has written the wait for each product and, after it, the register
//       fence `nvvm.inline_ptx "" rw(%product)`. attncc.turn (OVERLAP=wg)
//       marks the fold's products that warpgroups issue in turns.
// Post: every such contraction is, per thread:
//         memref.alloca : memref<1 x N/8 x 2 x 2 x f32>   its accumulator,
//                                                         written in place
//         vector.store  the accumulator's lanes (monoid.to_lanes, or a splat)
//         RS: monoid.to_lanes of A as vector<1 x K/16 x 4 x 2 x T> (P: of
//             the f32 scores, then arith.truncf), before the first atom:
//             registers written between two wgmmas make ptxas serialize them
//         nvvm.inline_ptx "" rw(%acc)         the register fence
//         [a run's first turn: nvvm.barrier id = 1 + warp/4, 256 threads]
//         nvvm.wgmma.fence.aligned
//         scf.for %kc (k16 steps) {attncc.unroll}
//           monoid.smem_descriptor of B (and of A, SS) at step kc
//           [RS: vector.extract of A's registers at step kc]
//           monoid.wgmma %a, %b into %acc
//         nvvm.wgmma.commit.group.sync.aligned
//         [a run's last turn: nvvm.barrier.arrive id = 1 + next warpgroup]
//       and at its wait, the fence names the alloca, followed by
//       vector.load + monoid.from_lanes: the result tile. A fold loop with
//       turns is preceded by the last warpgroup's arrive on barrier 1
//       (warpgroup 0 takes the first turn) and followed by warpgroup 0's
//       wait on it (the turn the last warpgroup passed on).
//       A run of turns is adjacent turn contractions, with nothing between
//       them but the waits for TMA blocks (attncc-lower-copies' counters
//       and nvgpu.mbarrier.try_wait.parity).
// Refused: a product without the register fence of its wait, a left
//       operand in a layout wgmma cannot take, a right one not in shared
//       memory.
// (Until 2026-12-02 the CUDA emitter printed each contraction as this
// text: the descriptors, the register repack of P, the fences and turns.)
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/KernelConstants.h"
#include "passes/Passes.h"
#include "passes/AtomUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "attncc-lower-wgmma"

namespace mlir::attncc {
#define GEN_PASS_DEF_LOWERWGMMA
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// Whether `op` is part of a wait for a TMA block (attncc-lower-copies:
/// the wait count's load, increment and store, the slot and phase it gives,
/// and the mbarrier wait itself).
bool isBlockWait(Operation *op) {
  if (isa<nvgpu::MBarrierTryWaitParityOp>(op))
    return true;
  if (auto l = dyn_cast<memref::LoadOp>(op))
    return l.getMemRef().getDefiningOp<memref::AllocaOp>() &&
           llvm::all_of(op->getUsers(), [](Operation *u) { return isBlockWait(u); });
  if (auto s = dyn_cast<memref::StoreOp>(op))
    return bool(s.getMemRef().getDefiningOp<memref::AllocaOp>());
  return isa<arith::ArithDialect>(op->getDialect()) && op->getNumResults() &&
         llvm::all_of(op->getUsers(), [](Operation *u) { return isBlockWait(u); });
}

bool isTurn(Operation *op) { return op && isa<vector::ContractionOp>(op) && op->hasAttr("attncc.turn"); }

/// The op before (or after) `op`, skipping the waits for TMA blocks.
Operation *neighbour(Operation *op, bool after) {
  do
    op = after ? op->getNextNode() : op->getPrevNode();
  while (op && isBlockWait(op));
  return op;
}

class Lowerer {
public:
  Lowerer(gpu::GPUFuncOp f) : f(f), b(f.getContext()), loc(f.getLoc()), consts(f) {
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    warps = tile.getAs<IntegerAttr>("warps").getInt();
  }

  LogicalResult run() {
    SmallVector<vector::ContractionOp> todo;
    f.walk([&](vector::ContractionOp c) {
      if (monoid::isWgmma(c))
        todo.push_back(c);
    });
    // The runs of turns, before any contraction is lowered.
    DenseSet<Operation *> starts, ends;
    SetVector<scf::ForOp> loops;
    for (vector::ContractionOp c : todo) {
      if (!isTurn(c))
        continue;
      if (!isTurn(neighbour(c, false)))
        starts.insert(c);
      if (!isTurn(neighbour(c, true)))
        ends.insert(c);
      if (auto l = dyn_cast<scf::ForOp>(c->getParentOp()))
        loops.insert(l);
    }
    for (vector::ContractionOp c : todo)
      if (failed(lower(c, starts.contains(c), ends.contains(c))))
        return failure();
    for (scf::ForOp l : loops)
      passTurnsAround(l);
    return success();
  }

private:
  gpu::GPUFuncOp f;
  OpBuilder b;
  Location loc;
  int64_t warps = 0;
  mlir::attncc::KernelConstants consts;
  Value groupValue;

  Value index(int64_t v) { return consts.index(v); }
  Value i32(int64_t v) { return consts.i32(v); }

  /// This thread's warpgroup (i32: warp / 4), once at the kernel's top.
  Value warpgroup() {
    if (!groupValue) {
      OpBuilder top = OpBuilder::atBlockBegin(&f.getBody().front());
      Value w = gpu::SubgroupIdOp::create(top, monoid::named(loc, "warp"), /*upperBound=*/nullptr);
      Value w32 = arith::IndexCastOp::create(top, monoid::named(loc, "warp"), top.getI32Type(), w);
      groupValue = arith::ShRUIOp::create(top, monoid::named(loc, "warpgroup"), w32, i32(2));
    }
    return groupValue;
  }

  /// Named barrier 1 + g is warpgroup g's turn: its 128 threads wait there
  /// (bar.sync), the previous warpgroup's 128 arrive (bar.arrive).
  void waitTurn(Value id, StringRef why) {
    NVVM::BarrierOp::create(b, monoid::named(loc, why), TypeRange{}, id, i32(256), NVVM::BarrierReductionAttr{},
                              Value{});
  }
  void passTurn(Value id, StringRef why) {
    NVVM::BarrierArriveOp::create(b, monoid::named(loc, why), id, i32(256));
  }

  /// Around a fold whose products take turns: the last warpgroup passes
  /// warpgroup 0 its first turn before the loop, and warpgroup 0 takes the
  /// turn the last one passed on after it (every arrive has its wait).
  void passTurnsAround(scf::ForOp l) {
    int64_t groups = warps / 4;
    b.setInsertionPoint(l);
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warpgroup(), i32(groups - 1));
    auto pre = scf::IfOp::create(b, loc, last, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(pre.thenBlock()->getTerminator());
      passTurn(i32(1), "warpgroup 0 takes the first turn");
    }
    b.setInsertionPointAfter(l);
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warpgroup(), i32(0));
    auto post = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(post.thenBlock()->getTerminator());
    waitTurn(i32(1), "the turn the last warpgroup passed on");
  }

  Value privateArray(StringRef name, ArrayRef<int64_t> shape, Type et) {
    return mlir::attncc::privateArray(f, loc, name, shape, et);
  }

  Value mulIdx(Value x, int64_t k) { return arith::MulIOp::create(b, loc, x, index(k)); }

  std::pair<Value, Value> kStep(Value mem, Value k16) {
    return mlir::attncc::kStepInSlot(b, loc, k16, index(cast<MemRefType>(mem.getType()).getDimSize(2)));
  }
  Value descriptor(Value mem, ValueRange at, int64_t lbo) {
    return mlir::attncc::swizzledDescriptor(b, loc, mem, at, lbo, /*tcgen05=*/false);
  }

  LogicalResult lower(vector::ContractionOp c, bool turnStarts, bool turnEnds) {
    FailureOr<mlir::attncc::AtomShape> shape = mlir::attncc::atomShape(c, "wgmma");
    if (failed(shape))
      return failure();
    int64_t n = shape->n, kc = shape->kSteps;
    Type et = shape->elem;
    bool kn = shape->kn;
    const std::string &ll = shape->lhsLayout, &name = shape->name;
    bool regA = ll != "smem";
    if (regA && ll != "a" && ll != "c")
      return c.emitOpError("left operand layout '") << ll << "' cannot feed wgmma";
    // The register fence attncc-place-waits wrote after the product's wait.
    NVVM::InlinePtxOp fence;
    for (Operation *u : c.getResult().getUsers())
      if (auto p = dyn_cast<NVVM::InlinePtxOp>(u); p && p.getPtxCode().empty())
        fence = p;
    if (!fence)
      return c.emitOpError("attncc-lower-wgmma: the product has no register fence after its wait (attncc-place-waits)");

    auto accLanes = VectorType::get({1, n / 8, 2, 2}, b.getF32Type());
    b.setInsertionPoint(c);
    Value zero4[4] = {index(0), index(0), index(0), index(0)};
    Value acc = privateArray(name, accLanes.getShape(), b.getF32Type());
    mlir::attncc::storeLanes(b, loc, c.getAcc(), acc, accLanes, zero4);

    // The operands in shared memory: their slots in this iteration.
    auto bm = mlir::attncc::blockMemref(b, c.getRhs(), c, "attncc-lower-wgmma");
    if (failed(bm))
      return failure();
    Value bMem = *bm, aMem, aRegs;
    if (!regA) {
      auto am = mlir::attncc::blockMemref(b, c.getLhs(), c, "attncc-lower-wgmma");
      if (failed(am))
        return failure();
      aMem = *am;
    } else {
      // Every k step's A registers before the first atom.
      Value src = c.getLhs();
      bool round = false;
      if (auto t = src.getDefiningOp<arith::TruncFOp>(); t && getElementTypeOrSelf(t.getIn().getType()).isF32()) {
        src = t.getIn();
        round = true;
      }
      auto lt = VectorType::get({1, kc, 4, 2}, getElementTypeOrSelf(src.getType()));
      aRegs = monoid::ToLanesOp::create(b, monoid::named(loc, name + "_a"), lt, src);
      if (round)
        aRegs = arith::TruncFOp::create(b, monoid::named(loc, name + "_a"), VectorType::get({1, kc, 4, 2}, et), aRegs);
    }
    NVVM::InlinePtxOp::create(b, monoid::named(loc, "the accumulator is written by the wgmmas"), TypeRange{},
                                ValueRange{}, ValueRange{acc}, b.getStringAttr(""), Value{});
    if (turnStarts)
      waitTurn(arith::AddIOp::create(b, loc, i32(1), warpgroup()), "this warpgroup's turn to issue");
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    Value aRow; // SS: this warpgroup's 64 rows of A
    if (aMem)
      aRow = arith::IndexCastOp::create(b, monoid::named(loc, "row"), b.getIndexType(),
                                          arith::MulIOp::create(b, loc, warpgroup(), i32(64)));
    {
      OpBuilder::InsertionGuard g(b);
      auto loop = scf::ForOp::create(b, loc, index(0), index(kc), index(1));
      loop->setAttr("attncc.unroll", b.getUnitAttr());
      loop.getInductionVar().setLoc(monoid::named(loc, "kc"));
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value k = loop.getInductionVar();
      Value k16 = mulIdx(k, 16);
      std::pair<Value, Value> at; // slab and column of a K-major operand (A and B slots: 64-element slabs)
      if (!kn || aMem)
        at = kStep(kn ? aMem : bMem, k16);
      Value db;
      if (kn) // B = [K x N], N contiguous: 16 rows of every slab per k step; LBO = the slab stride
        db = descriptor(bMem, {index(0), k16, index(0)}, cast<MemRefType>(bMem.getType()).getDimSize(1) * 128);
      else // B = [N x K], K contiguous
        db = descriptor(bMem, {at.first, index(0), at.second}, /*lbo=*/0);
      Value a;
      if (aMem) {
        a = descriptor(aMem, {at.first, aRow, at.second}, /*lbo=*/0);
      } else {
        a = vector::ExtractOp::create(b, monoid::named(loc, name + "_a"), aRegs, ArrayRef<OpFoldResult>{index(0), k});
      }
      monoid::WgmmaOp::create(b, loc, a, db, acc, TypeAttr::get(et), kn ? b.getUnitAttr() : UnitAttr());
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b,
        monoid::named(loc, "one group, waited for at the product's first use (attncc-place-waits)"));
    if (turnEnds) {
      Value next = arith::RemUIOp::create(b, loc, arith::AddIOp::create(b, loc, warpgroup(), i32(1)), i32(warps / 4));
      passTurn(arith::AddIOp::create(b, loc, i32(1), next), "the next warpgroup's turn");
    }

    // The result: the accumulator's registers once its group is done.
    for (OpOperand &o : fence->getOpOperands())
      if (o.get() == c.getResult())
        o.set(acc);
    b.setInsertionPointAfter(fence);
    mlir::attncc::replaceByLanes(b, c, acc, accLanes, zero4, monoid::named(loc, name));
    return success();
  }
};

struct LowerWgmmaPass : mlir::attncc::impl::LowerWgmmaBase<LowerWgmmaPass> {
  void runOnOperation() override {
    if (failed(mlir::attncc::forEachTiledKernel(getOperation(), [](gpu::GPUFuncOp f) { return Lowerer(f).run(); })))
      signalPassFailure();
  }
};

} // namespace
