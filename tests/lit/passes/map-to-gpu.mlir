// RUN: attncc-opt %s -split-input-file -attncc-map-to-gpu -verify-diagnostics | FileCheck %s
// RUN: attncc-opt %s -split-input-file -attncc-map-to-gpu='threads=64' -verify-diagnostics | FileCheck %s --check-prefix=T64
// RUN: attncc-opt %s -split-input-file -attncc-map-to-gpu -verify-diagnostics --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NAMES

// Partition (scalar rung): a top-level scf.parallel over (h, i) becomes a
// gpu.launch of ceil(points / 128) CTAs of 128 threads; each thread takes one
// point id = blockIdx.x * 128 + threadIdx.x, is guarded by id < points, and
// delinearizes it (last axis fastest) before running the body.

// CHECK-LABEL: func.func @two_axes
// CHECK-SAME: (%[[X:.+]]: memref<4x?xf32>, %[[N:.+]]: index)
// CHECK-NOT: scf.parallel
// CHECK:     %[[POINTS:.+]] = arith.muli %[[N]], %{{.+}} : index
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
// CHECK:     %[[CTAS:.+]] = arith.ceildivui %[[POINTS]], %[[C128]] : index
// CHECK:     gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[CTAS]], %{{.+}} = %[[ONE]], %{{.+}} = %[[ONE]]) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C128]], %{{.+}} = %[[ONE]], %{{.+}} = %[[ONE]]) module(@two_axes_module) function(@two_axes) {
// CHECK-NEXT:  %[[OFF:.+]] = arith.muli %[[BX]], %[[C128]] : index
// CHECK-NEXT:  %[[ID:.+]] = arith.addi %[[OFF]], %[[TX]] : index
// CHECK-NEXT:  %[[OK:.+]] = arith.cmpi ult, %[[ID]], %[[POINTS]] : index
// CHECK-NEXT:  scf.if %[[OK]] {
// CHECK-NEXT:    %[[I:.+]] = arith.remui %[[ID]], %[[N]] : index
// CHECK-NEXT:    %[[H:.+]] = arith.divui %[[ID]], %[[N]] : index
// CHECK-NEXT:    %[[V:.+]] = memref.load %[[X]][%[[H]], %[[I]]] : memref<4x?xf32>
// CHECK-NEXT:    %[[W:.+]] = arith.addf %[[V]], %[[V]] : f32
// CHECK-NEXT:    memref.store %[[W]], %[[X]][%[[H]], %[[I]]] : memref<4x?xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: return

// threads=64: the block size and the stride of the point id follow.
// T64-LABEL: func.func @two_axes
// T64:       %[[C64:.+]] = arith.constant 64 : index
// T64:       %[[CTAS:.+]] = arith.ceildivui %{{.+}}, %[[C64]] : index
// T64:       gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[CTAS]], {{.+}}) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C64]], {{.+}})
// T64-NEXT:    arith.muli %[[BX]], %[[C64]] : index

// The point id carries its name.
// NAMES-LABEL: func.func @two_axes
// NAMES:       %point = arith.addi
// NAMES-NEXT:  arith.cmpi ult, %point,
func.func @two_axes(%x: memref<4x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%h, %i) = (%c0, %c0) to (%c4, %n) step (%c1, %c1) {
    %v = memref.load %x[%h, %i] : memref<4x?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%h, %i] : memref<4x?xf32>
    scf.reduce
  }
  return
}

// -----

// Static extents fold: 4 x 100 = 400 points, ceil(400 / 128) = 4 CTAs
// (ceil(400 / 64) = 7 with threads=64). The name of the map's location
// (split-reduce's "parts", cut-fold's "scores", ...) names the kernel:
// @<function>_<name> in @<function>_<name>_module.

// CHECK-LABEL: func.func @role
// CHECK:      %[[C400:.+]] = arith.constant 400 : index
// CHECK-NEXT: %[[C128:.+]] = arith.constant 128 : index
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[CTAS:.+]] = arith.constant 4 : index
// CHECK-NEXT: gpu.launch blocks({{.+}}) in (%{{.+}} = %[[CTAS]], %{{.+}} = %[[ONE]], %{{.+}} = %[[ONE]]) threads({{.+}}) in (%{{.+}} = %[[C128]], %{{.+}} = %[[ONE]], %{{.+}} = %[[ONE]]) module(@role_parts_module) function(@role_parts) {
// CHECK:       arith.cmpi ult, %{{.+}}, %[[C400]] : index
// CHECK:       %[[I:.+]] = arith.remui %{{.+}}, %[[C100:.+]] : index
// CHECK:       %[[H:.+]] = arith.divui %{{.+}}, %[[C100]] : index
// CHECK:       memref.load %{{.+}}[%[[H]], %[[I]]] : memref<4x100xf32>

// T64-LABEL: func.func @role
// T64:       %[[C64:.+]] = arith.constant 64 : index
// T64-NEXT:  arith.constant 1 : index
// T64-NEXT:  %[[C7:.+]] = arith.constant 7 : index
// T64-NEXT:  gpu.launch blocks({{.+}}) in (%{{.+}} = %[[C7]], {{.+}}) module(@role_parts_module) function(@role_parts) {
func.func @role(%x: memref<4x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%h, %i) = (%c0, %c0) to (%c4, %c100) step (%c1, %c1) {
    %v = memref.load %x[%h, %i] : memref<4x100xf32>
    memref.store %v, %x[%h, %i] : memref<4x100xf32>
    scf.reduce
  } loc("parts")
  return
}

// -----

// Three axes: two remui/divui steps, the first axis is what is left.

// CHECK-LABEL: func.func @three_axes
// CHECK:       %[[ID:.+]] = arith.addi
// CHECK:       scf.if
// CHECK-NEXT:    %[[K:.+]] = arith.remui %[[ID]], %[[C8:.+]] : index
// CHECK-NEXT:    %[[R:.+]] = arith.divui %[[ID]], %[[C8]] : index
// CHECK-NEXT:    %[[J:.+]] = arith.remui %[[R]], %[[C3:.+]] : index
// CHECK-NEXT:    %[[I:.+]] = arith.divui %[[R]], %[[C3]] : index
// CHECK-NEXT:    memref.store %{{.+}}, %{{.+}}[%[[I]], %[[J]], %[[K]]] : memref<2x3x8xf32>
func.func @three_axes(%x: memref<2x3x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 0.0 : f32
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c2, %c3, %c8) step (%c1, %c1, %c1) {
    memref.store %f, %x[%i, %j, %k] : memref<2x3x8xf32>
    scf.reduce
  }
  return
}

// -----

// Two maps in one function: one launch each, in order, each named after its map.

// CHECK-LABEL: func.func @two_maps
// CHECK: gpu.launch {{.+}} module(@two_maps_scores_module) function(@two_maps_scores)
// CHECK: gpu.launch {{.+}} module(@two_maps_fold_module) function(@two_maps_fold)
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @two_maps(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %f, %x[%i] : memref<8xf32>
    scf.reduce
  } loc("scores")
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %f, %x[%i] : memref<8xf32>
    scf.reduce
  } loc("fold")
  return
}

// -----

// The preconditions: monoid ops are gone ...

#s = #monoid.carrier<s: add(0)>
func.func @monoid_left(%x: memref<?xf32>, %n: index) -> f32 {
  // expected-error@+1 {{'monoid.identity' op must be lowered (expand-carrier, lower-contract) before attncc-map-to-gpu}}
  %s = monoid.identity #s : f32
  return %s : f32
}

// -----

func.func @contract_left(%a: vector<8xf16>, %b: vector<8xf16>) -> f32 {
  // expected-error@+1 {{'monoid.contract' op must be lowered (expand-carrier, lower-contract) before attncc-map-to-gpu}}
  %s = monoid.contract %a, %b : vector<8xf16>, vector<8xf16> -> f32
  return %s : f32
}

// -----

// monoid.resident_ctas (gauto's waves) is a host value: before a map it stays
// on the host for the launch contract; inside one it is refused.

// CHECK-LABEL: func.func @resident_on_host
// CHECK: %[[R:.+]] = monoid.resident_ctas
// CHECK: %[[G:.+]] = arith.ceildivui %[[R]], %c128 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{%.+}} = %[[G]],
// CHECK: arith.cmpi ult, %{{.+}}, %[[R]] : index
func.func @resident_on_host(%x: memref<?xf32>) {
  %r = monoid.resident_ctas
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    memref.store %f, %x[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

func.func @resident_in_map(%x: memref<8xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    // expected-error@+1 {{'monoid.resident_ctas' op is computed on the host: it must come before the map, not inside it}}
    %r = monoid.resident_ctas
    memref.store %r, %x[%i] : memref<8xindex>
    scf.reduce
  }
  return
}

// -----

// ... and the maps start at zero with unit steps.

func.func @nonzero_lower(%x: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 0.0 : f32
  // expected-error@+1 {{'scf.parallel' op attncc-map-to-gpu needs zero lower bounds and unit steps}}
  scf.parallel (%i) = (%c1) to (%c8) step (%c1) {
    memref.store %f, %x[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

func.func @non_unit_step(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 0.0 : f32
  // expected-error@+1 {{'scf.parallel' op attncc-map-to-gpu needs zero lower bounds and unit steps}}
  scf.parallel (%i) = (%c0) to (%c8) step (%c2) {
    memref.store %f, %x[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

func.func @with_reduction(%x: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 0.0 : f32
  // expected-error@+1 {{'scf.parallel' op attncc-map-to-gpu cannot lower a map with reductions}}
  %r = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%f) -> f32 {
    %v = memref.load %x[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

// -----

// A tiled function with two maps (a split with an atom): attncc.cta names the
// tiled map by its role (map = "parts"); it runs a CTA a tile (3 x 2 = 6 CTAs
// of 64 threads), the combine one thread a point (ceil(300 / 128) = 3 CTAs).

// CHECK-LABEL: func.func @parts_and_combine
// CHECK:      %[[C6:.+]] = arith.constant 6 : index
// CHECK:      %[[C64:.+]] = arith.constant 64 : index
// CHECK:      gpu.launch blocks({{.+}}) in (%{{.+}} = %[[C6]], {{.+}}) threads({{.+}}) in (%{{.+}} = %[[C64]], {{.+}}) module(@parts_and_combine_parts_module) function(@parts_and_combine_parts) {
// CHECK:      %[[C3:.+]] = arith.constant 3 : index
// CHECK:      gpu.launch blocks({{.+}}) in (%{{.+}} = %[[C3]], {{.+}}) threads({{.+}}) in (%{{.+}} = %{{.+}}, {{.+}}) module(@parts_and_combine_combine_module) function(@parts_and_combine_combine) {
// CHECK:        arith.cmpi ult, %{{.+}}, %{{.+}} : index
func.func @parts_and_combine(%x: memref<3x2xf32>, %y: memref<300xf32>) attributes {attncc.cta = {map = "parts", rows = 64 : i64, threads = 64 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c300 = arith.constant 300 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%p, %t) = (%c0, %c0) to (%c3, %c2) step (%c1, %c1) {
    memref.store %f, %x[%p, %t] : memref<3x2xf32>
    scf.reduce
  } loc("parts")
  scf.parallel (%i) = (%c0) to (%c300) step (%c1) {
    memref.store %f, %y[%i] : memref<300xf32>
    scf.reduce
  } loc("combine")
  return
}

// -----

// GRID=persistent (attncc.cta has persistent): the launch still counts one
// CTA a tile (3 x 4 = 12), and each CTA runs one tile in each round of
// gridDim.x tiles: in round k, tile k * G + c when k is even and
// k * G + G - 1 - c when it is odd (c = blockIdx.x), for points / G rounds
// and one more when its tile of the partial last round is below 12. The
// tile id is delinearized as a CTA a tile would its blockIdx.x; the kernel is
// recorded as attncc.persistent, which the contract hands the runner (it
// launches at most the CTAs the device holds at once).

// CHECK-LABEL: func.func @persistent
// CHECK-SAME:  attncc.kernel_attrs = {persistent = {attncc.persistent}}
// CHECK:      %[[C12:.+]] = arith.constant 12 : index
// CHECK:      gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C12]], {{.+}}) threads({{.+}}) in (%{{.+}} = %{{.+}}, {{.+}}) module(@persistent_module) function(@persistent) {
// CHECK-NEXT:   %[[GX:.+]] = gpu.grid_dim x
// CHECK:        %[[GM1:.+]] = arith.subi %[[GX]], %[[ONE:.+]] : index
// CHECK-NEXT:   %[[MIRROR:.+]] = arith.subi %[[GM1]], %[[BX]] : index
// CHECK-NEXT:   %[[ROUNDS:.+]] = arith.divui %[[C12]], %[[GX]] : index
// CHECK-NEXT:   %[[FULL:.+]] = arith.muli %[[ROUNDS]], %[[GX]] : index
// CHECK-NEXT:   %[[REST:.+]] = arith.subi %[[C12]], %[[FULL]] : index
// CHECK-NEXT:   %[[LB:.+]] = arith.andi %[[ROUNDS]], %[[ONE]] : index
// CHECK-NEXT:   %[[LODD:.+]] = arith.cmpi ne, %[[LB]], %[[ZERO:.+]] : index
// CHECK-NEXT:   %[[LAST:.+]] = arith.select %[[LODD]], %[[MIRROR]], %[[BX]] : index
// CHECK-NEXT:   %[[IN:.+]] = arith.cmpi ult, %[[LAST]], %[[REST]] : index
// CHECK-NEXT:   %[[EXTRA:.+]] = arith.select %[[IN]], %[[ONE]], %[[ZERO]] : index
// CHECK-NEXT:   %[[TRIPS:.+]] = arith.addi %[[ROUNDS]], %[[EXTRA]] : index
// CHECK-NEXT:   scf.for %[[K:.+]] = %[[ZERO]] to %[[TRIPS]] step %[[ONE]] {
// CHECK-NEXT:     %[[KG:.+]] = arith.muli %[[K]], %[[GX]] : index
// CHECK-NEXT:     %[[KB:.+]] = arith.andi %[[K]], %[[ONE]] : index
// CHECK-NEXT:     %[[ODD:.+]] = arith.cmpi ne, %[[KB]], %[[ZERO]] : index
// CHECK-NEXT:     %[[AT:.+]] = arith.select %[[ODD]], %[[MIRROR]], %[[BX]] : index
// CHECK-NEXT:     %[[T:.+]] = arith.addi %[[KG]], %[[AT]] : index
// CHECK-NEXT:     %[[J:.+]] = arith.remui %[[T]], %{{.+}} : index
// CHECK-NEXT:     %[[I:.+]] = arith.divui %[[T]], %{{.+}} : index
// CHECK-NEXT:     memref.load %{{.+}}[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK:        } {attncc.tile_loop}
// CHECK-NEXT:   gpu.terminator
// NAMES-LABEL: func.func @persistent
// NAMES:       %mirror =
// NAMES:       %trips =
// NAMES:       scf.for %tile_round =
// NAMES:       %tile_id =
func.func @persistent(%x: memref<3x4xf32>) attributes {attncc.cta = {persistent, rows = 64 : i64, threads = 64 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<3x4xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%i, %j] : memref<3x4xf32>
    scf.reduce
  }
  return
}

// -----

// attncc-last-combine's arrival in a tiled map (a CTA a point): every thread
// fences its stores (gpu scope), a barrier gathers the CTA's, thread 0 counts
// and tests, a reducing barrier (OR) hands the test to every thread; the last
// CTA fences again, thread 0 resets the counter, and the inner map's 5 x 8 =
// 40 points run over the 32 threads in an unrolled loop of 2 rounds (point
// tid + 32 k, guarded: 32 does not divide 40), marked attncc.per_thread.

// CHECK-LABEL: func.func @arrival_cta
// CHECK:      gpu.launch
// CHECK:        memref.store
// CHECK-NEXT:   nvvm.memory.barrier <gpu>
// CHECK-NEXT:   gpu.barrier
// CHECK-NEXT:   %[[TID:[a-z0-9_]+]] = gpu.thread_id x
// CHECK:        %[[FIRST:[a-z0-9_]+]] = arith.cmpi eq, %[[TID]], %{{.+}} : index
// CHECK-NEXT:   %[[T0:[a-z0-9_]+]] = scf.if %[[FIRST]] -> (i1) {
// CHECK-NEXT:     %[[N:[a-z0-9_]+]] = memref.atomic_rmw addi %{{.+}}, %{{.+}}[%{{.+}}] {attncc.arrival}
// CHECK-NEXT:     %[[L:[a-z0-9_]+]] = arith.cmpi eq, %[[N]], %{{.+}} : i32
// CHECK-NEXT:     scf.yield %[[L]] : i1
// CHECK-NEXT:   } else {
// CHECK:          scf.yield %false : i1
// CHECK:        %[[P:[a-z0-9_]+]] = arith.select %[[T0]], %{{.+}}, %{{.+}} : i32
// CHECK-NEXT:   %[[ANY:[a-z0-9_]+]] = nvvm.barrier {{.*}}reduction{{.*}}or{{.*}}%[[P]]
// CHECK:        %[[LAST:[a-z0-9_]+]] = arith.cmpi ne, %[[ANY]], %{{.+}} : i32
// CHECK-NEXT:   scf.if %[[LAST]] {
// CHECK-NEXT:     nvvm.memory.barrier <gpu>
// CHECK-NEXT:     scf.if %[[FIRST]] {
// CHECK-NEXT:       memref.store %{{.+}} {attncc.arrival_reset}
// CHECK:          scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:       %[[TID2:[a-z0-9_]+]] = gpu.thread_id x
// CHECK-NEXT:       %[[KT:[a-z0-9_]+]] = arith.muli %[[K]], %{{.+}} : index
// CHECK-NEXT:       %[[PT:[a-z0-9_]+]] = arith.addi %[[TID2]], %[[KT]] : index
// CHECK-NEXT:       %[[IN:[a-z0-9_]+]] = arith.cmpi ult, %[[PT]], %{{.+}} : index
// CHECK-NEXT:       scf.if %[[IN]] {
// CHECK-NEXT:         %[[J:[a-z0-9_]+]] = arith.remui %[[PT]], %{{.+}} : index
// CHECK-NEXT:         %[[I:[a-z0-9_]+]] = arith.divui %[[PT]], %{{.+}} : index
// CHECK-NEXT:         memref.store %{{.+}}, %{{.+}}[%[[I]], %[[J]]] : memref<5x8xf32>
// CHECK:          } {attncc.per_thread, attncc.unroll}
// CHECK-NOT:    scf.parallel
// NAMES-LABEL: func.func @arrival_cta
// NAMES:       %counter_thread =
// NAMES:       %any_last = nvvm.barrier
// NAMES:       %last_cta =
// NAMES:       scf.for %round =
// NAMES:       %point =
func.func @arrival_cta(%arr: memref<2xi32>, %x: memref<2x4xf32>, %y: memref<5x8xf32>) attributes {attncc.cta = {rows = 16 : i64, threads = 32 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %zero = arith.constant 0 : i32
  scf.parallel (%b, %p) = (%c0, %c0) to (%c2, %c4) step (%c1, %c1) {
    memref.store %f, %x[%b, %p] : memref<2x4xf32>
    %n = memref.atomic_rmw addi %one, %arr[%b] {attncc.arrival} : (i32, memref<2xi32>) -> i32
    %last = arith.cmpi eq, %n, %three : i32
    scf.if %last {
      memref.store %zero, %arr[%b] {attncc.arrival_reset} : memref<2xi32>
      scf.parallel (%i, %j) = (%c0, %c0) to (%c5, %c8) step (%c1, %c1) {
        memref.store %f, %y[%i, %j] : memref<5x8xf32>
        scf.reduce
      }
    }
    scf.reduce
  }
  return
}

// -----

// The same arrival in a map of a point a thread (a split without an atom):
// the thread fences, counts and tests itself; the last fences again and runs
// the inner map's points in order.

// CHECK-LABEL: func.func @arrival_thread
// CHECK:      gpu.launch
// CHECK:        memref.store
// CHECK-NEXT:   nvvm.memory.barrier <gpu>
// CHECK-NEXT:   %[[N:[a-z0-9_]+]] = memref.atomic_rmw addi %{{.+}} {attncc.arrival}
// CHECK-NEXT:   %[[L:[a-z0-9_]+]] = arith.cmpi eq, %[[N]], %{{.+}} : i32
// CHECK-NEXT:   scf.if %[[L]] {
// CHECK-NEXT:     nvvm.memory.barrier <gpu>
// CHECK-NEXT:     memref.store %{{.+}} {attncc.arrival_reset}
// CHECK:          scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:          } {attncc.per_thread}
// CHECK-NOT:  gpu.barrier
// CHECK-NOT:  nvvm.barrier
func.func @arrival_thread(%arr: memref<2xi32>, %x: memref<2x4xf32>, %y: memref<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %zero = arith.constant 0 : i32
  scf.parallel (%b, %p) = (%c0, %c0) to (%c2, %c4) step (%c1, %c1) {
    memref.store %f, %x[%b, %p] : memref<2x4xf32>
    %n = memref.atomic_rmw addi %one, %arr[%b] {attncc.arrival} : (i32, memref<2xi32>) -> i32
    %last = arith.cmpi eq, %n, %three : i32
    scf.if %last {
      memref.store %zero, %arr[%b] {attncc.arrival_reset} : memref<2xi32>
      scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
        memref.store %f, %y[%i] : memref<3xf32>
        scf.reduce
      }
    }
    scf.reduce
  }
  return
}

// -----

// An arrival that is not tested by an scf.if is not one map-to-gpu can share.

func.func @arrival_untested(%arr: memref<2xi32>) attributes {attncc.cta = {rows = 16 : i64, threads = 32 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  scf.parallel (%b) = (%c0) to (%c2) step (%c1) {
    // expected-error @+1 {{attncc-map-to-gpu: an arrival (attncc.arrival) must be tested once, by an scf.if}}
    %n = memref.atomic_rmw addi %one, %arr[%b] {attncc.arrival} : (i32, memref<2xi32>) -> i32
    memref.store %n, %arr[%b] : memref<2xi32>
    scf.reduce
  }
  return
}
