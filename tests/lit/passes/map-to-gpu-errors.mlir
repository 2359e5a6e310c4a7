// RUN: attncc-opt %s -split-input-file -attncc-map-to-gpu -verify-diagnostics
// RUN: not attncc-opt %s -split-input-file -attncc-map-to-gpu=threads=0 2>&1 | FileCheck %s --check-prefix=T0
// RUN: not attncc-opt %s -split-input-file -attncc-map-to-gpu=threads=2000 2>&1 | FileCheck %s --check-prefix=T2000

// The refusals of attncc-map-to-gpu that map-to-gpu.mlir does not cover (it
// has the monoid ops left over and the maps it cannot lower).

// The threads option is checked before anything else, for every function:
// a CTA has at least 1 and at most 1024 threads, so threads=0 and
// threads=2000 are refused (on this function, which the default threads=128
// of the first RUN line lowers without a word).
// (The message printed the option's low byte as a character until
// 2026-12-01; it prints the number now.)
// T0:    map-to-gpu-errors.mlir:[[@LINE+2]]:1: error: attncc-map-to-gpu: threads = 0 is not allowed; a CTA has 1 to 1024 threads
// T2000: map-to-gpu-errors.mlir:[[@LINE+1]]:1: error: attncc-map-to-gpu: threads = 2000 is not allowed; a CTA has 1 to 1024 threads
func.func @threads(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %f, %x[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

// attncc.cta (written by attncc-partition) asks for a CTA of 16 threads: a
// tiled map runs on whole warps, 32 to 1024 threads.

// expected-error@+1 {{attncc-map-to-gpu: attncc.cta needs threads in [32, 1024]}}
func.func @cta_half_warp(%x: memref<64xf32>) attributes {attncc.cta = {rows = 64 : i64, threads = 16 : i64}} {
  return
}

// -----

// A tiled function (attncc.cta) with a second map must say which map is the
// tiled one (attncc-partition writes map = <role> when the tiled map has a
// role, as a split's parts do); here attncc.cta names none.

// expected-error@+1 {{attncc-map-to-gpu: a tiled function has 2 maps, and attncc.cta names none of them (map = <role>)}}
func.func @tiled_and_combine(%x: memref<64xf32>) attributes {attncc.cta = {rows = 16 : i64, threads = 32 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%t) = (%c0) to (%c4) step (%c1) {
    memref.store %f, %x[%t] : memref<64xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %f, %x[%i] : memref<64xf32>
    scf.reduce
  }
  return
}
