//===- RoleSlice.h - what a warp role runs of the row warps' code -*- C++ -*-===//
//
// attncc-mma-role and attncc-corr-role give part of the row warps' work to
// warps of their own (FlashAttention-4's mma and correction roles). Both
// need the same thing from the row warps' region: the loops around the ops
// the role takes over, with the iter_args, index math and private counters
// those loops and ops read, and nothing else. RoleSlice finds that set;
// cloneRole copies it into the role's branch, handing each seed op to the
// role's own builder.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_PASSES_ROLESLICE_H
#define ATTNCC_PASSES_ROLESLICE_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace mlir::attncc {

/// The ops of the row warps' region `rows` that a role runs: every seed op
/// (taken whole), with `operands` also the backward slice of what the seeds
/// read, the loops around them with the iter_args they read, and every
/// store to a private counter (an alloca) one of them loads. A seed inside
/// a branch of the row warps is refused with `branchError`; the one branch
/// taken whole is GRID=persistent's guard around a ring's fill count
/// (attncc.ring_guard, attncc-lower-copies), whose count the role keeps too.
class RoleSlice {
public:
  RoleSlice(Block &rows, function_ref<bool(Operation *)> seed, bool operands, std::string pass,
            std::string branchError)
      : rows(rows), seed(seed), operands(operands), pass(std::move(pass)), branchError(std::move(branchError)) {}

  LogicalResult build();
  bool contains(Operation *op) const { return ops.contains(op); }
  /// The iter_args of `l` the role carries.
  ArrayRef<bool> carried(scf::ForOp l) { return carriedArgs[l.getOperation()]; }

private:
  Block &rows;
  function_ref<bool(Operation *)> seed;
  bool operands;
  std::string pass, branchError;
  DenseSet<Operation *> ops;
  DenseMap<Operation *, SmallVector<bool>> carriedArgs;
  DenseMap<Value, SmallVector<Operation *>> counterStores;
  SmallVector<Value> work;

  bool inRows(Operation *op) const;
  LogicalResult addOp(Operation *op, bool isSeed);
  LogicalResult addLoop(scf::ForOp l);
  LogicalResult enclose(Operation *op);
  void carry(scf::ForOp l, unsigned i);
  LogicalResult need(Value v);
};

/// Clones the slice's ops of `from` in order at `b`: a loop keeps the
/// iter_args the slice carries; a seed op is handed to `cloneSeed`, which
/// writes the role's version of it (values of the row warps it reads are
/// looked up in `map`).
void cloneRole(OpBuilder &b, Block &from, RoleSlice &slice, IRMapping &map,
               function_ref<void(Operation &, IRMapping &)> cloneSeed);

} // namespace mlir::attncc

#endif
