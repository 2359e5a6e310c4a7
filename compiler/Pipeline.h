//===- Pipeline.h - the named stages of attncc ------------------*- C++ -*-===//
//
//   monoid  the front end's output: free-axis map + monoid.reduce + project
//   loop    after the loop-level moves: cut-fold, split-reduce, stream-reduce,
//           expand-carrier (then canonicalize + cse)
//
// Later stages (tile, cuda, ptx) come with the GPU path.
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

enum class Stage { Monoid, Loop };
/// "monoid" | "loop"; nullopt for anything else.
std::optional<Stage> parseStage(const std::string &name);
const char *stageName(Stage s);

/// Every dialect attncc's IR may contain, and the passes' registration.
void registerAttnccDialects(mlir::DialectRegistry &registry);
void registerAttnccPasses();

/// Adds the passes that take monoid-level IR to `stage`.
void buildPipeline(mlir::OpPassManager &pm, Stage stage);

/// Runs buildPipeline on `module` in place; diagnostics go to the context.
mlir::LogicalResult lowerTo(mlir::ModuleOp module, Stage stage);

} // namespace attncc

#endif
