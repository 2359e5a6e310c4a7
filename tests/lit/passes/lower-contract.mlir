// RUN: attncc-opt %s -split-input-file -attncc-lower-contract | FileCheck %s

// f16 operands: widened to the f32 accumulator, multiplied, summed in order.

// CHECK-LABEL: func.func @contract_f16
// CHECK-SAME: (%[[A:.+]]: vector<64xf16>, %[[B:.+]]: vector<64xf16>)
// CHECK-NOT: monoid.contract
// CHECK-DAG: %[[AF:.+]] = arith.extf %[[A]] : vector<64xf16> to vector<64xf32>
// CHECK-DAG: %[[BF:.+]] = arith.extf %[[B]] : vector<64xf16> to vector<64xf32>
// CHECK:     %[[P:.+]] = arith.mulf %[[AF]], %[[BF]] : vector<64xf32>
// CHECK:     %[[S:.+]] = vector.reduction <add>, %[[P]] : vector<64xf32> into f32
// CHECK:     return %[[S]]
func.func @contract_f16(%a: vector<64xf16>, %b: vector<64xf16>) -> f32 {
  %s = monoid.contract %a, %b : vector<64xf16>, vector<64xf16> -> f32
  return %s : f32
}

// -----

// f32 operands are already at the accumulator type: no extf.

// CHECK-LABEL: func.func @contract_f32
// CHECK-SAME: (%[[A:.+]]: vector<8xf32>, %[[B:.+]]: vector<8xf32>)
// CHECK-NOT: arith.extf
// CHECK:     %[[P:.+]] = arith.mulf %[[A]], %[[B]] : vector<8xf32>
// CHECK-NEXT: %[[S:.+]] = vector.reduction <add>, %[[P]] : vector<8xf32> into f32
func.func @contract_f32(%a: vector<8xf32>, %b: vector<8xf32>) -> f32 {
  %s = monoid.contract %a, %b : vector<8xf32>, vector<8xf32> -> f32
  return %s : f32
}

// -----

// Mixed operands: only the narrower one is widened.

// CHECK-LABEL: func.func @contract_mixed
// CHECK-SAME: (%[[A:.+]]: vector<8xbf16>, %[[B:.+]]: vector<8xf32>)
// CHECK:     %[[AF:.+]] = arith.extf %[[A]] : vector<8xbf16> to vector<8xf32>
// CHECK-NOT: arith.extf
// CHECK:     %[[P:.+]] = arith.mulf %[[AF]], %[[B]] : vector<8xf32>
// CHECK:     vector.reduction <add>, %[[P]] : vector<8xf32> into f32
func.func @contract_mixed(%a: vector<8xbf16>, %b: vector<8xf32>) -> f32 {
  %s = monoid.contract %a, %b : vector<8xbf16>, vector<8xf32> -> f32
  return %s : f32
}

// -----

// Inside a lift the contract is lowered in place; the reduce is untouched.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>

// CHECK-LABEL: func.func @in_lift
// CHECK: monoid.reduce "kv"
// CHECK:   %[[QI:.+]] = vector.load
// CHECK:   %[[KJ:.+]] = vector.load
// CHECK-DAG: arith.extf %[[QI]]
// CHECK-DAG: arith.extf %[[KJ]]
// CHECK:   %[[S:.+]] = vector.reduction <add>
// CHECK:   monoid.yield %[[S]], %{{.+}} : f32, f32
func.func @in_lift(%q: memref<8xf16>, %k: memref<?x8xf16>, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: index):
    %qi = vector.load %q[%c0] : memref<8xf16>, vector<8xf16>
    %kj = vector.load %k[%j, %c0] : memref<?x8xf16>, vector<8xf16>
    %s = monoid.contract %qi, %kj : vector<8xf16>, vector<8xf16> -> f32
    %one = arith.constant 1.0 : f32
    monoid.yield %s, %one : f32, f32
  }
  return %m, %d : f32, f32
}
