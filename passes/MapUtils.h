//===- MapUtils.h - restructuring the free-axis map -------------*- C++ -*-===//
//
// cut-fold and split-reduce both turn one map (the scf.parallel over the free
// axes that holds a monoid.reduce) into two: a new map before it that
// computes and stores something per (free index, extra index), and the
// original map that reads it back. These are the shared pieces.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_PASSES_MAPUTILS_H
#define ATTNCC_PASSES_MAPUTILS_H

#include "ir/MonoidOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::attncc {


/// The scf.parallel that directly contains `r`, if it has zero lower bounds
/// and unit steps and the reduce's bounds are defined outside it. Otherwise
/// emits an error that names `knob` and returns null. `perSequence` also
/// takes a reduce in the front end's row guard (attncc.row_guard: a varlen
/// sequence's rows) directly in the map, and bounds computed in the map's
/// body that do not depend on its last axis (the rows).
scf::ParallelOp getFreeAxisMap(monoid::ReduceOp r, StringRef knob, bool perSequence = false);

/// The function argument with attncc.role `role`, or null.
BlockArgument argWithRole(func::FuncOp fn, StringRef role);

/// Allocates, before `map`, a buffer [map extents..., extra...] of `elem`
/// (for a vector element type vector<D x T>, the buffer is [..., D] of T).
/// With `beforeLast`, the extra extents come before the map's last one:
/// [map extents but the last..., extra..., last extent].
Value allocOverMap(OpBuilder &b, Location loc, scf::ParallelOp map, ArrayRef<Value> extra,
                   Type elem, StringRef name, bool beforeLast = false);

/// Stores / loads `v` at [indices...] of a buffer made by allocOverMap (a
/// vector value occupies the trailing dimension).
void storeElement(OpBuilder &b, Location loc, Value v, Value buffer, ValueRange indices);
Value loadElement(OpBuilder &b, Location loc, Type elem, Value buffer, ValueRange indices);

/// Clones at `b` what computing `v` needs from inside `map` (values defined
/// outside `map` are used as they are; `m` must already map the map's
/// induction variables). Returns the clone of `v`.
Value cloneIntoMap(OpBuilder &b, Value v, scf::ParallelOp map, IRMapping &m);

/// Builds a new scf.parallel before `map` over (map's axes..., [lo, hi)) and
/// calls `body` with a mapping from map's induction variables to the new ones
/// and the new map's induction variables, the new one (named `lastName`)
/// last, or with `beforeLast` just before the map's last axis (so that the
/// map's last axis, the rows, stays last for attncc-partition). The new map's
/// location is named `role` ("scores", "parts") and the original map's
/// `mainRole` unless it has a name already: the GPU kernels are named after
/// them (a location survives the canonicalizations that rebuild the map).
void buildMapBefore(OpBuilder &b, Location loc, scf::ParallelOp map, Value lo, Value hi,
                    StringRef lastName, StringRef role, StringRef mainRole,
                    function_ref<void(OpBuilder &, IRMapping &, ValueRange ivs)> body,
                    bool beforeLast = false);

/// Frees buffers right after `map`.
void deallocAfter(OpBuilder &b, Location loc, scf::ParallelOp map, ValueRange buffers);

/// Whether `v` is computed from the map's last induction variable (the
/// rows): it is that variable, or an op of its backward slice inside the
/// map reads it.
bool dependsOnRow(Value v, scf::ParallelOp map);

/// The memref a vector or memref load or store addresses, and its indices.
std::optional<std::pair<Value, OperandRange>> memoryAccess(Operation *op);

} // namespace mlir::attncc

#endif
