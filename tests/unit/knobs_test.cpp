//===- knobs_test.cpp - the knob codec: round trips, errors, fuzz --------===//
#include "schedule/Geometry.h"
#include "schedule/Schedule.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using namespace attncc;

namespace {

std::optional<Schedule> parse(const std::string &s) {
  KnobError err;
  return parseKnobs(s, err);
}

/// Families in canonical print order; -1 for anything else.
int familyRank(const std::string &item) {
  static const char *order[] = {"TILE", "STAGE",   "REDUCE", "PLACE", "WSPEC",  "EXP",
                                "RESCALE", "ACC", "GRID", "OVERLAP", "REPACK", "HOIST", "PACK", "LAUNCH", "ROWSUM"};
  std::string fam = item.substr(0, item.find_first_of("@="));
  for (int i = 0; i < 15; ++i)
    if (fam == order[i])
      return i;
  return -1;
}

bool inCanonicalFamilyOrder(const std::string &s) {
  int last = -1;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    int r = familyRank(item);
    if (r < last)
      return false;
    last = r;
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return true;
}

const std::vector<std::string> kValid = {
    // The seed's pinned winner.
    "TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4,STAGE@kv=d2/tma/ring",
    "TILE@kv=a:mma_m16n8k16_bf16/w1x1/f1x1/k1",
    "TILE@kv=a:wgmma_m64n8k16_f16/w4x1/f1x1/k1",
    "TILE@kv=a:wgmma_m64n256k16_bf16/w4x4/f16x16/k16",
    "TILE@kv=a:tcgen05_m128n16k16_f16/w1x1/f1x1/k1",
    "TILE@kv=a:tcgen05_m128n256k16_bf16/w2x8/f2x2/k4",
    "TILE@kv=a:tcgen05_m64n8k16_f16/w4x1/f1x1/k1",
    "TILE@kv=a:tcgen05_m64n256k16_bf16/w4x1/f1x2/k8",
    // Scalar tiles, with and without the optional parts.
    "TILE@q=n64/f4",
    "TILE@q=n64x2/f4",
    "TILE@q=n64/f4x2",
    "TILE@q=n1024x1024/f64x64",
    "TILE@q=n1x1/f1x1",
    // Every STAGE shape.
    "STAGE@kv=d1/sync",
    "STAGE@kv=d1/cp",
    "STAGE@kv=d1/cp/pad",
    "STAGE@kv=d2/cp/ring",
    "STAGE@kv=d8/cp/ring/pad/p4",
    "STAGE@kv=d2/cp/ring/pad/x4",
    "STAGE@kv=d1/sync/x4/p1",
    "STAGE@kv=d3/tma/ring/swz128/p2",
    "STAGE@kv=d1/tma/swz128",
    "STAGE@kv=d2/sync/p1",
    // REDUCE: every subset of tokens.
    "REDUCE@k=g4k",
    "REDUCE@kv=g4096a",
    "REDUCE@kv=g1",
    "REDUCE@kv=b32",
    "REDUCE@kv=r16",
    "REDUCE@kv=g2k/b4",
    "REDUCE@kv=g3a/r2",
    "REDUCE@kv=b8/r4",
    "REDUCE@kv=g16k/b1/r1",
    // Single-valued families.
    "PLACE@fold=cut",
    "PLACE@fold=fuse",
    "PLACE@fold=auto",
    "WSPEC=load1/mma1/softmax2/corr1",
    "WSPEC=epilogue16",
    "WSPEC=corr4/load1",
    "EXP=libm",
    "EXP=ex2",
    "EXP=poly3",
    "RESCALE=always",
    "RESCALE=lazy8",
    "RESCALE=lazy8.0",
    "RESCALE=lazy0.5",
    "RESCALE=lazy0",
    "ACC=f32",
    "ACC=f16x",
    "ACC=f16x1",
    "ACC=f16x4",
    "ACC=f16x16",
    "GRID=tiles",
    "GRID=persistent",
    "OVERLAP=none",
    "OVERLAP=pv",
    "OVERLAP=wg",
    "OVERLAP=pv+wg",
    "OVERLAP=early",
    // Multi-axis and everything at once, in canonical order.
    "TILE@dd=n64/f4,TILE@pj=n32x2/f2",
    "TILE@pj=n32/f1,TILE@dd=n64/f4",
    "TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4,TILE@q_1=n8/f1,STAGE@kv=d2/cp/ring/pad/p2,STAGE@q_1=d1/sync,"
    "REDUCE@kv=g4k/b2/r2,REDUCE@q_1=r1",
    "TILE@kv=a:tcgen05_m128n128k16_bf16/w4x1/f2x1/k4,STAGE@kv=d3/tma/ring/swz128,REDUCE@kv=g1/b1,"
    "PLACE@fold=fuse,WSPEC=load1/mma1/softmax2/corr1/epilogue1,EXP=poly3,RESCALE=lazy8.0,ACC=f16x,"
    "GRID=persistent,OVERLAP=pv",
    "REPACK=regs",
    "REPACK=smem",
    "HOIST=on",
    "HOIST=off",
    "TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,REPACK=smem,HOIST=off",
    "PACK=gqa",
    "PACK=none",
    "REDUCE@kv=gauto",
    "REDUCE@kv=gauto/b2",
    "TILE@kv=a:mma_m16n8k16_bf16/w1x1/f1x8/k4,STAGE@kv=d2/cp/ring/pad,REDUCE@kv=g32k,EXP=ex2,PACK=gqa",
    "LAUNCH=serial",
    "ROWSUM=end",
    "ROWSUM=block",
    "TILE@kv=a:mma_m16n8k16_bf16/w4x1/f2x4/k4,STAGE@kv=d2/cp/ring/pad/x4,STAGE@q=d1/cp/pad,EXP=ex2,RESCALE=lazy8,"
    "ROWSUM=end",
    "LAUNCH=pdl",
    "TILE@kv=a:mma_m16n8k16_bf16/w1x1/f1x4/k4,STAGE@kv=d3/tma/ring,REDUCE@kv=g16k,EXP=ex2,PACK=gqa,LAUNCH=pdl",
};

} // namespace

TEST_CASE("knobs: empty string is the empty schedule", "[knobs]") {
  auto s = parse("");
  REQUIRE(s);
  CHECK(s->empty());
  CHECK(printKnobs(*s) == "");
  CHECK(s->placement() == Place::Auto);
  CHECK(s->tile("kv") == nullptr);
}

TEST_CASE("knobs: valid strings round trip exactly", "[knobs]") {
  for (const std::string &s : kValid) {
    INFO(s);
    KnobError err;
    auto sched = parseKnobs(s, err);
    INFO(err.message());
    REQUIRE(sched);
    CHECK_FALSE(sched->empty());
    CHECK(printKnobs(*sched) == s);
    auto again = parse(printKnobs(*sched));
    REQUIRE(again);
    CHECK(*again == *sched);
    CHECK(hashSchedule(*again) == hashSchedule(*sched));
  }
}

TEST_CASE("knobs: the seed string parses into the expected fields", "[knobs]") {
  auto s = parse("TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4,STAGE@kv=d2/tma/ring");
  REQUIRE(s);
  const TileKnob *t = s->tile("kv");
  REQUIRE(t);
  REQUIRE(t->atom);
  CHECK(t->atom->kind == AtomKind::MmaSync);
  CHECK(t->atom->m == 16);
  CHECK(t->atom->n == 8);
  CHECK(t->atom->k == 16);
  CHECK(t->atom->elem == ElemType::F16);
  CHECK(t->wm == 4);
  CHECK(t->wn == 1);
  CHECK(t->fm == 2);
  CHECK(t->fn == 8);
  CHECK(t->kSteps == 4);
  const StageKnob *st = s->stage("kv");
  REQUIRE(st);
  CHECK(st->depth == 2);
  CHECK(st->transport == Transport::Tma);
  CHECK(st->ring);
  CHECK(st->layout == SmemLayout::Dense);
  CHECK(st->regDepth == 0);
  CHECK(s->stage("q") == nullptr);
  CHECK(s->reduce("kv") == nullptr);
}

TEST_CASE("knobs: other families parse into the expected fields", "[knobs]") {
  auto s = parse("TILE@q=n64x2/f4,REDUCE@kv=g4k/b8/r2,PLACE@fold=cut,WSPEC=load1/softmax2,EXP=poly5,"
                 "RESCALE=lazy0.5,ACC=f16x,GRID=persistent");
  REQUIRE(s);
  const TileKnob *t = s->tile("q");
  REQUIRE(t);
  CHECK_FALSE(t->atom);
  CHECK(t->n == 64);
  CHECK(t->nm == 2);
  CHECK(t->hasNm);
  CHECK(t->fn == 4);
  CHECK(t->fm == 1);
  CHECK_FALSE(t->hasFm);
  const ReduceKnob *r = s->reduce("kv");
  REQUIRE(r);
  CHECK(r->groups == 4);
  CHECK(r->combine == SplitCombine::Kernel);
  CHECK(r->coopThreads == 8);
  CHECK(r->regIlp == 2);
  CHECK(s->placement() == Place::Cut);
  REQUIRE(s->wspec.size() == 2);
  CHECK(s->wspec[0] == WarpRole{"load", 1});
  CHECK(s->wspec[1] == WarpRole{"softmax", 2});
  CHECK(s->exp == ExpKind::Poly);
  CHECK(s->expPolyDegree == 5);
  CHECK(s->rescale == std::string("lazy0.5"));
  CHECK(s->rescaleThreshold == Approx(0.5));
  CHECK(s->acc == Accum::F16x);
  CHECK(s->grid == GridKind::Persistent);
  auto lpt = parse("GRID=lpt");
  REQUIRE(lpt);
  CHECK(lpt->grid == GridKind::Lpt);
  CHECK(printKnobs(*lpt) == "GRID=lpt");
  auto gauto = parse("REDUCE@kv=gauto");
  REQUIRE(gauto);
  CHECK(gauto->reduce("kv")->autoGroups);
  CHECK(gauto->reduce("kv")->combine == SplitCombine::Kernel);
  CHECK(gauto->reduce("kv")->groups == 0);
  CHECK(!(*gauto == *parse("REDUCE@kv=g2k")));
  auto pack = parse("PACK=gqa");
  REQUIRE(pack);
  CHECK(pack->pack == PackKind::Gqa);
  CHECK(parse("PACK=none")->pack == PackKind::None);
  CHECK(!parse("EXP=ex2")->pack);
  CHECK(parse("LAUNCH=pdl")->launch == LaunchKind::Pdl);
  CHECK(parse("LAUNCH=serial")->launch == LaunchKind::Serial);
  CHECK(!parse("EXP=ex2")->launch);
  CHECK(!(*parse("LAUNCH=pdl") == *parse("LAUNCH=serial")));

  auto a = parse("REDUCE@kv=g2a");
  REQUIRE(a);
  CHECK(a->reduce("kv")->combine == SplitCombine::Atomic);
  // gauto[a|k]: gauto is gautok and prints as gauto; gautoa combines in the last CTA.
  auto autoA = parse("REDUCE@kv=gautoa");
  REQUIRE(autoA);
  CHECK(autoA->reduce("kv")->autoGroups);
  CHECK(autoA->reduce("kv")->combine == SplitCombine::Atomic);
  CHECK(printKnobs(*autoA) == "REDUCE@kv=gautoa");
  auto autoK = parse("REDUCE@kv=gautok");
  REQUIRE(autoK);
  CHECK(*autoK == *gauto);
  CHECK(printKnobs(*autoK) == "REDUCE@kv=gauto");
  CHECK(!(*autoA == *gauto));
  CHECK_FALSE(parse("REDUCE@kv=gautox"));
  auto lazy = parse("RESCALE=lazy8.25");
  REQUIRE(lazy);
  CHECK(lazy->rescaleThreshold == Approx(8.25));
}

TEST_CASE("knobs: families written out of order are accepted and printed canonically", "[knobs]") {
  struct Case {
    const char *in, *out;
  };
  const Case cases[] = {
      {"STAGE@kv=d2/tma/ring,TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4",
       "TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4,STAGE@kv=d2/tma/ring"},
      {"GRID=tiles,ACC=f32,RESCALE=always,EXP=ex2,WSPEC=mma1,PLACE@fold=cut,REDUCE@kv=g2k,STAGE@kv=d1/cp,"
       "TILE@kv=n8/f1",
       "TILE@kv=n8/f1,STAGE@kv=d1/cp,REDUCE@kv=g2k,PLACE@fold=cut,WSPEC=mma1,EXP=ex2,RESCALE=always,ACC=f32,"
       "GRID=tiles"},
      // Within a family the written order is kept.
      {"TILE@b=n2/f1,STAGE@a=d1/sync,TILE@a=n1/f1", "TILE@b=n2/f1,TILE@a=n1/f1,STAGE@a=d1/sync"},
      {"EXP=libm,PLACE@fold=auto", "PLACE@fold=auto,EXP=libm"},
      {"PACK=gqa,HOIST=on,REDUCE@kv=g8k", "REDUCE@kv=g8k,HOIST=on,PACK=gqa"},
      {"LAUNCH=pdl,PACK=gqa,REDUCE@kv=g8k", "REDUCE@kv=g8k,PACK=gqa,LAUNCH=pdl"},
  };
  for (const Case &c : cases) {
    INFO(c.in);
    auto s = parse(c.in);
    REQUIRE(s);
    CHECK(printKnobs(*s) == c.out);
    auto canon = parse(c.out);
    REQUIRE(canon);
    CHECK(*canon == *s);
    CHECK(hashSchedule(*canon) == hashSchedule(*s));
  }
}

TEST_CASE("knobs: equality and hashing", "[knobs]") {
  auto a = parse("TILE@a=n1/f1,TILE@b=n2/f1");
  auto b = parse("TILE@b=n2/f1,TILE@a=n1/f1");
  auto c = parse("TILE@a=n1/f1,TILE@b=n2/f1");
  REQUIRE((a && b && c));
  CHECK(*a == *c);
  CHECK(hashSchedule(*a) == hashSchedule(*c));
  CHECK_FALSE(*a == *b); // order within a family is part of the value (and of the print)
  // The optional x<M> is remembered, so n64 and n64x1 print (and compare) differently.
  auto d = parse("TILE@q=n64/f4"), e = parse("TILE@q=n64x1/f4");
  REQUIRE((d && e));
  CHECK_FALSE(*d == *e);
  CHECK(printKnobs(*e) == "TILE@q=n64x1/f4");
}

TEST_CASE("knobs: the message format", "[knobs]") {
  KnobError err{"TILE@kv", "w0x1", "w<WM>x<WN>"};
  CHECK(err.message() == "knob TILE@kv: 'w0x1' is not allowed; expected w<WM>x<WN>");
  KnobError parsed;
  REQUIRE_FALSE(parseKnobs("TILE@kv=a:mma_m16n8k16_f16/w0x1/f2x8/k4", parsed));
  CHECK(parsed.knob == "TILE@kv");
  CHECK(parsed.value == "w0x1");
  CHECK(parsed.allowed.find("at most 16 warps per CTA") != std::string::npos);
  KnobError structural;
  REQUIRE_FALSE(parseKnobs("FOO=1", structural));
  CHECK(structural.message().rfind("knob string: 'FOO' is not allowed; expected a family among TILE", 0) == 0);
}

TEST_CASE("knobs: malformed strings give specific errors", "[knobs]") {
  struct Bad {
    const char *text;
    const char *knob;    // "knob <knob>:"
    const char *value;   // "'<value>'"
    const char *allowed; // part of the allowed text
  };
  const Bad bads[] = {
      // Structure.
      {",", "knob string", ",", "(leading comma)"},
      {"EXP=ex2,", "knob string", ",", "(trailing comma)"},
      {"EXP=ex2,,ACC=f32", "knob string", ",,", "separated by single commas"},
      {"EXP=ex2, ACC=f32", "knob string", " ACC=f32", "no spaces"},
      {"EXP", "knob string", "EXP", "FAMILY[@axis]=value"},
      {"FOO@kv=1", "knob string", "FOO", "TILE, STAGE, REDUCE, PLACE, WSPEC, EXP, RESCALE, ACC, GRID, OVERLAP, REPACK, HOIST, PACK, LAUNCH, ROWSUM"},
      {"OVERLAP=qk", "OVERLAP", "qk", "none, pv, wg, pv+wg or early"},
      {"OVERLAP@kv=pv", "OVERLAP", "OVERLAP@kv", "OVERLAP without an axis"},
      {"REPACK=shared", "REPACK", "shared", "regs or smem"},
      {"HOIST=no", "HOIST", "no", "on or off"},
      {"HOIST@q=off", "HOIST", "HOIST@q", "HOIST without an axis"},
      {"PACK=heads", "PACK", "heads", "none or gqa"},
      {"PACK@q=gqa", "PACK", "PACK@q", "PACK without an axis"},
      {"PACK=gqa,PACK=none", "PACK", "none", "PACK at most once"},
      {"LAUNCH=graph", "LAUNCH", "graph", "serial or pdl"},
      {"LAUNCH@kv=pdl", "LAUNCH", "LAUNCH@kv", "LAUNCH without an axis"},
      {"LAUNCH=pdl,LAUNCH=serial", "LAUNCH", "serial", "LAUNCH at most once"},
      {"ROWSUM=quad", "ROWSUM", "quad", "block or end"},
      {"ROWSUM@kv=end", "ROWSUM", "ROWSUM@kv", "ROWSUM without an axis"},
      {"ROWSUM=end,ROWSUM=block", "ROWSUM", "block", "ROWSUM at most once"},
      {"tile@kv=n1/f1", "knob string", "tile", "a family among TILE"},
      {"=x", "knob string", "", "a family among"},
      {"TILE=n64/f4", "TILE", "TILE", "needs an axis"},
      {"STAGE@KV=d1/sync", "STAGE", "STAGE@KV", "[a-z][a-z0-9_]*"},
      {"REDUCE@=g2k", "REDUCE", "REDUCE@", "[a-z][a-z0-9_]*"},
      {"PLACE=cut", "PLACE", "PLACE", "PLACE@fold"},
      {"PLACE@kv=cut", "PLACE", "PLACE@kv", "fold is the only PLACE axis"},
      {"EXP@kv=ex2", "EXP", "EXP@kv", "EXP without an axis"},
      {"GRID@x=tiles", "GRID", "GRID@x", "GRID without an axis"},
      {"TILE@kv=n1/f1,TILE@kv=n2/f1", "TILE@kv", "n2/f1", "given twice"},
      {"EXP=ex2,EXP=libm", "EXP", "libm", "given twice"},
      // TILE.
      {"TILE@kv=", "TILE@kv", "", "a:<atom>/w<WM>x<WN>/f<FM>x<FN>/k<bk> or n<N>[x<M>]/f<fn>[x<fm>]"},
      {"TILE@kv=a:mma_m16n8k8_f16/w4x1/f2x8/k4", "TILE@kv", "a:mma_m16n8k8_f16", "mma_m16n8k16_{f16,bf16}"},
      {"TILE@kv=a:mma_m16n8k16_f32/w4x1/f2x8/k4", "TILE@kv", "a:mma_m16n8k16_f32", "wgmma_m64n<8..256 step 8>"},
      {"TILE@kv=a:wgmma_m64n12k16_f16/w4x1/f1x1/k1", "TILE@kv", "a:wgmma_m64n12k16_f16", "step 8"},
      {"TILE@kv=a:wgmma_m64n264k16_f16/w4x1/f1x1/k1", "TILE@kv", "a:wgmma_m64n264k16_f16", "8..256"},
      {"TILE@kv=a:tcgen05_m128n24k16_bf16/w4x1/f1x1/k1", "TILE@kv", "a:tcgen05_m128n24k16_bf16",
       "tcgen05_m128n<16..256 step 16>"},
      {"TILE@kv=a:tcgen05_m64n12k16_f16/w4x1/f1x1/k1", "TILE@kv", "a:tcgen05_m64n12k16_f16",
       "tcgen05_m64n<8..256 step 8>"},
      {"TILE@kv=a:tcgen05_m32n64k16_f16/w4x1/f1x1/k1", "TILE@kv", "a:tcgen05_m32n64k16_f16", "tcgen05_m128n"},
      {"TILE@kv=a:wgmma_m64n064k16_f16/w4x1/f1x1/k1", "TILE@kv", "a:wgmma_m64n064k16_f16", "wgmma_m64n"},
      {"TILE@kv=a:mma_m16n8k16_f16/w0x1/f2x8/k4", "TILE@kv", "w0x1", "at most 16 warps per CTA"},
      {"TILE@kv=a:mma_m16n8k16_f16/w8x4/f2x8/k4", "TILE@kv", "w8x4", "WM*WN <= 16"},
      {"TILE@kv=a:mma_m16n8k16_f16/w4/f2x8/k4", "TILE@kv", "w4", "w<WM>x<WN>"},
      {"TILE@kv=a:mma_m16n8k16_f16/w04x1/f2x8/k4", "TILE@kv", "w04x1", "w<WM>x<WN>"},
      {"TILE@kv=a:mma_m16n8k16_f16/w4x1/f17x1/k4", "TILE@kv", "f17x1", "FM, FN in 1..16"},
      {"TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k0", "TILE@kv", "k0", "bk in 1..16"},
      {"TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8", "TILE@kv", "a:mma_m16n8k16_f16/w4x1/f2x8", "k<bk> is missing"},
      {"TILE@kv=a:mma_m16n8k16_f16/f2x8/w4x1/k4", "TILE@kv", "f2x8", "as the second token"},
      {"TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4/k4", "TILE@kv", "k4", "nothing after the last token"},
      {"TILE@kv=a:mma_m16n8k16_f16//w4x1/f2x8/k4", "TILE@kv", "a:mma_m16n8k16_f16//w4x1/f2x8/k4",
       "no empty '/' tokens"},
      {"TILE@q=n0/f1", "TILE@q", "n0", "N, M in 1..1024"},
      {"TILE@q=n1025/f1", "TILE@q", "n1025", "N, M in 1..1024"},
      {"TILE@q=n64x/f1", "TILE@q", "n64x", "n<N>[x<M>]"},
      {"TILE@q=n64/f65", "TILE@q", "f65", "fn, fm in 1..64"},
      {"TILE@q=n64", "TILE@q", "n64", "f<fn> is missing"},
      {"TILE@q=m64/f1", "TILE@q", "m64", "a:<atom> or n<N> as the first token"},
      // STAGE.
      {"STAGE@kv=d0/cp", "STAGE@kv", "d0", "depth in 1..8"},
      {"STAGE@kv=d9/cp", "STAGE@kv", "d9", "depth in 1..8"},
      {"STAGE@kv=d2", "STAGE@kv", "d2", "transport sync, cp or tma is missing"},
      {"STAGE@kv=d2/dma", "STAGE@kv", "dma", "sync, cp or tma"},
      {"STAGE@kv=d1/cp/ring", "STAGE@kv", "ring", "depth >= 2"},
      {"STAGE@kv=d2/sync/swz128", "STAGE@kv", "swz128", "swz128 only with cp or tma"},
      {"STAGE@kv=d2/tma/pad", "STAGE@kv", "pad", "TMA writes dense boxes"},
      {"STAGE@kv=d2/cp/pad/ring", "STAGE@kv", "ring", "tokens in the order"},
      {"STAGE@kv=d2/cp/ring/ring", "STAGE@kv", "ring", "each at most once"},
      {"STAGE@kv=d2/cp/p5", "STAGE@kv", "p5", "reg_depth in 1..4"},
      {"STAGE@kv=d2/cp/fast", "STAGE@kv", "fast", "ring, pad, swz128, x4 or p<reg_depth>"},
      {"STAGE@kv=d2/cp/ring/swz128/x4", "STAGE@kv", "x4", "x4 only with sync or cp and a dense or padded block"},
      {"STAGE@kv=d2/tma/ring/x4", "STAGE@kv", "x4", "x4 only with sync or cp"},
      {"STAGE@kv=d2/cp/ring/x4/pad", "STAGE@kv", "pad", "tokens in the order"},
      // REDUCE.
      {"REDUCE@kv=", "REDUCE@kv", "", "at least one"},
      {"REDUCE@kv=g4", "REDUCE@kv", "g4", "g4a or g4k"},
      {"REDUCE@kv=g1k", "REDUCE@kv", "g1k", "one group has nothing to combine"},
      {"REDUCE@kv=g0", "REDUCE@kv", "g0", "n in 1..4096"},
      {"REDUCE@kv=g4097k", "REDUCE@kv", "g4097k", "n in 1..4096"},
      {"REDUCE@kv=b3", "REDUCE@kv", "b3", "1, 2, 4, 8, 16, 32"},
      {"REDUCE@kv=r17", "REDUCE@kv", "r17", "n in 1..16"},
      {"REDUCE@kv=b2/g2k", "REDUCE@kv", "g2k", "in the order g<n>[a|k]/b<n>/r<n>"},
      {"REDUCE@kv=g2k/x1", "REDUCE@kv", "x1", "g<n>[a|k], b<n> or r<n>"},
      // The single-valued families.
      {"PLACE@fold=split", "PLACE@fold", "split", "auto, fuse or cut"},
      {"WSPEC=load1/dma1", "WSPEC", "dma1", "load, mma, softmax, corr, epilogue"},
      {"WSPEC=load1/load2", "WSPEC", "load2", "load was given twice"},
      {"WSPEC=load0", "WSPEC", "load0", "n in 1..16"},
      {"WSPEC=mma", "WSPEC", "mma", "<role><n>"},
      {"EXP=poly9", "EXP", "poly9", "poly<k> with k in 1..8"},
      {"EXP=exp2", "EXP", "exp2", "libm, ex2 or poly<k>"},
      {"RESCALE=lazy", "RESCALE", "lazy", "lazy<t>"},
      {"RESCALE=lazy-1", "RESCALE", "lazy-1", "non-negative decimal"},
      {"RESCALE=lazy8.", "RESCALE", "lazy8.", "such as 8, 8.0 or 0.5"},
      {"RESCALE=lazy08", "RESCALE", "lazy08", "lazy<t>"},
      {"RESCALE=sometimes", "RESCALE", "sometimes", "always or lazy<t>"},
      {"ACC=f16", "ACC", "f16", "f32, f16x or f16x<s> (s k16 steps per promotion, 1 to 16)"},
      {"ACC=f16x0", "ACC", "f16x0", "f32, f16x or f16x<s> (s k16 steps per promotion, 1 to 16)"},
      {"ACC=f16x17", "ACC", "f16x17", "f32, f16x or f16x<s> (s k16 steps per promotion, 1 to 16)"},
      {"GRID=stream", "GRID", "stream", "tiles, lpt or persistent"},
      // An error in a later item is reported even after good ones.
      {"TILE@kv=n8/f1,STAGE@kv=d2/tma/ring,GRID=huge", "GRID", "huge", "tiles, lpt or persistent"},
  };
  STATIC_REQUIRE(sizeof(bads) / sizeof(bads[0]) >= 30);
  for (const Bad &b : bads) {
    INFO(b.text);
    KnobError err;
    auto s = parseKnobs(b.text, err);
    REQUIRE_FALSE(s);
    std::string msg = err.message();
    INFO(msg);
    CHECK(err.knob == b.knob);
    CHECK(err.value == b.value);
    std::string where = std::string(b.knob) == "knob string" ? "knob string: " : std::string("knob ") + b.knob + ": ";
    CHECK(msg.find(where) == 0);
    CHECK(msg.find(std::string("'") + b.value + "' is not allowed; expected ") != std::string::npos);
    CHECK(msg.find(b.allowed) != std::string::npos);
  }
}

TEST_CASE("knobs: fuzzed strings never crash and accepted ones round trip", "[knobs][fuzz]") {
  std::mt19937 rng(20240607u);
  const std::string alphabet = "TILESAGEDUCPFWXMRNYabcdefgiklmnoprstuwxyz0123456789@=,/:_.- ";
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  int accepted = 0, refused = 0, canonicalChecked = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string s = kValid[pick(kValid.size())];
    if (pick(4) == 0) // sometimes glue two valid strings, possibly out of family order
      s += "," + kValid[pick(kValid.size())];
    int edits = 1 + static_cast<int>(pick(3));
    for (int e = 0; e < edits; ++e) {
      size_t pos = pick(s.size() + 1);
      char c = alphabet[pick(alphabet.size())];
      switch (pick(4)) {
      case 0: s.insert(s.begin() + pos, c); break;
      case 1: if (pos < s.size()) s.erase(pos, 1); break;
      case 2: if (pos < s.size()) s[pos] = c; break;
      default: // change one digit: mostly stays in the grammar, probes the limits
        for (size_t i = 0; i < s.size(); ++i) {
          size_t j = (pos + i) % s.size();
          if (s[j] >= '0' && s[j] <= '9') {
            s[j] = static_cast<char>('0' + pick(10));
            break;
          }
        }
        break;
      }
    }
    KnobError err;
    auto sched = parseKnobs(s, err);
    if (!sched) {
      ++refused;
      // A refusal always names a knob, and the message carries the offending value verbatim.
      if (err.knob.empty() || err.allowed.empty() || err.message().find("'" + err.value + "'") == std::string::npos)
        FAIL("bad error for '" << s << "': " << err.message());
      continue;
    }
    ++accepted;
    std::string p1 = printKnobs(*sched);
    KnobError err2;
    auto again = parseKnobs(p1, err2);
    if (!again)
      FAIL("printed form of '" << s << "' is refused: " << p1 << " -> " << err2.message());
    if (!(*again == *sched) || printKnobs(*again) != p1 || hashSchedule(*again) != hashSchedule(*sched))
      FAIL("round trip of '" << s << "' is unstable: " << p1 << " vs " << printKnobs(*again));
    if (inCanonicalFamilyOrder(s)) {
      ++canonicalChecked;
      if (p1 != s)
        FAIL("canonical string '" << s << "' printed as '" << p1 << "'");
    }
  }
  // The mutations must exercise both sides.
  CHECK(accepted > 1000);
  CHECK(refused > 5000);
  CHECK(canonicalChecked > 800);
  CHECK(accepted + refused == 20000);
}

TEST_CASE("knobs: gauto's split count (schedule/Geometry.h)", "[knobs][gauto]") {
  // G = max(1, min(ceil(n / max(512, block)), 2 * resident / points, 64)): the H200's decode
  // winners of 2026-12-07 and before at 528 resident CTAs (132 SMs x 4 decode CTAs), at
  // block 64 (f1x8) as the decode defaults evaluate it.
  const int64_t r = kNominalResidentCtas;
  CHECK(r == 528);
  CHECK(autoSplitCount(32768, 64, 8 * 8, r) == 16);  // [8,32/8,1,32768]: the grid term, 1056 / 64
  CHECK(autoSplitCount(131072, 64, 8, r) == 64);     // [1,32/8,1,131072]: the cap (the grid term is 132)
  CHECK(autoSplitCount(8192, 64, 16, r) == 16);      // MQA [16,32/1,1,8192]: parts of 512 keys
  CHECK(autoSplitCount(4096, 64, 64 * 8, r) == 2);   // [64,32/8,1,4096]: the grid term
  CHECK(autoSplitCount(300, 64, 1, r) == 1);         // shorter than one part: no split
  CHECK(autoSplitCount(1, 64, 4096, r) == 1);        // at least one part
  CHECK(autoSplitCount(4096, 1024, 1, r) == 4);      // a block longer than 512 keys sets the part
  // The device enters: fewer resident CTAs, fewer parts (whole waves, rounded down).
  CHECK(autoSplitCount(32768, 64, 8 * 8, 78 * 4) == 9);   // 78 SMs: 624 / 64
  CHECK(autoSplitCount(32768, 64, 8 * 8, 148 * 4) == 18); // 148 SMs: 1184 / 64
  CHECK(autoSplitCount(32768, 64, 8 * 8, 1) == 1);        // a device that holds one CTA
  CHECK(autoSplitCount(4096, 64, 2000, r) == 1);          // more points than two waves: no split
}
