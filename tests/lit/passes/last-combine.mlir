// RUN: attncc-opt %s -split-input-file -attncc-last-combine -verify-diagnostics | FileCheck %s

// REDUCE@kv=g4a on a decode-like split (what attncc-split-reduce,
// attncc-partition, attncc-split-columns and attncc-prefetch-parts leave, cut
// down): the parts map (b, part) stores a tile of 16 rows at row 0; the
// combine map (b, r, chunk) folds 3 rows' 4 parts. After the pass there is
// one map: each point counts its arrival on arrivals[b] (zeroed by the
// runtime), and the point that arrives fourth (count 3) resets the counter
// and folds rows [0, min(16, 3 - 0)) x 2 chunks, the combine's own body at
// row 0 + ri.

// CHECK-LABEL: func.func @decode
// CHECK:       %[[PM:[a-z0-9_]+]] = memref.alloc() : memref<2x4x16xf32>
// CHECK:       %[[ARR:[a-z0-9_]+]] = memref.alloc() {attncc.zero_init} : memref<2xi32>
// CHECK-NEXT:  scf.parallel (%[[B:[a-z0-9_]+]], %[[P:[a-z0-9_]+]]) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %[[G:[a-z0-9_]+]]) step
// CHECK:         vector.transfer_write %{{.+}}, %[[PM]][%[[B]], %[[P]], %[[ROW0:[a-z0-9_]+]]] :
// CHECK:         %[[ONE:[a-z0-9_]+]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[N:[a-z0-9_]+]] = memref.atomic_rmw addi %[[ONE]], %[[ARR]][%[[B]]] {attncc.arrival} : (i32, memref<2xi32>) -> i32
// CHECK:         %[[GM1:[a-z0-9_]+]] = arith.subi %[[G]], %{{.+}} : index
// CHECK-NEXT:    %[[GM1I:[a-z0-9_]+]] = arith.index_cast %[[GM1]] : index to i32
// CHECK-NEXT:    %[[LAST:[a-z0-9_]+]] = arith.cmpi eq, %[[N]], %[[GM1I]] : i32
// CHECK-NEXT:    scf.if %[[LAST]] {
// CHECK-NEXT:      %[[Z:[a-z0-9_]+]] = arith.constant 0 : i32
// CHECK-NEXT:      memref.store %[[Z]], %[[ARR]][%[[B]]] {attncc.arrival_reset} : memref<2xi32>
// CHECK:           %[[LEFT:[a-z0-9_]+]] = arith.subi %[[R:[a-z0-9_]+]], %[[ROW0]] : index
// CHECK:           %[[ROWS:[a-z0-9_]+]] = arith.minui %[[LEFT]], %{{.+}} : index
// CHECK:           scf.parallel (%[[RI:[a-z0-9_]+]], %[[CH:[a-z0-9_]+]]) = (%{{.+}}, %{{.+}}) to (%[[ROWS]], %{{.+}}) step
// CHECK-NEXT:        %[[ROW:[a-z0-9_]+]] = arith.addi %[[ROW0]], %[[RI]] : index
// CHECK:             scf.for %[[Q:[a-z0-9_]+]] =
// CHECK:               memref.load %[[PM]][%[[B]], %[[Q]], %[[ROW]]] : memref<2x4x16xf32>
// CHECK:             vector.store %{{.+}}, %{{.+}}[%[[B]], %[[ROW]], %{{.+}}] : memref<2x3x8xf16>, vector<4xf16>
// CHECK:             memref.store %{{.+}}, %{{.+}}[%[[B]], %[[ROW]]] : memref<2x3xf32>
// CHECK:       memref.dealloc %[[ARR]] : memref<2xi32>
// CHECK-NOT:   scf.parallel
#g4a = #monoid.schedule<"REDUCE@kv=g4a">
func.func @decode(%o: memref<2x3x8xf16>, %lse: memref<2x3xf32>) attributes {attncc.schedule = #g4a} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %ninf = arith.constant 0xFF800000 : f32
  %z4 = arith.constant dense<0.0> : vector<4xf32>
  %pm = memref.alloc() : memref<2x4x16xf32>
  %po = memref.alloc() : memref<2x4x16x8xf32>
  scf.parallel (%b, %part) = (%c0, %c0) to (%c2, %c4) step (%c1, %c1) {
    %m = arith.constant dense<1.0> : vector<16xf32>
    %ov = arith.constant dense<1.0> : vector<16x8xf32>
    vector.transfer_write %m, %pm[%b, %part, %c0] : vector<16xf32>, memref<2x4x16xf32>
    vector.transfer_write %ov, %po[%b, %part, %c0, %c0] : vector<16x8xf32>, memref<2x4x16x8xf32>
    scf.reduce
  } loc("parts")
  scf.parallel (%b, %r, %chunk) = (%c0, %c0, %c0) to (%c2, %c3, %c2) step (%c1, %c1, %c1) {
    %col = arith.muli %chunk, %c4 : index
    %f:2 = scf.for %p = %c0 to %c4 step %c1 iter_args(%mx = %ninf, %acc = %z4) -> (f32, vector<4xf32>) {
      %x = memref.load %pm[%b, %p, %r] : memref<2x4x16xf32>
      %y = vector.load %po[%b, %p, %r, %col] : memref<2x4x16x8xf32>, vector<4xf32>
      %mx2 = arith.maximumf %mx, %x : f32
      %acc2 = arith.addf %acc, %y : vector<4xf32>
      scf.yield %mx2, %acc2 : f32, vector<4xf32>
    }
    %t = arith.truncf %f#1 : vector<4xf32> to vector<4xf16>
    vector.store %t, %o[%b, %r, %col] : memref<2x3x8xf16>, vector<4xf16>
    memref.store %f#0, %lse[%b, %r] : memref<2x3xf32>
    scf.reduce
  } loc("combine")
  memref.dealloc %pm : memref<2x4x16xf32>
  memref.dealloc %po : memref<2x4x16x8xf32>
  return
}

// -----

// A split without an atom (a point a row, scalar states stored at
// [b, row, part]) and a combine with no column chunk (a row carrier): one
// counter a row, and the last point folds its own row in place.

// CHECK-LABEL: func.func @scalar
// CHECK:       %[[ARR:[a-z0-9_]+]] = memref.alloc() {attncc.zero_init} : memref<2x5xi32>
// CHECK-NEXT:  scf.parallel (%[[B:[a-z0-9_]+]], %[[I:[a-z0-9_]+]], %[[P:[a-z0-9_]+]]) =
// CHECK:         memref.atomic_rmw addi %{{.+}}, %[[ARR]][%[[B]], %[[I]]] {attncc.arrival}
// CHECK:         scf.if
// CHECK:           memref.store %{{.+}}, %[[ARR]][%[[B]], %[[I]]] {attncc.arrival_reset}
// CHECK-NOT:       scf.parallel
// CHECK:           scf.for %[[Q:[a-z0-9_]+]] =
// CHECK:             memref.load %{{.+}}[%[[B]], %[[I]], %[[Q]]] : memref<2x5x3xf32>
// CHECK:           memref.store %{{.+}}, %{{.+}}[%[[B]], %[[I]]] : memref<2x5xf32>
#g3a = #monoid.schedule<"REDUCE@kv=g3a">
func.func @scalar(%out: memref<2x5xf32>) attributes {attncc.schedule = #g3a} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ps = memref.alloc() : memref<2x5x3xf32>
  scf.parallel (%b, %i, %part) = (%c0, %c0, %c0) to (%c2, %c5, %c3) step (%c1, %c1, %c1) {
    memref.store %one, %ps[%b, %i, %part] : memref<2x5x3xf32>
    scf.reduce
  } loc("parts")
  scf.parallel (%b, %i) = (%c0, %c0) to (%c2, %c5) step (%c1, %c1) {
    %s = scf.for %p = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (f32) {
      %x = memref.load %ps[%b, %i, %p] : memref<2x5x3xf32>
      %a2 = arith.addf %a, %x : f32
      scf.yield %a2 : f32
    }
    memref.store %s, %out[%b, %i] : memref<2x5xf32>
    scf.reduce
  } loc("combine")
  memref.dealloc %ps : memref<2x5x3xf32>
  return
}

// -----

// g<n>k keeps the combine map (a kernel of its own on the GPU).

// CHECK-LABEL: func.func @kernel
// CHECK-NOT:   attncc.arrival
// CHECK:       scf.parallel
// CHECK:       scf.parallel
#g3k = #monoid.schedule<"REDUCE@kv=g3k">
func.func @kernel(%out: memref<2xf32>) attributes {attncc.schedule = #g3k} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %ps = memref.alloc() : memref<2x3xf32>
  scf.parallel (%b, %part) = (%c0, %c0) to (%c2, %c3) step (%c1, %c1) {
    memref.store %zero, %ps[%b, %part] : memref<2x3xf32>
    scf.reduce
  } loc("parts")
  scf.parallel (%b) = (%c0) to (%c2) step (%c1) {
    %x = memref.load %ps[%b, %c0] : memref<2x3xf32>
    memref.store %x, %out[%b] : memref<2xf32>
    scf.reduce
  } loc("combine")
  return
}

// -----

// Without the split's two maps the knob cannot act: an error, not a silent
// combine kernel.

#g2a = #monoid.schedule<"REDUCE@kv=g2a">
// expected-error @+1 {{attncc-last-combine: REDUCE@<axis>=g<n>a needs the split's parts and combine maps}}
func.func @no_maps(%out: memref<2xf32>) attributes {attncc.schedule = #g2a} {
  return
}
