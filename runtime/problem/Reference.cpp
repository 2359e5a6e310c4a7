//===- Reference.cpp - float64 references and the tolerance rule ----------===//
//
// The semantics implemented here are stated at the top of Problem.cpp.
//
// referenceF64:  straightforward double loops, softmax with the row maximum
//                subtracted; a fully masked row gives o = 0 and lse = -inf.
// referenceLowp: what a naive kernel in the input precision computes:
//                operands as given (already representable in dtype), dot
//                products accumulated in float, modifiers and softmax in float
//                (P = exp(s - m) / l normalized, as PyTorch's softmax), P
//                rounded to dtype before P.V, P.V accumulated in float, output
//                rounded to dtype (for f32 no rounding anywhere).
//
//===----------------------------------------------------------------------===//
#include "runtime/problem/Reference.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>
#include <tuple>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace attncc {

//===----------------------------------------------------------------------===//
// fp16 / bf16, IEEE round-to-nearest-even by bit manipulation
//===----------------------------------------------------------------------===//

namespace {
uint32_t bitsOf(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
float floatOf(uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
/// m >> s (1 <= s <= 31), rounded to nearest, ties to even.
uint32_t shiftRoundEven(uint32_t m, int s) {
  uint32_t q = m >> s, rem = m & ((1u << s) - 1), half = 1u << (s - 1);
  if (rem > half || (rem == half && (q & 1u)))
    ++q; // a carry out of the mantissa correctly bumps the exponent
  return q;
}
} // namespace

uint16_t floatToHalfBits(float x) {
  uint32_t u = bitsOf(x);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) // NaN: stays NaN (quiet bit set), top payload bits kept
    return sign | 0x7e00u | ((a >> 13) & 0x3ffu);
  if (a >= 0x477ff000u) // inf, and everything >= 65520 (the tie above 65504 goes to even = inf)
    return sign | 0x7c00u;
  if (a >= 0x38800000u) // normal half (>= 2^-14): rebias the exponent 127 -> 15, drop 13 bits
    return sign | static_cast<uint16_t>(shiftRoundEven(a - 0x38000000u, 13));
  // Subnormal half or zero: x = m 2^(e-150) = (m 2^(e-126)) units of 2^-24.
  uint32_t e = a >> 23;
  if (e < 102) // |x| < 2^-25: below half the smallest subnormal
    return sign;
  uint32_t m = (a & 0x7fffffu) | 0x800000u;
  return sign | static_cast<uint16_t>(shiftRoundEven(m, static_cast<int>(126 - e)));
}

float halfBitsToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0) { // zero or subnormal: mant 2^-24, exact in float
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) // inf / NaN (payload kept)
    return floatOf(sign | 0x7f800000u | (mant << 13));
  return floatOf(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t floatToBf16Bits(float x) {
  uint32_t u = bitsOf(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep it NaN even if the payload is in the low bits
    return static_cast<uint16_t>((u >> 16) | 0x0040u);
  // Same exponent range as float: rounding the low 16 bits to even handles
  // subnormals and overflows to inf past bf16's max + half an ulp.
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

float bf16BitsToFloat(uint16_t h) { return floatOf(static_cast<uint32_t>(h) << 16); }

float roundToDType(DType t, float x) {
  switch (t) {
  case DType::F16: return halfBitsToFloat(floatToHalfBits(x));
  case DType::BF16: return bf16BitsToFloat(floatToBf16Bits(x));
  case DType::F32: return x;
  }
  return x;
}

//===----------------------------------------------------------------------===//
// Shapes and inputs
//===----------------------------------------------------------------------===//

namespace {
/// Product saturating at INT64_MAX (validated sizes cannot get there; this
/// only keeps absurd unvalidated ones from being undefined behaviour).
int64_t mul(std::initializer_list<int64_t> xs) {
  int64_t r = 1;
  for (int64_t x : xs)
    if (__builtin_mul_overflow(r, x, &r))
      return std::numeric_limits<int64_t>::max();
  return r;
}

/// Standard normal samples: mt19937_64 (fully specified by the standard) and
/// Box-Muller written out here, so that the stream does not depend on the
/// standard library's distribution (only on libm's log/sin/cos, which agree
/// to the last double bit in practice, far below the dtype rounding).
class NormalStream {
public:
  explicit NormalStream(uint64_t seed) : rng_(seed) {}
  double next() {
    if (hasSpare_) {
      hasSpare_ = false;
      return spare_;
    }
    double u1 = uniform(), u2 = uniform();
    double r = std::sqrt(-2.0 * std::log(u1));
    double t = 6.283185307179586476925286766559 * u2;
    spare_ = r * std::sin(t);
    hasSpare_ = true;
    return r * std::cos(t);
  }

private:
  double uniform() { // in (0, 1): 53 random bits, centred in their cell
    return (static_cast<double>(rng_() >> 11) + 0.5) * 0x1p-53;
  }
  std::mt19937_64 rng_;
  double spare_ = 0;
  bool hasSpare_ = false;
};

/// Tensors of up to kSerialFill elements take the next samples of the one
/// stream, as they always have. A larger one (a decode-sized KV cache: 1.07 GB
/// is 537M samples, about 15 s in one thread) is cut into chunks of kFillChunk
/// elements, chunk c drawn from its own stream seeded by (one draw of the main
/// stream, c), and the chunks are filled by all the host's threads. The values
/// depend on the seed only, not on the number of threads.
constexpr int64_t kSerialFill = int64_t(1) << 24, kFillChunk = int64_t(1) << 22;

void fill(std::vector<float> &v, int64_t n, DType t, NormalStream &rng) {
  v.resize(static_cast<size_t>(n));
  if (n <= kSerialFill) {
    for (float &x : v)
      x = roundToDType(t, static_cast<float>(rng.next()));
    return;
  }
  uint64_t base = static_cast<uint64_t>(rng.next() * 0x1p52);
  int64_t chunks = (n + kFillChunk - 1) / kFillChunk;
  std::atomic<int64_t> nextChunk{0};
  auto work = [&] {
    for (int64_t c; (c = nextChunk.fetch_add(1)) < chunks;) {
      NormalStream local(base ^ (0x9E3779B97F4A7C15ull * static_cast<uint64_t>(c + 1)));
      for (int64_t i = c * kFillChunk, e = std::min(n, i + kFillChunk); i < e; ++i)
        v[static_cast<size_t>(i)] = roundToDType(t, static_cast<float>(local.next()));
    }
  };
  unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i)
    pool.emplace_back(work);
  work();
  for (std::thread &th : pool)
    th.join();
}

void requireSize(const char *what, const std::vector<float> &v, int64_t n) {
  if (static_cast<int64_t>(v.size()) != n)
    throw std::invalid_argument(std::string("reference: input ") + what + " has " +
                                std::to_string(v.size()) + " elements, expected " +
                                std::to_string(n));
}
} // namespace

Shapes shapesOf(const Problem &p) {
  Shapes s;
  int64_t B = p.batch.value, Hq = p.heads_q, Sq = p.seq_q.value, Sk = p.seq_k.value;
  if (p.kind != ProblemKind::Attention) {
    s.q = mul({B, Hq, Sq, Sk});
    s.out = mul({B, Hq, Sq});
    return s;
  }
  int64_t D = p.head_dim;
  s.q = s.out = mul({B, Hq, Sq, D});
  s.k = s.v = mul({B, p.heads_kv, Sk, D});
  if (p.bias)
    s.bias = mul({p.bias_batch_broadcast ? 1 : B, p.bias_head_broadcast ? 1 : Hq, Sq, Sk});
  s.lse = mul({B, Hq, Sq});
  return s;
}

namespace {
/// The paged cache, table and lengths of randomInputs (see Reference.h).
void makePaged(const Problem &p, Inputs &in, uint64_t seed, bool fullLengths) {
  int64_t B = p.batch.value, Hkv = p.heads_kv, Sk = p.seq_k.value, D = p.head_dim,
          P = p.page_size, maxPages = p.maxPages(), pages = p.cachePages();
  std::mt19937_64 rng(seed ^ 0x5DEECE66Dull);
  in.kv_lens.resize(size_t(B));
  for (int64_t b = 0; b < B; ++b)
    in.kv_lens[size_t(b)] = int32_t(b == B - 1 || fullLengths ? Sk : 1 + int64_t(rng() % uint64_t(Sk)));
  std::vector<int32_t> perm(static_cast<size_t>(pages));
  for (int64_t i = 0; i < pages; ++i)
    perm[size_t(i)] = int32_t(i);
  std::shuffle(perm.begin(), perm.end(), rng);
  size_t cacheSize = size_t(pages * Hkv * P * D);
  in.k_cache.assign(cacheSize, std::numeric_limits<float>::quiet_NaN());
  in.v_cache.assign(cacheSize, std::numeric_limits<float>::quiet_NaN());
  in.block_table.resize(size_t(B * maxPages));
  size_t next = 0;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t slot = 0; slot < maxPages; ++slot) {
      int32_t &page = in.block_table[size_t(b * maxPages + slot)];
      if (slot * P >= in.kv_lens[size_t(b)] || next >= perm.size()) {
        page = int32_t(rng() % uint64_t(pages)); // never read as keys
        continue;
      }
      page = perm[next++];
      for (int64_t h = 0; h < Hkv; ++h)
        for (int64_t r = 0; r < P; ++r) {
          int64_t j = slot * P + r;
          size_t dst = p.kv_hnd ? size_t(((page * Hkv + h) * P + r) * D) // HND
                                : size_t(((page * P + r) * Hkv + h) * D); // NHD
          size_t src = size_t(((b * Hkv + h) * Sk + j) * D);
          for (int64_t d = 0; d < D; ++d) {
            in.k_cache[dst + size_t(d)] = j < Sk ? in.k[src + size_t(d)] : 0.0f;
            in.v_cache[dst + size_t(d)] = j < Sk ? in.v[src + size_t(d)] : 0.0f;
          }
        }
    }
}

/// The lengths and packed tensors of a varlen problem (see Reference.h).
void makeVarlen(const Problem &p, Inputs &in, uint64_t seed, bool fullLengths) {
  int64_t B = p.batch.value, Sq = p.seq_q.value, Sk = p.seq_k.value, D = p.head_dim;
  std::mt19937_64 rng(seed ^ 0x7A11E4ull);
  auto draw = [&](int64_t b, int64_t max, int64_t empty) {
    if (b == B - 1 || fullLengths)
      return max;
    if (B >= 3 && b == empty)
      return int64_t(0);
    return 1 + int64_t(rng() % uint64_t(max));
  };
  // With a paged cache the keys are the cache's (makePaged: kv_lens).
  bool keys = !p.paged();
  // seqused: a gap of 1 to 3 rows after each sequence.
  auto gap = [&]() { return p.seqused ? 1 + int64_t(rng() % 3) : int64_t(0); };
  in.cu_seqlens_q.assign(1, 0);
  in.cu_seqlens_k.assign(keys ? 1 : 0, 0);
  in.seqused_q.clear();
  in.seqused_k.clear();
  for (int64_t b = 0; b < B; ++b) {
    int64_t lq = draw(b, Sq, 0);
    if (p.seqused)
      in.seqused_q.push_back(int32_t(lq));
    in.cu_seqlens_q.push_back(int32_t(in.cu_seqlens_q.back() + lq + gap()));
    if (keys) {
      int64_t lk = draw(b, Sk, 1);
      if (p.seqused)
        in.seqused_k.push_back(int32_t(lk));
      in.cu_seqlens_k.push_back(int32_t(in.cu_seqlens_k.back() + lk + gap()));
    }
  }
  // Packed [total, H, D] from the logical [B, H, S, D]; a gap's rows hold
  // `gapValue`. K 1 and V 1000: a kernel may load a gap's keys with its last
  // block (as it loads the next sequence's without seqused) but must give
  // them weight 0; a key of a gap with any weight moves its row's O by
  // weight x 1000, far past the bound. Finite, like a paged cache's tails:
  // a NaN there would reach O through P = 0 times V (docs/design-decode.md).
  // Q 0.25: a query row computed in a gap stores finite values, which the
  // check finds in O's gap.
  auto pack = [&](const std::vector<float> &logical, bool keys, int64_t H, int64_t S, std::vector<float> &packed,
                  float gapValue) {
    const std::vector<int32_t> &cu = keys ? in.cu_seqlens_k : in.cu_seqlens_q;
    packed.assign(size_t(cu.back()) * size_t(H * D), gapValue);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t i = 0; i < (keys ? in.lenK(p, b) : in.lenQ(p, b)); ++i)
        for (int64_t h = 0; h < H; ++h)
          std::memcpy(&packed[size_t(((cu[size_t(b)] + i) * H + h) * D)],
                      &logical[size_t(((b * H + h) * S + i) * D)], size_t(D) * sizeof(float));
  };
  pack(in.q, /*keys=*/false, p.heads_q, Sq, in.q_packed, 0.25f);
  if (keys) {
    pack(in.k, /*keys=*/true, p.heads_kv, Sk, in.k_packed, 1.0f);
    pack(in.v, /*keys=*/true, p.heads_kv, Sk, in.v_packed, 1000.0f);
  }
}
} // namespace

const std::vector<int32_t> *Inputs::indexInput(const std::string &role) const {
  if (role == "block_table") return &block_table;
  if (role == "kv_lens") return &kv_lens;
  if (role == "cu_seqlens_q") return &cu_seqlens_q;
  if (role == "cu_seqlens_k") return &cu_seqlens_k;
  if (role == "seqused_q") return &seqused_q;
  if (role == "seqused_k") return &seqused_k;
  return nullptr;
}

int64_t Inputs::lenQ(const Problem &p, int64_t b) const {
  if (p.varlen && size_t(b) < seqused_q.size())
    return seqused_q[size_t(b)];
  if (p.varlen && size_t(b) + 1 < cu_seqlens_q.size())
    return cu_seqlens_q[size_t(b) + 1] - cu_seqlens_q[size_t(b)];
  return p.seq_q.value;
}

int64_t Inputs::lenK(const Problem &p, int64_t b) const {
  if (p.varlen && size_t(b) < seqused_k.size())
    return seqused_k[size_t(b)];
  if (p.varlen && size_t(b) + 1 < cu_seqlens_k.size())
    return cu_seqlens_k[size_t(b) + 1] - cu_seqlens_k[size_t(b)];
  if (!kv_lens.empty())
    return kv_lens[size_t(b)];
  return p.seq_k.value;
}

std::optional<ProblemError> checkVarlenInputs(const Problem &p, const Inputs &in) {
  int64_t B = p.batch.value;
  for (auto [name, cu, max, maxName] :
       {std::tuple{"cu_seqlens_q", &in.cu_seqlens_q, p.seq_q.value, "seq_q"},
        std::tuple{"cu_seqlens_k", &in.cu_seqlens_k, p.seq_k.value, "seq_k"}}) {
    if (p.paged() && cu == &in.cu_seqlens_k) // the cache's keys: checkPagedInputs
      continue;
    if (int64_t(cu->size()) != B + 1)
      return ProblemError{name, std::to_string(cu->size()) + " entries",
                          "batch + 1 = " + std::to_string(B + 1) + " cumulative lengths"};
    if ((*cu)[0] != 0)
      return ProblemError{std::string(name) + "[0]", std::to_string((*cu)[0]), "0 (the first sequence starts at row 0)"};
    for (int64_t b = 0; b < B; ++b) {
      // With seqused a span may hold a gap past its length (checked below).
      int64_t len = int64_t((*cu)[size_t(b) + 1]) - (*cu)[size_t(b)];
      if (p.seqused && len >= 0)
        continue;
      if (len < 0 || len > max)
        return ProblemError{std::string(name) + "[" + std::to_string(b + 1) + "]",
                            std::to_string((*cu)[size_t(b) + 1]),
                            "at least " + std::string(name) + "[" + std::to_string(b) + "] = " +
                                std::to_string((*cu)[size_t(b)]) + " and at most " + std::to_string(max) +
                                " (" + maxName + ", the longest sequence) more"};
    }
  }
  if (!p.seqused)
    return std::nullopt;
  for (auto [name, used, cuName, cu, max, maxName] :
       {std::tuple{"seqused_q", &in.seqused_q, "cu_seqlens_q", &in.cu_seqlens_q, p.seq_q.value, "seq_q"},
        std::tuple{"seqused_k", &in.seqused_k, "cu_seqlens_k", &in.cu_seqlens_k, p.seq_k.value, "seq_k"}}) {
    if (p.paged() && used == &in.seqused_k) // the cache's keys: kv_lens
      continue;
    if (int64_t(used->size()) != B)
      return ProblemError{name, std::to_string(used->size()) + " entries", "batch = " + std::to_string(B) + " lengths"};
    for (int64_t b = 0; b < B; ++b) {
      int64_t span = int64_t((*cu)[size_t(b) + 1]) - (*cu)[size_t(b)], len = (*used)[size_t(b)];
      if (len < 0 || len > std::min(span, max))
        return ProblemError{std::string(name) + "[" + std::to_string(b) + "]", std::to_string(len),
                            "0 to " + std::to_string(std::min(span, max)) + " (sequence " + std::to_string(b) +
                                "'s span in " + cuName + ", at most " + maxName + ")"};
    }
  }
  return std::nullopt;
}

WrittenPast unpackVarlen(const Problem &p, const Inputs &in, const std::vector<double> &packedO,
                         std::vector<double> &o, std::vector<double> &lse) {
  int64_t B = p.batch.value, Hq = p.heads_q, Sq = p.seq_q.value, D = p.head_dim;
  WrittenPast written;
  o.assign(size_t(B * Hq * Sq * D), 0.0);
  for (int64_t b = 0; b < B; ++b) {
    int64_t start = in.cu_seqlens_q[size_t(b)], len = in.lenQ(p, b);
    // The gap after the sequence's rows (seqused): still the poison.
    for (int64_t i = start + len; i < in.cu_seqlens_q[size_t(b) + 1]; ++i)
      written.gapRows += std::any_of(&packedO[size_t(i * Hq * D)], &packedO[size_t((i + 1) * Hq * D)],
                                     [](double x) { return !std::isnan(x); });
    for (int64_t h = 0; h < Hq; ++h) {
      for (int64_t i = 0; i < len; ++i)
        std::memcpy(&o[size_t(((b * Hq + h) * Sq + i) * D)], &packedO[size_t(((start + i) * Hq + h) * D)],
                    size_t(D) * sizeof(double));
      for (int64_t i = len; i < Sq; ++i) {
        double &x = lse[size_t((b * Hq + h) * Sq + i)];
        if (std::isnan(x))
          x = -std::numeric_limits<double>::infinity();
        else
          ++written.lseRows;
      }
    }
  }
  return written;
}

double flopsOf(const Problem &p, const Inputs &in) {
  if (!p.varlen)
    return p.flops();
  double f = 0;
  for (int64_t b = 0; b < p.batch.value; ++b) {
    double lq = double(in.lenQ(p, b)), lk = double(in.lenK(p, b));
    // Causal, bottom-right: the visible pairs of the sequence, the halved
    // square's convention when lq = lk.
    f += 4.0 * p.heads_q * lq * lk * p.head_dim * (p.causal ? 0.5 : 1.0);
  }
  return f;
}

Inputs randomInputs(const Problem &p, uint64_t seed, bool fullLengths) {
  Shapes s = shapesOf(p);
  NormalStream rng(seed);
  Inputs in;
  fill(in.q, s.q, p.dtype, rng);
  fill(in.k, s.k, p.dtype, rng);
  fill(in.v, s.v, p.dtype, rng);
  fill(in.bias, s.bias, p.dtype, rng);
  if (p.paged())
    makePaged(p, in, seed, fullLengths);
  if (p.varlen)
    makeVarlen(p, in, seed, fullLengths);
  return in;
}

std::optional<ProblemError> checkPagedInputs(const Problem &p, const Inputs &in) {
  int64_t B = p.batch.value, P = p.page_size, maxPages = p.maxPages(), pages = p.cachePages();
  if (int64_t(in.kv_lens.size()) != B)
    return ProblemError{"kv_lens", std::to_string(in.kv_lens.size()) + " entries",
                        "one length a sequence (batch = " + std::to_string(B) + ")"};
  if (int64_t(in.block_table.size()) != B * maxPages)
    return ProblemError{"block_table", std::to_string(in.block_table.size()) + " entries",
                        "batch x max_pages = " + std::to_string(B * maxPages)};
  for (int64_t b = 0; b < B; ++b) {
    int64_t len = in.kv_lens[size_t(b)];
    if (len < 0 || len > p.seq_k.value)
      return ProblemError{"kv_lens[" + std::to_string(b) + "]", std::to_string(len),
                          "a length in [0, seq_k = " + std::to_string(p.seq_k.value) +
                              "] (the capacity of a sequence: max_pages x page_size)"};
    for (int64_t slot = 0; slot * P < len; ++slot) {
      int64_t page = in.block_table[size_t(b * maxPages + slot)];
      if (page < 0 || page >= pages)
        return ProblemError{"block_table[" + std::to_string(b) + "][" + std::to_string(slot) + "]",
                            std::to_string(page),
                            "a page index in [0, num_pages = " + std::to_string(pages) + ")"};
    }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Indexing and masking for one attention problem (see Problem.cpp).
struct Attn {
  const Problem &p;
  const Inputs &in;
  int64_t B, Hq, Hkv, Sq, Sk, D;
  double scale, slopeExp;

  Attn(const Problem &p, const Inputs &in)
      : p(p), in(in), B(p.batch.value), Hq(p.heads_q), Hkv(p.heads_kv), Sq(p.seq_q.value),
        Sk(p.seq_k.value), D(p.head_dim),
        scale(p.effectiveScale()), slopeExp(-8.0 / static_cast<double>(p.heads_q)) {
    Shapes s = shapesOf(p);
    requireSize("q", in.q, s.q);
    requireSize("k", in.k, s.k);
    requireSize("v", in.v, s.v);
    requireSize("bias", in.bias, s.bias);
  }

  /// Keys of sequence b: Sk, kv_lens[b] for a paged cache, or its own
  /// length in a varlen batch (and its query rows: Sq or its own).
  int64_t len(int64_t b) const { return in.lenK(p, b); }
  int64_t lenQ(int64_t b) const { return in.lenQ(p, b); }

  bool visible(int64_t b, int64_t i, int64_t j) const {
    if (j >= len(b) || i >= lenQ(b))
      return false;
    int64_t d = i + len(b) - lenQ(b) - j; // distance below the (bottom-right aligned) diagonal
    if (p.causal && d < 0)
      return false;
    if (p.window && (d > *p.window || (!p.causal && d < -*p.window)))
      return false;
    return true;
  }
  const float *qRow(int64_t b, int64_t h, int64_t i) const {
    return &in.q[static_cast<size_t>(((b * Hq + h) * Sq + i) * D)];
  }
  const float *kRow(int64_t b, int64_t h, int64_t j) const {
    return &in.k[static_cast<size_t>(((b * Hkv + h / (Hq / Hkv)) * Sk + j) * D)];
  }
  const float *vRow(int64_t b, int64_t h, int64_t j) const {
    return &in.v[static_cast<size_t>(((b * Hkv + h / (Hq / Hkv)) * Sk + j) * D)];
  }
  float biasAt(int64_t b, int64_t h, int64_t i, int64_t j) const {
    int64_t bb = p.bias_batch_broadcast ? 0 : b, hb = p.bias_head_broadcast ? 0 : h;
    int64_t Hb = p.bias_head_broadcast ? 1 : Hq;
    return in.bias[static_cast<size_t>(((bb * Hb + hb) * Sq + i) * Sk + j)];
  }
  size_t outIndex(int64_t b, int64_t h, int64_t i) const {
    return static_cast<size_t>((b * Hq + h) * Sq + i);
  }

  /// Scores of row (b, h, i) in T (double for the reference, float for lowp);
  /// masked entries are -inf.
  template <typename T> void scores(int64_t b, int64_t h, int64_t i, std::vector<T> &s) const {
    s.assign(static_cast<size_t>(Sk), -std::numeric_limits<T>::infinity());
    const float *q = qRow(b, h, i);
    T slope = static_cast<T>(std::exp2(slopeExp * static_cast<double>(h + 1)));
    for (int64_t j = 0; j < Sk; ++j) {
      if (!visible(b, i, j))
        continue;
      const float *k = kRow(b, h, j);
      T dot = 0;
      for (int64_t d = 0; d < D; ++d)
        dot += static_cast<T>(q[d]) * static_cast<T>(k[d]);
      T x = static_cast<T>(scale) * dot;
      if (p.softcap) {
        T c = static_cast<T>(*p.softcap);
        x = c * std::tanh(x / c);
      }
      if (p.alibi)
        x -= slope * static_cast<T>(std::llabs(i + len(b) - lenQ(b) - j));
      if (p.bias)
        x += static_cast<T>(biasAt(b, h, i, j));
      s[static_cast<size_t>(j)] = x;
    }
  }
};

/// Row reductions over X [B, Hq, Sq, Sk] stored in in.q; T is the accumulator.
template <typename T>
void rowReduce(const Problem &p, const Inputs &in, std::vector<double> &out, bool lowp) {
  Shapes s = shapesOf(p);
  requireSize("x (q)", in.q, s.q);
  int64_t rows = s.out, Sk = p.seq_k.value;
  T scale = static_cast<T>(p.effectiveScale());
  out.assign(static_cast<size_t>(rows), 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    const float *x = &in.q[static_cast<size_t>(r * Sk)];
    T result = 0;
    if (p.kind == ProblemKind::RowSum) {
      for (int64_t j = 0; j < Sk; ++j)
        result += scale * static_cast<T>(x[j]);
    } else {
      T m = -std::numeric_limits<T>::infinity(), l = 0;
      for (int64_t j = 0; j < Sk; ++j)
        m = std::max(m, scale * static_cast<T>(x[j]));
      for (int64_t j = 0; j < Sk; ++j)
        l += std::exp(scale * static_cast<T>(x[j]) - m);
      result = m + std::log(l);
    }
    // Row reductions write f32 outputs (only the inputs are in dtype), so the
    // low-precision result is the float accumulation, not rounded further.
    out[static_cast<size_t>(r)] = lowp ? static_cast<double>(static_cast<float>(result))
                                       : static_cast<double>(result);
  }
}
} // namespace

/// Runs f(b, h, i, scratch) for every query row, on all cores. Rows are
/// independent and each is computed by one thread in a fixed order, so the
/// result does not depend on the number of threads.
template <typename Scratch, typename F>
void forEachRow(int64_t B, int64_t H, int64_t Sq, F f) {
  int64_t rows = B * H * Sq;
  unsigned n = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 64));
  if (rows < 64)
    n = 1;
  auto work = [&](int64_t begin, int64_t end) {
    Scratch scratch;
    for (int64_t r = begin; r < end; ++r)
      f(r / (H * Sq), (r / Sq) % H, r % Sq, scratch);
  };
  std::vector<std::thread> threads;
  int64_t chunk = (rows + n - 1) / n;
  for (unsigned t = 1; t < n; ++t)
    if (int64_t begin = t * chunk; begin < rows)
      threads.emplace_back(work, begin, std::min(rows, begin + chunk));
  work(0, std::min(rows, chunk));
  for (std::thread &t : threads)
    t.join();
}

void referenceF64(const Problem &p, const Inputs &in, std::vector<double> &out,
                  std::vector<double> *lse) {
  if (p.kind != ProblemKind::Attention) {
    rowReduce<double>(p, in, out, /*lowp=*/false);
    if (lse)
      lse->clear();
    return;
  }
  Attn a(p, in);
  Shapes sh = shapesOf(p);
  out.assign(static_cast<size_t>(sh.out), 0.0);
  if (lse)
    lse->assign(static_cast<size_t>(sh.lse), -kInf);
  struct Scratch {
    std::vector<double> s, o;
  };
  forEachRow<Scratch>(a.B, a.Hq, a.Sq, [&](int64_t b, int64_t h, int64_t i, Scratch &sc) {
        std::vector<double> &s = sc.s, &o = sc.o;
        o.resize(static_cast<size_t>(a.D));
        a.scores(b, h, i, s);
        double m = -kInf;
        for (double x : s)
          m = std::max(m, x);
        if (m == -kInf)
          return; // fully masked: o = 0, lse = -inf (already there)
        std::fill(o.begin(), o.end(), 0.0);
        double l = 0;
        for (int64_t j = 0; j < a.Sk; ++j) {
          double pj = std::exp(s[static_cast<size_t>(j)] - m);
          if (pj == 0)
            continue;
          l += pj;
          const float *v = a.vRow(b, h, j);
          for (int64_t d = 0; d < a.D; ++d)
            o[static_cast<size_t>(d)] += pj * static_cast<double>(v[d]);
        }
        size_t row = a.outIndex(b, h, i);
        for (int64_t d = 0; d < a.D; ++d)
          out[row * static_cast<size_t>(a.D) + static_cast<size_t>(d)] =
              o[static_cast<size_t>(d)] / l;
        if (lse)
          (*lse)[row] = m + std::log(l);
      });
}

void referenceLowp(const Problem &p, const Inputs &in, std::vector<double> &out,
                   std::vector<double> *lse) {
  if (p.kind != ProblemKind::Attention) {
    rowReduce<float>(p, in, out, /*lowp=*/true);
    if (lse)
      lse->clear();
    return;
  }
  Attn a(p, in);
  Shapes sh = shapesOf(p);
  out.assign(static_cast<size_t>(sh.out), 0.0);
  if (lse)
    lse->assign(static_cast<size_t>(sh.lse), -kInf);
  const float inf = std::numeric_limits<float>::infinity();
  struct Scratch {
    std::vector<float> s, o;
  };
  forEachRow<Scratch>(a.B, a.Hq, a.Sq, [&](int64_t b, int64_t h, int64_t i, Scratch &sc) {
        std::vector<float> &s = sc.s, &o = sc.o;
        o.resize(static_cast<size_t>(a.D));
        a.scores(b, h, i, s);
        float m = -inf;
        for (float x : s)
          m = std::max(m, x);
        if (m == -inf)
          return;
        float l = 0;
        for (float &x : s) {
          x = std::exp(x - m); // masked: exp(-inf) = 0
          l += x;
        }
        std::fill(o.begin(), o.end(), 0.0f);
        for (int64_t j = 0; j < a.Sk; ++j) {
          float pj = roundToDType(p.dtype, s[static_cast<size_t>(j)] / l);
          if (pj == 0)
            continue;
          const float *v = a.vRow(b, h, j);
          for (int64_t d = 0; d < a.D; ++d)
            o[static_cast<size_t>(d)] += pj * v[d];
        }
        size_t row = a.outIndex(b, h, i);
        for (int64_t d = 0; d < a.D; ++d)
          out[row * static_cast<size_t>(a.D) + static_cast<size_t>(d)] =
              roundToDType(p.dtype, o[static_cast<size_t>(d)]);
        if (lse)
          (*lse)[row] = static_cast<double>(m + std::log(l));
      });
}

//===----------------------------------------------------------------------===//
// Tolerance
//===----------------------------------------------------------------------===//

// The floor only matters where the naive low-precision computation happens to
// be (nearly) exact, e.g. Sk = 1 (o = v_0) or outputs that round exactly; it
// keeps the bound above zero without letting a wrong kernel through. Outputs
// are convex combinations of v ~ N(0, 1), typically |o| <= 1 and often much
// smaller (|o| ~ 1/sqrt(number of visible keys)), so a floor of half an ulp
// at 1.0 (2^-11 = 4.9e-4 for f16, 2^-8 = 3.9e-3 for bf16) would hide real
// errors on such small outputs (one dropped key among 256 moves o by ~4e-3).
//   f32:  1e-6  ~ 8 ulp at 1.0; an f32 kernel's reordered sums stay well below.
//   f16:  1e-4  ~ 1/5 ulp at 1.0 = half an ulp at |o| ~ 0.2.
//   bf16: 1e-3  ~ 1/4 ulp at 1.0 = half an ulp at |o| ~ 0.25.
double atolFloor(DType t) {
  switch (t) {
  case DType::F32: return 1e-6;
  case DType::F16: return 1e-4;
  case DType::BF16: return 1e-3;
  }
  return 1e-6;
}

// LSE is stored in f32 and is about max score + log(visible keys), up to ~20
// in magnitude, where an f32 ulp is ~2e-6; kernels fold log2(e) into the scale
// and use exp2/log2, which adds a few ulps. 1e-5 is ~5 ulp there.
double lseAtolFloor() { return 1e-5; }

CheckResult checkToleranceWithFloor(const std::vector<double> &out,
                                    const std::vector<double> &ref,
                                    const std::vector<double> &lowp, double floor) {
  CheckResult r;
  if (out.size() != ref.size() || lowp.size() != ref.size()) {
    r.maxErr = kInf;
    r.bound = floor;
    return r; // pass = false
  }
  for (size_t i = 0; i < ref.size(); ++i) {
    double o = out[i], f = ref[i], e;
    if (std::isnan(o))
      e = kInf; // NaN never passes (a NaN-poisoned buffer catches unwritten elements)
    else if (!std::isfinite(f))
      e = o == f ? 0.0 : kInf; // -inf LSE of a fully masked row must be exactly -inf
    else if (!std::isfinite(o))
      e = kInf;
    else
      e = std::fabs(o - f);
    if (r.worstIndex < 0 || e > r.maxErr) {
      r.maxErr = e;
      r.worstIndex = static_cast<int64_t>(i);
    }
    if (std::isfinite(lowp[i]) && std::isfinite(f))
      r.lowpErr = std::max(r.lowpErr, std::fabs(lowp[i] - f));
  }
  r.bound = 2.0 * r.lowpErr + floor;
  r.pass = std::isfinite(r.maxErr) && r.maxErr <= r.bound;
  return r;
}

CheckResult checkTolerance(const Problem &p, const std::vector<double> &out,
                           const std::vector<double> &ref, const std::vector<double> &lowp) {
  // The floor is that of the output's type: dtype for attention, f32 for the
  // row reductions.
  DType outType = p.kind == ProblemKind::Attention ? p.dtype : DType::F32;
  return checkToleranceWithFloor(out, ref, lowp, atolFloor(outType));
}

CheckResult checkLse(const std::vector<double> &lse, const std::vector<double> &ref,
                     const std::vector<double> &lowp) {
  return checkToleranceWithFloor(lse, ref, lowp, lseAtolFloor());
}

} // namespace attncc
