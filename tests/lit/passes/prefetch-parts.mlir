// RUN: attncc-opt %s -split-input-file -attncc-prefetch-parts | FileCheck %s

// A combine's fold over 16 parts: two batches of 8; the loads of a batch go
// into private buffers first (an unrolled loop), then an unrolled loop folds
// the batch from them. 16 is a multiple of 8: no guards. The map asks for one
// CTA an SM (nvvm.minctasm).

// CHECK-LABEL: func.func @sixteen
// CHECK:   %[[PM:.+]] = memref.alloca() : memref<8xf32>
// CHECK:   %[[PO:.+]] = memref.alloca() : memref<8x4xf32>
// CHECK:   scf.for %[[B:.+]] = %{{.+}} to %{{.+}} step %[[C8:.+]] iter_args(
// CHECK:     scf.for %[[P:.+]] = %{{.+}} to %[[C8]] step %{{.+}} {
// CHECK-NEXT:  %[[PART:.+]] = arith.addi %[[B]], %[[P]] : index
// CHECK-NEXT:  %[[X:.+]] = memref.load %{{.+}}[%{{.+}}, %[[PART]]] : memref<2x16xf32>
// CHECK-NEXT:  memref.store %[[X]], %[[PM]][%[[P]]] : memref<8xf32>
// CHECK:       %[[Y:.+]] = vector.load %{{.+}}[%{{.+}}, %[[PART]], %{{.+}}] : memref<2x16x64xf32>, vector<4xf32>
// CHECK-NEXT:  vector.store %[[Y]], %[[PO]][%[[P]], %{{.+}}] : memref<8x4xf32>, vector<4xf32>
// CHECK:     } {attncc.unroll}
// CHECK:     scf.for %[[Q:.+]] = %{{.+}} to %[[C8]] step %{{.+}} iter_args(
// CHECK-NOT:   scf.if
// CHECK:       memref.load %[[PM]][%[[Q]]] : memref<8xf32>
// CHECK:       vector.load %[[PO]][%[[Q]], %{{.+}}] : memref<8x4xf32>, vector<4xf32>
// CHECK:       arith.maximumf
// CHECK:     } {attncc.unroll}
// CHECK:   } {nvvm.minctasm = 1 : i32}
func.func @sixteen(%pm: memref<2x16xf32>, %po: memref<2x16x64xf32>, %out: memref<2x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zv = arith.constant dense<0.0> : vector<4xf32>
  scf.parallel (%b, %chunk) = (%c0, %c0) to (%c2, %c16) step (%c1, %c1) {
    %col = arith.muli %chunk, %c4 : index
    %r:2 = scf.for %part = %c0 to %c16 step %c1 iter_args(%m = %ninf, %o = %zv) -> (f32, vector<4xf32>) {
      %x = memref.load %pm[%b, %part] : memref<2x16xf32>
      %at = arith.addi %col, %c0 : index
      %y = vector.load %po[%b, %part, %at] : memref<2x16x64xf32>, vector<4xf32>
      %m2 = arith.maximumf %m, %x : f32
      %o2 = arith.addf %o, %y : vector<4xf32>
      scf.yield %m2, %o2 : f32, vector<4xf32>
    }
    vector.store %r#1, %out[%b, %col] : memref<2x64xf32>, vector<4xf32>
    scf.reduce
  } loc("combine")
  return
}

// -----

// A count that is not known (gauto): batches of 8, the parts past the end
// guarded on both loops; the fold's guard passes the state through.

// CHECK-LABEL: func.func @dynamic
// CHECK:   scf.for %[[B:.+]] = %{{.+}} to %[[N:.+]] step %{{.+}} iter_args(
// CHECK:     %[[PART:.+]] = arith.addi %[[B]], %{{.+}} : index
// CHECK-NEXT: %[[IN:.+]] = arith.cmpi ult, %[[PART]], %[[N]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK:       memref.load %{{.+}}[%{{.+}}, %[[PART]]] : memref<2x?xf32>
// CHECK:     %[[PART2:.+]] = arith.addi %[[B]], %{{.+}} : index
// CHECK-NEXT: %[[IN2:.+]] = arith.cmpi ult, %[[PART2]], %[[N]] : index
// CHECK-NEXT: %{{.+}} = scf.if %[[IN2]] -> (f32) {
// CHECK:       arith.addf
// CHECK:     } else {
// CHECK-NEXT:  scf.yield %{{.+}} : f32
func.func @dynamic(%pm: memref<2x?xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f32
  %n = memref.dim %pm, %c1 : memref<2x?xf32>
  scf.parallel (%b) = (%c0) to (%c2) step (%c1) {
    %r = scf.for %part = %c0 to %n step %c1 iter_args(%s = %z) -> (f32) {
      %x = memref.load %pm[%b, %part] : memref<2x?xf32>
      %s2 = arith.addf %s, %x : f32
      scf.yield %s2 : f32
    }
    memref.store %r, %out[%b] : memref<2xf32>
    scf.reduce
  } loc("combine")
  return
}

// -----

// Three parts: one batch of 3, no guard. A fold that writes memory, and a map
// not named "combine", are left alone.

// CHECK-LABEL: func.func @three
// CHECK:   memref.alloca() : memref<3xf32>
// CHECK:   scf.for %{{.+}} = %{{.+}} to %c3 step %c3{{.*}} iter_args(
// CHECK-NOT: scf.if
// CHECK:   } {nvvm.minctasm = 1 : i32}
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.alloca
// CHECK-NOT: nvvm.minctasm
func.func @three(%pm: memref<2x3xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%b) = (%c0) to (%c2) step (%c1) {
    %r = scf.for %part = %c0 to %c3 step %c1 iter_args(%s = %z) -> (f32) {
      %x = memref.load %pm[%b, %part] : memref<2x3xf32>
      %s2 = arith.addf %s, %x : f32
      scf.yield %s2 : f32
    }
    memref.store %r, %out[%b] : memref<2xf32>
    scf.reduce
  } loc("combine")
  return
}
func.func @left_alone(%pm: memref<2x3xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%b) = (%c0) to (%c2) step (%c1) {
    %r = scf.for %part = %c0 to %c3 step %c1 iter_args(%s = %z) -> (f32) {
      %x = memref.load %pm[%b, %part] : memref<2x3xf32>
      memref.store %x, %out[%b] : memref<2xf32>
      %s2 = arith.addf %s, %x : f32
      scf.yield %s2 : f32
    }
    memref.store %r, %out[%b] : memref<2xf32>
    scf.reduce
  } loc("combine")
  scf.parallel (%b) = (%c0) to (%c2) step (%c1) {
    %r = scf.for %part = %c0 to %c3 step %c1 iter_args(%s = %z) -> (f32) {
      %x = memref.load %pm[%b, %part] : memref<2x3xf32>
      %s2 = arith.addf %s, %x : f32
      scf.yield %s2 : f32
    }
    memref.store %r, %out[%b] : memref<2xf32>
    scf.reduce
  } loc("parts")
  return
}
