//===- Built.cpp - which knobs the passes act on yet ----------------------===//
#include "schedule/Built.h"
#include "schedule/Geometry.h"

namespace attncc {

std::optional<KnobError> checkBuilt(const Schedule &s) {
  const TileKnob *atomTile = nullptr;
  for (const TileKnob &t : s.tiles) {
    if (!t.atom)
      continue;
    atomTile = &t;
    if (t.atom->kind == AtomKind::Tcgen05) {
      // Built: one m128 (or m64) tile per warpgroup (four warps, one per
      // lane quarter of tensor memory), one or two per CTA (w8x1:
      // FlashAttention-4's two Q tiles, which share each K and V block),
      // issued by one thread.
      std::string geo = "w" + std::to_string(t.wm) + "x" + std::to_string(t.wn) + "/f" + std::to_string(t.fm) +
                        "x" + std::to_string(t.fn);
      if ((t.wm != 4 && t.wm != 8) || t.fm != 1)
        return KnobError{"TILE@" + t.axis, geo,
                         "w4x1/f1x<FN> or w8x1/f1x<FN> with a tcgen05 atom (a warpgroup a Q tile of the atom's "
                         "M rows, one warp per lane quarter of tensor memory, one or two Q tiles per CTA; "
                         "more are not built yet)"};
    }
    if (t.atom->kind == AtomKind::Wgmma && t.fm != 1)
      return KnobError{"TILE@" + t.axis, "f" + std::to_string(t.fm) + "x" + std::to_string(t.fn),
                       "f1x<FN> with a wgmma atom (several m64 tiles per warpgroup are not built "
                       "yet; add warpgroups with w<WM> instead)"};
  }
  bool wgmma = atomTile && atomTile->atom->kind == AtomKind::Wgmma;
  bool tcgen05 = atomTile && atomTile->atom->kind == AtomKind::Tcgen05;
  // wgmma and tcgen05 read their shared-memory operands through descriptors
  // of the 128-byte swizzled layout.
  bool byDescriptor = wgmma || tcgen05;
  std::string atomName = tcgen05 ? "tcgen05" : "wgmma";
  bool kvSwizzled = false;
  for (const StageKnob &st : s.stages) {
    std::string k = "STAGE@" + st.axis;
    if (st.regDepth)
      return KnobError{k, "p" + std::to_string(st.regDepth),
                       "no /p<n> (register prefetch is not built yet)"};
    if (!atomTile)
      return KnobError{k, "STAGE", "a tensor-core TILE (TILE@kv=a:<atom>/...) with it; the scalar "
                                   "rung stages nothing"};

    if (st.transport == Transport::Tma && st.axis != atomTile->axis)
      return KnobError{k, "tma", "cp for a free axis (its tile is read once; TMA is built for the "
                                 "blocks of the fold)"};
    if (byDescriptor && !st.swizzled())
      return KnobError{k, st.layout == SmemLayout::Pad ? "pad" : "dense",
                       "swz128 with a " + atomName + " atom (" + atomName +
                           " reads shared memory in the 128-byte swizzled layout)"};
    kvSwizzled = kvSwizzled || st.axis == atomTile->axis;
  }
  if (byDescriptor && !kvSwizzled)
    return KnobError{"TILE@" + atomTile->axis, atomName + " atom",
                     "a STAGE@" + atomTile->axis + "=d<1|2|3>/cp|tma[/ring]/swz128 with it (" + atomName +
                         " reads its B operand, K and V, from shared memory)"};
  if (tcgen05) {
    // Knobs that act on the fold's products and are built for wgmma or
    // mma.sync only so far.
    if (s.overlap && *s.overlap != OverlapKind::Early && *s.overlap != OverlapKind::None)
      return KnobError{"OVERLAP", overlapName(*s.overlap),
                       "none or early with a tcgen05 atom (the rotation and the warpgroup turns are "
                       "built for mma.sync and wgmma)"};
    if (!s.stagesOtherThan(atomTile->axis))
      return KnobError{"TILE@" + atomTile->axis, "tcgen05 atom",
                       "a STAGE of the free axis with it (STAGE@q=d1/cp/swz128: tcgen05 reads Q from "
                       "shared memory)"};
  }
  if (s.overlap && *s.overlap == OverlapKind::Early && !tcgen05)
    return KnobError{"OVERLAP", "early",
                     "none, pv, wg or pv+wg without a tcgen05 TILE (early P*V starts a tcgen05 product "
                     "on P's columns in tensor memory while the rest are stored)"};
  if (s.overlap && overlapsWg(*s.overlap)) {
    std::string v = overlapName(*s.overlap);
    if (!wgmma || atomTile->wm < 8)
      return KnobError{"OVERLAP", v,
                       "none or pv without a wgmma TILE of two or more warpgroups "
                       "(TILE@kv=a:wgmma_.../w<8|12|16>x1/...: the warpgroups take turns issuing "
                       "their wgmma products)"};
    const StageKnob *kv = s.stage(atomTile->axis);
    if (!kv || kv->transport != Transport::Tma)
      return KnobError{"OVERLAP", v,
                       "a STAGE@" + atomTile->axis + "=d<2|3>/tma/ring/swz128 with it (with cp.async "
                       "a CTA barrier in every iteration would undo the turns)"};
  }
  if (s.overlap && overlapsPv(*s.overlap)) {
    std::string v = overlapName(*s.overlap);
    // With mma.sync the rotation only reorders the fold (each product holds
    // its warp); it is allowed, so the CPU checks the rotated fold's algebra.
    if (!atomTile)
      return KnobError{"OVERLAP", v,
                       "none without a tensor-core TILE (the overlap rotates the block fold of "
                       "TILE@kv=a:<atom>/...)"};
    const StageKnob *kv = s.stage(atomTile->axis);
    if (!kv || !kv->ring || kv->depth < 3)
      return KnobError{"OVERLAP", v,
                       "a STAGE@" + atomTile->axis + "=d3/cp/ring/swz128 with it (P*V of block j still "
                       "reads its V block while block j+2 is copied in: a ring of three)"};
  }
  for (const ReduceKnob &r : s.reduces) {
    if (r.coopThreads)
      return KnobError{"REDUCE@" + r.axis, "b" + std::to_string(r.coopThreads),
                       "no b<n> (cooperative reduction threads are not built yet)"};
    if (r.regIlp)
      return KnobError{"REDUCE@" + r.axis, "r" + std::to_string(r.regIlp),
                       "no r<n> (register ILP of the reduction is not built yet)"};
    // g<n>a: the last CTA of a row block combines (attncc-last-combine).
    // Every thread of the CTA takes a share of the combine, so warps that
    // leave early (WSPEC's producers) would leave theirs undone; the cut
    // fold's split has its own maps.
    if (r.combine == SplitCombine::Atomic && (r.groups > 1 || r.autoGroups)) {
      std::string g = r.autoGroups ? "gauto" : "g" + std::to_string(r.groups);
      if (!s.wspec.empty())
        return KnobError{"REDUCE@" + r.axis, g + "a",
                         g + "k with WSPEC (the combine in the last CTA needs all of its threads; a producer "
                             "warp leaves early; not built yet)"};
      if (s.place && *s.place == Place::Cut)
        return KnobError{"REDUCE@" + r.axis, g + "a",
                         g + "k with PLACE@fold=cut (the combine in the last CTA of the cut fold is not built "
                             "yet)"};
    }
  }
  if (!s.wspec.empty()) {
    // Built: a producer warp that issues the TMA copies of the fold (load1),
    // a producer warpgroup (load4, wgmma), and with tcgen05 an mma warp
    // beside the producer warp (load1/mma1, in any order) that issues the
    // products (attncc-mma-role). With tcgen05, softmax<W> names the W warps
    // of the TILE that own the rows (FlashAttention-4's softmax role; with no
    // correction role they also rescale O and write the output), and with
    // load1/mma1 a correction warpgroup, corr4, rescales O in tensor memory
    // (attncc-corr-role).
    std::string written; // the value as the user wrote it
    int load = 0, mma = 0, softmax = 0, corr = 0;
    bool other = false;
    for (const WarpRole &r : s.wspec) {
      written += (written.empty() ? "" : "/") + r.role + std::to_string(r.warps);
      if (r.role == "load" && !load)
        load = r.warps;
      else if (r.role == "mma" && !mma)
        mma = r.warps;
      else if (r.role == "softmax" && !softmax)
        softmax = r.warps;
      else if (r.role == "corr" && !corr)
        corr = r.warps;
      else
        other = true;
    }
    bool known = !other && (load == 1 || load == 4) && (mma == 0 || (mma == 1 && load == 1));
    if (!known)
      return KnobError{"WSPEC", written, "load1, load4 or load1/mma1, with a tcgen05 atom also softmax<n> and "
                                         "corr4 (a producer warp, a producer warpgroup that gives its registers "
                                         "to the others, or with a tcgen05 atom a producer warp, an mma warp and "
                                         "a correction warpgroup; the epilogue role is not built yet)"};
    if (corr && !tcgen05)
      return KnobError{"WSPEC", written, "no corr<n> without a tcgen05 TILE (the correction warps rescale O in "
                                         "tensor memory)"};
    if (corr && corr != 4)
      return KnobError{"WSPEC", written, "corr4 (the correction role is one warpgroup: its warp w reads lane "
                                         "quarter w % 4 of tensor memory, and it gives registers back as a "
                                         "warpgroup)"};
    if (corr && mma != 1)
      return KnobError{"WSPEC", written, "load1/mma1 with corr4 (the mma warp waits for the correction warps "
                                         "before each P*V product)"};
    if (tcgen05 && load == 4)
      return KnobError{"WSPEC", written, "load1 with a tcgen05 atom (a producer warpgroup that gives its "
                                         "registers to the others is built for wgmma only)"};
    if (mma && !tcgen05)
      return KnobError{"WSPEC", written, "load1 or load4 without a tcgen05 TILE (the mma warp of "
                                         "load1/mma1 issues tcgen05 products; wgmma and mma.sync products "
                                         "are issued by the warps that own their rows)"};
    if (softmax) {
      int rowWarps = atomTile ? atomTile->wm * atomTile->wn : 0;
      if (!tcgen05)
        return KnobError{"WSPEC", written, "no softmax<n> without a tcgen05 TILE (softmax<n> names the tcgen05 "
                                           "kernel's row warps)"};
      if (softmax != rowWarps)
        return KnobError{"WSPEC", written, "softmax" + std::to_string(rowWarps) + " with TILE@" + atomTile->axis +
                                               "=.../w" + std::to_string(atomTile->wm) + "x" +
                                               std::to_string(atomTile->wn) + " (softmax<n> names the TILE's " +
                                               std::to_string(rowWarps) + " warps that own the rows)"};
    }
    const StageKnob *kv = atomTile ? s.stage(atomTile->axis) : nullptr;
    if (!(wgmma || tcgen05) || !kv || kv->transport != Transport::Tma)
      return KnobError{"WSPEC", written, "no WSPEC without a wgmma or tcgen05 TILE and STAGE@" +
                                             std::string(atomTile ? atomTile->axis : "kv") +
                                             "=d<1|2|3>/tma[/ring]/swz128 (the producer warp issues TMA copies)"};
  }
  if (s.repack && *s.repack == RepackKind::Smem) {
    if (!atomTile)
      return KnobError{"REPACK", "smem", "regs without a tensor-core TILE (the handoff moves P from "
                                         "the C fragments of one mma product to the A operand of the next)"};
    if (byDescriptor)
      return KnobError{"REPACK", "smem", "regs with a " + atomName + " atom (the shared-memory handoff is built "
                                         "for mma.sync; " + (tcgen05 ? std::string("tcgen05 takes P from tensor memory)")
                                                                    : std::string("wgmma reads P from registers)"))};
  }
  if (s.rowsum && *s.rowsum == RowSumKind::End) {
    // attncc-defer-rowsum: the accumulator layout of mma.sync and wgmma
    // spreads a row's columns over the four lanes of a quad; tcgen05 gives a
    // thread its row whole (nothing to defer), the scalar rung has no quads.
    if (!atomTile)
      return KnobError{"ROWSUM", "end", "block without a tensor-core TILE (end keeps a row's sum as four "
                                        "partials, one a lane of the quad that holds the row's columns)"};
    if (tcgen05)
      return KnobError{"ROWSUM", "end", "block with a " + atomName + " atom (a thread holds its row whole in "
                                        "tensor memory's layout: its row sum needs no shuffles to defer)"};
  }
  if (s.hoist && *s.hoist == HoistKind::Off)
    for (const StageKnob &st : s.stages)
      if (!atomTile || st.axis != atomTile->axis)
        return KnobError{"HOIST", "off", "on with STAGE@" + st.axis + " (a staged free-axis tile is "
                                         "copied to shared memory once, before the fold)"};
  if (s.exp && *s.exp == ExpKind::Poly) {
    // attncc-exp-poly: one 8-column group in four of each block's weights.
    std::string v = "poly" + std::to_string(s.expPolyDegree);
    if (!atomTile)
      return KnobError{"EXP", v, "libm or ex2 without a tensor-core TILE (the software exp2 takes one "
                                 "8-column group in four of a block's weights)"};
    if (reduceBlock(*atomTile) % 32 != 0)
      return KnobError{"EXP", v, "ex2 with a key block of " + std::to_string(reduceBlock(*atomTile)) +
                                     " (the software exp2 takes one 8-column group in four: a block of a "
                                     "multiple of 32 keys)"};
  }
  if (s.rescale && *s.rescale != "always") {
    // attncc-lazy-rescale: every weight of the fold stays at most 2^t.
    if (s.rescaleThreshold > 15)
      return KnobError{"RESCALE", *s.rescale, "lazy<t> with t at most 15 (the weights grow up to 2^t before the "
                                              "maximum moves, and P is rounded to 16-bit floats: fp16's largest is 65504)"};
    if (s.acc && *s.acc == Accum::F16x)
      return KnobError{"RESCALE", *s.rescale, "always with ACC=f16x (fp16 partial sums of weights up to 2^t "
                                              "would overflow)"};
  }
  if (s.acc && *s.acc == Accum::F16x) {
    if (!atomTile)
      return KnobError{"ACC", "f16x", "f32 without a tensor-core TILE (f16x runs the contractions on "
                                      "the fp16-accumulate mma.sync atom: TILE@kv=a:mma_m16n8k16_f16/...)"};
    if (byDescriptor)
      return KnobError{"ACC", "f16x", "f32 with a " + atomName + " atom (fp16 accumulation is built for the "
                                      "mma.sync atom only)"};
    // bf16 operands with f16x are refused by the target check (Targets.cpp).
  }
  if (s.grid && *s.grid == GridKind::Persistent) {
    // attncc-map-to-gpu: a CTA loops over attncc-partition's row tiles.
    if (!atomTile)
      return KnobError{"GRID", "persistent", "tiles without a tensor-core TILE (persistent CTAs loop over the "
                                             "row tiles of attncc-partition; the scalar rung runs one thread a row)"};
    for (const ReduceKnob &r : s.reduces)
      if (r.autoGroups || r.groups > 1)
        return KnobError{"GRID", "persistent", "tiles or lpt with a split (REDUCE@" + r.axis +
                                                   "=g<n>k, g<n>a or gauto[a]: a split's parts in a tile loop "
                                                   "are not built yet)"};
    if (s.place && *s.place == Place::Cut)
      return KnobError{"GRID", "persistent", "tiles or lpt with PLACE@fold=cut (not built yet)"};
  }
  if (s.grid && *s.grid == GridKind::Lpt && !atomTile)
    return KnobError{"GRID", "lpt", "tiles without a tensor-core TILE (lpt orders the row tiles of "
                                    "attncc-partition; the scalar rung runs one thread a row)"};
  // What attncc-partition and attncc-stage refused when they met the schedule
  // (until 2026-12-01); the rules live here now, with the rest.
  if (atomTile) {
    if (atomTile->wn != 1)
      return KnobError{"TILE@" + atomTile->axis,
                       "w" + std::to_string(atomTile->wm) + "x" + std::to_string(atomTile->wn),
                       "w<WM>x1 (the key block is not split across warps yet)"};
  }
  for (const StageKnob &st : s.stages) {
    std::string k = "STAGE@" + st.axis, d = "d" + std::to_string(st.depth);
    if (st.depth > 3)
      return KnobError{k, d, "d1, or d2 or d3 with ring (deeper rings are not built yet)"};
    if (st.depth >= 2 && !st.ring)
      return KnobError{k, d, d + " with ring (several stages are a ring)"};
    if (atomTile && st.axis != atomTile->axis && (st.ring || st.depth != 1))
      return KnobError{k, st.ring ? "ring" : d, "d1 for a free axis (its tile is read once)"};
  }
  return std::nullopt;
}

std::vector<std::string> notExecutedOnCpu(const Schedule &s) {
  // One knob as the user writes it: a schedule holding only that knob.
  auto knob = [](auto set) {
    Schedule one;
    set(one);
    return printKnobs(one);
  };
  std::vector<std::string> out;
  for (const TileKnob &t : s.tiles)
    if (t.atom) // the row tiles and the block fold run; the instruction does not
      out.push_back("the " + knob([&](Schedule &one) { one.tiles.push_back(t); }) +
                    " atom's instruction and fragment layouts");
  for (const StageKnob &st : s.stages)
    out.push_back(knob([&](Schedule &one) { one.stages.push_back(st); }));
  if (!s.wspec.empty())
    out.push_back(knob([&](Schedule &one) { one.wspec = s.wspec; }));
  if (s.acc && *s.acc == Accum::F16x)
    out.push_back(knob([&](Schedule &one) { one.acc = s.acc; }));
  if (s.repack && *s.repack == RepackKind::Smem)
    out.push_back(knob([&](Schedule &one) { one.repack = s.repack; }));
  if (s.overlap && overlapsWg(*s.overlap)) // the pv rotation runs; the warpgroup turns do not
    out.push_back(std::string("the warpgroup turns of OVERLAP=") + overlapName(*s.overlap));
  if (s.overlap && *s.overlap == OverlapKind::Early) // a split of a tcgen05 product's issue
    out.push_back("OVERLAP=early");
  for (const ReduceKnob &r : s.reduces) // the count and the last point's combine run; one at a time
    if (r.combine == SplitCombine::Atomic && (r.groups > 1 || r.autoGroups))
      out.push_back("the fences and the CTA's barrier around REDUCE@" + r.axis + "=" +
                    (r.autoGroups ? std::string("gauto") : "g" + std::to_string(r.groups)) +
                    "a's count (the CPU runs the points one after another)");
  return out;
}

} // namespace attncc
