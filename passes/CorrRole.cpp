//===- CorrRole.cpp - attncc-corr-role (WSPEC=load1/mma1/corr4, tcgen05) --===//
//
// Pre:  an outlined tiled kernel after attncc-lower-tcgen05 whose
//       attncc.tile has corr = 4 and mma = 1 (WSPEC=load1/mma1/corr4: after
//       the W row warps come the TMA warp, the mma warp, two idle warps and
//       the four correction warps, W + 4 .. W + 7), split by
//       attncc-warp-specialize (the scf.if marked attncc.roles), with
//       attncc-allocate-tmem's corr_full, o_ready and corr_scale views.
//       attncc-lower-tcgen05 wrote every in-place rescale of a fold's O as
//         scf.if %cond {attncc.o_rescale, attncc.tmem_col = c} {
//           8 columns at a time: tcgen05.ld at %mine + j, arith.mulf by
//           the row factors (vector.extract_strided_slice of %scale),
//           tcgen05.st
//         }
//       (%cond: true, or with RESCALE=lazy<t> the warp's vote that a factor
//       is not 1) and marked the issue blocks of the P*V products that
//       accumulate into that O attncc.o_resident.
// Post: O is rescaled by the correction warpgroup, FlashAttention-4's
//       correction role, off the softmax's path: the row warps publish
//       their row factor as soon as the new maximum is known and go on to
//       the exponentials while O is rescaled. In the row warps each rescale
//       block becomes
//         memref.store %factor, %corr_scale[%tid]     (thread t owns row t
//                                                      of its Q tile's 128)
//         nvvm.tcgen05.fence before
//         nvvm.mbarrier.arrive %corr_full[tile]       the factors are out
//       In the producer branch:
//         scf.if %warp >= W + 4 {attncc.corr_role}
//           <the row warps' loops around the rescales, with the iter_args,
//            index math and private counters their bounds need>
//           per rescale, per Q tile g:
//             nvvm.mbarrier.try_wait.parity %corr_full[g] (a private count)
//             nvvm.tcgen05.fence after
//             %factor = memref.load %corr_scale[128 g + 32 (warp % 4) + lane]
//             [lazy: scf.if (nvvm.vote.sync any (%factor != 1))] the block's
//               8-column loads, products and stores at Q tile g's O columns
//               of lane quarter warp % 4
//             nvvm.tcgen05.wait <store>, nvvm.tcgen05.fence before
//             nvvm.mbarrier.arrive %o_ready[g]           O is rescaled
//       and every attncc.o_resident issue block (Q tile g's) starts with
//         nvvm.mbarrier.try_wait.parity %o_ready[g] (a private count a Q
//         tile), nvvm.tcgen05.fence after
//       so attncc-mma-role, which runs next, makes the mma warp wait for
//       the rescale before it issues P*V. The row warps still wait for each
//       P*V before the next Q*K^T, so the factor they publish finds O
//       complete, and a factor is read before the next one is written (the
//       next Q*K^T is issued after this P*V, which waits for it).
// Refused: a kernel without the mma warp, without a rescale block (O not
//       kept in tensor memory), or with a rescale inside a branch of the
//       row warps.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidDialect.h"
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "passes/AtomUtils.h"
#include "passes/KernelConstants.h"
#include "passes/Passes.h"
#include "passes/RoleSlice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "attncc-corr-role"

namespace mlir::attncc {
#define GEN_PASS_DEF_CORRROLE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// What a rescale block reads from outside it besides constants: the row
/// factors (a vector) and the thread's O address (i32).
struct RescaleInputs {
  Value scale, mine;
};
FailureOr<RescaleInputs> rescaleInputs(scf::IfOp block) {
  RescaleInputs in;
  WalkResult r = block.thenBlock()->walk([&](Operation *op) {
    for (Value v : op->getOperands()) {
      if (block->isAncestor(v.getParentBlock()->getParentOp()) || v.getDefiningOp<arith::ConstantOp>())
        continue;
      Value &slot = isa<VectorType>(v.getType()) ? in.scale : in.mine;
      if (slot && slot != v)
        return WalkResult::interrupt();
      slot = v;
    }
    return WalkResult::advance();
  });
  bool sliced = in.scale && llvm::all_of(in.scale.getUsers(), [&](Operation *u) {
    return !block->isAncestor(u) || isa<vector::ExtractStridedSliceOp>(u);
  });
  if (r.wasInterrupted() || !in.scale || !in.mine || !sliced)
    return block.emitOpError("attncc-corr-role: expected a rescale block that reads only its row factors (by "
                             "vector.extract_strided_slice) and its O address");
  return in;
}

struct CorrRole : mlir::attncc::impl::CorrRoleBase<CorrRole> {
  LogicalResult split(gpu::GPUFuncOp f) {
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    auto count = [&](StringRef k) {
      auto a = tile ? tile.getAs<IntegerAttr>(k) : IntegerAttr();
      return a ? a.getInt() : 0;
    };
    if (!count("corr"))
      return success();
    if (!count("mma"))
      return f.emitOpError("attncc-corr-role: the correction warps need the mma warp (WSPEC=load1/mma1/corr4)");
    int64_t warps = count("warps");
    int64_t firstCorr = warps + count("producers") + count("mma") + count("idle");
    int64_t qTiles = tile.getAs<IntegerAttr>("tmem_qtile") ? warps / 4 : 1;
    int64_t qtileCols = count("tmem_qtile");

    scf::IfOp roles;
    Value full, oReady, scales, tmem;
    f.walk([&](Operation *op) {
      if (op->hasAttr("attncc.roles"))
        roles = cast<scf::IfOp>(op);
      else if (op->hasAttr("attncc.corr_full"))
        full = op->getResult(0);
      else if (op->hasAttr("attncc.o_ready"))
        oReady = op->getResult(0);
      else if (op->hasAttr("attncc.corr_scale"))
        scales = op->getResult(0);
      else if (op->hasAttr("attncc.tmem_base"))
        tmem = op->getResult(0);
    });
    if (!roles || !full || !oReady || !scales || !tmem)
      return f.emitOpError("attncc-corr-role: needs the warp roles of attncc-warp-specialize and the mbarriers and "
                           "tensor memory of attncc-allocate-tmem");
    Block &rows = roles.getElseRegion().front();
    SmallVector<scf::IfOp> blocks;
    SmallVector<scf::IfOp> issues;
    rows.walk([&](scf::IfOp i) {
      if (i->hasAttr("attncc.o_rescale"))
        blocks.push_back(i);
      if (i->hasAttr("attncc.o_resident"))
        issues.push_back(i);
    });
    if (blocks.empty())
      return f.emitOpError("attncc-corr-role: WSPEC=.../corr4: no rescale of a fold's O in tensor memory to give to "
                           "the correction warps");
    // What each block reads and where O's columns are, checked before
    // anything is rewritten.
    DenseMap<Operation *, std::pair<RescaleInputs, int64_t>> rescales;
    for (scf::IfOp block : blocks) {
      FailureOr<RescaleInputs> in = rescaleInputs(block);
      if (failed(in))
        return failure();
      auto col = block->getAttrOfType<IntegerAttr>("attncc.tmem_col");
      if (!col)
        return block.emitOpError("attncc-corr-role: a rescale block without its O columns");
      rescales[block] = {*in, col.getInt()};
    }
    auto seed = [](Operation *op) { return op->hasAttr("attncc.o_rescale"); };
    mlir::attncc::RoleSlice slice(rows, seed, /*operands=*/false, "attncc-corr-role",
                                  "attncc-corr-role: WSPEC=.../corr4: a rescale of O inside a branch of the row "
                                  "warps is not supported");
    if (failed(slice.build()))
      return failure();

    MLIRContext *ctx = f.getContext();
    Location loc = f.getLoc();
    OpBuilder b(ctx);
    mlir::attncc::KernelConstants consts(f);
    auto i32 = [&](int64_t v) { return consts.i32(v); };

    // The counts of waits: the correction warps' on corr_full, the mma
    // warp's on o_ready (one a Q tile: each tile's issue block has its own).
    Value corrWaits = mlir::attncc::privateArray(f, loc, "corr_waits", {}, b.getI32Type());
    Value oWaits = mlir::attncc::privateArray(f, loc, "o_ready_waits", {qTiles}, b.getI32Type());
    b.setInsertionPointAfter(corrWaits.getDefiningOp()); // privateArray puts each first in the kernel
    memref::StoreOp::create(b, loc, i32(0), corrWaits, ValueRange{});
    for (int64_t g = 0; g < qTiles; ++g)
      memref::StoreOp::create(b, loc, i32(0), oWaits, ValueRange{consts.index(g)});

    // The correction warps, after the other producer regions.
    b.setInsertionPoint(roles.getThenRegion().front().getTerminator());
    Value warp = gpu::SubgroupIdOp::create(b, monoid::named(loc, "warp"), /*upperBound=*/nullptr);
    Value isCorr = arith::CmpIOp::create(b, monoid::named(loc, "corr_warp"), arith::CmpIPredicate::sge, warp,
                                           consts.index(firstCorr));
    auto corr = scf::IfOp::create(b, loc, isCorr, /*withElseRegion=*/false);
    corr->setAttr("attncc.corr_role", b.getUnitAttr());
    b.setInsertionPoint(corr.thenBlock()->getTerminator());
    Value lane = gpu::LaneIdOp::create(b, monoid::named(loc, "lane"), /*upperBound=*/nullptr);
    // Warp w reads lane quarter w % 4: rows 32 (w % 4) + lane of each Q tile.
    Value q = arith::AndIOp::create(b, loc, warp, consts.index(3));
    Value row = arith::AddIOp::create(b, monoid::named(loc, "corr_row"),
                                        Value(arith::MulIOp::create(b, loc, q, consts.index(32))), lane);
    Value q32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), q);
    Value lanes = arith::ShLIOp::create(b, monoid::named(loc, "quarter"),
                                          Value(arith::MulIOp::create(b, loc, q32, i32(32))), i32(16));

    IRMapping map;
    mlir::attncc::cloneRole(b, rows, slice, map, [&](Operation &op, IRMapping &m) {
      if (!op.hasAttr("attncc.o_rescale")) {
        b.clone(op, m);
        return;
      }
      auto block = cast<scf::IfOp>(op);
      const auto &[in, col] = rescales[block];
      bool lazy = static_cast<bool>(block.getCondition().getDefiningOp<NVVM::VoteSyncOp>());
      Value n = memref::LoadOp::create(b, loc, corrWaits, ValueRange{});
      memref::StoreOp::create(b, loc, Value(arith::AddIOp::create(b, loc, n, i32(1))), corrWaits, ValueRange{});
      Value parity = arith::AndIOp::create(b, monoid::named(loc, "parity"), n, i32(1));
      for (int64_t g = 0; g < qTiles; ++g) {
        std::string t = qTiles > 1 ? "_q" + std::to_string(g) : "";
        Value fullG = mlir::attncc::qtileMbarrier(b, loc, full, g, consts, monoid::named(loc, "corr_full" + t));
        NVVM::MBarrierTryWaitParityOp::create(b, monoid::named(loc, "the row factors are published"), fullG, parity,
                                                i32(10000000));
        NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
        Value at = g ? arith::AddIOp::create(b, loc, row, consts.index(128 * g)).getResult() : row;
        Value factor = memref::LoadOp::create(b, monoid::named(loc, "factor"), scales, ValueRange{at});
        IRMapping bm = m;
        Value mine = arith::AddIOp::create(b,
            monoid::named(loc, "o_mine"),
            Value(arith::AddIOp::create(b, loc, tmem, i32(col + g * qtileCols))), lanes);
        bm.map(in.mine, mine);
        {
          OpBuilder::InsertionGuard guard(b);
          if (lazy) {
            Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f));
            Value moved = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, factor, one);
            Value any = NVVM::VoteSyncOp::create(b, monoid::named(loc, "o_rescale_any"), b.getI1Type(), i32(-1),
                                                   moved, NVVM::VoteSyncKind::any);
            auto skip = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
            b.setInsertionPoint(skip.thenBlock()->getTerminator());
          }
          // The block's slices of the row factors are this thread's one
          // factor, broadcast.
          for (Operation &in2 : block.thenBlock()->without_terminator()) {
            auto slice = dyn_cast<vector::ExtractStridedSliceOp>(in2);
            if (slice && slice.getSource() == in.scale)
              bm.map(slice.getResult(), vector::BroadcastOp::create(b, loc, slice.getType(), factor).getResult());
            else
              b.clone(in2, bm);
          }
        }
        NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::STORE);
        NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
        Value readyG = mlir::attncc::qtileMbarrier(b, loc, oReady, g, consts, monoid::named(loc, "o_ready" + t));
        NVVM::MBarrierArriveOp::create(b, monoid::named(loc, "O is rescaled"), Type{}, readyG, Value{});
      }
    });

    // The row warps: publish the factor instead of rescaling.
    for (scf::IfOp block : blocks) {
      const RescaleInputs *in = &rescales[block].first;
      // As early as the factors are known: the thread's lanes of them
      // (monoid.to_lanes, and the broadcast and shape casts before it)
      // move up to just after the op that computes them, in the same block.
      b.setInsertionPoint(block);
      if (auto lanesOp = in->scale.getDefiningOp<monoid::ToLanesOp>()) {
        SmallVector<Operation *> chain{lanesOp};
        Value src = lanesOp->getOperand(0);
        while (Operation *d = src.getDefiningOp()) {
          if (!isa<vector::BroadcastOp, vector::ShapeCastOp>(d) || !d->hasOneUse() || d->getBlock() != block->getBlock())
            break;
          chain.push_back(d);
          src = d->getOperand(0);
        }
        Operation *root = src.getDefiningOp();
        if (root && root->getBlock() == block->getBlock())
          b.setInsertionPointAfter(root);
        else
          b.setInsertionPointToStart(block->getBlock());
        for (Operation *d : llvm::reverse(chain)) {
          d->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
        }
      }
      Value factor = vector::ExtractOp::create(b, monoid::named(loc, "factor"), in->scale, ArrayRef<int64_t>{0});
      Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
      memref::StoreOp::create(b, loc, factor, scales, ValueRange{tid});
      NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
      Value mineFull = qTiles > 1 ? mlir::attncc::myQtileMbarrier(b, loc, full, consts, monoid::named(loc, "corr_full_mine"))
                                  : mlir::attncc::sharedPointer(b, loc, full, Value(), monoid::named(loc, "corr_full"));
      NVVM::MBarrierArriveOp::create(b, monoid::named(loc, "the row factors are published"), Type{}, mineFull,
                                       Value{});
      Value cond = block.getCondition();
      block.erase();
      if (Operation *d = cond.getDefiningOp(); d && isOpTriviallyDead(d))
        d->erase();
    }

    // The P*V products that accumulate into O wait until it is rescaled.
    for (scf::IfOp issue : issues) {
      auto qtile = issue->getAttrOfType<IntegerAttr>("attncc.qtile");
      int64_t g = qtile ? qtile.getInt() : 0;
      Location il = issue.getLoc();
      b.setInsertionPointToStart(issue.thenBlock());
      Value at = consts.index(g);
      Value n = memref::LoadOp::create(b, il, oWaits, ValueRange{at});
      memref::StoreOp::create(b, il, Value(arith::AddIOp::create(b, il, n, i32(1))), oWaits, ValueRange{at});
      Value parity = arith::AndIOp::create(b, monoid::named(il, "parity"), n, i32(1));
      Value readyG = mlir::attncc::qtileMbarrier(b, il, oReady, g, consts,
                                                 monoid::named(il, qTiles > 1 ? "o_ready_q" + std::to_string(g)
                                                                              : std::string("o_ready")));
      NVVM::MBarrierTryWaitParityOp::create(b, monoid::named(il, "O is rescaled"), readyG, parity, i32(10000000));
      NVVM::Tcgen05FenceOp::create(b, il, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    }
    return success();
  }

  void runOnOperation() override {
    if (failed(mlir::attncc::forEachTiledKernel(getOperation(), [&](gpu::GPUFuncOp f) { return split(f); })))
      signalPassFailure();
  }
};

} // namespace
