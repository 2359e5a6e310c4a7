//===- Tcgen05.cpp - the tcgen05 descriptors --------------------------------===//
#include "isa/Tcgen05.h"

namespace attncc::isa {

namespace {
/// Sets `why` (when asked for) and gives the empty result.
std::nullopt_t refuse(std::string *why, std::string text) {
  if (why)
    *why = std::move(text);
  return std::nullopt;
}
} // namespace

std::optional<uint32_t> encodeInstr(const Tc05Instr &d, std::string *why) {
  if (d.m != 64 && d.m != 128)
    return refuse(why, "M = " + std::to_string(d.m) + ": cta_group::1 has M = 64 or 128");
  // PTX ISA Table "Various combinations of .kind and shapes": dense
  // cta_group::1 .kind::f16 takes N = 8, 16, ... 256 with M = 64 and
  // N = 16, 32, ... 256 with M = 128.
  if (d.n < 8 || d.n > 256 || d.n % 8 != 0)
    return refuse(why, "N = " + std::to_string(d.n) + ": N is a multiple of 8 in [8, 256]");
  if (d.m == 128 && d.n % 16 != 0)
    return refuse(why, "N = " + std::to_string(d.n) + ": with M = 128, N is a multiple of 16 in [16, 256]");
  if (d.a != d.b)
    return refuse(why, "A and B of different types: .kind::f16 takes f16 x f16 or bf16 x bf16");
  if (d.acc == Tc05Acc::F16 && d.a == Tc05Elem::BF16)
    return refuse(why, "an f16 accumulator needs f16 operands (bf16 accumulates in f32)");
  uint32_t v = 0;
  // Bits 0-3: dense (sparsity selector and flag 0), no saturation.
  v |= static_cast<uint32_t>(d.acc) << 4;     // 4-5: dtype
  v |= static_cast<uint32_t>(d.a) << 7;       // 7-9: atype
  v |= static_cast<uint32_t>(d.b) << 10;      // 10-12: btype
  v |= uint32_t(d.negateA) << 13;             // 13: negate A
  v |= uint32_t(d.negateB) << 14;             // 14: negate B
  v |= static_cast<uint32_t>(d.aMajor) << 15; // 15: transpose A (MN-major)
  v |= static_cast<uint32_t>(d.bMajor) << 16; // 16: transpose B (MN-major)
  v |= uint32_t(d.n >> 3) << 17;              // 17-22: N >> 3
  v |= uint32_t(d.m >> 4) << 24;              // 24-28: M >> 4 (bit 23 reserved)
  // Bits 30-31: the B-reuse shift of .ws only: 0.
  return v;
}

std::optional<uint64_t> encodeSmemFixed(Tc05Smem d, std::string *why) {
  d.start = 0;
  return encodeSmem(d, why);
}

std::optional<uint64_t> encodeSmem(const Tc05Smem &d, std::string *why) {
  for (auto [name, x] : {std::pair{"start address", d.start}, std::pair{"leading byte offset", d.lbo},
                         std::pair{"stride byte offset", d.sbo}}) {
    if (x % 16 != 0)
      return refuse(why, std::string(name) + " " + std::to_string(x) + " is not 16-byte aligned");
    if (x >= (1u << 18))
      return refuse(why, std::string(name) + " " + std::to_string(x) + " does not fit in 18 bits");
  }
  if (d.baseOffset > 7)
    return refuse(why, "base offset " + std::to_string(d.baseOffset) + " does not fit in 3 bits");
  uint64_t v = 0;
  v |= descEncode(d.start);                                // 0-13
  v |= descEncode(d.lbo) << 16;                            // 16-29
  v |= descEncode(d.sbo) << 32;                            // 32-45
  v |= uint64_t(0b001) << 46;                              // 46-48: fixed 0b001
  v |= uint64_t(d.baseOffset) << 49;                       // 49-51
  // Bit 52 (absolute LBO, sm_103a) and 53-60 stay 0.
  v |= uint64_t(static_cast<uint32_t>(d.swizzle)) << 61;   // 61-63
  return v;
}

} // namespace attncc::isa
