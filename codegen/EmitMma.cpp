//===- EmitMma.cpp - the mma.sync atom ops and a thread's registers ---------===//
//
// attncc-lower-mma writes each mma.sync contraction as nvgpu.ldmatrix and
// nvgpu.mma.sync on one thread's fragments: vectors without a layout, and
// private memref.allocas. They print as register arrays; a pair of 16-bit
// values in the innermost dimension is one 32-bit register (`unsigned`), the
// operand form of the instructions (isPacked).
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

/// A thread's registers of 16-bit pairs: a vector with no fragment layout,
/// or a private alloca, of f16/bf16 whose innermost dimension is 2.
bool KernelEmitter::isPacked(Value v) {
  auto st = dyn_cast<ShapedType>(v.getType());
  if (!st || st.getRank() < 2 || st.getShape().back() != 2 || st.getElementTypeBitWidth() != 16)
    return false;
  if (isa<VectorType>(st))
    return layoutOf(v).empty();
  return isa_and_nonnull<memref::AllocaOp>(v.getDefiningOp());
}

/// The registers of a thread's vector or alloca `v`.
int64_t KernelEmitter::registers(Value v) {
  int64_t n = cast<ShapedType>(v.getType()).getNumElements();
  return isPacked(v) ? n / 2 : n;
}

/// The register at `indices` of a private alloca (packed: the innermost
/// index, which selects half a register, must be 0).
FailureOr<std::string> KernelEmitter::registerAt(Operation *op, Value m, ValueRange indices) {
  ArrayRef<int64_t> shape = cast<MemRefType>(m.getType()).getShape();
  size_t rank = shape.size();
  if (isPacked(m)) {
    auto last = getConstantIntValue(indices.back());
    if (!last || *last != 0)
      return op->emitOpError("reads or writes a pair of 16-bit values from its first half");
    --rank;
  }
  std::string at = "0";
  for (size_t k = 0; k < rank; ++k)
    at = k ? "(" + at + ") * " + std::to_string(shape[k]) + " + " + ref(indices[k]) : ref(indices[k]);
  return at;
}

std::string KernelEmitter::registerType(Value v) {
  return isPacked(v) ? "unsigned" : scalarType(getElementTypeOrSelf(v.getType()));
}

/// Register `i` of a thread's vector `v` (a splat constant: its literal).
std::string KernelEmitter::reg(Value v, const std::string &i) {
  if (isSplat(v)) {
    if (!isPacked(v))
      return ref(v);
    auto c = v.getDefiningOp<arith::ConstantOp>();
    auto s = dyn_cast<SplatElementsAttr>(c.getValue());
    return s && matchPattern(c.getResult(), m_AnyZeroFloat()) ? "0u" : "<?>";
  }
  return ref(v) + "[" + i + "]";
}

/// `T name[registers]` for a thread's new vector `v`.
std::string KernelEmitter::declareRegisters(Value v) {
  std::string n = define(v);
  os << registerType(v) << " " << n << "[" << registers(v) << "];\n";
  return n;
}

LogicalResult KernelEmitter::emitAlloca(memref::AllocaOp op) {
  auto mt = op.getType();
  if (scalarType(mt.getElementType()).empty())
    return op.emitOpError("the CUDA emitter prints an alloca of a scalar type it knows");
  if (mt.getRank() == 0) { // a private counter (attncc-lower-copies): a scalar variable
    os << scalarType(mt.getElementType()) << " " << define(op.getResult()) << ";\n";
    return success();
  }
  if (!mt.hasStaticShape())
    return op.emitOpError("the CUDA emitter prints an alloca of a static shape");
  os << registerType(op.getResult()) << " " << define(op.getResult()) << "[" << registers(op.getResult())
     << "]; // registers\n";
  return success();
}

/// vector.load / vector.store of a private alloca: register copies.
LogicalResult KernelEmitter::emitRegisterLoad(vector::LoadOp op) {
  auto at = registerAt(op, op.getBase(), op.getIndices());
  if (failed(at))
    return failure();
  std::string base = ref(op.getBase());
  std::string n = declareRegisters(op.getResult());
  os << "#pragma unroll\nfor (int e = 0; e < " << registers(op.getResult()) << "; ++e) " << n << "[e] = " << base
     << "[" << *at << " + e];\n";
  return success();
}

LogicalResult KernelEmitter::emitRegisterStore(vector::StoreOp op) {
  auto at = registerAt(op, op.getBase(), op.getIndices());
  if (failed(at))
    return failure();
  Value v = op.getValueToStore();
  if (isPacked(op.getBase()) != isPacked(v))
    return op.emitOpError("stores registers of another form than the alloca's");
  os << "#pragma unroll\nfor (int e = 0; e < " << registers(v) << "; ++e) " << ref(op.getBase()) << "[" << *at
     << " + e] = " << reg(v, "e") << ";\n";
  return success();
}

/// vector.extract of a sub-vector of a thread's registers at (dynamic)
/// positions: a copy of those registers.
LogicalResult KernelEmitter::emitExtract(vector::ExtractOp op) {
  auto src = cast<VectorType>(op.getSource().getType());
  auto rt = dyn_cast<VectorType>(op.getResult().getType());
  Type et = src.getElementType();
  bool scalar32 = !rt && (et.isF32() || et.isInteger(32));
  if ((!rt && !scalar32) || !layoutOf(op.getSource()).empty())
    return op.emitOpError("the CUDA emitter extracts a sub-vector of a thread's registers, or one 32-bit element");
  std::string at = "0";
  unsigned dyn = 0;
  for (auto [k, p] : llvm::enumerate(op.getStaticPosition())) {
    std::string pos = ShapedType::isDynamic(p) ? ref(op.getDynamicPosition()[dyn++]) : std::to_string(p);
    at = k ? "(" + at + ") * " + std::to_string(src.getDimSize(k)) + " + " + pos : pos;
  }
  if (scalar32) { // one element of a thread's 32-bit registers (e.g. its row's factor)
    std::string n = define(op.getResult());
    os << scalarType(et) << " " << n << " = " << ref(op.getSource()) << "[" << at << "];\n";
    return success();
  }
  int64_t per = registers(op.getResult());
  std::string s = ref(op.getSource());
  std::string n = declareRegisters(op.getResult());
  os << "#pragma unroll\nfor (int e = 0; e < " << per << "; ++e) " << n << "[e] = " << s << "[(" << at << ") * "
     << per << " + e];\n";
  return success();
}

/// vector.extract_strided_slice of whole rows (ldmatrix.x4's second pair
/// of B registers).
LogicalResult KernelEmitter::emitExtractSlice(vector::ExtractStridedSliceOp op) {
  auto src = op.getSourceVectorType();
  SmallVector<int64_t> offs, sizes, strides;
  for (Attribute a : op.getOffsets()) offs.push_back(cast<IntegerAttr>(a).getInt());
  for (Attribute a : op.getSizes()) sizes.push_back(cast<IntegerAttr>(a).getInt());
  for (Attribute a : op.getStrides()) strides.push_back(cast<IntegerAttr>(a).getInt());
  for (size_t k = 1; k < sizes.size(); ++k)
    if (offs[k] != 0 || sizes[k] != src.getDimSize(k))
      return op.emitOpError("the CUDA emitter slices whole rows of a thread's registers");
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; }) || !layoutOf(op.getSource()).empty())
    return op.emitOpError("the CUDA emitter slices a thread's registers with unit strides");
  int64_t perRow = registers(op.getSource()) / src.getDimSize(0);
  std::string s = ref(op.getSource());
  std::string n = declareRegisters(op.getResult());
  os << "#pragma unroll\nfor (int e = 0; e < " << registers(op.getResult()) << "; ++e) " << n << "[e] = " << s
     << "[" << offs[0] * perRow << " + e];\n";
  return success();
}

/// arith.truncf of a thread's f32 registers into 16-bit pairs: one
/// rounding pack per register (P's A fragments).
LogicalResult KernelEmitter::emitPack(arith::TruncFOp op) {
  bool bf = getElementTypeOrSelf(op.getType()).isBF16();
  std::string s = ref(op.getIn());
  std::string n = declareRegisters(op.getResult());
  os << "#pragma unroll\nfor (int r = 0; r < " << registers(op.getResult()) << "; ++r) " << n << "[r] = "
     << (bf ? "attncc_pack_bf16(" : "attncc_pack_f16(") << s << "[2 * r], " << s << "[2 * r + 1]);\n";
  return success();
}

/// arith.extf of 16-bit pairs into f32 (ACC=f16x's partials).
LogicalResult KernelEmitter::emitUnpack(arith::ExtFOp op) {
  if (!getElementTypeOrSelf(op.getIn().getType()).isF16())
    return op.emitOpError("the CUDA emitter widens pairs of f16");
  std::string s = ref(op.getIn());
  std::string n = declareRegisters(op.getResult());
  os << "#pragma unroll\nfor (int e = 0; e < " << registers(op.getResult()) << "; ++e) " << n
     << "[e] = attncc_half_of(" << s << "[e >> 1], e & 1);\n";
  return success();
}

/// monoid.to_lanes: this thread's elements of a tile, in order (16-bit
/// elements packed in pairs).
LogicalResult KernelEmitter::emitToLanes(monoid::ToLanesOp op) {
  Value t = op.getTile();
  std::string n = declareRegisters(op.getResult());
  if (isPacked(op.getResult()))
    os << "#pragma unroll\nfor (int r = 0; r < " << registers(op.getResult()) << "; ++r) " << n
       << "[r] = attncc_pack(" << elem(t, "2 * r") << ", " << elem(t, "2 * r + 1") << ");\n";
  else
    os << "#pragma unroll\nfor (int e = 0; e < " << registers(op.getResult()) << "; ++e) " << n << "[e] = "
       << elem(t, "e") << ";\n";
  return success();
}

/// monoid.from_lanes: the tile is the thread's registers (f32).
LogicalResult KernelEmitter::emitFromLanes(monoid::FromLanesOp op) {
  if (isPacked(op.getLanes()))
    return op.emitOpError("the CUDA emitter makes a tile of f32 registers");
  names[op.getResult()] = ref(op.getLanes());
  return success();
}

/// nvgpu.ldmatrix: `numTiles` 8x8 matrices of 16-bit values, one register
/// of each per lane; lane l gives the address of row l % 8 of matrix l / 8.
LogicalResult KernelEmitter::emitLdmatrix(nvgpu::LdMatrixOp op) {
  int64_t tiles = op.getNumTiles();
  if (tiles != 2 && tiles != 4)
    return op.emitOpError("the CUDA emitter prints ldmatrix .x2 and .x4");
  // An offset into a slot fits 32 bits, so it is printed as int arithmetic
  // (an index is a long long here): with 64-bit products ptxas kept one
  // 64-bit address per row tile and k step, and the d128 mma.sync kernels
  // ran 3-4.5 % slower on the H200 (docs/results.md).
  std::string at = offset(op.getSrcMemref(), op.getIndices(), /*narrow=*/true);
  std::string m = ref(op.getSrcMemref());
  std::string n = declareRegisters(op.getResult());
  os << "attncc_ldmatrix_x" << tiles << (op.getTranspose() ? "_trans" : "") << "(" << n << ", &" << m << "[" << at
     << "]);\n";
  return success();
}

/// nvgpu.mma.sync m16n8k16: d = a * b + c, f32 or f16 (ACC=f16x) accumulators.
LogicalResult KernelEmitter::emitMmaSync(nvgpu::MmaSyncOp op) {
  auto shape = op.getMmaShapeAsArray();
  if (shape[0] != 16 || shape[1] != 8 || shape[2] != 16)
    return op.emitOpError("the CUDA emitter prints the m16n8k16 atom");
  Type ab = getElementTypeOrSelf(op.getMatrixA().getType());
  bool f16acc = getElementTypeOrSelf(op.getMatrixC().getType()).isF16();
  if (f16acc && !ab.isF16())
    return op.emitOpError("the fp16-accumulate atom takes f16 operands");
  std::string c = ref(op.getMatrixC()), a = ref(op.getMatrixA()), bv = ref(op.getMatrixB());
  std::string n = declareRegisters(op.getResult());
  os << "#pragma unroll\nfor (int e = 0; e < " << registers(op.getResult()) << "; ++e) " << n << "[e] = " << c
     << "[e];\n";
  os << (f16acc ? "attncc_mma_f16acc" : ab.isBF16() ? "attncc_mma_bf16" : "attncc_mma_f16") << "(" << n << ", " << a
     << ", " << bv << ");\n";
  return success();
}

} // namespace attncc::codegen
