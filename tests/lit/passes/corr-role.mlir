// RUN: attncc-opt %s -split-input-file -allow-unregistered-dialect -attncc-corr-role -verify-diagnostics | FileCheck %s

// WSPEC=load1/mma1/corr4: warps 0-3 own the rows, 4 copies, 5 issues, 6-7
// are idle, 8-11 are the correction warpgroup. The row warps' rescale of O
// (the scf.if marked attncc.o_rescale: 8 columns loaded, multiplied by a
// slice of the row factors, stored) becomes: the thread's factor stored at
// corr_scale[tid], the <before> fence, an arrive on corr_full. The
// broadcast and monoid.to_lanes of the factors move up to just after the
// op that computes them ("rows.alpha"), ahead of the exponentials
// ("rows.exp"). The correction warps, appended to the producer branch, run
// the loop with only what its bounds need and per rescale wait on
// corr_full (the parity of their own count), load their row's factor
// (32 (warp % 4) + lane) and rescale O's columns of their lane quarter
// (tmem + 64: the block's attncc.tmem_col), then wait for the stores,
// fence and arrive on o_ready. The P*V issue block (attncc.o_resident)
// first waits on o_ready with the parity of its own count.
// CHECK-LABEL: gpu.func @corr
// CHECK:       scf.if %{{.+}} {
// CHECK:         "producer.copy"() : () -> ()
// CHECK:         %[[W:.+]] = gpu.subgroup_id : index
// CHECK-NEXT:    %[[ISCORR:.+]] = arith.cmpi sge, %[[W]], %c8{{.*}} : index
// CHECK-NEXT:    scf.if %[[ISCORR]] {
// CHECK-NEXT:      %[[LANE:.+]] = gpu.lane_id
// CHECK-NEXT:      %[[Q:.+]] = arith.andi %[[W]], %c3{{.*}} : index
// CHECK-NEXT:      %[[Q32:.+]] = arith.muli %[[Q]], %c32{{.*}} : index
// CHECK-NEXT:      %[[ROW:.+]] = arith.addi %[[Q32]], %[[LANE]] : index
// CHECK:           %[[LANES:.+]] = arith.shli
// CHECK-NEXT:      scf.for %{{.+}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// CHECK-NEXT:        %[[N:.+]] = memref.load %[[CW:.+]][] : memref<i32>
// CHECK-NEXT:        %[[N1:.+]] = arith.addi %[[N]], %c1_i32{{.*}} : i32
// CHECK-NEXT:        memref.store %[[N1]], %[[CW]][] : memref<i32>
// CHECK-NEXT:        %[[PAR:.+]] = arith.andi %[[N]], %c1_i32{{.*}} : i32
// CHECK:             nvvm.mbarrier.try_wait.parity %{{.+}}, %[[PAR]], %{{.+}} : !llvm.ptr<3>, i32, i32
// CHECK-NEXT:        nvvm.tcgen05.fence <after>
// CHECK-NEXT:        %[[F:.+]] = memref.load %[[SCALE:.+]][%[[ROW]]] : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:        %[[BASE:.+]] = arith.addi %[[TMEM:.+]], %c64_i32{{.*}} : i32
// CHECK-NEXT:        %[[MINE:.+]] = arith.addi %[[BASE]], %[[LANES]] : i32
// CHECK-NEXT:        %[[AT:.+]] = arith.addi %[[MINE]], %c8_i32{{.*}} : i32
// CHECK-NEXT:        %[[P:.+]] = llvm.inttoptr %[[AT]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:        %[[OLD:.+]] = nvvm.tcgen05.ld %[[P]]
// CHECK-NEXT:        nvvm.tcgen05.wait <load>
// CHECK-NEXT:        %[[OLDF:.+]] = arith.bitcast %[[OLD]] : vector<8xi32> to vector<8xf32>
// CHECK-NEXT:        %[[FB:.+]] = vector.broadcast %[[F]] : f32 to vector<8xf32>
// CHECK-NEXT:        %[[NEW:.+]] = arith.mulf %[[OLDF]], %[[FB]] : vector<8xf32>
// CHECK:             nvvm.tcgen05.st
// CHECK-NEXT:        nvvm.tcgen05.wait <store>
// CHECK-NEXT:        nvvm.tcgen05.fence <before>
// CHECK:             nvvm.mbarrier.arrive %{{.+}} : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-NEXT:    } {attncc.corr_role}
// CHECK:       } else {
// CHECK:         scf.for
// CHECK:           %[[ALPHA:.+]] = "rows.alpha"()
// CHECK-NEXT:      %[[A1:.+]] = vector.shape_cast %[[ALPHA]]
// CHECK-NEXT:      %[[AB:.+]] = vector.broadcast %[[A1]]
// CHECK-NEXT:      %[[LN:.+]] = monoid.to_lanes %[[AB]]
// CHECK-NEXT:      %[[FAC:.+]] = vector.extract %[[LN]][0] : f32 from vector<8xf32>
// CHECK-NEXT:      %[[TID:.+]] = gpu.thread_id x
// CHECK-NEXT:      memref.store %[[FAC]], %[[SCALE]][%[[TID]]]
// CHECK-NEXT:      nvvm.tcgen05.fence <before>
// CHECK:           nvvm.mbarrier.arrive %{{.+}} : !llvm.ptr<3>
// CHECK-NEXT:      "rows.exp"() : () -> ()
// CHECK-NOT:       nvvm.tcgen05.ld
// CHECK:           scf.if %{{.+}} {
// CHECK-NEXT:        %[[M:.+]] = memref.load %[[OW:.+]][%c0{{.*}}] : memref<1xi32>
// CHECK-NEXT:        %[[M1:.+]] = arith.addi %[[M]], %c1_i32{{.*}} : i32
// CHECK-NEXT:        memref.store %[[M1]], %[[OW]][%c0{{.*}}] : memref<1xi32>
// CHECK-NEXT:        %[[OPAR:.+]] = arith.andi %[[M]], %c1_i32{{.*}} : i32
// CHECK:             nvvm.mbarrier.try_wait.parity %{{.+}}, %[[OPAR]], %{{.+}} : !llvm.ptr<3>, i32, i32
// CHECK-NEXT:        nvvm.tcgen05.fence <after>
// CHECK-NEXT:        "rows.pv"() : () -> ()
// CHECK-NEXT:      } {attncc.issue, attncc.o_resident}
// CHECK:       } {attncc.roles}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @corr() kernel attributes {attncc.tile = {corr = 4 : i64, idle = 2 : i64, mma = 1 : i64, producers = 1 : i64, rows = 128 : i64, smem = 1024 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 384, 1, 1>} {
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %c48 = arith.constant 48 : index
      %c1_i32 = arith.constant 1 : i32
      %c8_i32 = arith.constant 8 : i32
      %c1_f32 = arith.constant 1.0 : f32
      %word = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %full = memref.view %raw[%c24][] {attncc.corr_full} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %ready = memref.view %raw[%c32][] {attncc.o_ready} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %scale = memref.view %raw[%c48][] {attncc.corr_scale} : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
      %warp = gpu.subgroup_id : index
      %producer = arith.cmpi uge, %warp, %c4 : index
      scf.if %producer {
        "producer.copy"() : () -> ()
      } else {
        %mine = "rows.mine"() : () -> i32
        scf.for %j = %c0 to %c4 step %c1 {
          %alpha = "rows.alpha"() {attncc.layout = #monoid.fragment<rowthread.row>} : () -> vector<128xf32>
          "rows.exp"() : () -> ()
          %a1 = vector.shape_cast %alpha {attncc.layout = #monoid.fragment<rowthread>} : vector<128xf32> to vector<128x1xf32>
          %ab = vector.broadcast %a1 {attncc.layout = #monoid.fragment<rowthread>} : vector<128x1xf32> to vector<128x8xf32>
          %lanes = monoid.to_lanes %ab : vector<128x8xf32> to vector<8xf32>
          %true = arith.constant true
          scf.if %true {
            %at = arith.addi %mine, %c8_i32 : i32
            %p = llvm.inttoptr %at : i32 to !llvm.ptr<6>
            %old = nvvm.tcgen05.ld %p {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<8xi32>
            nvvm.tcgen05.wait <load>
            %oldf = arith.bitcast %old : vector<8xi32> to vector<8xf32>
            %f = vector.extract_strided_slice %lanes {offsets = [0], sizes = [8], strides = [1]} : vector<8xf32> to vector<8xf32>
            %new = arith.mulf %oldf, %f : vector<8xf32>
            %newi = arith.bitcast %new : vector<8xf32> to vector<8xi32>
            %q = llvm.inttoptr %at : i32 to !llvm.ptr<6>
            nvvm.tcgen05.st %q, %newi {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<8xi32>
          } {attncc.o_rescale, attncc.tmem_col = 64 : i64}
          %tid = gpu.thread_id x
          %t0 = arith.cmpi eq, %tid, %c0 : index
          scf.if %t0 {
            "rows.pv"() : () -> ()
          } {attncc.issue, attncc.o_resident}
        }
      } {attncc.roles}
      gpu.return
    }
  }
}

// -----

// Without the mma warp nobody would wait for the correction warps.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{attncc-corr-role: the correction warps need the mma warp (WSPEC=load1/mma1/corr4)}}
    gpu.func @no_mma() kernel attributes {attncc.tile = {corr = 4 : i64, idle = 2 : i64, producers = 1 : i64, rows = 128 : i64, smem = 1024 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 352, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// A kernel whose O is not kept in tensor memory has no rescale to move.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{attncc-corr-role: WSPEC=.../corr4: no rescale of a fold's O in tensor memory to give to the correction warps}}
    gpu.func @no_rescale() kernel attributes {attncc.tile = {corr = 4 : i64, idle = 2 : i64, mma = 1 : i64, producers = 1 : i64, rows = 128 : i64, smem = 1024 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 384, 1, 1>} {
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %c48 = arith.constant 48 : index
      %word = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %full = memref.view %raw[%c24][] {attncc.corr_full} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %ready = memref.view %raw[%c32][] {attncc.o_ready} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %scale = memref.view %raw[%c48][] {attncc.corr_scale} : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
      %warp = gpu.subgroup_id : index
      %producer = arith.cmpi uge, %warp, %c4 : index
      scf.if %producer {
        "producer.copy"() : () -> ()
      } else {
        "rows.work"() : () -> ()
      } {attncc.roles}
      gpu.return
    }
  }
}

// -----

// A rescale inside a branch of the row warps is refused: the correction
// warps would have to replay the branch's condition.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @in_branch(%c: i1) kernel attributes {attncc.tile = {corr = 4 : i64, idle = 2 : i64, mma = 1 : i64, producers = 1 : i64, rows = 128 : i64, smem = 1024 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 384, 1, 1>} {
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %c48 = arith.constant 48 : index
      %word = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
      %full = memref.view %raw[%c24][] {attncc.corr_full} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %ready = memref.view %raw[%c32][] {attncc.o_ready} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %scale = memref.view %raw[%c48][] {attncc.corr_scale} : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
      %tmem = memref.load %word[%c0] {attncc.tmem_base} : memref<1xi32, #gpu.address_space<workgroup>>
      %warp = gpu.subgroup_id : index
      %producer = arith.cmpi uge, %warp, %c4 : index
      scf.if %producer {
        "producer.copy"() : () -> ()
      } else {
        %mine = "rows.mine"() : () -> i32
        %lanes = "rows.lanes"() : () -> vector<8xf32>
        scf.if %c {
          %true = arith.constant true
          // expected-error @below {{attncc-corr-role: WSPEC=.../corr4: a rescale of O inside a branch of the row warps is not supported}}
          scf.if %true {
            %f = vector.extract_strided_slice %lanes {offsets = [0], sizes = [8], strides = [1]} : vector<8xf32> to vector<8xf32>
            %p = llvm.inttoptr %mine : i32 to !llvm.ptr<6>
            %fi = arith.bitcast %f : vector<8xf32> to vector<8xi32>
            nvvm.tcgen05.st %p, %fi {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<8xi32>
          } {attncc.o_rescale, attncc.tmem_col = 64 : i64}
        }
      } {attncc.roles}
      gpu.return
    }
  }
}
