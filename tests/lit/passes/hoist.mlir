// RUN: attncc-opt %s -split-input-file -attncc-hoist | FileCheck %s

// The Q tile: read with indices defined outside the loop from a buffer the
// function never writes, so it moves in front of the loop. The read of %acc
// has loop-invariant operands too, but %acc is written after the loop: it
// stays. The read of %k depends on the induction variable: it stays.

// CHECK-LABEL: func.func @tile
// CHECK-SAME: (%[[Q:[^:]+]]: memref<100x64xf16>, %[[K:[^:]+]]: memref<100x64xf16>, %[[ACC:[^:]+]]: memref<64x64xf32>)
// CHECK:       %[[QT:.+]] = vector.transfer_read %[[Q]][%[[ROW:.+]], %{{.+}}], %{{.+}} {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
// CHECK-NEXT:  %[[RES:.+]] = scf.for %[[KV:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[S:.+]] = %{{.+}}) -> (vector<64x64xf32>) {
// CHECK-NEXT:    %[[KT:.+]] = vector.transfer_read %[[K]][%[[KV]], %{{.+}}], %{{.+}} {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
// CHECK-NEXT:    %[[AT:.+]] = vector.transfer_read %[[ACC]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true, true]} : memref<64x64xf32>, vector<64x64xf32>
// CHECK-NEXT:    %[[C:.+]] = vector.contract {{.+}} %[[QT]], %[[KT]], %[[AT]]
// CHECK-NEXT:    %[[N:.+]] = arith.addf %[[S]], %[[C]] : vector<64x64xf32>
// CHECK-NEXT:    scf.yield %[[N]] : vector<64x64xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  vector.transfer_write %[[RES]], %[[ACC]]
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
func.func @tile(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %acc: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %padf = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %row0 = arith.muli %c64, %c0 : index
  %r = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%s = %zero) -> (vector<64x64xf32>) {
    %q_i = vector.transfer_read %q[%row0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %a_0 = vector.transfer_read %acc[%c0, %c0], %padf {in_bounds = [true, true]} : memref<64x64xf32>, vector<64x64xf32>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %a_0 : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %n = arith.addf %s, %qk : vector<64x64xf32>
    scf.yield %n : vector<64x64xf32>
  }
  vector.transfer_write %r, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  return
}

// -----

// memref.load and vector.load move too; a read whose index is computed inside
// the loop does not (its operand is not defined outside). A store anywhere in
// the function, even before the loop, pins reads of that buffer.

// CHECK-LABEL: func.func @kinds
// CHECK-SAME: (%[[X:[^:]+]]: memref<8xf32>, %[[Y:[^:]+]]: memref<8xf32>, %[[W:[^:]+]]: memref<8xf32>)
// CHECK:       memref.store %{{.+}}, %[[W]]
// CHECK-NEXT:  %[[XS:.+]] = memref.load %[[X]][%{{.+}}] : memref<8xf32>
// CHECK-NEXT:  %[[YV:.+]] = vector.load %[[Y]][%{{.+}}] : memref<8xf32>, vector<4xf32>
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    %[[J:.+]] = arith.addi
// CHECK-NEXT:    memref.load %[[X]][%[[J]]] : memref<8xf32>
// CHECK-NEXT:    memref.load %[[W]][%{{.+}}] : memref<8xf32>
// CHECK-NOT:     memref.load
// CHECK-NOT:     vector.load
// CHECK:       }
// CHECK-NEXT:  return
func.func @kinds(%x: memref<8xf32>, %y: memref<8xf32>, %w: memref<8xf32>) -> (f32, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %zv = arith.constant dense<0.0> : vector<4xf32>
  memref.store %zero, %w[%c0] : memref<8xf32>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %zero, %v = %zv) -> (f32, vector<4xf32>) {
    %j = arith.addi %i, %c1 : index
    %xi = memref.load %x[%j] : memref<8xf32>
    %x0 = memref.load %x[%c0] : memref<8xf32>
    %w0 = memref.load %w[%c1] : memref<8xf32>
    %y0 = vector.load %y[%c4] : memref<8xf32>, vector<4xf32>
    %a = arith.addf %xi, %x0 : f32
    %b = arith.addf %a, %w0 : f32
    %t = arith.addf %s, %b : f32
    %u = arith.addf %v, %y0 : vector<4xf32>
    scf.yield %t, %u : f32, vector<4xf32>
  }
  return %r#0, %r#1 : f32, vector<4xf32>
}

// -----

// Nested loops: the inner loop is done first, so a read invariant in both
// ends up in front of the outer loop.

// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[X:[^:]+]]: memref<8xf32>)
// CHECK:       %[[X0:.+]] = memref.load %[[X]]
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.addf %{{.+}}, %[[X0]] : f32
func.func @nested(%x: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %zero) -> (f32) {
    %r2 = scf.for %j = %c0 to %c4 step %c1 iter_args(%s2 = %s) -> (f32) {
      %x0 = memref.load %x[%c0] : memref<8xf32>
      %t = arith.addf %s2, %x0 : f32
      scf.yield %t : f32
    }
    scf.yield %r2 : f32
  }
  return %r : f32
}

// -----

// Pure loop-invariant ops leave the loop first (MLIR's loop-invariant code
// motion), so a read whose index they compute can follow them: here the
// key/value head of a grouped query head.

// CHECK-LABEL: func.func @gqa
// CHECK-SAME: (%[[K:[^:]+]]: memref<2x64xf32>, %[[H:[^:]+]]: index)
// CHECK:       %[[HKV:.+]] = arith.divui %[[H]], %{{.+}} : index
// CHECK-NEXT:  %[[KH:.+]] = vector.load %[[K]][%[[HKV]], %{{.+}}] : memref<2x64xf32>, vector<64xf32>
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    arith.addf %{{.+}}, %[[KH]] : vector<64xf32>
func.func @gqa(%k: memref<2x64xf32>, %h: index) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %zero) -> (vector<64xf32>) {
    %hkv = arith.divui %h, %c4 : index
    %kh = vector.load %k[%hkv, %c0] : memref<2x64xf32>, vector<64xf32>
    %t = arith.addf %s, %kh : vector<64xf32>
    scf.yield %t : vector<64xf32>
  }
  return %r : vector<64xf32>
}

// -----

// HOIST=off (a ladder rung): the function's schedule keeps every read in the
// loop; the Q tile is read again for each block. Side-effect-free ops still
// move (MLIR's loop-invariant code motion): the row offset %row.

#a2 = affine_map<(i, j, d) -> (i, d)>
#b2 = affine_map<(i, j, d) -> (j, d)>
#c2 = affine_map<(i, j, d) -> (i, j)>
#off = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,HOIST=off">

// CHECK-LABEL: func.func @off
// CHECK:       arith.muli
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
// CHECK-NEXT:    vector.transfer_read
// CHECK-NEXT:    vector.contract
func.func @off(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %acc: memref<64x64xf32>) attributes {attncc.schedule = #off} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %r = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%s = %zero) -> (vector<64x64xf32>) {
    %row = arith.muli %c64, %c0 : index
    %q_i = vector.transfer_read %q[%row, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %s : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    scf.yield %qk : vector<64x64xf32>
  }
  vector.transfer_write %r, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  return
}
