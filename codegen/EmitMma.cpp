//===- EmitMma.cpp - mma.sync contractions ----------------------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

/// Whether every reader of this rounded vector is a contraction that takes
/// it as a register A operand through packPair (not through a REPACK=smem
/// slab): then the rounded array itself is never read, and is not written.
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

/// acc + lhs * rhs on mma.sync.m16n8k16: per warp FM x NF x KC atoms.
LogicalResult KernelEmitter::emitContract(vector::ContractionOp op) {
  if (monoid::isWgmma(op))
    return emitWgmma(op);
  auto acc = cast<VectorType>(op.getAccType());
  auto lhsT = cast<VectorType>(op.getLhsType());
  int64_t nfN = acc.getDimSize(1) / 8, kc = lhsT.getDimSize(1) / 16;
  bool bf = lhsT.getElementType().isBF16();
  std::string ll = layoutOf(op.getLhs()), rl = layoutOf(op.getRhs());
  bool kn = op.getIndexingMapsArray()[1].getResult(0) == getAffineDimExpr(2, op.getContext());
  std::string n = define(op.getResult());
  int64_t cnt = count(op.getResult());
  os << "// " << n << ": " << acc.getDimSize(0) << "x" << acc.getDimSize(1) << "x"
     << lhsT.getDimSize(1) << " on mma.m16n8k16 (" << fm << "x" << nfN << "x" << kc
     << " atoms per warp)\n";
  os << "float " << n << "[" << cnt << "];\n#pragma unroll\n";
  os << "for (int e = 0; e < " << cnt << "; ++e) " << n << "[e] = " << elem(op.getAcc(), "e") << ";\n";
  // B fragments of n8 tile `nf` (x2), or of `nf` and `nf + 1` (x4,
  // attncc-ldmatrix-x4: lanes 16-31 address the second tile).
  auto loadB = [&](bool four) -> LogicalResult {
    os << "unsigned b[" << (four ? 4 : 2) << "];\n";
    if (rl == "smem") {
      std::string buf = ref(op.getRhs());
      std::string st = std::to_string(rowStride(op.getRhs()));
      std::string n8 = four ? "(nf + (lane >> 4))" : "nf";
      std::string fn = four ? "attncc_ldmatrix_x4" : "attncc_ldmatrix_x2";
      if (kn)
        os << fn << "_trans(b, &" << buf << "[(kc * 16 + (lane & 7) + ((lane >> 3) & 1) * 8) * " << st
           << " + " << n8 << " * 8]);\n";
      else
        os << fn << "(b, &" << buf << "[(" << n8 << " * 8 + (lane & 7)) * " << st
           << " + kc * 16 + ((lane >> 3) & 1) * 8]);\n";
      return success();
    }
    if (rl == "b.nk" || rl == "b.kn") {
      std::string at = "((nf * " + std::to_string(kc) + " + kc) * 2 + r) * 2";
      os << "#pragma unroll\nfor (int r = 0; r < 2; ++r) b[r] = attncc_pack(" << elem(op.getRhs(), at)
         << ", " << elem(op.getRhs(), at + " + 1") << ");\n";
      return success();
    }
    return op.emitOpError("right operand layout '") << rl << "' cannot feed mma.sync";
  };
  // ACC=f16x (attncc-accumulate): the k steps accumulate into half2
  // partials, added to the fp32 accumulator after the last one.
  bool f16x = op->hasAttr("attncc.acc");
  auto stepsAttr = op->getAttrOfType<IntegerAttr>("attncc.acc_steps");
  int64_t steps = stepsAttr ? stepsAttr.getInt() : 0; // 0: one promotion after the last k step
  std::string part = f16x ? fresh(n + "_f16") : "";
  if (f16x) {
    if (bf)
      return op.emitOpError("ACC=f16x needs f16 operands");
    os << "unsigned " << part << "[" << cnt / 2 << "] = {}; // fp16 partials (ACC=f16x)\n";
  }
  // One atom per row tile for n8 tile `nf + h`.
  auto mmaRow = [&](const std::string &h, const std::string &bOff) {
    os << "#pragma unroll\nfor (int fm = 0; fm < " << fm << "; ++fm) ";
    if (f16x)
      os << "attncc_mma_f16acc(&" << part << "[(fm * " << nfN << " + nf" << h << ") * 2], a[fm], b" << bOff
         << ");\n";
    else
      os << (bf ? "attncc_mma_bf16" : "attncc_mma_f16") << "(&" << n << "[(fm * " << nfN << " + nf" << h
         << ") * 4], a[fm], b" << bOff << ");\n";
  };
  // (The n8 tiles come in pairs: both the key block and the head dim are
  // multiples of 16, the depth of one of the two products.)
  bool x4 = rl == "smem" && op->hasAttr("attncc.ldmatrix"); // attncc-ldmatrix-x4 checked N
  if (x4 && nfN % 2)
    return op.emitOpError("attncc.ldmatrix = \"x4\" needs an even number of n8 tiles, not ") << nfN;
  // REPACK=smem (attncc-handoff): the C fragments of the left operand go
  // to this warp's rows of a shared slab and come back as A fragments.
  std::string slab;
  int64_t slabStride = monoid::handoffStride(lhsT);
  if (auto it = handoffSlab.find(op); it != handoffSlab.end()) {
    if (ll != "c")
      return op.emitOpError("REPACK=smem needs the left operand in C fragments, not '") << ll << "'";
    slab = it->second;
    SmallVector<std::string> rc = coords(lhsT, "c", "e");
    os << "__syncwarp(); // REPACK=smem: this warp is done reading its rows of " << slab << "\n";
    os << "#pragma unroll\nfor (int e = 0; e < " << count(op.getLhs()) << "; ++e) " << slab << "[(" << rc[0]
       << ") * " << slabStride << " + " << rc[1] << "] = " << elem(op.getLhs(), "e") << ";\n";
    os << "__syncwarp(); // its rows of " << slab << " are written\n";
  }
  os << "#pragma unroll\nfor (int kc = 0; kc < " << kc << "; ++kc) {\n";
  os.indent();
  // The A fragments of this k step, loaded once for all n8 tiles.
  os << "unsigned a[" << fm << "][4];\n#pragma unroll\nfor (int fm = 0; fm < " << fm << "; ++fm) {\n";
  os.indent();
  if (ll == "smem" || !slab.empty()) {
    std::string st = slab.empty() ? std::to_string(rowStride(op.getLhs()))
                                  : std::to_string(slabStride);
    os << "attncc_ldmatrix_x4(a[fm], &" << (slab.empty() ? ref(op.getLhs()) : slab) << "[(warp * " << fm * 16
       << " + fm * 16 + (lane & 15)) * " << st << " + kc * 16 + (lane >> 4) * 8]);\n";
  } else {
    std::string at;
    if (ll == "a")
      at = "((fm * " + std::to_string(kc) + " + kc) * 4 + r) * 2";
    else if (ll == "c") // C fragments (n8 pairs) are the A fragment of k16
      at = "((fm * " + std::to_string(2 * kc) + " + 2 * kc + (r >> 1)) * 2 + (r & 1)) * 2";
    else
      return op.emitOpError("left operand layout '") << ll << "' cannot feed mma.sync";
    os << "#pragma unroll\nfor (int r = 0; r < 4; ++r) a[fm][r] = " << packPair(op.getLhs(), at) << ";\n";
  }
  os.unindent();
  os << "}\n";
  if (x4) {
    os << "#pragma unroll\nfor (int nf = 0; nf < " << nfN << "; nf += 2) { // ldmatrix.x4: two n8 tiles\n";
    os.indent();
    if (failed(loadB(true)))
      return failure();
    mmaRow("", "");
    mmaRow(" + 1", " + 2");
    os.unindent();
    os << "}\n";
  } else {
    os << "#pragma unroll\nfor (int nf = 0; nf < " << nfN << "; ++nf) {\n";
    os.indent();
    if (failed(loadB(false)))
      return failure();
    mmaRow("", "");
    os.unindent();
    os << "}\n";
  }
  // ACC=f16x<s>: the partials into fp32 after every s k steps and the last
  // (kc is unrolled, so the condition folds), then from zero again.
  auto promote = [&]() {
    os << "#pragma unroll\nfor (int e = 0; e < " << cnt << "; ++e) " << n << "[e] += attncc_half_of(" << part
       << "[e >> 1], e & 1); // the fp16 partials into fp32\n";
  };
  if (f16x && steps) {
    os << "if ((kc + 1) % " << steps << " == 0 || kc == " << kc - 1 << ") { // ACC=f16x" << steps << "\n";
    os.indent();
    promote();
    os << "#pragma unroll\nfor (int e = 0; e < " << cnt / 2 << "; ++e) " << part << "[e] = 0u;\n";
    os.unindent();
    os << "}\n";
  }
  os.unindent();
  os << "}\n";
  if (f16x && !steps)
    promote();
  return success();
}

} // namespace attncc::codegen
