//===- Built.h - which knobs the passes act on yet --------------*- C++ -*-===//
//
// The knob grammar (docs/knobs.md) is larger than what the passes build.
// Lowering below the monoid level refuses the rest, naming the knob, the
// value and what is built, instead of ignoring it. MLIR-free.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_KNOBS_BUILT_H
#define ATTNCC_KNOBS_BUILT_H

#include "compiler/knobs/Schedule.h"

#include <optional>

namespace attncc {

std::optional<KnobError> checkBuilt(const Schedule &s);

} // namespace attncc

#endif
