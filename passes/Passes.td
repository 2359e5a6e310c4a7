//===- Passes.td - the move stack ---------------------------*- tablegen -*-===//
#ifndef ATTNCC_PASSES
#define ATTNCC_PASSES

include "mlir/Pass/PassBase.td"

def PackGqa : Pass<"attncc-pack-gqa", "func::FuncOp"> {
  let summary = "PACK=gqa: the query heads of one KV group run as one row axis (GQA packing)";
  let description = [{
    For a grouped problem (Hq = G Hkv, G > 1) with a static query length Sq,
    the free-axis map over (batch, query heads, query rows) becomes a map over
    (batch, KV heads, G Sq packed rows). Q, O and the LSE are retyped
    `[B, Hkv, G Sq(, D)]`: in memory they already are, since query head
    `hkv G + g` of row `i` is row `g Sq + i` of KV head `hkv`'s block, so
    their loads and stores keep their indices. The rest of the lift reads the
    head and row back, `h = hkv G + r / Sq` and `i = r mod Sq` (the causal
    diagonal, ALiBi), and the KV head `h / G` is `hkv` itself.

    ```mlir
    scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c2, %c8, %c4) ... {
      monoid.reduce "kv" ... {
        %hkv = arith.divui %h, %c4 : index
        %q_i = vector.load %q[%b, %h, %i, %c0] : memref<2x8x4x64xf16>, vector<64xf16>
        %k_j = vector.load %k[%b, %hkv, %kv, %c0] : memref<2x2x300x64xf16>, vector<64xf16>
        %diag = arith.addi %i, %sk_minus_sq : index
    ```
    becomes
    ```mlir
    scf.parallel (%b, %hkv, %r) = (%c0, %c0, %c0) to (%c2, %c2, %c16) ... {
      monoid.reduce "kv" ... {
        %i = arith.remui %r, %c4 : index
        %q_i = vector.load %q[%b, %hkv, %r, %c0] : memref<2x2x16x64xf16>, vector<64xf16>
        %k_j = vector.load %k[%b, %hkv, %kv, %c0] : memref<2x2x300x64xf16>, vector<64xf16>
        %diag = arith.addi %i, %sk_minus_sq : index
    ```
    A tile of rows that attncc-partition cuts then holds the heads of one KV
    group and reads each K and V block once for all of them. Runs before
    attncc-split-reduce, whose parts and workspaces follow the packed map.
    Refused: a bias (not built), a symbolic query length, heads that do not
    divide. G = 1 leaves the function alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SplitColumns : Pass<"attncc-split-columns", "func::FuncOp"> {
  let summary = "The combine of a split runs a point per 4-column chunk of a row, not a point per row";
  let description = [{
    attncc-split-reduce's combine map (named `combine`) folds each row's G
    partial states and writes the row: after attncc-expand-carrier its vector
    values are rows of D elements (the `o` channel and the output row) and its
    ops act on them elementwise. This pass adds a last map axis over the D / 4
    column chunks of a row: each vector<D x T> value becomes the vector<4 x T>
    of its chunk (loads and stores at column `chunk * 4`), the scalar channels
    (m, d) are computed by every chunk alike, and a scalar store (the LSE) is
    guarded to chunk 0. On the GPU the combine is then one thread a chunk: a
    decode's rows are few (B x Hq x Sq), and one thread a row left most of the
    GPU idle while each thread walked G x D floats. A map with any other
    vector op (a contraction, a reduction across the row) is left alone.

    ```mlir
    scf.parallel (%b, %hkv, %r) = ... {
      %combined:3 = scf.for %part ... -> (f32, f32, vector<128xf32>) {
        %o = vector.load %partial_o[%b, %hkv, %part, %r, %c0] : ..., vector<128xf32>
      ...
      vector.store %out, %o[%b, %hkv, %r, %c0] : memref<...x128xbf16>, vector<128xbf16>
      memref.store %lse_i, %lse[%b, %hkv, %r]
    ```
    becomes
    ```mlir
    scf.parallel (%b, %hkv, %r, %chunk) = ... to (..., %c32) {
      %col = arith.muli %chunk, %c4 : index
      %first = arith.cmpi eq, %chunk, %c0 : index
      %combined:3 = scf.for %part ... -> (f32, f32, vector<4xf32>) {
        %o = vector.load %partial_o[%b, %hkv, %part, %r, %col] : ..., vector<4xf32>
      ...
      vector.store %out, %o[%b, %hkv, %r, %col] : memref<...x128xbf16>, vector<4xbf16>
      scf.if %first { memref.store %lse_i, %lse[%b, %hkv, %r] }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def PrefetchParts : Pass<"attncc-prefetch-parts", "func::FuncOp"> {
  let summary = "A split's combine loads the states of 8 parts before it folds them";
  let description = [{
    The combine map's fold over the G parts (attncc-split-reduce, narrowed by
    attncc-split-columns) loads each part's (m, d, o) and folds it into the
    running state; the next part's fold waits on the previous one, and each
    waits on its loads, so a thread paid one memory latency a part (H200: 14.7
    us for 32 parts, 53.3 us for 128). This pass runs the fold over batches of
    8 parts: an unrolled loop loads the batch into private buffers
    (`memref.alloca`, registers on the GPU), then an unrolled loop folds the
    batch from them. Parts past the end (G not a multiple of 8, or not
    constant) are guarded by `scf.if`. Only folds whose loads read at the
    loop's index or at values from outside, and whose other ops are pure, are
    changed.

    ```mlir
    %combined:3 = scf.for %part = %c0 to %c32 step %c1 iter_args(...) {
      %m_p = memref.load %partial_m[%b, %hkv, %part, %r]
      ...
    ```
    becomes
    ```mlir
    %parts = memref.alloca() : memref<8xf32>
    %combined:3 = scf.for %batch = %c0 to %c32 step %c8 iter_args(...) {
      scf.for %p = %c0 to %c8 step %c1 {     // attncc.unroll
        %part = arith.addi %batch, %p
        %m_p = memref.load %partial_m[%b, %hkv, %part, %r]
        memref.store %m_p, %parts[%p]
      }
      %f:3 = scf.for %p = %c0 to %c8 step %c1 iter_args(...) {   // attncc.unroll
        %m_p = memref.load %parts[%p]
        ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect"];
}

def LastCombine : Pass<"attncc-last-combine", "func::FuncOp"> {
  let summary = "REDUCE@<axis>=g<n>a: the last point of the parts to arrive combines its rows (no combine kernel)";
  let description = [{
    With `REDUCE@<axis>=g<n>a` the split's combine map (attncc-split-reduce,
    narrowed by attncc-split-columns and attncc-prefetch-parts) is folded into
    the parts map: each point of the parts, after storing its partial state,
    adds one to a counter of its row block (`memref.atomic_rmw`, marked
    `attncc.arrival`), and the point whose count is G - 1 resets the counter
    and runs the combine's body over the block's rows and column chunks (a
    nested `scf.parallel` named `combine`). The counters are a workspace the
    runtime zeroes once (`attncc.zero_init`). A loop of at most 4 trips in the
    folded combine (attncc-prefetch-parts' batches) is marked `attncc.unroll`.
    attncc-map-to-gpu lowers the
    arrival (a fence and one atomic a CTA, the result shared by a barrier)
    and spreads the nested map over the CTA's threads.

    ```mlir
    scf.parallel (%b, %hkv, %part) = ... {
      ... vector.transfer_write %m, %partial_m[%b, %hkv, %part, %c0] ...
    }
    scf.parallel (%b, %hkv, %r, %chunk) = ... { the combine }
    ```
    becomes
    ```mlir
    %arrivals = memref.alloc() {attncc.zero_init} : memref<8x8xi32>
    scf.parallel (%b, %hkv, %part) = ... {
      ...
      %arrived = memref.atomic_rmw addi %c1_i32, %arrivals[%b, %hkv] {attncc.arrival}
      %last = arith.cmpi eq, %arrived, %c15_i32 : i32
      scf.if %last {
        memref.store %c0_i32, %arrivals[%b, %hkv] {attncc.arrival_reset}
        scf.parallel (%ri, %chunk) = (%c0, %c0) to (%rows_left, %c32) { the combine at row %c0 + %ri }
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CutFold : Pass<"attncc-cut-fold", "func::FuncOp"> {
  let summary = "PLACE@fold=cut: materialize the scores, then fold them (two stages)";
  let description = [{
    Dial 2 of the seed, set to the wrong factorization on purpose. For every
    `monoid.reduce` whose schedule says `PLACE@fold=cut`, the scalar values its
    lift yields (other than constants) — for attention the score `s_j` — are
    computed by a first loop nest over (free indices, j) and written to a
    buffer the size of the score matrix; the reduce's lift then loads them.

    Before:
    ```mlir
    scf.parallel (%b, %h, %i) ... {
      %m, %d, %o = monoid.reduce "kv" %c0 to %sk ... { s_j = contract(q_i, k_j) ... }
    ```
    After:
    ```mlir
    %S = memref.alloc(...) : memref<?x?x?x?xf32>
    scf.parallel (%b, %h, %i, %j) ... { memref.store s_j, %S[%b, %h, %i, %j] }   // stage 1
    scf.parallel (%b, %h, %i) ... {
      %m, %d, %o = monoid.reduce "kv" ... { %s = memref.load %S[%b, %h, %i, %j] ... } // stage 2
    memref.dealloc %S
    ```
    Precondition: the reduce sits directly in an `scf.parallel` with zero lower
    bounds and unit steps (the free-axis map the front end builds).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def SplitReduce : Pass<"attncc-split-reduce", "func::FuncOp"> {
  let summary = "REDUCE@<axis>=g<G>k|a: G partial states and a combine (Flash-Decoding)";
  let description = [{
    Splits a reduce over `[lo, hi)` into G parts of `C = ceil((hi - lo) / G)`
    elements, rounded up to the TILE block of the axis so parts stream whole
    tiles. The free-axis map that holds the reduce becomes two maps:

    * the parts, a new `scf.parallel` over (free axes..., part) before it:
      part g folds `[min(lo + g C, hi), min(lo + (g+1) C, hi))` with a copy of
      the reduce (marked `partial`, so the pass never splits twice) and stores
      its state in a workspace `[free extents..., G]` per channel (an empty
      part stores the identity); on the GPU, G CTAs a row;
    * the combine, the original map: the reduce is replaced by a fold of the
      G partial states with `monoid.combine`; on the GPU, the combine kernel.

    `g<G>a` makes the same two maps here; attncc-last-combine then folds the
    combine into the parts (the last CTA of a row block to arrive combines it).

    With a tensor-core TILE on the axis the part axis goes before the map's
    last axis, the rows: the parts map is `(free axes but the last..., part,
    rows)` and the workspaces `[..., G, rows]`, so that attncc-partition tiles
    each part's rows and stores its state per row, as it stores O and the LSE
    (the loop level only: on a GPU target checkSchedule refuses the split with
    an atom, and attncc-map-to-gpu a tiled function with a second map).

    ```mlir
    scf.parallel (%h, %i) ... {
      %m, %d = monoid.reduce "kv" %c0 to %n carrier #c schedule #s : f32, f32 {...}
      ...
    ```
    becomes
    ```mlir
    %partial_m = memref.alloc() : memref<4x128x3xf32>   // and %partial_d
    scf.parallel (%h, %i, %part) ... {
      %pm, %pd = monoid.reduce "kv" %part_lo to %part_hi ... partial : f32, f32 {...}
      memref.store %pm, %partial_m[%h, %i, %part] ...
    }
    scf.parallel (%h, %i) ... {
      %im, %id = monoid.identity #c : f32, f32
      %m, %d = scf.for %part = %c0 to %c3 step %c1 iter_args(...) {
        ... monoid.combine #c (%am, %ad), (%lm, %ld) : f32, f32
      }
      ...
    }
    memref.dealloc %partial_m ...
    ```

    A reduce in the front end's row guard (a varlen sequence's rows) whose
    bounds the map's body computes from its outer axes, not the rows (the
    sequence's own keys), is split too: the bounds are cloned into the parts
    map, which computes each part's size there; with rows computed one at a
    time the parts keep the guard. `gauto` needs the length before the map:
    there it takes the mean length `ceil(total_k / batch)` from K packed
    `[total_k, ...]`, and is refused without such a K.

    `gauto`'s count is computed before the map (on a GPU, on the host):
    `max(1, min(ceil(n / max(512, B)), 2 R / points, 64))`, with `points` the
    product of the map's extents (rows counted in row tiles with an atom)
    and `R = monoid.resident_ctas`, the CTAs of the parts kernel the device
    holds at once, so that the parts fill about two whole waves. R is the
    launch contract's symbol `resident_ctas`, which the runtime evaluates from
    the kernel's occupancy; the CPU tier reads it as 64.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect"];
}

def ClipIdentity : Pass<"attncc-clip-identity", "func::FuncOp"> {
  let summary = "Shrink a reduce's range to where its lift is not the identity (mask skipping)";
  let description = [{
    An element whose lifted `max` value is `-inf` weighs nothing when every
    `add` channel is twisted by that `max` channel: it is the identity, and
    folding it changes nothing. If the lift's `max` value is
    `select(pred, x, -inf)` and `pred` is a conjunction of signed comparisons
    of the element index with values that do not depend on it, the elements
    where `pred` is false can be left out: the range `[lo, hi)` shrinks to
    `[max(lo, L), min(hi, U))` (an empty range folds to the identity). For
    attention this is the causal and sliding-window block skip, derived from
    the carrier's algebra and the lift's IR, not from knowing "causal".

    ```mlir
    %m, %d = monoid.reduce "kv" %c0 to %n ... {
    ^bb0(%j: index):
      %ok = arith.cmpi sle, %j, %diag : index
      %s2 = arith.select %ok, %s, %ninf : f32
      monoid.yield %s2, %one : f32, f32
    }
    ```
    becomes
    ```mlir
    %u = arith.addi %diag, %c1 : index          // the bound, computed before the reduce
    %hi = arith.minsi %n, %u : index
    %m, %d = monoid.reduce "kv" %c0 to %hi ... { (unchanged) }
    ```
    Comparisons that cannot be turned into a bound (unsigned, equality, or
    with both sides depending on the index) are left alone: clipping is only
    ever a subset of what the mask removes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def Partition : Pass<"attncc-partition", "func::FuncOp"> {
  let summary = "TILE@<axis>=a:<atom>/...: tiles of query rows, blocks of keys, the block fold";
  let description = [{
    For a `monoid.reduce` whose schedule has a tensor-core TILE on its axis:
    the free-axis map runs over tiles of `M = WM*FM*atom.m` rows instead of
    rows, its body is vectorized over the tile, and the reduce becomes an
    `scf.for` over blocks of `B = WN*FN*atom.n` elements folded with the
    carrier's block combine (`ir/Carrier.h` buildBlockCombine): for the
    softmax carrier `m' = max(m, rowmax(S))`, `d' = d*alpha + rowsum(P)`,
    `o' = o*alpha + P*V`, where `S` is a `vector.contract` of the Q tile and
    the K block. Elements past the range are padded with the identity.

    ```mlir
    scf.parallel (%b, %h, %i) ... {
      %m, %d, %o = monoid.reduce "kv" %c0 to %sk ... schedule #s {...}
    ```
    becomes
    ```mlir
    scf.parallel (%b, %h, %tile) ... {
      %row0 = arith.muli %tile, %c64 : index
      %fold:3 = scf.for %kv0 = %c0 to %sk step %c64 iter_args(%m = ..., %d = ..., %o = ...)
          -> (vector<64xf32>, vector<64xf32>, vector<64x64xf32>) {
        %q_i = vector.transfer_read %q[%b, %h, %row0, %c0] ... : vector<64x64xf16>
        %k_j = vector.transfer_read %k[%b, %h, %kv0, %c0] ... : vector<64x64xf16>
        %qk = vector.contract ... %q_i, %k_j, %zero : ... into vector<64x64xf32>
        ...
    ```
    The function records its CTA: `attncc.cta = {rows = M, threads = 32*WM*WN}`;
    `attncc-map-to-gpu` launches one CTA per tile, the map's last axis
    fastest. When rows fold different lengths (causal), the tiles run last to
    first (`%tile_rev`). `GRID=lpt` puts the tile axis first
    (`scf.parallel (%tile, %b, %h)`), so the launch is tile-major: every
    (batch, head)'s longest tile, then every second-longest, ..., and the
    grid's last wave is its shortest tiles.

    A paged KV cache (`--paged P`): the front end reads key `j` from row
    `j mod P` of page `block_table[b, j / P]`, with the `arith.divui` and
    `arith.remui` marked `attncc.page`. Blocks then start at multiples of
    `B` (a lower bound that is not 0 is masked), and `B` must divide `P`
    (refused otherwise), so a block lies in one page: `j / P` is the block's
    `kv0 / P` (uniform) and `j mod P` indexes the tile like `j`, from
    `kv0 mod P`. The K and V blocks are tile reads
    `vector.transfer_read %k[%page, %h, %row, %c0]` of the cache.

    A varlen batch (`--varlen`): the front end reads and writes sequence
    `b`'s rows through `memref.subview` views of its length (uniform over
    the tile: cloned into the tiled map) and guards the row,
    `scf.if %i < %len_q {...} {attncc.row_guard}`. The pass drops the guard
    once it has checked that every guarded access indexed by the row is to
    a view whose extent along it is the guard's bound: the tile's reads and
    writes past a view's rows read 0 and write nothing. A tile whose first
    row is past the bound folds nothing (`%tile_in_seq` selects an empty
    range).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect", "::mlir::math::MathDialect"];
}

def Hoist : Pass<"attncc-hoist", "func::FuncOp"> {
  let summary = "Move loop-invariant reads of buffers the function never writes out of scf.for";
  let description = [{
    A read (`vector.transfer_read`, `vector.load`, `memref.load`) at the top
    level of an `scf.for` body whose operands are all defined outside the
    loop moves in front of the loop when nothing in the function writes its
    buffer. For a partitioned fold, the Q tile is then read once per CTA.
    With `HOIST=off` in the function's `attncc.schedule` only the
    side-effect-free ops move; the reads stay in the loop (a ladder rung).
  }];
}

def SplitMask : Pass<"attncc-split-mask", "func::FuncOp"> {
  let summary = "Blocks inside the mask skip it: each fold's mask selects go under a per-block scf.if";
  let description = [{
    In each fold (an `scf.for` whose body holds a `vector.contract`), a chain
    of `arith.select %c, %x, %id` (`%id` a splat constant, each select the
    next one's true value) whose conditions are signed comparisons of index
    vectors (block offset + `vector.step`, broadcasts of scalars, constants,
    `addi`/`subi`, `andi` of such) becomes
    `scf.if %all { yield %x } else { comparisons; selects; yield }`, with
    `%all` the scalar test that every condition holds over the whole block,
    found by interval arithmetic on the index vectors (a <= b everywhere iff
    max a <= min b). Blocks below the causal diagonal and before a symbolic
    end then skip the per-element index math, compares and selects. A chain
    whose condition is outside that grammar is left alone. In the else
    branch the chain is one select of the conditions' conjunction, and a
    comparison of the block's keys with a per-row bound is relative to the
    block: `kv0 + step <= i` becomes `step <= i - kv0`, the subtraction once
    per row instead of the addition once per element (ptxas kept a
    128-column row's key indices alive otherwise). Bitwise the same result.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def Handoff : Pass<"attncc-handoff", "func::FuncOp"> {
  let summary = "REPACK=smem: a contraction's left operand computed in registers goes through shared memory";
  let description = [{
    With `REPACK=smem` in the function's `attncc.schedule`, every
    `vector.contract` whose left operand is not a `vector.transfer_read`
    (P = softmax(S), made of the first product's C fragments) is marked
    `attncc.handoff = "smem"`. attncc-atomize reserves a shared-memory slab
    of the operand's shape (rows padded by 16 B) for it; the emitter writes
    the C fragments there and reads the A fragments back with `ldmatrix.x4`,
    ordered by `__syncwarp` (each warp owns its rows). This is the seed's
    first P*V, kept as a ladder rung to measure the register repack, which
    is the default (`REPACK=regs`). Bitwise the same result.
  }];
}

def Accumulate : Pass<"attncc-accumulate", "func::FuncOp"> {
  let summary = "ACC=f16x: contractions of f16 operands accumulate in fp16, promoted into fp32 once per contraction";
  let description = [{
    With `ACC=f16x` in the function's `attncc.schedule`, every
    `vector.contract` of f16 operands is marked `attncc.acc = "f16x"`. The
    emitter runs its k steps on the fp16-accumulate mma.sync atom into zeroed
    half2 partials and adds them, in fp32, to the accumulator after the last
    k step (seed 001's hybrid accumulation: twice the mma rate on sm_120).
    The CPU semantics stay fp32; the GPU check measures the rounding.
  }];
}

def Stage : Pass<"attncc-stage", "func::FuncOp"> {
  let summary = "STAGE@<axis>=d<1|2|3>/sync|cp[/ring][/pad|/swz128]: the contract's block operands go through shared memory";
  let description = [{
    Reads the schedule the function carries (`attncc.schedule`, copied there
    by attncc-partition). For each `vector.contract` in the fold whose
    right-hand operand is a `vector.transfer_read` of the block, the read is
    marked `attncc.stage = #monoid.staged<sync|cp|tma[, pad|swz]>` and moved to the top
    of the loop body, so the copies of all blocks are issued before the first
    contraction uses one. With `d2/ring` or `d3/ring` the fold is software
    pipelined: block i+1 is read in iteration i and carried in an iter_arg,
    the reads sharing a ring of 2 or 3 buffers (`attncc.ring`,
    `attncc.ring_slots`). `STAGE@q=d1/...` stages the contractions' left
    operand tile (hoisted out of the fold). A fold of a single block (no
    loop left) is staged in place. `swz128` lays a block out as 128-byte
    swizzled slabs, the layout wgmma descriptors read; its rows must be whole
    128-byte slabs. attncc-atomize gives a marked read the shared-memory
    layout; the emitter issues it as cooperative copies (`cp.async` for cp)
    and waits for it at its first use.

    Refused, with the reason: depths above 3, `d2`/`d3` without `ring`, a
    ring on a free axis, `tma` without `swz128` or on a free axis, and
    operands whose rows are not 16-byte (128-byte for swz128) multiples.
    `tma` marks the reads `"tma.swz"`: the emitter copies each block with TMA
    from one thread and adds full/empty mbarriers per buffer (no CTA barrier
    in the fold). A ring read whose indices the loop body computes from the
    loop index (a paged cache: the block table's page, the row in the page)
    takes that computation along: its ops (arithmetic and loads, no carried
    state) are cloned with `lo` before the loop and with `kv0 + step` for
    the prefetch. A cp or sync ring over whole blocks (a static buffer
    extent S that is a multiple of the block B, blocks from a multiple of B)
    prefetches `min(kv0 + B, S - B)` and marks the read in bounds: the block
    after the last is the last block again, never read, and its copies need
    no per-row test (TMA tests its boxes itself).
  }];
  let dependentDialects = ["::mlir::monoid::MonoidDialect"];
}

def LdmatrixX4 : Pass<"attncc-ldmatrix-x4", "func::FuncOp"> {
  let summary = "STAGE@<axis>=.../x4: read the B fragments of two n8 tiles with one ldmatrix.x4";
  let description = [{
    A peephole on the shared-memory read-back. Reads the schedule the
    function carries (`attncc.schedule`). With `x4` in the STAGE knob of the
    fold's axis, every `vector.contract` whose right-hand operand is a block
    staged by sync or cp copies (`attncc.stage`, directly or through a ring
    iter_arg) is marked `attncc.ldmatrix = "x4"`. The emitter then loads the
    B fragments of two adjacent n8 tiles with one `ldmatrix.x4` (`.trans`
    for a [k x n] block) instead of two `ldmatrix.x2`. `x4` on a free axis (a staged Q tile, whose A fragments
    already come from ldmatrix.x4) is refused with the reason.
  }];
}

def Atomize : Pass<"attncc-atomize", "ModuleOp"> {
  let summary = "Give CTA-wide tile vectors fragment layouts (mma.sync m16n8k16, wgmma m64nNk16, tcgen05 m128nNk16 or m64nNk16)";
  let description = [{
    For each outlined kernel holding `vector.contract` tiles: checks that the
    tiles divide into the atoms over the CTA's warps (m16n8k16 per warp, or
    for contractions attncc-partition marked `attncc.family = "wgmma"`, one
    m64nNk16 per warpgroup with both staged operands swizzled), marks each
    contraction `attncc.atom = "mma.m16n8k16"` or `"wgmma.m64n<N>k16"`, and
    gives every vector value a layout (`attncc.layout`): `c` (accumulator
    fragments), `row` / `col` (the rows / columns of c a thread holds), `a`
    (A fragments read from memory), `b.nk` / `b.kn` (B fragments read from
    memory) or `smem` (a block staged by attncc-stage, read with ldmatrix or
    through a wgmma descriptor). The wgmma accumulator and register-A
    fragments are the mma.sync ones, so the layouts are shared. For
    `attncc.family = "tcgen05"` one thread issues `"tcgen05.m128n<N>k16"`
    per warpgroup of 128 rows (or `"tcgen05.m64n<N>k16"` per warpgroup of
    64 rows) and each thread holds one row whole, as tcgen05.ld.32x32b
    gives it: layouts `rowthread` / `rowthread.row` / `rowthread.col` (m64:
    `rowhalf` / `rowhalf.row` / `rowthread.col`, lanes 16-31 of each warp
    computing on lanes no product writes and storing nothing). The kernel
    records `attncc.tile = {warps, rows}`, and the warps that own no rows
    from the kernel's `attncc.warp_roles` (WSPEC, recorded by
    attncc-partition): `producers`, `mma`, `idle`. The CUDA emitter turns each op
    into the per-thread code of its layout.
  }];
  let dependentDialects = ["::mlir::monoid::MonoidDialect", "::mlir::NVVM::NVVMDialect"];
}

def AllocateSmem : Pass<"attncc-allocate-smem", "ModuleOp"> {
  let summary = "Place each kernel's staged blocks and handoff slabs in its dynamic shared memory";
  let description = [{
    After attncc-atomize: gives each staged block (`attncc.stage`; the reads
    of one ring share its slots) an `attncc.smem_offset`, 128-byte aligned or
    1024-byte aligned when swizzled, then each REPACK=smem contraction an
    `attncc.handoff_offset`, and adds `smem` (the bytes the kernel asks for,
    plus 1024 B of alignment slack when anything is swizzled) to
    `attncc.tile`. Refuses a kernel over the module's `attncc.smem_limit`
    (the target's opt-in limit per block, recorded by the driver; without it
    99 KiB for mma atoms, the smallest of their targets, and 227 KiB for
    wgmma), naming both numbers.

    It then writes the kernel's shared memory as ops at the top of its body:
    `gpu.dynamic_shared_memory` (`attncc.align` = 1024 when anything is
    swizzled, else 128), one `memref.view` per buffer in the workgroup
    address space (`[slots, rows, row stride]`, or `[slots, slabs, rows,
    slab]` for 128-byte swizzled blocks; `[rows, row stride]` for a handoff
    slab), and for each TMA buffer its "full" and "empty" mbarrier groups
    (`nvgpu.mbarrier.create`, one barrier per slot), initialized by thread 0
    (`nvgpu.mbarrier.init`: full by 1 arrival, empty by one per warp that
    reads; `nvvm.fence.mbarrier.init`) before a `gpu.barrier`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect", "mlir::memref::MemRefDialect",
                           "mlir::nvgpu::NVGPUDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect"];
}

def PlaceWaits : Pass<"attncc-place-waits", "ModuleOp"> {
  let summary = "Place the waits, fences and barriers of staged copies and wgmma products";
  let description = [{
    After attncc-allocate-smem: walks each tiled kernel in program order with
    a ledger of the staged copies and of the wgmma groups in flight, and
    writes when each is committed, waited for and visible as core ops:
    `nvvm.cp.async.commit.group` after each cp.async copy;
    `nvvm.cp.async.wait.group N`, `nvvm.fence.proxy` (wgmma kernels) and a
    CTA barrier (`gpu.barrier`, or `nvvm.barrier id = 15` among the consumer
    warps under WSPEC) before the first reader of a staged block, and one
    barrier before each run of copies (every warp is done with the buffers
    they refill); `nvvm.wgmma.wait.group.sync.aligned N` before the first
    reader of a wgmma product, followed by `nvvm.inline_ptx ""` with the
    completed accumulators as read-write operands (a register fence). N
    counts the later groups that may stay in flight. A TMA-staged block gets
    `monoid.tma_wait` before its first reader and `monoid.tma_release`
    (its slot may be refilled; `unless` the blocks of its buffer the
    iteration passes on) after the wgmma wait that completes its last
    reader in a fold iteration, or at the end of the iteration.
    GRID=persistent's tile loop (`attncc.tile_loop`) is not a fold: its
    iteration releases only the blocks a fold carried out that a later op
    waited for (OVERLAP=pv's last P*V) and the other blocks of their buffer
    that fold carried out, and marks their ring's reads `attncc.ring_tail`
    (attncc-lower-copies issues them unguarded: that fold waits for the
    prefetch past the end).
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect"];
}

def WarpSpecialize : Pass<"attncc-warp-specialize", "ModuleOp"> {
  let summary = "WSPEC=load1|load4: split a TMA kernel into a producer role that issues the copies and the consumers";
  let description = [{
    After attncc-place-waits, for a kernel whose `attncc.tile` has
    `producers`: wraps the body in `scf.if %warp >= W` marked `attncc.roles`.
    The then region is the producers' (`nvvm.setmaxregister decrease 40`
    for a producer warpgroup; 56 for tcgen05's TMA and mma warps with the
    two idle warps that make them a warpgroup, `attncc.tile.idle`), where one thread (`%warp == W && lane == 0`)
    runs a clone of the TMA copies, the index math they need and the loops
    around them as bare counted loops; the else region is the consumers'
    (`nvvm.setmaxregister increase R`, R the registers the producers leave,
    at most 256), the kernel as it was. Refuses a TMA copy inside a branch
    and one whose index depends on the fold's carried state.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
                           "mlir::scf::SCFDialect"];
}

def LowerCopies : Pass<"attncc-lower-copies", "ModuleOp"> {
  let summary = "Write each staged copy as nvgpu ops into its shared buffer, and the TMA waits and releases as mbarrier ops";
  let description = [{
    After attncc-warp-specialize, the last tile pass. Each staged read
    (`attncc.stage`) becomes the copy that fills its buffer's slot (a
    `memref.subview` of attncc-allocate-smem's view) and a read of that slot
    for its readers (swizzled slabs: `vector.transpose` and
    `vector.shape_cast` to rows x cols):
    * cp: a loop of 16-byte chunks per thread, `nvgpu.device_async_copy`
      (`bypassL1`, the rows past the tensor's end zero-filled);
    * sync: the same loop with `vector.load`, `arith.select` and
      `vector.store`;
    * in a loop (a fold's blocks), where the chunks divide evenly among the
      threads, the loop has a constant number of steps (`attncc.unroll`),
      each chunk a fixed number of rows below the thread's previous one in
      the same column, so the CUDA compiler makes each address the first
      one plus a constant;
    * tma: the issuing thread (thread 0, or the WSPEC producer's) waits on
      the slot's "empty" mbarrier (`nvgpu.mbarrier.try_wait.parity`),
      announces the bytes (`nvgpu.mbarrier.arrive.expect_tx`) and issues one
      `nvgpu.tma.async.load` per 128-byte slab from a
      `!nvgpu.tensormap.descriptor` kernel argument, which each launch
      passes from `nvgpu.tma.create.descriptor` on the host.
    Ring slots and the TMA fill and wait counts are private counters
    (`memref.alloca : memref<i32>`, loaded and stored around each copy and
    wait). `monoid.tma_wait` becomes a `try_wait.parity` on "full";
    `monoid.tma_release` a `nvvm.bar.warp.sync` and an
    `nvgpu.mbarrier.arrive` on "empty" by lane 0, guarded by the `unless`
    blocks' slots; loops that carry TMA blocks carry their slots. Blocks
    never waited for are waited for before the issuing thread ends.
    In a kernel with a tile loop (`attncc.persistent`, GRID=persistent) a
    TMA ring is balanced per tile: a fold's first block is issued (and
    counted) only when the fold runs (lb < ub), its prefetch only when there
    is a next block (iv + step < ub), each in an `scf.if {attncc.ring_guard}`
    that yields the slot (0 when nothing is issued, never read); so every
    tile fills exactly the slots its fold waits for, and the next tile
    starts in step. (Without a tile loop the last prefetch is issued past
    the end and drained, as before.)
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect", "mlir::memref::MemRefDialect",
                           "mlir::nvgpu::NVGPUDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def LowerMma : Pass<"attncc-lower-mma", "ModuleOp"> {
  let summary = "Write each mma.sync contraction as the loops of its atoms: nvgpu.ldmatrix and nvgpu.mma.sync per thread";
  let description = [{
    After attncc-lower-copies. Each `vector.contract` on the mma.sync atom
    (`attncc.atom = "mma.m16n8k16"`) becomes loops over its k16 steps, row
    tiles and n8 tiles (`attncc.unroll`): the A and B fragments come from
    `nvgpu.ldmatrix` of the staged slot (x2 or x4, `transpose` for a [k x n]
    block) or from the thread's registers (`monoid.to_lanes`, P rounded per
    k step by `arith.truncf`), and each atom is an `nvgpu.mma.sync` on a
    `vector.load`/`vector.store` of the accumulators, a private
    `memref.alloca`. ACC=f16x accumulates into fp16 partials and adds them
    into fp32 (`arith.extf`, `arith.addf`) every acc_steps steps and after
    the last; REPACK=smem writes P into its slab first. The result tile is
    `monoid.from_lanes` of the accumulators.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect", "mlir::memref::MemRefDialect",
                           "mlir::nvgpu::NVGPUDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def AllocateTmem : Pass<"attncc-allocate-tmem", "ModuleOp"> {
  let summary = "Tensor memory for the tcgen05 products: their columns, and the alloc / dealloc of one warp";
  let description = [{
    After attncc-allocate-smem, for kernels with tcgen05 contractions
    (`attncc.atom = "tcgen05.m128nNk16"` or `"tcgen05.m64nNk16"`). Each product gets `attncc.tmem_col` (S's columns from 0 for every
    Q*K^T, O's after them for every P*V; P is written over S) and the kernel
    `attncc.tile.tmem`, the columns rounded up to a power of two (at least
    32, at most 512). Warp 0 allocates them at the top (`nvvm.tcgen05.alloc`
    into a 4-byte shared word, `relinquish_alloc_permit`), every thread reads
    the address after `tcgen05.fence` before / `gpu.barrier` / fence after,
    and warp 0 deallocates before the kernel returns. Thread 0 initializes
    an mbarrier beside the address (`attncc.mma_done`, one arrival) for the
    products' commits. With two Q tiles (8 row warps, `w8x1`) each Q tile
    has its own S and O columns (the second's after the first's:
    `attncc.tile.tmem_qtile`) and its own mbarriers, 16 bytes apart.
    With the mma warp: `mma_ready` (the row warps' arrivals); with a
    correction warpgroup also `corr_full`, `o_ready` and the row factors
    (`corr_scale`); with OVERLAP=early also `p_ready`, per Q tile.
    Kernels without tcgen05
    contractions are unchanged.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect"];
}

def LowerWgmma : Pass<"attncc-lower-wgmma", "ModuleOp"> {
  let summary = "Write each wgmma contraction as its atoms: descriptors, monoid.wgmma on an in-place accumulator, fences, commit and the warpgroup turns";
  let description = [{
    After attncc-lower-copies. Each `vector.contract` on a wgmma atom
    (`attncc.atom = "wgmma.m64nNk16"`) becomes, per thread: a private
    accumulator `memref.alloca : memref<1 x N/8 x 2 x 2 x f32>` written in
    place (set up by `vector.store` of its lanes), the A registers of every
    k step when A is in registers (`monoid.to_lanes`, P rounded by
    `arith.truncf`), the register fence `nvvm.inline_ptx "" rw(%acc)`,
    `nvvm.wgmma.fence.aligned`, a loop over the k16 steps (`attncc.unroll`)
    of `monoid.smem_descriptor` and `monoid.wgmma`, and
    `nvvm.wgmma.commit.group.sync.aligned`. The fence attncc-place-waits
    wrote after the product's wait then names the accumulator, and the
    result tile is `monoid.from_lanes` of its registers after it.
    OVERLAP=wg (`attncc.turn`): a run of turn products waits on named
    barrier 1 + warpgroup (`nvvm.barrier`, 256 threads) after the set-up
    of its first product and passes the turn on after the commit of its
    last (`nvvm.barrier.arrive`); the fold loop is bracketed by the first
    turn's arrive and the last one's wait.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect", "mlir::memref::MemRefDialect",
                           "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect", "mlir::vector::VectorDialect",
                           "mlir::monoid::MonoidDialect"];
}

def LowerTcgen05 : Pass<"attncc-lower-tcgen05", "ModuleOp"> {
  let summary = "Write each tcgen05 contraction as its ops: tensor-memory stores of the accumulator and of P, one thread's descriptors, MMAs and commit, the mbarrier wait, the tensor-memory load";
  let description = [{
    After attncc-lower-copies, for the contractions attncc-atomize put on
    tcgen05 (`attncc.atom = "tcgen05.m128nNk16"`, layout `rowthread`, or
    `"tcgen05.m64nNk16"`, layout `rowhalf`: the ISA's layout F puts rows
    [16w, 16w + 16) in the first 16 lanes of warp w's quarter, and the
    instruction descriptor says M = 64) and attncc-allocate-tmem gave columns. Per thread (warp w owns lanes
    [32(w % 4), +32) of tensor memory, in Q tile w / 4's columns when there
    are two; each Q tile's part of a product is its own issue block,
    committed to its own mbarrier): the accumulator's row, unless it is a
    zero splat, by `nvvm.tcgen05.st` (32x32b); for the tensor-memory-A form
    (P * V) P's row rounded to 16-bit pairs over S's columns; then
    `tcgen05.wait <store>`, `tcgen05.fence` before / `gpu.barrier` / after.
    Thread 0 issues a loop over the k16 steps (`attncc.unroll`) of
    `monoid.smem_descriptor {tcgen05}` and `nvvm.tcgen05.mma` (the
    instruction descriptor from `isa::encodeInstr`) and
    `nvvm.tcgen05.commit` on allocate-tmem's mbarrier; every thread waits on
    its phase (`nvvm.mbarrier.try_wait.parity`, a counter in a private
    alloca), fences, and loads its row back (`nvvm.tcgen05.ld` 32x32b,
    `tcgen05.wait <load>`, `monoid.from_lanes`). A fold's running O stays in
    tensor memory: a P*V product accumulating into `o * alpha` with `o` the
    loop's iter_arg rescales O in its columns (8 at a time) instead, the loop
    yields `o` unchanged, O's columns get the initial value before the loop
    and O is loaded once after it. With a lazy maximum (attncc-lazy-rescale)
    the rescale is skipped by a warp whose rows all kept theirs
    (`nvvm.vote.sync any` of factor != 1 around it). With a correction
    warpgroup (`attncc.tile.corr`) the rescale is a block of its own
    (`attncc.o_rescale`) and P*V's first issue blocks are marked
    `attncc.o_resident`, for attncc-corr-role. OVERLAP=early
    (`attncc.early_pv` on P*V, from attncc-partition): the product is issued
    in two parts along the keys, the k16 steps of P's last three quarters
    after those are stored and before the first quarter is, then the first
    quarter's (its barrier and issue blocks marked `attncc.early_part`),
    which commit.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect", "mlir::monoid::MonoidDialect"];
}

def LazyRescale : Pass<"attncc-lazy-rescale", "func::FuncOp"> {
  let summary = "RESCALE=lazy<t>: a fold keeps its running maximum until the new one is larger by more than t ln 2";
  let description = [{
    Reads the schedule the function carries (`attncc.schedule`). With
    `RESCALE=lazy<t>`, in every `scf.for` that carries a running maximum
    `%m` (yielding `max(%m, ...)`, as a `vector.multi_reduction <maximumf>`
    with `%m` as accumulator or an `arith.maximumf`) that twists another
    channel (a `math.exp(%m - m_safe(%m1))` reads it), the new maximum is
    replaced by `select(%m1 - %m > t ln 2, %m1, %m)` (`m_lazy`). Every
    weight stays at most 2^t, and where the maximum stays the correction is
    exactly 1, so a lowering may skip the rescale (attncc-lower-tcgen05
    skips the in-place rescale of O for a warp whose rows all kept theirs).
    The state is the same element of the carrier's monoid: only its
    reference point differs.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def DeferRowSum : Pass<"attncc-defer-rowsum", "func::FuncOp"> {
  let summary = "ROWSUM=end: a fold carries its row sum as the four lanes' partials and adds them once, after the fold";
  let description = [{
    Reads the schedule the function carries (`attncc.schedule`). With
    `ROWSUM=end`, in every block fold (an `scf.for` holding a
    `vector.contract`) whose row sum `%d : vector<M x f32>` starts at zero
    and is read only by its own update `vector.multi_reduction <add>, %p,
    (%d * %alpha) [1]`, the sum is carried as `vector<M x 4 x f32>`: each
    block adds `%p` cast to `[M, N/8, 4, 2]` over dims 1 and 3 (what each
    lane of the accumulator layout holds of a row) and rescales by
    `%alpha` spread over the four; after the loop one `<add>` reduction of
    the four gives the row sum. attncc-atomize lays the `[M x 4]` tile out
    as `quad`, so only that last reduction shuffles. The same element of the
    carrier's monoid, up to the order of the additions.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::vector::VectorDialect"];
}

def SkipRescale : Pass<"attncc-skip-rescale", "ModuleOp"> {
  let summary = "RESCALE=lazy<t>: a warp whose rows all kept their maxima skips the rescale of its register accumulator";
  let description = [{
    After attncc-atomize, in kernels whose accumulators are registers
    (`attncc.family` mma or wgmma; attncc-lower-tcgen05 does the same for O
    in tensor memory). In each `scf.for` that keeps its maximum lazily
    (attncc-lazy-rescale's select, marked `attncc.lazy`), every
    `arith.mulf %o, broadcast(%f)` of a tile in layout `c` by a per-row
    factor `%f` (layout `row`) goes under
    `scf.if (nvvm.vote.sync any (any of the thread's factors != 1))`, which
    yields `%o` unchanged otherwise. Where every row of a warp kept its
    maximum the factors are exactly 1 (exp2(0)), so both branches give the
    same value; the test is the warp's vote so that the branch is the same
    for every lane (mma.sync and wgmma are warp-wide). The thread's factors
    are `monoid.to_lanes` of `%f` (`vector<2 x fm>`), tested by
    `arith.cmpf une` and `vector.reduction <or>`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect", "::mlir::monoid::MonoidDialect"];
}

def Exp2 : Pass<"attncc-exp2", "func::FuncOp"> {
  let summary = "EXP=ex2: exp(x - y) becomes exp2(fma(x, log2 e, -y log2 e)) with fastmath<afn>";
  let description = [{
    Reads the schedule the function carries (`attncc.schedule`). With
    `EXP=ex2`, every `math.exp` becomes `math.exp2 fastmath<afn>` of its
    argument times log2 e; a difference `x - y` becomes one `math.fma`, and
    `y * log2 e` is taken before the broadcasts that spread `y` (once per row).
    When `x = s * c` with `c` a positive constant (the score scale) used only
    by that FMA and by row maxima, `c` folds into the FMA's constant and each
    row maximum becomes `max(m, c * max(s))`: no per-element multiply.
    The emitter writes `ex2.approx.ftz.f32` for an `afn` exp2.
  }];
}

def ExpPoly : Pass<"attncc-exp-poly", "func::FuncOp"> {
  let summary = "EXP=poly<k>: one 8-column group in four of the block weights takes a degree-k FMA polynomial exp2";
  let description = [{
    Reads the schedule the function carries (`attncc.schedule`). With
    `EXP=poly<k>` (attncc-exp2 has treated it as ex2), every `math.exp2` of
    a [rows x block] f32 tile with the block a multiple of 32 becomes
    `select(c mod 32 >= 24, p, exp2(a))` with `c` the column: `p` is the
    software exp2 (`floor`, a degree-k polynomial through 2^f at the
    Chebyshev-Lobatto nodes of [0, 1] in k `math.fma`, the integer part added to the
    exponent bits; 0 below -126), so a quarter of the weights run on the FMA
    pipe instead of the MUFU unit (FlashAttention-4's split). The choice is
    by 8-column groups: the same for every thread of a warp in every layout.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect", "mlir::vector::VectorDialect"];
}

def Overlap : Pass<"attncc-overlap", "func::FuncOp"> {
  let summary = "OVERLAP=pv: rotate each fold's P*V contraction one iteration later; OVERLAP=wg: mark the fold's products to be issued in warpgroup turns";
  let description = [{
    Reads the schedule the function carries (`attncc.schedule`). With
    `OVERLAP=pv`, the block combine's P*V contraction of block j is issued in
    iteration j+1, right after that block's Q*K, and the last one after the
    loop; the loop carries P and the V block (a ring iter_arg, so the ring
    needs three buffers: STAGE@kv=d3/.../ring). With wgmma, the emitter waits
    for each product at its first use, so the softmax of block j+1 runs while
    the tensor cores finish P*V of block j. With `OVERLAP=wg` (or `pv+wg`)
    every contraction of a fold body is marked `attncc.turn`; the emitter
    makes the CTA's warpgroups take turns issuing each run of adjacent marked
    contractions, so one warpgroup's softmax runs under another's products
    (needs a wgmma TILE of two or more warpgroups and TMA staging).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect"];
}

def StreamReduce : Pass<"attncc-stream-reduce", "func::FuncOp"> {
  let summary = "Move 1: stream the reduce axis through scf.for with the state in iter_args";
  let description = [{
    Replaces each `monoid.reduce` by a loop that carries the carrier state in
    `iter_args`, folding one lifted element at a time with `monoid.combine`
    (starting from `monoid.identity`). With `TILE@<axis>` the axis is tiled by
    its block B (see schedule/Geometry.h): an outer loop over blocks and
    an inner loop of exactly B steps whose out-of-range elements are the
    carrier identity (never read). `monoid.project` is untouched: the divide
    stays deferred until after the loop.

    ```mlir
    %m, %d = monoid.reduce "kv" %c0 to %n carrier #c : f32, f32 { lift(j) }
    ```
    becomes (no TILE)
    ```mlir
    %im, %id = monoid.identity #c : f32, f32
    %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%m0 = %im, %d0 = %id) -> (f32, f32) {
      lift(j) -> %em, %ed
      %nm, %nd = monoid.combine #c (%m0, %d0), (%em, %ed) : f32, f32
      scf.yield %nm, %nd : f32, f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def ExpandCarrier : Pass<"attncc-expand-carrier", "func::FuncOp"> {
  let summary = "Spell the carrier algebra out in arith/math (the twisted update)";
  let description = [{
    `monoid.identity` becomes constants (-inf / 0), `monoid.combine` becomes the
    rescale-and-add of ir/Carrier.h (new max, weights w = exp(m_old - m_new)
    with w(-inf) = 0, channel updates), and `monoid.project` is inlined.
    Runs after stream-reduce / split-reduce; `monoid.reduce` must be gone.

    ```mlir
    %nm, %nd = monoid.combine #c (%m, %d), (%s, %one) : f32, f32
    ```
    becomes
    ```mlir
    %nm = arith.maximumf %m, %s : f32
    %wa = <w(%m)>  %wb = <w(%s)>
    %nd = arith.addf (arith.mulf %d, %wa), (arith.mulf %one, %wb) : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def LowerContract : Pass<"attncc-lower-contract", "func::FuncOp"> {
  let summary = "Lower monoid.contract to vector arithmetic (the scalar, CPU form)";
  let description = [{
    `monoid.contract %a, %b` becomes widen, multiply, and an in-order
    `vector.reduction <add>`. This is the non-tensor-core realization used to
    execute loop-level IR on the CPU; `atomize` replaces it on the GPU.

    ```mlir
    %s = monoid.contract %a, %b : vector<64xf16>, vector<64xf16> -> f32
    ```
    becomes
    ```mlir
    %af = arith.extf %a : vector<64xf16> to vector<64xf32>
    %bf = arith.extf %b : vector<64xf16> to vector<64xf32>
    %p = arith.mulf %af, %bf : vector<64xf32>
    %s = vector.reduction <add>, %p : vector<64xf32> into f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect"];
}

def MapToGpu : Pass<"attncc-map-to-gpu", "func::FuncOp"> {
  let summary = "Partition (scalar rung): each free-axis map becomes a gpu.launch, one thread a point";
  let description = [{
    Every top-level `scf.parallel` (a free-axis map: batch, head, query row,
    and the key axis of cut-fold's stage 1 or split-reduce's part axis)
    becomes a `gpu.launch` of ceil(points / threads) CTAs of `threads`
    threads. Each thread takes one point of the map, delinearized from
    `blockIdx.x * threads + threadIdx.x` (last axis fastest), and runs the
    map's body: the streamed fold stays a loop per thread. The launch names
    its kernel after the function and the map's location name (cut-fold and
    split-reduce name their maps "scores", "fold", "parts", "combine").
    `gpu-kernel-outlining` then turns each launch into a `gpu.func`.

    ```mlir
    scf.parallel (%h, %i) = (%c0, %c0) to (%c4, %c128) step (%c1, %c1) { body }
    ```
    becomes
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, ...) threads(%tx, %ty, %tz) in (%c128, ...) {
      %id = arith.addi (arith.muli %bx, %c128), %tx
      scf.if (arith.cmpi ult, %id, %c512) { %i = remui %id, 128; %h = divui %id, 128; body }
      gpu.terminator
    }
    ```
    A tiled map (`attncc.cta` from attncc-partition) runs a CTA a tile:
    `ctas = points`, the tile is `blockIdx.x`. With `persistent` in
    `attncc.cta` (GRID=persistent) the launch still counts the tiles, but
    each CTA runs one tile in each round of G = gridDim.x tiles, in a
    boustrophedon (round k: tile k G + c when k is even, k G + G - 1 - c
    when it is odd, c = blockIdx.x; the trip count counts the partial last
    round when this CTA's tile there exists),
    ```mlir
    scf.for %tile_round = %c0 to %trips step %c1 {
      %tile_id = %tile_round * G + (%tile_round odd ? G - 1 - %bx : %bx); delinearize %tile_id; body
    } {attncc.tile_loop}
    ```
    and the kernel is recorded as `attncc.persistent`: the launch contract
    marks it, and the runner launches at most the CTAs the device holds at
    once. Any grid size computes every tile once. Later passes put what a
    kernel sets up once (shared and tensor memory, mbarriers, counters,
    warp roles) at the kernel's top, outside the loop.

    attncc-last-combine's arrival (`memref.atomic_rmw` marked
    `attncc.arrival`, tested by an `scf.if`) and the map nested in that
    `scf.if` are lowered with the map they are in. A point a thread: a
    gpu-scope fence (`nvvm.memory.barrier`) before the count and one after
    the test; the nested map runs in order. A CTA a point: every thread
    fences, `gpu.barrier`, thread 0 counts and tests, `nvvm.barrier` with an
    OR reduction gives every thread the test, the last CTA fences and thread 0
    resets the counter; the nested map's points run over the CTA's threads
    (point tid + k T in an unrolled loop of ceil(points / T) rounds when the
    count is known), in a loop marked `attncc.per_thread` whose vectors are a
    thread's own.

    Pre: the maps have zero lower bounds and unit steps; monoid ops are gone
    (expand-carrier and lower-contract have run).
  }];
  let options = [Option<"threads", "threads", "int64_t", "128", "threads per CTA">];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::NVVM::NVVMDialect"];
}

def MmaRole : Pass<"attncc-mma-role", "ModuleOp"> {
  let summary = "WSPEC=load1/mma1 with tcgen05: the products are issued by an mma warp; the row warps arrive on an mbarrier when the operands are ready";
  let description = [{
    After attncc-lower-tcgen05, in a kernel whose `attncc.tile` has `mma = 1`
    (FlashAttention-4's mma role). The row warps' barrier before each product
    (`attncc.issue_sync`) becomes `nvvm.mbarrier.arrive` on allocate-tmem's
    `mma_ready` mbarrier (after `tcgen05.fence <before>`), their issue blocks
    (`attncc.issue`) and their TMA waits for K and V go, and a new region of
    the producer branch, `scf.if %warp == W + 1` (`attncc.mma_role`), runs
    the row warps' loops with only what the products need: the iter_args of
    the slot views, the ring counters, the TMA waits on the full barriers,
    and per product a wait on `mma_ready` (its parity from a private
    counter), `tcgen05.fence <after>` and lane 0's descriptors, MMAs and
    commit. The row warps still wait on `mma_done` after each product, so
    the two roles go one product at a time. With two Q tiles each
    warpgroup arrives on its own `mma_ready`, and the mma warp waits on
    tile g's before it issues tile g's part (`attncc.qtile`), so one
    warpgroup's softmax runs while the other tile's product is computed.
    The second part of an OVERLAP=early product (`attncc.early_part`) goes
    through allocate-tmem's `p_ready` mbarrier instead, with a count of its
    own, so that the row warps' two arrivals in a row cannot run a phase
    ahead of the mma warp. Refused: a product or a TMA
    wait inside a branch of the row warps.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect"];
}

def CorrRole : Pass<"attncc-corr-role", "ModuleOp"> {
  let summary = "WSPEC=load1/mma1/corr4 with tcgen05: a correction warpgroup rescales O in tensor memory; the row warps publish their row factors";
  let description = [{
    After attncc-lower-tcgen05 and before attncc-mma-role, in a kernel whose
    `attncc.tile` has `corr = 4` (FlashAttention-4's correction role). Each
    rescale of a fold's O in tensor memory (the `scf.if` marked
    `attncc.o_rescale`) leaves the row warps: they store their row factor
    into allocate-tmem's `corr_scale` (thread t: element t), fence and
    arrive on their Q tile's `corr_full` mbarrier, and go on to the
    exponentials. A new region of the producer branch,
    `scf.if %warp >= W + 4` (`attncc.corr_role`), runs the row warps' loops
    with only what their bounds need, and per rescale and Q tile waits on
    `corr_full` (its parity from a private counter), loads the factors of
    its lane quarter's rows (warp % 4), rescales O's columns as the block
    did (with RESCALE=lazy<t> behind its own warp vote), waits for the
    stores, fences and arrives on the tile's `o_ready`. Every issue block
    of a P*V product that accumulates into that O (`attncc.o_resident`)
    first waits on its tile's `o_ready`, so after attncc-mma-role the mma
    warp issues P*V only once O is rescaled. Refused: no mma warp, no
    rescale block, a rescale inside a branch of the row warps.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def Canonicalize : Pass<"attncc-canonicalize"> {
  let summary = "MLIR's canonicalizer, keeping the streaming folds and every free-axis map (even of one point)";
  let description = [{
    Every loaded dialect's and registered op's canonicalization patterns,
    top-down, as `-canonicalize` applies them, except SCF's
    `SimplifyTrivialLoops` (a fold's `scf.for` that runs once stays, so every
    length sees the same structure) and `ParallelOpSingleOrZeroIterationDimsFolder`,
    replaced by a pattern that drops the axes of an `scf.parallel` that run
    once but keeps the last axis of a map of one point (MLIR's inlined it,
    and attncc-map-to-gpu then had no map to launch). The map's discardable
    attributes are kept.
  }];
}

def KernelAttrs : Pass<"attncc-kernel-attrs", "ModuleOp"> {
  let summary = "After kernel outlining, each kernel gets the nvvm.* attributes its map asked for";
  let description = [{
    `gpu-kernel-outlining` does not keep a `gpu.launch`'s attributes, so
    attncc-map-to-gpu records a map's `nvvm.*` attributes on the host function
    as `attncc.kernel_attrs = {<kernel> = {...}}`. This pass, right after
    outlining, sets them on `gpu.func @<kernel>` and removes the record. Today
    the only such attribute is `nvvm.minctasm = 1` of a split's combine
    (attncc-prefetch-parts), which the CUDA emitter prints in
    `__launch_bounds__`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ChainLaunch : Pass<"attncc-chain-launch", "ModuleOp"> {
  let summary = "LAUNCH=pdl: a schedule's kernels chained by programmatic dependent launch";
  let description = [{
    After kernel outlining, for a host function whose schedule says
    LAUNCH=pdl: every kernel but the last starts with
    `nvvm.griddepcontrol launch_dependents`, every kernel but the first
    starts with `nvvm.griddepcontrol wait` (before anything else), and the
    launch of every kernel but the first is marked `attncc.programmatic`,
    which the launch contract hands to the runtime (cuLaunchKernelEx with
    programmatic stream serialization). The launch gap and the successor's
    start overlap the predecessor's last wave; the successor's reads still
    follow the predecessor's writes. sm_90 and newer.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect"];
}

#endif // ATTNCC_PASSES
