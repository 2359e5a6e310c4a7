//===- EmitWgmma.cpp - wgmma contractions -----------------------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

/// Whether every reader of this rounded vector is a wgmma contraction that
/// takes it as a register A operand through packPair: then the rounded
/// array itself is never read, and is not written.
bool KernelEmitter::onlyPacked(arith::TruncFOp t) {
  if (!isa<VectorType>(t.getType()) || t->use_empty())
    return false;
  return llvm::all_of(t->getUsers(), [&](Operation *u) {
    auto c = dyn_cast<vector::ContractionOp>(u);
    std::string l = c ? layoutOf(c.getLhs()) : "";
    return c && c.getLhs() == t.getResult() && c.getRhs() != t.getResult() && c.getAcc() != t.getResult() &&
           (l == "a" || l == "c") && !c->hasAttr("attncc.handoff");
  });
}

/// Elements `at` and `at + 1` of a register A operand as one 32-bit
/// register. When the operand is P rounded from f32 (arith.truncf), the
/// pair is rounded and packed from the f32 values by one instruction.
std::string KernelEmitter::packPair(Value v, const std::string &at) {
  if (auto t = v.getDefiningOp<arith::TruncFOp>(); t && t.getIn().getType() != t.getType() &&
                                                 getElementTypeOrSelf(t.getIn().getType()).isF32()) {
    bool bf = getElementTypeOrSelf(t.getType()).isBF16();
    return std::string(bf ? "attncc_pack_bf16(" : "attncc_pack_f16(") + elem(t.getIn(), at) + ", " +
           elem(t.getIn(), at + " + 1") + ")";
  }
  return "attncc_pack(" + elem(v, at) + ", " + elem(v, at + " + 1") + ")";
}

/// One wgmma.mma_async shape as a device function: m64nNk16, f32 += A * B,
/// A from a descriptor (ss) or registers (rs), B from a descriptor, B
/// MN-major (transB) or K-major.
std::string wgmmaName(int64_t n, bool bf, bool regA, bool transB) {
  return "attncc_wgmma_m64n" + std::to_string(n) + "k16_" + (bf ? "bf16" : "f16") +
         (regA ? "_rs" : "_ss") + (transB ? "_tb" : "");
}
std::string wgmmaFunction(int64_t n, bool bf, bool regA, bool transB) {
  std::string t = bf ? "bf16" : "f16";
  int64_t regs = n / 2;
  auto op = [](int64_t i) { return "%" + std::to_string(i); };
  std::string d;
  for (int64_t i = 0; i < regs; ++i)
    d += (i ? ", " : "") + op(i);
  std::string a = regA ? "{" + op(regs) + ", " + op(regs + 1) + ", " + op(regs + 2) + ", " + op(regs + 3) + "}"
                       : op(regs);
  int64_t bIdx = regs + (regA ? 4 : 1), pIdx = bIdx + 1;
  std::string s = "__device__ __forceinline__ void " + wgmmaName(n, bf, regA, transB) + "(float *d, " +
                  (regA ? "const unsigned *a" : "unsigned long long da") + ", unsigned long long db) {\n";
  s += "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, " + op(pIdx) + ", 0;\\n\"\n";
  s += "               \"wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32." + t + "." + t +
       " {" + d + "}, " + a + ", " + op(bIdx) + ", p, 1, 1, " + (regA ? "" : "0, ") + (transB ? "1" : "0") +
       ";\\n}\\n\"\n";
  s += "               : ";
  for (int64_t i = 0; i < regs; ++i)
    s += std::string(i ? ", " : "") + (i && i % 8 == 0 ? "\n                 " : "") + "\"+f\"(d[" +
         std::to_string(i) + "])";
  s += "\n               : ";
  s += regA ? "\"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3])" : "\"l\"(da)";
  s += ", \"l\"(db), \"n\"(1)\n               : \"memory\");\n}\n";
  return s;
}

/// nvvm.inline_ptx "" rw(%acc, ...) after a wgmma wait (attncc-place-waits):
/// a register fence on each completed accumulator.
LogicalResult KernelEmitter::emitFenceAccumulators(NVVM::InlinePtxOp op) {
  if (!op.getPtxCode().empty() || !op.getReadOnlyArgs().empty() || op.getNumResults() || op.getPredicate())
    return op.emitOpError("the CUDA emitter prints only the empty register fence of attncc-place-waits");
  for (Value v : op.getReadWriteArgs()) {
    if (!v.getDefiningOp<vector::ContractionOp>())
      return op.emitOpError("fences only the products of contractions");
    os << "#pragma unroll\nfor (int e = 0; e < " << count(v) << "; ++e) attncc_fence_operand(" << ref(v)
       << "[e]);\n";
  }
  return success();
}

/// OVERLAP=wg: a run of adjacent contractions marked attncc.turn is
/// issued by one warpgroup at a time, in warpgroup order: named barrier
/// 1 + g is warpgroup g's turn (its 128 threads wait, the previous
/// warpgroup's 128 arrive).
bool KernelEmitter::isTurn(Operation *op) { return op && isa<vector::ContractionOp>(op) && op->hasAttr("attncc.turn"); }

/// Whether `op` is part of a wait for a TMA block (attncc-lower-copies:
/// the wait count's load, increment and store, the slot and phase it gives,
/// and the mbarrier wait itself).
static bool isBlockWait(Operation *op) {
  if (isa<nvgpu::MBarrierTryWaitParityOp>(op))
    return true;
  if (auto l = dyn_cast<memref::LoadOp>(op))
    return l.getMemRef().getDefiningOp<memref::AllocaOp>() &&
           llvm::all_of(op->getUsers(), [](Operation *u) { return isBlockWait(u); });
  if (auto s = dyn_cast<memref::StoreOp>(op))
    return bool(s.getMemRef().getDefiningOp<memref::AllocaOp>());
  return isa<arith::ArithDialect>(op->getDialect()) && op->getNumResults() &&
         llvm::all_of(op->getUsers(), [](Operation *u) { return isBlockWait(u); });
}

/// The op before (or after) `op`, skipping the waits for TMA blocks: a run
/// of turn contractions has nothing else between them (a wait is for a
/// block's mbarrier, not an instruction of the run).
static Operation *neighbour(Operation *op, bool after) {
  do
    op = after ? op->getNextNode() : op->getPrevNode();
  while (op && isBlockWait(op));
  return op;
}

bool KernelEmitter::turnStarts(Operation *op) { return isTurn(op) && !isTurn(neighbour(op, false)); }

bool KernelEmitter::turnEnds(Operation *op) { return isTurn(op) && !isTurn(neighbour(op, true)); }

/// acc + lhs * rhs on wgmma.m64nNk16: each warpgroup issues KC atoms for
/// its 64 rows. B is a descriptor of its swizzled block; A a descriptor
/// (staged) or registers (a, or c: P). The group is waited for at once.
LogicalResult KernelEmitter::emitWgmma(vector::ContractionOp op) {
  auto acc = cast<VectorType>(op.getAccType());
  auto lhsT = cast<VectorType>(op.getLhsType());
  int64_t n = acc.getDimSize(1), kc = lhsT.getDimSize(1) / 16;
  bool bf = lhsT.getElementType().isBF16();
  std::string ll = layoutOf(op.getLhs()), rl = layoutOf(op.getRhs());
  bool kn = op.getIndexingMapsArray()[1].getResult(0) == getAffineDimExpr(2, op.getContext());
  if (op.getIndexingMapsArray()[0].getResult(0) != getAffineDimExpr(0, op.getContext()))
    return op.emitOpError("wgmma needs the left operand as [M x K]");
  if (rl != "smem")
    return op.emitOpError("wgmma reads its right operand from shared memory");
  bool regA = ll != "smem";
  if (regA && ll != "a" && ll != "c")
    return op.emitOpError("left operand layout '") << ll << "' cannot feed wgmma";
  std::string fn = wgmmaName(n, bf, regA, kn);
  helpers[fn] = wgmmaFunction(n, bf, regA, kn);
  std::string res = define(op.getResult());
  int64_t cnt = count(op.getResult());
  // Elements per 128-byte slab row of the swizzled blocks.
  int64_t slab = monoid::slabElems(lhsT.getElementType());
  auto rhsT = cast<VectorType>(op.getRhsType());
  os << "// " << res << ": " << acc.getDimSize(0) << "x" << n << "x" << lhsT.getDimSize(1)
     << " on wgmma.m64n" << n << "k16 (" << kc << " k-steps per warpgroup, B "
     << (kn ? "MN" : "K") << "-major, A from " << (regA ? "registers" : "shared memory") << ")\n";
  os << "float " << res << "[" << cnt << "];\n#pragma unroll\n";
  os << "for (int e = 0; e < " << cnt << "; ++e) " << res << "[e] = " << elem(op.getAcc(), "e") << ";\n";
  os << "{\n";
  os.indent();
  if (regA) {
    // Every k-step's A fragment is packed before the first mma_async:
    // registers written between two of them make ptxas fence each one.
    std::string at = ll == "a" ? "(kc * 4 + r) * 2" : "((2 * kc + (r >> 1)) * 2 + (r & 1)) * 2";
    os << "unsigned a[" << kc << "][4];\n";
    os << "#pragma unroll\nfor (int kc = 0; kc < " << kc << "; ++kc)\n";
    os << "#pragma unroll\n  for (int r = 0; r < 4; ++r) a[kc][r] = " << packPair(op.getLhs(), at) << ";\n";
  }
  os << "#pragma unroll\nfor (int e = 0; e < " << cnt << "; ++e) attncc_fence_operand(" << res << "[e]);\n";
  if (turnStarts(op))
    os << "attncc_bar_sync(1 + (warp >> 2), 256); // this warpgroup's turn to issue\n";
  os << "attncc_wgmma_arrive();\n";
  os << "#pragma unroll\nfor (int kc = 0; kc < " << kc << "; ++kc) {\n";
  os.indent();
  std::string sl = std::to_string(slab);
  std::string rhs = ref(op.getRhs());
  if (kn) // B = [K x N], N contiguous: 16 rows of every slab per k-step; LBO = slab stride
    os << "const unsigned long long db = attncc_desc_sw128(&" << rhs << "[kc * " << 16 * slab << "], "
       << rhsT.getDimSize(0) * 128 << ");\n";
  else // B = [N x K], K contiguous: k-step kc is 32 B into slab kc * 16 / S
    os << "const unsigned long long db = attncc_desc_sw128(&" << rhs << "[(kc * 16 / " << sl << ") * "
       << rhsT.getDimSize(0) * slab << " + (kc * 16) % " << sl << "], 0);\n";
  if (regA) {
    os << fn << "(" << res << ", a[kc], db);\n";
  } else {
    os << "const unsigned long long da = attncc_desc_sw128(&" << ref(op.getLhs()) << "[(kc * 16 / "
       << sl << ") * " << tileRows * slab << " + (warp >> 2) * " << 64 * slab << " + (kc * 16) % "
       << sl << "], 0);\n";
    os << fn << "(" << res << ", da, db);\n";
  }
  os.unindent();
  os << "}\n";
  os << "attncc_wgmma_commit(); // waited for at the first use of " << res << " (attncc-place-waits)\n";
  if (turnEnds(op))
    os << "attncc_bar_arrive(1 + ((warp >> 2) + 1) % " << warps / 4 << ", 256); // the next warpgroup's turn\n";
  os.unindent();
  os << "}\n";
  return success();
}

} // namespace attncc::codegen
