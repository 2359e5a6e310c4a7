//===- AtomUtils.h - what the tensor-core atom passes share -----*- C++ -*-===//
//
// attncc-lower-mma, attncc-lower-wgmma and attncc-lower-tcgen05 write a
// contraction as atoms on
// a private accumulator, and read a staged block
// from shared memory, not as a value: they need the slot's memref in the
// iteration that reads it. attncc-lower-copies leaves each block as a
// vector.transfer_read of its slot; a loop that carries a block carries its
// slot's view beside it (a cp/sync ring block, and a TMA block that atoms
// read) or its slot index (a TMA block). These helpers find that memref.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_PASSES_ATOMUTILS_H
#define ATTNCC_PASSES_ATOMUTILS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::attncc {

/// `v` without the transpose and shape cast that present a swizzled slot
/// ([slabs, rows, slab]) as a rows x cols block (attncc-lower-copies).
Value peelBlock(Value v);

/// The read of the slot that the staged block `v` sits in (through the
/// loops that carry it). Null when `v` is not one.
vector::TransferReadOp slotRead(Value v);

/// The shared memory the staged block `v` is read from, in the iteration
/// of `at`: its read's slot, the slot's view carried beside it, or (a TMA
/// block) a subview at the slot index carried beside it, built with `b`
/// (the builder's insertion point must be where the atoms go). `pass`
/// names the caller in the error.
FailureOr<Value> blockMemref(OpBuilder &b, Value v, Operation *at, StringRef pass);

/// A private alloca at the kernel's top (one per contraction: the CUDA
/// compiler keeps it in registers).
Value privateArray(gpu::GPUFuncOp f, Location loc, StringRef name, ArrayRef<int64_t> shape, Type et);

/// Stores this thread's lanes of the tile `init` (a splat constant as a
/// splat of `lanes`, else monoid.to_lanes) into the accumulator `acc` at
/// `zeros`.
void storeLanes(OpBuilder &b, Location loc, Value init, Value acc, VectorType lanes, ValueRange zeros);

/// The product `c` is the accumulator `acc` from here on (the builder's
/// insertion point): vector.load of its lanes, monoid.from_lanes in c's
/// layout. Replaces c's uses, erases c, and the arith.truncf of its left
/// operand when nothing else reads it.
void replaceByLanes(OpBuilder &b, vector::ContractionOp c, Value acc, VectorType lanes, ValueRange zeros,
                    Location loadLoc);

/// The shape of a contraction an asynchronous atom (wgmma, tcgen05) takes:
/// [M x K] by a right operand in shared memory (layout smem), checked, with
/// the numbers the lowering needs. `family` names the atom in the errors.
struct AtomShape {
  VectorType acc, lhs;
  int64_t n = 0, kSteps = 0; // N, and the k16 steps of K
  Type elem;                 // the operands' element type
  bool kn = false;           // B is [K x N] (P*V's V, MN-major)
  std::string lhsLayout;     // "smem" (a descriptor) or the registers' layout
  std::string name;          // the product's name (its NameLoc), else `family`
};
FailureOr<AtomShape> atomShape(vector::ContractionOp c, StringRef family);

/// Where the k16 step at `k16` (elements) starts in a K-major operand's
/// 128-byte swizzled slot ([slabs, rows, slab]): slab k16 / slab, column
/// k16 % slab (32 bytes a step into the swizzled row).
std::pair<Value, Value> kStepInSlot(OpBuilder &b, Location loc, Value k16, Value slabElems);

/// monoid.smem_descriptor of `mem` at `at`, 128-byte swizzle, stride byte
/// offset 1024 (8 rows of 128 B), leading byte offset `lbo`; the sm_100a
/// form with `tcgen05`.
Value swizzledDescriptor(OpBuilder &b, Location loc, Value mem, ValueRange at, int64_t lbo, bool tcgen05);

/// The fold keeps its maximum lazily (attncc-lazy-rescale marked a select
/// in it `attncc.lazy`): attncc-skip-rescale and attncc-lower-tcgen05 skip
/// a warp's rescale where every factor is 1.
bool lazyFold(scf::ForOp loop);

} // namespace mlir::attncc

#endif
