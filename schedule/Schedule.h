//===- Schedule.h - the typed schedule a knob string denotes --------------===//
//
// A knob string ("TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4,STAGE@kv=d2/tma/ring")
// is parsed exactly once, by parseKnobs(), into this frozen value. The MLIR
// dialect wraps it in #monoid.schedule<"..."> and passes read only that.
//
// This library has no MLIR dependency: it is shared by the compiler, the unit
// tests and the fuzzer, and builds on the GPU host.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_SCHEDULE_SCHEDULE_H
#define ATTNCC_SCHEDULE_SCHEDULE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attncc {

/// Tensor-core instruction family of an atom.
enum class AtomKind { MmaSync, Wgmma, Tcgen05 };
enum class ElemType { F16, BF16 };

/// A tensor-core atom: mma_m16n8k16_f16, wgmma_m64n128k16_bf16, tcgen05_m128n256k16_f16.
struct Atom {
  AtomKind kind = AtomKind::MmaSync;
  int m = 16, n = 8, k = 16;
  ElemType elem = ElemType::F16;
  bool operator==(const Atom &o) const {
    return kind == o.kind && m == o.m && n == o.n && k == o.k && elem == o.elem;
  }
};

/// TILE@<axis>=a:<atom>/w<WM>x<WN>/f<FM>x<FN>/k<bk>   (tensor-core form)
/// TILE@<axis>=n<N>[x<M>]/f<fn>[x<fm>]               (scalar form; M, fm default 1)
struct TileKnob {
  std::string axis;
  std::optional<Atom> atom; // set: tensor-core form; unset: scalar form
  int wm = 1, wn = 1;       // warps per CTA (tensor-core form)
  int fm = 1, fn = 1;       // register tiles per warp / per thread
  int kSteps = 1;           // k<bk> (tensor-core form)
  int n = 1, nm = 1;        // scalar form: n<N>x<M> elements per block
  bool hasNm = false;       // whether "x<M>" was written (printing is exact)
  bool hasFm = false;       // scalar form: whether "x<fm>" was written
  bool operator==(const TileKnob &o) const;
};

enum class Transport { Sync, CpAsync, Tma };
enum class SmemLayout { Dense, Pad, Swz128 };

/// STAGE@<axis>=d<depth>/sync|cp|tma[/ring][/pad|/swz128][/p<reg_depth>]
struct StageKnob {
  std::string axis;
  int depth = 1;
  Transport transport = Transport::Sync;
  bool ring = false;
  SmemLayout layout = SmemLayout::Dense; // as written (tma with no token: Dense)
  bool x4 = false;  // B fragments of two n8 tiles per ldmatrix.x4 (mma.sync)
  int regDepth = 0; // 0 = absent
  bool operator==(const StageKnob &o) const;
  /// Whether the blocks sit in the 128-byte swizzle: /swz128, or TMA (the
  /// only TMA layout the passes build, so seed 003's STAGE@kv=d2/tma/ring
  /// means it without the token).
  bool swizzled() const { return layout == SmemLayout::Swz128 || transport == Transport::Tma; }
};

/// How REDUCE@<axis>=g<n>[k|a] merges its partial states: a combine kernel
/// (k) or atomics (a). (mlir::monoid::CombineKind is the other kind of
/// combine: a carrier channel's max or add.)
enum class SplitCombine { None, Kernel, Atomic };

/// REDUCE@<axis>=g<n>[a|k]|gauto/b<n>/r<n>; every token optional, order fixed, at least one.
struct ReduceKnob {
  std::string axis;
  int groups = 0;                         // g<n>; 0 = absent
  bool autoGroups = false;                // gauto: the count is computed from the problem's
                                          // sizes where it runs (attncc-split-reduce); combine kernel
  SplitCombine combine = SplitCombine::None; // suffix after g<n>
  int coopThreads = 0;                    // b<n>; 0 = absent
  int regIlp = 0;                         // r<n>; 0 = absent
  bool operator==(const ReduceKnob &o) const;
};

enum class Place { Auto, Fuse, Cut };
enum class ExpKind { Libm, Ex2, Poly };
enum class Accum { F32, F16x };
/// GRID=tiles|lpt|persistent: one CTA a row tile, launched with the tile axis
/// fastest (tiles) or slowest (lpt: every batch and head's first tile, then
/// every second one, ...; with causal rows the tiles run longest first across
/// the whole grid); persistent: at most the CTAs the device holds at once,
/// each looping over the tiles in lpt's order (attncc-map-to-gpu).
enum class GridKind { Tiles, Lpt, Persistent };
/// OVERLAP=none|pv|wg|pv+wg: pv runs the P*V contraction of block j while the
/// softmax of block j+1 is computed (FlashAttention-3's intra-warpgroup
/// overlap); wg makes the warpgroups of a CTA take turns issuing their matrix
/// products, so one warpgroup's softmax runs under another's products
/// (FlashAttention-3's inter-warpgroup ping-pong).
/// Early: tcgen05's early P*V (seed 000, chapter 13): P*V starts on the first
/// three quarters of P's columns while the last quarter is stored.
enum class OverlapKind { None, Pv, Wg, PvWg, Early };
inline bool overlapsPv(OverlapKind k) { return k == OverlapKind::Pv || k == OverlapKind::PvWg; }
inline bool overlapsWg(OverlapKind k) { return k == OverlapKind::Wg || k == OverlapKind::PvWg; }
inline const char *overlapName(OverlapKind k) {
  return k == OverlapKind::None   ? "none"
         : k == OverlapKind::Pv   ? "pv"
         : k == OverlapKind::Wg   ? "wg"
         : k == OverlapKind::Early ? "early"
                                  : "pv+wg";
}

/// REPACK=regs|smem: how a contraction's left operand that was computed in
/// registers (P = softmax(S), C fragments of the first product) becomes the
/// A operand of the next: repacked in registers (the default), or written to
/// shared memory and read back with ldmatrix (the seed's first kernel; a rung
/// of the ladder, not a tuning choice).
enum class RepackKind { Regs, Smem };
/// HOIST=on|off: loop-invariant reads of read-only inputs (the Q tile) are
/// read once before the fold (the default), or in every iteration (a rung of
/// the ladder).
enum class HoistKind { On, Off };
/// PACK=gqa|none: gqa runs the query heads of one KV group as one map row axis
/// (attncc-pack-gqa): the map (b, h, i) over (B, Hq, Sq) becomes (b, hkv, r)
/// over (B, Hkv, G*Sq) with h = hkv*G + r/Sq and i = r mod Sq, and Q, O and
/// the LSE are read as the [B, Hkv, G*Sq(, D)] arrays they already are in
/// memory, so one tile of rows shares its K and V blocks across the group
/// (FlashAttention-3's PackGQA). none (the default) keeps one row axis a head.
enum class PackKind { None, Gqa };
/// LAUNCH=serial|pdl: how a schedule of several kernels (a split's parts and
/// combine, the cut fold's two maps) is launched. serial (the default): each
/// kernel starts after the one before it has finished. pdl: programmatic
/// dependent launch (sm_90+): every kernel but the last lets its successor be
/// scheduled as soon as all its CTAs have started (griddepcontrol
/// launch_dependents), and every kernel but the first waits, before anything
/// else, until its predecessor has finished and its writes are visible
/// (griddepcontrol wait); the launch gap and the successor's start-up overlap
/// the predecessor's last wave.
enum class LaunchKind { Serial, Pdl };
/// ROWSUM=block|end: where the fold's running row sum (the carrier's d) is
/// summed across the four lanes of a quad that hold a row's columns in the
/// mma.sync and wgmma accumulator layout. block (the default): after every
/// key block, two shuffles a row; end (attncc-defer-rowsum): each lane keeps
/// the sum of its own columns through the fold, and the four are added once
/// after it (FlashAttention-2's way).
enum class RowSumKind { Block, End };

/// One warp-specialization role and its warp count: load1, mma1, softmax2, corr1.
struct WarpRole {
  std::string role; // load | mma | softmax | corr | epilogue
  int warps = 1;
  bool operator==(const WarpRole &o) const { return role == o.role && warps == o.warps; }
};

/// The whole schedule. Families that were not written keep their defaults and
/// are not printed back.
struct Schedule {
  std::vector<TileKnob> tiles;     // at most one per axis
  std::vector<StageKnob> stages;   // at most one per axis
  std::vector<ReduceKnob> reduces; // at most one per axis
  std::optional<Place> place;      // PLACE@fold
  std::vector<WarpRole> wspec;     // WSPEC; empty = absent
  std::optional<ExpKind> exp;
  int expPolyDegree = 0;           // poly<k>
  std::optional<std::string> rescale; // "always" or "lazy<t>" kept as written (t is a number)
  double rescaleThreshold = 0.0;   // lazy<t>
  std::optional<Accum> acc;
  int accSteps = 0;                // f16x<s>: k16 steps summed in fp16 before each promotion; 0 = per contraction
  std::optional<GridKind> grid;
  std::optional<OverlapKind> overlap;
  std::optional<RepackKind> repack;
  std::optional<HoistKind> hoist;
  std::optional<PackKind> pack;
  std::optional<LaunchKind> launch;
  std::optional<RowSumKind> rowsum;

  bool empty() const;
  bool operator==(const Schedule &o) const;

  const TileKnob *tile(const std::string &axis) const;
  const StageKnob *stage(const std::string &axis) const;
  /// Whether an axis other than `foldAxis` is staged (STAGE@q: the Q tile
  /// through shared memory, the A operand of the fold's first contraction).
  bool stagesOtherThan(const std::string &foldAxis) const;
  const ReduceKnob *reduce(const std::string &axis) const;
  /// PLACE@fold, Auto when absent.
  Place placement() const { return place.value_or(Place::Auto); }
};

/// Why a knob string was refused: names the knob (family@axis), the offending
/// value, and what is allowed. `message()` is the one line the user sees.
struct KnobError {
  std::string knob;    // e.g. "TILE@kv" or "knob string"
  std::string value;   // the offending text
  std::string allowed; // what would have been accepted
  std::string message() const;
};

/// Parses a whole knob string. On failure returns nullopt and fills `err`.
/// The empty string is the empty schedule.
std::optional<Schedule> parseKnobs(const std::string &text, KnobError &err);

/// Prints the canonical knob string. For every string parseKnobs accepts,
/// printKnobs(parseKnobs(s)) == s.
std::string printKnobs(const Schedule &s);

/// Hash for MLIR attribute uniquing (stable within a process).
std::size_t hashSchedule(const Schedule &s);

} // namespace attncc

#endif // ATTNCC_SCHEDULE_SCHEDULE_H
