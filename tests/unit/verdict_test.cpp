//===- verdict_test.cpp - what a check's evidence adds up to --------------===//
#include "runtime/problem/Verdict.h"

#include <catch2/catch.hpp>

using namespace attncc;

namespace {
Evidence good() { return {/*ran=*/true, /*checked=*/true, /*within=*/true, /*written=*/true, /*repeatable=*/true}; }
} // namespace

TEST_CASE("verdict: a case passes only when it ran, was checked and holds everywhere", "[verdict]") {
  CHECK(judge(good(), false) == Status::Pass);
  Evidence e = good();
  e.ran = false;
  CHECK(judge(e, false) == Status::Error);
  e = good();
  e.checked = false;
  CHECK(judge(e, false) == Status::Unchecked);
  e = good();
  e.withinTolerance = false;
  CHECK(judge(e, false) == Status::Fail);
  e = good();
  e.allWritten = false;
  CHECK(judge(e, false) == Status::Fail);
  e = good();
  e.repeatable = false;
  CHECK(judge(e, false) == Status::Fail);
}

TEST_CASE("verdict: only pass and rejected are ok", "[verdict]") {
  CHECK(isOk(Status::Pass));
  CHECK(isOk(Status::Rejected));
  for (Status s : {Status::Fail, Status::Error, Status::Unchecked, Status::ControlPassed})
    CHECK_FALSE(isOk(s));
}

TEST_CASE("verdict: a negative control is ok only by failing the tolerance rule", "[verdict]") {
  Evidence e = good();
  e.withinTolerance = false;
  CHECK(judge(e, true) == Status::Rejected);
  // A control that errors, or is not checked, proves nothing.
  e.ran = false;
  CHECK(judge(e, true) == Status::Error);
  e = good();
  e.checked = false;
  e.withinTolerance = false;
  CHECK(judge(e, true) == Status::Unchecked);
  // A control that passes means the check is blind.
  CHECK(judge(good(), true) == Status::ControlPassed);
  CHECK_FALSE(isOk(judge(good(), true)));
}

TEST_CASE("verdict: status names", "[verdict]") {
  CHECK(std::string(statusName(Status::Pass)) == "pass");
  CHECK(std::string(statusName(Status::Rejected)) == "rejected");
  CHECK(std::string(statusName(Status::ControlPassed)) == "control-passed");
  CHECK(std::string(statusName(Status::Unchecked)) == "unchecked");
  CHECK(std::string(statusName(Status::Error)) == "error");
  CHECK(std::string(statusName(Status::Fail)) == "fail");
}
