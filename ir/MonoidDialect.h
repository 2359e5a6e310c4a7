//===- MonoidDialect.h - the monoid dialect ---------------------*- C++ -*-===//
#ifndef ATTNCC_IR_MONOIDDIALECT_H
#define ATTNCC_IR_MONOIDDIALECT_H

#include "schedule/Schedule.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/Hashing.h"

#include <optional>

namespace mlir::monoid {
/// `loc` named `name`: printed as the SSA name prefix (%name) by attncc's
/// printers, so that the IR listings read like the math.
inline Location named(Location loc, StringRef name) {
  return NameLoc::get(StringAttr::get(loc.getContext(), name), loc);
}

/// `loc` without its name, for the ops a pass creates from a named op (they
/// must not all inherit its name).
inline Location unnamed(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc))
    return n.getChildLoc();
  return loc;
}

/// Function-argument attributes the front end sets and the launch contract
/// reads: each tensor's role (q, k, v, bias, o, lse; x, out) and the problem
/// field of each dimension (["batch", "heads_q", "seq_q", "head_dim"] for q).
inline constexpr const char *kRoleAttr = "attncc.role";
inline constexpr const char *kDimsAttr = "attncc.dims";

/// How one carrier channel combines. Identity: -inf for Max, 0 for Add.
enum class CombineKind : uint32_t { Max = 0, Add = 1 };

/// The parameters of #monoid.staged: how a block is copied into shared
/// memory, and how its rows are laid out there.
enum class Transport : uint32_t { Sync, Cp, Tma };
enum class Arrangement : uint32_t { Plain, Pad, Swz };
inline StringRef transportName(Transport t) {
  return t == Transport::Sync ? "sync" : t == Transport::Cp ? "cp" : "tma";
}
inline StringRef arrangementName(Arrangement a) {
  return a == Arrangement::Plain ? "" : a == Arrangement::Pad ? "pad" : "swz";
}

/// The fragment layouts of #monoid.fragment (MonoidAttrs.td says what each
/// one is).
enum class Fragment : uint32_t { C, Row, Col, A, BNK, BKN, Smem, RowThread, RtRow, RtCol, RowHalf, RhRow, Quad };
inline StringRef fragmentName(Fragment f) {
  switch (f) {
  case Fragment::C: return "c";
  case Fragment::Row: return "row";
  case Fragment::Col: return "col";
  case Fragment::A: return "a";
  case Fragment::BNK: return "b.nk";
  case Fragment::BKN: return "b.kn";
  case Fragment::Smem: return "smem";
  case Fragment::RowThread: return "rowthread";
  case Fragment::RtRow: return "rowthread.row";
  case Fragment::RtCol: return "rowthread.col";
  case Fragment::RowHalf: return "rowhalf";
  case Fragment::RhRow: return "rowhalf.row";
  case Fragment::Quad: return "quad";
  }
  return "?";
}
/// A layout in which each thread holds one row of a tile whole (tcgen05's,
/// read from tensor memory by tcgen05.ld.32x32b): rowthread (m128) or
/// rowhalf (m64).
inline bool isRowPerThread(StringRef l) { return l == "rowthread" || l == "rowhalf"; }
/// The row vector beside such a tile.
inline bool isRowPerThreadRow(StringRef l) { return l == "rowthread.row" || l == "rowhalf.row"; }
/// The m64 atom's tile or row vector: lanes 16-31 of each warp hold no row.
inline bool isRowHalf(StringRef l) { return l == "rowhalf" || l == "rowhalf.row"; }
/// The layout named `name`, or nullopt.
inline std::optional<Fragment> fragmentNamed(StringRef name) {
  for (Fragment f : {Fragment::C, Fragment::Row, Fragment::Col, Fragment::A, Fragment::BNK, Fragment::BKN,
                     Fragment::Smem, Fragment::RowThread, Fragment::RtRow, Fragment::RtCol, Fragment::RowHalf,
                     Fragment::RhRow, Fragment::Quad})
    if (fragmentName(f) == name)
      return f;
  return std::nullopt;
}
} // namespace mlir::monoid

namespace attncc {
/// Lets #monoid.schedule unique its typed value.
inline llvm::hash_code hash_value(const Schedule &s) {
  return llvm::hash_value(hashSchedule(s));
}
} // namespace attncc

#include "ir/MonoidDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/MonoidAttrs.h.inc"

#endif // ATTNCC_IR_MONOIDDIALECT_H
