// RUN: attncc-opt %s -split-input-file -allow-unregistered-dialect -attncc-mma-role -verify-diagnostics | FileCheck %s

// WSPEC=load1/mma1: warps 0-3 own the rows, warp 4 copies (the then-branch
// of attncc.roles), warp 5 issues the products. Each product of the row
// warps (a barrier marked attncc.issue_sync between the two tcgen05 fences,
// then thread 0's block marked attncc.issue) becomes an arrive on mma_ready
// after the <before> fence; the issue block and the row warps' wait for the
// K block (nvgpu.mbarrier.try_wait.parity on its full barrier) leave them.
// The mma warp, appended to the producer branch, runs the loop with only
// what the products need: the block's wait with its ring counter (a
// private memref.alloca that the loop loads and stores, so its updates go
// along), then per product a wait on mma_ready with the parity of its own
// count, the <after> fence, and lane 0's copy of the issue block.
// CHECK-LABEL: gpu.func @roles
// CHECK:       %[[READY:.+]] = memref.view {{.+}} {attncc.mma_ready}
// CHECK-NEXT:  %[[RA:.+]] = memref.extract_aligned_pointer_as_index %[[READY]]
// CHECK-NEXT:  %[[RA64:.+]] = arith.index_cast %[[RA]] : index to i64
// CHECK-NEXT:  %[[RP:.+]] = llvm.inttoptr %[[RA64]] : i64 to !llvm.ptr<3>
// CHECK:       scf.if %{{.+}} {
// CHECK:         "producer.copy"() : () -> ()
// CHECK:         %[[W:.+]] = gpu.subgroup_id : index
// CHECK-NEXT:    %[[ISMMA:.+]] = arith.cmpi eq, %[[W]], %c5{{.*}} : index
// CHECK-NEXT:    scf.if %[[ISMMA]] {
// CHECK-NEXT:      %[[LANE:.+]] = gpu.lane_id
// CHECK-NEXT:      %[[ISSUER:.+]] = arith.cmpi eq, %[[LANE]], %c0{{.*}} : index
// CHECK-NEXT:      memref.store %c0_i32{{.*}}, %[[WAITS:.+]][] : memref<i32>
// CHECK-NEXT:      scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:        %[[N:.+]] = memref.load %[[FILLS:.+]][] : memref<i32>
// CHECK-NEXT:        %[[N1:.+]] = arith.addi %[[N]], %{{.+}} : i32
// CHECK-NEXT:        memref.store %[[N1]], %[[FILLS]][] : memref<i32>
// CHECK-NEXT:        %[[B:.+]] = arith.trunci %[[N]] : i32 to i1
// CHECK-NEXT:        nvgpu.mbarrier.try_wait.parity %[[FULL:.+]][%{{.+}}], %[[B]], %{{.+}}
// CHECK-NEXT:        %[[R:.+]] = memref.load %[[WAITS]][] : memref<i32>
// CHECK-NEXT:        %[[R1:.+]] = arith.addi %[[R]], %{{.+}} : i32
// CHECK-NEXT:        memref.store %[[R1]], %[[WAITS]][] : memref<i32>
// CHECK-NEXT:        %[[PAR:.+]] = arith.andi %[[R]], %{{.+}} : i32
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[RP]], %[[PAR]], %{{.+}} : !llvm.ptr<3>, i32, i32
// CHECK-NEXT:        nvvm.tcgen05.fence <after>
// CHECK-NEXT:        scf.if %[[ISSUER]] {
// CHECK-NEXT:          nvvm.tcgen05.commit %[[DONE:.+]] : !llvm.ptr<3>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    } {attncc.mma_role}
// CHECK:       } else {
// CHECK:         scf.for
// CHECK-NOT:       arith.trunci
// CHECK-NOT:       nvgpu.mbarrier.try_wait.parity
// CHECK:           nvvm.tcgen05.fence <before>
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[RP]] : !llvm.ptr<3>
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[DONE]], %{{.+}}, %{{.+}} : !llvm.ptr<3>, i32, i32
// CHECK-NEXT:      nvvm.tcgen05.fence <after>
// CHECK-NEXT:      "rows.read_s"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NOT:     nvvm.tcgen05.commit
// CHECK:       } {attncc.roles}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @roles() kernel attributes {attncc.tile = {mma = 1 : i64, producers = 1 : i64, rows = 128 : i64, smem = 64 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 192, 1, 1>} {
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %c1_i32 = arith.constant 1 : i32
      %c10000000 = arith.constant 10000000 : index
      %c10000000_i32 = arith.constant 10000000 : i32
      %fills = memref.alloca() : memref<i32>
      %done = memref.view %raw[%c32][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %ready = memref.view %raw[%c40][] {attncc.mma_ready} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %da = memref.extract_aligned_pointer_as_index %done : memref<1xi64, #gpu.address_space<workgroup>> -> index
      %da64 = arith.index_cast %da : index to i64
      %donep = llvm.inttoptr %da64 : i64 to !llvm.ptr<3>
      %full = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      %warp = gpu.subgroup_id : index
      %producer = arith.cmpi uge, %warp, %c4 : index
      scf.if %producer {
        "producer.copy"() : () -> ()
      } else {
        scf.for %j = %c0 to %c4 step %c1 {
          %n = memref.load %fills[] : memref<i32>
          %n1 = arith.addi %n, %c1_i32 : i32
          memref.store %n1, %fills[] : memref<i32>
          %landed = arith.trunci %n : i32 to i1
          nvgpu.mbarrier.try_wait.parity %full[%c0], %landed, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
          nvvm.tcgen05.fence <before>
          gpu.barrier {attncc.issue_sync}
          nvvm.tcgen05.fence <after>
          %tid = gpu.thread_id x
          %t0 = arith.cmpi eq, %tid, %c0 : index
          scf.if %t0 {
            nvvm.tcgen05.commit %donep : !llvm.ptr<3>
          } {attncc.issue}
          nvvm.mbarrier.try_wait.parity %donep, %c1_i32, %c10000000_i32 : !llvm.ptr<3>, i32, i32
          nvvm.tcgen05.fence <after>
          "rows.read_s"() : () -> ()
        }
      } {attncc.roles}
      gpu.return
    }
  }
}

// -----

// A product inside a branch of the row warps is refused: the mma warp
// would have to replay the branch's condition.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @in_branch(%c: i1) kernel attributes {attncc.tile = {mma = 1 : i64, producers = 1 : i64, rows = 128 : i64, smem = 64 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 192, 1, 1>} {
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %done = memref.view %raw[%c32][] {attncc.mma_done} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %ready = memref.view %raw[%c40][] {attncc.mma_ready} : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
      %da = memref.extract_aligned_pointer_as_index %done : memref<1xi64, #gpu.address_space<workgroup>> -> index
      %da64 = arith.index_cast %da : index to i64
      %donep = llvm.inttoptr %da64 : i64 to !llvm.ptr<3>
      %warp = gpu.subgroup_id : index
      %producer = arith.cmpi uge, %warp, %c4 : index
      scf.if %producer {
        "producer.copy"() : () -> ()
      } else {
        scf.if %c {
          %tid = gpu.thread_id x
          %t0 = arith.cmpi eq, %tid, %c0 : index
          // expected-error @below {{attncc-mma-role: WSPEC=load1/mma1: a tcgen05 product or a TMA wait inside a branch of the row warps is not supported}}
          scf.if %t0 {
            nvvm.tcgen05.commit %donep : !llvm.ptr<3>
          } {attncc.issue}
        }
      } {attncc.roles}
      gpu.return
    }
  }
}

// -----

// A kernel without an mma warp (attncc.tile has no mma) is left alone.
// CHECK-LABEL: gpu.func @no_mma_warp
// CHECK-NOT:   attncc.mma_role
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @no_mma_warp() kernel attributes {attncc.tile = {producers = 1 : i64, rows = 128 : i64, smem = 64 : i64, tmem = 128 : i64, warps = 4 : i64}, known_block_size = array<i32: 160, 1, 1>} {
      gpu.return
    }
  }
}
