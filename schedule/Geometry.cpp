//===- Geometry.cpp - what a TILE knob means for the loop structure -------===//
#include "schedule/Geometry.h"

#include <algorithm>

namespace attncc {

int64_t reduceBlock(const TileKnob &t) {
  if (t.atom)
    return int64_t(t.wn) * t.fn * t.atom->n;
  return int64_t(t.n) * t.fn;
}

int64_t freeRowsPerCta(const TileKnob &t) {
  if (t.atom && (t.atom->kind == AtomKind::Wgmma || t.atom->kind == AtomKind::Tcgen05))
    return int64_t(t.wm / 4) * t.fm * t.atom->m; // one atom per warpgroup (m64; tcgen05: m128 per CTA)
  if (t.atom)
    return int64_t(t.wm) * t.fm * t.atom->m;
  return int64_t(t.nm) * t.fm;
}

int64_t contractionDepth(const TileKnob &t) {
  return t.atom ? int64_t(t.kSteps) * t.atom->k : 0;
}

int64_t autoSplitCount(int64_t n, int64_t block, int64_t points, int64_t resident) {
  int64_t byLength = (n + std::max(kAutoSplitMinPart, block) - 1) / std::max(kAutoSplitMinPart, block);
  int64_t byGrid = kAutoSplitWaves * resident / std::max<int64_t>(points, 1);
  return std::max<int64_t>(1, std::min({byLength, byGrid, kAutoSplitMaxParts}));
}

} // namespace attncc
