//===- Accumulate.cpp - attncc-accumulate (ACC=f16x) ----------------------===//
//
// Pre:  loop IR; the function carries attncc.schedule.
// Post: with ACC=f16x, every vector.contract of f16 operands that adds into
//       an accumulator other than a constant (the fold's P*V) is marked
//         attncc.acc = "f16x"
//       and with ACC=f16x<s> also
//         attncc.acc_steps = s
//       The emitter then runs the contraction's k steps on the
//       fp16-accumulate atom (mma.sync m16n8k16 .f16.f16.f16.f16) into
//       zeroed half2 partials and adds the partials, converted to fp32,
//       into the fp32 accumulator after every s k16 steps (and after the
//       last), or once per contraction without acc_steps: per key block for
//       P*V, per head dim for Q*K^T (seed 001's hybrid accumulation).
//
// On consumer Blackwell (sm_120) the fp16-accumulate atom issues at twice
// the rate of the fp32-accumulate one; on the H200 both run at one rate, so
// there it is a numerics experiment. The sum of one contraction (64 or 128
// products, or 16 s with f16x<s>) is rounded to fp16 as it goes, which the
// fp32 CPU semantics do not model: the GPU check measures it
// (docs/results.md). Built.cpp
// refuses f16x with bf16 operands (mma.sync has no bf16 accumulator) and
// with wgmma atoms (not built).
//
//===----------------------------------------------------------------------===//
#include "ir/TileAttrs.h"
#include "passes/Passes.h"

#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "attncc-accumulate"

namespace mlir::attncc {
#define GEN_PASS_DEF_ACCUMULATE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

struct AccumulatePass : mlir::attncc::impl::AccumulateBase<AccumulatePass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const ::attncc::Schedule *s = monoid::scheduleOf(f);
    if (!s || s->acc != ::attncc::Accum::F16x)
      return;
    StringAttr f16x = StringAttr::get(f.getContext(), "f16x");
    f.walk([&](vector::ContractionOp c) {
      // Only the products that add into the carried state (P*V: its
      // accumulator is the rescaled O). The scores (Q*K^T, accumulated from
      // a zero constant) stay fp32: rounded to fp16 they move the row max
      // and the LSE past the tolerance bound in every variant measured on
      // the H200 (docs/results.md, 2026-12-02).
      if (!cast<VectorType>(c.getLhsType()).getElementType().isF16() ||
          matchPattern(c.getAcc(), m_Constant()))
        return;
      c->setAttr("attncc.acc", f16x);
      if (s->accSteps)
        c->setAttr("attncc.acc_steps", IntegerAttr::get(IntegerType::get(f.getContext(), 64), s->accSteps));
    });
  }
};

} // namespace
