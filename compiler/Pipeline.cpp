//===- Pipeline.cpp - the named stages of attncc --------------------------===//
#include "compiler/Pipeline.h"


#include "ir/MonoidOps.h"
#include "passes/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace attncc {

std::optional<Stage> parseStage(const std::string &name) {
  if (name == "monoid")
    return Stage::Monoid;
  if (name == "loop")
    return Stage::Loop;
  if (name == "tile")
    return Stage::Tile;
  return std::nullopt;
}

const char *stageName(Stage s) {
  switch (s) {
  case Stage::Monoid: return "monoid";
  case Stage::Loop: return "loop";
  case Stage::Tile: return "tile";
  }
  return "?";
}

void registerAttnccDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect, math::MathDialect,
                  memref::MemRefDialect,
                  scf::SCFDialect, vector::VectorDialect, LLVM::LLVMDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                  monoid::MonoidDialect>();
}

void registerAttnccPasses() { mlir::attncc::registerAttnccPasses(); }

void buildPipeline(OpPassManager &pm, Stage from, Stage to) {
  if (from == Stage::Monoid && to != Stage::Monoid) {
    OpPassManager &fn = pm.nest<func::FuncOp>();
    fn.addPass(mlir::attncc::createPackGqa());      // PACK=gqa: a KV group's heads as one row axis
    fn.addPass(mlir::attncc::createCutFold());      // PLACE@fold=cut
    fn.addPass(mlir::attncc::createSplitReduce());  // REDUCE@<axis>=g<G>
    fn.addPass(mlir::attncc::createClipIdentity()); // skip what the lift masks to the identity
    fn.addPass(mlir::attncc::createPartition());    // TILE@<axis>=a:<atom>: row tiles, block fold
    fn.addPass(mlir::attncc::createStreamReduce()); // Move 1 (TILE@<axis> block)
    fn.addPass(mlir::attncc::createExpandCarrier());
    fn.addPass(mlir::attncc::createCanonicalize());
    fn.addPass(createCSEPass());
    fn.addPass(mlir::attncc::createHoist());        // the Q tile once per CTA
    fn.addPass(mlir::attncc::createSplitMask());    // blocks inside the mask skip it
    fn.addPass(mlir::attncc::createStage());        // STAGE@kv: blocks through shared memory
    fn.addPass(mlir::attncc::createLdmatrixX4());   // STAGE@kv=.../x4: B fragments by ldmatrix.x4
    fn.addPass(mlir::attncc::createHandoff());      // REPACK=smem: P through shared memory
    fn.addPass(mlir::attncc::createAccumulate());   // ACC=f16x: fp16 partials into fp32
    fn.addPass(mlir::attncc::createLazyRescale());  // RESCALE=lazy<t>
    fn.addPass(mlir::attncc::createExp2());         // EXP=ex2
    fn.addPass(mlir::attncc::createExpPoly());      // EXP=poly<k>: a quarter of the weights on the FMA pipe
    fn.addPass(mlir::attncc::createOverlap());      // OVERLAP=pv
    fn.addPass(mlir::attncc::createDeferRowSum());  // ROWSUM=end: the row sum's quad shuffles once, after the fold
    fn.addPass(mlir::attncc::createSplitColumns()); // a split's combine: a point per 4-column chunk
    fn.addPass(mlir::attncc::createPrefetchParts()); // a split's combine: 8 parts' loads at once
    fn.addPass(mlir::attncc::createLastCombine());  // REDUCE@kv=g<n>a: the last CTA of a row block combines
    fn.addPass(mlir::attncc::createCanonicalize());
  }
  if (from != Stage::Tile && to == Stage::Tile) {
    OpPassManager &fn = pm.nest<func::FuncOp>();
    fn.addPass(mlir::attncc::createLowerContract());
    fn.addPass(mlir::attncc::createMapToGpu());      // partition, scalar rung
    pm.addPass(createGpuLaunchSinkIndexComputationsPass()); // constants, dims into kernels
    pm.addPass(createGpuKernelOutliningPass());
    pm.addPass(mlir::attncc::createKernelAttrs()); // the maps' nvvm.* attributes onto their kernels
    pm.addPass(mlir::attncc::createCanonicalize());
    pm.addPass(createCSEPass());
    pm.addPass(mlir::attncc::createAtomize());      // fragment layouts for mma.sync / wgmma
    pm.addPass(mlir::attncc::createSkipRescale());  // RESCALE=lazy<t>: a warp's rescale only when a max moved
    pm.addPass(mlir::attncc::createAllocateSmem()); // staged blocks' places in shared memory
    pm.addPass(mlir::attncc::createAllocateTmem()); // tcgen05: tensor-memory columns, alloc / dealloc
    pm.addPass(mlir::attncc::createPlaceWaits());   // when copies and products land
    pm.addPass(mlir::attncc::createWarpSpecialize()); // WSPEC: producer and consumer roles
    pm.addPass(mlir::attncc::createLowerCopies());  // the copies as nvgpu ops
    pm.addPass(mlir::attncc::createLowerMma());     // mma.sync atoms as nvgpu ops
    pm.addPass(mlir::attncc::createLowerWgmma());   // wgmma atoms as descriptors, monoid.wgmma, fences, turns
    pm.addPass(mlir::attncc::createLowerTcgen05()); // tcgen05 atoms: tensor-memory st/ld, MMAs, commit, wait
    pm.addPass(mlir::attncc::createCorrRole());     // WSPEC=.../corr4: the correction warps rescale O
    pm.addPass(mlir::attncc::createMmaRole());      // WSPEC=load1/mma1: the mma warp issues the tcgen05 products
    pm.addPass(mlir::attncc::createChainLaunch());  // LAUNCH=pdl: griddepcontrol between a schedule's kernels
  }
}

/// Outlined kernels take the names of the host values they were given (%q,
/// %k, ...) instead of %argN, so `--ir tile` and the CUDA text stay readable.
static void nameKernelArguments(ModuleOp module) {
  module.walk([&](gpu::LaunchFuncOp launch) {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch, launch.getKernel());
    if (!kernel)
      return;
    for (auto [arg, operand] : llvm::zip(kernel.getArguments(), launch.getKernelOperands()))
      if (isa<NameLoc>(operand.getLoc()))
        arg.setLoc(operand.getLoc());
  });
}

LogicalResult lowerFrom(ModuleOp module, Stage from, Stage to) {
  PassManager pm(module.getContext());
  buildPipeline(pm, from, to);
  if (failed(pm.run(module)))
    return failure();
  if (to == Stage::Tile)
    nameKernelArguments(module);
  return success();
}

} // namespace attncc
