//===- Canonicalize.cpp - attncc-canonicalize ------------------------------===//
//
// MLIR's canonicalizer (every loaded dialect's and registered op's patterns,
// top-down, as `-canonicalize` runs them) with two of SCF's patterns
// replaced, because they remove structure that later attncc passes lower:
//   * SimplifyTrivialLoops is left out: a fold's scf.for stays when it runs
//     once (a block as long as the sequence). The loop IR shows the streaming
//     fold for every schedule, and the passes and the emitter see the same
//     structure at every length, the one a symbolic length that turns out to
//     fit one block runs. (Folding the loop at the tile level, after the ring
//     and the warpgroup turns were built around it, hung OVERLAP=wg on a
//     one-block shape on the H200, 2026-12-01.)
//   * ParallelOpSingleOrZeroIterationDimsFolder is replaced by
//     DropUnitMapAxes below: the axes of a free-axis map (scf.parallel) that
//     run once are dropped, as before, but a map of a single point keeps its
//     last axis. MLIR's pattern inlined such a map into the function, so a
//     problem of one point ([1,1,S,D] with S within one row tile, or one
//     query row of one head on the scalar rung) had no map for
//     attncc-map-to-gpu to launch: `attncc compile` printed CUDA without a
//     kernel and `--bundle` crashed (found 2026-12-04).
// The map's attributes (nvvm.minctasm of a split's combine) are kept.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "attncc-canonicalize"

namespace mlir::attncc {
#define GEN_PASS_DEF_CANONICALIZE
#include "passes/Passes.h.inc"
} // namespace mlir::attncc

using namespace mlir;

namespace {

/// Drops the axes of an scf.parallel without reductions that run once (the
/// induction variable becomes the lower bound), keeping the last axis of a
/// map of one point; erases a map of no points.
struct DropUnitMapAxes : OpRewritePattern<scf::ParallelOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ParallelOp map, PatternRewriter &rw) const override {
    if (!map.getInitVals().empty())
      return failure();
    unsigned n = map.getNumLoops();
    SmallVector<bool> once(n, false);
    unsigned ones = 0;
    for (unsigned i = 0; i < n; ++i) {
      std::optional<int64_t> lb = getConstantIntValue(map.getLowerBound()[i]);
      std::optional<int64_t> ub = getConstantIntValue(map.getUpperBound()[i]);
      std::optional<int64_t> step = getConstantIntValue(map.getStep()[i]);
      if (!lb || !ub || !step || *step <= 0)
        continue;
      if (*ub <= *lb) {
        rw.eraseOp(map);
        return success();
      }
      if (*ub - *lb <= *step) {
        once[i] = true;
        ++ones;
      }
    }
    if (ones == n) { // one point: its last axis stays
      once[n - 1] = false;
      --ones;
    }
    if (ones == 0)
      return failure();

    SmallVector<Value> lbs, ubs, steps;
    IRMapping ivs;
    for (unsigned i = 0; i < n; ++i) {
      if (once[i]) {
        ivs.map(map.getInductionVars()[i], map.getLowerBound()[i]);
        continue;
      }
      lbs.push_back(map.getLowerBound()[i]);
      ubs.push_back(map.getUpperBound()[i]);
      steps.push_back(map.getStep()[i]);
    }
    auto fewer = scf::ParallelOp::create(rw, map.getLoc(), lbs, ubs, steps, ValueRange{}, nullptr);
    fewer->setDiscardableAttrs(map->getDiscardableAttrDictionary());
    rw.eraseBlock(fewer.getBody());
    rw.cloneRegionBefore(map.getRegion(), fewer.getRegion(), fewer.getRegion().begin(), ivs);
    rw.replaceOp(map, fewer.getResults());
    return success();
  }
};

struct CanonicalizePass : mlir::attncc::impl::CanonicalizeBase<CanonicalizePass> {
  std::shared_ptr<const FrozenRewritePatternSet> patterns;

  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet set(ctx);
    for (Dialect *d : ctx->getLoadedDialects())
      d->getCanonicalizationPatterns(set);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(set, ctx);
    set.add<DropUnitMapAxes>(ctx);
    patterns = std::make_shared<FrozenRewritePatternSet>(
        std::move(set), /*disabledPatternLabels=*/ArrayRef<std::string>{
            "(anonymous namespace)::SimplifyTrivialLoops",
            "(anonymous namespace)::ParallelOpSingleOrZeroIterationDimsFolder"});
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config; // -canonicalize's defaults: top-down, 10 rounds
    config.setUseTopDownTraversal(true);
    (void)applyPatternsGreedily(getOperation(), *patterns, config);
  }
};

} // namespace
