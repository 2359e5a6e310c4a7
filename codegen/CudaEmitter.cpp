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
#include "codegen/KernelEmitter.h"

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

namespace codegen {


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

/// codegen/cuda/tcgen05.cuh and tcgen05_emu.cuh (`--emulate`), embedded at
/// build time: the same device functions, inline PTX or the emulator.
#include "codegen/cuda/tcgen05.cuh.inc"     // const char *kTcgen05Cuh
#include "codegen/cuda/tcgen05_emu.cuh.inc" // const char *kTcgen05EmuCuh
#include "codegen/cuda/wgmma_atoms.cuh.inc" // const char *kWgmmaAtomsCuh
#include "codegen/cuda/tma_loads.cuh.inc"   // const char *kTmaLoadsCuh

FailureOr<std::string> helperSection(const char *file, StringRef name) {
  StringRef text(file);
  std::string open = ("// attncc-helper: " + name + "\n").str();
  size_t at = text.find(open);
  if (at == StringRef::npos)
    return failure();
  size_t from = at + open.size(), to = text.find("// attncc-helper-end", from);
  if (to == StringRef::npos)
    return failure();
  return text.slice(from, to).str();
}

std::string KernelEmitter::fresh(std::string base) {
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

std::string KernelEmitter::define(Value v) {
  std::string base = "t"; // temporaries: t, t_1, ...
  if (auto n = dyn_cast<NameLoc>(v.getLoc()))
    base = n.getName().str();
  return names[v] = fresh(base);
}

std::string KernelEmitter::ref(Value v) {
  auto it = names.find(v);
  return it == names.end() ? std::string("<?>") : it->second;
}

/// Element `e` of a vector value, or the value itself when scalar.
std::string KernelEmitter::elem(Value v, StringRef e) {
  if (auto it = broadcastOf.find(v); it != broadcastOf.end())
    return ref(it->second);
  if (auto it = spreadOf.find(v); it != spreadOf.end()) {
    // Element e of a c tile reads the row (or column) slot it lies in.
    int64_t nf = cast<VectorType>(v.getType()).getDimSize(1) / 8;
    std::string x = "(" + e.str() + ")";
    std::string from = layoutOf(it->second);
    if (monoid::isRowPerThreadRow(from)) // a rowthread (rowhalf) tile's element e lies in the thread's row
      return elem(it->second, "0");
    if (from == "rowthread.col") // ... and in column e
      return elem(it->second, e);
    if (layoutOf(v) == "quad") // a row spread over its lanes' partials: slot e is the row's slot e
      return elem(it->second, e);
    if (from == "row")
      return elem(it->second, "(" + x + " / " + std::to_string(4 * nf) + ") * 2 + ((" + x +
                                  " >> 1) & 1)");
    return elem(it->second, "((" + x + " >> 2) % " + std::to_string(nf) + ") * 2 + (" + x + " & 1)");
  }
  if (!isa<VectorType>(v.getType()) || isSplat(v))
    return ref(v);
  return ref(v) + "[" + e.str() + "]";
}

bool KernelEmitter::isSplat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  return c && isa<VectorType>(v.getType());
}

bool KernelEmitter::isSync(Operation *op) {
  return isa<NVVM::CpAsyncWaitGroupOp, NVVM::CpAsyncCommitGroupOp, NVVM::FenceProxyOp, gpu::BarrierOp,
             NVVM::BarrierOp, NVVM::WgmmaWaitGroupSyncOp, NVVM::MembarOp>(op);
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator()) {
    // Waits right before a loop (and the constants they name) are printed
    // after the loop's variables take their initial values (emitFor): both
    // orders are correct, registers only, and this one is the order the
    // emitter printed before attncc-place-waits existed (the PTX stays the
    // same).
    if (isSync(&op)) {
      Operation *next = op.getNextNode();
      while (next && (isSync(next) || isa<arith::ConstantOp>(next)))
        next = next->getNextNode();
      if (next && isa<scf::ForOp>(next)) {
        waitsBeforeLoop.push_back(&op);
        continue;
      }
    }
    if (failed(emitOp(op)))
      return failure();
  }
  return success();
}

/// Assigns the yielded values to the variables `targets` (scf.for iter
/// args or scf.if results).
/// `like` are the values the targets stand for (their layouts size the copy).
void KernelEmitter::assign(ArrayRef<std::string> targets, ValueRange values, ValueRange like) {
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

void KernelEmitter::declareVar(const std::string &name, Value v) {
  if (isa<VectorType>(v.getType()) && layoutOf(v) == "smem") {
    os << scalarType(v.getType()) << " *" << name << "; // a block in shared memory\n";
    return;
  }
  if (isa<MemRefType>(v.getType())) { // a slot's view a loop carries (attncc-lower-copies)
    os << scalarType(v.getType()) << " *" << name << "; // a slot in shared memory\n";
    return;
  }
  os << regType(v.getType()) << " " << name;
  if (isa<VectorType>(v.getType()))
    os << "[" << count(v) << "]";
  os << ";\n";
}

LogicalResult KernelEmitter::emitOp(Operation &op) {
  if (isa<arith::ArithDialect, math::MathDialect>(op.getDialect()))
    return emitScalar(&op);
  if (isSync(&op))
    return emitSync(&op);
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](NVVM::SetMaxRegisterOp o) {
        bool inc = o.getAction() == NVVM::SetMaxRegisterAction::increase;
        os << "asm volatile(\"setmaxnreg." << (inc ? "inc" : "dec") << ".sync.aligned.u32 " << o.getRegCount()
           << ";\\n\"); // " << (inc ? "the consumers take the registers the producers leave"
                                        : "the producers keep few registers") << "\n";
        return success();
      })
      .Case([&](NVVM::GriddepcontrolOp o) {
        bool wait = o.getKind() == NVVM::GridDepActionKind::wait;
        std::string why;
        if (auto n = dyn_cast<NameLoc>(o.getLoc()))
          why = " // " + n.getName().str();
        os << "asm volatile(\"griddepcontrol." << (wait ? "wait" : "launch_dependents") << ";\" ::: \"memory\");"
           << why << "\n";
        return success();
      })
      .Case([&](vector::BroadcastOp o) -> LogicalResult {
        if (isa<VectorType>(o.getSource().getType())) {
          std::string l = layoutOf(o.getSource()), r = layoutOf(o.getResult());
          bool mma = (r == "c" && (l == "row" || l == "col")) || (r == "quad" && l == "row");
          bool rowthread = (r == "rowthread" && (l == "rowthread.row" || l == "rowthread.col")) ||
                           (r == "rowhalf" && (l == "rowhalf.row" || l == "rowthread.col"));
          if (!mma && !rowthread)
            return o.emitOpError("only scalar broadcasts and row/col -> c, row -> quad (rowthread.row/col -> "
                                 "rowthread, rowhalf.row/rowthread.col -> rowhalf) broadcasts are supported");
          spreadOf[o.getResult()] = o.getSource();
          return success();
        }
        broadcastOf[o.getResult()] = o.getSource();
        return success();
      })
      .Case([&](vector::TransposeOp o) -> LogicalResult {
        // A block in shared memory seen slab by slab (attncc-lower-copies).
        if (layoutOf(o.getResult()) != "smem" || layoutOf(o.getVector()) != "smem")
          return o.emitOpError("only transposes of a block in shared memory are supported");
        names[o.getResult()] = ref(o.getVector());
        return success();
      })
      .Case([&](vector::ShapeCastOp o) -> LogicalResult {
        if (layoutOf(o.getResult()).empty() && layoutOf(o.getSource()).empty() &&
            !isa_and_nonnull<arith::ConstantOp>(o.getSource().getDefiningOp())) {
          names[o.getResult()] = ref(o.getSource()); // a thread's registers, in the same order
          return success();
        }
        if (layoutOf(o.getResult()).empty() || layoutOf(o.getResult()) != layoutOf(o.getSource()))
          return o.emitOpError("only layout-preserving shape casts are supported");
        names[o.getResult()] = ref(o.getSource());
        return success();
      })
      .Case([&](vector::StepOp o) { return emitStep(o); })
      .Case([&](vector::MultiDimReductionOp o) { return emitMultiReduction(o); })
      .Case([&](vector::ContractionOp o) {
        return o.emitOpError("a tensor-core contraction is printed as the atoms attncc-lower-mma and "
                             "attncc-lower-wgmma write");
      })
      .Case([&](monoid::SmemDescriptorOp o) {
        return o.getTcgen05() ? emitTcgen05Descriptor(o) : emitSmemDescriptor(o);
      })
      .Case([&](vector::BitCastOp o) -> LogicalResult {
        // 16-bit pairs as the 32-bit words they are packed in (tensor-memory stores).
        if (!isPacked(o.getSource()) || !getElementTypeOrSelf(o.getType()).isInteger(32))
          return o.emitOpError("the CUDA emitter bitcasts packed 16-bit pairs to i32 words only");
        names[o.getResult()] = ref(o.getSource());
        return success();
      })
      .Case<memref::ExtractAlignedPointerAsIndexOp, LLVM::IntToPtrOp, NVVM::Tcgen05AllocOp,
            NVVM::Tcgen05RelinquishAllocPermitOp, NVVM::Tcgen05DeallocOp, NVVM::Tcgen05FenceOp, NVVM::Tcgen05WaitOp,
            NVVM::Tcgen05StOp, NVVM::Tcgen05LdOp, NVVM::Tcgen05MMAOp, NVVM::Tcgen05CommitOp, NVVM::MBarrierInitOp,
            NVVM::FenceMbarrierInitOp, NVVM::MBarrierTryWaitParityOp, NVVM::MBarrierArriveOp, NVVM::VoteSyncOp>(
          [&](Operation *o) { return emitTcgen05(o); })
      .Case([&](monoid::WgmmaOp o) { return emitWgmmaAtom(o); })
      .Case<NVVM::WgmmaFenceAlignedOp, NVVM::WgmmaGroupSyncAlignedOp, NVVM::BarrierArriveOp>(
          [&](Operation *o) { return emitWgmmaSync(o); })
      .Case([&](vector::TransferReadOp o) { return emitTransferRead(o); })
      .Case([&](vector::TransferWriteOp o) { return emitTransferWrite(o); })
      .Case([&](vector::ReductionOp o) { return emitReduction(o); })
      .Case([&](vector::LoadOp o) {
        return isa_and_nonnull<memref::AllocaOp>(o.getBase().getDefiningOp()) ? emitRegisterLoad(o)
                                                                              : emitVectorLoad(o);
      })
      .Case([&](vector::StoreOp o) {
        return isa_and_nonnull<memref::AllocaOp>(o.getBase().getDefiningOp()) ? emitRegisterStore(o)
                                                                              : emitVectorStore(o);
      })
      .Case([&](memref::LoadOp o) {
        std::string n = define(o.getResult());
        os << "const " << scalarType(o.getType()) << " " << n << " = " << ref(o.getMemRef());
        if (!o.getIndices().empty())
          os << "[" << offset(o.getMemRef(), o.getIndices()) << "]";
        os << ";\n";
        return success();
      })
      .Case([&](memref::StoreOp o) {
        os << ref(o.getMemRef());
        if (!o.getIndices().empty())
          os << "[" << offset(o.getMemRef(), o.getIndices()) << "]";
        os << " = " << ref(o.getValueToStore()) << ";\n";
        return success();
      })
      .Case([&](memref::AtomicRMWOp o) -> LogicalResult {
        // attncc-last-combine's arrival: the count before this one.
        if (o.getKind() != arith::AtomicRMWKind::addi || !o.getType().isInteger(32))
          return o.emitOpError("the CUDA emitter prints an i32 atomic add only");
        std::string n = define(o.getResult());
        os << "const int " << n << " = atomicAdd(&" << ref(o.getMemref());
        if (!o.getIndices().empty())
          os << "[" << offset(o.getMemref(), o.getIndices()) << "]";
        os << ", " << ref(o.getValue()) << ");\n";
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
      .Case([&](gpu::SubgroupIdOp o) -> LogicalResult {
        if (!warps)
          return o.emitOpError("needs a tiled kernel (attncc.tile), whose warp the emitter names");
        names[o.getResult()] = "warp"; // the kernel's prologue defines warp and lane
        return success();
      })
      .Case([&](gpu::LaneIdOp o) -> LogicalResult {
        if (!warps)
          return o.emitOpError("needs a tiled kernel (attncc.tile), whose lane the emitter names");
        names[o.getResult()] = "lane";
        return success();
      })
      .Case([&](gpu::BlockDimOp o) { return builtin(o, "blockDim", o.getDimension()); })
      .Case([&](gpu::GridDimOp o) { return builtin(o, "gridDim", o.getDimension()); })
      .Case([&](NVVM::InlinePtxOp o) { return emitFenceAccumulators(o); })
      .Case([&](gpu::DynamicSharedMemoryOp o) { return emitDynamicSmem(o); })
      .Case([&](memref::ViewOp o) { return emitView(o); })
      .Case([&](memref::SubViewOp o) { return emitSubview(o); })
      .Case([&](memref::ExpandShapeOp o) { return emitExpandShape(o); })
      .Case([&](memref::AllocaOp o) { return emitAlloca(o); })
      .Case([&](monoid::ToLanesOp o) { return emitToLanes(o); })
      .Case([&](monoid::FromLanesOp o) { return emitFromLanes(o); })
      .Case([&](nvgpu::LdMatrixOp o) { return emitLdmatrix(o); })
      .Case([&](nvgpu::MmaSyncOp o) { return emitMmaSync(o); })
      .Case([&](vector::ExtractOp o) { return emitExtract(o); })
      .Case([&](vector::ExtractStridedSliceOp o) { return emitExtractSlice(o); })
      .Case([&](nvgpu::DeviceAsyncCopyOp o) { return emitAsyncCopy(o); })
      .Case([&](nvgpu::TmaAsyncLoadOp o) { return emitTmaLoad(o); })
      .Case<nvgpu::MBarrierCreateOp, nvgpu::MBarrierInitOp, nvgpu::MBarrierTryWaitParityOp,
            nvgpu::MBarrierArriveExpectTxOp, nvgpu::MBarrierArriveOp>([&](Operation *o) { return emitMbarrier(o); })
      .Case([&](NVVM::SyncWarpOp o) {
        auto m = getConstantIntValue(o.getMask());
        if (m && *m == -1)
          os << "__syncwarp();\n";
        else
          os << "__syncwarp((unsigned)" << ref(o.getMask()) << ");\n";
        return success();
      })
      .Case([&](NVVM::FenceMbarrierInitOp) {
        os << "attncc_mbar_fence_init();\n";
        return success();
      })
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

LogicalResult KernelEmitter::builtin(Operation *op, const char *var, gpu::Dimension d) {
  const char *field = d == gpu::Dimension::x ? "x" : d == gpu::Dimension::y ? "y" : "z";
  std::string n = define(op->getResult(0));
  os << "const long long " << n << " = " << var << "." << field << ";\n";
  return success();
}


/// Whether a memref parameter is ever written (else it is `const`),
/// directly or through a view of it (a varlen sequence's rows).
bool isWritten(Value m) {
  return llvm::any_of(m.getUsers(), [&](Operation *u) {
    if (auto v = dyn_cast<memref::SubViewOp>(u))
      return v.getSource() == m && isWritten(v.getResult());
    if (auto e = dyn_cast<memref::ExpandShapeOp>(u))
      return isWritten(e.getResult());
    if (auto s = dyn_cast<memref::StoreOp>(u))
      return s.getMemRef() == m;
    if (auto s = dyn_cast<memref::AtomicRMWOp>(u))
      return s.getMemref() == m;
    if (auto s = dyn_cast<vector::StoreOp>(u))
      return s.getBase() == m;
    if (auto s = dyn_cast<vector::TransferWriteOp>(u))
      return s.getBase() == m;
    return false;
  });
}

LogicalResult KernelEmitter::emitKernel(gpu::GPUFuncOp f) {
  kernel = f;
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
    } else if (isa<nvgpu::TensorMapDescriptorType>(a.getType())) {
      // A TMA descriptor (attncc-lower-copies), made on the host.
      params.push_back("const __grid_constant__ attncc_tmap " + n);
    } else if (!scalarType(a.getType()).empty() && !isa<VectorType>(a.getType())) {
      params.push_back(scalarType(a.getType()) + " " + n);
    } else {
      return f.emitOpError("argument type not supported by the CUDA emitter: ") << a.getType();
    }
  }
  std::string bounds;
  if (auto block = f.getKnownBlockSizeAttr()) {
    auto minCtas = f->getAttrOfType<IntegerAttr>(NVVM::NVVMDialect::getMinctasmAttrName());
    bounds = "__launch_bounds__(" + std::to_string(block[0] * block[1] * block[2]) +
             (minCtas ? ", " + std::to_string(minCtas.getInt()) : "") + ") ";
  }
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
  }
  if (failed(emitBlock(f.getBody().front())))
    return failure();
  os.unindent();
  os << "}\n";
  return success();
}

} // namespace codegen

LogicalResult emitCuda(ModuleOp module, const CudaTargetInfo &target, raw_ostream &out) {
  using namespace codegen;
  raw_indented_ostream os(out);
  os << "// Generated by attncc for " << target.arch << ". One thread per point of each map;\n"
     << "// the streamed fold is the loop inside. Do not edit: change the schedule.\n"
     << "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n\n"
     << "// exp2 with fastmath<afn>: the MUFU.EX2 instruction (2 ulp, flushes subnormals).\n"
     << "__device__ __forceinline__ float attncc_ex2(float x) {\n"
     << "  float y;\n  asm(\"ex2.approx.ftz.f32 %0, %1;\" : \"=f\"(y) : \"f\"(x));\n  return y;\n}\n\n";
  bool tiled = false, wgmma = false, tma = false;
  module.walk([&](nvgpu::MBarrierCreateOp) { tma = true; });
  module.walk([&](gpu::GPUFuncOp f) {
    if (f->hasAttr("attncc.tile"))
      tiled = true;
  });
  module.walk([&](monoid::WgmmaOp) { wgmma = true; });
  bool tcgen05 = false;
  module.walk([&](NVVM::Tcgen05AllocOp) { tcgen05 = true; });
  if (tiled)
    os << kMmaCuh;
  if (wgmma)
    os << kWgmmaCuh;
  if (tma || tcgen05)
    os << kTmaCuh;
  if (tcgen05)
    os << (module->hasAttr("attncc.emulate") ? kTcgen05EmuCuh : kTcgen05Cuh);
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
