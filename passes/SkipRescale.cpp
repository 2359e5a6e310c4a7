//===- SkipRescale.cpp - attncc-skip-rescale (RESCALE=lazy<t>, registers) -===//
//
// Pre:  outlined tiled kernels after attncc-atomize (fragment layouts on
//       every tile value). A fold that keeps its maximum lazily holds
//       attncc-lazy-rescale's select (marked attncc.lazy) and rescales each
//       twisted channel by the per-row correction %f (layout row):
//         %w = vector.broadcast (vector.shape_cast %f)     layout c
//         %s = arith.mulf %o, %w                           layout c
// Post: in kernels whose accumulators are registers (mma.sync, wgmma) the
//       rescale happens only in a warp where some row moved its maximum:
//         %fl   = monoid.to_lanes %f : vector<R> to vector<2 fm>
//         %ne   = arith.cmpf une, %fl, 1.0
//         %mine = vector.reduction <or>, %ne
//         %any  = nvvm.vote.sync any %mask, %mine
//         %s    = scf.if %any -> (layout c) { arith.mulf %o, %w } else { %o }
//       Where a warp's rows all kept their maximum, every factor is
//       exp2(0) = 1 exactly (attncc-exp2 takes both products of the
//       difference with the same rounding), so both branches give the same
//       value. The test is the warp's vote, not the thread's: the atoms that
//       read the accumulator next (mma.sync, wgmma) are warp-wide, and a
//       branch the whole warp takes costs one vote. FlashAttention-4 skips
//       the rescale of O in tensor memory the same way; attncc-lower-tcgen05
//       does that for tcgen05 kernels, which this pass leaves alone.
//
//       The row sum's rescale (a vector in layout row, 2 fm multiplies per
//       thread) is left as it is: the vote would cost more than it saves.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/AtomUtils.h"
#include "passes/KernelConstants.h"
#include "passes/Passes.h"
#include "passes/Splat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#define DEBUG_TYPE "attncc-skip-rescale"

namespace mlir::attncc {
#define GEN_PASS_DEF_SKIPRESCALE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// The per-row factor %f of %w = broadcast(shape_cast(%f)), or null.
Value rowFactor(Value w) {
  auto bc = w.getDefiningOp<vector::BroadcastOp>();
  if (!bc)
    return {};
  auto sc = bc.getSource().getDefiningOp<vector::ShapeCastOp>();
  if (!sc || monoid::layoutOf(sc.getSource()) != "row")
    return {};
  return sc.getSource();
}

/// Whether the kernel's contractions are tcgen05's (their accumulators live
/// in tensor memory).
bool tensorMemory(gpu::GPUFuncOp f) {
  bool tmem = false;
  f.walk([&](vector::ContractionOp c) {
    if (auto fam = c->getAttrOfType<StringAttr>("attncc.family"))
      tmem |= fam.getValue() == "tcgen05";
  });
  return tmem;
}

/// The warp's vote on "some factor of mine is not 1", after the factor.
LogicalResult vote(OpBuilder &b, Location loc, Value fac, DictionaryAttr tile, Value &any) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointAfterValue(fac);
  // The thread's rows of a tile in layout row: 2 per 16-row tile of its warp.
  auto rows = cast<VectorType>(fac.getType());
  int64_t warps = tile ? cast<IntegerAttr>(tile.get("warps")).getInt() : 0;
  int64_t perWarp = warps ? rows.getNumElements() / warps : 0;
  if (!perWarp || perWarp % 16)
    return emitError(loc, "attncc-skip-rescale: a factor of ")
           << rows.getNumElements() << " rows over " << warps << " warps (16-row tiles per warp expected)";
  auto lanesType = VectorType::get({perWarp / 8}, rows.getElementType());
  Value lanes = monoid::ToLanesOp::create(b, monoid::named(loc, "factor"), lanesType, fac);
  Value one = mlir::attncc::floatSplat(b, loc, lanesType, 1.0);
  Value ne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, lanes, one);
  Value mine = vector::ReductionOp::create(b, monoid::named(loc, "moved"), vector::CombiningKind::OR, ne);
  Value all = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1));
  any = NVVM::VoteSyncOp::create(b, monoid::named(loc, "rescale_any"), b.getI1Type(), all, mine,
                                   NVVM::VoteSyncKind::any);
  return success();
}

LogicalResult skipIn(gpu::GPUFuncOp f) {
  if (tensorMemory(f))
    return success();
  auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
  SmallVector<std::pair<arith::MulFOp, Value>> rescales;
  f.walk([&](scf::ForOp loop) {
    if (!mlir::attncc::lazyFold(loop))
      return;
    for (Operation &op : *loop.getBody()) {
      auto m = dyn_cast<arith::MulFOp>(op);
      if (!m || monoid::layoutOf(m.getResult()) != "c")
        continue;
      for (int k = 0; k < 2; ++k)
        if (Value fac = rowFactor(m->getOperand(k))) {
          rescales.push_back({m, fac});
          break;
        }
    }
  });
  llvm::DenseMap<Value, Value> votes; // one vote per factor
  for (auto [m, fac] : rescales) {
    Location loc = m.getLoc();
    OpBuilder b(m);
    Value &any = votes[fac];
    if (!any) {
      if (failed(vote(b, loc, fac, tile, any)))
        return failure();
    }
    int keep = rowFactor(m.getLhs()) ? 1 : 0; // the tile, not the factor
    Value o = m->getOperand(keep);
    auto i = scf::IfOp::create(b, loc, TypeRange{m.getType()}, any, /*withElseRegion=*/true);
    i->setAttr("attncc.layout", m->getAttr("attncc.layout"));
    m.getResult().replaceAllUsesWith(i.getResult(0));
    OpBuilder tb = i.getThenBodyBuilder();
    auto y = scf::YieldOp::create(tb, loc, m.getResult());
    m->moveBefore(y);
    OpBuilder eb = i.getElseBodyBuilder();
    scf::YieldOp::create(eb, loc, o);
  }
  return success();
}

struct SkipRescalePass : mlir::attncc::impl::SkipRescaleBase<SkipRescalePass> {
  void runOnOperation() override {
    if (failed(mlir::attncc::forEachTiledKernel(getOperation(), skipIn)))
      signalPassFailure();
  }
};

} // namespace
