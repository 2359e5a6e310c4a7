// RUN: attncc-opt %s -split-input-file -attncc-lower-mma -verify-diagnostics | FileCheck %s

// S = Q K^T with both blocks in shared memory (4 warps, one 16-row tile
// each): the accumulators are a private array of one m16n8 tile per atom,
// zeroed; per k16 step the A fragments come from ldmatrix.x4 of Q's slot
// (rows warp*16 + (lane & 15), columns kc*16 + (lane >> 4)*8) and, per n8
// tile, the B fragments from ldmatrix.x2 of K's (rows nf*8 + (lane & 7),
// columns kc*16 + ((lane >> 3) & 1)*8); the result is the tile of those
// registers.
// CHECK-LABEL: gpu.func @qk
// CHECK-DAG:   %[[ACC:.+]] = memref.alloca() : memref<1x8x2x2xf32>
// CHECK-DAG:   %[[A:.+]] = memref.alloca() : memref<1x4x2xf16>
// CHECK-DAG:   %[[LANE:.+]] = gpu.lane_id
// CHECK-DAG:   %[[WARP:.+]] = gpu.subgroup_id
// CHECK:       %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x8x2x2xf32>
// CHECK:       vector.store %[[ZERO]], %[[ACC]][%c0, %c0, %c0, %c0] : memref<1x8x2x2xf32>, vector<1x8x2x2xf32>
// CHECK:       scf.for %[[KC:.+]] = %c0 to %c4 step %c1 {
// CHECK:         scf.for %[[FM:.+]] = %c0 to %c1 step %c1 {
// CHECK:           %[[FA:.+]] = nvgpu.ldmatrix %[[QS:.+]][%{{.+}}, %{{.+}}] {numTiles = 4 : i32, transpose = false} : memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:           vector.store %[[FA]], %[[A]][%[[FM]], %c0, %c0]
// CHECK:         } {attncc.unroll}
// CHECK:         scf.for %[[NF:.+]] = %c0 to %c8 step %c1 {
// CHECK:           %[[FB:.+]] = nvgpu.ldmatrix %{{.+}}[%{{.+}}, %{{.+}}] {numTiles = 2 : i32, transpose = false} : memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK:           scf.for %[[FM2:.+]] = %c0 to %c1 step %c1 {
// CHECK:             %[[AA:.+]] = vector.load %[[A]][%[[FM2]], %c0, %c0] : memref<1x4x2xf16>, vector<4x2xf16>
// CHECK:             %[[C:.+]] = vector.load %[[ACC]][%[[FM2]], %[[NF]], %c0, %c0] : memref<1x8x2x2xf32>, vector<2x2xf32>
// CHECK:             %[[D:.+]] = nvgpu.mma.sync(%[[AA]], %[[FB]], %[[C]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:             vector.store %[[D]], %[[ACC]][%[[FM2]], %[[NF]], %c0, %c0]
// CHECK:           } {attncc.unroll}
// CHECK:         } {attncc.unroll}
// CHECK:       } {attncc.unroll}
// CHECK:       %[[R:.+]] = vector.load %[[ACC]][%c0, %c0, %c0, %c0] : memref<1x8x2x2xf32>, vector<1x8x2x2xf32>
// CHECK:       %[[S:.+]] = monoid.from_lanes %[[R]] {attncc.layout = #monoid.fragment<c>} : vector<1x8x2x2xf32> to vector<64x64xf32>
// CHECK:       vector.transfer_write %[[S]]
// CHECK-NOT:   vector.contract
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @qk(%out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c9216 = arith.constant 9216 : index
      %qv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x72xf16, #gpu.address_space<workgroup>>
      %kv = memref.view %raw[%c9216][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %qs = memref.subview %qv[0, 0, 0] [1, 64, 72] [1, 1, 1] : memref<1x64x72xf16, #gpu.address_space<workgroup>> to memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>
      %q = vector.transfer_read %qs[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>, vector<64x64xf16>
      %ks = memref.subview %kv[0, 0, 0] [1, 64, 72] [1, 1, 1] : memref<1x64x72xf16, #gpu.address_space<workgroup>> to memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>
      %k = vector.transfer_read %ks[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>, vector<64x64xf16>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// O += P V, P rounded from the f32 scores (c layout), V a [k x n] block read
// by ldmatrix.x4.trans (attncc.ldmatrix = "x4": lanes 16-31 address the n8
// tile after, so one load gives the B fragments of two n8 tiles, split by
// vector.extract_strided_slice). The running O enters the accumulators by
// monoid.to_lanes; P's A fragments are the f32 registers of two n8 tiles,
// rounded per k step, and the tile-level arith.truncf is gone.
// CHECK-LABEL: gpu.func @pv_x4
// CHECK:       %[[OL:.+]] = monoid.to_lanes %[[O:.+]] : vector<64x64xf32> to vector<1x8x2x2xf32>
// CHECK:       vector.store %[[OL]], %[[ACC:.+]][%c0, %c0, %c0, %c0]
// CHECK:       %[[PL:.+]] = monoid.to_lanes %[[P:.+]] : vector<64x64xf32> to vector<1x4x4x2xf32>
// CHECK:       scf.for %[[KC:.+]] = %c0 to %c4 step %c1 {
// CHECK:         scf.for %[[FM:.+]] = %c0 to %c1 step %c1 {
// CHECK:           %[[P32:.+]] = vector.extract %[[PL]][%[[FM]], %[[KC]]] : vector<4x2xf32> from vector<1x4x4x2xf32>
// CHECK:           %[[P16:.+]] = arith.truncf %[[P32]] : vector<4x2xf32> to vector<4x2xbf16>
// CHECK:         scf.for %[[NF:.+]] = %c0 to %c8 step %c2 {
// CHECK:           %[[B4:.+]] = nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = true} : {{.+}} -> vector<4x2xbf16>
// CHECK:           %[[B0:.+]] = vector.extract_strided_slice %[[B4]] {offsets = [0, 0], sizes = [2, 2], strides = [1, 1]}
// CHECK:             nvgpu.mma.sync(%{{.+}}, %[[B0]], %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:           %[[B1:.+]] = vector.extract_strided_slice %[[B4]] {offsets = [2, 0], sizes = [2, 2], strides = [1, 1]}
// CHECK:           %[[N1:.+]] = arith.addi %[[NF]], %c1 : index
// CHECK:             vector.load %[[ACC]][%{{.+}}, %[[N1]], %c0, %c0]
// CHECK:             nvgpu.mma.sync(%{{.+}}, %[[B1]], %{{.+}})
// CHECK-NOT:   arith.truncf %[[P]] {
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @pv_x4(%p: vector<64x64xf32>, %o: vector<64x64xf32>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 9216 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x72xbf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : bf16
      %vs = memref.subview %vv[0, 0, 0] [1, 64, 72] [1, 1, 1] : memref<1x64x72xbf16, #gpu.address_space<workgroup>> to memref<64x72xbf16, strided<[72, 1]>, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %vs[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x72xbf16, strided<[72, 1]>, #gpu.address_space<workgroup>>, vector<64x64xbf16>
      %pc = math.exp2 %p {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32>
      %oc = arith.addf %o, %o {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32>
      %p16 = arith.truncf %pc {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32> to vector<64x64xbf16>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v, %oc {attncc.atom = "mma.m16n8k16", attncc.ldmatrix = "x4", attncc.layout = #monoid.fragment<c>} : vector<64x64xbf16>, vector<64x64xbf16> into vector<64x64xf32>
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// ACC=f16x2: the atoms accumulate into fp16 partials (their own private
// array, zeroed), added into the fp32 accumulators after every second k16
// step and after the last, then zeroed again. The operands here are
// registers: Q in A fragments (layout a), K in B fragments (b.nk), both
// entering the thread's registers by monoid.to_lanes.
// CHECK-LABEL: gpu.func @f16x_regs
// CHECK-DAG:   %[[ACC:.+]] = memref.alloca() : memref<1x8x2x2xf32>
// CHECK-DAG:   %[[PART:.+]] = memref.alloca() : memref<1x8x2x2xf16>
// CHECK:       %[[Z16:.+]] = arith.constant dense<0.000000e+00> : vector<1x8x2x2xf16>
// CHECK:       vector.store %[[Z16]], %[[PART]][%c0, %c0, %c0, %c0]
// CHECK:       %[[AL:.+]] = monoid.to_lanes %{{.+}} : vector<64x64xf16> to vector<1x4x4x2xf16>
// CHECK:       %[[BL:.+]] = monoid.to_lanes %{{.+}} : vector<64x64xf16> to vector<8x4x2x2xf16>
// CHECK:       scf.for %[[KC:.+]] = %c0 to %c4 step %c1 {
// CHECK:           vector.extract %[[AL]][%{{.+}}, %[[KC]]] : vector<4x2xf16> from vector<1x4x4x2xf16>
// CHECK:         scf.for %[[NF:.+]] = %c0 to %c8 step %c1 {
// CHECK:           %[[FB:.+]] = vector.extract %[[BL]][%[[NF]], %[[KC]]] : vector<2x2xf16> from vector<8x4x2x2xf16>
// CHECK:             %[[C:.+]] = vector.load %[[PART]][%{{.+}}, %[[NF]], %c0, %c0] : memref<1x8x2x2xf16>, vector<2x2xf16>
// CHECK:             nvgpu.mma.sync(%{{.+}}, %[[FB]], %[[C]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
// CHECK:         %[[NEXT:.+]] = arith.addi %[[KC]], %c1 : index
// CHECK:         %[[REM:.+]] = arith.remui %[[NEXT]], %c2 : index
// CHECK:         %[[EVERY:.+]] = arith.cmpi eq, %[[REM]], %c0 : index
// CHECK:         %[[LAST:.+]] = arith.cmpi eq, %[[KC]], %c3 : index
// CHECK:         %[[WHEN:.+]] = arith.ori %[[EVERY]], %[[LAST]] : i1
// CHECK:         scf.if %[[WHEN]] {
// CHECK:           %[[P:.+]] = vector.load %[[PART]][%c0, %c0, %c0, %c0] : memref<1x8x2x2xf16>, vector<1x8x2x2xf16>
// CHECK:           %[[PF:.+]] = arith.extf %[[P]] : vector<1x8x2x2xf16> to vector<1x8x2x2xf32>
// CHECK:           %[[OLD:.+]] = vector.load %[[ACC]][%c0, %c0, %c0, %c0]
// CHECK:           %[[SUM:.+]] = arith.addf %[[OLD]], %[[PF]] : vector<1x8x2x2xf32>
// CHECK:           vector.store %[[SUM]], %[[ACC]][%c0, %c0, %c0, %c0]
// CHECK:           vector.store %[[Z16]], %[[PART]][%c0, %c0, %c0, %c0]
// CHECK:         }
// CHECK:       } {attncc.unroll}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f16x_regs(%q: vector<64x64xf16>, %k: vector<64x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<a>} : vector<64x64xf16>
      %kb = arith.addf %k, %k {attncc.layout = #monoid.fragment<b.nk>} : vector<64x64xf16>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %kb, %zero {attncc.acc = "f16x", attncc.acc_steps = 2 : i64, attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// REPACK=smem: P (C fragments) goes to its slab between two warp syncs and
// comes back as A fragments by ldmatrix.x4, the slab's rows padded.
// CHECK-LABEL: gpu.func @handoff
// CHECK:       %[[SLAB:.+]] = memref.view %{{.+}}[%c9216][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK:       nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NEXT:  vector.transfer_write %[[P:.+]], %[[SLAB]][%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:  nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK:       nvgpu.ldmatrix %[[SLAB]][%{{.+}}, %{{.+}}] {numTiles = 4 : i32, transpose = false} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @handoff(%p: vector<64x64xf32>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c9216 = arith.constant 9216 : index
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x72xf16, #gpu.address_space<workgroup>>
      %slab = memref.view %raw[%c9216][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %vs = memref.subview %vv[0, 0, 0] [1, 64, 72] [1, 1, 1] : memref<1x64x72xf16, #gpu.address_space<workgroup>> to memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %vs[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>, vector<64x64xf16>
      %pc = math.exp2 %p {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32>
      %p16 = arith.truncf %pc {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32> to vector<64x64xf16>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v, %zero {attncc.atom = "mma.m16n8k16", attncc.handoff = "smem", attncc.handoff_offset = 9216 : i64, attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// A ring block the fold loop carries: the loop carries its slot's view
// beside it (attncc-lower-copies), and the atoms read that view.
// CHECK-LABEL: gpu.func @carried
// CHECK:       scf.for %{{.+}} = %{{.+}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[SLOT:[^ ]+]] = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}) -> (vector<64x64xf32>, vector<64x64xf16>, memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, index) {
// CHECK-NOT:     memref.subview %{{.+}}[%[[SLOT]]
// CHECK:         nvgpu.ldmatrix %[[SLOT]][%{{.+}}, %{{.+}}] {numTiles = 2 : i32, transpose = false}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @carried(%q: vector<64x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<a>} : vector<64x64xf16>
      %s0 = memref.subview %view[%c0, 0, 0] [1, 64, 72] [1, 1, 1] : memref<2x64x72xf16, #gpu.address_space<workgroup>> to memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
      %k0 = vector.transfer_read %s0[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64x64xf16>
      %r:4 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero, %k = %k0, %slot = %s0, %n = %c0) -> (vector<64x64xf32>, vector<64x64xf16>, memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, index) {
        %next = arith.xori %n, %c1 : index
        %sn = memref.subview %view[%next, 0, 0] [1, 64, 72] [1, 1, 1] : memref<2x64x72xf16, #gpu.address_space<workgroup>> to memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
        %kn = vector.transfer_read %sn[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64x64xf16>
        %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %k, %acc {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        scf.yield %s, %kn, %sn, %next : vector<64x64xf32>, vector<64x64xf16>, memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, index
      } {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<smem>, "", ""]}
      vector.transfer_write %r#0, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// A TMA block (the 128-byte swizzle: [slabs, rows, slab] slots, read as a
// transpose and shape cast) that the fold carries with its slot's index
// (attncc-lower-copies): the atoms read the view at the carried index, and
// each lane's ldmatrix row address is [col / 64, row, ((col / 8) mod 8 XOR
// row mod 8) * 8].
// CHECK-LABEL: gpu.func @tma_swizzled
// CHECK:       scf.for %{{.+}} = %{{.+}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[SLOT:[^ ]+]] = %{{[^ ]+}}) -> (vector<64x64xf32>, vector<64x64xf16>, index) {
// CHECK:         %[[AT:.+]] = memref.subview %{{.+}}[%[[SLOT]], 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1]
// CHECK:         %[[X:.+]] = arith.xori %{{.+}}, %{{.+}} : i32
// CHECK:         %[[C:.+]] = arith.muli %[[X]], %c8_i32 : i32
// CHECK:         %[[CI:.+]] = arith.index_cast %[[C]] : i32 to index
// CHECK:         nvgpu.ldmatrix %[[AT]][%{{.+}}, %{{.+}}, %[[CI]]] {numTiles = 2 : i32, transpose = false} : memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> -> vector<2x2xf16>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tma_swizzled(%q: vector<64x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 17408 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1x64x64xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<a>} : vector<64x64xf16>
      %s0 = memref.subview %view[%c0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<2x1x64x64xf16, #gpu.address_space<workgroup>> to memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %r0 = vector.transfer_read %s0[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<tma, swz>, in_bounds = [true, true, true]} : memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<1x64x64xf16>
      %t0 = vector.transpose %r0, [1, 0, 2] : vector<1x64x64xf16> to vector<64x1x64xf16>
      %k0 = vector.shape_cast %t0 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xf16> to vector<64x64xf16>
      %r:3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero, %k = %k0, %n = %c0) -> (vector<64x64xf32>, vector<64x64xf16>, index) {
        %next = arith.xori %n, %c1 : index
        %sn = memref.subview %view[%next, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<2x1x64x64xf16, #gpu.address_space<workgroup>> to memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %rn = vector.transfer_read %sn[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<tma, swz>, in_bounds = [true, true, true]} : memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<1x64x64xf16>
        %tn = vector.transpose %rn, [1, 0, 2] : vector<1x64x64xf16> to vector<64x1x64xf16>
        %kn = vector.shape_cast %tn {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xf16> to vector<64x64xf16>
        %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %k, %acc {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        scf.yield %s, %kn, %next : vector<64x64xf32>, vector<64x64xf16>, index
      } {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<smem>, ""]}
      vector.transfer_write %r#0, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// The same loop with neither the slot's view nor its index beside the
// block: refused.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @carried_no_view(%q: vector<64x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<a>} : vector<64x64xf16>
      %s0 = memref.subview %view[%c0, 0, 0] [1, 64, 72] [1, 1, 1] : memref<2x64x72xf16, #gpu.address_space<workgroup>> to memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
      %k0 = vector.transfer_read %s0[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64x64xf16>
      %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero, %k = %k0) -> (vector<64x64xf32>, vector<64x64xf16>) {
        %next = arith.xori %i, %c1 : index
        %sn = memref.subview %view[%next, 0, 0] [1, 64, 72] [1, 1, 1] : memref<2x64x72xf16, #gpu.address_space<workgroup>> to memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
        %kn = vector.transfer_read %sn[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64x64xf16>
        // expected-error @+1 {{a loop carries a staged block without its slot's view or index}}
        %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %k, %acc {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        scf.yield %s, %kn : vector<64x64xf32>, vector<64x64xf16>
      } {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<smem>]}
      vector.transfer_write %r#0, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f16x_bf16(%q: vector<64x64xbf16>, %k: vector<64x64xbf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<a>} : vector<64x64xbf16>
      %kb = arith.addf %k, %k {attncc.layout = #monoid.fragment<b.nk>} : vector<64x64xbf16>
      // expected-error @+1 {{ACC=f16x needs f16 operands}}
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %kb, %zero {attncc.acc = "f16x", attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xbf16>, vector<64x64xbf16> into vector<64x64xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @bad_lhs(%q: vector<64x64xf16>, %k: vector<64x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<b.nk>} : vector<64x64xf16>
      %kb = arith.addf %k, %k {attncc.layout = #monoid.fragment<b.nk>} : vector<64x64xf16>
      // expected-error @+1 {{left operand layout 'b.nk' cannot feed mma.sync}}
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %kb, %zero {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @bad_rhs(%q: vector<64x64xf16>, %k: vector<64x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<a>} : vector<64x64xf16>
      %kb = arith.addf %k, %k {attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>
      // expected-error @+1 {{right operand layout 'c' cannot feed mma.sync}}
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %kb, %zero {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// x4 needs pairs of n8 tiles: N = 24 is three.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @odd_x4(%q: vector<64x64xf16>, %out: memref<64x24xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 9216 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x24x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x24xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<a>} : vector<64x64xf16>
      %ks = memref.subview %view[0, 0, 0] [1, 24, 72] [1, 1, 1] : memref<1x24x72xf16, #gpu.address_space<workgroup>> to memref<24x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>
      %k = vector.transfer_read %ks[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<24x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>, vector<24x64xf16>
      // expected-error @+1 {{attncc.ldmatrix = "x4" needs an even number of n8 tiles, not 3}}
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %k, %zero {attncc.atom = "mma.m16n8k16", attncc.ldmatrix = "x4", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<24x64xf16> into vector<64x24xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x24xf32>, memref<64x24xf32>
      gpu.return
    }
  }
}
