//===- Tcgen05.h - the tcgen05 descriptors, built in one place --*- C++ -*-===//
//
// The two descriptors a tcgen05.mma takes besides its tensor-memory
// addresses, encoded from the PTX ISA's tables (ISA 9.0, section 9.7.16.4;
// anchors #tcgen05-instruction-descriptor and
// #tcgen05-shared-memory-descriptor). Only what attncc's atoms use is
// encoded: .kind::f16, dense, cta_group::1, an f32 (or f16) accumulator.
// Everything that builds a descriptor calls these; the emulator
// (codegen/cuda/tcgen05_emu.cuh) decodes them with code of its own.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_ISA_TCGEN05_H
#define ATTNCC_ISA_TCGEN05_H

#include <cstdint>
#include <optional>
#include <string>

namespace attncc::isa {

/// The operand types of .kind::f16 (atype, btype: F16 = 0, BF16 = 1).
enum class Tc05Elem : uint32_t { F16 = 0, BF16 = 1 };
/// The accumulator type (dtype: F16 = 0, F32 = 1).
enum class Tc05Acc : uint32_t { F16 = 0, F32 = 1 };
/// How an operand is stored: K-major (no transpose) or MN-major (transposed).
enum class Tc05Major : uint32_t { K = 0, MN = 1 };

/// The instruction descriptor's fields (Table "Instruction descriptor
/// format for .kind::tf32, .kind::f16, .kind::f8f6f4 and .kind::i8").
struct Tc05Instr {
  int m = 128;   // 64 or 128 (cta_group::1)
  int n = 128;   // 8..256 in steps of 8
  Tc05Elem a = Tc05Elem::BF16, b = Tc05Elem::BF16;
  Tc05Acc acc = Tc05Acc::F32;
  Tc05Major aMajor = Tc05Major::K, bMajor = Tc05Major::K;
  bool negateA = false, negateB = false;
};

/// The 32-bit instruction descriptor, or nullopt with `why` set when the
/// fields are not a dense .kind::f16 cta_group::1 shape: M not 64 or 128, N
/// not a multiple of 8 in [8, 256], A and B of different types, or an f16
/// accumulator with bf16 operands.
std::optional<uint32_t> encodeInstr(const Tc05Instr &d, std::string *why = nullptr);

/// The swizzling modes of the shared-memory descriptor (bits 61-63).
enum class Tc05Swizzle : uint32_t { None = 0, B128Atom32 = 1, B128 = 2, B64 = 4, B32 = 6 };

/// The shared-memory descriptor's fields (Table "Shared memory descriptor
/// layout"). Addresses and offsets in bytes; each must be 16-byte aligned
/// and below 256 KiB (the encoding keeps bits 4-17).
struct Tc05Smem {
  uint32_t start = 0; // the matrix's shared-memory address
  uint32_t lbo = 0;   // leading dimension byte offset (relative mode)
  uint32_t sbo = 0;   // stride dimension byte offset
  uint32_t baseOffset = 0; // 0 when the swizzle pattern starts on its boundary
  Tc05Swizzle swizzle = Tc05Swizzle::B128;
};

/// The 64-bit shared-memory descriptor, or nullopt with `why` set when an
/// address or offset is not 16-byte aligned or does not fit, or the base
/// offset does not fit in 3 bits. Bits 46-48 hold the fixed 0b001 and bit 52
/// (absolute leading-dimension address, sm_103a only) is 0.
std::optional<uint64_t> encodeSmem(const Tc05Smem &d, std::string *why = nullptr);

/// The descriptor of `d` with its start address left 0: a kernel adds the
/// encoded address of each operand ((addr & 0x3FFFF) >> 4) at run time.
std::optional<uint64_t> encodeSmemFixed(Tc05Smem d, std::string *why = nullptr);

/// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4.
constexpr uint64_t descEncode(uint32_t x) { return (x & 0x3FFFFu) >> 4; }

} // namespace attncc::isa

#endif
