// RUN: attncc-opt %s -split-input-file -attncc-lower-wgmma -verify-diagnostics | FileCheck %s

// S = Q K^T, both in 128-byte swizzled slots [slabs, rows, 64] (the SS
// form, 8 warps: two warpgroups of 64 rows). The accumulator is a private
// array of this thread's C fragments, zeroed, fenced, and written in place
// by one monoid.wgmma per k16 step between the warpgroup's fence and its
// commit. K is K-major: k step kc starts at slab kc*16 / 64, column
// kc*16 % 64 (leading byte offset 0); Q the same from row 64 * warpgroup.
// The register fence after the wait now names the accumulator, and the
// result tile is its registers after it.
// CHECK-LABEL: gpu.func @qk_ss
// CHECK-DAG:   %[[ACC:.+]] = memref.alloca() : memref<1x16x2x2xf32>
// CHECK-DAG:   %[[WARP:.+]] = gpu.subgroup_id
// CHECK-DAG:   %[[WG:.+]] = arith.shrui %{{.+}}, %c2_i32 : i32
// CHECK:       %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x16x2x2xf32>
// CHECK:       vector.store %[[ZERO]], %[[ACC]][%c0, %c0, %c0, %c0] : memref<1x16x2x2xf32>, vector<1x16x2x2xf32>
// CHECK-NEXT:  nvvm.inline_ptx "" rw(%[[ACC]] : memref<1x16x2x2xf32>)
// CHECK-NEXT:  nvvm.wgmma.fence.aligned
// CHECK-NEXT:  %[[R64:.+]] = arith.muli %[[WG]], %c64_i32 : i32
// CHECK-NEXT:  %[[ROW:.+]] = arith.index_cast %[[R64]] : i32 to index
// CHECK-NEXT:  scf.for %[[KC:.+]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:    %[[K16:.+]] = arith.muli %[[KC]], %c16 : index
// CHECK-NEXT:    %[[SL:.+]] = arith.divui %[[K16]], %c64 : index
// CHECK-NEXT:    %[[CO:.+]] = arith.remui %[[K16]], %c64 : index
// CHECK-NEXT:    %[[DB:.+]] = monoid.smem_descriptor %[[KS:.+]][%[[SL]], %c0, %[[CO]]] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64}
// CHECK:         %[[DA:.+]] = monoid.smem_descriptor %[[QS:.+]][%{{.+}}, %[[ROW]], %{{.+}}] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64}
// CHECK-NEXT:    monoid.wgmma %[[DA]], %[[DB]] into %[[ACC]] {operand_type = f16} : i64, memref<1x16x2x2xf32>
// CHECK-NEXT:  } {attncc.unroll}
// CHECK-NEXT:  nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:  nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:  nvvm.inline_ptx "" rw(%[[ACC]] : memref<1x16x2x2xf32>)
// CHECK-NEXT:  %[[L:.+]] = vector.load %[[ACC]][%c0, %c0, %c0, %c0] : memref<1x16x2x2xf32>, vector<1x16x2x2xf32>
// CHECK-NEXT:  %[[S:.+]] = monoid.from_lanes %[[L]] {attncc.layout = #monoid.fragment<c>} : vector<1x16x2x2xf32> to vector<128x128xf32>
// CHECK-NEXT:  vector.transfer_write %[[S]]
// CHECK-NOT:   vector.contract
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @qk_ss(%out: memref<128x128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 32768 : i64, warps = 8 : i64}, known_block_size = array<i32: 256, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c16384 = arith.constant 16384 : index
      %qv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x128x64xf16, #gpu.address_space<workgroup>>
      %kv = memref.view %raw[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x128x64xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      %qs = memref.subview %qv[0, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<1x1x128x64xf16, #gpu.address_space<workgroup>> to memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>
      %q3 = vector.transfer_read %qs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x128x64xf16>
      %q2 = vector.transpose %q3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x128x64xf16> to vector<128x1x64xf16>
      %q = vector.shape_cast %q2 {attncc.layout = #monoid.fragment<smem>} : vector<128x1x64xf16> to vector<128x64xf16>
      %ks = memref.subview %kv[0, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<1x1x128x64xf16, #gpu.address_space<workgroup>> to memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>
      %k3 = vector.transfer_read %ks[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x128x64xf16>
      %k2 = vector.transpose %k3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x128x64xf16> to vector<128x1x64xf16>
      %k = vector.shape_cast %k2 {attncc.layout = #monoid.fragment<smem>} : vector<128x1x64xf16> to vector<128x64xf16>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "wgmma.m64n128k16", attncc.family = "wgmma", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<128x64xf16> into vector<128x128xf32>
      nvvm.wgmma.wait.group.sync.aligned 0
      nvvm.inline_ptx "" rw(%s : vector<128x128xf32>)
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32>
      gpu.return
    }
  }
}

// -----

// O += P V with P in registers (the RS form): P's A registers of every k
// step are rounded from the f32 scores before the warpgroup's fence (ptxas
// serializes wgmmas whose A registers are written between them), and each
// step takes its four by vector.extract. V is MN-major ([k x n], N
// contiguous): k step kc starts at row kc*16 of slab 0, and the leading
// byte offset is the stride of the slabs (128 rows x 128 B); the atom reads
// B transposed. The running O enters the accumulator by monoid.to_lanes.
// CHECK-LABEL: gpu.func @pv_rs
// CHECK:       %[[OL:.+]] = monoid.to_lanes %[[O:.+]] : vector<128x64xf32> to vector<1x8x2x2xf32>
// CHECK-NEXT:  vector.store %[[OL]], %[[ACC:.+]][%c0, %c0, %c0, %c0] : memref<1x8x2x2xf32>, vector<1x8x2x2xf32>
// CHECK-NEXT:  %[[PL:.+]] = monoid.to_lanes %[[P:.+]] : vector<128x128xf32> to vector<1x8x4x2xf32>
// CHECK-NEXT:  %[[P16:.+]] = arith.truncf %[[PL]] : vector<1x8x4x2xf32> to vector<1x8x4x2xf16>
// CHECK-NEXT:  nvvm.inline_ptx "" rw(%[[ACC]] : memref<1x8x2x2xf32>)
// CHECK-NEXT:  nvvm.wgmma.fence.aligned
// CHECK-NEXT:  scf.for %[[KC:.+]] = %c0 to %c8 step %c1 {
// CHECK-NEXT:    %[[K16:.+]] = arith.muli %[[KC]], %c16 : index
// CHECK-NEXT:    %[[DB:.+]] = monoid.smem_descriptor %{{.+}}[%c0, %[[K16]], %c0] {leading_byte_offset = 16384 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64}
// CHECK-NEXT:    %[[A:.+]] = vector.extract %[[P16]][%c0, %[[KC]]] : vector<4x2xf16> from vector<1x8x4x2xf16>
// CHECK-NEXT:    monoid.wgmma %[[A]], %[[DB]] into %[[ACC]] {operand_type = f16, transpose_b} : vector<4x2xf16>, memref<1x8x2x2xf32>
// CHECK-NEXT:  } {attncc.unroll}
// CHECK-NEXT:  nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT:   arith.truncf %[[P]] {
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @pv_rs(%p: vector<128x128xf32>, %o: vector<128x64xf32>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 16384 : i64, warps = 8 : i64}, known_block_size = array<i32: 256, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x128x64xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %vs = memref.subview %vv[0, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<1x1x128x64xf16, #gpu.address_space<workgroup>> to memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>
      %v3 = vector.transfer_read %vs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x128x64xf16>
      %v2 = vector.transpose %v3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x128x64xf16> to vector<128x1x64xf16>
      %v = vector.shape_cast %v2 {attncc.layout = #monoid.fragment<smem>} : vector<128x1x64xf16> to vector<128x64xf16>
      %pc = math.exp2 %p {attncc.layout = #monoid.fragment<c>} : vector<128x128xf32>
      %oc = arith.addf %o, %o {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
      %p16 = arith.truncf %pc {attncc.layout = #monoid.fragment<c>} : vector<128x128xf32> to vector<128x128xf16>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v, %oc {attncc.atom = "wgmma.m64n64k16", attncc.family = "wgmma", attncc.layout = #monoid.fragment<c>} : vector<128x128xf16>, vector<128x64xf16> into vector<128x64xf32>
      nvvm.wgmma.wait.group.sync.aligned 0
      nvvm.inline_ptx "" rw(%r : vector<128x64xf32>)
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}

// -----

// OVERLAP=wg: the fold's two products (attncc.turn) are one run, with only
// a TMA block's wait between them (its counter and mbarrier try_wait). The
// run's first product waits for this warpgroup's turn on named barrier
// 1 + warpgroup after its accumulator is set up and fenced, right before
// the warpgroup's fence; the run's last passes the turn to the next
// warpgroup (1 + (warpgroup + 1) % 2) after its commit. Before the loop the
// last warpgroup gives warpgroup 0 its first turn, and after it warpgroup 0
// takes the turn the last one passed on. One fence names both products.
// CHECK-LABEL: gpu.func @turns
// CHECK:       %[[W:.+]] = gpu.subgroup_id
// CHECK-NEXT:  %[[W32:.+]] = arith.index_cast %[[W]] : index to i32
// CHECK-NEXT:  %[[WG:.+]] = arith.shrui %[[W32]], %c2_i32 : i32
// CHECK:       %[[LAST:.+]] = arith.cmpi eq, %[[WG]], %c1_i32 : i32
// CHECK-NEXT:  scf.if %[[LAST]] {
// CHECK-NEXT:    nvvm.barrier.arrive id = %c1_i32 number_of_threads = %c256_i32
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.for
// CHECK:         nvvm.inline_ptx "" rw(%[[SA:.+]] : memref<1x8x2x2xf32>)
// CHECK-NEXT:    %[[ID:.+]] = arith.addi %c1_i32, %[[WG]] : i32
// CHECK-NEXT:    nvvm.barrier id = %[[ID]] number_of_threads = %c256_i32
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT:     nvvm.barrier
// CHECK:         nvgpu.mbarrier.try_wait.parity
// CHECK-NOT:     nvvm.barrier
// CHECK:         nvvm.inline_ptx "" rw(%[[OA:.+]] : memref<1x8x2x2xf32>)
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    %[[NX:.+]] = arith.addi %[[WG]], %c1_i32 : i32
// CHECK-NEXT:    %[[NG:.+]] = arith.remui %[[NX]], %c2_i32 : i32
// CHECK-NEXT:    %[[NID:.+]] = arith.addi %c1_i32, %[[NG]] : i32
// CHECK-NEXT:    nvvm.barrier.arrive id = %[[NID]] number_of_threads = %c256_i32
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.inline_ptx "" rw(%[[SA]], %[[OA]] : memref<1x8x2x2xf32>, memref<1x8x2x2xf32>)
// CHECK:       } {attncc.layouts = [#monoid.fragment<c>]}
// CHECK-NEXT:  %[[FIRST:.+]] = arith.cmpi eq, %[[WG]], %c0_i32 : i32
// CHECK-NEXT:  scf.if %[[FIRST]] {
// CHECK-NEXT:    nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-NEXT:  }
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @turns(%o0: vector<128x64xf32>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 49152 : i64, warps = 8 : i64}, known_block_size = array<i32: 256, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16384 = arith.constant 16384 : index
      %c32768 = arith.constant 32768 : index
      %c1_i32 = arith.constant 1 : i32
      %c10000000 = arith.constant 10000000 : index
      %wait = memref.alloca() : memref<i32>
      %full = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
      %qv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x128x64xf16, #gpu.address_space<workgroup>>
      %kv = memref.view %raw[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x64x64xf16, #gpu.address_space<workgroup>>
      %vv = memref.view %raw[%c32768][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x64x64xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<128x64xf32>
      %qs = memref.subview %qv[0, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<1x1x128x64xf16, #gpu.address_space<workgroup>> to memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>
      %q3 = vector.transfer_read %qs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x128x64xf16>
      %q2 = vector.transpose %q3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x128x64xf16> to vector<128x1x64xf16>
      %q = vector.shape_cast %q2 {attncc.layout = #monoid.fragment<smem>} : vector<128x1x64xf16> to vector<128x64xf16>
      %ks = memref.subview %kv[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<1x1x64x64xf16, #gpu.address_space<workgroup>> to memref<1x64x64xf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>
      %vs = memref.subview %vv[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<1x1x64x64xf16, #gpu.address_space<workgroup>> to memref<1x64x64xf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>
      %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%o = %o0) -> (vector<128x64xf32>) {
        %k3 = vector.transfer_read %ks[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x64x64xf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x64x64xf16>
        %k2 = vector.transpose %k3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x64x64xf16> to vector<64x1x64xf16>
        %k = vector.shape_cast %k2 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xf16> to vector<64x64xf16>
        %v3 = vector.transfer_read %vs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x64x64xf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x64x64xf16>
        %v2 = vector.transpose %v3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x64x64xf16> to vector<64x1x64xf16>
        %v = vector.shape_cast %v2 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xf16> to vector<64x64xf16>
        %s16 = arith.truncf %o {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32> to vector<128x64xf16>
        %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "wgmma.m64n64k16", attncc.family = "wgmma", attncc.layout = #monoid.fragment<c>, attncc.turn} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
        %n = memref.load %wait[] : memref<i32>
        %n1 = arith.addi %n, %c1_i32 : i32
        memref.store %n1, %wait[] : memref<i32>
        %ph = arith.cmpi ne, %n, %c1_i32 : i32
        nvgpu.mbarrier.try_wait.parity %full[%c0], %ph, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
        %o1 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %s16, %v, %o {attncc.atom = "wgmma.m64n64k16", attncc.family = "wgmma", attncc.layout = #monoid.fragment<c>, attncc.turn} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.inline_ptx "" rw(%s, %o1 : vector<128x64xf32>, vector<128x64xf32>)
        %sum = arith.addf %s, %o1 {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
        scf.yield %sum : vector<128x64xf32>
      } {attncc.layouts = [#monoid.fragment<c>]}
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}

// -----

// A product whose wait attncc-place-waits did not write has no register
// fence to name its accumulator: refused.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @unfenced(%out: memref<128x128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 32768 : i64, warps = 8 : i64}, known_block_size = array<i32: 256, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %qv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x128x64xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      %qs = memref.subview %qv[0, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<1x1x128x64xf16, #gpu.address_space<workgroup>> to memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>
      %q3 = vector.transfer_read %qs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x128x64xf16, strided<[8192, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x128x64xf16>
      %q2 = vector.transpose %q3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x128x64xf16> to vector<128x1x64xf16>
      %q = vector.shape_cast %q2 {attncc.layout = #monoid.fragment<smem>} : vector<128x1x64xf16> to vector<128x64xf16>
      // expected-error @+1 {{attncc-lower-wgmma: the product has no register fence after its wait (attncc-place-waits)}}
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %q, %zero {attncc.atom = "wgmma.m64n128k16", attncc.family = "wgmma", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<128x64xf16> into vector<128x128xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32>
      gpu.return
    }
  }
}

// -----

// wgmma takes its right operand only from shared memory.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @regs_b(%q: vector<128x64xf16>, %k: vector<128x64xf16>, %out: memref<128x128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 0 : i64, warps = 8 : i64}, known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      %qa = arith.addf %q, %q {attncc.layout = #monoid.fragment<a>} : vector<128x64xf16>
      %kb = arith.addf %k, %k {attncc.layout = #monoid.fragment<b.nk>} : vector<128x64xf16>
      // expected-error @+1 {{wgmma reads its right operand from shared memory, not layout 'b.nk'}}
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %qa, %kb, %zero {attncc.atom = "wgmma.m64n128k16", attncc.family = "wgmma", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<128x64xf16> into vector<128x128xf32>
      nvvm.wgmma.wait.group.sync.aligned 0
      nvvm.inline_ptx "" rw(%s : vector<128x128xf32>)
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32>
      gpu.return
    }
  }
}

// -----

// OVERLAP=pv: the loop carries the current V block and the previous one,
// both starting as the block read before the loop, and beside them their
// slots' views (attncc-lower-copies), both starting as that block's view.
// The previous block's P*V reads the previous block's view (the block's
// rank among the iter_args that share its init), not the current one's.
// CHECK-LABEL: gpu.func @two_blocks_one_init
// CHECK:       scf.for {{.+}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[CUR:[^ ]+]] = %[[VIEW:[^ ]+]], %[[PREV:[^ ]+]] = %[[VIEW]])
// CHECK-NOT:     monoid.smem_descriptor %[[CUR]]
// CHECK:         monoid.smem_descriptor %[[PREV]][%c0, %{{.+}}, %c0] {leading_byte_offset = 8192 : i64
// CHECK-NOT:     monoid.smem_descriptor %[[CUR]]
// CHECK:       } {attncc.layouts
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two_blocks_one_init(%p: vector<128x64xf16>, %o0: vector<128x64xf32>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 16384 : i64, warps = 8 : i64}, known_block_size = array<i32: 256, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1x64x64xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %vs = memref.subview %vv[%c0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<2x1x64x64xf16, #gpu.address_space<workgroup>> to memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %v3 = vector.transfer_read %vs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<1x64x64xf16>
      %v2 = vector.transpose %v3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x64x64xf16> to vector<64x1x64xf16>
      %v = vector.shape_cast %v2 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xf16> to vector<64x64xf16>
      %pa = arith.addf %p, %p {attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>
      %r:5 = scf.for %j = %c0 to %c4 step %c1 iter_args(%o = %o0, %cur = %v, %prev = %v, %cur_view = %vs, %prev_view = %vs) -> (vector<128x64xf32>, vector<64x64xf16>, vector<64x64xf16>, memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>) {
        %o1 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %pa, %prev, %o {attncc.atom = "wgmma.m64n64k16", attncc.family = "wgmma", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.inline_ptx "" rw(%o1 : vector<128x64xf32>)
        scf.yield %o1, %cur, %cur, %cur_view, %cur_view : vector<128x64xf32>, vector<64x64xf16>, vector<64x64xf16>, memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      } {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<smem>, #monoid.fragment<smem>, "", ""]}
      vector.transfer_write %r#0, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}
