// RUN: attncc-opt %s -split-input-file -attncc-partition -verify-diagnostics

// The refusals of attncc-partition that partition.mlir does not cover. Each
// case is a map over 100 rows whose reduce has a tensor-core TILE (64-row
// tiles, 64-key blocks), so the pass tiles it, with one thing in it that the
// pass does not build.

// A load at row i + 1: the index depends on the row but is not the row, so
// it is no tile access (a tile read starts at row0 and covers 64 rows).

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @shifted_row(%x: memref<101x100xf32>, %y: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %i1 = arith.addi %i, %c1 : index
    %r = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      // expected-error@+1 {{'memref.load' op attncc-partition: index 0 depends on the tiled row or element index but is not that index}}
      %e = memref.load %x[%i1, %kv] : memref<101x100xf32>
      monoid.yield %e : f32
    }
    memref.store %r, %y[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// A store in the lift at the element index: the lift becomes the body of
// the loop over 64-key blocks, and partition builds no writes there.

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @store_in_fold(%x: memref<100xf32>, %z: memref<100xf32>, %y: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %r = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      %e = memref.load %x[%kv] : memref<100xf32>
      // expected-error@+1 {{'memref.store' op attncc-partition: a store inside the fold is not supported}}
      memref.store %e, %z[%kv] : memref<100xf32>
      monoid.yield %e : f32
    }
    memref.store %r, %y[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// Every row's result stored to the same y[0]: the row tile's 64 values have
// no single place to go.

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @row_value_one_place(%x: memref<100xf32>, %y: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %r = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      %e = memref.load %x[%kv] : memref<100xf32>
      monoid.yield %e : f32
    }
    // expected-error@+1 {{'memref.store' op attncc-partition: a per-row value stored at a row-independent index}}
    memref.store %r, %y[%c0] : memref<1xf32>
    scf.reduce
  }
  return
}

// -----

// K_j . K_j: both operands are per-element vectors, so the contraction is no
// (row tile) x (key block) score tile.

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @contract_key_key(%k: memref<100x64xf16>, %y: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %r = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      %k_j = vector.load %k[%kv, %c0] : memref<100x64xf16>, vector<64xf16>
      // expected-error@+1 {{'monoid.contract' op attncc-partition: the contraction must pair a per-row vector with a per-element vector}}
      %kk = monoid.contract %k_j, %k_j : vector<64xf16>, vector<64xf16> -> f32
      monoid.yield %kk : f32
    }
    memref.store %r, %y[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// A broadcast of a per-element vector (vector<4xf32> to vector<2x4xf32>):
// only a scalar source gets the block dimension prepended.

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @vector_broadcast(%x: memref<100x4xf32>, %y: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %r = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      %x_j = vector.load %x[%kv, %c0] : memref<100x4xf32>, vector<4xf32>
      // expected-error@+1 {{'vector.broadcast' op attncc-partition: only scalar broadcasts can be vectorized}}
      %b = vector.broadcast %x_j : vector<4xf32> to vector<2x4xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %one : f32
    }
    memref.store %r, %y[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// vector.reduction is neither a load, store, contraction, broadcast nor an
// elementwise arith/math op: the vectorizer has no rule for it.

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @no_rule(%x: memref<100x4xf32>, %y: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %r = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      %x_j = vector.load %x[%kv, %c0] : memref<100x4xf32>, vector<4xf32>
      // expected-error@+1 {{'vector.reduction' op attncc-partition cannot vectorize this op over the row tile}}
      %e = vector.reduction <add>, %x_j : vector<4xf32> into f32
      monoid.yield %e : f32
    }
    memref.store %r, %y[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// The map itself reduces (init and scf.reduce with a body): its points are
// not independent tiles.

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @map_with_reduction(%x: memref<100xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{'scf.parallel' op attncc-partition cannot tile a map with reductions}}
  %t = scf.parallel (%i) = (%c0) to (%c100) step (%c1) init (%zero) -> f32 {
    %r = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      %e = memref.load %x[%kv] : memref<100xf32>
      monoid.yield %e : f32
    }
    scf.reduce(%r : f32) {
    ^bb0(%a: f32, %b: f32):
      %sum = arith.addf %a, %b : f32
      scf.reduce.return %sum : f32
    }
  }
  return %t : f32
}

// -----

// Two reduces in one map: the map becomes one loop over key blocks, so it
// can hold one fold.

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @two_reduces(%x: memref<100xf32>, %y: memref<100xf32>, %z: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %r = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      %e = memref.load %x[%kv] : memref<100xf32>
      monoid.yield %e : f32
    }
    // expected-error@+1 {{'monoid.reduce' op attncc-partition: one reduce per tiled map}}
    %r2 = monoid.reduce "kv" %c0 to %c100 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      %e = memref.load %x[%kv] : memref<100xf32>
      monoid.yield %e : f32
    }
    memref.store %r, %y[%i] : memref<100xf32>
    memref.store %r2, %z[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// 100 keys in blocks of 64: the tail block is masked, each element padded
// with the channel's identity. An untwisted add channel that is a vector
// (vector<4xf32> per key) is one the padding does not build. (With whole
// blocks, 0 to 128, no padding is needed and the block fold refuses the
// channel instead: "untwisted vector channel".)

#o = #monoid.carrier<o: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @pad_vector_channel(%x: memref<100x4xf32>, %y: memref<100x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    // expected-error@+1 {{'monoid.reduce' op attncc-partition: cannot pad a vector channel}}
    %r = monoid.reduce "kv" %c0 to %c100 carrier #o schedule #tc : vector<4xf32> {
    ^bb0(%kv: index):
      %x_j = vector.load %x[%kv, %c0] : memref<100x4xf32>, vector<4xf32>
      monoid.yield %x_j : vector<4xf32>
    }
    vector.store %r, %y[%i, %c0] : memref<100x4xf32>, vector<4xf32>
    scf.reduce
  }
  return
}

// -----

// A paged cache's page lookup (j / P, j mod P marked attncc.page) with a
// page of 32 keys and blocks of 64: a block would span two pages.

#s = #monoid.carrier<s: add(0)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @page_smaller_than_block(%x: memref<?x100xf32>, %t: memref<100x4xi32>, %y: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %r = monoid.reduce "kv" %c0 to %c128 carrier #s schedule #tc : f32 {
    ^bb0(%kv: index):
      // expected-error@+1 {{'arith.divui' op attncc-partition: a block of 64 elements must lie in one page of 32 (a paged cache): the TILE's block must divide the page size}}
      %slot = arith.divui %kv, %c32 {attncc.page} : index
      %row = arith.remui %kv, %c32 {attncc.page} : index
      %e = memref.load %t[%i, %slot] : memref<100x4xi32>
      %p = arith.index_castui %e : i32 to index
      %v = memref.load %x[%p, %row] : memref<?x100xf32>
      monoid.yield %v : f32
    }
    memref.store %r, %y[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// A row guard whose bound is not the extent of the view a guarded access
// indexes by the row: dropping it would let the tile store rows the guard
// kept out.

#md3 = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tc3 = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x2/k1">

func.func @guard_not_view(%x: memref<100x96xf16>, %y: memref<100xf32>, %len: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    %in = arith.cmpi slt, %i, %len : index
    scf.if %in {
      %m, %d = monoid.reduce "kv" %c0 to %c96 carrier #md3 schedule #tc3 : f32, f32 {
      ^bb0(%kv: index):
        // expected-error@+1 {{'memref.load' op attncc-partition: a row guard's bound must be the extent along the row of the view every guarded access indexes by the row}}
        %e = memref.load %x[%i, %kv] : memref<100x96xf16>
        %f = arith.extf %e : f16 to f32
        %one = arith.constant 1.0 : f32
        monoid.yield %f, %one : f32, f32
      }
      memref.store %m, %y[%i] : memref<100xf32>
    } {attncc.row_guard}
    scf.reduce
  }
  return
}
