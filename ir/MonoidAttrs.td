//===- MonoidAttrs.td - carrier and schedule attributes ----*- tablegen -*-===//
#ifndef MONOID_ATTRS
#define MONOID_ATTRS

include "ir/MonoidDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Monoid_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Monoid_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Monoid_CarrierAttr : Monoid_Attr<"Carrier", "carrier"> {
  let summary = "The state channels of a reduction and their algebra";
  let description = [{
    Each channel has a name, a combine (`max` or `add`), the identity of that
    combine written out, and an optional twist naming a `max` channel. Two states
    combine channel-wise:

    * `max`: `max(a, b)`;
    * `add`: `a + b`;
    * `add twist(m)`: `a * w(a_m) + b * w(b_m)` with `w(x) = exp(x - max(a_m, b_m))`,
      and `w(-inf) = 0` so that identity states never produce NaN.

    The combine is associative and commutative and the identity is
    `(-inf for max, 0 for add)`, which is what licenses every schedule.

    Example (online softmax-weighted sum, the attention carrier):

    ```mlir
    #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "channel names">:$names,
    ArrayRefParameter<"::mlir::monoid::CombineKind", "combine of each channel">:$combines,
    ArrayRefParameter<"int64_t", "index of the twisting max channel, or -1">:$twists
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned size() const { return getNames().size(); }
    /// True if channel `i` is an `add` channel twisted by a `max` channel.
    bool isTwisted(unsigned i) const { return getTwists()[i] >= 0; }
    /// Index of the channel named `name`, or -1.
    int64_t lookup(::llvm::StringRef name) const;
  }];
}

def Monoid_ScheduleAttr : Monoid_Attr<"Schedule", "schedule"> {
  let summary = "A verified schedule: the knob string, parsed once";
  let description = [{
    Wraps the typed `attncc::Schedule` that the knob codec produced. It prints
    as the canonical knob string and parses through the same codec, so a
    malformed schedule in a `.mlir` file gets the same diagnostic as on the
    command line. Passes read their knobs only from here.

    ```mlir
    #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4,STAGE@kv=d2/tma/ring">
    ```
  }];
  let parameters = (ins AttrParameter<"::attncc::Schedule", "the typed schedule",
                                      "const ::attncc::Schedule &">:$schedule);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    std::string str() const;
  }];
}


def Monoid_FragmentAttr : Monoid_Attr<"Fragment", "fragment"> {
  let summary = "Which thread of a CTA holds which element of a tile value";
  let description = [{
    attncc-atomize gives every vector value of a tiled kernel one of these
    (`attncc.layout` on its op; `attncc.layouts`, an array, on an `scf.for`
    for its iter_args). No core op says how a tile is spread over threads, so
    the layout is a typed attribute of its own:

    * `c`: the mma.sync m16n8k16 accumulator fragments (also wgmma's);
    * `row` / `col`: the rows / columns of a `c` tile that a thread holds;
    * `quad`: an [M x 4] tile of a row's four lane partials (ROWSUM=end,
      attncc-defer-rowsum): lane 4g + t holds element t of the rows it holds
      in `row`, the sum of its own columns of a `c` tile;
    * `a`: A fragments read from memory;
    * `b.nk` / `b.kn`: B fragments read from memory, [N x K] or [K x N];
    * `smem`: a block staged in shared memory (attncc-stage), read by
      ldmatrix or through a wgmma or tcgen05 descriptor;
    * `rowthread`: thread t of the CTA (four warps) holds row t of the tile
      whole, as `tcgen05.ld.32x32b` gives a tensor-memory tile (tcgen05);
    * `rowthread.row` / `rowthread.col`: a row vector (one element per
      thread, its own row) / a column vector (every thread holds all of it)
      beside a `rowthread` tile;
    * `rowhalf` / `rowhalf.row`: the m64 atom's (tcgen05 layout F: rows
      [16w, 16w + 16) in lanes [32w, 32w + 16) of tensor memory): thread
      32w + l holds row 16w + l whole for l < 16; lanes 16-31 of each warp
      read the lanes the atom leaves unused, compute on them as if they were
      the row of lane l - 16, and store nothing. `rowthread.col` is the
      column vector beside it.

    ```mlir
    %s = vector.contract ... {attncc.layout = #monoid.fragment<c>}
    ```
  }];
  let parameters = (ins "::mlir::monoid::Fragment":$kind);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// "c", "row", "col", "a", "b.nk", "b.kn", "smem", "rowthread", "rowthread.row", "rowthread.col",
    /// "rowhalf", "rowhalf.row" or "quad".
    ::llvm::StringRef layoutName() const { return ::mlir::monoid::fragmentName(getKind()); }
  }];
}


def Monoid_StagedAttr : Monoid_Attr<"Staged", "staged"> {
  let summary = "How a block reaches shared memory, and how it sits there";
  let description = [{
    attncc-stage marks each `vector.transfer_read` it stages through shared
    memory with one of these (`attncc.stage`): the transport, then the
    arrangement of the block's rows.

    * transport `sync` (every thread loads and stores 16-byte chunks), `cp`
      (cp.async) or `tma` (one thread issues a tensor-memory-access copy that
      completes on an mbarrier);
    * arrangement `pad` (each row padded by 16 bytes against bank conflicts)
      or `swz` (128-byte slabs with the 128-byte swizzle, the layout of wgmma
      descriptors and TMA); absent: plain rows.

    ```mlir
    %k = vector.transfer_read ... {attncc.stage = #monoid.staged<cp, pad>}
    %v = vector.transfer_read ... {attncc.stage = #monoid.staged<tma, swz>}
    ```
  }];
  let parameters = (ins "::mlir::monoid::Transport":$transport, "::mlir::monoid::Arrangement":$arrangement);
  let hasCustomAssemblyFormat = 1;
}

#endif // MONOID_ATTRS
