//===- cpu_check.cpp - the loop-level moves, executed and checked ---------===//
//
// For every case: build the monoid IR for a problem and a knob string, run the
// loop-level pipeline, lower to LLVM, execute twice on fresh random inputs
// with poisoned outputs, and apply the tolerance rule of TESTING.md against
// the float64 reference (max|out - ref| <= 2 max|out_lowp - ref| + floor) to
// every output: O, and the log-sum-exp of attention by the same rule
// (checkLse: -inf exactly for fully masked rows). The second run must repeat
// the first bit for bit.
//
// runtime/problem/Verdict.h judges each case: a case that errors (lowering,
// JIT, invocation) is a failure, never ok. Negative controls must be
// REJECTED by the tolerance rule: a carrier whose o channel is not twisted
// (the classic "forgot to rescale" bug), and a causal kernel judged against
// the non-causal reference. A control that errors, or passes, fails the run.
//
//   attncc-cpu-check [--shard I/N] [--list] [--dump-llvm FILE] [NAME-SUBSTRING]
//
// --shard I/N runs every N-th case from the I-th (ctest runs the shards in
// parallel); --dump-llvm writes the LLVM IR of the first matching case (lit
// compiles it for a CPU without AVX512-BF16 and checks it calls no runtime
// helper). Prints one row per case with its time and, last, "N passed, N
// failed".
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "compiler/Targets.h"
#include "compiler/cpu/CpuRunner.h"
#include "compiler/frontend/Frontend.h"
#include "ir/Carrier.h"
#include "ir/MonoidOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "runtime/problem/Reference.h"
#include "runtime/problem/Verdict.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace attncc;

namespace {

struct Case {
  std::string name;
  Problem p;
  std::string knobs;
  bool expectPass = true;
  /// Optional mutation of the monoid IR (negative controls).
  std::function<void(mlir::ModuleOp)> mutate;
  // A control's change to the loop IR (after the passes: what a pass wrote).
  std::function<void(mlir::ModuleOp)> mutateLoop;
  /// Optional change of the problem the reference is computed for.
  std::function<void(Problem &)> refProblem;
};

Problem attn(int64_t B, int64_t Hq, int64_t Hkv, int64_t Sq, int64_t Sk, int64_t D,
             DType t = DType::F16) {
  Problem p;
  p.kind = ProblemKind::Attention;
  p.batch = {B, false};
  p.heads_q = Hq;
  p.heads_kv = Hkv;
  p.seq_q = {Sq, false};
  p.seq_k = {Sk, false};
  p.head_dim = D;
  p.dtype = t;
  return p;
}

Problem rows(ProblemKind k, int64_t B, int64_t H, int64_t R, int64_t N, DType t = DType::F32) {
  Problem p = attn(B, H, H, R, N, 64, t);
  p.kind = k;
  return p;
}

template <typename F> Problem with(Problem p, F f) {
  f(p);
  return p;
}

std::vector<Case> sweep() {
  std::vector<Case> cs;
  auto add = [&](std::string name, Problem p, std::string knobs = "") {
    cs.push_back({std::move(name), std::move(p), std::move(knobs)});
  };
  // Lengths, equal and unequal, with and without tiling the stream.
  for (int64_t n : {1, 17, 97, 128, 257}) {
    add("len" + std::to_string(n), attn(1, 2, 2, n, n, 64));
    add("len" + std::to_string(n) + "-tile32", attn(1, 2, 2, n, n, 64), "TILE@kv=n32/f1");
    add("len" + std::to_string(n) + "-causal-tile64",
        with(attn(1, 2, 2, n, n, 64), [](Problem &p) { p.causal = true; }), "TILE@kv=n64/f1");
  }
  for (auto [sq, sk] : std::vector<std::pair<int64_t, int64_t>>{{113, 203}, {1, 339}, {203, 113}}) {
    std::string s = std::to_string(sq) + "x" + std::to_string(sk);
    add("uneq" + s, attn(1, 2, 2, sq, sk, 64), "TILE@kv=n64/f1");
    // Causal, bottom-right aligned; with Sq > Sk the first rows are fully masked.
    add("uneq" + s + "-causal", with(attn(1, 2, 2, sq, sk, 64), [](Problem &p) { p.causal = true; }),
        "TILE@kv=n64/f1");
  }
  // Score modifiers and masks.
  add("window16", with(attn(1, 2, 2, 97, 97, 64), [](Problem &p) { p.window = 16; }));
  add("window8-causal", with(attn(1, 2, 2, 97, 130, 64), [](Problem &p) {
        p.window = 8;
        p.causal = true;
      }), "TILE@kv=n32/f1");
  add("window0-causal-fully-masked", with(attn(1, 2, 2, 40, 17, 64), [](Problem &p) {
        p.window = 0;
        p.causal = true;
      }));
  add("bias", with(attn(2, 2, 2, 33, 47, 64), [](Problem &p) { p.bias = true; }), "TILE@kv=n16/f1");
  add("bias-broadcast", with(attn(2, 4, 4, 33, 47, 64), [](Problem &p) {
        p.bias = true;
        p.bias_batch_broadcast = true;
        p.bias_head_broadcast = true;
      }));
  add("alibi", with(attn(1, 8, 8, 65, 65, 64), [](Problem &p) { p.alibi = true; }));
  add("alibi-causal", with(attn(1, 8, 8, 65, 65, 64), [](Problem &p) {
        p.alibi = true;
        p.causal = true;
      }), "TILE@kv=n32/f1");
  add("softcap", with(attn(1, 2, 2, 50, 70, 64), [](Problem &p) { p.softcap = 5.0; }));
  add("scale", with(attn(1, 2, 2, 50, 70, 64), [](Problem &p) { p.scale = 0.5; }));
  add("everything", with(attn(2, 8, 2, 45, 77, 64), [](Problem &p) {
        p.causal = true;
        p.window = 20;
        p.bias = true;
        p.alibi = true;
        p.softcap = 20.0;
      }), "TILE@kv=n16/f1,REDUCE@kv=g3k");
  // GQA and MQA.
  add("gqa4", attn(1, 8, 2, 64, 96, 64), "TILE@kv=n32/f1");
  add("gqa4-causal", with(attn(2, 8, 2, 64, 96, 64), [](Problem &p) { p.causal = true; }));
  add("mqa", attn(1, 8, 1, 31, 65, 64));
  // Head dims and dtypes.
  add("d32", attn(1, 2, 2, 40, 40, 32));
  add("d128", attn(1, 2, 2, 40, 40, 128), "TILE@kv=n16/f1");
  add("bf16", attn(1, 2, 2, 97, 97, 64, DType::BF16), "TILE@kv=n32/f1");
  add("bf16-causal", with(attn(1, 2, 2, 97, 150, 64, DType::BF16), [](Problem &p) { p.causal = true; }));
  add("f32", attn(1, 2, 2, 50, 77, 64, DType::F32));
  // Split-KV: 1, 3, and more splits than blocks (empty parts fold the identity).
  for (const char *k : {"REDUCE@kv=g1", "REDUCE@kv=g3k", "REDUCE@kv=g3a", "TILE@kv=n32/f1,REDUCE@kv=g3k",
                        "TILE@kv=n64/f1,REDUCE@kv=g16k", "REDUCE@kv=g500k"})
    add(std::string("split ") + k, attn(1, 2, 2, 17, 257, 64), k);
  add("split-causal-masked-rows", with(attn(1, 2, 2, 203, 113, 64), [](Problem &p) { p.causal = true; }),
      "TILE@kv=n32/f1,REDUCE@kv=g8k");
  add("split-len1", attn(1, 2, 2, 1, 1, 64), "REDUCE@kv=g3k");
  // The materialized form (PLACE@fold=cut), alone and with a split.
  add("cut", attn(1, 2, 2, 97, 97, 64), "PLACE@fold=cut");
  add("cut-causal-gqa", with(attn(1, 4, 2, 60, 90, 64), [](Problem &p) { p.causal = true; }),
      "TILE@kv=n32/f1,PLACE@fold=cut");
  add("cut-split-bias", with(attn(1, 2, 2, 30, 50, 64), [](Problem &p) { p.bias = true; }),
      "REDUCE@kv=g4k,PLACE@fold=cut");
  // Symbolic lengths: the IR has ? extents, run with concrete ones.
  add("symbolic", with(attn(2, 2, 2, 57, 91, 64), [](Problem &p) {
        p.batch.symbolic = p.seq_q.symbolic = p.seq_k.symbolic = true;
        p.causal = true;
      }), "TILE@kv=n32/f1");
  add("symbolic-split-cut", with(attn(1, 2, 2, 33, 129, 64), [](Problem &p) {
        p.seq_q.symbolic = p.seq_k.symbolic = true;
      }), "REDUCE@kv=g3k,PLACE@fold=cut");
  // Tensor-core schedules (issue 4): attncc-partition's row tiles and block
  // fold, attncc-stage's ring, attncc-exp2, on the CPU with small atoms
  // (16-row tiles, 8- or 16-key blocks keep the unrolled vector IR small).
  const std::string tc16 = "TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x1/k1";
  const std::string tcbf = "TILE@kv=a:mma_m16n8k16_bf16/w2x1/f1x2/k1";
  add("tc len97-causal-ex2", with(attn(1, 2, 2, 97, 97, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",EXP=ex2");
  add("tc uneq203x113-causal-bf16", with(attn(1, 2, 2, 203, 113, 64, DType::BF16),
                                         [](Problem &p) { p.causal = true; }), tcbf);
  add("tc ring", attn(1, 2, 2, 45, 77, 64), tc16 + ",STAGE@kv=d2/cp/ring/pad,EXP=ex2");
  // Lengths that are whole blocks: attncc-stage's ring prefetches the block
  // after the last as min(i + step, S - B), in bounds (the last block again).
  add("tc ring whole blocks", attn(1, 2, 2, 40, 96, 64), tc16 + ",STAGE@kv=d2/cp/ring/pad,EXP=ex2");
  add("tc ring3 whole blocks causal", with(attn(1, 2, 2, 80, 96, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d3/cp/ring,EXP=ex2,OVERLAP=pv");
  add("tc everything", with(attn(2, 8, 2, 45, 77, 64), [](Problem &p) {
        p.causal = true;
        p.window = 20;
        p.bias = true;
        p.alibi = true;
        p.softcap = 20.0;
      }), tc16);
  add("tc d128-bf16", attn(1, 2, 2, 40, 40, 128, DType::BF16), tcbf);
  add("tc symbolic", with(attn(2, 2, 2, 57, 91, 64), [](Problem &p) {
        p.batch.symbolic = p.seq_q.symbolic = p.seq_k.symbolic = true;
        p.causal = true;
      }), tc16 + ",STAGE@kv=d2/cp/ring,EXP=ex2");
  // attncc-overlap: P*V of block j rotated into iteration j+1 (a ring of 3).
  add("tc overlap causal", with(attn(1, 2, 2, 97, 97, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d3/cp/ring,EXP=ex2,OVERLAP=pv");
  add("tc overlap symbolic", with(attn(2, 2, 2, 57, 91, 64), [](Problem &p) {
        p.batch.symbolic = p.seq_q.symbolic = p.seq_k.symbolic = true;
        p.window = 30;
      }), tc16 + ",STAGE@kv=d3/cp/ring/pad,OVERLAP=pv");
  // attncc-exp2's scale fold (non-causal: the scaled score feeds only the
  // row maximum and the exponent) under the rotated fold.
  add("tc overlap ex2", attn(1, 2, 2, 45, 77, 64), tc16 + ",STAGE@kv=d3/cp/ring,EXP=ex2,OVERLAP=pv");
  // The ladder's off switches (REPACK=smem marks only; HOIST=off leaves the
  // Q read in the fold, which the CPU then runs every iteration).
  add("tc hoist-off repack-smem causal", with(attn(1, 2, 2, 97, 77, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d1/cp/pad,REPACK=smem,HOIST=off");
  // attncc-lazy-rescale (RESCALE=lazy<t>): the fold keeps a stale maximum
  // while the new one is within t ln 2; the small thresholds make random
  // scores move it in some blocks and not in others.
  add("lazy0.5 causal", with(attn(1, 2, 2, 97, 150, 64), [](Problem &p) { p.causal = true; }),
      "RESCALE=lazy0.5");
  // EXP=ex2 on the scalar rung (ignored until 2026-12-03: the function had
  // no schedule for attncc-exp2 to read).
  add("scalar ex2 causal", with(attn(1, 2, 2, 97, 150, 64), [](Problem &p) { p.causal = true; }),
      "TILE@kv=n32/f1,EXP=ex2,RESCALE=lazy1");
  add("lazy8 split", attn(1, 2, 2, 17, 257, 64), "TILE@kv=n32/f1,REDUCE@kv=g3k,RESCALE=lazy8");
  add("tc lazy1 ring ex2 causal", with(attn(1, 2, 2, 97, 97, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d2/cp/ring,EXP=ex2,RESCALE=lazy1");
  add("tc lazy15 softcap bf16", with(attn(1, 2, 2, 45, 77, 64, DType::BF16), [](Problem &p) { p.softcap = 20.0; }),
      tcbf + ",RESCALE=lazy15");
  add("logsumexp lazy2", rows(ProblemKind::LogSumExp, 1, 2, 7, 300), "TILE@n=n32/f1,RESCALE=lazy2");
  // attncc-exp-poly (EXP=poly<k>): a quarter of the block weights from the
  // FMA polynomial (32-key blocks, so that a block has a group of 8 in it).
  const std::string tc32 = "TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x4/k1";
  // (poly3, FlashAttention-4's degree, 1.5e-4 from 2^f, fails the LSE bound
  // on this case: 2.2e-5 against 1.1e-5, the short causal rows; poly4 passes.)
  add("tc poly4 causal", with(attn(1, 2, 2, 97, 97, 64), [](Problem &p) { p.causal = true; }),
      tc32 + ",EXP=poly4");
  add("tc poly4 masked-rows lazy", with(attn(1, 2, 2, 64, 16, 64), [](Problem &p) {
        p.causal = true;
        p.window = 0;
      }), tc32 + ",STAGE@kv=d2/cp/ring,EXP=poly4,RESCALE=lazy8");
  add("tc poly5 bf16 softcap", with(attn(1, 2, 2, 45, 77, 64, DType::BF16), [](Problem &p) { p.softcap = 20.0; }),
      "TILE@kv=a:mma_m16n8k16_bf16/w1x1/f1x4/k1,EXP=poly5");
  // GRID=lpt: attncc-partition's map with the tile axis first (the launch
  // order); several batches, heads and tiles, so a wrong index would show.
  add("tc lpt causal gqa", with(attn(2, 4, 2, 97, 97, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d2/cp/ring,EXP=ex2,GRID=lpt");
  add("tc lpt symbolic bf16", with(attn(2, 2, 2, 57, 91, 64, DType::BF16), [](Problem &p) {
        p.batch.symbolic = p.seq_q.symbolic = p.seq_k.symbolic = true;
        p.causal = true;
      }), tcbf + ",GRID=lpt");
  add("tc lpt non-causal", attn(3, 2, 2, 45, 77, 64), tc16 + ",GRID=lpt");
  // A split with an atom (issue 16, step 1): attncc-split-reduce puts the
  // part axis before the rows and attncc-partition tiles each part's rows;
  // the combine folds the parts' states. Empty parts (more splits than
  // blocks), one query row (decode), causal and symbolic lengths.
  add("tc split g3k", attn(1, 2, 2, 45, 200, 64), tc16 + ",REDUCE@kv=g3k");
  add("tc split g4k causal ring", with(attn(2, 4, 2, 97, 97, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d2/cp/ring,REDUCE@kv=g4k,EXP=ex2");
  add("tc split g5k symbolic bf16", with(attn(2, 2, 2, 57, 300, 64, DType::BF16), [](Problem &p) {
        p.batch.symbolic = p.seq_q.symbolic = p.seq_k.symbolic = true;
      }), tcbf + ",REDUCE@kv=g5k");
  add("tc split g8k decode gqa", attn(2, 8, 2, 1, 1000, 64), tc16 + ",REDUCE@kv=g8k");
  add("tc split g16k empty parts", attn(1, 2, 2, 20, 40, 64), tc16 + ",REDUCE@kv=g16k");
  add("tc split g3k masked-rows lazy", with(attn(1, 2, 2, 64, 16, 64), [](Problem &p) {
        p.causal = true;
        p.window = 0;
      }), tc16 + ",REDUCE@kv=g3k,RESCALE=lazy8");
  // ROWSUM=end (attncc-defer-rowsum): the row sum carried as the four lanes'
  // partials ([M x 4], each the sum of the columns 8f + 2t + {0,1}) and added
  // once after the fold. With one 8-key block (tc16) and 16 (tcbf, tc32);
  // lazy rescales, the rotated fold, a split, fully masked rows, symbolic
  // sizes and the masks.
  add("tc rowsum-end causal ring lazy1", with(attn(1, 2, 2, 97, 97, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d2/cp/ring,EXP=ex2,RESCALE=lazy1,ROWSUM=end");
  add("tc rowsum-end everything bf16", with(attn(2, 8, 2, 45, 77, 64, DType::BF16), [](Problem &p) {
        p.causal = true;
        p.window = 20;
        p.bias = true;
        p.alibi = true;
        p.softcap = 20.0;
      }), tcbf + ",ROWSUM=end");
  add("tc rowsum-end overlap symbolic", with(attn(2, 2, 2, 57, 91, 64), [](Problem &p) {
        p.batch.symbolic = p.seq_q.symbolic = p.seq_k.symbolic = true;
      }), tc32 + ",STAGE@kv=d3/cp/ring,EXP=ex2,OVERLAP=pv,ROWSUM=end");
  add("tc rowsum-end split masked-rows", with(attn(1, 2, 2, 64, 16, 64), [](Problem &p) {
        p.causal = true;
        p.window = 0;
      }), tc16 + ",REDUCE@kv=g3k,RESCALE=lazy8,ROWSUM=end");
  add("tc rowsum-end pack decode split", attn(2, 8, 2, 1, 1000, 64), tc32 + ",REDUCE@kv=g8k,PACK=gqa,ROWSUM=end");
  add("tc rowsum-end cut", attn(1, 2, 2, 97, 97, 64), tc16 + ",PLACE@fold=cut,ROWSUM=end");
  // PACK=gqa (issue 16, step 2): attncc-pack-gqa runs a KV group's query
  // heads as one row axis, so a row tile holds rows of several heads; the
  // mask reads the row back as r mod Sq and ALiBi the head as hkv*G + r/Sq.
  // Decode (one row a head), speculative rows with causal, a group of 6 (MQA,
  // not a power of 2), prefill with tiles across heads, window, ALiBi, fully
  // masked rows, a symbolic key length, and the scalar rung.
  add("pack decode split", attn(2, 8, 2, 1, 1000, 64), tc16 + ",REDUCE@kv=g8k,PACK=gqa");
  add("pack q4 causal split bf16", with(attn(2, 8, 2, 4, 300, 64, DType::BF16), [](Problem &p) {
        p.causal = true;
      }), tcbf + ",REDUCE@kv=g4k,PACK=gqa");
  add("pack mqa g6 q3 causal", with(attn(1, 6, 1, 3, 77, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",PACK=gqa");
  add("pack prefill causal ring", with(attn(2, 4, 2, 45, 45, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d2/cp/ring,EXP=ex2,PACK=gqa");
  add("pack window split", with(attn(1, 6, 1, 16, 200, 64), [](Problem &p) {
        p.causal = true;
        p.window = 30;
      }), tc16 + ",REDUCE@kv=g3k,PACK=gqa");
  add("pack alibi causal", with(attn(2, 4, 2, 33, 33, 64), [](Problem &p) {
        p.causal = true;
        p.alibi = true;
      }), tc16 + ",PACK=gqa");
  add("pack masked-rows lazy", with(attn(1, 4, 2, 64, 16, 64), [](Problem &p) {
        p.causal = true;
        p.window = 0;
      }), tc16 + ",RESCALE=lazy8,PACK=gqa");
  add("pack symbolic keys", with(attn(2, 8, 2, 2, 500, 64), [](Problem &p) {
        p.batch.symbolic = p.seq_k.symbolic = true;
        p.causal = true;
      }), tc16 + ",REDUCE@kv=g4k,PACK=gqa");
  // REDUCE@kv=gauto: the part count computed from the sizes where it runs
  // (attncc-split-reduce); symbolic lengths, so one loop IR sees each count.
  add("gauto pack symbolic keys", with(attn(2, 8, 2, 2, 700, 64), [](Problem &p) {
        p.batch.symbolic = p.seq_k.symbolic = true;
        p.causal = true;
      }), tc16 + ",REDUCE@kv=gauto,PACK=gqa");
  add("gauto decode long", attn(1, 4, 1, 1, 3000, 64), tc16 + ",REDUCE@kv=gauto,PACK=gqa");
  // The device's resident CTAs bind (the CPU's kCpuResidentCtas = 64: two
  // waves are 128 CTAs): 4 parts of 3000 keys over 4 x 8 heads (the length
  // alone would give 6), and none over 16 x 8 (128 / 128 = 1).
  add("gauto device bound", attn(4, 8, 8, 1, 3000, 64), tc16 + ",REDUCE@kv=gauto");
  add("gauto device one part", attn(16, 8, 8, 1, 3000, 64), tc16 + ",REDUCE@kv=gauto");
  add("gauto scalar symbolic", with(attn(1, 2, 2, 3, 900, 64), [](Problem &p) {
        p.seq_q.symbolic = p.seq_k.symbolic = true;
      }), "TILE@kv=n64/f1,REDUCE@kv=gauto");
  add("pack scalar causal", with(attn(1, 4, 1, 5, 40, 64), [](Problem &p) { p.causal = true; }),
      "PACK=gqa");
  // A paged KV cache (K and V in pages read through a block table, ragged
  // lengths, NaN in unused pages; randomInputs; NHD, and one HND case): the lift's page lookup
  // through the streamed fold, scalar tiles, a split, tensor-core tiles
  // (one page a block) with their staging rings.
  auto paged = [](Problem p, int64_t page, bool causal = false) {
    p.page_size = page;
    p.causal = causal;
    return p;
  };
  add("paged untiled", paged(attn(2, 2, 2, 30, 100, 64), 24));
  add("paged causal tile16", paged(attn(2, 4, 2, 97, 130, 64), 16, true), "TILE@kv=n16/f1");
  add("paged split", paged(attn(3, 2, 2, 5, 90, 64), 16, true), "REDUCE@kv=g3k");
  add("paged decode mma split pack", paged(attn(3, 8, 2, 1, 300, 64), 32),
      "TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x4/k4,STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g3k,PACK=gqa");
  add("paged hnd decode mma split pack", with(paged(attn(3, 8, 2, 1, 300, 64), 32), [](Problem &p) { p.kv_hnd = true; }),
      "TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x4/k4,STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g3k,PACK=gqa");
  add("paged wgmma tma ring causal", paged(attn(2, 2, 2, 70, 200, 64), 64, true),
      "TILE@kv=a:wgmma_m64n64k16_f16/w4x1/f1x1/k4,STAGE@kv=d2/tma/ring/swz128");
  add("paged window mma", with(paged(attn(2, 2, 2, 90, 160, 64), 32, true), [](Problem &p) { p.window = 20; }),
      "TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x4/k4,STAGE@kv=d2/cp/ring/pad");
  // A varlen batch (packed Q, K, V and O; ragged lengths, one sequence
  // without query rows and one without keys; randomInputs): the views of
  // one sequence's rows through the streamed fold, scalar tiles and
  // tensor-core tiles with their staging rings; the LSE rows past a
  // sequence must keep their poison (unpackVarlen).
  auto varlen = [](Problem p, bool causal = false) {
    p.varlen = true;
    p.causal = causal;
    return p;
  };
  add("varlen untiled", varlen(attn(3, 2, 2, 30, 70, 64)));
  add("varlen causal tile16 gqa", varlen(attn(4, 4, 2, 45, 60, 64), true), "TILE@kv=n16/f1");
  add("varlen mma ring causal", varlen(attn(3, 2, 2, 50, 90, 64), true), tc16 + ",STAGE@kv=d2/cp/ring/pad,EXP=ex2");
  add("varlen mma bf16 window", with(varlen(attn(3, 2, 1, 70, 70, 64, DType::BF16), true), [](Problem &p) { p.window = 20; }),
      tcbf + ",STAGE@kv=d2/cp/ring/pad");
  add("varlen wgmma tma ring", varlen(attn(3, 1, 1, 70, 130, 64)),
      "TILE@kv=a:wgmma_m64n64k16_f16/w4x1/f1x1/k4,STAGE@kv=d2/tma/ring/swz128");
  // Packed queries over a paged cache (chunked prefill): cu_seqlens_q, the
  // block table and kv_lens.
  add("varlen paged scalar", with(varlen(attn(3, 2, 2, 30, 90, 64), true), [](Problem &p) { p.page_size = 16; }),
      "TILE@kv=n16/f1");
  add("varlen paged mma ring causal", with(varlen(attn(4, 4, 2, 40, 130, 64), true), [](Problem &p) { p.page_size = 32; }),
      tc16 + ",STAGE@kv=d2/cp/ring/pad,EXP=ex2");
  // A pinned split cuts each sequence's own keys into parts (computed in
  // the parts map from the sequence's length); with scalar rows the parts
  // keep the row guard.
  add("varlen split scalar", varlen(attn(3, 2, 2, 20, 150, 64), true), "TILE@kv=n16/f1,REDUCE@kv=g3k");
  add("varlen split mma decode", varlen(attn(4, 4, 2, 3, 300, 64)), tc16 + ",STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g4k");
  add("varlen paged split mma", with(varlen(attn(3, 4, 2, 5, 200, 64), true), [](Problem &p) { p.page_size = 32; }),
      tc16 + ",REDUCE@kv=g3k");
  add("varlen symbolic", with(varlen(attn(3, 2, 2, 33, 40, 64), true), [](Problem &p) {
        p.batch.symbolic = p.seq_q.symbolic = p.seq_k.symbolic = true;
      }), tc16);
  // seqused (FlashAttention-3's seqused_q / seqused_k): a gap of 1 to 3
  // rows after each sequence, K 1 and V 1000 there (a gap's key given any
  // weight moves its row past the bound), 0.25 in Q; O's gap rows must keep
  // the poison (unpackVarlen).
  auto seqused = [varlen](Problem p, bool causal = false) {
    p = varlen(p, causal);
    p.seqused = true;
    return p;
  };
  add("varlen seqused untiled", seqused(attn(3, 2, 2, 30, 70, 64)));
  add("varlen seqused mma ring causal", seqused(attn(4, 4, 2, 50, 90, 64), true), tc16 + ",STAGE@kv=d2/cp/ring/pad,EXP=ex2");
  add("varlen seqused wgmma tma ring", seqused(attn(3, 1, 1, 70, 130, 64), true),
      "TILE@kv=a:wgmma_m64n64k16_f16/w4x1/f1x1/k4,STAGE@kv=d2/tma/ring/swz128");
  add("varlen seqused split mma decode", seqused(attn(4, 4, 2, 3, 300, 64)), tc16 + ",STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g4k");
  // PACK=gqa over a varlen decode batch (seq_q = 1): a KV group's heads as
  // rows of one view; with a split, seqused, MQA, a paged cache.
  add("varlen pack gqa split mma decode", varlen(attn(5, 8, 2, 1, 300, 64)),
      tc16 + ",STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g4k,PACK=gqa");
  add("varlen pack gqa seqused causal", seqused(attn(4, 8, 2, 1, 200, 64), true), "TILE@kv=n16/f1,PACK=gqa");
  // gauto over varlen sequences: the count from the mean key length.
  add("varlen gauto symbolic mma decode", with(varlen(attn(5, 8, 2, 1, 400, 64)), [](Problem &p) {
        p.batch.symbolic = p.seq_k.symbolic = true;
      }), tc16 + ",STAGE@kv=d2/cp/ring/pad,REDUCE@kv=gauto,PACK=gqa");
  add("varlen pack mqa", varlen(attn(4, 8, 1, 1, 150, 64)), tc16 + ",STAGE@kv=d2/cp/ring/pad,PACK=gqa");
  add("varlen pack gqa paged", with(varlen(attn(3, 4, 2, 1, 130, 64)), [](Problem &p) { p.page_size = 32; }),
      tc16 + ",STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g2k,PACK=gqa");
  add("varlen seqused paged scalar", with(seqused(attn(3, 2, 2, 30, 90, 64), true), [](Problem &p) { p.page_size = 16; }),
      "TILE@kv=n16/f1");
  // REDUCE@<axis>=g<n>a over varlen sequences (attncc-last-combine).
  add("last varlen mma decode", varlen(attn(4, 4, 2, 3, 300, 64)), tc16 + ",STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g4a");
  add("last varlen scalar", varlen(attn(3, 2, 2, 20, 150, 64), true), "TILE@kv=n16/f1,REDUCE@kv=g3a");
  add("last varlen seqused pack decode", seqused(attn(4, 4, 2, 1, 300, 64)),
      tc16 + ",STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g4a,PACK=gqa");
  // The same passes on carriers that are not attention.
  add("logsumexp", rows(ProblemKind::LogSumExp, 1, 2, 7, 300));
  add("logsumexp-tile-split", rows(ProblemKind::LogSumExp, 2, 2, 5, 257, DType::F16),
      "TILE@n=n64/f1,REDUCE@n=g3k");
  add("logsumexp-cut", rows(ProblemKind::LogSumExp, 1, 2, 9, 100, DType::BF16), "PLACE@fold=cut");
  add("rowsum", rows(ProblemKind::RowSum, 1, 3, 7, 129));
  add("rowsum-tile-split", rows(ProblemKind::RowSum, 1, 2, 5, 1000), "TILE@n=n32/f1,REDUCE@n=g5k");

  // REDUCE@<axis>=g<n>a (attncc-last-combine): no combine map; the last
  // point of the parts to arrive on its row block's counter folds the
  // block. Scalar (a point a row), row tiles of an atom (prefill, odd
  // lengths, causal), empty parts, symbolic sizes, fully masked rows, packed
  // GQA decode and speculative rows, a paged cache, and the row carriers.
  add("last scalar causal masked-rows", with(attn(1, 2, 2, 203, 113, 64), [](Problem &p) { p.causal = true; }),
      "TILE@kv=n32/f1,REDUCE@kv=g8a");
  add("last tc g4a causal ring", with(attn(2, 4, 2, 97, 97, 64), [](Problem &p) { p.causal = true; }),
      tc16 + ",STAGE@kv=d2/cp/ring,REDUCE@kv=g4a,EXP=ex2");
  add("last tc g5a symbolic bf16", with(attn(2, 2, 2, 57, 300, 64, DType::BF16), [](Problem &p) {
        p.batch.symbolic = p.seq_q.symbolic = p.seq_k.symbolic = true;
      }), tcbf + ",REDUCE@kv=g5a");
  add("last tc g16a empty parts", attn(1, 2, 2, 20, 40, 64), tc16 + ",REDUCE@kv=g16a");
  add("last tc g3a masked-rows", with(attn(1, 2, 2, 64, 16, 64), [](Problem &p) {
        p.causal = true;
        p.window = 0;
      }), tc16 + ",REDUCE@kv=g3a,RESCALE=lazy8");
  add("last pack decode", attn(2, 8, 2, 1, 1000, 64), tc16 + ",REDUCE@kv=g8a,PACK=gqa");
  add("last pack q4 causal bf16", with(attn(2, 8, 2, 4, 300, 64, DType::BF16), [](Problem &p) {
        p.causal = true;
      }), tcbf + ",REDUCE@kv=g4a,PACK=gqa");
  add("last paged decode mma pack", paged(attn(3, 8, 2, 1, 300, 64), 32),
      "TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x4/k4,STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g3a,PACK=gqa");
  add("last gautoa pack symbolic keys", with(attn(2, 8, 2, 2, 700, 64), [](Problem &p) {
        p.batch.symbolic = p.seq_k.symbolic = true;
        p.causal = true;
      }), tc16 + ",REDUCE@kv=gautoa,PACK=gqa");
  add("last gautoa one part", attn(1, 4, 1, 1, 300, 64), tc16 + ",REDUCE@kv=gautoa,PACK=gqa");
  add("last logsumexp", rows(ProblemKind::LogSumExp, 2, 2, 5, 257, DType::F16), "TILE@n=n64/f1,REDUCE@n=g3a");
  add("last rowsum", rows(ProblemKind::RowSum, 1, 2, 5, 1000), "TILE@n=n32/f1,REDUCE@n=g5a");

  // Negative controls: these must be rejected by the check.
  Case untwisted{"CONTROL untwisted o channel", attn(1, 2, 2, 64, 64, 64), "TILE@kv=n16/f1", false};
  untwisted.mutate = [](mlir::ModuleOp m) {
    m.walk([](mlir::monoid::ReduceOp r) {
      auto c = r.getCarrier();
      llvm::SmallVector<int64_t> twists(c.getTwists());
      twists[2] = -1; // o: add, no longer rescaled when the max moves
      r.setCarrierAttr(mlir::monoid::CarrierAttr::get(r.getContext(), c.getNames(),
                                                      c.getCombines(), twists));
    });
  };
  cs.push_back(untwisted);
  Case wrongRef{"CONTROL causal kernel vs non-causal reference",
                with(attn(1, 2, 2, 64, 64, 64), [](Problem &p) { p.causal = true; }), "", false};
  wrongRef.refProblem = [](Problem &p) { p.causal = false; };
  cs.push_back(wrongRef);
  // The block table ignored (page = the sequence's slot): wrong pages, some
  // of them NaN.
  Case pagesInOrder{"CONTROL paged cache read without the block table",
                    with(attn(3, 2, 2, 5, 90, 64), [](Problem &p) { p.page_size = 16; }),
                    "TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x2/k4", false};
  pagesInOrder.mutate = [](mlir::ModuleOp m) {
    m.walk([](mlir::arith::IndexCastUIOp c) {
      auto load = c.getIn().getDefiningOp<mlir::memref::LoadOp>();
      if (load && load.getIndices().size() == 2) // block_table[b, slot]
        c.getResult().replaceAllUsesWith(load.getIndices()[1]);
    });
  };
  cs.push_back(pagesInOrder);
  // Varlen with every sequence read from row 0 (the cumulative lengths'
  // starts ignored by the views): other sequences' rows, some never written.
  auto named = [](mlir::Value v, llvm::StringRef name) {
    auto n = llvm::dyn_cast<mlir::NameLoc>(v.getLoc());
    return n && n.getName() == name;
  };
  Case fromRow0{"CONTROL varlen views from row 0", with(attn(3, 2, 2, 30, 50, 64), [](Problem &p) { p.varlen = true; }),
                "TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x1/k1", false};
  fromRow0.mutate = [named](mlir::ModuleOp m) {
    m.walk([&](mlir::memref::SubViewOp v) {
      for (mlir::OpOperand &o : v->getOpOperands())
        if (named(o.get(), "seq_q0") || named(o.get(), "seq_k0")) {
          mlir::OpBuilder b(v);
          o.set(mlir::arith::ConstantIndexOp::create(b, v.getLoc(), 0));
        }
    });
  };
  cs.push_back(fromRow0);
  // Varlen with every sequence's rows taken as the longest (seq_q): rows
  // past a sequence are computed and stored (its LSE rows past the length).
  Case pastEnd{"CONTROL varlen rows past a sequence stored",
               with(attn(3, 2, 2, 30, 50, 64), [](Problem &p) { p.varlen = true; }),
               "TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x1/k1", false};
  pastEnd.mutate = [named](mlir::ModuleOp m) {
    m.walk([&](mlir::arith::SubIOp s) {
      if (!named(s.getResult(), "len_q"))
        return;
      mlir::OpBuilder b(s);
      s.getResult().replaceAllUsesWith(mlir::arith::ConstantIndexOp::create(b, s.getLoc(), 30).getResult());
    });
  };
  cs.push_back(pastEnd);
  // seqused: each row's O also stored in the first row of its sequence's
  // gap (the used rows and the LSE stay right): only the gap's poison
  // check can see it.
  Case gapWrite{"CONTROL varlen seqused O stored in a gap",
                with(attn(3, 2, 2, 30, 50, 64), [](Problem &p) { p.varlen = p.seqused = true; }),
                "TILE@kv=n16/f1", false};
  gapWrite.mutate = [named](mlir::ModuleOp m) {
    mlir::Value lenQ;
    m.walk([&](mlir::arith::IndexCastUIOp c) {
      if (named(c.getResult(), "len_q"))
        lenQ = c.getResult();
    });
    m.walk([&](mlir::vector::StoreOp st) {
      auto view = st.getBase().getDefiningOp<mlir::memref::SubViewOp>();
      if (!lenQ || !view || !named(view.getResult(), "o_seq"))
        return;
      mlir::OpBuilder b(st);
      mlir::SmallVector<mlir::Value> at(st.getIndices());
      at[0] = lenQ;
      mlir::vector::StoreOp::create(b, st.getLoc(), st.getValueToStore(), st.getBase(), at);
    });
  };
  cs.push_back(gapWrite);
  // seqused: each sequence folds one key more than seqused_k (the first of
  // its gap, K 1 and V 1000): the tolerance check must see that key.
  Case gapKey{"CONTROL varlen seqused a gap's key folded",
              with(attn(3, 2, 2, 30, 50, 64), [](Problem &p) { p.varlen = p.seqused = true; }),
              "TILE@kv=n16/f1", false};
  gapKey.mutate = [named](mlir::ModuleOp m) {
    m.walk([&](mlir::arith::IndexCastUIOp c) {
      if (!named(c.getResult(), "len_k"))
        return;
      mlir::OpBuilder b(c);
      b.setInsertionPointAfter(c);
      mlir::Value one = mlir::arith::ConstantIndexOp::create(b, c.getLoc(), 1);
      auto more = mlir::arith::AddIOp::create(b, c.getLoc(), c.getResult(), one);
      c.getResult().replaceAllUsesExcept(more.getResult(), more);
    });
  };
  cs.push_back(gapKey);
  // PACK=gqa over varlen decode with the group's view at head hkv instead
  // of hkv * G (the first KV groups read other groups' query heads).
  Case packHead{"CONTROL varlen pack gqa view at the wrong head",
                with(attn(4, 8, 2, 1, 150, 64), [](Problem &p) { p.varlen = true; }), "TILE@kv=n16/f1,PACK=gqa", false};
  packHead.mutateLoop = [named](mlir::ModuleOp m) {
    m.walk([&](mlir::arith::MulIOp mul) {
      if (named(mul.getResult(), "group_head0"))
        mul.getResult().replaceAllUsesWith(mul.getLhs());
    });
  };
  cs.push_back(packHead);
  return cs;
}

struct Outcome {
  Evidence evidence;
  std::string detail;
};

Outcome runCase(const Case &c, uint64_t seed, const std::string &dumpLlvm) {
  Outcome o;
  if (auto e = validate(c.p)) {
    o.detail = "invalid problem: " + e->message();
    return o;
  }
  KnobError kerr;
  std::optional<Schedule> s = parseKnobs(c.knobs, kerr);
  if (!s) {
    o.detail = kerr.message();
    return o;
  }
  if (auto e = checkSchedule(*s, c.p, /*t=*/nullptr)) {
    o.detail = e->message();
    return o;
  }
  mlir::DialectRegistry registry;
  registerAttnccDialects(registry);
  mlir::MLIRContext ctx(registry);
  auto module = buildModule(ctx, c.p, *s);
  if (c.mutate)
    c.mutate(*module);
  if (failed(lowerTo(*module, Stage::Loop))) {
    o.detail = "loop pipeline failed";
    return o;
  }
  if (c.mutateLoop)
    c.mutateLoop(*module);
  if (!dumpLlvm.empty()) {
    mlir::OwningOpRef<mlir::ModuleOp> copy(mlir::cast<mlir::ModuleOp>((*module)->clone()));
    mlir::DialectRegistry llvmRegistry;
    mlir::registerBuiltinDialectTranslation(llvmRegistry);
    mlir::registerLLVMDialectTranslation(llvmRegistry);
    ctx.appendDialectRegistry(llvmRegistry);
    llvm::LLVMContext llctx;
    std::unique_ptr<llvm::Module> ll;
    if (succeeded(lowerLoopToLLVM(*copy)))
      ll = mlir::translateModuleToLLVMIR(*copy, llctx);
    std::error_code ec;
    llvm::raw_fd_ostream file(dumpLlvm, ec);
    if (!ll || ec) {
      o.detail = "--dump-llvm: the module could not be translated or written";
      return o;
    }
    ll->print(file, nullptr);
  }
  Inputs in = randomInputs(c.p, seed);
  CpuOutputs outs;
  std::string err;
  if (!runOnCpu(*module, c.p, in, outs, err)) {
    o.detail = err;
    return o;
  }
  Problem refP = c.p;
  if (c.refProblem)
    c.refProblem(refP);
  std::vector<double> ref, lowp, lse, lowpLse;
  bool attention = c.p.kind == ProblemKind::Attention;
  referenceF64(refP, in, ref, attention ? &lse : nullptr);
  referenceLowp(refP, in, lowp, attention ? &lowpLse : nullptr);
  CheckResult r = checkTolerance(c.p, outs.out, ref, lowp);
  char buf[160];
  std::snprintf(buf, sizeof buf, "err %.2e bound %.2e", r.maxErr, r.bound);
  o.detail = buf;
  bool within = r.pass;
  if (attention) {
    CheckResult l = checkLse(outs.lse, lse, lowpLse);
    std::snprintf(buf, sizeof buf, "; lse err %.1e bound %.1e%s", l.maxErr, l.bound,
                  l.pass ? "" : " (LSE WRONG)");
    o.detail += buf;
    within = within && l.pass;
  }
  if (outs.writtenPastSequence)
    o.detail += "; " + std::to_string(outs.writtenPastSequence) + " LSE rows past a sequence written";
  if (outs.gapRowsWritten) {
    o.detail += "; " + std::to_string(outs.gapRowsWritten) + " O rows in gaps written (OUTSIDE A SEQUENCE)";
    within = false;
  }
  if (!outs.repeatable)
    o.detail += "; NOT REPEATABLE";
  auto noNaN = [](const std::vector<double> &v) {
    return std::none_of(v.begin(), v.end(), [](double x) { return std::isnan(x); });
  };
  bool written = noNaN(outs.out) && noNaN(outs.lse); // the poison is NaN
  o.evidence = {/*ran=*/true, /*checked=*/true, within, written, outs.repeatable};
  return o;
}

} // namespace

int main(int argc, char **argv) {
  std::string only, dumpLlvm;
  int shard = 0, shards = 1;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--shard" && i + 1 < argc) {
      if (std::sscanf(argv[++i], "%d/%d", &shard, &shards) != 2 || shards < 1 || shard < 0 ||
          shard >= shards) {
        std::fprintf(stderr, "attncc-cpu-check: invalid --shard = '%s': I/N with 0 <= I < N\n", argv[i]);
        return 2;
      }
    } else if (a == "--dump-llvm" && i + 1 < argc) {
      dumpLlvm = argv[++i];
    } else if (a == "--list") {
      list = true;
    } else {
      only = a;
    }
  }
  int passed = 0, failed = 0, index = -1;
  uint64_t seed = 0x5eed;
  auto start = std::chrono::steady_clock::now();
  for (const Case &c : sweep()) {
    ++seed; // the seed belongs to the case, whichever subset runs
    if (++index % shards != shard || (!only.empty() && c.name.find(only) == std::string::npos))
      continue;
    if (list) {
      std::printf("%s\n", c.name.c_str());
      continue;
    }
    auto t0 = std::chrono::steady_clock::now();
    Outcome o = runCase(c, seed, dumpLlvm);
    dumpLlvm.clear(); // the first matching case only
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Status st = judge(o.evidence, !c.expectPass);
    bool good = isOk(st);
    std::printf("%-4s %6.1fs %-42s %-28s %s  [%s]\n", good ? "ok" : "FAIL", t, c.name.c_str(),
                ("'" + c.knobs + "'").c_str(), o.detail.c_str(), statusName(st));
    std::fflush(stdout);
    (good ? passed : failed)++;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (list)
    return 0;
  std::printf("cpu semantics: %.1f s\n%d passed, %d failed\n", secs, passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
