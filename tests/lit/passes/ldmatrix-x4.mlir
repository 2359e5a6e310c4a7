// RUN: attncc-opt %s -split-input-file -attncc-stage -attncc-ldmatrix-x4 -verify-diagnostics | FileCheck %s

// STAGE@kv=d2/cp/ring/pad/x4: after attncc-stage has put K and V in a ring,
// the peephole marks both contractions, whose right-hand operands are the
// ring's iter_args (staged blocks), attncc.ldmatrix = "x4". The reads are
// untouched: the peephole only picks the instruction that reads them back.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#ring_x4 = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d2/cp/ring/pad/x4">

// CHECK-LABEL: func.func @ring_x4
// CHECK:       scf.for
// CHECK-COUNT-2: vector.transfer_read {{.+}} {attncc.ring = {{.+}}, attncc.stage = #monoid.staged<cp, pad>
// CHECK:         vector.contract {{.+}} {attncc.ldmatrix = "x4"}
// CHECK:         vector.contract {{.+}} {attncc.ldmatrix = "x4"}
// CHECK:         scf.yield
func.func @ring_x4(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #ring_x4} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %fold = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %p = arith.truncf %qk : vector<64x64xf32> to vector<64x64xf16>
    %o_j = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %o_j : vector<64x64xf32>
  }
  vector.transfer_write %fold, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}

// -----

// Without x4 nothing is marked; a contraction whose right-hand operand is
// not staged (here V is read straight from memory: no STAGE covers it
// because it is never staged) is not marked either.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#x2 = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/cp/pad">

// CHECK-LABEL: func.func @no_x4
// CHECK-NOT:   attncc.ldmatrix
// CHECK:       return
func.func @no_x4(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #x2} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %fold = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %qk : vector<64x64xf32>
  }
  vector.transfer_write %fold, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}

// -----

// Only the block read by a sync/cp copy is marked: a contraction whose
// right-hand operand comes from registers (no staged read) is left alone.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#sx4 = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/sync/pad/x4">

// CHECK-LABEL: func.func @unstaged
// CHECK:       vector.contract
// CHECK-NOT:   attncc.ldmatrix
// CHECK:       return
func.func @unstaged(%q: memref<100x64xf16>, %kb: vector<64x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #sx4} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %kb, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
  vector.transfer_write %qk, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}

// -----

// x4 on a free axis is refused: a staged Q tile is a left operand, whose A
// fragments already come from ldmatrix.x4.

#qx4 = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/cp/pad,STAGE@q=d1/cp/pad/x4">

// expected-error @+1 {{knob STAGE@q: 'x4' is not allowed; expected x4 only on the axis the fold tiles (TILE@<axis>): a staged q tile is a left operand, whose A fragments are already read by ldmatrix.x4}}
func.func @free_axis(%o: memref<100x64xf32>) attributes {attncc.schedule = #qx4} {
  return
}

// -----

// ldmatrix.x4 reads two adjacent n8 tiles: P*V with a head dim of 40 (five
// n8 tiles) keeps x2; Q*K^T over 64 keys (eight) is marked.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#odd = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/cp/pad/x4">

// CHECK-LABEL: func.func @odd_n8
// CHECK:         vector.contract {{.+}} {attncc.ldmatrix = "x4"} : vector<64x48xf16>, vector<64x48xf16> into vector<64x64xf32>
// CHECK-NOT:     attncc.ldmatrix
// CHECK:         vector.contract {{.+}} : vector<64x64xf16>, vector<64x40xf16> into vector<64x40xf32>
func.func @odd_n8(%q: memref<100x48xf16>, %k: memref<100x48xf16>, %v: memref<100x40xf16>, %o: memref<100x40xf32>) attributes {attncc.schedule = #odd} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %zo = arith.constant dense<0.0> : vector<64x40xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x48xf16>, vector<64x48xf16>
  %fold = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zo) -> (vector<64x40xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x48xf16>, vector<64x48xf16>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x40xf16>, vector<64x40xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x48xf16>, vector<64x48xf16> into vector<64x64xf32>
    %p = arith.truncf %qk : vector<64x64xf32> to vector<64x64xf16>
    %o_j = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v_j, %acc : vector<64x64xf16>, vector<64x40xf16> into vector<64x40xf32>
    scf.yield %o_j : vector<64x40xf32>
  }
  vector.transfer_write %fold, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x40xf32>, memref<100x40xf32>
  return
}
