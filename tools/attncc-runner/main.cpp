//===- main.cpp - attncc-runner: run bundles on a GPU, without MLIR -------===//
//
//   attncc-runner [--seed N] [--no-check] [--gpu-reference] [--compare-references]
//                 [--control] [--compile-only] [--repeats N] [--bench N] [--set seq_k=4096 ...]
//                 [--full-lengths]  (a paged cache or a varlen batch: every sequence seq_k keys
//                                    (and seq_q rows) long)
//                 [--ctas N]        (GRID=persistent: at most N CTAs, each looping over more tiles)
//                 [--json FILE] BUNDLE_DIR...
//
// For each bundle: NVRTC-compile for the device (an sm_80/sm_120 schedule is
// compiled for the device and says so), run on fresh random inputs with
// poisoned outputs, check O and LSE with the float64 reference (up to a size;
// the fp32 GPU reference above it), run again and compare every repeat
// bitwise with the first, and optionally time. One JSON line per bundle on
// stdout (and appended to --json), with its "status" (runtime/problem/
// Verdict.h): pass, fail, error, unchecked (--no-check), or for --control
// rejected / control-passed. "ok" is true only for pass and rejected.
// --compile-only fills the cubin cache and runs nothing (unchecked), so that
// a script can compile many bundles in parallel before it runs them.
// Last: "N passed, N failed, N unchecked"; the exit code is 1 when any
// bundle failed or errored (and 2 for bad arguments).
//
//===----------------------------------------------------------------------===//
#include "runtime/bundle/Bundle.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace attncc;

static int usage() {
  std::fprintf(stderr, "usage: attncc-runner [--seed N] [--no-check] [--gpu-reference] [--compare-references] "
                       "[--control] [--compile-only] [--repeats N] [--bench N] [--set NAME=N]... [--full-lengths] [--ctas N] [--json FILE] BUNDLE_DIR...\n");
  return 2;
}

int main(int argc, char **argv) {
  bundle::RunOptions opts;
  std::vector<std::string> dirs, sets;
  std::string jsonPath;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--seed") {
      const char *v = next();
      if (!v) return usage();
      opts.seed = std::strtoull(v, nullptr, 10);
    } else if (a == "--full-lengths") {
      opts.fullLengths = true;
    } else if (a == "--ctas") {
      const char *v = next();
      if (!v || std::atoll(v) < 1) {
        std::fprintf(stderr, "attncc-runner: invalid --ctas = '%s': an integer >= 1 (GRID=persistent: at most "
                             "this many CTAs)\n", v ? v : "");
        return 2;
      }
      opts.persistentCtas = std::atoll(v);
    } else if (a == "--no-check") {
      opts.check = false;
    } else if (a == "--gpu-reference") {
      opts.checkMaxFlops = 0; // always check against the fp32 GPU reference (attention)
    } else if (a == "--compare-references") {
      opts.compareReferences = true;
    } else if (a == "--compile-only") {
      opts.compileOnly = true;
    } else if (a == "--control") {
      opts.control = true;
    } else if (a == "--repeats") {
      const char *v = next();
      if (!v || std::atoi(v) < 1) {
        std::fprintf(stderr, "attncc-runner: invalid --repeats = '%s': an integer >= 1\n", v ? v : "");
        return 2;
      }
      opts.repeats = std::atoi(v);
    } else if (a == "--bench") {
      const char *v = next();
      if (!v) return usage();
      opts.benchIters = std::atoi(v);
    } else if (a == "--set") {
      const char *v = next();
      if (!v) return usage();
      sets.push_back(v);
    } else if (a == "--json") {
      const char *v = next();
      if (!v) return usage();
      jsonPath = v;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "attncc-runner: unknown option '%s'\n", a.c_str());
      return usage();
    } else {
      dirs.push_back(a);
    }
  }
  if (dirs.empty())
    return usage();
  int passed = 0, failed = 0, unchecked = 0;
  for (const std::string &dir : dirs) {
    std::string err;
    nlohmann::json line;
    line["bundle"] = dir;
    std::optional<bundle::Bundle> b = bundle::load(dir, err);
    for (const std::string &s : sets)
      if (b && !bundle::setSize(*b, s, err))
        b.reset();
    std::optional<bundle::RunResult> r;
    if (b) {
      const Problem &p = b->problem;
      line["knobs"] = b->contract.value("knobs", "");
      line["target"] = b->contract["target"];
      line["shape"] = p.shapeName();
      line["kind"] = kindName(p.kind);
      line["dtype"] = dtypeName(p.dtype);
      line["causal"] = p.causal;
      r = bundle::run(*b, opts, err);
    }
    Status status = Status::Error;
    if (r) {
      status = r->status;
      line["device"] = r->device;
      line["compile_arch"] = r->compileArch;
      line["checked"] = r->checked;
      if (r->checked) {
        line["max_err"] = r->maxErr;
        line["err_bound"] = r->bound;
        if (r->lse) {
          line["lse_err"] = r->lse->maxErr;
          line["lse_bound"] = r->lse->bound;
          line["lse_pass"] = r->lse->pass;
        }
        if (r->gpuRefO)
          line["gpu_reference"] = {{"o_err", r->gpuRefO->maxErr}, {"o_bound", r->gpuRefO->bound},
                                   {"lse_err", r->gpuRefLse->maxErr}, {"lse_bound", r->gpuRefLse->bound},
                                   {"pass", r->gpuRefO->pass && r->gpuRefLse->pass}};
        line["pass"] = r->pass;
        line["reference"] = r->reference;
      }
      line["all_written"] = r->allWritten;
      if (b->problem.varlen) {
        line["lse_rows_written_past_sequence"] = r->writtenPastSequence;
        if (b->problem.seqused)
          line["o_gap_rows_written"] = r->gapRowsWritten;
        line["cu_seqlens_q"] = r->cuSeqlensQ;
        line["cu_seqlens_k"] = r->cuSeqlensK;
      }
      line["deterministic"] = r->deterministic;
      for (const nlohmann::json &jb : b->contract["buffers"])
        if (jb.value("init", "") == "zero") // REDUCE@<axis>=g<n>a: each launch leaves its counters 0
          line["counters_not_zero"] = r->countersNotZero;
      line["repeats"] = opts.repeats;
      line["registers"] = r->registers;
      if (!r->persistentCtas.empty())
        line["persistent_ctas"] = r->persistentCtas;
      if (r->residentCtas) { // REDUCE@kv=gauto: the device's waves, and the grids they gave
        line["resident_ctas"] = *r->residentCtas;
        line["grid_ctas"] = r->gridCtas;
      }
      if (opts.benchIters > 0) {
        line["median_us"] = r->medianUs;
        line["tflops"] = r->tflops;
        line["timing"] = r->timing;
      }
      if (!r->note.empty())
        line["note"] = r->note;
    } else {
      line["error"] = err;
    }
    if (opts.control)
      line["control"] = true;
    line["status"] = statusName(status);
    bool ok = isOk(status);
    line["ok"] = ok;
    std::printf("%s\n", line.dump().c_str());
    std::fflush(stdout);
    if (!jsonPath.empty())
      std::ofstream(jsonPath, std::ios::app) << line.dump() << "\n";
    if (status == Status::Unchecked)
      ++unchecked;
    else
      (ok ? passed : failed)++;
  }
  std::printf("%d passed, %d failed, %d unchecked\n", passed, failed, unchecked);
  return failed == 0 ? 0 : 1;
}
