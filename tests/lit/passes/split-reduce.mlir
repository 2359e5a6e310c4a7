// RUN: attncc-opt %s -split-input-file -attncc-split-reduce | FileCheck %s

// REDUCE@kv=g3k: 3 parts in an scf.parallel, each a `partial` reduce over
// [min(lo + g C, hi), min(lo + (g + 1) C, hi)) storing its state into slot g
// of one workspace per channel; then an scf.for folds the 3 slots with
// monoid.combine from the identity, and the workspace is freed.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#g3 = #monoid.schedule<"REDUCE@kv=g3k">

// CHECK-LABEL: func.func @split3
// CHECK-SAME: (%[[X:.+]]: memref<?xf32>, %[[LO:.+]]: index, %[[HI:.+]]: index)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK: %[[LEN:.+]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK: %[[PER:.+]] = arith.ceildivui %[[LEN]], %[[C3]] : index
// CHECK: %[[CHUNK:.+]] = arith.muli
// CHECK: %[[WM:.+]] = memref.alloc() : memref<3xf32>
// CHECK: %[[WD:.+]] = memref.alloc() : memref<3xf32>
// CHECK: scf.parallel (%[[G:.+]]) = (%[[C0]]) to (%[[C3]]) step (%[[C1]]) {
// CHECK:   %[[OFF:.+]] = arith.muli %[[G]], %[[CHUNK]] : index
// CHECK:   %[[START:.+]] = arith.addi %[[LO]], %[[OFF]] : index
// CHECK:   %[[PLO:.+]] = arith.minui %[[START]], %[[HI]] : index
// CHECK:   %[[END:.+]] = arith.addi %[[PLO]], %[[CHUNK]] : index
// CHECK:   %[[PHI:.+]] = arith.minui %[[END]], %[[HI]] : index
// CHECK:   %[[P:.+]]:2 = monoid.reduce "kv" %[[PLO]] to %[[PHI]] carrier #{{.+}} schedule #{{.+}} partial : f32, f32 {
// CHECK:     memref.load %[[X]]
// CHECK:   }
// CHECK:   memref.store %[[P]]#0, %[[WM]][%[[G]]] : memref<3xf32>
// CHECK:   memref.store %[[P]]#1, %[[WD]][%[[G]]] : memref<3xf32>
// CHECK: }
// CHECK: %[[ID:.+]]:2 = monoid.identity #{{.+}} : f32, f32
// CHECK: %[[FOLD:.+]]:2 = scf.for %[[K:.+]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[AM:.+]] = %[[ID]]#0, %[[AD:.+]] = %[[ID]]#1) -> (f32, f32) {
// CHECK:   %[[LM:.+]] = memref.load %[[WM]][%[[K]]] : memref<3xf32>
// CHECK:   %[[LD:.+]] = memref.load %[[WD]][%[[K]]] : memref<3xf32>
// CHECK:   %[[C:.+]]:2 = monoid.combine #{{.+}}(%[[AM]], %[[AD]]), (%[[LM]], %[[LD]]) : f32, f32
// CHECK:   scf.yield %[[C]]#0, %[[C]]#1 : f32, f32
// CHECK: }
// CHECK: memref.dealloc %[[WM]] : memref<3xf32>
// CHECK: memref.dealloc %[[WD]] : memref<3xf32>
// CHECK: return %[[FOLD]]#0, %[[FOLD]]#1
func.func @split3(%x: memref<?xf32>, %lo: index, %hi: index) -> (f32, f32) {
  %m, %d = monoid.reduce "kv" %lo to %hi carrier #md schedule #g3 : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    monoid.yield %xj, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// -----

// With TILE@kv the part size is rounded up to whole blocks (here 4):
// C = ceil(ceil(n / 3) / 4) * 4.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#g3t4 = #monoid.schedule<"TILE@kv=n4/f1,REDUCE@kv=g3k">

// CHECK-LABEL: func.func @split_tile_rounding
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[PER:.+]] = arith.ceildivui %{{.+}}, %[[C3]] : index
// CHECK: %[[BLOCKS:.+]] = arith.ceildivui %[[PER]], %[[C4]] : index
// CHECK: %[[CHUNK:.+]] = arith.muli %[[BLOCKS]], %[[C4]] : index
// CHECK: scf.parallel
// CHECK:   arith.muli %{{.+}}, %[[CHUNK]] : index
// CHECK:   monoid.reduce "kv" {{.+}} partial
func.func @split_tile_rounding(%x: memref<?xf32>, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md schedule #g3t4 : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    monoid.yield %xj, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// -----

// A vector channel gets a workspace of G vectors.

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#g2 = #monoid.schedule<"REDUCE@kv=g2a">

// CHECK-LABEL: func.func @split_vector
// CHECK: memref.alloc() : memref<2xf32>
// CHECK: memref.alloc() : memref<2xf32>
// CHECK: %[[WO:.+]] = memref.alloc() : memref<2xvector<4xf32>>
// CHECK: scf.parallel
// CHECK:   memref.store %{{.+}}, %[[WO]][%{{.+}}] : memref<2xvector<4xf32>>
// CHECK: scf.for
// CHECK:   memref.load %[[WO]]
// CHECK:   monoid.combine
// CHECK: memref.dealloc %[[WO]]
func.func @split_vector(%s: memref<?xf32>, %v: memref<?x4xf32>, %n: index) -> (f32, f32, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %m, %d, %o = monoid.reduce "kv" %c0 to %n carrier #mdo schedule #g2 : f32, f32, vector<4xf32> {
  ^bb0(%j: index):
    %sj = memref.load %s[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %vj = vector.load %v[%j, %c0] : memref<?x4xf32>, vector<4xf32>
    monoid.yield %sj, %one, %vj : f32, f32, vector<4xf32>
  }
  return %m, %d, %o : f32, f32, vector<4xf32>
}

// -----

// Left alone: no schedule, a schedule without REDUCE, REDUCE of another axis,
// g1, and a reduce already marked `partial`.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tile = #monoid.schedule<"TILE@kv=n4/f1">
#other = #monoid.schedule<"REDUCE@q=g3k">
#g1 = #monoid.schedule<"REDUCE@kv=g1/b4">
#g3 = #monoid.schedule<"REDUCE@kv=g3k">

// CHECK-LABEL: func.func @untouched
// CHECK-NOT: memref.alloc
// CHECK-NOT: scf.parallel
// CHECK-NOT: monoid.combine
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} : f32, f32
// CHECK-NOT: partial
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} : f32, f32
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} : f32, f32
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} : f32, f32
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} partial : f32, f32
// CHECK-NOT: memref.alloc
// CHECK-NOT: scf.parallel
// CHECK-NOT: monoid.combine
// CHECK: return
func.func @untouched(%x: memref<?xf32>, %lo: index, %hi: index) -> (f32, f32, f32, f32, f32) {
  %m0, %d0 = monoid.reduce "kv" %lo to %hi carrier #md : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj, %xj : f32, f32
  }
  %m1, %d1 = monoid.reduce "kv" %lo to %hi carrier #md schedule #tile : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj, %xj : f32, f32
  }
  %m2, %d2 = monoid.reduce "kv" %lo to %hi carrier #md schedule #other : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj, %xj : f32, f32
  }
  %m3, %d3 = monoid.reduce "kv" %lo to %hi carrier #md schedule #g1 : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj, %xj : f32, f32
  }
  %m4, %d4 = monoid.reduce "kv" %lo to %hi carrier #md schedule #g3 partial : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj, %xj : f32, f32
  }
  return %m0, %m1, %m2, %m3, %m4 : f32, f32, f32, f32, f32
}

// -----

// The pass splits once: running it twice gives the same single split.
// RUN: attncc-opt %s -split-input-file -attncc-split-reduce -attncc-split-reduce | FileCheck %s --check-prefix=TWICE

#s = #monoid.carrier<s: add(0)>
#g4 = #monoid.schedule<"REDUCE@n=g4k">

// TWICE-LABEL: func.func @split_once
// TWICE: scf.parallel
// TWICE-NOT: scf.parallel
// TWICE: monoid.reduce "n" {{.+}} partial
// TWICE-NOT: scf.parallel
// TWICE: return
func.func @split_once(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %s = monoid.reduce "n" %c0 to %n carrier #s schedule #g4 : f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj : f32
  }
  return %s : f32
}
