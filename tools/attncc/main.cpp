//===- main.cpp - the attncc driver ---------------------------------------===//
//
//   attncc compile [spec.json | kernel.mlir] [problem flags] [--target T]
//                  [--knobs '...'] [--ir monoid|loop|all] [-o FILE]
//   attncc run [--target cpu|sm_XX] [problem flags] [--knobs '...'] [--seed N]
//   attncc bench --target sm_XX [problem flags] [--knobs '...'] [--iters N] [--json FILE]
//   attncc targets
//   attncc cache [--clear]
//
// Without arguments, `attncc compile` prints the loop-level IR of the seed's
// listing shape (q, k, v [1, 4, 128, 64] f16, non-causal).
//
//===----------------------------------------------------------------------===//
#include "codegen/Contract.h"
#include "codegen/CudaEmitter.h"
#include "compiler/Defaults.h"
#include "compiler/Pipeline.h"
#include "compiler/Targets.h"
#include "schedule/Built.h" // notExecutedOnCpu
#include "compiler/cpu/CpuRunner.h"
#include "compiler/frontend/Frontend.h"
#include "ir/MonoidOps.h"
#include "runtime/bundle/Bundle.h"
#include "runtime/nvrtc/Nvrtc.h"
#include "runtime/problem/Reference.h"
#include "tools/attncc/Options.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace attncc;
namespace nvrtc = attncc::nvrtc;

namespace {

int fail(const std::string &msg) {
  llvm::errs() << "attncc: error: " << msg << "\n";
  return 1;
}

/// The status as the CLI prints it: PASS, FAIL, UNCHECKED, ...
std::string shout(Status s) {
  std::string t = statusName(s);
  for (char &c : t)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  return t;
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct CommonArgs {
  std::string spec;
  ProblemFlags flags;
  std::string target = "sm_90a";
  std::string knobs;
  bool knobsGiven = false;
  bool emulate = false; // --emulate: a tcgen05 kernel with its instructions emulated, for sm_90a
};

/// The arch the CUDA is compiled for: the target's, or sm_90a for an
/// emulated tcgen05 kernel (everything else it uses, TMA and mbarriers,
/// exists there).
std::string compileArch(const CommonArgs &a) { return a.emulate ? "sm_90a" : a.target; }

/// The problem, the schedule and the monoid-level module, from the command line.
struct Job {
  Problem problem;
  Schedule schedule;
  bool fromMlir = false;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// `lowering` false: the job only prints the monoid IR, which may show knobs
/// the passes do not build yet (checkSchedule's `built` rules are skipped).
int loadJob(mlir::MLIRContext &ctx, llvm::SourceMgr &sm, const CommonArgs &a, bool forCpu,
            Job &job, bool lowering = true) {
  KnobError kerr;
  std::optional<Schedule> s = parseKnobs(a.knobs, kerr);
  if (!s)
    return fail(kerr.message());
  job.schedule = *s;
  const TargetInfo *t = nullptr;
  if (!forCpu && !(t = findTarget(a.target)))
    return fail("invalid --target = '" + a.target + "': one of " + targetNames());
  if (a.emulate && (!t || !t->tcgen05))
    return fail("invalid --emulate with --target = '" + a.target +
                "': emulation runs a tcgen05 target's kernels (--target sm_100 or sm_100a) on sm_90a");

  if (endsWith(a.spec, ".mlir")) {
    if (std::string flag = givenProblemFlag(a.flags); !flag.empty())
      return fail("invalid " + flag + " with a .mlir input: the IR fixes the problem; "
                  "problem flags apply to flags and .json specs only");
    job.module = mlir::parseSourceFile<mlir::ModuleOp>(a.spec, sm, &ctx);
    if (!job.module)
      return fail("could not parse and verify '" + a.spec + "' as monoid IR");
    job.fromMlir = true;
    // --knobs replaces the schedule of every reduce in the file; it may name
    // only the axes those reduces have, and what the target supports.
    // Without --knobs, the schedules written in the file are checked alike.
    std::vector<std::string> axes;
    job.module->walk([&](mlir::monoid::ReduceOp r) {
      if (std::find(axes.begin(), axes.end(), r.getAxis().str()) == axes.end())
        axes.push_back(r.getAxis().str());
    });
    std::optional<KnobError> bad;
    if (a.knobsGiven) {
      bad = checkSchedule(job.schedule, axes, "a monoid.reduce in " + a.spec, t, lowering);
    } else {
      job.module->walk([&](mlir::monoid::ReduceOp r) {
        if (auto s = r.getScheduleAttr(); s && !bad)
          bad = checkSchedule(s.getSchedule(), {r.getAxis().str()}, "this monoid.reduce", t, lowering);
      });
    }
    if (bad)
      return fail(bad->message());
    if (a.knobsGiven)
      job.module->walk([&](mlir::monoid::ReduceOp r) {
        r.setScheduleAttr(mlir::monoid::ScheduleAttr::get(&ctx, job.schedule));
      });
    return 0;
  }

  job.problem = listingProblem();
  if (!a.spec.empty()) {
    std::ifstream in(a.spec);
    if (!in)
      return fail("cannot read spec file '" + a.spec + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    ProblemError perr;
    std::optional<Problem> p = problemFromJson(ss.str(), perr);
    if (!p)
      return fail(a.spec + ": " + perr.message());
    job.problem = *p;
  }
  if (auto e = applyFlags(a.flags, job.problem))
    return fail(e->message());
  if (auto e = validate(job.problem))
    return fail(nameFlag(*e, a.flags).message());
  if (!a.knobsGiven && t) {
    // No --knobs: the measured default of the problem's shape class, said aloud.
    DefaultSchedule d = defaultSchedule(job.problem, *t);
    std::optional<Schedule> s = parseKnobs(d.knobs, kerr);
    if (!s)
      return fail("internal error: the default schedule '" + d.knobs + "' does not parse");
    job.schedule = *s;
    llvm::errs() << "attncc: knobs: '" << d.knobs << "' (" << d.reason << ")\n";
  }
  if (auto e = checkSchedule(job.schedule, job.problem, t, lowering))
    return fail(e->message());
  job.module = buildModule(ctx, job.problem, job.schedule);
  if (failed(mlir::verify(*job.module)))
    return fail("internal error: the front end built invalid IR");
  return 0;
}

void printStage(llvm::raw_ostream &os, mlir::ModuleOp m, Stage s, bool header) {
  if (header)
    os << "// ===== " << stageName(s) << " =====\n";
  m.print(os, mlir::OpPrintingFlags().printNameLocAsPrefix());
  os << "\n";
}

/// The kernels of a tile-level module, by name.
std::vector<std::string> kernelNames(mlir::ModuleOp m) {
  std::vector<std::string> names;
  m.walk([&](mlir::gpu::GPUFuncOp f) {
    if (f.isKernel())
      names.push_back(f.getName().str());
  });
  return names;
}

/// NVRTC-compiles the emitted CUDA for the target (all kernels are in one
/// program) and reports each kernel's resources on stderr.
std::optional<nvrtc::CompiledKernel> compileCuda(const std::string &cuda, mlir::ModuleOp m,
                                                 const std::string &arch, bool wantPtx,
                                                 nlohmann::json *resources) {
  std::vector<std::string> names = kernelNames(m);
  nvrtc::CompileOptions opts;
  opts.arch = arch;
  opts.wantPtx = wantPtx;
  std::string err;
  nvrtc::CubinCache cache(nvrtc::CubinCache::defaultDir());
  std::optional<nvrtc::CompiledKernel> k = nvrtc::compileCached(&cache, cuda, names.front(), opts, err);
  if (!k) {
    fail(err); // "NVRTC failed to compile kernel ... for <arch>", the options and the log
    return std::nullopt;
  }
  std::map<std::string, nvrtc::ResourceUsage> usage = nvrtc::parsePtxasLog(k->log);
  for (const std::string &n : names) {
    const nvrtc::ResourceUsage &u = usage[n];
    llvm::errs() << "attncc: " << n << " (" << arch << "): " << nvrtc::describe(u) << "\n";
    for (const std::string &w : u.warnings)
      llvm::errs() << "attncc: " << n << " (" << arch << "): ptxas: " << w << "\n";
    if (resources)
      (*resources)[n] = {{"registers", u.registers},
                         {"spill_stores_bytes", u.spillStoresBytes},
                         {"spill_loads_bytes", u.spillLoadsBytes},
                         {"static_smem_bytes", u.staticSmemBytes},
                         {"stack_bytes", u.stackBytes}};
  }
  return k;
}

/// The bundle of a tile-level module: the CUDA text and its launch contract
/// (problem, knobs, target, resources of each kernel for the target).
std::optional<bundle::Bundle> makeBundle(const std::string &cuda, mlir::ModuleOp m, const Job &job,
                                         const CommonArgs &a) {
  if (job.fromMlir) {
    fail("a bundle needs a problem (flags or a .json spec): the runner makes inputs and "
         "references from it");
    return std::nullopt;
  }
  bundle::Bundle b;
  nlohmann::json &contract = b.contract;
  contract["format"] = "attncc-bundle-1";
  contract["problem"] = nlohmann::json::parse(problemToJson(job.problem));
  contract["knobs"] = printKnobs(job.schedule);
  contract["target"] = compileArch(a);
  if (a.emulate)
    contract["emulates"] = a.target; // tcgen05_emu.cuh in place of the instructions
  contract["source"] = "kernel.cu";
  contract["flops"] = job.problem.flops();
  if (failed(writeContract(m, contract))) {
    fail("the launch contract could not be written (see the diagnostics above)");
    return std::nullopt;
  }
  // A grid that is not a constant (a symbolic size, gauto's count): its
  // expression, as the runtime will evaluate it.
  for (const nlohmann::json &l : contract["launches"]) {
    std::string grid;
    bool sized = false;
    for (const nlohmann::json &d : l["grid"]) {
      grid += (grid.empty() ? "" : ", ") + bundle::exprText(d);
      sized = sized || !d.contains("const");
    }
    if (sized)
      llvm::errs() << "attncc: " << l["kernel"].get<std::string>() << ": grid (" << grid << ")"
                   << (contract.contains("resident_ctas") && contract["resident_ctas"]["kernel"] == l["kernel"]
                           ? "; resident_ctas: how many CTAs of " + l["kernel"].get<std::string>() +
                                 " the device holds at once (known where it runs)"
                           : std::string())
                   << "\n";
  }
  nlohmann::json resources;
  if (!compileCuda(cuda, m, compileArch(a), false, &resources))
    return std::nullopt;
  contract["resources"] = resources;
  b.source = cuda;
  b.problem = job.problem;
  return b;
}

int writeBundle(const std::string &dir, const bundle::Bundle &b) {
  std::error_code ec = llvm::sys::fs::create_directories(dir);
  if (ec)
    return fail("cannot create bundle directory '" + dir + "': " + ec.message());
  std::ofstream(dir + "/kernel.cu") << b.source;
  std::ofstream(dir + "/contract.json") << b.contract.dump(2) << "\n";
  llvm::errs() << "attncc: wrote " << dir << "/kernel.cu and " << dir << "/contract.json\n";
  return 0;
}

/// What the tile-level passes need of the target: attncc-atomize lays shared
/// memory out within the target's opt-in limit per block.
void recordTargetLimits(mlir::ModuleOp m, const std::string &target) {
  if (const TargetInfo *t = findTarget(target)) {
    m->setAttr("attncc.smem_limit",
               mlir::IntegerAttr::get(mlir::IntegerType::get(m.getContext(), 64), t->smemPerBlockOptin));
    m->setAttr("attncc.target", mlir::StringAttr::get(m.getContext(), t->name));
  }
}

/// --emulate: the emitter prints codegen/cuda/tcgen05_emu.cuh in place of
/// the tcgen05 instructions.
void recordEmulation(mlir::ModuleOp m, const CommonArgs &a) {
  if (a.emulate)
    m->setAttr("attncc.emulate", mlir::UnitAttr::get(m.getContext()));
}

/// Where the GPU path of `run` and `bench` stops: a bundle of the job.
std::optional<bundle::Bundle> buildBundle(mlir::MLIRContext &ctx, llvm::SourceMgr &sm,
                                          const CommonArgs &a, Job &job) {
  if (loadJob(ctx, sm, a, /*forCpu=*/false, job))
    return std::nullopt;
  recordTargetLimits(*job.module, a.target);
  recordEmulation(*job.module, a);
  if (failed(lowerTo(*job.module, Stage::Tile))) {
    fail("lowering to the tile level failed (see the diagnostics above)");
    return std::nullopt;
  }
  std::string cuda;
  llvm::raw_string_ostream cs(cuda);
  if (failed(emitCuda(*job.module, cudaTargetInfo(a.target), cs))) {
    fail("the CUDA emitter failed (see the diagnostics above)");
    return std::nullopt;
  }
  return makeBundle(cuda, *job.module, job, a);
}

int compile(const CommonArgs &a, const std::string &ir, const std::string &outPath,
            const std::string &bundleDir) {
  mlir::DialectRegistry registry;
  registerAttnccDialects(registry);
  mlir::MLIRContext ctx(registry);
  llvm::SourceMgr sm; // diagnostics of every stage point into a .mlir input
  mlir::SourceMgrDiagnosticHandler handler(sm, &ctx);
  Job job;
  if (int rc = loadJob(ctx, sm, a, /*forCpu=*/false, job,
                       /*lowering=*/!(ir == "monoid" && bundleDir.empty())))
    return rc;

  std::error_code ec;
  llvm::raw_fd_ostream file(outPath.empty() ? "-" : outPath, ec);
  if (ec)
    return fail("cannot write '" + outPath + "': " + ec.message());
  // Each stage is printed if asked for; lowering stops at the last one needed.
  bool all = ir == "all", bundle = !bundleDir.empty();
  if (ir == "monoid" || all)
    printStage(file, *job.module, Stage::Monoid, all);
  if (ir == "monoid" && !bundle)
    return 0;
  if (failed(lowerTo(*job.module, Stage::Loop)))
    return fail("lowering to the loop level failed (see the diagnostics above)");
  if (ir == "loop" || all)
    printStage(file, *job.module, Stage::Loop, all);
  if (ir == "loop" && !bundle)
    return 0;
  recordTargetLimits(*job.module, a.target);
  recordEmulation(*job.module, a);
  if (failed(lowerFrom(*job.module, Stage::Loop, Stage::Tile)))
    return fail("lowering to the tile level failed (see the diagnostics above)");
  if (ir == "tile" || ir == "all")
    printStage(file, *job.module, Stage::Tile, ir == "all");
  std::string cuda;
  {
    llvm::raw_string_ostream cs(cuda);
    if (failed(emitCuda(*job.module, cudaTargetInfo(a.target), cs)))
      return fail("the CUDA emitter failed (see the diagnostics above)");
  }
  if (ir == "all")
    file << "// ===== cuda =====\n";
  if (ir == "cuda" || ir == "all")
    file << cuda;
  if (ir == "ptx" || ir == "all") {
    std::optional<nvrtc::CompiledKernel> k = compileCuda(cuda, *job.module, compileArch(a), true, nullptr);
    if (!k)
      return 1;
    if (ir == "all")
      file << "// ===== ptx =====\n";
    file << k->ptx;
  }
  if (bundleDir.empty())
    return 0;
  std::optional<bundle::Bundle> b = makeBundle(cuda, *job.module, job, a);
  return b ? writeBundle(bundleDir, *b) : 1;
}

int runCpu(const CommonArgs &a, uint64_t seed) {
  mlir::DialectRegistry registry;
  registerAttnccDialects(registry);
  mlir::MLIRContext ctx(registry);
  llvm::SourceMgr sm;
  mlir::SourceMgrDiagnosticHandler handler(sm, &ctx);
  Job job;
  if (endsWith(a.spec, ".mlir"))
    return fail("attncc run needs a problem (flags or a .json spec) to make inputs and a reference");
  if (int rc = loadJob(ctx, sm, a, /*forCpu=*/true, job))
    return rc;
  if (failed(lowerTo(*job.module, Stage::Loop)))
    return fail("lowering to the loop level failed (see the diagnostics above)");
  const Problem &p = job.problem;
  Inputs in = randomInputs(p, seed);
  CpuOutputs outs;
  std::string err;
  if (!runOnCpu(*job.module, p, in, outs, err))
    return fail(err);
  bool attention = p.kind == ProblemKind::Attention;
  std::vector<double> ref, lowp, refLse, lowpLse;
  referenceF64(p, in, ref, attention ? &refLse : nullptr);
  referenceLowp(p, in, lowp, attention ? &lowpLse : nullptr);
  CheckResult r = checkTolerance(p, outs.out, ref, lowp);
  std::printf("knobs: '%s'\n", printKnobs(job.schedule).c_str());
  std::printf("%s max_err %.3e  bound %.3e  (2 x lowp %.3e + floor)\n", attention ? "o:  " : "out:",
              r.maxErr, r.bound, r.lowpErr);
  bool within = r.pass;
  if (attention) {
    CheckResult l = checkLse(outs.lse, refLse, lowpLse);
    std::printf("lse: max_err %.3e  bound %.3e  (2 x lowp %.3e + floor)\n", l.maxErr, l.bound, l.lowpErr);
    within = within && l.pass;
  }
  if (p.varlen)
    std::printf("varlen: %lld LSE rows past a sequence written%s\n", (long long)outs.writtenPastSequence,
                p.seqused ? (", " + std::to_string(outs.gapRowsWritten) + " O rows in gaps written").c_str() : "");
  within = within && outs.gapRowsWritten == 0;
  // The CPU writes every element or the check fails on the NaN poison; it
  // runs once, so repeatability is not in question here.
  Status st = judge({true, true, within, true, true}, /*control=*/false);
  std::vector<std::string> skipped = notExecutedOnCpu(job.schedule);
  std::string what;
  for (const std::string &k : skipped)
    what += (what.empty() ? "" : ", ") + k;
  if (skipped.empty())
    std::printf("%s (the loop IR on the CPU, float64 reference)\n", shout(st).c_str());
  else
    std::printf("%s (the loop IR on the CPU, float64 reference); not executed here: %s. What they "
                "change is below the loop IR and is checked on a GPU only\n",
                shout(st).c_str(), what.c_str());
  return isOk(st) ? 0 : 2;
}

/// `attncc run` and `attncc bench` on a GPU target: compile here, run with
/// the bundle runner in this process. benchIters == 0: run and check only.
int runGpu(const CommonArgs &a, uint64_t seed, int benchIters, const std::string &jsonPath) {
  mlir::DialectRegistry registry;
  registerAttnccDialects(registry);
  mlir::MLIRContext ctx(registry);
  llvm::SourceMgr sm;
  mlir::SourceMgrDiagnosticHandler handler(sm, &ctx);
  if (endsWith(a.spec, ".mlir"))
    return fail("attncc run needs a problem (flags or a .json spec) to make inputs and a reference");
  Job job;
  std::optional<bundle::Bundle> b = buildBundle(ctx, sm, a, job);
  if (!b)
    return 1;
  bundle::RunOptions opts;
  opts.seed = seed;
  opts.benchIters = benchIters;
  std::string err;
  std::optional<bundle::RunResult> r = bundle::run(*b, opts, err);
  if (!r)
    return fail(err);
  const Problem &p = job.problem;
  std::printf("device: %s\nknobs: '%s' (%s%s)\n", r->device.c_str(), printKnobs(job.schedule).c_str(),
              r->compileArch.c_str(), r->note.empty() ? "" : ("; " + r->note).c_str());
  if (r->checked) {
    std::printf("o:   max_err %.3e  bound %.3e  (%s)\n", r->maxErr, r->bound, r->reference.c_str());
    if (r->lse)
      std::printf("lse: max_err %.3e  bound %.3e\n", r->lse->maxErr, r->lse->bound);
  } else {
    std::printf("not checked: %.1f GFLOP is above the float64 reference's limit and the problem is "
                "not attention (the GPU reference computes attention only)\n", p.flops() / 1e9);
  }
  std::printf("all outputs written: %s; bitwise repeatable: %s\n", r->allWritten ? "yes" : "NO",
              r->deterministic ? "yes" : "NO");
  std::printf("%s\n", shout(r->status).c_str());
  bool ok = isOk(r->status);
  if (benchIters > 0) {
    double roofline = 790.0; // TFLOP/s: dense bf16/f16 matrix rate measured on the H200
    std::printf("median %.1f us  %.2f TFLOP/s  %.2f %% of %.0f TFLOP/s  (%s)\n", r->medianUs, r->tflops,
                100 * r->tflops / roofline, roofline, r->timing.c_str());
    if (!jsonPath.empty()) {
      nlohmann::json line = {{"shape", p.shapeName()},
                             {"dtype", dtypeName(p.dtype)}, {"causal", p.causal},
                             {"knobs", printKnobs(job.schedule)}, {"target", a.target},
                             {"gpu", r->device}, {"attncc_us", r->medianUs}, {"tflops", r->tflops},
                             {"timing", r->timing}, {"status", statusName(r->status)}, {"ok", ok}};
      if (r->checked)
        line["max_err"] = r->maxErr, line["err_bound"] = r->bound;
      if (r->lse)
        line["lse_err"] = r->lse->maxErr, line["lse_bound"] = r->lse->bound;
      std::ofstream(jsonPath, std::ios::app) << line.dump() << "\n";
    }
  }
  return ok ? 0 : 2;
}

/// `attncc cache`: where compiled cubins are kept; `--clear` empties it.
int cacheCommand(bool clear) {
  std::string dir = nvrtc::CubinCache::defaultDir();
  if (dir.empty()) {
    std::printf("no cubin cache: set ATTNCC_CACHE_DIR, XDG_CACHE_HOME or HOME\n");
    return 0;
  }
  nvrtc::CubinCache cache(dir);
  if (clear)
    cache.clear();
  std::error_code ec;
  size_t entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    entries += llvm::StringRef(it->path()).ends_with(".cubin");
  std::printf("cubin cache: %s (%zu entries)%s\n", dir.c_str(), entries, clear ? ", cleared" : "");
  return 0;
}

int listTargets() {
  for (const TargetInfo &t : allTargets())
    std::printf("%-8s mma.sync=%s wgmma=%s tcgen05=%s tma=%s smem=%dKiB  %s\n", t.name.c_str(),
                t.mmaSync ? "yes" : "no", t.wgmma ? "yes" : "no", t.tcgen05 ? "yes" : "no",
                t.tma ? "yes" : "no", t.smemPerBlockOptin / 1024, t.notes.c_str());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"attncc: attention as a twisted-monoid reduction, compiled to CUDA"};
  app.require_subcommand(0, 1);

  CommonArgs compileArgs;
  std::string ir = "loop", outPath;
  CLI::App *compileCmd = app.add_subcommand("compile", "build the IR of a problem and print a stage");
  compileCmd->add_option("spec", compileArgs.spec, "a problem spec (.json) or monoid IR (.mlir)");
  addProblemFlags(*compileCmd, compileArgs.flags);
  compileCmd->add_option("--target", compileArgs.target, "sm_80, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a");
  CLI::Option *knobOpt = compileCmd->add_option("--knobs", compileArgs.knobs, "the schedule (knob string)");
  std::string bundleDir;
  compileCmd->add_option("--ir", ir, "the stage to print: monoid, loop, tile, cuda, ptx or all")
      ->check(CLI::IsMember({"monoid", "loop", "tile", "cuda", "ptx", "all"}));
  compileCmd->add_option("--bundle", bundleDir,
                         "also write DIR/kernel.cu and DIR/contract.json for attncc-runner");
  compileCmd->add_option("-o,--output", outPath, "write to this file instead of stdout");
  const char *emulateHelp = "sm_100a: emulate the tcgen05 and tensor-memory instructions (codegen/cuda/"
                            "tcgen05_emu.cuh) and compile for sm_90a, to check the kernel on a Hopper GPU";
  compileCmd->add_flag("--emulate", compileArgs.emulate, emulateHelp);

  CommonArgs runArgs;
  uint64_t seed = 1;
  CLI::App *runCmd = app.add_subcommand(
      "run", "run on the GPU (or the loop-level IR on the CPU: --target cpu) and check it");
  addProblemFlags(*runCmd, runArgs.flags);
  runCmd->add_option("spec", runArgs.spec, "a problem spec (.json)");
  runCmd->add_option("--target", runArgs.target,
                     "cpu, or a GPU target (sm_80, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a)");
  CLI::Option *runKnobs = runCmd->add_option("--knobs", runArgs.knobs, "the schedule (knob string)");
  runCmd->add_option("--seed", seed, "seed of the random inputs");
  runCmd->add_flag("--check", "compare with the float64 reference (always on)");
  runCmd->add_flag("--emulate", runArgs.emulate, emulateHelp);

  CommonArgs benchArgs;
  int iters = 50;
  std::string benchJson;
  CLI::App *benchCmd = app.add_subcommand("bench", "time on the GPU: CUDA graph replays, median");
  addProblemFlags(*benchCmd, benchArgs.flags);
  benchCmd->add_option("spec", benchArgs.spec, "a problem spec (.json)");
  benchCmd->add_option("--target", benchArgs.target, "sm_80, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a");
  CLI::Option *benchKnobs = benchCmd->add_option("--knobs", benchArgs.knobs, "the schedule");
  benchCmd->add_option("--seed", seed, "seed of the random inputs");
  benchCmd->add_option("--iters", iters, "timed replays (median)")->check(CLI::Range(1, 100000));
  benchCmd->add_option("--json", benchJson, "append a JSON line with the result to this file");
  benchCmd->add_flag("--emulate", benchArgs.emulate, emulateHelp);

  CLI::App *targetsCmd = app.add_subcommand("targets", "what each target supports");
  bool clearCache = false;
  CLI::App *cacheCmd = app.add_subcommand("cache", "where NVRTC's cubins are cached (keyed by "
                                                   "source, options and NVRTC version)");
  cacheCmd->add_flag("--clear", clearCache, "remove every cached cubin");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  compileArgs.knobsGiven = knobOpt->count() > 0;
  runArgs.knobsGiven = runKnobs->count() > 0;
  benchArgs.knobsGiven = benchKnobs->count() > 0;
  // A target that compiles as another (sm_100: sm_100a) says so, once,
  // and the job goes on with the target it compiles as.
  for (CommonArgs *a : {&compileArgs, &runArgs, &benchArgs})
    if (std::string note = targetNote(a->target); !note.empty()) {
      llvm::errs() << "attncc: note: --target " << note << "\n";
      a->target = findTarget(a->target)->name;
    }
  if (targetsCmd->parsed())
    return listTargets();
  if (cacheCmd->parsed())
    return cacheCommand(clearCache);
  if (runCmd->parsed())
    return runArgs.target == "cpu" ? runCpu(runArgs, seed) : runGpu(runArgs, seed, 0, "");
  if (benchCmd->parsed())
    return runGpu(benchArgs, seed, iters, benchJson);
  return compile(compileArgs, ir, outPath, bundleDir); // `attncc` alone: the listing shape
}
