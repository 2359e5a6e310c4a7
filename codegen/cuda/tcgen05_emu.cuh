// tcgen05 and tensor memory, emulated (issue 14: `--emulate` runs an sm_100a
// kernel on a GPU without them). Written from the PTX ISA text (ISA 9.0,
// section 9.7.16: the instruction and shared-memory descriptors, the
// canonical shared-memory layouts and their swizzles, tensor-memory
// addressing and the warp-quarter access rule); it shares no code with
// isa/Tcgen05.cpp, which builds the descriptors it decodes. Host-compilable
// (the unit tests include it), so every function is ATTNCC_EMU_HD.
//
// The device functions at the end (under __CUDACC__) are the ones
// codegen/cuda/tcgen05.cuh defines with inline PTX, so an emulated kernel's
// text is the real one's: `attncc compile --target sm_100a --emulate`
// prints this header instead and compiles for sm_90a. Tensor memory is a
// per-CTA scratch area of global memory (a slot of a pool the CTA takes at
// alloc and gives back when its last column is deallocated); an illegal
// instruction (the quarter rule, a bad descriptor, the allocator's rules)
// prints what it broke and traps.
//
// What is emulated so far: decoding both descriptors, the address of an
// operand element in shared memory (K-major: no swizzle, 32/64/128-byte
// swizzles; MN-major: the swizzled modes), tensor-memory addresses and the
// lane-quarter rule, the column allocator (alloc, dealloc, relinquish, the
// rules on nCols), tcgen05.ld/st .32x32b, and one tcgen05.mma .kind::f16
// cta_group::1 with M = 128 (SS form, and TS form with A in tensor memory),
// computed by the calling thread. Not yet: commit (an mbarrier arrive after
// the work), the tensor memory as a per-CTA scratch buffer of a kernel
// (the MMA can already be split over a warp's lanes by rows), M = 64 (its data-path layout), the 128-byte
// swizzle with 32-byte atomicity, a non-zero base offset, the MN-major
// interleaved layout; each is reported as invalid, not guessed.
#ifndef ATTNCC_TCGEN05_EMU_CUH
#define ATTNCC_TCGEN05_EMU_CUH

#ifdef __CUDACC__
#define ATTNCC_EMU_HD __host__ __device__ __forceinline__
#else
#define ATTNCC_EMU_HD inline
#endif

// --- The instruction descriptor (Table "Instruction descriptor format for
// .kind::tf32, .kind::f16, .kind::f8f6f4 and .kind::i8"), .kind::f16 values.
struct attncc_emu_idesc {
  int m, n;          // M = bits 24-28 << 4, N = bits 17-22 << 3
  int dtype;         // bits 4-5: 0 f16, 1 f32
  int atype, btype;  // bits 7-9, 10-12: 0 f16, 1 bf16
  int negA, negB;    // bits 13, 14
  int transA, transB; // bits 15, 16: 1 = MN-major
  int valid;         // a dense .kind::f16 cta_group::1 descriptor this emulator runs
};

ATTNCC_EMU_HD attncc_emu_idesc attncc_emu_decode_idesc(unsigned v) {
  attncc_emu_idesc d;
  d.dtype = (v >> 4) & 3u;
  d.atype = (v >> 7) & 7u;
  d.btype = (v >> 10) & 7u;
  d.negA = (v >> 13) & 1u;
  d.negB = (v >> 14) & 1u;
  d.transA = (v >> 15) & 1u;
  d.transB = (v >> 16) & 1u;
  d.n = ((v >> 17) & 0x3Fu) << 3;
  d.m = ((v >> 24) & 0x1Fu) << 4;
  const bool dense = (v & 0x7u) == 0;          // sparsity selector and flag
  const bool noSat = ((v >> 3) & 1u) == 0;     // saturate: integer kinds only
  const bool reservedZero = ((v >> 6) & 1u) == 0 && ((v >> 23) & 1u) == 0 && ((v >> 29) & 1u) == 0;
  const bool noShift = (v >> 30) == 0;          // B-reuse shift: .ws only
  const bool types = d.dtype <= 1 && d.atype <= 1 && d.btype == d.atype && !(d.dtype == 0 && d.atype == 1);
  // Table "Various combinations of .kind and shapes", .kind::f16, dense,
  // cta_group::1: M = 64 with N = 8, 16, ... 256; M = 128 with N = 16, 32,
  // ... 256.
  const bool shape = (d.m == 64 && d.n >= 8 && d.n <= 256 && d.n % 8 == 0) ||
                     (d.m == 128 && d.n >= 16 && d.n <= 256 && d.n % 16 == 0);
  d.valid = dense && noSat && reservedZero && noShift && types && shape;
  return d;
}

// --- The shared-memory descriptor (Table "Shared memory descriptor layout").
struct attncc_emu_sdesc {
  unsigned start, lbo, sbo; // bytes: bits 0-13, 16-29, 32-45, each << 4
  int baseOffset;           // bits 49-51
  int swizzle;              // bits 61-63: 0 none, 1 128B/32B atoms, 2 128B, 4 64B, 6 32B
  int valid;
};

ATTNCC_EMU_HD attncc_emu_sdesc attncc_emu_decode_sdesc(unsigned long long v) {
  attncc_emu_sdesc d;
  d.start = (unsigned)(v & 0x3FFFull) << 4;
  d.lbo = (unsigned)((v >> 16) & 0x3FFFull) << 4;
  d.sbo = (unsigned)((v >> 32) & 0x3FFFull) << 4;
  d.baseOffset = (int)((v >> 49) & 7ull);
  d.swizzle = (int)(v >> 61);
  const bool fixed001 = ((v >> 46) & 7ull) == 1;       // bits 46-48: 0b001
  const bool relative = ((v >> 52) & 1ull) == 0;       // absolute LBO is sm_103a only
  const bool zeros = ((v >> 53) & 0xFFull) == 0 && ((v >> 14) & 3ull) == 0 && ((v >> 30) & 3ull) == 0;
  const bool mode = d.swizzle == 0 || d.swizzle == 2 || d.swizzle == 4 || d.swizzle == 6; // 1: not emulated
  d.valid = fixed001 && relative && zeros && mode && d.baseOffset == 0;
  return d;
}

// The bytes of one row of a swizzle pattern (its repeat is 8 rows), 16 with
// no swizzle (a core matrix row).
ATTNCC_EMU_HD unsigned attncc_emu_swizzle_bytes(int swizzle) {
  return swizzle == 2 ? 128u : swizzle == 4 ? 64u : swizzle == 6 ? 32u : 16u;
}

// The swizzles permute 16-byte chunks: within each repeat of the pattern
// (1024, 512 or 256 bytes, which starts on a multiple of its size when the
// base offset is 0), chunk c of row r moves to chunk c XOR (r mod 8 / k),
// k = 128 / row bytes. As an address map: bits 4..(3+b) XOR bits 7..(6+b),
// b = 3, 2, 1 for 128, 64, 32 bytes.
ATTNCC_EMU_HD unsigned attncc_emu_swizzle(unsigned addr, int swizzle) {
  const unsigned bits = swizzle == 2 ? 3u : swizzle == 4 ? 2u : swizzle == 6 ? 1u : 0u;
  const unsigned mask = (1u << bits) - 1u;
  return addr ^ (((addr >> 7) & mask) << 4);
}

// The shared-memory address of element (i, k) of an operand: i is its row
// (M for A, N for B), k its column in the K dimension of this MMA, e the
// element's bytes. `mnMajor`: the operand is stored MN-major (the idesc's
// transpose bit). Returns 0xFFFFFFFF for a layout not emulated.
//   K-major, swizzle of R-byte rows: rows in groups of 8, SBO apart; row
//     i % 8 at (i % 8) * R; K contiguous (LBO unused: one MMA's K of 32 B
//     stays in a row).
//   K-major, no swizzle: 8x16-byte core matrices; SBO between groups of 8
//     rows, LBO between 16-byte column groups.
//   MN-major, swizzle of R-byte rows: MN contiguous in atoms of R bytes,
//     LBO apart; K rows in groups of 8, SBO apart; K row k % 8 at (k % 8) * R.
ATTNCC_EMU_HD unsigned attncc_emu_operand_addr(attncc_emu_sdesc d, int mnMajor, unsigned i, unsigned k,
                                               unsigned e) {
  const unsigned R = attncc_emu_swizzle_bytes(d.swizzle);
  unsigned a;
  if (!mnMajor && d.swizzle == 0)
    a = d.start + (i / 8) * d.sbo + (i % 8) * 16 + (k * e / 16) * d.lbo + (k * e) % 16;
  else if (!mnMajor)
    a = d.start + (i / 8) * d.sbo + (i % 8) * R + k * e;
  else if (d.swizzle != 0)
    a = d.start + (i * e / R) * d.lbo + (k / 8) * d.sbo + (k % 8) * R + (i * e) % R;
  else
    return 0xFFFFFFFFu;
  return d.swizzle == 0 ? a : attncc_emu_swizzle(a, d.swizzle);
}

// --- 16-bit floats, without the CUDA headers.
ATTNCC_EMU_HD float attncc_emu_bits_to_float(unsigned bits) {
  union {
    unsigned u;
    float f;
  } c;
  c.u = bits;
  return c.f;
}
ATTNCC_EMU_HD float attncc_emu_bf16(unsigned short h) { return attncc_emu_bits_to_float((unsigned)h << 16); }
ATTNCC_EMU_HD float attncc_emu_f16(unsigned short h) {
  const unsigned sign = (unsigned)(h >> 15) << 31, exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
  if (exp == 0x1F) // inf, nan
    return attncc_emu_bits_to_float(sign | 0x7F800000u | (man << 13));
  if (exp == 0) { // zero, subnormal: man * 2^-24
    float f = (float)man * (1.0f / 16777216.0f);
    return sign ? -f : f;
  }
  return attncc_emu_bits_to_float(sign | ((exp + 112u) << 23) | (man << 13));
}
ATTNCC_EMU_HD float attncc_emu_elem(const unsigned char *p, int type) {
  const unsigned short h = (unsigned short)(p[0] | (p[1] << 8)); // little-endian
  return type == 1 ? attncc_emu_bf16(h) : attncc_emu_f16(h);
}

// --- Tensor memory: 128 lanes x 512 columns of 32 bits per CTA, here a
// scratch array tmem[lane * 512 + column]. An address holds the lane in
// bits 31-16 and the column in bits 15-0.
#define ATTNCC_EMU_TMEM_LANES 128
#define ATTNCC_EMU_TMEM_COLS 512
ATTNCC_EMU_HD unsigned attncc_emu_tmem_lane(unsigned taddr) { return taddr >> 16; }
ATTNCC_EMU_HD unsigned attncc_emu_tmem_col(unsigned taddr) { return taddr & 0xFFFFu; }
// tcgen05.ld/st: warp w of a warpgroup reaches lanes 32 (w % 4) .. + 31 only;
// with .32x32b the address's lane is that first lane. Whether `warp` may
// issue a 32x32b access at `taddr`.
ATTNCC_EMU_HD int attncc_emu_quarter_ok(unsigned warp, unsigned taddr) {
  return attncc_emu_tmem_lane(taddr) == 32u * (warp % 4u);
}

// --- tcgen05.alloc / dealloc / relinquish_alloc_permit (cta_group::1), per
// CTA. Columns come in units of 32 for all 128 lanes; nCols is a power of
// two in [32, 512]; alloc writes the address (lane 0, its first column) to
// shared memory, and a CTA that relinquished its permit may not alloc
// again; every column must be deallocated before the kernel exits. The ISA
// also says the count "should not increase between any two allocations"
// within the CTA, which the emulator enforces. Real hardware blocks an
// alloc until columns are free; an emulated CTA has no one to wait for, so
// that is an error. Each run of nCols starts on a multiple of nCols here
// (the ISA does not say where an allocation lands; kernels use the address
// they are given).
struct attncc_emu_tmem_alloc {
  unsigned used;     // bit g: columns 32 g .. 32 g + 31 are allocated
  int permit;        // 0 after relinquish_alloc_permit
  unsigned lastCols; // the previous allocation's nCols (512 before any)
};
ATTNCC_EMU_HD void attncc_emu_tmem_init(attncc_emu_tmem_alloc *s) {
  s->used = 0;
  s->permit = 1;
  s->lastCols = ATTNCC_EMU_TMEM_COLS;
}
// Error codes of the allocator, 0 when the instruction is legal.
#define ATTNCC_EMU_TMEM_BAD_COLS 1   // nCols is not a power of two in [32, 512]
#define ATTNCC_EMU_TMEM_NO_PERMIT 2  // alloc after relinquish_alloc_permit
#define ATTNCC_EMU_TMEM_GREW 3       // more columns than the previous allocation
#define ATTNCC_EMU_TMEM_FULL 4       // no free run of nCols columns
#define ATTNCC_EMU_TMEM_BAD_ADDR 5   // dealloc of an address that is not lane 0 of a 32-column unit
#define ATTNCC_EMU_TMEM_NOT_OWNED 6  // dealloc of columns that are not all allocated
ATTNCC_EMU_HD int attncc_emu_tmem_cols_ok(unsigned n) {
  return n >= 32u && n <= (unsigned)ATTNCC_EMU_TMEM_COLS && (n & (n - 1u)) == 0;
}
ATTNCC_EMU_HD unsigned attncc_emu_tmem_units(unsigned col, unsigned n) {
  return (n >= (unsigned)ATTNCC_EMU_TMEM_COLS ? 0xFFFFu : ((1u << (n / 32u)) - 1u)) << (col / 32u);
}
ATTNCC_EMU_HD int attncc_emu_tmem_alloc_cols(attncc_emu_tmem_alloc *s, unsigned n, unsigned *taddr) {
  if (!attncc_emu_tmem_cols_ok(n))
    return ATTNCC_EMU_TMEM_BAD_COLS;
  if (!s->permit)
    return ATTNCC_EMU_TMEM_NO_PERMIT;
  if (n > s->lastCols)
    return ATTNCC_EMU_TMEM_GREW;
  for (unsigned col = 0; col + n <= (unsigned)ATTNCC_EMU_TMEM_COLS; col += n) {
    const unsigned units = attncc_emu_tmem_units(col, n);
    if ((s->used & units) == 0) {
      s->used |= units;
      s->lastCols = n;
      *taddr = col; // lane 0 in bits 31-16
      return 0;
    }
  }
  return ATTNCC_EMU_TMEM_FULL;
}
ATTNCC_EMU_HD int attncc_emu_tmem_dealloc(attncc_emu_tmem_alloc *s, unsigned taddr, unsigned n) {
  if (!attncc_emu_tmem_cols_ok(n))
    return ATTNCC_EMU_TMEM_BAD_COLS;
  const unsigned col = attncc_emu_tmem_col(taddr);
  if (attncc_emu_tmem_lane(taddr) != 0 || col % 32u || col + n > (unsigned)ATTNCC_EMU_TMEM_COLS)
    return ATTNCC_EMU_TMEM_BAD_ADDR;
  const unsigned units = attncc_emu_tmem_units(col, n);
  if ((s->used & units) != units)
    return ATTNCC_EMU_TMEM_NOT_OWNED;
  s->used &= ~units;
  return 0;
}
ATTNCC_EMU_HD void attncc_emu_tmem_relinquish(attncc_emu_tmem_alloc *s) { s->permit = 0; }
// Whether every allocated column was deallocated (the kernel may exit).
ATTNCC_EMU_HD int attncc_emu_tmem_all_freed(const attncc_emu_tmem_alloc *s) { return s->used == 0; }

// --- tcgen05.ld / st .32x32b.x<n>.b32 (no pack/unpack): thread t of warp
// `warp` reads (writes) lane lane(taddr) + t, register j at column
// col(taddr) + j, j < n; n is a power of two up to 128. Returns 0, or 1
// when the warp may not reach those lanes (the quarter rule), n is not a
// shape the ISA has, or the columns leave tensor memory. Per thread: the
// emulated kernel calls it from each lane of the warp.
ATTNCC_EMU_HD int attncc_emu_ldst_ok(unsigned warp, unsigned taddr, unsigned n) {
  return attncc_emu_quarter_ok(warp, taddr) && n >= 1u && n <= 128u && (n & (n - 1u)) == 0 &&
         attncc_emu_tmem_col(taddr) + n <= (unsigned)ATTNCC_EMU_TMEM_COLS;
}
ATTNCC_EMU_HD int attncc_emu_ld_32x32b(const unsigned *tmem, unsigned warp, unsigned t, unsigned taddr, unsigned n,
                                      unsigned *r) {
  if (!attncc_emu_ldst_ok(warp, taddr, n) || t >= 32u)
    return 1;
  const unsigned *row = tmem + (attncc_emu_tmem_lane(taddr) + t) * ATTNCC_EMU_TMEM_COLS + attncc_emu_tmem_col(taddr);
  for (unsigned j = 0; j < n; ++j)
    r[j] = row[j];
  return 0;
}
ATTNCC_EMU_HD int attncc_emu_st_32x32b(unsigned *tmem, unsigned warp, unsigned t, unsigned taddr, unsigned n,
                                      const unsigned *r) {
  if (!attncc_emu_ldst_ok(warp, taddr, n) || t >= 32u)
    return 1;
  unsigned *row = tmem + (attncc_emu_tmem_lane(taddr) + t) * ATTNCC_EMU_TMEM_COLS + attncc_emu_tmem_col(taddr);
  for (unsigned j = 0; j < n; ++j)
    row[j] = r[j];
  return 0;
}

// The lane of row m of an M-row tcgen05.mma (cta_group::1, not .ws) whose
// tensor-memory operand starts at lane `base` ("Data Path Layout
// Organization"): layout D for M = 128, row m in lane m (base 0); layout F
// for M = 64, half the datapath: rows [16q, 16q + 16) in lanes
// [32q + base, 32q + base + 16), base 0 or 16 (the "lane alignment").
ATTNCC_EMU_HD unsigned attncc_emu_row_lane(int M, unsigned base, unsigned m) {
  return M == 64 ? base + (m % 16u) + 32u * (m / 16u) : m;
}
ATTNCC_EMU_HD int attncc_emu_lane_base_ok(int M, unsigned base) {
  return M == 64 ? (base == 0u || base == 16u) : base == 0u;
}

// One tcgen05.mma.cta_group::1.kind::f16, M = 128 or 64, computed by the
// calling thread: D[m][n] = (accumulate ? D[m][n] : 0) + sum_k A[m][k] B[n][k]
// for k < 16, in float. D sits in tensor memory as the ISA's layout for M:
// row m in lane attncc_emu_row_lane(M, lane(d), m), column n in column
// col(d) + n (an f32 per column; an f16 accumulator is not emulated). A
// comes from shared memory through `adesc` (SS form) or, when `aTmem` is
// not 0xFFFFFFFF, from tensor memory (TS form: row m in the same lane as
// D's row m, which needs A and D at the same lane alignment; two 16-bit
// elements per column, element k in column col + k / 2, the low half for
// even k). B always comes through
// `bdesc`. `smem` is the CTA's shared memory: the byte at shared address a
// is smem[a]. Returns 0, or 1 when a descriptor or the shape is not one it
// emulates, or the rows leave tensor memory.
// The operands are read first, each element once, into `scratch`
// (ATTNCC_EMU_MMA_SCRATCH floats: A[m][k] at m * 16 + k, B[n][k] at
// 2048 + n * 16 + k), then the products are summed from there: the same
// float operations in the same order as reading them at each use, with
// 128 x 16 + N x 16 reads of shared memory in place of 2 x 128 x N x 16
// (a sanitizer such as racecheck checks each read; on the H200 it did not
// finish a kernel's run with the per-use reads).
// The rows m = first, first + step, ... of the product only: the lanes of
// the issuing warp share one MMA this way (lane t computes rows t, t + 32,
// ...), each row by one thread, so the result is the same bit for bit
// (each lane with its own scratch).
#define ATTNCC_EMU_MMA_SCRATCH (128 * 16 + 256 * 16)
ATTNCC_EMU_HD int attncc_emu_mma_f16_rows(unsigned *tmem, const unsigned char *smem, unsigned dTmem, unsigned aTmem,
                                          unsigned long long adesc, unsigned long long bdesc, unsigned idesc,
                                          int accumulate, int first, int step, float *scratch) {
  const attncc_emu_idesc id = attncc_emu_decode_idesc(idesc);
  const attncc_emu_sdesc a = attncc_emu_decode_sdesc(adesc), b = attncc_emu_decode_sdesc(bdesc);
  const bool aFromTmem = aTmem != 0xFFFFFFFFu;
  if (!id.valid || id.dtype != 1 || !b.valid || (!aFromTmem && !a.valid) || (aFromTmem && id.transA))
    return 1;
  const unsigned dLane = attncc_emu_tmem_lane(dTmem), dCol = attncc_emu_tmem_col(dTmem);
  if (!attncc_emu_lane_base_ok(id.m, dLane) || dCol + (unsigned)id.n > ATTNCC_EMU_TMEM_COLS)
    return 1;
  if (aFromTmem && (attncc_emu_tmem_lane(aTmem) != dLane || attncc_emu_tmem_col(aTmem) + 8 > ATTNCC_EMU_TMEM_COLS))
    return 1;
  if (first < 0 || step < 1 || id.m > 128 || id.n > 256)
    return 1;
  float *ga = scratch, *gb = scratch + 128 * 16;
  for (int m = first; m < id.m; m += step)
    for (int k = 0; k < 16; ++k) {
      if (aFromTmem) {
        const unsigned w =
            tmem[attncc_emu_row_lane(id.m, dLane, (unsigned)m) * ATTNCC_EMU_TMEM_COLS + attncc_emu_tmem_col(aTmem) + k / 2];
        const unsigned short h = (unsigned short)((k % 2) ? (w >> 16) : (w & 0xFFFFu));
        ga[m * 16 + k] = id.atype == 1 ? attncc_emu_bf16(h) : attncc_emu_f16(h);
      } else {
        const unsigned at = attncc_emu_operand_addr(a, id.transA, (unsigned)m, (unsigned)k, 2);
        if (at == 0xFFFFFFFFu)
          return 1;
        ga[m * 16 + k] = attncc_emu_elem(smem + at, id.atype);
      }
    }
  for (int n = 0; n < id.n; ++n)
    for (int k = 0; k < 16; ++k) {
      const unsigned bt = attncc_emu_operand_addr(b, id.transB, (unsigned)n, (unsigned)k, 2);
      if (bt == 0xFFFFFFFFu)
        return 1;
      gb[n * 16 + k] = attncc_emu_elem(smem + bt, id.btype);
    }
  for (int m = first; m < id.m; m += step)
    for (int n = 0; n < id.n; ++n) {
      float acc = 0.0f;
      for (int k = 0; k < 16; ++k) {
        const float x = ga[m * 16 + k], y = gb[n * 16 + k];
        acc += (id.negA ? -x : x) * (id.negB ? -y : y);
      }
      unsigned *d = &tmem[attncc_emu_row_lane(id.m, dLane, (unsigned)m) * ATTNCC_EMU_TMEM_COLS + dCol + n];
      union {
        unsigned u;
        float f;
      } c;
      c.u = *d;
      c.f = (accumulate ? c.f : 0.0f) + acc;
      *d = c.u;
    }
  return 0;
}
ATTNCC_EMU_HD int attncc_emu_mma_f16(unsigned *tmem, const unsigned char *smem, unsigned dTmem, unsigned aTmem,
                                     unsigned long long adesc, unsigned long long bdesc, unsigned idesc,
                                     int accumulate, float *scratch) {
  return attncc_emu_mma_f16_rows(tmem, smem, dTmem, aTmem, adesc, bdesc, idesc, accumulate, 0, 1, scratch);
}


#ifdef __CUDACC__
// --- The device functions of codegen/cuda/tcgen05.cuh, emulated. Needs
// tma.cuh (the mbarriers) before it.
#define ATTNCC_EMU_SLOTS 512 // CTAs that can hold tensor memory at once (256 KiB each)
__device__ unsigned attncc_emu_pool[ATTNCC_EMU_SLOTS * ATTNCC_EMU_TMEM_LANES * ATTNCC_EMU_TMEM_COLS];
__device__ int attncc_emu_busy[ATTNCC_EMU_SLOTS];
// Each slot's operands of the MMA being computed (attncc_emu_mma_f16_rows).
__device__ float attncc_emu_scratch[ATTNCC_EMU_SLOTS * ATTNCC_EMU_MMA_SCRATCH];
struct attncc_emu_cta {
  unsigned slot;
  attncc_emu_tmem_alloc cols;
};
// The CTA's emulator state (one per CTA: a static shared variable).
__device__ __forceinline__ attncc_emu_cta &attncc_emu_state() {
  __shared__ attncc_emu_cta s;
  return s;
}
__device__ __forceinline__ unsigned *attncc_emu_tmem() {
  return attncc_emu_pool + (size_t)attncc_emu_state().slot * (ATTNCC_EMU_TMEM_LANES * ATTNCC_EMU_TMEM_COLS);
}
__device__ __forceinline__ float *attncc_emu_mma_scratch() {
  return attncc_emu_scratch + (size_t)attncc_emu_state().slot * ATTNCC_EMU_MMA_SCRATCH;
}
__device__ __noinline__ void attncc_emu_fail(const char *what, int code) {
  printf("attncc tcgen05 emulator: block (%d,%d,%d) thread %d: %s (%d)\n", (int)blockIdx.x, (int)blockIdx.y,
         (int)blockIdx.z, (int)threadIdx.x, what, code);
  __trap();
}
// tcgen05.alloc (the whole warp; lane 0 acts): takes a pool slot for the
// CTA (one alloc per CTA), then the columns, and writes their address.
__device__ __forceinline__ void attncc_tcgen05_alloc(void *dst, unsigned nCols) {
  attncc_emu_cta &s = attncc_emu_state();
  if ((threadIdx.x & 31) == 0) {
    const unsigned start = (blockIdx.x + 131u * blockIdx.y + 977u * blockIdx.z) % ATTNCC_EMU_SLOTS;
    for (unsigned i = 0;; i = (i + 1) % ATTNCC_EMU_SLOTS)
      if (atomicCAS(&attncc_emu_busy[(start + i) % ATTNCC_EMU_SLOTS], 0, 1) == 0) {
        s.slot = (start + i) % ATTNCC_EMU_SLOTS;
        break;
      }
    __threadfence();
    attncc_emu_tmem_init(&s.cols);
    unsigned taddr = 0;
    if (int e = attncc_emu_tmem_alloc_cols(&s.cols, nCols, &taddr))
      attncc_emu_fail("tcgen05.alloc", e);
    *(unsigned *)dst = taddr;
  }
  __syncwarp();
}
__device__ __forceinline__ void attncc_tcgen05_relinquish() {
  if ((threadIdx.x & 31) == 0)
    attncc_emu_tmem_relinquish(&attncc_emu_state().cols);
  __syncwarp();
}
__device__ __forceinline__ void attncc_tcgen05_dealloc(unsigned taddr, unsigned nCols) {
  attncc_emu_cta &s = attncc_emu_state();
  if ((threadIdx.x & 31) == 0) {
    if (int e = attncc_emu_tmem_dealloc(&s.cols, taddr, nCols))
      attncc_emu_fail("tcgen05.dealloc", e);
    if (attncc_emu_tmem_all_freed(&s.cols)) { // the slot goes back to the pool
      __threadfence();
      atomicExch(&attncc_emu_busy[s.slot], 0);
    }
  }
  __syncwarp();
}
// The MMA, computed by the issuing thread when it is issued (so commit has
// nothing left to wait for); shared address a is byte window[a].
__device__ __forceinline__ void attncc_tcgen05_mma_ss(unsigned d, unsigned long long da, unsigned long long db,
                                                      unsigned idesc, unsigned accumulate) {
  const unsigned char *window = (const unsigned char *)__cvta_shared_to_generic(0);
  if (int e = attncc_emu_mma_f16(attncc_emu_tmem(), window, d, 0xFFFFFFFFu, da, db, idesc, accumulate != 0,
                                 attncc_emu_mma_scratch()))
    attncc_emu_fail("tcgen05.mma (SS): a descriptor or shape the emulator does not run", e);
}
__device__ __forceinline__ void attncc_tcgen05_mma_ts(unsigned d, unsigned a, unsigned long long db, unsigned idesc,
                                                      unsigned accumulate) {
  const unsigned char *window = (const unsigned char *)__cvta_shared_to_generic(0);
  if (int e = attncc_emu_mma_f16(attncc_emu_tmem(), window, d, a, 0, db, idesc, accumulate != 0, attncc_emu_mma_scratch()))
    attncc_emu_fail("tcgen05.mma (TS): a descriptor or shape the emulator does not run", e);
}
// commit: the products issued so far are done; arrive on the mbarrier
// (release: the tensor-memory writes are seen by the threads that wait).
__device__ __forceinline__ void attncc_tcgen05_commit(void *mbar) {
  __threadfence_block();
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"((unsigned)__cvta_generic_to_shared(mbar))
               : "memory");
}
__device__ __forceinline__ void attncc_tcgen05_fence_before() { __threadfence_block(); }
__device__ __forceinline__ void attncc_tcgen05_fence_after() { __threadfence_block(); }
template <int N, typename T> __device__ __forceinline__ void attncc_tcgen05_ld_32x32b(T *r, unsigned taddr) {
  unsigned v[N];
  if (attncc_emu_ld_32x32b(attncc_emu_tmem(), threadIdx.x / 32, threadIdx.x & 31, taddr, N, v))
    attncc_emu_fail("tcgen05.ld.32x32b: the warp's lane quarter, the shape or the columns", (int)taddr);
#pragma unroll
  for (int j = 0; j < N; ++j)
    r[j] = (T)v[j];
}
template <int N, typename T> __device__ __forceinline__ void attncc_tcgen05_st_32x32b(unsigned taddr, const T *r) {
  unsigned v[N];
#pragma unroll
  for (int j = 0; j < N; ++j)
    v[j] = (unsigned)r[j];
  if (attncc_emu_st_32x32b(attncc_emu_tmem(), threadIdx.x / 32, threadIdx.x & 31, taddr, N, v))
    attncc_emu_fail("tcgen05.st.32x32b: the warp's lane quarter, the shape or the columns", (int)taddr);
}
__device__ __forceinline__ void attncc_tcgen05_wait_ld() {}
__device__ __forceinline__ void attncc_tcgen05_wait_st() { __threadfence_block(); }
#endif

#endif
