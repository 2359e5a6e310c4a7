//===- Defaults.h - the schedule used when no --knobs is given ------------===//
//
// One table, by target and shape class, of the fastest schedule measured for
// that class (with where the measurement is). `attncc compile/run/bench`
// without --knobs use it and print the knob string and why.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_COMPILER_DEFAULTS_H
#define ATTNCC_COMPILER_DEFAULTS_H

#include "compiler/Targets.h"
#include "runtime/problem/Problem.h"

#include <string>

namespace attncc {

struct DefaultSchedule {
  std::string knobs;  // a knob string checkSchedule accepts for the problem
  std::string reason; // the shape class, and the measurement it comes from
};

/// The shape class of a problem: "decode" (attention with at most 16 query
/// rows and at least 1024 keys, or a symbolic key length), "prefill" (other
/// attention) or the row-reduction kind.
std::string shapeClass(const Problem &p);

DefaultSchedule defaultSchedule(const Problem &p, const TargetInfo &t);

} // namespace attncc

#endif
