// The tcgen05 descriptors (isa/Tcgen05.h) and the emulator that decodes them
// (codegen/cuda/tcgen05_emu.cuh), each against values worked out by hand
// from the PTX ISA's tables (ISA 9.0, 9.7.16.4): the encoder's tests do not
// use the decoder and the decoder's tests do not use the encoder, except
// the last, which checks that the two agree.
#include "codegen/cuda/tcgen05_emu.cuh"
#include "isa/Tcgen05.h"
#include "runtime/nvrtc/Nvrtc.h"
#include "runtime/problem/Reference.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

using namespace attncc::isa;

namespace {
/// The text of codegen/cuda/<name>, as the tests compile it through NVRTC.
std::string cudaHeader(const std::string &name) {
  std::ifstream in(std::string(ATTNCC_SOURCE_DIR) + "/codegen/cuda/" + name);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
uint32_t instr(Tc05Instr d) {
  std::string why;
  std::optional<uint32_t> v = encodeInstr(d, &why);
  INFO(why);
  REQUIRE(v);
  return *v;
}
uint64_t smem(Tc05Smem d) {
  std::string why;
  std::optional<uint64_t> v = encodeSmem(d, &why);
  INFO(why);
  REQUIRE(v);
  return *v;
}
} // namespace

TEST_CASE("tcgen05 instruction descriptor: each field where the ISA puts it", "[tcgen05]") {
  // M = 128, N = 128, bf16 x bf16 -> f32, both K-major:
  // dtype F32 = 1 << 4 = 0x10, atype BF16 = 1 << 7 = 0x80, btype 1 << 10 =
  // 0x400, N >> 3 = 16 << 17 = 0x200000, M >> 4 = 8 << 24 = 0x08000000.
  Tc05Instr qk;
  CHECK(instr(qk) == 0x08200490u);
  // f16 operands: atype = btype = 0.
  Tc05Instr f16 = qk;
  f16.a = f16.b = Tc05Elem::F16;
  CHECK(instr(f16) == 0x08200010u);
  // An f16 accumulator: dtype 0.
  f16.acc = Tc05Acc::F16;
  CHECK(instr(f16) == 0x08200000u);
  // P V: B (V) MN-major sets bit 16; N = hd.
  Tc05Instr pv = qk;
  pv.bMajor = Tc05Major::MN;
  CHECK(instr(pv) == 0x08210490u);
  pv.n = 64;
  CHECK(instr(pv) == 0x08110490u); // 8 << 17
  pv.n = 256;
  CHECK(instr(pv) == 0x08410490u); // 32 << 17
  // M = 64: 4 << 24.
  Tc05Instr m64 = qk;
  m64.m = 64;
  CHECK(instr(m64) == 0x04200490u);
  // The single bits: transpose A (15), negate A (13), negate B (14).
  Tc05Instr t = qk;
  t.aMajor = Tc05Major::MN;
  CHECK(instr(t) == (0x08200490u | (1u << 15)));
  t = qk;
  t.negateA = true;
  CHECK(instr(t) == (0x08200490u | (1u << 13)));
  t = qk;
  t.negateB = true;
  CHECK(instr(t) == (0x08200490u | (1u << 14)));
  // M = 64: 4 << 24; with it N = 8, the smallest: 1 << 17.
  t = qk;
  t.m = 64;
  CHECK(instr(t) == 0x04200490u);
  t.n = 8;
  CHECK(instr(t) == 0x04020490u);
}

TEST_CASE("tcgen05 instruction descriptor: shapes and types it refuses", "[tcgen05]") {
  std::string why;
  Tc05Instr d;
  d.m = 256;
  CHECK_FALSE(encodeInstr(d, &why));
  CHECK(why == "M = 256: cta_group::1 has M = 64 or 128");
  d = {};
  d.n = 260;
  CHECK_FALSE(encodeInstr(d, &why));
  CHECK(why == "N = 260: N is a multiple of 8 in [8, 256]");
  d.n = 12;
  CHECK_FALSE(encodeInstr(d, &why));
  d.n = 8; // M = 128 takes N a multiple of 16
  CHECK_FALSE(encodeInstr(d, &why));
  CHECK(why == "N = 8: with M = 128, N is a multiple of 16 in [16, 256]");
  d.m = 64;
  CHECK(encodeInstr(d, &why));
  d = {};
  d.a = Tc05Elem::F16;
  CHECK_FALSE(encodeInstr(d, &why));
  CHECK(why == "A and B of different types: .kind::f16 takes f16 x f16 or bf16 x bf16");
  d = {};
  d.acc = Tc05Acc::F16;
  CHECK_FALSE(encodeInstr(d, &why));
  CHECK(why == "an f16 accumulator needs f16 operands (bf16 accumulates in f32)");
}

TEST_CASE("tcgen05 shared-memory descriptor: each field where the ISA puts it", "[tcgen05]") {
  // K-major, 128-byte swizzle, at 1024 with SBO 1024 and LBO 16:
  // start (1024 >> 4) = 0x40 in bits 0-13, LBO 1 << 16, SBO 0x40 << 32, the
  // fixed 0b001 at bit 46, swizzle 2 << 61.
  Tc05Smem k{1024, 16, 1024, 0, Tc05Swizzle::B128};
  CHECK(smem(k) == 0x4000404000010040ull);
  // The same with its start left for the kernel: the low 14 bits are 0.
  CHECK(*encodeSmemFixed(k) == 0x4000404000010000ull);
  // Each swizzle code in bits 61-63.
  k.swizzle = Tc05Swizzle::B64;
  CHECK(smem(k) >> 61 == 4);
  k.swizzle = Tc05Swizzle::B32;
  CHECK(smem(k) >> 61 == 6);
  k.swizzle = Tc05Swizzle::None;
  CHECK(smem(k) >> 61 == 0);
  k.swizzle = Tc05Swizzle::B128Atom32;
  CHECK(smem(k) >> 61 == 1);
  // MN-major V of a 128-key tile: LBO 16384 (0x400 << 16), SBO 1024.
  Tc05Smem v{0, 16384, 1024, 0, Tc05Swizzle::B128};
  CHECK(smem(v) == 0x4000404004000000ull);
  // A base offset of 3 in bits 49-51; the encoding keeps address bits 4-17.
  Tc05Smem b{0x3FFF0, 0, 0, 3, Tc05Swizzle::None};
  CHECK(smem(b) == ((1ull << 46) | (3ull << 49) | 0x3FFFull));
}

TEST_CASE("tcgen05 shared-memory descriptor: what it refuses", "[tcgen05]") {
  std::string why;
  CHECK_FALSE(encodeSmem({1032, 0, 1024, 0, Tc05Swizzle::B128}, &why));
  CHECK(why == "start address 1032 is not 16-byte aligned");
  CHECK_FALSE(encodeSmem({0, 8, 1024, 0, Tc05Swizzle::B128}, &why));
  CHECK(why == "leading byte offset 8 is not 16-byte aligned");
  CHECK_FALSE(encodeSmem({0, 0, 1u << 18, 0, Tc05Swizzle::B128}, &why));
  CHECK(why == "stride byte offset 262144 does not fit in 18 bits");
  CHECK_FALSE(encodeSmem({0, 0, 1024, 8, Tc05Swizzle::B128}, &why));
  CHECK(why == "base offset 8 does not fit in 3 bits");
}

TEST_CASE("tcgen05 emulator: decoding the instruction descriptor", "[tcgen05][emulate]") {
  attncc_emu_idesc d = attncc_emu_decode_idesc(0x08210490u); // P V, hd128, bf16
  CHECK(d.valid);
  CHECK(d.m == 128);
  CHECK(d.n == 128);
  CHECK(d.dtype == 1);
  CHECK(d.atype == 1);
  CHECK(d.btype == 1);
  CHECK(d.transA == 0);
  CHECK(d.transB == 1);
  CHECK(d.negA == 0);
  CHECK(d.negB == 0);
  d = attncc_emu_decode_idesc(0x04020010u); // M = 64, N = 8, f16
  CHECK(d.valid);
  CHECK(d.m == 64);
  CHECK(d.n == 8);
  CHECK(d.atype == 0);
  d = attncc_emu_decode_idesc(0x04200490u); // Q K^T with M = 64 (TCGEN05.md's table)
  CHECK(d.valid);
  CHECK(d.m == 64);
  CHECK(d.n == 128);
  // Not run: a reserved bit (23), sparsity (2), M = 128 with N = 8 (M = 128
  // takes N a multiple of 16), M = 32, mixed types, bf16 into an f16
  // accumulator, a B-reuse shift (bit 30).
  CHECK_FALSE(attncc_emu_decode_idesc(0x08200490u | (1u << 23)).valid);
  CHECK_FALSE(attncc_emu_decode_idesc(0x08200490u | (1u << 2)).valid);
  CHECK_FALSE(attncc_emu_decode_idesc(0x08020010u).valid);
  CHECK_FALSE(attncc_emu_decode_idesc(0x02200490u).valid);
  CHECK_FALSE(attncc_emu_decode_idesc(0x08200090u).valid);
  CHECK_FALSE(attncc_emu_decode_idesc(0x08200480u).valid);
  CHECK_FALSE(attncc_emu_decode_idesc(0x08200490u | (1u << 30)).valid);
}

TEST_CASE("tcgen05 emulator: decoding the shared-memory descriptor", "[tcgen05][emulate]") {
  attncc_emu_sdesc d = attncc_emu_decode_sdesc(0x4000404000010040ull);
  CHECK(d.valid);
  CHECK(d.start == 1024);
  CHECK(d.lbo == 16);
  CHECK(d.sbo == 1024);
  CHECK(d.swizzle == 2);
  CHECK(d.baseOffset == 0);
  // A Hopper descriptor (no 0b001 at bits 46-48) is not a tcgen05 one.
  CHECK_FALSE(attncc_emu_decode_sdesc(0x4000004000010040ull).valid);
  // Absolute leading-dimension mode (bit 52) is sm_103a only; swizzle codes
  // 3, 5, 7 are invalid and 1 is not emulated; a non-zero base offset is
  // not emulated.
  CHECK_FALSE(attncc_emu_decode_sdesc(0x4000404000010040ull | (1ull << 52)).valid);
  CHECK_FALSE(attncc_emu_decode_sdesc(0x6000404000010040ull).valid);
  CHECK_FALSE(attncc_emu_decode_sdesc(0x2000404000010040ull).valid);
  CHECK_FALSE(attncc_emu_decode_sdesc(0x4000404000010040ull | (1ull << 49)).valid);
}

TEST_CASE("tcgen05 emulator: operand addresses through the swizzles", "[tcgen05][emulate]") {
  // K-major, 128-byte swizzle, bf16, start 0, SBO 1024. Element (9, 5):
  // row 9 = group 1 (1024), row 1 of it (128), byte 10 of chunk 0; chunk 0
  // XOR row 1 = chunk 1: 1024 + 128 + 16 + 10 = 1178.
  attncc_emu_sdesc k = attncc_emu_decode_sdesc(0x4000404000010000ull);
  REQUIRE(k.valid);
  CHECK(attncc_emu_operand_addr(k, 0, 9, 5, 2) == 1178u);
  // Row 0 is not moved: (0, 15) is byte 30.
  CHECK(attncc_emu_operand_addr(k, 0, 0, 15, 2) == 30u);
  // Row 7, k = 8 (chunk 1): chunk 1 XOR 7 = 6: 7 * 128 + 96 = 992.
  CHECK(attncc_emu_operand_addr(k, 0, 7, 8, 2) == 992u);
  // MN-major V, 128-byte swizzle, LBO 16384, SBO 1024: (n 70, k 11):
  // MN atom 1 (16384), 8-deep K group 1 (1024), K row 3 (384), byte 12 of
  // chunk 0, which moves to chunk 0 XOR 3 = 3: 16384 + 1024 + 384 + 48 + 12.
  attncc_emu_sdesc v = attncc_emu_decode_sdesc(0x4000404004000000ull);
  REQUIRE(v.valid);
  CHECK(attncc_emu_operand_addr(v, 1, 70, 11, 2) == 17852u);
  // 64-byte swizzle (rows of 64 B, pattern of 512 B): K-major (3, 4) at
  // 3 * 64 + 8 = 200; bits 7-8 of 200 are 1, so chunk 0 -> 1: 216.
  attncc_emu_sdesc s64 = attncc_emu_decode_sdesc((4ull << 61) | (1ull << 46) | (0x40ull << 32));
  REQUIRE(s64.valid);
  CHECK(attncc_emu_operand_addr(s64, 0, 3, 4, 2) == 216u);
  // No swizzle, K-major core matrices: SBO 256 between 8-row groups, LBO
  // 128 between 16-byte column groups: (10, 9) = 256 + 2 * 16 + 128 + 2 = 418.
  attncc_emu_sdesc none = attncc_emu_decode_sdesc((1ull << 46) | (0x10ull << 32) | (0x8ull << 16));
  REQUIRE(none.valid);
  CHECK(attncc_emu_operand_addr(none, 0, 10, 9, 2) == 418u);
  // MN-major without a swizzle is not emulated.
  CHECK(attncc_emu_operand_addr(none, 1, 10, 9, 2) == 0xFFFFFFFFu);
}

TEST_CASE("tcgen05 emulator: tensor-memory addresses and the lane quarters", "[tcgen05][emulate]") {
  CHECK(attncc_emu_tmem_lane(0x00400020u) == 64);
  CHECK(attncc_emu_tmem_col(0x00400020u) == 32);
  // Warp 6 of its warpgroup is quarter 2: lanes 64..95.
  CHECK(attncc_emu_quarter_ok(6, 64u << 16));
  CHECK_FALSE(attncc_emu_quarter_ok(6, 32u << 16));
  CHECK(attncc_emu_quarter_ok(0, 5));
  CHECK_FALSE(attncc_emu_quarter_ok(1, 5));
}

TEST_CASE("tcgen05 emulator: the column allocator follows the ISA's rules", "[tcgen05][emulate]") {
  attncc_emu_tmem_alloc s;
  attncc_emu_tmem_init(&s);
  unsigned a = 0xDEADu, b = 0xDEADu, c = 0xDEADu;
  // Not a power of two in [32, 512].
  CHECK(attncc_emu_tmem_alloc_cols(&s, 16, &a) == ATTNCC_EMU_TMEM_BAD_COLS);
  CHECK(attncc_emu_tmem_alloc_cols(&s, 96, &a) == ATTNCC_EMU_TMEM_BAD_COLS);
  CHECK(attncc_emu_tmem_alloc_cols(&s, 1024, &a) == ATTNCC_EMU_TMEM_BAD_COLS);
  // 256, then 128, then 64: lane 0, columns 0, 256, 384.
  REQUIRE(attncc_emu_tmem_alloc_cols(&s, 256, &a) == 0);
  CHECK(a == 0u);
  REQUIRE(attncc_emu_tmem_alloc_cols(&s, 128, &b) == 0);
  CHECK(b == 256u);
  // The count may not grow between allocations (128 -> 256).
  CHECK(attncc_emu_tmem_alloc_cols(&s, 256, &c) == ATTNCC_EMU_TMEM_GREW);
  REQUIRE(attncc_emu_tmem_alloc_cols(&s, 64, &c) == 0);
  CHECK(c == 384u);
  // 448 of 512 columns are taken; the last 64 are free.
  unsigned d = 0;
  REQUIRE(attncc_emu_tmem_alloc_cols(&s, 64, &d) == 0);
  CHECK(d == 448u);
  // Now all 512 are taken: an alloc would block forever here.
  unsigned e = 0;
  CHECK(attncc_emu_tmem_alloc_cols(&s, 32, &e) == ATTNCC_EMU_TMEM_FULL);
  // dealloc: the address must be lane 0 of a 32-column unit, and the
  // columns must be allocated.
  CHECK(attncc_emu_tmem_dealloc(&s, (32u << 16) | 256u, 128) == ATTNCC_EMU_TMEM_BAD_ADDR);
  CHECK(attncc_emu_tmem_dealloc(&s, 260u, 128) == ATTNCC_EMU_TMEM_BAD_ADDR);
  CHECK(attncc_emu_tmem_dealloc(&s, 256u, 128) == 0);
  CHECK(attncc_emu_tmem_dealloc(&s, 256u, 128) == ATTNCC_EMU_TMEM_NOT_OWNED);
  CHECK_FALSE(attncc_emu_tmem_all_freed(&s));
  // The freed 128 columns can be had again (not more than the last count, 64).
  unsigned f = 0;
  REQUIRE(attncc_emu_tmem_alloc_cols(&s, 64, &f) == 0);
  CHECK(f == 256u);
  // After relinquish_alloc_permit the CTA may not alloc again, even with room.
  attncc_emu_tmem_relinquish(&s);
  CHECK(attncc_emu_tmem_alloc_cols(&s, 32, &e) == ATTNCC_EMU_TMEM_NO_PERMIT);
  for (auto [at, n] : std::initializer_list<std::pair<unsigned, unsigned>>{{0u, 256u}, {256u, 64u}, {384u, 64u}, {448u, 64u}})
    CHECK(attncc_emu_tmem_dealloc(&s, at, n) == 0);
  CHECK(attncc_emu_tmem_all_freed(&s));
}

TEST_CASE("tcgen05 emulator: ld/st .32x32b, one lane per thread, the quarter rule", "[tcgen05][emulate]") {
  std::vector<unsigned> tmem(ATTNCC_EMU_TMEM_LANES * ATTNCC_EMU_TMEM_COLS, 0);
  // Warp 5 is quarter 1 (lanes 32..63); thread 7 stores 4 registers at
  // column 100: lane 39, columns 100..103.
  unsigned r[4] = {11, 12, 13, 14}, back[4] = {0, 0, 0, 0};
  const unsigned taddr = (32u << 16) | 100u;
  REQUIRE(attncc_emu_st_32x32b(tmem.data(), 5, 7, taddr, 4, r) == 0);
  CHECK(tmem[39 * 512 + 100] == 11u);
  CHECK(tmem[39 * 512 + 103] == 14u);
  CHECK(tmem[38 * 512 + 100] == 0u);
  REQUIRE(attncc_emu_ld_32x32b(tmem.data(), 1, 7, taddr, 4, back) == 0); // warp 1: also quarter 1
  CHECK(back[0] == 11u);
  CHECK(back[3] == 14u);
  // Warp 4 (quarter 0) may not reach lane 32; 3 registers is no shape; the
  // columns may not run past 511; a warp has 32 threads.
  CHECK(attncc_emu_ld_32x32b(tmem.data(), 4, 7, taddr, 4, back) == 1);
  CHECK(attncc_emu_ld_32x32b(tmem.data(), 5, 7, taddr, 3, back) == 1);
  CHECK(attncc_emu_st_32x32b(tmem.data(), 5, 7, (32u << 16) | 510u, 4, r) == 1);
  CHECK(attncc_emu_st_32x32b(tmem.data(), 5, 32, taddr, 4, r) == 1);
}

namespace {
unsigned short bf16(float f) { return attncc::floatToBf16Bits(f); }
void put(std::vector<unsigned char> &s, unsigned at, unsigned short h) {
  s[at] = h & 0xFF;
  s[at + 1] = h >> 8;
}
float f32(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
/// The shared memory of the M = 64, N = 8 cases: A (64 x 16 at 0) has a 1 at
/// A[m][m % 16], B (8 x 16 at 16384) holds B[n][k] = 16 n + k, both K-major
/// with the 128-byte swizzle (SBO 1024, descriptor kM64Sw plus the start), so
/// D[m][n] = 16 n + m % 16.
const unsigned long long kM64Sw = (2ull << 61) | (1ull << 46) | (0x40ull << 32);
std::vector<unsigned char> m64Operands() {
  std::vector<unsigned char> s(32768, 0);
  for (unsigned m = 0; m < 64; ++m) {
    unsigned k = m % 16, row = m % 8;
    put(s, (m / 8) * 1024 + row * 128 + (((k * 2 / 16) ^ row) * 16) + (k * 2) % 16, bf16(1.0f));
  }
  for (unsigned n = 0; n < 8; ++n)
    for (unsigned k = 0; k < 16; ++k)
      put(s, 16384 + n * 128 + (((k * 2 / 16) ^ n) * 16) + (k * 2) % 16, bf16(static_cast<float>(16 * n + k)));
  return s;
}
} // namespace

TEST_CASE("tcgen05 emulator: one M = 128, N = 16 MMA, SS and TS forms", "[tcgen05][emulate]") {
  // A (128 x 16, K-major, 128-byte swizzle at 0, SBO 1024) has a 1 at
  // A[m][m % 16]; B (16 x 16, K-major, 128-byte swizzle at 16384) holds
  // B[n][k] = 16 n + k. So D[m][n] = B[n][m % 16] = 16 n + m % 16.
  std::vector<unsigned char> s(32768, 0);
  const unsigned long long kSw = (2ull << 61) | (1ull << 46) | (0x40ull << 32); // SBO 1024, start 0
  for (unsigned m = 0; m < 128; ++m) {
    unsigned k = m % 16, row = m % 8;
    unsigned at = (m / 8) * 1024 + row * 128 + (((k * 2 / 16) ^ row) * 16) + (k * 2) % 16;
    put(s, at, bf16(1.0f));
  }
  for (unsigned n = 0; n < 16; ++n)
    for (unsigned k = 0; k < 16; ++k) {
      unsigned at = 16384 + (n / 8) * 1024 + (n % 8) * 128 + (((k * 2 / 16) ^ (n % 8)) * 16) + (k * 2) % 16;
      put(s, at, bf16(static_cast<float>(16 * n + k)));
    }
  const unsigned idesc = 0x08040490u; // M 128, N 16, bf16 -> f32, K/K
  std::vector<unsigned> tmem(128 * 512, 0);
  std::vector<float> scratch(ATTNCC_EMU_MMA_SCRATCH); // the operands, read once
  const unsigned long long adesc = kSw, bdesc = kSw | (16384ull >> 4);
  REQUIRE(attncc_emu_mma_f16(tmem.data(), s.data(), /*d at column*/ 40, 0xFFFFFFFFu, adesc, bdesc, idesc, 0, scratch.data()) == 0);
  CHECK(f32(tmem[0 * 512 + 40 + 0]) == 0.0f);    // m 0, n 0
  CHECK(f32(tmem[5 * 512 + 40 + 3]) == 53.0f);   // 16 * 3 + 5
  CHECK(f32(tmem[127 * 512 + 40 + 7]) == 127.0f); // 16 * 7 + 15
  CHECK(f32(tmem[20 * 512 + 40 + 2]) == 36.0f);  // 16 * 2 + 4
  CHECK(f32(tmem[20 * 512 + 40 + 15]) == 244.0f); // 16 * 15 + 4
  // Accumulating adds the same again; columns 39 and 56 are untouched.
  REQUIRE(attncc_emu_mma_f16(tmem.data(), s.data(), 40, 0xFFFFFFFFu, adesc, bdesc, idesc, 1, scratch.data()) == 0);
  CHECK(f32(tmem[5 * 512 + 40 + 3]) == 106.0f);
  CHECK(tmem[5 * 512 + 39] == 0u);
  CHECK(tmem[5 * 512 + 56] == 0u);
  // TS form: A in tensor memory at column 200, two bf16 per column (element
  // k in column 200 + k / 2, low half for even k): A[m][k] = 2 where
  // k == m % 16, so D = 2 (16 n + m % 16).
  std::vector<unsigned> t2(128 * 512, 0);
  for (unsigned m = 0; m < 128; ++m) {
    unsigned k = m % 16;
    t2[m * 512 + 200 + k / 2] |= static_cast<unsigned>(bf16(2.0f)) << ((k % 2) * 16);
  }
  REQUIRE(attncc_emu_mma_f16(t2.data(), s.data(), 0, 200, 0, bdesc, idesc, 0, scratch.data()) == 0);
  CHECK(f32(t2[5 * 512 + 3]) == 106.0f);
  CHECK(f32(t2[18 * 512 + 1]) == 36.0f); // 2 * (16 + 2)
  // Refused: A from tensor memory marked MN-major; a Hopper B descriptor.
  CHECK(attncc_emu_mma_f16(t2.data(), s.data(), 0, 200, 0, bdesc, idesc | (1u << 15), 0, scratch.data()) == 1);
  CHECK(attncc_emu_mma_f16(t2.data(), s.data(), 0, 200, 0, bdesc & ~(1ull << 46), idesc, 0, scratch.data()) == 1);
  // Split over a warp: lane t computes rows t, t + 32, t + 64, t + 96; the
  // 32 lanes together write what one call writes, bit for bit, and lane 5
  // alone writes only its rows.
  std::vector<unsigned> t3(128 * 512, 0);
  for (int t = 0; t < 32; ++t)
    REQUIRE(attncc_emu_mma_f16_rows(t3.data(), s.data(), 40, 0xFFFFFFFFu, adesc, bdesc, idesc, 0, t, 32, scratch.data()) == 0);
  std::vector<unsigned> one(128 * 512, 0);
  REQUIRE(attncc_emu_mma_f16(one.data(), s.data(), 40, 0xFFFFFFFFu, adesc, bdesc, idesc, 0, scratch.data()) == 0);
  CHECK(t3 == one);
  std::vector<unsigned> t4(128 * 512, 0);
  REQUIRE(attncc_emu_mma_f16_rows(t4.data(), s.data(), 40, 0xFFFFFFFFu, adesc, bdesc, idesc, 0, 5, 32, scratch.data()) == 0);
  CHECK(f32(t4[37 * 512 + 40 + 3]) == 53.0f); // row 37: 16 * 3 + 5
  CHECK(t4[36 * 512 + 40 + 3] == 0u);         // row 36 is lane 4's
  CHECK(attncc_emu_mma_f16_rows(t4.data(), s.data(), 40, 0xFFFFFFFFu, adesc, bdesc, idesc, 0, 0, 0, scratch.data()) == 1);
}

TEST_CASE("tcgen05 emulator: one M = 64, N = 8 MMA in layout F, SS and TS forms", "[tcgen05][emulate]") {
  // A (64 x 16) has a 1 at A[m][m % 16], B (8 x 16) holds B[n][k] = 16 n +
  // k, both K-major with the 128-byte swizzle as in the M = 128 case, so
  // D[m][n] = 16 n + m % 16. Layout F (half the datapath): rows [16q, 16q +
  // 16) in lanes [32q + a, 32q + a + 16), a = the lane of D's address (0 or
  // 16). Worked by hand: row 5 in lane 5, row 20 in lane 36 (a = 0) or 52
  // (a = 16), row 63 in lane 111 (a = 0).
  const std::vector<unsigned char> s = m64Operands();
  const unsigned idesc = 0x04020490u; // M 64, N 8, bf16 -> f32, K/K
  const unsigned long long adesc = kM64Sw, bdesc = kM64Sw | (16384ull >> 4);
  std::vector<float> scratch(ATTNCC_EMU_MMA_SCRATCH);
  std::vector<unsigned> tmem(128 * 512, 0);
  REQUIRE(attncc_emu_mma_f16(tmem.data(), s.data(), 40, 0xFFFFFFFFu, adesc, bdesc, idesc, 0, scratch.data()) == 0);
  CHECK(f32(tmem[5 * 512 + 40 + 3]) == 53.0f);   // row 5: 16 * 3 + 5
  CHECK(f32(tmem[36 * 512 + 40 + 2]) == 36.0f);  // row 20: 16 * 2 + 4
  CHECK(f32(tmem[111 * 512 + 40 + 7]) == 127.0f); // row 63: 16 * 7 + 15
  // Lanes 16-31 of each quarter are not written (nor any column past N).
  for (unsigned q = 0; q < 4; ++q)
    for (unsigned l = 16; l < 32; ++l)
      for (unsigned n = 0; n < 8; ++n)
        CHECK(tmem[(32 * q + l) * 512 + 40 + n] == 0u);
  CHECK(tmem[5 * 512 + 48] == 0u);
  // At lane alignment 16 (the address's lane 16): row 20 in lane 52, and
  // lanes 0-15 stay untouched.
  std::vector<unsigned> hi(128 * 512, 0);
  REQUIRE(attncc_emu_mma_f16(hi.data(), s.data(), (16u << 16) | 40u, 0xFFFFFFFFu, adesc, bdesc, idesc, 0,
                             scratch.data()) == 0);
  CHECK(f32(hi[52 * 512 + 40 + 2]) == 36.0f);
  CHECK(f32(hi[21 * 512 + 40 + 3]) == 53.0f); // row 5 in lane 21
  CHECK(hi[36 * 512 + 40 + 2] == 0u);
  // TS form: A in tensor memory at column 200 in the same layout: A[m][k] = 2
  // where k == m % 16, so D = 2 (16 n + m % 16); row 20 reads lane 36.
  std::vector<unsigned> t2(128 * 512, 0);
  for (unsigned m = 0; m < 64; ++m) {
    unsigned k = m % 16, lane = (m % 16) + 32 * (m / 16);
    t2[lane * 512 + 200 + k / 2] |= static_cast<unsigned>(bf16(2.0f)) << ((k % 2) * 16);
  }
  REQUIRE(attncc_emu_mma_f16(t2.data(), s.data(), 0, 200, 0, bdesc, idesc, 0, scratch.data()) == 0);
  CHECK(f32(t2[36 * 512 + 2]) == 72.0f); // 2 * (16 * 2 + 4)
  CHECK(f32(t2[5 * 512 + 3]) == 106.0f);
  // Refused: D at lane 8 (the alignment is 0 or 16), A at another lane
  // alignment than D, M = 128's lane 16.
  CHECK(attncc_emu_mma_f16(t2.data(), s.data(), 8u << 16, 0xFFFFFFFFu, adesc, bdesc, idesc, 0, scratch.data()) == 1);
  CHECK(attncc_emu_mma_f16(t2.data(), s.data(), 0, (16u << 16) | 200u, 0, bdesc, idesc, 0, scratch.data()) == 1);
  CHECK(attncc_emu_mma_f16(t2.data(), s.data(), 16u << 16, 0xFFFFFFFFu, adesc, bdesc, 0x08040490u, 0,
                           scratch.data()) == 1);
}

TEST_CASE("tcgen05 emulator: the m64 rows as four warps read and write them (layout rowhalf)", "[tcgen05][emulate]") {
  // What attncc's rowhalf layout relies on: each warp w's tcgen05.ld.32x32b
  // at lane 32w gives threads 0-15 rows 16w .. 16w + 15 of an M = 64 product,
  // and threads 16-31 lanes that the product neither reads nor writes, so
  // whatever they store there (P over S, here NaNs) does not reach the next
  // product. A and B as in the M = 64 case above: D[m][n] = 16 n + m % 16.
  const std::vector<unsigned char> s = m64Operands();
  const unsigned idesc = 0x04020490u; // M 64, N 8, bf16 -> f32, K/K
  const unsigned long long adesc = kM64Sw, bdesc = kM64Sw | (16384ull >> 4);
  std::vector<float> scratch(ATTNCC_EMU_MMA_SCRATCH);
  std::vector<unsigned> tmem(128 * 512, 0x7FC00000u); // every lane starts as NaN
  REQUIRE(attncc_emu_mma_f16(tmem.data(), s.data(), 40, 0xFFFFFFFFu, adesc, bdesc, idesc, 0, scratch.data()) == 0);
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned t = 0; t < 32; ++t) {
      unsigned r[8];
      REQUIRE(attncc_emu_ld_32x32b(tmem.data(), w, t, (32u * w) << 16 | 40u, 8, r) == 0);
      for (unsigned n = 0; n < 8; ++n) {
        if (t < 16)
          CHECK(f32(r[n]) == static_cast<float>(16 * n + t)); // row 16w + t
        else
          CHECK(r[n] == 0x7FC00000u); // a lane the product does not write
      }
    }
  // P over S's columns (200..207, bf16 pairs) as each thread would store its
  // row: A[m][k] = 2 where k == m % 16 from threads 0-15, NaNs from 16-31.
  // The TS product reads lanes 0-15 of each quarter only: D = 2 (16 n + m % 16).
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned t = 0; t < 32; ++t) {
      unsigned r[8];
      for (unsigned j = 0; j < 8; ++j)
        r[j] = t < 16 ? (t / 2 == j ? static_cast<unsigned>(bf16(2.0f)) << ((t % 2) * 16) : 0u) : 0x7FC07FC0u;
      REQUIRE(attncc_emu_st_32x32b(tmem.data(), w, t, (32u * w) << 16 | 200u, 8, r) == 0);
    }
  REQUIRE(attncc_emu_mma_f16(tmem.data(), s.data(), 40, 200, 0, bdesc, idesc, 0, scratch.data()) == 0);
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned t = 0; t < 16; ++t) {
      unsigned r[8];
      REQUIRE(attncc_emu_ld_32x32b(tmem.data(), w, t, (32u * w) << 16 | 40u, 8, r) == 0);
      for (unsigned n = 0; n < 8; ++n)
        CHECK(f32(r[n]) == 2.0f * static_cast<float>(16 * n + t));
    }
}

TEST_CASE("tcgen05 emulator: its 16-bit floats are the references'", "[tcgen05][emulate]") {
  // Every f16 and bf16 bit pattern (a NaN only needs to stay a NaN).
  auto same = [](float ref, float emu) { return ref != ref ? emu != emu : std::memcmp(&ref, &emu, 4) == 0; };
  int f16Diff = 0, bf16Diff = 0;
  for (unsigned h = 0; h < 0x10000; ++h) {
    auto b = static_cast<uint16_t>(h);
    f16Diff += !same(attncc::halfBitsToFloat(b), attncc_emu_f16(b));
    bf16Diff += !same(attncc::bf16BitsToFloat(b), attncc_emu_bf16(b));
  }
  CHECK(f16Diff == 0);
  CHECK(bf16Diff == 0);
}

TEST_CASE("tcgen05: the encoder's descriptors decode to their fields", "[tcgen05][emulate]") {
  for (int m : {64, 128})
    for (int n : {8, 16, 64, 120, 128, 256})
      for (Tc05Major b : {Tc05Major::K, Tc05Major::MN}) {
        if (m == 128 && n % 16)
          continue;
        Tc05Instr d;
        d.m = m;
        d.n = n;
        d.bMajor = b;
        attncc_emu_idesc e = attncc_emu_decode_idesc(instr(d));
        CHECK(e.valid);
        CHECK(e.n == n);
        CHECK(e.m == m);
        CHECK(e.transB == (b == Tc05Major::MN));
      }
  Tc05Smem s{2048, 16384, 1024, 0, Tc05Swizzle::B128};
  attncc_emu_sdesc e = attncc_emu_decode_sdesc(smem(s));
  CHECK(e.valid);
  CHECK(e.start == 2048);
  CHECK(e.lbo == 16384);
  CHECK(e.sbo == 1024);
  CHECK(e.swizzle == 2);
}

TEST_CASE("tcgen05 emulator: the header compiles as device code", "[tcgen05][emulate][nvrtc]") {
  // The same text in a kernel (the byte at shared address a is
  // window[a]), through NVRTC, for the H200 that runs the emulation (sm_90a)
  // and for sm_100a: it compiles, without spills.
  std::string src = cudaHeader("tcgen05_emu.cuh") + R"(
extern "C" __global__ void emu_mma(unsigned *tmem, unsigned long long a, unsigned long long b, unsigned idesc,
                                   int *bad, float *scratch) {
  const unsigned char *window = (const unsigned char *)__cvta_shared_to_generic(0);
  if (threadIdx.x == 0)
    *bad = attncc_emu_mma_f16(tmem, window, 0, 0xFFFFFFFFu, a, b, idesc, 1, scratch);
}
)";
  for (std::string arch : {"sm_90a", "sm_100a"}) {
    INFO(arch);
    attncc::nvrtc::CompileOptions o;
    o.arch = arch;
    std::string err;
    auto k = attncc::nvrtc::compile(src, "emu_mma", o, err);
    INFO(err);
    REQUIRE(k);
    CHECK(!k->usage.spills());
  }
}

TEST_CASE("tcgen05: the inline-PTX helpers assemble for sm_100a", "[tcgen05][nvrtc]") {
  // Every helper of codegen/cuda/tcgen05.cuh in one kernel, the order a
  // tile of the planned path uses them (docs/design-tcgen05.md): NVRTC and
  // ptxas accept each instruction for sm_100a, and the PTX holds each.
  std::string src = cudaHeader("tcgen05.cuh") + R"(
extern "C" __global__ void tc05(unsigned long long da, unsigned long long db, unsigned idesc, unsigned *out) {
  __shared__ unsigned base;
  __shared__ __align__(8) unsigned long long done;
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0) {
    attncc_tcgen05_alloc(&base, 256);
    attncc_tcgen05_relinquish();
  }
  attncc_tcgen05_fence_before();
  __syncthreads();
  attncc_tcgen05_fence_after();
  const unsigned t = base;
  if (threadIdx.x == 0) {
    attncc_tcgen05_mma_ss(t, da, db, idesc, 0);
    attncc_tcgen05_mma_ts(t + 128, t, db, idesc, 1);
    attncc_tcgen05_commit(&done);
  }
  unsigned r[8];
  const unsigned lane0 = (32 * (warp % 4)) << 16;
  attncc_tcgen05_ld_32x32b<8>(r, t + lane0);
  attncc_tcgen05_wait_ld();
  attncc_tcgen05_st_32x32b<8>(t + lane0 + 8, r);
  attncc_tcgen05_wait_st();
  out[threadIdx.x] = r[0] + r[7];
  attncc_tcgen05_fence_before();
  __syncthreads();
  if (warp == 0)
    attncc_tcgen05_dealloc(t, 256);
}
)";
  attncc::nvrtc::CompileOptions o;
  o.arch = "sm_100a";
  o.wantPtx = true;
  std::string err;
  auto k = attncc::nvrtc::compile(src, "tc05", o, err);
  INFO(err);
  REQUIRE(k);
  CHECK(!k->usage.spills());
  for (const char *i : {"tcgen05.alloc.cta_group::1", "tcgen05.relinquish_alloc_permit", "tcgen05.mma.cta_group::1.kind::f16",
                        "tcgen05.commit.cta_group::1", "tcgen05.ld.sync.aligned.32x32b.x8", "tcgen05.st.sync.aligned.32x32b.x8",
                        "tcgen05.wait::ld", "tcgen05.wait::st", "tcgen05.fence::before_thread_sync",
                        "tcgen05.fence::after_thread_sync", "tcgen05.dealloc.cta_group::1"}) {
    INFO(i);
    CHECK(k->ptx.find(i) != std::string::npos);
  }
  // The same kernel is refused for sm_90a: the instructions are sm_100a's.
  o.arch = "sm_90a";
  std::string err90;
  CHECK_FALSE(attncc::nvrtc::compile(src, "tc05", o, err90));
}
