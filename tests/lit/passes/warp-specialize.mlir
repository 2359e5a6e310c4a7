// RUN: attncc-opt %s -split-input-file -attncc-warp-specialize -verify-diagnostics | FileCheck %s

// WSPEC=load1 (producers = 1 after 8 warps with rows): the body is split by
// role. The producers' region (warp >= 8) holds one thread's (warp 8, lane 0)
// clone of the TMA copy and of the loop around it, as a bare counted loop:
// no iter_args, no contraction. The consumers' region is the kernel as it
// was. One producer warp cannot take part in setmaxnreg (whole warpgroups
// only), so there is none.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
// CHECK-LABEL: gpu.func @load1
// CHECK:       %[[W:.+]] = gpu.subgroup_id : index
// CHECK-NEXT:  %[[L:.+]] = gpu.lane_id
// CHECK-NEXT:  %[[C8:.+]] = arith.constant 8 : index
// CHECK-NEXT:  %[[P:.+]] = arith.cmpi sge, %[[W]], %[[C8]] : index
// CHECK-NEXT:  scf.if %[[P]] {
// CHECK-NOT:     nvvm.setmaxregister
// CHECK:         %[[F:.+]] = arith.cmpi eq, %[[W]], %{{.+}} : index
// CHECK-NEXT:    scf.if %[[F]] {
// CHECK:           %[[I:.+]] = arith.cmpi eq, %[[L]], %{{.+}} : index
// CHECK-NEXT:      scf.if %[[I]] {
// CHECK:             scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:          vector.transfer_read %{{.+}}[%[[J]], %{{.+}}], %{{.+}} {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  } else {
// CHECK-NOT:     nvvm.setmaxregister
// CHECK:         scf.for {{.*}} iter_args
// CHECK-NEXT:      vector.transfer_read {{.*}}attncc.stage = #monoid.staged<tma, swz>
// CHECK-NEXT:      vector.contract
// CHECK:         vector.transfer_write
// CHECK-NEXT:  } {attncc.roles}
// CHECK-NEXT:  gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load1(%q: vector<128x64xf16>, %k: memref<256x64xf16>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {producers = 1 : i64, rows = 128 : i64, smem = 17408 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<128x64xf32>
      %o = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc = %zero) -> (vector<128x64xf32>) {
        %k_j = vector.transfer_read %k[%j, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
        %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_j, %acc {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
        scf.yield %s : vector<128x64xf32>
      } {attncc.layouts = [#monoid.fragment<c>]}
      vector.transfer_write %o, %out[%c0, %c0] : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}

// -----

// WSPEC=load4: a producer warpgroup gives registers back (40 per thread);
// the 8 consumer warps take what is left of 64K registers, rounded down to
// a multiple of 8: (65536 - 128 * 40) / 256 = 236 -> 232.

// CHECK-LABEL: gpu.func @load4
// CHECK:       scf.if %{{.+}} {
// CHECK-NEXT:    nvvm.setmaxregister decrease 40
// CHECK:       } else {
// CHECK-NEXT:    nvvm.setmaxregister increase 232
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load4(%k: memref<256x64xf16>, %out: memref<64x64xf16>) kernel attributes {attncc.tile = {producers = 4 : i64, rows = 128 : i64, smem = 17408 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// tcgen05 with two Q tiles and WSPEC=load1/mma1: the load and mma warps and
// two idle warps (attncc.tile.idle) make one warpgroup, which keeps 56
// registers a thread (the mma warp builds descriptors); the 8 row warps take
// (65536 - 128 * 56) / 256 = 228 -> 224.

// CHECK-LABEL: gpu.func @load1_mma1_idle2
// CHECK:       scf.if %{{.+}} {
// CHECK-NEXT:    nvvm.setmaxregister decrease 56
// CHECK:       } else {
// CHECK-NEXT:    nvvm.setmaxregister increase 224
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load1_mma1_idle2(%k: memref<256x64xf16>, %out: memref<64x64xf16>) kernel attributes {attncc.tile = {idle = 2 : i64, mma = 1 : i64, producers = 1 : i64, rows = 256 : i64, smem = 17408 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// A kernel without producers is left alone.

// CHECK-LABEL: gpu.func @none
// CHECK-NOT:   attncc.roles
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @none(%k: memref<256x64xf16>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 17408 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
      gpu.return
    }
  }
}

// -----

// Refused: the producer runs no branches.

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @branch(%k: memref<256x64xf16>, %flag: i1) kernel attributes {attncc.tile = {producers = 1 : i64, rows = 128 : i64, smem = 17408 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      scf.if %flag {
        // expected-error@+1 {{attncc-warp-specialize: WSPEC=load1: a TMA copy inside a branch is not supported}}
        %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
      }
      gpu.return
    }
  }
}

// -----

// Refused: the producer runs the loops without their carried state.

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @carried(%k: memref<256x64xf16>) kernel attributes {attncc.tile = {producers = 1 : i64, rows = 128 : i64, smem = 17408 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      // expected-error@+1 {{attncc-warp-specialize: WSPEC=load1: a TMA copy's index depends on the fold's carried state}}
      %r = scf.for %j = %c0 to %c256 step %c64 iter_args(%row = %c0) -> (index) {
        %k_j = vector.transfer_read %k[%row, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
        %next = arith.addi %row, %c64 : index
        scf.yield %next : index
      }
      gpu.return
    }
  }
}

// -----

// The kernel's shared memory (attncc-allocate-smem: the view, the mbarriers
// and their initialization up to the CTA barrier) stays before the split:
// both roles use it. The rest moves into the roles as before.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
// CHECK-LABEL: gpu.func @shared_stays
// CHECK:       gpu.dynamic_shared_memory
// CHECK:       memref.view
// CHECK-NEXT:  nvgpu.mbarrier.create
// CHECK-NEXT:  nvgpu.mbarrier.create
// CHECK:       scf.if
// CHECK-NEXT:    nvgpu.mbarrier.init
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  gpu.subgroup_id
// CHECK-NEXT:  gpu.lane_id
// CHECK-NOT:   gpu.dynamic_shared_memory
// CHECK-NOT:   memref.view
// CHECK-NOT:   nvgpu.mbarrier
// CHECK:       scf.if
// CHECK:       } else {
// CHECK:         scf.for
// CHECK:       } {attncc.roles}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @shared_stays(%q: vector<128x64xf16>, %k: memref<256x64xf16>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {producers = 1 : i64, rows = 128 : i64, smem = 17408 : i64, warps = 8 : i64}} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %k_smem = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x64x64xf16, #gpu.address_space<workgroup>>
      %full = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
      %empty = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        nvgpu.mbarrier.init %full[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
        nvgpu.mbarrier.init %empty[%c0], %c8 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
        nvvm.fence.mbarrier.init
      }
      gpu.barrier
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<128x64xf32>
      %o = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc = %zero) -> (vector<128x64xf32>) {
        %k_j = vector.transfer_read %k[%j, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
        %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_j, %acc {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
        scf.yield %s : vector<128x64xf32>
      } {attncc.layouts = [#monoid.fragment<c>]}
      vector.transfer_write %o, %out[%c0, %c0] : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}
