// A monoid-level input whose reduce carries a schedule the passes do not
// build (a ring four deep): `attncc compile` checks it as it checks --knobs
// (tests/lit/cli/unbuilt-knobs.test).
#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#sched = #monoid.schedule<"TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d4/cp/ring">
func.func @lse_rows(%x: memref<4x?xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %x, %c1 : memref<4x?xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %m, %d = monoid.reduce "kv" %c0 to %n carrier #md schedule #sched : f32, f32 {
    ^bb0(%j: index):
      %xij = memref.load %x[%i, %j] : memref<4x?xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %xij, %one : f32, f32
    }
    %lse = monoid.project %m, %d carrier #md : f32, f32 -> f32 {
    ^bb0(%pm: f32, %pd: f32):
      %lg = math.log %pd : f32
      %r = arith.addf %pm, %lg : f32
      monoid.yield %r : f32
    }
    memref.store %lse, %out[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
