//===- MapToGpu.cpp - attncc-map-to-gpu (partition, scalar rung) ----------===//
//
// Pre:  loop-level IR without monoid ops; the free-axis maps are top-level
//       scf.parallel ops with zero lower bounds and unit steps.
// Post: each map is a gpu.launch (1-D grid of `threads`-thread CTAs) whose
//       threads each run the map's body for one point:
//   1. points = product of the map's extents; ctas = ceil(points / threads)
//   2. id = blockIdx.x * threads + threadIdx.x; guard id < points
//   3. delinearize id over the extents (last axis fastest) into the map's
//      induction variables, and clone the body.
// The launch carries the kernel's name: <function>[_<name of the map's loc>].
//
// Tiled maps (the function has attncc.cta = {threads = T, rows = M}, written
// by attncc-partition): each point is a tile that all T threads of one CTA
// run together, so ctas = points, there is no guard, and the body's vector
// ops are CTA-wide (attncc-atomize distributes them over the threads).
// Its roles (WSPEC's warps that own no rows: {load, mma, idle}) are recorded
// for the kernel as attncc.warp_roles in attncc.kernel_attrs, which
// attncc-kernel-attrs puts on the outlined kernel.
//
// Persistent tiled maps (attncc.cta has persistent, GRID=persistent): the
// launch still asks for one CTA a tile, and the kernel is marked
// attncc.persistent, which tells the runner to launch only as many CTAs as
// fit on the device at once (the launch contract's "persistent"). Each CTA
// runs one tile in each round of gridDim.x tiles, in a boustrophedon:
//   %trips = points / G, plus one if its tile in the partial last round
//            is below points                            (G = gridDim.x)
//   scf.for %tile_round = 0 to %trips {attncc.tile_loop}
//     { %tile_id = %tile_round * G + (%tile_round even ? blockIdx.x : G - 1 - blockIdx.x);
//       delinearize %tile_id; body }
// so any grid size computes every tile once. What later passes set up once
// a kernel (shared and tensor memory, mbarriers, counters, warp roles) they
// put at the kernel's top, outside the loop; the loop is the per-tile work.
//
//===----------------------------------------------------------------------===//
#include "passes/MapUtils.h"
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "attncc-map-to-gpu"

namespace mlir::attncc {
#define GEN_PASS_DEF_MAPTOGPU
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

/// Clones the body of `map` at `b` for the point `id`, delinearized over the
/// map's extents (last axis fastest) into its induction variables, and erases
/// the map.
void cloneAt(OpBuilder &b, scf::ParallelOp map, Value id) {
  Location loc = unnamed(map.getLoc());
  IRMapping m;
  Value rest = id;
  auto ivs = map.getInductionVars();
  auto ubs = map.getUpperBound();
  for (int k = int(ivs.size()) - 1; k >= 0; --k) {
    if (k == 0) {
      m.map(ivs[k], rest);
      break;
    }
    m.map(ivs[k], arith::RemUIOp::create(b, ivs[k].getLoc(), rest, ubs[k]));
    rest = arith::DivUIOp::create(b, k == 1 ? ivs[0].getLoc() : loc, rest, ubs[k]);
  }
  for (Operation &op : map.getBody()->without_terminator())
    b.clone(op, m);
  map.erase();
}

struct MapToGpuPass : mlir::attncc::impl::MapToGpuBase<MapToGpuPass> {
  using MapToGpuBase::MapToGpuBase;

  LogicalResult lower(scf::ParallelOp map, StringRef kernelName, int64_t threads, bool perCta,
                      DictionaryAttr warpRoles, bool persistent) {
    auto isConst = [](Value v, int64_t c) {
      return getConstantIntValue(v) == std::optional<int64_t>(c);
    };
    if (!llvm::all_of(map.getLowerBound(), [&](Value v) { return isConst(v, 0); }) ||
        !llvm::all_of(map.getStep(), [&](Value v) { return isConst(v, 1); }))
      return map.emitOpError("attncc-map-to-gpu needs zero lower bounds and unit steps");
    if (!map.getInitVals().empty())
      return map.emitOpError("attncc-map-to-gpu cannot lower a map with reductions");

    OpBuilder b(map);
    Location loc = unnamed(map.getLoc()); // the map's name is the kernel's, not its values
    // 1. Points and CTAs.
    Value points = b.createOrFold<arith::ConstantIndexOp>(loc, 1);
    for (Value e : map.getUpperBound())
      points = b.createOrFold<arith::MulIOp>(loc, points, e);
    Value cThreads = arith::ConstantIndexOp::create(b, loc, threads);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value ctas = perCta ? points : b.createOrFold<arith::CeilDivUIOp>(loc, points, cThreads);
    auto launch = gpu::LaunchOp::create(
        b, loc, ctas, one, one, cThreads, one, one, /*dynamicSharedMemorySize=*/nullptr,
        /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, /*workgroupAttributions=*/{},
        /*privateAttributions=*/{}, nullptr, nullptr, nullptr,
        FlatSymbolRefAttr::get(b.getContext(), (kernelName + "_module").str()),
        FlatSymbolRefAttr::get(b.getContext(), kernelName));
    // The map's nvvm.* attributes (attncc-prefetch-parts: nvvm.minctasm) are
    // the kernel's: gpu-kernel-outlining drops a launch's attributes, so they
    // are recorded on the function, and attncc-kernel-attrs puts them on the
    // outlined kernel.
    SmallVector<NamedAttribute> kernelAttrs;
    for (NamedAttribute a : map->getDiscardableAttrs())
      if (a.getName().strref().starts_with("nvvm."))
        kernelAttrs.push_back(a);
    // The tiled map's warps that own no rows (attncc.cta's roles, WSPEC) go
    // the same way, as attncc.warp_roles (read by attncc-atomize).
    if (warpRoles)
      kernelAttrs.push_back(b.getNamedAttr("attncc.warp_roles", warpRoles));
    if (persistent)
      kernelAttrs.push_back(b.getNamedAttr("attncc.persistent", b.getUnitAttr()));
    if (!kernelAttrs.empty()) {
      auto fn = map->getParentOfType<func::FuncOp>();
      SmallVector<NamedAttribute> all;
      if (auto old = fn->getAttrOfType<DictionaryAttr>("attncc.kernel_attrs"))
        llvm::append_range(all, old.getValue());
      all.push_back(b.getNamedAttr(kernelName, b.getDictionaryAttr(kernelAttrs)));
      fn->setAttr("attncc.kernel_attrs", b.getDictionaryAttr(all));
    }

    // 2. One point per thread (or per CTA).
    Block &body = launch.getBody().front();
    b.setInsertionPointToStart(&body);
    Value id;
    if (perCta && persistent) {
      // Rounds of G = gridDim.x tiles; in round k CTA c runs tile
      //   k * G + (k even ? c : G - 1 - c)
      // (a boustrophedon: the CTA that took a round's first tile takes the
      // next round's last). Each round is G consecutive tiles, so the CTAs
      // resident at once still share a few heads' K and V in L2; with
      // causal rows (a head's tiles longest first) a CTA's long and short
      // tiles alternate. The last round is partial: CTA c runs it when its
      // tile there is below the tile count, so its trip count is known
      // before the loop and the body needs no guard.
      Value c = launch.getBlockIds().x;
      Value grid = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value mirror = arith::SubIOp::create(b, named(loc, "mirror"),
                                           arith::SubIOp::create(b, loc, grid, one), c);
      auto ctaIn = [&](Value k, StringRef name) -> Value { // c or G - 1 - c by the round's parity
        Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          arith::AndIOp::create(b, loc, k, one), zero);
        return arith::SelectOp::create(b, named(loc, name), odd, mirror, c);
      };
      Value whole = arith::DivUIOp::create(b, named(loc, "rounds"), points, grid);
      Value rest = arith::SubIOp::create(b, named(loc, "rest"), points,
                                         arith::MulIOp::create(b, loc, whole, grid));
      Value inLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ctaIn(whole, "last_at"), rest);
      Value trips = arith::AddIOp::create(b, named(loc, "trips"), whole,
                                          arith::SelectOp::create(b, loc, inLast, one, zero));
      auto tiles = scf::ForOp::create(b, loc, zero, trips, one);
      tiles->setAttr("attncc.tile_loop", b.getUnitAttr());
      tiles.getInductionVar().setLoc(named(loc, "tile_round"));
      gpu::TerminatorOp::create(b, loc);
      b.setInsertionPoint(tiles.getBody()->getTerminator());
      Value k = tiles.getInductionVar();
      Value roundStart = arith::MulIOp::create(b, loc, k, grid);
      id = arith::AddIOp::create(b, named(loc, "tile_id"), roundStart, ctaIn(k, "at"));
    } else if (perCta) {
      id = launch.getBlockIds().x;
      auto t = gpu::TerminatorOp::create(b, loc);
      b.setInsertionPoint(t);
    } else {
      id = arith::AddIOp::create(
          b, named(loc, "point"),
          arith::MulIOp::create(b, loc, launch.getBlockIds().x, cThreads), launch.getThreadIds().x);
      Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id, points);
      auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
      gpu::TerminatorOp::create(b, loc);
      b.setInsertionPointToStart(&guard.getThenRegion().front());
    }

    // 3. Delinearize and clone the body.
    cloneAt(b, map, id);
    if (failed(lowerArrivals(launch, perCta)) || failed(lowerInnerMaps(launch, perCta ? cThreads : Value())))
      return failure();
    return success();
  }

  /// attncc-last-combine's arrival (REDUCE@<axis>=g<n>a), in the launch of
  /// the map it was in:
  ///   %n = memref.atomic_rmw addi %c1, %arrivals[...] {attncc.arrival}
  ///   %last = arith.cmpi eq, %n, %g_minus_1
  ///   scf.if %last { memref.store %c0, %arrivals[...] {attncc.arrival_reset}; ... }
  /// A point a thread: a gpu-scope fence orders the thread's stores before
  /// its count, and another its loads after it. A point a CTA: every thread
  /// fences its stores, a barrier gathers them, thread 0 counts for the CTA
  /// and resets the counter, and a barrier with an OR of thread 0's test
  /// (bar.red.or) tells every thread whether the CTA is last; the last one's
  /// threads fence again before they read the other CTAs' parts. (The PTX
  /// memory model's release and acquire patterns, with the barrier carrying
  /// the CTA's stores to thread 0 and thread 0's acquire to the CTA.)
  LogicalResult lowerArrivals(gpu::LaunchOp launch, bool perCta) {
    SmallVector<memref::AtomicRMWOp> arrivals;
    launch.getBody().walk([&](memref::AtomicRMWOp a) {
      if (a->hasAttr("attncc.arrival"))
        arrivals.push_back(a);
    });
    for (memref::AtomicRMWOp a : arrivals) {
      auto test = a->hasOneUse() ? dyn_cast<arith::CmpIOp>(*a->getUsers().begin()) : arith::CmpIOp();
      scf::IfOp ifLast = test && test->hasOneUse() ? dyn_cast<scf::IfOp>(*test->getUsers().begin()) : scf::IfOp();
      if (!ifLast || ifLast.getCondition() != test.getResult() || test->getBlock() != a->getBlock())
        return a.emitOpError("attncc-map-to-gpu: an arrival (attncc.arrival) must be tested once, by an scf.if");
      Location loc = unnamed(a.getLoc());
      OpBuilder b(a);
      // The emitter prints a fence's or barrier's name as a comment.
      NVVM::MembarOp::create(b, named(loc, "the parts stored before the count"), NVVM::MemScopeKind::GPU);
      OpBuilder tb(ifLast.thenBlock(), ifLast.thenBlock()->begin());
      NVVM::MembarOp::create(tb, named(loc, "the count before the loads of the parts"), NVVM::MemScopeKind::GPU);
      if (!perCta)
        continue;
      gpu::BarrierOp::create(b, named(loc, "the CTA's stores before thread 0 counts"));
      Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
      Value first = arith::CmpIOp::create(b, named(loc, "counter_thread"), arith::CmpIPredicate::eq, tid,
                                          arith::ConstantIndexOp::create(b, loc, 0));
      auto count = scf::IfOp::create(b, loc, TypeRange{b.getI1Type()}, first, /*withElseRegion=*/true);
      a->moveBefore(count.thenBlock(), count.thenBlock()->begin());
      test->moveAfter(a);
      OpBuilder cb(count.thenBlock(), count.thenBlock()->end());
      scf::YieldOp::create(cb, loc, test.getResult());
      OpBuilder eb(count.elseBlock(), count.elseBlock()->end());
      scf::YieldOp::create(eb, loc, ValueRange{arith::ConstantIntOp::create(eb, loc, 0, 1).getResult()});
      b.setInsertionPointAfter(count);
      Value pred = arith::SelectOp::create(b, loc, count.getResult(0), arith::ConstantIntOp::create(b, loc, 1, 32),
                                          arith::ConstantIntOp::create(b, loc, 0, 32));
      auto any = NVVM::BarrierOp::create(b, named(loc, "any_last"), b.getI32Type(), /*barrierId=*/Value(), /*numberOfThreads=*/Value(),
                                         NVVM::BarrierReductionAttr::get(b.getContext(), NVVM::BarrierReduction::OR),
                                         pred);
      Value last = arith::CmpIOp::create(b, named(loc, "last_cta"), arith::CmpIPredicate::ne, any.getRes(),
                                         arith::ConstantIntOp::create(b, loc, 0, 32));
      ifLast.getConditionMutable().assign(last);
      // The reset: thread 0's.
      SmallVector<memref::StoreOp> resets;
      ifLast.getThenRegion().walk([&](memref::StoreOp s) {
        if (s->hasAttr("attncc.arrival_reset"))
          resets.push_back(s);
      });
      for (memref::StoreOp s : resets) {
        OpBuilder rb(s);
        auto only = scf::IfOp::create(rb, loc, first, /*withElseRegion=*/false);
        s->moveBefore(only.thenBlock()->getTerminator());
      }
    }
    return success();
  }

  /// A map inside a launched map's body (attncc-last-combine's combine of a
  /// row block) runs its points over the CTA's threads: point i on thread
  /// i mod T, in a loop marked attncc.per_thread (its vectors are a thread's
  /// own: attncc-atomize leaves them alone): with a known number of points
  /// an unrolled `for (k = 0; k < ceil(points / T); ++k)` over point tid +
  /// k T (guarded when T does not divide it), else `for (i = tid; i <
  /// points; i += T)`; with a point a thread (threads null), in order.
  LogicalResult lowerInnerMaps(gpu::LaunchOp launch, Value threads) {
    SmallVector<scf::ParallelOp> inner;
    launch.getBody().walk([&](scf::ParallelOp p) { inner.push_back(p); });
    for (scf::ParallelOp p : inner) {
      if (!p.getInitVals().empty())
        return p.emitOpError("attncc-map-to-gpu cannot lower an inner map with reductions");
      if (!llvm::all_of(p.getLowerBound(), [](Value v) { return getConstantIntValue(v) == 0; }) ||
          !llvm::all_of(p.getStep(), [](Value v) { return getConstantIntValue(v) == 1; }))
        return p.emitOpError("attncc-map-to-gpu needs zero lower bounds and unit steps");
      OpBuilder b(p);
      Location loc = unnamed(p.getLoc());
      auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
      Value points = cst(1);
      std::optional<int64_t> known = 1;
      for (Value e : p.getUpperBound()) {
        points = arith::MulIOp::create(b, loc, points, e);
        std::optional<int64_t> c = getConstantIntValue(e);
        known = known && c ? std::optional<int64_t>(*known * *c) : std::nullopt;
      }
      std::optional<int64_t> t = threads ? getConstantIntValue(threads) : std::nullopt;
      scf::ForOp loop;
      Value point;
      OpBuilder lb(b.getContext());
      if (threads && known && t) {
        // A known count: a thread's ceil(points / T) points in an unrolled
        // loop, so the loads of several points can be in flight at once.
        int64_t trips = (*known + *t - 1) / *t;
        loop = scf::ForOp::create(b, loc, cst(0), cst(trips), cst(1));
        loop->setAttr("attncc.unroll", b.getUnitAttr());
        loop.getInductionVar().setLoc(named(loc, "round"));
        lb.setInsertionPoint(loop.getBody()->getTerminator());
        Value tid = gpu::ThreadIdOp::create(lb, loc, gpu::Dimension::x);
        point = arith::AddIOp::create(lb, named(loc, "point"), tid,
                                      arith::MulIOp::create(lb, loc, loop.getInductionVar(), threads));
        if (*known % *t != 0) {
          Value in = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ult, point, points);
          auto guard = scf::IfOp::create(lb, loc, in, /*withElseRegion=*/false);
          lb.setInsertionPoint(guard.thenBlock()->getTerminator());
        }
      } else {
        Value start = threads ? Value(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x)) : cst(0);
        loop = scf::ForOp::create(b, loc, start, points, threads ? threads : cst(1));
        loop.getInductionVar().setLoc(named(loc, "point"));
        point = loop.getInductionVar();
        lb.setInsertionPoint(loop.getBody()->getTerminator());
      }
      loop->setAttr("attncc.per_thread", b.getUnitAttr());
      cloneAt(lb, p, point);
    }
    return success();
  }

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    if (threads < 1 || threads > 1024) {
      f.emitError() << "attncc-map-to-gpu: threads = " << static_cast<int64_t>(threads)
                    << " is not allowed; a CTA has 1 to 1024 threads";
      return signalPassFailure();
    }
    WalkResult left = f.walk([&](Operation *op) {
      // The device's resident CTAs (gauto's waves) stay on the host, where
      // the launch contract reads them; a kernel cannot.
      if (isa<ResidentCtasOp>(op)) {
        if (!op->getParentOfType<scf::ParallelOp>())
          return WalkResult::advance();
        op->emitOpError("is computed on the host: it must come before the map, not inside it");
        return WalkResult::interrupt();
      }
      if (isa<MonoidDialect>(op->getDialect())) {
        op->emitOpError("must be lowered (expand-carrier, lower-contract) before attncc-map-to-gpu");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      return signalPassFailure();
    int64_t cta = threads;
    bool tiled = false;
    StringAttr tiledMap;
    DictionaryAttr warpRoles;
    bool persistent = false;
    if (auto d = f->getAttrOfType<DictionaryAttr>("attncc.cta")) {
      auto t = d.getAs<IntegerAttr>("threads");
      if (!t || t.getInt() < 32 || t.getInt() > 1024) {
        f.emitError("attncc-map-to-gpu: attncc.cta needs threads in [32, 1024]");
        return signalPassFailure();
      }
      cta = t.getInt();
      tiled = true;
      tiledMap = d.getAs<StringAttr>("map");
      warpRoles = d.getAs<DictionaryAttr>("roles");
      persistent = d.contains("persistent");
    }
    SmallVector<scf::ParallelOp> maps(f.getBody().front().getOps<scf::ParallelOp>());
    // A tiled function launches its tiled map a CTA a tile; with several maps
    // (a split with an atom: the parts, then the combine) attncc.cta names the
    // tiled one by its role, and the others run one thread a point.
    if (tiled && maps.size() > 1 && !tiledMap) {
      f.emitError() << "attncc-map-to-gpu: a tiled function has " << maps.size()
                    << " maps, and attncc.cta names none of them (map = <role>)";
      return signalPassFailure();
    }
    for (scf::ParallelOp map : maps) {
      std::string name = f.getName().str();
      auto role = dyn_cast<NameLoc>(map.getLoc());
      if (role)
        name += "_" + role.getName().str();
      bool perCta = tiled && (maps.size() == 1 || (role && role.getName() == tiledMap));
      if (failed(lower(map, name, perCta ? cta : threads, perCta, perCta ? warpRoles : DictionaryAttr(),
                       perCta && persistent)))
        return signalPassFailure();
    }
  }
};

} // namespace
