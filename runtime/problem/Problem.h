//===- Problem.h - what is being computed, independent of how -------------===//
//
// An attention problem (or one of the non-attention row reductions) as the
// user states it: sizes, dtype, score modifiers. It is the contract between
// the front end (which builds monoid IR from it), bundles (which carry it to
// the GPU host as JSON) and the references (which compute it in float64).
//
// No MLIR dependency: the bundle runner on the GPU host links this.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_RUNTIME_PROBLEM_H
#define ATTNCC_RUNTIME_PROBLEM_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attncc {

enum class DType { F16, BF16, F32 };
const char *dtypeName(DType t); // "f16" | "bf16" | "f32"

/// Which reduction. Attention is the twisted (m, d, o) carrier; the others go
/// through the same passes with smaller carriers.
enum class ProblemKind {
  Attention, // O = softmax(scale * Q K^T + modifiers) V, per (batch, head, query row)
  LogSumExp, // out[b, h, i] = log sum_j exp(x[b, h, i, j] * scale)     carrier (m, d)
  RowSum     // out[b, h, i] = sum_j x[b, h, i, j] * scale               carrier (s: add)
};
const char *kindName(ProblemKind k); // "attention" | "logsumexp" | "rowsum"

/// A size that may be symbolic ("?" in the CLI/JSON): one kernel for all values.
/// `value` is the concrete extent used for running/testing; `symbolic` says the
/// IR must not specialize on it.
struct Extent {
  int64_t value = 0;
  bool symbolic = false;
};
inline bool operator==(const Extent &a, const Extent &b) {
  return a.value == b.value && a.symbolic == b.symbolic;
}
inline bool operator!=(const Extent &a, const Extent &b) { return !(a == b); }

struct Problem {
  ProblemKind kind = ProblemKind::Attention;
  Extent batch{1, false};
  int64_t heads_q = 1;
  int64_t heads_kv = 1; // Hq % Hkv == 0; GQA when 1 < Hq/Hkv < Hq, MQA when Hkv == 1
  Extent seq_q{1, false};
  Extent seq_k{1, false};
  int64_t head_dim = 64;    // d_qk == d_v
  DType dtype = DType::F16; // Q, K, V, O (and bias) element type
  std::optional<double> scale;   // default 1/sqrt(head_dim)
  bool causal = false;           // bottom-right aligned: key j visible to query i iff j <= i + (Sk - Sq)
  std::optional<int64_t> window; // sliding window: additionally j >= i + (Sk - Sq) - window
  bool bias = false;             // additive bias tensor [B or 1, Hq or 1, Sq, Sk] in dtype
  bool bias_batch_broadcast = false; // bias has batch extent 1
  bool bias_head_broadcast = false;  // bias has head extent 1
  bool alibi = false;            // score += -slope_h * |i + (Sk - Sq) - j|, slope_h = 2^(-8 (h+1) / Hq)
  std::optional<double> softcap; // score = softcap * tanh(score / softcap), applied after scale
  // Paged KV cache (page_size > 0; attention only): K and V are a cache of
  // pages, [num_pages, page_size, Hkv, D] (NHD: vLLM's and FlashInfer's
  // default) or [num_pages, Hkv, page_size, D] (HND), addressed through
  // block_table [B, max_pages] (int32 page indices) and kv_lens [B] (int32,
  // each in [0, seq_k]): key j < kv_lens[b] of sequence b is row
  // j % page_size of page block_table[b, j / page_size]. seq_k is the
  // capacity of a sequence; offset and masks use kv_lens[b] in place of Sk.
  int64_t page_size = 0;
  int64_t num_pages = 0; // 0: batch * max_pages (every sequence its own pages)
  bool kv_hnd = false;   // the HND layout (paged only); false: NHD
  // Varlen (attention only): a batch of sequences of different lengths,
  // packed (FlashAttention's varlen layout, THD): Q and O [total_q, Hq, D],
  // K and V [total_k, Hkv, D], sequence b's rows [cu_seqlens_q[b],
  // cu_seqlens_q[b + 1]) of Q and O and [cu_seqlens_k[b], cu_seqlens_k[b +
  // 1]) of K and V (cu_seqlens_q and cu_seqlens_k: int32 [B + 1], from 0,
  // non-decreasing). seq_q and seq_k are the longest lengths (max_seqlen);
  // the LSE is [B, Hq, seq_q], and its rows past a sequence's length are not
  // written. Offset and masks use the sequence's own lengths (bottom-right,
  // as for separate tensors of those lengths). With a paged cache only Q and
  // O are packed (cu_seqlens_q); the keys are the cache's (kv_lens).
  bool varlen = false;
  // Varlen with seqused (FlashAttention-3's seqused_q / seqused_k): sequence
  // b uses the first seqused_q[b] of its rows [cu_seqlens_q[b],
  // cu_seqlens_q[b + 1]) and the first seqused_k[b] of its keys (int32 [B],
  // each at most its span); the rest of its span is a gap nothing reads and
  // nothing writes. With a paged cache only seqused_q (the keys: kv_lens).
  bool seqused = false;

  bool paged() const { return page_size > 0; }
  /// ceil(seq_k / page_size): the block table's row length.
  int64_t maxPages() const;
  /// num_pages, or its default batch * max_pages.
  int64_t cachePages() const;
  /// The shape K and V of a paged problem are declared with: NHD
  /// [pages, page_size, Hkv * D] (the same bytes as [pages, page_size, Hkv,
  /// D], so a head's rows are a 2-d block) or HND [pages, Hkv, page_size, D].
  std::vector<int64_t> cacheShape() const;
  /// Varlen: the packed shape of Q and O ([total_q, Hq * D]) or K and V
  /// ([total_k, Hkv * D]), the same bytes as [total, H, D]: a head's rows
  /// are a 2-d block, as in an NHD cache.
  std::vector<int64_t> packedShape(bool keys, int64_t total) const;

  double effectiveScale() const;
  int64_t group() const { return heads_q / heads_kv; }
  /// 4 B Hq Sq Sk D, halved for causal (the convention of TESTING.md).
  double flops() const;
  /// "B x Hq/Hkv x Sq x Sk x D", as the result rows and anchors.py write it.
  std::string shapeName() const;
};
/// Field-by-field equality (scale and softcap compared exactly).
bool operator==(const Problem &a, const Problem &b);
inline bool operator!=(const Problem &a, const Problem &b) { return !(a == b); }

/// A problem the user got wrong: names the argument, its value, what is allowed.
struct ProblemError {
  std::string argument; // e.g. "head_dim", "--heads-kv", "bias shape"
  std::string value;
  std::string allowed;
  std::string message() const; // "invalid <argument> = <value>: <allowed>"
};

/// Checks every invariant (sizes > 0, Hq % Hkv == 0, supported head dims
/// {32, 64, 96, 128, 256}, window >= 0, softcap > 0, ...). Returns the first error.
std::optional<ProblemError> validate(const Problem &p);

/// JSON spec <-> Problem. Keys: kind, batch, heads_q, heads_kv, seq_q, seq_k,
/// head_dim, dtype, scale, causal, window, bias, alibi, softcap (full grammar
/// in Problem.cpp). Sizes batch/seq_q/seq_k: an integer, "?" (symbolic, value
/// unknown = 0), "?=N" (symbolic, run with N) or {"symbolic": b, "value": N}.
/// bias: false | true | a shape list [B or 1, Hq or 1, Sq, Sk] (also "none" |
/// "full"). Missing keys take defaults; unknown keys and wrong types are
/// errors; the result is validate()d. Never throws.
std::optional<Problem> problemFromJson(const std::string &text, ProblemError &err);
/// Writes every key; problemFromJson(problemToJson(p)) == p for a valid p.
std::string problemToJson(const Problem &p);

} // namespace attncc

#endif // ATTNCC_RUNTIME_PROBLEM_H
