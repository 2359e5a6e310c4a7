//===- Options.h - attncc's command line -> Problem ----------------------===//
//
// The flags that describe a problem, and their merge with a JSON spec. Kept
// apart from main.cpp so every message it can give is easy to find and test.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_TOOLS_OPTIONS_H
#define ATTNCC_TOOLS_OPTIONS_H

#include "runtime/problem/Problem.h"

#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace attncc {

/// Problem flags as written (strings, so that "?" and "?=N" survive).
struct ProblemFlags {
  std::string kind, shape, batch, heads, headsQ, headsKv, seq, seqQ, seqK, headDim, dtype, scale,
      window, softcap, biasShape, paged, pages, kvLayout;
  bool causal = false, bias = false, alibi = false, varlen = false, seqused = false;
};

/// Adds the problem flags to a (sub)command.
void addProblemFlags(CLI::App &app, ProblemFlags &f);

/// The listing shape of the seed: q, k, v [1, 4, 128, 64] f16, non-causal.
Problem listingProblem();

/// Starts from `base` (the default or a JSON spec) and applies the flags that
/// were given. Returns an error naming the flag, its value and what is allowed.
std::optional<ProblemError> applyFlags(const ProblemFlags &f, Problem &p);

/// A validation error names the problem's field (head_dim); when the user set
/// that field with a flag, name the flag instead (--head-dim).
ProblemError nameFlag(ProblemError e, const ProblemFlags &f);

/// The first problem flag that was given ("--seq"), or "" if none.
std::string givenProblemFlag(const ProblemFlags &f);

} // namespace attncc

#endif
