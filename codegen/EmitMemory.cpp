//===- EmitMemory.cpp - reads, writes, layouts, staging ---------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

vector::TransferReadOp KernelEmitter::stagedRead(Value v) { return monoid::stagedRead(v); }

bool KernelEmitter::isCp(Value staged) {
  return monoid::isCp(stagedRead(staged));
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
  if (l == "row") return fm * 2;
  if (l == "col") return (vt.getNumElements() / 8) * 2;
  if (l == "a") return fm * (vt.getDimSize(1) / 16) * 8;
  if (l == "b.nk" || l == "b.kn") return vt.getNumElements() / 32;
  return 0; // smem: not a register array
}

/// The logical coordinates (one per vector dimension) of element `e` of a
/// value in layout `l`.
SmallVector<std::string> KernelEmitter::coords(VectorType vt, const std::string &l, const std::string &e) {
  std::string x = "(" + e + ")";
  std::string w0 = "warp * " + std::to_string(fm * 16);
  auto n = [](int64_t v) { return std::to_string(v); };
  if (l == "c") {
    int64_t nf = vt.getDimSize(1) / 8;
    return {w0 + " + (" + x + " / " + n(4 * nf) + ") * 16 + ((" + x + " >> 1) & 1) * 8 + g",
            "((" + x + " >> 2) % " + n(nf) + ") * 8 + 2 * t4 + (" + x + " & 1)"};
  }
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

std::string KernelEmitter::offsetOf(Value m, ArrayRef<std::string> idx) {
  SmallVector<std::string> &d = dims[m];
  std::string acc = idx[0];
  for (size_t k = 1; k < idx.size(); ++k)
    acc = "(" + acc + ") * " + d[k] + " + " + idx[k];
  return acc;
}

LogicalResult KernelEmitter::emitTransferRead(vector::TransferReadOp op) {
  std::string l = layoutOf(op.getResult());
  if (l.empty())
    return op.emitOpError("needs a layout (attncc-atomize) to be emitted");
  if (l == "smem")
    return emitStage(op);
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
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << count(v) << "; ++e) ";
  if (!ok.empty())
    os << "if (" << ok << ") ";
  os << ref(op.getBase()) << "[" << offsetOf(op.getBase(), idx) << "] = " << elem(v, "e") << ";\n";
  return success();
}

/// A staged block: every thread copies 16-byte chunks of the R x C block
/// into its __shared__ array (cp.async, or loads and stores for sync);
/// rows past the end are zero-filled. The contraction waits at first use.
LogicalResult KernelEmitter::emitStage(vector::TransferReadOp op) {
  if (monoid::isTma(op))
    return emitTmaStage(op);
  auto vt = op.getVectorType();
  std::string buf = smemOf[op.getResult()];
  int64_t rows = vt.getDimSize(0), cols = vt.getDimSize(1), stride = smemStride[op.getResult()];
  int64_t chunksPerRow = cols * vt.getElementTypeBitWidth() / 8 / 16;
  int64_t per = cols / chunksPerRow;
  bool cp = isCp(op.getResult());
  if (op->hasAttr("attncc.ring")) {
    // A ring: this copy fills the next buffer, which no block in use occupies.
    std::string p = define(op.getResult());
    os << scalarType(vt) << " *" << p << " = " << buf << " + " << buf << "_slot * " << rows * stride
       << ";\n";
    if (monoid::ringSlots(op) == 2)
      os << buf << "_slot ^= 1;\n";
    else
      os << buf << "_slot = " << buf << "_slot == " << monoid::ringSlots(op) - 1 << " ? 0 : " << buf
         << "_slot + 1;\n";
    buf = p;
  } else {
    names[op.getResult()] = buf;
  }
  std::string c = fresh("chunk");
  os << "// " << buf << ": " << rows << "x" << cols << " block -> shared memory ("
     << (cp ? "cp.async" : "sync") << (monoid::isSwizzled(op) ? ", 128-byte swizzle" : "") << ")\n";
  os << "for (int " << c << " = threadIdx.x; " << c << " < " << rows * chunksPerRow << "; " << c
     << " += " << warps * 32 << ") {\n";
  os.indent();
  std::string r = "(" + c + " / " + std::to_string(chunksPerRow) + ")";
  std::string col = "(" + c + " % " + std::to_string(chunksPerRow) + ") * " + std::to_string(per);
  SmallVector<bool> inb{op.isDimInBounds(0), true};
  SmallVector<std::string> idx;
  std::string ok;
  transferIndex(op, op.getBase(), op.getIndices(), op.getPermutationMap(), inb, {r, col}, idx, ok);
  std::string okv = fresh("in");
  os << "const bool " << okv << " = " << (ok.empty() ? "true" : ok) << ";\n";
  std::string src = "&" + ref(op.getBase()) + "[" + okv + " ? " + offsetOf(op.getBase(), idx) + " : 0]";
  std::string dst = "&" + buf + "[" + r + " * " + std::to_string(stride) + " + " + col + "]";
  if (monoid::isSwizzled(op)) {
    // 128-byte slabs of S elements; chunk c of row r lands at chunk c ^ (r % 8).
    int64_t slabChunks = 128 / 16, slab = monoid::slabElems(vt.getElementType());
    std::string ch = "(" + c + " % " + std::to_string(chunksPerRow) + ")";
    dst = "&" + buf + "[(" + ch + " / " + std::to_string(slabChunks) + ") * " +
          std::to_string(rows * slab) + " + " + r + " * " + std::to_string(slab) + " + ((" + ch +
          " % " + std::to_string(slabChunks) + ") ^ (" + r + " & 7)) * " + std::to_string(per) + "]";
  }
  if (cp)
    os << "attncc_cp_async16(" << dst << ", " << src << ", " << okv << ");\n";
  else
    os << "*reinterpret_cast<uint4 *>(" << dst << ") = " << okv
       << " ? *reinterpret_cast<const uint4 *>(" << src << ") : make_uint4(0, 0, 0, 0);\n";
  os.unindent();
  os << "}\n";
  return success();
}

/// The buffer of TMA buffer `buf` that fill number `buf<counter>` (_w:
/// issued, _r: waited for) uses.
std::string KernelEmitter::slotOf(const std::string &buf, const char *counter) {
  int64_t slots = tmaBufs[buf].slots;
  return slots == 1 ? "0" : "(" + buf + counter + " % " + std::to_string(slots) + ")";
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
/// the dynamic shared memory. The staged reads at its offset, or the
/// handoff contraction, use it.
LogicalResult KernelEmitter::emitView(memref::ViewOp op) {
  auto off = getConstantIntValue(op.getByteShift());
  if (!off)
    return op.emitOpError("the CUDA emitter prints a shared buffer at a constant offset");
  auto mt = op.getType();
  std::string buf = define(op.getResult());
  vector::TransferReadOp first;
  kernel.walk([&](vector::TransferReadOp r) {
    if (monoid::isStaged(r) && monoid::smemOffset(r) == *off) {
      smemOf[r.getResult()] = buf;
      if (!first)
        first = r;
    }
  });
  vector::ContractionOp handoff;
  kernel.walk([&](vector::ContractionOp c) {
    if (auto h = c->getAttrOfType<IntegerAttr>("attncc.handoff_offset"); h && h.getInt() == *off) {
      handoffSlab[c] = buf;
      handoff = c;
    }
  });
  os << scalarType(mt.getElementType()) << " *const " << buf << " = reinterpret_cast<"
     << scalarType(mt.getElementType()) << " *>(attncc_smem + " << *off << "); // ";
  if (handoff) {
    auto lhs = cast<VectorType>(handoff.getLhsType());
    os << lhs.getDimSize(0) << "x" << lhs.getDimSize(1) << " left operand of an mma (REPACK=smem), rows padded by 16 B\n";
    return success();
  }
  if (!first) { // a buffer nothing reads
    os << "unused\n";
    return success();
  }
  auto vt = first.getVectorType();
  auto ring = first->getAttrOfType<IntegerAttr>("attncc.ring");
  os << (ring ? "a ring of " + std::to_string(monoid::ringSlots(first)) + " " : std::string()) << vt.getDimSize(0)
     << "x" << vt.getDimSize(1) << (monoid::rowPad(first) ? ", rows padded by 16 B" : "")
     << (monoid::isSwizzled(first) ? ", 128-byte swizzled slabs" : "") << "\n";
  if (monoid::isTma(first)) {
    tmaBufs[buf] = TmaBuf{monoid::ringSlots(first), vt.getDimSize(0) * smemStride[first.getResult()]};
    lastTma = buf;
  } else if (ring) {
    taken[buf + "_slot"] = 1;
    os << "int " << buf << "_slot = 0;\n";
  }
  return success();
}

/// nvgpu.mbarrier.create (attncc-allocate-smem): the "full" and then the
/// "empty" barriers of the TMA buffer viewed just before; its fill and
/// wait counts follow them.
LogicalResult KernelEmitter::emitMbarrierCreate(nvgpu::MBarrierCreateOp op) {
  if (lastTma.empty())
    return op.emitOpError("the CUDA emitter prints mbarriers right after the view of their TMA buffer");
  TmaBuf &t = tmaBufs[lastTma];
  std::string n = define(op.getResult());
  os << "__shared__ __align__(8) unsigned long long " << n << "[" << op.getBarriers().getType().getNumBarriers()
     << "];" << (t.full.empty() ? " // mbarriers: landed" : " // mbarriers: free") << "\n";
  if (t.full.empty()) {
    t.full = n;
    return success();
  }
  t.empty = n;
  for (const char *sfx : {"_w", "_r"})
    taken[lastTma + sfx] = 1;
  os << "unsigned " << lastTma << "_w = 0, " << lastTma << "_r = 0; // blocks issued, blocks waited for\n";
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
  else if (auto bar = dyn_cast<NVVM::BarrierOp>(op)) {
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
  if (l != "row" && l != "col")
    return op.emitOpError("vector.step needs a row or col layout, not '") << l << "'";
  std::string n = define(op.getResult());
  int64_t cnt = count(op.getResult());
  os << "long long " << n << "[" << cnt << "];\n#pragma unroll\n";
  os << "for (int e = 0; e < " << cnt << "; ++e) " << n << "[e] = "
     << coords(op.getType(), l, "e")[0] << ";\n";
  return success();
}

/// Row-major offset of `indices` into memref `m`.
std::string KernelEmitter::offset(Value m, ValueRange indices) {
  SmallVector<std::string> &d = dims[m];
  std::string acc = ref(indices[0]);
  for (size_t k = 1; k < indices.size(); ++k)
    acc = "(" + acc + ") * " + d[k] + " + " + ref(indices[k]);
  return acc;
}

LogicalResult KernelEmitter::emitVectorLoad(vector::LoadOp op) {
  auto vt = op.getVectorType();
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
  std::string base = fresh("at");
  os << "const long long " << base << " = " << offset(op.getBase(), op.getIndices()) << ";\n";
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << vt.getNumElements() << "; ++e) " << ref(op.getBase()) << "["
     << base << " + e] = " << elem(op.getValueToStore(), "e") << ";\n";
  return success();
}

} // namespace attncc::codegen
