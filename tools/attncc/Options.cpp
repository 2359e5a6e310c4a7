//===- Options.cpp - attncc's command line -> Problem ---------------------===//
#include "tools/attncc/Options.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace attncc {

void addProblemFlags(CLI::App &app, ProblemFlags &f) {
  app.add_option("--kind", f.kind, "attention (default), logsumexp or rowsum");
  app.add_option("--shape", f.shape,
                 "B,H,S,D for attention (Hq = Hkv, Sq = Sk); B,H,Sq,N for row reductions; "
                 "B and S may be '?' or '?=N'");
  app.add_option("--batch", f.batch, "batch (N, '?' or '?=N')");
  app.add_option("--heads", f.heads, "query and key/value heads");
  app.add_option("--heads-q", f.headsQ, "query heads");
  app.add_option("--heads-kv", f.headsKv, "key/value heads (GQA/MQA: a divisor of --heads-q)");
  app.add_option("--seq", f.seq, "query and key length (N, '?' or '?=N')");
  app.add_option("--seq-q", f.seqQ, "query length (N, '?' or '?=N')");
  app.add_option("--seq-k", f.seqK, "key/value length (N, '?' or '?=N')");
  app.add_option("--head-dim", f.headDim, "head dimension");
  app.add_option("--dtype", f.dtype, "f16, bf16 or f32");
  app.add_option("--scale", f.scale, "score scale (default 1/sqrt(head dim))");
  app.add_flag("--causal", f.causal, "causal mask, bottom-right aligned when Sq != Sk");
  app.add_option("--window", f.window, "sliding window (keys within this distance of the diagonal)");
  app.add_flag("--bias", f.bias, "additive bias tensor [B, Hq, Sq, Sk]");
  app.add_option("--bias-shape", f.biasShape, "bias shape, broadcasting B or Hq as 1: e.g. 1,8,128,128");
  app.add_flag("--alibi", f.alibi, "ALiBi position bias");
  app.add_option("--softcap", f.softcap, "score soft cap c: c * tanh(s / c)");
  app.add_option("--paged", f.paged,
                 "paged KV cache: K and V in pages of P rows [pages, Hkv, P, D], read through a "
                 "block table [B, ceil(Sk / P)] and lengths [B] (Sk is the capacity)");
  app.add_option("--pages", f.pages, "with --paged: pages in the cache (default B * ceil(Sk / P))");
  app.add_option("--kv-layout", f.kvLayout,
                 "with --paged: nhd ([pages, P, Hkv, D], the default: vLLM's and FlashInfer's) or hnd "
                 "([pages, Hkv, P, D])");
  app.add_flag("--varlen", f.varlen,
               "a varlen batch: sequences of different lengths packed as Q, O [total_q, Hq, D] and K, V "
               "[total_k, Hkv, D] with cu_seqlens_q, cu_seqlens_k [B + 1]; --seq-q and --seq-k are the "
               "longest lengths, the LSE is [B, Hq, Sq]");
  app.add_flag("--seqused", f.seqused,
               "with --varlen: sequence b uses the first seqused_q[b] rows of its span in cu_seqlens_q and "
               "the first seqused_k[b] of its keys (int32 [B]; FlashAttention-3's seqused_q, seqused_k); "
               "the rest is a gap, neither read nor written");
}

Problem listingProblem() {
  Problem p;
  p.batch = {1, false};
  p.heads_q = p.heads_kv = 4;
  p.seq_q = p.seq_k = {128, false};
  p.head_dim = 64;
  p.dtype = DType::F16;
  return p;
}

namespace {

ProblemError bad(const std::string &flag, const std::string &value, const std::string &allowed) {
  return ProblemError{flag, "'" + value + "'", allowed};
}

std::optional<int64_t> parseInt(const std::string &s) {
  if (s.empty() || s.size() > 18)
    return std::nullopt;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size())
    return std::nullopt;
  for (size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9')
      return std::nullopt;
  return std::stoll(s);
}

std::optional<ProblemError> parseExtent(const std::string &flag, const std::string &s, Extent &e) {
  if (s == "?") {
    e = {0, true};
    return std::nullopt;
  }
  bool sym = s.rfind("?=", 0) == 0;
  std::optional<int64_t> v = parseInt(sym ? s.substr(2) : s);
  if (!v)
    return bad(flag, s, "an integer, '?' (symbolic) or '?=N' (symbolic, run with N)");
  e = {*v, sym};
  return std::nullopt;
}

std::optional<ProblemError> parseCount(const std::string &flag, const std::string &s, int64_t &out) {
  std::optional<int64_t> v = parseInt(s);
  if (!v)
    return bad(flag, s, "an integer");
  out = *v;
  return std::nullopt;
}

std::optional<ProblemError> parseReal(const std::string &flag, const std::string &s, double &out) {
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || errno != 0 || !std::isfinite(v))
    return bad(flag, s, "a finite number");
  out = v;
  return std::nullopt;
}

std::vector<std::string> splitComma(const std::string &s) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    parts.push_back(item);
  if (!s.empty() && s.back() == ',')
    parts.push_back("");
  return parts;
}

} // namespace

std::optional<ProblemError> applyFlags(const ProblemFlags &f, Problem &p) {
  std::optional<ProblemError> e;
  if (!f.kind.empty()) {
    if (f.kind == "attention")
      p.kind = ProblemKind::Attention;
    else if (f.kind == "logsumexp")
      p.kind = ProblemKind::LogSumExp;
    else if (f.kind == "rowsum")
      p.kind = ProblemKind::RowSum;
    else
      return bad("--kind", f.kind, "attention, logsumexp or rowsum");
  }
  if (!f.shape.empty()) {
    std::vector<std::string> parts = splitComma(f.shape);
    if (parts.size() != 4)
      return bad("--shape", f.shape,
                 "four comma-separated sizes: B,H,S,D (attention) or B,H,Sq,N (row reductions)");
    int64_t heads = 0;
    if ((e = parseExtent("--shape (batch)", parts[0], p.batch)) ||
        (e = parseCount("--shape (heads)", parts[1], heads)))
      return e;
    p.heads_q = p.heads_kv = heads;
    if (p.kind == ProblemKind::Attention) {
      if ((e = parseExtent("--shape (sequence)", parts[2], p.seq_q)) ||
          (e = parseCount("--shape (head dim)", parts[3], p.head_dim)))
        return e;
      p.seq_k = p.seq_q;
    } else if ((e = parseExtent("--shape (rows)", parts[2], p.seq_q)) ||
               (e = parseExtent("--shape (row length)", parts[3], p.seq_k))) {
      return e;
    }
  }
  if (!f.batch.empty() && (e = parseExtent("--batch", f.batch, p.batch)))
    return e;
  if (!f.heads.empty()) {
    if ((e = parseCount("--heads", f.heads, p.heads_q)))
      return e;
    p.heads_kv = p.heads_q;
  }
  if (!f.headsQ.empty() && (e = parseCount("--heads-q", f.headsQ, p.heads_q)))
    return e;
  if (!f.headsKv.empty() && (e = parseCount("--heads-kv", f.headsKv, p.heads_kv)))
    return e;
  if (!f.seq.empty()) {
    if ((e = parseExtent("--seq", f.seq, p.seq_q)))
      return e;
    p.seq_k = p.seq_q;
  }
  if (!f.seqQ.empty() && (e = parseExtent("--seq-q", f.seqQ, p.seq_q)))
    return e;
  if (!f.seqK.empty() && (e = parseExtent("--seq-k", f.seqK, p.seq_k)))
    return e;
  if (!f.headDim.empty() && (e = parseCount("--head-dim", f.headDim, p.head_dim)))
    return e;
  if (!f.dtype.empty()) {
    if (f.dtype == "f16")
      p.dtype = DType::F16;
    else if (f.dtype == "bf16")
      p.dtype = DType::BF16;
    else if (f.dtype == "f32")
      p.dtype = DType::F32;
    else
      return bad("--dtype", f.dtype, "f16, bf16 or f32");
  }
  double x = 0;
  if (!f.scale.empty()) {
    if ((e = parseReal("--scale", f.scale, x)))
      return e;
    p.scale = x;
  }
  if (f.causal)
    p.causal = true;
  if (!f.window.empty()) {
    int64_t w = 0;
    if ((e = parseCount("--window", f.window, w)))
      return e;
    p.window = w;
  }
  if (!f.softcap.empty()) {
    if ((e = parseReal("--softcap", f.softcap, x)))
      return e;
    p.softcap = x;
  }
  if (f.alibi)
    p.alibi = true;
  if (f.varlen)
    p.varlen = true;
  if (f.seqused)
    p.seqused = true;
  if (!f.paged.empty()) {
    if ((e = parseCount("--paged", f.paged, p.page_size)))
      return e;
    if (p.page_size == 0)
      return bad("--paged", f.paged, "a page size >= 1 (leave --paged out for contiguous K and V)");
  }
  if (!f.kvLayout.empty()) {
    if (f.paged.empty())
      return bad("--kv-layout", f.kvLayout, "only with --paged P");
    if (f.kvLayout != "nhd" && f.kvLayout != "hnd")
      return bad("--kv-layout", f.kvLayout, "nhd or hnd");
    p.kv_hnd = f.kvLayout == "hnd";
  }
  if (!f.pages.empty()) {
    if (f.paged.empty())
      return bad("--pages", f.pages, "only with --paged P");
    if ((e = parseCount("--pages", f.pages, p.num_pages)))
      return e;
  }
  if (f.bias || !f.biasShape.empty())
    p.bias = true;
  if (!f.biasShape.empty()) {
    // Entries are integers, or '?' for a symbolic extent (which must be symbolic here too).
    std::vector<std::string> parts = splitComma(f.biasShape);
    auto show = [](const Extent &e) { return e.symbolic ? std::string("?") : std::to_string(e.value); };
    auto orOne = [](const std::string &x) { return x == "1" ? x : x + " or 1"; };
    std::string expected = "[" + orOne(show(p.batch)) + ", " + orOne(std::to_string(p.heads_q)) +
                           ", " + show(p.seq_q) + ", " + show(p.seq_k) + "]";
    auto matches = [](const std::string &s, const Extent &e, bool broadcast) {
      if (s == "?")
        return e.symbolic;
      std::optional<int64_t> v = parseInt(s);
      return v && ((broadcast && *v == 1) || (!e.symbolic && *v == e.value));
    };
    for (const std::string &x : parts)
      if (x != "?" && !parseInt(x))
        return bad("--bias-shape", f.biasShape,
                   "four comma-separated sizes: integers, or ? for a symbolic length");
    Extent heads{p.heads_q, false};
    if (parts.size() != 4 || !matches(parts[0], p.batch, true) || !matches(parts[1], heads, true) ||
        !matches(parts[2], p.seq_q, false) || !matches(parts[3], p.seq_k, false))
      return ProblemError{"bias shape", "[" + f.biasShape + "]", "broadcastable to " + expected};
    std::vector<int64_t> dims;
    for (const std::string &s : parts)
      dims.push_back(s == "?" ? -1 : *parseInt(s));
    // 1 over a batch of 1 is no broadcast; over a symbolic batch it is.
    p.bias_batch_broadcast = dims[0] == 1 && (p.batch.symbolic || p.batch.value != 1);
    p.bias_head_broadcast = dims[1] == 1 && p.heads_q != 1;
  }
  return std::nullopt;
}

ProblemError nameFlag(ProblemError e, const ProblemFlags &f) {
  struct Field {
    const char *field, *flag;
    const std::string *value;
  };
  // Several flags can set one field; name the most specific one given.
  const Field fields[] = {
      {"head_dim", "--head-dim", &f.headDim}, {"head_dim", "--shape", &f.shape},
      {"window", "--window", &f.window},      {"softcap", "--softcap", &f.softcap},
      {"scale", "--scale", &f.scale},         {"batch", "--batch", &f.batch},
      {"batch", "--shape", &f.shape},         {"seq_q", "--seq-q", &f.seqQ},
      {"seq_q", "--seq", &f.seq},             {"seq_q", "--shape", &f.shape},
      {"seq_k", "--seq-k", &f.seqK},          {"seq_k", "--seq", &f.seq},
      {"seq_k", "--shape", &f.shape},         {"heads_q", "--heads-q", &f.headsQ},
      {"heads_q", "--heads", &f.heads},       {"heads_q", "--shape", &f.shape},
      {"heads_kv", "--heads-kv", &f.headsKv}, {"heads_kv", "--heads", &f.heads},
      {"heads_kv", "--shape", &f.shape},      {"paged", "--paged", &f.paged},
      {"num_pages", "--pages", &f.pages},
  };
  const std::pair<const char *, bool> switches[] = {
      {"causal", f.causal}, {"alibi", f.alibi}, {"bias", f.bias || !f.biasShape.empty()},
      {"varlen", f.varlen}, {"seqused", f.seqused}};
  for (auto [field, given] : switches)
    if (e.argument == field && given) {
      e.argument = std::string("--") + field;
      return e;
    }
  for (const Field &x : fields)
    if (e.argument == x.field && !x.value->empty()) {
      e.argument = std::string(x.flag) + (std::string(x.flag) == "--shape" ? " (" + e.argument + ")" : "");
      break;
    }
  return e;
}

std::string givenProblemFlag(const ProblemFlags &f) {
  const std::pair<const char *, const std::string *> values[] = {
      {"--kind", &f.kind},        {"--shape", &f.shape},     {"--batch", &f.batch},
      {"--heads", &f.heads},      {"--heads-q", &f.headsQ},  {"--heads-kv", &f.headsKv},
      {"--seq", &f.seq},          {"--seq-q", &f.seqQ},      {"--seq-k", &f.seqK},
      {"--head-dim", &f.headDim}, {"--dtype", &f.dtype},     {"--scale", &f.scale},
      {"--window", &f.window},    {"--softcap", &f.softcap}, {"--bias-shape", &f.biasShape},
      {"--paged", &f.paged},      {"--pages", &f.pages},     {"--kv-layout", &f.kvLayout}};
  for (auto [flag, v] : values)
    if (!v->empty())
      return flag;
  if (f.causal)
    return "--causal";
  if (f.bias)
    return "--bias";
  if (f.alibi)
    return "--alibi";
  if (f.varlen)
    return "--varlen";
  if (f.seqused)
    return "--seqused";
  return "";
}

} // namespace attncc
