// RUN: attncc-opt %s -split-input-file -attncc-lazy-rescale | FileCheck %s

// RESCALE=lazy8 on a block fold: the running maximum stays unless the
// block's is larger by more than 8 ln 2 (= 5.545...), and every use of the
// new maximum (the m_safe select, hence the correction exp and the yield)
// reads the lazy one.
// CHECK-LABEL: func.func @block
// CHECK:       scf.for {{.*}} iter_args(%[[M:[^ ]+]] = {{.*}}, %[[D:[^ ]+]] = {{.*}})
// CHECK-NEXT:    %[[M1:.+]] = vector.multi_reduction <maximumf>, %{{.+}}, %[[M]] [1]
// CHECK-NEXT:    %[[DM:.+]] = arith.subf %[[M1]], %[[M]] : vector<64xf32>
// CHECK-NEXT:    %[[T:.+]] = arith.constant dense<5.5451774{{[0-9]*}}> : vector<64xf32>
// CHECK-NEXT:    %[[MV:.+]] = arith.cmpf ogt, %[[DM]], %[[T]] : vector<64xf32>
// CHECK-NEXT:    %[[ML:.+]] = arith.select %[[MV]], %[[M1]], %[[M]] {attncc.lazy} : vector<64xi1>, vector<64xf32>
// CHECK-NEXT:    %[[E:.+]] = arith.cmpf oeq, %[[ML]], %{{.+}} : vector<64xf32>
// CHECK-NEXT:    %[[S:.+]] = arith.select %[[E]], %{{.+}}, %[[ML]]
// CHECK-NEXT:    %[[SUB:.+]] = arith.subf %[[M]], %[[S]]
// CHECK-NEXT:    math.exp %[[SUB]]
// CHECK:         scf.yield %[[ML]], %{{.+}}
#lazy = #monoid.schedule<"RESCALE=lazy8">
func.func @block(%x: vector<64x64xf32>, %lo: index, %hi: index, %st: index) -> (vector<64xf32>, vector<64xf32>) attributes {attncc.schedule = #lazy} {
  %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %r:2 = scf.for %i = %lo to %hi step %st iter_args(%m = %ninf, %d = %zero) -> (vector<64xf32>, vector<64xf32>) {
    %m1 = vector.multi_reduction <maximumf>, %x, %m [1] : vector<64x64xf32> to vector<64xf32>
    %e = arith.cmpf oeq, %m1, %ninf : vector<64xf32>
    %safe = arith.select %e, %zero, %m1 : vector<64xi1>, vector<64xf32>
    %sub = arith.subf %m, %safe : vector<64xf32>
    %alpha = math.exp %sub : vector<64xf32>
    %d1 = arith.mulf %d, %alpha : vector<64xf32>
    scf.yield %m1, %d1 : vector<64xf32>, vector<64xf32>
  }
  return %r#0, %r#1 : vector<64xf32>, vector<64xf32>
}

// -----

// The scalar rung's fold (one element a step, arith.maximumf), with
// RESCALE=lazy0.5: the threshold is 0.5 ln 2.
// CHECK-LABEL: func.func @element
// CHECK:       scf.for {{.*}} iter_args(%[[M:[^ ]+]] = {{.*}}, %{{[^ ]+}} = {{.*}})
// CHECK-NEXT:    %[[M1:.+]] = arith.maximumf %[[M]], %{{.+}} : f32
// CHECK-NEXT:    %[[DM:.+]] = arith.subf %[[M1]], %[[M]] : f32
// CHECK-NEXT:    %[[T:.+]] = arith.constant 0.34657{{[0-9]*}} : f32
// CHECK-NEXT:    %[[MV:.+]] = arith.cmpf ogt, %[[DM]], %[[T]] : f32
// CHECK-NEXT:    %[[ML:.+]] = arith.select %[[MV]], %[[M1]], %[[M]] {attncc.lazy} : f32
// CHECK-NEXT:    arith.subf %[[M]], %[[ML]] : f32
// CHECK:         scf.yield %[[ML]], %{{.+}} : f32, f32
#lazy = #monoid.schedule<"RESCALE=lazy0.5">
func.func @element(%x: f32, %lo: index, %hi: index, %st: index) -> (f32, f32) attributes {attncc.schedule = #lazy} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %i = %lo to %hi step %st iter_args(%m = %ninf, %d = %zero) -> (f32, f32) {
    %m1 = arith.maximumf %m, %x : f32
    %sub = arith.subf %m, %m1 : f32
    %alpha = math.exp %sub : f32
    %d1 = arith.mulf %d, %alpha : f32
    scf.yield %m1, %d1 : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// -----

// A running maximum that twists nothing is an output: left alone.
// CHECK-LABEL: func.func @untwisted
// CHECK-NOT:   arith.select
// CHECK-NOT:   arith.cmpf
#lazy = #monoid.schedule<"RESCALE=lazy8">
func.func @untwisted(%x: f32, %lo: index, %hi: index, %st: index) -> f32 attributes {attncc.schedule = #lazy} {
  %ninf = arith.constant 0xFF800000 : f32
  %r = scf.for %i = %lo to %hi step %st iter_args(%m = %ninf) -> (f32) {
    %m1 = arith.maximumf %m, %x : f32
    scf.yield %m1 : f32
  }
  return %r : f32
}

// -----

// Without RESCALE=lazy<t> (RESCALE=always, the default) nothing changes.
// CHECK-LABEL: func.func @always
// CHECK-NOT:   arith.cmpf
// CHECK-NOT:   arith.select
#always = #monoid.schedule<"RESCALE=always">
func.func @always(%x: f32, %lo: index, %hi: index, %st: index) -> (f32, f32) attributes {attncc.schedule = #always} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %i = %lo to %hi step %st iter_args(%m = %ninf, %d = %zero) -> (f32, f32) {
    %m1 = arith.maximumf %m, %x : f32
    %sub = arith.subf %m, %m1 : f32
    %alpha = math.exp %sub : f32
    %d1 = arith.mulf %d, %alpha : f32
    scf.yield %m1, %d1 : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}
