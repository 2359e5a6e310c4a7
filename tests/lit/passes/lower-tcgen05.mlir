// RUN: attncc-opt %s -split-input-file -attncc-lower-tcgen05 -verify-diagnostics | FileCheck %s

// S = Q K^T on tcgen05 (the SS form): Q [128 x 64] and K [128 x 64] in
// 128-byte swizzled slots, a zero accumulator (nothing is stored to tensor
// memory first). After the fences around the barrier, thread 0 issues one
// nvvm.tcgen05.mma per k16 step into S's columns (the base address plus
// attncc.tmem_col), accumulating from the second step on, with the
// descriptors of both slots (monoid.smem_descriptor {tcgen05}) and the
// instruction descriptor of m128n128k16 f16 -> f32, both K-major
// (0x8200010: N/8 = 16 at bit 17, M/16 = 8 at bit 24, f32 at bit 4), and
// commits on the mbarrier. Every thread then waits for the phase (a count
// of the waits so far, its parity), fences, and loads its own row (its
// warp's lane quarter: warp * 32 << 16) back, 128 words.
// CHECK-LABEL: gpu.func @qk_ss
// CHECK:       %[[T:.+]] = memref.load %{{.+}}[%{{.+}}] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[W:.+]] = gpu.subgroup_id : index
// CHECK-NEXT:  %[[W32:.+]] = arith.index_cast %[[W]] : index to i32
// CHECK-NEXT:  %[[WR:.+]] = arith.muli %[[W32]], %c32_i32 : i32
// CHECK-NEXT:  %[[QUARTER:.+]] = arith.shli %[[WR]], %c16_i32 : i32
// CHECK-NEXT:  %[[BA:.+]] = memref.extract_aligned_pointer_as_index %[[BAR:.+]] :
// CHECK-NEXT:  %[[BA64:.+]] = arith.index_cast %[[BA]] : index to i64
// CHECK-NEXT:  %[[BP:.+]] = llvm.inttoptr %[[BA64]] : i64 to !llvm.ptr<3>
// CHECK-NEXT:  %[[TID:.+]] = gpu.thread_id x
// CHECK-NEXT:  %[[ISSUER:.+]] = arith.cmpi eq, %[[TID]], %c0 : index
// CHECK-NEXT:  memref.store %c0_i32, %[[WAITS:.+]][] : memref<i32>
// CHECK:       %[[D:.+]] = arith.addi %[[T]], %c0_i32 : i32
// CHECK-NEXT:  %[[MINE:.+]] = arith.addi %[[D]], %[[QUARTER]] : i32
// CHECK-NEXT:  nvvm.tcgen05.fence <before>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  nvvm.tcgen05.fence <after>
// CHECK-NEXT:  scf.if %[[ISSUER]] {
// CHECK-NEXT:    %[[DP:.+]] = llvm.inttoptr %[[D]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:    %[[ID:.+]] = arith.constant 136314896 : i32
// CHECK-NEXT:    scf.for %[[KC:.+]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      %[[K16:.+]] = arith.muli %[[KC]], %c16 : index
// CHECK-NEXT:      %[[SL:.+]] = arith.divui %[[K16]], %c64 : index
// CHECK-NEXT:      %[[CO:.+]] = arith.remui %[[K16]], %c64 : index
// CHECK-NEXT:      %[[DB:.+]] = monoid.smem_descriptor %{{.+}}[%[[SL]], %c0, %[[CO]]] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64, tcgen05}
// CHECK-NEXT:      %[[DA:.+]] = monoid.smem_descriptor %{{.+}}[%[[SL]], %c0, %[[CO]]] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64, tcgen05}
// CHECK-NEXT:      %[[ON:.+]] = arith.cmpi ne, %[[KC]], %c0 : index
// CHECK-NEXT:      nvvm.tcgen05.mma %[[DP]], %[[DA]], %[[DB]], %[[ID]], %[[ON]] {{.+}} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT:    } {attncc.unroll}
// CHECK-NEXT:    nvvm.tcgen05.commit %[[BP]] : !llvm.ptr<3>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[N:.+]] = memref.load %[[WAITS]][] : memref<i32>
// CHECK-NEXT:  %[[N1:.+]] = arith.addi %[[N]], %c1_i32 : i32
// CHECK-NEXT:  memref.store %[[N1]], %[[WAITS]][] : memref<i32>
// CHECK-NEXT:  %[[PAR:.+]] = arith.andi %[[N]], %c1_i32 : i32
// CHECK-NEXT:  nvvm.mbarrier.try_wait.parity %[[BP]], %[[PAR]], %c10000000_i32 : !llvm.ptr<3>, i32, i32
// CHECK-NEXT:  nvvm.tcgen05.fence <after>
// CHECK-NEXT:  %[[MP:.+]] = llvm.inttoptr %[[MINE]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:  %[[WORDS:.+]] = nvvm.tcgen05.ld %[[MP]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<128xi32>
// CHECK-NEXT:  nvvm.tcgen05.wait <load>
// CHECK-NEXT:  %[[F:.+]] = arith.bitcast %[[WORDS]] : vector<128xi32> to vector<128xf32>
// CHECK-NEXT:  %[[S:.+]] = monoid.from_lanes %[[F]] {attncc.layout = #monoid.fragment<rowthread>} : vector<128xf32> to vector<128x128xf32>
// CHECK-NEXT:  vector.transfer_write %[[S]]
// CHECK-NOT:   vector.contract
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @qk_ss(%out: memref<128x128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 32784 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c16384 = arith.constant 16384 : index
      %c32768 = arith.constant 32768 : index
      %c32776 = arith.constant 32776 : index
      %word = memref.view %raw[%c32768][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %bar = memref.view %raw[%c32776][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
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
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "tcgen05.m128n128k16", attncc.family = "tcgen05", attncc.layout = #monoid.fragment<rowthread>, attncc.tmem_col = 0 : i64} : vector<128x64xf16>, vector<128x64xf16> into vector<128x128xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32>
      gpu.return
    }
  }
}

// -----

// O += P V on tcgen05 (the TS form: A in tensor memory). The running O is
// this thread's row in registers (layout rowthread): it goes into O's
// columns (attncc.tmem_col 64) as f32 bits; P, the f32 scores, is rounded
// to bf16 pairs and goes over S's columns (from the base: 32 words for 64
// values), both at the thread's lane quarter, then waited for. Each k16
// step reads 8 columns of P (A: a tensor-memory address) and V's
// descriptor: V is MN-major ([k x n], N contiguous), so the step starts at
// row kc*16 of slab 0 and the leading byte offset is the slab stride (64
// rows x 128 B); the instruction descriptor says B is MN-major (bit 16)
// and bf16 (bits 7 and 10): 0x8110490. The product accumulates from the
// first step (the accumulator was stored).
// CHECK-LABEL: gpu.func @pv_ts
// CHECK:       %[[D:.+]] = arith.addi %[[T:.+]], %c64_i32 : i32
// CHECK-NEXT:  %[[MINE:.+]] = arith.addi %[[D]], %[[QUARTER:.+]] : i32
// CHECK-NEXT:  %[[OL:.+]] = monoid.to_lanes %[[O:.+]] : vector<128x64xf32> to vector<64xf32>
// CHECK-NEXT:  %[[OW:.+]] = arith.bitcast %[[OL]] : vector<64xf32> to vector<64xi32>
// CHECK-NEXT:  %[[OP:.+]] = llvm.inttoptr %[[MINE]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:  nvvm.tcgen05.st %[[OP]], %[[OW]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
// CHECK-NEXT:  %[[PA:.+]] = arith.addi %[[T]], %[[QUARTER]] : i32
// CHECK-NEXT:  %[[PL:.+]] = monoid.to_lanes %[[P:.+]] : vector<128x64xf32> to vector<32x2xf32>
// CHECK-NEXT:  %[[PB:.+]] = arith.truncf %[[PL]] : vector<32x2xf32> to vector<32x2xbf16>
// CHECK-NEXT:  %[[PW:.+]] = vector.bitcast %[[PB]] : vector<32x2xbf16> to vector<32x1xi32>
// CHECK-NEXT:  %[[PW1:.+]] = vector.shape_cast %[[PW]] : vector<32x1xi32> to vector<32xi32>
// CHECK-NEXT:  %[[PP:.+]] = llvm.inttoptr %[[PA]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:  nvvm.tcgen05.st %[[PP]], %[[PW1]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT:  nvvm.tcgen05.wait <store>
// CHECK-NEXT:  nvvm.tcgen05.fence <before>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  nvvm.tcgen05.fence <after>
// CHECK:         %[[ID:.+]] = arith.constant 135333008 : i32
// CHECK:         %[[K16:.+]] = arith.muli %[[KC:.+]], %c16 : index
// CHECK-NEXT:    %[[DB:.+]] = monoid.smem_descriptor %{{.+}}[%c0, %[[K16]], %c0] {leading_byte_offset = 8192 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64, tcgen05}
// CHECK-NEXT:    %[[KC32:.+]] = arith.index_cast %[[KC]] : index to i32
// CHECK-NEXT:    %[[K8:.+]] = arith.muli %[[KC32]], %c8_i32 : i32
// CHECK-NEXT:    %[[AK:.+]] = arith.addi %[[T]], %[[K8]] : i32
// CHECK-NEXT:    %[[AP:.+]] = llvm.inttoptr %[[AK]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:    %[[ON:.+]] = arith.constant true
// CHECK-NEXT:    nvvm.tcgen05.mma %{{.+}}, %[[AP]], %[[DB]], %[[ID]], %[[ON]] {{.+}} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK:       %[[R:.+]] = monoid.from_lanes %{{.+}} {attncc.layout = #monoid.fragment<rowthread>} : vector<64xf32> to vector<128x64xf32>
// CHECK-NEXT:  vector.transfer_write %[[R]]
// CHECK-NOT:   arith.truncf {{.+}} : vector<128x64xf32> to vector<128x64xbf16>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @pv_ts(%p: vector<128x64xf32>, %o: vector<128x64xf32>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 8208 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c8192 = arith.constant 8192 : index
      %c8200 = arith.constant 8200 : index
      %word = memref.view %raw[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %bar = memref.view %raw[%c8200][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x64x64xbf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : bf16
      %vs = memref.subview %vv[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<1x1x64x64xbf16, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>
      %v3 = vector.transfer_read %vs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x64x64xbf16>
      %v2 = vector.transpose %v3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x64x64xbf16> to vector<64x1x64xbf16>
      %v = vector.shape_cast %v2 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xbf16> to vector<64x64xbf16>
      %pe = math.exp %p {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32>
      %oe = arith.negf %o {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32>
      %pb = arith.truncf %pe {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32> to vector<128x64xbf16>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %pb, %v, %oe {attncc.atom = "tcgen05.m128n64k16", attncc.family = "tcgen05", attncc.layout = #monoid.fragment<rowthread>, attncc.tmem_col = 64 : i64} : vector<128x64xbf16>, vector<64x64xbf16> into vector<128x64xf32>
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}

// -----

// The m64 atom (attncc.atom = "tcgen05.m64n64k16", layout rowhalf): the same
// ops as @pv_ts over a 64-row tile, the instruction descriptor with M = 64
// (4 << 24: 0x4110490, bf16 -> f32, V MN-major), and the result a rowhalf
// tile. Each thread still stores and loads its lane of its warp's quarter:
// the product's rows sit in the first 16 lanes of each (layout F).
// CHECK-LABEL: gpu.func @pv_ts_m64
// CHECK:       %[[OL:.+]] = monoid.to_lanes %{{.+}} : vector<64x64xf32> to vector<64xf32>
// CHECK:       nvvm.tcgen05.st %{{.+}}, %{{.+}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
// CHECK:       monoid.to_lanes %{{.+}} : vector<64x64xf32> to vector<32x2xf32>
// CHECK:       nvvm.tcgen05.st %{{.+}}, %{{.+}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK:         arith.constant 68224144 : i32
// CHECK:         nvvm.tcgen05.mma
// CHECK:       %[[R:.+]] = monoid.from_lanes %{{.+}} {attncc.layout = #monoid.fragment<rowhalf>} : vector<64xf32> to vector<64x64xf32>
// CHECK-NEXT:  vector.transfer_write %[[R]]
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @pv_ts_m64(%p: vector<64x64xf32>, %o: vector<64x64xf32>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 8208 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c8192 = arith.constant 8192 : index
      %c8200 = arith.constant 8200 : index
      %word = memref.view %raw[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %bar = memref.view %raw[%c8200][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x64x64xbf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : bf16
      %vs = memref.subview %vv[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<1x1x64x64xbf16, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>
      %v3 = vector.transfer_read %vs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x64x64xbf16>
      %v2 = vector.transpose %v3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x64x64xbf16> to vector<64x1x64xbf16>
      %v = vector.shape_cast %v2 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xbf16> to vector<64x64xbf16>
      %pe = math.exp %p {attncc.layout = #monoid.fragment<rowhalf>} : vector<64x64xf32>
      %oe = arith.negf %o {attncc.layout = #monoid.fragment<rowhalf>} : vector<64x64xf32>
      %pb = arith.truncf %pe {attncc.layout = #monoid.fragment<rowhalf>} : vector<64x64xf32> to vector<64x64xbf16>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %pb, %v, %oe {attncc.atom = "tcgen05.m64n64k16", attncc.family = "tcgen05", attncc.layout = #monoid.fragment<rowhalf>, attncc.tmem_col = 64 : i64} : vector<64x64xbf16>, vector<64x64xbf16> into vector<64x64xf32>
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// OVERLAP=early (attncc.early_pv on the P*V product): P's 32 words are
// stored in two parts, words 8-31 first (k16 steps 1-3: a store of 16 words
// at column 8 and one of 8 at column 24, tcgen05.st takes power-of-two
// lengths), then the barrier and thread 0's steps 1-3 with no commit; then
// words 0-7 (step 0), a second barrier marked attncc.early_part, and thread
// 0's step 0, marked attncc.early_part, which commits (the commit covers
// both parts). Every step accumulates (the accumulator was stored).
// CHECK-LABEL: gpu.func @pv_early
// CHECK:       %[[PW:.+]] = vector.shape_cast %{{.+}} : vector<32x1xi32> to vector<32xi32>
// CHECK-NEXT:  %[[H1:.+]] = vector.extract_strided_slice %[[PW]] {offsets = [8], sizes = [16], strides = [1]} : vector<32xi32> to vector<16xi32>
// CHECK-NEXT:  %[[A1:.+]] = arith.addi %[[PA:.+]], %c8_i32 : i32
// CHECK-NEXT:  %[[P1:.+]] = llvm.inttoptr %[[A1]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:  nvvm.tcgen05.st %[[P1]], %[[H1]] {{.+}} : vector<16xi32>
// CHECK-NEXT:  %[[H2:.+]] = vector.extract_strided_slice %[[PW]] {offsets = [24], sizes = [8], strides = [1]} : vector<32xi32> to vector<8xi32>
// CHECK-NEXT:  %[[A2:.+]] = arith.addi %[[PA]], %c24_i32 : i32
// CHECK-NEXT:  %[[P2:.+]] = llvm.inttoptr %[[A2]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:  nvvm.tcgen05.st %[[P2]], %[[H2]] {{.+}} : vector<8xi32>
// CHECK-NEXT:  nvvm.tcgen05.wait <store>
// CHECK-NEXT:  nvvm.tcgen05.fence <before>
// CHECK-NEXT:  gpu.barrier {attncc.issue_sync}
// CHECK-NEXT:  nvvm.tcgen05.fence <after>
// CHECK:       scf.if %{{.+}} {
// CHECK:         scf.for %{{.+}} = %c1 to %c4 step %c1 {
// CHECK:           nvvm.tcgen05.mma
// CHECK:         } {attncc.unroll}
// CHECK-NOT:     nvvm.tcgen05.commit
// CHECK:       } {attncc.issue}
// CHECK-NEXT:  %[[L:.+]] = vector.extract_strided_slice %[[PW]] {offsets = [0], sizes = [8], strides = [1]} : vector<32xi32> to vector<8xi32>
// CHECK-NEXT:  %[[A0:.+]] = arith.addi %[[PA]], %c0_i32 : i32
// CHECK-NEXT:  %[[P0:.+]] = llvm.inttoptr %[[A0]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:  nvvm.tcgen05.st %[[P0]], %[[L]] {{.+}} : vector<8xi32>
// CHECK-NEXT:  nvvm.tcgen05.wait <store>
// CHECK-NEXT:  nvvm.tcgen05.fence <before>
// CHECK-NEXT:  gpu.barrier {attncc.early_part, attncc.issue_sync}
// CHECK-NEXT:  nvvm.tcgen05.fence <after>
// CHECK:       scf.if %{{.+}} {
// CHECK:         scf.for %{{.+}} = %c0 to %c1 step %c1 {
// CHECK:           %[[ON:.+]] = arith.constant true
// CHECK-NEXT:      nvvm.tcgen05.mma %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[ON]]
// CHECK:         } {attncc.unroll}
// CHECK-NEXT:    nvvm.tcgen05.commit
// CHECK-NEXT:  } {attncc.early_part, attncc.issue}
// CHECK:       nvvm.mbarrier.try_wait.parity
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @pv_early(%p: vector<128x64xf32>, %o: vector<128x64xf32>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 8208 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c8192 = arith.constant 8192 : index
      %c8200 = arith.constant 8200 : index
      %word = memref.view %raw[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %bar = memref.view %raw[%c8200][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x64x64xbf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : bf16
      %vs = memref.subview %vv[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<1x1x64x64xbf16, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>
      %v3 = vector.transfer_read %vs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x64x64xbf16>
      %v2 = vector.transpose %v3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x64x64xbf16> to vector<64x1x64xbf16>
      %v = vector.shape_cast %v2 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xbf16> to vector<64x64xbf16>
      %pe = math.exp %p {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32>
      %oe = arith.negf %o {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32>
      %pb = arith.truncf %pe {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32> to vector<128x64xbf16>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %pb, %v, %oe {attncc.atom = "tcgen05.m128n64k16", attncc.family = "tcgen05", attncc.layout = #monoid.fragment<rowthread>, attncc.early_pv, attncc.tmem_col = 64 : i64} : vector<128x64xbf16>, vector<64x64xbf16> into vector<128x64xf32>
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}

// -----

// The running O of a fold stays in tensor memory: the loop's P*V
// accumulates into o * alpha, where o is the loop's iter_arg and the product
// is yielded back into it. Before the loop O's columns get the initial value
// (zeros); in the loop O is rescaled in place, 8 columns at a time (load,
// multiply by this thread's factor, store), and the product accumulates
// into it; the loop yields its iter_arg unchanged (the register copy is
// dead), and the result is loaded once after the loop, where it is read.
// CHECK-LABEL: gpu.func @o_resident
// CHECK:       %[[Z:.+]] = arith.constant dense<0.000000e+00> : vector<64xf32>
// CHECK-NEXT:  %[[OC:.+]] = arith.addi %{{.+}}, %c64_i32 : i32
// CHECK-NEXT:  %[[OM:.+]] = arith.addi %[[OC]], %{{.+}} : i32
// CHECK-NEXT:  %[[ZW:.+]] = arith.bitcast %[[Z]] : vector<64xf32> to vector<64xi32>
// CHECK-NEXT:  %[[ZP:.+]] = llvm.inttoptr %[[OM]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:  nvvm.tcgen05.st %[[ZP]], %[[ZW]] {{.+}} : vector<64xi32>
// CHECK-NEXT:  nvvm.tcgen05.wait <store>
// CHECK-NEXT:  %[[R:.+]] = scf.for %{{.+}} iter_args(%[[O:.+]] = %{{.+}}) -> (vector<128x64xf32>) {
// CHECK:         %[[SC:.+]] = monoid.to_lanes %{{.+}} : vector<128x64xf32> to vector<64xf32>
// CHECK-COUNT-8: nvvm.tcgen05.ld {{.+}} : vector<8xi32>
// CHECK:         nvvm.tcgen05.mma {{.+}}, %true{{.*}} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:    nvvm.tcgen05.fence <after>
// CHECK-NEXT:    scf.yield %[[O]] : vector<128x64xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[AC:.+]] = arith.addi %{{.+}}, %c64_i32 : i32
// CHECK-NEXT:  %[[AM:.+]] = arith.addi %[[AC]], %{{.+}} : i32
// CHECK-NEXT:  %[[AP:.+]] = llvm.inttoptr %[[AM]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:  %[[W:.+]] = nvvm.tcgen05.ld %[[AP]] {{.+}} : vector<64xi32>
// CHECK-NEXT:  nvvm.tcgen05.wait <load>
// CHECK-NEXT:  %[[F:.+]] = arith.bitcast %[[W]] : vector<64xi32> to vector<64xf32>
// CHECK-NEXT:  %[[OUT:.+]] = monoid.from_lanes %[[F]] {attncc.layout = #monoid.fragment<rowthread>} : vector<64xf32> to vector<128x64xf32>
// CHECK:       vector.transfer_write %[[OUT]]
// CHECK-NOT:   arith.mulf {{.+}} : vector<128x64xf32>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @o_resident(%p: vector<128x64xf32>, %alpha: vector<128x1xf32>, %n: index, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 8208 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8192 = arith.constant 8192 : index
      %c8200 = arith.constant 8200 : index
      %word = memref.view %raw[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %bar = memref.view %raw[%c8200][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x64x64xbf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : bf16
      %zero = arith.constant dense<0.0> : vector<128x64xf32>
      %vs = memref.subview %vv[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<1x1x64x64xbf16, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>
      %v3 = vector.transfer_read %vs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x64x64xbf16>
      %v2 = vector.transpose %v3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x64x64xbf16> to vector<64x1x64xbf16>
      %v = vector.shape_cast %v2 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xbf16> to vector<64x64xbf16>
      %pe = math.exp %p {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32>
      %pb = arith.truncf %pe {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32> to vector<128x64xbf16>
      %a = arith.negf %alpha {attncc.layout = #monoid.fragment<rowthread.row>} : vector<128x1xf32>
      %ab = vector.broadcast %a {attncc.layout = #monoid.fragment<rowthread>} : vector<128x1xf32> to vector<128x64xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %zero) -> (vector<128x64xf32>) {
        %os = arith.mulf %o, %ab {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32>
        %pv = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %pb, %v, %os {attncc.atom = "tcgen05.m128n64k16", attncc.family = "tcgen05", attncc.layout = #monoid.fragment<rowthread>, attncc.tmem_col = 64 : i64} : vector<128x64xbf16>, vector<64x64xbf16> into vector<128x64xf32>
        scf.yield %pv : vector<128x64xf32>
      } {attncc.layouts = [#monoid.fragment<rowthread>]}
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}

// -----

// A left operand in mma.sync's C fragments cannot feed tcgen05 (its A is
// shared memory or, written by this pass, tensor memory).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @left_c(%p: vector<128x64xbf16>, %out: memref<128x64xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 8208 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %raw = gpu.dynamic_shared_memory {attncc.align = 1024 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c8192 = arith.constant 8192 : index
      %c8200 = arith.constant 8200 : index
      %word = memref.view %raw[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %bar = memref.view %raw[%c8200][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
      %vv = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x1x64x64xbf16, #gpu.address_space<workgroup>>
      %pad = arith.constant 0.0 : bf16
      %zero = arith.constant dense<0.0> : vector<128x64xf32>
      %vs = memref.subview %vv[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<1x1x64x64xbf16, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>
      %v3 = vector.transfer_read %vs[%c0, %c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, swz>, in_bounds = [true, true, true]} : memref<1x64x64xbf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x64x64xbf16>
      %v2 = vector.transpose %v3, [1, 0, 2] {attncc.layout = #monoid.fragment<smem>} : vector<1x64x64xbf16> to vector<64x1x64xbf16>
      %v = vector.shape_cast %v2 {attncc.layout = #monoid.fragment<smem>} : vector<64x1x64xbf16> to vector<64x64xbf16>
      %pc = arith.negf %p {attncc.layout = #monoid.fragment<c>} : vector<128x64xbf16>
      // expected-error @+1 {{left operand layout 'c' cannot feed tcgen05 (smem, rowthread or rowhalf)}}
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %pc, %v, %zero {attncc.atom = "tcgen05.m128n64k16", attncc.layout = #monoid.fragment<rowthread>, attncc.tmem_col = 64 : i64} : vector<128x64xbf16>, vector<64x64xbf16> into vector<128x64xf32>
      vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
      gpu.return
    }
  }
}

// -----

// A kernel with a tcgen05 product but no tensor memory: attncc-allocate-tmem
// did not run.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{attncc-lower-tcgen05: needs the tensor memory and the mbarrier of attncc-allocate-tmem}}
    gpu.func @no_tmem(%q: vector<128x64xf16>, %k: vector<128x64xf16>, %out: memref<128x128xf32>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 0 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      %s = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero {attncc.atom = "tcgen05.m128n128k16", attncc.tmem_col = 0 : i64} : vector<128x64xf16>, vector<128x64xf16> into vector<128x128xf32>
      vector.transfer_write %s, %out[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32>
      gpu.return
    }
  }
}
