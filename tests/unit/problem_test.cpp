// Problem specs: validation messages, JSON grammar and round trip, FLOPs.
#include "runtime/problem/Problem.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attncc;

namespace {
/// The error message problemFromJson gives for `text`, or "" if it parses.
std::string jsonError(const std::string &text) {
  ProblemError err;
  auto p = problemFromJson(text, err);
  return p ? std::string() : err.message();
}

std::string validateError(const Problem &p) {
  auto e = validate(p);
  return e ? e->message() : std::string();
}

Problem attention(int64_t B, int64_t Hq, int64_t Hkv, int64_t Sq, int64_t Sk, int64_t D) {
  Problem p;
  p.batch = {B, false};
  p.heads_q = Hq;
  p.heads_kv = Hkv;
  p.seq_q = {Sq, false};
  p.seq_k = {Sk, false};
  p.head_dim = D;
  return p;
}

void requireRoundTrip(const Problem &p) {
  std::string text = problemToJson(p);
  ProblemError err;
  auto back = problemFromJson(text, err);
  INFO(text);
  INFO(err.message());
  REQUIRE(back);
  CHECK(*back == p);
  CHECK(problemToJson(*back) == text);
}
} // namespace

TEST_CASE("ProblemError message format", "[problem]") {
  ProblemError e{"head_dim", "7", "one of 32, 64, 96, 128, 256"};
  CHECK(e.message() == "invalid head_dim = 7: one of 32, 64, 96, 128, 256");
}

TEST_CASE("default problem is valid; scale and flops", "[problem]") {
  Problem p;
  CHECK_FALSE(validate(p));
  CHECK(p.effectiveScale() == Approx(1.0 / 8.0));
  p.scale = 0.5;
  CHECK(p.effectiveScale() == 0.5);

  Problem a = attention(2, 8, 2, 128, 256, 64);
  CHECK(a.group() == 4);
  CHECK(a.flops() == 4.0 * 2 * 8 * 128 * 256 * 64);
  a.causal = true;
  CHECK(a.flops() == 2.0 * 2 * 8 * 128 * 256 * 64);

  Problem r = attention(2, 8, 8, 16, 32, 64);
  r.kind = ProblemKind::RowSum;
  CHECK(r.flops() == 2.0 * 2 * 8 * 16 * 32);
  CHECK(r.effectiveScale() == 1.0); // row reductions: no 1/sqrt(D)
  r.kind = ProblemKind::LogSumExp;
  CHECK(r.effectiveScale() == 1.0);
  r.scale = 2.0;
  CHECK(r.effectiveScale() == 2.0);
}

TEST_CASE("validate: sizes", "[problem]") {
  CHECK(validateError(attention(0, 1, 1, 1, 1, 64)) ==
        "invalid batch = 0: batch must be >= 1 (or \"?\" when symbolic)");
  CHECK(validateError(attention(1, 0, 1, 1, 1, 64)) == "invalid heads_q = 0: heads_q must be >= 1");
  CHECK(validateError(attention(1, 4, 0, 1, 1, 64)) ==
        "invalid heads_kv = 0: heads_kv must be >= 1");
  CHECK(validateError(attention(1, 32, 5, 1, 1, 64)) ==
        "invalid heads_q % heads_kv = 32 % 5 = 2: heads_q must be a multiple of heads_kv");
  CHECK(validateError(attention(1, 1, 1, 0, 1, 64)) ==
        "invalid seq_q = 0: seq_q must be >= 1 (or \"?\" when symbolic)");
  CHECK(validateError(attention(1, 1, 1, 1, -3, 64)) ==
        "invalid seq_k = -3: seq_k must be >= 1 (or \"?\" when symbolic)");
  CHECK(validateError(attention(1, 1, 1, 3000000000LL, 1, 64)) ==
        "invalid seq_q = 3000000000: seq_q must be <= 2147483647");
  // Lengths are capped at 2^29 (32-bit mask indices); 2^29 itself is fine.
  CHECK(validateError(attention(1, 1, 1, 536870913LL, 1, 64)) ==
        "invalid seq_q = 536870913: seq_q must be <= 536870912 (2^29: mask indices are 32-bit)");
  CHECK(validateError(attention(1, 1, 1, 1, 536870913LL, 64)) ==
        "invalid seq_k = 536870913: seq_k must be <= 536870912 (2^29: mask indices are 32-bit)");
  CHECK(validateError(attention(1, 1, 1, 536870912LL, 536870912LL, 64)).empty());
  {
    Problem w = attention(1, 1, 1, 8, 8, 64);
    w.window = 536870913LL;
    CHECK(validateError(w) ==
          "invalid window = 536870913: window must be <= 536870912 (2^29: mask indices are 32-bit)");
    w.window = 536870912LL;
    CHECK(validateError(w).empty());
  }

  // Symbolic with value 0 = unknown: allowed; negative never.
  Problem s = attention(1, 1, 1, 1, 1, 64);
  s.batch = {0, true};
  s.seq_k = {0, true};
  CHECK(validateError(s).empty());
  s.seq_q = {-1, true};
  CHECK(validateError(s) == "invalid seq_q = ?=-1: seq_q must be >= 1 (or \"?\" when symbolic)");

  // GQA and MQA are fine.
  CHECK(validateError(attention(1, 32, 8, 1, 1, 64)).empty());
  CHECK(validateError(attention(1, 32, 1, 1, 1, 64)).empty());
}

TEST_CASE("validate: head_dim", "[problem]") {
  for (int64_t d : {0, 7, 59, 257, 1024, -64})
    CHECK(validateError(attention(1, 1, 1, 1, 1, d)) ==
          "invalid head_dim = " + std::to_string(d) + ": one of 32, 64, 96, 128, 256");
  for (int64_t d : {32, 64, 96, 128, 256})
    CHECK(validateError(attention(1, 1, 1, 1, 1, d)).empty());
}

TEST_CASE("validate: modifiers", "[problem]") {
  Problem p = attention(1, 4, 4, 8, 8, 64);
  p.window = -1;
  CHECK(validateError(p) ==
        "invalid window = -1: window must be >= 0 (keys within window of the diagonal)");
  p.window = 0;
  CHECK(validateError(p).empty());

  p.softcap = 0.0;
  CHECK(validateError(p) == "invalid softcap = 0: softcap must be finite and > 0");
  p.softcap = -30.0;
  CHECK(validateError(p) == "invalid softcap = -30: softcap must be finite and > 0");
  p.softcap = INFINITY;
  CHECK(validateError(p) == "invalid softcap = inf: softcap must be finite and > 0");
  p.softcap = 30.0;
  CHECK(validateError(p).empty());

  p.scale = -1.0;
  CHECK(validateError(p) == "invalid scale = -1: scale must be finite and > 0");
  p.scale = NAN;
  CHECK(validateError(p) == "invalid scale = nan: scale must be finite and > 0");
  p.scale = 0.1;
  CHECK(validateError(p).empty());

  p.bias_head_broadcast = true;
  CHECK(validateError(p) == "invalid bias_head_broadcast = true: only with bias");
  p.bias = true;
  CHECK(validateError(p).empty());
}

TEST_CASE("validate: row reductions", "[problem]") {
  Problem p = attention(2, 4, 4, 8, 16, 0); // head_dim is ignored for them
  p.kind = ProblemKind::LogSumExp;
  CHECK(validateError(p).empty());
  p.head_dim = 7;
  CHECK(validateError(p).empty());

  p.heads_kv = 2;
  CHECK(validateError(p) == "invalid heads_kv = 2: must equal heads_q (4) for kind logsumexp");
  p.heads_kv = 4;

  Problem c = p;
  c.causal = true;
  CHECK(validateError(c) == "invalid causal = true: only for kind attention (kind is logsumexp)");
  c = p;
  c.kind = ProblemKind::RowSum;
  c.window = 3;
  CHECK(validateError(c) == "invalid window = 3: only for kind attention (kind is rowsum)");
  c = p;
  c.bias = true;
  CHECK(validateError(c) == "invalid bias = true: only for kind attention (kind is logsumexp)");
  c = p;
  c.alibi = true;
  CHECK(validateError(c) == "invalid alibi = true: only for kind attention (kind is logsumexp)");
  c = p;
  c.softcap = 2.5;
  CHECK(validateError(c) == "invalid softcap = 2.5: only for kind attention (kind is logsumexp)");
}

TEST_CASE("JSON: defaults and a full spec", "[problem][json]") {
  ProblemError err;
  auto p = problemFromJson("{}", err);
  REQUIRE(p);
  CHECK(*p == Problem());

  p = problemFromJson(R"({"kind": "attention", "batch": "?", "heads_q": 32, "heads_kv": 8,
      "seq_q": "?=4096", "seq_k": 4096, "head_dim": 128, "dtype": "bf16", "scale": 0.1,
      "causal": true, "window": 256, "bias": [1, 32, "?", 4096], "alibi": true,
      "softcap": 30})",
                      err);
  INFO(err.message());
  REQUIRE(p);
  CHECK(p->kind == ProblemKind::Attention);
  CHECK(p->batch == Extent{0, true});
  CHECK(p->heads_q == 32);
  CHECK(p->heads_kv == 8);
  CHECK(p->seq_q == Extent{4096, true});
  CHECK(p->seq_k == Extent{4096, false});
  CHECK(p->head_dim == 128);
  CHECK(p->dtype == DType::BF16);
  CHECK(p->scale == 0.1);
  CHECK(p->causal);
  CHECK(p->window == 256);
  CHECK(p->bias);
  CHECK(p->bias_batch_broadcast);
  CHECK_FALSE(p->bias_head_broadcast);
  CHECK(p->alibi);
  CHECK(p->softcap == 30.0);

  // Alternative spellings.
  p = problemFromJson(R"({"batch": {"symbolic": true, "value": 3}, "bias": "full",
                          "scale": null, "window": null, "softcap": null})",
                      err);
  REQUIRE(p);
  CHECK(p->batch == Extent{3, true});
  CHECK(p->bias);
  CHECK_FALSE(p->bias_batch_broadcast);
  CHECK_FALSE(p->scale);
  p = problemFromJson(R"({"bias": "none"})", err);
  REQUIRE(p);
  CHECK_FALSE(p->bias);
}

TEST_CASE("JSON: round trip", "[problem][json]") {
  requireRoundTrip(Problem());

  Problem p = attention(3, 16, 4, 113, 203, 96);
  p.dtype = DType::F32;
  p.scale = 0.1; // shortest text must still read back bit-exact
  p.causal = true;
  p.window = 17;
  p.alibi = true;
  p.softcap = 1.0 / 3.0;
  requireRoundTrip(p);

  p.bias = true;
  requireRoundTrip(p);
  p.bias_head_broadcast = true;
  requireRoundTrip(p);
  p.bias_batch_broadcast = true;
  p.bias_head_broadcast = false;
  requireRoundTrip(p);

  Problem s = attention(1, 8, 1, 1, 1, 256);
  s.batch = {0, true};
  s.seq_q = {1, true};
  s.seq_k = {0, true};
  s.bias = true;
  s.bias_head_broadcast = true;
  requireRoundTrip(s);
  std::string text = problemToJson(s);
  CHECK(text.find("\"batch\": \"?\"") != std::string::npos);
  CHECK(text.find("\"seq_q\": \"?=1\"") != std::string::npos);

  Problem pg = attention(3, 8, 2, 1, 1000, 128);
  pg.page_size = 64;
  requireRoundTrip(pg);
  pg.num_pages = 100;
  pg.seq_k = {0, true};
  requireRoundTrip(pg);
  pg.kv_hnd = true;
  requireRoundTrip(pg);

  Problem r = attention(2, 4, 4, 5, 6, 64);
  r.kind = ProblemKind::LogSumExp;
  r.dtype = DType::F16;
  requireRoundTrip(r);
  r.kind = ProblemKind::RowSum;
  r.scale = 2.0;
  requireRoundTrip(r);

  // Every key is written.
  for (const char *key : {"kind", "batch", "heads_q", "heads_kv", "seq_q", "seq_k", "head_dim",
                          "dtype", "scale", "causal", "window", "bias", "alibi", "softcap", "paged",
                          "num_pages", "kv_layout"})
    CHECK(problemToJson(Problem()).find(std::string("\"") + key + "\"") != std::string::npos);
}

TEST_CASE("JSON: structural errors", "[problem][json]") {
  CHECK(jsonError(R"({"heads": 8})") ==
        "invalid json key = \"heads\": one of kind, batch, heads_q, heads_kv, seq_q, seq_k, "
        "head_dim, dtype, scale, causal, window, bias, alibi, softcap, paged, num_pages, kv_layout, varlen, seqused");
  CHECK(jsonError("[1,2]") == "invalid json = [1,2]: a JSON object");
  CHECK(jsonError("42") == "invalid json = 42: a JSON object");

  for (const char *bad : {"{\"batch\": 1,}", "", "{", "{\"batch\": 1} trailing", "nul"}) {
    std::string msg = jsonError(bad);
    INFO(bad);
    CHECK(msg.rfind("invalid json = parse error", 0) == 0);
    CHECK(msg.find(": a well-formed JSON object") != std::string::npos);
  }
  // A number JSON cannot hold: an error, not an exception.
  ProblemError err;
  CHECK_NOTHROW(problemFromJson(R"({"scale": 1e400})", err));
  CHECK_FALSE(problemFromJson(R"({"scale": 1e400})", err));
  CHECK(err.argument == "json");
}

TEST_CASE("JSON: wrong types name the key", "[problem][json]") {
  CHECK(jsonError(R"({"heads_q": "8"})") == "invalid heads_q = \"8\": an integer");
  CHECK(jsonError(R"({"head_dim": 64.0})") == "invalid head_dim = 64.0: an integer");
  CHECK(jsonError(R"({"heads_kv": 18446744073709551615})") ==
        "invalid heads_kv = 18446744073709551615: an integer <= 9223372036854775807");
  CHECK(jsonError(R"({"causal": 1})") == "invalid causal = 1: true or false");
  CHECK(jsonError(R"({"alibi": "yes"})") == "invalid alibi = \"yes\": true or false");
  CHECK(jsonError(R"({"scale": "x"})") == "invalid scale = \"x\": a number or null");
  CHECK(jsonError(R"({"softcap": false})") == "invalid softcap = false: a number or null");
  CHECK(jsonError(R"({"window": 2.5})") == "invalid window = 2.5: an integer");
  CHECK(jsonError(R"({"batch": 1.5})") == "invalid batch = 1.5: an integer, \"?\" or \"?=N\"");
  CHECK(jsonError(R"({"seq_k": "?=x"})") == "invalid seq_k = \"?=x\": an integer, \"?\" or \"?=N\"");
  CHECK(jsonError(R"({"seq_q": "??"})") == "invalid seq_q = \"??\": an integer, \"?\" or \"?=N\"");
  CHECK(jsonError(R"({"seq_q": "?="})") == "invalid seq_q = \"?=\": an integer, \"?\" or \"?=N\"");
  CHECK(jsonError(R"({"batch": {"symbolic": 1}})") ==
        "invalid batch.symbolic = 1: true or false");
  CHECK(jsonError(R"({"batch": {"size": 1}})") ==
        "invalid batch key = \"size\": one of symbolic, value");
  CHECK(jsonError(R"({"dtype": "f8"})") == "invalid dtype = \"f8\": one of f16, bf16, f32");
  CHECK(jsonError(R"({"dtype": 16})") == "invalid dtype = 16: one of f16, bf16, f32");
  CHECK(jsonError(R"({"kind": "softmax"})") ==
        "invalid kind = \"softmax\": one of attention, logsumexp, rowsum");
  CHECK(jsonError(R"({"bias": 1})") ==
        "invalid bias = 1: true, false or a shape [B or 1, Hq or 1, Sq, Sk]");
}

TEST_CASE("JSON: invalid values are validated", "[problem][json]") {
  CHECK(jsonError(R"({"heads_q": 32, "heads_kv": 5})") ==
        "invalid heads_q % heads_kv = 32 % 5 = 2: heads_q must be a multiple of heads_kv");
  CHECK(jsonError(R"({"head_dim": 0})") == "invalid head_dim = 0: one of 32, 64, 96, 128, 256");
  CHECK(jsonError(R"({"head_dim": 7})") == "invalid head_dim = 7: one of 32, 64, 96, 128, 256");
  CHECK(jsonError(R"({"head_dim": 257})") ==
        "invalid head_dim = 257: one of 32, 64, 96, 128, 256");
  CHECK(jsonError(R"({"window": -1})") ==
        "invalid window = -1: window must be >= 0 (keys within window of the diagonal)");
  CHECK(jsonError(R"({"batch": 0})") ==
        "invalid batch = 0: batch must be >= 1 (or \"?\" when symbolic)");
  CHECK(jsonError(R"({"seq_q": 0})") ==
        "invalid seq_q = 0: seq_q must be >= 1 (or \"?\" when symbolic)");
  CHECK(jsonError(R"({"seq_k": 0})") ==
        "invalid seq_k = 0: seq_k must be >= 1 (or \"?\" when symbolic)");
  CHECK(jsonError(R"({"heads_q": 0})") == "invalid heads_q = 0: heads_q must be >= 1");
  CHECK(jsonError(R"({"softcap": 0})") == "invalid softcap = 0: softcap must be finite and > 0");
  CHECK(jsonError(R"({"scale": -0.5})") == "invalid scale = -0.5: scale must be finite and > 0");
  CHECK(jsonError(R"({"kind": "rowsum", "causal": true})") ==
        "invalid causal = true: only for kind attention (kind is rowsum)");
  CHECK(jsonError(R"({"kind": "logsumexp", "head_dim": 7})").empty());
}

TEST_CASE("JSON: bias shapes", "[problem][json]") {
  const std::string sizes =
      R"("batch": 2, "heads_q": 8, "heads_kv": 8, "seq_q": 128, "seq_k": 256, )";
  auto parse = [&](const std::string &bias) {
    ProblemError err;
    auto p = problemFromJson("{" + sizes + "\"bias\": " + bias + "}", err);
    INFO(err.message());
    REQUIRE(p);
    return *p;
  };
  Problem full = parse("[2, 8, 128, 256]");
  CHECK((full.bias && !full.bias_batch_broadcast && !full.bias_head_broadcast));
  Problem b1 = parse("[1, 8, 128, 256]");
  CHECK((b1.bias && b1.bias_batch_broadcast && !b1.bias_head_broadcast));
  Problem h1 = parse("[2, 1, 128, 256]");
  CHECK((h1.bias && !h1.bias_batch_broadcast && h1.bias_head_broadcast));
  Problem both = parse("[1, 1, 128, 256]");
  CHECK((both.bias_batch_broadcast && both.bias_head_broadcast));

  const std::string expected =
      "expected [B or 1, Hq or 1, Sq, Sk] = [2 or 1, 8 or 1, 128, 256]";
  auto error = [&](const std::string &bias) {
    return jsonError("{" + sizes + "\"bias\": " + bias + "}");
  };
  CHECK(error("[1, 8, 64, 256]") == "invalid bias shape = [1, 8, 64, 256]: " + expected);
  CHECK(error("[3, 8, 128, 256]") == "invalid bias shape = [3, 8, 128, 256]: " + expected);
  CHECK(error("[2, 4, 128, 256]") == "invalid bias shape = [2, 4, 128, 256]: " + expected);
  CHECK(error("[2, 8, 1, 256]") == "invalid bias shape = [2, 8, 1, 256]: " + expected);
  CHECK(error("[8, 128, 256]") == "invalid bias shape = [8, 128, 256]: " + expected);
  CHECK(error("[2, 8, 128, \"?\"]") == "invalid bias shape = [2, 8, 128, \"?\"]: " + expected);

  // Symbolic extents are written "?" in the shape.
  CHECK(jsonError(R"({"seq_q": "?=64", "bias": [1, 1, 64, 1]})") ==
        "invalid bias shape = [1, 1, 64, 1]: expected [B or 1, Hq or 1, Sq, Sk] = "
        "[1, 1, \"?\", 1]");
  CHECK(jsonError(R"({"seq_q": "?=64", "bias": [1, 1, "?", 1]})").empty());

  // A bias on a row reduction.
  CHECK(jsonError(R"({"kind": "rowsum", "bias": true})") ==
        "invalid bias = true: only for kind attention (kind is rowsum)");
  // Sizes are checked before the bias shape.
  CHECK(jsonError(R"({"heads_q": 0, "bias": [1, 1, 1, 1]})") ==
        "invalid heads_q = 0: heads_q must be >= 1");
}

TEST_CASE("paged KV: fields, validation and JSON", "[problem][json][paged]") {
  Problem p = attention(3, 8, 2, 1, 1000, 128);
  CHECK_FALSE(p.paged());
  p.page_size = 64;
  CHECK(p.paged());
  CHECK(p.maxPages() == 16); // ceil(1000 / 64)
  CHECK(p.cachePages() == 48);
  p.num_pages = 20;
  CHECK(p.cachePages() == 20);
  CHECK(validateError(p).empty());

  Problem q = attention(1, 1, 1, 1, 1, 64);
  q.page_size = -1;
  CHECK(validateError(q) ==
        "invalid paged = -1: the page size must be between 1 and 65536 rows (0: K and V not paged)");
  q.page_size = 65537;
  CHECK(validateError(q) ==
        "invalid paged = 65537: the page size must be between 1 and 65536 rows (0: K and V not paged)");
  q.page_size = 0;
  q.num_pages = 4;
  CHECK(validateError(q) == "invalid num_pages = 4: only with paged (a page size)");
  q.kind = ProblemKind::RowSum;
  q.num_pages = 0;
  q.page_size = 16;
  CHECK(validateError(q) == "invalid paged = 16: only for kind attention (kind is rowsum)");

  CHECK(jsonError(R"({"paged": 0})") == "invalid paged = 0: a page size >= 1, or null (not paged)");
  CHECK(jsonError(R"({"paged": "64"})") == "invalid paged = \"64\": an integer");
  CHECK(jsonError(R"({"num_pages": 0, "paged": 16})") ==
        "invalid num_pages = 0: num_pages >= 1, or null (batch * max_pages)");
  CHECK(jsonError(R"({"num_pages": 8})") == "invalid num_pages = 8: only with paged (a page size)");
  CHECK(jsonError(R"({"kv_layout": "hnd"})") == "invalid kv_layout = hnd: only with paged (a page size)");
  CHECK(jsonError(R"({"paged": 16, "kv_layout": "bshd"})") ==
        "invalid kv_layout = \"bshd\": nhd ([pages, page_size, heads_kv, head_dim]) or hnd ([pages, heads_kv, "
        "page_size, head_dim])");
  ProblemError err;
  auto back = problemFromJson(R"({"seq_k": 100, "paged": 16, "num_pages": null})", err);
  REQUIRE(back);
  CHECK(back->page_size == 16);
  CHECK(back->num_pages == 0);
  CHECK(back->maxPages() == 7);
  CHECK_FALSE(back->kv_hnd); // NHD by default
  auto hnd = problemFromJson(R"({"paged": 16, "kv_layout": "hnd"})", err);
  REQUIRE(hnd);
  CHECK(hnd->kv_hnd);
  auto none = problemFromJson(R"({"paged": null})", err);
  REQUIRE(none);
  CHECK_FALSE(none->paged());
}

TEST_CASE("varlen: validation and JSON", "[problem][json][varlen]") {
  Problem p = attention(3, 8, 2, 100, 200, 64);
  p.varlen = true;
  CHECK(validateError(p).empty());
  CHECK(p.packedShape(false, 250) == std::vector<int64_t>{250, 8 * 64});
  CHECK(p.packedShape(true, 400) == std::vector<int64_t>{400, 2 * 64});
  Problem q = p;
  q.page_size = 16; // packed queries over a paged cache (chunked prefill)
  CHECK(validateError(q).empty());
  q = p;
  q.bias = true;
  CHECK(validateError(q) == "invalid varlen = true: not with bias (a bias over packed sequences is not built yet)");
  q = p;
  q.kind = ProblemKind::LogSumExp;
  q.heads_kv = q.heads_q;
  CHECK(validateError(q) == "invalid varlen = true: only for kind attention (kind is logsumexp)");
  CHECK(jsonError(R"({"varlen": 1})") == "invalid varlen = 1: true or false");
  ProblemError err;
  auto back = problemFromJson(problemToJson(p), err);
  REQUIRE(back);
  CHECK(back->varlen);
  CHECK(*back == p);
  Problem off = p;
  off.varlen = false;
  CHECK(off != p);
  auto none = problemFromJson(R"({"varlen": false})", err);
  REQUIRE(none);
  CHECK_FALSE(none->varlen);
}

TEST_CASE("seqused: only with varlen; JSON", "[problem][json][varlen]") {
  Problem p = attention(3, 8, 2, 100, 200, 64);
  p.varlen = p.seqused = true;
  CHECK(validateError(p).empty());
  Problem q = p;
  q.varlen = false;
  CHECK(validateError(q) == "invalid seqused = true: only with varlen (the lengths used of packed sequences)");
  CHECK(jsonError(R"({"seqused": "yes"})") == "invalid seqused = \"yes\": true or false");
  ProblemError err;
  auto back = problemFromJson(problemToJson(p), err);
  REQUIRE(back);
  CHECK(back->seqused);
  CHECK(*back == p);
  q = p;
  q.seqused = false;
  CHECK(q != p);
}
