//===- EmitTma.cpp - TMA, mbarriers, the producer warp ----------------------===//
#include "codegen/KernelEmitter.h"

namespace attncc::codegen {

/// A TMA load of a rank-R box (coordinates innermost first) that completes
/// on an mbarrier.
std::string tmaLoadName(int64_t rank) { return "attncc_tma_load_" + std::to_string(rank) + "d"; }
std::string tmaLoadFunction(int64_t rank) {
  std::string s = "__device__ __forceinline__ void " + tmaLoadName(rank) + "(void *dst, const attncc_tmap *map";
  for (int64_t i = 0; i < rank; ++i)
    s += ", int c" + std::to_string(i);
  s += ", unsigned long long *bar) {\n";
  s += "  asm volatile(\"cp.async.bulk.tensor." + std::to_string(rank) +
       "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {";
  for (int64_t i = 0; i < rank; ++i)
    s += (i ? ", %" : "%") + std::to_string(i + 2);
  s += "}], [%" + std::to_string(rank + 2) + "];\\n\"\n";
  s += "               :: \"r\"(attncc_smem_addr(dst)), \"l\"(reinterpret_cast<unsigned long long>(map))";
  for (int64_t i = 0; i < rank; ++i)
    s += ", \"r\"(c" + std::to_string(i) + ")";
  s += ", \"r\"(attncc_smem_addr(bar)) : \"memory\");\n}\n";
  return s;
}

/// A TMA-staged block: thread 0 waits until the buffer is free (every
/// warp arrived on its "empty" barrier after its last read), announces the
/// block's bytes on "full" and issues one TMA box per 128-byte slab; rows
/// past the end of the tensor arrive as zeros. Readers wait on "full" at
/// first use (waitTma). Ring buffers are used in turn: fill w goes to
/// buffer w % S, and is the (w / S)-th use of it, which fixes the phase.
LogicalResult KernelEmitter::emitTmaStage(vector::TransferReadOp op) {
  auto vt = op.getVectorType();
  if (!op.getPermutationMap().isMinorIdentity() || vt.getRank() != 2)
    return op.emitOpError("a TMA-staged read needs a 2-d block of the buffer's last two dimensions");
  auto arg = dyn_cast<BlockArgument>(op.getBase());
  if (!arg)
    return op.emitOpError("a TMA-staged read needs a kernel argument as its buffer");
  std::string buf = smemOf[op.getResult()];
  const TmaBuf &t = tmaBufs[buf];
  int64_t rows = vt.getDimSize(0), cols = vt.getDimSize(1);
  int64_t slab = monoid::slabElems(vt.getElementType()), rank = op.getIndices().size();
  std::string S = std::to_string(t.slots), slot = slotOf(buf, "_w");
  std::string p = define(op.getResult());
  std::string map = tmaParam[{arg.getArgNumber(), rows}];
  helpers[tmaLoadName(rank)] = tmaLoadFunction(rank);
  os << "// " << p << ": " << rows << "x" << cols << " block -> shared memory (TMA, 128-byte swizzle; "
     << t.full << " says when it landed)\n";
  os << scalarType(vt) << " *" << p << " = " << buf << " + " << slot << " * " << t.slotElems << ";\n";
  if (producers && !inProducer) { // the producer warp copies it
    os << "++" << buf << "_w;\n";
    return success();
  }
  if (!inProducer) {
    os << "if (threadIdx.x == 0) {\n";
    os.indent();
  }
  os << "attncc_mbar_wait(&" << t.empty << "[" << slot << "], ((" << buf << "_w / " << S
     << ") & 1) ^ 1); // every warp is done with this buffer\n";
  os << "attncc_mbar_expect_tx(&" << t.full << "[" << slot << "], "
     << rows * cols * vt.getElementTypeBitWidth() / 8 << ");\n";
  SmallVector<std::string> idx;
  for (Value i : op.getIndices())
    idx.push_back("(int)" + ref(i));
  for (int64_t s = 0; s < cols / slab; ++s) {
    os << tmaLoadName(rank) << "(" << p << " + " << s * rows * slab << ", &" << map << ", "
       << idx[rank - 1] << (s ? " + " + std::to_string(s * slab) : std::string());
    for (int64_t k = rank - 2; k >= 0; --k)
      os << ", " << idx[k];
    os << ", &" << t.full << "[" << slot << "]);\n";
  }
  if (!inProducer) {
    os.unindent();
    os << "}\n";
  }
  os << "++" << buf << "_w;\n";
  return success();
}

/// monoid.tma_wait (attncc-place-waits): wait for the block's "full" phase.
/// Blocks of one buffer are read in the order they were filled.
void KernelEmitter::waitTma(Value v) {
  std::string buf = smemOf[monoid::stagedRead(v).getResult()];
  const TmaBuf &t = tmaBufs[buf];
  std::string S = std::to_string(t.slots), slot = slotOf(buf, "_r");
  os << "attncc_mbar_wait(&" << t.full << "[" << slot << "], (" << buf << "_r / " << S << ") & 1); // "
     << ref(v) << " landed\n";
  os << "++" << buf << "_r;\n";
}

/// monoid.tma_release (attncc-place-waits): each warp arrives on the
/// "empty" barrier of the block's buffer, so the next fill may overwrite it.
/// `carried` are the blocks of the same buffer the iteration passes on: a
/// block that is also one of them (the overlap's first P*V reuses block 0)
/// is not released yet.
LogicalResult KernelEmitter::releaseTma(Value v, ValueRange carried) {
  std::string buf = smemOf[monoid::stagedRead(v).getResult()];
  const TmaBuf &t = tmaBufs[buf];
  std::string guard;
  for (Value c : carried)
    guard += (guard.empty() ? "" : " && ") + ref(v) + " != " + ref(c);
  if (!guard.empty())
    os << "if (" << guard << ") ";
  os << "{\n";
  os.indent();
  os << "__syncwarp();\n";
  os << "if (lane == 0) attncc_mbar_arrive(&" << t.empty << "["
     << (t.slots == 1 ? std::string("0")
                      : "(unsigned)(" + ref(v) + " - " + buf + ") / " + std::to_string(t.slotElems))
     << "]); // this warp is done with " << ref(v) << "\n";
  os.unindent();
  os << "}\n";
  return success();
}

/// The scf.if of attncc-warp-specialize (attncc.roles): the producers'
/// region ends the kernel for them (an early return), the consumers' region
/// follows at the kernel's level. Names taken in the producers' region are
/// taken again by the consumers'.
LogicalResult KernelEmitter::emitRoles(scf::IfOp op) {
  os << "if (" << ref(op.getCondition()) << ") { // the producer " << (producers == 4 ? "warpgroup" : "warp")
     << ": TMA copies only\n";
  os.indent();
  llvm::StringMap<int> takenBefore = taken;
  DenseMap<Value, std::string> namesBefore = names;
  // The thread that issues the copies: the branch closest around them.
  op.getThenRegion().walk([&](vector::TransferReadOp r) {
    if (!tmaIssuer && monoid::isTmaStaged(r))
      tmaIssuer = r->getParentOfType<scf::IfOp>();
  });
  inProducer = true;
  if (failed(emitBlock(op.getThenRegion().front())))
    return failure();
  inProducer = false;
  os << "return;\n";
  os.unindent();
  os << "}\n";
  taken = takenBefore;
  names = namesBefore;
  return emitBlock(op.getElseRegion().front());
}

/// The producer's last copies must land before the CTA exits: it waits for
/// the last fill of each buffer.
void KernelEmitter::drainTma() {
  for (auto &[buf, t] : tmaBufs)
    os << "for (unsigned f = " << buf << "_w > " << t.slots << " ? " << buf << "_w - " << t.slots
       << " : 0; f < " << buf << "_w; ++f) attncc_mbar_wait(&" << t.full << "[f % " << t.slots
       << "], (f / " << t.slots << ") & 1);\n";
}

} // namespace attncc::codegen
