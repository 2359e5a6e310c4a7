//===- Targets.cpp - what each GPU target supports, and schedule legality -===//
#include "compiler/Targets.h"
#include "schedule/Geometry.h"

#include "schedule/Built.h"

#include "compiler/frontend/Frontend.h"

#include <algorithm>

namespace attncc {

const std::vector<TargetInfo> &allTargets() {
  static const std::vector<TargetInfo> targets = {
      {"sm_80", 80, false, true, false, false, false, true, 163 * 1024, "Ampere: mma.sync, cp.async"},
      {"sm_90", 90, false, true, false, false, true, true, 227 * 1024,
       "Hopper without arch-specific features: mma.sync, cp.async, TMA"},
      {"sm_90a", 90, true, true, true, false, true, true, 227 * 1024,
       "Hopper (H100/H200): adds wgmma and setmaxnreg"},
      {"sm_100", 100, true, true, false, true, true, true, 227 * 1024,
       "datacenter Blackwell (B200, GB200): compiles as sm_100a", "sm_100a"},
      {"sm_100a", 100, true, true, false, true, true, true, 227 * 1024,
       "datacenter Blackwell (B200): tcgen05 + tensor memory; no wgmma"},
      {"sm_120", 120, false, true, false, false, true, true, 99 * 1024,
       "consumer Blackwell (RTX 50xx): mma.sync (also fp16 accumulate), cp.async, TMA"},
      {"sm_120a", 120, true, true, false, false, true, true, 99 * 1024,
       "consumer Blackwell, arch-specific: no wgmma, no tcgen05"},
  };
  return targets;
}

const TargetInfo *findTarget(const std::string &name) {
  for (const TargetInfo &t : allTargets())
    if (t.name == name)
      return t.compilesAs.empty() ? &t : findTarget(t.compilesAs);
  return nullptr;
}

std::string targetNote(const std::string &name) {
  for (const TargetInfo &t : allTargets())
    if (t.name == name && !t.compilesAs.empty())
      return name + " is datacenter Blackwell: compiling for " + t.compilesAs +
             ", whose tcgen05 and tensor-memory instructions are arch-specific (the kernel runs on "
             "compute capability 10.0 only: B200, GB200; not sm_103 or sm_110)";
  return "";
}

std::string targetNames() {
  std::string s;
  for (const TargetInfo &t : allTargets())
    s += (s.empty() ? "" : ", ") + t.name;
  return s;
}

namespace {

std::string join(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &x : v)
    s += (s.empty() ? "" : ", ") + x;
  return s;
}

const char *atomFamily(AtomKind k) {
  switch (k) {
  case AtomKind::MmaSync: return "mma";
  case AtomKind::Wgmma: return "wgmma";
  case AtomKind::Tcgen05: return "tcgen05";
  }
  return "?";
}

} // namespace

std::optional<KnobError> checkSchedule(const Schedule &s, const Problem &p, const TargetInfo *t,
                                       bool built) {
  const std::string reduceAxis = reduceAxisName(p.kind);
  if (auto e = checkAxes(s, axisNames(p.kind), std::string("this ") + entryName(p.kind) + " problem"))
    return e;
  for (const TileKnob &tile : s.tiles) {
    if (!tile.atom)
      continue;
    const Atom &a = *tile.atom;
    std::string knob = "TILE@" + tile.axis;
    std::string atomName = std::string(atomFamily(a.kind)) + " atom";
    if (p.kind != ProblemKind::Attention)
      return KnobError{knob, atomName,
                       std::string("a scalar tile: a ") + entryName(p.kind) +
                           " has no contraction for a tensor-core atom"};
    ElemType want = p.dtype == DType::BF16 ? ElemType::BF16 : ElemType::F16;
    if (p.dtype == DType::F32 || a.elem != want)
      return KnobError{knob, a.elem == ElemType::F16 ? "f16 atom" : "bf16 atom",
                       std::string("an atom of the problem's dtype ") + dtypeName(p.dtype) +
                           (p.dtype == DType::F32 ? " (f32 problems have no tensor-core atom; use a scalar tile)" : "")};
    // A paged cache: a block of keys is one tile read of one page
    // (attncc-partition), so the block must divide the page.
    if (p.paged() && tile.axis == reduceAxis && p.page_size % reduceBlock(tile) != 0)
      return KnobError{knob, "a block of " + std::to_string(reduceBlock(tile)) + " keys",
                       "a block that divides the page size (--paged " + std::to_string(p.page_size) +
                           "): each block of keys is read from one page"};
    if (a.kind == AtomKind::Wgmma && tile.wm % 4 != 0)
      return KnobError{knob, "w" + std::to_string(tile.wm) + "x" + std::to_string(tile.wn),
                       "a multiple of 4 warps in WM for a wgmma atom (a warpgroup of 4 warps "
                       "issues each m64 atom)"};
    // Q*K from registers (wgmma's RS form: the free axis not staged) gave
    // wrong results on the H200 at N = 128 with head dim 128 in every
    // variant tried (O error 0.26; bench/results/2026-12-07-h200-bisect-
    // wg-nosplit.json), while N = 64 at head dim 128 and N = 128 at head
    // dim 64 pass. The cause is not found (docs/design-tensor-cores.md,
    // "The RS form of Q*K"), so the combination is refused, not run.
    if (a.kind == AtomKind::Wgmma && tile.axis == reduceAxis && a.n * p.head_dim > 64 * 128 &&
        !s.stagesOtherThan(tile.axis))
      return KnobError{knob, "wgmma_m64n" + std::to_string(a.n) + " with Q in registers",
                       "a STAGE of the free axis with it (STAGE@q=d1/cp/swz128) or N <= " +
                           std::to_string(64 * 128 / p.head_dim) + " at head dim " + std::to_string(p.head_dim) +
                           ": Q*K from registers (the RS form) at N x head dim > 64 x 128 gave wrong results "
                           "on the H200 (bench/results/2026-12-07-h200-bisect-wg-nosplit.json), cause not found"};
  }
  for (const ReduceKnob &r : s.reduces) {
    if (r.axis != reduceAxis)
      return KnobError{"REDUCE@" + r.axis, r.axis,
                       "the reduced axis '" + reduceAxis + "' (" + r.axis + " is a free axis)"};
  }
  if (t)
    if (auto e = checkTargetSupport(s, *t))
      return e;
  // PACK=gqa (attncc-pack-gqa) folds the query heads of a KV group into the
  // rows: it needs groups, a known number of rows, and Q-shaped operands only.
  if (s.pack && *s.pack == PackKind::Gqa) {
    if (p.kind != ProblemKind::Attention)
      return KnobError{"PACK", "gqa", std::string("none: a ") + entryName(p.kind) + " problem has no KV heads to share"};
    if (p.heads_q == p.heads_kv)
      return KnobError{"PACK", "gqa", "none for a problem without grouped heads (heads_q = heads_kv = " +
                                          std::to_string(p.heads_q) + ")"};
    if (p.seq_q.symbolic)
      return KnobError{"PACK", "gqa", "none with a symbolic seq_q (the packed rows, heads_q / heads_kv x "
                                      "seq_q, must be a known extent)"};
    if (p.bias)
      return KnobError{"PACK", "gqa", "none with a bias (packed rows with a bias are not built yet)"};
  }
  // Varlen: a sequence's length is read in the map's body, so the moves
  // that need the fold's length before the map (gauto's count, the cut
  // fold's materialized scores) or rows of one shape (PACK=gqa) do not
  // apply yet. A pinned split cuts each sequence's own keys.
  if (p.varlen) {
    for (const ReduceKnob &r : s.reduces)
      if (r.autoGroups && p.paged())
        return KnobError{"REDUCE@" + r.axis, "gauto",
                         "g<n>k with --varlen over a paged cache (gauto's count over varlen sequences comes "
                         "from the mean key length, total_k / batch, which a paged cache does not have)"};
    if (s.place && *s.place == Place::Cut)
      return KnobError{"PLACE@fold", "cut", "fuse with --varlen (the cut fold over a sequence's own length is not "
                                             "built yet)"};
    // A token's G heads are G adjacent rows of D elements: one stride only
    // when each sequence has at most one query row (attncc-pack-gqa).
    if (s.pack && *s.pack == PackKind::Gqa && (p.seq_q.symbolic || p.seq_q.value != 1))
      return KnobError{"PACK", "gqa",
                       "none with --varlen unless seq_q = 1 (packed heads over sequences of several query rows "
                       "are not built yet)"};
  }
  // GRID=persistent: the tile loop over one problem's row tiles; varlen
  // sequences and a paged cache in it are not built yet.
  if (s.grid && *s.grid == GridKind::Persistent && (p.varlen || p.paged()))
    return KnobError{"GRID", "persistent", std::string("tiles or lpt with ") + (p.varlen ? "--varlen" : "--paged") +
                                               " (persistent CTAs over varlen sequences or a paged cache are not "
                                               "built yet)"};
  // LAUNCH=pdl chains kernels: it needs a schedule of several (a split, the
  // cut fold) and griddepcontrol (sm_90 and newer).
  if (s.launch && *s.launch == LaunchKind::Pdl) {
    bool split = std::any_of(s.reduces.begin(), s.reduces.end(), [](const ReduceKnob &r) {
      return (r.autoGroups || r.groups > 1) && r.combine == SplitCombine::Kernel;
    });
    if (!split && !(s.place && *s.place == Place::Cut))
      return KnobError{"LAUNCH", "pdl",
                       "serial for a schedule of one kernel (pdl chains the kernels of a split, "
                       "REDUCE@<axis>=g<n>k or gauto, or of PLACE@fold=cut; g<n>a and gautoa combine in the last CTA, "
                       "one kernel)"};
    if (t && t->sm > 0 && t->sm < 90)
      return KnobError{"LAUNCH", "pdl",
                       "serial on " + t->name + " (programmatic dependent launch, griddepcontrol, needs sm_90 or "
                                                "newer)"};
  }
  if (s.acc && *s.acc == Accum::F16x && p.dtype != DType::F16)
    return KnobError{"ACC", "f16x", std::string("f32 for dtype ") + dtypeName(p.dtype) +
                                        " (fp16 accumulation needs f16 operands)"};
  // The 128-byte swizzle (tma, swz128) permutes the 16-byte chunks of
  // 128-byte rows: a staged row must be whole 128-byte slabs.
  for (const StageKnob &st : s.stages)
    if (st.swizzled() && p.dtype != DType::F32 && (p.head_dim * 2) % 128 != 0)
      return KnobError{"STAGE@" + st.axis, st.transport == Transport::Tma ? "tma" : "swz128",
                       "a head dim of whole 128-byte rows for the 128-byte swizzle (64, 128 or 256 "
                       "with f16/bf16; this problem's is " + std::to_string(p.head_dim) +
                       ")"};
  return built ? checkBuilt(s) : std::nullopt;
}

std::optional<KnobError> checkSchedule(const Schedule &s, const std::vector<std::string> &axes,
                                       const std::string &where, const TargetInfo *t, bool built) {
  if (auto e = checkAxes(s, axes, where))
    return e;
  if (t)
    if (auto e = checkTargetSupport(s, *t))
      return e;
  return built ? checkBuilt(s) : std::nullopt;
}

std::optional<KnobError> checkTargetSupport(const Schedule &s, const TargetInfo &t) {
  for (const TileKnob &tile : s.tiles) {
    if (!tile.atom)
      continue;
    const Atom &a = *tile.atom;
    bool onTarget = (a.kind == AtomKind::MmaSync && t.mmaSync) ||
                    (a.kind == AtomKind::Wgmma && t.wgmma) ||
                    (a.kind == AtomKind::Tcgen05 && t.tcgen05);
    if (!onTarget) {
      std::string have = t.wgmma ? "mma, wgmma" : t.tcgen05 ? "mma, tcgen05" : "mma";
      return KnobError{"TILE@" + tile.axis, std::string(atomFamily(a.kind)) + " atom",
                       "an atom that " + t.name + " has (" + have + ")"};
    }
    // On a GPU P*V contracts over the key block 16 keys at a time (the
    // atoms' k16), so the block, WN * FN * N keys, is whole k16 steps. (The
    // CPU runs the loop IR only, where 8-key blocks keep the check fast.)
    if (int64_t keys = reduceBlock(tile); keys % 16 != 0)
      return KnobError{"TILE@" + tile.axis,
                       "w" + std::to_string(tile.wm) + "x" + std::to_string(tile.wn) + "/f" +
                           std::to_string(tile.fm) + "x" + std::to_string(tile.fn) +
                           " (a key block of WN x FN x N = " + std::to_string(keys) + ")",
                       "a key block that is a multiple of 16 on " + t.name +
                           " (P*V contracts over it 16 keys at a time): raise FN or N"};
  }
  for (const StageKnob &st : s.stages)
    if (st.transport == Transport::Tma && !t.tma)
      return KnobError{"STAGE@" + st.axis, "tma", "sync or cp (" + t.name + " has no TMA)"};
  if (!s.wspec.empty() && !t.wgmma && !t.tcgen05) {
    std::string roles;
    for (const WarpRole &w : s.wspec)
      roles += (roles.empty() ? "" : "/") + w.role + std::to_string(w.warps);
    return KnobError{"WSPEC", roles,
                     "no warp specialization on " + t.name +
                         " (it needs an asynchronous MMA: wgmma on sm_90a or tcgen05 on sm_100a)"};
  }
  return std::nullopt;
}

std::optional<KnobError> checkAxes(const Schedule &s, const std::vector<std::string> &axes,
                                   const std::string &where) {
  auto check = [&](const std::string &family, const std::string &axis) -> std::optional<KnobError> {
    if (std::find(axes.begin(), axes.end(), axis) != axes.end())
      return std::nullopt;
    return KnobError{family + "@" + axis, axis, "an axis of " + where + ": " + join(axes)};
  };
  for (const TileKnob &x : s.tiles)
    if (auto e = check("TILE", x.axis))
      return e;
  for (const StageKnob &x : s.stages)
    if (auto e = check("STAGE", x.axis))
      return e;
  for (const ReduceKnob &x : s.reduces)
    if (auto e = check("REDUCE", x.axis))
      return e;
  return std::nullopt;
}

} // namespace attncc
