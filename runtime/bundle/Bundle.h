//===- Bundle.h - load and run a compiled bundle (no MLIR) ------*- C++ -*-===//
//
// A bundle is what `attncc compile --bundle DIR` writes: kernel.cu and
// contract.json (codegen/Contract.h describes the launch part). This library
// runs one on a GPU with the driver API and NVRTC only, so the GPU host (CUDA,
// no MLIR) can run what was compiled elsewhere.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_RUNTIME_BUNDLE_H
#define ATTNCC_RUNTIME_BUNDLE_H

#include "runtime/problem/Problem.h"
#include "runtime/problem/Reference.h"
#include "runtime/problem/Verdict.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attncc::bundle {

struct Bundle {
  std::string dir;
  nlohmann::json contract;
  std::string source; // kernel.cu
  Problem problem;
};

/// Reads DIR/contract.json and DIR/kernel.cu. Errors name the file and key.
std::optional<Bundle> load(const std::string &dir, std::string &err);

/// Sets a symbolic size ("seq_k=4096"): only fields the bundle left symbolic
/// ("?" or "?=N") may be set, since the kernel was built for all their values.
bool setSize(Bundle &b, const std::string &assignment, std::string &err);

/// The value of a contract size expression for the bundle's problem; a
/// varlen problem's totals (total_q, total_k) come from its inputs' last
/// cumulative lengths, so they need `in`, and the device's resident_ctas
/// (the CTAs of the contract's "resident_ctas" kernel it holds at once) needs
/// `residentCtas`.
std::optional<int64_t> eval(const nlohmann::json &e, const Problem &p, std::string &err,
                            const Inputs *in = nullptr, std::optional<int64_t> residentCtas = std::nullopt);

/// A contract size expression as a reader writes it:
/// `max(min(ceil(seq_k / 512), min(resident_ctas * 2 / 64, 64)), 1) * 64`.
std::string exprText(const nlohmann::json &e);

struct RunOptions {
  uint64_t seed = 1;
  bool check = true;       // compare with the float64 reference (CPU)
  double checkMaxFlops = 6e10; // above this: the fp32 GPU reference instead of float64 on the CPU
  int repeats = 2;         // runs, each compared bitwise with the first (determinism)
  int benchIters = 0;      // > 0: time this many runs (after warm-up), report the median
  bool control = false;    // a negative control: ok only if it fails the tolerance rule
  bool compileOnly = false; // NVRTC-compile into the cubin cache, run nothing (unchecked)
  /// Also hold the fp32 GPU reference to the tolerance rule against the
  /// float64 one (attention, shapes the CPU can afford).
  bool compareReferences = false;
  /// A paged or varlen problem's sequences all at seq_k (and seq_q)
  /// (randomInputs' fullLengths).
  bool fullLengths = false;
  /// GRID=persistent: launch at most this many CTAs (0: as many as the
  /// device holds at once), so that each loops over more tiles (a test of
  /// the tile loop on a small problem).
  int64_t persistentCtas = 0;
};

/// One output held to the tolerance rule.
struct OutputCheck {
  double maxErr = 0, bound = 0;
  bool pass = false;
};

struct RunResult {
  std::string device, compileArch;
  bool checked = false, pass = false, allWritten = false, deterministic = false;
  int64_t countersNotZero = 0; // zeroed workspaces' elements left non-zero (REDUCE@<axis>=g<n>a); fails the check
  double maxErr = 0, bound = 0; // O (or the row reduction's out)
  std::optional<OutputCheck> lse; // attention: the log-sum-exp
  /// compareReferences: the GPU reference's O and LSE against float64.
  std::optional<OutputCheck> gpuRefO, gpuRefLse;
  /// Varlen: LSE rows past a sequence's length the kernel wrote (checkLse
  /// holds them against -inf).
  int64_t writtenPastSequence = 0;
  /// Varlen with seqused: O rows in a gap between sequences the kernel
  /// wrote (any fails the check).
  int64_t gapRowsWritten = 0;
  /// Varlen: the cumulative lengths it drew (the same seed draws the same).
  std::vector<int32_t> cuSeqlensQ, cuSeqlensK;
  Status status = Status::Error;
  double medianUs = 0, tflops = 0;
  std::map<std::string, int> registers; // per kernel, from the driver
  std::map<std::string, int64_t> persistentCtas; // GRID=persistent: the CTAs launched, per kernel
  std::optional<int64_t> residentCtas;           // the contract's resident_ctas on this device (gauto)
  std::map<std::string, int64_t> gridCtas;       // per kernel: the CTAs of its grid
  std::string timing;                   // how it was timed
  std::string reference;                // what the output was checked against
  std::string note;
};

/// Compiles (NVRTC, cached), allocates, fills fresh random inputs, poisons the
/// outputs and workspaces, launches the contract's kernels in order, checks
/// every output (O, and LSE for attention), repeats for determinism (every
/// repeat compared bitwise with the first, O and LSE), and optionally times.
/// `status` is judge() of that evidence (runtime/problem/Verdict.h).
std::optional<RunResult> run(const Bundle &b, const RunOptions &o, std::string &err);

} // namespace attncc::bundle

#endif
