//===- EmitMemory.cpp - reads, writes, layouts, staging ---------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

vector::TransferReadOp KernelEmitter::stagedRead(Value v) { return monoid::stagedRead(v); }

/// Whether a vector.load/store moves one aligned 16-byte chunk: its value
/// is one uint4 register (isChunkValue).
static bool isChunk(VectorType vt, std::optional<uint64_t> align) {
  return vt.getRank() == 1 && vt.getNumElements() * vt.getElementTypeBitWidth() == 128 && align && *align >= 16;
}

std::string KernelEmitter::layoutOf(Value v) { return monoid::layoutOf(v); }

int64_t KernelEmitter::dimOr1(VectorType t, int k) { return k < t.getRank() ? t.getDimSize(k) : 1; }

/// Elements one thread holds of vector `v`.
int64_t KernelEmitter::count(Value v) {
  auto vt = cast<VectorType>(v.getType());
  std::string l = layoutOf(v);
  if (l.empty())
    return vt.getNumElements();
  if (l == "c") return fm * (vt.getDimSize(1) / 8) * 4;
  if (l == "row" || l == "quad") return fm * 2; // quad: the thread's own share of each of its rows
  if (l == "col") return (vt.getNumElements() / 8) * 2;
  if (l == "a") return fm * (vt.getDimSize(1) / 16) * 8;
  if (l == "b.nk" || l == "b.kn") return vt.getNumElements() / 32;
  // tcgen05: thread t holds row t of a tile, its element of a row vector,
  // all of a column vector.
  if (monoid::isRowPerThread(l)) return vt.getDimSize(1);
  if (monoid::isRowPerThreadRow(l)) return 1;
  if (l == "rowthread.col") return vt.getNumElements();
  return 0; // smem: not a register array
}

/// The logical coordinates (one per vector dimension) of element `e` of a
/// value in layout `l`.
SmallVector<std::string> KernelEmitter::coords(VectorType vt, const std::string &l, const std::string &e) {
  std::string x = "(" + e + ")";
  std::string w0 = "warp * " + std::to_string(fm * 16);
  auto n = [](int64_t v) { return std::to_string(v); };
  // rowthread (tcgen05.ld.32x32b: warp w, lane t holds lane 32w + t of
  // tensor memory, the tile's row).
  // rowhalf (the m64 atom, layout F: rows [16w, 16w + 16) in the first 16
  // lanes of warp w's quarter): lane t holds row 16w + t; lanes 16-31
  // compute on the unused lanes as if they held row 16w + t - 16 (in
  // bounds wherever that row is) and store nothing (owner).
  std::string rowOf = monoid::isRowHalf(l) ? "warp * 16 + (lane & 15)" : "warp * 32 + lane";
  if (monoid::isRowPerThread(l))
    return {rowOf, x};
  if (monoid::isRowPerThreadRow(l))
    return vt.getRank() == 2 ? SmallVector<std::string>{rowOf, "0"} : SmallVector<std::string>{rowOf};
  if (l == "rowthread.col")
    return vt.getRank() == 2 ? SmallVector<std::string>{"0", x} : SmallVector<std::string>{x};
  if (l == "c") {
    int64_t nf = vt.getDimSize(1) / 8;
    return {w0 + " + (" + x + " / " + n(4 * nf) + ") * 16 + ((" + x + " >> 1) & 1) * 8 + g",
            "((" + x + " >> 2) % " + n(nf) + ") * 8 + 2 * t4 + (" + x + " & 1)"};
  }
  if (l == "quad") // element (r, t4) of each of the thread's rows
    return {w0 + " + (" + x + " >> 1) * 16 + (" + x + " & 1) * 8 + g", "t4"};
  if (l == "row") {
    std::string r = w0 + " + (" + x + " >> 1) * 16 + (" + x + " & 1) * 8 + g";
    return vt.getRank() == 2 ? SmallVector<std::string>{r, "0"} : SmallVector<std::string>{r};
  }
  if (l == "col") {
    std::string c = "(" + x + " >> 1) * 8 + 2 * t4 + (" + x + " & 1)";
    return vt.getRank() == 2 ? SmallVector<std::string>{"0", c} : SmallVector<std::string>{c};
  }
  if (l == "a") {
    int64_t kc = vt.getDimSize(1) / 16;
    return {w0 + " + (" + x + " / " + n(8 * kc) + ") * 16 + g + 8 * ((" + x + " >> 1) & 1)",
            "((" + x + " >> 3) % " + n(kc) + ") * 16 + 8 * ((" + x + " >> 2) & 1) + 2 * t4 + (" +
                x + " & 1)"};
  }
  // b.nk [N x K] / b.kn [K x N]: element (nf, kc, r, x) is B(k, n) with
  // n = nf*8 + g, k = kc*16 + 8r + 2t + x.
  bool kn = l == "b.kn";
  int64_t kdim = kn ? vt.getDimSize(0) : vt.getDimSize(1);
  int64_t kc = kdim / 16;
  std::string nn = "(" + x + " / " + n(4 * kc) + ") * 8 + g";
  std::string kk = "((" + x + " >> 2) % " + n(kc) + ") * 16 + 8 * ((" + x + " >> 1) & 1) + 2 * t4 + (" +
                   x + " & 1)";
  return kn ? SmallVector<std::string>{kk, nn} : SmallVector<std::string>{nn, kk};
}

/// Whether this thread is the one that writes a replicated element.
std::string KernelEmitter::owner(const std::string &l) {
  if (l == "row") return "t4 == 0";
  if (l == "col") return "g == 0 && warp == 0";
  if (l == "rowthread.col") return "lane == 0 && warp == 0";
  if (monoid::isRowHalf(l)) return "lane < 16";
  return "";
}

/// Memory indices of a transfer's element at vector coordinates `c`, and
/// the out-of-bounds test of its dimensions that are not in bounds.
void KernelEmitter::transferIndex(Operation *op, Value mem, ValueRange indices, AffineMap pm,
                     ArrayRef<bool> inBounds, ArrayRef<std::string> c,
                     SmallVector<std::string> &idx, std::string &ok) {
  for (Value i : indices)
    idx.push_back(ref(i));
  for (unsigned j = 0; j < pm.getNumResults(); ++j) {
    unsigned d = cast<AffineDimExpr>(pm.getResult(j)).getPosition();
    idx[d] = "(" + idx[d] + " + " + c[j] + ")";
    if (!inBounds[j])
      ok += (ok.empty() ? "" : " && ") + idx[d] + " < " + dims[mem][d];
  }
}

std::string KernelEmitter::offsetOf(Value m, ArrayRef<std::string> idx, bool narrow) {
  if (auto it = strides.find(m); it != strides.end()) {
    std::string acc;
    for (auto [i, st] : llvm::zip(idx, it->second))
      acc += (acc.empty() ? "" : " + ") + ("(" + i + ")" + (st == "1" ? "" : " * " + st));
    return acc;
  }
  SmallVector<std::string> &d = dims[m];
  auto dim = [&](size_t k) {
    return narrow ? std::to_string(cast<MemRefType>(m.getType()).getDimSize(k)) : d[k];
  };
  std::string acc = idx[0];
  for (size_t k = 1; k < idx.size(); ++k)
    acc = "(" + acc + ") * " + dim(k) + " + " + idx[k];
  return acc;
}

LogicalResult KernelEmitter::emitTransferRead(vector::TransferReadOp op) {
  std::string l = layoutOf(op.getResult());
  if (l.empty())
    return op.emitOpError("needs a layout (attncc-atomize) to be emitted");
  if (l == "smem")
    return emitBlockRead(op);
  auto vt = op.getVectorType();
  std::string n = define(op.getResult());
  int64_t cnt = count(op.getResult());
  SmallVector<bool> inb;
  for (unsigned j = 0; j < vt.getRank(); ++j)
    inb.push_back(op.isDimInBounds(j));
  SmallVector<std::string> idx;
  std::string ok;
  transferIndex(op, op.getBase(), op.getIndices(), op.getPermutationMap(), inb,
                coords(vt, l, "e"), idx, ok);
  os << scalarType(vt) << " " << n << "[" << cnt << "];\n";
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << cnt << "; ++e) " << n << "[e] = ";
  std::string load = ref(op.getBase()) + "[" + offsetOf(op.getBase(), idx) + "]";
  if (ok.empty())
    os << load << ";\n";
  else
    os << "(" << ok << ") ? " << load << " : " << ref(op.getPadding()) << ";\n";
  return success();
}

LogicalResult KernelEmitter::emitTransferWrite(vector::TransferWriteOp op) {
  Value v = op.getValueToStore();
  std::string l = layoutOf(v);
  if (l.empty() || l == "smem" || l == "a" || StringRef(l).starts_with("b"))
    return op.emitOpError("cannot store a vector in layout '") << l << "'";
  auto vt = cast<VectorType>(v.getType());
  SmallVector<bool> inb;
  for (unsigned j = 0; j < vt.getRank(); ++j)
    inb.push_back(op.isDimInBounds(j));
  SmallVector<std::string> idx;
  std::string ok = owner(l);
  transferIndex(op, op.getBase(), op.getIndices(), op.getPermutationMap(), inb,
                coords(vt, l, "e"), idx, ok);
  // Elements e and e + 1 of a C fragment are adjacent columns of one row:
  // one 2-element store (4 bytes for 16-bit elements) writes both.
  bool pairs = pairedStore(op);
  std::string at = ref(op.getBase()) + "[" + offsetOf(op.getBase(), idx) + "]";
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << count(v) << (pairs ? "; e += 2) " : "; ++e) ");
  if (!ok.empty())
    os << "if (" << ok << ") ";
  if (pairs)
    os << "attncc_store2(&" << at << ", " << elem(v, "e") << ", " << elem(v, "e + 1") << ");\n";
  else
    os << at << " = " << elem(v, "e") << ";\n";
  return success();
}

/// Whether a write of a C fragment ("c": elements 2i and 2i + 1 sit in
/// columns 2 t4 + 8 n and 2 t4 + 8 n + 1 of one row) can store each pair as
/// one aligned 2-element store: the fragment's columns run along the
/// memref's last, contiguous dimension, that dimension has an even static
/// size and is in bounds, its rows start at even elements, and the columns
/// start at an even constant or a multiple of one.
bool KernelEmitter::pairedStore(vector::TransferWriteOp op) {
  Value v = op.getValueToStore();
  auto vt = cast<VectorType>(v.getType());
  auto mt = dyn_cast<MemRefType>(op.getBase().getType());
  if (layoutOf(v) != "c" || vt.getRank() != 2 || !mt || !op.isDimInBounds(1))
    return false;
  // Every row starts at an even element: a row-major buffer with rows of
  // an even length, or a view of one (a varlen sequence's rows) that keeps
  // its whole rows at an even column.
  auto rowMajorEven = [](MemRefType t) {
    return t.getLayout().isIdentity() && !ShapedType::isDynamic(t.getShape().back()) && t.getShape().back() % 2 == 0;
  };
  if (!mt.getLayout().isIdentity()) {
    auto view = op.getBase().getDefiningOp<memref::SubViewOp>();
    if (!view || !view.hasUnitStride() || !rowMajorEven(view.getSourceType()) ||
        view.getDroppedDims().test(view.getSourceType().getRank() - 1))
      return false;
    std::optional<int64_t> col = getConstantIntValue(view.getMixedOffsets().back());
    if (!col || *col % 2)
      return false;
  }
  unsigned bits = mt.getElementType().getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32)
    return false;
  AffineMap pm = op.getPermutationMap();
  auto col = dyn_cast<AffineDimExpr>(pm.getResult(1));
  int64_t last = mt.getRank() - 1;
  if (!col || col.getPosition() != last || ShapedType::isDynamic(mt.getDimSize(last)) || mt.getDimSize(last) % 2)
    return false;
  // An even constant, or a product with one (a varlen head's column h * D).
  auto even = [](Value x) {
    std::optional<int64_t> c = getConstantIntValue(x);
    return c && *c % 2 == 0;
  };
  Value start = op.getIndices()[last];
  auto mul = start.getDefiningOp<arith::MulIOp>();
  return even(start) || (mul && (even(mul.getLhs()) || even(mul.getRhs())));
}

/// A staged block's read of its slot (attncc-lower-copies): the block is
/// the shared memory itself, so its name is the slot's pointer.
LogicalResult KernelEmitter::emitBlockRead(vector::TransferReadOp op) {
  auto mt = dyn_cast<MemRefType>(op.getBase().getType());
  if (!mt || !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(mt))
    return op.emitOpError("a block in layout smem is a read of shared memory (attncc-lower-copies)");
  for (Value i : op.getIndices())
    if (auto c = getConstantIntValue(i); !c || *c != 0)
      return op.emitOpError("the CUDA emitter prints a shared block read from the start of its buffer");
  names[op.getResult()] = ref(op.getBase());
  return success();
}

/// The row stride, in elements, of a staged block in shared memory: the
/// last dimension of the slot its read reads (rows plus their padding).
int64_t KernelEmitter::rowStride(Value block) {
  return cast<MemRefType>(stagedRead(block).getBase().getType()).getShape().back();
}

/// nvgpu.device_async_copy (attncc-lower-copies): one cp.async of 16 bytes
/// that reads srcElements of them (the rest zero-filled).
LogicalResult KernelEmitter::emitAsyncCopy(nvgpu::DeviceAsyncCopyOp op) {
  auto et = op.getDst().getType().getElementType();
  int64_t bytes = op.getDstElements().getZExtValue() * et.getIntOrFloatBitWidth() / 8;
  if (bytes != 16 || !op.getBypassL1())
    return op.emitOpError("the CUDA emitter prints a 16-byte cp.async that bypasses L1 (cp.async.cg)");
  std::string srcBytes = "16";
  if (Value n = op.getSrcElements())
    srcBytes = "(unsigned)" + ref(n) + " * " + std::to_string(et.getIntOrFloatBitWidth() / 8);
  os << "attncc_cp_async16(&" << ref(op.getDst()) << "[" << offset(op.getDst(), op.getDstIndices()) << "], &"
     << ref(op.getSrc()) << "[" << offset(op.getSrc(), op.getSrcIndices()) << "], " << srcBytes << ");\n";
  return success();
}

/// Whether `v` is a 16-byte chunk held as one uint4 (attncc-lower-copies'
/// sync copies): an aligned vector.load, or a select between chunks (a zero
/// constant for the rows past the end).
bool KernelEmitter::isChunkValue(Value v) {
  auto vt = dyn_cast<VectorType>(v.getType());
  if (!vt || vt.getRank() != 1 || vt.getNumElements() * vt.getElementTypeBitWidth() != 128 || !layoutOf(v).empty())
    return false;
  if (auto l = v.getDefiningOp<vector::LoadOp>())
    return isChunk(vt, l.getAlignment());
  if (auto s = v.getDefiningOp<arith::SelectOp>())
    return !isa<VectorType>(s.getCondition().getType()) && isChunkValue(s.getTrueValue()) &&
           (isChunkValue(s.getFalseValue()) || matchPattern(s.getFalseValue(), m_AnyZeroFloat()));
  return false;
}

/// arith.select between 16-byte chunks: one uint4 select.
LogicalResult KernelEmitter::emitChunkSelect(arith::SelectOp op) {
  auto chunk = [&](Value v) { return isChunkValue(v) ? ref(v) : std::string("make_uint4(0u, 0u, 0u, 0u)"); };
  os << "const uint4 " << define(op.getResult()) << " = " << ref(op.getCondition()) << " ? " << chunk(op.getTrueValue())
     << " : " << chunk(op.getFalseValue()) << ";\n";
  return success();
}

/// memref.subview with unit strides of a buffer with the identity layout:
/// a slot of a shared buffer or a TMA box of it (attncc-lower-copies), or a
/// varlen sequence's rows of a tensor (the front end). A pointer at its
/// offset, its sizes (static, or its size operands), and, where its kept
/// dimensions are not row-major over its own sizes (the LSE's [Hq, len_q]
/// of [B, Hq, Sq]), the source's strides of them.
LogicalResult KernelEmitter::emitSubview(memref::SubViewOp op) {
  auto src = op.getSourceType();
  if (!src.getLayout().isIdentity() || !op.hasUnitStride())
    return op.emitOpError("the CUDA emitter prints a unit-stride subview of a buffer with the identity layout");
  // The source's strides, row-major over its dims (constants where static).
  int64_t rank = src.getRank();
  SmallVector<std::string> &sd = dims[op.getSource()];
  SmallVector<std::string> st(rank, "1");
  SmallVector<int64_t> stStatic(rank, 1);
  for (int64_t k = rank - 2; k >= 0; --k) {
    bool known = stStatic[k + 1] != ShapedType::kDynamic && !src.isDynamicDim(k + 1);
    stStatic[k] = known ? stStatic[k + 1] * src.getDimSize(k + 1) : ShapedType::kDynamic;
    st[k] = known ? std::to_string(stStatic[k])
            : st[k + 1] == "1" ? sd[k + 1]
                               : "(" + st[k + 1] + " * " + sd[k + 1] + ")";
  }
  std::string at;
  for (auto [k, o] : llvm::enumerate(op.getMixedOffsets())) {
    if (isConstantIntValue(o, 0))
      continue;
    std::string term = isa<Attribute>(o) ? std::to_string(*getConstantIntValue(o)) : ref(cast<Value>(o));
    at += (at.empty() ? "" : " + ") + term + (st[k] == "1" ? "" : " * " + st[k]);
  }
  auto et = op.getType().getElementType();
  std::string n = define(op.getResult());
  // A view of a kernel argument nothing writes is const, as the argument.
  Value root = op.getSource();
  if (auto e = root.getDefiningOp<memref::ExpandShapeOp>())
    root = e.getSrc();
  auto arg = dyn_cast<BlockArgument>(root);
  bool readOnly = arg && isa<gpu::GPUFuncOp>(arg.getOwner()->getParentOp()) && !isWritten(arg);
  os << (readOnly ? "const " : "") << scalarType(et) << " *const " << n << " = " << ref(op.getSource())
     << (at.empty() ? "" : " + " + at) << ";\n";
  llvm::SmallBitVector dropped = op.getDroppedDims();
  SmallVector<std::string> keptStrides;
  for (auto [k, sz] : llvm::enumerate(op.getMixedSizes())) {
    if (dropped.test(k))
      continue;
    dims[op.getResult()].push_back(isa<Attribute>(sz) ? std::to_string(*getConstantIntValue(sz)) + "LL"
                                                      : ref(cast<Value>(sz)));
    keptStrides.push_back(st[k]);
  }
  // Row-major over its own sizes when every kept dimension but the first
  // is whole and the kept dimensions are the source's last ones.
  bool rowMajor = dropped.find_first() == -1 || dropped.find_last() < int(rank - op.getType().getRank());
  for (int64_t k = rank - op.getType().getRank() + 1; rowMajor && k < rank; ++k)
    rowMajor = !src.isDynamicDim(k) && isConstantIntValue(op.getMixedSizes()[k], src.getDimSize(k));
  if (!rowMajor)
    strides[op.getResult()] = keptStrides;
  return success();
}

/// memref.expand_shape of a buffer with the identity layout (attncc-pack-gqa:
/// a varlen Q or O [total_q, Hq * D] as [total_q, Hq, D]): the same pointer,
/// its new sizes.
LogicalResult KernelEmitter::emitExpandShape(memref::ExpandShapeOp op) {
  if (!op.getSrcType().getLayout().isIdentity())
    return op.emitOpError("the CUDA emitter prints an expand_shape of a buffer with the identity layout");
  names[op.getResult()] = ref(op.getSrc());
  for (OpFoldResult sz : op.getMixedOutputShape())
    dims[op.getResult()].push_back(isa<Attribute>(sz) ? std::to_string(*getConstantIntValue(sz)) + "LL"
                                                      : ref(cast<Value>(sz)));
  return success();
}

/// gpu.dynamic_shared_memory (attncc-allocate-smem): the kernel's dynamic
/// shared memory, aligned as the op says (1024 B when blocks are swizzled:
/// the 128-byte swizzle acts on address bits).
LogicalResult KernelEmitter::emitDynamicSmem(gpu::DynamicSharedMemoryOp op) {
  auto tile = kernel->getAttrOfType<DictionaryAttr>("attncc.tile");
  auto smem = tile ? tile.getAs<IntegerAttr>("smem") : IntegerAttr();
  int64_t bytes = smem ? smem.getInt() : 0;
  auto align = op->getAttrOfType<IntegerAttr>("attncc.align");
  names[op.getResult()] = "attncc_smem";
  if (!align || align.getInt() <= 128) {
    os << "extern __shared__ __align__(128) unsigned char attncc_smem[]; // " << bytes << " B, dynamic\n";
    return success();
  }
  os << "extern __shared__ __align__(" << align.getInt() << ") unsigned char attncc_smem_raw[]; // " << bytes
     << " B, dynamic\n";
  os << "unsigned char *const attncc_smem = attncc_smem_raw + ((" << align.getInt()
     << "u - ((unsigned)__cvta_generic_to_shared(attncc_smem_raw) & " << align.getInt() - 1 << "u)) & "
     << align.getInt() - 1 << "u);\n";
  return success();
}

/// memref.view (attncc-allocate-smem): one shared buffer, a pointer into
/// the dynamic shared memory; the copies and reads name it (a slot of it)
/// as their operand.
LogicalResult KernelEmitter::emitView(memref::ViewOp op) {
  auto off = getConstantIntValue(op.getByteShift());
  if (!off)
    return op.emitOpError("the CUDA emitter prints a shared buffer at a constant offset");
  auto mt = op.getType();
  std::string buf = define(op.getResult());
  for (int64_t d : mt.getShape())
    dims[op.getResult()].push_back(std::to_string(d) + "LL");
  os << scalarType(mt.getElementType()) << " *const " << buf << " = reinterpret_cast<"
     << scalarType(mt.getElementType()) << " *>(attncc_smem + " << *off << "); // ";
  for (auto [k, d] : llvm::enumerate(mt.getShape()))
    os << (k ? "x" : "") << d;
  os << (mt.getRank() == 4   ? " (slots x 128-byte slabs x rows x slab)\n"
         : mt.getRank() == 3 ? " (slots x rows x row stride)\n"
         : mt.getRank() == 1 ? " (a word: the tensor-memory address, an mbarrier)\n"
                             : " (rows x row stride: the left operand of an mma, REPACK=smem)\n");
  return success();
}

/// The commits, waits, fences and barriers attncc-place-waits wrote; the
/// op's NameLoc says why, as a comment.
LogicalResult KernelEmitter::emitSync(Operation *op) {
  std::string why;
  if (auto n = dyn_cast<NameLoc>(op->getLoc()))
    why = " // " + n.getName().str();
  if (auto w = dyn_cast<NVVM::CpAsyncWaitGroupOp>(op))
    os << "attncc_cp_async_wait<" << w.getN() << ">();" << why << "\n";
  else if (isa<NVVM::CpAsyncCommitGroupOp>(op))
    os << "attncc_cp_async_commit();" << why << "\n";
  else if (isa<NVVM::FenceProxyOp>(op))
    os << "attncc_fence_proxy_async();" << why << "\n";
  else if (isa<gpu::BarrierOp>(op))
    os << "__syncthreads();" << why << "\n";
  else if (auto w = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op)) {
    // The fence that follows names the products it completes.
    if (auto f = dyn_cast_or_null<NVVM::InlinePtxOp>(op->getNextNode()); f && !f.getReadWriteArgs().empty())
      why = " // " + ref(f.getReadWriteArgs().back()) + " is done";
    os << "attncc_wgmma_wait<" << w.getGroup() << ">();" << why << "\n";
  }
  else if (auto f = dyn_cast<NVVM::MembarOp>(op)) {
    if (f.getScope() != NVVM::MemScopeKind::GPU)
      return op->emitOpError("the CUDA emitter prints a memory barrier of gpu scope only");
    os << "__threadfence();" << why << "\n";
  } else if (auto bar = dyn_cast<NVVM::BarrierOp>(op); bar && bar.getReductionOp()) {
    // attncc-map-to-gpu's arrival: whether any thread's predicate holds.
    if (bar.getBarrierId() || bar.getNumberOfThreads() || *bar.getReductionOp() != NVVM::BarrierReduction::OR ||
        !bar.getRes())
      return op->emitOpError("the CUDA emitter prints a reducing barrier of the whole CTA with OR only");
    std::string n = define(bar.getRes());
    os << "const int " << n << " = __syncthreads_or(" << ref(bar.getReductionPredicate()) << ");" << why << "\n";
  } else if (auto bar = dyn_cast<NVVM::BarrierOp>(op)) {
    if (!bar.getBarrierId() || !bar.getNumberOfThreads() || bar.getReductionOp())
      return op->emitOpError("the CUDA emitter prints a named barrier with an id and a thread count");
    os << "attncc_bar_sync(" << ref(bar.getBarrierId()) << ", " << ref(bar.getNumberOfThreads()) << ");" << why
       << "\n";
  } else
    return op->emitOpError("is not a synchronization the CUDA emitter knows");
  return success();
}

LogicalResult KernelEmitter::emitStep(vector::StepOp op) {
  std::string l = layoutOf(op.getResult());
  if (l != "row" && l != "col" && !monoid::isRowPerThreadRow(l) && l != "rowthread.col")
    return op.emitOpError("vector.step needs a row or col layout, not '") << l << "'";
  std::string n = define(op.getResult());
  int64_t cnt = count(op.getResult());
  os << "long long " << n << "[" << cnt << "];\n#pragma unroll\n";
  os << "for (int e = 0; e < " << cnt << "; ++e) " << n << "[e] = "
     << coords(op.getType(), l, "e")[0] << ";\n";
  return success();
}

/// Row-major offset of `indices` into memref `m`.
std::string KernelEmitter::offset(Value m, ValueRange indices, bool narrow) {
  SmallVector<std::string> idx;
  for (Value i : indices)
    idx.push_back(narrow ? "(int)" + ref(i) : ref(i));
  return offsetOf(m, idx, narrow);
}

LogicalResult KernelEmitter::emitVectorLoad(vector::LoadOp op) {
  auto vt = op.getVectorType();
  if (isChunk(vt, op.getAlignment())) {
    os << "const uint4 " << define(op.getResult()) << " = *reinterpret_cast<const uint4 *>(&" << ref(op.getBase())
       << "[" << offset(op.getBase(), op.getIndices()) << "]);\n";
    return success();
  }
  std::string n = define(op.getResult());
  std::string base = fresh(n + "_at");
  os << "const long long " << base << " = " << offset(op.getBase(), op.getIndices()) << ";\n";
  os << scalarType(vt) << " " << n << "[" << vt.getNumElements() << "];\n";
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << vt.getNumElements() << "; ++e) " << n << "[e] = "
     << ref(op.getBase()) << "[" << base << " + e];\n";
  return success();
}

LogicalResult KernelEmitter::emitVectorStore(vector::StoreOp op) {
  auto vt = op.getVectorType();
  if (isChunk(vt, op.getAlignment())) {
    if (!isChunkValue(op.getValueToStore()))
      return op.emitOpError("the CUDA emitter stores a 16-byte chunk loaded as one (vector.load, arith.select)");
    os << "*reinterpret_cast<uint4 *>(&" << ref(op.getBase()) << "[" << offset(op.getBase(), op.getIndices())
       << "]) = " << ref(op.getValueToStore()) << ";\n";
    return success();
  }
  std::string base = fresh("at");
  os << "const long long " << base << " = " << offset(op.getBase(), op.getIndices()) << ";\n";
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << vt.getNumElements() << "; ++e) " << ref(op.getBase()) << "["
     << base << " + e] = " << elem(op.getValueToStore(), "e") << ";\n";
  return success();
}

} // namespace attncc::codegen
