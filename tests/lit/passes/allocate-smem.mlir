// RUN: attncc-opt %s -split-input-file -attncc-allocate-smem -verify-diagnostics | FileCheck %s

// Two padded blocks (cp.pad: 64 rows of 64 + 8 halves, 9216 B each) one
// after the other on 128-byte boundaries: offsets 0 and 9216, 18432 B in all.

// CHECK-LABEL: gpu.func @padded
// CHECK-SAME:  attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}
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

// CHECK-LABEL: gpu.func @rings
// CHECK-SAME:  attncc.tile = {rows = 64 : i64, smem = 33792 : i64, warps = 4 : i64}
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
    // expected-error@+1 {{'gpu.func' op attncc-allocate-smem: the staged blocks need 18432 B of shared memory, more than the 16384 B sm_xx allows a block (use a smaller tile, no ring, or no /pad)}}
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
