// RUN: attncc-opt %s -split-input-file -attncc-stage -verify-diagnostics

// A refusal of attncc-stage when it builds a ring (its other refusals are
// tested in stage.mlir).

// STAGE@kv=d2/cp/ring prefetches block i+1 by cloning the read, and the ops
// of the body its indices need, with the loop index replaced by index +
// step (stage.mlir, @ring_computed_index). The K block here is read at a row
// that the loop carries (an iter_arg): the prefetch cannot compute the next
// block's row before the iteration ends, so the ring is refused.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#ring = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d2/cp/ring">

func.func @ring_carried_index(%q: memref<100x64xf16>, %k: memref<200x64xf16>, %off: index) -> vector<64x64xf32> attributes {attncc.schedule = #ring} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
  %r:2 = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero, %at = %off) -> (vector<64x64xf32>, index) {
    %row = arith.addi %kv0, %at : index
    // expected-error@+1 {{'vector.transfer_read' op attncc-stage: a ring needs the read's indices to be computed from the loop index and loop-invariant values (by loads and arithmetic)}}
    %k_j = vector.transfer_read %k[%row, %c0], %pad {in_bounds = [false, true]} : memref<200x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %next = arith.addi %at, %c64 : index
    scf.yield %qk, %next : vector<64x64xf32>, index
  }
  return %r#0 : vector<64x64xf32>
}
