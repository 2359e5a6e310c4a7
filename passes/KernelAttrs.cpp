//===- KernelAttrs.cpp - attncc-kernel-attrs (after kernel outlining) -----===//
//
// Pre:  gpu-kernel-outlining ran; a host function may carry
//       attncc.kernel_attrs = {<kernel> = {nvvm.<name> = ..., ...}, ...},
//       written by attncc-map-to-gpu from the attributes of the map that
//       became <kernel> (gpu-kernel-outlining does not keep a launch's
//       attributes), and for a tiled map its warp roles
//       (attncc.warp_roles, from attncc.cta).
// Post: each such gpu.func @<kernel> (in gpu.module @<kernel>_module) has
//       those attributes; the record is gone. The CUDA emitter prints
//       nvvm.minctasm in __launch_bounds__.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#define DEBUG_TYPE "attncc-kernel-attrs"

namespace mlir::attncc {
#define GEN_PASS_DEF_KERNELATTRS
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct KernelAttrsPass : mlir::attncc::impl::KernelAttrsBase<KernelAttrsPass> {
  void runOnOperation() override {
    ModuleOp m = getOperation();
    for (auto fn : m.getOps<func::FuncOp>()) {
      auto rec = fn->getAttrOfType<DictionaryAttr>("attncc.kernel_attrs");
      if (!rec)
        continue;
      for (NamedAttribute k : rec) {
        auto gm = m.lookupSymbol<gpu::GPUModuleOp>((k.getName().strref() + "_module").str());
        auto kf = gm ? gm.lookupSymbol<gpu::GPUFuncOp>(k.getName()) : nullptr;
        auto attrs = dyn_cast<DictionaryAttr>(k.getValue());
        if (!kf || !attrs) {
          fn.emitOpError("attncc-kernel-attrs: no kernel ") << k.getName() << " for its recorded attributes";
          return signalPassFailure();
        }
        for (NamedAttribute a : attrs)
          kf->setAttr(a.getName(), a.getValue());
      }
      fn->removeAttr("attncc.kernel_attrs");
    }
  }
};

} // namespace
