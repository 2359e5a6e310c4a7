// RUN: attncc-opt %s -split-input-file -attncc-split-reduce -verify-diagnostics | FileCheck %s
// RUN: attncc-opt %s -split-input-file -attncc-split-reduce -verify-diagnostics | FileCheck %s --check-prefix=ATOM

// REDUCE@kv=g3k: the free-axis map becomes two maps.
//  - the parts: a new scf.parallel over (i, part in [0, 3)), each part a
//    `partial` reduce over [min(lo + part C, hi), min(lo + (part + 1) C, hi))
//    storing its state at [i, part] of one workspace per channel;
//  - the combine: in the original map, an scf.for over the 3 parts folds
//    them with monoid.combine from the identity.
// The workspaces ([free extents..., 3]) are freed after the map.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#g3 = #monoid.schedule<"REDUCE@kv=g3k">

// CHECK-LABEL: func.func @split3
// CHECK-SAME: (%[[X:.+]]: memref<?x?xf32>, %[[OUT:.+]]: memref<?xf32>, %[[NQ:.+]]: index, %[[LO:.+]]: index, %[[HI:.+]]: index)
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK:     %[[LEN:.+]] = arith.subi %[[HI]], %[[LO]] : index
// Without TILE@kv the part size is the plain ceil(len / 3): no rounding to blocks of 1.
// CHECK:     %[[CHUNK:.+]] = arith.ceildivui %[[LEN]], %[[C3]] : index
// CHECK-NOT: arith.ceildivui
// CHECK-NOT: arith.muli
// CHECK:     %[[WM:.+]] = memref.alloc(%[[NQ]]) : memref<?x3xf32>
// CHECK:     %[[WD:.+]] = memref.alloc(%[[NQ]]) : memref<?x3xf32>
// The parts.
// CHECK:     scf.parallel (%[[PI:.+]], %[[P:.+]]) = (%{{.+}}, %{{.+}}) to (%[[NQ]], %[[C3]]) step
// CHECK:       %[[OFF:.+]] = arith.muli %[[P]], %[[CHUNK]] : index
// CHECK:       %[[START:.+]] = arith.addi %[[LO]], %[[OFF]] : index
// CHECK:       %[[PLO:.+]] = arith.minui %[[START]], %[[HI]] : index
// CHECK:       %[[END:.+]] = arith.addi %[[PLO]], %[[CHUNK]] : index
// CHECK:       %[[PHI:.+]] = arith.minui %[[END]], %[[HI]] : index
// CHECK:       %[[S:.+]]:2 = monoid.reduce "kv" %[[PLO]] to %[[PHI]] carrier #{{.+}} schedule #{{.+}} partial : f32, f32 {
// CHECK:         memref.load %[[X]][%[[PI]], %{{.+}}]
// CHECK:       }
// CHECK:       memref.store %[[S]]#0, %[[WM]][%[[PI]], %[[P]]] : memref<?x3xf32>
// CHECK:       memref.store %[[S]]#1, %[[WD]][%[[PI]], %[[P]]] : memref<?x3xf32>
// CHECK:     }
// The combine, in the original map.
// CHECK:     scf.parallel (%[[I:.+]]) = (%{{.+}}) to (%[[NQ]]) step
// CHECK-NOT:   monoid.reduce
// CHECK:       %[[ID:.+]]:2 = monoid.identity #{{.+}} : f32, f32
// CHECK:       %[[FOLD:.+]]:2 = scf.for %[[K:.+]] = %{{.+}} to %[[C3]] step %{{.+}} iter_args(%[[AM:.+]] = %[[ID]]#0, %[[AD:.+]] = %[[ID]]#1) -> (f32, f32) {
// CHECK:         %[[LM:.+]] = memref.load %[[WM]][%[[I]], %[[K]]] : memref<?x3xf32>
// CHECK:         %[[LD:.+]] = memref.load %[[WD]][%[[I]], %[[K]]] : memref<?x3xf32>
// CHECK:         %[[C:.+]]:2 = monoid.combine #{{.+}}(%[[AM]], %[[AD]]), (%[[LM]], %[[LD]]) : f32, f32
// CHECK:         scf.yield %[[C]]#0, %[[C]]#1 : f32, f32
// CHECK:       }
// CHECK:       memref.store %[[FOLD]]#0, %[[OUT]][%[[I]]]
// CHECK:     }
// CHECK-NEXT: memref.dealloc %[[WM]] : memref<?x3xf32>
// CHECK-NEXT: memref.dealloc %[[WD]] : memref<?x3xf32>
func.func @split3(%x: memref<?x?xf32>, %out: memref<?xf32>, %nq: index, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%nq) step (%c1) {
    %m, %d = monoid.reduce "kv" %lo to %hi carrier #md schedule #g3 : f32, f32 {
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

// With a tensor-core TILE on the axis the part axis goes before the map's
// last axis (the rows), so that attncc-partition tiles the rows of each part:
// the parts map is (b, part, i) and the workspaces [2, 3, 100]. Parts are
// whole 16-key blocks (n8 x f1x2).

#md2 = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tc3 = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x2/k1,REDUCE@kv=g3k">

// ATOM-LABEL: func.func @split3_atom
// ATOM:     %[[WM:.+]] = memref.alloc() : memref<2x3x100xf32>
// ATOM:     %[[WD:.+]] = memref.alloc() : memref<2x3x100xf32>
// ATOM:     scf.parallel (%[[B:.+]], %[[P:.+]], %[[I:.+]]) = (%{{.+}}, %{{.+}}, %{{.+}}) to (%{{.+}}, %{{.+}}, %{{.+}}) step
// ATOM:       monoid.reduce "kv" {{.+}} partial
// ATOM:       memref.store %{{.+}}, %[[WM]][%[[B]], %[[P]], %[[I]]] : memref<2x3x100xf32>
// ATOM:     scf.parallel (%[[B2:.+]], %[[I2:.+]]) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %{{.+}}) step
// ATOM:       scf.for %[[K:.+]] = {{.+}} iter_args
// ATOM:         memref.load %[[WM]][%[[B2]], %[[K]], %[[I2]]] : memref<2x3x100xf32>
func.func @split3_atom(%x: memref<2x100x100xf32>, %out: memref<2x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %i) = (%c0, %c0) to (%c2, %c100) step (%c1, %c1) {
    %m, %d = monoid.reduce "kv" %c0 to %c100 carrier #md2 schedule #tc3 : f32, f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%b, %i, %j] : memref<2x100x100xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %xj, %one : f32, f32
    }
    memref.store %m, %out[%b, %i] : memref<2x100xf32>
    scf.reduce
  }
  return
}

// -----

// With TILE@kv the part size is rounded up to whole blocks (here 4):
// C = ceil(ceil(n / 3) / 4) * 4.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#g3t4 = #monoid.schedule<"TILE@kv=n4/f1,REDUCE@kv=g3k">

// CHECK-LABEL: func.func @split_tile_rounding
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK:     %[[PER:.+]] = arith.ceildivui %{{.+}}, %[[C3]] : index
// CHECK:     %[[BLOCKS:.+]] = arith.ceildivui %[[PER]], %[[C4]] : index
// CHECK:     %[[CHUNK:.+]] = arith.muli %[[BLOCKS]], %[[C4]] : index
// CHECK:     scf.parallel
// CHECK:       arith.muli %{{.+}}, %[[CHUNK]] : index
// CHECK:       monoid.reduce "kv" {{.+}} partial
func.func @split_tile_rounding(%x: memref<2x?xf32>, %out: memref<2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %m, %d = monoid.reduce "kv" %c0 to %n carrier #md schedule #g3t4 : f32, f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%i, %j] : memref<2x?xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %xj, %one : f32, f32
    }
    memref.store %m, %out[%i] : memref<2xf32>
    scf.reduce
  }
  return
}

// -----

// A vector channel's workspace has the vector's length as its last
// dimension; parts write it with vector.store, the combine reads vector.load.

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#g2 = #monoid.schedule<"REDUCE@kv=g2a">

// CHECK-LABEL: func.func @split_vector
// CHECK:     memref.alloc() : memref<2x2xf32>
// CHECK:     memref.alloc() : memref<2x2xf32>
// CHECK:     %[[WO:.+]] = memref.alloc() : memref<2x2x4xf32>
// CHECK:     scf.parallel
// CHECK:       %[[P:.+]]:3 = monoid.reduce "kv" {{.+}} partial
// CHECK:       vector.store %[[P]]#2, %[[WO]][%{{.+}}, %{{.+}}, %{{.+}}] : memref<2x2x4xf32>, vector<4xf32>
// CHECK:     scf.parallel
// CHECK:       scf.for
// CHECK:         %[[LO:.+]] = vector.load %[[WO]][%{{.+}}, %{{.+}}, %{{.+}}] : memref<2x2x4xf32>, vector<4xf32>
// CHECK:         monoid.combine #{{.+}}(%{{.+}}, %{{.+}}, %{{.+}}), (%{{.+}}, %{{.+}}, %[[LO]]) : f32, f32, vector<4xf32>
// CHECK:     memref.dealloc %[[WO]]
func.func @split_vector(%s: memref<2x?xf32>, %v: memref<?x4xf32>, %out: memref<2x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %m, %d, %o = monoid.reduce "kv" %c0 to %n carrier #mdo schedule #g2 : f32, f32, vector<4xf32> {
    ^bb0(%j: index):
      %sj = memref.load %s[%i, %j] : memref<2x?xf32>
      %one = arith.constant 1.0 : f32
      %vj = vector.load %v[%j, %c0] : memref<?x4xf32>, vector<4xf32>
      monoid.yield %sj, %one, %vj : f32, f32, vector<4xf32>
    }
    vector.store %o, %out[%i, %c0] : memref<2x4xf32>, vector<4xf32>
    scf.reduce
  }
  return
}

// -----

// What the lift uses from the map's body is recomputed in the parts' map.

#s = #monoid.carrier<s: add(0)>
#g2 = #monoid.schedule<"REDUCE@n=g2k">

// CHECK-LABEL: func.func @split_captures
// CHECK:     scf.parallel (%[[I1:.+]], %{{.+}}) =
// CHECK:       %[[ROW1:.+]] = arith.addi %[[I1]], %[[I1]] : index
// CHECK:       monoid.reduce "n" {{.+}} partial
// CHECK:         memref.load %{{.+}}[%[[ROW1]], %{{.+}}]
// CHECK:     scf.parallel (%[[I:.+]]) =
// CHECK-NOT:   monoid.reduce
// CHECK:       scf.for
func.func @split_captures(%x: memref<?x?xf32>, %out: memref<?xf32>, %nq: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%nq) step (%c1) {
    %row = arith.addi %i, %i : index
    %r = monoid.reduce "n" %c0 to %n carrier #s schedule #g2 : f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%row, %j] : memref<?x?xf32>
      monoid.yield %xj : f32
    }
    memref.store %r, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Left alone: no schedule, a schedule without REDUCE, REDUCE of another axis,
// g1, and a reduce already marked `partial`.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tile = #monoid.schedule<"TILE@kv=n4/f1">
#other = #monoid.schedule<"REDUCE@q=g3k">
#g1 = #monoid.schedule<"REDUCE@kv=g1">
#g3 = #monoid.schedule<"REDUCE@kv=g3k">

// CHECK-LABEL: func.func @untouched
// CHECK-NOT: memref.alloc
// CHECK-NOT: monoid.combine
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} : f32, f32
// CHECK-NOT: partial
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} : f32, f32
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} : f32, f32
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} : f32, f32
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} partial : f32, f32
// CHECK-NOT: memref.alloc
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
// RUN: attncc-opt %s -split-input-file -attncc-split-reduce -attncc-split-reduce -verify-diagnostics | FileCheck %s --check-prefix=TWICE

#s = #monoid.carrier<s: add(0)>
#g4 = #monoid.schedule<"REDUCE@n=g4k">

// TWICE-LABEL: func.func @split_once
// TWICE:     scf.parallel
// TWICE:       monoid.reduce "n" {{.+}} partial
// TWICE-NOT:   monoid.reduce
// TWICE:     scf.parallel
// TWICE-NOT: scf.parallel
// TWICE-NOT: monoid.reduce
// TWICE:     return
func.func @split_once(%x: memref<8x?xf32>, %out: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %r = monoid.reduce "n" %c0 to %n carrier #s schedule #g4 : f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%i, %j] : memref<8x?xf32>
      monoid.yield %xj : f32
    }
    memref.store %r, %out[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

// The precondition: a split reduce sits directly in the free-axis map.

#s = #monoid.carrier<s: add(0)>
#g2 = #monoid.schedule<"REDUCE@n=g2k">

func.func @not_in_map(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op REDUCE@n=g2 needs the reduce directly inside the free-axis scf.parallel, with zero lower bounds and unit steps}}
  %r = monoid.reduce "n" %c0 to %n carrier #s schedule #g2 : f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj : f32
  }
  return %r : f32
}

// -----

#s = #monoid.carrier<s: add(0)>
#g2 = #monoid.schedule<"REDUCE@n=g2k">

func.func @bounds_inside_map(%x: memref<?x?xf32>, %out: memref<?xf32>, %nq: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%nq) step (%c1) {
    %hi = arith.addi %i, %c1 : index
    // expected-error@+1 {{'monoid.reduce' op REDUCE@n=g2 needs the reduce bounds the same for every row of the map}}
    %r = monoid.reduce "n" %c0 to %hi carrier #s schedule #g2 : f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%i, %j] : memref<?x?xf32>
      monoid.yield %xj : f32
    }
    memref.store %r, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Bounds computed in the map's body from an outer axis (a varlen sequence's
// keys: the same for all its rows), the reduce in the front end's row
// guard: each part's size is computed in the parts map from the cloned
// bound, the parts keep the guard (rows one at a time), and the combine
// stays in the guard.

#s = #monoid.carrier<s: add(0)>
#g2 = #monoid.schedule<"REDUCE@n=g2k">

// CHECK-LABEL: func.func @per_sequence
// CHECK:       scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = {{.*}} {
// CHECK:         %[[HI:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<3xindex>
// CHECK:         %[[SIZE:.+]] = arith.ceildivui %[[HI]], %c2
// CHECK:         arith.muli %{{.+}}, %[[SIZE]]
// CHECK:         scf.if %{{.+}} {
// CHECK:           monoid.reduce "n" %{{.+}} to %{{.+}} carrier #{{.+}} schedule #{{.+}} partial
// CHECK:         } {attncc.row_guard}
// CHECK:       scf.parallel (%{{.+}}, %{{.+}}) = {{.*}} {
// CHECK:         scf.if %{{.+}} {
// CHECK:           scf.for
// CHECK:           monoid.combine
// CHECK:         } {attncc.row_guard}
func.func @per_sequence(%x: memref<3x100x100xf32>, %lens: memref<3xindex>, %lq: memref<3xindex>, %out: memref<3x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %i) = (%c0, %c0) to (%c3, %c100) step (%c1, %c1) {
    %hi = memref.load %lens[%b] : memref<3xindex>
    %rows = memref.load %lq[%b] : memref<3xindex>
    %in = arith.cmpi slt, %i, %rows : index
    scf.if %in {
      %r = monoid.reduce "n" %c0 to %hi carrier #s schedule #g2 : f32 {
      ^bb0(%j: index):
        %xj = memref.load %x[%b, %i, %j] : memref<3x100x100xf32>
        monoid.yield %xj : f32
      }
      memref.store %r, %out[%b, %i] : memref<3x100xf32>
    } {attncc.row_guard}
    scf.reduce
  }
  return
}

// -----

// gauto computes its count before the map from the reduce's length; over a
// length computed per sequence it takes the mean length, ceil(total_k /
// batch), from K packed [total_k, ...]: without such a K it is refused.

#s = #monoid.carrier<s: add(0)>
#ga = #monoid.schedule<"REDUCE@n=gauto">

func.func @per_sequence_gauto(%x: memref<3x100x100xf32>, %lens: memref<3xindex>, %out: memref<3x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %i) = (%c0, %c0) to (%c3, %c100) step (%c1, %c1) {
    %hi = memref.load %lens[%b] : memref<3xindex>
    // expected-error@+1 {{'monoid.reduce' op REDUCE@n=gauto over a length computed per sequence needs K packed [total_k, ...] for its mean length (over a paged cache, pin g<n>k)}}
    %r = monoid.reduce "n" %c0 to %hi carrier #s schedule #ga : f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%b, %i, %j] : memref<3x100x100xf32>
      monoid.yield %xj : f32
    }
    memref.store %r, %out[%b, %i] : memref<3x100xf32>
    scf.reduce
  }
  return
}

// -----

// With K packed [total_k, ...] (varlen): the count from the mean key length,
// computed before the map.

#s2 = #monoid.carrier<s: add(0)>
#ga2 = #monoid.schedule<"REDUCE@n=gauto">

// CHECK-LABEL: func.func @per_sequence_gauto_mean
// CHECK: %[[TOT:.*]] = memref.dim %arg0, %{{.*}} : memref<?x100xf32>
// CHECK-NEXT: %[[MEAN:.*]] = arith.ceildivui %[[TOT]], %c3 : index
// CHECK: arith.ceildivui %[[MEAN]], %c512
// CHECK: %[[G:.*]] = arith.maxui
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c3, %c100, %[[G]])
func.func @per_sequence_gauto_mean(%k: memref<?x100xf32> {attncc.role = "k", attncc.dims = ["total_k", "heads_kv_x_head_dim"]}, %cu: memref<4xindex>, %out: memref<3x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %i) = (%c0, %c0) to (%c3, %c100) step (%c1, %c1) {
    %b1 = arith.addi %b, %c1 : index
    %lo = memref.load %cu[%b] : memref<4xindex>
    %hi = memref.load %cu[%b1] : memref<4xindex>
    %r = monoid.reduce "n" %lo to %hi carrier #s2 schedule #ga2 : f32 {
    ^bb0(%j: index):
      %xj = memref.load %k[%j, %i] : memref<?x100xf32>
      monoid.yield %xj : f32
    }
    memref.store %r, %out[%b, %i] : memref<3x100xf32>
    scf.reduce
  }
  return
}
