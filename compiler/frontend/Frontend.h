//===- Frontend.h - problem -> monoid IR ------------------------*- C++ -*-===//
#ifndef ATTNCC_COMPILER_FRONTEND_H
#define ATTNCC_COMPILER_FRONTEND_H

#include "schedule/Schedule.h"
#include "runtime/problem/Problem.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

namespace attncc {

/// The name of the kernel function the front end builds for a problem kind:
/// "attention", "logsumexp", "rowsum".
const char *entryName(ProblemKind kind);

/// Builds the monoid-level module for a validated problem: one func.func whose
/// free axes are an scf.parallel map and whose reduction is one monoid.reduce
/// carrying `schedule`. Signatures (row-major memrefs, `?` for symbolic sizes):
///   attention(q, k, v, [bias], [block_table: i32, kv_lens: i32],
///             [cu_seqlens_q: i32, cu_seqlens_k: i32], o, lse: f32)
///   (paged: k and v are the cache, [pages, page_size, Hkv * D] (NHD) or
///   [pages, Hkv, page_size, D] (HND); varlen: q and o [total_q, Hq * D], k
///   and v [total_k, Hkv * D], the LSE [B, Hq, seq_q], and the map's body
///   reads sequence b's rows through memref.subview views of its length)
///   logsumexp(x, out: f32), rowsum(x, out: f32)
/// Every function is marked llvm.emit_c_interface.
mlir::OwningOpRef<mlir::ModuleOp> buildModule(mlir::MLIRContext &ctx, const Problem &p,
                                              const Schedule &schedule);

/// The roles of the function's arguments, in order (attncc.role).
std::vector<const char *> argRoles(const Problem &p);

/// The name of the reduced axis, which knobs address: "kv" (attention) or "n".
const char *reduceAxisName(ProblemKind kind);
/// Axes knobs may name for a problem kind (free axes first, the reduced one last).
std::vector<std::string> axisNames(ProblemKind kind);

} // namespace attncc

#endif
