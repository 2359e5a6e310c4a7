//===- KnobCodec.cpp - parse and print knob strings -----------------------===//
//
// The one place a knob string is read. parseKnobs() splits the string into
// comma-separated items FAMILY[@axis]=value, checks the family and its axis,
// splits the value into '/'-separated tokens and hands them to one parser per
// family. Every refusal is a KnobError naming the knob (TILE@kv), the offending
// token exactly as written, and what is allowed; nothing here throws.
//
// Printing is canonical: families in the order TILE, STAGE, REDUCE, PLACE,
// WSPEC, EXP, RESCALE, ACC, GRID, OVERLAP, REPACK, HOIST, PACK, LAUNCH, ROWSUM, and within a family in the order
// written.
// Every token prints back exactly as written (integers have no leading zeros,
// optional parts are remembered, lazy<t> keeps its spelling), so for a string
// already in canonical family order printKnobs(parseKnobs(s)) == s. A string
// written in another family order ("STAGE@kv=d2/tma,TILE@kv=...") is accepted
// too and prints in canonical order.
//
// Accepted atoms (k is always 16, element type f16 or bf16):
//   mma_m16n8k16_{f16,bf16}                         (sm_80+)
//   wgmma_m64n<N>k16_{f16,bf16}, N in 8..256 step 8  (sm_90a)
//   tcgen05_m128n<N>k16_{f16,bf16}, N in 16..256 step 16 (sm_100a)
//   tcgen05_m64n<N>k16_{f16,bf16}, N in 8..256 step 8    (sm_100a)
//
// Errors read "knob <knob>: '<value>' is not allowed; expected <allowed>"
// (structural ones: "knob string: ..."). Choices worth knowing: REDUCE g1
// takes no a|k suffix (g<n>, n > 1, requires one), so combine != None exactly
// when groups > 1; WSPEC roles keep the written order; lazy<t> is
// <digits>[.<digits>] with no leading zero in the integer part.
//
//===----------------------------------------------------------------------===//
#include "schedule/Schedule.h"

#include <algorithm>
#include <functional>
#include <string_view>

namespace attncc {
namespace {

//===--- Limits -----------------------------------------------------------===//

constexpr int kMaxWarpsPerCta = 16;   // TILE w<WM>x<WN>: WM*WN
constexpr int kMaxRegTiles = 16;      // TILE f<FM>x<FN>: each of FM, FN
constexpr int kMaxKSteps = 16;        // TILE k<bk>
constexpr int kMaxScalarBlock = 1024; // TILE n<N>x<M>: each of N, M
constexpr int kMaxScalarPerThread = 64; // TILE f<fn>x<fm>: each of fn, fm
constexpr int kMaxStageDepth = 8;     // STAGE d<depth>
constexpr int kMaxRegDepth = 4;       // STAGE p<reg_depth>
constexpr int kMaxGroups = 4096;      // REDUCE g<n>
constexpr int kCoopThreads[] = {1, 2, 4, 8, 16, 32}; // REDUCE b<n>
constexpr int kMaxRegIlp = 16;        // REDUCE r<n>
constexpr int kMaxRoleWarps = 16;     // WSPEC <role><n>
constexpr int kMaxPolyDegree = 8;     // EXP poly<k>
constexpr int kAtomK = 16;            // every atom is k16

const char *const kRoles[] = {"load", "mma", "softmax", "corr", "epilogue"};

//===--- Grammar texts used in errors ----------------------------------===//

std::string num(long long v) { return std::to_string(v); }

// Functions rather than globals, so a static initializer elsewhere may parse.
std::string familyList() {
  return "a family among TILE, STAGE, REDUCE, PLACE, WSPEC, EXP, RESCALE, ACC, GRID, OVERLAP, REPACK, HOIST, PACK, "
         "LAUNCH, ROWSUM";
}
std::string tileTensorGrammar() { return "a:<atom>/w<WM>x<WN>/f<FM>x<FN>/k<bk>"; }
std::string tileScalarGrammar() { return "n<N>[x<M>]/f<fn>[x<fm>]"; }
std::string tileGrammar() { return tileTensorGrammar() + " or " + tileScalarGrammar(); }
std::string stageGrammar() { return "d<depth>/sync|cp|tma[/ring][/pad|/swz128][/x4][/p<reg_depth>]"; }
std::string reduceGrammar() { return "g<n>[a|k]/b<n>/r<n> (each optional, at least one, in this order)"; }
std::string wspecGrammar() {
  return "<role><n>/... with role one of load, mma, softmax, corr, epilogue (each at most once) and n in 1.." +
         num(kMaxRoleWarps);
}

std::string atomsAllowed() {
  std::string s = "one of mma_m16n8k16_{f16,bf16}, wgmma_m64n<8..256 step 8>k16_{f16,bf16}, "
                  "tcgen05_m128n<16..256 step 16>k16_{f16,bf16}, tcgen05_m64n<8..256 step 8>k16_{f16,bf16}";
  return s;
}

//===--- Small helpers ---------------------------------------------------===//

bool fail(KnobError &err, std::string knob, std::string_view value, std::string allowed) {
  err = KnobError{std::move(knob), std::string(value), std::move(allowed)};
  return false;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos)
      return parts;
    start = at + 1;
  }
}

/// A decimal integer in [lo, hi]: digits only, no sign, no leading zeros.
bool intIn(std::string_view s, int lo, int hi, int &out) {
  if (s.empty() || s.size() > 9 || (s.size() > 1 && s[0] == '0'))
    return false;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    v = v * 10 + (c - '0');
  }
  if (v < lo || v > hi)
    return false;
  out = static_cast<int>(v);
  return true;
}

/// "<a>x<b>" (or "<a>" when the second part is optional), each in [lo, hi].
bool pairIn(std::string_view s, int lo, int hi, bool secondRequired, int &a, int &b, bool &hasB) {
  size_t x = s.find('x');
  hasB = x != std::string_view::npos;
  if (!hasB)
    return !secondRequired && intIn(s, lo, hi, a);
  return intIn(s.substr(0, x), lo, hi, a) && intIn(s.substr(x + 1), lo, hi, b);
}

bool isAxisName(std::string_view s) {
  if (s.empty() || s[0] < 'a' || s[0] > 'z')
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

/// One item of the knob string, already split: KNOB=value with KNOB = FAMILY[@axis].
struct Item {
  std::string family, axis, knob;
  std::string_view value;
  std::vector<std::string_view> toks; // value split at '/'
};

//===--- Atoms ------------------------------------------------------------===//

const char *atomPrefix(AtomKind k) {
  switch (k) {
  case AtomKind::MmaSync: return "mma";
  case AtomKind::Wgmma: return "wgmma";
  case AtomKind::Tcgen05: return "tcgen05";
  }
  return "?";
}

std::string atomName(const Atom &a) {
  return std::string(atomPrefix(a.kind)) + "_m" + num(a.m) + "n" + num(a.n) + "k" + num(a.k) +
         (a.elem == ElemType::F16 ? "_f16" : "_bf16");
}

/// <kind>_m<M>n<N>k<K>_<elem>, restricted to the shapes each instruction has.
bool parseAtom(std::string_view s, Atom &a) {
  size_t us = s.find('_');
  if (us == std::string_view::npos)
    return false;
  std::string_view kind = s.substr(0, us), rest = s.substr(us + 1);
  if (kind == "mma") a.kind = AtomKind::MmaSync;
  else if (kind == "wgmma") a.kind = AtomKind::Wgmma;
  else if (kind == "tcgen05") a.kind = AtomKind::Tcgen05;
  else return false;
  size_t n = rest.find('n'), k = rest.find('k'), us2 = rest.find('_');
  if (rest.empty() || rest[0] != 'm' || n == std::string_view::npos || k == std::string_view::npos ||
      us2 == std::string_view::npos || !(n < k && k < us2))
    return false;
  if (!intIn(rest.substr(1, n - 1), 1, 1024, a.m) || !intIn(rest.substr(n + 1, k - n - 1), 1, 1024, a.n) ||
      !intIn(rest.substr(k + 1, us2 - k - 1), 1, 1024, a.k))
    return false;
  std::string_view elem = rest.substr(us2 + 1);
  if (elem == "f16") a.elem = ElemType::F16;
  else if (elem == "bf16") a.elem = ElemType::BF16;
  else return false;
  if (a.k != kAtomK)
    return false;
  auto nIn = [&](int lo, int step) { return a.n >= lo && a.n <= 256 && a.n % step == 0; };
  switch (a.kind) {
  case AtomKind::MmaSync: return a.m == 16 && a.n == 8;
  case AtomKind::Wgmma: return a.m == 64 && nIn(8, 8);
  case AtomKind::Tcgen05: return (a.m == 128 && nIn(16, 16)) || (a.m == 64 && nIn(8, 8));
  }
  return false;
}

//===--- One parser per family -------------------------------------------===//

bool parseTile(const Item &it, TileKnob &t, KnobError &err) {
  const auto &toks = it.toks;
  t.axis = it.axis;
  auto extra = [&](size_t i, const std::string &form) {
    return fail(err, it.knob, toks[i], "nothing after the last token; the form is exactly " + form);
  };
  if (startsWith(toks[0], "a:")) { // tensor-core form
    const std::string wAllowed = "w<WM>x<WN> with WM, WN >= 1 and WM*WN <= " + num(kMaxWarpsPerCta) +
                                 " (at most " + num(kMaxWarpsPerCta) + " warps per CTA)";
    const std::string fAllowed = "f<FM>x<FN> with FM, FN in 1.." + num(kMaxRegTiles);
    const std::string kAllowed = "k<bk> with bk in 1.." + num(kMaxKSteps);
    Atom a;
    if (!parseAtom(toks[0].substr(2), a))
      return fail(err, it.knob, toks[0], "a:<atom> with <atom> " + atomsAllowed());
    t.atom = a;
    const char *names[] = {"w<WM>x<WN>", "f<FM>x<FN>", "k<bk>"};
    for (size_t i = 1; i < 4; ++i)
      if (i >= toks.size())
        return fail(err, it.knob, it.value,
                    tileTensorGrammar() + " (all four tokens; " + names[i - 1] + " is missing)");
    bool has = false;
    if (toks[1][0] != 'w' || !pairIn(toks[1].substr(1), 1, kMaxWarpsPerCta, true, t.wm, t.wn, has) ||
        t.wm * t.wn > kMaxWarpsPerCta)
      return fail(err, it.knob, toks[1], wAllowed + " as the second token");
    if (toks[2][0] != 'f' || !pairIn(toks[2].substr(1), 1, kMaxRegTiles, true, t.fm, t.fn, has))
      return fail(err, it.knob, toks[2], fAllowed + " as the third token");
    if (toks[3][0] != 'k' || !intIn(toks[3].substr(1), 1, kMaxKSteps, t.kSteps))
      return fail(err, it.knob, toks[3], kAllowed + " as the fourth token");
    return toks.size() == 4 || extra(4, tileTensorGrammar());
  }
  if (toks[0][0] == 'n') { // scalar form
    const std::string nAllowed = "n<N>[x<M>] with N, M in 1.." + num(kMaxScalarBlock);
    const std::string fAllowed = "f<fn>[x<fm>] with fn, fm in 1.." + num(kMaxScalarPerThread);
    if (!pairIn(toks[0].substr(1), 1, kMaxScalarBlock, false, t.n, t.nm, t.hasNm))
      return fail(err, it.knob, toks[0], nAllowed);
    if (toks.size() < 2)
      return fail(err, it.knob, it.value, tileScalarGrammar() + " (f<fn> is missing)");
    if (toks[1][0] != 'f' || !pairIn(toks[1].substr(1), 1, kMaxScalarPerThread, false, t.fn, t.fm, t.hasFm))
      return fail(err, it.knob, toks[1], fAllowed + " as the second token");
    return toks.size() == 2 || extra(2, tileScalarGrammar());
  }
  return fail(err, it.knob, toks[0], "a:<atom> or n<N> as the first token; the forms are " + tileGrammar());
}

bool parseStage(const Item &it, StageKnob &st, KnobError &err) {
  const auto &toks = it.toks;
  st.axis = it.axis;
  if (toks[0][0] != 'd' || !intIn(toks[0].substr(1), 1, kMaxStageDepth, st.depth))
    return fail(err, it.knob, toks[0], "d<depth> with depth in 1.." + num(kMaxStageDepth) + " as the first token");
  if (toks.size() < 2)
    return fail(err, it.knob, it.value, stageGrammar() + " (the transport sync, cp or tma is missing)");
  if (toks[1] == "sync") st.transport = Transport::Sync;
  else if (toks[1] == "cp") st.transport = Transport::CpAsync;
  else if (toks[1] == "tma") st.transport = Transport::Tma;
  else return fail(err, it.knob, toks[1], "sync, cp or tma as the second token");

  size_t i = 2;
  if (i < toks.size() && toks[i] == "ring")
    st.ring = true, ++i;
  if (i < toks.size() && (toks[i] == "pad" || toks[i] == "swz128"))
    st.layout = toks[i] == "pad" ? SmemLayout::Pad : SmemLayout::Swz128, ++i;
  if (i < toks.size() && toks[i] == "x4")
    st.x4 = true, ++i;
  if (i < toks.size() && toks[i][0] == 'p' && toks[i] != "pad") {
    if (!intIn(toks[i].substr(1), 1, kMaxRegDepth, st.regDepth))
      return fail(err, it.knob, toks[i], "p<reg_depth> with reg_depth in 1.." + num(kMaxRegDepth));
    ++i;
  }
  if (i < toks.size()) {
    std::string_view t = toks[i];
    bool known = t == "ring" || t == "pad" || t == "swz128" || t == "x4" || t == "sync" || t == "cp" ||
                 t == "tma" || t[0] == 'p' || t[0] == 'd';
    return fail(err, it.knob, t,
                known ? "tokens in the order " + stageGrammar() + ", each at most once"
                      : "ring, pad, swz128, x4 or p<reg_depth> after the transport, as in " + stageGrammar());
  }
  if (st.ring && st.depth < 2)
    return fail(err, it.knob, "ring", "ring only with depth >= 2 (a ring needs at least two stages; got d" +
                                          num(st.depth) + ")");
  if (st.layout == SmemLayout::Swz128 && st.transport == Transport::Sync)
    return fail(err, it.knob, "swz128", "swz128 only with cp or tma (with sync use pad)");
  if (st.layout == SmemLayout::Pad && st.transport == Transport::Tma)
    return fail(err, it.knob, "pad",
                "swz128 or no layout token with tma (TMA writes dense boxes; pad is for sync or cp)");
  if (st.x4 && (st.transport == Transport::Tma || st.layout == SmemLayout::Swz128))
    return fail(err, it.knob, "x4",
                "x4 only with sync or cp and a dense or padded block (ldmatrix feeds mma.sync; wgmma "
                "reads swizzled blocks through descriptors)");
  return true;
}

bool parseReduce(const Item &it, ReduceKnob &r, KnobError &err) {
  const auto &toks = it.toks;
  r.axis = it.axis;
  size_t i = 0;
  if (i < toks.size() && (toks[i] == "gauto" || toks[i] == "gautok" || toks[i] == "gautoa")) {
    r.autoGroups = true;
    r.combine = toks[i] == "gautoa" ? SplitCombine::Atomic : SplitCombine::Kernel;
    ++i;
  } else if (i < toks.size() && toks[i][0] == 'g') {
    std::string_view tok = toks[i], body = tok.substr(1);
    char last = body.empty() ? 0 : body.back();
    if (last == 'a' || last == 'k')
      body.remove_suffix(1);
    if (!intIn(body, 1, kMaxGroups, r.groups))
      return fail(err, it.knob, tok, "g<n>[a|k] with n in 1.." + num(kMaxGroups) + ", or gauto[a|k]");
    r.combine = last == 'a' ? SplitCombine::Atomic : last == 'k' ? SplitCombine::Kernel : SplitCombine::None;
    if (r.groups > 1 && r.combine == SplitCombine::None)
      return fail(err, it.knob, tok, "g" + num(r.groups) + "a or g" + num(r.groups) +
                                          "k (more than one group must combine by atomics a or a combine kernel k)");
    if (r.groups == 1 && r.combine != SplitCombine::None)
      return fail(err, it.knob, tok, "g1 without a or k (one group has nothing to combine)");
    ++i;
  }
  if (i < toks.size() && toks[i][0] == 'b') {
    bool ok = intIn(toks[i].substr(1), 1, 32, r.coopThreads) &&
              std::find(std::begin(kCoopThreads), std::end(kCoopThreads), r.coopThreads) != std::end(kCoopThreads);
    if (!ok)
      return fail(err, it.knob, toks[i], "b<n> with n one of 1, 2, 4, 8, 16, 32 (cooperative threads)");
    ++i;
  }
  if (i < toks.size() && toks[i][0] == 'r') {
    if (!intIn(toks[i].substr(1), 1, kMaxRegIlp, r.regIlp))
      return fail(err, it.knob, toks[i], "r<n> with n in 1.." + num(kMaxRegIlp));
    ++i;
  }
  if (i < toks.size()) {
    char c = toks[i][0];
    return fail(err, it.knob, toks[i],
                c == 'g' || c == 'b' || c == 'r' ? "tokens in the order g<n>[a|k]/b<n>/r<n>, each at most once"
                                                 : "g<n>[a|k], b<n> or r<n> as in " + reduceGrammar());
  }
  return true;
}

bool parseWspec(const Item &it, std::vector<WarpRole> &roles, KnobError &err) {
  for (std::string_view tok : it.toks) {
    size_t digits = tok.find_first_of("0123456789");
    std::string_view name = tok.substr(0, digits);
    WarpRole wr;
    wr.role = std::string(name);
    bool known = std::find(std::begin(kRoles), std::end(kRoles), name) != std::end(kRoles);
    if (!known || digits == std::string_view::npos || !intIn(tok.substr(digits), 1, kMaxRoleWarps, wr.warps))
      return fail(err, it.knob, tok, wspecGrammar());
    for (const WarpRole &seen : roles)
      if (seen.role == wr.role)
        return fail(err, it.knob, tok, "each role at most once (" + wr.role + " was given twice)");
    roles.push_back(wr);
  }
  return true;
}

bool parseExp(const Item &it, Schedule &s, KnobError &err) {
  std::string_view v = it.value;
  if (v == "libm") s.exp = ExpKind::Libm;
  else if (v == "ex2") s.exp = ExpKind::Ex2;
  else if (startsWith(v, "poly") && intIn(v.substr(4), 1, kMaxPolyDegree, s.expPolyDegree)) s.exp = ExpKind::Poly;
  else return fail(err, it.knob, v, "libm, ex2 or poly<k> with k in 1.." + num(kMaxPolyDegree));
  return true;
}

/// lazy<t>: t = <int>[.<digits>], the integer part without leading zeros.
bool parseRescale(const Item &it, Schedule &s, KnobError &err) {
  std::string_view v = it.value;
  if (v == "always") {
    s.rescale = "always";
    return true;
  }
  std::string_view t = startsWith(v, "lazy") ? v.substr(4) : std::string_view();
  size_t dot = t.find('.');
  std::string_view ip = t.substr(0, dot), fp = dot == std::string_view::npos ? "" : t.substr(dot + 1);
  auto allDigits = [](std::string_view d) {
    return !d.empty() && d.size() <= 9 && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!allDigits(ip) || (ip.size() > 1 && ip[0] == '0') || (dot != std::string_view::npos && !allDigits(fp)))
    return fail(err, it.knob, v, "always or lazy<t> with t a non-negative decimal number such as 8, 8.0 or 0.5");
  double value = 0, scale = 1;
  for (char c : ip) value = value * 10 + (c - '0');
  for (char c : fp) value += (c - '0') * (scale /= 10);
  s.rescale = std::string(v);
  s.rescaleThreshold = value;
  return true;
}

/// One item "FAMILY[@axis]=value": checks the family, its axis, repeats, and dispatches.
bool parseItem(std::string_view text, Schedule &s, std::vector<std::string> &seen, KnobError &err) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos)
    return fail(err, "knob string", text, "FAMILY[@axis]=value (this item has no '=')");
  std::string_view head = text.substr(0, eq);
  size_t at = head.find('@');
  bool hasAxis = at != std::string_view::npos;
  Item it;
  it.family = std::string(head.substr(0, at));
  it.axis = hasAxis ? std::string(head.substr(at + 1)) : "";
  it.value = text.substr(eq + 1);

  const char *families[] = {"TILE", "STAGE", "REDUCE", "PLACE", "WSPEC", "EXP",
                            "RESCALE", "ACC", "GRID", "OVERLAP", "REPACK", "HOIST", "PACK", "LAUNCH", "ROWSUM"};
  if (std::find(std::begin(families), std::end(families), it.family) == std::end(families))
    return fail(err, "knob string", it.family.empty() ? head : std::string_view(it.family), familyList());
  bool axisFamily = it.family == "TILE" || it.family == "STAGE" || it.family == "REDUCE";
  if (axisFamily && !hasAxis)
    return fail(err, it.family, head, it.family + "@<axis> (this family needs an axis, e.g. " + it.family + "@kv)");
  if (axisFamily && !isAxisName(it.axis))
    return fail(err, it.family, head, it.family + "@<axis> with an axis name matching [a-z][a-z0-9_]*");
  if (it.family == "PLACE" && (!hasAxis || it.axis != "fold"))
    return fail(err, it.family, head, "PLACE@fold (fold is the only PLACE axis)");
  if (!axisFamily && it.family != "PLACE" && hasAxis)
    return fail(err, it.family, head, it.family + " without an axis");
  it.knob = hasAxis ? it.family + "@" + it.axis : it.family;

  if (std::find(seen.begin(), seen.end(), it.knob) != seen.end())
    return fail(err, it.knob, it.value, it.knob + " at most once (it was given twice)");
  seen.push_back(it.knob);

  const std::string &f = it.family;
  if (f == "TILE" || f == "STAGE" || f == "REDUCE" || f == "WSPEC") {
    std::string grammar = f == "TILE"     ? tileGrammar()
                          : f == "STAGE"  ? stageGrammar()
                          : f == "REDUCE" ? reduceGrammar()
                                          : wspecGrammar();
    it.toks = split(it.value, '/');
    for (std::string_view tok : it.toks)
      if (tok.empty())
        return fail(err, it.knob, it.value, grammar + (it.value.empty() ? "" : " (no empty '/' tokens)"));
    if (f == "TILE") return parseTile(it, s.tiles.emplace_back(), err);
    if (f == "STAGE") return parseStage(it, s.stages.emplace_back(), err);
    if (f == "REDUCE") return parseReduce(it, s.reduces.emplace_back(), err);
    return parseWspec(it, s.wspec, err);
  }
  std::string_view v = it.value;
  if (f == "PLACE") {
    if (v == "auto") s.place = Place::Auto;
    else if (v == "fuse") s.place = Place::Fuse;
    else if (v == "cut") s.place = Place::Cut;
    else return fail(err, it.knob, v, "auto, fuse or cut");
    return true;
  }
  if (f == "EXP") return parseExp(it, s, err);
  if (f == "RESCALE") return parseRescale(it, s, err);
  if (f == "ACC") {
    // f16x<s>: s k16 steps (1..16) of fp16 accumulation per promotion into
    // fp32; bare f16x: one promotion per contraction.
    if (v == "f32") s.acc = Accum::F32;
    else if (v == "f16x") s.acc = Accum::F16x;
    else if (v.substr(0, 4) == "f16x" && intIn(v.substr(4), 1, 16, s.accSteps)) s.acc = Accum::F16x;
    else return fail(err, it.knob, v, "f32, f16x or f16x<s> (s k16 steps per promotion, 1 to 16)");
    return true;
  }
  if (f == "OVERLAP") {
    if (v == "none") s.overlap = OverlapKind::None;
    else if (v == "pv") s.overlap = OverlapKind::Pv;
    else if (v == "wg") s.overlap = OverlapKind::Wg;
    else if (v == "pv+wg") s.overlap = OverlapKind::PvWg;
    else if (v == "early") s.overlap = OverlapKind::Early;
    else return fail(err, it.knob, v, "none, pv, wg, pv+wg or early");
    return true;
  }
  if (f == "REPACK") {
    if (v == "regs") s.repack = RepackKind::Regs;
    else if (v == "smem") s.repack = RepackKind::Smem;
    else return fail(err, it.knob, v, "regs or smem");
    return true;
  }
  if (f == "HOIST") {
    if (v == "on") s.hoist = HoistKind::On;
    else if (v == "off") s.hoist = HoistKind::Off;
    else return fail(err, it.knob, v, "on or off");
    return true;
  }
  if (f == "PACK") {
    if (v == "none") s.pack = PackKind::None;
    else if (v == "gqa") s.pack = PackKind::Gqa;
    else return fail(err, it.knob, v, "none or gqa");
    return true;
  }
  if (f == "ROWSUM") {
    if (v == "block") s.rowsum = RowSumKind::Block;
    else if (v == "end") s.rowsum = RowSumKind::End;
    else return fail(err, it.knob, v, "block or end");
    return true;
  }
  if (f == "LAUNCH") {
    if (v == "serial") s.launch = LaunchKind::Serial;
    else if (v == "pdl") s.launch = LaunchKind::Pdl;
    else return fail(err, it.knob, v, "serial or pdl");
    return true;
  }
  // GRID
  if (v == "tiles") s.grid = GridKind::Tiles;
  else if (v == "lpt") s.grid = GridKind::Lpt;
  else if (v == "persistent") s.grid = GridKind::Persistent;
  else return fail(err, it.knob, v, "tiles, lpt or persistent");
  return true;
}

} // namespace

//===--- Public API -------------------------------------------------------===//

/// knob <knob>: '<value>' is not allowed; expected <allowed>
/// (for structural problems the knob is "knob string", printed once, not "knob knob string").
std::string KnobError::message() const {
  std::string where = knob == "knob string" ? knob : "knob " + knob;
  return where + ": '" + value + "' is not allowed; expected " + allowed;
}

std::optional<Schedule> parseKnobs(const std::string &text, KnobError &err) {
  Schedule s;
  if (text.empty())
    return s;
  std::vector<std::string_view> items = split(text, ',');
  std::vector<std::string> seen;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string_view item = items[i];
    if (item.empty()) {
      const char *where = i == 0 ? " (leading comma)" : i + 1 == items.size() ? " (trailing comma)" : "";
      fail(err, "knob string", i == 0 || i + 1 == items.size() ? "," : ",,",
           std::string("FAMILY[@axis]=value items separated by single commas") + where);
      return std::nullopt;
    }
    for (char c : item)
      if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) {
        fail(err, "knob string", item, "no spaces or control characters anywhere in a knob string");
        return std::nullopt;
      }
    if (!parseItem(item, s, seen, err))
      return std::nullopt;
  }
  return s;
}

std::string printKnobs(const Schedule &s) {
  std::vector<std::string> out;
  for (const TileKnob &t : s.tiles) {
    std::string v;
    if (t.atom)
      v = "a:" + atomName(*t.atom) + "/w" + num(t.wm) + "x" + num(t.wn) + "/f" + num(t.fm) + "x" + num(t.fn) +
          "/k" + num(t.kSteps);
    else
      v = "n" + num(t.n) + (t.hasNm || t.nm != 1 ? "x" + num(t.nm) : "") + "/f" + num(t.fn) +
          (t.hasFm || t.fm != 1 ? "x" + num(t.fm) : "");
    out.push_back("TILE@" + t.axis + "=" + v);
  }
  for (const StageKnob &st : s.stages) {
    const char *tr = st.transport == Transport::Sync ? "sync" : st.transport == Transport::CpAsync ? "cp" : "tma";
    std::string v = "d" + num(st.depth) + "/" + tr;
    if (st.ring) v += "/ring";
    if (st.layout == SmemLayout::Pad) v += "/pad";
    if (st.layout == SmemLayout::Swz128) v += "/swz128";
    if (st.x4) v += "/x4";
    if (st.regDepth > 0) v += "/p" + num(st.regDepth);
    out.push_back("STAGE@" + st.axis + "=" + v);
  }
  for (const ReduceKnob &r : s.reduces) {
    std::vector<std::string> toks;
    if (r.autoGroups) // gauto is gautok
      toks.push_back(r.combine == SplitCombine::Atomic ? "gautoa" : "gauto");
    else if (r.groups > 0)
      toks.push_back("g" + num(r.groups) +
                     (r.combine == SplitCombine::Atomic ? "a" : r.combine == SplitCombine::Kernel ? "k" : ""));
    if (r.coopThreads > 0) toks.push_back("b" + num(r.coopThreads));
    if (r.regIlp > 0) toks.push_back("r" + num(r.regIlp));
    std::string v;
    for (const std::string &t : toks) v += (v.empty() ? "" : "/") + t;
    out.push_back("REDUCE@" + r.axis + "=" + v);
  }
  if (s.place)
    out.push_back(std::string("PLACE@fold=") +
                  (*s.place == Place::Auto ? "auto" : *s.place == Place::Fuse ? "fuse" : "cut"));
  if (!s.wspec.empty()) {
    std::string v;
    for (const WarpRole &w : s.wspec) v += (v.empty() ? "" : "/") + w.role + num(w.warps);
    out.push_back("WSPEC=" + v);
  }
  if (s.exp)
    out.push_back("EXP=" + (*s.exp == ExpKind::Libm ? std::string("libm")
                            : *s.exp == ExpKind::Ex2 ? std::string("ex2")
                                                     : "poly" + num(s.expPolyDegree)));
  if (s.rescale) out.push_back("RESCALE=" + *s.rescale);
  if (s.acc)
    out.push_back(std::string("ACC=") +
                  (*s.acc == Accum::F32 ? "f32" : "f16x" + (s.accSteps ? std::to_string(s.accSteps) : std::string())));
  if (s.grid)
    out.push_back(std::string("GRID=") +
                  (*s.grid == GridKind::Tiles ? "tiles" : *s.grid == GridKind::Lpt ? "lpt" : "persistent"));
  if (s.overlap) out.push_back(std::string("OVERLAP=") + overlapName(*s.overlap));
  if (s.repack) out.push_back(std::string("REPACK=") + (*s.repack == RepackKind::Regs ? "regs" : "smem"));
  if (s.hoist) out.push_back(std::string("HOIST=") + (*s.hoist == HoistKind::On ? "on" : "off"));
  if (s.pack) out.push_back(std::string("PACK=") + (*s.pack == PackKind::Gqa ? "gqa" : "none"));
  if (s.launch) out.push_back(std::string("LAUNCH=") + (*s.launch == LaunchKind::Pdl ? "pdl" : "serial"));
  if (s.rowsum) out.push_back(std::string("ROWSUM=") + (*s.rowsum == RowSumKind::End ? "end" : "block"));
  std::string text;
  for (const std::string &o : out) text += (text.empty() ? "" : ",") + o;
  return text;
}

/// Equal schedules print the same string, so hashing the print agrees with ==.
std::size_t hashSchedule(const Schedule &s) { return std::hash<std::string>{}(printKnobs(s)); }

bool TileKnob::operator==(const TileKnob &o) const {
  return axis == o.axis && atom == o.atom && wm == o.wm && wn == o.wn && fm == o.fm && fn == o.fn &&
         kSteps == o.kSteps && n == o.n && nm == o.nm && hasNm == o.hasNm && hasFm == o.hasFm;
}

bool StageKnob::operator==(const StageKnob &o) const {
  return axis == o.axis && depth == o.depth && transport == o.transport && ring == o.ring && layout == o.layout &&
         x4 == o.x4 && regDepth == o.regDepth;
}

bool ReduceKnob::operator==(const ReduceKnob &o) const {
  return axis == o.axis && groups == o.groups && autoGroups == o.autoGroups && combine == o.combine &&
         coopThreads == o.coopThreads &&
         regIlp == o.regIlp;
}

bool Schedule::empty() const {
  return tiles.empty() && stages.empty() && reduces.empty() && !place && wspec.empty() && !exp && !rescale &&
         !acc && !grid && !overlap && !repack && !hoist && !pack && !launch && !rowsum;
}

/// Order-sensitive within a family (TILE@a,TILE@b differs from TILE@b,TILE@a),
/// matching printKnobs, which keeps the written order.
bool Schedule::operator==(const Schedule &o) const {
  return tiles == o.tiles && stages == o.stages && reduces == o.reduces && place == o.place && wspec == o.wspec &&
         exp == o.exp && expPolyDegree == o.expPolyDegree && rescale == o.rescale &&
         rescaleThreshold == o.rescaleThreshold && acc == o.acc && accSteps == o.accSteps && grid == o.grid && overlap == o.overlap &&
         repack == o.repack && hoist == o.hoist && pack == o.pack && launch == o.launch &&
         rowsum == o.rowsum;
}

template <typename K> static const K *findAxis(const std::vector<K> &v, const std::string &axis) {
  for (const K &k : v)
    if (k.axis == axis)
      return &k;
  return nullptr;
}

const TileKnob *Schedule::tile(const std::string &axis) const { return findAxis(tiles, axis); }
const StageKnob *Schedule::stage(const std::string &axis) const { return findAxis(stages, axis); }
const ReduceKnob *Schedule::reduce(const std::string &axis) const { return findAxis(reduces, axis); }
bool Schedule::stagesOtherThan(const std::string &foldAxis) const {
  return std::any_of(stages.begin(), stages.end(), [&](const StageKnob &st) { return st.axis != foldAxis; });
}

} // namespace attncc
