// RUN: attncc-opt %s -split-input-file -attncc-allocate-smem -verify-diagnostics | FileCheck %s

// Two padded blocks (cp.pad: 64 rows of 64 + 8 halves, 9216 B each) one
// after the other on 128-byte boundaries: offsets 0 and 9216, 18432 B in all.

// The buffers are ops at the top of the body: the dynamic shared memory and
// one view per block, [slots, rows, row stride] (64 + 8 halves).
// CHECK-LABEL: gpu.func @padded
// CHECK-SAME:  attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}
// CHECK:       %[[RAW:.+]] = gpu.dynamic_shared_memory {attncc.align = 128 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C9216:.+]] = arith.constant 9216 : index
// CHECK:       memref.view %[[RAW]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x72xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:  memref.view %[[RAW]][%[[C9216]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x72xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:   nvgpu.mbarrier
// CHECK:       vector.transfer_read {{.+}}attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>
// CHECK:       vector.transfer_read {{.+}}attncc.smem_offset = 9216 : i64, attncc.stage = #monoid.staged<cp, pad>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @padded(%k: memref<64x64xf16>, %v: memref<64x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.stage = #monoid.staged<cp, pad>} : memref<64x64xf16>, vector<64x64xf16>
      %v_j = vector.transfer_read %v[%c0, %c0], %pad {attncc.stage = #monoid.staged<cp, pad>} : memref<64x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// A ring of two slots (its reads share one offset) of swizzled 64x64 blocks,
// then a second ring: swizzled blocks sit on 1024-byte boundaries, and the
// kernel asks for 1024 B more (the emitter aligns the base up to 1024).
// Ring 0: 2 x 8192 B at 0; ring 1 at 16384; 32768 + 1024 = 33792 B.

// Each ring is one view, its slots leading, its blocks as 128-byte slabs
// ([2, 1 slab, 64 rows, 64 halves]); a TMA ring has a "full" and an "empty"
// mbarrier per slot, which thread 0 initializes (full: 1 arrival, empty: one
// per warp) and fences before the CTA's barrier.
// CHECK-LABEL: gpu.func @rings
// CHECK-SAME:  attncc.tile = {rows = 64 : i64, smem = 33792 : i64, warps = 4 : i64}
// CHECK:       %[[RAW:.+]] = gpu.dynamic_shared_memory {attncc.align = 1024 : i64}
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C16384:.+]] = arith.constant 16384 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK:       memref.view %[[RAW]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1x64x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[F0:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK-NEXT:  %[[E0:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK-NEXT:  memref.view %[[RAW]][%[[C16384]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1x64x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[F1:.+]] = nvgpu.mbarrier.create
// CHECK-NEXT:  %[[E1:.+]] = nvgpu.mbarrier.create
// CHECK-NEXT:  %[[T:.+]] = gpu.thread_id x
// CHECK-NEXT:  %[[IS0:.+]] = arith.cmpi eq, %[[T]], %[[C0]] : index
// CHECK-NEXT:  scf.if %[[IS0]] {
// CHECK-NEXT:    nvgpu.mbarrier.init %[[F0]][%[[C0]]], %[[C1]]
// CHECK-NEXT:    nvgpu.mbarrier.init %[[E0]][%[[C0]]], %[[C4]]
// CHECK-NEXT:    nvgpu.mbarrier.init %[[F0]][%[[C1]]], %[[C1]]
// CHECK-NEXT:    nvgpu.mbarrier.init %[[E0]][%[[C1]]], %[[C4]]
// CHECK-NEXT:    nvgpu.mbarrier.init %[[F1]][%[[C0]]], %[[C1]]
// CHECK-NEXT:    nvgpu.mbarrier.init %[[E1]][%[[C0]]], %[[C4]]
// CHECK-NEXT:    nvgpu.mbarrier.init %[[F1]][%[[C1]]], %[[C1]]
// CHECK-NEXT:    nvgpu.mbarrier.init %[[E1]][%[[C1]]], %[[C4]]
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.barrier
// CHECK:       vector.transfer_read {{.+}}attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64
// CHECK:       vector.transfer_read {{.+}}attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64
// CHECK:       vector.transfer_read {{.+}}attncc.ring = 1 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 16384 : i64
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @rings(%k: memref<64x64xf16>, %v: memref<64x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<64x64xf16>, vector<64x64xf16>
      %k1 = vector.transfer_read %k[%c0, %c0], %pad {attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<64x64xf16>, vector<64x64xf16>
      %v0 = vector.transfer_read %v[%c0, %c0], %pad {attncc.ring = 1 : i64, attncc.ring_slots = 2 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<64x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// REPACK=smem: the handoff contraction's left operand (P, 64x64 halves) gets
// a slab of rows padded to 64 + 8 halves after the staged blocks: offset 0
// here (nothing is staged), 9216 B.

#a = affine_map<(i, j, d) -> (i, d)>
#v = affine_map<(i, j, d) -> (d, j)>
#c = affine_map<(i, j, d) -> (i, j)>
// CHECK-LABEL: gpu.func @handoff
// CHECK-SAME:  attncc.tile = {rows = 64 : i64, smem = 9216 : i64, warps = 4 : i64}
// CHECK:       memref.view {{.+}} to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK:       vector.contract {{.+}} {attncc.handoff = "smem", attncc.handoff_offset = 0 : i64}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @handoff(%p: vector<64x64xf16>, %vv: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %v_j = vector.transfer_read %vv[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %pv = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v_j, %zero {attncc.handoff = "smem"} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %pv, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// Over the target's limit (the driver records it on the module): refused,
// naming both numbers. Two padded blocks need 18432 B; the limit here is
// 16384 B.

module attributes {gpu.container_module, attncc.smem_limit = 16384 : i64, attncc.target = "sm_xx"} {
  gpu.module @m {
    // expected-error@+1 {{'gpu.func' op attncc-allocate-smem: the staged blocks need more shared memory than sm_xx allows a block: required 18432 B, limit 16384 B (use a smaller tile, no ring, or no /pad)}}
    gpu.func @too_big(%k: memref<64x64xf16>, %v: memref<64x64xf16>) kernel attributes {attncc.tile = {rows = 64 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.stage = #monoid.staged<cp, pad>} : memref<64x64xf16>, vector<64x64xf16>
      %v_j = vector.transfer_read %v[%c0, %c0], %pad {attncc.stage = #monoid.staged<cp, pad>} : memref<64x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// A kernel without attncc.tile (the scalar rung) stages nothing: untouched.

// CHECK-LABEL: gpu.func @scalar
// CHECK-NOT:   attncc.tile
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @scalar(%x: memref<64xf32>) kernel {
      gpu.return
    }
  }
}
