// RUN: attncc-opt %s -split-input-file -attncc-expand-carrier -verify-diagnostics | FileCheck %s
// RUN: attncc-opt %s -split-input-file -attncc-expand-carrier -verify-diagnostics | FileCheck %s --check-prefix=GONE
// GONE-NOT: {{monoid\.(identity|combine|project)}}

// combine of the attention carrier: the new max, one weight per side
// w(x) = x == -inf ? 0 : exp(x - max), and weighted sums; the vector channel
// takes its weights through vector.broadcast.

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>

// CHECK-LABEL: func.func @combine_mdo
// CHECK-SAME: (%[[M0:.+]]: f32, %[[D0:.+]]: f32, %[[O0:.+]]: vector<4xf32>, %[[M1:.+]]: f32, %[[D1:.+]]: f32, %[[O1:.+]]: vector<4xf32>)
// CHECK-NOT: monoid.combine
// CHECK:     %[[MAX:.+]] = arith.maximumf %[[M0]], %[[M1]] : f32
// The safe maximum: 0 where the new max is -inf, so no weight is NaN.
// CHECK-DAG: %[[NINF0:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO0:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:     %[[E0:.+]] = arith.cmpf oeq, %[[MAX]], %[[NINF0]] : f32
// CHECK:     %[[SAFE:.+]] = arith.select %[[E0]], %[[ZERO0]], %[[MAX]] : f32
// Left weight (alpha) and right weight (beta): exp(x - safe).
// CHECK:     %[[X0:.+]] = arith.subf %[[M0]], %[[SAFE]] : f32
// CHECK:     %[[WA:.+]] = math.exp %[[X0]] : f32
// CHECK:     %[[X1:.+]] = arith.subf %[[M1]], %[[SAFE]] : f32
// CHECK:     %[[WB:.+]] = math.exp %[[X1]] : f32
// d = d0 * alpha + d1 * beta
// CHECK:     %[[DA:.+]] = arith.mulf %[[D0]], %[[WA]] : f32
// CHECK:     %[[DB:.+]] = arith.mulf %[[D1]], %[[WB]] : f32
// CHECK:     %[[D:.+]] = arith.addf %[[DA]], %[[DB]] : f32
// o = o0 * broadcast(alpha) + o1 * broadcast(beta)
// CHECK:     %[[VA:.+]] = vector.broadcast %[[WA]] : f32 to vector<4xf32>
// CHECK:     %[[OA:.+]] = arith.mulf %[[O0]], %[[VA]] : vector<4xf32>
// CHECK:     %[[VB:.+]] = vector.broadcast %[[WB]] : f32 to vector<4xf32>
// CHECK:     %[[OB:.+]] = arith.mulf %[[O1]], %[[VB]] : vector<4xf32>
// CHECK:     %[[O:.+]] = arith.addf %[[OA]], %[[OB]] : vector<4xf32>
// CHECK:     return %[[MAX]], %[[D]], %[[O]]
func.func @combine_mdo(%m0: f32, %d0: f32, %o0: vector<4xf32>, %m1: f32, %d1: f32, %o1: vector<4xf32>)
    -> (f32, f32, vector<4xf32>) {
  %m, %d, %o = monoid.combine #mdo (%m0, %d0, %o0), (%m1, %d1, %o1) : f32, f32, vector<4xf32>
  return %m, %d, %o : f32, f32, vector<4xf32>
}

// -----

// An untwisted add carrier is a plain addf: no max, no exp, no select.

#s = #monoid.carrier<s: add(0)>

// CHECK-LABEL: func.func @combine_sum
// CHECK-SAME: (%[[A:.+]]: f32, %[[B:.+]]: f32)
// CHECK-NOT: math.exp
// CHECK-NOT: arith.select
// CHECK:     %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: return %[[S]]
func.func @combine_sum(%a: f32, %b: f32) -> f32 {
  %s = monoid.combine #s (%a), (%b) : f32
  return %s : f32
}

// -----

// Two twist sources: each channel is weighted by its own source's weights,
// which are computed once per source and shared (z reuses a's).

#two = #monoid.carrier<a: max(-inf), x: add(0) twist(a), b: max(-inf), y: add(0) twist(b), z: add(0) twist(a)>

// CHECK-LABEL: func.func @two_sources
// CHECK-SAME: (%[[L:.+]]: f32, %[[R:.+]]: f32)
// CHECK-COUNT-2: arith.maximumf %[[L]], %[[R]] : f32
// CHECK-COUNT-4: math.exp
// CHECK-NOT:  math.exp
// CHECK:      return
func.func @two_sources(%l: f32, %r: f32) -> (f32, f32, f32, f32, f32) {
  %a, %x, %b, %y, %z = monoid.combine #two (%l, %l, %l, %l, %l), (%r, %r, %r, %r, %r) : f32, f32, f32, f32, f32
  return %a, %x, %b, %y, %z : f32, f32, f32, f32, f32
}

// -----

// identity: -inf for max channels, 0 for add channels, splatted for vectors.

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>

// CHECK-LABEL: func.func @identity
// CHECK-NOT: monoid.identity
// CHECK-DAG: %[[M:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[D:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[O:.+]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:     return %[[M]], %[[D]], %[[O]]
func.func @identity() -> (f32, f32, vector<4xf32>) {
  %m, %d, %o = monoid.identity #mdo : f32, f32, vector<4xf32>
  return %m, %d, %o : f32, f32, vector<4xf32>
}

// -----

// The constants follow the channel types (f16 -inf is 0xFC00).

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>

// CHECK-LABEL: func.func @identity_f16
// CHECK-DAG: %[[M:.+]] = arith.constant 0xFC00 : f16
// CHECK-DAG: %[[D:.+]] = arith.constant dense<0.000000e+00> : vector<2xf16>
// CHECK:     return %[[M]], %[[D]]
func.func @identity_f16() -> (f16, vector<2xf16>) {
  %m, %d = monoid.identity #md : f16, vector<2xf16>
  return %m, %d : f16, vector<2xf16>
}

// -----

// project: its body is inlined on the folded state.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>

// CHECK-LABEL: func.func @project
// CHECK-SAME: (%[[M:.+]]: f32, %[[D:.+]]: f32)
// CHECK-NOT: monoid.project
// CHECK:     %[[LG:.+]] = math.log %[[D]] : f32
// CHECK:     %[[R:.+]] = arith.addf %[[M]], %[[LG]] : f32
// CHECK:     return %[[R]]
func.func @project(%m: f32, %d: f32) -> f32 {
  %p = monoid.project %m, %d carrier #md : f32, f32 -> f32 {
  ^bb0(%pm: f32, %pd: f32):
    %lg = math.log %pd : f32
    %r = arith.addf %pm, %lg : f32
    monoid.yield %r : f32
  }
  return %p : f32
}

// -----

// Inside a streamed loop: identity init, combine in the body, project after.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>

// CHECK-LABEL: func.func @streamed
// CHECK-NOT: monoid.
// CHECK: scf.for {{.+}} iter_args
// CHECK:   arith.maximumf
// CHECK:   math.exp
// CHECK:   scf.yield
// CHECK: math.log
func.func @streamed(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %im, %id = monoid.identity #md : f32, f32
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %im, %d = %id) -> (f32, f32) {
    %xj = memref.load %x[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %nm, %nd = monoid.combine #md (%m, %d), (%xj, %one) : f32, f32
    scf.yield %nm, %nd : f32, f32
  }
  %p = monoid.project %r#0, %r#1 carrier #md : f32, f32 -> f32 {
  ^bb0(%pm: f32, %pd: f32):
    %lg = math.log %pd : f32
    %s = arith.addf %pm, %lg : f32
    monoid.yield %s : f32
  }
  return %p : f32
}

// -----

// The precondition: every reduce has been streamed.

#s = #monoid.carrier<s: add(0)>

func.func @unstreamed(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'monoid.reduce' op must be streamed (attncc-stream-reduce) before the carrier is expanded}}
  %s = monoid.reduce "n" %c0 to %n carrier #s : f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj : f32
  }
  return %s : f32
}
