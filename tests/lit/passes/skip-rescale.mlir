// RUN: attncc-opt %s -split-input-file -attncc-skip-rescale -verify-diagnostics | FileCheck %s

// A lazy fold (the attncc.lazy select) on register accumulators: each
// rescale of a tile in layout c by a per-row factor goes under the warp's
// vote on "some factor of mine is not 1" (one vote per factor, right after
// it), whichever side of the multiply the factor is on; the else branch
// yields the tile unchanged. The row sum's rescale (layout row) is left
// alone. 128 rows over 4 warps: 4 factors a thread.
// CHECK-LABEL: gpu.func @lazy
// CHECK:       scf.for
// CHECK:         %[[F:.+]] = math.exp2
// CHECK-NEXT:    %[[L:.+]] = monoid.to_lanes %[[F]] : vector<128xf32> to vector<4xf32>
// CHECK-NEXT:    %[[ONE:.+]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK-NEXT:    %[[NE:.+]] = arith.cmpf une, %[[L]], %[[ONE]] : vector<4xf32>
// CHECK-NEXT:    %[[MINE:.+]] = vector.reduction <or>, %[[NE]] : vector<4xi1> into i1
// CHECK-NEXT:    %[[ALL:.+]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[ANY:.+]] = nvvm.vote.sync {{ *}}any %[[ALL]], %[[MINE]] -> i1
// CHECK:         %[[W:.+]] = vector.broadcast
// CHECK-NEXT:    %[[S:.+]] = scf.if %[[ANY]] -> (vector<128x64xf32>) {
// CHECK-NEXT:      %[[R:.+]] = arith.mulf %[[O:[^,]+]], %[[W]] {attncc.layout = #monoid.fragment<c>}
// CHECK-NEXT:      scf.yield %[[R]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[O]]
// CHECK-NEXT:    } {attncc.layout = #monoid.fragment<c>}
// CHECK-NOT:     nvvm.vote.sync
// CHECK-NEXT:    %[[S2:.+]] = scf.if %[[ANY]]
// CHECK-NEXT:      arith.mulf %[[W]], %[[O2:[^ ]+]] {attncc.layout = #monoid.fragment<c>}
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[O2]]
// CHECK:         %[[D:.+]] = arith.mulf %{{.+}}, %[[F]] {attncc.layout = #monoid.fragment<row>}
// CHECK-NOT:     scf.if
// CHECK:         scf.yield %{{.+}}, %[[S]], %[[S2]], %[[D]]
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @lazy(%o0: vector<128x64xf32>, %p0: vector<128x64xf32>, %d0: vector<128xf32>, %m0: vector<128xf32>, %x: vector<128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %t = arith.constant dense<5.5> : vector<128xf32>
      %r:4 = scf.for %i = %c0 to %c4 step %c1 iter_args(%m = %m0, %o = %o0, %p = %p0, %d = %d0) -> (vector<128xf32>, vector<128x64xf32>, vector<128x64xf32>, vector<128xf32>) {
        %m1 = arith.maximumf %m, %x {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %dm = arith.subf %m1, %m {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %mv = arith.cmpf ogt, %dm, %t {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %ml = arith.select %mv, %m1, %m {attncc.layout = #monoid.fragment<row>, attncc.lazy} : vector<128xi1>, vector<128xf32>
        %e = arith.subf %m, %ml {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %f = math.exp2 %e {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %f2 = vector.shape_cast %f {attncc.layout = #monoid.fragment<row>} : vector<128xf32> to vector<128x1xf32>
        %w = vector.broadcast %f2 {attncc.layout = #monoid.fragment<c>} : vector<128x1xf32> to vector<128x64xf32>
        %s = arith.mulf %o, %w {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
        %s2 = arith.mulf %w, %p {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
        %dd = arith.mulf %d, %f {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        scf.yield %ml, %s, %s2, %dd : vector<128xf32>, vector<128x64xf32>, vector<128x64xf32>, vector<128xf32>
      } {attncc.layouts = [#monoid.fragment<row>, #monoid.fragment<c>, #monoid.fragment<c>, #monoid.fragment<row>]}
      gpu.return
    }
  }
}

// -----

// The same fold without the lazy select (RESCALE=always): every block
// rescales, nothing is added.
// CHECK-LABEL: gpu.func @always
// CHECK-NOT:   nvvm.vote.sync
// CHECK-NOT:   scf.if
// CHECK:       gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @always(%o0: vector<128x64xf32>, %m0: vector<128xf32>, %x: vector<128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%m = %m0, %o = %o0) -> (vector<128xf32>, vector<128x64xf32>) {
        %m1 = arith.maximumf %m, %x {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %e = arith.subf %m, %m1 {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %f = math.exp2 %e {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %f2 = vector.shape_cast %f {attncc.layout = #monoid.fragment<row>} : vector<128xf32> to vector<128x1xf32>
        %w = vector.broadcast %f2 {attncc.layout = #monoid.fragment<c>} : vector<128x1xf32> to vector<128x64xf32>
        %s = arith.mulf %o, %w {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
        scf.yield %m1, %s : vector<128xf32>, vector<128x64xf32>
      } {attncc.layouts = [#monoid.fragment<row>, #monoid.fragment<c>]}
      gpu.return
    }
  }
}

// -----

// tcgen05 kernels keep O in tensor memory: attncc-lower-tcgen05 writes
// their vote; this pass leaves them alone.
// CHECK-LABEL: gpu.func @tcgen05
// CHECK-NOT:   nvvm.vote.sync
// CHECK:       gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tcgen05(%o0: vector<128x64xf32>, %m0: vector<128xf32>, %x: vector<128xf32>, %a: vector<128x16xf16>, %b: vector<64x16xf16>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %t = arith.constant dense<5.5> : vector<128xf32>
      %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%m = %m0, %o = %o0) -> (vector<128xf32>, vector<128x64xf32>) {
        %m1 = arith.maximumf %m, %x {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %dm = arith.subf %m1, %m {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %mv = arith.cmpf ogt, %dm, %t {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %ml = arith.select %mv, %m1, %m {attncc.layout = #monoid.fragment<row>, attncc.lazy} : vector<128xi1>, vector<128xf32>
        %e = arith.subf %m, %ml {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %f = math.exp2 %e {attncc.layout = #monoid.fragment<row>} : vector<128xf32>
        %f2 = vector.shape_cast %f {attncc.layout = #monoid.fragment<row>} : vector<128xf32> to vector<128x1xf32>
        %w = vector.broadcast %f2 {attncc.layout = #monoid.fragment<c>} : vector<128x1xf32> to vector<128x64xf32>
        %s = arith.mulf %o, %w {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
        %n = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>, attncc.family = "tcgen05"} %a, %b, %s : vector<128x16xf16>, vector<64x16xf16> into vector<128x64xf32>
        scf.yield %ml, %n : vector<128xf32>, vector<128x64xf32>
      } {attncc.layouts = [#monoid.fragment<row>, #monoid.fragment<c>]}
      gpu.return
    }
  }
}

// -----

// A factor whose rows do not make 16-row tiles over the warps (here 96 rows
// over 4 warps) has no row-lanes form: refused.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @odd(%o0: vector<96x64xf32>, %m0: vector<96xf32>, %x: vector<96xf32>) kernel attributes {attncc.tile = {rows = 96 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %t = arith.constant dense<5.5> : vector<96xf32>
      %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%m = %m0, %o = %o0) -> (vector<96xf32>, vector<96x64xf32>) {
        %m1 = arith.maximumf %m, %x {attncc.layout = #monoid.fragment<row>} : vector<96xf32>
        %dm = arith.subf %m1, %m {attncc.layout = #monoid.fragment<row>} : vector<96xf32>
        %mv = arith.cmpf ogt, %dm, %t {attncc.layout = #monoid.fragment<row>} : vector<96xf32>
        %ml = arith.select %mv, %m1, %m {attncc.layout = #monoid.fragment<row>, attncc.lazy} : vector<96xi1>, vector<96xf32>
        %e = arith.subf %m, %ml {attncc.layout = #monoid.fragment<row>} : vector<96xf32>
        %f = math.exp2 %e {attncc.layout = #monoid.fragment<row>} : vector<96xf32>
        %f2 = vector.shape_cast %f {attncc.layout = #monoid.fragment<row>} : vector<96xf32> to vector<96x1xf32>
        %w = vector.broadcast %f2 {attncc.layout = #monoid.fragment<c>} : vector<96x1xf32> to vector<96x64xf32>
        // expected-error @+1 {{attncc-skip-rescale: a factor of 96 rows over 4 warps (16-row tiles per warp expected)}}
        %s = arith.mulf %o, %w {attncc.layout = #monoid.fragment<c>} : vector<96x64xf32>
        scf.yield %ml, %s : vector<96xf32>, vector<96x64xf32>
      } {attncc.layouts = [#monoid.fragment<row>, #monoid.fragment<c>]}
      gpu.return
    }
  }
}
