//===- MonoidOps.td - reduce, contract, project, combine ---*- tablegen -*-===//
#ifndef MONOID_OPS
#define MONOID_OPS

include "ir/MonoidDialect.td"
include "ir/MonoidAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

def Monoid_ReduceOp : Monoid_Op<"reduce", [RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Fold a lifted range into one carrier state";
  let description = [{
    Folds the elements `j` in `[lower, upper)` of the named reduction axis with
    the carrier's combine. The `lift` region maps one index `j` to one state
    (one value per channel, yielded by `monoid.yield`); the results are the
    folded state. An empty range yields the carrier identity. A masked element
    is lifted to a state whose `max` channel is `-inf`: it then weighs zero.

    The optional `schedule` is the verified knob set that the passes read;
    `partial` marks a reduce that `split-reduce` produced (one of G parts).
    Because the carrier is associative, any bracketing of the fold is legal:
    `stream-reduce` and `split-reduce` choose one.

    Example (one query row of attention; free indices %b, %h, %i come from the
    enclosing map):

    ```mlir
    %m, %d, %o = monoid.reduce "kv" %c0 to %sk carrier #carrier_mdo
        : f32, f32, vector<64xf32> {
    ^bb0(%j: index):
      %qr = vector.load %q[%b, %h, %i, %c0] : memref<1x4x128x64xf16>, vector<64xf16>
      %kr = vector.load %k[%b, %h, %j, %c0] : memref<1x4x128x64xf16>, vector<64xf16>
      %s = monoid.contract %qr, %kr : vector<64xf16>, vector<64xf16> -> f32
      %vr = vector.load %v[%b, %h, %j, %c0] : memref<1x4x128x64xf16>, vector<64xf16>
      %vf = arith.extf %vr : vector<64xf16> to vector<64xf32>
      monoid.yield %s, %one, %vf : f32, f32, vector<64xf32>
    }
    ```
  }];
  let arguments = (ins StrAttr:$axis, Index:$lower, Index:$upper,
                       Monoid_CarrierAttr:$carrier,
                       OptionalAttr<Monoid_ScheduleAttr>:$schedule,
                       UnitAttr:$partial);
  let results = (outs Variadic<AnyType>:$state);
  let regions = (region SizedRegion<1>:$lift);
  let assemblyFormat = [{
    $axis $lower `to` $upper `carrier` $carrier (`schedule` $schedule^)?
    (`partial` $partial^)? attr-dict `:` type($state) $lift
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::StringRef":$axis, "::mlir::Value":$lower, "::mlir::Value":$upper,
                   "CarrierAttr":$carrier, "ScheduleAttr":$schedule,
                   "::mlir::TypeRange":$stateTypes)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getLiftBlock() { return getLift().front(); }
    ::mlir::BlockArgument getIndex() { return getLiftBlock().getArgument(0); }
    YieldOp getLiftYield();
  }];
}

//===----------------------------------------------------------------------===//
// yield
//===----------------------------------------------------------------------===//

def Monoid_YieldOp : Monoid_Op<"yield", [Pure, ReturnLike, Terminator,
    ParentOneOf<["ReduceOp", "ProjectOp"]>]> {
  let summary = "Yield a state (in a lift) or the projected values";
  let description = [{
    Terminates the `lift` region of `monoid.reduce` (one value per carrier
    channel) and the body of `monoid.project` (the projected results).

    ```mlir
    monoid.yield %s, %one, %vf : f32, f32, vector<64xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// contract
//===----------------------------------------------------------------------===//

def Monoid_ContractOp : Monoid_Op<"contract", [Pure]> {
  let summary = "Sum of elementwise products: the cell atomize maps onto tensor cores";
  let description = [{
    `sum_k lhs[k] * rhs[k]`, the operands widened to the result type before
    multiplying and the sum accumulated in the result type (f32), in index
    order. Inside a lift it is the score `q . k_j`; together with the twisted
    `o` channel (whose fold over `j` is the `P . V` product) it forms the two
    contractions that `atomize` turns into `mma` atoms.

    ```mlir
    %s = monoid.contract %qr, %kr : vector<64xf16>, vector<64xf16> -> f32
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [AnyFloat]>:$lhs,
                       VectorOfRankAndType<[1], [AnyFloat]>:$rhs);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// project
//===----------------------------------------------------------------------===//

def Monoid_ProjectOp : Monoid_Op<"project", [RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "The final map of a folded state (the deferred divide)";
  let description = [{
    Maps a folded state to the reduction's outputs. Its body receives one
    block argument per channel and yields the outputs. For attention it is
    `o / d` (0 when `d == 0`, i.e. a fully masked row) and `lse = m + log d`;
    for logsumexp `m + log d`. Keeping it outside the fold is what defers the
    divide to the last moment.

    ```mlir
    %out, %lse = monoid.project %m, %d, %o carrier #carrier_mdo
        : f32, f32, vector<64xf32> -> vector<64xf32>, f32 {
    ^bb0(%pm: f32, %pd: f32, %po: vector<64xf32>):
      ...
      monoid.yield %r, %l : vector<64xf32>, f32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$state, Monoid_CarrierAttr:$carrier);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $state `carrier` $carrier attr-dict `:` type($state) `->` type($results) $body
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// combine
//===----------------------------------------------------------------------===//

def Monoid_CombineOp : Monoid_Op<"combine", [Pure, AttrSizedOperandSegments]> {
  let summary = "Merge two carrier states";
  let description = [{
    `lhs (+) rhs` channel-wise, with the carrier's combine (see
    `#monoid.carrier`): the rescale-and-add of online softmax for twisted
    channels. Produced by `stream-reduce` (state (+) lifted element) and
    `split-reduce` (merging partial states); expanded into `arith`/`math` by
    `expand-carrier`.

    ```mlir
    %m2, %d2, %o2 = monoid.combine #carrier_mdo (%m0, %d0, %o0), (%m1, %d1, %o1)
        : f32, f32, vector<64xf32>
    ```
  }];
  let arguments = (ins Monoid_CarrierAttr:$carrier, Variadic<AnyType>:$lhs,
                       Variadic<AnyType>:$rhs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $carrier `(` $lhs `)` `,` `(` $rhs `)` attr-dict `:`
    custom<StateTypes>(type($lhs), type($rhs), type($results))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// identity
//===----------------------------------------------------------------------===//

def Monoid_IdentityOp : Monoid_Op<"identity", [Pure]> {
  let summary = "The carrier's identity state";
  let description = [{
    One value per channel: `-inf` for `max` channels and `0` for `add`
    channels (splatted for vector channels). It is the initial value of a
    streamed fold and the padding of a partial tile.

    ```mlir
    %m, %d, %o = monoid.identity #carrier_mdo : f32, f32, vector<64xf32>
    ```
  }];
  let arguments = (ins Monoid_CarrierAttr:$carrier);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$carrier attr-dict `:` type($results)";
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------===//
// resident_ctas
//===----------------------------------------------------------------------===//

def Monoid_ResidentCtasOp : Monoid_Op<"resident_ctas", [Pure]> {
  let summary = "How many CTAs of a kernel the device holds at once";
  let description = [{
    The SM count times the CTAs of one kernel that fit an SM together
    (registers, shared memory, threads): a fact of the device and of the
    compiled kernel, known only where the kernel runs. attncc-split-reduce
    writes one before the map for REDUCE@<axis>=gauto, whose count aims at
    whole waves of CTAs. It is computed on the host: the launch contract
    carries it as the symbol `resident_ctas`, evaluated by the runtime from
    the occupancy of the first kernel whose grid uses it (the driver's
    `cuOccupancyMaxActiveBlocksPerMultiprocessor` times the SM count). The
    CPU tier, which has no device, reads it as a constant of its runner.

    ```mlir
    %r = monoid.resident_ctas
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}


//===----------------------------------------------------------------------===//
// Tile level: the completion of TMA-staged blocks
//===----------------------------------------------------------------------===//

def Monoid_TmaWaitOp : Monoid_Op<"tma_wait"> {
  let summary = "Wait until a TMA-staged block has landed in shared memory";
  let description = [{
    attncc-place-waits writes one before the first reader of each block
    staged by TMA (`attncc.stage = #monoid.staged<tma, swz>`): the thread
    waits on the block's "full" mbarrier. attncc-lower-copies lowers it to
    `nvgpu.mbarrier.try_wait.parity` on the buffer's "full" group, at the
    slot and phase its wait counter gives; none is left for the emitter.

    ```mlir
    monoid.tma_wait %k_j : vector<128x64xf16>
    ```
  }];
  let arguments = (ins AnyVectorOfNonZeroRank:$block);
  let assemblyFormat = "$block attr-dict `:` type($block)";
}

def Monoid_TmaReleaseOp : Monoid_Op<"tma_release"> {
  let summary = "This warp is done with a TMA-staged block: its slot may be refilled";
  let description = [{
    attncc-place-waits writes one after the last reader of each block staged
    by TMA in a fold iteration: every warp arrives on the block's "empty"
    mbarrier, and the producer may copy the next block into its slot. The
    `unless` operands are the blocks of the same buffer that the iteration
    passes on to the next one: when the released block is one of them at
    run time (OVERLAP=pv carries the previous V block), it is not released
    yet. attncc-lower-copies lowers it to `nvvm.bar.warp.sync` and lane 0's
    `nvgpu.mbarrier.arrive` on the buffer's "empty" group at the block's
    slot (the `unless` blocks compared by their slots).

    ```mlir
    monoid.tma_release %v_j unless %v_prev : vector<128x64xf16>, vector<128x64xf16>
    ```
  }];
  let arguments = (ins AnyVectorOfNonZeroRank:$block, Variadic<AnyVectorOfNonZeroRank>:$unless);
  let assemblyFormat = "$block (`unless` $unless^)? attr-dict `:` type($block) (`,` type($unless)^)?";
}


//===----------------------------------------------------------------------===//
// Tile level: a tile value's registers in one thread (attncc-lower-mma)
//===----------------------------------------------------------------------===//

def Monoid_ToLanesOp : Monoid_Op<"to_lanes", [Pure]> {
  let summary = "This thread's elements of a tile value, in its fragment layout";
  let description = [{
    A tile value (a vector of a tiled kernel with a `#monoid.fragment`
    layout) is spread over the CTA's threads; the atoms (`nvgpu.mma.sync`,
    `nvgpu.ldmatrix`) work on what one thread holds. No core op says that
    distribution, so these two ops cross it, and the layout says which
    elements a thread holds. The thread's elements come in the order of the
    mma.sync fragment figures, one atom after another:

    * layout `c`, tile R x C: `vector<FM x C/8 x 2 x 2>`, one m16n8
      accumulator per (row tile, n8 tile), [row half][pair]; or the same
      registers as `vector<FM x C/16 x 4 x 2>`, the A operands of the
      m16n8k16 atoms (two n8 tiles of C are one k16 step of A);
    * layout `a`, tile R x K: `vector<FM x K/16 x 4 x 2>`;
    * layouts `b.nk` (N x K) and `b.kn` (K x N): `vector<N/8 x K/16 x 2 x 2>`.

    FM is the row tiles of 16 rows a warp holds (`attncc.tile`).

    ```mlir
    %s_l = monoid.to_lanes %s : vector<128x64xf32> to vector<2x8x2x2xf32>
    ```
  }];
  let arguments = (ins AnyVectorOfNonZeroRank:$tile);
  let results = (outs AnyVectorOfNonZeroRank:$lanes);
  let assemblyFormat = "$tile attr-dict `:` type($tile) `to` type($lanes)";
  let hasVerifier = 1;
}

def Monoid_FromLanesOp : Monoid_Op<"from_lanes", [Pure]> {
  let summary = "The tile value whose elements in this thread are these";
  let description = [{
    The inverse of `monoid.to_lanes`: the result is a tile value in the
    layout its `attncc.layout` names (`c`: `vector<FM x C/8 x 2 x 2>` lanes
    make an R x C tile), and the thread's registers are the operand's.

    ```mlir
    %o = monoid.from_lanes %o_l {attncc.layout = #monoid.fragment<c>} : vector<2x8x2x2xf32> to vector<128x64xf32>
    ```
  }];
  let arguments = (ins AnyVectorOfNonZeroRank:$lanes);
  let results = (outs AnyVectorOfNonZeroRank:$tile);
  let assemblyFormat = "$lanes attr-dict `:` type($lanes) `to` type($tile)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile level: the wgmma atom (attncc-lower-wgmma)
//===----------------------------------------------------------------------===//

def Monoid_SmemDescriptorOp : Monoid_Op<"smem_descriptor", [Pure]> {
  let summary = "The shared-memory matrix descriptor of a wgmma or tcgen05 operand in a 128-byte swizzled slot";
  let description = [{
    A wgmma operand in shared memory is named by a 64-bit descriptor (PTX
    ISA, "Matrix Descriptor Format" of the asynchronous warpgroup-level
    matrix instructions): the start address of element `[indices]` of the
    slot (bits 0-13, in 16-byte units), the leading byte offset (16-29),
    the stride byte offset (32-45) and the swizzle mode (62-63). No core op
    builds one from a memref that is not a TMA box (`nvgpu.warpgroup.
    generate.descriptor` takes a tensor map), so this op names the fields;
    the emitter packs them. A slot is `[slabs, rows, slab]`, each slab
    128 bytes per row, rows in groups of 8 (1024 bytes: the stride byte
    offset); the leading byte offset is the stride of the slabs for an
    MN-major operand (0 for a K-major one, which the swizzle ignores).
    `indices` are the element's logical position: the XOR of the swizzle is
    the hardware's, on the address bits.

    With `tcgen05` it is the sm_100a descriptor of `tcgen05.mma` (PTX ISA,
    "Shared memory descriptor" of the tcgen05 instructions): the same fields,
    plus the fixed 0b001 at bits 46-48 and the swizzle in bits 61-63 (value
    2 for 128 bytes); the emitter takes its constant part from
    `isa::encodeSmemFixed`. (`nvvm.tcgen05.mma_smem_desc` takes the start
    address as an i32 already shifted, which a slot's subview cannot give
    without `memref.extract_strided_metadata` arithmetic; this op names the
    element instead.)

    ```mlir
    %db = monoid.smem_descriptor %v_j_view[%c0, %row, %c0] {leading_byte_offset = 16384 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64} : memref<1x128x64xf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins AnyMemRef:$base, Variadic<Index>:$indices, I64Attr:$leading_byte_offset,
                       I64Attr:$stride_byte_offset, I64Attr:$swizzle, UnitAttr:$tcgen05);
  let results = (outs I64:$descriptor);
  let assemblyFormat = "$base `[` $indices `]` attr-dict `:` type($base)";
  let hasVerifier = 1;
}

def Monoid_WgmmaOp : Monoid_Op<"wgmma"> {
  let summary = "One wgmma.mma_async m64nNk16 into a warpgroup's f32 accumulator registers";
  let description = [{
    `acc += a * b` on the 64 x N x 16 atom of sm_90a, issued by the
    warpgroup: `acc` is this thread's share of the 64 x N f32 accumulator,
    a private `memref<1 x N/8 x 2 x 2 x f32>` (the order of the C fragments,
    `monoid.to_lanes`), which the instruction reads and writes
    asynchronously, in place. `b` is a shared-memory descriptor
    (`monoid.smem_descriptor`), K-major, or MN-major with `transpose_b`.
    `a` is a descriptor too (the SS form) or this thread's A fragment of
    the k step, `vector<4 x 2 x T>` (the RS form, four 32-bit registers);
    `operand_type` is T (f16 or bf16). It is neither fenced, committed nor
    waited for: `nvvm.wgmma.fence.aligned` comes before the first atom of a
    product, `nvvm.wgmma.commit.group.sync.aligned` after the last, and
    attncc-place-waits' `nvvm.wgmma.wait.group.sync.aligned` before the
    first reader of the result. (`nvgpu.warpgroup.mma` has the SS form only
    and does its own waits; `nvvm.wgmma.mma_async` has no RS form either.)

    ```mlir
    monoid.wgmma %a, %db into %o_acc {operand_type = f16, transpose_b} : vector<4x2xf16>, memref<1x8x2x2xf32>
    ```
  }];
  let arguments = (ins AnyType:$a, I64:$b, Arg<MemRefOf<[F32]>, "the accumulator", [MemRead, MemWrite]>:$acc,
                       TypeAttr:$operand_type, UnitAttr:$transpose_b);
  let assemblyFormat = "$a `,` $b `into` $acc attr-dict `:` type($a) `,` type($acc)";
  let hasVerifier = 1;
}

#endif // MONOID_OPS
