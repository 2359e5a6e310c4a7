//===- AtomUtils.cpp - what the tensor-core atom passes share -------------===//
#include "passes/AtomUtils.h"

#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <optional>
#include <tuple>

namespace mlir::attncc {

Value peelBlock(Value v) {
  for (;;) {
    if (auto s = v.getDefiningOp<vector::ShapeCastOp>())
      v = s.getSource();
    else if (auto t = v.getDefiningOp<vector::TransposeOp>())
      v = t.getVector();
    else
      return v;
  }
}

/// The loop and iter_arg number that carry `v` (an iter_arg or a result).
static std::optional<std::tuple<scf::ForOp, unsigned, bool>> carrier(Value v) {
  if (auto a = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(a.getOwner()->getParentOp());
    if (!loop || a.getArgNumber() == 0)
      return std::nullopt;
    return std::make_tuple(loop, a.getArgNumber() - 1, true);
  }
  if (auto loop = v.getDefiningOp<scf::ForOp>())
    return std::make_tuple(loop, cast<OpResult>(v).getResultNumber(), false);
  return std::nullopt;
}

/// The value a loop carries beside its iter_arg `k` (a block) whose init
/// is `init` (the block's slot index or view). attncc-lower-copies appends
/// one per block, in the order of the blocks; two blocks can share an init
/// (OVERLAP=pv carries the previous V block beside the current one, both
/// from the block read before the loop), and so can their slots. So the
/// block's rank among the iter_args that share its init picks the value
/// among those that share `init`.
static Value beside(scf::ForOp loop, unsigned k, bool arg, Value init) {
  auto inits = loop.getInitArgs();
  Value block = inits[k];
  unsigned rank = 0;
  for (unsigned j = 0; j < k; ++j)
    rank += inits[j] == block && inits[j].getType() == block.getType();
  for (auto [j, other] : llvm::enumerate(inits)) {
    if (other != init || j == k || other.getType() != init.getType())
      continue;
    if (rank-- == 0)
      return arg ? Value(loop.getRegionIterArgs()[j]) : Value(loop.getResult(j));
  }
  return Value();
}

vector::TransferReadOp slotRead(Value v) {
  v = peelBlock(v);
  if (auto r = v.getDefiningOp<vector::TransferReadOp>())
    return r;
  auto c = carrier(v);
  return c ? slotRead(std::get<0>(*c).getInitArgs()[std::get<1>(*c)]) : vector::TransferReadOp();
}

/// What the staged block `v` carries with it: `atRead` of its slot's read,
/// or the value a loop carries beside the block whose init is that (through
/// the loops that carry it). Null when there is none.
static Value besideBlock(Value v, llvm::function_ref<Value(vector::TransferReadOp)> atRead) {
  v = peelBlock(v);
  if (auto r = v.getDefiningOp<vector::TransferReadOp>())
    return atRead(r);
  auto c = carrier(v);
  if (!c)
    return Value();
  auto [loop, k, arg] = *c;
  Value init = besideBlock(loop.getInitArgs()[k], atRead);
  return init ? beside(loop, k, arg, init) : Value();
}

/// The view of the slot that the staged block `v` sits in: its read's
/// memref, or the view a loop carries beside the block. Null when no such
/// view is known.
static Value slotView(Value v) {
  return besideBlock(v, [](vector::TransferReadOp r) { return r.getBase(); });
}

/// The slot index of the staged block `v` when a loop carries an index
/// beside it (a TMA block, attncc-lower-copies): its read's subview
/// offset, or that index carried through the loops. Null otherwise.
static Value slotIndex(Value v) {
  return besideBlock(v, [](vector::TransferReadOp r) {
    auto sv = r.getBase().getDefiningOp<memref::SubViewOp>();
    return sv && !sv.getOffsets().empty() ? sv.getOffsets().front() : Value();
  });
}

FailureOr<Value> blockMemref(OpBuilder &b, Value v, Operation *at, StringRef pass) {
  vector::TransferReadOp init = slotRead(v);
  if (!init || !isa<MemRefType>(init.getBase().getType()) ||
      !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(cast<MemRefType>(init.getBase().getType())))
    return at->emitOpError() << pass << ": an smem operand needs a read of a shared slot (attncc-lower-copies)";
  if (peelBlock(v).getDefiningOp() == init.getOperation())
    return init.getBase();
  auto sv = init.getBase().getDefiningOp<memref::SubViewOp>();
  if (sv && sv.getOffsets().empty()) // one slot: the view before the loop
    return init.getBase();
  if (Value view = slotView(v))
    return view;
  Value slot = sv ? slotIndex(v) : Value();
  if (!slot)
    return at->emitOpError() << pass << ": a loop carries a staged block without its slot's view or index";
  IRMapping map;
  map.map(sv.getOffsets().front(), slot);
  Operation *clone = b.clone(*sv, map);
  clone->setLoc(sv->getLoc());
  return clone->getResult(0);
}

Value privateArray(gpu::GPUFuncOp f, Location loc, StringRef name, ArrayRef<int64_t> shape, Type et) {
  OpBuilder top = OpBuilder::atBlockBegin(&f.getBody().front());
  return memref::AllocaOp::create(top, monoid::named(loc, name), MemRefType::get(shape, et));
}

void storeLanes(OpBuilder &b, Location loc, Value init, Value acc, VectorType lanes, ValueRange zeros) {
  Value v;
  if (auto k = init.getDefiningOp<arith::ConstantOp>(); k && isa<SplatElementsAttr>(k.getValue()))
    v = arith::ConstantOp::create(b,
        loc, DenseElementsAttr::get(lanes, cast<SplatElementsAttr>(k.getValue()).getSplatValue<Attribute>()));
  else
    v = monoid::ToLanesOp::create(b, loc, lanes, init);
  vector::StoreOp::create(b, loc, v, acc, zeros);
}

void replaceByLanes(OpBuilder &b, vector::ContractionOp c, Value acc, VectorType lanes, ValueRange zeros,
                    Location loadLoc) {
  Value l = vector::LoadOp::create(b, loadLoc, lanes, acc, zeros);
  auto res = monoid::FromLanesOp::create(b, c.getLoc(), c.getResultType(), l);
  res->setAttr("attncc.layout", c->getAttr("attncc.layout"));
  Value lhs = c.getLhs();
  c.getResult().replaceAllUsesWith(res.getResult());
  c->erase();
  if (auto t = lhs.getDefiningOp<arith::TruncFOp>(); t && t->use_empty())
    t->erase();
}

FailureOr<AtomShape> atomShape(vector::ContractionOp c, StringRef family) {
  AtomShape s;
  s.acc = cast<VectorType>(c.getAccType());
  s.lhs = cast<VectorType>(c.getLhsType());
  s.n = s.acc.getDimSize(1);
  s.kSteps = s.lhs.getDimSize(1) / 16;
  s.elem = s.lhs.getElementType();
  s.kn = monoid::rightIsKN(c);
  if (c.getIndexingMapsArray()[0].getResult(0) != getAffineDimExpr(0, c.getContext()))
    return c.emitOpError() << family << " needs the left operand as [M x K]";
  std::string rl = monoid::layoutOf(c.getRhs());
  if (rl != "smem")
    return c.emitOpError() << family << " reads its right operand from shared memory, not layout '" << rl << "'";
  s.lhsLayout = monoid::layoutOf(c.getLhs());
  s.name = family.str();
  if (auto nl = dyn_cast<NameLoc>(c.getLoc()))
    s.name = nl.getName().str();
  return s;
}

std::pair<Value, Value> kStepInSlot(OpBuilder &b, Location loc, Value k16, Value slabElems) {
  return {arith::DivUIOp::create(b, monoid::named(loc, "slab"), k16, slabElems),
          arith::RemUIOp::create(b, monoid::named(loc, "col"), k16, slabElems)};
}

Value swizzledDescriptor(OpBuilder &b, Location loc, Value mem, ValueRange at, int64_t lbo, bool tcgen05) {
  return monoid::SmemDescriptorOp::create(b, monoid::named(loc, "desc"), b.getI64Type(), mem, at,
                                            b.getI64IntegerAttr(lbo), b.getI64IntegerAttr(1024),
                                            b.getI64IntegerAttr(128), tcgen05 ? b.getUnitAttr() : UnitAttr());
}

bool lazyFold(scf::ForOp loop) {
  bool lazy = false;
  loop.getBody()->walk([&](arith::SelectOp s) { lazy |= s->hasAttr("attncc.lazy"); });
  return lazy;
}

} // namespace mlir::attncc
