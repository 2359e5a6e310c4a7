//===- ChainLaunch.cpp - attncc-chain-launch (LAUNCH=pdl) -----------------===//
//
// Pre:  gpu-kernel-outlining ran; a host function whose attncc.schedule says
//       LAUNCH=pdl launches its kernels with gpu.launch_func, in order (a
//       split's parts then combine; the cut fold's two maps).
// Post: programmatic dependent launch (PTX griddepcontrol, sm_90+):
//         * every kernel but the last starts with
//             nvvm.griddepcontrol launch_dependents
//           (its successor may be scheduled once all of its CTAs have
//           started or finished);
//         * every kernel but the first starts with
//             nvvm.griddepcontrol wait
//           (nothing before it: it returns when the predecessor grid has
//           finished and its memory operations are visible);
//         * the launch_func of every kernel but the first is marked
//           attncc.programmatic, which the launch contract passes to the
//           runtime (cuLaunchKernelEx with programmatic stream
//           serialization).
//       So the launch gap and the successor's start overlap the
//       predecessor's last wave, and every read of the successor still
//       follows every write of the predecessor.
// A schedule without LAUNCH=pdl is left alone; LAUNCH=pdl with fewer than two
// launches is an error (validate refuses it before lowering).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-chain-launch"

namespace mlir::attncc {
#define GEN_PASS_DEF_CHAINLAUNCH
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct ChainLaunchPass : mlir::attncc::impl::ChainLaunchBase<ChainLaunchPass> {
  void runOnOperation() override {
    ModuleOp m = getOperation();
    for (auto fn : m.getOps<func::FuncOp>()) {
      auto s = fn->getAttrOfType<monoid::ScheduleAttr>("attncc.schedule");
      if (!s || !s.getSchedule().launch || *s.getSchedule().launch != ::attncc::LaunchKind::Pdl)
        continue;
      SmallVector<gpu::LaunchFuncOp> launches;
      fn.walk([&](gpu::LaunchFuncOp l) { launches.push_back(l); });
      if (launches.size() < 2) {
        fn.emitOpError("attncc-chain-launch: LAUNCH=pdl needs a schedule of two or more kernels, this one "
                       "launches ")
            << launches.size();
        return signalPassFailure();
      }
      for (auto [i, l] : llvm::enumerate(launches)) {
        auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(l, l.getKernel());
        if (!kernel) {
          l.emitOpError("attncc-chain-launch: no kernel for this launch");
          return signalPassFailure();
        }
        OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
        // The wait first: nothing of the kernel may run before it.
        if (i > 0) {
          l->setAttr("attncc.programmatic", b.getUnitAttr());
          NVVM::GriddepcontrolOp::create(b, NameLoc::get(b.getStringAttr("the previous kernel's writes")),
                                         NVVM::GridDepActionKind::wait);
        }
        if (i + 1 < launches.size())
          NVVM::GriddepcontrolOp::create(b, NameLoc::get(b.getStringAttr("the next kernel may start")),
                                         NVVM::GridDepActionKind::launch_dependents);
      }
    }
  }
};

} // namespace
