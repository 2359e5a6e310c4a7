//===- EmitTcgen05.cpp - the tcgen05 and tensor-memory ops ------------------===//
//
// One line per op of attncc-allocate-tmem and attncc-lower-tcgen05: each
// nvvm.tcgen05.* op is a call of the device function of the same name in
// codegen/cuda/tcgen05.cuh (inline PTX, sm_100a) or, when the module is
// compiled for emulation (attncc.emulate), codegen/cuda/tcgen05_emu.cuh
// (the same functions on an sm_90a GPU); the kernel text is the same.
// LLVM pointers are printed as what the helpers take: a shared pointer
// (!llvm.ptr<3>) as a generic `void *`, a tensor-memory address
// (!llvm.ptr<6>) as its 32-bit `unsigned`.
//
//===----------------------------------------------------------------------===//
#include "codegen/KernelEmitter.h"
#include "isa/Tcgen05.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace attncc::codegen {

static std::string note(Operation *op) {
  if (auto n = dyn_cast<NameLoc>(op->getLoc()))
    return " // " + n.getName().str();
  return "";
}

LogicalResult KernelEmitter::emitTcgen05(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](memref::ExtractAlignedPointerAsIndexOp o) {
        os << "const long long " << define(o.getResult()) << " = (long long)(size_t)" << ref(o.getSource()) << ";\n";
        return success();
      })
      .Case([&](LLVM::IntToPtrOp o) -> LogicalResult {
        auto pt = cast<LLVM::LLVMPointerType>(o.getType());
        std::string n = define(o.getResult());
        if (pt.getAddressSpace() == 3)
          os << "void *const " << n << " = (void *)(size_t)" << ref(o.getArg()) << ";\n";
        else if (pt.getAddressSpace() == 6)
          os << "const unsigned " << n << " = (unsigned)" << ref(o.getArg()) << "; // a tensor-memory address\n";
        else
          return o.emitOpError("the CUDA emitter prints pointers to shared (3) and tensor (6) memory only");
        return success();
      })
      .Case([&](NVVM::Tcgen05AllocOp o) {
        os << "attncc_tcgen05_alloc(" << ref(o.getAddr()) << ", " << ref(o.getNCols()) << ");\n";
        return success();
      })
      .Case([&](NVVM::Tcgen05RelinquishAllocPermitOp) {
        os << "attncc_tcgen05_relinquish();\n";
        return success();
      })
      .Case([&](NVVM::Tcgen05DeallocOp o) {
        os << "attncc_tcgen05_dealloc(" << ref(o.getTaddr()) << ", " << ref(o.getNCols()) << ");\n";
        return success();
      })
      .Case([&](NVVM::Tcgen05FenceOp o) {
        bool before = o.getKind() == NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC;
        os << (before ? "attncc_tcgen05_fence_before();" : "attncc_tcgen05_fence_after();") << note(o) << "\n";
        return success();
      })
      .Case([&](NVVM::Tcgen05WaitOp o) {
        os << (o.getKind() == NVVM::Tcgen05WaitKind::LOAD ? "attncc_tcgen05_wait_ld();\n"
                                                          : "attncc_tcgen05_wait_st();\n");
        return success();
      })
      .Case([&](NVVM::Tcgen05StOp o) -> LogicalResult {
        auto vt = dyn_cast<VectorType>(o.getVal().getType());
        if (o.getShape() != NVVM::Tcgen05LdStShape::SHAPE_32X32B || !vt || o.getOffset() || o.getUnpack())
          return o.emitOpError("the CUDA emitter prints tcgen05.st 32x32b of a vector, without offset or unpack");
        os << "attncc_tcgen05_st_32x32b<" << vt.getNumElements() << ">(" << ref(o.getTmemAddr()) << ", "
           << ref(o.getVal()) << ");\n";
        return success();
      })
      .Case([&](NVVM::Tcgen05LdOp o) -> LogicalResult {
        auto vt = dyn_cast<VectorType>(o.getRes().getType());
        if (o.getShape() != NVVM::Tcgen05LdStShape::SHAPE_32X32B || !vt || o.getOffset() || o.getPack())
          return o.emitOpError("the CUDA emitter prints tcgen05.ld 32x32b into a vector, without offset or pack");
        std::string n = define(o.getRes());
        os << "int " << n << "[" << vt.getNumElements() << "];\n";
        os << "attncc_tcgen05_ld_32x32b<" << vt.getNumElements() << ">(" << n << ", " << ref(o.getTmemAddr())
           << ");\n";
        return success();
      })
      .Case([&](NVVM::Tcgen05MMAOp o) -> LogicalResult {
        if (o.getKind() != NVVM::Tcgen05MMAKind::F16 || o.getCtaGroup() != NVVM::CTAGroupKind::CTA_1 ||
            o.getScaleInputD() || o.getDisableOutputLane() || o.getAShift() ||
            o.getCollectorOp() != NVVM::Tcgen05MMACollectorOp::DISCARD)
          return o.emitOpError("the CUDA emitter prints tcgen05.mma .kind::f16 cta_group::1 without options");
        bool ts = mlir::isa<LLVM::LLVMPointerType>(o.getMatrixA().getType());
        os << (ts ? "attncc_tcgen05_mma_ts(" : "attncc_tcgen05_mma_ss(") << ref(o.getMatrixD()) << ", "
           << ref(o.getMatrixA()) << ", " << ref(o.getMatrixB()) << ", " << ref(o.getIdesc()) << "u, "
           << ref(o.getEnableInputD()) << ");\n";
        return success();
      })
      .Case([&](NVVM::VoteSyncOp o) -> LogicalResult {
        if (o.getKind() != NVVM::VoteSyncKind::any)
          return o.emitOpError("the CUDA emitter prints vote.sync any only");
        std::string n = define(o.getResult());
        os << "const bool " << n << " = __any_sync((unsigned)" << ref(o.getMask()) << ", " << ref(o.getPred())
           << ");" << note(o) << "\n";
        return success();
      })
      .Case([&](NVVM::Tcgen05CommitOp o) -> LogicalResult {
        if (o.getMulticastMask())
          return o.emitOpError("the CUDA emitter prints tcgen05.commit without multicast");
        os << "attncc_tcgen05_commit(" << ref(o.getAddr()) << ");" << note(o) << "\n";
        return success();
      })
      .Case([&](NVVM::MBarrierInitOp o) -> LogicalResult {
        if (o.getPredicate())
          return o.emitOpError("the CUDA emitter prints mbarrier.init without a predicate");
        os << "attncc_mbar_init((unsigned long long *)" << ref(o.getAddr()) << ", " << ref(o.getCount()) << ");\n";
        return success();
      })
      .Case([&](NVVM::FenceMbarrierInitOp) {
        os << "attncc_mbar_fence_init();\n";
        return success();
      })
      .Case([&](NVVM::MBarrierArriveOp o) -> LogicalResult {
        if (o.getCount() || o.getRes() || o.getRelaxed() || o.getScope() != NVVM::MemScopeKind::CTA)
          return o.emitOpError("the CUDA emitter prints mbarrier.arrive of one arrival, release at the CTA's scope, "
                               "without a result");
        os << "attncc_mbar_arrive((unsigned long long *)" << ref(o.getAddr()) << ");" << note(o) << "\n";
        return success();
      })
      .Case([&](NVVM::MBarrierTryWaitParityOp o) {
        os << "attncc_mbar_wait((unsigned long long *)" << ref(o.getAddr()) << ", " << ref(o.getPhase()) << ");"
           << note(o) << "\n";
        return success();
      })
      .Default([&](Operation *o) { return o->emitOpError("is not a tcgen05 op the CUDA emitter knows"); });
}

/// monoid.smem_descriptor {tcgen05}: the constant fields from
/// isa::encodeSmemFixed, the start address of the element added here.
LogicalResult KernelEmitter::emitTcgen05Descriptor(monoid::SmemDescriptorOp op) {
  ::attncc::isa::Tc05Smem d;
  d.lbo = static_cast<uint32_t>(op.getLeadingByteOffset());
  d.sbo = static_cast<uint32_t>(op.getStrideByteOffset());
  d.swizzle = ::attncc::isa::Tc05Swizzle::B128;
  std::string why;
  std::optional<uint64_t> fixed = ::attncc::isa::encodeSmemFixed(d, &why);
  if (!fixed)
    return op.emitOpError("no tcgen05 shared-memory descriptor: ") << why;
  std::string at = offset(op.getBase(), op.getIndices(), /*narrow=*/true);
  os << "const unsigned long long " << define(op.getResult()) << " = "
     << llvm::formatv("{0:x}", *fixed).str() << "ull | (unsigned long long)((attncc_smem_addr(&" << ref(op.getBase())
     << "[" << at << "]) & 0x3FFFF) >> 4);\n";
  return success();
}

} // namespace attncc::codegen
