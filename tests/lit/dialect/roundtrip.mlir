// Every monoid op and both attributes print, parse and print again unchanged.
// RUN: attncc-opt %s | attncc-opt | FileCheck %s
// RUN: attncc-opt %s --mlir-print-op-generic | attncc-opt | FileCheck %s
// The custom and the generic forms print back to the same text.
// RUN: attncc-opt %s > %t.custom.mlir
// RUN: attncc-opt %s --mlir-print-op-generic | attncc-opt > %t.generic.mlir
// RUN: diff %t.custom.mlir %t.generic.mlir

// Carriers and schedules print once, at the top, under readable aliases.
// CHECK-DAG: #[[MD:carrier_md]] = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
// CHECK-DAG: #[[MDO:carrier_mdo]] = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
// CHECK-DAG: #[[S:carrier_s]] = #monoid.carrier<s: add(0)>
// CHECK-DAG: #[[SCHED:schedule[0-9]*]] = #monoid.schedule<"TILE@kv=n4/f1,REDUCE@kv=g3k">
// A schedule prints as its canonical knob string (family order TILE, STAGE, REDUCE, PLACE, WSPEC, ...).
// CHECK-DAG: #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4,STAGE@kv=d2/tma/ring,PLACE@fold=cut,WSPEC=load1/mma1/softmax2,EXP=ex2,RESCALE=lazy8.0,ACC=f32,GRID=persistent">

// Channel names may be written quoted; they print bare.
#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#mdo = #monoid.carrier<"m": max(-inf), d: add(0) twist("m"), o: add(0) twist(m)>
#s = #monoid.carrier<s: add(0)>
// Written out of canonical family order on purpose: it prints in canonical order.
#all = #monoid.schedule<"STAGE@kv=d2/tma/ring,TILE@kv=a:mma_m16n8k16_f16/w4x1/f2x8/k4,EXP=ex2,WSPEC=load1/mma1/softmax2,PLACE@fold=cut,GRID=persistent,ACC=f32,RESCALE=lazy8.0">

// CHECK-LABEL: func.func @reduce_plain
// CHECK: %[[R:.+]]:2 = monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #[[MD]] : f32, f32 {
// CHECK-NEXT: ^bb0(%[[J:.+]]: index):
// CHECK: memref.load %{{.+}}[%[[J]]] : memref<?xf32>
// CHECK: monoid.yield %{{.+}}, %{{.+}} : f32, f32
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @reduce_plain(%x: memref<?xf32>, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %m, %d = monoid.reduce "kv" %c0 to %n carrier #md : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    monoid.yield %xj, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// CHECK-LABEL: func.func @reduce_schedule_partial
// CHECK: monoid.reduce "kv" %{{.+}} to %{{.+}} carrier #[[MD]] schedule #[[SCHED]] partial : f32, f32 {
func.func @reduce_schedule_partial(%x: memref<?xf32>, %lo: index, %hi: index) -> (f32, f32) {
  %m, %d = monoid.reduce "kv" %lo to %hi carrier #md
      schedule #monoid.schedule<"TILE@kv=n4/f1,REDUCE@kv=g3k"> partial : f32, f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    monoid.yield %xj, %one : f32, f32
  }
  return %m, %d : f32, f32
}

// CHECK-LABEL: func.func @reduce_schedule_only
// CHECK: monoid.reduce "n" %{{.+}} to %{{.+}} carrier #[[S]] schedule #{{.+}} : f32 {
// CHECK-NOT: partial
// CHECK: monoid.yield
func.func @reduce_schedule_only(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %s = monoid.reduce "n" %c0 to %n carrier #s
      schedule #all : f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj : f32
  }
  return %s : f32
}

// CHECK-LABEL: func.func @contract
// CHECK: %{{.+}} = monoid.contract %{{.+}}, %{{.+}} : vector<64xf16>, vector<64xf16> -> f32
// CHECK: %{{.+}} = monoid.contract %{{.+}}, %{{.+}} : vector<8xbf16>, vector<8xf32> -> f32
func.func @contract(%a: vector<64xf16>, %b: vector<64xf16>, %c: vector<8xbf16>, %e: vector<8xf32>) -> (f32, f32) {
  %s = monoid.contract %a, %b : vector<64xf16>, vector<64xf16> -> f32
  %t = monoid.contract %c, %e : vector<8xbf16>, vector<8xf32> -> f32
  return %s, %t : f32, f32
}

// CHECK-LABEL: func.func @project
// CHECK: %{{.+}}:2 = monoid.project %{{.+}}, %{{.+}}, %{{.+}} carrier #[[MDO]] : f32, f32, vector<4xf32> -> vector<4xf32>, f32 {
// CHECK-NEXT: ^bb0(%[[PM:.+]]: f32, %[[PD:.+]]: f32, %[[PO:.+]]: vector<4xf32>):
// CHECK: monoid.yield %{{.+}}, %{{.+}} : vector<4xf32>, f32
func.func @project(%m: f32, %d: f32, %o: vector<4xf32>) -> (vector<4xf32>, f32) {
  %r, %l = monoid.project %m, %d, %o carrier #mdo
      : f32, f32, vector<4xf32> -> vector<4xf32>, f32 {
  ^bb0(%pm: f32, %pd: f32, %po: vector<4xf32>):
    %b = vector.broadcast %pd : f32 to vector<4xf32>
    %q = arith.divf %po, %b : vector<4xf32>
    %lg = math.log %pd : f32
    %lse = arith.addf %pm, %lg : f32
    monoid.yield %q, %lse : vector<4xf32>, f32
  }
  return %r, %l : vector<4xf32>, f32
}

// CHECK-LABEL: func.func @combine
// CHECK: %{{.+}}:3 = monoid.combine #[[MDO]]{{ ?}}(%{{.+}}, %{{.+}}, %{{.+}}), (%{{.+}}, %{{.+}}, %{{.+}}) : f32, f32, vector<4xf32>
// CHECK: %{{.+}} = monoid.combine #[[S]]{{ ?}}(%{{.+}}), (%{{.+}}) : f32
func.func @combine(%m0: f32, %d0: f32, %o0: vector<4xf32>, %m1: f32, %d1: f32, %o1: vector<4xf32>)
    -> (f32, f32, vector<4xf32>, f32) {
  %m, %d, %o = monoid.combine #mdo
      (%m0, %d0, %o0), (%m1, %d1, %o1) : f32, f32, vector<4xf32>
  %s = monoid.combine #s (%m0), (%m1) : f32
  return %m, %d, %o, %s : f32, f32, vector<4xf32>, f32
}

// CHECK-LABEL: func.func @identity
// CHECK: %{{.+}}:3 = monoid.identity #[[MDO]] : f32, f32, vector<4xf32>
// CHECK: %{{.+}} = monoid.identity #[[S]] : vector<8xf16>
func.func @identity() -> (f32, f32, vector<4xf32>, vector<8xf16>) {
  %m, %d, %o = monoid.identity #mdo : f32, f32, vector<4xf32>
  %s = monoid.identity <"s": add(0)> : vector<8xf16>
  return %m, %d, %o, %s : f32, f32, vector<4xf32>, vector<8xf16>
}

// #monoid.fragment: every layout name prints as it parses.
// CHECK-LABEL: func.func @fragments
// CHECK-SAME: attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<row>, #monoid.fragment<col>, #monoid.fragment<a>, #monoid.fragment<b.nk>, #monoid.fragment<b.kn>, #monoid.fragment<smem>]
func.func @fragments() attributes {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<row>, #monoid.fragment<col>, #monoid.fragment<a>, #monoid.fragment<b.nk>, #monoid.fragment<b.kn>, #monoid.fragment<smem>]} {
  return
}

// #monoid.staged: every transport, with and without an arrangement.
// CHECK-LABEL: func.func @staged
// CHECK-SAME: attncc.stages = [#monoid.staged<sync>, #monoid.staged<cp, pad>, #monoid.staged<cp, swz>, #monoid.staged<tma, swz>]
func.func @staged() attributes {attncc.stages = [#monoid.staged<sync>, #monoid.staged<cp, pad>, #monoid.staged<cp, swz>, #monoid.staged<tma, swz>]} {
  return
}

// monoid.tma_wait / monoid.tma_release (attncc-place-waits).
// CHECK-LABEL: func.func @tma_sync
// CHECK: monoid.tma_wait %{{.+}} : vector<64x64xf16>
// CHECK: monoid.tma_release %{{.+}} : vector<64x64xf16>
// CHECK: monoid.tma_release %{{.+}} unless %{{.+}} : vector<64x64xf16>, vector<64x64xf16>
func.func @tma_sync(%a: vector<64x64xf16>, %b: vector<64x64xf16>) {
  monoid.tma_wait %a : vector<64x64xf16>
  monoid.tma_release %a : vector<64x64xf16>
  monoid.tma_release %a unless %b : vector<64x64xf16>, vector<64x64xf16>
  return
}

// monoid.to_lanes / monoid.from_lanes (attncc-lower-mma): a c tile as its
// accumulators or as A fragments, a b.kn tile as B fragments.
// CHECK-LABEL: func.func @lanes
// CHECK: monoid.to_lanes %{{.+}} : vector<128x64xf32> to vector<2x8x2x2xf32>
// CHECK: monoid.to_lanes %{{.+}} : vector<128x64xf32> to vector<2x4x4x2xf32>
// CHECK: monoid.to_lanes %{{.+}} : vector<64x32xf16> to vector<4x4x2x2xf16>
// CHECK: monoid.from_lanes %{{.+}} {attncc.layout = #monoid.fragment<c>} : vector<2x8x2x2xf32> to vector<128x64xf32>
func.func @lanes(%s: vector<128x64xf32>, %v: vector<64x32xf16>) {
  %c = arith.addf %s, %s {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
  %b = arith.addf %v, %v {attncc.layout = #monoid.fragment<b.kn>} : vector<64x32xf16>
  %acc = monoid.to_lanes %c : vector<128x64xf32> to vector<2x8x2x2xf32>
  %a = monoid.to_lanes %c : vector<128x64xf32> to vector<2x4x4x2xf32>
  %bl = monoid.to_lanes %b : vector<64x32xf16> to vector<4x4x2x2xf16>
  %t = monoid.from_lanes %acc {attncc.layout = #monoid.fragment<c>} : vector<2x8x2x2xf32> to vector<128x64xf32>
  return
}

// A rowthread tile (tcgen05: thread t holds row t) as the thread's row, in
// order or in pairs, and back; the tcgen05 form of a descriptor.
// CHECK-LABEL: func.func @rowthread
// CHECK: monoid.to_lanes %{{.+}} : vector<128x64xf32> to vector<64xf32>
// CHECK: monoid.to_lanes %{{.+}} : vector<128x64xf32> to vector<32x2xf32>
// CHECK: monoid.from_lanes %{{.+}} {attncc.layout = #monoid.fragment<rowthread>} : vector<64xf32> to vector<128x64xf32>
// CHECK: monoid.smem_descriptor %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64, tcgen05}
func.func @rowthread(%s: vector<128x64xf32>, %slot: memref<2x128x64xf16, #gpu.address_space<workgroup>>, %i: index) {
  %r = arith.addf %s, %s {attncc.layout = #monoid.fragment<rowthread>} : vector<128x64xf32>
  %row = monoid.to_lanes %r : vector<128x64xf32> to vector<64xf32>
  %pairs = monoid.to_lanes %r : vector<128x64xf32> to vector<32x2xf32>
  %t = monoid.from_lanes %row {attncc.layout = #monoid.fragment<rowthread>} : vector<64xf32> to vector<128x64xf32>
  %d = monoid.smem_descriptor %slot[%i, %i, %i] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64, tcgen05} : memref<2x128x64xf16, #gpu.address_space<workgroup>>
  return
}

// monoid.smem_descriptor / monoid.wgmma (attncc-lower-wgmma): a K-major
// descriptor (SS form), an MN-major one with the slab stride, and an RS atom
// with B transposed.
// CHECK-LABEL: func.func @wgmma
// CHECK: %[[D:.+]] = monoid.smem_descriptor %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64} : memref<2x128x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[V:.+]] = monoid.smem_descriptor %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] {leading_byte_offset = 16384 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64}
// CHECK: monoid.wgmma %[[D]], %[[D]] into %{{.+}} {operand_type = f16} : i64, memref<1x16x2x2xf32>
// CHECK: monoid.wgmma %{{.+}}, %[[V]] into %{{.+}} {operand_type = bf16, transpose_b} : vector<4x2xbf16>, memref<1x8x2x2xf32>
func.func @wgmma(%slot: memref<2x128x64xf16, #gpu.address_space<workgroup>>, %a: vector<4x2xbf16>, %i: index) {
  %s = memref.alloca() : memref<1x16x2x2xf32>
  %o = memref.alloca() : memref<1x8x2x2xf32>
  %d = monoid.smem_descriptor %slot[%i, %i, %i] {leading_byte_offset = 0 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64} : memref<2x128x64xf16, #gpu.address_space<workgroup>>
  %v = monoid.smem_descriptor %slot[%i, %i, %i] {leading_byte_offset = 16384 : i64, stride_byte_offset = 1024 : i64, swizzle = 128 : i64} : memref<2x128x64xf16, #gpu.address_space<workgroup>>
  monoid.wgmma %d, %d into %s {operand_type = f16} : i64, memref<1x16x2x2xf32>
  monoid.wgmma %a, %v into %o {operand_type = bf16, transpose_b} : vector<4x2xbf16>, memref<1x8x2x2xf32>
  return
}
