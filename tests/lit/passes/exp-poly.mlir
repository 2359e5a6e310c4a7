// RUN: attncc-opt %s -split-input-file -attncc-exp-poly | FileCheck %s

// EXP=poly3: the block weights (a [rows x block] exp2) take the software
// exp2 in the columns c with c mod 32 >= 24; the row corrections (1-D) and
// everything else keep the hardware one.
// CHECK-LABEL: func.func @weights
// CHECK-SAME:  (%[[A:[^:]+]]: vector<64x64xf32>, %[[C:[^:]+]]: vector<64xf32>)
// CHECK:       %[[HW:.+]] = math.exp2 %[[A]] fastmath<afn> : vector<64x64xf32>
// CHECK:       %[[COL:.+]] = vector.step : vector<64xindex>
// CHECK-NEXT:  %[[COLB:.+]] = vector.broadcast %[[COL]] : vector<64xindex> to vector<64x64xindex>
// CHECK:       %[[REM:.+]] = arith.remui %[[COLB]], %{{.+}} : vector<64x64xindex>
// CHECK:       %[[SOFT:.+]] = arith.cmpi uge, %[[REM]], %{{.+}} : vector<64x64xindex>
// CHECK:       %[[X:.+]] = arith.maximumf %[[A]], %{{.+}} : vector<64x64xf32>
// CHECK-NEXT:  %[[XI:.+]] = math.floor %[[X]]
// CHECK-NEXT:  %[[F:.+]] = arith.subf %[[X]], %[[XI]]
// CHECK:       %[[Q1:.+]] = math.fma %{{.+}}, %[[F]], %{{.+}}
// CHECK:       %[[Q2:.+]] = math.fma %[[Q1]], %[[F]], %{{.+}}
// CHECK:       %[[Q3:.+]] = math.fma %[[Q2]], %[[F]], %{{.+}}
// CHECK-NOT:   math.fma
// CHECK:       %[[QI:.+]] = arith.bitcast %[[Q3]] : vector<64x64xf32> to vector<64x64xi32>
// CHECK-NEXT:  %[[II:.+]] = arith.fptosi %[[XI]] : vector<64x64xf32> to vector<64x64xi32>
// CHECK:       %[[SH:.+]] = arith.shli %[[II]], %{{.+}} : vector<64x64xi32>
// CHECK-NEXT:  %[[RI:.+]] = arith.addi %[[QI]], %[[SH]]
// CHECK-NEXT:  %[[R:.+]] = arith.bitcast %[[RI]] : vector<64x64xi32> to vector<64x64xf32>
// CHECK:       %[[U:.+]] = arith.cmpf olt, %[[A]], %{{.+}} : vector<64x64xf32>
// CHECK:       %[[P:.+]] = arith.select %[[U]], %{{.+}}, %[[R]]
// CHECK-NEXT:  %[[W:.+]] = arith.select %[[SOFT]], %[[P]], %[[HW]]
// CHECK:       %[[HC:.+]] = math.exp2 %[[C]] fastmath<afn> : vector<64xf32>
// CHECK-NEXT:  return %[[W]], %[[HC]]
#poly = #monoid.schedule<"EXP=poly3">
func.func @weights(%a: vector<64x64xf32>, %c: vector<64xf32>) -> (vector<64x64xf32>, vector<64xf32>) attributes {attncc.schedule = #poly} {
  %p = math.exp2 %a fastmath<afn> : vector<64x64xf32>
  %q = math.exp2 %c fastmath<afn> : vector<64xf32>
  return %p, %q : vector<64x64xf32>, vector<64xf32>
}

// -----

// The degree is the number of FMAs; the polynomial through the
// Chebyshev-Lobatto nodes is exact at both ends of [0, 1] (2^0 = 1: the row
// maximum's own weight), so degree 1 is 1 + f.
// CHECK-LABEL: func.func @degree1
// CHECK:       %[[C1:.+]] = arith.constant dense<1.000000e+00> : vector<16x32xf32>
// CHECK-NEXT:  %[[C0:.+]] = arith.constant dense<1.000000e+00> : vector<16x32xf32>
// CHECK-NEXT:  math.fma %[[C1]], %{{.+}}, %[[C0]]
// CHECK-NOT:   math.fma
#poly1 = #monoid.schedule<"EXP=poly1">
func.func @degree1(%a: vector<16x32xf32>) -> vector<16x32xf32> attributes {attncc.schedule = #poly1} {
  %p = math.exp2 %a fastmath<afn> : vector<16x32xf32>
  return %p : vector<16x32xf32>
}

// -----

// A block that is not a multiple of 32 columns, and EXP=ex2: untouched.
// CHECK-LABEL: func.func @odd
// CHECK-NOT:   math.floor
// CHECK-LABEL: func.func @ex2
// CHECK-NOT:   math.floor
#poly = #monoid.schedule<"EXP=poly3">
func.func @odd(%a: vector<16x48xf32>) -> vector<16x48xf32> attributes {attncc.schedule = #poly} {
  %p = math.exp2 %a fastmath<afn> : vector<16x48xf32>
  return %p : vector<16x48xf32>
}
#ex2 = #monoid.schedule<"EXP=ex2">
func.func @ex2(%a: vector<16x64xf32>) -> vector<16x64xf32> attributes {attncc.schedule = #ex2} {
  %p = math.exp2 %a fastmath<afn> : vector<16x64xf32>
  return %p : vector<16x64xf32>
}
