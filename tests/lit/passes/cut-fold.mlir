// RUN: attncc-opt %s -split-input-file -attncc-cut-fold -verify-diagnostics | FileCheck %s

// PLACE@fold=cut: the score s_j = q_i . k_j is computed by a stage-1
// scf.parallel over (i, j) into a [Nq, Nk] buffer; the lift of the reduce
// (stage 2) loads it instead of computing it; the buffer is freed after.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#cut = #monoid.schedule<"PLACE@fold=cut">

// CHECK-LABEL: func.func @cut
// CHECK-SAME: (%[[Q:.+]]: memref<?x8xf16>, %[[K:.+]]: memref<?x8xf16>, %[[OUT:.+]]: memref<?xf32>, %[[NQ:.+]]: index, %[[NK:.+]]: index)
// CHECK: %[[S:.+]] = memref.alloc(%[[NQ]], %[[NK]]) : memref<?x?xf32>
// Stage 1: one more induction variable (j), the score stored at [i, j].
// CHECK: scf.parallel (%[[I1:.+]], %[[J1:.+]]) = (%{{.+}}, %{{.+}}) to (%[[NQ]], %[[NK]]) step (%{{.+}}, %{{.+}}) {
// CHECK:   %[[QI:.+]] = vector.load %[[Q]][%[[I1]], %{{.+}}]
// CHECK:   %[[KJ:.+]] = vector.load %[[K]][%[[J1]], %{{.+}}]
// CHECK:   %[[SC:.+]] = monoid.contract %[[QI]], %[[KJ]]
// CHECK:   memref.store %[[SC]], %[[S]][%[[I1]], %[[J1]]] : memref<?x?xf32>
// CHECK: }
// Stage 2: the original map; the lift loads the score.
// CHECK: scf.parallel (%[[I:.+]]) = (%{{.+}}) to (%[[NQ]]) step (%{{.+}}) {
// CHECK:   monoid.reduce "kv" %{{.+}} to %[[NK]] carrier #{{.+}} schedule #{{.+}} : f32, f32 {
// CHECK:   ^bb0(%[[J:.+]]: index):
// CHECK-NOT: monoid.contract
// CHECK-NOT: vector.load
// CHECK:     %[[SJ:.+]] = memref.load %[[S]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT: monoid.yield %[[SJ]], %{{.+}} : f32, f32
// CHECK:   }
// CHECK:   memref.store %{{.+}}, %[[OUT]][%[[I]]]
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[S]] : memref<?x?xf32>
func.func @cut(%q: memref<?x8xf16>, %k: memref<?x8xf16>, %out: memref<?xf32>, %nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%nq) step (%c1) {
    %m, %d = monoid.reduce "kv" %c0 to %nk carrier #md schedule #cut : f32, f32 {
    ^bb0(%j: index):
      %qi = vector.load %q[%i, %c0] : memref<?x8xf16>, vector<8xf16>
      %kj = vector.load %k[%j, %c0] : memref<?x8xf16>, vector<8xf16>
      %s = monoid.contract %qi, %kj : vector<8xf16>, vector<8xf16> -> f32
      %one = arith.constant 1.0 : f32
      monoid.yield %s, %one : f32, f32
    }
    memref.store %m, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Static free extents and a nonzero lower bound: the buffer is
// [free extents..., hi - lo] and is indexed with j - lo.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#cut = #monoid.schedule<"PLACE@fold=cut">

// CHECK-LABEL: func.func @cut_static
// CHECK-SAME: (%[[X:.+]]: memref<2x4x?xf32>, %[[OUT:.+]]: memref<2x4xf32>, %[[LO:.+]]: index, %[[HI:.+]]: index)
// CHECK: %[[LEN:.+]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK: %[[S:.+]] = memref.alloc(%[[LEN]]) : memref<2x4x?xf32>
// CHECK: scf.parallel (%[[B1:.+]], %[[H1:.+]], %[[J1:.+]]) = (%{{.+}}, %{{.+}}, %[[LO]]) to (%{{.+}}, %{{.+}}, %[[HI]])
// CHECK-DAG: %[[V:.+]] = memref.load %[[X]][%[[B1]], %[[H1]], %[[J1]]]
// CHECK-DAG: %[[R1:.+]] = arith.subi %[[J1]], %[[LO]] : index
// CHECK:   memref.store %[[V]], %[[S]][%[[B1]], %[[H1]], %[[R1]]] : memref<2x4x?xf32>
// CHECK: scf.parallel (%[[B:.+]], %[[H:.+]]) =
// CHECK:   ^bb0(%[[J:.+]]: index):
// CHECK:     %[[R:.+]] = arith.subi %[[J]], %[[LO]] : index
// CHECK:     memref.load %[[S]][%[[B]], %[[H]], %[[R]]] : memref<2x4x?xf32>
// CHECK: memref.dealloc %[[S]]
func.func @cut_static(%x: memref<2x4x?xf32>, %out: memref<2x4xf32>, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%b, %h) = (%c0, %c0) to (%c2, %c4) step (%c1, %c1) {
    %m, %d = monoid.reduce "n" %lo to %hi carrier #md schedule #cut : f32, f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%b, %h, %j] : memref<2x4x?xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %xj, %one : f32, f32
    }
    memref.store %m, %out[%b, %h] : memref<2x4xf32>
    scf.reduce
  }
  return
}

// -----

// Without PLACE@fold=cut (no schedule, or PLACE@fold=fuse) nothing changes.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#fuse = #monoid.schedule<"PLACE@fold=fuse">

// CHECK-LABEL: func.func @not_cut
// CHECK-NOT: memref.alloc
// CHECK: scf.parallel
// CHECK:   monoid.reduce "kv"
// CHECK:     monoid.contract
// CHECK:   monoid.reduce "kv"
// CHECK:     monoid.contract
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @not_cut(%q: memref<?x8xf16>, %k: memref<?x8xf16>, %out: memref<?xf32>, %nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%nq) step (%c1) {
    %m, %d = monoid.reduce "kv" %c0 to %nk carrier #md : f32, f32 {
    ^bb0(%j: index):
      %qi = vector.load %q[%i, %c0] : memref<?x8xf16>, vector<8xf16>
      %kj = vector.load %k[%j, %c0] : memref<?x8xf16>, vector<8xf16>
      %s = monoid.contract %qi, %kj : vector<8xf16>, vector<8xf16> -> f32
      %one = arith.constant 1.0 : f32
      monoid.yield %s, %one : f32, f32
    }
    %m2, %d2 = monoid.reduce "kv" %c0 to %nk carrier #md schedule #fuse : f32, f32 {
    ^bb0(%j: index):
      %qi = vector.load %q[%i, %c0] : memref<?x8xf16>, vector<8xf16>
      %kj = vector.load %k[%j, %c0] : memref<?x8xf16>, vector<8xf16>
      %s = monoid.contract %qi, %kj : vector<8xf16>, vector<8xf16> -> f32
      %one = arith.constant 1.0 : f32
      monoid.yield %s, %one : f32, f32
    }
    memref.store %m, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// The precondition: the reduce sits directly in the free-axis scf.parallel.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#cut = #monoid.schedule<"PLACE@fold=cut">

func.func @not_in_parallel(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op PLACE@fold=cut needs the reduce directly inside the free-axis scf.parallel, with zero lower bounds and unit steps}}
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md schedule #cut : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    monoid.yield %xj, %one : f32, f32
  }
  return %m : f32
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#cut = #monoid.schedule<"PLACE@fold=cut">

func.func @parallel_not_from_zero(%x: memref<?x?xf32>, %out: memref<?xf32>, %nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c1) to (%nq) step (%c1) {
    // expected-error@+1 {{'monoid.reduce' op PLACE@fold=cut needs the reduce directly inside the free-axis scf.parallel, with zero lower bounds and unit steps}}
    %m, %d = monoid.reduce "kv" %c0 to %nk carrier #md schedule #cut : f32, f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%i, %j] : memref<?x?xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %xj, %one : f32, f32
    }
    memref.store %m, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#cut = #monoid.schedule<"PLACE@fold=cut">

func.func @bounds_inside_map(%x: memref<?x?xf32>, %out: memref<?xf32>, %nq: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%nq) step (%c1) {
    %hi = arith.addi %i, %c1 : index
    // expected-error@+1 {{'monoid.reduce' op PLACE@fold=cut needs the reduce bounds defined outside the free-axis map}}
    %m, %d = monoid.reduce "kv" %c0 to %hi carrier #md schedule #cut : f32, f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%i, %j] : memref<?x?xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %xj, %one : f32, f32
    }
    memref.store %m, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
