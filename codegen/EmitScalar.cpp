//===- EmitScalar.cpp - the op -> text table of arith and math --------------===//
//
// Types, literals, and one line per arith and math op: each becomes a C++
// expression of its operands, applied per element to vectors
// (elementwise). Comparisons are in EmitControl.cpp.
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

/// The element type of a register array: index vectors (row and key
/// indices of a tile, for masks) are 32-bit; lengths and the window are
/// at most 2^29 (runtime/problem/Problem.cpp), so a mask's sums fit.
std::string KernelEmitter::regType(Type t) {
  if (auto vt = dyn_cast<VectorType>(t); vt && vt.getElementType().isIndex())
    return "int";
  return scalarType(t);
}

std::string KernelEmitter::scalarType(Type t) {
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

std::string KernelEmitter::floatLiteral(double v) {
  // NVRTC has no <math.h> macros: infinities and NaN by their bits.
  if (std::isinf(v)) return v < 0 ? "__int_as_float(0xff800000)" : "__int_as_float(0x7f800000)";
  if (std::isnan(v)) return "__int_as_float(0x7fffffff)";
  std::string s = llvm::formatv("{0:e9}", v).str();
  return s + "f";
}

std::string KernelEmitter::literal(Attribute a) {
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
    if (i.getType().isInteger(32))
      return std::to_string(i.getValue().getSExtValue()); // an int
    return std::to_string(i.getValue().getSExtValue()) + "LL";
  }
  return "<?>";
}

/// `T name = F(operands...)` for a scalar result, or an unrolled loop for a
/// vector result.
LogicalResult KernelEmitter::elementwise(Operation *op, const Fmt &f) {
  Value r = op->getResult(0);
  std::string t = regType(r.getType());
  if (t.empty())
    return op->emitOpError("has a type the CUDA emitter does not know: ") << r.getType();
  std::string name = define(r);
  auto args = [&](StringRef e) {
    SmallVector<std::string> a;
    for (Value v : op->getOperands())
      a.push_back(elem(v, e));
    return a;
  };
  if (isa<VectorType>(r.getType())) {
    int64_t n = count(r);
    os << t << " " << name << "[" << n << "];\n";
    os << "#pragma unroll\n";
    os << "for (int e = 0; e < " << n << "; ++e) " << name << "[e] = " << f(args("e")) << ";\n";
  } else {
    os << "const " << t << " " << name << " = " << f(args("")) << ";\n";
  }
  return success();
}

Fmt KernelEmitter::binary(std::string opText) {
  return [opText](ArrayRef<std::string> a) { return "(" + a[0] + " " + opText + " " + a[1] + ")"; };
}

Fmt KernelEmitter::call(std::string fn) {
  return [fn](ArrayRef<std::string> a) {
    std::string s = fn + "(";
    for (size_t i = 0; i < a.size(); ++i)
      s += (i ? ", " : "") + a[i];
    return s + ")";
  };
}

Fmt KernelEmitter::unsignedOp(std::string opText) {
  return [opText](ArrayRef<std::string> a) {
    return "(long long)((unsigned long long)" + a[0] + " " + opText + " (unsigned long long)" +
           a[1] + ")";
  };
}

/// The same on 32-bit integers (attncc-lower-copies' chunk and slot math).
Fmt KernelEmitter::unsignedOp32(std::string opText) {
  return [opText](ArrayRef<std::string> a) {
    return "(int)((unsigned)" + a[0] + " " + opText + " (unsigned)" + a[1] + ")";
  };
}

Fmt KernelEmitter::convert(Type from, Type to) {
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

LogicalResult KernelEmitter::emitScalar(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp c) {
        names[c.getResult()] = literal(c.getValue());
        return success();
      })
      .Case([&](arith::AddFOp o) { return elementwise(o, binary("+")); })
      .Case([&](arith::SubFOp o) { return elementwise(o, binary("-")); })
      .Case([&](arith::MulFOp o) {
        // attncc.rounded (attncc-exp2): a product the CUDA compiler must not
        // contract into an FMA with the op that reads it.
        return elementwise(o, o->hasAttr("attncc.rounded") ? call("__fmul_rn") : binary("*"));
      })
      .Case([&](arith::DivFOp o) { return elementwise(o, binary("/")); })
      .Case([&](arith::NegFOp o) { return elementwise(o, [](ArrayRef<std::string> a) { return "(-" + a[0] + ")"; }); })
      .Case([&](arith::MaximumFOp o) { return elementwise(o, call("fmaxf")); })
      .Case([&](arith::MinimumFOp o) { return elementwise(o, call("fminf")); })
      .Case([&](arith::AddIOp o) { return elementwise(o, binary("+")); })
      .Case([&](arith::SubIOp o) { return elementwise(o, binary("-")); })
      .Case([&](arith::MulIOp o) { return elementwise(o, binary("*")); })
      .Case([&](arith::DivSIOp o) { return elementwise(o, binary("/")); })
      .Case([&](arith::RemSIOp o) { return elementwise(o, binary("%")); })
      .Case([&](arith::DivUIOp o) {
        return elementwise(o, getElementTypeOrSelf(o.getType()).isInteger(32) ? unsignedOp32("/") : unsignedOp("/"));
      })
      .Case([&](arith::RemUIOp o) {
        return elementwise(o, getElementTypeOrSelf(o.getType()).isInteger(32) ? unsignedOp32("%") : unsignedOp("%"));
      })
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
      .Case([&](arith::ShRUIOp o) {
        if (getElementTypeOrSelf(o.getType()).isInteger(32))
          return elementwise(o, [](ArrayRef<std::string> a) {
            return "(int)((unsigned)" + a[0] + " >> (unsigned)" + a[1] + ")";
          });
        return elementwise(o, unsignedOp(">>"));
      })
      .Case([&](arith::ShLIOp o) {
        if (getElementTypeOrSelf(o.getType()).isInteger(32))
          return elementwise(o, [](ArrayRef<std::string> a) {
            return "(int)((unsigned)" + a[0] + " << (unsigned)" + a[1] + ")";
          });
        return elementwise(o, unsignedOp("<<"));
      })
      .Case([&](arith::BitcastOp o) -> LogicalResult { // f32 <-> i32 bits (tensor-memory words)
        Type from = getElementTypeOrSelf(o.getIn().getType()), to = getElementTypeOrSelf(o.getType());
        if (from.isF32() && to.isInteger(32))
          return elementwise(o, call("__float_as_int"));
        if (from.isInteger(32) && to.isF32())
          return elementwise(o, call("__int_as_float"));
        return o.emitOpError("the CUDA emitter bitcasts f32 and i32 only");
      })
      .Case([&](arith::CmpIOp o) { return emitCmpI(o); })
      .Case([&](arith::CmpFOp o) { return emitCmpF(o); })
      .Case([&](arith::SelectOp o) -> LogicalResult {
        if (isChunkValue(o.getResult()))
          return emitChunkSelect(o);
        return elementwise(o, [](ArrayRef<std::string> a) {
          return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
        });
      })
      .Case([&](arith::ExtFOp o) {
        if (isPacked(o.getIn()))
          return emitUnpack(o);
        return elementwise(o, convert(o.getIn().getType(), o.getType()));
      })
      .Case([&](arith::TruncFOp o) {
        if (isPacked(o.getResult()))
          return emitPack(o);
        return elementwise(o, convert(o.getIn().getType(), o.getType()));
      })
      .Case([&](arith::IndexCastOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
      .Case([&](arith::IndexCastUIOp o) -> LogicalResult { // i32 -> index, zero-extended (a paged cache's page index)
        std::string t = scalarType(o.getType());
        if (!getElementTypeOrSelf(o.getIn().getType()).isInteger(32))
          return o.emitOpError("the CUDA emitter zero-extends only i32 to index");
        return elementwise(o, [t](ArrayRef<std::string> a) { return "(" + t + ")(unsigned)(" + a[0] + ")"; });
      })
      .Case([&](arith::ExtUIOp o) -> LogicalResult { // a predicate as 0 or 1 (attncc-map-to-gpu's arrival)
        if (!getElementTypeOrSelf(o.getIn().getType()).isInteger(1))
          return o.emitOpError("the CUDA emitter zero-extends only i1");
        std::string t = scalarType(o.getType());
        return elementwise(o, [t](ArrayRef<std::string> a) { return "(" + t + ")(" + a[0] + ")"; });
      })
      .Case([&](arith::SIToFPOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
      .Case([&](arith::FPToSIOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
      .Case([&](math::ExpOp o) { return elementwise(o, call("expf")); })
      .Case([&](math::Exp2Op o) {
        bool approx = bitEnumContainsAll(o.getFastmath(), arith::FastMathFlags::afn);
        return elementwise(o, call(approx ? "attncc_ex2" : "exp2f"));
      })
      .Case([&](math::FmaOp o) { return elementwise(o, call("fmaf")); })
      .Case([&](math::LogOp o) { return elementwise(o, call("logf")); })
      .Case([&](math::TanhOp o) { return elementwise(o, call("tanhf")); })
      .Case([&](math::AbsFOp o) { return elementwise(o, call("fabsf")); })
      .Case([&](math::FloorOp o) { return elementwise(o, call("floorf")); })
      .Case([&](math::SqrtOp o) { return elementwise(o, call("sqrtf")); })
      .Default([&](Operation *o) -> LogicalResult {
        return o->emitOpError("is not supported by the CUDA emitter");
      });
}

} // namespace attncc::codegen
