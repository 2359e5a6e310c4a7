//===- Atomize.cpp - attncc-atomize (CTA-wide vectors onto mma.sync) ------===//
//
// Pre:  outlined kernels (gpu.func with known_block_size) whose body holds
//       CTA-wide 2-D vector ops from attncc-partition: vector.contract of an
//       M-row tile, multi_reduction over its rows, broadcasts, elementwise.
// Post: every vector value of such a kernel carries the layout that says
//       which thread holds which element (attncc.layout on its op,
//       attncc.layouts on an scf.for for its iter_args), each contraction is
//       marked attncc.atom = "mma.m16n8k16", and the kernel records
//       attncc.tile = {warps = W, rows = M}. attncc-allocate-smem then places
//       the staged blocks in shared memory.
//
// Layouts (warp w owns rows [w*FM*16, (w+1)*FM*16), FM = M / (16 W); a lane
// is (g, t) = (lane / 4, lane % 4), as in the PTX fragment figures):
//   c      [M x N] accumulator fragments: (row g|g+8, cols 2t, 2t+1) per 16x8
//   row    [M] or [M x 1]: the rows of c a thread holds (shared by 4 lanes)
//   col    [N] or [1 x N]: the columns of c a thread holds (shared by rows)
//   a      [M x K] A-operand fragments of m16n8k16, read straight from memory
//   b.nk / b.kn  [N x K] / [K x N] B-operand fragments, read straight from
//                memory (no STAGE)
//   smem   a block staged in shared memory (marked by attncc-stage), read by
//          the contraction with ldmatrix (mma) or through descriptors (wgmma)
// A contraction's left operand may also be in c: a C fragment pair is an A
// fragment (P = softmax(S) feeds P*V from registers).
//
// wgmma (contractions partition marked attncc.family = "wgmma"): warpgroup
// j issues m64nNk16 for rows [64j, 64j + 64); its accumulator fragment is
// the c layout above with FM = 1 (warp w owns rows [16w, 16w + 16)), and its
// register A fragment is the mma.sync one, so the layouts do not change;
// only the operands in shared memory must be swizzled (attncc.stage ".swz").
//
// tcgen05 (attncc.family = "tcgen05"): one thread issues m128nNk16 for
// each warpgroup's 128 rows (one Q tile; w8x1 has two) into tensor memory,
// and warp w reads lanes [32(w % 4), +32) of its Q tile's columns back
// (tcgen05.ld.32x32b: the quarter rule), so thread t holds row t whole. The layouts are rowthread (a tile), rowthread.row (its row
// vector: one element) and rowthread.col (a column vector: all of it) in
// place of c, row and col; the row reductions need no shuffles. Both
// operands of Q*K^T and V come from swizzled shared memory; P stays in
// rowthread and attncc-lower-tcgen05 writes it into tensor memory. With 64
// rows a warpgroup (TILE@kv=a:tcgen05_m64n<N>k16_*) the atom is m64nNk16,
// whose rows sit in tensor memory as the ISA's layout F: rows [16w, 16w + 16)
// in lanes [32w, 32w + 16). The same tcgen05.ld.32x32b gives warp w's lanes
// 0-15 those rows and lanes 16-31 lanes no product writes: layouts rowhalf
// and rowhalf.row (MonoidAttrs.td), beside the same rowthread.col.
//
// quad (ROWSUM=end, attncc-defer-rowsum): an [M x 4] tile whose element
// (r, t) is lane t's share of row r, the sum of the columns it holds in c.
// A row reduction of a c tile cast to [M, N/8, 4, 2] over dims 1 and 3 gives
// it, a row broadcast to [M x 4] scales it, and a row reduction of it is the
// row (the only one with shuffles).
// Assignment is unification: a contraction fixes its result, accumulator and
// operands; elementwise ops, scf.for iter_args and shape casts give their
// values one layout; a row reduction maps c to row; a broadcast maps row or
// col to c. Splat constants and scalar broadcasts are layout-free. A
// vector.step with several users is first cloned per user (CSE may have
// merged the row and the key index vectors into one). A value
// left without a layout, or asked for two, is an error naming it. A loop
// marked attncc.per_thread (attncc-map-to-gpu's inner map: the combine of
// REDUCE@<axis>=g<n>a in the last CTA) holds a thread's own vectors and is
// left alone.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidDialect.h"
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "attncc-atomize"

namespace mlir::attncc {
#define GEN_PASS_DEF_ATOMIZE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

bool isFree(Value v) {
  if (!isa<VectorType>(v.getType()))
    return true;
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    return isa<SplatElementsAttr>(c.getValue());
  if (auto b = v.getDefiningOp<vector::BroadcastOp>())
    return !isa<VectorType>(b.getSource().getType());
  return false;
}

using monoid::stagedRead;

class Assigner {
public:
  /// The accumulator, row and column layouts: c / row / col for mma.sync
  /// and wgmma, rowthread / rowthread.row / rowthread.col for tcgen05
  /// (rowhalf / rowhalf.row / rowthread.col for its m64 atom).
  std::string acc = "c", row = "row", col = "col";
  DenseMap<Value, std::string> layout;
  bool changed = false;
  LogicalResult status = success();

  void set(Value v, StringRef l, Operation *why) {
    if (isFree(v) || failed(status))
      return;
    auto it = layout.find(v);
    if (it == layout.end()) {
      layout[v] = l.str();
      changed = true;
    } else if (it->second != l) {
      status = why->emitOpError("attncc-atomize: a value needs two layouts, '")
               << it->second << "' and '" << l << "'";
    }
  }
  /// Gives all of `vals` one layout if any of them has one.
  void unify(ArrayRef<Value> vals, Operation *why) {
    std::string known;
    for (Value v : vals)
      if (auto it = layout.find(v); it != layout.end() && !isFree(v)) {
        known = it->second;
        break;
      }
    if (!known.empty())
      for (Value v : vals)
        set(v, known, why);
  }
  std::string of(Value v) {
    auto it = layout.find(v);
    return it == layout.end() ? "" : it->second;
  }

  void visit(Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](vector::ContractionOp c) {
          set(c.getResult(), acc, c);
          set(c.getAcc(), acc, c);
          auto lr = c.getLhs().getDefiningOp<vector::TransferReadOp>();
          set(c.getLhs(), lr && !monoid::isStaged(lr) ? "a" : (lr ? "smem" : acc), c);
          bool kn = monoid::rightIsKN(c);
          if (stagedRead(c.getRhs()))
            set(c.getRhs(), "smem", c);
          else
            set(c.getRhs(), kn ? "b.kn" : "b.nk", c);
        })
        .Case([&](vector::MultiDimReductionOp r) {
          // ROWSUM=end (attncc-defer-rowsum): a c tile seen as [M, N/8, 4, 2]
          // summed over its n8 tiles and pairs is each lane's partial of its
          // rows ([M x 4], quad); the quad's sum over its 4 lanes is a row.
          VectorType src = r.getSourceVectorType();
          bool lanes = acc == "c" && src.getRank() == 4;
          bool quads = acc == "c" && src.getRank() == 2 && src.getDimSize(1) == 4;
          set(r.getSource(), quads ? "quad" : acc, r);
          set(r.getResult(), lanes ? "quad" : row, r);
          set(r.getAcc(), lanes ? "quad" : row, r);
        })
        .Case([&](vector::ShapeCastOp s) { unify({s.getSource(), s.getResult()}, s); })
        .Case([&](vector::BroadcastOp b) {
          auto src = dyn_cast<VectorType>(b.getSource().getType());
          if (!src)
            return;
          auto dst = cast<VectorType>(b.getResult().getType());
          bool quad = acc == "c" && dst.getRank() == 2 && dst.getDimSize(1) == 4; // a row to its lanes' partials
          set(b.getResult(), quad ? "quad" : acc, b);
          bool rowVec = src.getRank() == 2 && src.getDimSize(1) == 1;
          set(b.getSource(), rowVec ? row : col, b);
        })
        .Case([&](scf::ForOp f) {
          auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
          for (unsigned i = 0; i < f.getNumRegionIterArgs(); ++i)
            unify({f.getInitArgs()[i], f.getRegionIterArgs()[i], yield.getOperand(i),
                   f.getResult(i)},
                  f);
        })
        .Case([&](scf::IfOp i) {
          for (unsigned n = 0; n < i.getNumResults(); ++n)
            unify({i.getResult(n), i.thenYield().getOperand(n), i.elseYield().getOperand(n)}, i);
        })
        .Default([&](Operation *o) {
          if (!isa<arith::ArithDialect, math::MathDialect>(o->getDialect()))
            return;
          SmallVector<Value> vals;
          for (Value v : o->getOperands())
            if (isa<VectorType>(v.getType()))
              vals.push_back(v);
          for (Value v : o->getResults())
            if (isa<VectorType>(v.getType()))
              vals.push_back(v);
          unify(vals, o);
        });
  }
};

struct AtomizePass : mlir::attncc::impl::AtomizeBase<AtomizePass> {
  LogicalResult atomize(gpu::GPUFuncOp f) {
    bool tiled = false;
    f.walk([&](vector::ContractionOp) { tiled = true; });
    if (!tiled)
      return success();
    auto block = f.getKnownBlockSizeAttr();
    if (!block)
      return f.emitOpError("attncc-atomize needs known_block_size");
    int64_t threads = int64_t(block[0]) * block[1] * block[2];
    if (threads % 32)
      return f.emitOpError("attncc-atomize: ") << threads << " threads is not whole warps";
    int64_t warps = threads / 32, rows = 0, producers = 0, mmaWarps = 0, idleWarps = 0, corrWarps = 0;
    bool wgmma = false, tcgen05 = false;
    int64_t tcgen05M = 128; // the tcgen05 atom's M (64 with 64 rows a warpgroup)
    // WSPEC's warps past those that own rows (attncc-partition's count,
    // which attncc-map-to-gpu hands to the kernel as attncc.warp_roles):
    // the TMA producer(s) (load1, load4), with tcgen05 the warp that issues
    // the products (mma1, attncc-mma-role), and with two tcgen05 Q tiles two
    // idle warps that complete their warpgroup (for setmaxnreg).
    if (auto roles = f->getAttrOfType<DictionaryAttr>("attncc.warp_roles")) {
      auto count = [&](StringRef k) {
        auto a = roles.getAs<IntegerAttr>(k);
        return a ? a.getInt() : 0;
      };
      producers = count("load");
      mmaWarps = count("mma");
      idleWarps = count("idle");
      corrWarps = count("corr");
      warps -= producers + mmaWarps + idleWarps + corrWarps;
      if (warps <= 0)
        return f.emitOpError("attncc-atomize: attncc.warp_roles leaves no warps to own rows");
    }

    // Shapes the m16n8k16 atom can tile.
    WalkResult shapes = f.walk([&](vector::ContractionOp c) {
      auto lhs = cast<VectorType>(c.getLhsType());
      auto rhs = cast<VectorType>(c.getRhsType());
      auto acc = dyn_cast<VectorType>(c.getAccType());
      Type le = lhs.getElementType(), re = rhs.getElementType();
      if (!acc || acc.getRank() != 2 || !acc.getElementType().isF32() || le != re ||
          !(le.isF16() || le.isBF16())) {
        c.emitOpError("attncc-atomize: the mma.sync atom contracts f16 or bf16 into f32 tiles");
        return WalkResult::interrupt();
      }
      int64_t m = acc.getDimSize(0), n = acc.getDimSize(1), k = lhs.getDimSize(1);
      if (rows == 0)
        rows = m;
      auto family = c->getAttrOfType<StringAttr>("attncc.family");
      if (family && family.getValue() == "tcgen05") {
        tcgen05 = true;
        // One m128nNk16 product per warpgroup (a Q tile; two with w8x1),
        // issued by one thread; warp w reads lanes [32(w % 4), +32) of
        // tensor memory (the quarter rule) in its Q tile's columns, so each
        // thread holds one row: layout rowthread. With 64 rows a warpgroup
        // the atom is m64nNk16 (layout F: warp w's 16 rows in the first 16
        // of its lanes): layout rowhalf.
        bool m64 = m == 16 * warps;
        if ((warps != 4 && warps != 8) || (m != 32 * warps && !m64) || m != rows || n % (m64 ? 8 : 16) ||
            n > 256 || k % 16) {
          c.emitOpError("attncc-atomize: a ")
              << m << "x" << n << "x" << k << " contraction over " << warps
              << " warps does not divide into tcgen05.m128nNk16 or m64nNk16 atoms (4 or 8 warps, 128 or 64 "
                 "rows a warpgroup, N a multiple of 16 (m64: of 8) up to 256, depth of 16)";
          return WalkResult::interrupt();
        }
        tcgen05M = m64 ? 64 : 128;
        if (!stagedRead(c.getRhs()) || !monoid::isSwizzled(stagedRead(c.getRhs()))) {
          c.emitOpError("attncc-atomize: tcgen05 reads its right operand from shared memory in the "
                        "128-byte swizzled layout; stage it (STAGE@<axis>=.../swz128)");
          return WalkResult::interrupt();
        }
        auto l = stagedRead(c.getLhs());
        if (l && !monoid::isSwizzled(l)) {
          c.emitOpError("attncc-atomize: tcgen05 reads a staged left operand only in the 128-byte "
                        "swizzled layout (swz128)");
          return WalkResult::interrupt();
        }
        if (!l && c.getLhs().getDefiningOp<vector::TransferReadOp>()) {
          c.emitOpError("attncc-atomize: tcgen05 takes its left operand from shared memory or from "
                        "tensor memory (a value the kernel computed); stage this read (STAGE@q=d1/cp/swz128)");
          return WalkResult::interrupt();
        }
        c->setAttr("attncc.atom", StringAttr::get(c.getContext(), "tcgen05.m" + std::to_string(tcgen05M) + "n" +
                                                                      std::to_string(n) + "k16"));
        return WalkResult::advance();
      }
      if (family) {
        wgmma = true;
        // One m64nNk16 per warpgroup and k-step; warp w of the CTA owns rows
        // [16w, 16w + 16), so the accumulator is layout c with FM = 1.
        if (warps % 4 || m != rows || m != 16 * warps || n % 8 || n > 256 || k % 16) {
          c.emitOpError("attncc-atomize: a ")
              << m << "x" << n << "x" << k << " contraction over " << warps
              << " warps does not divide into wgmma.m64nNk16 atoms (whole warpgroups, 64 rows "
                 "each, N a multiple of 8 up to 256, depth of 16)";
          return WalkResult::interrupt();
        }
        if (!stagedRead(c.getRhs()) || !monoid::isSwizzled(stagedRead(c.getRhs()))) {
          c.emitOpError("attncc-atomize: wgmma reads its right operand from shared memory in the "
                        "128-byte swizzled layout; stage it (STAGE@<axis>=.../swz128)");
          return WalkResult::interrupt();
        }
        if (auto l = stagedRead(c.getLhs()); l && !monoid::isSwizzled(l)) {
          c.emitOpError("attncc-atomize: wgmma reads a staged left operand only in the 128-byte "
                        "swizzled layout (swz128)");
          return WalkResult::interrupt();
        }
        c->setAttr("attncc.atom", StringAttr::get(c.getContext(), "wgmma.m64n" + std::to_string(n) + "k16"));
        return WalkResult::advance();
      }
      if (m != rows || m % (16 * warps) || n % 8 || k % 16) {
        c.emitOpError("attncc-atomize: a ")
            << m << "x" << n << "x" << k << " contraction over " << warps
            << " warps does not divide into m16n8k16 atoms (rows a multiple of " << 16 * warps
            << ", columns of 8, depth of 16)";
        return WalkResult::interrupt();
      }
      c->setAttr("attncc.atom", StringAttr::get(c.getContext(), "mma.m16n8k16"));
      return WalkResult::advance();
    });
    if (shapes.wasInterrupted())
      return failure();

    SmallVector<vector::StepOp> steps;
    f.walk([&](vector::StepOp s) { steps.push_back(s); });
    for (vector::StepOp s : steps) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &u : s->getUses())
        uses.push_back(&u);
      for (size_t i = 1; i < uses.size(); ++i) {
        OpBuilder b(s);
        uses[i]->set(b.clone(*s)->getResult(0));
      }
    }

    Assigner as;
    if (tcgen05) {
      as.acc = tcgen05M == 64 ? "rowhalf" : "rowthread";
      as.row = tcgen05M == 64 ? "rowhalf.row" : "rowthread.row";
      as.col = "rowthread.col";
    }
    // A loop of attncc-map-to-gpu's inner maps (attncc.per_thread: the
    // combine of REDUCE@<axis>=g<n>a) holds a thread's own vectors, not the
    // CTA's: they take no layout.
    auto perThread = [](Operation *op) { return isa<scf::ForOp>(op) && op->hasAttr("attncc.per_thread"); };
    do {
      as.changed = false;
      f.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (perThread(op))
          return WalkResult::skip();
        as.visit(op);
        return WalkResult::advance();
      });
      if (failed(as.status))
        return failure();
    } while (as.changed);

    // Every vector value needs a layout; write them down.
    Builder b(f.getContext());
    WalkResult left = f.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (perThread(op))
        return WalkResult::skip();
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        SmallVector<Attribute> ls;
        for (Value a : loop.getRegionIterArgs()) {
          std::optional<monoid::Fragment> l = monoid::fragmentNamed(as.of(a));
          // A scalar iter_arg has no layout: unit in its place.
          ls.push_back(l ? Attribute(monoid::FragmentAttr::get(f.getContext(), *l)) : b.getUnitAttr());
        }
        loop->setAttr("attncc.layouts", b.getArrayAttr(ls));
        return WalkResult::advance();
      }
      if (op->getNumResults() != 1 || isFree(op->getResult(0)))
        return WalkResult::advance();
      std::string l = as.of(op->getResult(0));
      if (l.empty()) {
        op->emitOpError("attncc-atomize: no layout for this CTA-wide vector (it feeds no "
                        "contraction, reduction or broadcast)");
        return WalkResult::interrupt();
      }
      std::optional<monoid::Fragment> kind = monoid::fragmentNamed(l);
      if (!kind) {
        op->emitOpError("attncc-atomize: internal: unknown layout '") << l << "'";
        return WalkResult::interrupt();
      }
      op->setAttr("attncc.layout", monoid::FragmentAttr::get(f.getContext(), *kind));
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      return failure();
    // REPACK=smem (attncc-handoff) hands over a left operand held in C
    // fragments; attncc-allocate-smem gives it its slab.
    WalkResult slabs = f.walk([&](vector::ContractionOp c) {
      if (!c->hasAttr("attncc.handoff"))
        return WalkResult::advance();
      if (as.of(c.getLhs()) != "c" || monoid::isWgmma(c)) {
        c.emitOpError("attncc-atomize: REPACK=smem hands over a left operand held in C "
                      "fragments to mma.sync; this one is '")
            << as.of(c.getLhs()) << "'";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (slabs.wasInterrupted())
      return failure();
    SmallVector<NamedAttribute> tileAttrs{b.getNamedAttr("warps", b.getI64IntegerAttr(warps)),
                                          b.getNamedAttr("rows", b.getI64IntegerAttr(rows))};
    if (producers)
      tileAttrs.push_back(b.getNamedAttr("producers", b.getI64IntegerAttr(producers)));
    if (mmaWarps)
      tileAttrs.push_back(b.getNamedAttr("mma", b.getI64IntegerAttr(mmaWarps)));
    if (idleWarps)
      tileAttrs.push_back(b.getNamedAttr("idle", b.getI64IntegerAttr(idleWarps)));
    if (corrWarps)
      tileAttrs.push_back(b.getNamedAttr("corr", b.getI64IntegerAttr(corrWarps)));
    f->setAttr("attncc.tile", b.getDictionaryAttr(tileAttrs));
    // A tiled CTA is sized to have an SM to itself (its registers and shared
    // memory): NVVM's minimum of CTAs per SM, which the emitter prints in
    // __launch_bounds__.
    f->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
    return success();
  }

  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](gpu::GPUFuncOp f) {
      return failed(atomize(f)) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
