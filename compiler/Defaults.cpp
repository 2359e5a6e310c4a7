//===- Defaults.cpp - the schedule used when no --knobs is given ----------===//
#include "compiler/Defaults.h"

namespace attncc {

namespace {

/// Measured on the H200 (sm_90a) on 2026-11-30 with the scalar rung, timed by
/// scripts/gpu-tune.sh over bench/tune-scalar.txt; rows and reasons in
/// bench/results/2026-11-30-h200-scalar-defaults.json.
struct Entry {
  const char *shapeClass;
  const char *knobs;
  const char *measured;
};
const Entry kMeasured[] = {
    {"decode", "REDUCE@kv=g128k",
     "9.9 ms against 215.8 ms unsplit on [8,32/8,1,32768,128] bf16 (g8, g32, g512 slower)"},
    {"prefill", "",
     "8.15 ms on [1,8,4096,64] f16; TILE@kv=n64/f1 within 1.6 %, REDUCE g2/g4 slower"},
};
const char *kWhere = "H200, 2026-11-30, bench/results/2026-11-30-h200-scalar-defaults.json";

} // namespace

std::string shapeClass(const Problem &p) {
  if (p.kind != ProblemKind::Attention)
    return kindName(p.kind);
  // Few query rows against a long (or unknown) key length: the grid of one
  // thread a row is starved and only splitting the keys gives it work.
  bool fewRows = !p.seq_q.symbolic && p.seq_q.value <= 16;
  bool longKeys = p.seq_k.symbolic || p.seq_k.value >= 1024;
  return fewRows && longKeys ? "decode" : "prefill";
}

DefaultSchedule defaultSchedule(const Problem &p, const TargetInfo &t) {
  std::string cls = shapeClass(p);
  for (const Entry &e : kMeasured) {
    if (cls != e.shapeClass)
      continue;
    std::string where = t.sm == 90 ? std::string(kWhere)
                                   : std::string("not measured on ") + t.name +
                                         "; the sm_90a measurement: " + kWhere;
    return {e.knobs, "default for " + cls + " on " + t.name + ": " + e.measured + " (" + where + ")"};
  }
  return {"", "default for " + cls + ": the plain streaming fold (no measurement for this class)"};
}

} // namespace attncc
