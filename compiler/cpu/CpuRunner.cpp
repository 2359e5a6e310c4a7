//===- CpuRunner.cpp - execute loop-level IR on the CPU -------------------===//
#include "compiler/cpu/CpuRunner.h"

#include "compiler/frontend/Frontend.h"
#include "ir/MonoidDialect.h"
#include "ir/MonoidOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "passes/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"

#include <cmath>
#include <functional>
#include <pthread.h>
#include <cstring>
#include <limits>
#include <optional>

using namespace mlir;

namespace attncc {

/// A mixed-precision vector.contract (f16 x f16 -> f32, the tensor-core
/// contract of partitioned IR) extends its operands first: the CPU lowering
/// of vector.contract needs one element type.
static void widenContracts(ModuleOp module) {
  module.walk([](vector::ContractionOp c) {
    Type acc = getElementTypeOrSelf(c.getAccType());
    OpBuilder b(c);
    for (OpOperand *o : {&c.getLhsMutable(), &c.getRhsMutable()}) {
      auto vt = cast<VectorType>(o->get().getType());
      if (vt.getElementType() != acc)
        o->set(arith::ExtFOp::create(b, c.getLoc(), vt.clone(acc), o->get()));
    }
  });
}

/// A workspace the runtime zeroes (attncc.zero_init: attncc-last-combine's
/// arrival counters; on the GPU the runner clears it once and the kernel
/// leaves it zero) is cleared here after memref.alloc, which does not.
static void zeroWorkspaces(ModuleOp module) {
  module.walk([](memref::AllocOp a) {
    if (!a->hasAttr("attncc.zero_init"))
      return;
    OpBuilder b(a->getContext());
    b.setInsertionPointAfter(a);
    Location loc = a.getLoc();
    MemRefType t = a.getType();
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(t.getElementType()));
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0), c1 = arith::ConstantIndexOp::create(b, loc, 1);
    SmallVector<Value> ivs;
    for (int64_t k = 0; k < t.getRank(); ++k) {
      Value n = memref::DimOp::create(b, loc, a.getResult(), k);
      auto loop = scf::ForOp::create(b, loc, c0, n, c1);
      ivs.push_back(loop.getInductionVar());
      b.setInsertionPoint(loop.getBody()->getTerminator());
    }
    memref::StoreOp::create(b, loc, zero, a.getResult(), ivs);
  });
}

/// bf16 values in the LLVM dialect become i16 bit patterns. After the
/// ArithExpandOps bf16 patterns, bf16 values are only loaded, stored, moved
/// and bitcast to and from i16 (the expanded conversions); but LLVM's x86
/// backend keeps a bf16 value in registers as f32 on CPUs without AVX512-BF16
/// and rounds it back with a call to __truncsfbf2, which Debian 12's libgcc
/// (GCC 12) does not have. As i16 no conversion is left to call. Any bf16
/// arithmetic still present would fail the verifier here, loudly.
static LogicalResult storeBf16AsI16(ModuleOp module) {
  Type i16 = IntegerType::get(module.getContext(), 16);
  AttrTypeReplacer rep;
  rep.addReplacement([&](BFloat16Type) -> Type { return i16; });
  rep.addReplacement([&](DenseElementsAttr a) -> std::optional<std::pair<Attribute, WalkResult>> {
    if (!a.getElementType().isBF16())
      return std::nullopt;
    return std::pair<Attribute, WalkResult>{a.bitcast(i16), WalkResult::skip()};
  });
  rep.addReplacement([&](FloatAttr a) -> std::optional<std::pair<Attribute, WalkResult>> {
    if (!a.getType().isBF16())
      return std::nullopt;
    return std::pair<Attribute, WalkResult>{IntegerAttr::get(i16, a.getValue().bitcastToAPInt()),
                                            WalkResult::skip()};
  });
  rep.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true, /*replaceLocs=*/false,
                                   /*replaceTypes=*/true);
  bool left = false;
  module.walk([&](Operation *op) {
    auto isBf16 = [](Type t) { return isa<BFloat16Type>(getElementTypeOrSelf(t)); };
    left = left || llvm::any_of(op->getResultTypes(), isBf16) ||
           llvm::any_of(op->getOperandTypes(), isBf16);
  });
  if (left)
    return module.emitError("the CPU lowering left a bf16 value in the LLVM dialect");
  return verify(module);
}

/// monoid.resident_ctas: the CPU's stand-in for the device (kCpuResidentCtas).
static void residentCtas(ModuleOp module) {
  module.walk([](monoid::ResidentCtasOp r) {
    OpBuilder b(r);
    r.replaceAllUsesWith(arith::ConstantIndexOp::create(b, r.getLoc(), kCpuResidentCtas).getResult());
    r.erase();
  });
}

LogicalResult lowerLoopToLLVM(ModuleOp module) {
  widenContracts(module);
  residentCtas(module);
  zeroWorkspaces(module);
  PassManager pm(module.getContext());
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(mlir::attncc::createLowerContract());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true; // bf16 <-> f32 as integer ops: no soft-float calls needed
  fn.addPass(arith::createArithExpandOpsPass(expand));
  // Tiled (partitioned) IR: multi-dimensional reductions and out-of-bounds
  // tile reads/writes become loops first.
  fn.addPass(vector::createLowerVectorMultiReductionPass());
  VectorTransferToSCFOptions toScf;
  toScf.enableFullUnroll(false);
  fn.addPass(createConvertVectorToSCFPass(toScf));
  // Views (a varlen sequence's rows): their offsets and strides as index
  // arithmetic (affine.apply, lowered next) over the base memref.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addNestedPass<func::FuncOp>(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Contractions as outer products (vector FMAs): the default dot-product
  // form gives LLVM one horizontal reduction per output element, which took
  // 6x longer to compile for the bf16 tensor-core cases (33 s against 3 s
  // for `tc d128-bf16`, 2026-12-01); the errors of every case agreed to the
  // digits the check prints.
  ConvertVectorToLLVMPassOptions vectorOpts;
  vectorOpts.vectorContractLowering = vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorOpts));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(module)))
    return failure();
  return storeBf16AsI16(module);
}

namespace {

/// A dense row-major buffer and its memref descriptor (element = 2 or 4 bytes).
struct Buffer {
  std::vector<uint8_t> bytes;
  std::vector<int64_t> shape;
  DType type; // storage type: F16/BF16 as 16-bit patterns, F32 as float
  bool i32 = false; // int32 (a paged cache's block table and lengths): type unused
  StridedMemRefType<char, 4> desc4;
  StridedMemRefType<char, 3> desc3;
  StridedMemRefType<char, 2> desc2;
  StridedMemRefType<char, 1> desc1;
  void *descPtr = nullptr;

  Buffer(DType t, std::vector<int64_t> s, bool isI32 = false)
      : shape(std::move(s)), type(t), i32(isI32) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    bytes.resize(size_t(n) * elemBytes());
  }
  size_t elemBytes() const { return i32 || type == DType::F32 ? 4 : 2; }
  int64_t count() const { return int64_t(bytes.size() / elemBytes()); }

  void set(int64_t i, float v) {
    if (type == DType::F32) {
      std::memcpy(&bytes[size_t(i) * 4], &v, 4);
      return;
    }
    uint16_t h = type == DType::F16 ? floatToHalfBits(v) : floatToBf16Bits(v);
    std::memcpy(&bytes[size_t(i) * 2], &h, 2);
  }
  double get(int64_t i) const {
    if (type == DType::F32) {
      float v;
      std::memcpy(&v, &bytes[size_t(i) * 4], 4);
      return v;
    }
    uint16_t h;
    std::memcpy(&h, &bytes[size_t(i) * 2], 2);
    return type == DType::F16 ? halfBitsToFloat(h) : bf16BitsToFloat(h);
  }
  void poison() {
    for (int64_t i = 0; i < count(); ++i)
      set(i, std::numeric_limits<float>::quiet_NaN());
  }
  /// The descriptor, laid out as the C interface expects (strides in elements).
  void *descriptor() {
    auto fill = [&](auto &d) {
      d.basePtr = d.data = reinterpret_cast<char *>(bytes.data());
      d.offset = 0;
      int64_t stride = 1;
      for (int r = int(shape.size()) - 1; r >= 0; --r) {
        d.sizes[r] = shape[r];
        d.strides[r] = stride;
        stride *= shape[r];
      }
      return static_cast<void *>(&d);
    };
    switch (shape.size()) {
    case 4: descPtr = fill(desc4); break;
    case 3: descPtr = fill(desc3); break;
    case 2: descPtr = fill(desc2); break;
    default: descPtr = fill(desc1); break;
    }
    return descPtr;
  }
};

/// Runs `f` on a thread with a 1 GiB stack: the loop IR of a tiled fold
/// lowers vector transfers to allocas inside the loop, so its stack grows
/// with the number of blocks (a few thousand keys overflowed the default
/// 8 MiB). The pages are only touched as far as the kernel goes.
llvm::Error onBigStack(const std::function<llvm::Error()> &f) {
  struct Job {
    const std::function<llvm::Error()> *f;
    std::optional<llvm::Error> result;
  } job{&f, std::nullopt};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, size_t(1) << 30) == 0 &&
                 pthread_create(&thread, &attr, [](void *p) -> void * {
                   auto *j = static_cast<Job *>(p);
                   j->result.emplace((*j->f)());
                   return nullptr;
                 }, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return f(); // no thread: run here
  pthread_join(thread, nullptr);
  return std::move(*job.result);
}

Buffer ints(std::vector<int64_t> shape, const std::vector<int32_t> &values) {
  Buffer b(DType::F32, std::move(shape), /*isI32=*/true);
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

Buffer input(DType t, std::vector<int64_t> shape, const std::vector<float> &values) {
  Buffer b(t, std::move(shape));
  for (int64_t i = 0; i < b.count(); ++i)
    b.set(i, values[size_t(i)]);
  return b;
}

} // namespace

bool runOnCpu(ModuleOp loopModule, const Problem &p, const Inputs &in, CpuOutputs &outs,
              std::string &err) {
  for (auto [name, e] : {std::pair{"batch", &p.batch}, {"seq_q", &p.seq_q}, {"seq_k", &p.seq_k}})
    if (e->value <= 0) {
      err = std::string("invalid ") + name + " = '?': running needs a concrete value; write ?=N";
      return false;
    }
  static bool targetsReady = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targetsReady;

  MLIRContext *ctx = loopModule.getContext();
  DialectRegistry registry;
  registry.insert<LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  ctx->appendDialectRegistry(registry);

  OwningOpRef<ModuleOp> module(cast<ModuleOp>(loopModule->clone()));
  if (failed(lowerLoopToLLVM(*module))) {
    err = "lowering the loop-level IR to LLVM failed";
    return false;
  }
  // ExecutionEngineOptions::transformer is a function_ref: the function it
  // refers to must outlive create().
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0, nullptr);
  ExecutionEngineOptions opts;
  opts.transformer = optimize;
  auto engine = ExecutionEngine::create(*module, opts);
  if (!engine) {
    err = "ExecutionEngine: " + llvm::toString(engine.takeError());
    return false;
  }

  int64_t B = p.batch.value, Hq = p.heads_q, Hkv = p.heads_kv, Sq = p.seq_q.value,
          Sk = p.seq_k.value, D = p.head_dim;
  std::vector<Buffer> bufs;
  bufs.reserve(8);
  if (p.kind == ProblemKind::Attention) {
    if (p.paged())
      if (std::optional<ProblemError> e = checkPagedInputs(p, in)) {
        err = "problem: " + e->message();
        return false;
      }
    if (p.varlen)
      if (std::optional<ProblemError> e = checkVarlenInputs(p, in)) {
        err = "problem: " + e->message();
        return false;
      }
    // One buffer a role, in the front end's argument order (argRoles).
    int64_t totalQ = p.varlen ? in.cu_seqlens_q.back() : 0;
    int64_t totalK = p.varlen && !p.paged() ? in.cu_seqlens_k.back() : 0;
    for (const char *role : argRoles(p)) {
      std::string r = role;
      if (r == "q")
        bufs.push_back(p.varlen ? input(p.dtype, p.packedShape(false, totalQ), in.q_packed)
                                : input(p.dtype, {B, Hq, Sq, D}, in.q));
      else if (r == "k" || r == "v")
        bufs.push_back(p.paged()    ? input(p.dtype, p.cacheShape(), r == "k" ? in.k_cache : in.v_cache)
                       : p.varlen ? input(p.dtype, p.packedShape(true, totalK), r == "k" ? in.k_packed : in.v_packed)
                                  : input(p.dtype, {B, Hkv, Sk, D}, r == "k" ? in.k : in.v));
      else if (r == "bias")
        bufs.push_back(input(p.dtype,
                             {p.bias_batch_broadcast ? 1 : B, p.bias_head_broadcast ? 1 : Hq, Sq, Sk}, in.bias));
      else if (r == "block_table")
        bufs.push_back(ints({B, p.maxPages()}, in.block_table));
      else if (const std::vector<int32_t> *v = in.indexInput(r)) // lengths, cumulative lengths: 1-d
        bufs.push_back(ints({int64_t(v->size())}, *v));
      else if (r == "o")
        bufs.emplace_back(p.dtype, p.varlen ? p.packedShape(false, totalQ) : std::vector<int64_t>{B, Hq, Sq, D});
      else if (r == "lse")
        bufs.emplace_back(DType::F32, std::vector<int64_t>{B, Hq, Sq});
      else {
        err = "the CPU runner has no buffer for the argument role '" + r + "'";
        return false;
      }
    }
  } else {
    bufs.push_back(input(p.dtype, {B, Hq, Sq, Sk}, in.q));
    bufs.emplace_back(DType::F32, std::vector<int64_t>{B, Hq, Sq});
  }
  size_t numOut = p.kind == ProblemKind::Attention ? 2 : 1;
  std::vector<void *> descs, args;
  for (Buffer &b : bufs)
    descs.push_back(b.descriptor());
  for (void *&d : descs)
    args.push_back(&d);
  std::string entry = std::string("_mlir_ciface_") + entryName(p.kind);
  // Two runs on freshly poisoned outputs; the second must repeat the first
  // bit for bit.
  std::vector<std::vector<uint8_t>> firstBytes;
  outs.repeatable = true;
  for (int rep = 0; rep < 2; ++rep) {
    for (size_t i = bufs.size() - numOut; i < bufs.size(); ++i)
      bufs[i].poison();
    if (llvm::Error e = onBigStack([&] { return (*engine)->invokePacked(entry, args); })) {
      err = "invoking " + entry + ": " + llvm::toString(std::move(e));
      return false;
    }
    for (size_t i = bufs.size() - numOut, k = 0; i < bufs.size(); ++i, ++k) {
      if (rep == 0)
        firstBytes.push_back(bufs[i].bytes);
      else
        outs.repeatable = outs.repeatable && firstBytes[k] == bufs[i].bytes;
    }
  }
  auto read = [](const Buffer &b, std::vector<double> &dst) {
    dst.resize(size_t(b.count()));
    for (int64_t i = 0; i < b.count(); ++i)
      dst[size_t(i)] = b.get(i);
  };
  if (p.kind == ProblemKind::Attention) {
    read(bufs[bufs.size() - 2], outs.out);
    read(bufs.back(), outs.lse);
    // Varlen: packed O as the logical [B, Hq, Sq, D]; the LSE's rows past a
    // sequence (and O's rows in a gap, seqused) must still hold the poison.
    if (p.varlen) {
      std::vector<double> packed = std::move(outs.out);
      WrittenPast w = unpackVarlen(p, in, packed, outs.out, outs.lse);
      outs.writtenPastSequence = w.lseRows;
      outs.gapRowsWritten = w.gapRows;
    }
  } else {
    read(bufs.back(), outs.out);
    outs.lse.clear();
  }
  return true;
}

} // namespace attncc
