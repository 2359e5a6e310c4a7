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
  /// A name that compiles as another target (sm_100: sm_100a); empty for
  /// the targets that compile as themselves.
  std::string compilesAs;
};

/// The targets of DESIGN.md section 6, in order.
const std::vector<TargetInfo> &allTargets();
/// Looks a target up by name; nullptr if unknown. A name that compiles as
/// another target (compilesAs) gives that target.
const TargetInfo *findTarget(const std::string &name);
/// For a name that compiles as another target (`--target sm_100`), what the
/// driver says about it; empty otherwise.
std::string targetNote(const std::string &name);
/// "sm_80, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a" (for messages).
std::string targetNames();

/// The one place where a syntactically valid schedule is checked against the
/// problem and the target: axes exist, atoms exist on the target and match
/// the dtype, transports exist, families apply, and the passes build what it
/// asks for (checkBuilt, schedule/Built.h). Returns the first violation. With
/// `t` null (the CPU), only the target-independent rules apply. The driver
/// calls it once per job, before lowering; the passes then assume it held.
/// (What depends on the tile-level layout, the atoms' divisibility and the
/// shared memory a kernel needs, is refused by attncc-atomize.) `built`
/// false skips checkBuilt, for a job that only prints the monoid IR.
std::optional<KnobError> checkSchedule(const Schedule &s, const Problem &p, const TargetInfo *t,
                                       bool built = true);
/// The same for a schedule on IR written by hand (a .mlir input), whose
/// reduce axes are `axes` (`where` says whose, for the message).
std::optional<KnobError> checkSchedule(const Schedule &s, const std::vector<std::string> &axes,
                                       const std::string &where, const TargetInfo *t,
                                       bool built = true);

/// The target's part of checkSchedule alone (atoms, TMA, warp specialization),
/// and the axes TILE/STAGE/REDUCE may name (`where` says whose axes they are,
/// for the message). checkSchedule uses both; a schedule applied to IR written
/// by hand is checked against the reduce axes found in that IR.
std::optional<KnobError> checkTargetSupport(const Schedule &s, const TargetInfo &t);
std::optional<KnobError> checkAxes(const Schedule &s, const std::vector<std::string> &axes,
                                   const std::string &where);

} // namespace attncc

#endif
