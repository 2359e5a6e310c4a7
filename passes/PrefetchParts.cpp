//===- PrefetchParts.cpp - attncc-prefetch-parts (the combine's loads) ----===//
//
// Pre:  loop IR after attncc-split-columns: the combine map of a split (the
//       top-level scf.parallel named "combine"), holding the fold over the
//       parts: an scf.for with unit step whose body loads the parts' states
//       (memref.load of a scalar, vector.load of a 1-d vector) from buffers
//       the map does not write, at indices that are the loop's index,
//       values defined outside the loop, or pure arithmetic of these.
// Post: the fold runs over batches of kBatch parts:
//         scf.for %batch = lo to hi step kBatch iter_args(state) {
//           scf.for %p = 0 to kBatch {attncc.unroll} {        the loads
//             %part = %batch + %p
//             scf.if %part < hi { x = load [.., %part, ..]; store x, %buf_x[%p] }
//           }
//           scf.for %p = 0 to kBatch iter_args(state) {attncc.unroll} {
//             %part = %batch + %p
//             scf.if %part < hi { the fold, x = load %buf_x[%p] } else { state }
//           }
//         }
//       with one private buffer (memref.alloca, registers on the GPU) of
//       kBatch values per load, made before the fold. When kBatch divides a
//       constant trip count, the guards are left out; a constant count below
//       kBatch is one batch of that many. The map gets NVVM's
//       minctasm = 1 (attncc-map-to-gpu carries it to the kernel).
// Why: the online fold's next max waits for the part's loads, so unbatched
// each part costs one memory latency per thread: 14.7 us for 32 parts and
// 53.3 us for 128 on the H200 (Nsight Compute, 2026-12-03), beside a 255 us
// KV pass. Batched, a thread has the loads of kBatch parts in flight at once.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "attncc-prefetch-parts"

namespace mlir::attncc {
#define GEN_PASS_DEF_PREFETCHPARTS
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

constexpr int64_t kBatch = 8;

/// The loads of `f`'s body that read parts: a scalar memref.load or a 1-d
/// vector.load, every index the loop's index or defined outside the loop.
/// Empty if any other op in the body reads or writes memory.
SmallVector<Operation *> partLoads(scf::ForOp f) {
  SmallVector<Operation *> loads;
  bool ok = true;
  Value iv = f.getInductionVar();
  std::function<bool(Value)> indexOk1 = [&](Value v) {
    if (v == iv || !f->isAncestor(v.getParentBlock()->getParentOp()))
      return true;
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == f.getBody() && isPure(def) && def->getNumRegions() == 0 &&
           llvm::all_of(def->getOperands(), indexOk1);
  };
  auto indexOk = [&](ValueRange idx) { return llvm::all_of(idx, indexOk1); };
  for (Operation &op : f.getBody()->without_terminator()) {
    if (auto l = dyn_cast<memref::LoadOp>(op)) {
      ok &= indexOk(l.getIndices());
      loads.push_back(&op);
    } else if (auto l = dyn_cast<vector::LoadOp>(op)) {
      ok &= l.getVectorType().getRank() == 1 && indexOk(l.getIndices());
      loads.push_back(&op);
    } else if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0) {
      ok = false;
    }
  }
  if (!ok)
    loads.clear();
  return loads;
}

/// Clones into `b` what `v` needs from the body of `f` (pure index
/// arithmetic, partLoads checked it), recording the copies in `m`.
void cloneIndex(OpBuilder &b, scf::ForOp f, Value v, IRMapping &m) {
  Operation *def = v.getDefiningOp();
  if (m.contains(v) || !def || def->getBlock() != f.getBody())
    return;
  for (Value o : def->getOperands())
    cloneIndex(b, f, o, m);
  b.clone(*def, m);
}

LogicalResult prefetch(scf::ForOp f, ArrayRef<Operation *> loads) {
  OpBuilder b(f);
  Location loc = f.getLoc();
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, unnamed(loc), v).getResult(); };
  Value lo = f.getLowerBound(), hi = f.getUpperBound();
  std::optional<APInt> trips = f.getStaticTripCount();
  // A constant count below kBatch is one batch of that many parts.
  int64_t batch = trips ? std::min<int64_t>(kBatch, std::max<int64_t>(1, trips->getZExtValue())) : kBatch;
  bool guard = !trips || trips->getZExtValue() % batch != 0;
  Value c0 = cst(0), c1 = cst(1), cK = cst(batch);

  // One private buffer of kBatch values per load.
  SmallVector<Value> bufs;
  for (Operation *l : loads) {
    Type t = l->getResult(0).getType();
    SmallVector<int64_t> shape{batch};
    Type elem = t;
    if (auto vt = dyn_cast<VectorType>(t)) {
      shape.push_back(vt.getDimSize(0));
      elem = vt.getElementType();
    }
    auto mt = MemRefType::get(shape, elem);
    bufs.push_back(memref::AllocaOp::create(b, named(loc, "parts"), mt));
  }

  auto batches = scf::ForOp::create(b, loc, lo, hi, cK, f.getInitArgs());
  batches.getInductionVar().setLoc(named(unnamed(loc), "batch"));
  OpBuilder bb = OpBuilder::atBlockBegin(batches.getBody());
  auto partAt = [&](OpBuilder &ob, Value p) {
    return arith::AddIOp::create(ob, named(unnamed(loc), "part"), batches.getInductionVar(), p).getResult();
  };

  // The loads.
  auto fetch = scf::ForOp::create(bb, loc, c0, cK, c1);
  fetch->setAttr("attncc.unroll", bb.getUnitAttr());
  fetch.getInductionVar().setLoc(named(unnamed(loc), "p"));
  {
    OpBuilder fb = OpBuilder::atBlockBegin(fetch.getBody());
    Value p = fetch.getInductionVar();
    Value part = partAt(fb, p);
    if (guard) {
      Value in = arith::CmpIOp::create(fb, unnamed(loc), arith::CmpIPredicate::ult, part, hi);
      auto i = scf::IfOp::create(fb, unnamed(loc), in, /*withElseRegion=*/false);
      fb.setInsertionPoint(i.thenBlock()->getTerminator());
    }
    for (auto [l, buf] : llvm::zip(loads, bufs)) {
      IRMapping m;
      m.map(f.getInductionVar(), part);
      for (Value o : l->getOperands())
        cloneIndex(fb, f, o, m);
      Value x = fb.clone(*l, m)->getResult(0);
      if (isa<VectorType>(x.getType()))
        vector::StoreOp::create(fb, unnamed(loc), x, buf, ValueRange{p, c0});
      else
        memref::StoreOp::create(fb, unnamed(loc), x, buf, ValueRange{p});
    }
  }

  // The fold, reading the buffers.
  auto fold = scf::ForOp::create(bb, loc, c0, cK, c1, batches.getRegionIterArgs());
  fold->setAttr("attncc.unroll", bb.getUnitAttr());
  fold.getInductionVar().setLoc(named(unnamed(loc), "p"));
  for (auto [o, x, y] : llvm::zip(f.getRegionIterArgs(), batches.getRegionIterArgs(), fold.getRegionIterArgs())) {
    x.setLoc(o.getLoc()); // the listing keeps %m, %d, %o
    y.setLoc(o.getLoc());
  }
  {
    OpBuilder fb = OpBuilder::atBlockBegin(fold.getBody());
    Value p = fold.getInductionVar();
    Value part = partAt(fb, p);
    IRMapping m;
    m.map(f.getInductionVar(), part);
    for (auto [o, n] : llvm::zip(f.getRegionIterArgs(), fold.getRegionIterArgs()))
      m.map(o, n);
    Block *body = fold.getBody();
    scf::IfOp in;
    if (guard) {
      Value c = arith::CmpIOp::create(fb, unnamed(loc), arith::CmpIPredicate::ult, part, hi);
      in = scf::IfOp::create(fb, unnamed(loc), fold.getResultTypes(), c, /*withElseRegion=*/true);
      OpBuilder eb = OpBuilder::atBlockBegin(in.elseBlock());
      scf::YieldOp::create(eb, unnamed(loc), fold.getRegionIterArgs());
      fb.setInsertionPointToStart(in.thenBlock());
    }
    for (Operation &op : f.getBody()->without_terminator()) {
      auto at = llvm::find(loads, &op);
      if (at == loads.end()) {
        fb.clone(op, m);
        continue;
      }
      Value buf = bufs[at - loads.begin()];
      Value x = isa<VectorType>(op.getResult(0).getType())
                    ? vector::LoadOp::create(fb, op.getLoc(), cast<VectorType>(op.getResult(0).getType()), buf,
                                             ValueRange{p, c0})
                          .getResult()
                    : memref::LoadOp::create(fb, op.getLoc(), buf, ValueRange{p}).getResult();
      m.map(op.getResult(0), x);
    }
    SmallVector<Value> next;
    for (Value v : f.getBody()->getTerminator()->getOperands())
      next.push_back(m.lookupOrDefault(v));
    scf::YieldOp::create(fb, unnamed(loc), next);
    if (guard) {
      OpBuilder yb = OpBuilder::atBlockEnd(body);
      scf::YieldOp::create(yb, unnamed(loc), in.getResults());
    }
  }
  scf::YieldOp::create(bb, unnamed(loc), fold.getResults());
  f.replaceAllUsesWith(batches.getResults());
  f.erase();
  return success();
}

struct PrefetchPartsPass : mlir::attncc::impl::PrefetchPartsBase<PrefetchPartsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, SmallVector<Operation *>>> folds;
    for (auto map : getOperation().getBody().getOps<scf::ParallelOp>()) {
      auto name = dyn_cast<NameLoc>(map.getLoc());
      if (!name || name.getName() != "combine")
        continue;
      map.getBody()->walk([&](scf::ForOp f) {
        APInt step;
        if (!matchPattern(f.getStep(), m_ConstantInt(&step)) || step != 1)
          return;
        SmallVector<Operation *> loads = partLoads(f);
        if (!loads.empty())
          folds.push_back({f, std::move(loads)});
      });
    }
    for (auto &[f, loads] : folds) {
      // The batch's states live in registers: the kernel asks for at least one
      // CTA an SM (NVVM's minctasm, printed in __launch_bounds__), not for the
      // full occupancy that keeps ptxas at 32 registers a thread, where it
      // moved each load back down next to its use (ptxas, sm_90: 32 registers
      // with __launch_bounds__(128), 79 with (128, 1)).
      f->getParentOfType<scf::ParallelOp>()->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                                                     OpBuilder(f).getI32IntegerAttr(1));
      if (failed(prefetch(f, loads)))
        return signalPassFailure();
    }
  }
};

} // namespace
