// RUN: attncc-opt %s -split-input-file -attncc-stream-reduce | FileCheck %s

// Untiled: one scf.for over [lo, hi) carrying the state, started from the
// identity, one combine per element; the project stays after the loop.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>

// CHECK-LABEL: func.func @untiled
// CHECK-SAME: (%[[X:.+]]: memref<?xf32>, %[[LO:.+]]: index, %[[HI:.+]]: index)
// CHECK-NOT: monoid.reduce
// CHECK: %[[ID:.+]]:2 = monoid.identity #{{.+}} : f32, f32
// CHECK: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: %[[FOLD:.+]]:2 = scf.for %[[J:.+]] = %[[LO]] to %[[HI]] step %[[ONE]] iter_args(%[[M:.+]] = %[[ID]]#0, %[[D:.+]] = %[[ID]]#1) -> (f32, f32) {
// CHECK:   %[[XJ:.+]] = memref.load %[[X]][%[[J]]] : memref<?xf32>
// CHECK:   %[[W:.+]] = arith.constant 1.0{{.*}} : f32
// CHECK:   %[[C:.+]]:2 = monoid.combine #{{.+}}(%[[M]], %[[D]]), (%[[XJ]], %[[W]]) : f32, f32
// CHECK:   scf.yield %[[C]]#0, %[[C]]#1 : f32, f32
// CHECK: }
// CHECK: monoid.project %[[FOLD]]#0, %[[FOLD]]#1 carrier
// CHECK: math.log
// CHECK-NOT: monoid.reduce
func.func @untiled(%x: memref<?xf32>, %lo: index, %hi: index) -> f32 {
  %m, %d = monoid.reduce "kv" %lo to %hi carrier #md : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    monoid.yield %xj, %one : f32, f32
  }
  %lse = monoid.project %m, %d carrier #md : f32, f32 -> f32 {
  ^bb0(%pm: f32, %pd: f32):
    %lg = math.log %pd : f32
    %r = arith.addf %pm, %lg : f32
    monoid.yield %r : f32
  }
  return %lse : f32
}

// -----

// TILE@kv=n4/f1 (block 4): an outer loop of step 4 and an inner loop of
// exactly 4 steps; elements at or past the upper bound are the identity.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tile4 = #monoid.schedule<"TILE@kv=n4/f1">

// CHECK-LABEL: func.func @tiled
// CHECK-SAME: (%[[X:.+]]: memref<?xf32>, %[[N:.+]]: index)
// CHECK-NOT: monoid.reduce
// CHECK: %[[ID:.+]]:2 = monoid.identity #{{.+}} : f32, f32
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[OUT:.+]]:2 = scf.for %[[T:.+]] = %{{.+}} to %[[N]] step %[[C4]] iter_args(%[[M0:.+]] = %[[ID]]#0, %[[D0:.+]] = %[[ID]]#1) -> (f32, f32) {
// CHECK:   %[[IN:.+]]:2 = scf.for %[[JJ:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[M:.+]] = %[[M0]], %[[D:.+]] = %[[D0]]) -> (f32, f32) {
// CHECK:     %[[J:.+]] = arith.addi %[[T]], %[[JJ]] : index
// CHECK:     %[[OK:.+]] = arith.cmpi ult, %[[J]], %[[N]] : index
// CHECK:     %[[E:.+]]:2 = scf.if %[[OK]] -> (f32, f32) {
// CHECK:       %[[XJ:.+]] = memref.load %[[X]][%[[J]]] : memref<?xf32>
// CHECK:       scf.yield %[[XJ]], %{{.+}} : f32, f32
// CHECK:     } else {
// CHECK:       %[[PAD:.+]]:2 = monoid.identity #{{.+}} : f32, f32
// CHECK-NOT:   memref.load
// CHECK:       scf.yield %[[PAD]]#0, %[[PAD]]#1 : f32, f32
// CHECK:     }
// CHECK:     %[[C:.+]]:2 = monoid.combine #{{.+}}(%[[M]], %[[D]]), (%[[E]]#0, %[[E]]#1) : f32, f32
// CHECK:     scf.yield %[[C]]#0, %[[C]]#1 : f32, f32
// CHECK:   }
// CHECK:   scf.yield %[[IN]]#0, %[[IN]]#1 : f32, f32
// CHECK: }
// CHECK: return %[[OUT]]#0, %[[OUT]]#1
func.func @tiled(%x: memref<?xf32>, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md schedule #tile4 : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    monoid.yield %xj, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// -----

// The block of a scalar tile is N * fn: TILE@n=n2/f3 streams blocks of 6.

#s = #monoid.carrier<s: add(0)>
#tile6 = #monoid.schedule<"TILE@n=n2/f3">

// CHECK-LABEL: func.func @block_n_times_f
// CHECK: %[[C6:.+]] = arith.constant 6 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C6]]
// CHECK:   scf.for %{{.+}} = %{{.+}} to %[[C6]] step
func.func @block_n_times_f(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %s = monoid.reduce "n" %c0 to %n carrier #s schedule #tile6 : f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj : f32
  }
  return %s : f32
}

// -----

// A TILE knob of another axis does not tile this reduce.

#s = #monoid.carrier<s: add(0)>
#other = #monoid.schedule<"TILE@q=n16/f1">

// CHECK-LABEL: func.func @tile_other_axis
// CHECK: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[ONE]] iter_args
// CHECK-NOT: scf.for
// CHECK-NOT: scf.if
// CHECK: return
func.func @tile_other_axis(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %s = monoid.reduce "n" %c0 to %n carrier #s schedule #other : f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj : f32
  }
  return %s : f32
}

// -----

// A vector channel is carried like a scalar one.

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>

// CHECK-LABEL: func.func @vector_channel
// CHECK: %[[ID:.+]]:3 = monoid.identity #{{.+}} : f32, f32, vector<4xf32>
// CHECK: scf.for {{.+}} iter_args(%[[M:.+]] = %[[ID]]#0, %[[D:.+]] = %[[ID]]#1, %[[O:.+]] = %[[ID]]#2) -> (f32, f32, vector<4xf32>)
// CHECK:   %[[VJ:.+]] = vector.load
// CHECK:   monoid.combine #{{.+}}(%[[M]], %[[D]], %[[O]]), (%{{.+}}, %{{.+}}, %[[VJ]]) : f32, f32, vector<4xf32>
func.func @vector_channel(%s: memref<?xf32>, %v: memref<?x4xf32>, %n: index) -> (f32, f32, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %m, %d, %o = monoid.reduce "kv" %c0 to %n carrier #mdo : f32, f32, vector<4xf32> {
  ^bb0(%j: index):
    %sj = memref.load %s[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %vj = vector.load %v[%j, %c0] : memref<?x4xf32>, vector<4xf32>
    monoid.yield %sj, %one, %vj : f32, f32, vector<4xf32>
  }
  return %m, %d, %o : f32, f32, vector<4xf32>
}
