//===- Built.cpp - which knobs the passes act on yet ----------------------===//
#include "compiler/knobs/Built.h"

namespace attncc {

std::optional<KnobError> checkBuilt(const Schedule &s) {
  for (const TileKnob &t : s.tiles)
    if (t.atom && t.atom->kind != AtomKind::MmaSync)
      return KnobError{"TILE@" + t.axis, std::string(t.atom->kind == AtomKind::Wgmma ? "wgmma" : "tcgen05") + " atom",
                       "an mma atom (mma_m16n8k16_f16|bf16); the wgmma and tcgen05 atoms are not "
                       "built yet"};
  bool atom = false;
  for (const TileKnob &t : s.tiles)
    atom = atom || t.atom.has_value();
  for (const StageKnob &st : s.stages) {
    std::string k = "STAGE@" + st.axis;
    if (st.regDepth)
      return KnobError{k, "p" + std::to_string(st.regDepth),
                       "no /p<n> (register prefetch is not built yet)"};
    if (st.transport == Transport::Tma)
      return KnobError{k, "tma", "sync or cp (TMA is not built yet)"};
    if (st.layout == SmemLayout::Swz128)
      return KnobError{k, "swz128", "dense or pad (swizzled layouts are not built yet)"};
    if (!atom)
      return KnobError{k, "STAGE", "a tensor-core TILE (TILE@kv=a:<atom>/...) with it; the scalar "
                                   "rung stages nothing"};
  }
  for (const ReduceKnob &r : s.reduces) {
    if (r.coopThreads)
      return KnobError{"REDUCE@" + r.axis, "b" + std::to_string(r.coopThreads),
                       "no b<n> (cooperative reduction threads are not built yet)"};
    if (r.regIlp)
      return KnobError{"REDUCE@" + r.axis, "r" + std::to_string(r.regIlp),
                       "no r<n> (register ILP of the reduction is not built yet)"};
  }
  if (!s.wspec.empty())
    return KnobError{"WSPEC", "warp roles", "no WSPEC (warp specialization is not built yet)"};
  if (s.exp && *s.exp == ExpKind::Poly)
    return KnobError{"EXP", "poly" + std::to_string(s.expPolyDegree),
                     "libm or ex2 (polynomial exp is not built yet)"};
  if (s.rescale && *s.rescale != "always")
    return KnobError{"RESCALE", *s.rescale, "always (lazy rescaling is not built yet)"};
  if (s.acc && *s.acc == Accum::F16x)
    return KnobError{"ACC", "f16x", "f32 (fp16 accumulation is not built yet)"};
  if (s.grid && *s.grid == GridKind::Persistent)
    return KnobError{"GRID", "persistent", "tiles (persistent CTAs are not built yet)"};
  return std::nullopt;
}

} // namespace attncc
