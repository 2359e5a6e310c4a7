//===- Geometry.h - what a TILE knob means for the loop structure ---------===//
//
// TILE@<axis> names the whole CTA geometry; each pass needs one number of it.
// These are the only definitions of those numbers.
//
//   tensor-core form a:<atom>/w<WM>x<WN>/f<FM>x<FN>/k<bk>:
//     rows of the free (query) axis per CTA   = WM * FM * atom.m
//       (wgmma: a warpgroup of 4 warps issues one m64 atom, so
//        WM/4 * FM * 64 = 16 * WM * FM, as for mma.sync; tcgen05: one
//        thread issues the m128 atom, and the 4 warps of w4 read its four
//        lane quarters of tensor memory, WM/4 * FM * 128)
//     block of the reduced (key) axis         = WN * FN * atom.n
//     contraction depth per k-loop            = bk * atom.k
//   scalar form n<N>[x<M>]/f<fn>[x<fm>]:
//     block of the tiled axis                 = N * fn
//     rows of the free axis per CTA           = M * fm
//
// The seed's `a:mma_m16n8k16_f16/w4x1/f2x8/k4` is 128 query rows, 64-key blocks
// and a 64-deep contraction; `a:wgmma_m64n128k16_f16/w8x1/f1x1/k4` is 128 query
// rows (two warpgroups) and 128-key blocks.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_SCHEDULE_GEOMETRY_H
#define ATTNCC_SCHEDULE_GEOMETRY_H

#include "schedule/Schedule.h"

#include <cstdint>

namespace attncc {

int64_t reduceBlock(const TileKnob &t);
int64_t freeRowsPerCta(const TileKnob &t);
int64_t contractionDepth(const TileKnob &t);

/// REDUCE@<axis>=gauto's split count (attncc-split-reduce builds it in the IR,
/// the decode defaults evaluate it): about kAutoSplitWaves waves of CTAs over
/// `points` (the map's other points, rows counted in row tiles), where
/// `resident` is the number of the split kernel's CTAs the device holds at
/// once (SM count x CTAs an SM, which only the runtime knows: the IR's
/// monoid.resident_ctas), with at least max(kAutoSplitMinPart, block)
/// elements a part, and at most kAutoSplitMaxParts parts:
///   G = max(1, min(ceil(n / max(512, block)), (2 * resident) / points, 64))
/// The constants are the H200's measured decode winners, where the decode
/// CTA (51 KiB of shared memory) fits four an SM and 132 SMs hold 528
/// (kNominalResidentCtas). 2026-12-07
/// (bench/results/2026-12-07-h200-decode-pdl-abab.json): g64 134.1 us at
/// 131072 keys over 8 KV heads against g128 143.5 and g32 134.9 (the
/// combine folds the parts of a row one batch of 8 after another, so 128
/// parts cost it 16 round trips), g16 26.7 us for MQA (8192 keys over 16)
/// against g32 29.5 and g8 37.7, so parts of at least 512 keys; g16 at
/// 32768 keys over 64 (2026-12-03/04) and g2 at 4096 over 512: two waves.
/// Before 2026-12-08 the grid term was ceil(1024 / points), which gives the
/// same counts at those shapes; now it follows the device. On an H100 one
/// wave won by 1.6 % at 32768 and 4096 keys (2026-12-07,
/// docs/design-decode.md); kAutoSplitWaves is that choice.
inline constexpr int64_t kAutoSplitWaves = 2, kAutoSplitMinPart = 512, kAutoSplitMaxParts = 64;
/// The resident CTAs the static decode defaults assume when they pin the
/// rule's count at compile time: 132 SMs x 4 decode CTAs (H100 SXM, H200).
inline constexpr int64_t kNominalResidentCtas = 528;
int64_t autoSplitCount(int64_t n, int64_t block, int64_t points, int64_t resident);

} // namespace attncc

#endif
