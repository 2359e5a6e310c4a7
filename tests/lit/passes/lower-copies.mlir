// RUN: attncc-opt %s -split-input-file -attncc-lower-copies -verify-diagnostics | FileCheck %s

// cp.async, rows padded, one slot: each of the 128 threads copies 16-byte
// chunks (8 halves) of the 64x64 block into the slot, rows past the end of
// the tensor zero-filled (srcElements 0, read from row 0); the block its
// readers see is a read of the slot.
// CHECK-LABEL: gpu.func @cp_pad
// CHECK:       %[[VIEW:.+]] = memref.view
// CHECK:       %[[SLOT:.+]] = memref.subview %[[VIEW]][0, 0, 0] [1, 64, 72] [1, 1, 1] : memref<1x64x72xf16, #gpu.address_space<workgroup>> to memref<64x72xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>
// CHECK:       scf.for %[[CH:.+]] = %{{.+}} to %c512_i32 step %c128_i32  : i32 {
// CHECK:         %[[ROW:.+]] = arith.divui %[[CH]], %c8_i32 : i32
// CHECK:         %[[IN:.+]] = arith.cmpi ult, %{{.+}}, %{{.+}} : index
// CHECK:         %[[SAFE:.+]] = arith.select %[[IN]], %{{.+}}, %c0 : index
// CHECK:         %[[N:.+]] = arith.select %[[IN]], %c8, %c0 : index
// CHECK:         nvgpu.device_async_copy %arg0[%[[SAFE]], %{{.+}}], %[[SLOT]][%{{.+}}, %{{.+}}], 8, %[[N]] {bypassL1}
// CHECK:       }
// CHECK:       %[[BLK:.+]] = vector.transfer_read %[[SLOT]][%c0, %c0], %{{.+}} {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]}
// CHECK:       vector.contract {{.+}} %[[BLK]]
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @cp_pad(%k: memref<?x64xf16>, %q: vector<64x64xf16>, %acc: vector<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 9216 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]} : memref<?x64xf16>, vector<64x64xf16>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_j, %acc {attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      gpu.return
    }
  }
}

// -----

// A ring of two slots (cp): a private counter says which slot the next copy
// fills; each copy takes it and flips it.
// CHECK-LABEL: gpu.func @cp_ring
// CHECK:       %[[NEXT:.+]] = memref.alloca() : memref<i32>
// CHECK-NEXT:  memref.store %c0_i32, %[[NEXT]][] : memref<i32>
// CHECK:       %[[S:.+]] = memref.load %[[NEXT]][] : memref<i32>
// CHECK-NEXT:  %[[F:.+]] = arith.xori %[[S]], %c1_i32 : i32
// CHECK-NEXT:  memref.store %[[F]], %[[NEXT]][] : memref<i32>
// CHECK-NEXT:  %[[I:.+]] = arith.index_cast %[[S]] : i32 to index
// CHECK-NEXT:  memref.subview %{{.+}}[%[[I]], 0, 0] [1, 64, 72] [1, 1, 1]
// CHECK:       scf.for %{{.+}} = %{{.+}} to %c512_i32 step %c128_i32
// CHECK:         nvgpu.device_async_copy
// CHECK:       memref.load %[[NEXT]][] : memref<i32>
// CHECK:       nvgpu.device_async_copy
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @cp_ring(%k: memref<128x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %a = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<128x64xf16>, vector<64x64xf16>
      %b = vector.transfer_read %k[%c64, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<128x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// A loop that carries a cp ring block also carries the view of its slot
// (a memref iter_arg, "<block>_slot"): the first block's slot in, the next
// block's slot out. attncc-lower-mma reads the carried block from it.
// CHECK-LABEL: gpu.func @cp_ring_carried
// CHECK:       %[[S0:.+]] = memref.subview %{{.+}}[%{{.+}}, 0, 0] [1, 64, 72] [1, 1, 1]
// CHECK:       scf.for %{{.+}} = %{{.+}} to %c192 step %c64 iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %[[S0]]) -> (vector<64x64xf16>, memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>) {
// CHECK:         %[[S1:.+]] = memref.subview %{{.+}}[%{{.+}}, 0, 0] [1, 64, 72] [1, 1, 1]
// CHECK:         scf.yield %{{.+}}, %[[S1]] : vector<64x64xf16>, memref<64x72xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @cp_ring_carried(%k: memref<256x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c192 = arith.constant 192 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<256x64xf16>, vector<64x64xf16>
      %r = scf.for %i = %c0 to %c192 step %c64 iter_args(%blk = %k0) -> (vector<64x64xf16>) {
        %n = arith.addi %i, %c64 : index
        %next = vector.transfer_read %k[%n, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<256x64xf16>, vector<64x64xf16>
        scf.yield %next : vector<64x64xf16>
      } {attncc.layouts = [#monoid.fragment<smem>]}
      gpu.return
    }
  }
}

// -----

// In a fold, the 512 chunks of a 64x64 block divide evenly among 128
// threads: a loop of 4 steps (unrolled), each chunk 16 rows below the
// thread's previous one in the same column; rows past the end still test.
// A copy made once before the loop keeps the loop over the chunks.
// CHECK-LABEL: gpu.func @cp_in_fold
// CHECK:       scf.for %{{.+}} = %{{.+}} to %c512_i32 step %c128_i32
// CHECK:       scf.for
// CHECK:         %[[R0:.+]] = arith.divui %{{.+}}, %c8_i32 : i32
// CHECK-NEXT:    %[[R0I:.+]] = arith.index_cast %[[R0]] : i32 to index
// CHECK-NEXT:    %[[CH:.+]] = arith.remui %{{.+}}, %c8_i32 : i32
// CHECK-NEXT:    scf.for %[[STEP:.+]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      %[[BELOW:.+]] = arith.muli %[[STEP]], %c16 : index
// CHECK-NEXT:      %[[ROW:.+]] = arith.addi %[[R0I]], %[[BELOW]] : index
// CHECK-NEXT:      %[[MUL:.+]] = arith.muli %[[CH]], %c8_i32 : i32
// CHECK-NEXT:      %[[COL:.+]] = arith.index_cast %[[MUL]] : i32 to index
// CHECK-NEXT:      %[[AT:.+]] = arith.addi %{{.+}}, %[[ROW]] : index
// CHECK:           %[[IN:.+]] = arith.cmpi ult, %[[AT]], %{{.+}} : index
// CHECK-NEXT:      %[[SAFE:.+]] = arith.select %[[IN]], %[[AT]], %c0 : index
// CHECK-NEXT:      %[[N:.+]] = arith.select %[[IN]], %c8, %c0 : index
// CHECK-NEXT:      nvgpu.device_async_copy %arg0[%[[SAFE]], %[[COL]]], %{{.+}}[%[[ROW]], %[[COL]]], 8, %[[N]] {bypassL1}
// CHECK-NEXT:    } {attncc.unroll}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @cp_in_fold(%k: memref<?x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c192 = arith.constant 192 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]} : memref<?x64xf16>, vector<64x64xf16>
      %r = scf.for %i = %c0 to %c192 step %c64 iter_args(%blk = %k0) -> (vector<64x64xf16>) {
        %n = arith.addi %i, %c64 : index
        %next = vector.transfer_read %k[%n, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]} : memref<?x64xf16>, vector<64x64xf16>
        scf.yield %next : vector<64x64xf16>
      } {attncc.layouts = [#monoid.fragment<smem>]}
      gpu.return
    }
  }
}

// -----

// sync staging: the same chunks as 16-byte loads and stores, zeros selected
// for the rows past the end.
// CHECK-LABEL: gpu.func @sync_rows
// CHECK:       scf.for
// CHECK:         %[[V:.+]] = vector.load %arg0[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x64xf16>, vector<8xf16>
// CHECK:         %[[Z:.+]] = arith.select %{{.+}}, %[[V]], %{{.+}} : vector<8xf16>
// CHECK-NEXT:    vector.store %[[Z]], %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64}
// CHECK-NOT:     nvgpu.device_async_copy
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @sync_rows(%k: memref<?x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 8192 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x64xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<sync>, in_bounds = [false, true]} : memref<?x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// TMA, a ring of two carried by the fold: the kernel takes a descriptor
// argument, which the launch makes on the host; thread 0 waits for a free
// slot (phase of the fill count, flipped: a fresh barrier has completed
// parity 1), announces the bytes and loads the box; the fold carries the
// block's slot, waits for it on "full" (phase of the wait count) and
// releases it on "empty" by lane 0 of each warp; the last prefetch is
// waited for before the kernel ends.
// CHECK-LABEL: func.func @host
// CHECK:       %[[U:.+]] = memref.cast %arg0 : memref<256x64xf16> to memref<*xf16>
// CHECK:       %[[D:.+]] = nvgpu.tma.create.descriptor %[[U]] box[%{{.+}}, %{{.+}}] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK:       gpu.launch_func @m::@tma blocks in ({{.+}}) threads in ({{.+}}) args(%arg0 : memref<256x64xf16>, %[[D]] : !nvgpu.tensormap.descriptor
// CHECK-LABEL: gpu.func @tma
// CHECK-SAME:  (%arg0: memref<256x64xf16>, %[[DESC:[a-z0-9_]+]]: !nvgpu.tensormap.descriptor
// CHECK:       %[[W:.+]] = memref.alloca() : memref<i32>
// CHECK:       %[[R:.+]] = memref.alloca() : memref<i32>
// CHECK:       %[[W0:.+]] = memref.load %[[W]][] : memref<i32>
// CHECK:       %[[S0:.+]] = arith.index_cast %{{.+}} : i32 to index
// CHECK:       scf.if %{{.+}} {
// CHECK:         %[[FREE:.+]] = arith.cmpi eq, %{{.+}}, %c0_i32 : i32
// CHECK-NEXT:    nvgpu.mbarrier.try_wait.parity %[[EMPTY:.+]][%[[S0]]], %[[FREE]], %{{.+}}
// CHECK-NEXT:    nvgpu.mbarrier.arrive.expect_tx %[[FULL:.+]][%[[S0]]], %c8192
// CHECK-NEXT:    %[[BOX:.+]] = memref.subview %{{.+}}[%[[S0]], 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<2x1x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT:    nvgpu.tma.async.load %[[DESC]][%{{c0.*}}, %{{c0.*}}], %[[FULL]][%[[S0]]] to %[[BOX]]
// CHECK:       scf.for %{{.+}} = %{{.+}} to %c192 step %c64 iter_args(%[[B:.+]] = %{{.+}}, %[[BS:.+]] = %[[S0]]) -> (vector<64x64xf16>, index) {
// CHECK:         nvgpu.tma.async.load
// CHECK:         memref.load %[[R]][] : memref<i32>
// CHECK:         %[[LANDED:.+]] = arith.cmpi ne, %{{.+}}, %c0_i32 : i32
// CHECK-NEXT:    nvgpu.mbarrier.try_wait.parity %[[FULL]][%{{.+}}], %[[LANDED]], %{{.+}}
// CHECK:         nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK:         nvgpu.mbarrier.arrive %[[EMPTY]][%[[BS]]]
// CHECK:         scf.yield %{{.+}}, %{{.+}} : vector<64x64xf16>, index
// CHECK:       scf.if %{{.+}} {
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1_i32  : i32 {
// CHECK:           nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK-NOT:   monoid.tma
module attributes {gpu.container_module} {
  func.func @host(%k: memref<256x64xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @m::@tma blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%k : memref<256x64xf16>)
    return
  }
  gpu.module @m {
    gpu.func @tma(%k: memref<256x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 17408 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c192 = arith.constant 192 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1x64x64xf16, #gpu.address_space<workgroup>>
      %full = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      %empty = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      %pad = arith.constant 0.0 : f16
      %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>, in_bounds = [true, true]} : memref<256x64xf16>, vector<64x64xf16>
      %r = scf.for %i = %c0 to %c192 step %c64 iter_args(%blk = %k0) -> (vector<64x64xf16>) {
        %n = arith.addi %i, %c64 : index
        %next = vector.transfer_read %k[%n, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>, in_bounds = [true, true]} : memref<256x64xf16>, vector<64x64xf16>
        monoid.tma_wait %blk : vector<64x64xf16>
        monoid.tma_release %blk : vector<64x64xf16>
        scf.yield %next : vector<64x64xf16>
      } {attncc.layouts = [#monoid.fragment<smem>]}
      gpu.return
    }
  }
}

// -----

// GRID=persistent (attncc.persistent): the fold runs in a tile loop, so a
// ring must fill exactly the slots its fold waits for, or the next tile
// starts out of step. The first block is issued only when the fold runs at
// all (lb < ub: a tile of fully masked rows has no keys), the prefetch
// only when there is a next block (iv + step < ub); each branch counts the
// fill and yields its slot (0 when there is no block, never read). The
// drain after the loop then has nothing left to wait for.
// CHECK-LABEL: gpu.func @tma_tiles
// CHECK:       %[[W:.+]] = memref.alloca() : memref<i32>
// CHECK:       scf.for %[[T:.+]] = %{{.+}} to %c4 step %{{.+}} {
// CHECK-NEXT:    %[[HI:.+]] = arith.muli %[[T]], %c64 : index
// CHECK-NEXT:    %[[FIRST:.+]] = arith.cmpi slt, %{{.+}}, %[[HI]] : index
// CHECK-NEXT:    %[[S0:.+]] = scf.if %[[FIRST]] -> (index) {
// CHECK-NEXT:      memref.load %[[W]][] : memref<i32>
// CHECK:           nvgpu.tma.async.load
// CHECK:           scf.yield %{{.+}} : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %c0 : index
// CHECK-NEXT:    } {attncc.ring_guard}
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %[[HI]] step %c64 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %[[S0]]) -> (vector<64x64xf16>, index) {
// CHECK:           arith.addi %[[I]], %c64 : index
// CHECK:           %[[N:.+]] = arith.addi %[[I]], %c64 : index
// CHECK-NEXT:      %[[MORE:.+]] = arith.cmpi slt, %[[N]], %[[HI]] : index
// CHECK-NEXT:      scf.if %[[MORE]] -> (index) {
// CHECK-NEXT:        memref.load %[[W]][] : memref<i32>
// CHECK:             nvgpu.tma.async.load
// CHECK:           } {attncc.ring_guard}
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK:       } {attncc.tile_loop}
module attributes {gpu.container_module} {
  func.func @host(%k: memref<256x64xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @m::@tma_tiles blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%k : memref<256x64xf16>)
    return
  }
  gpu.module @m {
    gpu.func @tma_tiles(%k: memref<256x64xf16>) kernel attributes {attncc.persistent, attncc.tile = {rows = 64 : i64, smem = 17408 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c192 = arith.constant 192 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1x64x64xf16, #gpu.address_space<workgroup>>
      %full = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      %empty = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      %pad = arith.constant 0.0 : f16
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      scf.for %t = %bx to %c4 step %gx {
        %hi = arith.muli %t, %c64 : index
        %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>, in_bounds = [true, true]} : memref<256x64xf16>, vector<64x64xf16>
        %r = scf.for %i = %c0 to %hi step %c64 iter_args(%blk = %k0) -> (vector<64x64xf16>) {
          %n = arith.addi %i, %c64 : index
          %next = vector.transfer_read %k[%n, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>, in_bounds = [true, true]} : memref<256x64xf16>, vector<64x64xf16>
          monoid.tma_wait %blk : vector<64x64xf16>
          monoid.tma_release %blk : vector<64x64xf16>
          scf.yield %next : vector<64x64xf16>
        } {attncc.layouts = [#monoid.fragment<smem>]}
      } {attncc.tile_loop}
      gpu.return
    }
  }
}

// -----

// A staged read whose buffer attncc-allocate-smem did not place.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @unplaced(%k: memref<64x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 9216 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      // expected-error @+1 {{attncc-lower-copies: no shared buffer at offset 4096}}
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 4096 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true]} : memref<64x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// A staged read that is not a row-major block of its buffer's last two
// dimensions (a transposed read).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @transposed(%k: memref<64x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 9216 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x72xf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : f16
      // expected-error @+1 {{attncc-lower-copies: a staged read needs a 2-d block of its buffer's last two dimensions}}
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<64x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}
