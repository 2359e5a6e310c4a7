//===- CudaEmitter.cpp - tile-level IR -> CUDA C++ ------------------------===//
//
// One function per op kind, dispatched by a TypeSwitch; no text is patched
// afterwards. Conventions of the emitted code:
//   * every SSA value is a C++ variable named after its NameLoc (%q_i -> q_i,
//     %alpha -> alpha), made unique with a suffix; others are v<N>;
//   * constants are written inline as literals;
//   * a vector<N x T> value is an array T name[N]; elementwise ops on vectors
//     are `#pragma unroll` loops; a vector.broadcast is not materialized (its
//     elements read the scalar);
//   * memrefs are kernel parameters T *__restrict__ name plus one
//     `long long name_d<k>` per dynamic dimension, indexed row-major;
//   * scf.for iter_args are mutable variables declared before the loop; the
//     loop's results are those variables after it.
//
//===----------------------------------------------------------------------===//
#include "codegen/CudaEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;

namespace attncc {

CudaTargetInfo cudaTargetInfo(const std::string &arch) {
  CudaTargetInfo t;
  t.arch = arch;
  int sm = 0;
  for (char c : arch)
    if (c >= '0' && c <= '9')
      sm = sm * 10 + (c - '0');
  t.sm = sm;
  return t;
}

namespace {

using Fmt = std::function<std::string(ArrayRef<std::string>)>;

class KernelEmitter {
public:
  KernelEmitter(raw_indented_ostream &os) : os(os) {}
  LogicalResult emitKernel(gpu::GPUFuncOp f);

private:
  raw_indented_ostream &os;
  DenseMap<Value, std::string> names;   // variables and inline literals
  DenseMap<Value, Value> broadcastOf;   // vector.broadcast -> its scalar
  DenseMap<Value, SmallVector<std::string>> dims; // memref -> dimension expressions
  llvm::StringMap<int> taken;

  //===--- names, types, literals ----------------------------------------===//

  std::string fresh(std::string base) {
    for (char &c : base)
      if (!std::isalnum(static_cast<unsigned char>(c)))
        c = '_';
    if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0])))
      base = "v" + base;
    std::string s = base;
    for (int n = 1; taken.count(s); ++n)
      s = base + "_" + std::to_string(n);
    taken[s] = 1;
    return s;
  }
  std::string define(Value v) {
    std::string base = "t"; // temporaries: t, t_1, ...
    if (auto n = dyn_cast<NameLoc>(v.getLoc()))
      base = n.getName().str();
    return names[v] = fresh(base);
  }
  std::string ref(Value v) {
    auto it = names.find(v);
    return it == names.end() ? std::string("<?>") : it->second;
  }
  /// Element `e` of a vector value, or the value itself when scalar.
  std::string elem(Value v, StringRef e) {
    if (auto it = broadcastOf.find(v); it != broadcastOf.end())
      return ref(it->second);
    if (!isa<VectorType>(v.getType()) || isSplat(v))
      return ref(v);
    return ref(v) + "[" + e.str() + "]";
  }
  bool isSplat(Value v) {
    auto c = v.getDefiningOp<arith::ConstantOp>();
    return c && isa<VectorType>(v.getType());
  }

  static std::string scalarType(Type t) {
    t = getElementTypeOrSelf(t);
    if (t.isF16()) return "__half";
    if (t.isBF16()) return "__nv_bfloat16";
    if (t.isF32()) return "float";
    if (t.isF64()) return "double";
    if (t.isIndex() || t.isInteger(64)) return "long long";
    if (t.isInteger(32)) return "int";
    if (t.isInteger(1)) return "bool";
    return "";
  }
  static std::string floatLiteral(double v) {
    // NVRTC has no <math.h> macros: infinities and NaN by their bits.
    if (std::isinf(v)) return v < 0 ? "__int_as_float(0xff800000)" : "__int_as_float(0x7f800000)";
    if (std::isnan(v)) return "__int_as_float(0x7fffffff)";
    std::string s = llvm::formatv("{0:e9}", v).str();
    return s + "f";
  }
  std::string literal(Attribute a) {
    if (auto s = dyn_cast<SplatElementsAttr>(a))
      return literal(s.getSplatValue<Attribute>());
    if (auto f = dyn_cast<FloatAttr>(a)) {
      std::string lit = floatLiteral(f.getValueAsDouble());
      if (f.getType().isF32())
        return lit;
      return "(" + scalarType(f.getType()) + ")(" + lit + ")";
    }
    if (auto i = dyn_cast<IntegerAttr>(a)) {
      if (i.getType().isInteger(1))
        return i.getValue().getBoolValue() ? "true" : "false";
      return std::to_string(i.getValue().getSExtValue()) + "LL";
    }
    return "<?>";
  }

  //===--- statements ----------------------------------------------------===//

  /// `T name = F(operands...)` for a scalar result, or an unrolled loop for a
  /// vector result.
  LogicalResult elementwise(Operation *op, const Fmt &f) {
    Value r = op->getResult(0);
    std::string t = scalarType(r.getType());
    if (t.empty())
      return op->emitOpError("has a type the CUDA emitter does not know: ") << r.getType();
    std::string name = define(r);
    auto args = [&](StringRef e) {
      SmallVector<std::string> a;
      for (Value v : op->getOperands())
        a.push_back(elem(v, e));
      return a;
    };
    if (auto vt = dyn_cast<VectorType>(r.getType())) {
      os << t << " " << name << "[" << vt.getNumElements() << "];\n";
      os << "#pragma unroll\n";
      os << "for (int e = 0; e < " << vt.getNumElements() << "; ++e) " << name << "[e] = "
         << f(args("e")) << ";\n";
    } else {
      os << "const " << t << " " << name << " = " << f(args("")) << ";\n";
    }
    return success();
  }
  static Fmt binary(std::string opText) {
    return [opText](ArrayRef<std::string> a) { return "(" + a[0] + " " + opText + " " + a[1] + ")"; };
  }
  static Fmt call(std::string fn) {
    return [fn](ArrayRef<std::string> a) {
      std::string s = fn + "(";
      for (size_t i = 0; i < a.size(); ++i)
        s += (i ? ", " : "") + a[i];
      return s + ")";
    };
  }
  static Fmt unsignedOp(std::string opText) {
    return [opText](ArrayRef<std::string> a) {
      return "(long long)((unsigned long long)" + a[0] + " " + opText + " (unsigned long long)" +
             a[1] + ")";
    };
  }
  static Fmt convert(Type from, Type to) {
    from = getElementTypeOrSelf(from);
    to = getElementTypeOrSelf(to);
    std::string fn;
    if (from.isF16() && to.isF32()) fn = "__half2float";
    else if (from.isBF16() && to.isF32()) fn = "__bfloat162float";
    else if (from.isF32() && to.isF16()) fn = "__float2half_rn";
    else if (from.isF32() && to.isBF16()) fn = "__float2bfloat16_rn";
    else {
      std::string t = scalarType(to);
      return [t](ArrayRef<std::string> a) { return "(" + t + ")(" + a[0] + ")"; };
    }
    return call(fn);
  }

  /// Row-major offset of `indices` into memref `m`.
  std::string offset(Value m, ValueRange indices) {
    SmallVector<std::string> &d = dims[m];
    std::string acc = ref(indices[0]);
    for (size_t k = 1; k < indices.size(); ++k)
      acc = "(" + acc + ") * " + d[k] + " + " + ref(indices[k]);
    return acc;
  }

  LogicalResult emitBlock(Block &block) {
    for (Operation &op : block.without_terminator())
      if (failed(emitOp(op)))
        return failure();
    return success();
  }

  /// Assigns the yielded values to the variables `targets` (scf.for iter
  /// args or scf.if results).
  void assign(ArrayRef<std::string> targets, ValueRange values) {
    for (auto [t, v] : llvm::zip(targets, values)) {
      if (auto vt = dyn_cast<VectorType>(v.getType())) {
        os << "#pragma unroll\n";
        os << "for (int e = 0; e < " << vt.getNumElements() << "; ++e) " << t
           << "[e] = " << elem(v, "e") << ";\n";
      } else if (t != ref(v)) {
        os << t << " = " << ref(v) << ";\n";
      }
    }
  }
  void declareVar(const std::string &name, Type t) {
    os << scalarType(t) << " " << name;
    if (auto vt = dyn_cast<VectorType>(t))
      os << "[" << vt.getNumElements() << "]";
    os << ";\n";
  }

  LogicalResult emitFor(scf::ForOp f) {
    SmallVector<std::string> vars;
    for (auto [arg, init, res] : llvm::zip(f.getRegionIterArgs(), f.getInitArgs(), f.getResults())) {
      std::string n = define(arg);
      names[res] = n;
      declareVar(n, arg.getType());
      vars.push_back(n);
    }
    assign(vars, f.getInitArgs());
    std::string iv = define(f.getInductionVar());
    os << "for (long long " << iv << " = " << ref(f.getLowerBound()) << "; " << iv << " < "
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
        declareVar(t, v.getType());
        tmps.push_back(t);
      }
      assign(tmps, yield.getOperands());
      for (auto [var, tmp, v] : llvm::zip(vars, tmps, yield.getOperands()))
        if (auto vt = dyn_cast<VectorType>(v.getType()))
          os << "for (int e = 0; e < " << vt.getNumElements() << "; ++e) " << var << "[e] = " << tmp
             << "[e];\n";
        else
          os << var << " = " << tmp << ";\n";
    } else {
      assign(vars, yield.getOperands());
    }
    os.unindent();
    os << "}\n";
    return success();
  }

  LogicalResult emitIf(scf::IfOp op) {
    SmallVector<std::string> vars;
    for (Value r : op.getResults()) {
      std::string n = define(r);
      declareVar(n, r.getType());
      vars.push_back(n);
    }
    os << "if (" << ref(op.getCondition()) << ") {\n";
    os.indent();
    if (failed(emitBlock(op.getThenRegion().front())))
      return failure();
    assign(vars, op.thenYield().getOperands());
    os.unindent();
    if (!op.getElseRegion().empty()) {
      os << "} else {\n";
      os.indent();
      if (failed(emitBlock(op.getElseRegion().front())))
        return failure();
      assign(vars, op.elseYield().getOperands());
      os.unindent();
    }
    os << "}\n";
    return success();
  }

  LogicalResult emitCmpI(arith::CmpIOp op) {
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
    return elementwise(op, [t, isUnsigned](ArrayRef<std::string> a) {
      if (isUnsigned)
        return "((unsigned long long)" + a[0] + " " + t + " (unsigned long long)" + a[1] + ")";
      return "(" + a[0] + " " + t + " " + a[1] + ")";
    });
  }

  LogicalResult emitCmpF(arith::CmpFOp op) {
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

  LogicalResult emitReduction(vector::ReductionOp op) {
    if (op.getKind() != vector::CombiningKind::ADD || op.getAcc())
      return op.emitOpError("only an accumulator-free <add> reduction is supported");
    auto vt = cast<VectorType>(op.getVector().getType());
    std::string t = scalarType(op.getType());
    std::string n = define(op.getResult());
    os << t << " " << n << " = " << elem(op.getVector(), "0") << ";\n";
    os << "#pragma unroll\n";
    os << "for (int e = 1; e < " << vt.getNumElements() << "; ++e) " << n << " += "
       << elem(op.getVector(), "e") << ";\n";
    return success();
  }

  LogicalResult emitVectorLoad(vector::LoadOp op) {
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

  LogicalResult emitVectorStore(vector::StoreOp op) {
    auto vt = op.getVectorType();
    std::string base = fresh("at");
    os << "const long long " << base << " = " << offset(op.getBase(), op.getIndices()) << ";\n";
    os << "#pragma unroll\n";
    os << "for (int e = 0; e < " << vt.getNumElements() << "; ++e) " << ref(op.getBase()) << "["
       << base << " + e] = " << elem(op.getValueToStore(), "e") << ";\n";
    return success();
  }

  LogicalResult emitOp(Operation &op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
        .Case([&](arith::ConstantOp c) {
          names[c.getResult()] = literal(c.getValue());
          return success();
        })
        .Case([&](arith::AddFOp o) { return elementwise(o, binary("+")); })
        .Case([&](arith::SubFOp o) { return elementwise(o, binary("-")); })
        .Case([&](arith::MulFOp o) { return elementwise(o, binary("*")); })
        .Case([&](arith::DivFOp o) { return elementwise(o, binary("/")); })
        .Case([&](arith::NegFOp o) { return elementwise(o, [](ArrayRef<std::string> a) { return "(-" + a[0] + ")"; }); })
        .Case([&](arith::MaximumFOp o) { return elementwise(o, call("fmaxf")); })
        .Case([&](arith::MinimumFOp o) { return elementwise(o, call("fminf")); })
        .Case([&](arith::AddIOp o) { return elementwise(o, binary("+")); })
        .Case([&](arith::SubIOp o) { return elementwise(o, binary("-")); })
        .Case([&](arith::MulIOp o) { return elementwise(o, binary("*")); })
        .Case([&](arith::DivSIOp o) { return elementwise(o, binary("/")); })
        .Case([&](arith::RemSIOp o) { return elementwise(o, binary("%")); })
        .Case([&](arith::DivUIOp o) { return elementwise(o, unsignedOp("/")); })
        .Case([&](arith::RemUIOp o) { return elementwise(o, unsignedOp("%")); })
        .Case([&](arith::CeilDivUIOp o) {
          return elementwise(o, [](ArrayRef<std::string> a) {
            return "(long long)(((unsigned long long)" + a[0] + " + (unsigned long long)" + a[1] +
                   " - 1) / (unsigned long long)" + a[1] + ")";
          });
        })
        .Case([&](arith::MinUIOp o) {
          return elementwise(o, [](ArrayRef<std::string> a) {
            return "((unsigned long long)" + a[0] + " < (unsigned long long)" + a[1] + " ? " + a[0] +
                   " : " + a[1] + ")";
          });
        })
        .Case([&](arith::MinSIOp o) { return elementwise(o, call("min")); })
        .Case([&](arith::MaxSIOp o) { return elementwise(o, call("max")); })
        .Case([&](arith::AndIOp o) { return elementwise(o, binary("&")); })
        .Case([&](arith::OrIOp o) { return elementwise(o, binary("|")); })
        .Case([&](arith::XOrIOp o) { return elementwise(o, binary("^")); })
        .Case([&](arith::CmpIOp o) { return emitCmpI(o); })
        .Case([&](arith::CmpFOp o) { return emitCmpF(o); })
        .Case([&](arith::SelectOp o) {
          return elementwise(o, [](ArrayRef<std::string> a) {
            return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
          });
        })
        .Case([&](arith::ExtFOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
        .Case([&](arith::TruncFOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
        .Case([&](arith::IndexCastOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
        .Case([&](arith::SIToFPOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
        .Case([&](math::ExpOp o) { return elementwise(o, call("expf")); })
        .Case([&](math::Exp2Op o) { return elementwise(o, call("exp2f")); })
        .Case([&](math::LogOp o) { return elementwise(o, call("logf")); })
        .Case([&](math::TanhOp o) { return elementwise(o, call("tanhf")); })
        .Case([&](math::AbsFOp o) { return elementwise(o, call("fabsf")); })
        .Case([&](math::SqrtOp o) { return elementwise(o, call("sqrtf")); })
        .Case([&](vector::BroadcastOp o) -> LogicalResult {
          if (isa<VectorType>(o.getSource().getType()))
            return o.emitOpError("only scalar broadcasts are supported");
          broadcastOf[o.getResult()] = o.getSource();
          return success();
        })
        .Case([&](vector::ReductionOp o) { return emitReduction(o); })
        .Case([&](vector::LoadOp o) { return emitVectorLoad(o); })
        .Case([&](vector::StoreOp o) { return emitVectorStore(o); })
        .Case([&](memref::LoadOp o) {
          std::string n = define(o.getResult());
          os << "const " << scalarType(o.getType()) << " " << n << " = " << ref(o.getMemRef()) << "["
             << offset(o.getMemRef(), o.getIndices()) << "];\n";
          return success();
        })
        .Case([&](memref::StoreOp o) {
          os << ref(o.getMemRef()) << "[" << offset(o.getMemRef(), o.getIndices())
             << "] = " << ref(o.getValueToStore()) << ";\n";
          return success();
        })
        .Case([&](memref::DimOp o) -> LogicalResult {
          std::optional<int64_t> k = o.getConstantIndex();
          if (!k)
            return o.emitOpError("needs a constant dimension index");
          names[o.getResult()] = dims[o.getSource()][*k];
          return success();
        })
        .Case([&](gpu::BlockIdOp o) { return builtin(o, "blockIdx", o.getDimension()); })
        .Case([&](gpu::ThreadIdOp o) { return builtin(o, "threadIdx", o.getDimension()); })
        .Case([&](gpu::BlockDimOp o) { return builtin(o, "blockDim", o.getDimension()); })
        .Case([&](gpu::GridDimOp o) { return builtin(o, "gridDim", o.getDimension()); })
        .Case([&](scf::ForOp o) { return emitFor(o); })
        .Case([&](scf::IfOp o) { return emitIf(o); })
        .Case([&](gpu::ReturnOp) {
          os << "return;\n";
          return success();
        })
        .Default([&](Operation *o) -> LogicalResult {
          return o->emitOpError("is not supported by the CUDA emitter");
        });
  }

  LogicalResult builtin(Operation *op, const char *var, gpu::Dimension d) {
    const char *field = d == gpu::Dimension::x ? "x" : d == gpu::Dimension::y ? "y" : "z";
    std::string n = define(op->getResult(0));
    os << "const long long " << n << " = " << var << "." << field << ";\n";
    return success();
  }
};

/// Whether a memref parameter is ever written (else it is `const`).
bool isWritten(Value m) {
  return llvm::any_of(m.getUsers(), [&](Operation *u) {
    if (auto s = dyn_cast<memref::StoreOp>(u))
      return s.getMemRef() == m;
    if (auto s = dyn_cast<vector::StoreOp>(u))
      return s.getBase() == m;
    return false;
  });
}

LogicalResult KernelEmitter::emitKernel(gpu::GPUFuncOp f) {
  // Signature: pointers (+ dynamic dims) and scalars, in the order of the
  // gpu.func arguments; the launch contract lists the same order.
  SmallVector<std::string> params;
  for (BlockArgument a : f.getArguments()) {
    std::string n = define(a);
    if (auto mt = dyn_cast<MemRefType>(a.getType())) {
      if (!mt.getLayout().isIdentity())
        return f.emitOpError("argument ") << a.getArgNumber() << " has a non-identity layout";
      std::string t = scalarType(mt.getElementType());
      params.push_back((isWritten(a) ? "" : "const ") + t + " *__restrict__ " + n);
      SmallVector<std::string> &d = dims[a];
      for (int64_t k = 0; k < mt.getRank(); ++k) {
        if (mt.isDynamicDim(k)) {
          std::string dn = n + "_d" + std::to_string(k);
          taken[dn] = 1;
          params.push_back("long long " + dn);
          d.push_back(dn);
        } else {
          d.push_back(std::to_string(mt.getDimSize(k)) + "LL");
        }
      }
    } else if (!scalarType(a.getType()).empty() && !isa<VectorType>(a.getType())) {
      params.push_back(scalarType(a.getType()) + " " + n);
    } else {
      return f.emitOpError("argument type not supported by the CUDA emitter: ") << a.getType();
    }
  }
  std::string bounds;
  if (auto block = f.getKnownBlockSizeAttr())
    bounds = "__launch_bounds__(" + std::to_string(block[0] * block[1] * block[2]) + ") ";
  os << "extern \"C\" __global__ void " << bounds << f.getName() << "(";
  for (size_t i = 0; i < params.size(); ++i)
    os << (i ? ",\n    " : "") << params[i];
  os << ") {\n";
  os.indent();
  if (failed(emitBlock(f.getBody().front())))
    return failure();
  os.unindent();
  os << "}\n";
  return success();
}

} // namespace

LogicalResult emitCuda(ModuleOp module, const CudaTargetInfo &target, raw_ostream &out) {
  raw_indented_ostream os(out);
  os << "// Generated by attncc for " << target.arch << ". One thread per point of each map;\n"
     << "// the streamed fold is the loop inside. Do not edit: change the schedule.\n"
     << "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n\n";
  WalkResult r = module.walk([&](gpu::GPUFuncOp f) {
    if (!f.isKernel())
      return WalkResult::advance();
    KernelEmitter k(os);
    if (failed(k.emitKernel(f)))
      return WalkResult::interrupt();
    os << "\n";
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

} // namespace attncc
