// RUN: attncc-opt %s -split-input-file -attncc-partition -verify-diagnostics --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: attncc-opt %s -split-input-file -attncc-partition -verify-diagnostics | FileCheck %s --check-prefix=COUNT
// RUN: attncc-opt %s -split-input-file -attncc-clip-identity -attncc-partition -verify-diagnostics --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=CLIP
// RUN: attncc-opt %s -split-input-file -attncc-clip-identity -attncc-partition -verify-diagnostics --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=LPT
// RUN: attncc-opt %s -split-input-file -attncc-partition -verify-diagnostics --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=PART

// The seed's attention at [1,2,100,64] f16 on TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4:
// 4 warps x 1 x 16 rows = 64 query rows per CTA, 1 x 8 x 8 = 64 keys per block.
// The map runs over ceil(100/64) = 2 row tiles; the reduce becomes an scf.for
// over key blocks whose state is one vector per channel (m, d: [64], o: [64x64]).

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

// CHECK-DAG: #[[MAP_A:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MAP_B:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MAP_C:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[MAP_V:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[SCHED:.+]] = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:[^:]+]]: memref<1x2x100x64xf16>, %[[K:[^:]+]]: memref<1x2x100x64xf16>, %[[V:[^:]+]]: memref<1x2x100x64xf16>, %[[O:[^:]+]]: memref<1x2x100x64xf16>, %[[LSE:[^:]+]]: memref<1x2x100xf32>)
// CHECK-SAME: attributes {attncc.cta = {rows = 64 : i64, threads = 128 : i64}, attncc.schedule = #[[SCHED]]}
// CHECK-NOT: monoid.reduce
// CHECK:     %[[C0:.+]] = arith.constant 0 : index
// CHECK:     %[[C100:.+]] = arith.constant 100 : index
// CHECK:     %[[ROWS:.+]] = arith.constant 64 : index
// CHECK-NEXT: %[[TILES:.+]] = arith.constant 2 : index
// CHECK-NEXT: scf.parallel (%[[B:.+]], %[[H:.+]], %tile) = (%[[C0]], %[[C0]], %[[C0]]) to (%{{.+}}, %{{.+}}, %[[TILES]]) step
// CHECK-NEXT:   %row0 = arith.muli %tile, %[[ROWS]] : index
// CHECK:        %[[BLOCK:.+]] = arith.constant 64 : index
// CHECK:        %[[M0:.+]] = arith.constant dense<0xFF800000> : vector<64xf32>
// CHECK:        %[[D0:.+]] = arith.constant dense<0.000000e+00> : vector<64xf32>
// CHECK:        %[[O0:.+]] = arith.constant dense<0.000000e+00> : vector<64x64xf32>
// CHECK:        %fold:3 = scf.for %kv0 = %[[C0]] to %[[C100]] step %[[BLOCK]] iter_args(%m = %[[M0]], %d = %[[D0]], %o = %[[O0]]) -> (vector<64xf32>, vector<64xf32>, vector<64x64xf32>) {
// CHECK:          %[[QT:.+]] = vector.transfer_read %[[Q]][%[[B]], %[[H]], %row0, %[[C0]]], %{{.+}} {in_bounds = [false, true]} : memref<1x2x100x64xf16>, vector<64x64xf16>
// CHECK:          %[[KT:.+]] = vector.transfer_read %[[K]][%[[B]], %[[H]], %kv0, %[[C0]]], %{{.+}} {in_bounds = [false, true]} : memref<1x2x100x64xf16>, vector<64x64xf16>
// CHECK:          %[[S:.+]] = vector.contract {indexing_maps = [#[[MAP_A]], #[[MAP_B]], #[[MAP_C]]], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %[[QT]], %[[KT]], %{{.+}} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
// CHECK:          %[[VT:.+]] = vector.transfer_read %[[V]][%[[B]], %[[H]], %kv0, %[[C0]]], %{{.+}} {in_bounds = [false, true]} : memref<1x2x100x64xf16>, vector<64x64xf16>
// The tail block: keys at or past 100 are masked to -inf.
// CHECK:          %[[STEP:.+]] = vector.step : vector<64xindex>
// CHECK:          %[[KV0V:.+]] = vector.broadcast %kv0 : index to vector<64xindex>
// CHECK:          %[[KEYS:.+]] = arith.addi %[[KV0V]], %[[STEP]] : vector<64xindex>
// CHECK:          %[[END:.+]] = vector.broadcast %[[C100]] : index to vector<64xindex>
// CHECK:          %[[IN:.+]] = arith.cmpi slt, %[[KEYS]], %[[END]] : vector<64xindex>
// CHECK-NEXT:     %[[INB:.+]] = vector.broadcast %[[IN]] : vector<64xi1> to vector<64x64xi1>
// CHECK:          %[[SM:.+]] = arith.select %[[INB]], %{{.+}}, %{{.+}} : vector<64x64xi1>, vector<64x64xf32>
// CHECK:          %[[M1:.+]] = vector.multi_reduction <maximumf>, %[[SM]], %m [1] : vector<64x64xf32> to vector<64xf32>
// The carrier's block combine: alpha rescales d and o, p = exp(s - m').
// CHECK:          %alpha = {{.+}} : vector<64xf32>
// CHECK:          %p = {{.+}} : vector<64x64xf32>
// CHECK:          %[[DA:.+]] = arith.mulf %d, %alpha : vector<64xf32>
// CHECK:          %[[D1:.+]] = vector.multi_reduction <add>, %p, %[[DA]] [1] : vector<64x64xf32> to vector<64xf32>
// CHECK:          %[[OA:.+]] = arith.mulf %o, %{{.+}} : vector<64x64xf32>
// CHECK:          %[[P16:.+]] = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
// CHECK:          %[[O1:.+]] = vector.contract {indexing_maps = [#[[MAP_A]], #[[MAP_V]], #[[MAP_C]]], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %[[P16]], %[[VT]], %[[OA]] : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
// CHECK-NEXT:     scf.yield %[[M1]], %[[D1]], %[[O1]] : vector<64xf32>, vector<64xf32>, vector<64x64xf32>
// CHECK-NEXT:   }
// CHECK:        arith.divf %fold#2, %{{.+}} : vector<64x64xf32>
// CHECK:        math.log %fold#1 : vector<64xf32>
// CHECK:        vector.transfer_write %{{.+}}, %[[O]][%[[B]], %[[H]], %row0, %[[C0]]] {in_bounds = [false, true]} : vector<64x64xf16>, memref<1x2x100x64xf16>
// CHECK-NEXT:   vector.transfer_write %{{.+}}, %[[LSE]][%[[B]], %[[H]], %row0] : vector<64xf32>, memref<1x2x100xf32>
// CHECK-NEXT:   scf.reduce

// COUNT-LABEL: func.func @attention
// COUNT-COUNT-2: vector.contract
// COUNT-NOT:     vector.contract
// COUNT:         return

// No clip here: the key range does not depend on the row, so no hull loops.
// CLIP-LABEL: func.func @attention
// CLIP-NOT:   %lo = scf.for
// CLIP-NOT:   %hi = scf.for
// CLIP:       scf.for %kv0 =
func.func @attention(%q: memref<1x2x100x64xf16>, %k: memref<1x2x100x64xf16>, %v: memref<1x2x100x64xf16>, %o: memref<1x2x100x64xf16>, %lse: memref<1x2x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c2, %c100) step (%c1, %c1, %c1) {
    %state:3 = monoid.reduce "kv" %c0 to %c100 carrier #mdo schedule #tc : f32, f32, vector<64xf32> {
    ^bb0(%kv: index):
      %q_i = vector.load %q[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %k_j = vector.load %k[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %qk = monoid.contract %q_i, %k_j : vector<64xf16>, vector<64xf16> -> f32
      %scale = arith.constant 1.250000e-01 : f32
      %s = arith.mulf %qk, %scale : f32
      %v_j = vector.load %v[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %v_f32 = arith.extf %v_j : vector<64xf16> to vector<64xf32>
      %one = arith.constant 1.000000e+00 : f32
      monoid.yield %s, %one, %v_f32 : f32, f32, vector<64xf32>
    }
    %out:2 = monoid.project %state#0, %state#1, %state#2 carrier #mdo : f32, f32, vector<64xf32> -> vector<64xf32>, f32 {
    ^bb0(%m: f32, %d: f32, %acc: vector<64xf32>):
      %dv = vector.broadcast %d : f32 to vector<64xf32>
      %r = arith.divf %acc, %dv : vector<64xf32>
      %lg = math.log %d : f32
      %l = arith.addf %m, %lg : f32
      monoid.yield %r, %l : vector<64xf32>, f32
    }
    %o16 = arith.truncf %out#0 : vector<64xf32> to vector<64xf16>
    vector.store %o16, %o[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
    memref.store %out#1, %lse[%b, %h, %i] : memref<1x2x100xf32>
    scf.reduce
  }
  return
}

// -----

// Causal (kv <= i): after clip-identity the upper bound min(100, i + 1)
// depends on the row. The fold runs to the tile's hull, the max over its 64
// rows, and a per-row mask keeps kv < min(100, i + 1). The bound never falls
// as the row grows, so the max is its value at the tile's last row.

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

// CLIP-LABEL: func.func @causal
// Rows fold different lengths, so the tiles run last to first.
// CLIP:       %tile_rev = arith.subi %{{.+}}, %tile : index
// CLIP:       %row0 = arith.muli %tile_rev, %{{.+}} : index
// The hull: the bound at row0 + 63, min(100, row0 + 63 + 1), and no loop
// over the rows.
// CLIP:       %[[C63:.+]] = arith.constant 63 : index
// CLIP-NEXT:  %[[LAST:.+]] = arith.addi %row0, %[[C63]] : index
// CLIP-NEXT:  %[[ONE:.+]] = arith.constant 1 : index
// CLIP-NEXT:  %[[NEXT:.+]] = arith.addi %[[LAST]], %[[ONE]] : index
// CLIP-NEXT:  %[[HI:.+]] = arith.minsi %{{.+}}, %[[NEXT]] {attncc.clip} : index
// CLIP-NOT:   scf.for
// CLIP:       %fold:3 = scf.for %kv0 = %{{.+}} to %[[HI]] step %{{.+}} iter_args
// CLIP:         vector.contract
// The causal select the lift had, per (row, key):
// CLIP:         arith.cmpi sle, %{{.+}}, %{{.+}} : vector<64x64xindex>
// Only the original range is masked, per key: key < 100 (outside the clip
// of attncc-clip-identity the causal select already gives -inf).
// CLIP-NOT:     arith.cmpi slt, %{{.+}}, %{{.+}} : vector<64x64xindex>
// CLIP:         arith.cmpi slt, %{{.+}}, %{{.+}} : vector<64xindex>
// CLIP:         vector.multi_reduction <maximumf>
// CLIP:         vector.multi_reduction <add>
// CLIP:         vector.contract
// CLIP:         scf.yield
func.func @causal(%q: memref<1x2x100x64xf16>, %k: memref<1x2x100x64xf16>, %v: memref<1x2x100x64xf16>, %o: memref<1x2x100x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c2, %c100) step (%c1, %c1, %c1) {
    %state:3 = monoid.reduce "kv" %c0 to %c100 carrier #mdo schedule #tc : f32, f32, vector<64xf32> {
    ^bb0(%kv: index):
      %q_i = vector.load %q[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %k_j = vector.load %k[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %qk = monoid.contract %q_i, %k_j : vector<64xf16>, vector<64xf16> -> f32
      %ok = arith.cmpi sle, %kv, %i : index
      %ninf = arith.constant 0xFF800000 : f32
      %s = arith.select %ok, %qk, %ninf : f32
      %v_j = vector.load %v[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %v_f32 = arith.extf %v_j : vector<64xf16> to vector<64xf32>
      %one = arith.constant 1.000000e+00 : f32
      monoid.yield %s, %one, %v_f32 : f32, f32, vector<64xf32>
    }
    %out = monoid.project %state#0, %state#1, %state#2 carrier #mdo : f32, f32, vector<64xf32> -> vector<64xf32> {
    ^bb0(%m: f32, %d: f32, %acc: vector<64xf32>):
      %dv = vector.broadcast %d : f32 to vector<64xf32>
      %r = arith.divf %acc, %dv : vector<64xf32>
      monoid.yield %r : vector<64xf32>
    }
    %o16 = arith.truncf %out : vector<64xf32> to vector<64xf16>
    vector.store %o16, %o[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
    scf.reduce
  }
  return
}

// -----

// GRID=lpt: the tile axis comes first in the map, so attncc-map-to-gpu (the
// last axis fastest) launches every head's last tile, then every head's
// second-to-last, ...: the longest causal tiles of the whole grid first.

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#lpt = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,GRID=lpt">

// LPT-LABEL: func.func @causal_lpt
// LPT:       %[[ROWS:.+]] = arith.constant 64 : index
// LPT-NEXT:  %[[TILES:.+]] = arith.constant 2 : index
// LPT-NEXT:  scf.parallel (%tile, %[[B:[^,]+]], %[[H:[^)]+]]) = (%{{.+}}, %{{.+}}, %{{.+}}) to (%[[TILES]], %{{.+}}, %{{.+}}) step
// LPT:       %tile_rev = arith.subi %{{.+}}, %tile : index
// LPT:       %row0 = arith.muli %tile_rev, %{{.+}} : index
// LPT:       vector.transfer_read %{{.+}}[%[[B]], %[[H]], %row0, %{{.+}}]
func.func @causal_lpt(%q: memref<1x2x100x64xf16>, %k: memref<1x2x100x64xf16>, %v: memref<1x2x100x64xf16>, %o: memref<1x2x100x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c2, %c100) step (%c1, %c1, %c1) {
    %state:3 = monoid.reduce "kv" %c0 to %c100 carrier #mdo schedule #lpt : f32, f32, vector<64xf32> {
    ^bb0(%kv: index):
      %q_i = vector.load %q[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %k_j = vector.load %k[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %qk = monoid.contract %q_i, %k_j : vector<64xf16>, vector<64xf16> -> f32
      %ok = arith.cmpi sle, %kv, %i : index
      %ninf = arith.constant 0xFF800000 : f32
      %s = arith.select %ok, %qk, %ninf : f32
      %v_j = vector.load %v[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %v_f32 = arith.extf %v_j : vector<64xf16> to vector<64xf32>
      %one = arith.constant 1.000000e+00 : f32
      monoid.yield %s, %one, %v_f32 : f32, f32, vector<64xf32>
    }
    %out = monoid.project %state#0, %state#1, %state#2 carrier #mdo : f32, f32, vector<64xf32> -> vector<64xf32> {
    ^bb0(%m: f32, %d: f32, %acc: vector<64xf32>):
      %dv = vector.broadcast %d : f32 to vector<64xf32>
      %r = arith.divf %acc, %dv : vector<64xf32>
      monoid.yield %r : vector<64xf32>
    }
    %o16 = arith.truncf %out : vector<64xf32> to vector<64xf16>
    vector.store %o16, %o[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
    scf.reduce
  }
  return
}

// -----

// A sliding window (i - 32 <= kv <= i): both ends depend on the row, so the
// fold runs from the min over the tile's rows to the max, and the mask checks
// both ends. Both bounds grow with the row: the min is the lower bound at
// row0, the max the upper bound at row0 + 63.

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

// CLIP-LABEL: func.func @window
// CLIP:       %[[FIRST:.+]] = arith.subi %row0, %{{.+}} : index
// CLIP-NEXT:  %[[LO:.+]] = arith.maxsi %{{.+}}, %[[FIRST]] {attncc.clip} : index
// CLIP-NEXT:  %[[C63:.+]] = arith.constant 63 : index
// CLIP-NEXT:  %[[LAST:.+]] = arith.addi %row0, %[[C63]] : index
// CLIP:       %[[HI:.+]] = arith.minsi %{{.+}}, %{{.+}} {attncc.clip} : index
// CLIP-NOT:   scf.for
// CLIP:       %fold:3 = scf.for %kv0 = %[[LO]] to %[[HI]] step %{{.+}} iter_args
// CLIP:         arith.cmpi slt, %{{.+}}, %{{.+}} : vector<64xindex>
// CLIP:         vector.multi_reduction <maximumf>
func.func @window(%q: memref<1x2x100x64xf16>, %k: memref<1x2x100x64xf16>, %v: memref<1x2x100x64xf16>, %o: memref<1x2x100x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c2, %c100) step (%c1, %c1, %c1) {
    %state:3 = monoid.reduce "kv" %c0 to %c100 carrier #mdo schedule #tc : f32, f32, vector<64xf32> {
    ^bb0(%kv: index):
      %q_i = vector.load %q[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %k_j = vector.load %k[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %qk = monoid.contract %q_i, %k_j : vector<64xf16>, vector<64xf16> -> f32
      %first = arith.subi %i, %c32 : index
      %after = arith.cmpi sge, %kv, %first : index
      %before = arith.cmpi sle, %kv, %i : index
      %ok = arith.andi %after, %before : i1
      %ninf = arith.constant 0xFF800000 : f32
      %s = arith.select %ok, %qk, %ninf : f32
      %v_j = vector.load %v[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %v_f32 = arith.extf %v_j : vector<64xf16> to vector<64xf32>
      %one = arith.constant 1.000000e+00 : f32
      monoid.yield %s, %one, %v_f32 : f32, f32, vector<64xf32>
    }
    %out = monoid.project %state#0, %state#1, %state#2 carrier #mdo : f32, f32, vector<64xf32> -> vector<64xf32> {
    ^bb0(%m: f32, %d: f32, %acc: vector<64xf32>):
      %dv = vector.broadcast %d : f32 to vector<64xf32>
      %r = arith.divf %acc, %dv : vector<64xf32>
      monoid.yield %r : vector<64xf32>
    }
    %o16 = arith.truncf %out : vector<64xf32> to vector<64xf16>
    vector.store %o16, %o[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
    scf.reduce
  }
  return
}

// -----

// A TILE without an atom is not this pass's: the reduce stays.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#scalar = #monoid.schedule<"TILE@kv=n64/f1">

// CHECK-LABEL: func.func @no_atom
// CHECK-NOT:   attncc.cta
// CHECK:       scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step
// CHECK:         monoid.reduce "kv"
// CHECK-NOT:   scf.for
func.func @no_atom(%x: memref<4x100xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %m, %d = monoid.reduce "kv" %c0 to %c100 carrier #md schedule #scalar : f32, f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%i, %j] : memref<4x100xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %xj, %one : f32, f32
    }
    memref.store %d, %out[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @not_in_map(%x: memref<100xf32>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  // expected-error@+1 {{'monoid.reduce' op attncc-partition (TILE@kv with an atom) needs the reduce directly in a free-axis map with zero lower bounds and unit steps}}
  %m, %d = monoid.reduce "kv" %c0 to %c100 carrier #md schedule #tc : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<100xf32>
    %one = arith.constant 1.0 : f32
    monoid.yield %xj, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

func.func @strided_map(%x: memref<100x100xf32>, %out: memref<100xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i) = (%c0) to (%c100) step (%c2) {
    // expected-error@+1 {{'monoid.reduce' op attncc-partition (TILE@kv with an atom) needs the reduce directly in a free-axis map with zero lower bounds and unit steps}}
    %m, %d = monoid.reduce "kv" %c0 to %c100 carrier #md schedule #tc : f32, f32 {
    ^bb0(%j: index):
      %xj = memref.load %x[%i, %j] : memref<100x100xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %xj, %one : f32, f32
    }
    memref.store %d, %out[%i] : memref<100xf32>
    scf.reduce
  }
  return
}

// -----

// A partial reduce (attncc-split-reduce's parts map with an atom TILE: the
// part axis before the rows) is tiled like any other. Its bounds depend on
// the part, not on the row, and its state is stored per row into the
// workspace [parts, rows] as a row vector.

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tcp = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x2/k1,REDUCE@kv=g3k">

// CHECK-LABEL: func.func @parts
// PART-LABEL: func.func @parts
// PART:       scf.parallel (%[[P:[^,]+]], %tile) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %{{.+}}) step
// PART:         %row0 = arith.muli %tile, %{{.+}} : index
// PART:         %[[LO:.+]] = arith.muli %[[P]], %{{.+}} : index
// PART:         %fold:2 = scf.for %kv0 = %[[LO]] to %{{.+}} step %{{.+}} iter_args
// PART:         vector.transfer_write %fold#0, %{{.+}}[%[[P]], %row0] : vector<16xf32>, memref<3x100xf32>
// PART:         vector.transfer_write %fold#1, %{{.+}}[%[[P]], %row0] : vector<16xf32>, memref<3x100xf32>
func.func @parts(%x: memref<100x96xf16>, %wm: memref<3x100xf32>, %wd: memref<3x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%p, %i) = (%c0, %c0) to (%c3, %c100) step (%c1, %c1) {
    %lo = arith.muli %p, %c32 : index
    %hi = arith.addi %lo, %c32 : index
    %m, %d = monoid.reduce "kv" %lo to %hi carrier #md schedule #tcp partial : f32, f32 {
    ^bb0(%kv: index):
      %e = memref.load %x[%i, %kv] : memref<100x96xf16>
      %f = arith.extf %e : f16 to f32
      %one = arith.constant 1.0 : f32
      monoid.yield %f, %one : f32, f32
    }
    memref.store %m, %wm[%p, %i] : memref<3x100xf32>
    memref.store %d, %wd[%p, %i] : memref<3x100xf32>
    scf.reduce
  }
  return
}

// -----

// A row guard (the front end's varlen rows: scf.if %i < %len around the
// row's reduce and store, marked attncc.row_guard) over accesses to views
// whose extent along the row is the guard's bound: the tile drops the
// guard (its reads and writes past the view's rows read 0 and write
// nothing), and a tile whose first row is past the bound folds nothing.

#md2 = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#tcg = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w1x1/f1x2/k1">

// CHECK-LABEL: func.func @row_guard
// CHECK-NOT:   attncc.row_guard
// CHECK:       %[[XS:.+]] = memref.subview %{{.+}}[%[[START:.+]], 0] [%[[LEN:.+]], 96] [1, 1]
// CHECK:       %[[YS:.+]] = memref.subview %{{.+}}[%[[START]]] [%[[LEN]]] [1]
// CHECK:       %tile_in_seq = arith.cmpi slt, %row0, %[[LEN]] : index
// CHECK:       %[[HI:.+]] = arith.select %tile_in_seq, %c96, %c0 : index
// CHECK:       scf.for %kv0 = %c0 to %[[HI]] step
// CHECK:       vector.transfer_read %[[XS]][%row0, %kv0]
// CHECK:       vector.transfer_write %{{.+}}, %[[YS]][%row0] : vector<16xf32>, memref<?xf32, strided<[1], offset: ?>>
func.func @row_guard(%x: memref<?x96xf16>, %y: memref<?xf32>, %starts: memref<4xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c96 = arith.constant 96 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %i) = (%c0, %c0) to (%c3, %c100) step (%c1, %c1) {
    %start = memref.load %starts[%b] : memref<4xindex>
    %b1 = arith.addi %b, %c1 : index
    %end = memref.load %starts[%b1] : memref<4xindex>
    %len = arith.subi %end, %start : index
    %xs = memref.subview %x[%start, 0] [%len, 96] [1, 1] : memref<?x96xf16> to memref<?x96xf16, strided<[96, 1], offset: ?>>
    %ys = memref.subview %y[%start] [%len] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    %in = arith.cmpi slt, %i, %len : index
    scf.if %in {
      %m, %d = monoid.reduce "kv" %c0 to %c96 carrier #md2 schedule #tcg : f32, f32 {
      ^bb0(%kv: index):
        %e = memref.load %xs[%i, %kv] : memref<?x96xf16, strided<[96, 1], offset: ?>>
        %f = arith.extf %e : f16 to f32
        %one = arith.constant 1.0 : f32
        monoid.yield %f, %one : f32, f32
      }
      memref.store %m, %ys[%i] : memref<?xf32, strided<[1], offset: ?>>
    } {attncc.row_guard}
    scf.reduce
  }
  return
}

// -----

// A bound that does not move one way with the row (kv <= i mod 7): the hull
// is the max over the tile's rows, run as a loop (an scf.for named hi).

#mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#tc = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4">

// CLIP-LABEL: func.func @causal_rem
// CLIP:       arith.remsi %row0
// CLIP:       %[[FIRST:.+]] = arith.minsi %{{.+}} {attncc.clip} : index
// CLIP-NEXT:  %[[ONE:.+]] = arith.constant 1 : index
// CLIP-NEXT:  %[[FROM:.+]] = arith.addi %row0, %[[ONE]] : index
// CLIP:       %[[M:.+]] = arith.constant 64 : index
// CLIP:       %[[TO:.+]] = arith.addi %row0, %[[M]] : index
// CLIP:       %hi = scf.for %{{.+}} = %[[FROM]] to %[[TO]] step %[[ONE]] iter_args(%[[ACC:.+]] = %[[FIRST]]) -> (index) {
// CLIP:         arith.remsi
// CLIP:         %[[X:.+]] = arith.minsi %{{.+}}, %{{.+}} : index
// CLIP:         %[[Y:.+]] = arith.maxsi %[[ACC]], %[[X]] : index
// CLIP:         scf.yield %[[Y]] : index
// CLIP:       }
// CLIP:       %fold:3 = scf.for %kv0 = %{{.+}} to %hi step %{{.+}} iter_args
func.func @causal_rem(%q: memref<1x2x100x64xf16>, %k: memref<1x2x100x64xf16>, %v: memref<1x2x100x64xf16>, %o: memref<1x2x100x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c2, %c100) step (%c1, %c1, %c1) {
    %state:3 = monoid.reduce "kv" %c0 to %c100 carrier #mdo schedule #tc : f32, f32, vector<64xf32> {
    ^bb0(%kv: index):
      %q_i = vector.load %q[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %k_j = vector.load %k[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %qk = monoid.contract %q_i, %k_j : vector<64xf16>, vector<64xf16> -> f32
      %c7 = arith.constant 7 : index
      %r = arith.remsi %i, %c7 : index
      %ok = arith.cmpi sle, %kv, %r : index
      %ninf = arith.constant 0xFF800000 : f32
      %s = arith.select %ok, %qk, %ninf : f32
      %v_j = vector.load %v[%b, %h, %kv, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
      %v_f32 = arith.extf %v_j : vector<64xf16> to vector<64xf32>
      %one = arith.constant 1.000000e+00 : f32
      monoid.yield %s, %one, %v_f32 : f32, f32, vector<64xf32>
    }
    %out = monoid.project %state#0, %state#1, %state#2 carrier #mdo : f32, f32, vector<64xf32> -> vector<64xf32> {
    ^bb0(%m: f32, %d: f32, %acc: vector<64xf32>):
      %dv = vector.broadcast %d : f32 to vector<64xf32>
      %r = arith.divf %acc, %dv : vector<64xf32>
      monoid.yield %r : vector<64xf32>
    }
    %o16 = arith.truncf %out : vector<64xf32> to vector<64xf16>
    vector.store %o16, %o[%b, %h, %i, %c0] : memref<1x2x100x64xf16>, vector<64xf16>
    scf.reduce
  }
  return
}
