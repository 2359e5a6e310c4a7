// RUN: attncc-opt %s -split-input-file -verify-diagnostics -attncc-defer-rowsum | FileCheck %s

// ROWSUM=end on a block fold: the row sum %d (zero at the start, read only by
// its rescale, which feeds only the block's <add> reduction) is carried as
// [64 x 4] lane partials: the block's P cast to [64, 32/8, 4, 2] is summed
// over dims 1 and 3 onto the rescaled partials (the correction spread over
// the four), and one <add> reduction after the loop makes the row sum, which
// every use of the old result reads. The maximum keeps its reduction.
// CHECK-LABEL: func.func @block
// CHECK:       %[[Z4:.+]] = arith.constant dense<0.000000e+00> : vector<64x4xf32>
// CHECK:       %[[R:.+]]:2 = scf.for {{.*}} iter_args(%[[M:[^ ]+]] = {{.*}}, %[[D:[^ ]+]] = %[[Z4]]) -> (vector<64xf32>, vector<64x4xf32>)
// CHECK:         vector.contract
// CHECK:         vector.multi_reduction <maximumf>, %{{.+}}, %[[M]] [1] : vector<64x32xf32> to vector<64xf32>
// CHECK:         %[[A:.+]] = math.exp %{{.+}} : vector<64xf32>
// CHECK-NEXT:    %[[COL:.+]] = vector.shape_cast %[[A]] : vector<64xf32> to vector<64x1xf32>
// CHECK-NEXT:    %[[SPREAD:.+]] = vector.broadcast %[[COL]] : vector<64x1xf32> to vector<64x4xf32>
// CHECK-NEXT:    %[[ACC:.+]] = arith.mulf %[[D]], %[[SPREAD]] : vector<64x4xf32>
// CHECK-NEXT:    %[[L:.+]] = vector.shape_cast %{{[^ ]+}} : vector<64x32xf32> to vector<64x4x4x2xf32>
// CHECK-NEXT:    %[[D1:.+]] = vector.multi_reduction <add>, %[[L]], %[[ACC]] [1, 3] : vector<64x4x4x2xf32> to vector<64x4xf32>
// CHECK:         scf.yield %{{.+}}, %[[D1]] : vector<64xf32>, vector<64x4xf32>
// CHECK:       %[[Z:.+]] = arith.constant dense<0.000000e+00> : vector<64xf32>
// CHECK-NEXT:  %[[SUM:.+]] = vector.multi_reduction <add>, %[[R]]#1, %[[Z]] [1] : vector<64x4xf32> to vector<64xf32>
// CHECK:       return %[[R]]#0, %[[SUM]]
#end = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x4/k4,ROWSUM=end">
#qk = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
func.func @block(%q: vector<64x16xf32>, %k: vector<32x16xf32>, %lo: index, %hi: index, %st: index) -> (vector<64xf32>, vector<64xf32>) attributes {attncc.schedule = #end} {
  %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %s0 = arith.constant dense<0.0> : vector<64x32xf32>
  %r:2 = scf.for %i = %lo to %hi step %st iter_args(%m = %ninf, %d = %zero) -> (vector<64xf32>, vector<64xf32>) {
    %s = vector.contract {indexing_maps = #qk, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %s0 : vector<64x16xf32>, vector<32x16xf32> into vector<64x32xf32>
    %m1 = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x32xf32> to vector<64xf32>
    %mb = vector.broadcast %m1 : vector<64xf32> to vector<32x64xf32>
    %mt = vector.transpose %mb, [1, 0] : vector<32x64xf32> to vector<64x32xf32>
    %x = arith.subf %s, %mt : vector<64x32xf32>
    %p = math.exp %x : vector<64x32xf32>
    %sub = arith.subf %m, %m1 : vector<64xf32>
    %alpha = math.exp %sub : vector<64xf32>
    %dr = arith.mulf %d, %alpha : vector<64xf32>
    %d1 = vector.multi_reduction <add>, %p, %dr [1] : vector<64x32xf32> to vector<64xf32>
    scf.yield %m1, %d1 : vector<64xf32>, vector<64xf32>
  }
  return %r#0, %r#1 : vector<64xf32>, vector<64xf32>
}

// -----

// No rescale (the sum is the reduction's accumulator itself): the partials
// are too, and 16-key blocks cast to [32, 2, 4, 2].
// CHECK-LABEL: func.func @plain
// CHECK:       scf.for {{.*}} iter_args(%[[D:[^ ]+]] = {{.*}}) -> (vector<32x4xf32>)
// CHECK:         %[[L:.+]] = vector.shape_cast %{{.+}} : vector<32x16xf32> to vector<32x2x4x2xf32>
// CHECK-NEXT:    vector.multi_reduction <add>, %[[L]], %[[D]] [1, 3] : vector<32x2x4x2xf32> to vector<32x4xf32>
// CHECK:       vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1] : vector<32x4xf32> to vector<32xf32>
#end = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w2x1/f1x2/k1,ROWSUM=end">
#qk = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
func.func @plain(%q: vector<32x16xf32>, %k: vector<16x16xf32>, %lo: index, %hi: index, %st: index) -> vector<32xf32> attributes {attncc.schedule = #end} {
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %s0 = arith.constant dense<0.0> : vector<32x16xf32>
  %r = scf.for %i = %lo to %hi step %st iter_args(%d = %zero) -> (vector<32xf32>) {
    %s = vector.contract {indexing_maps = #qk, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %s0 : vector<32x16xf32>, vector<16x16xf32> into vector<32x16xf32>
    %d1 = vector.multi_reduction <add>, %s, %d [1] : vector<32x16xf32> to vector<32xf32>
    scf.yield %d1 : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// A sum read inside the fold (here by the block's output) cannot wait for
// the end: nothing to defer, and ROWSUM=end says so.
#end = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w2x1/f1x2/k1,ROWSUM=end">
#qk = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
// expected-error @+1 {{ROWSUM=end: no block fold here carries a row sum that starts at zero and is read only by its own update}}
func.func @read(%q: vector<32x16xf32>, %k: vector<16x16xf32>, %out: memref<32xf32>, %lo: index, %hi: index, %st: index) -> vector<32xf32> attributes {attncc.schedule = #end} {
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %s0 = arith.constant dense<0.0> : vector<32x16xf32>
  %c0 = arith.constant 0 : index
  %r = scf.for %i = %lo to %hi step %st iter_args(%d = %zero) -> (vector<32xf32>) {
    %s = vector.contract {indexing_maps = #qk, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %s0 : vector<32x16xf32>, vector<16x16xf32> into vector<32x16xf32>
    vector.transfer_write %d, %out[%c0] : vector<32xf32>, memref<32xf32>
    %d1 = vector.multi_reduction <add>, %s, %d [1] : vector<32x16xf32> to vector<32xf32>
    scf.yield %d1 : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// A sum that does not start at zero (the second loop of PLACE@fold=cut
// continues the first's) is left alone too.
#end = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w2x1/f1x2/k1,ROWSUM=end">
#qk = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
// expected-error @+1 {{use ROWSUM=block}}
func.func @continued(%q: vector<32x16xf32>, %k: vector<16x16xf32>, %d0: vector<32xf32>, %lo: index, %hi: index, %st: index) -> vector<32xf32> attributes {attncc.schedule = #end} {
  %s0 = arith.constant dense<0.0> : vector<32x16xf32>
  %r = scf.for %i = %lo to %hi step %st iter_args(%d = %d0) -> (vector<32xf32>) {
    %s = vector.contract {indexing_maps = #qk, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %s0 : vector<32x16xf32>, vector<16x16xf32> into vector<32x16xf32>
    %d1 = vector.multi_reduction <add>, %s, %d [1] : vector<32x16xf32> to vector<32xf32>
    scf.yield %d1 : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// ROWSUM=block (or no ROWSUM): nothing changes.
// CHECK-LABEL: func.func @blockwise
// CHECK:       scf.for {{.*}} -> (vector<32xf32>)
// CHECK:         vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1] : vector<32x16xf32> to vector<32xf32>
#blk = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w2x1/f1x2/k1,ROWSUM=block">
#qk = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
func.func @blockwise(%q: vector<32x16xf32>, %k: vector<16x16xf32>, %lo: index, %hi: index, %st: index) -> vector<32xf32> attributes {attncc.schedule = #blk} {
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %s0 = arith.constant dense<0.0> : vector<32x16xf32>
  %r = scf.for %i = %lo to %hi step %st iter_args(%d = %zero) -> (vector<32xf32>) {
    %s = vector.contract {indexing_maps = #qk, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %s0 : vector<32x16xf32>, vector<16x16xf32> into vector<32x16xf32>
    %d1 = vector.multi_reduction <add>, %s, %d [1] : vector<32x16xf32> to vector<32xf32>
    scf.yield %d1 : vector<32xf32>
  }
  return %r : vector<32xf32>
}
