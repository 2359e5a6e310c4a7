// A reduce that is not inside a free-axis scf.parallel: PLACE@fold=cut
// cannot materialize its scores.
#s = #monoid.carrier<s: add(0)>
func.func @sum(%x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %r = monoid.reduce "n" %c0 to %n carrier #s : f32 {
  ^bb0(%j: index):
    %xj = memref.load %x[%j] : memref<?xf32>
    monoid.yield %xj : f32
  }
  return %r : f32
}
