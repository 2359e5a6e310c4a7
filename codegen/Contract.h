//===- Contract.h - the launch contract of a bundle -------------*- C++ -*-===//
//
// What a runner without MLIR needs to run the kernels of a tile-level module:
// the buffers (the function's tensors and the workspaces it allocates), and
// the launches in order with their grid, block and arguments. Sizes that are
// not constants are small expression trees over the problem's fields:
//
//   {"const": 4} | {"sym": "seq_k"} | {"op": "mul"|"add"|"sub"|"ceildiv"|"div"|"rem"|"min"|"max",
//                                      "args": [e, e]}
//
// and the device's {"sym": "resident_ctas"} (monoid.resident_ctas): the CTAs of
// the kernel named by the top-level "resident_ctas": {"kernel": K} (the first
// whose grid reads it) that the device holds at once.
//
// A kernel's parameters follow its gpu.func arguments: a memref is a pointer
// followed by one 64-bit integer per dynamic dimension (its size); an index
// is a 64-bit integer; an f32 is a float. See docs/bundles.md.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_CODEGEN_CONTRACT_H
#define ATTNCC_CODEGEN_CONTRACT_H

#include "mlir/IR/BuiltinOps.h"

#include <nlohmann/json.hpp>

namespace attncc {

/// Fills `contract["buffers"]` and `contract["launches"]` from the host
/// function of a tile-level module. Fails with a diagnostic on host IR it
/// cannot express.
mlir::LogicalResult writeContract(mlir::ModuleOp module, nlohmann::json &contract);

} // namespace attncc

#endif
