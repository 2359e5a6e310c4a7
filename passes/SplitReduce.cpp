//===- SplitReduce.cpp - attncc-split-reduce (Flash-Decoding) -------------===//
//
// Pre:  monoid.reduce ops; those whose schedule has REDUCE@<axis>=g<G>... with
//       G > 1, or gauto (G computed before the map from its extents, the
//       reduce's length and the device's resident CTAs, monoid.resident_ctas:
//       autoGroups below), are split. Such a reduce must sit directly in the free-axis map
//       (scf.parallel, zero lower bounds, unit steps) with its bounds defined
//       outside it. Reduces marked `partial` are left alone.
// Post: the map became two maps, the parts and the combine:
//   1. C = ceil(ceil((hi - lo) / G) / B) * B  (B = TILE block of the axis, or 1)
//   2. one workspace per channel, [free extents..., G] (a vector channel adds
//      its length as a last dimension); with a tensor-core TILE on the axis
//      [free extents but the last..., G, last extent], and
//   3. the parts: a new scf.parallel over (free axes..., part in [0, G)), with
//      a tensor-core TILE (free axes but the last..., part, last axis), so
//      that attncc-partition tiles the rows of each part
//      holding a copy of the reduce over
//        [min(lo + part C, hi), min(lo + (part + 1) C, hi)), marked `partial`,
//      whose state is stored at [free indices..., part]   (GPU: G CTAs a row)
//   4. the combine: in the original map, the reduce is replaced by an scf.for
//      over the parts folding their states with monoid.combine from
//      monoid.identity                                  (GPU: the combine kernel)
//   5. the workspaces are freed after the map.
// Empty parts (more splits than elements) fold nothing and store the identity,
// which the combine absorbs. g<G>a makes the same maps; attncc-last-combine
// then moves the combine into the parts (the last CTA of a row block).
//
//===----------------------------------------------------------------------===//
#include "schedule/Geometry.h"
#include "passes/MapUtils.h"
#include "mlir/Transforms/RegionUtils.h"
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-split-reduce"

namespace mlir::attncc {
#define GEN_PASS_DEF_SPLITREDUCE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;
using namespace mlir::attncc;

namespace {

/// Whether the reduce's axis has a tensor-core TILE: attncc-partition then
/// tiles the parts map's last axis, so the part axis goes before the rows.
bool atomTiled(ReduceOp r) {
  ScheduleAttr s = r.getScheduleAttr();
  const ::attncc::TileKnob *t = s ? s.getSchedule().tile(r.getAxis().str()) : nullptr;
  return t && t->atom;
}

/// REDUCE@<axis>=gauto: the count is computed in the IR (autoGroups below).
constexpr int64_t kAutoGroups = -1;

/// The split count (kAutoGroups for gauto) and the TILE block of the
/// reduce's axis (1 without TILE).
std::pair<int64_t, int64_t> splitOf(ReduceOp r) {
  ScheduleAttr s = r.getScheduleAttr();
  if (!s || r.getPartial())
    return {1, 1};
  const ::attncc::Schedule &sched = s.getSchedule();
  std::string axis = r.getAxis().str();
  const ::attncc::ReduceKnob *k = sched.reduce(axis);
  int64_t groups = k && k->autoGroups ? kAutoGroups : k && k->groups > 0 ? k->groups : 1;
  const ::attncc::TileKnob *t = sched.tile(axis);
  return {groups, t ? ::attncc::reduceBlock(*t) : 1};
}

/// gauto: ::attncc::autoSplitCount (schedule/Geometry.h) as IR, where n is
/// the reduce's length, points the product of the map's extents (the rows
/// counted in tiles of the TILE's rows with an atom) and resident the
/// device's resident CTAs (monoid.resident_ctas). Every operand is computed
/// before the map (on the GPU: on the host, so the launch contract carries G
/// as an expression of the problem's sizes and the device's resident CTAs,
/// and one bundle serves every length and device).
Value autoGroups(OpBuilder &b, Location loc, ReduceOp r, scf::ParallelOp map, Value n, int64_t block) {
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  SmallVector<Value> extents(map.getUpperBound());
  if (atomTiled(r)) {
    const ::attncc::TileKnob *t = r.getScheduleAttr().getSchedule().tile(r.getAxis().str());
    extents.back() = b.createOrFold<arith::CeilDivUIOp>(loc, extents.back(), cst(::attncc::freeRowsPerCta(*t)));
  }
  Value points = cst(1);
  for (Value e : extents)
    points = b.createOrFold<arith::MulIOp>(loc, points, e);
  Value byLength = b.createOrFold<arith::CeilDivUIOp>(loc, n, cst(std::max(::attncc::kAutoSplitMinPart, block)));
  // Whole waves of the device's resident CTAs (known where it runs).
  Value resident = ResidentCtasOp::create(b, named(loc, "resident_ctas"), b.getIndexType());
  Value waves = b.createOrFold<arith::MulIOp>(loc, resident, cst(::attncc::kAutoSplitWaves));
  Value byGrid = b.createOrFold<arith::DivUIOp>(loc, waves, points);
  Value capped = b.createOrFold<arith::MinUIOp>(loc, byGrid, cst(::attncc::kAutoSplitMaxParts));
  Value g = b.createOrFold<arith::MinUIOp>(loc, byLength, capped);
  return arith::MaxUIOp::create(b, named(loc, "parts"), g, cst(1));
}

LogicalResult splitReduce(ReduceOp r, int64_t groups, int64_t block) {
  std::string knob = "REDUCE@" + r.getAxis().str() + "=g" +
                     (groups == kAutoGroups ? std::string("auto") : std::to_string(groups));
  scf::ParallelOp map = getFreeAxisMap(r, knob, /*perSequence=*/true);
  if (!map)
    return failure();
  Location loc = unnamed(r.getLoc());
  CarrierAttr carrier = r.getCarrier();
  TypeRange types = r.getState().getTypes();
  OpBuilder b(map);
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value c0 = cst(0), c1 = cst(1), cG = groups == kAutoGroups ? Value() : cst(groups);
  Value cB = block > 1 ? cst(block) : Value();
  Value lo = r.getLower(), hi = r.getUpper();
  // A varlen sequence's range (bounds computed in the map's body, the same
  // for all its rows): each part's size is computed where the parts run.
  auto inMap = [&](Value v) {
    Operation *d = v.getDefiningOp();
    return d && map->isProperAncestor(d);
  };
  bool perSequence = inMap(lo) || inMap(hi);
  auto guard = dyn_cast<scf::IfOp>(r->getParentOp());
  // gauto over varlen sequences: one count for the whole batch, from the
  // mean key length ceil(total_k / batch) (FlashAttention-3's heuristic
  // takes the longest, which no tensor's extent gives): K packed
  // [total_k, Hkv * D], its first extent a size the runtime knows.
  if (perSequence && !cG) {
    auto fn = r->getParentOfType<func::FuncOp>();
    Value totalK;
    if (BlockArgument k = argWithRole(fn, "k")) {
      auto dims = fn.getArgAttrOfType<ArrayAttr>(k.getArgNumber(), monoid::kDimsAttr);
      if (dims && !dims.empty() && isa<StringAttr>(dims[0]) && cast<StringAttr>(dims[0]).getValue() == "total_k")
        totalK = memref::DimOp::create(b, named(loc, "total_k"), k, 0);
    }
    if (!totalK)
      return r.emitOpError() << knob << " over a length computed per sequence needs K packed "
                                        "[total_k, ...] for its mean length (over a paged cache, pin g<n>k)";
    Value n = arith::CeilDivUIOp::create(b, named(loc, "mean_len_k"), totalK, map.getUpperBound()[0]);
    cG = autoGroups(b, loc, r, map, n, block);
  }

  // 1. Part size, rounded up to whole blocks.
  auto partSize = [&](OpBuilder &pb, Value lo, Value hi) -> Value {
    Value n = pb.createOrFold<arith::SubIOp>(loc, hi, lo);
    if (!cG)
      cG = autoGroups(pb, loc, r, map, n, block);
    Value perPart = arith::CeilDivUIOp::create(pb, named(loc, "part_size"), n, cG);
    if (!cB)
      return perPart;
    return arith::MulIOp::create(pb, named(loc, "part_size"), arith::CeilDivUIOp::create(pb, loc, perPart, cB), cB);
  };
  Value chunk = perSequence ? Value() : partSize(b, lo, hi);

  // 2. Workspaces [free extents..., G], or with an atom TILE
  //    [free extents but the rows..., G, rows] (the part axis before the
  //    rows, which attncc-partition tiles).
  bool rowsLast = atomTiled(r);
  size_t partAt = rowsLast ? map.getInductionVars().size() - 1 : map.getInductionVars().size();
  SmallVector<Value> slots;
  for (auto [t, name] : llvm::zip(types, carrier.getNames()))
    slots.push_back(allocOverMap(b, loc, map, {cG}, t, ("partial_" + name.getValue()).str(), rowsLast));

  // 3. The parts.
  buildMapBefore(b, loc, map, c0, cG, "part", "parts", "combine", [&](OpBuilder &pb, IRMapping &m, ValueRange ivs) {
    Value part = ivs[partAt];
    Value plo = cloneIntoMap(pb, lo, map, m), phi = cloneIntoMap(pb, hi, map, m);
    Value size = perSequence ? partSize(pb, plo, phi) : chunk;
    Value start = arith::AddIOp::create(pb, loc, plo, arith::MulIOp::create(pb, loc, part, size));
    Value partLo = arith::MinUIOp::create(pb, named(loc, "part_lo"), start, phi);
    Value partHi = arith::MinUIOp::create(
        pb, named(loc, "part_hi"), arith::AddIOp::create(pb, loc, partLo, size), phi);
    // Whatever the lift uses from the map's body comes along.
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(r.getLift(), captured);
    for (Value c : captured)
      cloneIntoMap(pb, c, map, m);
    // The row guard, where rows are computed one at a time (a tile of rows
    // writes the workspace's rows past the sequence, which the combine,
    // inside the guard, never reads).
    OpBuilder::InsertionGuard ig(pb);
    if (guard && guard->hasAttr("attncc.row_guard") && !rowsLast) {
      auto g = scf::IfOp::create(pb, loc, cloneIntoMap(pb, guard.getCondition(), map, m), /*withElseRegion=*/false);
      g->setAttr("attncc.row_guard", pb.getUnitAttr());
      pb.setInsertionPoint(g.thenBlock()->getTerminator());
    }
    auto copy = cast<ReduceOp>(pb.clone(*r.getOperation(), m));
    copy.getLowerMutable().assign(partLo);
    copy.getUpperMutable().assign(partHi);
    copy.setPartial(true);
    for (auto [v, slot] : llvm::zip(copy.getState(), slots))
      storeElement(pb, loc, v, slot, ivs);
  }, rowsLast);

  // 4. The combine, where the reduce was.
  b.setInsertionPoint(r);
  auto init = IdentityOp::create(b, loc, types, carrier);
  auto fold = scf::ForOp::create(
      b, named(loc, "combined"), c0, cG, c1, init.getResults(),
      [&](OpBuilder &fb, Location, Value part, ValueRange acc) {
        SmallVector<Value> idx(map.getInductionVars());
        idx.insert(idx.begin() + partAt, part);
        SmallVector<Value> partial;
        for (auto [t, slot] : llvm::zip(types, slots))
          partial.push_back(loadElement(fb, loc, t, slot, idx));
        auto c = CombineOp::create(fb, loc, types, carrier, acc, partial);
        scf::YieldOp::create(fb, loc, c.getResults());
      });
  fold.getInductionVar().setLoc(named(loc, "part"));
  for (auto [arg, name] : llvm::zip(fold.getRegionIterArgs(), carrier.getNames()))
    arg.setLoc(named(loc, name.getValue()));
  r.replaceAllUsesWith(fold.getResults());
  r.erase();

  // 5. Free the workspaces after the map.
  deallocAfter(b, loc, map, slots);
  return success();
}

struct SplitReducePass : mlir::attncc::impl::SplitReduceBase<SplitReducePass> {
  void runOnOperation() override {
    SmallVector<ReduceOp> reduces;
    getOperation().walk([&](ReduceOp r) { reduces.push_back(r); });
    for (ReduceOp r : reduces) {
      auto [groups, block] = splitOf(r);
      if ((groups > 1 || groups == kAutoGroups) && failed(splitReduce(r, groups, block)))
        return signalPassFailure();
    }
  }
};

} // namespace
