//===- Problem.cpp - problem specs: validation and JSON -------------------===//
//
// Semantics (the contract every kernel, every CPU-executed IR and the
// references in Reference.cpp implement):
//
// Attention, per (b, h, i) with group = Hq / Hkv, kv head = h / group,
// offset = Sk - Sq (bottom-right alignment when Sq != Sk):
//   s_ij  = scale * dot(q_i, k_j)                 scale defaults to 1/sqrt(D)
//   s_ij  = c * tanh(s_ij / c)                    if softcap c is set
//   s_ij += -slope_h * |i + offset - j|           if alibi, slope_h = 2^(-8 (h+1) / Hq)
//   s_ij += bias[b or 0, h or 0, i, j]            if bias (0 on a broadcast extent)
//   mask: causal keeps j <= i + offset;
//         window w keeps j >= i + offset - w, and, when not causal, also
//         j <= i + offset + w: without causal the window is the symmetric band
//         |i + offset - j| <= w; with causal it is the band below the diagonal.
//   masked scores are -inf; o_i = sum_j softmax_j(s_i) v_j;
//   lse_i = m + log(sum_j exp(s_ij - m)), m = max_j s_ij.
//   A fully masked row (every score -inf) gives o_i = 0 and lse_i = -inf, never NaN.
// LogSumExp: X [B, Hq, Sq, Sk]; out = log sum_j exp(scale * x_ij).
// RowSum:    X [B, Hq, Sq, Sk]; out = sum_j scale * x_ij.
// Paged KV (page_size P > 0): K and V rows come from a cache of pages,
//   [num_pages, P, Hkv, D] (NHD) or [num_pages, Hkv, P, D] (HND, kv_layout
//   "hnd"): key j of sequence b is row j % P of page
//   block_table[b, j / P], and only keys j < kv_lens[b] exist, so offset is
//   kv_lens[b] - Sq for that sequence (seq_k is the capacity). kv_lens and
//   block_table are inputs, checked by checkPagedInputs.
// Varlen (varlen: true): sequence b has len_q = cu_seqlens_q[b + 1] -
//   cu_seqlens_q[b] query rows (rows cu_seqlens_q[b] + i of the packed Q and
//   O) and len_k keys (rows cu_seqlens_k[b] + j of the packed K and V), each
//   at most seq_q / seq_k; offset is len_k - len_q for that sequence. LSE
//   [B, Hq, seq_q] holds row i < len_q; the rows past it are not written.
//   The cumulative lengths are inputs, checked by checkVarlenInputs. With a
//   paged cache (chunked prefill over a KV cache) only the queries are
//   packed: the keys are the cache's, kv_lens[b] of them, and there is no
//   cu_seqlens_k.
//   With seqused (FlashAttention-3's seqused_q, seqused_k: int32 [B]),
//   len_q = seqused_q[b] and len_k = seqused_k[b], each at most its
//   sequence's span in the cumulative lengths; the rows of a span past its
//   length are a gap: not read, and O's rows there are not written.
//   For both row reductions scale defaults to 1, heads_kv must equal heads_q,
//   head_dim is ignored (neither validated nor used), and the attention-only
//   modifiers (causal, window, bias, alibi, softcap) are rejected.
//
// Sizes: batch, seq_q and seq_k may be symbolic; a symbolic extent with value
// 0 means "unknown" (fine for compiling, not for running). Every size is at
// most 2^31 - 1 so that element counts and kernel indices cannot overflow.
// The lengths seq_q, seq_k and the window are at most 2^29: the kernels keep
// a tile's row and key indices (which only masks read) as 32-bit ints, and a
// mask adds up to three of these (row + (seq_k - seq_q) - window) plus a
// block, which stays below 2^31.
//
//===----------------------------------------------------------------------===//
#include "runtime/problem/Problem.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace attncc {

namespace {
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

constexpr int64_t kMaxSize = 2147483647; // 2^31 - 1
constexpr int64_t kMaxLength = 536870912; // 2^29: seq_q, seq_k, window
constexpr int64_t kHeadDims[] = {32, 64, 96, 128, 256};
constexpr const char *kHeadDimsText = "one of 32, 64, 96, 128, 256";
constexpr const char *kKeys[] = {"kind",   "batch",  "heads_q", "heads_kv", "seq_q",
                                 "seq_k",  "head_dim", "dtype", "scale",    "causal",
                                 "window", "bias",   "alibi",   "softcap",  "paged",
                                 "num_pages", "kv_layout", "varlen", "seqused"};
constexpr int64_t kMaxPageSize = 65536;

/// Shortest decimal text that reads back as the same double ("0.1", not
/// "0.10000000000000001"); "inf", "-inf", "nan" for the non-finite ones.
std::string fmtDouble(double x) {
  if (std::isnan(x))
    return "nan";
  if (std::isinf(x))
    return x > 0 ? "inf" : "-inf";
  char buf[64];
  if (x == std::floor(x) && std::fabs(x) < 1e15) { // integers without an exponent
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, x);
    if (std::strtod(buf, nullptr) == x)
      break;
  }
  return buf;
}

std::string fmtExtent(Extent e) {
  if (!e.symbolic)
    return std::to_string(e.value);
  return e.value == 0 ? "?" : "?=" + std::to_string(e.value);
}

ProblemError makeError(std::string argument, std::string value, std::string allowed) {
  return ProblemError{std::move(argument), std::move(value), std::move(allowed)};
}

std::optional<ProblemError> checkExtent(const char *name, Extent e) {
  bool ok = e.symbolic ? e.value >= 0 : e.value >= 1;
  if (!ok)
    return makeError(name, fmtExtent(e),
                     std::string(name) + " must be >= 1 (or \"?\" when symbolic)");
  if (e.value > kMaxSize)
    return makeError(name, fmtExtent(e), std::string(name) + " must be <= 2147483647");
  return std::nullopt;
}

std::optional<ProblemError> checkLength(const char *name, Extent e) {
  if (auto err = checkExtent(name, e))
    return err;
  if (e.value > kMaxLength)
    return makeError(name, fmtExtent(e),
                     std::string(name) + " must be <= 536870912 (2^29: mask indices are 32-bit)");
  return std::nullopt;
}

std::optional<ProblemError> checkCount(const char *name, int64_t v) {
  if (v < 1)
    return makeError(name, std::to_string(v), std::string(name) + " must be >= 1");
  if (v > kMaxSize)
    return makeError(name, std::to_string(v), std::string(name) + " must be <= 2147483647");
  return std::nullopt;
}
} // namespace

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F32: return "f32";
  }
  return "?";
}

const char *kindName(ProblemKind k) {
  switch (k) {
  case ProblemKind::Attention: return "attention";
  case ProblemKind::LogSumExp: return "logsumexp";
  case ProblemKind::RowSum: return "rowsum";
  }
  return "?";
}

double Problem::effectiveScale() const {
  if (scale)
    return *scale;
  if (kind != ProblemKind::Attention)
    return 1.0;
  return head_dim > 0 ? 1.0 / std::sqrt(static_cast<double>(head_dim)) : 1.0;
}

std::string Problem::shapeName() const {
  return std::to_string(batch.value) + "x" + std::to_string(heads_q) + "/" + std::to_string(heads_kv) +
         "x" + std::to_string(seq_q.value) + "x" + std::to_string(seq_k.value) + "x" +
         std::to_string(head_dim);
}

int64_t Problem::maxPages() const {
  return page_size > 0 ? (seq_k.value + page_size - 1) / page_size : 0;
}

int64_t Problem::cachePages() const {
  return num_pages > 0 ? num_pages : batch.value * maxPages();
}

std::vector<int64_t> Problem::cacheShape() const {
  if (kv_hnd)
    return {cachePages(), heads_kv, page_size, head_dim};
  return {cachePages(), page_size, heads_kv * head_dim};
}

std::vector<int64_t> Problem::packedShape(bool keys, int64_t total) const {
  return {total, (keys ? heads_kv : heads_q) * head_dim};
}

double Problem::flops() const {
  double rows = static_cast<double>(batch.value) * heads_q * seq_q.value * seq_k.value;
  if (kind != ProblemKind::Attention)
    return 2.0 * rows;
  double f = 4.0 * rows * head_dim;
  return causal ? f / 2 : f;
}

bool operator==(const Problem &a, const Problem &b) {
  // A broadcast flag over a concrete extent of 1 changes nothing (the bias has
  // extent 1 there either way), and JSON cannot tell the two apart: ignore it.
  auto flagEq = [](bool x, bool y, int64_t extent, bool symbolic) {
    return x == y || (!symbolic && extent == 1);
  };
  return a.kind == b.kind && a.batch == b.batch && a.heads_q == b.heads_q &&
         a.heads_kv == b.heads_kv && a.seq_q == b.seq_q && a.seq_k == b.seq_k &&
         a.head_dim == b.head_dim && a.dtype == b.dtype && a.scale == b.scale &&
         a.causal == b.causal && a.window == b.window && a.bias == b.bias &&
         flagEq(a.bias_batch_broadcast, b.bias_batch_broadcast, a.batch.value,
                a.batch.symbolic) &&
         flagEq(a.bias_head_broadcast, b.bias_head_broadcast, a.heads_q, false) &&
         a.alibi == b.alibi && a.softcap == b.softcap && a.page_size == b.page_size &&
         a.num_pages == b.num_pages && a.kv_hnd == b.kv_hnd && a.varlen == b.varlen &&
         a.seqused == b.seqused;
}

std::string ProblemError::message() const {
  return "invalid " + argument + " = " + value + ": " + allowed;
}

std::optional<ProblemError> validate(const Problem &p) {
  bool attention = p.kind == ProblemKind::Attention;
  if (auto e = checkExtent("batch", p.batch))
    return e;
  if (auto e = checkCount("heads_q", p.heads_q))
    return e;
  if (auto e = checkCount("heads_kv", p.heads_kv))
    return e;
  if (p.heads_q % p.heads_kv != 0)
    return makeError("heads_q % heads_kv",
                     std::to_string(p.heads_q) + " % " + std::to_string(p.heads_kv) + " = " +
                         std::to_string(p.heads_q % p.heads_kv),
                     "heads_q must be a multiple of heads_kv");
  if (!attention && p.heads_kv != p.heads_q)
    return makeError("heads_kv", std::to_string(p.heads_kv),
                     "must equal heads_q (" + std::to_string(p.heads_q) + ") for kind " +
                         kindName(p.kind));
  if (auto e = checkLength("seq_q", p.seq_q))
    return e;
  if (auto e = checkLength("seq_k", p.seq_k))
    return e;
  if (attention) {
    bool known = false;
    for (int64_t d : kHeadDims)
      known |= d == p.head_dim;
    if (!known)
      return makeError("head_dim", std::to_string(p.head_dim), kHeadDimsText);
  }
  if (p.scale && !(std::isfinite(*p.scale) && *p.scale > 0))
    return makeError("scale", fmtDouble(*p.scale), "scale must be finite and > 0");

  if (!attention) {
    std::string only = std::string("only for kind attention (kind is ") + kindName(p.kind) + ")";
    if (p.causal)
      return makeError("causal", "true", only);
    if (p.window)
      return makeError("window", std::to_string(*p.window), only);
    if (p.bias)
      return makeError("bias", "true", only);
    if (p.alibi)
      return makeError("alibi", "true", only);
    if (p.softcap)
      return makeError("softcap", fmtDouble(*p.softcap), only);
  }
  if (p.window && *p.window < 0)
    return makeError("window", std::to_string(*p.window),
                     "window must be >= 0 (keys within window of the diagonal)");
  if (p.window && *p.window > kMaxLength)
    return makeError("window", std::to_string(*p.window),
                     "window must be <= 536870912 (2^29: mask indices are 32-bit)");
  if (p.softcap && !(std::isfinite(*p.softcap) && *p.softcap > 0))
    return makeError("softcap", fmtDouble(*p.softcap), "softcap must be finite and > 0");
  if (p.page_size < 0 || p.page_size > kMaxPageSize)
    return makeError("paged", std::to_string(p.page_size),
                     "the page size must be between 1 and 65536 rows (0: K and V not paged)");
  if (p.paged() && !attention)
    return makeError("paged", std::to_string(p.page_size),
                     std::string("only for kind attention (kind is ") + kindName(p.kind) + ")");
  if (p.num_pages < 0 || p.num_pages > kMaxSize)
    return makeError("num_pages", std::to_string(p.num_pages),
                     "num_pages must be between 1 and 2147483647 (0: batch * max_pages)");
  if (p.num_pages && !p.paged())
    return makeError("num_pages", std::to_string(p.num_pages), "only with paged (a page size)");
  if (p.kv_hnd && !p.paged())
    return makeError("kv_layout", "hnd", "only with paged (a page size)");
  if (p.varlen && !attention)
    return makeError("varlen", "true",
                     std::string("only for kind attention (kind is ") + kindName(p.kind) + ")");
  if (p.varlen && p.bias)
    return makeError("varlen", "true", "not with bias (a bias over packed sequences is not built yet)");
  if (p.seqused && !p.varlen)
    return makeError("seqused", "true", "only with varlen (the lengths used of packed sequences)");
  if (!p.bias && p.bias_batch_broadcast)
    return makeError("bias_batch_broadcast", "true", "only with bias");
  if (!p.bias && p.bias_head_broadcast)
    return makeError("bias_head_broadcast", "true", "only with bias");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// JSON
//
// {"kind": "attention" | "logsumexp" | "rowsum",          default "attention"
//  "batch", "seq_q", "seq_k": int | "?" | "?=N" | {"symbolic": b, "value": N}
//                                                        default 1
//  "heads_q", "heads_kv", "head_dim": int                 default 1, 1, 64
//  "dtype": "f16" | "bf16" | "f32"                        default "f16"
//  "scale", "softcap": number | null                      default null
//  "window": int | null                                   default null
//  "causal", "alibi": bool                                default false
//  "paged": int (page size, 1-65536) | null               default null (not paged)
//  "num_pages": int | null       (paged: pages in the cache) default null (batch * max_pages)
//  "kv_layout": "nhd" | "hnd"    (paged: the cache's layout)  default "nhd"
//  "varlen": bool     (packed sequences; seq_q, seq_k the longest) default false
//  "seqused": bool    (varlen: seqused_q / seqused_k [B], the rows used) default false
//  "bias": false | true | "none" | "full" | [Bb, Hb, Sq, Sk]   default false
//     shape entries are ints or "?"; Bb is 1 (broadcast) or B, Hb is 1 or Hq,
//     a symbolic extent is written "?".}
//===----------------------------------------------------------------------===//

namespace {

/// Reads JSON into a Problem, recording the first error.
class Reader {
public:
  explicit Reader(ProblemError &err) : err_(err) {}

  bool fail(std::string argument, std::string value, std::string allowed) {
    err_ = makeError(std::move(argument), std::move(value), std::move(allowed));
    return false;
  }

  bool readInt(const json &v, const char *key, int64_t &out) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      return fail(key, v.dump(), "an integer <= 9223372036854775807");
    if (!v.is_number_integer())
      return fail(key, v.dump(), "an integer");
    out = v.get<int64_t>();
    return true;
  }

  bool readExtent(const json &v, const char *key, Extent &out) {
    const char *allowed = "an integer, \"?\" or \"?=N\"";
    if (v.is_number_integer()) {
      out.symbolic = false;
      return readInt(v, key, out.value);
    }
    if (v.is_string()) {
      const std::string &s = v.get_ref<const std::string &>();
      if (s == "?") {
        out = Extent{0, true};
        return true;
      }
      // "?=N": N is 1 to 18 decimal digits (fits in int64).
      if (s.size() < 3 || s.size() > 20 || s.compare(0, 2, "?=") != 0 ||
          s.find_first_not_of("0123456789", 2) != std::string::npos)
        return fail(key, v.dump(), allowed);
      out = Extent{std::stoll(s.substr(2)), true};
      return true;
    }
    if (v.is_object()) {
      out = Extent{0, false};
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (it.key() == "symbolic") {
          if (!it.value().is_boolean())
            return fail(std::string(key) + ".symbolic", it.value().dump(), "true or false");
          out.symbolic = it.value().get<bool>();
        } else if (it.key() == "value") {
          if (!readInt(it.value(), (std::string(key) + ".value").c_str(), out.value))
            return false;
        } else {
          return fail(std::string(key) + " key", "\"" + it.key() + "\"",
                      "one of symbolic, value");
        }
      }
      return true;
    }
    return fail(key, v.dump(), allowed);
  }

  bool readNumber(const json &v, const char *key, std::optional<double> &out) {
    if (v.is_null()) {
      out.reset();
      return true;
    }
    if (!v.is_number())
      return fail(key, v.dump(), "a number or null");
    out = v.get<double>();
    return true;
  }

  bool readBool(const json &v, const char *key, bool &out) {
    if (!v.is_boolean())
      return fail(key, v.dump(), "true or false");
    out = v.get<bool>();
    return true;
  }

  /// Bias after the sizes are known. A shape entry matching the extent means
  /// no broadcast; 1 on batch/heads means broadcast; symbolic extents are "?".
  bool readBias(const json &v, Problem &p) {
    p.bias_batch_broadcast = p.bias_head_broadcast = false;
    if (v.is_boolean()) {
      p.bias = v.get<bool>();
      return true;
    }
    if (v.is_string() && (v == "none" || v == "full")) {
      p.bias = v == "full";
      return true;
    }
    if (!v.is_array())
      return fail("bias", v.dump(), "true, false or a shape [B or 1, Hq or 1, Sq, Sk]");
    Extent heads{p.heads_q, false};
    const Extent dims[4] = {p.batch, heads, p.seq_q, p.seq_k};
    auto expectedText = [&](int d) {
      std::string e = dims[d].symbolic ? "\"?\"" : std::to_string(dims[d].value);
      return d < 2 && e != "1" ? e + " or 1" : e;
    };
    std::string expected = "expected [B or 1, Hq or 1, Sq, Sk] = [";
    for (int d = 0; d < 4; ++d)
      expected += (d ? ", " : "") + expectedText(d);
    expected += "]";
    std::string given = "[";
    for (size_t d = 0; d < v.size(); ++d)
      given += (d ? ", " : "") + v[d].dump();
    given += "]";

    if (v.size() != 4)
      return fail("bias shape", given, expected);
    bool broadcast[2] = {false, false};
    for (int d = 0; d < 4; ++d) {
      const json &e = v[d];
      bool matches = dims[d].symbolic ? (e.is_string() && e == "?")
                                      : (e.is_number_integer() && e == dims[d].value);
      if (matches)
        continue;
      if (d < 2 && e.is_number_integer() && e == 1) {
        broadcast[d] = true;
        continue;
      }
      return fail("bias shape", given, expected);
    }
    p.bias = true;
    p.bias_batch_broadcast = broadcast[0];
    p.bias_head_broadcast = broadcast[1];
    return true;
  }

  std::optional<Problem> read(const json &doc) {
    if (!doc.is_object()) {
      std::string text = doc.dump();
      if (text.size() > 60)
        text = text.substr(0, 57) + "...";
      fail("json", text, "a JSON object");
      return std::nullopt;
    }
    Problem p;
    const json *bias = nullptr;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      const std::string &key = it.key();
      const json &v = it.value();
      bool ok = true;
      if (key == "kind") {
        if (v == "attention")
          p.kind = ProblemKind::Attention;
        else if (v == "logsumexp")
          p.kind = ProblemKind::LogSumExp;
        else if (v == "rowsum")
          p.kind = ProblemKind::RowSum;
        else
          ok = fail("kind", v.dump(), "one of attention, logsumexp, rowsum");
      } else if (key == "dtype") {
        if (v == "f16")
          p.dtype = DType::F16;
        else if (v == "bf16")
          p.dtype = DType::BF16;
        else if (v == "f32")
          p.dtype = DType::F32;
        else
          ok = fail("dtype", v.dump(), "one of f16, bf16, f32");
      } else if (key == "batch") {
        ok = readExtent(v, "batch", p.batch);
      } else if (key == "seq_q") {
        ok = readExtent(v, "seq_q", p.seq_q);
      } else if (key == "seq_k") {
        ok = readExtent(v, "seq_k", p.seq_k);
      } else if (key == "heads_q") {
        ok = readInt(v, "heads_q", p.heads_q);
      } else if (key == "heads_kv") {
        ok = readInt(v, "heads_kv", p.heads_kv);
      } else if (key == "head_dim") {
        ok = readInt(v, "head_dim", p.head_dim);
      } else if (key == "scale") {
        ok = readNumber(v, "scale", p.scale);
      } else if (key == "softcap") {
        ok = readNumber(v, "softcap", p.softcap);
      } else if (key == "window") {
        int64_t w = 0;
        if (v.is_null())
          p.window.reset();
        else if ((ok = readInt(v, "window", w)))
          p.window = w;
      } else if (key == "paged" || key == "num_pages") {
        int64_t n = 0;
        if (!v.is_null() && (ok = readInt(v, key.c_str(), n)) && n == 0)
          ok = fail(key, "0", key == "paged" ? "a page size >= 1, or null (not paged)"
                                             : "num_pages >= 1, or null (batch * max_pages)");
        (key == "paged" ? p.page_size : p.num_pages) = v.is_null() ? 0 : n;
      } else if (key == "kv_layout") {
        if (v == "nhd" || v == "hnd")
          p.kv_hnd = v == "hnd";
        else
          ok = fail("kv_layout", v.dump(), "nhd ([pages, page_size, heads_kv, head_dim]) or hnd ([pages, heads_kv, page_size, head_dim])");
      } else if (key == "causal") {
        ok = readBool(v, "causal", p.causal);
      } else if (key == "varlen") {
        ok = readBool(v, "varlen", p.varlen);
      } else if (key == "seqused") {
        ok = readBool(v, "seqused", p.seqused);
      } else if (key == "alibi") {
        ok = readBool(v, "alibi", p.alibi);
      } else if (key == "bias") {
        bias = &v;
      } else {
        std::string allowed = "one of";
        for (const char *k : kKeys)
          allowed += std::string(allowed.size() > 6 ? ", " : " ") + k;
        ok = fail("json key", "\"" + key + "\"", allowed);
      }
      if (!ok)
        return std::nullopt;
    }
    // Sizes first, so that a bias shape is checked against valid sizes.
    if (auto e = validate(p)) {
      err_ = *e;
      return std::nullopt;
    }
    if (bias && !readBias(*bias, p))
      return std::nullopt;
    if (auto e = validate(p)) {
      err_ = *e;
      return std::nullopt;
    }
    return p;
  }

private:
  ProblemError &err_;
};

template <typename J> J extentJson(Extent e) {
  if (!e.symbolic)
    return J(e.value);
  return J(fmtExtent(e));
}

} // namespace

std::optional<Problem> problemFromJson(const std::string &text, ProblemError &err) {
  try {
    json doc = json::parse(text);
    return Reader(err).read(doc);
  } catch (const json::exception &e) {
    // Strip nlohmann's "[json.exception.parse_error.101] " prefix.
    std::string what = e.what();
    size_t close = what.find("] ");
    if (what.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
      what = what.substr(close + 2);
    err = makeError("json", what, "a well-formed JSON object");
  } catch (const std::exception &e) {
    err = makeError("json", e.what(), "a well-formed JSON object");
  } catch (...) {
    err = makeError("json", "(unknown error)", "a well-formed JSON object");
  }
  return std::nullopt;
}

std::string problemToJson(const Problem &p) {
  ojson j;
  j["kind"] = kindName(p.kind);
  j["batch"] = extentJson<ojson>(p.batch);
  j["heads_q"] = p.heads_q;
  j["heads_kv"] = p.heads_kv;
  j["seq_q"] = extentJson<ojson>(p.seq_q);
  j["seq_k"] = extentJson<ojson>(p.seq_k);
  j["head_dim"] = p.head_dim;
  j["dtype"] = dtypeName(p.dtype);
  j["scale"] = p.scale ? ojson(*p.scale) : ojson(nullptr);
  j["causal"] = p.causal;
  j["window"] = p.window ? ojson(*p.window) : ojson(nullptr);
  if (p.bias && (p.bias_batch_broadcast || p.bias_head_broadcast)) {
    auto dim = [](Extent e) { return e.symbolic ? ojson("?") : ojson(e.value); };
    ojson shape = ojson::array();
    shape.push_back(p.bias_batch_broadcast ? ojson(1) : dim(p.batch));
    shape.push_back(p.bias_head_broadcast ? ojson(1) : ojson(p.heads_q));
    shape.push_back(dim(p.seq_q));
    shape.push_back(dim(p.seq_k));
    j["bias"] = shape;
  } else {
    j["bias"] = p.bias;
  }
  j["alibi"] = p.alibi;
  j["softcap"] = p.softcap ? ojson(*p.softcap) : ojson(nullptr);
  j["paged"] = p.paged() ? ojson(p.page_size) : ojson(nullptr);
  j["num_pages"] = p.num_pages ? ojson(p.num_pages) : ojson(nullptr);
  j["kv_layout"] = p.kv_hnd ? "hnd" : "nhd";
  j["varlen"] = p.varlen;
  j["seqused"] = p.seqused;
  return j.dump(2);
}

} // namespace attncc
