// RUN: attncc-opt %s -split-input-file -attncc-accumulate | FileCheck %s

// ACC=f16x: the contraction that adds into the carried state (P*V, whose
// accumulator is the rescaled O) is marked for the fp16-accumulate atom (the
// emitter promotes its partials into fp32); the scores (Q*K^T from a zero
// constant) stay on the fp32 atom. ACC=f16x1 adds acc_steps = 1.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#f16x = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,ACC=f16x">

// CHECK-LABEL:   func.func @f16x
// CHECK:         vector.contract {{.+}} %arg1, %cst : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
// CHECK-NEXT:    arith.truncf
// CHECK-NEXT:    vector.contract {{.+}} %arg3 {attncc.acc = "f16x"}
// CHECK-NOT:     vector.contract
func.func @f16x(%q: vector<64x64xf16>, %k: vector<64x64xf16>, %vv: vector<64x64xf16>, %acc: vector<64x64xf32>) -> vector<64x64xf32> attributes {attncc.schedule = #f16x} {
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
  %p = arith.truncf %s : vector<64x64xf32> to vector<64x64xf16>
  %o = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %vv, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
  return %o : vector<64x64xf32>
}

// -----

#a = affine_map<(i, j, d) -> (i, d)>
#v = affine_map<(i, j, d) -> (d, j)>
#c = affine_map<(i, j, d) -> (i, j)>
#f16x1 = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,ACC=f16x1">

// CHECK-LABEL: func.func @f16x1
// CHECK:       vector.contract {{.+}} {attncc.acc = "f16x", attncc.acc_steps = 1 : i64}
func.func @f16x1(%p: vector<64x64xf16>, %vv: vector<64x64xf16>, %acc: vector<64x64xf32>) -> vector<64x64xf32> attributes {attncc.schedule = #f16x1} {
  %o = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %vv, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
  return %o : vector<64x64xf32>
}

// -----

// ACC=f32 (and no ACC): no mark.

#f32 = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,ACC=f32">

// CHECK-LABEL: func.func @f32
// CHECK-NOT:   attncc.acc
// CHECK:       return
func.func @f32(%q: vector<64x64xf16>, %k: vector<64x64xf16>) -> vector<64x64xf32> attributes {attncc.schedule = #f32} {
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %s = vector.contract {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
  return %s : vector<64x64xf32>
}
