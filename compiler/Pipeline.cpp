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
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace attncc {

std::optional<Stage> parseStage(const std::string &name) {
  if (name == "monoid")
    return Stage::Monoid;
  if (name == "loop")
    return Stage::Loop;
  return std::nullopt;
}

const char *stageName(Stage s) { return s == Stage::Monoid ? "monoid" : "loop"; }

void registerAttnccDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, vector::VectorDialect, monoid::MonoidDialect>();
}

void registerAttnccPasses() { mlir::attncc::registerAttnccPasses(); }

void buildPipeline(OpPassManager &pm, Stage stage) {
  if (stage == Stage::Monoid)
    return;
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(mlir::attncc::createCutFold());      // PLACE@fold=cut
  fn.addPass(mlir::attncc::createSplitReduce());  // REDUCE@<axis>=g<G>
  fn.addPass(mlir::attncc::createStreamReduce()); // Move 1 (TILE@<axis> block)
  fn.addPass(mlir::attncc::createExpandCarrier());
  fn.addPass(createCanonicalizerPass());
  fn.addPass(createCSEPass());
}

LogicalResult lowerTo(ModuleOp module, Stage stage) {
  PassManager pm(module.getContext());
  buildPipeline(pm, stage);
  return pm.run(module);
}

} // namespace attncc
