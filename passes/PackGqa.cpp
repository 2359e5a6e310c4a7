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

/// The function argument with attncc.role `role`, or null.
BlockArgument argWithRole(func::FuncOp fn, StringRef role) {
  for (BlockArgument a : fn.getArguments())
    if (auto r = fn.getArgAttrOfType<StringAttr>(a.getArgNumber(), kRoleAttr); r && r.getValue() == role)
      return a;
  return {};
}

/// The KV heads: k's dimension named heads_kv (attncc.dims: [B, Hkv, Sk, D],
/// or a paged cache's HND [pages, Hkv, P, D]), or a paged NHD cache's
/// heads_kv_x_head_dim ([pages, P, Hkv * D]) divided by q's head dim.
std::optional<int64_t> headsKv(func::FuncOp fn, BlockArgument k, MemRefType qT) {
  auto kT = cast<MemRefType>(k.getType());
  auto dims = fn.getArgAttrOfType<ArrayAttr>(k.getArgNumber(), kDimsAttr);
  if (!dims) // IR without the front end's dims: [B, Hkv, Sk, D]
    return kT.getRank() == 4 && !kT.isDynamicDim(1) ? std::optional<int64_t>(kT.getDimSize(1)) : std::nullopt;
  if (int64_t(dims.size()) != kT.getRank() || qT.getRank() != 4 || qT.isDynamicDim(3))
    return std::nullopt;
  for (auto [d, name] : llvm::enumerate(dims.getAsValueRange<StringAttr>())) {
    if (kT.isDynamicDim(d))
      continue;
    if (name == "heads_kv")
      return kT.getDimSize(d);
    if (name == "heads_kv_x_head_dim" && kT.getDimSize(d) % qT.getDimSize(3) == 0)
      return kT.getDimSize(d) / qT.getDimSize(3);
  }
  return std::nullopt;
}

LogicalResult pack(ReduceOp r) {
  scf::ParallelOp map = getFreeAxisMap(r, "PACK=gqa");
  if (!map)
    return failure();
  auto fn = r->getParentOfType<func::FuncOp>();
  BlockArgument q = argWithRole(fn, "q"), k = argWithRole(fn, "k"), o = argWithRole(fn, "o"),
                lse = argWithRole(fn, "lse");
  if (!q || !k || !o || !lse || map.getNumLoops() != 3)
    return r.emitOpError("PACK=gqa needs an attention function (arguments q, k, o, lse) and its "
                         "map over (batch, heads, query rows)");
  if (argWithRole(fn, "bias"))
    return r.emitOpError("PACK=gqa with a bias is not built yet (a tile of packed rows reads "
                         "bias rows of several heads)");
  auto qT = cast<MemRefType>(q.getType());
  std::optional<int64_t> kvHeads = headsKv(fn, k, qT);
  if (qT.getRank() != 4 || qT.isDynamicDim(1) || !kvHeads)
    return r.emitOpError("PACK=gqa needs q and k of rank 4 with static head extents");
  int64_t hq = qT.getDimSize(1), hkv = *kvHeads;
  if (hkv <= 0 || hq % hkv != 0)
    return r.emitOpError("PACK=gqa needs heads_q a multiple of heads_kv, not ") << hq << " and " << hkv;
  int64_t g = hq / hkv;
  if (g == 1)
    return success(); // nothing to pack (or packed already)
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
        std::optional<int64_t> d = dim.getConstantIndex();
        if (d && *d != 1 && *d != 2)
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
      SmallVector<Attribute> d(dims.begin(), dims.end());
      if (d.size() >= 3) {
        d[1] = StringAttr::get(ctx, "heads_kv");
        d[2] = StringAttr::get(ctx, "gqa_rows");
      }
      fn.setArgAttr(a.getArgNumber(), kDimsAttr, ArrayAttr::get(ctx, d));
    }
  }
  fn.setType(FunctionType::get(ctx, fn.front().getArgumentTypes(), fn.getResultTypes()));

  // The map's extents and names.
  OpBuilder b(map);
  Location loc = unnamed(map.getLoc());
  map.getUpperBoundMutable().slice(1, 1).assign(arith::ConstantIndexOp::create(b, loc, hkv));
  map.getUpperBoundMutable().slice(2, 1).assign(arith::ConstantIndexOp::create(b, loc, g * sq));
  iH.setLoc(named(iH.getLoc(), "hkv"));
  iR.setLoc(named(iR.getLoc(), "r"));

  // Every other use of the head and the row: the KV head is %hkv; the rest
  // read %h and %i, built once per block that uses them (the lift, the map).
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
      if (!kept.contains(use.getOwner()))
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
