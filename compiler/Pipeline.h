//===- Pipeline.h - the named stages of attncc ------------------*- C++ -*-===//
//
//   monoid  the front end's output: free-axis map + monoid.reduce + project
//   loop    after the loop-level moves, in this order: pack-gqa, cut-fold, split-reduce,
//           clip-identity, partition, stream-reduce, expand-carrier,
//           canonicalize + cse, hoist, split-mask, stage, ldmatrix-x4,
//           handoff, accumulate, lazy-rescale, exp2, exp-poly, overlap,
//           split-columns, prefetch-parts, canonicalize (20 attncc passes,
//           attncc-canonicalize twice, and MLIR's cse; buildPipeline in
//           Pipeline.cpp is the list)
//   tile    the GPU kernels: lower-contract, map-to-gpu, launch-sink,
//           gpu-kernel-outlining, kernel-attrs, canonicalize + cse, atomize,
//           skip-rescale, allocate-smem, allocate-tmem, place-waits,
//           warp-specialize, lower-copies, lower-mma, lower-wgmma,
//           lower-tcgen05, mma-role: a host function of launches (with the
//           TMA descriptors they pass) and a gpu.module per kernel
//
// `cuda` and `ptx` are printed from `tile` by codegen/ and runtime/.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_COMPILER_PIPELINE_H
#define ATTNCC_COMPILER_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace attncc {

enum class Stage { Monoid, Loop, Tile };
/// "monoid" | "loop" | "tile"; nullopt for anything else.
std::optional<Stage> parseStage(const std::string &name);
const char *stageName(Stage s);

/// Every dialect attncc's IR may contain, and the passes' registration.
void registerAttnccDialects(mlir::DialectRegistry &registry);
void registerAttnccPasses();

/// Adds the passes that take IR at stage `from` to stage `to`.
void buildPipeline(mlir::OpPassManager &pm, Stage from, Stage to);

/// Runs buildPipeline on `module` in place; diagnostics go to the context.
mlir::LogicalResult lowerFrom(mlir::ModuleOp module, Stage from, Stage to);
/// From the front end's monoid IR.
inline mlir::LogicalResult lowerTo(mlir::ModuleOp module, Stage stage) {
  return lowerFrom(module, Stage::Monoid, stage);
}

} // namespace attncc

#endif
