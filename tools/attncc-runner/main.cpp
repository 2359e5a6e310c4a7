//===- main.cpp - attncc-runner: run bundles on a GPU, without MLIR -------===//
//
//   attncc-runner [--seed N] [--no-check] [--gpu-reference] [--bench N] [--set seq_k=4096 ...]
//                 [--json FILE] BUNDLE_DIR...
//
// For each bundle: NVRTC-compile for the device (an sm_80/sm_120 schedule is
// compiled for the device and says so), run on fresh random inputs with
// poisoned outputs, check with the float64 reference (up to a size), run again
// and compare bitwise, and optionally time. One JSON line per bundle on
// stdout (and appended to --json), then "N passed, N failed".
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
  std::fprintf(stderr, "usage: attncc-runner [--seed N] [--no-check] [--gpu-reference] [--bench N] [--set NAME=N]... "
                       "[--json FILE] BUNDLE_DIR...\n");
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
    } else if (a == "--no-check") {
      opts.check = false;
    } else if (a == "--gpu-reference") {
      opts.checkMaxFlops = 0; // always check against the fp32 GPU reference (attention)
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
  int passed = 0, failed = 0;
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
    bool ok = false;
    if (r) {
      line["device"] = r->device;
      line["compile_arch"] = r->compileArch;
      line["checked"] = r->checked;
      if (r->checked) {
        line["max_err"] = r->maxErr;
        line["err_bound"] = r->bound;
        line["pass"] = r->pass;
        line["reference"] = r->reference;
      }
      line["all_written"] = r->allWritten;
      line["deterministic"] = r->deterministic;
      line["registers"] = r->registers;
      if (opts.benchIters > 0) {
        line["median_us"] = r->medianUs;
        line["tflops"] = r->tflops;
        line["timing"] = r->timing;
      }
      if (!r->note.empty())
        line["note"] = r->note;
      ok = r->allWritten && r->deterministic && (!r->checked || r->pass);
    } else {
      line["error"] = err;
    }
    line["ok"] = ok;
    std::printf("%s\n", line.dump().c_str());
    std::fflush(stdout);
    if (!jsonPath.empty())
      std::ofstream(jsonPath, std::ios::app) << line.dump() << "\n";
    (ok ? passed : failed)++;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
