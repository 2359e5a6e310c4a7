//===- Partition.cpp - attncc-partition (tiles of rows, blocks of keys) ---===//
//
// Pre:  a monoid.reduce whose schedule has a tensor-core TILE on its axis,
//       directly in the free-axis scf.parallel (zero lower bounds, unit
//       steps) the front end builds; the map's last axis is the free axis
//       that is tiled ("the rows").
// Post: the map runs over row tiles of M rows (schedule/Geometry.h:
//       WM*FM*atom.m, or WM/4*FM*64 for wgmma); its body is
//       the old body vectorized over the rows, and the reduce became an
//       scf.for over blocks of B = WN*FN*atom.n elements whose body is the
//       lift vectorized over (rows, block) and folded by the carrier's block
//       combine (ir/Carrier.h buildBlockCombine). The function records the
//       CTA it asks for: attncc.cta = {threads = WM*WN*32, rows = M}, and
//       with WSPEC's warps that own no rows, threads counts them too and
//       roles = {load = L[, mma = 1][, idle = 2]}; GRID=persistent adds
//       persistent (a unit attribute), in GRID=tiles' order. With a
//       wgmma (tcgen05) atom each vector.contract is marked attncc.family =
//       "wgmma" ("tcgen05").
//
// Vectorizing is one rule per value: a value depends on the row (R), the
// element (K), both or neither; its type gains the leading dimensions
// [M if R][B if K]. Elementwise ops broadcast their operands to the union.
// Loads and stores whose index is the row or element index become
// vector.transfer_read / transfer_write of the tile (out-of-bounds reads give
// 0, out-of-bounds writes are dropped). monoid.contract of a row-dependent
// and an element-dependent vector becomes vector.contract: the score tile.
// Elements past the reduce's range (the tail block, or per-row bounds after
// clip-identity) are padded with the carrier identity, as stream-reduce does.
// The result is still ordinary vector IR, so the CPU runner executes it.
//
//===----------------------------------------------------------------------===//
#include "schedule/Geometry.h"
#include "ir/Carrier.h"
#include "ir/TileAttrs.h"
#include "passes/MapUtils.h"
#include "passes/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

#define DEBUG_TYPE "attncc-partition"

namespace mlir::attncc {
#define GEN_PASS_DEF_PARTITION
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;

namespace {

struct Cls {
  bool r = false, k = false;
  Cls operator|(Cls o) const { return {r || o.r, k || o.k}; }
  bool uniform() const { return !r && !k; }
};

class Vectorizer {
public:
  Vectorizer(OpBuilder &b, int64_t rows, int64_t block) : b(b), M(rows), B(block) {}

  OpBuilder &b;
  int64_t M, B;
  Value oldRow, rowBase, rowVec;
  Value oldKey, keyBase, keyVec;
  DenseMap<Value, std::pair<Value, Cls>> vmap;
  /// Values that index a tile along the block like the element index does,
  /// with their base (a paged cache's row in its page: j mod P, base
  /// keyBase mod P; see pageIndex).
  DenseMap<Value, Value> keyLike;

  std::pair<Value, Cls> get(Value old) {
    if (auto it = vmap.find(old); it != vmap.end())
      return it->second;
    if (old == oldRow)
      return {indexVector(true), Cls{true, false}};
    if (old == oldKey)
      return {indexVector(false), Cls{false, true}};
    return {old, Cls{}}; // defined outside: the same for every row and element
  }
  void set(Value old, Value v, Cls c) { vmap[old] = {v, c}; }

  /// row0 + [0, 1, ..., M-1] (or the block's element indices), built once.
  Value indexVector(bool row) {
    Value &cached = row ? rowVec : keyVec;
    if (cached)
      return cached;
    Value base = row ? rowBase : keyBase;
    int64_t n = row ? M : B;
    Location loc = (row ? oldRow : oldKey).getLoc();
    auto vt = VectorType::get({n}, b.getIndexType());
    Value step = vector::StepOp::create(b, unnamed(loc), vt);
    Value splat = vector::BroadcastOp::create(b, unnamed(loc), vt, base);
    cached = arith::AddIOp::create(b, loc, splat, step);
    return cached;
  }

  Type vecType(Type t, Cls c) {
    SmallVector<int64_t> shape;
    if (c.r) shape.push_back(M);
    if (c.k) shape.push_back(B);
    if (shape.empty())
      return t;
    Type elem = t;
    if (auto vt = dyn_cast<VectorType>(t)) {
      shape.append(vt.getShape().begin(), vt.getShape().end());
      elem = vt.getElementType();
    }
    return VectorType::get(shape, elem);
  }

  /// The new value of `old` broadcast to class `to`, then to the inner
  /// shape of `innerOf` (an original type) if it has none of its own.
  Value shaped(Value old, Cls to, Type innerOf, Location loc) {
    auto [v, c] = get(old);
    v = broadcastBlock(b, loc, v, c.r, c.k, to.r, to.k, M, B);
    auto want = dyn_cast<VectorType>(vecType(innerOf, to));
    auto have0 = dyn_cast<VectorType>(v.getType());
    if (want && (!have0 || have0.getShape() != want.getShape())) {
      // A scalar per (row, element) used with vector operands: add the unit
      // dimension, then stretch it.
      auto have = dyn_cast<VectorType>(v.getType());
      SmallVector<int64_t> unit(have ? have.getShape() : ArrayRef<int64_t>{});
      unit.push_back(1);
      Type elem = getElementTypeOrSelf(v.getType());
      if (have)
        v = vector::ShapeCastOp::create(b, loc, VectorType::get(unit, elem), v);
      v = vector::BroadcastOp::create(b, loc, VectorType::get(want.getShape(), elem), v);
    }
    return v;
  }

  /// Maps `indices` for a tile access: the row or element index becomes the
  /// tile's base and names a vector dimension. Fails if another non-uniform
  /// index appears.
  LogicalResult tileIndices(Operation *op, ValueRange indices, SmallVector<Value> &out,
                            int64_t &rowDim, int64_t &keyDim) {
    rowDim = keyDim = -1;
    for (auto [k, idx] : llvm::enumerate(indices)) {
      if (idx == oldRow && oldRow) {
        rowDim = k;
        out.push_back(rowBase);
      } else if (idx == oldKey && oldKey) {
        keyDim = k;
        out.push_back(keyBase);
      } else if (auto it = keyLike.find(idx); it != keyLike.end()) {
        keyDim = k;
        out.push_back(it->second);
      } else {
        auto [v, c] = get(idx);
        if (!c.uniform())
          return op->emitOpError("attncc-partition: index ")
                 << k << " depends on the tiled row or element index but is not that index";
        out.push_back(v);
      }
    }
    return success();
  }

  /// The permutation map of a tile access: the row and element dimensions
  /// (out of bounds allowed: a partial tile), then the trailing memref
  /// dimensions the op's own vector covers (in bounds).
  AffineMap tileMap(MemRefType mt, int64_t rowDim, int64_t keyDim, Type own,
                    SmallVector<bool> &inBounds) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d : {rowDim, keyDim})
      if (d >= 0) {
        exprs.push_back(b.getAffineDimExpr(d));
        inBounds.push_back(false);
      }
    if (auto vt = dyn_cast<VectorType>(own))
      for (int64_t d = mt.getRank() - vt.getRank(); d < mt.getRank(); ++d) {
        exprs.push_back(b.getAffineDimExpr(d));
        inBounds.push_back(true);
      }
    return AffineMap::get(mt.getRank(), 0, exprs, b.getContext());
  }

  /// A tile read: [M if row][B if element] + the op's own vector shape.
  LogicalResult read(Operation *op, Value mem, ValueRange indices, Type elemType) {
    SmallVector<Value> idx;
    int64_t rowDim, keyDim;
    if (failed(tileIndices(op, indices, idx, rowDim, keyDim)))
      return failure();
    Value result = op->getResult(0);
    if (rowDim < 0 && keyDim < 0) {
      Operation *c = cloneMapped(op);
      set(result, c->getResult(0), Cls{});
      return success();
    }
    mem = get(mem).first; // a view in the map's body: its clone
    auto mt = cast<MemRefType>(mem.getType());
    SmallVector<bool> inBounds;
    AffineMap map = tileMap(mt, rowDim, keyDim, elemType, inBounds);
    Cls c{rowDim >= 0, keyDim >= 0};
    auto vt = cast<VectorType>(vecType(elemType, c));
    Value pad = arith::ConstantOp::create(b, unnamed(op->getLoc()), mt.getElementType(),
                                          b.getZeroAttr(mt.getElementType()));
    Value r = vector::TransferReadOp::create(b, result.getLoc(), vt, mem, idx, pad, map, inBounds);
    set(result, r, c);
    return success();
  }

  LogicalResult write(Operation *op, Value value, Value mem, ValueRange indices) {
    SmallVector<Value> idx;
    int64_t rowDim, keyDim;
    if (failed(tileIndices(op, indices, idx, rowDim, keyDim)))
      return failure();
    auto [v, c] = get(value);
    if (keyDim >= 0 || c.k)
      return op->emitOpError("attncc-partition: a store inside the fold is not supported");
    if (rowDim < 0) {
      if (!c.uniform())
        return op->emitOpError("attncc-partition: a per-row value stored at a row-independent index");
      cloneMapped(op);
      return success();
    }
    v = shaped(value, Cls{true, false}, value.getType(), op->getLoc());
    mem = get(mem).first; // a view in the map's body: its clone
    SmallVector<bool> inBounds;
    AffineMap map = tileMap(cast<MemRefType>(mem.getType()), rowDim, -1, value.getType(), inBounds);
    vector::TransferWriteOp::create(b, unnamed(op->getLoc()), v, mem, idx, map, inBounds);
    return success();
  }

  Operation *cloneMapped(Operation *op) {
    IRMapping m = irMap();
    return b.clone(*op, m);
  }

  IRMapping irMap() {
    IRMapping m;
    for (auto &[old, nv] : vmap)
      m.map(old, nv.first);
    return m;
  }

  LogicalResult contract(ContractOp op) {
    auto [l, lc] = get(op.getLhs());
    auto [r, rc] = get(op.getRhs());
    if (lc.k && !lc.r && rc.r && !rc.k) {
      std::swap(l, r);
      std::swap(lc, rc);
    }
    if (!(lc.r && !lc.k && rc.k && !rc.r))
      return op.emitOpError("attncc-partition: the contraction must pair a per-row vector with a "
                            "per-element vector");
    MLIRContext *ctx = b.getContext();
    AffineExpr i, j, d;
    bindDims(ctx, i, j, d);
    SmallVector<SmallVector<AffineExpr, 4>> exprs{{i, d}, {j, d}, {i, j}};
    auto maps = AffineMap::inferFromExprList(exprs, ctx);
    auto iters = b.getArrayAttr({vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
                                 vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
                                 vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction)});
    auto accTy = VectorType::get({M, B}, op.getType());
    Value zero = arith::ConstantOp::create(b, unnamed(op.getLoc()), accTy,
                                           DenseElementsAttr::get(accTy, b.getZeroAttr(op.getType())));
    Value c = vector::ContractionOp::create(b, op.getLoc(), l, r, zero, b.getAffineMapArrayAttr(maps),
                                            iters);
    set(op.getResult(), c, Cls{true, true});
    return success();
  }

  LogicalResult broadcast(vector::BroadcastOp op) {
    auto [v, c] = get(op.getSource());
    if (c.uniform()) {
      set(op.getResult(), cloneMapped(op)->getResult(0), Cls{});
      return success();
    }
    if (isa<VectorType>(op.getSource().getType()))
      return op.emitOpError("attncc-partition: only scalar broadcasts can be vectorized");
    set(op.getResult(), shaped(op.getSource(), c, op.getType(), op.getLoc()), c);
    return success();
  }

  /// j / P and j mod P of the element index j by a constant P that the
  /// block B divides (a paged cache: the page's slot and the row in the
  /// page). attncc-partition starts the blocks at multiples of B (fold), so
  /// a block lies in one page: j / P is the block's, keyBase / P (uniform),
  /// and j mod P is keyBase mod P plus the element's offset, which indexes
  /// a tile as j does.
  LogicalResult pageIndex(Operation *op, int64_t page) {
    Location loc = op->getLoc();
    Value cP = arith::ConstantIndexOp::create(b, unnamed(loc), page);
    if (isa<arith::DivUIOp>(op)) {
      set(op->getResult(0), arith::DivUIOp::create(b, loc, keyBase, cP), Cls{});
      return success();
    }
    Value base = arith::RemUIOp::create(b, loc, keyBase, cP);
    keyLike[op->getResult(0)] = base;
    auto vt = VectorType::get({B}, b.getIndexType());
    Value rows = arith::AddIOp::create(b, loc, vector::BroadcastOp::create(b, unnamed(loc), vt, base),
                                       vector::StepOp::create(b, unnamed(loc), vt));
    set(op->getResult(0), rows, Cls{false, true});
    return success();
  }

  LogicalResult elementwise(Operation *op) {
    Cls c;
    for (Value o : op->getOperands())
      c = c | get(o).second;
    IRMapping m = irMap();
    if (!c.uniform())
      for (Value o : op->getOperands())
        m.map(o, shaped(o, c, op->getResult(0).getType(), op->getLoc()));
    Operation *n = b.clone(*op, m);
    for (auto [old, nr] : llvm::zip(op->getResults(), n->getResults())) {
      nr.setType(vecType(old.getType(), c));
      set(old, nr, c);
    }
    return success();
  }

  /// P if `op` is j / P or j mod P of the element index by a constant,
  /// marked attncc.page (the front end's paged cache).
  std::optional<int64_t> pageOf(Operation *op) const {
    if (!oldKey || !isa<arith::DivUIOp, arith::RemUIOp>(op) || op->getOperand(0) != oldKey ||
        !op->hasAttr("attncc.page"))
      return std::nullopt;
    return getConstantIntValue(op->getOperand(1));
  }

  LogicalResult visit(Operation &op) {
    if (std::optional<int64_t> page = pageOf(&op)) {
      if (*page <= 0 || *page % B != 0)
        return op.emitOpError("attncc-partition: a block of ")
               << B << " elements must lie in one page of " << *page
               << " (a paged cache): the TILE's block must divide the page size";
      return pageIndex(&op, *page);
    }
    return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
        .Case([&](vector::LoadOp o) {
          return read(o, o.getBase(), o.getIndices(), o.getVectorType());
        })
        .Case([&](memref::LoadOp o) { return read(o, o.getMemRef(), o.getIndices(), o.getType()); })
        .Case([&](vector::StoreOp o) {
          return write(o, o.getValueToStore(), o.getBase(), o.getIndices());
        })
        .Case([&](memref::StoreOp o) {
          return write(o, o.getValueToStore(), o.getMemRef(), o.getIndices());
        })
        .Case([&](ContractOp o) { return contract(o); })
        .Case([&](vector::BroadcastOp o) { return broadcast(o); })
        .Case<memref::SubViewOp, memref::ExpandShapeOp, memref::DimOp>([&](Operation *o) -> LogicalResult {
          // A view the whole tile shares (a varlen sequence's rows, a
          // packed KV group's heads) or its extent.
          for (Value x : o->getOperands())
            if (!get(x).second.uniform())
              return o->emitOpError("attncc-partition: a view that depends on the tiled row or element");
          set(o->getResult(0), cloneMapped(o)->getResult(0), Cls{});
          return success();
        })
        .Default([&](Operation *o) -> LogicalResult {
          if (o->getNumRegions() == 0 && o->getNumResults() > 0 &&
              (o->hasTrait<OpTrait::Elementwise>() || o->hasTrait<OpTrait::ConstantLike>() ||
               isa<arith::ArithDialect, math::MathDialect>(o->getDialect())))
            return elementwise(o);
          return o->emitOpError("attncc-partition cannot vectorize this op over the row tile");
        });
  }
};

struct PartitionPass : mlir::attncc::impl::PartitionBase<PartitionPass> {
  const ::attncc::TileKnob *tileOf(ReduceOp r) {
    if (auto s = r.getScheduleAttr())
      if (const ::attncc::TileKnob *t = s.getSchedule().tile(r.getAxis().str()))
        if (t->atom)
          return t;
    return nullptr;
  }

  /// Inlines the front end's row guard (varlen: `scf.if %i < %len_q`
  /// around a row's reduce and stores, marked attncc.row_guard) into the
  /// map. A tile of rows needs no guard: every memory access indexed by the
  /// row is to a view whose extent along it is the guard's bound, and a
  /// tile's reads and writes past a view's extent read 0 and write nothing.
  /// Fails if an access does not show that.
  static LogicalResult inlineRowGuard(scf::IfOp guard, scf::ParallelOp map, Value &guardBound) {
    Value row = map.getInductionVars().back();
    auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt || cmp.getLhs() != row ||
        guard.elseBlock() || guard->getNumResults())
      return guard.emitOpError("attncc-partition: a row guard is `scf.if %row < %bound` without an else");
    Value bound = cmp.getRhs();
    WalkResult w = guard.getThenRegion().walk([&](Operation *op) {
      auto acc = mlir::attncc::memoryAccess(op);
      if (!acc)
        return WalkResult::advance();
      Value mem = acc->first;
      for (auto [d, x] : llvm::enumerate(acc->second)) {
        if (x != row)
          continue;
        auto view = mem.getDefiningOp<memref::SubViewOp>();
        SmallVector<OpFoldResult> sizes = view ? view.getMixedSizes() : SmallVector<OpFoldResult>{};
        // A rank-reducing view drops unit sizes: its d-th kept dimension.
        SmallVector<OpFoldResult> kept;
        if (view) {
          llvm::SmallBitVector dropped = view.getDroppedDims();
          for (auto [k, sz] : llvm::enumerate(sizes))
            if (!dropped.test(k))
              kept.push_back(sz);
        }
        if (!view || d >= kept.size() || !isEqualConstantIntOrValue(getAsOpFoldResult(bound), kept[d])) {
          op->emitOpError("attncc-partition: a row guard's bound must be the extent along the row of "
                          "the view every guarded access indexes by the row");
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (w.wasInterrupted())
      return failure();
    guardBound = bound;
    Block *then = guard.thenBlock();
    then->getTerminator()->erase();
    guard->getBlock()->getOperations().splice(Block::iterator(guard), then->getOperations());
    guard.erase();
    return success();
  }

  LogicalResult partition(ReduceOp reduce, const ::attncc::TileKnob &tile) {
    Value guardBound; // the row guard's bound (varlen: the sequence's rows)
    if (auto guard = dyn_cast<scf::IfOp>(reduce->getParentOp()); guard && guard->hasAttr("attncc.row_guard"))
      if (auto map = dyn_cast<scf::ParallelOp>(guard->getParentOp());
          map && failed(inlineRowGuard(guard, map, guardBound)))
        return failure();
    // w<WM>x<WN> with WN > 1 is refused before lowering (checkBuilt,
    // schedule/Built.cpp); what is left here are the pass's preconditions on
    // the IR. A partial reduce (attncc-split-reduce's parts map: the part
    // axis before the rows) is tiled like any other: its state is stored per
    // row into the workspace, as O and the LSE are.
    auto map = dyn_cast<scf::ParallelOp>(reduce->getParentOp());
    if (!map || !llvm::all_of(map.getLowerBound(), [](Value v) { return isConstantIntValue(v, 0); }) ||
        !llvm::all_of(map.getStep(), [](Value v) { return isConstantIntValue(v, 1); }))
      return reduce.emitOpError("attncc-partition (TILE@")
             << reduce.getAxis() << " with an atom) needs the reduce directly in a free-axis map "
             << "with zero lower bounds and unit steps";
    if (!map.getInitVals().empty())
      return map.emitOpError("attncc-partition cannot tile a map with reductions");
    func::FuncOp fn = reduce->getParentOfType<func::FuncOp>();
    int64_t rows = ::attncc::freeRowsPerCta(tile), block = ::attncc::reduceBlock(tile);

    OpBuilder b(map);
    Location loc = unnamed(map.getLoc());
    SmallVector<Value> ubs(map.getUpperBound());
    Value cRows = arith::ConstantIndexOp::create(b, loc, rows);
    ubs.back() = b.createOrFold<arith::CeilDivUIOp>(loc, ubs.back(), cRows);
    // attncc-map-to-gpu launches the map's last axis fastest. GRID=lpt puts
    // the tile axis first, so the CTAs run every (batch, head)'s first tile,
    // then every second one, ...: with causal rows (tiles reversed below)
    // the longest tiles of the whole grid start first, and the last wave is
    // the shortest tiles rather than one head's longest.
    const ::attncc::Schedule &sched = reduce.getScheduleAttr().getSchedule();
    // GRID=persistent keeps GRID=tiles' order: the CTAs resident at once
    // run consecutive tile ids, so a few heads' tiles, which share K and V
    // in L2. (In lpt's order they ran one tile of every head at once: 1.5x
    // slower at [8,16,4096,128] on an H100, 2026-12-05.)
    bool persistent = sched.grid && *sched.grid == ::attncc::GridKind::Persistent;
    bool tileFirst = sched.grid && *sched.grid == ::attncc::GridKind::Lpt;
    size_t nFree = ubs.size() - 1;
    if (tileFirst)
      std::rotate(ubs.begin(), ubs.end() - 1, ubs.end());
    auto tiled = scf::ParallelOp::create(b, map.getLoc(), map.getLowerBound(), ubs, map.getStep());
    b.setInsertionPointToStart(tiled.getBody());
    Block::BlockArgListType tiledIvs = tiled.getBody()->getArguments();
    Block::BlockArgListType freeIvs = tiledIvs.slice(tileFirst ? 1 : 0, nFree);

    Vectorizer v(b, rows, block);
    auto ivs = map.getInductionVars();
    for (size_t k = 0; k < nFree; ++k) {
      v.set(ivs[k], freeIvs[k], Cls{});
      freeIvs[k].setLoc(ivs[k].getLoc()); // keep the listing's names (%b, %h)
    }
    v.oldRow = ivs.back();
    Value tileIv = tileFirst ? tiledIvs.front() : tiledIvs.back();
    tileIv.setLoc(named(loc, "tile"));
    using mlir::attncc::dependsOnRow;
    if (dependsOnRow(reduce.getLower(), map) || dependsOnRow(reduce.getUpper(), map)) {
      // Rows fold different numbers of elements (causal: the last rows the
      // most). Launch order follows the map, so run the tiles last to first:
      // the longest CTAs start first and the short ones fill in behind them.
      Value last = b.createOrFold<arith::SubIOp>(loc, tileFirst ? ubs.front() : ubs.back(),
                                                 arith::ConstantIndexOp::create(b, loc, 1));
      tileIv = arith::SubIOp::create(b, named(loc, "tile_rev"), last, tileIv);
    }
    v.rowBase = arith::MulIOp::create(b, named(loc, "row0"), tileIv, cRows);

    for (Operation &op : map.getBody()->without_terminator()) {
      if (auto r = dyn_cast<ReduceOp>(&op)) {
        if (r != reduce)
          return r.emitOpError("attncc-partition: one reduce per tiled map");
        if (failed(fold(v, reduce, block, rows, guardBound)))
          return failure();
        continue;
      }
      if (auto p = dyn_cast<ProjectOp>(&op)) {
        Block &body = p.getBody().front();
        for (auto [arg, s] : llvm::zip(body.getArguments(), p.getState()))
          v.set(arg, v.get(s).first, v.get(s).second);
        for (Operation &inner : body.without_terminator())
          if (failed(v.visit(inner)))
            return failure();
        for (auto [res, y] : llvm::zip(p.getResults(), cast<YieldOp>(body.getTerminator()).getValues()))
          v.set(res, v.get(y).first, v.get(y).second);
        continue;
      }
      if (failed(v.visit(op)))
        return failure();
    }
    // (The reduce goes with the map: its schedule is read first.)
    ScheduleAttr schedAttr = reduce.getScheduleAttr();
    map.erase();

    fn->setAttr("attncc.schedule", schedAttr);
    Builder fb(fn.getContext());
    // attncc-atomize picks the instruction of the family.
    if (tile.atom->kind == ::attncc::AtomKind::Wgmma || tile.atom->kind == ::attncc::AtomKind::Tcgen05) {
      StringAttr family = fb.getStringAttr(tile.atom->kind == ::attncc::AtomKind::Wgmma ? "wgmma" : "tcgen05");
      fn.walk([&](vector::ContractionOp c) { c->setAttr("attncc.family", family); });
      // OVERLAP=early (tcgen05): each P*V product starts on three quarters
      // of P while the last quarter is stored (attncc-lower-tcgen05).
      if (sched.overlap && *sched.overlap == ::attncc::OverlapKind::Early)
        fn.walk([&](vector::ContractionOp c) {
          if (monoid::rightIsKN(c))
            c->setAttr("attncc.early_pv", fb.getUnitAttr());
        });
    }
    // WSPEC=load1: one more warp, which only copies blocks in; load1/mma1
    // (tcgen05) one more, which issues the products (attncc-atomize tells
    // them from the warps that own rows).
    // The warps past the TILE's, which own no rows: WSPEC's load and mma
    // warps, recorded by count (attncc-map-to-gpu hands them to the
    // kernel as attncc.warp_roles, which attncc-atomize reads).
    int64_t load = 0, mma = 0, idle = 0, corr = 0;
    for (const ::attncc::WarpRole &w : sched.wspec) {
      if (w.role == "load")
        load += w.warps;
      if (w.role == "mma")
        mma += w.warps;
      if (w.role == "corr")
        corr += w.warps;
    }
    // Two tcgen05 Q tiles with the load and mma warps, or a correction
    // warpgroup (corr4): two idle warps make the load and mma warps a whole
    // warpgroup, which hands registers to the row warpgroups (setmaxnreg is
    // per warpgroup; attncc-warp-specialize): at 10 warps ptxas caps every
    // thread at 168 registers. The correction warpgroup comes after it
    // (warps W + 4 .. W + 7: W is 4 or 8, so it is a whole warpgroup too).
    if (tile.atom->kind == ::attncc::AtomKind::Tcgen05 && load + mma == 2 && (tile.wm * tile.wn == 8 || corr))
      idle = 2;
    int64_t extraWarps = load + mma + idle + corr;
    SmallVector<NamedAttribute> cta{
        fb.getNamedAttr("threads", fb.getI64IntegerAttr((tile.wm * tile.wn + extraWarps) * 32)),
        fb.getNamedAttr("rows", fb.getI64IntegerAttr(rows))};
    if (extraWarps) {
      SmallVector<NamedAttribute> roles{fb.getNamedAttr("load", fb.getI64IntegerAttr(load))};
      if (mma)
        roles.push_back(fb.getNamedAttr("mma", fb.getI64IntegerAttr(mma)));
      if (idle)
        roles.push_back(fb.getNamedAttr("idle", fb.getI64IntegerAttr(idle)));
      if (corr)
        roles.push_back(fb.getNamedAttr("corr", fb.getI64IntegerAttr(corr)));
      cta.push_back(fb.getNamedAttr("roles", fb.getDictionaryAttr(roles)));
    }
    // GRID=persistent: attncc-map-to-gpu launches at most a resident grid's
    // worth of CTAs, each looping over the tiles.
    if (persistent)
      cta.push_back(fb.getNamedAttr("persistent", fb.getUnitAttr()));
    // A function with other maps (a split's combine) names the tiled one by
    // its role (the location attncc-split-reduce gave it, which
    // canonicalization keeps): attncc-map-to-gpu launches only it by CTAs.
    if (auto role = dyn_cast<NameLoc>(tiled.getLoc()))
      cta.push_back(fb.getNamedAttr("map", role.getName()));
    fn->setAttr("attncc.cta", fb.getDictionaryAttr(cta));
    return success();
  }

  /// How `x` moves with the row `row` through the ops of `slice`: +1 never
  /// down (non-decreasing), -1 never up, 0 not the row's (the same for every
  /// row), nullopt not known. Sums, differences, min and max of monotone
  /// terms and products with a constant keep a direction; anything else
  /// (a division, a remainder: PACK=gqa's head and query) is not known.
  static std::optional<int> direction(Value x, Value row, const SetVector<Operation *> &slice) {
    if (x == row)
      return 1;
    Operation *d = x.getDefiningOp();
    if (!d || !slice.contains(d))
      return 0; // defined outside the slice: the same for every row
    if (d->getNumRegions() != 0)
      return std::nullopt;
    auto both = [&](Value a, Value b, bool negateB) -> std::optional<int> {
      auto da = direction(a, row, slice), db = direction(b, row, slice);
      if (!da || !db)
        return std::nullopt;
      int s = *da, t = negateB ? -*db : *db;
      if (s == 0 || t == 0 || s == t)
        return s ? s : t;
      return std::nullopt; // one up, one down
    };
    if (auto a = dyn_cast<arith::AddIOp>(d))
      return both(a.getLhs(), a.getRhs(), false);
    if (auto a = dyn_cast<arith::SubIOp>(d))
      return both(a.getLhs(), a.getRhs(), true);
    if (auto a = dyn_cast<arith::MinSIOp>(d))
      return both(a.getLhs(), a.getRhs(), false);
    if (auto a = dyn_cast<arith::MaxSIOp>(d))
      return both(a.getLhs(), a.getRhs(), false);
    if (auto a = dyn_cast<arith::MulIOp>(d)) {
      IntegerAttr k;
      Value other;
      if (matchPattern(a.getRhs(), m_Constant(&k)))
        other = a.getLhs();
      else if (matchPattern(a.getLhs(), m_Constant(&k)))
        other = a.getRhs();
      else
        return std::nullopt;
      auto dOther = direction(other, row, slice);
      if (!dOther)
        return std::nullopt;
      int64_t kv = k.getValue().getSExtValue();
      return kv == 0 ? 0 : (kv > 0 ? *dOther : -*dOther);
    }
    // Any other op is the same for every row if its operands are (a length
    // read from memory by a varlen batch).
    for (Value o : d->getOperands()) {
      auto dir = direction(o, row, slice);
      if (!dir || *dir != 0)
        return std::nullopt;
    }
    return 0;
  }

  /// min (or max) over the tile's rows of a per-row bound: the scalar
  /// computation of `bound` (its slice inside the map) at the tile's first or
  /// last row when the bound moves one way with the row (the causal
  /// diagonal's min(row + 1 + (seq_k - seq_q), seq_k), a window's edge), and
  /// otherwise run once per row in a loop.
  Value hull(Vectorizer &v, ReduceOp reduce, Value bound, Cls c, bool isMin) {
    if (c.uniform())
      return v.get(bound).first;
    OpBuilder &b = v.b;
    Location loc = unnamed(reduce.getLoc());
    Operation *map = reduce->getParentOp();
    SetVector<Operation *> slice;
    BackwardSliceOptions opts;
    opts.filter = [&](Operation *op) { return map->isProperAncestor(op); };
    (void)getBackwardSlice(bound, &slice, opts);
    if (Operation *def = bound.getDefiningOp())
      slice.insert(def);
    slice = topologicalSort(slice);
    auto at = [&](OpBuilder &bb, Value row) {
      IRMapping m;
      for (auto &[old, nv] : v.vmap)
        if (nv.second.uniform())
          m.map(old, nv.first);
      m.map(v.oldRow, row);
      for (Operation *op : slice)
        bb.clone(*op, m);
      return m.lookupOrDefault(bound);
    };
    // Monotone: the min and the max are at the ends (the loop over the rows
    // computed the same value, M - 1 steps per tile).
    if (std::optional<int> dir = direction(bound, v.oldRow, slice); dir && *dir != 0) {
      bool atFirst = (*dir > 0) == isMin;
      Value row = atFirst ? v.rowBase
                          : arith::AddIOp::create(b, loc, v.rowBase,
                                                  arith::ConstantIndexOp::create(b, loc, v.M - 1)).getResult();
      return at(b, row);
    }
    Value first = at(b, v.rowBase);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value from = arith::AddIOp::create(b, loc, v.rowBase, one);
    Value to = arith::AddIOp::create(b, loc, v.rowBase, arith::ConstantIndexOp::create(b, loc, v.M));
    auto loop = scf::ForOp::create(
        b, named(loc, isMin ? "lo" : "hi"), from, to, one, ValueRange{first},
        [&](OpBuilder &lb, Location l, Value r, ValueRange acc) {
          Value x = at(lb, r);
          Value y = isMin ? Value(arith::MinSIOp::create(lb, l, acc[0], x))
                          : Value(arith::MaxSIOp::create(lb, l, acc[0], x));
          scf::YieldOp::create(lb, l, y);
        });
    return loop.getResult(0);
  }

  /// The reduce as an scf.for over blocks of `block` elements.
  LogicalResult fold(Vectorizer &v, ReduceOp reduce, int64_t block, int64_t rows, Value guardBound) {
    OpBuilder &b = v.b;
    Location loc = unnamed(reduce.getLoc());
    CarrierAttr carrier = reduce.getCarrier();
    auto [lo, loC] = v.get(reduce.getLower());
    auto [hi, hiC] = v.get(reduce.getUpper());
    if (loC.k || hiC.k)
      return reduce.emitOpError("attncc-partition: bounds cannot depend on the element");
    // A per-row range: the loop covers the tile's hull, the mask the rest.
    Value loopLo = hull(v, reduce, reduce.getLower(), loC, /*isMin=*/true);
    Value loopHi = hull(v, reduce, reduce.getUpper(), hiC, /*isMin=*/false);
    // A tile whose first row is past the row guard's bound (varlen: a tile
    // past its sequence's rows) folds nothing: it writes nothing either.
    if (guardBound) {
      auto [gb, gbC] = v.get(guardBound);
      if (!gbC.uniform())
        return reduce.emitOpError("attncc-partition: a row guard's bound must be the same for the whole tile");
      Value inSeq = arith::CmpIOp::create(b, named(loc, "tile_in_seq"), arith::CmpIPredicate::slt, v.rowBase, gb);
      loopHi = arith::SelectOp::create(b, loc, inSeq, loopHi, loopLo);
    }
    Value step = arith::ConstantIndexOp::create(b, loc, block);
    // A lift that reads a paged cache (j / P, j mod P: pageIndex) needs each
    // block in one page: the blocks start at a multiple of the block, and
    // the elements below the range are masked (below).
    bool paged = false;
    v.oldKey = reduce.getIndex();
    for (Operation &op : reduce.getLiftBlock().without_terminator())
      paged = paged || v.pageOf(&op).has_value();
    if (paged && !isConstantIntValue(loopLo, 0))
      loopLo = arith::MulIOp::create(b, named(loc, "block_lo"),
                                     arith::DivUIOp::create(b, loc, loopLo, step), step);

    SmallVector<Value> init;
    for (auto [t, c] : llvm::zip(reduce.getState().getTypes(), carrier.getCombines()))
      init.push_back(buildIdentityConstant(b, loc, c, v.vecType(t, Cls{true, false})));
    auto loop = scf::ForOp::create(b, named(loc, "fold"), loopLo, loopHi, step, init);
    loop.getInductionVar().setLoc(named(loc, reduce.getAxis().str() + "0"));
    for (auto [arg, name] : llvm::zip(loop.getRegionIterArgs(), carrier.getNames()))
      arg.setLoc(named(loc, name.getValue()));

    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    v.keyBase = loop.getInductionVar();
    v.keyVec = Value();
    for (Operation &op : reduce.getLiftBlock().without_terminator())
      if (failed(v.visit(op)))
        return failure();

    // Which elements of the block are in the reduce's range.
    Value valid;
    Cls validC;
    auto conj = [&](Value c, Cls cc) {
      if (!valid) { valid = c; validC = cc; return; }
      Cls u = validC | cc;
      Value a = broadcastBlock(b, loc, valid, validC.r, validC.k, u.r, u.k, rows, block);
      Value bb = broadcastBlock(b, loc, c, cc.r, cc.k, u.r, u.k, rows, block);
      valid = arith::AndIOp::create(b, loc, a, bb);
      validC = u;
    };
    Value keys = v.indexVector(false);
    auto bound = [&](Value x, Cls c, arith::CmpIPredicate pred) {
      Cls u = c | Cls{false, true};
      Value k = broadcastBlock(b, loc, keys, false, true, u.r, u.k, rows, block);
      Value xs = x;
      if (c.uniform())
        xs = vector::BroadcastOp::create(b, loc, k.getType(), x);
      else
        xs = broadcastBlock(b, loc, x, c.r, c.k, u.r, u.k, rows, block);
      conj(arith::CmpIOp::create(b, loc, pred, k, xs), u);
    };
    // The range to enforce: the reduce's bounds without the clips of
    // attncc-clip-identity (outside a clip the lift is the identity anyway).
    auto peel = [](Value x) {
      while (Operation *d = x.getDefiningOp()) {
        if (!d->hasAttr("attncc.clip") || !isa<arith::MinSIOp, arith::MaxSIOp>(d))
          break;
        x = d->getOperand(0);
      }
      return x;
    };
    auto [lo0, lo0C] = v.get(peel(reduce.getLower()));
    auto [hi0, hi0C] = v.get(peel(reduce.getUpper()));
    if (lo0C.k || hi0C.k)
      return reduce.emitOpError("attncc-partition: bounds cannot depend on the element");
    // The loop starts at or above lo0 (a clip only raises it), unless a
    // paged lift moved it down to a block's start.
    if (!lo0C.uniform() || (paged && !isConstantIntValue(lo0, 0)))
      bound(lo0, lo0C, arith::CmpIPredicate::sge);
    // Blocks from a static start tile [start, hi0) exactly: no tail mask.
    std::optional<int64_t> sStart = getConstantIntValue(loopLo), sHi = getConstantIntValue(hi0);
    bool wholeBlocks = hi0C.uniform() && sStart && sHi && (*sHi - *sStart) % block == 0;
    if (!wholeBlocks)
      bound(hi0, hi0C, arith::CmpIPredicate::slt);

    SmallVector<BlockElement> lift;
    for (auto [k, y] : llvm::enumerate(reduce.getLiftYield().getValues())) {
      auto [val, c] = v.get(y);
      if (valid && (carrier.getCombines()[k] == CombineKind::Max || !carrier.isTwisted(k))) {
        // Padding with the identity; channels twisted by a max channel need
        // none (an element whose max is -inf has weight 0).
        if (isa<VectorType>(y.getType()))
          return reduce.emitOpError("attncc-partition: cannot pad a vector channel");
        Cls u = c | validC;
        Value x = broadcastBlock(b, loc, val, c.r, c.k, u.r, u.k, rows, block);
        if (c.uniform())
          x = vector::BroadcastOp::create(b, loc, VectorType::get(
                  cast<VectorType>(valid.getType()).getShape(), y.getType()), val);
        Value m = broadcastBlock(b, loc, valid, validC.r, validC.k, u.r, u.k, rows, block);
        Value idc = buildIdentityConstant(b, loc, carrier.getCombines()[k], x.getType());
        val = arith::SelectOp::create(b, y.getLoc(), m, x, idc);
        c = u;
      }
      lift.push_back(BlockElement{val, c.r, c.k});
    }
    SmallVector<Value> next =
        buildBlockCombine(b, loc, carrier, loop.getRegionIterArgs(), lift, rows, block);
    if (next.empty())
      return failure();
    scf::YieldOp::create(b, loc, next);
    for (auto [old, res] : llvm::zip(reduce.getState(), loop.getResults()))
      v.set(old, res, Cls{true, false});
    return success();
  }

  void runOnOperation() override {
    SmallVector<std::pair<ReduceOp, const ::attncc::TileKnob *>> work;
    getOperation().walk([&](ReduceOp r) {
      if (const ::attncc::TileKnob *t = tileOf(r))
        work.push_back({r, t});
    });
    for (auto [r, t] : work)
      if (failed(partition(r, *t)))
        return signalPassFailure();
  }
};

} // namespace
