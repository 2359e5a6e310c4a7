// RUN: attncc-opt %s -split-input-file -attncc-allocate-tmem -verify-diagnostics | FileCheck %s

// Two tcgen05 products (issue 14): S = Q K^T (128 columns) at column 0 and
// O += P V (128 columns) after it: 256 columns, a power of two. Warp 0
// allocates them into a shared word placed after the other buffers (16
// bytes more shared memory, with the mbarrier of the products' commits
// that thread 0 initializes), relinquishes the permit; every thread reads
// the address between the two fences around a barrier; before the return,
// a fence, a barrier and warp 0's dealloc of the same 256 columns.
// CHECK-LABEL: gpu.func @two_products
// CHECK-SAME:  attncc.tile = {rows = 128 : i64, smem = 49168 : i64, tmem = 256 : i64, warps = 4 : i64}
// CHECK:       %[[RAW:.+]] = gpu.dynamic_shared_memory
// CHECK-NEXT:  %[[WORD:.+]] = memref.view %[[RAW]][%c49152][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[W:.+]] = gpu.subgroup_id : index
// CHECK-NEXT:  %[[FIRST:.+]] = arith.cmpi eq, %[[W]], %c0 : index
// CHECK-NEXT:  scf.if %[[FIRST]] {
// CHECK-NEXT:    %[[A:.+]] = memref.extract_aligned_pointer_as_index %[[WORD]]
// CHECK-NEXT:    %[[A64:.+]] = arith.index_cast %[[A]] : index to i64
// CHECK-NEXT:    %[[P:.+]] = llvm.inttoptr %[[A64]] : i64 to !llvm.ptr<3>
// CHECK-NEXT:    nvvm.tcgen05.alloc %[[P]], %c256_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT:    nvvm.tcgen05.relinquish_alloc_permit
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[BAR:.+]] = memref.view %[[RAW]][%c49160][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[TID:.+]] = gpu.thread_id x
// CHECK-NEXT:  %[[T0:.+]] = arith.cmpi eq, %[[TID]], %c0 : index
// CHECK-NEXT:  scf.if %[[T0]] {
// CHECK-NEXT:    %[[BA:.+]] = memref.extract_aligned_pointer_as_index %[[BAR]]
// CHECK-NEXT:    %[[BA64:.+]] = arith.index_cast %[[BA]] : index to i64
// CHECK-NEXT:    %[[BP:.+]] = llvm.inttoptr %[[BA64]] : i64 to !llvm.ptr<3>
// CHECK-NEXT:    nvvm.mbarrier.init %[[BP]], %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.tcgen05.fence <before>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  nvvm.tcgen05.fence <after>
// CHECK-NEXT:  %[[T:.+]] = memref.load %[[WORD]][%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK:       vector.contract {{.+}} {attncc.atom = "tcgen05.m128n128k16", attncc.tmem_col = 0 : i64}
// CHECK:       vector.contract {{.+}} {attncc.atom = "tcgen05.m128n128k16", attncc.tmem_col = 128 : i64}
// CHECK:       nvvm.tcgen05.fence <before>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  scf.if %[[FIRST]] {
// CHECK-NEXT:    %[[TP:.+]] = llvm.inttoptr %[[T]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:    nvvm.tcgen05.dealloc %[[TP]], %c256_i32 : !llvm.ptr<6>
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two_products(%q: vector<128x64xbf16>, %k: vector<128x64xbf16>, %p: vector<128x128xbf16>, %v: vector<128x128xbf16>, %o: vector<128x128xf32>, %out: memref<128x128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 49152 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "tcgen05.m128n128k16"} : vector<128x64xbf16>, vector<128x64xbf16> into vector<128x128xf32>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v, %o {attncc.atom = "tcgen05.m128n128k16"} : vector<128x128xbf16>, vector<128x128xbf16> into vector<128x128xf32>
      %sum = arith.addf %s, %r : vector<128x128xf32>
      vector.transfer_write %sum, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32>
      gpu.return
    }
  }
}

// -----

// A kernel without tcgen05 products is left as it is.
// CHECK-LABEL: gpu.func @none
// CHECK-SAME:  attncc.tile = {rows = 64 : i64, smem = 0 : i64, warps = 4 : i64}
// CHECK-NOT:   nvvm.tcgen05
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @none(%out: memref<64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// S of 256 columns and O of 256 (a d256 head) need 512: the most a CTA has.
// One more column than that is refused, naming what is required and the
// limit.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{attncc-allocate-tmem: the products need more tensor memory than a CTA has: required 520 columns (S 256, O 264), limit 512}}
    gpu.func @too_wide(%q: vector<128x64xbf16>, %k: vector<256x64xbf16>, %p: vector<128x256xbf16>, %v: vector<256x264xbf16>, %o: vector<128x264xf32>, %out: memref<128x264xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 1024 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<128x256xf32>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "tcgen05.m128n256k16"} : vector<128x64xbf16>, vector<256x64xbf16> into vector<128x256xf32>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v, %o {attncc.atom = "tcgen05.m128n264k16"} : vector<128x256xbf16>, vector<256x264xbf16> into vector<128x264xf32>
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x264xf32>, memref<128x264xf32>
      gpu.return
    }
  }
}

// -----

// Warp roles (WSPEC) with tcgen05 are not built yet: refused.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{attncc-allocate-tmem: tcgen05 atoms in a kernel split into warp roles (WSPEC) are not built yet}}
    gpu.func @roles(%q: vector<128x64xbf16>, %k: vector<128x64xbf16>, %c: i1, %out: memref<128x128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 1024 : i64, warps = 4 : i64}, known_block_size = array<i32: 160, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      scf.if %c {
      } else {
        %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "tcgen05.m128n128k16"} : vector<128x64xbf16>, vector<128x64xbf16> into vector<128x128xf32>
        vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32>
      } {attncc.roles}
      gpu.return
    }
  }
}

// -----

// Two Q tiles (w8x1: 8 row warps, 256 rows): each Q tile has its own S
// (64 columns) and O (64 columns), the second tile's after the first's
// (tmem_qtile = 128), 256 columns in all; one mma_done mbarrier per Q tile,
// 16 bytes apart (element 2g of the view), each initialized for the one
// commit of its tile's products: the word and the view of three, 32 bytes
// of shared memory (element 1, where an mma warp's ready mbarrier would
// go, unused).
// CHECK-LABEL: gpu.func @two_q_tiles
// CHECK-SAME:  attncc.tile = {rows = 256 : i64, smem = 49184 : i64, tmem = 256 : i64, tmem_qtile = 128 : i64, warps = 8 : i64}
// CHECK:       %[[BAR:.+]] = memref.view %{{.+}}[%c49160][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xi64, #gpu.address_space<workgroup>>
// CHECK:       scf.if
// CHECK-NEXT:    %[[B0:.+]] = memref.extract_aligned_pointer_as_index %[[BAR]]
// CHECK-NEXT:    %[[B064:.+]] = arith.index_cast %[[B0]] : index to i64
// CHECK-NEXT:    %[[P0:.+]] = llvm.inttoptr %[[B064]] : i64 to !llvm.ptr<3>
// CHECK-NEXT:    nvvm.mbarrier.init %[[P0]], %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT:    %[[B1:.+]] = memref.extract_aligned_pointer_as_index %[[BAR]]
// CHECK-NEXT:    %[[B116:.+]] = arith.addi %[[B1]], %c16 : index
// CHECK-NEXT:    %[[B164:.+]] = arith.index_cast %[[B116]] : index to i64
// CHECK-NEXT:    %[[P1:.+]] = llvm.inttoptr %[[B164]] : i64 to !llvm.ptr<3>
// CHECK-NEXT:    nvvm.mbarrier.init %[[P1]], %c1_i32 : !llvm.ptr<3>, i32
// CHECK:       vector.contract {{.+}} {attncc.atom = "tcgen05.m128n64k16", attncc.tmem_col = 0 : i64}
// CHECK:       vector.contract {{.+}} {attncc.atom = "tcgen05.m128n64k16", attncc.tmem_col = 64 : i64}
// CHECK:       nvvm.tcgen05.dealloc %{{.+}}, %c256_i32 : !llvm.ptr<6>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two_q_tiles(%q: vector<256x64xbf16>, %k: vector<64x64xbf16>, %p: vector<256x64xbf16>, %v: vector<64x64xbf16>, %o: vector<256x64xf32>, %out: memref<256x64xf32>) kernel attributes {attncc.tile = {rows = 256 : i64, smem = 49152 : i64, warps = 8 : i64}, known_block_size = array<i32: 256, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<256x64xf32>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "tcgen05.m128n64k16"} : vector<256x64xbf16>, vector<64x64xbf16> into vector<256x64xf32>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v, %o {attncc.atom = "tcgen05.m128n64k16"} : vector<256x64xbf16>, vector<64x64xbf16> into vector<256x64xf32>
      %sum = arith.addf %s, %r : vector<256x64xf32>
      vector.transfer_write %sum, %out[%c0, %c0] {in_bounds = [true, true]} : vector<256x64xf32>, memref<256x64xf32>
      gpu.return
    }
  }
}

// -----

// With the mma warp and a correction warpgroup (corr = 4, one Q tile): after
// the word (8 bytes), mma_done and mma_ready (at 49160 and 49168), the
// correction mbarriers, corr_full at 49176 (128 arrivals: the row warps
// publish their factors) and o_ready 8 bytes on (128: the correction warps
// rescaled O), then the factors, an f32 a row, at the next 16 bytes
// (49200): smem = 49200 + 512.
// CHECK-LABEL: gpu.func @corr_views
// CHECK-SAME:  smem = 49712 : i64
// CHECK:       %[[FULL:.+]] = memref.view %{{.+}}[%c49176][] {attncc.corr_full} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[OR:.+]] = memref.view %{{.+}}[%c49184][] {attncc.o_ready} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT:  memref.view %{{.+}}[%c49200][] {attncc.corr_scale} : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK:       scf.if
// CHECK:         nvvm.mbarrier.init %{{.+}}, %c128_i32 : !llvm.ptr<3>, i32
// CHECK:         %[[F0:.+]] = memref.extract_aligned_pointer_as_index %[[FULL]]
// CHECK-NEXT:    %[[F064:.+]] = arith.index_cast %[[F0]] : index to i64
// CHECK-NEXT:    %[[FP:.+]] = llvm.inttoptr %[[F064]] : i64 to !llvm.ptr<3>
// CHECK-NEXT:    nvvm.mbarrier.init %[[FP]], %c128_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT:    %[[R0:.+]] = memref.extract_aligned_pointer_as_index %[[OR]]
// CHECK-NEXT:    %[[R064:.+]] = arith.index_cast %[[R0]] : index to i64
// CHECK-NEXT:    %[[RP:.+]] = llvm.inttoptr %[[R064]] : i64 to !llvm.ptr<3>
// CHECK-NEXT:    nvvm.mbarrier.init %[[RP]], %c128_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT:    nvvm.fence.mbarrier.init
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @corr_views(%q: vector<128x64xbf16>, %k: vector<64x64xbf16>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {corr = 4 : i64, idle = 2 : i64, mma = 1 : i64, producers = 1 : i64, rows = 128 : i64, smem = 49152 : i64, warps = 4 : i64}, known_block_size = array<i32: 384, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<128x64xf32>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "tcgen05.m128n64k16"} : vector<128x64xbf16>, vector<64x64xbf16> into vector<128x64xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}
