// RUN: attncc-opt %s -split-input-file -attncc-accumulate | FileCheck %s

// ACC=f16x: both contractions of f16 operands are marked for the
// fp16-accumulate atom (the emitter promotes their partials into fp32).

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
#f16x = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,ACC=f16x">

// CHECK-LABEL:   func.func @f16x
// CHECK-COUNT-2: vector.contract {{.+}} {attncc.acc = "f16x"}
// CHECK-NOT:     vector.contract
func.func @f16x(%q: vector<64x64xf16>, %k: vector<64x64xf16>, %vv: vector<64x64xf16>) -> vector<64x64xf32> attributes {attncc.schedule = #f16x} {
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
  %p = arith.truncf %s : vector<64x64xf32> to vector<64x64xf16>
  %o = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %vv, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
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
