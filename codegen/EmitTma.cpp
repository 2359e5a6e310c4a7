//===- EmitTma.cpp - TMA loads, mbarriers, the warp roles ------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

/// A TMA load of a rank-R box (coordinates innermost first) that completes
/// on an mbarrier.
std::string tmaLoadName(int64_t rank) { return "attncc_tma_load_" + std::to_string(rank) + "d"; }

/// nvgpu.tma.async.load (attncc-lower-copies): one box into its slab of
/// shared memory, completing on an mbarrier of the group; coordinates
/// innermost first.
LogicalResult KernelEmitter::emitTmaLoad(nvgpu::TmaAsyncLoadOp op) {
  if (op.getMulticastMask() || op.getPredicate())
    return op.emitOpError("the CUDA emitter prints a TMA load without multicast or predicate");
  int64_t rank = op.getCoordinates().size();
  FailureOr<std::string> text = helperSection(kTmaLoadsCuh, tmaLoadName(rank));
  if (failed(text))
    return op.emitOpError("no TMA load of rank ") << rank << " in codegen/cuda/tma_loads.cuh";
  helpers[tmaLoadName(rank)] = *text;
  os << tmaLoadName(rank) << "(" << ref(op.getDst()) << ", &" << ref(op.getTensorMapDescriptor());
  for (Value c : op.getCoordinates())
    os << ", (int)" << ref(c);
  os << ", &" << ref(op.getBarriers()) << "[" << ref(op.getMbarId()) << "]);\n";
  return success();
}

/// The mbarrier ops (attncc-allocate-smem, attncc-lower-copies). A wait is
/// a retry loop of mbarrier.try_wait.parity without a suspend-time hint
/// (the op's `ticks` is not printed).
LogicalResult KernelEmitter::emitMbarrier(Operation *op) {
  std::string why;
  if (auto n = dyn_cast<NameLoc>(op->getLoc()))
    why = " // " + n.getName().str();
  // The address of barrier `id` of group `bars`.
  auto at = [&](Value bars, Value id) { return "&" + ref(bars) + "[" + ref(id) + "]"; };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](nvgpu::MBarrierCreateOp o) {
        std::string n = define(o.getResult());
        os << "__shared__ __align__(8) unsigned long long " << n << "["
           << o.getBarriers().getType().getNumBarriers() << "];\n";
        return success();
      })
      .Case([&](nvgpu::MBarrierInitOp o) -> LogicalResult {
        if (o.getPredicate())
          return o.emitOpError("the CUDA emitter prints an mbarrier init without a predicate");
        os << "attncc_mbar_init(" << at(o.getBarriers(), o.getMbarId()) << ", " << ref(o.getCount()) << ");\n";
        return success();
      })
      .Case([&](nvgpu::MBarrierTryWaitParityOp o) {
        os << "attncc_mbar_wait(" << at(o.getBarriers(), o.getMbarId()) << ", " << ref(o.getPhaseParity()) << ");"
           << why << "\n";
        return success();
      })
      .Case([&](nvgpu::MBarrierArriveExpectTxOp o) -> LogicalResult {
        if (o.getPredicate())
          return o.emitOpError("the CUDA emitter prints an arrive.expect_tx without a predicate");
        os << "attncc_mbar_expect_tx(" << at(o.getBarriers(), o.getMbarId()) << ", " << ref(o.getTxcount())
           << ");\n";
        return success();
      })
      .Case([&](nvgpu::MBarrierArriveOp o) {
        os << "attncc_mbar_arrive(" << at(o.getBarriers(), o.getMbarId()) << ");" << why << "\n";
        return success();
      })
      .Default([&](Operation *o) { return o->emitOpError("is not an mbarrier op the CUDA emitter knows"); });
}

/// The scf.if of attncc-warp-specialize (attncc.roles): the producers'
/// region ends the kernel for them (an early return), the consumers' region
/// follows at the kernel's level. Names taken in the producers' region are
/// taken again by the consumers'.
LogicalResult KernelEmitter::emitRoles(scf::IfOp op) {
  os << "if (" << ref(op.getCondition()) << ") { // the producer " << (producers == 4 ? "warpgroup" : "warp")
     << ": TMA copies only\n";
  os.indent();
  llvm::StringMap<int> takenBefore = taken;
  DenseMap<Value, std::string> namesBefore = names;
  if (failed(emitBlock(op.getThenRegion().front())))
    return failure();
  os << "return;\n";
  os.unindent();
  os << "}\n";
  taken = takenBefore;
  names = namesBefore;
  return emitBlock(op.getElseRegion().front());
}

} // namespace attncc::codegen
