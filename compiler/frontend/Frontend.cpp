//===- Frontend.cpp - problem -> monoid IR --------------------------------===//
//
// Builds, for one problem, a func.func of this shape:
//
//   scf.parallel (%b, %h, %i) = (0, 0, 0) to (B, H, Sq) step (1, 1, 1) {   // the map
//     %state = monoid.reduce "<axis>" %c0 to %N carrier #c schedule #s {   // the fold
//       ^bb0(%j: index): lift: loads, monoid.contract, score modifiers, mask
//     }
//     %out = monoid.project %state carrier #c { the final map }
//     stores
//   }
//
// The lift uses only %b, %h, %i, %j, function arguments and values of the
// map's body computed before the reduce from %b alone: a paged cache's
// sequence length, a varlen sequence's views of the packed tensors and its
// lengths (the row's reduce and stores then sit in an scf.if %i < %len_q
// marked attncc.row_guard). Passes that copy the lift (split-reduce,
// cut-fold) take what it uses from the map's body along.
// Masks and modifiers are ordinary arith/math ops inside the lift: the passes
// never see "causal" or "ALiBi", only a carrier and a lift.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Frontend.h"

#include "ir/Carrier.h"
#include "ir/MonoidOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace attncc {

const char *entryName(ProblemKind kind) {
  switch (kind) {
  case ProblemKind::Attention: return "attention";
  case ProblemKind::LogSumExp: return "logsumexp";
  case ProblemKind::RowSum: return "rowsum";
  }
  return "?";
}

const char *reduceAxisName(ProblemKind kind) {
  return kind == ProblemKind::Attention ? "kv" : "n";
}

std::vector<std::string> axisNames(ProblemKind kind) {
  if (kind == ProblemKind::Attention)
    return {"b", "h", "q", "d", "kv"};
  return {"b", "h", "q", "n"};
}

std::vector<const char *> argRoles(const Problem &p) {
  if (p.kind != ProblemKind::Attention)
    return {"x", "out"};
  std::vector<const char *> roles{"q", "k", "v"};
  if (p.bias)
    roles.push_back("bias");
  if (p.paged()) {
    roles.push_back("block_table");
    roles.push_back("kv_lens");
  }
  if (p.varlen) {
    roles.push_back("cu_seqlens_q");
    if (!p.paged()) // a paged cache's keys: kv_lens
      roles.push_back("cu_seqlens_k");
  }
  if (p.seqused) {
    roles.push_back("seqused_q");
    if (!p.paged())
      roles.push_back("seqused_k");
  }
  roles.push_back("o");
  roles.push_back("lse");
  return roles;
}

namespace {

int64_t dim(const Extent &e) { return e.symbolic ? ShapedType::kDynamic : e.value; }

Type elementType(MLIRContext *ctx, DType t) {
  switch (t) {
  case DType::F16: return Float16Type::get(ctx);
  case DType::BF16: return BFloat16Type::get(ctx);
  case DType::F32: return Float32Type::get(ctx);
  }
  return {};
}

void nameArgs(Block *block, const std::vector<const char *> &names) {
  for (auto [arg, name] : llvm::zip(block->getArguments(), names))
    arg.setLoc(monoid::named(arg.getLoc(), name));
}

/// The free axes of the map: batch, head, query row.
void nameIvs(ValueRange ivs) {
  const char *names[] = {"b", "h", "i"};
  for (auto [iv, name] : llvm::zip(ivs, names))
    cast<BlockArgument>(iv).setLoc(monoid::named(iv.getLoc(), name));
}

/// Builder state shared by the attention and row-reduction bodies.
struct Emitter {
  OpBuilder &b;
  Location loc;
  const Problem &p;
  Type f32;

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f(double v) { return arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(v)); }
  /// Extent `d` of memref `m`: a constant when static, memref.dim otherwise.
  Value extent(Value m, unsigned d) {
    auto t = cast<MemRefType>(m.getType());
    if (!t.isDynamicDim(d))
      return idx(t.getDimSize(d));
    return memref::DimOp::create(b, loc, m, d);
  }
  Value toF32(Value v) {
    return v.getType() == f32 ? v : arith::ExtFOp::create(b, loc, f32, v).getResult();
  }
  Value indexToF32(Value i) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), i);
    return arith::SIToFPOp::create(b, loc, f32, i64);
  }
};

/// The score modifiers and the mask, in the order of Problem.h:
/// scale, softcap, ALiBi, bias, then causal / window masking to -inf.
/// `len` (a paged cache): the sequence's keys, j < len.
Value modifyScore(Emitter &e, Value s, Value b, Value h, Value i, Value j, Value offset,
                  Value bias, Value len) {
  OpBuilder &bld = e.b;
  Location loc = e.loc;
  const Problem &p = e.p;
  s = arith::MulFOp::create(bld, monoid::named(loc, "s"), s, e.f(p.effectiveScale()));
  if (p.softcap) {
    Value c = e.f(*p.softcap);
    Value t = math::TanhOp::create(bld, loc, arith::DivFOp::create(bld, loc, s, c));
    s = arith::MulFOp::create(bld, loc, c, t);
  }
  // The query's diagonal in key coordinates (bottom-right alignment), for the
  // modifiers that need it.
  Value diag;
  if (p.alibi || p.causal || p.window)
    diag = arith::AddIOp::create(bld, monoid::named(loc, "diag"), i, offset);
  if (p.alibi) {
    Value hf = e.indexToF32(h);
    Value expo = arith::MulFOp::create(bld, loc, e.f(-8.0 / double(p.heads_q)),
                                       arith::AddFOp::create(bld, loc, hf, e.f(1.0)));
    Value slope = math::Exp2Op::create(bld, loc, expo);
    Value dist = math::AbsFOp::create(bld, loc,
                                      e.indexToF32(arith::SubIOp::create(bld, loc, diag, j)));
    s = arith::SubFOp::create(bld, loc, s, arith::MulFOp::create(bld, loc, slope, dist));
  }
  if (p.bias) {
    Value bb = p.bias_batch_broadcast ? e.idx(0) : b;
    Value bh = p.bias_head_broadcast ? e.idx(0) : h;
    Value x = memref::LoadOp::create(bld, monoid::named(loc, "bias_ij"), bias, ValueRange{bb, bh, i, j});
    s = arith::AddFOp::create(bld, loc, s, e.toF32(x));
  }
  Value visible;
  auto andWith = [&](Value c) {
    visible = visible ? arith::AndIOp::create(bld, loc, visible, c).getResult() : c;
  };
  using P = arith::CmpIPredicate;
  if (len)
    andWith(arith::CmpIOp::create(bld, loc, P::slt, j, len));
  if (p.causal)
    andWith(arith::CmpIOp::create(bld, loc, P::sle, j, diag));
  if (p.window) {
    Value w = e.idx(*p.window);
    andWith(arith::CmpIOp::create(bld, loc, P::sge, j, arith::SubIOp::create(bld, loc, diag, w)));
    if (!p.causal)
      andWith(arith::CmpIOp::create(bld, loc, P::sle, j, arith::AddIOp::create(bld, loc, diag, w)));
  }
  if (visible)
    s = arith::SelectOp::create(bld, monoid::named(loc, "s"), visible, s,
                                e.f(-std::numeric_limits<double>::infinity()));
  return s;
}

void buildAttention(OpBuilder &b, func::FuncOp fn, const Problem &p, monoid::ScheduleAttr sched) {
  Location loc = fn.getLoc();
  Emitter e{b, loc, p, b.getF32Type()};
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  unsigned a = 0;
  Value q = entry->getArgument(a++), k = entry->getArgument(a++), v = entry->getArgument(a++);
  Value bias = p.bias ? entry->getArgument(a++) : Value();
  Value table = p.paged() ? entry->getArgument(a++) : Value();
  Value lens = p.paged() ? entry->getArgument(a++) : Value();
  Value cuQ = p.varlen ? entry->getArgument(a++) : Value();
  Value cuK = p.varlen && !p.paged() ? entry->getArgument(a++) : Value();
  Value usedQ = p.seqused ? entry->getArgument(a++) : Value();
  Value usedK = p.seqused && !p.paged() ? entry->getArgument(a++) : Value();
  Value o = entry->getArgument(a++), lse = entry->getArgument(a++);
  nameArgs(entry, argRoles(p));

  Value c0 = e.idx(0), c1 = e.idx(1);
  // Varlen: the batch and the longest query length are the LSE's extents
  // ([B, Hq, seq_q]); Q and O are packed.
  Value batch = p.varlen ? e.extent(lse, 0) : e.extent(q, 0), heads = e.idx(p.heads_q),
        sq = p.varlen ? e.extent(lse, 2) : e.extent(q, 2);
  // A paged cache holds max_pages * page_size keys a sequence (the capacity:
  // the fold's range, clipped to the sequence's length by the mask below).
  // Varlen: each sequence's own (below).
  Value sk = p.paged() ? arith::MulIOp::create(b, monoid::named(loc, "capacity"), e.extent(table, 1),
                                               e.idx(p.page_size)).getResult()
             : p.varlen ? Value()
                        : e.extent(k, 2);
  Value offset = p.paged() || p.varlen
                     ? Value()
                     : arith::SubIOp::create(b, monoid::named(loc, "sk_minus_sq"), sk, sq).getResult();
  // The last slot of the block table and the last page of the cache.
  Value lastSlot, lastPage;
  if (p.paged()) {
    lastSlot = arith::SubIOp::create(b, monoid::named(loc, "last_slot"), e.extent(table, 1), c1);
    lastPage = arith::SubIOp::create(b, monoid::named(loc, "last_page"), e.extent(k, 0), c1);
  }
  auto carrier = monoid::getSoftmaxWeightedSumCarrier(b.getContext());
  auto vecF32 = VectorType::get({p.head_dim}, e.f32);
  auto vecIn = VectorType::get({p.head_dim}, elementType(b.getContext(), p.dtype));

  scf::ParallelOp::create(b, loc, ValueRange{c0, c0, c0}, ValueRange{batch, heads, sq},
                          ValueRange{c1, c1, c1}, [&](OpBuilder &, Location, ValueRange iv) {
    nameIvs(iv);
    Value bi = iv[0], h = iv[1], i = iv[2];
    // Varlen: sequence b's rows of the packed tensors as views of its own
    // length (Q and O [len_q, Hq * D], K and V [len_k, Hkv * D], the LSE's
    // [Hq, len_q]); below, everything indexes the views as it indexes
    // separate tensors, and a tile's rows past the sequence are outside its
    // view (read as 0, not written). The fold runs over the sequence's keys.
    // A paged cache: the sequence's keys (the lift masks j >= len, which
    // attncc-clip-identity turns into the fold's range), and the diagonal's
    // offset from them (and from the sequence's rows in a varlen batch).
    Value len;
    if (p.paged()) {
      len = arith::IndexCastUIOp::create(b, monoid::named(loc, "kv_len"), b.getIndexType(),
                                         memref::LoadOp::create(b, loc, lens, ValueRange{bi}));
      if (!p.varlen)
        offset = arith::SubIOp::create(b, monoid::named(loc, "len_minus_sq"), len, sq);
    }
    Value qs = q, ks = k, vs = v, os = o, lses = lse;
    Value lenQ, guard;
    if (p.varlen) {
      auto cu = [&](Value cuArg, Value at, const char *name) -> Value {
        Value x = memref::LoadOp::create(b, loc, cuArg, ValueRange{at});
        return arith::IndexCastUIOp::create(b, monoid::named(loc, name), b.getIndexType(), x);
      };
      Value next = arith::AddIOp::create(b, loc, bi, c1);
      Value q0 = cu(cuQ, bi, "seq_q0");
      // seqused: the rows (keys) a sequence uses, the start of its span;
      // the rest of the span is a gap outside its views.
      lenQ = usedQ ? cu(usedQ, bi, "len_q")
                   : arith::SubIOp::create(b, monoid::named(loc, "len_q"), cu(cuQ, next, "seq_q1"), q0).getResult();
      auto rows = [&](Value m, Value start, Value len, const char *name) -> Value {
        auto mt = cast<MemRefType>(m.getType());
        SmallVector<OpFoldResult> offs{start, b.getIndexAttr(0)},
            sizes{len, b.getIndexAttr(mt.getDimSize(1))}, strides(2, b.getIndexAttr(1));
        return memref::SubViewOp::create(b, monoid::named(loc, name), m, offs, sizes, strides);
      };
      // Keys packed (cu_seqlens_k), or a paged cache's (kv_lens, above).
      if (!p.paged()) {
        Value k0 = cu(cuK, bi, "seq_k0");
        sk = usedK ? cu(usedK, bi, "len_k")
                   : arith::SubIOp::create(b, monoid::named(loc, "len_k"), cu(cuK, next, "seq_k1"), k0).getResult();
        ks = rows(k, k0, sk, "k_seq");
        vs = rows(v, k0, sk, "v_seq");
      }
      offset = arith::SubIOp::create(b, monoid::named(loc, "len_k_minus_len_q"), p.paged() ? len : sk, lenQ);
      qs = rows(q, q0, lenQ, "q_seq");
      os = rows(o, q0, lenQ, "o_seq");
      // The LSE [B, Hq, seq_q]: sequence b's [Hq, len_q].
      auto lt = cast<MemRefType>(lse.getType());
      SmallVector<OpFoldResult> offs{bi, b.getIndexAttr(0), b.getIndexAttr(0)},
          sizes{b.getIndexAttr(1), b.getIndexAttr(p.heads_q), lenQ}, strides(3, b.getIndexAttr(1));
      auto viewT = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
          {p.heads_q, ShapedType::kDynamic}, lt, offs, sizes, strides));
      lses = memref::SubViewOp::create(b, monoid::named(loc, "lse_seq"), viewT, lse, offs, sizes, strides);
      // Rows past the sequence's length do nothing. The views' extents say
      // the same to a tile's reads and writes (attncc-partition drops the
      // guard); rows computed one at a time need it.
      guard = arith::CmpIOp::create(b, monoid::named(loc, "row_in_seq"), arith::CmpIPredicate::slt, i, lenQ);
    }
    std::optional<OpBuilder::InsertionGuard> inGuard;
    if (guard) {
      auto ifOp = scf::IfOp::create(b, loc, guard, /*withElseRegion=*/false);
      ifOp->setAttr("attncc.row_guard", b.getUnitAttr());
      inGuard.emplace(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    }
    auto red = monoid::ReduceOp::create(b, monoid::named(loc, "state"), reduceAxisName(p.kind), c0,
                                        sk, carrier, sched, TypeRange{e.f32, e.f32, vecF32});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&red.getLiftBlock());
      Value j = red.getIndex();
      j.setLoc(monoid::named(loc, "kv"));
      Value hk = p.group() == 1 ? h
                                : arith::DivUIOp::create(b, monoid::named(loc, "hkv"), h,
                                                         e.idx(p.group())).getResult();
      // Where key j lies: [b, hk, j] of K and V, or with a paged cache row
      // j mod P of page = block_table[b, j / P] (below: NHD [page, row, hk * D],
      // HND [page, hk, row]). The two clamps
      // change no key that is read into the result (j < kv_lens[b] names a
      // slot below max_pages, whose page checkPagedInputs checked); they keep
      // a block read past a sequence's end (a pipeline's prefetch) inside
      // the table and the cache.
      Value kb = bi, kj = j;
      if (p.paged()) {
        Value cP = e.idx(p.page_size);
        // attncc.page marks j / P and j mod P as a paged cache's indices
        // (attncc-partition reads a block of keys from one page).
        auto jDiv = arith::DivUIOp::create(b, loc, j, cP);
        jDiv->setAttr("attncc.page", b.getUnitAttr());
        Value slot = arith::MinUIOp::create(b, monoid::named(loc, "slot"), jDiv, lastSlot);
        Value pageEntry = memref::LoadOp::create(b, monoid::named(loc, "page_entry"), table, ValueRange{bi, slot});
        kb = arith::MinUIOp::create(
            b, monoid::named(loc, "page"), arith::IndexCastUIOp::create(b, loc, b.getIndexType(), pageEntry),
            lastPage);
        auto jRem = arith::RemUIOp::create(b, monoid::named(loc, "page_row"), j, cP);
        jRem->setAttr("attncc.page", b.getUnitAttr());
        kj = jRem;
      }
      // Varlen: the sequence's rows [len, H * D], head h's row at column h * D.
      SmallVector<Value> qIdx{bi, h, i, c0};
      if (p.varlen)
        qIdx = {i, arith::MulIOp::create(b, monoid::named(loc, "q_col"), h, e.idx(p.head_dim))};
      Value qr = vector::LoadOp::create(b, monoid::named(loc, "q_i"), vecIn, qs, qIdx);
      // NHD: the cache [pages, P, Hkv * D], head hk's row at column hk * D.
      SmallVector<Value> kvIdx{kb, hk, kj, c0};
      if (p.paged() && !p.kv_hnd)
        kvIdx = {kb, kj, arith::MulIOp::create(b, monoid::named(loc, "head_col"), hk, e.idx(p.head_dim))};
      if (p.varlen && !p.paged())
        kvIdx = {j, arith::MulIOp::create(b, monoid::named(loc, "head_col"), hk, e.idx(p.head_dim))};
      Value kr = vector::LoadOp::create(b, monoid::named(loc, "k_j"), vecIn, ks, kvIdx);
      Value s = monoid::ContractOp::create(b, monoid::named(loc, "qk"), e.f32, qr, kr);
      s = modifyScore(e, s, bi, h, i, j, offset, bias, len);
      Value vr = vector::LoadOp::create(b, monoid::named(loc, "v_j"), vecIn, vs, kvIdx);
      Value vf = vecIn == vecF32 ? vr
                                 : arith::ExtFOp::create(b, monoid::named(loc, "v_j_f32"), vecF32, vr).getResult();
      monoid::YieldOp::create(b, loc, ValueRange{s, e.f(1.0), vf});
    }
    // o / d (0 for a fully masked row, where d = 0) and lse = m + log d.
    auto proj = monoid::ProjectOp::create(b, monoid::named(loc, "result"), TypeRange{vecF32, e.f32},
                                          red.getResults(), carrier);
    {
      OpBuilder::InsertionGuard g(b);
      Block *body = b.createBlock(&proj.getBody(), {}, TypeRange{e.f32, e.f32, vecF32},
                                  {loc, loc, loc});
      nameArgs(body, {"m", "d", "o"});
      Value m = body->getArgument(0), d = body->getArgument(1), acc = body->getArgument(2);
      Value empty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, d, e.f(0.0));
      // o * (1 / d): one division per row, then a product per element (the
      // row's elements share d; a division each costs ten instructions).
      Value rd = arith::DivFOp::create(b, monoid::named(loc, "inv_d"), e.f(1.0), d);
      Value dv = vector::BroadcastOp::create(b, loc, vecF32, rd);
      Value ratio = arith::MulFOp::create(b, loc, acc, dv);
      Value zeros = arith::ConstantOp::create(
          b, loc, vecF32, DenseElementsAttr::get(vecF32, b.getF32FloatAttr(0.0f)));
      Value out = arith::SelectOp::create(b, monoid::named(loc, "out"), empty, zeros, ratio);
      Value l = arith::AddFOp::create(b, monoid::named(loc, "lse_i"), m, math::LogOp::create(b, loc, d));
      monoid::YieldOp::create(b, loc, ValueRange{out, l});
    }
    Value out = proj.getResult(0);
    if (vecIn != vecF32)
      out = arith::TruncFOp::create(b, loc, vecIn, out);
    if (p.varlen) {
      vector::StoreOp::create(b, loc, out, os, ValueRange{i, arith::MulIOp::create(b, loc, h, e.idx(p.head_dim))});
      memref::StoreOp::create(b, loc, proj.getResult(1), lses, ValueRange{h, i});
    } else {
      vector::StoreOp::create(b, loc, out, os, ValueRange{bi, h, i, c0});
      memref::StoreOp::create(b, loc, proj.getResult(1), lses, ValueRange{bi, h, i});
    }
  });
  func::ReturnOp::create(b, loc);
}

void buildRowReduction(OpBuilder &b, func::FuncOp fn, const Problem &p,
                       monoid::ScheduleAttr sched) {
  Location loc = fn.getLoc();
  Emitter e{b, loc, p, b.getF32Type()};
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value x = entry->getArgument(0), out = entry->getArgument(1);
  nameArgs(entry, {"x", "out"});
  Value c0 = e.idx(0), c1 = e.idx(1);
  Value batch = e.extent(x, 0), heads = e.idx(p.heads_q), rows = e.extent(x, 2),
        n = e.extent(x, 3);
  bool lse = p.kind == ProblemKind::LogSumExp;
  auto carrier = lse ? monoid::getLogSumExpCarrier(b.getContext())
                     : monoid::getSumCarrier(b.getContext());
  SmallVector<Type> state(carrier.size(), e.f32);

  scf::ParallelOp::create(b, loc, ValueRange{c0, c0, c0}, ValueRange{batch, heads, rows},
                          ValueRange{c1, c1, c1}, [&](OpBuilder &, Location, ValueRange iv) {
    nameIvs(iv);
    auto red = monoid::ReduceOp::create(b, monoid::named(loc, "state"), reduceAxisName(p.kind), c0, n,
                                        carrier, sched, state);
    red.getIndex().setLoc(monoid::named(loc, "n"));
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&red.getLiftBlock());
      Value xv = memref::LoadOp::create(b, monoid::named(loc, "x_ij"), x,
                                        ValueRange{iv[0], iv[1], iv[2], red.getIndex()});
      Value s = arith::MulFOp::create(b, monoid::named(loc, "s"), e.toF32(xv), e.f(p.effectiveScale()));
      if (lse)
        monoid::YieldOp::create(b, loc, ValueRange{s, e.f(1.0)});
      else
        monoid::YieldOp::create(b, loc, ValueRange{s});
    }
    auto proj = monoid::ProjectOp::create(b, monoid::named(loc, "result"), TypeRange{e.f32},
                                          red.getResults(), carrier);
    {
      OpBuilder::InsertionGuard g(b);
      Block *body = b.createBlock(&proj.getBody(), {}, state,
                                  SmallVector<Location>(state.size(), loc));
      nameArgs(body, lse ? std::vector<const char *>{"m", "d"} : std::vector<const char *>{"s"});
      Value r = body->getArgument(0);
      if (lse) // m + log d
        r = arith::AddFOp::create(b, loc, r, math::LogOp::create(b, loc, body->getArgument(1)));
      monoid::YieldOp::create(b, loc, ValueRange{r});
    }
    memref::StoreOp::create(b, loc, proj.getResult(0), out, ValueRange{iv[0], iv[1], iv[2]});
  });
  func::ReturnOp::create(b, loc);
}

} // namespace

OwningOpRef<ModuleOp> buildModule(MLIRContext &ctx, const Problem &p, const Schedule &schedule) {
  ctx.loadDialect<arith::ArithDialect, func::FuncDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, vector::VectorDialect,
                  monoid::MonoidDialect>();
  OpBuilder b(&ctx);
  Location loc = FileLineColLoc::get(&ctx, std::string("<") + entryName(p.kind) + " spec>", 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());

  Type el = elementType(&ctx, p.dtype), f32 = b.getF32Type();
  int64_t B = dim(p.batch), Sq = dim(p.seq_q), Sk = dim(p.seq_k);
  SmallVector<Type> args;
  if (p.kind == ProblemKind::Attention) {
    // Varlen: q and o packed [total_q, Hq * D], k and v [total_k, Hkv * D]
    // (the bytes of [total, H, D]; one kernel for every total), the
    // cumulative lengths [B + 1] and the LSE [B, Hq, seq_q].
    int64_t B1 = p.batch.symbolic ? ShapedType::kDynamic : B + 1;
    auto packed = [&](bool keys) {
      std::vector<int64_t> s = p.packedShape(keys, 0);
      return MemRefType::get({ShapedType::kDynamic, s[1]}, el);
    };
    Type qo = p.varlen ? Type(packed(false)) : Type(MemRefType::get({B, p.heads_q, Sq, p.head_dim}, el));
    args.push_back(qo); // q
    // k, v: [B, Hkv, Sk, D], or a paged cache (Problem::cacheShape; one
    // kernel for every number of pages). NHD's [pages, P, Hkv * D] makes a
    // head's rows a 2-d block of the last two dimensions, which the tile
    // reads and TMA boxes take.
    SmallVector<int64_t> kv{B, p.heads_kv, Sk, p.head_dim};
    if (p.paged()) {
      std::vector<int64_t> cache = p.cacheShape();
      kv.assign(cache.begin(), cache.end());
      kv[0] = ShapedType::kDynamic;
    }
    Type kvT = p.varlen && !p.paged() ? Type(packed(true)) : Type(MemRefType::get(kv, el));
    args.push_back(kvT); // k
    args.push_back(kvT); // v
    if (p.bias)
      args.push_back(MemRefType::get({p.bias_batch_broadcast ? 1 : B,
                                      p.bias_head_broadcast ? 1 : p.heads_q, Sq, Sk},
                                     el));
    if (p.paged()) {
      Type i32 = b.getI32Type();
      int64_t maxPages = p.seq_k.symbolic ? ShapedType::kDynamic : p.maxPages();
      args.push_back(MemRefType::get({B, maxPages}, i32)); // block_table
      args.push_back(MemRefType::get({B}, i32));           // kv_lens
    }
    if (p.varlen) {
      args.push_back(MemRefType::get({B1}, b.getI32Type())); // cu_seqlens_q
      if (!p.paged())
        args.push_back(MemRefType::get({B1}, b.getI32Type())); // cu_seqlens_k
    }
    if (p.seqused) {
      args.push_back(MemRefType::get({B}, b.getI32Type())); // seqused_q
      if (!p.paged())
        args.push_back(MemRefType::get({B}, b.getI32Type())); // seqused_k
    }
    args.push_back(qo);                                       // o
    args.push_back(MemRefType::get({B, p.heads_q, Sq}, f32)); // lse
  } else {
    args.push_back(MemRefType::get({B, p.heads_q, Sq, Sk}, el)); // x
    args.push_back(MemRefType::get({B, p.heads_q, Sq}, f32));    // out
  }
  auto fn = func::FuncOp::create(b, loc, entryName(p.kind), b.getFunctionType(args, {}));
  fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  // Each argument's role, for the launch contract of the GPU path.
  std::vector<const char *> roles = argRoles(p);
  // And what each dimension is, so that a launch contract can name symbolic
  // sizes by the problem field they come from.
  auto dimsOf = [&](StringRef role) -> SmallVector<StringRef> {
    if ((role == "q" || role == "o") && p.varlen)
      return {"total_q", "heads_q_x_head_dim"};
    if ((role == "k" || role == "v") && p.varlen && !p.paged())
      return {"total_k", "heads_kv_x_head_dim"};
    if (role == "cu_seqlens_q" || role == "cu_seqlens_k")
      return {"batch_plus_1"};
    if (role == "q" || role == "o")
      return {"batch", "heads_q", "seq_q", "head_dim"};
    if ((role == "k" || role == "v") && p.paged() && p.kv_hnd)
      return {"num_pages", "heads_kv", "page_size", "head_dim"};
    if ((role == "k" || role == "v") && p.paged())
      return {"num_pages", "page_size", "heads_kv_x_head_dim"};
    if (role == "k" || role == "v")
      return {"batch", "heads_kv", "seq_k", "head_dim"};
    if (role == "block_table")
      return {"batch", "max_pages"};
    if (role == "kv_lens" || role == "seqused_q" || role == "seqused_k")
      return {"batch"};
    if (role == "bias")
      return {p.bias_batch_broadcast ? "1" : "batch", p.bias_head_broadcast ? "1" : "heads_q",
              "seq_q", "seq_k"};
    if (role == "x")
      return {"batch", "heads_q", "seq_q", "seq_k"};
    return {"batch", "heads_q", "seq_q"}; // lse, out
  };
  for (auto [i, role] : llvm::enumerate(roles)) {
    fn.setArgAttr(i, monoid::kRoleAttr, b.getStringAttr(role));
    SmallVector<Attribute> dims;
    for (StringRef d : dimsOf(role))
      dims.push_back(b.getStringAttr(d));
    fn.setArgAttr(i, monoid::kDimsAttr, b.getArrayAttr(dims));
  }
  auto sched = schedule.empty() ? monoid::ScheduleAttr() : monoid::ScheduleAttr::get(&ctx, schedule);
  if (p.kind == ProblemKind::Attention)
    buildAttention(b, fn, p, sched);
  else
    buildRowReduction(b, fn, p, sched);
  return module;
}

} // namespace attncc
