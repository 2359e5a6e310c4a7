//===- EmitControl.cpp - loops, branches, compares, reductions --------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

LogicalResult KernelEmitter::emitMultiReduction(vector::MultiDimReductionOp op) {
  auto src = cast<VectorType>(op.getSourceVectorType());
  std::string from = layoutOf(op.getSource()), to = layoutOf(op.getResult());
  // rowthread / rowhalf: the thread holds its row whole.
  bool rowthread = (from == "rowthread" && to == "rowthread.row") || (from == "rowhalf" && to == "rowhalf.row");
  // ROWSUM=end: a c tile as [M, N/8, 4, 2] summed over dims 1 and 3 is each
  // lane's share of its rows (quad, no shuffles); a quad summed over its
  // lanes is the row (the two shuffles, once, after the fold).
  bool lanes = from == "c" && to == "quad" && src.getRank() == 4 &&
               op.getReductionDims() == ArrayRef<int64_t>{1, 3};
  bool quads = from == "quad" && to == "row" && op.getReductionDims() == ArrayRef<int64_t>{1};
  if (!((from == "c" && to == "row" && op.getReductionDims() == ArrayRef<int64_t>{1}) || lanes || quads ||
        (rowthread && op.getReductionDims() == ArrayRef<int64_t>{1})))
    return op.emitOpError("only a row reduction of a c (rowthread, rowhalf, quad) tile, or of a c tile as "
                          "[M, N/8, 4, 2] over dims 1 and 3, can be emitted");
  std::string f;
  if (op.getKind() == vector::CombiningKind::MAXIMUMF) f = "fmaxf";
  else if (op.getKind() != vector::CombiningKind::ADD)
    return op.emitOpError("only <maximumf> and <add> row reductions can be emitted");
  auto comb = [&](const std::string &a, const std::string &b) {
    return f.empty() ? "(" + a + " + " + b + ")" : f + "(" + a + ", " + b + ")";
  };
  if (rowthread) { // the thread holds its row whole: no shuffles
    std::string n = define(op.getResult()), x = fresh("x");
    os << "float " << x << " = " << elem(op.getSource(), "0") << ";\n";
    os << "#pragma unroll\nfor (int e = 1; e < " << src.getDimSize(1) << "; ++e) " << x << " = "
       << comb(x, elem(op.getSource(), "e")) << ";\n";
    os << "float " << n << "[1] = {" << comb(x, elem(op.getAcc(), "0")) << "};\n";
    return success();
  }
  if ((quads || lanes) && !f.empty())
    return op.emitOpError("only an <add> reduction into or out of lane partials (quad) can be emitted");
  // One value a row slot (rows g and g + 8 of each 16-row tile): the
  // thread's own elements of the row (c, or c as [M, N/8, 4, 2]: the same
  // registers), or its quad element; then, unless the result is the lanes'
  // partials, the quad's four combined by two shuffles.
  std::string n = define(op.getResult()), x = fresh("x");
  os << "float " << n << "[" << fm * 2 << "];\n";
  os << "#pragma unroll\nfor (int slot = 0; slot < " << fm * 2 << "; ++slot) {\n";
  os.indent();
  if (quads) {
    os << "float " << x << " = " << elem(op.getSource(), "slot") << ";\n";
  } else {
    int64_t nf = lanes ? src.getDimSize(1) : src.getDimSize(1) / 8;
    std::string at = "(((slot >> 1) * " + std::to_string(nf) + " + nf) * 2 + (slot & 1)) * 2 + ";
    os << "float " << x << " = " << elem(op.getSource(), "(((slot >> 1) * " + std::to_string(nf) + ") * 2 + (slot & 1)) * 2") << ";\n";
    os << "#pragma unroll\nfor (int nf = 0; nf < " << nf << "; ++nf) {\n";
    os << "  if (nf) " << x << " = " << comb(x, elem(op.getSource(), at + "0")) << ";\n";
    os << "  " << x << " = " << comb(x, elem(op.getSource(), at + "1")) << ";\n";
    os << "}\n";
  }
  if (!lanes) {
    os << x << " = " << comb(x, "__shfl_xor_sync(0xffffffffu, " + x + ", 1)") << ";\n";
    os << x << " = " << comb(x, "__shfl_xor_sync(0xffffffffu, " + x + ", 2)") << ";\n";
  }
  os << n << "[slot] = " << comb(x, elem(op.getAcc(), "slot")) << ";\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult KernelEmitter::emitFor(scf::ForOp f) {
  SmallVector<std::string> vars;
  for (auto [arg, init, res] : llvm::zip(f.getRegionIterArgs(), f.getInitArgs(), f.getResults())) {
    std::string n = define(arg);
    names[res] = n;
    if (isa<MemRefType>(arg.getType())) // a carried view keeps its init's shape
      dims[arg] = dims[res] = dims[init];
    if (auto it = strides.find(init); it != strides.end())
      strides[arg] = strides[res] = it->second;
    declareVar(n, arg);
    vars.push_back(n);
  }
  assign(vars, f.getInitArgs(), f.getRegionIterArgs());
  SmallVector<Operation *> waits;
  std::swap(waits, waitsBeforeLoop);
  for (Operation *w : waits)
    if (failed(emitOp(*w)))
      return failure();
  std::string iv = define(f.getInductionVar());
  if (Attribute u = f->getAttr("attncc.unroll")) { // the loops of an atom, a split's combine
    if (auto n = dyn_cast<IntegerAttr>(u))
      os << "#pragma unroll " << n.getInt() << "\n";
    else
      os << "#pragma unroll\n";
  }
  os << "for (" << regType(f.getInductionVar().getType()) << " " << iv << " = " << ref(f.getLowerBound()) << "; " << iv << " < "
     << ref(f.getUpperBound()) << "; " << iv << " += " << ref(f.getStep()) << ") {\n";
  os.indent();
  if (failed(emitBlock(*f.getBody())))
    return failure();
  auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
  // A yield that passes one iter arg into another needs copies first.
  bool aliases = llvm::any_of(yield.getOperands(), [&](Value v) {
    return llvm::is_contained(f.getRegionIterArgs(), v);
  });
  if (aliases) {
    SmallVector<std::string> tmps;
    for (Value v : yield.getOperands()) {
      std::string t = fresh("next");
      declareVar(t, v);
      tmps.push_back(t);
    }
    assign(tmps, yield.getOperands(), f.getRegionIterArgs());
    for (auto [var, tmp, v] : llvm::zip(vars, tmps, yield.getOperands()))
      if (isa<VectorType>(v.getType()) && layoutOf(v) != "smem")
        os << "for (int e = 0; e < " << count(v) << "; ++e) " << var << "[e] = " << tmp
           << "[e];\n";
      else
        os << var << " = " << tmp << ";\n";
  } else {
    assign(vars, yield.getOperands(), f.getRegionIterArgs());
  }
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult KernelEmitter::emitIf(scf::IfOp op) {
  if (op->hasAttr("attncc.roles"))
    return emitRoles(op);
  SmallVector<std::string> vars;
  for (Value r : op.getResults()) {
    std::string n = define(r);
    declareVar(n, r);
    vars.push_back(n);
  }
  os << "if (" << ref(op.getCondition()) << ") {\n";
  os.indent();
  if (failed(emitBlock(op.getThenRegion().front())))
    return failure();
  assign(vars, op.thenYield().getOperands(), op.getResults());
  os.unindent();
  if (!op.getElseRegion().empty()) {
    os << "} else {\n";
    os.indent();
    if (failed(emitBlock(op.getElseRegion().front())))
      return failure();
    assign(vars, op.elseYield().getOperands(), op.getResults());
    os.unindent();
  }
  os << "}\n";
  return success();
}

LogicalResult KernelEmitter::emitCmpI(arith::CmpIOp op) {
  using P = arith::CmpIPredicate;
  const char *text = "";
  bool isUnsigned = false;
  switch (op.getPredicate()) {
  case P::eq: text = "=="; break;
  case P::ne: text = "!="; break;
  case P::slt: text = "<"; break;
  case P::sle: text = "<="; break;
  case P::sgt: text = ">"; break;
  case P::sge: text = ">="; break;
  case P::ult: text = "<"; isUnsigned = true; break;
  case P::ule: text = "<="; isUnsigned = true; break;
  case P::ugt: text = ">"; isUnsigned = true; break;
  case P::uge: text = ">="; isUnsigned = true; break;
  }
  std::string t = text;
  // Index vectors compare in 32 bits (regType), scalars in 64.
  bool narrow = isa<VectorType>(op.getLhs().getType()) && getElementTypeOrSelf(op.getLhs().getType()).isIndex();
  return elementwise(op, [t, isUnsigned, narrow](ArrayRef<std::string> a) {
    if (isUnsigned)
      return std::string(narrow ? "((unsigned)" : "((unsigned long long)") + a[0] + " " + t +
             (narrow ? " (unsigned)" : " (unsigned long long)") + a[1] + ")";
    if (narrow)
      return "((int)" + a[0] + " " + t + " (int)" + a[1] + ")";
    return "(" + a[0] + " " + t + " " + a[1] + ")";
  });
}

LogicalResult KernelEmitter::emitCmpF(arith::CmpFOp op) {
  using P = arith::CmpFPredicate;
  const char *text = nullptr;
  switch (op.getPredicate()) {
  case P::OEQ: text = "=="; break;
  case P::OLT: text = "<"; break;
  case P::OLE: text = "<="; break;
  case P::OGT: text = ">"; break;
  case P::OGE: text = ">="; break;
  case P::UNE: text = "!="; break;
  default: return op.emitOpError("predicate not supported by the CUDA emitter");
  }
  return elementwise(op, binary(text));
}

LogicalResult KernelEmitter::emitReduction(vector::ReductionOp op) {
  bool orI1 = op.getKind() == vector::CombiningKind::OR && op.getType().isInteger(1);
  if ((op.getKind() != vector::CombiningKind::ADD && !orI1) || op.getAcc())
    return op.emitOpError("only an accumulator-free <add> reduction, or <or> of i1, is supported");
  if (!layoutOf(op.getVector()).empty())
    return op.emitOpError("the CUDA emitter reduces a thread's own vector (no fragment layout)");
  auto vt = cast<VectorType>(op.getVector().getType());
  std::string t = scalarType(op.getType());
  std::string n = define(op.getResult());
  os << t << " " << n << " = " << elem(op.getVector(), "0") << ";\n";
  os << "#pragma unroll\n";
  os << "for (int e = 1; e < " << vt.getNumElements() << "; ++e) " << n << (orI1 ? " = " + n + " ||" : " +=") << " "
     << elem(op.getVector(), "e") << ";\n";
  return success();
}

} // namespace attncc::codegen
