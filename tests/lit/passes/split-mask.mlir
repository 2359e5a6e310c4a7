// RUN: attncc-opt %s -split-input-file -attncc-split-mask | FileCheck %s

// The causal fold of attncc compile --ir loop (64-row tiles, 64-key blocks,
// 1000 keys): two mask selects, kv <= i (the diagonal) and kv < 1000 (the
// key bound). They go under one scf.if whose condition says the whole block
// is inside both: max kv <= min i, i.e. kv0 + 63 <= row0, and
// kv0 + 63 < 1000. The index vectors and compares move into the else
// branch, where the two selects become one select of the compares'
// conjunction (bitwise the same: both fall back to the same identity),
// and the compare with a per-row bound is relative to the block:
// kv0 + step <= i becomes step <= i - kv0 (the subtraction once per row);
// the key bound, one value for the block, keeps kv0 + step < 1000. The then
// branch yields the scores unmasked.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>

// CHECK-LABEL: func.func @causal
// CHECK-SAME:  %[[ROW0:[^:]+]]: index, %{{[^:]+}}: index)
// CHECK:       %[[STEP:.+]] = vector.step : vector<64xindex>
// CHECK-NEXT:  %[[R:.+]] = vector.broadcast %[[ROW0]]
// CHECK-NEXT:  %[[I:.+]] = arith.addi %[[R]], %[[STEP]] : vector<64xindex>
// CHECK:       scf.for %[[KV0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK:         %[[S:.+]] = arith.mulf
// CHECK-NEXT:    %[[C63:.+]] = arith.constant 63 : index
// CHECK-NEXT:    %[[HI:.+]] = arith.addi %[[KV0]], %[[C63]] : index
// CHECK-NEXT:    %[[DIAG:.+]] = arith.cmpi sle, %[[HI]], %[[ROW0]] : index
// CHECK-NEXT:    %[[C1000:.+]] = arith.constant 1000 : index
// CHECK-NEXT:    %[[END:.+]] = arith.cmpi slt, %[[HI]], %[[C1000]] : index
// CHECK-NEXT:    %[[ALL:.+]] = arith.andi %[[DIAG]], %[[END]] : i1
// CHECK-NEXT:    %[[M:.+]] = scf.if %[[ALL]] -> (vector<64x64xf32>) {
// CHECK-NEXT:      scf.yield %[[S]] : vector<64x64xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[KB:.+]] = vector.broadcast %[[KV0]] : index to vector<64xindex>
// CHECK-NEXT:      %[[KV:.+]] = arith.addi %[[KB]], %[[STEP]] : vector<64xindex>
// CHECK-NEXT:      %[[COL:.+]] = vector.broadcast %[[STEP]] : vector<64xindex> to vector<64x64xindex>
// CHECK-NEXT:      %[[KVB:.+]] = vector.broadcast %[[KV0]] : index to vector<64xindex>
// CHECK-NEXT:      %[[IREL:.+]] = arith.subi %[[I]], %[[KVB]] : vector<64xindex>
// CHECK-NEXT:      %[[IC:.+]] = vector.shape_cast %[[IREL]] : vector<64xindex> to vector<64x1xindex>
// CHECK-NEXT:      %[[IB:.+]] = vector.broadcast %[[IC]] : vector<64x1xindex> to vector<64x64xindex>
// CHECK-NEXT:      %[[C1:.+]] = arith.cmpi sle, %[[COL]], %[[IB]] : vector<64x64xindex>
// CHECK-NEXT:      %[[C2:.+]] = arith.cmpi slt, %[[KV]], %{{.+}} : vector<64xindex>
// CHECK-NEXT:      %[[B2:.+]] = vector.broadcast %[[C2]]
// CHECK-NEXT:      %[[C:.+]] = arith.andi %[[C1]], %[[B2]] : vector<64x64xi1>
// CHECK-NEXT:      %[[S2:.+]] = arith.select %[[C]], %[[S]], %{{.+}} : vector<64x64xi1>, vector<64x64xf32>
// CHECK-NEXT:      scf.yield %[[S2]] : vector<64x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.multi_reduction <maximumf>, %[[M]]
func.func @causal(%q: memref<1000x64xf16>, %k: memref<1000x64xf16>, %o: memref<1000x64xf32>, %row0: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f16
  %scale = arith.constant dense<0.125> : vector<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<64x64xf32>
  %ninf1 = arith.constant dense<0xFF800000> : vector<64xf32>
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %n = arith.constant dense<1000> : vector<64xindex>
  %step = vector.step : vector<64xindex>
  %r = vector.broadcast %row0 : index to vector<64xindex>
  %i = arith.addi %r, %step : vector<64xindex>
  %ic = vector.shape_cast %i : vector<64xindex> to vector<64x1xindex>
  %ib = vector.broadcast %ic : vector<64x1xindex> to vector<64x64xindex>
  %q_i = vector.transfer_read %q[%row0, %c0], %pad {in_bounds = [false, true]} : memref<1000x64xf16>, vector<64x64xf16>
  %fold = scf.for %kv0 = %c0 to %hi step %c64 iter_args(%m = %ninf1) -> (vector<64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<1000x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %s = arith.mulf %qk, %scale : vector<64x64xf32>
    %kb = vector.broadcast %kv0 : index to vector<64xindex>
    %kv = arith.addi %kb, %step : vector<64xindex>
    %kvb = vector.broadcast %kv : vector<64xindex> to vector<64x64xindex>
    %diag = arith.cmpi sle, %kvb, %ib : vector<64x64xindex>
    %s1 = arith.select %diag, %s, %ninf : vector<64x64xi1>, vector<64x64xf32>
    %end = arith.cmpi slt, %kv, %n : vector<64xindex>
    %endb = vector.broadcast %end : vector<64xi1> to vector<64x64xi1>
    %s2 = arith.select %endb, %s1, %ninf : vector<64x64xi1>, vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %s2, %m [1] : vector<64x64xf32> to vector<64xf32>
    scf.yield %m1 : vector<64xf32>
  }
  vector.transfer_write %fold, %o[%row0, %c0] {in_bounds = [true]} : vector<64xf32>, memref<1000x64xf32>
  return
}

// -----

// A sliding window (kv >= i - 32) bounds the block from below: the block is
// inside when min kv >= max (i - 32), i.e. kv0 >= row0 + 63 - 32.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>

// CHECK-LABEL: func.func @window
// CHECK-SAME:  %[[ROW0:[^:]+]]: index, %{{[^:]+}}: index)
// CHECK:       scf.for %[[KV0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK:         %[[C63:.+]] = arith.constant 63 : index
// CHECK-NEXT:    %[[IHI:.+]] = arith.addi %[[ROW0]], %[[C63]] : index
// CHECK-NEXT:    %[[C32:.+]] = arith.constant 32 : index
// CHECK-NEXT:    %[[LO:.+]] = arith.subi %[[IHI]], %[[C32]] : index
// CHECK-NEXT:    %[[ALL:.+]] = arith.cmpi sge, %[[KV0]], %[[LO]] : index
// CHECK-NEXT:    scf.if %[[ALL]]
// CHECK:         } else {
// CHECK:           arith.cmpi sge, %{{.+}}, %{{.+}} : vector<64x64xindex>
// CHECK-NEXT:      arith.select
func.func @window(%q: memref<1000x64xf16>, %k: memref<1000x64xf16>, %o: memref<1000x64xf32>, %row0: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f16
  %ninf = arith.constant dense<0xFF800000> : vector<64x64xf32>
  %ninf1 = arith.constant dense<0xFF800000> : vector<64xf32>
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %w = arith.constant dense<32> : vector<64x64xindex>
  %step = vector.step : vector<64xindex>
  %r = vector.broadcast %row0 : index to vector<64xindex>
  %i = arith.addi %r, %step : vector<64xindex>
  %ic = vector.shape_cast %i : vector<64xindex> to vector<64x1xindex>
  %ib = vector.broadcast %ic : vector<64x1xindex> to vector<64x64xindex>
  %lo = arith.subi %ib, %w : vector<64x64xindex>
  %q_i = vector.transfer_read %q[%row0, %c0], %pad {in_bounds = [false, true]} : memref<1000x64xf16>, vector<64x64xf16>
  %fold = scf.for %kv0 = %c0 to %hi step %c64 iter_args(%m = %ninf1) -> (vector<64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<1000x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %kb = vector.broadcast %kv0 : index to vector<64xindex>
    %kv = arith.addi %kb, %step : vector<64xindex>
    %kvb = vector.broadcast %kv : vector<64xindex> to vector<64x64xindex>
    %in = arith.cmpi sge, %kvb, %lo : vector<64x64xindex>
    %s1 = arith.select %in, %qk, %ninf : vector<64x64xi1>, vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %s1, %m [1] : vector<64x64xf32> to vector<64xf32>
    scf.yield %m1 : vector<64xf32>
  }
  vector.transfer_write %fold, %o[%row0, %c0] {in_bounds = [true]} : vector<64xf32>, memref<1000x64xf32>
  return
}

// -----

// A condition outside the grammar (an unsigned compare) is left alone, and
// so is a select outside a fold.

// CHECK-LABEL: func.func @unsigned
// CHECK-NOT:   scf.if
// CHECK:       arith.cmpi ult
// CHECK-NEXT:  arith.select
// CHECK-NOT:   scf.if
// CHECK:       return
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
func.func @unsigned(%q: memref<1000x64xf16>, %k: memref<1000x64xf16>, %o: memref<1000x64xf32>, %hi: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f16
  %ninf = arith.constant dense<0xFF800000> : vector<64x64xf32>
  %ninf1 = arith.constant dense<0xFF800000> : vector<64xf32>
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %n = arith.constant dense<1000> : vector<64x64xindex>
  %step = vector.step : vector<64xindex>
  %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<1000x64xf16>, vector<64x64xf16>
  %fold = scf.for %kv0 = %c0 to %hi step %c64 iter_args(%m = %ninf1) -> (vector<64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<1000x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %kb = vector.broadcast %kv0 : index to vector<64xindex>
    %kv = arith.addi %kb, %step : vector<64xindex>
    %kvb = vector.broadcast %kv : vector<64xindex> to vector<64x64xindex>
    %in = arith.cmpi ult, %kvb, %n : vector<64x64xindex>
    %s1 = arith.select %in, %qk, %ninf : vector<64x64xi1>, vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %s1, %m [1] : vector<64x64xf32> to vector<64xf32>
    scf.yield %m1 : vector<64xf32>
  }
  vector.transfer_write %fold, %o[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, memref<1000x64xf32>
  return
}

// -----

// The block offset on the right of the comparison (i >= kv0 + step) moves to
// the left: i - kv0 >= step, the subtraction once per row.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>

// CHECK-LABEL: func.func @causal_swapped
// CHECK:         } else {
// CHECK-NEXT:      %[[COL:.+]] = vector.broadcast %{{.+}} : vector<64xindex> to vector<64x64xindex>
// CHECK-NEXT:      %[[KVB:.+]] = vector.broadcast %{{.+}} : index to vector<64xindex>
// CHECK-NEXT:      %[[IREL:.+]] = arith.subi %{{.+}}, %[[KVB]] : vector<64xindex>
// CHECK-NEXT:      %[[IC:.+]] = vector.shape_cast %[[IREL]]
// CHECK-NEXT:      %[[IB:.+]] = vector.broadcast %[[IC]]
// CHECK-NEXT:      %[[C:.+]] = arith.cmpi sge, %[[IB]], %[[COL]] : vector<64x64xindex>
// CHECK-NEXT:      arith.select %[[C]]
func.func @causal_swapped(%q: memref<1000x64xf16>, %k: memref<1000x64xf16>, %o: memref<1000x64xf32>, %row0: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f16
  %scale = arith.constant dense<0.125> : vector<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<64x64xf32>
  %ninf1 = arith.constant dense<0xFF800000> : vector<64xf32>
  %zero = arith.constant dense<0.0> : vector<64x64xf32>
  %n = arith.constant dense<1000> : vector<64xindex>
  %step = vector.step : vector<64xindex>
  %r = vector.broadcast %row0 : index to vector<64xindex>
  %i = arith.addi %r, %step : vector<64xindex>
  %ic = vector.shape_cast %i : vector<64xindex> to vector<64x1xindex>
  %ib = vector.broadcast %ic : vector<64x1xindex> to vector<64x64xindex>
  %q_i = vector.transfer_read %q[%row0, %c0], %pad {in_bounds = [false, true]} : memref<1000x64xf16>, vector<64x64xf16>
  %fold = scf.for %kv0 = %c0 to %hi step %c64 iter_args(%m = %ninf1) -> (vector<64xf32>) {
    %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<1000x64xf16>, vector<64x64xf16>
    %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
    %s = arith.mulf %qk, %scale : vector<64x64xf32>
    %kb = vector.broadcast %kv0 : index to vector<64xindex>
    %kv = arith.addi %kb, %step : vector<64xindex>
    %kvb = vector.broadcast %kv : vector<64xindex> to vector<64x64xindex>
    %diag = arith.cmpi sge, %ib, %kvb : vector<64x64xindex>
    %s1 = arith.select %diag, %s, %ninf : vector<64x64xi1>, vector<64x64xf32>
    %m1 = vector.multi_reduction <maximumf>, %s1, %m [1] : vector<64x64xf32> to vector<64xf32>
    scf.yield %m1 : vector<64xf32>
  }
  vector.transfer_write %fold, %o[%row0, %c0] {in_bounds = [true]} : vector<64xf32>, memref<1000x64xf32>
  return
}
