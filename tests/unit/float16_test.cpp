// fp16 / bf16 conversions of the references (IEEE round-to-nearest-even).
#include "runtime/problem/Reference.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace attncc;

namespace {
float bitsToFloat(uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
} // namespace

//===----------------------------------------------------------------------===//
// fp16 / bf16
//===----------------------------------------------------------------------===//

TEST_CASE("fp16: known bit patterns", "[reference][fp16]") {
  CHECK(floatToHalfBits(0.0f) == 0x0000);
  CHECK(floatToHalfBits(-0.0f) == 0x8000);
  CHECK(floatToHalfBits(1.0f) == 0x3C00);
  CHECK(floatToHalfBits(-2.0f) == 0xC000);
  CHECK(floatToHalfBits(0.1f) == 0x2E66);
  CHECK(floatToHalfBits(65504.0f) == 0x7BFF);         // largest finite
  CHECK(floatToHalfBits(65519.99f) == 0x7BFF);        // below the tie: stays finite
  CHECK(floatToHalfBits(65520.0f) == 0x7C00);         // tie above 65504 goes to even = inf
  CHECK(floatToHalfBits(1e6f) == 0x7C00);             // overflow
  CHECK(floatToHalfBits(-1e6f) == 0xFC00);
  CHECK(floatToHalfBits(std::ldexp(1.0f, -14)) == 0x0400); // smallest normal
  CHECK(floatToHalfBits(std::ldexp(1.0f, -24)) == 0x0001); // smallest subnormal
  CHECK(floatToHalfBits(std::ldexp(1023.0f, -24)) == 0x03FF); // largest subnormal
  CHECK(floatToHalfBits(std::ldexp(1.0f, -25)) == 0x0000);    // tie: to even (0)
  CHECK(floatToHalfBits(std::ldexp(1.5f, -25)) == 0x0001);    // above the tie
  CHECK(floatToHalfBits(std::ldexp(3.0f, -25)) == 0x0002);    // 1.5 units: tie to even (2)
  CHECK(floatToHalfBits(std::ldexp(5.0f, -25)) == 0x0002);    // 2.5 units: tie to even (2)
  CHECK(floatToHalfBits(std::ldexp(1.0f, -26)) == 0x0000);
  CHECK(floatToHalfBits(-std::ldexp(1.0f, -24)) == 0x8001);
  CHECK(floatToHalfBits(bitsToFloat(0x00000001)) == 0x0000); // float subnormal
  // Ties to even between normals: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
  CHECK(floatToHalfBits(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);
  CHECK(floatToHalfBits(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);
  CHECK(floatToHalfBits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3C01);
  // Rounding carries into the exponent: just below 2 rounds up to 2.
  CHECK(floatToHalfBits(2.0f - std::ldexp(1.0f, -12)) == 0x4000);
  // The largest subnormal + half a unit rounds up into the smallest normal.
  CHECK(floatToHalfBits(std::ldexp(2047.0f, -25)) == 0x0400);

  CHECK(floatToHalfBits(INFINITY) == 0x7C00);
  CHECK(floatToHalfBits(-INFINITY) == 0xFC00);
  uint16_t n = floatToHalfBits(NAN);
  CHECK((n & 0x7C00) == 0x7C00);
  CHECK((n & 0x03FF) != 0);
  // A NaN whose payload is only in the low float bits stays NaN (not inf).
  uint16_t low = floatToHalfBits(bitsToFloat(0x7F800001));
  CHECK((low & 0x7C00) == 0x7C00);
  CHECK((low & 0x03FF) != 0);
}

TEST_CASE("fp16: decode", "[reference][fp16]") {
  CHECK(halfBitsToFloat(0x3C00) == 1.0f);
  CHECK(halfBitsToFloat(0x3555) == 0.333251953125f);
  CHECK(halfBitsToFloat(0x7BFF) == 65504.0f);
  CHECK(halfBitsToFloat(0x0001) == std::ldexp(1.0f, -24));
  CHECK(halfBitsToFloat(0x03FF) == std::ldexp(1023.0f, -24));
  CHECK(halfBitsToFloat(0x0400) == std::ldexp(1.0f, -14));
  CHECK(halfBitsToFloat(0xC000) == -2.0f);
  CHECK(std::signbit(halfBitsToFloat(0x8000)));
  CHECK(halfBitsToFloat(0x7C00) == INFINITY);
  CHECK(halfBitsToFloat(0xFC00) == -INFINITY);
  CHECK(std::isnan(halfBitsToFloat(0x7E00)));
  CHECK(std::isnan(halfBitsToFloat(0x7C01)));
}

TEST_CASE("fp16: every half round-trips; random floats go to the nearest, ties to even",
          "[reference][fp16]") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = halfBitsToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f))
      continue;
    if (floatToHalfBits(f) != h) {
      FAIL_CHECK("half " << h << " does not round-trip");
      break;
    }
  }
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> bits(0, 0x477FEFFFu); // positive, below 65520
  int failures = 0;
  for (int n = 0; n < 200000 && failures < 5; ++n) {
    float x = bitsToFloat(bits(rng));
    uint16_t h = floatToHalfBits(x);
    double got = halfBitsToFloat(h), err = std::fabs(got - x);
    for (int delta : {-1, 1}) {
      int nb = h + delta;
      if (nb < 0 || nb > 0x7BFF)
        continue;
      double other = std::fabs(static_cast<double>(halfBitsToFloat(static_cast<uint16_t>(nb))) - x);
      bool ok = err < other || (err == other && (h & 1) == 0);
      if (!ok) {
        ++failures;
        FAIL_CHECK("x = " << x << " -> " << h << " but " << nb << " is nearer");
      }
    }
#ifdef __FLT16_MAX__ // the compiler's own IEEE conversion, where available
    _Float16 hw = static_cast<_Float16>(x);
    uint16_t hwBits;
    std::memcpy(&hwBits, &hw, 2);
    if (hwBits != h) {
      ++failures;
      FAIL_CHECK("x = " << x << ": " << h << " but _Float16 gives " << hwBits);
    }
#endif
  }
  CHECK(failures == 0);
}

TEST_CASE("bf16: known bit patterns", "[reference][bf16]") {
  CHECK(floatToBf16Bits(1.0f) == 0x3F80);
  CHECK(floatToBf16Bits(-2.0f) == 0xC000);
  CHECK(floatToBf16Bits(0.0f) == 0x0000);
  CHECK(floatToBf16Bits(-0.0f) == 0x8000);
  // Ties to even: 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  CHECK(floatToBf16Bits(1.0f + std::ldexp(1.0f, -8)) == 0x3F80);
  CHECK(floatToBf16Bits(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3F82);
  CHECK(floatToBf16Bits(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)) == 0x3F81);
  CHECK(floatToBf16Bits(3.3895314e38f) == 0x7F7F);            // largest finite bf16
  CHECK(floatToBf16Bits(std::numeric_limits<float>::max()) == 0x7F80); // overflow to inf
  CHECK(floatToBf16Bits(INFINITY) == 0x7F80);
  CHECK(floatToBf16Bits(-INFINITY) == 0xFF80);
  CHECK(floatToBf16Bits(std::ldexp(1.0f, -133)) == 0x0001); // smallest bf16 subnormal
  CHECK(floatToBf16Bits(std::ldexp(1.0f, -134)) == 0x0000); // tie to even (0)
  CHECK(floatToBf16Bits(std::ldexp(3.0f, -134)) == 0x0002); // tie to even (2)
  CHECK(floatToBf16Bits(bitsToFloat(0x00000001)) == 0x0000);
  uint16_t n = floatToBf16Bits(NAN);
  CHECK(((n & 0x7F80) == 0x7F80 && (n & 0x007F) != 0));
  uint16_t low = floatToBf16Bits(bitsToFloat(0x7F800001)); // payload only in dropped bits
  CHECK(((low & 0x7F80) == 0x7F80 && (low & 0x007F) != 0));

  CHECK(bf16BitsToFloat(0x3F80) == 1.0f);
  CHECK(bf16BitsToFloat(0x0001) == std::ldexp(1.0f, -133));
  CHECK(std::isnan(bf16BitsToFloat(0x7FC0)));
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = bf16BitsToFloat(static_cast<uint16_t>(h));
    if (!std::isnan(f) && floatToBf16Bits(f) != h) {
      FAIL_CHECK("bf16 " << h << " does not round-trip");
      break;
    }
  }
}

TEST_CASE("roundToDType", "[reference]") {
  float x = 0.1f;
  CHECK(roundToDType(DType::F32, x) == x);
  CHECK(roundToDType(DType::F16, x) == halfBitsToFloat(0x2E66));
  CHECK(roundToDType(DType::BF16, x) == bf16BitsToFloat(floatToBf16Bits(x)));
  CHECK(roundToDType(DType::BF16, 1.0f + std::ldexp(1.0f, -8)) == 1.0f);
}
