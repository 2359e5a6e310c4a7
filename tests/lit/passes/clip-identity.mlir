// RUN: attncc-opt %s -split-input-file -attncc-clip-identity | FileCheck %s

// Causal-like: j <= e keeps j < e + 1; the bound is computed before the reduce.
#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>

// CHECK-LABEL: func.func @upper
// CHECK:       %[[E:.+]] = arith.addi %[[I:.+]], %{{.+}} : index
// CHECK:       %[[U:.+]] = arith.addi %[[E]], %c1{{.*}} : index
// CHECK:       %[[HI:.+]] = arith.minsi %[[N:.+]], %[[U]] {attncc.clip} : index
// CHECK:       monoid.reduce "kv" %{{.+}} to %[[HI]]
func.func @upper(%x: memref<?xf32>, %i: index, %off: index, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: index):
    %s = memref.load %x[%j] : memref<?xf32>
    %diag = arith.addi %i, %off : index
    %ok = arith.cmpi sle, %j, %diag : index
    %ninf = arith.constant 0xFF800000 : f32
    %s2 = arith.select %ok, %s, %ninf : f32
    %one = arith.constant 1.0 : f32
    monoid.yield %s2, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// -----

// A window written with the index on the right (e <= j, i.e. j >= e) and a
// strict upper bound: both ends clip.
#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>

// CHECK-LABEL: func.func @window
// CHECK:       %[[LO:.+]] = arith.maxsi %{{.+}}, %[[A:.+]] {attncc.clip} : index
// CHECK:       %[[HI:.+]] = arith.minsi %{{.+}}, %[[B:.+]] {attncc.clip} : index
// CHECK:       monoid.reduce "kv" %[[LO]] to %[[HI]]
func.func @window(%x: memref<?xf32>, %a: index, %b: index, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: index):
    %s = memref.load %x[%j] : memref<?xf32>
    %lo = arith.cmpi sle, %a, %j : index
    %hi = arith.cmpi slt, %j, %b : index
    %ok = arith.andi %lo, %hi : i1
    %ninf = arith.constant 0xFF800000 : f32
    %s2 = arith.select %ok, %s, %ninf : f32
    %one = arith.constant 1.0 : f32
    monoid.yield %s2, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// -----

// Left alone: an unsigned comparison, a bound that depends on the index, and
// a select whose other value is not -inf (those elements are not the identity).
#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>

// CHECK-LABEL: func.func @untouched
// CHECK-NOT:   arith.minsi
// CHECK-NOT:   arith.maxsi
// CHECK:       monoid.reduce "kv" %c0 to %arg3
func.func @untouched(%x: memref<?xf32>, %e: index, %ninf2: f32, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: index):
    %s = memref.load %x[%j] : memref<?xf32>
    %u = arith.cmpi ule, %j, %e : index
    %jj = arith.addi %j, %e : index
    %dep = arith.cmpi slt, %j, %jj : index
    %ok = arith.andi %u, %dep : i1
    %zero = arith.constant 0.0 : f32
    %s2 = arith.select %ok, %s, %zero : f32
    %one = arith.constant 1.0 : f32
    monoid.yield %s2, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// -----

// Left alone: a carrier with an untwisted add channel. A masked element is
// then not the identity (it still adds to s), so no element may be skipped.
#ms = #monoid.carrier<m: max(-inf), s: add(0)>

// CHECK-LABEL: func.func @untwisted
// CHECK-NOT:   arith.minsi
// CHECK:       monoid.reduce "kv" %c0 to %arg2
func.func @untwisted(%x: memref<?xf32>, %e: index, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %m, %s = monoid.reduce "kv" %c0 to %n carrier #ms : f32, f32 {
  ^bb0(%j: index):
    %v = memref.load %x[%j] : memref<?xf32>
    %ok = arith.cmpi slt, %j, %e : index
    %ninf = arith.constant 0xFF800000 : f32
    %v2 = arith.select %ok, %v, %ninf : f32
    monoid.yield %v2, %v : f32, f32
  }
  return %m, %s : f32, f32
}
