//===- Verdict.cpp - what a check's evidence adds up to -------------------===//
#include "runtime/problem/Verdict.h"

namespace attncc {

Status judge(const Evidence &e, bool control) {
  if (!e.ran)
    return Status::Error;
  if (!e.checked)
    return Status::Unchecked;
  if (control)
    return e.withinTolerance ? Status::ControlPassed : Status::Rejected;
  return e.withinTolerance && e.allWritten && e.repeatable ? Status::Pass : Status::Fail;
}

const char *statusName(Status s) {
  switch (s) {
  case Status::Pass: return "pass";
  case Status::Fail: return "fail";
  case Status::Error: return "error";
  case Status::Unchecked: return "unchecked";
  case Status::Rejected: return "rejected";
  case Status::ControlPassed: return "control-passed";
  }
  return "?";
}

} // namespace attncc
