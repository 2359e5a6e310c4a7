// RUN: attncc-opt %s -split-input-file -attncc-stage -attncc-overlap -verify-diagnostics | FileCheck %s

// OVERLAP=pv on a fold staged with a ring of three (STAGE@kv=d3/cp/ring):
// the P*V contraction of block j moves into iteration j+1, right after that
// iteration's Q*K^T; the loop carries P and the V block (p_prev starts at
// zero, v_prev at the first V block); the weight now scales the rotated
// product, and the last block's P*V follows the loop.

// CHECK-LABEL: func.func @overlap
// CHECK-SAME: (%[[Q:[^:]+]]: memref<100x64xf16>, %[[K:[^:]+]]: memref<100x64xf16>, %[[V:[^:]+]]: memref<100x64xf16>
// CHECK:       %[[K0:.+]] = vector.transfer_read %[[K]]{{.+}}attncc.ring = 0 : i64, attncc.ring_slots = 3 : i64, attncc.stage = #monoid.staged<cp>
// CHECK:       %[[V0:.+]] = vector.transfer_read %[[V]]{{.+}}attncc.ring = 1 : i64, attncc.ring_slots = 3 : i64, attncc.stage = #monoid.staged<cp>
// CHECK:       %[[ZP:.+]] = arith.constant dense<0.000000e+00> : vector<64x64xf16>
// CHECK:       %[[F:.+]]:6 = scf.for {{.+}} iter_args(%[[M:[^ ]+]] = %{{.+}}, %[[O:[^ ]+]] = %{{.+}}, %[[KJ:[^ ]+]] = %[[K0]], %[[VJ:[^ ]+]] = %[[V0]], %[[PP:[^ ]+]] = %[[ZP]], %[[VP:[^ ]+]] = %[[V0]])
// CHECK:         %[[S:.+]] = vector.contract {{.+}} %{{.+}}, %[[KJ]], %{{.+}}
// CHECK-NEXT:    %[[X:.+]] = vector.contract {{.+}} %[[PP]], %[[VP]], %[[O]]
// CHECK:         %[[SC:.+]] = arith.mulf %[[X]], %{{.+}} : vector<64x64xf32>
// CHECK-NEXT:    %[[P16:.+]] = arith.truncf
// CHECK-NEXT:    scf.yield %{{.+}}, %[[SC]], %{{.+}}, %{{.+}}, %[[P16]], %[[VJ]]
// CHECK:       %[[LAST:.+]] = vector.contract {{.+}} %[[F]]#4, %[[F]]#5, %[[F]]#1
// CHECK-NEXT:  vector.transfer_write %[[LAST]]
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#ov = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d3/cp/ring,OVERLAP=pv">

func.func @overlap(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #ov} {
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
    %dm = arith.subf %m, %m1 : vector<64xf32>
    %w = math.exp %dm : vector<64xf32>
    %wc = vector.shape_cast %w : vector<64xf32> to vector<64x1xf32>
    %wb = vector.broadcast %wc : vector<64x1xf32> to vector<64x64xf32>
    %scaled = arith.mulf %acc, %wb : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %scaled : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %m1, %o1 : vector<64xf32>, vector<64x64xf32>
  }
  vector.transfer_write %fold#1, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}

// -----

// Without a ring the V block is read in the body; OVERLAP=pv has nothing to
// carry and says so.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#noring = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/cp,OVERLAP=pv">

func.func @noring(%q: vector<64x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #noring} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %w = arith.constant dense<0.5> : vector<64x64xf32>
  %fold = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %scaled = arith.mulf %acc, %w : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %qk : vector<64x64xf32> to vector<64x64xf16>
    // expected-error@+1 {{attncc-overlap: the P*V contraction must be yielded directly, accumulate into (iter_arg * weight), and read its right operand from a ring iter_arg (STAGE@kv=d3/.../ring)}}
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %scaled : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %o1 : vector<64x64xf32>
  }
  vector.transfer_write %fold, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}

// -----

// The accumulator's iter_arg is read elsewhere too: rotating would change
// what that read sees.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#twice = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d3/cp/ring,OVERLAP=pv">

func.func @twice(%q: vector<64x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #twice} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %w = arith.constant dense<0.5> : vector<64x64xf32>
  %fold = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %scaled = arith.mulf %acc, %w : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %qk : vector<64x64xf32> to vector<64x64xf16>
    // expected-error@+1 {{attncc-overlap: the accumulator must be the channel's iter_arg times a weight, used nowhere else}}
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %scaled : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %o1 : vector<64x64xf32>
  }
  vector.transfer_write %fold, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}

// -----

// P comes from outside the fold: there is no previous block's P to carry.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#outside = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d3/cp/ring,OVERLAP=pv">

func.func @outside(%q: vector<64x64xf16>, %p16: vector<64x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #outside} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %w = arith.constant dense<0.5> : vector<64x64xf32>
  %fold:2 = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%acc = %zero, %s = %zero) -> (vector<64x64xf32>, vector<64x64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_j, %s : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %scaled = arith.mulf %acc, %w : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    // expected-error@+1 {{attncc-overlap: the left operand (P) must be computed in the fold}}
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %scaled : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %o1, %qk : vector<64x64xf32>, vector<64x64xf32>
  }
  vector.transfer_write %fold#0, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}

// -----

// OVERLAP=pv+wg: after the rotation, both contractions of the fold body are
// marked attncc.turn (the warpgroups take turns issuing them); the last
// block's P*V after the loop is not.

// CHECK-LABEL: func.func @turns
// CHECK:       scf.for
// CHECK:         vector.contract {{.+}} {attncc.turn}
// CHECK-NEXT:    vector.contract {{.+}} {attncc.turn}
// CHECK:         scf.yield
// CHECK:       vector.contract
// CHECK-NOT:   attncc.turn
// CHECK:       vector.transfer_write
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#wg = #monoid.schedule<"TILE@kv=a:wgmma_m64n64k16_f16/w8x1/f1x1/k4,STAGE@kv=d3/tma/ring/swz128,OVERLAP=pv+wg">

func.func @turns(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) attributes {attncc.schedule = #wg} {
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
    %dm = arith.subf %m, %m1 : vector<64xf32>
    %w = math.exp %dm : vector<64xf32>
    %wc = vector.shape_cast %w : vector<64xf32> to vector<64x1xf32>
    %wb = vector.broadcast %wc : vector<64x1xf32> to vector<64x64xf32>
    %scaled = arith.mulf %acc, %wb : vector<64x64xf32>
    %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
    %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %scaled : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %m1, %o1 : vector<64xf32>, vector<64x64xf32>
  }
  vector.transfer_write %fold#1, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
  return
}
