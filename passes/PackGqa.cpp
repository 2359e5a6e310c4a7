//===- PackGqa.cpp - attncc-pack-gqa (PACK=gqa) ---------------------------===//
//
// Pre:  the front end's attention function: a monoid.reduce whose schedule
//       says PACK=gqa, directly in the free-axis scf.parallel (%b, %h, %i)
//       over (B, Hq, Sq) with zero lower bounds and unit steps; arguments
//       with attncc.role q [B, Hq, Sq, D], k [B, Hkv, Sk, D], o [B, Hq, Sq, D]
//       and lse [B, Hq, Sq], with a static Sq and Hq = G * Hkv; Q, O and the
//       LSE indexed by the map's (%h, %i) (or read for their batch extent);
//       no bias argument.
// Post: the map runs over (%b, %hkv, %r) in (B, Hkv, G * Sq). Q, O and the
//       LSE are retyped [B, Hkv, G * Sq(, D)]: the same bytes, since head
//       hkv * G + g of query row i sits at row g * Sq + i of KV head hkv's
//       block, so their loads and stores keep their indices. Every other use
//       of the head or the query row (the mask's diagonal, ALiBi's slope)
//       reads
//         %h = %hkv * G + %r / Sq      %i = %r mod Sq
//       computed where it is used (in the lift, which stays self-contained);
//       the KV head %h / G becomes %hkv itself.
// So a tile of rows attncc-partition cuts holds the query heads of one KV
// group and reads each K and V block once for all of them (FlashAttention-3's
// PackGQA): a decoded token of a 32/8 model fills 4 rows, not 1, and the K
// and V bytes are read once per KV head, not once per query head.
// G = 1 (nothing to pack, or a map packed already) leaves the function alone.
//
// Varlen (FlashAttention's THD: q and o [total_q, Hq * D], lse [B, Hq, Sq],
// the reduce in the front end's row guard `%i < %len_q`) with one query row
// a sequence (Sq = 1, decode): the heads hkv * G .. hkv * G + G - 1 of a
// token are G adjacent rows of D elements, so the packed rows are a view,
// not a retype. The pass views Q and O as [total_q, Hq, D] (expand_shape),
// and in the map
//   %q_grp   = subview %q3[%seq_q0, %hkv * G, 0] [1, %rows_q, D]    ([rows_q, D])
//   %o_grp   likewise, %lse_grp = subview %lse[%b, %hkv * G, 0] [1, %rows_q, 1]
//   %rows_q  = %len_q * G   (G rows, or none for a sequence without rows)
// Q, O and the LSE are accessed at the packed row %r of these views, the
// guard becomes `%r < %rows_q`, and the rest is as above with Sq = 1.
// (Sq > 1 in THD puts a token's G heads D apart and its next token Hq * D
// apart: not one stride, so not a view; refused before lowering.)
//
//===----------------------------------------------------------------------===//
#include "passes/MapUtils.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "attncc-pack-gqa"

namespace mlir::attncc {
#define GEN_PASS_DEF_PACKGQA
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;
using namespace mlir::monoid;
using namespace mlir::attncc;

namespace {

/// The KV heads: k's dimension named heads_kv (attncc.dims: [B, Hkv, Sk, D],
/// or a paged cache's HND [pages, Hkv, P, D]), or a paged NHD cache's
/// heads_kv_x_head_dim ([pages, P, Hkv * D]) divided by q's head dim.
std::optional<int64_t> headsKv(func::FuncOp fn, BlockArgument k, int64_t headDim) {
  auto kT = cast<MemRefType>(k.getType());
  auto dims = fn.getArgAttrOfType<ArrayAttr>(k.getArgNumber(), kDimsAttr);
  if (!dims) // IR without the front end's dims: [B, Hkv, Sk, D]
    return kT.getRank() == 4 && !kT.isDynamicDim(1) ? std::optional<int64_t>(kT.getDimSize(1)) : std::nullopt;
  if (int64_t(dims.size()) != kT.getRank() || headDim <= 0)
    return std::nullopt;
  for (auto [d, name] : llvm::enumerate(dims.getAsValueRange<StringAttr>())) {
    if (kT.isDynamicDim(d))
      continue;
    if (name == "heads_kv")
      return kT.getDimSize(d);
    if (name == "heads_kv_x_head_dim" && kT.getDimSize(d) % headDim == 0)
      return kT.getDimSize(d) / headDim;
  }
  return std::nullopt;
}

/// Every use of the map's head %iH and row %iR outside `skip`: the KV head
/// %h / G becomes %hkv itself; the rest read
///   %h = %hkv * G + %r / Sq      %i = %r mod Sq
/// built once per block that uses them (the lift, the map).
void unpackHeadAndRow(ReduceOp r, scf::ParallelOp map, Value iH, Value iR, int64_t g, int64_t sq,
                      const SmallPtrSetImpl<Operation *> &skip) {
  Location loc = unnamed(map.getLoc());
  DenseMap<Block *, std::pair<Value, Value>> unpacked;
  auto headAndRow = [&](Operation *user) {
    Block *blk = &r.getLiftBlock();
    if (!r->isProperAncestor(user))
      blk = map.getBody();
    auto [it, fresh] = unpacked.try_emplace(blk);
    if (fresh) {
      OpBuilder ub = OpBuilder::atBlockBegin(blk);
      Value cg = arith::ConstantIndexOp::create(ub, loc, g);
      Value base = arith::MulIOp::create(ub, loc, iH, cg);
      Value h, i;
      if (sq == 1) {
        h = arith::AddIOp::create(ub, named(loc, "h"), base, iR);
        i = arith::ConstantIndexOp::create(ub, named(loc, "i"), 0);
      } else {
        Value csq = arith::ConstantIndexOp::create(ub, loc, sq);
        h = arith::AddIOp::create(ub, named(loc, "h"), base, arith::DivUIOp::create(ub, loc, iR, csq));
        i = arith::RemUIOp::create(ub, named(loc, "i"), iR, csq);
      }
      it->second = {h, i};
    }
    return it->second;
  };
  SmallVector<OpOperand *> uses;
  for (Value iv : {iH, iR})
    for (OpOperand &use : iv.getUses())
      if (!skip.contains(use.getOwner()))
        uses.push_back(&use);
  SmallVector<Operation *> dead;
  for (OpOperand *use : uses) {
    Operation *user = use->getOwner();
    if (auto div = dyn_cast<arith::DivUIOp>(user);
        div && use->get() == iH && div.getLhs() == iH && getConstantIntValue(div.getRhs()) == g) {
      div.getResult().replaceAllUsesWith(iH); // (hkv * G + r / Sq) / G = hkv, as r / Sq < G
      dead.push_back(div);
      continue;
    }
    auto [h, i] = headAndRow(user);
    use->set(use->get() == iH ? h : i);
  }
  for (Operation *op : dead)
    op->erase();
}

/// The map's extents become (B, Hkv, G * Sq), its axes named hkv and r.
void repackMap(scf::ParallelOp map, int64_t hkv, int64_t rows) {
  OpBuilder b(map);
  Location loc = unnamed(map.getLoc());
  map.getUpperBoundMutable().slice(1, 1).assign(arith::ConstantIndexOp::create(b, loc, hkv));
  map.getUpperBoundMutable().slice(2, 1).assign(arith::ConstantIndexOp::create(b, loc, rows));
  Value iH = map.getInductionVars()[1], iR = map.getInductionVars()[2];
  iH.setLoc(named(iH.getLoc(), "hkv"));
  iR.setLoc(named(iR.getLoc(), "r"));
}

/// Whether `v` is `%h * D` (in either order).
bool isHeadColumn(Value v, Value iH, int64_t d) {
  auto mul = v.getDefiningOp<arith::MulIOp>();
  return mul && ((mul.getLhs() == iH && getConstantIntValue(mul.getRhs()) == d) ||
                 (mul.getRhs() == iH && getConstantIntValue(mul.getLhs()) == d));
}

/// Varlen with one query row a sequence (the header): Q, O and the LSE
/// through views of a KV group's G heads.
LogicalResult packVarlen(ReduceOp r, scf::ParallelOp map, scf::IfOp guard, BlockArgument q, BlockArgument o,
                         BlockArgument lse, int64_t hq, int64_t hkv, int64_t d) {
  int64_t g = hq / hkv;
  Value iB = map.getInductionVars()[0], iH = map.getInductionVars()[1], iR = map.getInductionVars()[2];
  if (getConstantIntValue(map.getUpperBound()[1]) != hq || getConstantIntValue(map.getUpperBound()[2]) != 1)
    return r.emitOpError("PACK=gqa with varlen needs the map over (batch, ") << hq << " heads, 1 row)";
  auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt || cmp.getLhs() != iR)
    return guard.emitOpError("PACK=gqa with varlen needs the row guard `%i < %len_q`");
  Value lenQ = cmp.getRhs();

  // The sequence views of q, o and lse in the map, and their accesses:
  // q and o at (%i, %h * D), lse at (%h, %i).
  SmallVector<memref::SubViewOp> views;
  SmallVector<std::pair<Operation *, BlockArgument>> accesses;
  for (BlockArgument a : {q, o, lse})
    for (Operation *user : a.getUsers()) {
      // The first extent (a symbolic batch, the packed total) is unchanged.
      if (auto dim = dyn_cast<memref::DimOp>(user); dim && dim.getConstantIndex() == 0)
        continue;
      auto view = dyn_cast<memref::SubViewOp>(user);
      if (!view || view->getParentOp() != map.getOperation())
        return user->emitOpError("PACK=gqa with varlen needs q, o and lse used only by the map's "
                                 "sequence views");
      views.push_back(view);
      for (Operation *acc : view.getResult().getUsers()) {
        auto m = memoryAccess(acc);
        bool ok = isa<vector::LoadOp, vector::StoreOp, memref::LoadOp, memref::StoreOp>(acc) && m &&
                  m->first == view.getResult() && m->second.size() == 2 &&
                  (a == lse ? m->second[0] == iH && m->second[1] == iR
                            : m->second[0] == iR && isHeadColumn(m->second[1], iH, d));
        if (!ok)
          return acc->emitOpError("PACK=gqa with varlen needs every access of a sequence's q and o at "
                                  "(row, head * D) and of its lse at (head, row)");
        accesses.push_back({acc, a});
      }
    }
  memref::SubViewOp qView;
  for (memref::SubViewOp v : views)
    if (v.getSource() == q)
      qView = v;
  if (!qView)
    return r.emitOpError("PACK=gqa with varlen needs the sequence's view of q");
  OpFoldResult seq0 = qView.getMixedOffsets()[0];

  // [total_q, Hq * D] as [total_q, Hq, D], in the map (a kernel's own view
  // of its argument).
  OpBuilder b(guard);
  Location loc = unnamed(map.getLoc());
  DenseMap<Value, Value> heads3;
  for (BlockArgument a : {q, o}) {
    auto t = cast<MemRefType>(a.getType());
    Value total = memref::DimOp::create(b, loc, a, 0);
    auto t3 = MemRefType::get({ShapedType::kDynamic, hq, d}, t.getElementType());
    SmallVector<OpFoldResult> shape{total, b.getIndexAttr(hq), b.getIndexAttr(d)};
    heads3[a] = memref::ExpandShapeOp::create(b, named(loc, a == q ? "q_heads" : "o_heads"), t3, a,
                                              ArrayRef<ReassociationIndices>{{0}, {1, 2}}, shape);
  }

  // The group's views, before the guard. `fresh` holds the ops that read
  // the map's head and row as they will be after the repack (the KV head,
  // the packed row), which unpackHeadAndRow leaves alone.
  SmallPtrSet<Operation *, 16> fresh;
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value cg = arith::ConstantIndexOp::create(b, loc, g);
  Value base = arith::MulIOp::create(b, named(loc, "group_head0"), iH, cg);
  fresh.insert(base.getDefiningOp());
  Value rows = arith::MulIOp::create(b, named(loc, "rows_q"), lenQ, cg);
  SmallVector<OpFoldResult> one{b.getIndexAttr(1), b.getIndexAttr(1), b.getIndexAttr(1)};
  auto groupView = [&](Value src, OpFoldResult first, OpFoldResult last, StringRef name, MemRefType type) {
    SmallVector<OpFoldResult> offsets{first, base, b.getIndexAttr(0)}, sizes{b.getIndexAttr(1), rows, last};
    return memref::SubViewOp::create(b, named(loc, name), type, src, offsets, sizes, one).getResult();
  };
  auto rowsOf = [&](int64_t stride, Type elem, int64_t cols) {
    auto layout = StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                                         cols ? ArrayRef<int64_t>{stride, 1} : ArrayRef<int64_t>{stride});
    return cols ? MemRefType::get({ShapedType::kDynamic, cols}, elem, layout)
                : MemRefType::get({ShapedType::kDynamic}, elem, layout);
  };
  DenseMap<Value, Value> grp;
  for (BlockArgument a : {q, o})
    grp[a] = groupView(heads3[a], seq0, b.getIndexAttr(d), a == q ? "q_grp" : "o_grp",
                       rowsOf(d, cast<MemRefType>(a.getType()).getElementType(), d));
  auto lseT = cast<MemRefType>(lse.getType());
  grp[lse] = groupView(lse, iB, b.getIndexAttr(1), "lse_grp",
                       rowsOf(lseT.getDimSize(2), lseT.getElementType(), 0));
  for (BlockArgument a : {q, o, lse})
    fresh.insert(grp[a].getDefiningOp());

  // Each access at the packed row of its group view; the guard on it.
  for (auto [acc, a] : accesses) {
    SmallVector<Value> at = a == lse ? SmallVector<Value>{iR} : SmallVector<Value>{iR, c0};
    if (auto l = dyn_cast<vector::LoadOp>(acc)) {
      l.getBaseMutable().assign(grp[a]);
      l.getIndicesMutable().assign(at);
    } else if (auto st = dyn_cast<vector::StoreOp>(acc)) {
      st.getBaseMutable().assign(grp[a]);
      st.getIndicesMutable().assign(at);
    } else if (auto ms = dyn_cast<memref::StoreOp>(acc)) {
      ms.getMemrefMutable().assign(grp[a]);
      ms.getIndicesMutable().assign(at);
    } else {
      auto ml = cast<memref::LoadOp>(acc); // the kinds checked above
      ml.getMemrefMutable().assign(grp[a]);
      ml.getIndicesMutable().assign(at);
    }
    fresh.insert(acc);
  }
  // %r < %len_q * G
  auto inSeq = arith::CmpIOp::create(b, named(loc, "row_in_seq"), arith::CmpIPredicate::slt, iR, rows);
  guard.getConditionMutable().assign(inSeq);
  fresh.insert(inSeq);
  if (cmp.use_empty())
    cmp.erase();
  for (memref::SubViewOp v : views)
    if (v.use_empty())
      v.erase();

  repackMap(map, hkv, g);
  unpackHeadAndRow(r, map, iH, iR, g, /*sq=*/1, fresh);
  return success();
}

LogicalResult pack(ReduceOp r) {
  scf::ParallelOp map = getFreeAxisMap(r, "PACK=gqa", /*perSequence=*/true);
  if (!map)
    return failure();
  auto guard = dyn_cast<scf::IfOp>(r->getParentOp()); // varlen: the row guard
  auto fn = r->getParentOfType<func::FuncOp>();
  BlockArgument q = argWithRole(fn, "q"), k = argWithRole(fn, "k"), o = argWithRole(fn, "o"),
                lse = argWithRole(fn, "lse");
  if (!q || !k || !o || !lse || map.getNumLoops() != 3)
    return r.emitOpError("PACK=gqa needs an attention function (arguments q, k, o, lse) and its "
                         "map over (batch, heads, query rows)");
  if (argWithRole(fn, "bias"))
    return r.emitOpError("PACK=gqa with a bias is not built yet (a tile of packed rows reads "
                         "bias rows of several heads)");
  auto qT = cast<MemRefType>(q.getType()), lseT = cast<MemRefType>(lse.getType());
  // Dense: q [B, Hq, Sq, D]; varlen: q [total_q, Hq * D] and lse [B, Hq, Sq].
  bool varlen = guard && qT.getRank() == 2;
  if (varlen && (lseT.getRank() != 3 || lseT.isDynamicDim(1) || qT.isDynamicDim(1) ||
                 qT.getDimSize(1) % lseT.getDimSize(1) != 0))
    return r.emitOpError("PACK=gqa with varlen needs q [total_q, Hq * D] and lse [B, Hq, Sq] with static "
                         "heads");
  if (!varlen && (qT.getRank() != 4 || qT.isDynamicDim(1) || qT.isDynamicDim(3)))
    return r.emitOpError("PACK=gqa needs q and k of rank 4 with static head extents");
  int64_t hq = varlen ? lseT.getDimSize(1) : qT.getDimSize(1);
  int64_t d = varlen ? qT.getDimSize(1) / hq : qT.getDimSize(3);
  std::optional<int64_t> kvHeads = headsKv(fn, k, d);
  if (!kvHeads)
    return r.emitOpError("PACK=gqa needs q and k of rank 4 with static head extents");
  int64_t hkv = *kvHeads;
  if (hkv <= 0 || hq % hkv != 0)
    return r.emitOpError("PACK=gqa needs heads_q a multiple of heads_kv, not ") << hq << " and " << hkv;
  int64_t g = hq / hkv;
  if (g == 1)
    return success(); // nothing to pack (or packed already)
  if (varlen) {
    if (lseT.isDynamicDim(2) || lseT.getDimSize(2) != 1)
      return r.emitOpError("PACK=gqa with varlen needs one query row a sequence (seq_q = 1), not ")
             << (lseT.isDynamicDim(2) ? std::string("a symbolic seq_q") : std::to_string(lseT.getDimSize(2)));
    return packVarlen(r, map, guard, q, o, lse, hq, hkv, d);
  }
  if (guard)
    return r.emitOpError("PACK=gqa: a row guard over dense q");
  if (qT.isDynamicDim(2))
    return r.emitOpError("PACK=gqa needs a static query length (the packed rows are G x seq_q)");
  int64_t sq = qT.getDimSize(2);
  Value iH = map.getInductionVars()[1], iR = map.getInductionVars()[2];
  std::optional<int64_t> ubH = getConstantIntValue(map.getUpperBound()[1]),
                         ubR = getConstantIntValue(map.getUpperBound()[2]);
  if (ubH != hq || ubR != sq)
    return r.emitOpError("PACK=gqa needs the map over (batch, ") << hq << " heads, " << sq << " rows)";

  // Q, O and the LSE: every access indexes (.., %h, %i, ..) and stays as it is.
  SmallPtrSet<Operation *, 8> kept;
  for (BlockArgument a : {q, o, lse})
    for (Operation *user : a.getUsers()) {
      // The batch extent (a symbolic batch) is the same after the retype.
      if (auto dim = dyn_cast<memref::DimOp>(user)) {
        std::optional<int64_t> dd = dim.getConstantIndex();
        if (dd && *dd != 1 && *dd != 2)
          continue;
      }
      auto acc = memoryAccess(user);
      if (!acc || acc->first != a || acc->second.size() < 3 || acc->second[1] != iH ||
          acc->second[2] != iR)
        return user->emitOpError("PACK=gqa needs every access of q, o and lse at the map's "
                                 "(head, query row)");
      kept.insert(user);
    }

  // Retype Q, O, LSE and the function.
  auto packedType = [&](MemRefType t) {
    SmallVector<int64_t> shape(t.getShape());
    shape[1] = hkv;
    shape[2] = g * sq;
    return MemRefType::get(shape, t.getElementType());
  };
  MLIRContext *ctx = fn.getContext();
  for (BlockArgument a : {q, o, lse}) {
    a.setType(packedType(cast<MemRefType>(a.getType())));
    if (auto dims = fn.getArgAttrOfType<ArrayAttr>(a.getArgNumber(), kDimsAttr)) {
      SmallVector<Attribute> dd(dims.begin(), dims.end());
      if (dd.size() >= 3) {
        dd[1] = StringAttr::get(ctx, "heads_kv");
        dd[2] = StringAttr::get(ctx, "gqa_rows");
      }
      fn.setArgAttr(a.getArgNumber(), kDimsAttr, ArrayAttr::get(ctx, dd));
    }
  }
  fn.setType(FunctionType::get(ctx, fn.front().getArgumentTypes(), fn.getResultTypes()));

  repackMap(map, hkv, g * sq);
  unpackHeadAndRow(r, map, iH, iR, g, sq, kept);
  return success();
}

struct PackGqaPass : mlir::attncc::impl::PackGqaBase<PackGqaPass> {
  void runOnOperation() override {
    SmallVector<ReduceOp> reduces;
    getOperation().walk([&](ReduceOp r) {
      if (auto s = r.getScheduleAttr(); s && s.getSchedule().pack == ::attncc::PackKind::Gqa)
        reduces.push_back(r);
    });
    for (ReduceOp r : reduces)
      if (failed(pack(r)))
        return signalPassFailure();
  }
};

} // namespace
