//===- attncc-opt.cpp - run attncc passes one at a time -------------------===//
#include "compiler/Pipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  attncc::registerAttnccDialects(registry);
  attncc::registerAttnccPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "attncc-opt: the monoid dialect and attncc's passes\n", registry));
}
