// RUN: attncc-opt %s -split-input-file -attncc-split-columns | FileCheck %s

// A split's combine (what attncc-split-reduce and attncc-expand-carrier leave):
// each row folds 3 partial states (m, d, o[8]) and writes its row and LSE. The
// map gains a last axis over the 8 / 4 column chunks; the rows become
// vector<4>, loaded and stored at column chunk * 4; m and d stay scalars; the
// LSE is stored by chunk 0 only.

// CHECK-LABEL: func.func @combine
// CHECK: scf.parallel (%[[R:.+]], %[[CH:.+]]) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %[[C2:.+]]) step
// CHECK:   %[[C4:.+]] = arith.constant 4 : index
// CHECK:   %[[COL:.+]] = arith.muli %[[CH]], %[[C4]] : index
// CHECK:   %[[FIRST:.+]] = arith.cmpi eq, %[[CH]], %{{.+}} : index
// CHECK:   %[[Z:.+]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:   scf.for %[[P:.+]] = {{.+}} iter_args(%{{.+}} = %{{.+}}, %[[O:.+]] = %[[Z]]) -> (f32, vector<4xf32>)
// CHECK:     %[[AT:.+]] = arith.addi %{{.+}}, %[[COL]] : index
// CHECK:     vector.load %{{.+}}[%[[R]], %[[P]], %[[AT]]] : memref<5x3x8xf32>, vector<4xf32>
// CHECK:     vector.broadcast %{{.+}} : f32 to vector<4xf32>
// CHECK:   arith.truncf %{{.+}} : vector<4xf32> to vector<4xf16>
// CHECK:   vector.store %{{.+}}, %{{.+}}[%[[R]], %{{.+}}] : memref<5x8xf16>, vector<4xf16>
// CHECK:   scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %{{.+}}, %{{.+}}[%[[R]]] : memref<5xf32>
func.func @combine(%pm: memref<5x3xf32>, %po: memref<5x3x8xf32>, %o: memref<5x8xf16>, %lse: memref<5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant dense<0.0> : vector<8xf32>
  scf.parallel (%r) = (%c0) to (%c5) step (%c1) {
    %f:2 = scf.for %p = %c0 to %c3 step %c1 iter_args(%m = %ninf, %acc = %zero) -> (f32, vector<8xf32>) {
      %pm_p = memref.load %pm[%r, %p] : memref<5x3xf32>
      %po_p = vector.load %po[%r, %p, %c0] : memref<5x3x8xf32>, vector<8xf32>
      %m2 = arith.maximumf %m, %pm_p : f32
      %a = arith.subf %m, %m2 : f32
      %e = math.exp %a : f32
      %eb = vector.broadcast %e : f32 to vector<8xf32>
      %s = arith.mulf %acc, %eb : vector<8xf32>
      %acc2 = arith.addf %s, %po_p : vector<8xf32>
      scf.yield %m2, %acc2 : f32, vector<8xf32>
    }
    %t = arith.truncf %f#1 : vector<8xf32> to vector<8xf16>
    vector.store %t, %o[%r, %c0] : memref<5x8xf16>, vector<8xf16>
    memref.store %f#0, %lse[%r] : memref<5xf32>
    scf.reduce
  } loc("combine")
  return
}

// -----

// A row reduced across its columns (vector.reduction) cannot be cut into
// chunks, nor a map that is not a split's combine: both are left alone.

// CHECK-LABEL: func.func @across
// CHECK: scf.parallel (%{{[^,]+}}) = (%{{.+}}) to (%{{.+}}) step
// CHECK: vector.reduction <add>, %{{.+}} : vector<8xf32> into f32
// CHECK-LABEL: func.func @unnamed
// CHECK: scf.parallel (%{{[^,]+}}) = (%{{.+}}) to (%{{.+}}) step
// CHECK: vector.store %{{.+}} : memref<5x8xf32>, vector<8xf32>
func.func @across(%x: memref<5x8xf32>, %out: memref<5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  scf.parallel (%r) = (%c0) to (%c5) step (%c1) {
    %v = vector.load %x[%r, %c0] : memref<5x8xf32>, vector<8xf32>
    %s = vector.reduction <add>, %v : vector<8xf32> into f32
    memref.store %s, %out[%r] : memref<5xf32>
    scf.reduce
  } loc("combine")
  return
}
func.func @unnamed(%x: memref<5x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  scf.parallel (%r) = (%c0) to (%c5) step (%c1) {
    %v = vector.load %x[%r, %c0] : memref<5x8xf32>, vector<8xf32>
    %w = arith.addf %v, %v : vector<8xf32>
    vector.store %w, %x[%r, %c0] : memref<5x8xf32>, vector<8xf32>
    scf.reduce
  }
  return
}
