//===- EmitWgmma.cpp - wgmma contractions -----------------------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

/// One wgmma.mma_async shape as a device function: m64nNk16, f32 += A * B,
/// A from a descriptor (ss) or registers (rs), B from a descriptor, B
/// MN-major (transB) or K-major.
std::string wgmmaName(int64_t n, bool bf, bool regA, bool transB) {
  return "attncc_wgmma_m64n" + std::to_string(n) + "k16_" + (bf ? "bf16" : "f16") +
         (regA ? "_rs" : "_ss") + (transB ? "_tb" : "");
}

/// nvvm.inline_ptx "" rw(%acc, ...) (attncc-lower-wgmma, after a wgmma
/// wait and before the first atom): a register fence on each accumulator,
/// so the CUDA compiler moves no access of it across the asynchronous
/// instructions that write it.
LogicalResult KernelEmitter::emitFenceAccumulators(NVVM::InlinePtxOp op) {
  if (!op.getPtxCode().empty() || !op.getReadOnlyArgs().empty() || op.getNumResults() || op.getPredicate())
    return op.emitOpError("the CUDA emitter prints only the empty register fence of attncc-lower-wgmma");
  for (Value v : op.getReadWriteArgs()) {
    if (!v.getDefiningOp<memref::AllocaOp>())
      return op.emitOpError("fences only the accumulators of attncc-lower-wgmma (private allocas)");
    os << "#pragma unroll\nfor (int e = 0; e < " << registers(v) << "; ++e) attncc_fence_operand(" << ref(v)
       << "[e]);\n";
  }
  return success();
}

/// monoid.smem_descriptor: the descriptor of a 128-byte swizzled slot's
/// element (start address, leading byte offset; the verifier holds the
/// stride byte offset at 1024 and the swizzle at 128 bytes, the fields
/// attncc_desc_sw128 fixes).
LogicalResult KernelEmitter::emitSmemDescriptor(monoid::SmemDescriptorOp op) {
  std::string at = offset(op.getBase(), op.getIndices(), /*narrow=*/true);
  std::string m = ref(op.getBase());
  os << "const unsigned long long " << define(op.getResult()) << " = attncc_desc_sw128(&" << m << "[" << at
     << "], " << op.getLeadingByteOffset() << ");\n";
  return success();
}

/// monoid.wgmma: one m64nNk16 atom on the accumulator's registers, through
/// the device function of its shape.
LogicalResult KernelEmitter::emitWgmmaAtom(monoid::WgmmaOp op) {
  int64_t n = cast<MemRefType>(op.getAcc().getType()).getDimSize(1) * 8;
  bool bf = op.getOperandType().isBF16(), regA = isa<VectorType>(op.getA().getType());
  std::string fn = wgmmaName(n, bf, regA, op.getTransposeB());
  FailureOr<std::string> text = helperSection(kWgmmaAtomsCuh, fn);
  if (failed(text))
    return op.emitOpError("no device function ") << fn << " in codegen/cuda/wgmma_atoms.cuh";
  helpers[fn] = *text;
  os << fn << "(" << ref(op.getAcc()) << ", " << ref(op.getA()) << ", " << ref(op.getB()) << ");\n";
  return success();
}

/// The warpgroup's wgmma fence and commit, and a turn passed on
/// (nvvm.barrier.arrive, OVERLAP=wg): attncc-lower-wgmma's ops.
LogicalResult KernelEmitter::emitWgmmaSync(Operation *op) {
  std::string why;
  if (auto n = dyn_cast<NameLoc>(op->getLoc()))
    why = " // " + n.getName().str();
  if (isa<NVVM::WgmmaFenceAlignedOp>(op))
    os << "attncc_wgmma_arrive();" << why << "\n";
  else if (isa<NVVM::WgmmaGroupSyncAlignedOp>(op))
    os << "attncc_wgmma_commit();" << why << "\n";
  else if (auto a = dyn_cast<NVVM::BarrierArriveOp>(op)) {
    if (!a.getBarrierId())
      return op->emitOpError("the CUDA emitter prints an arrive on a named barrier with an id");
    os << "attncc_bar_arrive(" << ref(a.getBarrierId()) << ", " << ref(a.getNumberOfThreads()) << ");" << why
       << "\n";
  } else
    return op->emitOpError("is not a wgmma synchronization the CUDA emitter knows");
  return success();
}

} // namespace attncc::codegen
