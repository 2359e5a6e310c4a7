// RUN: attncc-opt %s -split-input-file -attncc-handoff | FileCheck %s

// REPACK=smem: the contraction whose left operand is computed in registers
// (P, here a truncf of the first product) is marked for the shared-memory
// handoff; the first contraction, whose left operand is a read (Q), is not.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#smem = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,REPACK=smem">

// CHECK-LABEL: func.func @smem
// CHECK:       scf.for
// CHECK:         vector.contract
// CHECK-NOT:     attncc.handoff
// CHECK-SAME:    : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
// CHECK:         arith.truncf
// CHECK:         vector.contract {{.+}} {attncc.handoff = "smem"}
func.func @smem(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %vv: memref<100x64xf16>, %o: memref<64x64xf32>) attributes {attncc.schedule = #smem} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %r = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %v_j = vector.transfer_read %vv[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %p = arith.truncf %s : vector<64x64xf32> to vector<64x64xf16>
    %pv = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %pv : vector<64x64xf32>
  }
  vector.transfer_write %r, %o[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  return
}

// -----

// REPACK=regs (and no REPACK at all): nothing is marked; attncc-atomize
// repacks P in registers.

#regs = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,REPACK=regs">

// CHECK-LABEL: func.func @regs
// CHECK-NOT:   attncc.handoff
// CHECK:       return
func.func @regs(%p32: vector<64x64xf32>, %vv: memref<64x64xf16>, %o: memref<64x64xf32>) attributes {attncc.schedule = #regs} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %v_j = vector.transfer_read %vv[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x64xf16>, vector<64x64xf16>
  %p = arith.truncf %p32 : vector<64x64xf32> to vector<64x64xf16>
  %pv = vector.contract {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (d, j)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
  vector.transfer_write %pv, %o[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  return
}
