//===- Verdict.h - what a check's evidence adds up to ----------*- C++ -*-===//
//
// One rule for every harness (the CPU tier, attncc-runner, `attncc run`), so
// that none of them can count a case as ok that it did not check:
//
//   a case that did not run (lowering, JIT, launch failed)  -> error
//   a case that ran but was not compared with a reference  -> unchecked
//   a case that was checked                                -> pass or fail
//
// A case passes only when every output (O and, for attention, LSE) meets the
// tolerance rule, every element was written and every repeat was bitwise
// equal to the first. A negative control is ok only when it ran, was checked
// and failed the tolerance rule: erroring, or going unchecked, proves nothing
// about the harness. Only `Pass` and `Rejected` are ok.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_RUNTIME_VERDICT_H
#define ATTNCC_RUNTIME_VERDICT_H

#include <string>

namespace attncc {

enum class Status {
  Pass,          // checked, within tolerance, written, repeatable
  Fail,          // checked and wrong (tolerance, unwritten elements, or not repeatable)
  Error,         // did not run
  Unchecked,     // ran, not compared with a reference
  Rejected,      // a negative control that failed the tolerance rule, as it must
  ControlPassed, // a negative control that was not rejected: the check is blind
};

struct Evidence {
  bool ran = false;           // compiled, launched and read back
  bool checked = false;       // compared with a reference
  bool withinTolerance = false; // every output met the rule (meaningful when checked)
  bool allWritten = false;    // no poisoned element left
  bool repeatable = false;    // every repeat bitwise equal to the first
};

/// The status of a case; `control` marks a negative control.
Status judge(const Evidence &e, bool control);
inline bool isOk(Status s) { return s == Status::Pass || s == Status::Rejected; }
/// "pass", "fail", "error", "unchecked", "rejected", "control-passed".
const char *statusName(Status s);

} // namespace attncc

#endif
