//===- LowerTcgen05.cpp - attncc-lower-tcgen05 (the tcgen05 atom as ops) --===//
//
// Pre:  outlined tiled kernels after attncc-lower-copies whose contractions
//       attncc-atomize put on tcgen05 (attncc.atom = "tcgen05.m128nNk16",
//       four warps, layout rowthread: thread t holds row t; or
//       "tcgen05.m64nNk16", layout rowhalf: the ISA's layout F puts rows
//       [16w, 16w + 16) in the first 16 lanes of warp w's quarter, which
//       the same 32x32b loads and stores reach, and the instruction
//       descriptor says M = 64) and
//       attncc-allocate-tmem gave columns (attncc.tmem_col), the tensor
//       memory's base address (the load marked attncc.tmem_base) and the
//       mbarrier the commits arrive on (the view marked attncc.mma_done).
//       The right operand is a staged block in its 128-byte swizzled slot;
//       the left one is a staged block too (Q: the SS form) or registers in
//       layout rowthread (P, often arith.truncf of the f32 scores: the TS
//       form, A in tensor memory).
// Post: every such contraction is, per thread (warp w of 4 owns lanes
//       [32w, 32w + 32) of tensor memory: %mine = %d + (32w << 16)):
//         [the accumulator is not a zero splat: monoid.to_lanes of it,
//          arith.bitcast to i32, nvvm.tcgen05.st 32x32b at %mine]
//         [TS: P's lanes rounded to 16-bit pairs (arith.truncf, then
//          vector.bitcast to i32), nvvm.tcgen05.st over S's columns]
//         [nvvm.tcgen05.wait <store>]
//         nvvm.tcgen05.fence before / gpu.barrier / fence after: the
//             stores are done and every thread has read the last results
//             (the barrier marked attncc.issue_sync)
//         scf.if thread 0 {attncc.issue}:
//           scf.for %kc (k16 steps) {attncc.unroll}
//             monoid.smem_descriptor {tcgen05} of B (and of A, SS) at kc
//             nvvm.tcgen05.mma %d, %a, %b, %idesc, %accumulate
//           nvvm.tcgen05.commit on the mbarrier
//         nvgpu-free wait: nvvm.mbarrier.try_wait.parity on its phase (a
//             counter in a private alloca), nvvm.tcgen05.fence after
//         nvvm.tcgen05.ld 32x32b at %mine, nvvm.tcgen05.wait <load>,
//         arith.bitcast to f32, monoid.from_lanes: the result tile.
//       The instruction descriptor is isa::encodeInstr's (the one place
//       that builds it); the shared-memory descriptor's constant part is
//       isa::encodeSmemFixed's, printed by the emitter.
//       The fold's running O stays in tensor memory: a P*V product that
//       accumulates into `o * alpha` (arith.mulf), `o` the iter_arg of the
//       scf.for holding it and the product yielded back into `o`, does not
//       store its accumulator or load its result. O is rescaled in its
//       columns (8 at a time: tcgen05.ld, arith.mulf by the thread's
//       factor, tcgen05.st) and the product accumulates into it; the loop
//       yields `o` unchanged (its register copy is dead); before the first
//       such loop O's columns get the loop's initial value, and after the
//       last one O is loaded once, where the loop's result is read (a
//       result that only starts the next such loop, after the mask split,
//       stays in tensor memory). When the fold keeps its maximum lazily
//       (RESCALE=lazy<t>: attncc-lazy-rescale's select, marked
//       attncc.lazy), the rescale is inside
//         scf.if (nvvm.vote.sync any (factor != 1))
//       so a warp whose 32 rows all kept their maximum (factors exactly 1)
//       skips it; the vote, not the thread's own test, because tcgen05.ld
//       and st are warp-wide. With a correction warpgroup (attncc.tile.corr)
//       the rescale is always such a block (its condition `true` unless
//       lazy), marked attncc.o_rescale, and the issue blocks of the product
//       are marked attncc.o_resident: attncc-corr-role moves the block to
//       the correction warps and makes the issue wait for them.
//       Two Q tiles (w8x1: attncc.tile.tmem_qtile, the columns of one Q
//       tile): warp w's lane quarter is w % 4 in the columns of Q tile
//       w / 4 (%mine adds w / 4 * tmem_qtile), and the issue block comes
//       once per Q tile (attncc.qtile = g): D and, in the TS form, P at
//       tile g's columns, in the SS form A from rows [128g, 128g + 128) of
//       the staged Q, committed to tile g's mbarrier (element 2g of the
//       mma_done view); every thread waits on its own tile's.
//       The product is complete when the op is done (the issuing thread's
//       commit, waited for by every thread), so attncc-place-waits treats
//       it like mma.sync: a TMA slot is released right after its reader.
// Refused: a left operand in a layout tcgen05 cannot take, a right one not
//       in shared memory, a kernel without allocate-tmem's ops.
//
//===----------------------------------------------------------------------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"
#include "isa/Tcgen05.h"
#include "passes/AtomUtils.h"
#include "passes/KernelConstants.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseSet.h"

#define DEBUG_TYPE "attncc-lower-tcgen05"

namespace mlir::attncc {
#define GEN_PASS_DEF_LOWERTCGEN05
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

bool isZeroSplat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto s = c ? dyn_cast<SplatElementsAttr>(c.getValue()) : nullptr;
  auto f = s ? dyn_cast<FloatAttr>(s.getSplatValue<Attribute>()) : nullptr;
  return f && f.getValue().isZero() && !f.getValue().isNegative();
}

/// A fold's running O that can stay in tensor memory: the P*V product `c`
/// accumulates into `o * scale` (arith.mulf), where `o` is an iter_arg of
/// the scf.for whose body holds `c`, and `c` is yielded back into `o`.
struct Resident {
  scf::ForOp loop;
  unsigned pos = 0;      // the iter_arg
  arith::MulFOp rescale; // o * scale
  Value scale;           // the rowthread tile of the row factors (alpha)
};
std::optional<Resident> residentO(vector::ContractionOp c) {
  auto mul = c.getAcc().getDefiningOp<arith::MulFOp>();
  auto loop = dyn_cast<scf::ForOp>(c->getParentOp());
  if (!mul || !loop || !mul->hasOneUse() || !c->hasOneUse())
    return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    auto arg = dyn_cast<BlockArgument>(mul->getOperand(k));
    if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
      continue;
    unsigned pos = arg.getArgNumber() - 1;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (yield.getOperand(pos) != c.getResult() || !arg.hasOneUse())
      continue;
    return Resident{loop, pos, mul, mul->getOperand(1 - k)};
  }
  return std::nullopt;
}

class Lowerer {
public:
  Lowerer(gpu::GPUFuncOp f) : f(f), b(f.getContext()), loc(f.getLoc()), consts(f) {}

  LogicalResult run() {
    SmallVector<vector::ContractionOp> todo;
    f.walk([&](vector::ContractionOp c) {
      if (monoid::isTcgen05(c))
        todo.push_back(c);
    });
    if (todo.empty())
      return success();
    f.walk([&](memref::LoadOp l) {
      if (l->hasAttr("attncc.tmem_base"))
        tmem = l.getResult();
    });
    f.walk([&](memref::ViewOp v) {
      if (v->hasAttr("attncc.mma_done"))
        bar = v.getResult();
    });
    if (!tmem || !bar)
      return f.emitOpError("attncc-lower-tcgen05: needs the tensor memory and the mbarrier of attncc-allocate-tmem");
    setUp();
    for (vector::ContractionOp c : todo)
      if (failed(lower(c)))
        return failure();
    finishResident();
    return success();
  }

private:
  gpu::GPUFuncOp f;
  OpBuilder b;
  Location loc;
  mlir::attncc::KernelConstants consts;
  Value tmem, bar, barPtr, quarter, phase, tid0;
  int64_t qTiles = 1, qtileCols = 0; // w8x1: two Q tiles, the second's columns after the first's
  bool corrRole = false;             // WSPEC=.../corr4: O's rescale goes to the correction warps
  int64_t atomM = 128;               // the atom's M: 128, or 64 (layout F, a tile in layout rowhalf)
  monoid::Fragment rowKind = monoid::Fragment::RowThread;
  struct Kept { scf::ForOp loop; unsigned pos; int64_t col; VectorType tile; };
  SmallVector<Kept> kept; // the folds whose O stays in tensor memory

  /// `tile` (rowthread) as the f32 bits of this thread's row at `addr`.
  void storeRow(Value row, Value addr) {
    auto shape = NVVM::Tcgen05LdStShapeAttr::get(b.getContext(), NVVM::Tcgen05LdStShape::SHAPE_32X32B);
    int64_t n = cast<VectorType>(row.getType()).getNumElements();
    Value words = arith::BitcastOp::create(b, loc, VectorType::get({n}, b.getI32Type()), row);
    NVVM::Tcgen05StOp::create(b, loc, /*unpack=*/UnitAttr(), shape, tmemPtr(addr), words, Value{});
  }
  /// This thread's row of `n` f32 at `addr`, loaded and waited for.
  Value loadRow(Value addr, int64_t n) {
    auto shape = NVVM::Tcgen05LdStShapeAttr::get(b.getContext(), NVVM::Tcgen05LdStShape::SHAPE_32X32B);
    Value words = NVVM::Tcgen05LdOp::create(b, loc, VectorType::get({n}, b.getI32Type()), /*pack=*/UnitAttr(), shape,
                                              tmemPtr(addr), Value{});
    NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::LOAD);
    return arith::BitcastOp::create(b, loc, VectorType::get({n}, b.getF32Type()), words);
  }

  /// The running O of a fold in tensor memory: O's columns hold the initial
  /// value before the loop (unless an earlier fold left it there), the loop
  /// carries its register copy unchanged (dead: the CUDA compiler drops it),
  /// and the loop's result is loaded once after it, where it is read.
  void finishResident() {
    // O's columns at this thread's lane quarter, where the builder is.
    auto mineAt = [&](const Kept &k) {
      return arith::AddIOp::create(b, monoid::named(loc, "o_mine"),
                                     Value(arith::AddIOp::create(b, loc, tmem, i32(k.col))), quarter)
          .getResult();
    };
    DenseSet<Operation *> loops;
    for (Kept &k : kept)
      loops.insert(k.loop);
    for (Kept &k : kept) {
      Value init = k.loop.getInitArgs()[k.pos];
      auto prev = init.getDefiningOp<scf::ForOp>();
      if (!(prev && loops.contains(prev))) {
        b.setInsertionPoint(k.loop);
        int64_t n = k.tile.getDimSize(1);
        Value row;
        if (auto cst = init.getDefiningOp<arith::ConstantOp>(); cst && isa<SplatElementsAttr>(cst.getValue()))
          row = arith::ConstantOp::create(b, loc, DenseElementsAttr::get(
                                                     VectorType::get({n}, b.getF32Type()),
                                                     cast<SplatElementsAttr>(cst.getValue()).getSplatValue<Attribute>()));
        else
          row = monoid::ToLanesOp::create(b, monoid::named(loc, "o_init"), VectorType::get({n}, b.getF32Type()), init);
        storeRow(row, mineAt(k));
        NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::STORE);
      }
      Value res = k.loop.getResult(k.pos);
      SmallVector<OpOperand *> uses;
      for (OpOperand &u : res.getUses()) {
        auto next = dyn_cast<scf::ForOp>(u.getOwner());
        bool chained = next && loops.contains(next) && llvm::any_of(kept, [&](const Kept &o) {
                         return o.loop == next && u.getOperandNumber() == next.getNumControlOperands() + o.pos;
                       });
        if (!chained)
          uses.push_back(&u);
      }
      if (uses.empty())
        continue;
      b.setInsertionPointAfter(k.loop);
      Value lanes = loadRow(mineAt(k), k.tile.getDimSize(1));
      auto from = monoid::FromLanesOp::create(b, monoid::named(loc, "o"), k.tile, lanes);
      from->setAttr("attncc.layout", monoid::FragmentAttr::get(b.getContext(), rowKind));
      for (OpOperand *u : uses)
        u->set(from.getResult());
    }
  }

  Value i32(int64_t v) { return consts.i32(v); }
  Value index(int64_t v) { return consts.index(v); }
  Value tmemPtr(Value addr) {
    return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 6), addr);
  }

  /// After the tensor memory's address is known: this warp's lane quarter
  /// (its lanes in bits 31-16), the mbarrier's pointer, the thread that
  /// issues the products, and the count of waits on the mbarrier so far.
  void setUp() {
    b.setInsertionPointAfter(tmem.getDefiningOp());
    Value w = gpu::SubgroupIdOp::create(b, monoid::named(loc, "warp"), /*upperBound=*/nullptr);
    Value w32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), w);
    auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile");
    auto qtile = tile ? tile.getAs<IntegerAttr>("tmem_qtile") : IntegerAttr();
    corrRole = tile && tile.getAs<IntegerAttr>("corr");
    if (!qtile) {
      quarter = arith::ShLIOp::create(b, monoid::named(loc, "quarter"),
                                        Value(arith::MulIOp::create(b, loc, w32, i32(32))), i32(16));
    } else {
      // Two Q tiles (w8x1): warp w reads lane quarter w % 4 in the columns
      // of Q tile w / 4.
      qtileCols = qtile.getInt();
      qTiles = tile.getAs<IntegerAttr>("warps").getInt() / 4;
      Value lanes = arith::ShLIOp::create(b,
          loc, Value(arith::MulIOp::create(b, loc, Value(arith::AndIOp::create(b, loc, w32, i32(3))), i32(32))), i32(16));
      Value cols = arith::MulIOp::create(b, monoid::named(loc, "qtile_cols"),
                                           Value(arith::ShRUIOp::create(b, loc, w32, i32(2))), i32(qtileCols));
      quarter = arith::AddIOp::create(b, monoid::named(loc, "quarter"), lanes, cols);
    }
    barPtr = mlir::attncc::sharedPointer(b, loc, bar, Value(), monoid::named(loc, "mma_done"));
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    tid0 = arith::CmpIOp::create(b, monoid::named(loc, "issuer"), arith::CmpIPredicate::eq, tid, index(0));
    phase = mlir::attncc::privateArray(f, loc, "mma_waits", {}, b.getI32Type());
    memref::StoreOp::create(b, loc, i32(0), phase, ValueRange{});
  }

  std::pair<Value, Value> kStep(Value mem, Value k16) {
    return mlir::attncc::kStepInSlot(b, loc, k16, index(cast<MemRefType>(mem.getType()).getDimSize(2)));
  }
  Value descriptor(Value mem, ValueRange at, int64_t lbo) {
    return mlir::attncc::swizzledDescriptor(b, loc, mem, at, lbo, /*tcgen05=*/true);
  }

  /// This thread's row of `tile` (rowthread) as 32-bit registers at
  /// `addr` (its lane quarter) of tensor memory: f32 as bits, 16-bit
  /// values as rounded pairs.
  void store(Value tile, Value addr, Type et, StringRef name) {
    auto tt = cast<VectorType>(tile.getType());
    int64_t n = tt.getDimSize(1);
    if (et.isF32()) {
      storeRow(monoid::ToLanesOp::create(b, monoid::named(loc, name), VectorType::get({n}, b.getF32Type()), tile), addr);
      return;
    }
    storeWords(packRow(tile, et, name), 0, n / 2, addr);
  }

  /// This thread's row of a 16-bit `tile` (rowthread) rounded into pairs:
  /// one i32 a pair, as tcgen05.st takes it.
  Value packRow(Value tile, Type et, StringRef name) {
    int64_t n = cast<VectorType>(tile.getType()).getDimSize(1);
    Value lanes = monoid::ToLanesOp::create(b, monoid::named(loc, name), VectorType::get({n / 2, 2}, b.getF32Type()),
                                              tile);
    Value pairs = arith::TruncFOp::create(b, monoid::named(loc, name), VectorType::get({n / 2, 2}, et), lanes);
    Value words = vector::BitCastOp::create(b, loc, VectorType::get({n / 2, 1}, b.getI32Type()), pairs);
    return vector::ShapeCastOp::create(b, loc, VectorType::get({n / 2}, b.getI32Type()), words);
  }
  /// Words [from, to) of `words` at columns addr + from, by tcgen05.st of
  /// power-of-two lengths (the op's rule).
  void storeWords(Value words, int64_t from, int64_t to, Value addr) {
    auto shape = NVVM::Tcgen05LdStShapeAttr::get(b.getContext(), NVVM::Tcgen05LdStShape::SHAPE_32X32B);
    int64_t all = cast<VectorType>(words.getType()).getNumElements();
    while (from < to) {
      int64_t len = std::min<int64_t>(128, static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(to - from))));
      Value part = words, at = addr;
      if (len != all) {
        part = vector::ExtractStridedSliceOp::create(b, loc, words, ArrayRef<int64_t>{from}, ArrayRef<int64_t>{len},
                                                       ArrayRef<int64_t>{1});
        at = arith::AddIOp::create(b, loc, addr, i32(from));
      }
      NVVM::Tcgen05StOp::create(b, loc, /*unpack=*/UnitAttr(), shape, tmemPtr(at), part, Value{});
      from += len;
    }
  }

  LogicalResult lower(vector::ContractionOp c) {
    FailureOr<mlir::attncc::AtomShape> form = mlir::attncc::atomShape(c, "tcgen05");
    if (failed(form))
      return failure();
    VectorType accT = form->acc;
    int64_t n = form->n, kc = form->kSteps;
    Type et = form->elem;
    bool kn = form->kn;
    const std::string &ll = form->lhsLayout, &name = form->name;
    bool ts = ll != "smem";
    if (ts && !monoid::isRowPerThread(ll))
      return c.emitOpError("left operand layout '") << ll << "' cannot feed tcgen05 (smem, rowthread or rowhalf)";
    auto atom = c->getAttrOfType<StringAttr>("attncc.atom");
    atomM = atom && atom.getValue().starts_with("tcgen05.m64") ? 64 : 128;
    rowKind = atomM == 64 ? monoid::Fragment::RowHalf : monoid::Fragment::RowThread;
    auto colAttr = c->getAttrOfType<IntegerAttr>("attncc.tmem_col");
    if (!colAttr)
      return c.emitOpError("attncc-lower-tcgen05: the product has no columns (attncc-allocate-tmem)");
    std::string why;
    ::attncc::isa::Tc05Instr in;
    in.m = static_cast<int>(atomM);
    in.n = static_cast<int>(n);
    in.a = in.b = et.isBF16() ? ::attncc::isa::Tc05Elem::BF16 : ::attncc::isa::Tc05Elem::F16;
    in.bMajor = kn ? ::attncc::isa::Tc05Major::MN : ::attncc::isa::Tc05Major::K;
    std::optional<uint32_t> idesc = ::attncc::isa::encodeInstr(in, &why);
    if (!idesc)
      return c.emitOpError("attncc-lower-tcgen05: no instruction descriptor: ") << why;

    b.setInsertionPoint(c);
    Value d = arith::AddIOp::create(b, monoid::named(loc, name + "_d"), tmem, i32(colAttr.getInt()));
    Value mine = arith::AddIOp::create(b, monoid::named(loc, name + "_mine"), d, quarter);
    bool accumulate = !isZeroSplat(c.getAcc());
    bool stored = false;
    std::optional<Resident> keep = kn ? residentO(c) : std::nullopt;
    if (keep) {
      // O stays in its columns: rescaled there, 8 columns at a time.
      Value scale = monoid::ToLanesOp::create(b, monoid::named(loc, name + "_scale"), VectorType::get({n}, b.getF32Type()),
                                                keep->scale);
      OpBuilder::InsertionGuard guard(b);
      scf::IfOp block;
      if (mlir::attncc::lazyFold(keep->loop)) {
        // RESCALE=lazy<t>: a warp whose 32 rows all kept their maximum has
        // factors of exactly 1; it skips the rescale. tcgen05.ld/st are
        // warp-wide, so the test is the warp's vote, not the thread's.
        Value factor = vector::ExtractOp::create(b, loc, scale, ArrayRef<int64_t>{0});
        Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f));
        Value moved = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, factor, one);
        Value any = NVVM::VoteSyncOp::create(b, monoid::named(loc, name + "_rescale_any"), b.getI1Type(), i32(-1),
                                               moved, NVVM::VoteSyncKind::any);
        block = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
      } else if (corrRole) {
        block = scf::IfOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 1, 1), /*withElseRegion=*/false);
      }
      if (block) {
        // WSPEC=.../corr4: the block attncc-corr-role moves to the
        // correction warps.
        if (corrRole) {
          block->setAttr("attncc.o_rescale", b.getUnitAttr());
          block->setAttr("attncc.tmem_col", b.getI64IntegerAttr(colAttr.getInt()));
        }
        b.setInsertionPointToStart(block.thenBlock());
      }
      for (int64_t j = 0; j < n; j += 8) {
        Value at = arith::AddIOp::create(b, loc, mine, i32(j));
        Value part = loadRow(at, 8);
        Value f = vector::ExtractStridedSliceOp::create(b, loc, scale, ArrayRef<int64_t>{j}, ArrayRef<int64_t>{8},
                                                          ArrayRef<int64_t>{1});
        storeRow(arith::MulFOp::create(b, monoid::named(loc, name + "_rescaled"), part, f), at);
      }
      stored = true;
    } else if (accumulate) {
      store(c.getAcc(), mine, b.getF32Type(), name + "_acc");
      stored = true;
    }
    Value aTmem, pWords, pAddr; // TS: P's pairs over S's columns (from column 0)
    if (ts) {
      Value src = c.getLhs();
      if (auto t = src.getDefiningOp<arith::TruncFOp>(); t && getElementTypeOrSelf(t.getIn().getType()).isF32())
        src = t.getIn();
      else if (!getElementTypeOrSelf(src.getType()).isF32())
        return c.emitOpError("attncc-lower-tcgen05: a register left operand is f32 (rounded here), or its arith.truncf");
      aTmem = tmem;
      pAddr = arith::AddIOp::create(b, loc, aTmem, quarter);
      pWords = packRow(src, et, name + "_a");
      stored = true;
    }
    // OVERLAP=early (attncc.early_pv on P*V): the product is issued in two
    // parts along the keys, k16 steps [split, kc) once P's last three
    // quarters are stored and [0, split) once the first quarter is (seed
    // 000, chapter 13: P*V starts while P is still being written).
    int64_t split = ts && c->hasAttr("attncc.early_pv") && kc >= 2 ? std::max<int64_t>(1, kc / 4) : 0;
    // The second part's barrier and issue blocks are marked
    // attncc.early_part: with the mma warp they go through an mbarrier of
    // their own (attncc-mma-role), so that the row warps' two arrivals in a
    // row cannot run a phase ahead of the mma warp's waits.
    auto sync = [&](bool second) {
      NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
      computeBarrier(b, monoid::named(loc, "the operands are in tensor memory and the last results were read"), f,
                     consts);
      std::prev(b.getInsertionPoint())->setAttr("attncc.issue_sync", b.getUnitAttr());
      if (second)
        std::prev(b.getInsertionPoint())->setAttr("attncc.early_part", b.getUnitAttr());
      NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    };
    if (ts)
      storeWords(pWords, 8 * split, 8 * kc, pAddr);
    if (stored)
      NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::STORE);
    sync(/*second=*/false);

    auto bm = mlir::attncc::blockMemref(b, c.getRhs(), c, "attncc-lower-tcgen05");
    if (failed(bm))
      return failure();
    Value bMem = *bm, aMem;
    if (!ts) {
      auto am = mlir::attncc::blockMemref(b, c.getLhs(), c, "attncc-lower-tcgen05");
      if (failed(am))
        return failure();
      aMem = *am;
    }
    // One m128 (m64) product per Q tile, into its own columns, each committed
    // to its own mbarrier; both read the same B block (two Q tiles share
    // each K and V block). Steps [k0, k1); the first part of a product
    // overwrites D unless it accumulates, the last commits.
    auto issueSteps = [&](int64_t k0, int64_t k1, bool first, bool last) {
      for (int64_t g = 0; g < qTiles; ++g) {
        auto issue = scf::IfOp::create(b, loc, tid0, /*withElseRegion=*/false);
        issue->setAttr("attncc.issue", b.getUnitAttr());
        if (keep && corrRole && first)
          issue->setAttr("attncc.o_resident", b.getUnitAttr());
        if (qTiles > 1)
          issue->setAttr("attncc.qtile", b.getI64IntegerAttr(g));
        if (!first)
          issue->setAttr("attncc.early_part", b.getUnitAttr());
        OpBuilder::InsertionGuard g0(b);
        b.setInsertionPoint(issue.thenBlock()->getTerminator());
        Value dg = g ? arith::AddIOp::create(b, loc, d, i32(g * qtileCols)).getResult() : d;
        Value dPtr = tmemPtr(dg);
        Value descI = arith::ConstantIntOp::create(b, monoid::named(loc, "idesc"), static_cast<int64_t>(*idesc), 32);
        auto loop = scf::ForOp::create(b, loc, index(k0), index(k1), index(1));
        loop->setAttr("attncc.unroll", b.getUnitAttr());
        loop.getInductionVar().setLoc(monoid::named(loc, "kc"));
        {
          OpBuilder::InsertionGuard g2(b);
          b.setInsertionPoint(loop.getBody()->getTerminator());
          Value k = loop.getInductionVar();
          Value k16 = arith::MulIOp::create(b, loc, k, index(16));
          std::pair<Value, Value> at;
          if (!kn || aMem)
            at = kStep(kn ? aMem : bMem, k16);
          Value db;
          if (kn) // B = [K x N], N contiguous: 16 rows of every slab per step; LBO = the slab stride
            db = descriptor(bMem, {index(0), k16, index(0)}, cast<MemRefType>(bMem.getType()).getDimSize(1) * 128);
          else // B = [N x K], K contiguous
            db = descriptor(bMem, {at.first, index(0), at.second}, /*lbo=*/0);
          Value a;
          if (aMem) { // Q tile g: rows [Mg, Mg + M) of the staged block
            a = descriptor(aMem, {at.first, index(atomM * g), at.second}, /*lbo=*/0);
          } else { // 16 elements of P a step: 8 columns of pairs
            Value k32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), k);
            Value pg = g ? arith::AddIOp::create(b, loc, aTmem, i32(g * qtileCols)).getResult() : aTmem;
            a = tmemPtr(arith::AddIOp::create(b, loc, pg, Value(arith::MulIOp::create(b, loc, k32, i32(8)))));
          }
          Value on = accumulate || !first
                         ? arith::ConstantIntOp::create(b, loc, 1, 1).getResult()
                         : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, k, index(k0)).getResult();
          NVVM::Tcgen05MMAOp::create(b, loc, NVVM::Tcgen05MMAKind::F16, NVVM::CTAGroupKind::CTA_1,
                                       NVVM::Tcgen05MMACollectorOp::DISCARD, /*aShift=*/false, dPtr, a, db, descI,
                                       on, /*scaleInputD=*/Value{}, /*disableOutputLane=*/Value{});
        }
        if (last)
          NVVM::Tcgen05CommitOp::create(b, monoid::named(loc, "the product arrives on mma_done when it is done"),
                                          qTiles > 1 ? mlir::attncc::qtileMbarrier(
                                                           b, loc, bar, g, consts,
                                                           monoid::named(loc, "mma_done_q" + std::to_string(g)))
                                                     : barPtr,
                                          Value{}, NVVM::CTAGroupKind::CTA_1);
      }
    };
    issueSteps(split, kc, /*first=*/true, /*last=*/split == 0);
    if (split) {
      storeWords(pWords, 0, 8 * split, pAddr);
      NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::STORE);
      sync(/*second=*/true);
      issueSteps(0, split, /*first=*/false, /*last=*/true);
    }
    // Every thread waits for the phase this product completes.
    Value count = memref::LoadOp::create(b, loc, phase, ValueRange{});
    memref::StoreOp::create(b, loc, Value(arith::AddIOp::create(b, loc, count, i32(1))), phase, ValueRange{});
    Value parity = arith::AndIOp::create(b, monoid::named(loc, "parity"), count, i32(1));
    NVVM::MBarrierTryWaitParityOp::create(b, monoid::named(loc, name + " is done"), qTiles > 1 ? mlir::attncc::myQtileMbarrier(b, loc, bar, consts, monoid::named(loc, "mma_done_mine")) : barPtr,
                                            parity, i32(10000000));
    NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value lhs = c.getLhs();
    if (keep) {
      // The loop carries O's register copy unchanged; finishResident loads
      // the result after the loop.
      Value arg = keep->loop.getRegionIterArgs()[keep->pos];
      c.getResult().replaceAllUsesWith(arg);
      c.erase();
      keep->rescale.erase();
      kept.push_back({keep->loop, keep->pos, colAttr.getInt(), accT});
    } else {
      Value lanes = loadRow(mine, n);
      auto from = monoid::FromLanesOp::create(b, monoid::named(loc, name), accT, lanes);
      from->setAttr("attncc.layout", monoid::FragmentAttr::get(b.getContext(), rowKind));
      c.getResult().replaceAllUsesWith(from.getResult());
      c.erase();
    }
    if (auto t = lhs.getDefiningOp<arith::TruncFOp>(); t && t->use_empty())
      t.erase();
    return success();
  }
};

struct LowerTcgen05Pass : mlir::attncc::impl::LowerTcgen05Base<LowerTcgen05Pass> {
  void runOnOperation() override {
    if (failed(mlir::attncc::forEachTiledKernel(getOperation(), [](gpu::GPUFuncOp f) { return Lowerer(f).run(); })))
      signalPassFailure();
  }
};

} // namespace
