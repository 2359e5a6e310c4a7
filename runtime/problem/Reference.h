//===- Reference.h - float64 references and the tolerance rule ------------===//
//
// The oracle every kernel and every CPU-executed IR is compared against.
// Layouts are dense row-major:
//   Attention: Q [B, Hq, Sq, D], K and V [B, Hkv, Sk, D], bias [Bb, Hb, Sq, Sk]
//              (Bb = 1 if bias_batch_broadcast else B; Hb = 1 if bias_head_broadcast else Hq),
//              O [B, Hq, Sq, D], LSE [B, Hq, Sq] (natural log; -inf for a fully masked row).
//   LogSumExp / RowSum: X [B, Hq, Sq, Sk] (stored in `q`), out [B, Hq, Sq] in f32.
//
// Tolerance rule (TESTING.md, after FlashAttention's suite):
//   max|out - ref| <= 2 * max|out_lowp - ref| + atol_floor
// where out_lowp is the naive computation in the kernel's input precision
// (operands in dtype, fp32 accumulation, P rounded to dtype before P.V, output
// rounded to dtype).
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_RUNTIME_REFERENCE_H
#define ATTNCC_RUNTIME_REFERENCE_H

#include "runtime/problem/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attncc {

/// Round-to-nearest-even to the dtype and back (f32 is the identity).
float roundToDType(DType t, float x);
/// Bit conversions for device buffers.
uint16_t floatToHalfBits(float x);
float halfBitsToFloat(uint16_t h);
uint16_t floatToBf16Bits(float x);
float bf16BitsToFloat(uint16_t h);

struct Inputs {
  std::vector<float> q, k, v, bias; // values already representable in the dtype
  // Paged KV (Problem::paged()): k and v above stay the logical [B, Hkv, Sk, D]
  // tensors the references read; the kernel reads the cache built from them.
  std::vector<float> k_cache, v_cache; // [num_pages, page_size, Hkv, D] (NHD) or [num_pages, Hkv, page_size, D] (HND)
  std::vector<int32_t> block_table;    // [B, max_pages]
  std::vector<int32_t> kv_lens;        // [B], each in [0, seq_k]
  // Varlen (Problem::varlen): q, k and v above stay the padded logical
  // [B, H, S, D] tensors the references read (rows past a sequence's length
  // hold values no result may depend on); the kernel reads the packed ones.
  std::vector<int32_t> cu_seqlens_q, cu_seqlens_k; // [B + 1], from 0
  std::vector<float> q_packed, k_packed, v_packed; // [total_q, Hq, D], [total_k, Hkv, D]
  // Varlen with seqused: the rows and keys each sequence uses ([B]); the
  // rest of its span is a gap (1 in the packed K, 1000 in V, 0.25 in Q).
  std::vector<int32_t> seqused_q, seqused_k;
  /// The int32 input of a kernel argument role (block_table, kv_lens,
  /// cu_seqlens_q/k, seqused_q/k), or null for any other role.
  const std::vector<int32_t> *indexInput(const std::string &role) const;
  /// Sequence b's query rows (keys): Sq (Sk) unless varlen (or paged keys).
  int64_t lenQ(const Problem &p, int64_t b) const;
  int64_t lenK(const Problem &p, int64_t b) const;
};

/// Element counts of each tensor for the problem (0 where absent).
struct Shapes {
  int64_t q = 0, k = 0, v = 0, bias = 0, out = 0, lse = 0;
};
Shapes shapesOf(const Problem &p);

/// Fresh random inputs (standard normal, rounded to dtype), deterministic in `seed`.
/// Paged problems also get ragged lengths (uniform in [1, seq_k], the last
/// sequence full), a random page for each used slot (distinct pages, a random
/// permutation of the cache), and the cache: each used page holds its rows of
/// k and v (rows past seq_k are 0), every page no sequence uses is NaN, and
/// the table's slots past a sequence's length name random pages (a kernel
/// that reads a key past kv_lens[b] into its result reads NaN).
/// With seqused, each span is its length plus a gap of 1 to 3 rows; a gap's
/// rows are 1 in the packed K and 1000 in V (a gap's key given any weight
/// moves its row far past the bound; finite, since a kernel may load them
/// with its last block, as with a paged cache's tails) and 0.25 in Q (a row
/// computed in a gap stores finite values there).
/// Varlen problems get ragged lengths (uniform in [1, seq_q] and [1, seq_k],
/// the last sequence full; with 3 or more sequences the first has no query
/// rows and the second no keys) and the packed Q, K and V built from q, k, v
/// (with a paged cache only Q: the keys are the cache's, kv_lens).
/// `fullLengths`: every length is seq_k (seq_q) (timing a paged cache or a
/// varlen batch against contiguous K and V: the same keys).
Inputs randomInputs(const Problem &p, uint64_t seed, bool fullLengths = false);

/// The first thing wrong with a paged problem's table or lengths: a length
/// outside [0, seq_k] ("length over capacity"), or a used slot's page outside
/// [0, num_pages). Slots past a sequence's length are not read as pages that
/// hold keys and are not checked.
std::optional<ProblemError> checkPagedInputs(const Problem &p, const Inputs &in);

/// The first thing wrong with a varlen problem's cumulative lengths: a wrong
/// count (batch + 1), a first entry other than 0, a decreasing entry, or a
/// length over seq_q / seq_k; with seqused, a count other than batch or a
/// length outside [0, its span].
std::optional<ProblemError> checkVarlenInputs(const Problem &p, const Inputs &in);

/// A varlen kernel's packed O [total_q, Hq, D] as the logical [B, Hq, Sq, D]
/// the references write (rows past a sequence's length 0, as the reference
/// gives a row without keys), and its LSE [B, Hq, Sq] with the rows past a
/// sequence's length that it left as the poison it found (NaN) set to the
/// reference's -inf. A row it wrote keeps the kernel's value, which checkLse
/// then holds against -inf. With seqused, the O rows in the gaps must still
/// hold the poison too: a gap row with any element written is counted.
struct WrittenPast {
  int64_t lseRows = 0; // LSE rows past a sequence's length, written
  int64_t gapRows = 0; // O rows in a gap between sequences (seqused), written
};
WrittenPast unpackVarlen(const Problem &p, const Inputs &in, const std::vector<double> &packedO,
                         std::vector<double> &o, std::vector<double> &lse);

/// Attention's flops for the lengths of `in` (varlen: the sum over the
/// sequences; otherwise Problem::flops()).
double flopsOf(const Problem &p, const Inputs &in);

/// Float64 reference. `lse` may be null. Fully masked rows give out = 0, lse = -inf.
void referenceF64(const Problem &p, const Inputs &in, std::vector<double> &out,
                  std::vector<double> *lse);

/// The naive low-precision computation (see the tolerance rule above).
/// `lse` (attention only; may be null) is the float log-sum-exp, not rounded
/// to dtype (kernels store LSE in f32).
void referenceLowp(const Problem &p, const Inputs &in, std::vector<double> &out,
                   std::vector<double> *lse = nullptr);

struct CheckResult {
  double maxErr = 0;       // max |out - ref| (inf if any NaN/inf in out where ref is finite)
  double lowpErr = 0;      // max |out_lowp - ref|
  double bound = 0;        // 2 * lowpErr + atolFloor
  int64_t worstIndex = -1;
  bool pass = false;
};
/// Floor of the bound for outputs stored in `t`: 1e-6 (f32), 1e-4 (f16),
/// 1e-3 (bf16); the reasons are in Reference.cpp.
double atolFloor(DType t);
/// Floor for an f32 log-sum-exp output: 1e-5.
double lseAtolFloor();
/// The rule above with atolFloor(p.dtype). Fails on a size mismatch, on NaN
/// anywhere in `out`, and where `out` is non-finite but `ref` is finite; where
/// `ref` is non-finite (a -inf LSE) `out` must be equal to it. Entries where
/// `lowp` is non-finite do not count towards lowpErr.
CheckResult checkTolerance(const Problem &p, const std::vector<double> &out,
                           const std::vector<double> &ref, const std::vector<double> &lowp);
/// The same rule with an explicit floor.
CheckResult checkToleranceWithFloor(const std::vector<double> &out,
                                    const std::vector<double> &ref,
                                    const std::vector<double> &lowp, double floor);
/// LSE check: checkToleranceWithFloor(lse, ref, lowp, lseAtolFloor()); a fully
/// masked row must give exactly -inf.
CheckResult checkLse(const std::vector<double> &lse, const std::vector<double> &ref,
                     const std::vector<double> &lowp);

} // namespace attncc

#endif // ATTNCC_RUNTIME_REFERENCE_H
