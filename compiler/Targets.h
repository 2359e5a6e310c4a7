//===- Targets.h - what each GPU target supports, and schedule legality ---===//
#ifndef ATTNCC_COMPILER_TARGETS_H
#define ATTNCC_COMPILER_TARGETS_H

#include "schedule/Schedule.h"
#include "runtime/problem/Problem.h"

#include <optional>
#include <string>
#include <vector>

namespace attncc {

struct TargetInfo {
  std::string name;     // "sm_90a"
  int sm = 0;           // 90
  bool archSpecific = false; // the "a" targets (wgmma, tcgen05, setmaxnreg)
  bool mmaSync = true;
  bool wgmma = false;
  bool tcgen05 = false;
  bool tma = false;
  bool cpAsync = true;
  int smemPerBlockOptin = 0; // bytes
  std::string notes;
};

/// The targets of DESIGN.md section 6, in order.
const std::vector<TargetInfo> &allTargets();
/// Looks a target up by name; nullptr if unknown.
const TargetInfo *findTarget(const std::string &name);
/// "sm_80, sm_90, sm_90a, sm_100a, sm_120, sm_120a" (for messages).
std::string targetNames();

/// The one place where a syntactically valid schedule is checked against the
/// problem and the target: axes exist, atoms exist on the target and match
/// the dtype, transports exist, families apply. Returns the first violation.
/// With `t` null (the CPU), only the problem-dependent rules apply.
std::optional<KnobError> checkSchedule(const Schedule &s, const Problem &p, const TargetInfo *t);

/// The target's part of checkSchedule alone (atoms, TMA, warp specialization),
/// and the axes TILE/STAGE/REDUCE may name (`where` says whose axes they are,
/// for the message). checkSchedule uses both; a schedule applied to IR written
/// by hand is checked against the reduce axes found in that IR.
std::optional<KnobError> checkTargetSupport(const Schedule &s, const TargetInfo &t);
std::optional<KnobError> checkAxes(const Schedule &s, const std::vector<std::string> &axes,
                                   const std::string &where);

} // namespace attncc

#endif
