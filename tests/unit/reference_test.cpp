// References: random inputs, attention and row-reduction semantics, and the
// tolerance rule (the fp16/bf16 conversions are in float16_test.cpp).
#include "runtime/problem/Reference.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace attncc;

namespace {
const double kInf = std::numeric_limits<double>::infinity();

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

bool anyNan(const std::vector<double> &v) {
  for (double x : v)
    if (std::isnan(x))
      return true;
  return false;
}
} // namespace

//===----------------------------------------------------------------------===//
// Shapes and random inputs
//===----------------------------------------------------------------------===//

TEST_CASE("shapesOf", "[reference]") {
  Problem p = attention(2, 8, 2, 5, 7, 32);
  Shapes s = shapesOf(p);
  CHECK(s.q == 2 * 8 * 5 * 32);
  CHECK(s.k == 2 * 2 * 7 * 32);
  CHECK(s.v == s.k);
  CHECK(s.bias == 0);
  CHECK(s.out == s.q);
  CHECK(s.lse == 2 * 8 * 5);
  p.bias = true;
  CHECK(shapesOf(p).bias == 2 * 8 * 5 * 7);
  p.bias_batch_broadcast = true;
  CHECK(shapesOf(p).bias == 8 * 5 * 7);
  p.bias_head_broadcast = true;
  CHECK(shapesOf(p).bias == 5 * 7);

  Problem r = attention(2, 3, 3, 4, 9, 64);
  r.kind = ProblemKind::LogSumExp;
  s = shapesOf(r);
  CHECK(s.q == 2 * 3 * 4 * 9);
  CHECK((s.k == 0 && s.v == 0 && s.bias == 0 && s.lse == 0));
  CHECK(s.out == 2 * 3 * 4);

  Problem sym = attention(1, 1, 1, 4, 4, 64);
  sym.seq_k = {0, true}; // unknown: nothing to allocate, references do nothing
  CHECK(shapesOf(sym).k == 0);
  std::vector<double> out, lse;
  Inputs in = randomInputs(sym, 1);
  REQUIRE_NOTHROW(referenceF64(sym, in, out, &lse));
  CHECK(out.size() == static_cast<size_t>(shapesOf(sym).out));
}

TEST_CASE("randomInputs: deterministic, seed-dependent, representable, normal",
          "[reference]") {
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    Problem p = attention(2, 4, 2, 33, 65, 64);
    p.dtype = t;
    p.bias = true;
    p.bias_head_broadcast = true;
    Inputs a = randomInputs(p, 42), b = randomInputs(p, 42), c = randomInputs(p, 43);
    Shapes s = shapesOf(p);
    REQUIRE(static_cast<int64_t>(a.q.size()) == s.q);
    REQUIRE(static_cast<int64_t>(a.k.size()) == s.k);
    REQUIRE(static_cast<int64_t>(a.v.size()) == s.v);
    REQUIRE(static_cast<int64_t>(a.bias.size()) == s.bias);
    CHECK(a.q == b.q);
    CHECK(a.k == b.k);
    CHECK(a.v == b.v);
    CHECK(a.bias == b.bias);
    CHECK(a.q != c.q);
    CHECK(a.k != c.k);
    CHECK(a.v != c.v);
    CHECK(a.bias != c.bias);
    // The tensors draw from one stream: k does not repeat q.
    CHECK_FALSE(std::equal(a.k.begin(), a.k.begin() + 100, a.q.begin()));

    double sum = 0, sq = 0;
    int64_t n = 0, zeros = 0;
    for (const auto *v : {&a.q, &a.k, &a.v, &a.bias})
      for (float x : *v) {
        CHECK(std::isfinite(x));
        if (roundToDType(t, x) != x)
          FAIL_CHECK("not representable: " << x);
        sum += x;
        sq += double(x) * x;
        zeros += x == 0;
        ++n;
      }
    double mean = sum / n, var = sq / n - mean * mean;
    CHECK(std::fabs(mean) < 0.03);
    CHECK(std::fabs(var - 1.0) < 0.05);
    CHECK(zeros < n / 100);
  }
}

//===----------------------------------------------------------------------===//
// Attention semantics
//===----------------------------------------------------------------------===//

namespace {
/// Sq = 1, Sk = 2, D = 32, scale 1: q = e0, k0 = 0, k1 = ln(3) e0, so the
/// scores are (0, ln 3) and the weights (1/4, 3/4); v0 = 1, v1 = 5.
struct TwoKeys {
  Problem p = attention(1, 1, 1, 1, 2, 32);
  Inputs in;
  TwoKeys() {
    p.scale = 1.0;
    p.dtype = DType::F32;
    in.q.assign(32, 0.0f);
    in.q[0] = 1.0f;
    in.k.assign(64, 0.0f);
    in.k[32] = static_cast<float>(std::log(3.0));
    in.v.assign(64, 1.0f);
    for (int d = 32; d < 64; ++d)
      in.v[d] = 5.0f;
  }
};
} // namespace

TEST_CASE("attention: hand-computed two-key row", "[reference][attention]") {
  TwoKeys t;
  std::vector<double> out, lse;
  referenceF64(t.p, t.in, out, &lse);
  double ln3 = double(static_cast<float>(std::log(3.0)));
  REQUIRE(out.size() == 32);
  CHECK(out[0] == Approx(0.25 * 1 + 0.75 * 5).epsilon(1e-6));
  CHECK(out[31] == Approx(4.0).epsilon(1e-6));
  CHECK(lse[0] == Approx(std::log(1 + std::exp(ln3))).epsilon(1e-12));

  // softcap 2: scores (0, 2 tanh(ln(3) / 2)) = (0, 1).
  t.p.softcap = 2.0;
  referenceF64(t.p, t.in, out, &lse);
  double s1 = 2 * std::tanh(ln3 / 2), w1 = std::exp(s1) / (1 + std::exp(s1));
  CHECK(out[5] == Approx((1 - w1) * 1 + w1 * 5).epsilon(1e-12));
  CHECK(lse[0] == Approx(std::log(1 + std::exp(s1))).epsilon(1e-12));
  CHECK(s1 == Approx(1.0).epsilon(1e-7));

  // ALiBi with Hq = 1: slope 2^-8; offset 1, so key 0 is at distance 1, key 1 at 0.
  t.p.softcap.reset();
  t.p.alibi = true;
  referenceF64(t.p, t.in, out, &lse);
  double a0 = -std::ldexp(1.0, -8), w = std::exp(ln3) / (std::exp(a0) + std::exp(ln3));
  CHECK(out[0] == Approx((1 - w) * 1 + w * 5).epsilon(1e-12));
  CHECK(lse[0] == Approx(std::log(std::exp(a0) + std::exp(ln3))).epsilon(1e-12));

  // Bias -ln 3 on key 1 makes the weights equal.
  t.p.alibi = false;
  t.p.bias = true;
  t.in.bias = {0.0f, -static_cast<float>(std::log(3.0))};
  referenceF64(t.p, t.in, out, &lse);
  CHECK(out[0] == Approx(3.0).epsilon(1e-6));

  // Default scale is 1/sqrt(D): scores (0, ln3 / sqrt(32)).
  t.p.bias = false;
  t.in.bias.clear();
  t.p.scale.reset();
  referenceF64(t.p, t.in, out, &lse);
  double s = ln3 / std::sqrt(32.0), ws = std::exp(s) / (1 + std::exp(s));
  CHECK(out[0] == Approx(1 + 4 * ws).epsilon(1e-12));
}

TEST_CASE("attention: ALiBi slopes per head", "[reference][attention]") {
  // q = 0: scores are only -slope_h * distance; Sq = 1, Sk = 2, offset 1.
  Problem p = attention(1, 4, 4, 1, 2, 32);
  p.alibi = true;
  p.dtype = DType::F32;
  Inputs in;
  in.q.assign(4 * 32, 0.0f);
  in.k.assign(4 * 2 * 32, 0.0f);
  in.v.assign(4 * 2 * 32, 0.0f);
  for (int h = 0; h < 4; ++h)
    for (int d = 0; d < 32; ++d)
      in.v[(h * 2 + 1) * 32 + d] = 1.0f; // o = weight of key 1
  std::vector<double> out;
  referenceF64(p, in, out, nullptr);
  for (int h = 0; h < 4; ++h) {
    double slope = std::pow(2.0, -8.0 * (h + 1) / 4);
    CHECK(out[h * 32] == Approx(1.0 / (1.0 + std::exp(-slope))).epsilon(1e-12));
  }
}

TEST_CASE("attention: softmax rows sum to 1 (V = 1 gives O = 1)", "[reference][attention]") {
  Problem p = attention(2, 4, 2, 9, 13, 32);
  p.dtype = DType::F32;
  p.bias = true;
  p.alibi = true;
  p.softcap = 5.0;
  p.causal = true;
  Inputs in = randomInputs(p, 3);
  std::fill(in.v.begin(), in.v.end(), 1.0f);
  std::vector<double> out, lowp;
  referenceF64(p, in, out, nullptr);
  referenceLowp(p, in, lowp);
  for (size_t i = 0; i < out.size(); ++i) {
    CHECK(out[i] == Approx(1.0).epsilon(1e-12));
    CHECK(lowp[i] == Approx(1.0).epsilon(1e-5));
  }
}

TEST_CASE("attention: causal with Sq == Sk, row 0 is v_0", "[reference][attention]") {
  Problem p = attention(2, 2, 1, 8, 8, 64);
  p.causal = true;
  Inputs in = randomInputs(p, 9);
  std::vector<double> out;
  referenceF64(p, in, out, nullptr);
  for (int b = 0; b < 2; ++b)
    for (int h = 0; h < 2; ++h)
      for (int d = 0; d < 64; ++d)
        CHECK(out[((b * 2 + h) * 8 + 0) * 64 + d] == double(in.v[(b * 8 + 0) * 64 + d]));
}

namespace {
/// q = 0 (uniform weights over visible keys) and v_j = j: o_i is the mean
/// index of the keys row i sees (NaN if it sees none).
std::vector<double> meanVisible(Problem p) {
  p.head_dim = 32;
  p.dtype = DType::F32;
  Inputs in;
  Shapes s = shapesOf(p);
  in.q.assign(s.q, 0.0f);
  in.k.assign(s.k, 0.0f);
  in.v.resize(s.v);
  for (size_t n = 0; n < in.v.size(); ++n)
    in.v[n] = static_cast<float>((n / 32) % p.seq_k.value);
  std::vector<double> out, lse, rows;
  referenceF64(p, in, out, &lse);
  for (int64_t i = 0; i < p.seq_q.value; ++i)
    rows.push_back(lse[i] == -kInf ? NAN : out[i * 32]);
  return rows;
}
double mean(int lo, int hi) { return (lo + hi) / 2.0; } // of lo..hi inclusive
} // namespace

TEST_CASE("attention: masks", "[reference][attention]") {
  Problem p = attention(1, 1, 1, 4, 4, 32);
  p.causal = true;
  auto r = meanVisible(p);
  for (int i = 0; i < 4; ++i)
    CHECK(r[i] == Approx(mean(0, i)));

  p.window = 1; // causal band: i - 1 <= j <= i
  r = meanVisible(p);
  CHECK(r[0] == Approx(0.0));
  for (int i = 1; i < 4; ++i)
    CHECK(r[i] == Approx(mean(i - 1, i)));

  p.causal = false; // symmetric band |i - j| <= 1
  r = meanVisible(p);
  CHECK(r[0] == Approx(mean(0, 1)));
  CHECK(r[1] == Approx(mean(0, 2)));
  CHECK(r[2] == Approx(mean(1, 3)));
  CHECK(r[3] == Approx(mean(2, 3)));

  p.window = 0; // the diagonal only
  r = meanVisible(p);
  for (int i = 0; i < 4; ++i)
    CHECK(r[i] == Approx(double(i)));

  // Bottom-right alignment: Sq = 2, Sk = 5, offset 3.
  Problem q = attention(1, 1, 1, 2, 5, 32);
  q.causal = true;
  r = meanVisible(q);
  CHECK(r[0] == Approx(mean(0, 3)));
  CHECK(r[1] == Approx(mean(0, 4)));
  q.window = 2;
  r = meanVisible(q);
  CHECK(r[0] == Approx(mean(1, 3)));
  CHECK(r[1] == Approx(mean(2, 4)));
}

TEST_CASE("attention: fully masked rows give 0 and lse = -inf", "[reference][attention]") {
  // (a) causal with Sq > Sk: offset -3, rows 0..2 see no key.
  Problem a = attention(1, 2, 1, 6, 3, 32);
  a.causal = true;
  a.window = 1;
  // (b) no causal, window 1, Sq = 8, Sk = 2: offset -6, row i sees
  //     |i - 6 - j| <= 1, i.e. nothing for i <= 4.
  Problem b = attention(1, 1, 1, 8, 2, 32);
  b.window = 1;
  for (auto [p, masked] : {std::pair{a, 3}, std::pair{b, 5}}) {
    for (DType t : {DType::F16, DType::BF16, DType::F32}) {
      p.dtype = t;
      p.alibi = true;
      Inputs in = randomInputs(p, 5);
      std::vector<double> out, lse, lowp, lowpLse;
      referenceF64(p, in, out, &lse);
      referenceLowp(p, in, lowp, &lowpLse);
      CHECK_FALSE(anyNan(out));
      CHECK_FALSE(anyNan(lowp));
      CHECK_FALSE(anyNan(lse));
      int64_t Sq = p.seq_q.value, D = p.head_dim;
      for (int64_t h = 0; h < p.heads_q; ++h)
        for (int64_t i = 0; i < Sq; ++i) {
          bool rowMasked = i < masked;
          CHECK((lse[h * Sq + i] == -kInf) == rowMasked);
          CHECK((lowpLse[h * Sq + i] == -kInf) == rowMasked);
          if (rowMasked)
            for (int64_t d = 0; d < D; ++d) {
              CHECK(out[(h * Sq + i) * D + d] == 0.0);
              CHECK(lowp[(h * Sq + i) * D + d] == 0.0);
            }
        }
      CHECK(checkTolerance(p, lowp, out, lowp).pass);
      CHECK(checkLse(lowpLse, lse, lowpLse).pass);
      // A kernel writing a finite LSE (or NaN) for a masked row fails.
      std::vector<double> badLse = lowpLse;
      badLse[0] = -1e30;
      CHECK_FALSE(checkLse(badLse, lse, lowpLse).pass);
      badLse[0] = NAN;
      CHECK_FALSE(checkLse(badLse, lse, lowpLse).pass);
    }
  }
}

TEST_CASE("attention: GQA equals repeated K/V heads", "[reference][attention]") {
  Problem g = attention(2, 8, 2, 5, 11, 32); // group 4
  g.dtype = DType::BF16;
  g.causal = true;
  g.alibi = true;
  Inputs in = randomInputs(g, 11);
  Problem m = g;
  m.heads_kv = 8;
  Inputs rep = in;
  rep.k.clear();
  rep.v.clear();
  const size_t head = 11 * 32;
  for (int b = 0; b < 2; ++b)
    for (int h = 0; h < 8; ++h) {
      size_t src = (b * 2 + h / 4) * head;
      rep.k.insert(rep.k.end(), in.k.begin() + src, in.k.begin() + src + head);
      rep.v.insert(rep.v.end(), in.v.begin() + src, in.v.begin() + src + head);
    }
  std::vector<double> og, om, lg, lm;
  referenceF64(g, in, og, &lg);
  referenceF64(m, rep, om, &lm);
  CHECK(og == om);
  CHECK(lg == lm);
  referenceLowp(g, in, og, &lg);
  referenceLowp(m, rep, om, &lm);
  CHECK(og == om);
  CHECK(lg == lm);
}

TEST_CASE("attention: broadcast bias equals the replicated full bias", "[reference][attention]") {
  Problem bc = attention(2, 3, 3, 4, 6, 32);
  bc.bias = true;
  bc.bias_batch_broadcast = true;
  bc.bias_head_broadcast = true;
  Inputs in = randomInputs(bc, 21);
  Problem full = bc;
  full.bias_batch_broadcast = full.bias_head_broadcast = false;
  Inputs rep = in;
  rep.bias.clear();
  for (int n = 0; n < 2 * 3; ++n)
    rep.bias.insert(rep.bias.end(), in.bias.begin(), in.bias.end());
  std::vector<double> a, b;
  referenceF64(bc, in, a, nullptr);
  referenceF64(full, rep, b, nullptr);
  CHECK(a == b);
  // And the bias matters.
  Problem none = bc;
  none.bias = none.bias_batch_broadcast = none.bias_head_broadcast = false;
  Inputs noBias = in;
  noBias.bias.clear();
  referenceF64(none, noBias, b, nullptr);
  CHECK(a != b);
}

TEST_CASE("referenceLowp rounds P to dtype before P.V", "[reference][attention]") {
  // Three equal scores: P = 1/3, which is 0.333251953125 (0x3555) in fp16;
  // v_0 = 1.25, v_1 = v_2 = 0, so o = 1.25 P_0 = 1706.25 * 2^-12, which rounds
  // to 1706 * 2^-12 = 0.41650390625; an unrounded P gives 1.25 / 3, rounding to
  // 1707 * 2^-12.
  Problem p = attention(1, 1, 1, 1, 3, 32);
  Inputs in;
  in.q.assign(32, 0.0f);
  in.k.assign(3 * 32, 0.0f);
  in.v.assign(3 * 32, 0.0f);
  std::fill(in.v.begin(), in.v.begin() + 32, 1.25f);
  std::vector<double> out;
  p.dtype = DType::F16;
  referenceLowp(p, in, out);
  CHECK(out[0] == 0.41650390625);
  p.dtype = DType::F32; // no rounding
  referenceLowp(p, in, out);
  CHECK(out[0] == Approx(1.25 / 3).epsilon(1e-7));
  referenceF64(p, in, out, nullptr);
  CHECK(out[0] == Approx(1.25 / 3).epsilon(1e-15));
}

TEST_CASE("attention: each batch is computed from its own slices", "[reference][attention]") {
  // B = 2 with a full bias; batch 1 must equal a B = 1 problem on batch 1's
  // slices of q, k, v and bias (catches a wrong batch stride anywhere).
  Problem p = attention(2, 2, 1, 3, 5, 32);
  p.bias = true;
  p.dtype = DType::F32;
  Inputs in = randomInputs(p, 77);
  Problem one = p;
  one.batch = {1, false};
  auto half = [](const std::vector<float> &v) {
    return std::vector<float>(v.begin() + v.size() / 2, v.end());
  };
  Inputs slice{half(in.q), half(in.k), half(in.v), half(in.bias)};
  std::vector<double> all, part, lseAll, lsePart;
  referenceF64(p, in, all, &lseAll);
  referenceF64(one, slice, part, &lsePart);
  CHECK(std::vector<double>(all.begin() + all.size() / 2, all.end()) == part);
  CHECK(std::vector<double>(lseAll.begin() + lseAll.size() / 2, lseAll.end()) == lsePart);

  // Likewise head 1 of Hq = Hkv = 2 (B = 1) against Hq = 1 on head 1's slices.
  Problem heads = attention(1, 2, 2, 3, 5, 32);
  heads.bias = true;
  heads.dtype = DType::F32;
  in = randomInputs(heads, 78);
  one = attention(1, 1, 1, 3, 5, 32);
  one.bias = true;
  one.dtype = DType::F32;
  one.scale = heads.effectiveScale();
  slice = Inputs{half(in.q), half(in.k), half(in.v), half(in.bias)};
  referenceF64(heads, in, all, nullptr);
  referenceF64(one, slice, part, nullptr);
  CHECK(std::vector<double>(all.begin() + all.size() / 2, all.end()) == part);
}

TEST_CASE("references reject inputs of the wrong size", "[reference]") {
  Problem p = attention(1, 2, 1, 3, 4, 32);
  Inputs in = randomInputs(p, 1);
  in.k.pop_back();
  std::vector<double> out;
  CHECK_THROWS_AS(referenceF64(p, in, out, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(referenceLowp(p, in, out), std::invalid_argument);
}

//===----------------------------------------------------------------------===//
// Row reductions
//===----------------------------------------------------------------------===//

TEST_CASE("logsumexp and rowsum", "[reference][rows]") {
  Problem p = attention(1, 2, 2, 2, 3, 64);
  p.kind = ProblemKind::LogSumExp;
  p.dtype = DType::F32;
  Inputs in;
  in.q = {0, 1, 2, -1, -1, -1, 100, 100, 0, 0.5f, 0.25f, -4};
  std::vector<double> out, lowp;
  referenceF64(p, in, out, nullptr);
  REQUIRE(out.size() == 4);
  CHECK(out[0] == Approx(std::log(1 + std::exp(1.0) + std::exp(2.0))).epsilon(1e-14));
  CHECK(out[1] == Approx(-1 + std::log(3.0)).epsilon(1e-14));
  CHECK(out[2] == Approx(100 + std::log(2 + std::exp(-100.0))).epsilon(1e-14)); // no overflow
  referenceLowp(p, in, lowp);
  CHECK(checkTolerance(p, lowp, out, lowp).pass);
  CHECK(lowp[2] == Approx(out[2]).epsilon(1e-6));

  p.scale = 2.0;
  referenceF64(p, in, out, nullptr);
  CHECK(out[1] == Approx(-2 + std::log(3.0)).epsilon(1e-14));

  p.kind = ProblemKind::RowSum;
  p.scale.reset();
  referenceF64(p, in, out, nullptr);
  CHECK(out[0] == 3.0);
  CHECK(out[1] == -3.0);
  CHECK(out[3] == -3.25);
  p.scale = 0.5;
  referenceF64(p, in, out, nullptr);
  CHECK(out[2] == 100.0);

  // Low precision: row reductions write f32, so the output is the float
  // accumulation (representable in f32, not rounded to the input dtype).
  p.dtype = DType::F16;
  p.scale.reset();
  Inputs r = randomInputs(p, 2);
  referenceLowp(p, r, lowp);
  bool someNotF16 = false;
  for (double x : lowp) {
    CHECK(static_cast<double>(static_cast<float>(x)) == x);
    someNotF16 |= roundToDType(DType::F16, static_cast<float>(x)) != x;
  }
  CHECK(someNotF16);
}

//===----------------------------------------------------------------------===//
// Tolerance rule
//===----------------------------------------------------------------------===//

TEST_CASE("atolFloor values", "[reference][tolerance]") {
  CHECK(atolFloor(DType::F32) == 1e-6);
  CHECK(atolFloor(DType::F16) == 1e-4);
  CHECK(atolFloor(DType::BF16) == 1e-3);
  CHECK(lseAtolFloor() == 1e-5);
}

TEST_CASE("checkTolerance: passes good outputs, rejects wrong ones", "[reference][tolerance]") {
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    Problem p = attention(1, 4, 2, 37, 70, 64);
    p.dtype = t;
    p.causal = true;
    p.softcap = 20.0;
    Inputs in = randomInputs(p, 1234);
    std::vector<double> ref, lowp, lse, lowpLse;
    referenceF64(p, in, ref, &lse);
    referenceLowp(p, in, lowp, &lowpLse);
    INFO(dtypeName(t));

    CheckResult self = checkTolerance(p, lowp, ref, lowp);
    CHECK(self.pass);
    CHECK(self.maxErr == self.lowpErr);
    CHECK(self.bound == 2 * self.lowpErr + atolFloor(t));
    if (t != DType::F32)
      CHECK(self.lowpErr > 0);
    CHECK(checkTolerance(p, ref, ref, lowp).pass);
    CHECK(checkLse(lowpLse, lse, lowpLse).pass);

    // An ideal kernel: the exact result rounded to the output dtype.
    std::vector<double> ideal(ref.size());
    for (size_t i = 0; i < ref.size(); ++i)
      ideal[i] = roundToDType(t, static_cast<float>(ref[i]));
    CHECK(checkTolerance(p, ideal, ref, lowp).pass);

    // One element perturbed beyond the bound.
    std::vector<double> bad = lowp;
    bad[100] += 1.5 * self.bound + 1e-3;
    CheckResult r = checkTolerance(p, bad, ref, lowp);
    CHECK_FALSE(r.pass);
    CHECK(r.worstIndex == 100);

    // NaN, inf and unwritten (NaN-poisoned) elements fail.
    bad = lowp;
    bad[7] = NAN;
    r = checkTolerance(p, bad, ref, lowp);
    CHECK_FALSE(r.pass);
    CHECK(r.worstIndex == 7);
    CHECK(std::isinf(r.maxErr));
    bad = lowp;
    bad.back() = INFINITY;
    CHECK_FALSE(checkTolerance(p, bad, ref, lowp).pass);

    // Wrong size fails.
    bad = lowp;
    bad.pop_back();
    CHECK_FALSE(checkTolerance(p, bad, ref, lowp).pass);

    // A kernel that forgot the causal mask fails.
    Problem noMask = p;
    noMask.causal = false;
    std::vector<double> wrong;
    referenceLowp(noMask, in, wrong);
    CHECK_FALSE(checkTolerance(p, wrong, ref, lowp).pass);

    // A kernel that forgot the softcap fails.
    Problem noCap = p;
    noCap.softcap.reset();
    referenceLowp(noCap, in, wrong);
    CHECK_FALSE(checkTolerance(p, wrong, ref, lowp).pass);

    // A kernel that used the wrong K/V head mapping fails.
    Inputs swapped = in;
    std::swap_ranges(swapped.k.begin(), swapped.k.begin() + 70 * 64,
                     swapped.k.begin() + 70 * 64);
    referenceLowp(p, swapped, wrong);
    CHECK_FALSE(checkTolerance(p, wrong, ref, lowp).pass);
  }
}

//===----------------------------------------------------------------------===//
// A paged KV cache
//===----------------------------------------------------------------------===//

TEST_CASE("paged inputs: lengths, a permutation of pages, the cache holds K and V", "[reference][paged]") {
  Problem p = attention(4, 4, 2, 3, 100, 32);
  p.page_size = 16; // 7 slots a sequence, 28 pages
  p.kv_hnd = GENERATE(false, true);
  INFO((p.kv_hnd ? "HND" : "NHD"));
  Inputs in = randomInputs(p, 5);
  REQUIRE(in.kv_lens.size() == 4);
  REQUIRE(in.block_table.size() == 4 * 7);
  CHECK(in.kv_lens.back() == 100); // the last sequence is full
  for (int32_t len : in.kv_lens)
    CHECK((len >= 1 && len <= 100));
  std::vector<int> used(28, 0);
  for (int b = 0; b < 4; ++b)
    for (int slot = 0; slot * 16 < in.kv_lens[b]; ++slot) {
      int32_t page = in.block_table[b * 7 + slot];
      REQUIRE((page >= 0 && page < 28));
      ++used[page];
      // Row r of the page is key slot * 16 + r of sequence b, every head.
      for (int h = 0; h < 2; ++h)
        for (int r = 0; r < 16 && slot * 16 + r < 100; ++r)
          for (int d = 0; d < 32; ++d) {
            size_t cache = p.kv_hnd ? ((size_t(page) * 2 + h) * 16 + r) * 32 + d  // [pages, Hkv, P, D]
                                    : ((size_t(page) * 16 + r) * 2 + h) * 32 + d; // [pages, P, Hkv, D]
            size_t logical = ((size_t(b) * 2 + h) * 100 + slot * 16 + r) * 32 + d;
            REQUIRE(in.k_cache[cache] == in.k[logical]);
            REQUIRE(in.v_cache[cache] == in.v[logical]);
          }
    }
  // Each page at most once; every page no sequence uses is NaN.
  for (int page = 0; page < 28; ++page) {
    CHECK(used[page] <= 1);
    if (!used[page])
      CHECK(std::isnan(in.k_cache[size_t(page) * 2 * 16 * 32]));
  }
  CHECK_FALSE(checkPagedInputs(p, in));
  Inputs full = randomInputs(p, 5, /*fullLengths=*/true);
  for (int32_t len : full.kv_lens)
    CHECK(len == 100);
}

TEST_CASE("paged inputs: a bad table or length is refused", "[reference][paged]") {
  Problem p = attention(2, 2, 2, 1, 64, 32);
  p.page_size = 16;
  Inputs in = randomInputs(p, 3);
  Inputs bad = in;
  bad.kv_lens[0] = 65;
  auto e = checkPagedInputs(p, bad);
  REQUIRE(e);
  CHECK(e->message() == "invalid kv_lens[0] = 65: a length in [0, seq_k = 64] (the capacity of a "
                        "sequence: max_pages x page_size)");
  bad = in;
  bad.kv_lens[1] = 64;
  bad.block_table[1 * 4 + 3] = 8; // 8 pages: 0-7
  e = checkPagedInputs(p, bad);
  REQUIRE(e);
  CHECK(e->message() == "invalid block_table[1][3] = 8: a page index in [0, num_pages = 8)");
  bad.block_table[1 * 4 + 3] = -1;
  CHECK(checkPagedInputs(p, bad)->message() ==
        "invalid block_table[1][3] = -1: a page index in [0, num_pages = 8)");
  // A slot past the sequence's length is not read: not checked.
  bad = in;
  bad.kv_lens[0] = 16;
  bad.block_table[0 * 4 + 2] = 1000;
  CHECK_FALSE(checkPagedInputs(p, bad));
  bad.block_table.pop_back();
  CHECK(checkPagedInputs(p, bad)->message() == "invalid block_table = 7 entries: batch x max_pages = 8");
}

TEST_CASE("paged reference: sequence b equals attention over its first kv_lens[b] keys",
          "[reference][paged]") {
  Problem p = attention(3, 4, 2, 5, 40, 32);
  p.page_size = 8;
  p.causal = true;
  p.alibi = true;
  Inputs in = randomInputs(p, 9);
  std::vector<double> o, lse;
  referenceF64(p, in, o, &lse);
  for (int b = 0; b < 3; ++b) {
    int len = in.kv_lens[b];
    INFO("b = " << b << ", len = " << len);
    Problem one = attention(1, 4, 2, 5, len, 32);
    one.causal = one.alibi = true;
    Inputs cut;
    cut.q.assign(in.q.begin() + b * 4 * 5 * 32, in.q.begin() + (b + 1) * 4 * 5 * 32);
    for (int h = 0; h < 2; ++h) {
      size_t from = (size_t(b) * 2 + h) * 40 * 32;
      cut.k.insert(cut.k.end(), in.k.begin() + from, in.k.begin() + from + len * 32);
      cut.v.insert(cut.v.end(), in.v.begin() + from, in.v.begin() + from + len * 32);
    }
    std::vector<double> o1, l1;
    referenceF64(one, cut, o1, &l1);
    for (size_t i = 0; i < o1.size(); ++i)
      REQUIRE(o[b * o1.size() + i] == o1[i]);
    for (size_t i = 0; i < l1.size(); ++i)
      REQUIRE(lse[b * l1.size() + i] == l1[i]);
  }
}

//===----------------------------------------------------------------------===//
// Varlen
//===----------------------------------------------------------------------===//

TEST_CASE("varlen inputs: ragged lengths, packed rows", "[reference][varlen]") {
  Problem p = attention(4, 4, 2, 30, 50, 32);
  p.varlen = true;
  Inputs in = randomInputs(p, 7);
  REQUIRE(in.cu_seqlens_q.size() == 5);
  REQUIRE(in.cu_seqlens_k.size() == 5);
  CHECK(in.cu_seqlens_q[0] == 0);
  CHECK(in.cu_seqlens_k[0] == 0);
  CHECK(in.lenQ(p, 0) == 0); // a sequence without query rows
  CHECK(in.lenK(p, 1) == 0); // one without keys
  CHECK(in.lenQ(p, 3) == 30); // the last is full
  CHECK(in.lenK(p, 3) == 50);
  for (int b = 0; b < 4; ++b) {
    CHECK((in.lenQ(p, b) >= 0 && in.lenQ(p, b) <= 30));
    CHECK((in.lenK(p, b) >= 0 && in.lenK(p, b) <= 50));
  }
  REQUIRE(in.q_packed.size() == size_t(in.cu_seqlens_q[4]) * 4 * 32);
  REQUIRE(in.k_packed.size() == size_t(in.cu_seqlens_k[4]) * 2 * 32);
  // Row cu[b] + i, head h of the packed tensors is row i of head h of
  // sequence b.
  for (int b = 0; b < 4; ++b) {
    for (int i = 0; i < in.lenQ(p, b); ++i)
      for (int h = 0; h < 4; ++h)
        for (int d = 0; d < 32; ++d)
          REQUIRE(in.q_packed[((size_t(in.cu_seqlens_q[b]) + i) * 4 + h) * 32 + d] ==
                  in.q[((size_t(b) * 4 + h) * 30 + i) * 32 + d]);
    for (int j = 0; j < in.lenK(p, b); ++j)
      for (int h = 0; h < 2; ++h)
        for (int d = 0; d < 32; ++d) {
          size_t packed = ((size_t(in.cu_seqlens_k[b]) + j) * 2 + h) * 32 + d,
                 logical = ((size_t(b) * 2 + h) * 50 + j) * 32 + d;
          REQUIRE(in.k_packed[packed] == in.k[logical]);
          REQUIRE(in.v_packed[packed] == in.v[logical]);
        }
  }
  CHECK_FALSE(checkVarlenInputs(p, in));
  Inputs full = randomInputs(p, 7, /*fullLengths=*/true);
  for (int b = 0; b < 4; ++b)
    CHECK((full.lenQ(p, b) == 30 && full.lenK(p, b) == 50));
  CHECK(flopsOf(p, full) == p.flops());
  CHECK(flopsOf(p, in) < p.flops());
}

TEST_CASE("varlen inputs: bad cumulative lengths are refused", "[reference][varlen]") {
  Problem p = attention(2, 2, 2, 10, 20, 32);
  p.varlen = true;
  Inputs in = randomInputs(p, 3);
  Inputs bad = in;
  bad.cu_seqlens_q.pop_back();
  CHECK(checkVarlenInputs(p, bad)->message() == "invalid cu_seqlens_q = 2 entries: batch + 1 = 3 cumulative lengths");
  bad = in;
  bad.cu_seqlens_k[0] = 1;
  CHECK(checkVarlenInputs(p, bad)->message() == "invalid cu_seqlens_k[0] = 1: 0 (the first sequence starts at row 0)");
  bad = in;
  bad.cu_seqlens_q = {0, 11, 12};
  CHECK(checkVarlenInputs(p, bad)->message() ==
        "invalid cu_seqlens_q[1] = 11: at least cu_seqlens_q[0] = 0 and at most 10 (seq_q, the longest sequence) more");
  bad.cu_seqlens_q = {0, 5, 4};
  CHECK(checkVarlenInputs(p, bad)->message() ==
        "invalid cu_seqlens_q[2] = 4: at least cu_seqlens_q[1] = 5 and at most 10 (seq_q, the longest sequence) more");
}

/// Sequence b of a varlen problem's padded logical inputs as a problem of
/// its own ([1, H, len, D]): its first len_q query rows and len_k keys.
Inputs cutSequence(const Problem &p, const Inputs &in, int b, int lq, int lk) {
  int64_t Hq = p.heads_q, Hkv = p.heads_kv, D = p.head_dim, Sq = p.seq_q.value, Sk = p.seq_k.value;
  Inputs cut;
  for (int64_t h = 0; h < Hq; ++h) {
    size_t from = size_t((b * Hq + h) * Sq * D);
    cut.q.insert(cut.q.end(), in.q.begin() + from, in.q.begin() + from + lq * D);
  }
  for (int64_t h = 0; h < Hkv; ++h) {
    size_t from = size_t((b * Hkv + h) * Sk * D);
    cut.k.insert(cut.k.end(), in.k.begin() + from, in.k.begin() + from + lk * D);
    cut.v.insert(cut.v.end(), in.v.begin() + from, in.v.begin() + from + lk * D);
  }
  return cut;
}

TEST_CASE("varlen reference: sequence b equals attention over its own rows and keys", "[reference][varlen]") {
  Problem p = attention(4, 4, 2, 9, 30, 32);
  p.varlen = true;
  p.causal = true;
  p.alibi = true;
  Inputs in = randomInputs(p, 11);
  std::vector<double> o, lse;
  referenceF64(p, in, o, &lse);
  for (int b = 0; b < 4; ++b) {
    int lq = int(in.lenQ(p, b)), lk = int(in.lenK(p, b));
    INFO("b = " << b << ", len_q = " << lq << ", len_k = " << lk);
    for (int h = 0; h < 4; ++h)
      for (int i = lq; i < 9; ++i) { // rows past the sequence: nothing (0, -inf)
        CHECK(lse[(size_t(b) * 4 + h) * 9 + i] == -std::numeric_limits<double>::infinity());
        CHECK(o[((size_t(b) * 4 + h) * 9 + i) * 32] == 0);
      }
    if (lq == 0 || lk == 0)
      continue;
    Problem one = attention(1, 4, 2, lq, lk, 32);
    one.causal = one.alibi = true;
    Inputs cut = cutSequence(p, in, b, lq, lk);
    std::vector<double> o1, l1;
    referenceF64(one, cut, o1, &l1);
    for (int h = 0; h < 4; ++h)
      for (int i = 0; i < lq; ++i) {
        REQUIRE(lse[(size_t(b) * 4 + h) * 9 + i] == l1[size_t(h) * lq + i]);
        for (int d = 0; d < 32; ++d)
          REQUIRE(o[((size_t(b) * 4 + h) * 9 + i) * 32 + d] == o1[(size_t(h) * lq + i) * 32 + d]);
      }
  }
}

TEST_CASE("unpackVarlen: packed rows to the logical layout; LSE rows past a sequence", "[reference][varlen]") {
  Problem p = attention(2, 1, 1, 3, 4, 32);
  p.varlen = true;
  Inputs in;
  in.cu_seqlens_q = {0, 2, 5};
  in.cu_seqlens_k = {0, 4, 8};
  std::vector<double> packed(5 * 32);
  for (size_t r = 0; r < 5; ++r)
    for (size_t d = 0; d < 32; ++d)
      packed[r * 32 + d] = double(r) + 0.01 * double(d);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> lse{1, 2, nan, 3, 4, 5}, o;
  CHECK(unpackVarlen(p, in, packed, o, lse).lseRows == 0);
  CHECK(lse[2] == -std::numeric_limits<double>::infinity()); // b = 0, row 2: past its 2 rows
  CHECK(o[(0 * 3 + 1) * 32 + 5] == packed[1 * 32 + 5]);
  CHECK(o[(0 * 3 + 2) * 32 + 5] == 0);
  CHECK(o[(1 * 3 + 0) * 32 + 7] == packed[2 * 32 + 7]);
  CHECK(o[(1 * 3 + 2) * 32] == packed[4 * 32]);
  std::vector<double> written{1, 2, 7.5, 3, 4, 5};
  CHECK(unpackVarlen(p, in, packed, o, written).lseRows == 1);
  CHECK(written[2] == 7.5); // kept: checkLse holds it against -inf
}

TEST_CASE("varlen with seqused: gaps between sequences, finite poison in the inputs, NaN in O", "[reference][varlen]") {
  Problem p = attention(4, 4, 2, 9, 30, 32);
  p.varlen = p.seqused = true;
  p.causal = true;
  Inputs in = randomInputs(p, 21);
  REQUIRE(in.seqused_q.size() == 4);
  REQUIRE(in.seqused_k.size() == 4);
  CHECK_FALSE(checkVarlenInputs(p, in));
  int64_t gapsQ = 0;
  for (int b = 0; b < 4; ++b) {
    int64_t spanQ = in.cu_seqlens_q[b + 1] - in.cu_seqlens_q[b], spanK = in.cu_seqlens_k[b + 1] - in.cu_seqlens_k[b];
    CHECK(in.lenQ(p, b) == in.seqused_q[b]);
    CHECK(in.lenK(p, b) == in.seqused_k[b]);
    CHECK((spanQ - in.seqused_q[b] >= 1 && spanQ - in.seqused_q[b] <= 3));
    CHECK((spanK - in.seqused_k[b] >= 1 && spanK - in.seqused_k[b] <= 3));
    gapsQ += spanQ - in.seqused_q[b];
    // A gap's rows are 1 in the packed K, 1000 in V and 0.25 in Q; a used
    // row is the logical one.
    for (int64_t i = in.cu_seqlens_q[b] + in.seqused_q[b]; i < in.cu_seqlens_q[b + 1]; ++i)
      CHECK(in.q_packed[size_t(i) * 4 * 32] == 0.25f);
    for (int64_t j = in.cu_seqlens_k[b] + in.seqused_k[b]; j < in.cu_seqlens_k[b + 1]; ++j)
      CHECK((in.k_packed[size_t(j) * 2 * 32 + 31] == 1.0f && in.v_packed[size_t(j) * 2 * 32] == 1000.0f));
    if (in.seqused_q[b] > 0)
      CHECK(in.q_packed[size_t(in.cu_seqlens_q[b]) * 4 * 32] == in.q[size_t(b) * 4 * 9 * 32]);
  }
  CHECK(gapsQ >= 4); // every sequence has a gap
  // Refusals: a count other than batch, a length over its span.
  Inputs bad = in;
  bad.seqused_k.pop_back();
  CHECK(checkVarlenInputs(p, bad)->message() == "invalid seqused_k = 3 entries: batch = 4 lengths");
  bad = in;
  bad.seqused_q[0] = in.cu_seqlens_q[1] + 1;
  CHECK(checkVarlenInputs(p, bad)->message() ==
        "invalid seqused_q[0] = " + std::to_string(in.cu_seqlens_q[1] + 1) + ": 0 to " +
            std::to_string(in.cu_seqlens_q[1]) + " (sequence 0's span in cu_seqlens_q, at most seq_q)");
  bad = in;
  bad.seqused_k[2] = -1;
  CHECK(checkVarlenInputs(p, bad)->message().rfind("invalid seqused_k[2] = -1: 0 to ", 0) == 0);
  bad = in;
  bad.cu_seqlens_q[4] = bad.cu_seqlens_q[3] + 10; // a span over seq_q is a gap: allowed
  CHECK_FALSE(checkVarlenInputs(p, bad));
  bad.seqused_q[3] = 10; // a length over seq_q (9) is not
  CHECK(checkVarlenInputs(p, bad)->message() ==
        "invalid seqused_q[3] = 10: 0 to 9 (sequence 3's span in cu_seqlens_q, at most seq_q)");
  bad = in;
  bad.cu_seqlens_k[2] = bad.cu_seqlens_k[1] - 1; // still non-decreasing spans
  CHECK(checkVarlenInputs(p, bad)->message().rfind("invalid cu_seqlens_k[2] = ", 0) == 0);

  // unpackVarlen counts an O row of a gap that holds anything but the poison.
  Problem u = attention(2, 1, 1, 3, 4, 32);
  u.varlen = u.seqused = true;
  Inputs g;
  g.cu_seqlens_q = {0, 3, 5};
  g.seqused_q = {2, 2};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> packed(5 * 32, 1.0), o, lse{1, 2, nan, 3, 4, nan};
  for (size_t d = 0; d < 32; ++d)
    packed[2 * 32 + d] = nan; // row 2: the first sequence's gap, untouched
  CHECK(unpackVarlen(u, g, packed, o, lse).gapRows == 0);
  packed[2 * 32 + 31] = 0.5; // one element of the gap written
  lse = {1, 2, nan, 3, 4, nan};
  WrittenPast w = unpackVarlen(u, g, packed, o, lse);
  CHECK(w.gapRows == 1);
  CHECK(w.lseRows == 0);
  CHECK(o[(1 * 3 + 0) * 32] == packed[3 * 32]); // sequence 1 starts at its span, row 3
}

TEST_CASE("varlen over a paged cache: packed queries, the cache's keys", "[reference][varlen][paged]") {
  Problem p = attention(3, 4, 2, 20, 64, 32);
  p.varlen = true;
  p.page_size = 16;
  p.causal = true;
  Inputs in = randomInputs(p, 13);
  CHECK(in.cu_seqlens_q.size() == 4);
  CHECK(in.cu_seqlens_k.empty()); // the keys are the cache's
  CHECK(in.k_packed.empty());
  REQUIRE(in.kv_lens.size() == 3);
  for (int b = 0; b < 3; ++b)
    CHECK(in.lenK(p, b) == in.kv_lens[b]);
  CHECK_FALSE(checkVarlenInputs(p, in));
  CHECK_FALSE(checkPagedInputs(p, in));
  // The reference: sequence b's rows against its kv_lens[b] keys.
  std::vector<double> o, lse;
  referenceF64(p, in, o, &lse);
  for (int b = 0; b < 3; ++b) {
    int lq = int(in.lenQ(p, b)), lk = int(in.lenK(p, b));
    INFO("b = " << b << ", len_q = " << lq << ", len_k = " << lk);
    if (lq == 0 || lk == 0)
      continue;
    Problem one = attention(1, 4, 2, lq, lk, 32);
    one.causal = true;
    Inputs cut = cutSequence(p, in, b, lq, lk);
    std::vector<double> o1, l1;
    referenceF64(one, cut, o1, &l1);
    for (int h = 0; h < 4; ++h)
      for (int i = 0; i < lq; ++i)
        REQUIRE(lse[(size_t(b) * 4 + h) * 20 + i] == l1[size_t(h) * lq + i]);
  }
}
