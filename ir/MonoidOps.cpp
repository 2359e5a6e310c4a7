//===- MonoidOps.cpp - verifiers and builders of the monoid ops -----------===//
#include "ir/MonoidOps.h"
#include "ir/TileAttrs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::monoid;

/// The one rule for state types, shared by every op that carries a state:
/// one value per channel; a max channel (and so every twist source) is a
/// scalar float, add channels are floats or vectors of floats.
static LogicalResult verifyStateTypes(Operation *op, CarrierAttr carrier, TypeRange types,
                                      StringRef what) {
  if (types.size() != carrier.size())
    return op->emitOpError() << what << " has " << types.size()
                             << " values but the carrier has " << carrier.size() << " channels";
  for (auto [i, t] : llvm::enumerate(types)) {
    StringRef name = carrier.getNames()[i].getValue();
    bool scalarFloat = isa<FloatType>(t);
    bool floatVector = isa<VectorType>(t) && isa<FloatType>(cast<VectorType>(t).getElementType());
    if (carrier.getCombines()[i] == CombineKind::Max && !scalarFloat)
      return op->emitOpError() << "channel '" << name << "' combines by max and must be a scalar float, got "
                               << t;
    if (!scalarFloat && !floatVector)
      return op->emitOpError() << "channel '" << name << "' must be a float or a vector of floats, got " << t;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

void ReduceOp::build(OpBuilder &b, OperationState &state, StringRef axis, Value lower, Value upper,
                     CarrierAttr carrier, ScheduleAttr schedule, TypeRange stateTypes) {
  state.addAttribute(getAxisAttrName(state.name), b.getStringAttr(axis));
  state.addAttribute(getCarrierAttrName(state.name), carrier);
  if (schedule)
    state.addAttribute(getScheduleAttrName(state.name), schedule);
  state.addOperands({lower, upper});
  state.addTypes(stateTypes);
  Region *lift = state.addRegion();
  Block *block = new Block();
  block->addArgument(b.getIndexType(), state.location);
  lift->push_back(block);
}

YieldOp ReduceOp::getLiftYield() { return cast<YieldOp>(getLiftBlock().getTerminator()); }

LogicalResult ReduceOp::verify() {
  if (getAxis().empty())
    return emitOpError("needs a non-empty axis name");
  Block &body = getLiftBlock();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("lift region must take exactly one 'index' argument (the element index)");
  if (failed(verifyStateTypes(*this, getCarrier(), getState().getTypes(), "result")))
    return failure();
  if (!isa<YieldOp>(body.getTerminator()))
    return emitOpError("lift region must end in monoid.yield");
  TypeRange yielded = getLiftYield().getValues().getTypes();
  if (yielded != getState().getTypes())
    return emitOpError() << "lift yields (" << yielded << ") but the reduce produces ("
                         << getState().getTypes() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// ContractOp
//===----------------------------------------------------------------------===//

LogicalResult ContractOp::verify() {
  auto lhs = cast<VectorType>(getLhs().getType());
  auto rhs = cast<VectorType>(getRhs().getType());
  if (lhs.getShape() != rhs.getShape())
    return emitOpError() << "operand shapes differ: " << lhs << " vs " << rhs;
  unsigned acc = getResult().getType().getIntOrFloatBitWidth();
  if (acc < lhs.getElementTypeBitWidth() || acc < rhs.getElementTypeBitWidth())
    return emitOpError() << "accumulator " << getResult().getType()
                         << " is narrower than the operands";
  return success();
}

//===----------------------------------------------------------------------===//
// ProjectOp
//===----------------------------------------------------------------------===//

LogicalResult ProjectOp::verify() {
  if (failed(verifyStateTypes(*this, getCarrier(), getState().getTypes(), "state")))
    return failure();
  Block &body = getBody().front();
  if (body.getArgumentTypes() != getState().getTypes())
    return emitOpError("body arguments must match the state types");
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end in monoid.yield");
  if (getResults().empty())
    return emitOpError("must produce at least one value");
  if (yield.getValues().getTypes() != getResults().getTypes())
    return emitOpError() << "body yields (" << yield.getValues().getTypes()
                         << ") but the op produces (" << getResults().getTypes() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// CombineOp / IdentityOp
//===----------------------------------------------------------------------===//

/// `: f32, f32, vector<64xf32>`: one type list shared by lhs, rhs and results.
static ParseResult parseStateTypes(OpAsmParser &parser, SmallVectorImpl<Type> &lhs,
                                   SmallVectorImpl<Type> &rhs, SmallVectorImpl<Type> &results) {
  if (parser.parseTypeList(lhs))
    return failure();
  rhs.assign(lhs.begin(), lhs.end());
  results.assign(lhs.begin(), lhs.end());
  return success();
}
static void printStateTypes(OpAsmPrinter &p, Operation *, TypeRange lhs, TypeRange, TypeRange) {
  llvm::interleaveComma(lhs, p);
}

LogicalResult CombineOp::verify() {
  if (getLhs().getTypes() != getRhs().getTypes() || getLhs().getTypes() != getResults().getTypes())
    return emitOpError("lhs, rhs and results must have the same types");
  return verifyStateTypes(*this, getCarrier(), getResults().getTypes(), "state");
}

LogicalResult IdentityOp::verify() {
  return verifyStateTypes(*this, getCarrier(), getResults().getTypes(), "result");
}

#define GET_OP_CLASSES
#include "ir/MonoidOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ToLanesOp / FromLanesOp
//===----------------------------------------------------------------------===//

/// The lanes shape of a tile of `layout` (one of c, a, b.nk, b.kn) is
/// [FM, X, r, 2] (see monoid.to_lanes); FM is free, the rest follows.
static LogicalResult verifyLanes(Operation *op, VectorType tile, VectorType lanes, StringRef k) {
  if (tile.getElementType() != lanes.getElementType())
    return op->emitOpError() << "the tile " << tile << " and its lanes " << lanes << " differ in element type";
  if (k.empty())
    return op->emitOpError("needs the tile's layout (attncc.layout: c, a, b.nk or b.kn)");
  if (monoid::isRowPerThread(k)) { // the thread's row: its C elements in order, or in pairs [C/2, 2]
    if (tile.getRank() != 2 || lanes.getNumElements() != tile.getDimSize(1) || lanes.getRank() > 2 ||
        (lanes.getRank() == 2 && lanes.getDimSize(1) != 2))
      return op->emitOpError() << "lanes " << lanes << " are not a thread's row of a " << tile
                               << " tile in layout '" << k << "' (vector<C> or vector<C/2 x 2>)";
    return success();
  }
  if (k == "row") { // a thread's rows of a row vector: 2 per 16-row tile (rows g and g + 8)
    if (tile.getRank() != 1 || lanes.getRank() != 1 || lanes.getNumElements() % 2 ||
        tile.getDimSize(0) % (8 * lanes.getNumElements()))
      return op->emitOpError() << "lanes " << lanes << " are not a thread's rows of a " << tile
                               << " vector in layout 'row' (vector<2 fm>)";
    return success();
  }
  if (k != "c" && k != "a" && k != "b.nk" && k != "b.kn")
    return op->emitOpError() << "layout '" << k << "' has no lanes form (c, a, b.nk, b.kn, row, rowthread or rowhalf)";
  if (tile.getRank() != 2 || lanes.getRank() != 4 || lanes.getDimSize(3) != 2)
    return op->emitOpError() << "needs a 2-d tile and 4-d lanes [.., .., .., 2], not " << tile << " and " << lanes;
  int64_t r = tile.getDimSize(0), c = tile.getDimSize(1);
  auto want = [&](int64_t d0, int64_t d1, int64_t d2) {
    return lanes.getDimSize(0) == d0 && lanes.getDimSize(1) == d1 && lanes.getDimSize(2) == d2;
  };
  int64_t fm = lanes.getDimSize(0);
  bool ok = false;
  if (k == "c")
    ok = r % (16 * fm) == 0 && (want(fm, c / 8, 2) || want(fm, c / 16, 4));
  else if (k == "a")
    ok = r % (16 * fm) == 0 && want(fm, c / 16, 4);
  else if (k == "b.nk")
    ok = want(r / 8, c / 16, 2);
  else // b.kn
    ok = want(c / 8, r / 16, 2);
  if (!ok)
    return op->emitOpError() << "lanes " << lanes << " are not a thread's share of a " << tile << " tile in layout '"
                             << k << "'";
  return success();
}

LogicalResult ToLanesOp::verify() {
  return verifyLanes(*this, getTile().getType(), getLanes().getType(), layoutOf(getTile()));
}

LogicalResult FromLanesOp::verify() {
  return verifyLanes(*this, getTile().getType(), getLanes().getType(), layoutOf(getTile()));
}

//===----------------------------------------------------------------------===//
// SmemDescriptorOp / WgmmaOp
//===----------------------------------------------------------------------===//

LogicalResult SmemDescriptorOp::verify() {
  auto mt = cast<MemRefType>(getBase().getType());
  if (!mlir::gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(mt))
    return emitOpError("needs a memref in shared memory (workgroup address space), not ") << mt;
  if (mt.getRank() != 3 || mt.getElementTypeBitWidth() != 16 || mt.getDimSize(2) * 2 != 128)
    return emitOpError("needs a 128-byte swizzled slot [slabs, rows, 64] of 16-bit elements, not ") << mt;
  if (getIndices().size() != 3)
    return emitOpError("needs 3 indices, not ") << getIndices().size();
  if (getSwizzle() != 128)
    return emitOpError("swizzle must be 128 (bytes), not ") << getSwizzle();
  if (getStrideByteOffset() != 1024)
    return emitOpError("stride_byte_offset must be 1024 (8 rows of 128 bytes), not ") << getStrideByteOffset();
  int64_t lbo = getLeadingByteOffset();
  if (lbo < 0 || lbo % 16 || lbo >= (1 << 18))
    return emitOpError("leading_byte_offset must be a multiple of 16 below 2^18, not ") << lbo;
  return success();
}

LogicalResult WgmmaOp::verify() {
  auto acc = cast<MemRefType>(getAcc().getType());
  if (acc.getRank() != 4 || acc.getDimSize(0) != 1 || acc.getDimSize(2) != 2 || acc.getDimSize(3) != 2 ||
      !acc.hasStaticShape())
    return emitOpError("needs the accumulator as memref<1 x N/8 x 2 x 2 x f32>, not ") << acc;
  int64_t n = acc.getDimSize(1) * 8;
  if (n < 8 || n > 256)
    return emitOpError("N must be 8 to 256 (a multiple of 8), not ") << n;
  Type t = getOperandType();
  if (!t.isF16() && !t.isBF16())
    return emitOpError("operand_type must be f16 or bf16, not ") << t;
  auto regs = VectorType::get({4, 2}, t);
  if (auto v = dyn_cast<VectorType>(getA().getType())) {
    if (v != regs)
      return emitOpError("a register A operand must be ") << regs << ", not " << v;
  } else if (!getA().getType().isInteger(64)) {
    return emitOpError("A must be a shared-memory descriptor (i64) or ") << regs;
  }
  return success();
}
