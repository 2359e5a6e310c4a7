// RUN: attncc-opt %s -split-input-file -attncc-stage -verify-diagnostics | FileCheck %s

// The partitioned fold of attention (attncc compile --ir loop, TILE only),
// with STAGE@kv=d1/cp/pad: the K and V blocks, the right-hand operands of the
// two contractions, are marked and issued at the top of the loop body, K
// first, so V's copy is in flight while S = Q K^T and the softmax run. The
// Q tile (a left-hand operand, hoisted) is not staged.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#cp_pad = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/cp/pad">

// CHECK-LABEL: func.func @cp_pad
// CHECK-SAME: (%[[Q:[^:]+]]: memref<100x64xf16>, %[[K:[^:]+]]: memref<100x64xf16>, %[[V:[^:]+]]: memref<100x64xf16>
// CHECK:       %[[QT:.+]] = vector.transfer_read %[[Q]][%{{.+}}, %{{.+}}], %{{[^ ]+}} {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
// CHECK:       scf.for %[[KV0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[M:[^ ]+]] = %{{.+}}, %[[O:[^ ]+]] = %{{.+}}) -> (vector<64xf32>, vector<64x64xf32>) {
// CHECK-NEXT:    %[[KT:.+]] = vector.transfer_read %[[K]][%[[KV0]], %{{.+}}], %{{.+}} {attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
// CHECK-NEXT:    %[[VT:.+]] = vector.transfer_read %[[V]][%[[KV0]], %{{.+}}], %{{.+}} {attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
// CHECK-NEXT:    %[[S:.+]] = vector.contract {{.+}} %[[QT]], %[[KT]], %{{.+}}
// CHECK-NOT:     vector.transfer_read
// CHECK:         vector.multi_reduction <maximumf>, %{{.+}}, %[[M]] [1]
// CHECK:         %[[P16:.+]] = arith.truncf
// CHECK-NEXT:    vector.contract {{.+}} %[[P16]], %[[VT]], %{{.+}}
// CHECK-NEXT:    scf.yield
func.func @cp_pad(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #cp_pad} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %fold:2 = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%m = %ninf, %acc = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %qk, %m [1] : vector<64x64xf32> to vector<64xf32>
    %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
    %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
    %sub = arith.subf %qk, %mb : vector<64x64xf32>
    %p = math.exp %sub : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %m1, %o1 : vector<64xf32>, vector<64x64xf32>
  }
  vector.transfer_write %fold#1, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}

// -----

// STAGE@kv=d1/sync, dense: the mark is "sync". A read whose index is
// computed in the body moves only up to just after that computation (which
// itself stays where it is).

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#sync = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/sync">

// CHECK-LABEL: func.func @sync
// CHECK:       scf.for %[[KV0:[^ ]+]] =
// CHECK-NEXT:    %[[KT:.+]] = vector.transfer_read %{{.+}}[%[[KV0]], %{{.+}}], %{{.+}} {attncc.stage = #monoid.staged<sync>, in_bounds = [false, true]}
// CHECK-NEXT:    %[[VROW:.+]] = arith.addi %[[KV0]], %{{.+}} : index
// CHECK-NEXT:    %[[VT:.+]] = vector.transfer_read %{{.+}}[%[[VROW]], %{{.+}}], %{{.+}} {attncc.stage = #monoid.staged<sync>, in_bounds = [false, true]}
// CHECK-NEXT:    vector.contract {{.+}} %{{.+}}, %[[KT]], %{{.+}}
// CHECK:         vector.contract {{.+}} %{{.+}}, %[[VT]], %{{.+}}
func.func @sync(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %v: memref<200x64xf16>) -> vector<64x64xf32> attributes {attncc.schedule = #sync} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %r = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %vrow = arith.addi %kv0, %c100 : index
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %p16 = arith.truncf %qk : vector<64x64xf32> to vector<64x64xf16>
    %v_j = vector.transfer_read %v[%vrow, %c0], %pad {in_bounds = [false, true]} : memref<200x64xf16>, vector<64x64xf16>
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %o1 : vector<64x64xf32>
  }
  return %r : vector<64x64xf32>
}

// -----

// No STAGE knob: nothing is marked or moved.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#tile = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

// CHECK-LABEL: func.func @unstaged
// CHECK-NOT:   attncc.stage
// CHECK:       scf.for
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    vector.transfer_read
// CHECK-NOT:   attncc.stage
// CHECK:       return
func.func @unstaged(%q: memref<100x64xf16>, %k: memref<200x64xf16>) -> vector<64x64xf32> attributes {attncc.schedule = #tile} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %r = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    %row = arith.addi %kv0, %c64 : index
    %k_j = vector.transfer_read %k[%row, %c0], %pad {in_bounds = [false, true]} : memref<200x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %qk : vector<64x64xf32>
  }
  return %r : vector<64x64xf32>
}

// -----

// A block whose rows are not whole 16-byte chunks (4 halves = 8 bytes).

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#cp = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/cp">

func.func @narrow(%q: memref<100x4xf16>, %k: memref<100x4xf16>) -> vector<64x64xf32> attributes {attncc.schedule = #cp} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x4xf16>, vector<64x4xf16>
  %r = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    // expected-error@+1 {{'vector.transfer_read' op attncc-stage: a staged block needs rows of whole 16-byte chunks along the buffer's last dimension; this read has 'vector<64x4xf16>'}}
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x4xf16>, vector<64x4xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %acc : vector<64x4xf16>, vector<64x4xf16> into vector<64x64xf32>
    scf.yield %qk : vector<64x64xf32>
  }
  return %r : vector<64x64xf32>
}

// -----

// A swizzled block whose rows are not whole 128-byte slabs (32 halves = 64
// bytes): the pass's precondition, for IR that did not come through the CLI's
// legality check (which refuses the schedule for head dim 32 first).

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#tma = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/tma">

func.func @half_slab(%q: memref<100x32xf16>, %k: memref<100x32xf16>) -> vector<64x64xf32> attributes {attncc.schedule = #tma} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x32xf16>, vector<64x32xf16>
  %r = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    // expected-error@+1 {{'vector.transfer_read' op attncc-stage: a staged block needs rows of whole 128-byte slabs (swz128) along the buffer's last dimension; this read has 'vector<64x32xf16>'}}
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x32xf16>, vector<64x32xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %acc : vector<64x32xf16>, vector<64x32xf16> into vector<64x64xf32>
    scf.yield %qk : vector<64x64xf32>
  }
  return %r : vector<64x64xf32>
}

// -----

// STAGE@kv=d2/tma/ring/swz128 (a wgmma TILE): the ring is built as with cp,
// and the reads are marked "tma.swz" (one thread copies each block with TMA;
// the emitter adds the mbarriers).

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#tma_ring = #monoid.schedule<"TILE@kv=a:wgmma_m64n64k16_f16/w4x1/f1x1/k4,STAGE@kv=d2/tma/ring/swz128">

// CHECK-LABEL: func.func @tma_ring
// CHECK-SAME: (%[[Q:[^:]+]]: memref<100x64xf16>, %[[K:[^:]+]]: memref<100x64xf16>, %[[V:[^:]+]]: memref<100x64xf16>
// CHECK:       vector.transfer_read %[[K]]{{.+}}attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.stage = #monoid.staged<tma, swz>
// CHECK:       vector.transfer_read %[[V]]{{.+}}attncc.ring = 1 : i64, attncc.ring_slots = 2 : i64, attncc.stage = #monoid.staged<tma, swz>
// CHECK:       scf.for
// CHECK:         vector.transfer_read %[[K]]{{.+}}attncc.stage = #monoid.staged<tma, swz>
// CHECK:         vector.transfer_read %[[V]]{{.+}}attncc.stage = #monoid.staged<tma, swz>
func.func @tma_ring(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #tma_ring} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %fold:2 = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%m = %ninf, %acc = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %qk, %m [1] : vector<64x64xf32> to vector<64xf32>
    %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
    %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
    %sub = arith.subf %qk, %mb : vector<64x64xf32>
    %p = math.exp %sub : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %m1, %o1 : vector<64xf32>, vector<64x64xf32>
  }
  vector.transfer_write %fold#1, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}


// -----

// A cp.async ring over a length of whole blocks (256 keys, 64-key blocks from
// 0): the prefetch after the last block reads the last block again,
// min(kv0 + 64, 192), one min shared by K and V, so both reads are in bounds
// (the copies need no per-row test).

// CHECK-LABEL: func.func @ring_whole_blocks
// CHECK-SAME: (%{{[^:]+}}: memref<256x64xf16>, %[[K:[^:]+]]: memref<256x64xf16>, %[[V:[^:]+]]: memref<256x64xf16>
// CHECK:       scf.for %[[KV0:[^ ]+]] =
// CHECK:         %[[NEXT:.+]] = arith.addi %[[KV0]], %{{.+}} : index
// CHECK-NEXT:    %[[LAST:.+]] = arith.constant 192 : index
// CHECK-NEXT:    %[[AT:.+]] = arith.minui %[[NEXT]], %[[LAST]] : index
// CHECK-NEXT:    vector.transfer_read %[[K]][%[[AT]], %{{.+}}]{{.+}}in_bounds = [true, true]
// CHECK-NEXT:    vector.transfer_read %[[V]][%[[AT]], %{{.+}}]{{.+}}in_bounds = [true, true]
// CHECK-NOT:     arith.minui
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#ring_whole_blocks = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d2/cp/ring">

func.func @ring_whole_blocks(%q: memref<256x64xf16>, %k: memref<256x64xf16>, %v: memref<256x64xf16>, %o: memref<256x64xf32>) attributes {attncc.schedule = #ring_whole_blocks} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cn = arith.constant 256 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<256x64xf16>, vector<64x64xf16>
  %fold:2 = scf.for %kv0 = %c0 to %cn step %c64 iter_args(%m = %ninf, %acc = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<256x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %qk, %m [1] : vector<64x64xf32> to vector<64xf32>
    %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
    %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
    %sub = arith.subf %qk, %mb : vector<64x64xf32>
    %p = math.exp %sub : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<256x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %m1, %o1 : vector<64xf32>, vector<64x64xf32>
  }
  vector.transfer_write %fold#1, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<256x64xf32>
  return
}

// -----

// The same ring over 200 keys: the last block is partial, so its rows need
// the per-row test anyway; the prefetch keeps kv0 + 64, not in bounds.

// CHECK-LABEL: func.func @ring_partial_block
// CHECK-NOT:   arith.minui
// CHECK:       scf.for %[[KV0:[^ ]+]] =
// CHECK:         %[[NEXT:.+]] = arith.addi %[[KV0]], %{{.+}} : index
// CHECK-NEXT:    vector.transfer_read %{{.+}}[%[[NEXT]], %{{.+}}]{{.+}}in_bounds = [false, true]
// CHECK-NOT:     arith.minui
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#ring_partial_block = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d2/cp/ring">

func.func @ring_partial_block(%q: memref<200x64xf16>, %k: memref<200x64xf16>, %v: memref<200x64xf16>, %o: memref<200x64xf32>) attributes {attncc.schedule = #ring_partial_block} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cn = arith.constant 200 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<200x64xf16>, vector<64x64xf16>
  %fold:2 = scf.for %kv0 = %c0 to %cn step %c64 iter_args(%m = %ninf, %acc = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<200x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %qk, %m [1] : vector<64x64xf32> to vector<64xf32>
    %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
    %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
    %sub = arith.subf %qk, %mb : vector<64x64xf32>
    %p = math.exp %sub : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<200x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %m1, %o1 : vector<64xf32>, vector<64x64xf32>
  }
  vector.transfer_write %fold#1, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<200x64xf32>
  return
}

// -----

// A TMA ring over whole blocks: TMA tests each box's bounds itself, so
// the prefetch keeps kv0 + 64.

// CHECK-LABEL: func.func @tma_ring_whole_blocks
// CHECK-NOT:   arith.minui
// CHECK:       scf.for %[[KV0:[^ ]+]] =
// CHECK:         %[[NEXT:.+]] = arith.addi %[[KV0]], %{{.+}} : index
// CHECK-NEXT:    vector.transfer_read %{{.+}}[%[[NEXT]], %{{.+}}]{{.+}}staged<tma, swz>, in_bounds = [false, true]
// CHECK-NOT:     arith.minui
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#tma_ring_whole_blocks = #monoid.schedule<"TILE@kv=a:wgmma_m64n64k16_f16/w4x1/f1x1/k4,STAGE@kv=d2/tma/ring/swz128">

func.func @tma_ring_whole_blocks(%q: memref<256x64xf16>, %k: memref<256x64xf16>, %v: memref<256x64xf16>, %o: memref<256x64xf32>) attributes {attncc.schedule = #tma_ring_whole_blocks} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %cn = arith.constant 256 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<256x64xf16>, vector<64x64xf16>
  %fold:2 = scf.for %kv0 = %c0 to %cn step %c64 iter_args(%m = %ninf, %acc = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<256x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %qk, %m [1] : vector<64x64xf32> to vector<64xf32>
    %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
    %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
    %sub = arith.subf %qk, %mb : vector<64x64xf32>
    %p = math.exp %sub : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<256x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %m1, %o1 : vector<64xf32>, vector<64x64xf32>
  }
  vector.transfer_write %fold#1, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<256x64xf32>
  return
}

// -----

// A ring whose block is read at indices the body computes from the loop
// index (a paged cache: the page from a table, the row in the page): the
// computation is cloned with the lower bound before the loop and with
// kv0 + step for the prefetch, the table load included.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#ring = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d2/cp/ring">

// CHECK-LABEL: func.func @ring_computed_index
// CHECK-SAME: (%[[Q:[^:]+]]: memref<100x64xf16>, %[[K:[^:]+]]: memref<?x128x64xf16>, %[[T:[^:]+]]: memref<4xi32>
// CHECK:       %[[S0:.+]] = arith.divui %[[C0:.+]], %[[C128:.+]] : index
// CHECK-NEXT:  %[[E0:.+]] = memref.load %[[T]][%[[S0]]] : memref<4xi32>
// CHECK-NEXT:  %[[P0:.+]] = arith.index_castui %[[E0]] : i32 to index
// CHECK-NEXT:  %[[R0:.+]] = arith.remui %[[C0]], %[[C128]] : index
// CHECK-NEXT:  %[[K0:.+]] = vector.transfer_read %[[K]][%[[P0]], %[[R0]], %{{.+}}]{{.*}}attncc.ring = 0
// CHECK:       scf.for %[[KV0:.+]] = %[[C0]] to %{{.+}} step %[[STEP:[^ ]+]] iter_args({{.*}}, %[[KJ:[^ ]+]] = %[[K0]])
// CHECK-NEXT:    %[[NEXT:.+]] = arith.addi %[[KV0]], %[[STEP]] : index
// CHECK-NEXT:    %[[S1:.+]] = arith.divui %[[NEXT]], %[[C128]] : index
// CHECK-NEXT:    %[[E1:.+]] = memref.load %[[T]][%[[S1]]] : memref<4xi32>
// CHECK-NEXT:    %[[P1:.+]] = arith.index_castui %[[E1]] : i32 to index
// CHECK-NEXT:    %[[R1:.+]] = arith.remui %[[NEXT]], %[[C128]] : index
// CHECK-NEXT:    %[[K1:.+]] = vector.transfer_read %[[K]][%[[P1]], %[[R1]], %{{.+}}]{{.*}}attncc.ring = 0
// CHECK:         vector.contract {{.*}} %[[KJ]]
// CHECK:         scf.yield %{{.+}}, %[[K1]]
func.func @ring_computed_index(%q: memref<100x64xf16>, %k: memref<?x128x64xf16>, %t: memref<4xi32>) -> vector<64x64xf32> attributes {attncc.schedule = #ring} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c500 = arith.constant 500 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %r = scf.for %kv0 = %c0 to %c500 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    %slot = arith.divui %kv0, %c128 : index
    %e = memref.load %t[%slot] : memref<4xi32>
    %page = arith.index_castui %e : i32 to index
    %row = arith.remui %kv0, %c128 : index
    %k_j = vector.transfer_read %k[%page, %row, %c0], %pad {in_bounds = [false, true]} : memref<?x128x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %qk : vector<64x64xf32>
  }
  return %r : vector<64x64xf32>
}
