//===- Built.h - which knobs the passes act on yet --------------*- C++ -*-===//
//
// The knob grammar (docs/knobs.md) is larger than what the passes build.
// Lowering below the monoid level refuses the rest, naming the knob, the
// value and what is built, instead of ignoring it. MLIR-free.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_SCHEDULE_BUILT_H
#define ATTNCC_SCHEDULE_BUILT_H

#include "schedule/Schedule.h"

#include <optional>

namespace attncc {

std::optional<KnobError> checkBuilt(const Schedule &s);

/// The knobs of `s` that the CPU tier (`attncc run --target cpu`, the
/// cpu_semantics test) does not execute, as knob strings: the CPU runs the
/// loop IR, and these act only below it (shared-memory transport, the
/// tensor-core instruction and its fragment layouts, producer warps,
/// fp16 accumulation, the shared-memory handoff of P, warpgroup turns). Empty
/// when the CPU executes every knob.
std::vector<std::string> notExecutedOnCpu(const Schedule &s);

} // namespace attncc

#endif
