// RUN: attncc-opt %s -split-input-file -attncc-exp2 | FileCheck %s

// EXP=ex2 on a block of the online softmax: exp(s - m) becomes
// exp2(fma(s, log2 e, -(m * log2 e))) with m * log2 e taken before the
// broadcast (once per row), and exp(z) becomes exp2(z * log2 e). Here s is
// the scaled score qk * 0.125 used only by the row maximum and the exponent,
// so the scale folds into the FMA (0.125 * log2 e = 0.180336878) and the row
// maximum is 0.125 * max(qk), combined with the running maximum.

// CHECK-LABEL: func.func @fold
// CHECK-SAME:  (%[[QK:[^:]+]]: vector<64x64xf32>, %[[M:[^:]+]]: vector<64xf32>
// CHECK-NOT:   arith.mulf %[[QK]]
// CHECK:       %[[NINF:.+]] = arith.constant dense<0xFF800000> : vector<64xf32>
// CHECK-NEXT:  %[[RY:.+]] = vector.multi_reduction <maximumf>, %[[QK]], %[[NINF]] [1]
// CHECK-NEXT:  %[[C:.+]] = arith.constant dense<1.250000e-01> : vector<64xf32>
// CHECK-NEXT:  %[[SC:.+]] = arith.mulf %[[RY]], %[[C]]
// CHECK-NEXT:  %[[MN:.+]] = arith.maximumf %[[M]], %[[SC]]
// CHECK:       arith.mulf %[[MN]], %{{.+}} : vector<64xf32>
// CHECK:       %[[NEG:.+]] = arith.negf %{{.+}} : vector<64x64xf32>
// CHECK:       %[[CL2E:.+]] = arith.constant dense<0.180336878> : vector<64x64xf32>
// CHECK-NEXT:  %[[ARG:.+]] = math.fma %[[QK]], %[[CL2E]], %[[NEG]]
// CHECK-NEXT:  math.exp2 %[[ARG]] fastmath<afn>
// CHECK:       %[[Z:.+]] = arith.mulf %[[MN]], %{{.+}} : vector<64xf32>
// CHECK-NEXT:  math.exp2 %[[Z]] fastmath<afn>
// CHECK-NOT:   math.exp %
#ex2 = #monoid.schedule<"EXP=ex2">
func.func @fold(%qk: vector<64x64xf32>, %m: vector<64xf32>) -> (vector<64x64xf32>, vector<64xf32>) attributes {attncc.schedule = #ex2} {
  %c = arith.constant dense<0.125> : vector<64x64xf32>
  %s = arith.mulf %qk, %c : vector<64x64xf32>
  %m1 = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
  %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
  %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
  %x = arith.subf %s, %mb : vector<64x64xf32>
  %p = math.exp %x : vector<64x64xf32>
  %a = math.exp %m1 : vector<64xf32>
  return %p, %a : vector<64x64xf32>, vector<64xf32>
}

// -----

// The fold's correction exp(m - m'), two row values: both products are
// rounded and subtracted, so m == m' gives exp2(0) = 1 exactly (an FMA
// would give exp2 of the rounding error of m' * log2 e, once per block).
// The products carry attncc.rounded, so the emitter prints them as
// __fmul_rn and the CUDA compiler cannot fuse them back into that FMA.
// CHECK-LABEL: func.func @correction
// CHECK-SAME:  (%[[M:[^:]+]]: vector<64xf32>, %[[MN:[^:]+]]: vector<64xf32>)
// CHECK-NOT:   math.fma
// CHECK:       %[[L:.+]] = arith.constant dense<1.44269502> : vector<64xf32>
// CHECK-NEXT:  %[[XL:.+]] = arith.mulf %[[M]], %[[L]] {attncc.rounded} : vector<64xf32>
// CHECK:       %[[YL:.+]] = arith.mulf %[[MN]], %{{[^ ]+}} {attncc.rounded} : vector<64xf32>
// CHECK-NEXT:  %[[D:.+]] = arith.subf %[[XL]], %[[YL]] : vector<64xf32>
// CHECK-NEXT:  math.exp2 %[[D]] fastmath<afn>
// CHECK-NOT:   math.fma
#ex2 = #monoid.schedule<"EXP=ex2">
func.func @correction(%m: vector<64xf32>, %mn: vector<64xf32>) -> vector<64xf32> attributes {attncc.schedule = #ex2} {
  %x = arith.subf %m, %mn : vector<64xf32>
  %a = math.exp %x : vector<64xf32>
  return %a : vector<64xf32>
}

// -----

// The scaled score has another use (it is returned): no fold, the multiply
// stays and the FMA takes it.

// CHECK-LABEL: func.func @shared
// CHECK:       %[[S:.+]] = arith.mulf %{{.+}}, %{{.+}} : vector<64x64xf32>
// CHECK:       vector.multi_reduction <maximumf>, %[[S]], %{{.+}} [1]
// CHECK:       math.fma %[[S]], %{{.+}}, %{{.+}} : vector<64x64xf32>
#ex2 = #monoid.schedule<"EXP=ex2">
func.func @shared(%qk: vector<64x64xf32>, %m: vector<64xf32>) -> (vector<64x64xf32>, vector<64x64xf32>) attributes {attncc.schedule = #ex2} {
  %c = arith.constant dense<0.125> : vector<64x64xf32>
  %s = arith.mulf %qk, %c : vector<64x64xf32>
  %m1 = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
  %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
  %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
  %x = arith.subf %s, %mb : vector<64x64xf32>
  %p = math.exp %x : vector<64x64xf32>
  return %p, %s : vector<64x64xf32>, vector<64x64xf32>
}

// -----

// A negative scale would turn maxima into minima: no fold.

// CHECK-LABEL: func.func @negative
// CHECK:       %[[S:.+]] = arith.mulf %{{.+}}, %{{.+}} : vector<64x64xf32>
// CHECK:       math.fma %[[S]], %{{.+}}, %{{.+}} : vector<64x64xf32>
#ex2 = #monoid.schedule<"EXP=ex2">
func.func @negative(%qk: vector<64x64xf32>, %m: vector<64xf32>) -> vector<64x64xf32> attributes {attncc.schedule = #ex2} {
  %c = arith.constant dense<-0.125> : vector<64x64xf32>
  %s = arith.mulf %qk, %c : vector<64x64xf32>
  %m1 = vector.multi_reduction <maximumf>, %s, %m [1] : vector<64x64xf32> to vector<64xf32>
  %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
  %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
  %x = arith.subf %s, %mb : vector<64x64xf32>
  %p = math.exp %x : vector<64x64xf32>
  return %p : vector<64x64xf32>
}

// -----

// Without EXP=ex2 the pass changes nothing.

// CHECK-LABEL: func.func @libm
// CHECK:       math.exp
// CHECK-NOT:   math.exp2
func.func @libm(%x: vector<64xf32>) -> vector<64xf32> {
  %e = math.exp %x : vector<64xf32>
  return %e : vector<64xf32>
}

// -----

// The scaled scores reach the exponent through attncc-split-mask's branch:
// the block inside the mask yields s = qk * c, the boundary block masks s to
// -inf. Scaling by c > 0 commutes with both, so the branches yield qk and
// its masked form, and the scale folds into the FMA and the row maximum.

// CHECK-LABEL: func.func @through_mask
// CHECK-SAME:  (%[[QK:[^:]+]]: vector<64x64xf32>, %{{[^:]+}}: vector<64xf32>, %[[IN:[^:]+]]: i1, %[[C:[^:]+]]: vector<64x64xi1>)
// CHECK-NOT:   arith.mulf %[[QK]]
// CHECK:       %[[A:.+]] = scf.if %[[IN]] -> (vector<64x64xf32>) {
// CHECK-NEXT:    scf.yield %[[QK]] : vector<64x64xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:    %[[SEL:.+]] = arith.select %[[C]], %[[QK]], %{{.+}} : vector<64x64xi1>, vector<64x64xf32>
// CHECK-NEXT:    scf.yield %[[SEL]] : vector<64x64xf32>
// CHECK-NEXT:  }
// CHECK:       %[[R:.+]] = vector.multi_reduction <maximumf>, %[[A]]
// CHECK:       %[[RS:.+]] = arith.mulf %[[R]], %{{.+}} : vector<64xf32>
// CHECK-NEXT:  arith.maximumf %{{.+}}, %[[RS]] : vector<64xf32>
// CHECK:       %[[CL:.+]] = arith.constant dense<0.180336878> : vector<64x64xf32>
// CHECK-NEXT:  math.fma %[[A]], %[[CL]], %{{.+}} : vector<64x64xf32>
#ex2 = #monoid.schedule<"EXP=ex2">
func.func @through_mask(%qk: vector<64x64xf32>, %m: vector<64xf32>, %in: i1, %c: vector<64x64xi1>) -> vector<64x64xf32> attributes {attncc.schedule = #ex2} {
  %k = arith.constant dense<0.125> : vector<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<64x64xf32>
  %s = arith.mulf %qk, %k : vector<64x64xf32>
  %a = scf.if %in -> (vector<64x64xf32>) {
    scf.yield %s : vector<64x64xf32>
  } else {
    %sel = arith.select %c, %s, %ninf : vector<64x64xi1>, vector<64x64xf32>
    scf.yield %sel : vector<64x64xf32>
  }
  %m1 = vector.multi_reduction <maximumf>, %a, %m [1] : vector<64x64xf32> to vector<64xf32>
  %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
  %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
  %x = arith.subf %a, %mb : vector<64x64xf32>
  %p = math.exp %x : vector<64x64xf32>
  return %p : vector<64x64xf32>
}

// -----

// A mask whose masked value is not -inf (here 0) does not commute with the
// scale's fold into the row maximum: no fold.

// CHECK-LABEL: func.func @through_zero_mask
// CHECK:       %[[S:.+]] = arith.mulf
// CHECK:       scf.if
// CHECK-NEXT:    scf.yield %[[S]]
#ex2 = #monoid.schedule<"EXP=ex2">
func.func @through_zero_mask(%qk: vector<64x64xf32>, %m: vector<64xf32>, %in: i1, %c: vector<64x64xi1>) -> vector<64x64xf32> attributes {attncc.schedule = #ex2} {
  %k = arith.constant dense<0.125> : vector<64x64xf32>
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %s = arith.mulf %qk, %k : vector<64x64xf32>
  %a = scf.if %in -> (vector<64x64xf32>) {
    scf.yield %s : vector<64x64xf32>
  } else {
    %sel = arith.select %c, %s, %zero : vector<64x64xi1>, vector<64x64xf32>
    scf.yield %sel : vector<64x64xf32>
  }
  %m1 = vector.multi_reduction <maximumf>, %a, %m [1] : vector<64x64xf32> to vector<64xf32>
  %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
  %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
  %x = arith.subf %a, %mb : vector<64x64xf32>
  %p = math.exp %x : vector<64x64xf32>
  return %p : vector<64x64xf32>
}
