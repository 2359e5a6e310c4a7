//===- CpuRunner.h - execute loop-level IR on the CPU -----------*- C++ -*-===//
//
// The semantics check of CI: a loop-level module is lowered to LLVM and run
// with MLIR's ExecutionEngine on real inputs, so the moves' output can be
// compared with the float64 reference without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_COMPILER_CPU_CPURUNNER_H
#define ATTNCC_COMPILER_CPU_CPURUNNER_H

#include "runtime/problem/Problem.h"
#include "runtime/problem/Reference.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace attncc {

struct CpuOutputs {
  std::vector<double> out; // O (attention) or the row results
  std::vector<double> lse; // attention only
  bool repeatable = false; // a second run gave the same bits
  /// Varlen: LSE rows past a sequence's length that the kernel wrote (they
  /// keep its values, which the LSE check holds against -inf).
  int64_t writtenPastSequence = 0;
  /// Varlen with seqused: O rows in a gap between sequences that the kernel
  /// wrote (none may be).
  int64_t gapRowsWritten = 0;
};

/// What monoid.resident_ctas (the CTAs of a kernel the device holds at once,
/// which REDUCE@kv=gauto's count divides into waves) reads on the CPU, which
/// has no device: small, so that the CPU tier's problems meet the grid term
/// (two waves are 128 CTAs), and large enough that its varlen cases still split.
inline constexpr int64_t kCpuResidentCtas = 64;

/// Lowers a copy of `loopModule` (loop-level IR: no monoid.reduce left) to the
/// LLVM dialect: contract -> vector, bf16 expansion, scf -> cf, and the
/// standard *-to-llvm conversions. Exposed for tests.
mlir::LogicalResult lowerLoopToLLVM(mlir::ModuleOp module);

/// Runs the problem's entry function of `loopModule` on `in`, twice. The
/// outputs are poisoned with NaN before each call, so an element the kernel
/// never writes fails every check; `repeatable` says whether the second run
/// gave the first run's bits. Returns false and sets `err` on failure.
bool runOnCpu(mlir::ModuleOp loopModule, const Problem &p, const Inputs &in, CpuOutputs &outs,
              std::string &err);

} // namespace attncc

#endif
