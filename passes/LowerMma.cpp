//===- LowerMma.cpp - attncc-lower-mma (the mma.sync atom as nvgpu ops) ---===//
//
// Pre:  outlined tiled kernels after attncc-lower-copies. An mma.sync
//       contraction is a vector.contract marked attncc.atom = "mma.m16n8k16"
//       (attncc-atomize) whose operands have fragment layouts: the left one
//       smem (a staged block: a read of its slot), a (registers), or c (the
//       C fragments of an earlier product, often arith.truncf of them); the
//       right one smem, b.nk or b.kn. attncc.ldmatrix = "x4", attncc.acc =
//       "f16x" (+ attncc.acc_steps) and attncc.handoff_offset (REPACK=smem)
//       say how (attncc-ldmatrix-x4, attncc-accumulate, attncc-allocate-smem).
// Post: every such contraction is the loops of its atoms, per thread:
//         memref.alloca : memref<FM x NF x 2 x 2 x f32>   the accumulators,
//           vector.store of the accumulator's lanes       one m16n8 tile per
//                                                         (row tile, n8 tile)
//         scf.for %kc (k16 steps) {                       loops marked
//           scf.for %fm: the A fragments of this step     attncc.unroll
//             nvgpu.ldmatrix %slot[row, col] {numTiles = 4}
//             | vector.extract %a_lanes[%fm, %kc] (+ arith.truncf of P)
//           scf.for %nf: the B fragments of n8 tile nf (x4: nf and nf + 1)
//             nvgpu.ldmatrix %slot[row, col] {numTiles = 2|4, transpose}
//             | vector.extract %b_lanes[%nf, %kc]
//             scf.for %fm:
//               nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
//               on vector.load / vector.store of the accumulator
//           ACC=f16x: the product accumulates into fp16 partials, added
//           (arith.extf, arith.addf) into fp32 every acc_steps steps and
//           after the last
//         }
//         monoid.from_lanes of the accumulators          the result tile
//       The lane coordinates of the ldmatrix rows are arith on gpu.lane_id
//       and gpu.subgroup_id (i32); a register operand crosses into the
//       thread's registers by monoid.to_lanes. REPACK=smem writes the left
//       operand into its slab (vector.transfer_write between two
//       nvvm.bar.warp.sync) and reads it back by ldmatrix. A block a loop
//       carries is read from the slot's view that attncc-lower-copies
//       carries beside it (a memref iter_arg).
// Refused: an operand layout the atom cannot take, ACC=f16x on bf16, x4 on
//       an odd number of n8 tiles.
// (Until 2026-12-02 the CUDA emitter printed each contraction as these
// loops, with the lane coordinates in the CUDA text.)
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

#define DEBUG_TYPE "attncc-lower-mma"

namespace mlir::attncc {
#define GEN_PASS_DEF_LOWERMMA
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

class Lowerer {
public:
  Lowerer(gpu::GPUFuncOp f) : f(f), b(f.getContext()), loc(f.getLoc()), consts(f) {
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    int64_t warps = tile.getAs<IntegerAttr>("warps").getInt();
    int64_t rows = tile.getAs<IntegerAttr>("rows").getInt();
    fm = rows / (warps * 16);
  }

  LogicalResult run() {
    SmallVector<vector::ContractionOp> todo;
    f.walk([&](vector::ContractionOp c) {
      auto atom = c->getAttrOfType<StringAttr>("attncc.atom");
      if (atom && atom.getValue() == "mma.m16n8k16")
        todo.push_back(c);
    });
    for (vector::ContractionOp c : todo)
      if (failed(lower(c)))
        return failure();
    return success();
  }

private:
  gpu::GPUFuncOp f;
  OpBuilder b;
  Location loc;
  int64_t fm = 1;
  mlir::attncc::KernelConstants consts;
  Value laneValue, warpValue;

  Value index(int64_t v) { return consts.index(v); }
  Value i32(int64_t v) { return consts.i32(v); }
  Value toI32(Value v) { return arith::IndexCastOp::create(b, loc, b.getI32Type(), v); }
  Value toIndex(Value v) { return arith::IndexCastOp::create(b, loc, b.getIndexType(), v); }
  Value add(Value x, Value y) {
    if (auto c = getConstantIntValue(x); c && *c == 0)
      return y;
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(Value x, int64_t k) {
    if (k == 1)
      return x;
    return arith::MulIOp::create(b, loc, x, i32(k));
  }
  Value andI(Value x, int64_t k) { return arith::AndIOp::create(b, loc, x, i32(k)); }
  Value shr(Value x, int64_t k) { return arith::ShRUIOp::create(b, loc, x, i32(k)); }
  /// This thread's lane and warp (i32), once at the kernel's top.
  Value lane() {
    if (!laneValue) {
      OpBuilder top = OpBuilder::atBlockBegin(&f.getBody().front());
      Value l = gpu::LaneIdOp::create(top, monoid::named(loc, "lane"), /*upperBound=*/nullptr);
      laneValue = arith::IndexCastOp::create(top, loc, top.getI32Type(), l);
      Value w = gpu::SubgroupIdOp::create(top, monoid::named(loc, "warp"), /*upperBound=*/nullptr);
      warpValue = arith::IndexCastOp::create(top, loc, top.getI32Type(), w);
    }
    return laneValue;
  }
  Value warp() {
    lane();
    return warpValue;
  }

  Value privateArray(StringRef name, ArrayRef<int64_t> shape, Type et) {
    return mlir::attncc::privateArray(f, loc, name, shape, et);
  }

  /// A loop of `n` steps (of `step`) over the atoms, fully unrolled by the
  /// CUDA compiler (attncc.unroll); the builder is left inside its body.
  Value atomLoop(int64_t n, int64_t step, StringRef name) {
    auto loop = scf::ForOp::create(b, loc, index(0), index(n), index(step));
    loop->setAttr("attncc.unroll", b.getUnitAttr());
    loop.getInductionVar().setLoc(monoid::named(loc, name));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    return loop.getInductionVar();
  }

  FailureOr<Value> blockMemref(Value v, Operation *at) {
    return mlir::attncc::blockMemref(b, v, at, "attncc-lower-mma");
  }

  /// The ldmatrix indices of row `row`, column `col` (i32, col a multiple
  /// of 8) of a slot: [row, col] of a rows x stride slot, or of a swizzled
  /// [slabs, rows, slab] slot (TMA's and cp's 128-byte swizzle) the slab,
  /// the row and the row's 16-byte chunk XOR-ed with row mod 8.
  SmallVector<Value> slotIndices(Value mem, Value row, Value col) {
    auto mt = cast<MemRefType>(mem.getType());
    if (mt.getRank() == 2)
      return {toIndex(row), toIndex(col)};
    int64_t slab = mt.getDimSize(2);
    Value chunk = andI(shr(col, 3), slab / 8 - 1);
    Value swz = arith::XOrIOp::create(b, loc, chunk, andI(row, 7));
    Value slabOf = arith::DivUIOp::create(b, loc, col, i32(slab));
    return {toIndex(slabOf), toIndex(row), toIndex(mul(swz, 8))};
  }

  /// The memref.view of the REPACK=smem slab at `offset` bytes.
  Value slabAt(int64_t offset) {
    for (Operation &op : f.getBody().front())
      if (auto v = dyn_cast<memref::ViewOp>(op))
        if (auto c = getConstantIntValue(v.getByteShift()); c && *c == offset)
          return v;
    return Value();
  }

  LogicalResult lower(vector::ContractionOp c) {
    auto accT = cast<VectorType>(c.getAccType());
    auto lhsT = cast<VectorType>(c.getLhsType());
    int64_t nf = accT.getDimSize(1) / 8, kc = lhsT.getDimSize(1) / 16;
    Type et = lhsT.getElementType();
    bool kn = monoid::rightIsKN(c);
    std::string ll = monoid::layoutOf(c.getLhs()), rl = monoid::layoutOf(c.getRhs());
    bool f16x = c->hasAttr("attncc.acc");
    auto stepsAttr = c->getAttrOfType<IntegerAttr>("attncc.acc_steps");
    int64_t steps = stepsAttr ? stepsAttr.getInt() : 0;
    bool x4 = rl == "smem" && c->hasAttr("attncc.ldmatrix");
    if (x4 && nf % 2)
      return c.emitOpError("attncc.ldmatrix = \"x4\" needs an even number of n8 tiles, not ") << nf;
    if (f16x && !et.isF16())
      return c.emitOpError("ACC=f16x needs f16 operands");
    auto handoff = c->getAttrOfType<IntegerAttr>("attncc.handoff_offset");
    if (handoff && ll != "c")
      return c.emitOpError("REPACK=smem needs the left operand in C fragments, not '") << ll << "'";
    if (!handoff && ll != "smem" && ll != "a" && ll != "c")
      return c.emitOpError("left operand layout '") << ll << "' cannot feed mma.sync";
    if (rl != "smem" && rl != "b.nk" && rl != "b.kn")
      return c.emitOpError("right operand layout '") << rl << "' cannot feed mma.sync";
    std::string name = "mma";
    if (auto n = dyn_cast<NameLoc>(c.getLoc()))
      name = n.getName().str();
    auto fragA = VectorType::get({4, 2}, et), fragB = VectorType::get({2, 2}, et);
    auto fragC = VectorType::get({2, 2}, f16x ? et : b.getF32Type());
    auto accLanes = VectorType::get({fm, nf, 2, 2}, b.getF32Type());
    b.setInsertionPoint(c);
    Value zero4[4] = {index(0), index(0), index(0), index(0)};

    // The accumulators (and ACC=f16x's partials): one m16n8 tile per atom.
    Value acc = privateArray(name, accLanes.getShape(), b.getF32Type());
    mlir::attncc::storeLanes(b, loc, c.getAcc(), acc, accLanes, zero4);
    Value part, partZero;
    if (f16x) {
      auto pt = VectorType::get(accLanes.getShape(), et);
      part = privateArray(name + "_f16", pt.getShape(), et);
      partZero = arith::ConstantOp::create(b, loc, DenseElementsAttr::get(pt, b.getZeroAttr(et)));
      vector::StoreOp::create(b, loc, partZero, part, zero4);
    }

    // The left operand: a shared slot (staged, or the REPACK=smem slab) or
    // this thread's registers.
    Value aMem, aLanes;
    bool round = false; // P: rounded from the f32 C fragments one k step at a time
    if (handoff) {
      aMem = slabAt(handoff.getInt());
      if (!aMem)
        return c.emitOpError("attncc-lower-mma: no REPACK=smem slab at offset ") << handoff.getInt();
      // This warp is done reading its rows of the slab, writes them, and
      // reads them back as A fragments.
      Value all = i32(-1);
      NVVM::SyncWarpOp::create(b, loc, all);
      vector::TransferWriteOp::create(b, loc, c.getLhs(), aMem, ValueRange{index(0), index(0)},
                                        ArrayRef<bool>{true, true});
      NVVM::SyncWarpOp::create(b, loc, all);
    } else if (ll == "smem") {
      auto m = blockMemref(c.getLhs(), c);
      if (failed(m))
        return failure();
      aMem = *m;
    } else {
      Value src = c.getLhs();
      if (auto t = src.getDefiningOp<arith::TruncFOp>(); t && getElementTypeOrSelf(t.getIn().getType()).isF32()) {
        src = t.getIn();
        round = true;
      }
      auto lt = VectorType::get({fm, kc, 4, 2}, getElementTypeOrSelf(src.getType()));
      aLanes = monoid::ToLanesOp::create(b, monoid::named(loc, name + "_a"), lt, src);
    }
    Value bMem, bLanes;
    if (rl == "smem") {
      auto m = blockMemref(c.getRhs(), c);
      if (failed(m))
        return failure();
      bMem = *m;
    } else {
      bLanes = monoid::ToLanesOp::create(b, monoid::named(loc, name + "_b"), VectorType::get({nf, kc, 2, 2}, et),
                                           c.getRhs());
    }
    Value aRegs = privateArray(name + "_a", {fm, 4, 2}, et);
    // The lanes' parts of the ldmatrix coordinates, once per contraction.
    Value aRow, aCol, bRow, bCol, bN8;
    if (aMem) { // rows warp*FM*16 + fm*16 + (lane & 15), columns kc*16 + (lane >> 4)*8
      aRow = add(mul(warp(), fm * 16), andI(lane(), 15));
      aCol = mul(shr(lane(), 4), 8);
    }
    if (bMem) { // x4: lanes 16-31 address the second n8 tile
      bN8 = x4 ? shr(lane(), 4) : i32(0);
      if (kn) { // rows kc*16 + (lane & 7) + ((lane >> 3) & 1)*8, columns n8*8
        bRow = add(andI(lane(), 7), mul(andI(shr(lane(), 3), 1), 8));
      } else { // rows n8*8 + (lane & 7), columns kc*16 + ((lane >> 3) & 1)*8
        bRow = andI(lane(), 7);
        bCol = mul(andI(shr(lane(), 3), 1), 8);
      }
    }

    OpBuilder::InsertionGuard guard(b);
    Value k = atomLoop(kc, 1, "kc");
    Value k32 = toI32(k);
    {
      // The A fragments of this k step, once for all n8 tiles.
      OpBuilder::InsertionGuard g(b);
      Value m = atomLoop(fm, 1, "fm");
      Value a;
      if (aMem) {
        Value row = add(aRow, mul(toI32(m), 16));
        Value col = add(mul(k32, 16), aCol);
        a = nvgpu::LdMatrixOp::create(b, monoid::named(loc, "a"), fragA, aMem, slotIndices(aMem, row, col),
                                        /*transpose=*/false, /*numTiles=*/4);
      } else {
        a = vector::ExtractOp::create(b, monoid::named(loc, "a"), aLanes, ArrayRef<OpFoldResult>{m, k});
        if (round)
          a = arith::TruncFOp::create(b, monoid::named(loc, "a"), fragA, a);
      }
      vector::StoreOp::create(b, loc, a, aRegs, ValueRange{m, index(0), index(0)});
    }
    {
      OpBuilder::InsertionGuard g(b);
      Value n = atomLoop(nf, x4 ? 2 : 1, "nf");
      Value bf;
      if (bMem) {
        Value n8 = add(bN8, toI32(n));
        Value row, col;
        if (kn) {
          row = add(mul(k32, 16), bRow);
          col = mul(n8, 8);
        } else {
          row = add(mul(n8, 8), bRow);
          col = add(mul(k32, 16), bCol);
        }
        bf = nvgpu::LdMatrixOp::create(b, monoid::named(loc, "b"), VectorType::get({x4 ? 4 : 2, 2}, et), bMem,
                                         slotIndices(bMem, row, col), /*transpose=*/kn,
                                         /*numTiles=*/x4 ? 4 : 2);
      } else {
        bf = vector::ExtractOp::create(b, monoid::named(loc, "b"), bLanes, ArrayRef<OpFoldResult>{n, k});
      }
      for (int64_t h = 0; h < (x4 ? 2 : 1); ++h) {
        Value bh = bf;
        Value nh = n;
        if (x4) {
          bh = vector::ExtractStridedSliceOp::create(b, monoid::named(loc, "b"), bf, ArrayRef<int64_t>{2 * h, 0}, ArrayRef<int64_t>{2, 2},
                                                       ArrayRef<int64_t>{1, 1});
          if (h)
            nh = arith::AddIOp::create(b, loc, n, index(1));
        }
        OpBuilder::InsertionGuard g2(b);
        Value m = atomLoop(fm, 1, "fm");
        Value a = vector::LoadOp::create(b, monoid::named(loc, "a"), fragA, aRegs, ValueRange{m, index(0), index(0)});
        Value into = f16x ? part : acc;
        SmallVector<Value> at{m, nh, index(0), index(0)};
        Value cv = vector::LoadOp::create(b, monoid::named(loc, "c"), fragC, into, at);
        Value d = nvgpu::MmaSyncOp::create(b, monoid::named(loc, "d"), a, bh, cv, ArrayRef<int64_t>{16, 8, 16});
        vector::StoreOp::create(b, loc, d, into, at);
      }
    }
    // ACC=f16x: the partials into fp32, then from zero again.
    auto promote = [&]() {
      auto pt = VectorType::get(accLanes.getShape(), et);
      Value p = vector::LoadOp::create(b, loc, pt, part, zero4);
      Value pf = arith::ExtFOp::create(b, loc, accLanes, p);
      Value old = vector::LoadOp::create(b, loc, accLanes, acc, zero4);
      Value sum = arith::AddFOp::create(b, loc, old, pf);
      vector::StoreOp::create(b, loc, sum, acc, zero4);
    };
    if (f16x && steps) { // after every `steps` k steps, and after the last
      Value next = arith::AddIOp::create(b, loc, k, index(1));
      Value r = arith::RemUIOp::create(b, loc, next, index(steps));
      Value every = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r, index(0));
      Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k, index(kc - 1));
      Value when = arith::OrIOp::create(b, loc, every, last);
      auto i = scf::IfOp::create(b, loc, when, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(i.thenBlock()->getTerminator());
      promote();
      vector::StoreOp::create(b, loc, partZero, part, zero4);
    }
    b.setInsertionPoint(c);
    if (f16x && !steps)
      promote();
    mlir::attncc::replaceByLanes(b, c, acc, accLanes, zero4, loc);
    return success();
  }
};

struct LowerMmaPass : mlir::attncc::impl::LowerMmaBase<LowerMmaPass> {
  void runOnOperation() override {
    if (failed(mlir::attncc::forEachTiledKernel(getOperation(), [](gpu::GPUFuncOp f) { return Lowerer(f).run(); })))
      signalPassFailure();
  }
};

} // namespace
