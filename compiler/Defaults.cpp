//===- Defaults.cpp - the schedule used when no --knobs is given ----------===//
#include "compiler/Defaults.h"

#include "schedule/Geometry.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace attncc {

namespace {

/// The scalar rung's rows, chosen on the H200 (sm_90a) on 2026-11-30 over
/// bench/tune-scalar.txt and re-timed on 2026-12-01 by scripts/gpu-tc-perf.sh
/// (PERF=bench/tune-scalar.txt, every candidate checked at full size; rows in
/// bench/results/2026-12-01-h200-call3-scalar.json, whose numbers the strings
/// quote). The 2026-11-30 file was typed by hand and is gone.
struct Entry {
  const char *shapeClass;
  const char *knobs;
  const char *measured;
};
const Entry kMeasured[] = {
    {"decode", "REDUCE@kv=g128k",
     "9.8 ms against 217.2 ms unsplit on [8,32/8,1,32768,128] bf16 (g8 32.0, g32 21.5, g512 "
     "13.3 ms)"},
    {"prefill", "",
     "8.24 ms on [1,8,4096,64] f16; TILE@kv=n64/f1 7.11 ms in the same call (not switched "
     "yet: an earlier call had them level), REDUCE g2/g4 8.30/9.12 ms"},
};
const char *kWhere = "H200, 2026-12-01, bench/results/2026-12-01-h200-call3-scalar.json";
/// The decode schedule on tensor cores (issue 16): mma.sync, w<1|2|4>x1/f1x8, K
/// and V by cp.async, PACK=gqa, a split for about 1024 CTAs (defaultSchedule).
const char *kDecodeMeasured =
    "at [8,32/8,1,32768,128] bf16 247.7 us (f1x4, a TMA ring of three, g16; 4.33 TB/s; cuDNN 246.0, flash "
    "245.3), at [1,32/8,1,131072,128] 134.1 us with g64 (cuDNN 129.6, flash 146.9), MQA [16,32/1,1,8192,128] "
    "26.7 us with w2 and g16 (cuDNN 30.1, flash 31.8) (H200, 2026-12-07, "
    "bench/results/2026-12-07-h200-decode-pdl-abab.json); at [64,32/8,1,4096,128] 250.6 us with g2 (cuDNN "
    "245.8, flash 408.5), Sq = 4 causal 259.6 us, Sq = 16 causal (w4, f1x8, a ring of two) 314.5 us (cuDNN "
    "774.5 and 771.5 non-causal) (H200, 2026-12-04, bench/results/2026-12-04-h200-decode7-abab.json; "
    "PyTorch in the same call each time)";
/// The varlen decode row with PACK=gqa and a pinned split, beside the same
/// shapes dense (bench/varlen-decode-call.sh).
const char *kVarlenDecodeMeasured =
    " (H200, 2026-12-05, every sequence full: 254.0 us at [8,32/8,1,32768,128], 98 % of the 4.3 TB/s copy "
    "bandwidth, cuDNN's dense kernel 247.6; 252.7 us at [64,32/8,1,4096,128], cuDNN 246.2; MQA "
    "[16,32/1,1,8192,128] 32.1 us, cuDNN 27.9; ragged lengths 77-89 % at the GQA shapes; "
    "bench/results/2026-12-05-h200-varlen-decode.json)";

/// mma.sync prefill schedules (every tensor-core target), measured on the
/// H200 by scripts/gpu-tc-perf.sh: candidates over bench/perf-tc.txt (run 3,
/// bench/results/2026-11-30-h200-tc-run3.json), then with and without the
/// ldmatrix.x4 peephole over bench/perf-x4.txt (2026-11-30-h200-x4-run2.json);
/// flash = PyTorch's flash backend in the same device call. Head dims up to 64 share the d64 rows,
/// 96 and 128 the d128 rows.
struct TcEntry {
  int maxHeadDim;
  bool causal;
  bool grouped; // GQA/MQA (a grouped problem without its own row takes the MHA row)
  const char *tile; // the atom's shape, then w/f/k
  const char *rest;
  const char *measured;
  // On targets with TMA (sm_90, sm_120), for head dims of whole 128-byte
  // rows: what replaces `rest`, and its measurement (null: `rest` there too).
  const char *tmaRest = nullptr;
  const char *tmaMeasured = nullptr;
  // Where `measured` was measured (null: the table's own source).
  const char *where = nullptr;
  // GRID=lpt (the row tiles launch tile-major, so causal tiles run longest
  // first across the grid) when the grid has at most this many CTAs, known at
  // compile time; kLptAlways: whatever the grid.
  long lptUpTo = 0;
};
constexpr long kLptAlways = -1;
/// GRID=lpt against GRID=tiles on causal shapes, 3 alternating rounds in one
/// call (bench/perf-lpt.txt): mma.sync 1.32-1.41x faster on grids of 256-1024
/// CTAs and level (+-1 %) on 8192 (also two d128 shapes in an earlier call); wgmma 1.23x
/// on 256 CTAs and 1.04x on 512, but 0.87x on 4096 (0.82-0.89x on the d128
/// rows' 4096 in an earlier call). Tile-major order spreads one head's tiles
/// over the whole grid; with many waves that seems to cost wgmma more in L2
/// reuse of K and V than the balance gains (a guess, not profiled).
#define LPT_MMA "; GRID=lpt: 1.32-1.41x on grids of 256-1024 CTAs, level on 8192 (H200, 2026-12-03, " \
                "bench/results/2026-12-03-h200-lpt-abab.json and -sm120-lpt-abab.json)"
#define LPT_WG "; GRID=lpt when the grid has at most 512 CTAs: 64.8 against 79.7 us on " \
               "[1,8,4096,64] f16 causal (256 CTAs), 168.4 against 175.2 us on [1,16,4096,128] bf16 " \
               "causal (512), but 921.8 against 796.9 us on [4,32/8,4096,64] bf16 causal (4096) " \
               "(medians of 3 rounds; H200, 2026-12-03, bench/results/2026-12-03-h200-lpt-abab.json)"
#define QRING "STAGE@kv=d2/cp/ring/pad,STAGE@q=d1/cp/pad,EXP=ex2"
#define QRINGX4 "STAGE@kv=d2/cp/ring/pad/x4,STAGE@q=d1/cp/pad,EXP=ex2"
// d128: O's rescale skipped by a warp vote while no row's maximum moved by more than
// 8 (attncc-skip-rescale); measured at d128 only (d64: within noise, so not there).
const char *kSm120Variants = "H200, 2026-12-03, bench/results/2026-12-03-h200-sm120-variants-abab.json: "
                             "the mean of 2 rounds, PyTorch in the same call";
#define QRINGX4L QRINGX4 ",RESCALE=lazy8"
// The same shape after O times 1/d, C fragments stored in pairs and the whole-block ring clamp
// (ninth session), in one call with the kernels of the commit before (3ae79a7).
#define EPILOGUE_120(m) "; since 2026-12-04's epilogue and ring changes " m \
                        " (H200, bench/results/2026-12-04-h200-epilogue-abab.json, the mean of 2 rounds)"
const TcEntry kTensorCore[] = {
    {64, false, false, "m16n8k16/w4x1/f2x8/k4", QRINGX4,
     "142.8 us on [1,8,4096,64] f16, flash 126.0 us (s6 run 3; 143.6 us in x4 run 2); without "
     "x4 145.1 us (x4 run 2)" EPILOGUE_120("120.2 us, flash 124.6 us (1.04x); 127.9 us before")},
    {64, true, false, "m16n8k16/w8x1/f1x16/k4", QRING,
     "135.1 us on [1,8,4096,64] f16 causal, flash 122.3 us (s6 run 3; 150.1 us before the mask "
     "split); with x4 153.0 us (x4 run 2)" LPT_MMA,
     "STAGE@kv=d2/tma/ring,STAGE@q=d1/cp/pad,EXP=ex2",
     "K and V by TMA: 124.3 us on [1,8,4096,64] f16 causal with ACC=f16x, flash 118.3 us; the same "
     "with STAGE@kv=d2/cp/ring/pad 132.6 us (tma-mma perf, the sm_120 schedule compiled for sm_90a, "
     "H200, 2026-12-02, bench/results/2026-12-02-h200-tma-mma-perf.json)" LPT_MMA,
     nullptr, kLptAlways},
    {128, false, false, "m16n8k16/w4x1/f2x4/k4", QRINGX4L,
     "3381 us on [8,16,4096,128] bf16, flash 3192 us (0.94x); without RESCALE=lazy8 3537 us, "
     "with main 474cc75's fold copies 3924 us (variants D, B, A)"
     EPILOGUE_120("3342 us, flash 3209 us (0.96x); 3427 us before"),
     nullptr, nullptr, kSm120Variants},
    {128, true, false, "m16n8k16/w4x1/f2x4/k4", QRINGX4L,
     "3654 us on [4,16,8192,128] bf16 causal, flash 3329 us (0.91x); without RESCALE=lazy8 "
     "3925 us, with main 474cc75's fold copies 4063 us (variants D, B, A)" LPT_MMA
     EPILOGUE_120("3349 us, flash 3377 us (1.01x); 3568 us before"),
     nullptr, nullptr, kSm120Variants, kLptAlways},
    {128, true, true, "m16n8k16/w4x1/f2x4/k4", QRINGX4L,
     "1964 us on [4,32/8,4096,128] bf16 causal, flash 1683 us (0.86x); without RESCALE=lazy8 "
     "2021 us, with main 474cc75's fold copies 2207 us (variants D, B, A)" LPT_MMA
     EPILOGUE_120("1714 us, flash 1695 us (0.99x); 1941 us before"),
     nullptr, nullptr, kSm120Variants, kLptAlways},
};
#undef EPILOGUE_120
#undef QRINGX4L
#undef QRINGX4
#undef QRING

/// What ACC=f16x adds to the sm_120 f16 rows up to d64 (defaultSchedule).
const char *kF16xMeasured = "; ACC=f16x: P*V on the fp16-accumulate atom, twice the rate on sm_120 (seed 001), "
                            "not timed there; on the H200 143.0 us against 142.8 us with ACC=f32, and it passes "
                            "the sweep wherever ACC=f32 does (H200, 2026-12-02, "
                            "bench/results/2026-12-02-h200-f16x-run2.json)";

/// wgmma prefill schedules (sm_90a only: wgmma is an arch-specific
/// instruction), measured on the H200 by scripts/gpu-tc-perf.sh with K and V
/// staged by TMA through an mbarrier pipeline: candidates over
/// bench/perf-tma.txt, perf-tune2.txt and perf-tune3.txt
/// (bench/results/2026-11-30-h200-tma-run{1,2,3}.json), then with producer
/// warps over bench/perf-wspec.txt and perf-x4.txt (-wspec-run1.json,
/// -x4-run2.json), then with attncc-split-mask (-splitmask-run3.json), and
/// re-timed with 32-bit mask indices (session 6: -s6-run2.json, whose rows
/// the strings quote), and the d64 causal rows re-chosen in -s6-run6.json
/// (the mask split made one producer warp and a ring of 2 faster there);
/// flash = PyTorch's flash backend in the same device call. A ring of 3 lets the
/// producer refill the buffer freed an iteration earlier. The swizzled blocks
/// need rows of whole 128 bytes: head dims 64 and 128.
#define T2W1 "STAGE@kv=d2/tma/ring/swz128,STAGE@q=d1/cp/swz128,WSPEC=load1,EXP=ex2"
#define T3WG "STAGE@kv=d3/tma/ring/swz128,STAGE@q=d1/cp/swz128,WSPEC=load4,EXP=ex2,OVERLAP=pv+wg"
const TcEntry kWgmma[] = {
    {64, false, false, "m64n128k16/w8x1/f1x1/k4", T2W1,
     "93.2 us on [1,8,4096,64] f16, flash 124.4 us (1.33x; s6 run 2); without the producer "
     "warp 107.2 us, a producer warpgroup (load4) 98.7 us (wspec run 1)"},
    {64, true, false, "m64n128k16/w8x1/f1x1/k4", T2W1,
     "76.0 us on [1,8,4096,64] f16 causal against 82.2 us for the previous default (d3, load4, "
     "OVERLAP=pv+wg) in the same call (s6 run 6, no PyTorch in that call; that default ran 82.9 us, "
     "flash 118.7 us, in s6 run 2)" LPT_WG,
     nullptr, nullptr, nullptr, 512},
    {64, true, true, "m64n128k16/w8x1/f1x1/k4", T2W1,
     "779.6 us on [4,32/8,4096,64] bf16 causal against 837.0 us for the MHA row's previous "
     "schedule (d3, load4, OVERLAP=pv+wg), 923.6 us with load1 and OVERLAP=pv, 860.2 us with "
     "load4 and OVERLAP=wg, 1041.9 us with m64n64 (s6 run 6, no PyTorch in that call)" LPT_WG,
     nullptr, nullptr, nullptr, 512},
    {128, false, false, "m64n128k16/w8x1/f1x1/k4", T3WG,
     "1839 us on [8,16,4096,128] bf16, flash 3170 us (1.72x; s6 run 2); without producers or "
     "overlap 2051 us, load4 with OVERLAP=wg 2063 us (x4 run 2)"},
    {128, true, false, "m64n128k16/w8x1/f1x1/k4", T3WG,
     "1112 us on [8,16,4096,128] bf16 causal, flash 1738 us (1.56x; s6 run 2; 1322 us before "
     "the mask split); without the producer warpgroup and overlap 1391 us (wspec run 1)" LPT_WG,
     nullptr, nullptr, nullptr, 512},
    {128, true, true, "m64n128k16/w8x1/f1x1/k4", T3WG,
     "1117 us on [4,32/8,4096,128] bf16 causal, flash 1760 us (1.58x; s6 run 2; 1323 us before "
     "the mask split); without the producer warpgroup and overlap 1400 us (wspec run 1)" LPT_WG,
     nullptr, nullptr, nullptr, 512},
};
#undef T2W1
#undef T3WG
#undef LPT_MMA
#undef LPT_WG
/// tcgen05 prefill schedules (sm_100a only), for head dims 64 and 128:
/// seed 000's structure as far as it is built (FlashAttention-4's kernel 5
/// with its roles: two Q tiles per CTA, each with its own warpgroup and
/// tensor-memory columns, a TMA warp, an mma warp; S/P/O in tensor memory,
/// hardware ex2). NOT TIMED: no B200 has run them; the choice follows the
/// seed's B200 measurements (chapter 5, two Q tiles: 26.5 % -> 40.5 % of
/// peak), not ours. Checked on the H200 under --emulate (the tcgen05
/// instructions emulated, compiled for sm_90a). Until 2026-12-04 the rows
/// were rung T3 (one Q tile, one issuing thread, no roles).
#define T5 "STAGE@kv=d2/tma/ring/swz128,STAGE@q=d1/cp/swz128,WSPEC=load1/mma1/softmax8,EXP=ex2"
#define T5NOTE "not timed: no B200 has run it; checked on the H200 under --emulate (bench/sweep-tcgen05-rungs.txt, " \
               "rung T5 of bench/ladder-tcgen05.txt)"
const TcEntry kTcgen05[] = {
    {64, false, false, "m128n64k16/w8x1/f1x1/k4", T5, T5NOTE},
    {64, true, false, "m128n64k16/w8x1/f1x1/k4", T5, T5NOTE},
    {128, false, false, "m128n64k16/w8x1/f1x1/k4", T5, T5NOTE},
    {128, true, false, "m128n64k16/w8x1/f1x1/k4", T5, T5NOTE},
    {64, false, true, "m128n64k16/w8x1/f1x1/k4", T5, T5NOTE},
    {64, true, true, "m128n64k16/w8x1/f1x1/k4", T5, T5NOTE},
    {128, false, true, "m128n64k16/w8x1/f1x1/k4", T5, T5NOTE},
    {128, true, true, "m128n64k16/w8x1/f1x1/k4", T5, T5NOTE},
};
#undef T5
#undef T5NOTE
const char *kWgmmaWhere = "H200, 2026-11-30, bench/results/2026-11-30-h200-s6-run2.json and "
                          "-s6-run6.json; the alternatives in -x4-run2.json, -wspec-run1.json and "
                          "-splitmask-run3.json";
const char *kTcWhere = "H200, 2026-11-30, bench/results/2026-11-30-h200-s6-run3.json and "
                       "-x4-run2.json; earlier rows in 2026-11-30-h200-tc-final.json";

/// The canonical spelling of a default assembled from a row and its
/// additions (ACC, GRID), which printKnobs orders by family.
std::string canonical(const std::string &knobs) {
  KnobError err;
  std::optional<Schedule> s = parseKnobs(knobs, err);
  return s ? printKnobs(*s) : knobs;
}

} // namespace

std::string shapeClass(const Problem &p) {
  if (p.kind != ProblemKind::Attention)
    return kindName(p.kind);
  // Few query rows against a long (or unknown) key length: the grid of one
  // thread a row is starved and only splitting the keys gives it work.
  bool fewRows = !p.seq_q.symbolic && p.seq_q.value <= 16;
  bool longKeys = p.seq_k.symbolic || p.seq_k.value >= 1024;
  return fewRows && longKeys ? "decode" : "prefill";
}

namespace {
DefaultSchedule tableDefault(const Problem &p, const TargetInfo &t);

/// The key block of a knob string's tensor-core TILE on kv (0: none).
int64_t keyBlock(const std::string &knobs) {
  KnobError err;
  std::optional<Schedule> s = parseKnobs(knobs, err);
  const TileKnob *tile = s ? s->tile("kv") : nullptr;
  return tile && tile->atom ? reduceBlock(*tile) : 0;
}
} // namespace

DefaultSchedule defaultSchedule(const Problem &p, const TargetInfo &t) {
  DefaultSchedule d = tableDefault(p, t);
  int64_t block = keyBlock(d.knobs);
  if (!p.paged() || !block || p.page_size % block == 0)
    return d;
  // A paged cache reads each block of keys from one page (checkSchedule):
  // pages smaller than the table's block take the mma.sync row (its atom is
  // 8 keys wide) with fewer register tiles along the keys (f1x<fn>, the
  // largest whose block divides the page). Not measured. Pages of no
  // multiple of 16 keys take the plain streaming fold.
  TargetInfo mmaOnly = t;
  mmaOnly.wgmma = mmaOnly.tcgen05 = false;
  DefaultSchedule m = t.wgmma || t.tcgen05 ? tableDefault(p, mmaOnly) : d;
  KnobError err;
  std::optional<Schedule> s = parseKnobs(m.knobs, err);
  TileKnob *tile = nullptr;
  if (s)
    for (TileKnob &k : s->tiles)
      if (k.axis == "kv" && k.atom && k.atom->kind == AtomKind::MmaSync)
        tile = &k;
  std::string why = "; fitted to pages of " + std::to_string(p.page_size) + " keys (the block " +
                    std::to_string(block) + " of the table's row does not divide the page; not measured)";
  // (The block is also P*V's depth: a multiple of the atom's k.)
  if (tile)
    for (int fn = tile->fn; fn >= 1; --fn)
      if (int64_t b = int64_t(tile->atom->n) * fn * tile->wn; p.page_size % b == 0 && b % tile->atom->k == 0) {
        tile->fn = fn;
        return {printKnobs(*s), m.reason + why};
      }
  return {"", "default for a paged cache of " + std::to_string(p.page_size) +
                  "-key pages: the plain streaming fold (no tensor-core block divides the page)"};
}

namespace {
DefaultSchedule tableDefault(const Problem &p, const TargetInfo &t) {
  std::string cls = shapeClass(p);
  bool lowp = p.dtype == DType::F16 || p.dtype == DType::BF16;
  bool grouped = p.heads_kv != p.heads_q;
  // The first row of a table whose head dim covers the problem's, for its
  // mask and grouping: "TILE@kv=a:<family>_<shape>_<elem>/<w/f/k>,<rest>".
  // A grouped problem without a measured grouped row takes the MHA row, and
  // says so.
  struct Pick {
    std::string knobs, measured;
    int maxHeadDim;
    const char *where; // the entry's source, or null
    bool lpt;          // add GRID=lpt
  };
  // Whether a row's GRID=lpt applies: always, or when the grid's CTA count
  // (batch x query heads x row tiles) is known and at most the row's bound.
  auto lptFits = [&](const TcEntry &e, const std::string &knobs) {
    if (e.lptUpTo == kLptAlways)
      return true;
    if (e.lptUpTo <= 0 || p.batch.symbolic || p.seq_q.symbolic)
      return false;
    KnobError err;
    std::optional<Schedule> s = parseKnobs(knobs, err);
    const TileKnob *tile = s ? s->tile("kv") : nullptr;
    if (!tile)
      return false;
    int64_t rows = freeRowsPerCta(*tile);
    int64_t ctas = p.batch.value * p.heads_q * ((p.seq_q.value + rows - 1) / rows);
    return ctas <= e.lptUpTo;
  };
  auto pick = [&](const auto &table, const char *family) -> std::optional<Pick> {
    // The head-dim class: the smallest that covers the problem's.
    int dimClass = 0;
    for (const TcEntry &e : table)
      if (p.head_dim <= e.maxHeadDim && (!dimClass || e.maxHeadDim < dimClass))
        dimClass = e.maxHeadDim;
    for (bool g : {grouped, false}) {
      for (const TcEntry &e : table) {
        if (e.maxHeadDim != dimClass || e.causal != p.causal || e.grouped != g)
          continue;
        std::string tile(e.tile);
        size_t slash = tile.find('/');
        // TMA's 128-byte swizzle takes rows of whole 128-byte slabs.
        bool tma = t.tma && e.tmaRest && p.head_dim % 64 == 0;
        std::string knobs = std::string("TILE@kv=a:") + family + "_" + tile.substr(0, slash) + "_" +
                            (p.dtype == DType::F16 ? "f16" : "bf16") + tile.substr(slash) + "," +
                            (tma ? e.tmaRest : e.rest);
        std::string measured = g == grouped ? std::string(tma ? e.tmaMeasured : e.measured)
                                            : std::string("not measured with GQA; the MHA ") +
                                                  (p.causal ? "causal " : "") + "d" +
                                                  std::to_string(e.maxHeadDim) + " row";
        return Pick{knobs, measured, e.maxHeadDim, e.where, lptFits(e, knobs)};
      }
      if (!grouped)
        break;
    }
    return std::nullopt;
  };
  auto reason = [&](const Pick &e, const std::string &what) {
    return "default for " + cls + " d" + std::to_string(e.maxHeadDim) + (p.causal ? " causal" : "") +
           (grouped ? " grouped" : "") + " on " + t.name + what;
  };
  // sm_90a: the wgmma rows, for head dims 64 and 128 (swizzled rows are
  // whole 128-byte slabs).
  if (cls == "prefill" && t.wgmma && lowp && (p.head_dim == 64 || p.head_dim == 128))
    if (auto r = pick(kWgmma, "wgmma"))
      return {canonical(r->knobs + (r->lpt ? ",GRID=lpt" : "")),
              reason(*r, " (wgmma): " + r->measured + " (" + kWgmmaWhere + ")")};
  // sm_100a: the tcgen05 rows, for head dims 64 and 128.
  if (cls == "prefill" && t.tcgen05 && lowp && (p.head_dim == 64 || p.head_dim == 128))
    if (auto r = pick(kTcgen05, "tcgen05"))
      return {r->knobs, reason(*r, " (tcgen05): " + r->measured)};
  // Elsewhere, prefill on a GPU with mma.sync: the tensor-core rungs, for
  // f16/bf16 and head dims that are multiples of 16 up to 128.
  if (cls == "prefill" && t.sm > 0 && t.mmaSync && lowp && p.head_dim % 16 == 0 && p.head_dim <= 128)
    if (auto r = pick(kTensorCore, "mma")) {
      const char *source = r->where ? r->where : kTcWhere;
      std::string where = t.sm == 90 ? std::string(source)
                                     : std::string("not measured on ") + t.name +
                                           " (runs there with the same mma.sync); the sm_90a "
                                           "measurement: " + source;
      // On plain sm_90 a Hopper user is one letter away from wgmma.
      bool wgmmaRow = t.sm == 90 && !t.wgmma && (p.head_dim == 64 || p.head_dim == 128);
      // sm_120 with f16, head dims up to 64: P*V on the fp16-accumulate
      // atom (ACC=f16x), which consumer Blackwell issues at twice the rate
      // (seed 001). It passes the sweep wherever ACC=f32 does (H200,
      // 2026-12-02). Not the d128 rows: there the half2 partials push the
      // kernel to 255 registers and spills (ptxas, sm_120a and sm_90).
      bool f16x = t.sm == 120 && p.dtype == DType::F16 && r->maxHeadDim <= 64;
      std::string knobs = canonical(r->knobs + (f16x ? ",ACC=f16x" : "") + (r->lpt ? ",GRID=lpt" : ""));
      return {knobs, reason(*r, ": " + r->measured + " (" + where + ")" +
                                  (wgmmaRow ? "; --target sm_90a has a faster wgmma default" : "") +
                                  (f16x ? std::string(kF16xMeasured) : std::string()))};
    }
  // Decode on a GPU with mma.sync: a split on the mma.sync atom with the
  // query heads of a KV group packed into the rows (issue 16).
  if (cls == "decode" && t.sm > 0 && t.mmaSync && lowp && p.head_dim % 16 == 0 && p.head_dim <= 128) {
    // PACK=gqa needs groups and a known query length; the tile's rows (16 a
    // warp, up to 4 warps) cover the packed rows of one KV head.
    // (A varlen batch: PACK=gqa with one query row a sequence only.)
    bool pack = grouped && !p.seq_q.symbolic && (!p.varlen || p.seq_q.value == 1);
    int64_t rows = (pack ? p.group() : 1) * (p.seq_q.symbolic ? 16 : p.seq_q.value);
    int64_t warps = std::min<int64_t>(4, (rows + 15) / 16);
    int64_t tiles = (rows + 16 * warps - 1) / (16 * warps);
    // The parts: REDUCE@kv=gauto's rule (schedule/Geometry.h, two waves of
    // CTAs with at least 512 keys each), evaluated here for 528 resident
    // CTAs (132 SMs x 4: the H100 and H200) and pinned; a symbolic key
    // length or batch takes gauto itself, which computes the count where the
    // kernel runs, from the device's resident CTAs (swept on the H200,
    // bench/sweep-gauto.txt, 2026-12-03, before the device entered). The
    // measured winners: at 32768 keys over 64 KV heads the rule's g16 (259.0
    // us by TMA; g32 270.1), g128 at 131072 over 8 (g256 259 against 193.5
    // us), g64 at 8192 over 16; at 4096 over 512, g4 before g8 (g2, the
    // rule's, not timed).
    // A varlen batch pins the rule's count for its longest sequence; with a
    // symbolic length or batch it takes gauto, whose count over varlen
    // sequences comes from the mean key length (total_k / batch), except
    // over a paged cache (no total_k): no split.
    bool pinned = !p.seq_k.symbolic && !p.batch.symbolic;
    bool gauto = !pinned && !(p.varlen && p.paged());
    std::string reduce = gauto ? std::string("REDUCE@kv=gauto,") : std::string();
    if (pinned) {
      int64_t heads = p.batch.value * (pack ? p.heads_kv : p.heads_q) * tiles;
      int64_t parts = autoSplitCount(p.seq_k.value, /*block (f1x8)=*/64, heads, kNominalResidentCtas);
      reduce = parts > 1 ? "REDUCE@kv=g" + std::to_string(parts) + "k," : std::string();
    }
    // K and V by TMA where rows are whole 128-byte slabs (bench/sweep-pack-tma.txt
    // passed, 2026-12-03: 259.0 against 296.7 us by cp.async at the shape).
    bool tma = t.tma && p.head_dim % 64 == 0;
    // With K and V by TMA and one or two warps, 32-key blocks in a ring of
    // three (f1x4, d3): 2 % faster at [8,32/8,1,32768], [1,32/8,1,131072],
    // [64,32/8,1,4096] and Sq = 4, 20 % on MQA (with the 256-key parts of
    // autoSplitCount); with four warps (Sq = 16) 9 % slower, so f1x8, d2
    // (H200, 2026-12-04, bench/results/2026-12-04-h200-decode7-abab.json).
    bool short32 = tma && warps <= 2;
    const char *stage = !tma ? "d2/cp/ring/pad" : short32 ? "d3/tma/ring" : "d2/tma/ring";
    std::string knobs = std::string("TILE@kv=a:mma_m16n8k16_") + (p.dtype == DType::F16 ? "f16" : "bf16") + "/w" +
                        std::to_string(warps) + "x1/f1x" + (short32 ? "4" : "8") + "/k4,STAGE@kv=" + stage + "," +
                        reduce + "EXP=ex2" +
                        (pack ? ",PACK=gqa" : "");
    if (p.varlen) {
      std::string split = gauto            ? "its split count computed where it runs from the mean key length (gauto)"
                          : reduce.empty() ? (pinned ? "without a split" : "without a split (gauto over a paged cache is not built)")
                                           : "its split count pinned for the longest sequence";
      // Measured: the packed row with a pinned split, on sm_90.
      bool measured = pack && pinned && !reduce.empty() && t.sm == 90;
      return {knobs, "default for a varlen decode batch on " + t.name + ": the decode row" +
                         (pack || !grouped ? ", " : " without PACK=gqa (seq_q > 1), ") + split +
                         (measured ? kVarlenDecodeMeasured : " (not measured)")};
    }
    return {knobs, "default for decode on " + t.name + ": " + kDecodeMeasured +
                       (t.sm == 90 ? std::string() : std::string(" (not measured on ") + t.name +
                                                         "; it runs the same mma.sync there)")};
  }
  for (const Entry &e : kMeasured) {
    if (cls != e.shapeClass)
      continue;
    std::string where = t.sm == 90 ? std::string(kWhere)
                                   : std::string("not measured on ") + t.name +
                                         "; the sm_90a measurement: " + kWhere;
    return {e.knobs, "default for " + cls + " on " + t.name + ": " + e.measured + " (" + where + ")"};
  }
  return {"", "default for " + cls + ": the plain streaming fold (no measurement for this class)"};
}
} // namespace

} // namespace attncc
