// RUN: attncc-opt %s -split-input-file -attncc-canonicalize | FileCheck %s

// A map whose axes all run once (one point: batch 1, one head, one row
// tile) keeps its last axis: attncc-map-to-gpu launches it as one CTA.
// MLIR's own folder inlined it, and the function had no map left.
// CHECK-LABEL: func.func @one_point
// CHECK:       scf.parallel (%[[I:.+]]) = (%c0) to (%c1) step (%c1) {
// CHECK-NEXT:    memref.store %{{.+}}, %{{.+}}[%c0, %c0, %[[I]]]
func.func @one_point(%out: memref<1x1x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c1, %c1) step (%c1, %c1, %c1) {
    memref.store %f, %out[%b, %h, %i] : memref<1x1x1xf32>
  }
  return
}

// -----

// Axes that run once are dropped (their induction variable is the lower
// bound); the others stay, and so do the map's attributes.
// CHECK-LABEL: func.func @unit_axes
// CHECK:       scf.parallel (%[[H:.+]]) = (%c0) to (%c4) step (%c1) {
// CHECK-NEXT:    memref.store %{{.+}}, %{{.+}}[%c0, %[[H]], %c0]
// CHECK:       } {nvvm.minctasm = 1 : i64}
func.func @unit_axes(%out: memref<1x4x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c4, %c1) step (%c1, %c1, %c1) {
    memref.store %f, %out[%b, %h, %i] : memref<1x4x1xf32>
  } {nvvm.minctasm = 1 : i64}
  return
}

// -----

// A map of no points is erased.
// CHECK-LABEL: func.func @no_points
// CHECK-NOT:   scf.parallel
func.func @no_points(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c0) step (%c1) {
    memref.store %f, %out[%i] : memref<4xf32>
  }
  return
}

// -----

// A fold that runs once stays a loop (SimplifyTrivialLoops is left out),
// while the rest of the canonicalizer still runs (the addition of -0.0).
// CHECK-LABEL: func.func @fold_once
// CHECK:       scf.for %{{.+}} = %c0 to %c64 step %c64 iter_args(%[[A:.+]] = %{{.+}}) -> (f32) {
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[A]], %[[A]] : f32
// CHECK-NEXT:    scf.yield %[[S]] : f32
func.func @fold_once(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant -0.0 : f32
  %r = scf.for %j = %c0 to %c64 step %c64 iter_args(%a = %x) -> (f32) {
    %t = arith.addf %a, %zero : f32
    %s = arith.addf %t, %t : f32
    scf.yield %s : f32
  }
  return %r : f32
}
