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
#include "ir/TileAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <map>

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

/// The instructions of the mma.sync atom, once per file that needs them.
/// codegen/cuda/mma.cuh, embedded at build time (codegen/cuda/embed.cmake).
#include "codegen/cuda/mma.cuh.inc" // const char *kMmaCuh

/// The warpgroup instructions of the wgmma atoms (sm_90a), once per file that
/// needs them; the mma_async calls themselves are written per shape below.
/// codegen/cuda/wgmma.cuh, embedded at build time (codegen/cuda/embed.cmake).
#include "codegen/cuda/wgmma.cuh.inc" // const char *kWgmmaCuh

/// TMA and mbarriers (sm_90; PTX ISA: cp.async.bulk.tensor, mbarrier), once
/// per file whose kernels stage blocks with TMA.
/// codegen/cuda/tma.cuh, embedded at build time (codegen/cuda/embed.cmake).
#include "codegen/cuda/tma.cuh.inc" // const char *kTmaCuh

/// A TMA load of a rank-R box (coordinates innermost first) that completes
/// on an mbarrier.
std::string tmaLoadName(int64_t rank) { return "attncc_tma_load_" + std::to_string(rank) + "d"; }
std::string tmaLoadFunction(int64_t rank) {
  std::string s = "__device__ __forceinline__ void " + tmaLoadName(rank) + "(void *dst, const attncc_tmap *map";
  for (int64_t i = 0; i < rank; ++i)
    s += ", int c" + std::to_string(i);
  s += ", unsigned long long *bar) {\n";
  s += "  asm volatile(\"cp.async.bulk.tensor." + std::to_string(rank) +
       "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {";
  for (int64_t i = 0; i < rank; ++i)
    s += (i ? ", %" : "%") + std::to_string(i + 2);
  s += "}], [%" + std::to_string(rank + 2) + "];\\n\"\n";
  s += "               :: \"r\"(attncc_smem_addr(dst)), \"l\"(reinterpret_cast<unsigned long long>(map))";
  for (int64_t i = 0; i < rank; ++i)
    s += ", \"r\"(c" + std::to_string(i) + ")";
  s += ", \"r\"(attncc_smem_addr(bar)) : \"memory\");\n}\n";
  return s;
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

using Fmt = std::function<std::string(ArrayRef<std::string>)>;

class KernelEmitter {
public:
  KernelEmitter(raw_indented_ostream &os, std::map<std::string, std::string> &helpers)
      : os(os), helpers(helpers) {}
  LogicalResult emitKernel(gpu::GPUFuncOp f);

private:
  raw_indented_ostream &os;
  std::map<std::string, std::string> &helpers; // device functions the kernels call, by name
  bool wgmma = false;                   // the kernel issues wgmma
  DenseMap<Value, std::string> names;   // variables and inline literals
  DenseMap<Value, Value> broadcastOf;   // vector.broadcast -> its scalar
  DenseMap<Value, Value> spreadOf;      // vector.broadcast of a row/col vector -> its source
  DenseMap<Value, std::string> smemOf;  // staged block -> its __shared__ array
  DenseMap<Value, int64_t> smemStride;  // staged block -> row stride in elements
  DenseMap<Operation *, std::string> handoffSlab; // REPACK=smem: contraction -> its P slab
  llvm::DenseMap<int64_t, std::string> ringBuf; // attncc.ring id -> its __shared__ array
  SmallVector<Value> pendingStages;     // copies issued, not yet waited for
  struct TmaBuf {
    int64_t slots = 1;     // ring buffers (1: not a ring)
    int64_t slotElems = 0; // elements per buffer
  };
  std::map<std::string, TmaBuf> tmaBufs;      // TMA-staged __shared__ array -> its pipeline
  std::map<std::pair<unsigned, int64_t>, std::string> tmaParam; // (argument, box rows) -> descriptor
  DenseSet<Value> tmaWaited;            // TMA blocks this thread waited for
  struct PendingMma {
    Value result;
    std::string name;
    int64_t count;
  };
  Block *curBlock = nullptr;            // the block of the op being emitted
  DenseSet<Value> tmaReleased;          // TMA blocks whose buffers were given back
  SmallVector<PendingMma> pendingMma;   // wgmma groups committed, not yet waited for
  bool inIssueRun = false;              // the last statement issued a staged copy
  std::string curLayout;                // layout of the result being emitted
  int64_t warps = 0, tileRows = 0, fm = 0; // attncc.tile of a tiled kernel (warps: those with rows)
  int64_t producers = 0;                // WSPEC=load1: a warp after them that only copies blocks in
  bool producerMode = false;            // emitting the producer warp's part of the body
  bool fullEmit = false;                // producer: inside an index loop it needs whole
  DenseSet<Operation *> producerOps;    // producer: the ops the copies' indices and loops need

  /// A barrier of the warps that hold rows (all threads without a producer).
  std::string ctaSync() const {
    return producers ? "attncc_bar_sync(15, " + std::to_string(warps * 32) + ")" : "__syncthreads()";
  }
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
    if (auto it = spreadOf.find(v); it != spreadOf.end()) {
      // Element e of a c tile reads the row (or column) slot it lies in.
      int64_t nf = cast<VectorType>(v.getType()).getDimSize(1) / 8;
      std::string x = "(" + e.str() + ")";
      if (layoutOf(it->second) == "row")
        return elem(it->second, "(" + x + " / " + std::to_string(4 * nf) + ") * 2 + ((" + x +
                                    " >> 1) & 1)");
      return elem(it->second, "((" + x + " >> 2) % " + std::to_string(nf) + ") * 2 + (" + x + " & 1)");
    }
    if (!isa<VectorType>(v.getType()) || isSplat(v))
      return ref(v);
    return ref(v) + "[" + e.str() + "]";
  }
  bool isSplat(Value v) {
    auto c = v.getDefiningOp<arith::ConstantOp>();
    return c && isa<VectorType>(v.getType());
  }

  /// The element type of a register array: index vectors (row and key
  /// indices of a tile, for masks) are 32-bit; lengths and the window are
  /// at most 2^29 (runtime/problem/Problem.cpp), so a mask's sums fit.
  static std::string regType(Type t) {
    if (auto vt = dyn_cast<VectorType>(t); vt && vt.getElementType().isIndex())
      return "int";
    return scalarType(t);
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


  //===--- fragment layouts (attncc-atomize) -------------------------------===//

  static vector::TransferReadOp stagedRead(Value v) { return monoid::stagedRead(v); }
  static bool isCp(Value staged) {
    return stagedRead(staged)->getAttrOfType<StringAttr>("attncc.stage").getValue().starts_with("cp");
  }

  std::string layoutOf(Value v) {
    if (auto r = dyn_cast<OpResult>(v)) {
      if (auto a = r.getOwner()->getAttrOfType<StringAttr>("attncc.layout"))
        return a.str();
      if (auto f = dyn_cast<scf::ForOp>(r.getOwner()))
        return layoutOf(f.getRegionIterArgs()[r.getResultNumber()]);
      return "";
    }
    auto arg = cast<BlockArgument>(v);
    if (auto f = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (auto ls = f->getAttrOfType<ArrayAttr>("attncc.layouts"))
        if (arg.getArgNumber() >= 1 && arg.getArgNumber() - 1 < ls.size())
          return cast<StringAttr>(ls[arg.getArgNumber() - 1]).str();
    return "";
  }
  static int64_t dimOr1(VectorType t, int k) { return k < t.getRank() ? t.getDimSize(k) : 1; }
  /// Elements one thread holds of vector `v`.
  int64_t count(Value v) {
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
  SmallVector<std::string> coords(VectorType vt, const std::string &l, const std::string &e) {
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
  static std::string owner(const std::string &l) {
    if (l == "row") return "t4 == 0";
    if (l == "col") return "g == 0 && warp == 0";
    return "";
  }

  /// Memory indices of a transfer's element at vector coordinates `c`, and
  /// the out-of-bounds test of its dimensions that are not in bounds.
  void transferIndex(Operation *op, Value mem, ValueRange indices, AffineMap pm,
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
  std::string offsetOf(Value m, ArrayRef<std::string> idx) {
    SmallVector<std::string> &d = dims[m];
    std::string acc = idx[0];
    for (size_t k = 1; k < idx.size(); ++k)
      acc = "(" + acc + ") * " + d[k] + " + " + idx[k];
    return acc;
  }

  LogicalResult emitTransferRead(vector::TransferReadOp op) {
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

  LogicalResult emitTransferWrite(vector::TransferWriteOp op) {
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
  LogicalResult emitStage(vector::TransferReadOp op) {
    if (monoid::isTma(op))
      return emitTmaStage(op);
    auto vt = op.getVectorType();
    std::string buf = smemOf[op.getResult()];
    int64_t rows = vt.getDimSize(0), cols = vt.getDimSize(1), stride = smemStride[op.getResult()];
    int64_t chunksPerRow = cols * vt.getElementTypeBitWidth() / 8 / 16;
    int64_t per = cols / chunksPerRow;
    bool cp = isCp(op.getResult());
    if (!inIssueRun)
      flushMma(); // no wgmma may still read a buffer this copy overwrites
    if (!inIssueRun && op->hasAttr("attncc.ring") && !pendingStages.empty()) {
      // A ring's prefetch at the top of the fold: the blocks this iteration
      // reads were copied an iteration ago. Waiting for them here lets one
      // barrier say both "they are in shared memory" and "every warp is
      // done with the buffers the prefetch overwrites".
      bool anyCp = llvm::any_of(pendingStages, [&](Value v) { return isCp(v); });
      if (anyCp)
        os << "attncc_cp_async_wait<0>();\n";
      if (wgmma)
        os << "attncc_fence_proxy_async(); // visible to wgmma\n";
      os << ctaSync() << "; // ";
      for (Value v : pendingStages)
        os << ref(v) << (v == pendingStages.back() ? "" : ", ");
      os << " in shared memory; every warp is done with the previous blocks\n";
      pendingStages.clear();
    } else if (!inIssueRun) {
      os << ctaSync() << "; // every warp is done with the previous blocks\n";
    }
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
    if (cp)
      os << "attncc_cp_async_commit();\n";
    pendingStages.push_back(op.getResult());
    inIssueRun = true;
    return success();
  }

  /// The buffer of TMA buffer `buf` that fill number `buf<counter>` (_w:
  /// issued, _r: waited for) uses.
  std::string slotOf(const std::string &buf, const char *counter) {
    int64_t slots = tmaBufs[buf].slots;
    return slots == 1 ? "0" : "(" + buf + counter + " % " + std::to_string(slots) + ")";
  }

  /// The TMA read that fills `v` when `v` is a TMA block in shared memory.
  vector::TransferReadOp tmaBlock(Value v) {
    auto r = monoid::stagedRead(v);
    return r && monoid::isTma(r) && isa<VectorType>(v.getType()) && layoutOf(v) == "smem"
               ? r
               : vector::TransferReadOp();
  }

  /// A TMA-staged block: thread 0 waits until the buffer is free (every
  /// warp arrived on its "empty" barrier after its last read), announces the
  /// block's bytes on "full" and issues one TMA box per 128-byte slab; rows
  /// past the end of the tensor arrive as zeros. Readers wait on "full" at
  /// first use (waitTma). Ring buffers are used in turn: fill w goes to
  /// buffer w % S, and is the (w / S)-th use of it, which fixes the phase.
  LogicalResult emitTmaStage(vector::TransferReadOp op) {
    auto vt = op.getVectorType();
    if (!op.getPermutationMap().isMinorIdentity() || vt.getRank() != 2)
      return op.emitOpError("a TMA-staged read needs a 2-d block of the buffer's last two dimensions");
    auto arg = dyn_cast<BlockArgument>(op.getBase());
    if (!arg)
      return op.emitOpError("a TMA-staged read needs a kernel argument as its buffer");
    std::string buf = smemOf[op.getResult()];
    const TmaBuf &t = tmaBufs[buf];
    int64_t rows = vt.getDimSize(0), cols = vt.getDimSize(1);
    int64_t slab = monoid::slabElems(vt.getElementType()), rank = op.getIndices().size();
    std::string S = std::to_string(t.slots), slot = slotOf(buf, "_w");
    std::string p = define(op.getResult());
    std::string map = tmaParam[{arg.getArgNumber(), rows}];
    helpers[tmaLoadName(rank)] = tmaLoadFunction(rank);
    os << "// " << p << ": " << rows << "x" << cols << " block -> shared memory (TMA, 128-byte swizzle; "
       << buf << "_full says when it landed)\n";
    os << scalarType(vt) << " *" << p << " = " << buf << " + " << slot << " * " << t.slotElems << ";\n";
    if (producers && !producerMode) { // the producer warp copies it
      os << "++" << buf << "_w;\n";
      return success();
    }
    if (!producerMode) {
      os << "if (threadIdx.x == 0) {\n";
      os.indent();
    }
    os << "attncc_mbar_wait(&" << buf << "_empty[" << slot << "], ((" << buf << "_w / " << S
       << ") & 1) ^ 1); // every warp is done with this buffer\n";
    os << "attncc_mbar_expect_tx(&" << buf << "_full[" << slot << "], "
       << rows * cols * vt.getElementTypeBitWidth() / 8 << ");\n";
    SmallVector<std::string> idx;
    for (Value i : op.getIndices())
      idx.push_back("(int)" + ref(i));
    for (int64_t s = 0; s < cols / slab; ++s) {
      os << tmaLoadName(rank) << "(" << p << " + " << s * rows * slab << ", &" << map << ", "
         << idx[rank - 1] << (s ? " + " + std::to_string(s * slab) : std::string());
      for (int64_t k = rank - 2; k >= 0; --k)
        os << ", " << idx[k];
      os << ", &" << buf << "_full[" << slot << "]);\n";
    }
    if (!producerMode) {
      os.unindent();
      os << "}\n";
    }
    os << "++" << buf << "_w;\n";
    return success();
  }

  /// Before a TMA block is first read by this thread: wait for its "full"
  /// phase. Blocks of one buffer are read in the order they were filled.
  void waitTma(Value v) {
    if (!tmaWaited.insert(v).second)
      return;
    std::string buf = smemOf[monoid::stagedRead(v).getResult()];
    const TmaBuf &t = tmaBufs[buf];
    std::string S = std::to_string(t.slots), slot = slotOf(buf, "_r");
    os << "attncc_mbar_wait(&" << buf << "_full[" << slot << "], (" << buf << "_r / " << S << ") & 1); // "
       << ref(v) << " landed\n";
    os << "++" << buf << "_r;\n";
  }

  /// Whether `b`, a TMA block of the fold body that holds `c`, is free once
  /// `c` completes: read in this iteration, not passed on, and no later op
  /// of the body reads it (and the emitter is at the body's level).
  bool releasableAfter(Value b, Operation *c) {
    auto loop = dyn_cast_or_null<scf::ForOp>(c->getParentOp());
    if (!loop || curBlock != c->getBlock() || tmaReleased.contains(b) || !tmaWaited.contains(b) ||
        !tmaBlock(b))
      return false;
    bool ofLoop = isa<BlockArgument>(b) ? cast<BlockArgument>(b).getOwner() == loop.getBody()
                                        : b.getParentBlock() == loop.getBody();
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (!ofLoop || llvm::is_contained(yield.getOperands(), b))
      return false;
    for (Operation *u : b.getUsers()) {
      Operation *at = loop.getBody()->findAncestorOpInBlock(*u);
      if (at && at != c && c->isBeforeInBlock(at))
        return false;
    }
    return true;
  }
  /// The blocks of `b`'s buffer that the loop carried `b` in passes on to the
  /// next iteration (not fresh reads): `b` may be one of them at run time.
  SmallVector<Value> carriedLike(Value b) {
    SmallVector<Value> carried;
    auto arg = dyn_cast<BlockArgument>(b);
    if (!arg)
      return carried;
    auto loop = cast<scf::ForOp>(arg.getOwner()->getParentOp());
    std::string buf = smemOf[monoid::stagedRead(b).getResult()];
    for (Value y : cast<scf::YieldOp>(loop.getBody()->getTerminator()).getOperands())
      if (auto ry = tmaBlock(y); ry && smemOf[ry.getResult()] == buf && !y.getDefiningOp<vector::TransferReadOp>())
        carried.push_back(y);
    return carried;
  }

  /// After a fold iteration's last read of a TMA block: each warp arrives on
  /// the "empty" barrier of its buffer, so the next fill may overwrite it.
  /// `carried` are the blocks of the same buffer the iteration passes on: a
  /// block that is also one of them (the overlap's first P*V reuses block 0)
  /// is not released yet.
  LogicalResult releaseTma(Value v, ArrayRef<Value> carried, Operation *at) {
    if (!tmaWaited.contains(v))
      return at->emitOpError("a TMA block is released before it is read");
    tmaReleased.insert(v);
    std::string buf = smemOf[monoid::stagedRead(v).getResult()];
    const TmaBuf &t = tmaBufs[buf];
    std::string guard;
    for (Value c : carried)
      guard += (guard.empty() ? "" : " && ") + ref(v) + " != " + ref(c);
    if (!guard.empty())
      os << "if (" << guard << ") ";
    os << "{\n";
    os.indent();
    os << "__syncwarp();\n";
    os << "if (lane == 0) attncc_mbar_arrive(&" << buf << "_empty["
       << (t.slots == 1 ? std::string("0")
                        : "(unsigned)(" + ref(v) + " - " + buf + ") / " + std::to_string(t.slotElems))
       << "]); // this warp is done with " << ref(v) << "\n";
    os.unindent();
    os << "}\n";
    return success();
  }

  /// Before the first use of a wgmma result: wait until at most the groups
  /// committed after it are in flight (groups complete in order), and fence
  /// the accumulators of every group that is now done.
  void waitMma(Value v) {
    auto it = llvm::find_if(pendingMma, [&](const PendingMma &p) { return p.result == v; });
    if (it == pendingMma.end())
      return;
    os << "attncc_wgmma_wait<" << (pendingMma.end() - it - 1) << ">(); // " << it->name << " is done\n";
    for (auto d = pendingMma.begin(); d != it + 1; ++d)
      os << "#pragma unroll\nfor (int e = 0; e < " << d->count << "; ++e) attncc_fence_operand(" << d->name
         << "[e]);\n";
    SmallVector<Operation *> done;
    for (auto d = pendingMma.begin(); d != it + 1; ++d)
      done.push_back(d->result.getDefiningOp());
    pendingMma.erase(pendingMma.begin(), it + 1);
    // A TMA block whose last reader in this iteration just completed goes
    // back to the producer now, not at the end of the iteration.
    for (Operation *c : done)
      for (Value b : c->getOperands())
        if (releasableAfter(b, c))
          (void)releaseTma(b, carriedLike(b), c);
  }
  /// Every wgmma group done (before loops, branches, barriers, the end).
  void flushMma() {
    if (!pendingMma.empty())
      waitMma(pendingMma.back().result);
  }

  /// Before a staged block is read: wait for its copy (later copies may stay
  /// in flight) and for every thread's part of it.
  void waitFor(Value staged) {
    if (auto r = monoid::stagedRead(staged); r && monoid::isTma(r))
      return waitTma(staged);
    auto it = llvm::find(pendingStages, staged);
    if (it == pendingStages.end())
      return;
    int64_t after = pendingStages.end() - it - 1;
    if (isCp(staged))
      os << "attncc_cp_async_wait<" << after << ">();\n";
    if (wgmma)
      os << "attncc_fence_proxy_async(); // visible to wgmma\n";
    os << ctaSync() << "; // " << ref(staged) << " is in shared memory\n";
    pendingStages.erase(pendingStages.begin(), it + 1);
  }

  LogicalResult emitStep(vector::StepOp op) {
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

  LogicalResult emitMultiReduction(vector::MultiDimReductionOp op) {
    auto src = cast<VectorType>(op.getSourceVectorType());
    if (layoutOf(op.getSource()) != "c" || layoutOf(op.getResult()) != "row" ||
        op.getReductionDims() != ArrayRef<int64_t>{1})
      return op.emitOpError("only a row reduction of a c tile can be emitted");
    std::string f;
    if (op.getKind() == vector::CombiningKind::MAXIMUMF) f = "fmaxf";
    else if (op.getKind() != vector::CombiningKind::ADD)
      return op.emitOpError("only <maximumf> and <add> row reductions can be emitted");
    auto comb = [&](const std::string &a, const std::string &b) {
      return f.empty() ? "(" + a + " + " + b + ")" : f + "(" + a + ", " + b + ")";
    };
    int64_t nf = src.getDimSize(1) / 8;
    std::string n = define(op.getResult());
    std::string x = fresh("x");
    os << "float " << n << "[" << fm * 2 << "];\n";
    os << "#pragma unroll\nfor (int slot = 0; slot < " << fm * 2 << "; ++slot) {\n";
    os.indent();
    std::string at = "(((slot >> 1) * " + std::to_string(nf) + " + nf) * 2 + (slot & 1)) * 2 + ";
    os << "float " << x << " = " << elem(op.getSource(), "(((slot >> 1) * " + std::to_string(nf) + ") * 2 + (slot & 1)) * 2") << ";\n";
    os << "#pragma unroll\nfor (int nf = 0; nf < " << nf << "; ++nf) {\n";
    os << "  if (nf) " << x << " = " << comb(x, elem(op.getSource(), at + "0")) << ";\n";
    os << "  " << x << " = " << comb(x, elem(op.getSource(), at + "1")) << ";\n";
    os << "}\n";
    os << x << " = " << comb(x, "__shfl_xor_sync(0xffffffffu, " + x + ", 1)") << ";\n";
    os << x << " = " << comb(x, "__shfl_xor_sync(0xffffffffu, " + x + ", 2)") << ";\n";
    os << n << "[slot] = " << comb(x, elem(op.getAcc(), "slot")) << ";\n";
    os.unindent();
    os << "}\n";
    return success();
  }

  /// OVERLAP=wg: a run of adjacent contractions marked attncc.turn is
  /// issued by one warpgroup at a time, in warpgroup order: named barrier
  /// 1 + g is warpgroup g's turn (its 128 threads wait, the previous
  /// warpgroup's 128 arrive).
  static bool isTurn(Operation *op) { return op && isa<vector::ContractionOp>(op) && op->hasAttr("attncc.turn"); }
  static bool turnStarts(Operation *op) { return isTurn(op) && !isTurn(op->getPrevNode()); }
  static bool turnEnds(Operation *op) { return isTurn(op) && !isTurn(op->getNextNode()); }

  /// Elements `at` and `at + 1` of a register A operand as one 32-bit
  /// register. When the operand is P rounded from f32 (arith.truncf), the
  /// pair is rounded and packed from the f32 values by one instruction.
  /// Whether every reader of this rounded vector is a contraction that takes
  /// it as a register A operand through packPair (not through a REPACK=smem
  /// slab): then the rounded array itself is never read, and is not written.
  bool onlyPacked(arith::TruncFOp t) {
    if (!isa<VectorType>(t.getType()) || t->use_empty())
      return false;
    return llvm::all_of(t->getUsers(), [&](Operation *u) {
      auto c = dyn_cast<vector::ContractionOp>(u);
      std::string l = c ? layoutOf(c.getLhs()) : "";
      return c && c.getLhs() == t.getResult() && c.getRhs() != t.getResult() && c.getAcc() != t.getResult() &&
             (l == "a" || l == "c") && !c->hasAttr("attncc.handoff");
    });
  }
  std::string packPair(Value v, const std::string &at) {
    if (auto t = v.getDefiningOp<arith::TruncFOp>(); t && t.getIn().getType() != t.getType() &&
                                                   getElementTypeOrSelf(t.getIn().getType()).isF32()) {
      bool bf = getElementTypeOrSelf(t.getType()).isBF16();
      return std::string(bf ? "attncc_pack_bf16(" : "attncc_pack_f16(") + elem(t.getIn(), at) + ", " +
             elem(t.getIn(), at + " + 1") + ")";
    }
    return "attncc_pack(" + elem(v, at) + ", " + elem(v, at + " + 1") + ")";
  }

  /// acc + lhs * rhs on wgmma.m64nNk16: each warpgroup issues KC atoms for
  /// its 64 rows. B is a descriptor of its swizzled block; A a descriptor
  /// (staged) or registers (a, or c: P). The group is waited for at once.
  LogicalResult emitWgmma(vector::ContractionOp op) {
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
    if (!regA)
      waitFor(op.getLhs());
    waitFor(op.getRhs());
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
    os << "attncc_wgmma_commit(); // waited for at the first use of " << res << "\n";
    if (turnEnds(op))
      os << "attncc_bar_arrive(1 + ((warp >> 2) + 1) % " << warps / 4 << ", 256); // the next warpgroup's turn\n";
    os.unindent();
    os << "}\n";
    pendingMma.push_back({op.getResult(), res, cnt});
    return success();
  }

  /// acc + lhs * rhs on mma.sync.m16n8k16: per warp FM x NF x KC atoms.
  LogicalResult emitContract(vector::ContractionOp op) {
    if (monoid::isWgmma(op))
      return emitWgmma(op);
    auto acc = cast<VectorType>(op.getAccType());
    auto lhsT = cast<VectorType>(op.getLhsType());
    int64_t nfN = acc.getDimSize(1) / 8, kc = lhsT.getDimSize(1) / 16;
    bool bf = lhsT.getElementType().isBF16();
    std::string ll = layoutOf(op.getLhs()), rl = layoutOf(op.getRhs());
    bool kn = op.getIndexingMapsArray()[1].getResult(0) == getAffineDimExpr(2, op.getContext());
    if (ll == "smem")
      waitFor(op.getLhs());
    if (rl == "smem")
      waitFor(op.getRhs());
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
        std::string st = std::to_string(smemStride[stagedRead(op.getRhs()).getResult()]);
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
    bool x4 = rl == "smem" && op->hasAttr("attncc.ldmatrix") && nfN % 2 == 0;
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
      std::string st = slab.empty() ? std::to_string(smemStride[stagedRead(op.getLhs()).getResult()])
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
    os.unindent();
    os << "}\n";
    if (f16x)
      os << "#pragma unroll\nfor (int e = 0; e < " << cnt << "; ++e) " << n << "[e] += attncc_half_of(" << part
         << "[e >> 1], e & 1); // the fp16 partials into fp32\n";
    return success();
  }

  //===--- statements ----------------------------------------------------===//

  /// `T name = F(operands...)` for a scalar result, or an unrolled loop for a
  /// vector result.
  LogicalResult elementwise(Operation *op, const Fmt &f) {
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
      curLayout = layoutOf(r);
      int64_t n = count(r);
      os << t << " " << name << "[" << n << "];\n";
      os << "#pragma unroll\n";
      os << "for (int e = 0; e < " << n << "; ++e) " << name << "[e] = " << f(args("e")) << ";\n";
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
  /// `like` are the values the targets stand for (their layouts size the copy).
  void assign(ArrayRef<std::string> targets, ValueRange values, ValueRange like) {
    for (auto [t, v, l] : llvm::zip(targets, values, like)) {
      if (isa<VectorType>(v.getType()) && layoutOf(l) == "smem") {
        if (t != ref(v))
          os << t << " = " << ref(v) << ";\n";
      } else if (isa<VectorType>(v.getType())) {
        os << "#pragma unroll\n";
        os << "for (int e = 0; e < " << count(l) << "; ++e) " << t << "[e] = " << elem(v, "e")
           << ";\n";
      } else if (t != ref(v)) {
        os << t << " = " << ref(v) << ";\n";
      }
    }
  }
  void declareVar(const std::string &name, Value v) {
    if (isa<VectorType>(v.getType()) && layoutOf(v) == "smem") {
      os << scalarType(v.getType()) << " *" << name << "; // a block in shared memory\n";
      return;
    }
    os << regType(v.getType()) << " " << name;
    if (isa<VectorType>(v.getType()))
      os << "[" << count(v) << "]";
    os << ";\n";
  }

  LogicalResult emitFor(scf::ForOp f) {
    SmallVector<std::string> vars;
    for (auto [arg, init, res] : llvm::zip(f.getRegionIterArgs(), f.getInitArgs(), f.getResults())) {
      std::string n = define(arg);
      names[res] = n;
      declareVar(n, arg);
      vars.push_back(n);
    }
    assign(vars, f.getInitArgs(), f.getRegionIterArgs());
    // Copies issued before the loop and not carried into it (a free-axis
    // tile) are waited for here, once, not in every iteration.
    Value lastFree;
    for (Value p : pendingStages)
      if (!llvm::is_contained(f.getInitArgs(), p))
        lastFree = p;
    if (lastFree)
      waitFor(lastFree);
    bool turns = llvm::any_of(f.getBody()->getOps<vector::ContractionOp>(),
                              [](vector::ContractionOp c) { return isTurn(c); });
    if (turns)
      os << "if ((warp >> 2) == " << warps / 4 - 1
         << ") attncc_bar_arrive(1, 256); // warpgroup 0 takes the first turn\n";
    std::string iv = define(f.getInductionVar());
    os << "for (long long " << iv << " = " << ref(f.getLowerBound()) << "; " << iv << " < "
       << ref(f.getUpperBound()) << "; " << iv << " += " << ref(f.getStep()) << ") {\n";
    os.indent();
    // Blocks copied before the loop (or by the previous iteration) arrive in
    // the iter_args that carry them.
    for (auto [init, arg] : llvm::zip(f.getInitArgs(), f.getRegionIterArgs()))
      for (Value &p : pendingStages)
        if (p == init)
          p = arg;
    if (failed(emitBlock(*f.getBody())))
      return failure();
    flushMma();
    auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
    // TMA blocks this iteration read and does not carry on: their buffers
    // are free for the fills of later iterations.
    // Candidates: the blocks carried in, and blocks read in this body
    // without a ring (d1: one buffer, refilled every iteration).
    SmallVector<Value> blocks(f.getRegionIterArgs());
    for (auto r : f.getBody()->getOps<vector::TransferReadOp>())
      blocks.push_back(r.getResult());
    for (Value b : blocks) {
      if (!tmaBlock(b) || llvm::is_contained(yield.getOperands(), b) || tmaReleased.contains(b))
        continue;
      if (failed(releaseTma(b, carriedLike(b), f)))
        return failure();
    }
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
    if (turns)
      os << "if ((warp >> 2) == 0) attncc_bar_sync(1, 256); // the turn the last warpgroup passed on\n";
    if (!pendingStages.empty()) {
      // The last prefetch is never read; it must land before the CTA exits.
      os << "attncc_cp_async_wait<0>();\n";
      pendingStages.clear();
    }
    return success();
  }

  LogicalResult emitIf(scf::IfOp op) {
    // Products issued before the branch and not read in it (emitOp waited
    // for those) stay pending across it; each branch waits for its own.
    SmallVector<PendingMma> outer;
    std::swap(outer, pendingMma);
    auto restore = llvm::make_scope_exit([&] { pendingMma.insert(pendingMma.begin(), outer.begin(), outer.end()); });
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
    flushMma();
    assign(vars, op.thenYield().getOperands(), op.getResults());
    os.unindent();
    if (!op.getElseRegion().empty()) {
      os << "} else {\n";
      os.indent();
      if (failed(emitBlock(op.getElseRegion().front())))
        return failure();
      flushMma();
      assign(vars, op.elseYield().getOperands(), op.getResults());
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
    curBlock = op.getBlock();
    if (producerMode && !fullEmit)
      return emitProducerOp(op);
    if (!pendingMma.empty()) {
      if (auto i = dyn_cast<scf::IfOp>(op)) {
        // Only the products a branch reads are waited for: the others stay
        // in flight across the branch (emitIf keeps them pending).
        i->walk([&](Operation *in) {
          for (Value v : in->getOperands())
            if (Operation *def = v.getParentBlock()->getParentOp(); !def || !i->isAncestor(def))
              waitMma(v);
        });
      } else if (op.getNumRegions() || isa<gpu::ReturnOp>(op))
        flushMma();
      else
        for (Value v : op.getOperands())
          waitMma(v);
    }
    if (!isa<arith::ConstantOp, vector::TransferReadOp>(op))
      inIssueRun = false;
    else if (auto r = dyn_cast<vector::TransferReadOp>(op); r && layoutOf(r.getResult()) != "smem")
      inIssueRun = false;
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
        .Case([&](arith::TruncFOp o) {
          if (onlyPacked(o))
            return success(); // its readers round and pack from the f32 source (packPair)
          return elementwise(o, convert(o.getIn().getType(), o.getType()));
        })
        .Case([&](arith::IndexCastOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
        .Case([&](arith::SIToFPOp o) { return elementwise(o, convert(o.getIn().getType(), o.getType())); })
        .Case([&](math::ExpOp o) { return elementwise(o, call("expf")); })
        .Case([&](math::Exp2Op o) {
          bool approx = bitEnumContainsAll(o.getFastmath(), arith::FastMathFlags::afn);
          return elementwise(o, call(approx ? "attncc_ex2" : "exp2f"));
        })
        .Case([&](math::FmaOp o) { return elementwise(o, call("fmaf")); })
        .Case([&](math::LogOp o) { return elementwise(o, call("logf")); })
        .Case([&](math::TanhOp o) { return elementwise(o, call("tanhf")); })
        .Case([&](math::AbsFOp o) { return elementwise(o, call("fabsf")); })
        .Case([&](math::SqrtOp o) { return elementwise(o, call("sqrtf")); })
        .Case([&](vector::BroadcastOp o) -> LogicalResult {
          if (isa<VectorType>(o.getSource().getType())) {
            std::string l = layoutOf(o.getSource());
            if (layoutOf(o.getResult()) != "c" || (l != "row" && l != "col"))
              return o.emitOpError("only scalar broadcasts and row/col -> c broadcasts are supported");
            spreadOf[o.getResult()] = o.getSource();
            return success();
          }
          broadcastOf[o.getResult()] = o.getSource();
          return success();
        })
        .Case([&](vector::ShapeCastOp o) -> LogicalResult {
          if (layoutOf(o.getResult()).empty() || layoutOf(o.getResult()) != layoutOf(o.getSource()))
            return o.emitOpError("only layout-preserving shape casts are supported");
          names[o.getResult()] = ref(o.getSource());
          return success();
        })
        .Case([&](vector::StepOp o) { return emitStep(o); })
        .Case([&](vector::MultiDimReductionOp o) { return emitMultiReduction(o); })
        .Case([&](vector::ContractionOp o) { return emitContract(o); })
        .Case([&](vector::TransferReadOp o) { return emitTransferRead(o); })
        .Case([&](vector::TransferWriteOp o) { return emitTransferWrite(o); })
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

  //===--- WSPEC=load1: the producer warp ----------------------------------===//

  static bool holdsTma(Operation *op) {
    bool any = false;
    op->walk([&](vector::TransferReadOp r) { any = any || (r->hasAttr("attncc.stage") && monoid::isTma(r)); });
    return any;
  }

  /// The ops the producer needs: the backward slice of the TMA reads'
  /// indices and of the bounds of the loops around them. An index loop in
  /// it (a clip) is needed whole, with what its body reads from outside.
  LogicalResult collectProducerOps(gpu::GPUFuncOp f) {
    SmallVector<Value> work;
    auto addOp = [&](Operation *d) {
      if (!producerOps.insert(d).second)
        return;
      for (Value v : d->getOperands())
        work.push_back(v);
      if (!isa<scf::ForOp>(d) || !holdsTma(d))
        d->walk([&](Operation *in) {
          for (Value v : in->getOperands())
            work.push_back(v);
        });
    };
    f.walk([&](vector::TransferReadOp r) {
      if (!r->hasAttr("attncc.stage") || !monoid::isTma(r))
        return;
      for (Value i : r.getIndices())
        work.push_back(i);
      for (Operation *p = r->getParentOp(); p != f.getOperation(); p = p->getParentOp()) {
        auto l = dyn_cast<scf::ForOp>(p);
        if (!l) {
          r.emitOpError("WSPEC=load1: a TMA copy inside a branch is not supported");
          return;
        }
        producerOps.insert(l);
        work.append({l.getLowerBound(), l.getUpperBound(), l.getStep()});
      }
    });
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (Operation *d = v.getDefiningOp()) {
        addOp(d);
        continue;
      }
      auto arg = cast<BlockArgument>(v);
      auto l = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (l && arg != l.getInductionVar() && holdsTma(l))
        return l.emitOpError("WSPEC=load1: a TMA copy's index depends on the fold's carried state");
    }
    return success();
  }

  /// The producer's part of an op: the copies themselves, the slice, loops
  /// that hold copies as bare counted loops (no carried state).
  LogicalResult emitProducerOp(Operation &op) {
    if (auto r = dyn_cast<vector::TransferReadOp>(op); r && r->hasAttr("attncc.stage") && monoid::isTma(r))
      return emitTmaStage(r);
    if (!producerOps.contains(&op))
      return success();
    if (auto l = dyn_cast<scf::ForOp>(op)) {
      if (!holdsTma(l)) {
        fullEmit = true;
        LogicalResult r = emitFor(l);
        fullEmit = false;
        return r;
      }
      std::string iv = define(l.getInductionVar());
      os << "for (long long " << iv << " = " << ref(l.getLowerBound()) << "; " << iv << " < "
         << ref(l.getUpperBound()) << "; " << iv << " += " << ref(l.getStep()) << ") {\n";
      os.indent();
      if (failed(emitBlock(*l.getBody())))
        return failure();
      os.unindent();
      os << "}\n";
      return success();
    }
    fullEmit = true;
    LogicalResult r = emitOp(op);
    fullEmit = false;
    return r;
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
    if (auto s = dyn_cast<vector::TransferWriteOp>(u))
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
  // TMA descriptors after the arguments (the launch contract lists the same).
  for (const monoid::TmaMap &m : monoid::tmaMaps(f)) {
    std::string n = fresh("tm_" + names[f.getArgument(m.arg)]);
    tmaParam[{m.arg, m.rows}] = n;
    params.push_back("const __grid_constant__ attncc_tmap " + n);
  }
  std::string bounds;
  if (auto block = f.getKnownBlockSizeAttr())
    bounds = "__launch_bounds__(" + std::to_string(block[0] * block[1] * block[2]) +
             (f->hasAttr("attncc.tile") ? ", 1" : "") + ") ";
  os << "extern \"C\" __global__ void " << bounds << f.getName() << "(";
  for (size_t i = 0; i < params.size(); ++i)
    os << (i ? ",\n    " : "") << params[i];
  os << ") {\n";
  os.indent();
  if (auto tile = f->getAttrOfType<DictionaryAttr>("attncc.tile")) {
    warps = tile.getAs<IntegerAttr>("warps").getInt();
    if (auto p = tile.getAs<IntegerAttr>("producers"))
      producers = p.getInt();
    tileRows = tile.getAs<IntegerAttr>("rows").getInt();
    fm = tileRows / (16 * warps);
    for (const char *v : {"lane", "warp", "g", "t4", "e", "slot", "kc", "nf", "fm", "r", "a", "b"})
      taken[v] = 1;
    os << "// " << warps << " warps, each " << fm * 16 << " rows of the " << tileRows
       << "-row tile; lane = (g, t4) as in the mma fragment figures\n";
    os << "const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, t4 = lane & 3;\n";
    int64_t smemBytes = tile.getAs<IntegerAttr>("smem") ? tile.getAs<IntegerAttr>("smem").getInt() : 0;
    f.walk([&](vector::ContractionOp c) { wgmma = wgmma || monoid::isWgmma(c); });
    bool swizzled = false;
    f.walk([&](vector::TransferReadOp r) { swizzled = swizzled || (r->hasAttr("attncc.stage") && monoid::isSwizzled(r)); });
    if (smemBytes && !swizzled)
      os << "extern __shared__ __align__(128) unsigned char attncc_smem[]; // " << smemBytes
         << " B, dynamic\n";
    if (smemBytes && swizzled) {
      // The 128-byte swizzle acts on shared-memory address bits: swizzled
      // blocks start on 1024-byte boundaries (attncc-atomize left 1024 B for this).
      os << "extern __shared__ __align__(1024) unsigned char attncc_smem_raw[]; // " << smemBytes
         << " B, dynamic\n";
      os << "unsigned char *const attncc_smem = attncc_smem_raw + ((1024u - ((unsigned)__cvta_generic_to_shared(attncc_smem_raw) & 1023u)) & 1023u);\n";
    }
    WalkResult bad = f.walk([&](vector::TransferReadOp r) {
      auto st = r->getAttrOfType<StringAttr>("attncc.stage");
      if (!st)
        return WalkResult::advance();
      auto off = r->getAttrOfType<IntegerAttr>("attncc.smem_offset");
      if (!off) {
        r.emitOpError("a staged read needs attncc.smem_offset (attncc-atomize)");
        return WalkResult::interrupt();
      }
      auto vt = r.getVectorType();
      int64_t pad = monoid::rowPad(r);
      int64_t stride = vt.getDimSize(1) + pad;
      smemStride[r.getResult()] = stride;
      auto ring = r->getAttrOfType<IntegerAttr>("attncc.ring");
      if (ring) {
        auto it = ringBuf.find(ring.getInt());
        if (it != ringBuf.end()) {
          smemOf[r.getResult()] = it->second;
          return WalkResult::advance();
        }
      }
      std::string base = "block";
      if (auto nl = dyn_cast<NameLoc>(r.getLoc()))
        base = nl.getName().str();
      std::string buf = fresh(base + "_smem");
      smemOf[r.getResult()] = buf;
      os << scalarType(vt) << " *const " << buf << " = reinterpret_cast<" << scalarType(vt)
         << " *>(attncc_smem + " << off.getInt() << "); // "
         << (ring ? "a ring of " + std::to_string(monoid::ringSlots(r)) + " " : std::string())
         << vt.getDimSize(0) << "x" << vt.getDimSize(1) << (pad ? ", rows padded by 16 B" : "")
         << (monoid::isSwizzled(r) ? ", 128-byte swizzled slabs" : "")
         << "\n";
      if (ring)
        ringBuf[ring.getInt()] = buf;
      if (monoid::isTma(r)) {
        tmaBufs[buf] = TmaBuf{monoid::ringSlots(r), vt.getDimSize(0) * stride};
        for (const char *sfx : {"_full", "_empty", "_w", "_r"})
          taken[buf + sfx] = 1;
        os << "__shared__ __align__(8) unsigned long long " << buf << "_full[" << monoid::ringSlots(r)
           << "], " << buf << "_empty[" << monoid::ringSlots(r) << "]; // mbarriers: landed, free\n";
        os << "unsigned " << buf << "_w = 0, " << buf << "_r = 0; // blocks issued, blocks waited for\n";
      } else if (ring) {
        taken[buf + "_slot"] = 1;
        os << "int " << buf << "_slot = 0;\n";
      }
      return WalkResult::advance();
    });
    if (bad.wasInterrupted())
      return failure();
    f.walk([&](vector::ContractionOp c) {
      auto off = c->getAttrOfType<IntegerAttr>("attncc.handoff_offset");
      if (!off)
        return;
      auto vt = cast<VectorType>(c.getLhsType());
      std::string buf = fresh("handoff_smem");
      handoffSlab[c] = buf;
      os << scalarType(vt) << " *const " << buf << " = reinterpret_cast<" << scalarType(vt)
         << " *>(attncc_smem + " << off.getInt() << "); // " << vt.getDimSize(0) << "x" << vt.getDimSize(1)
         << " left operand of an mma (REPACK=smem), rows padded by 16 B\n";
    });
    if (!tmaBufs.empty()) {
      // "full" completes on thread 0's arrival plus the TMA bytes; "empty"
      // on one arrival per warp.
      os << "if (threadIdx.x == 0) {\n";
      os.indent();
      for (auto &[buf, t] : tmaBufs)
        os << "for (int i = 0; i < " << t.slots << "; ++i) { attncc_mbar_init(&" << buf
           << "_full[i], 1); attncc_mbar_init(&" << buf << "_empty[i], " << warps << "); }\n";
      os << "attncc_mbar_fence_init();\n";
      os.unindent();
      os << "}\n__syncthreads(); // the mbarriers are initialized\n";
    }
  }
  if (producers) {
    // WSPEC=load1: the last warp's lane 0 issues every TMA copy, each as soon
    // as its buffer is free; the warps with rows only wait for them.
    if (failed(collectProducerOps(f)))
      return failure();
    llvm::StringMap<int> takenBefore = taken;
    DenseMap<Value, std::string> namesBefore = names;
    // A producer warpgroup (load4) hands registers to the consumers:
    // setmaxnreg is per warpgroup, so it needs whole warpgroups.
    int64_t total = (warps + producers) * 32, prodRegs = 40;
    int64_t consRegs = producers == 4 ? std::min<int64_t>(256, (65536 - 128 * prodRegs) / (warps * 32) / 8 * 8) : 0;
    os << "if (warp >= " << warps << ") { // the producer " << (producers == 4 ? "warpgroup" : "warp")
       << ": TMA copies only\n";
    os.indent();
    if (producers == 4)
      os << "asm volatile(\"setmaxnreg.dec.sync.aligned.u32 " << prodRegs << ";\\n\"); // "
         << total << " threads share 64K registers\n";
    os << "if (warp == " << warps << " && lane == 0) {\n";
    os.indent();
    producerMode = true;
    if (failed(emitBlock(f.getBody().front())))
      return failure();
    producerMode = false;
    // Its last copies must land before the CTA exits: the last fill of each buffer.
    for (auto &[buf, t] : tmaBufs)
      os << "for (unsigned f = " << buf << "_w > " << t.slots << " ? " << buf << "_w - " << t.slots
         << " : 0; f < " << buf << "_w; ++f) attncc_mbar_wait(&" << buf << "_full[f % " << t.slots
         << "], (f / " << t.slots << ") & 1);\n";
    os.unindent();
    os << "}\n";
    os << "return;\n";
    os.unindent();
    os << "}\n";
    taken = takenBefore;
    names = namesBefore;
    if (producers == 4)
      os << "asm volatile(\"setmaxnreg.inc.sync.aligned.u32 " << consRegs << ";\\n\"); // the producer warpgroup keeps "
         << prodRegs << "\n";
  }
  if (failed(emitBlock(f.getBody().front())))
    return failure();
  flushMma();
  // Blocks prefetched and never read must land before the CTA exits.
  if (!producers)
    for (auto &[buf, t] : tmaBufs)
      os << "if (threadIdx.x == 0) for (unsigned f = " << buf << "_r; f < " << buf << "_w; ++f) attncc_mbar_wait(&"
         << buf << "_full[f % " << t.slots << "], (f / " << t.slots << ") & 1);\n";
  os.unindent();
  os << "}\n";
  return success();
}

} // namespace

LogicalResult emitCuda(ModuleOp module, const CudaTargetInfo &target, raw_ostream &out) {
  raw_indented_ostream os(out);
  os << "// Generated by attncc for " << target.arch << ". One thread per point of each map;\n"
     << "// the streamed fold is the loop inside. Do not edit: change the schedule.\n"
     << "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n\n"
     << "// exp2 with fastmath<afn>: the MUFU.EX2 instruction (2 ulp, flushes subnormals).\n"
     << "__device__ __forceinline__ float attncc_ex2(float x) {\n"
     << "  float y;\n  asm(\"ex2.approx.ftz.f32 %0, %1;\" : \"=f\"(y) : \"f\"(x));\n  return y;\n}\n\n";
  bool tiled = false, wgmma = false, tma = false;
  module.walk([&](vector::TransferReadOp r) { tma = tma || (r->hasAttr("attncc.stage") && monoid::isTma(r)); });
  module.walk([&](gpu::GPUFuncOp f) {
    if (f->hasAttr("attncc.tile"))
      tiled = true;
  });
  module.walk([&](vector::ContractionOp c) { wgmma = wgmma || monoid::isWgmma(c); });
  if (tiled)
    os << kMmaCuh;
  if (wgmma)
    os << kWgmmaCuh;
  if (tma)
    os << kTmaCuh;
  // Kernels first into a buffer: they name the per-shape helpers they call.
  std::string kernels;
  llvm::raw_string_ostream ks(kernels);
  raw_indented_ostream kos(ks);
  std::map<std::string, std::string> helpers;
  WalkResult r = module.walk([&](gpu::GPUFuncOp f) {
    if (!f.isKernel())
      return WalkResult::advance();
    KernelEmitter k(kos, helpers);
    if (failed(k.emitKernel(f)))
      return WalkResult::interrupt();
    kos << "\n";
    return WalkResult::advance();
  });
  for (auto &[name, text] : helpers)
    os << text << "\n";
  os << kernels;
  return failure(r.wasInterrupted());
}

} // namespace attncc
