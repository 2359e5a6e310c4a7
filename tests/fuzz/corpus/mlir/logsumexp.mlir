#carrier_md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
module {
  func.func @logsumexp(%x: memref<1x1x2x8xf16> {attncc.dims = ["batch", "heads_q", "seq_q", "seq_k"], attncc.role = "x"}, %out: memref<1x1x2xf32> {attncc.dims = ["batch", "heads_q", "seq_q"], attncc.role = "out"}) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_0 = arith.constant 1 : index
    %c1_1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1_0, %c1_1, %c2) step (%c1, %c1, %c1) {
      %state:2 = monoid.reduce "n" %c0 to %c8 carrier #carrier_md : f32, f32 {
      ^bb0(%n: index):
        %x_ij = memref.load %x[%b, %h, %i, %n] : memref<1x1x2x8xf16>
        %cst = arith.constant 1.000000e+00 : f32
        %0 = arith.extf %x_ij : f16 to f32
        %s = arith.mulf %0, %cst : f32
        %cst_2 = arith.constant 1.000000e+00 : f32
        monoid.yield %s, %cst_2 : f32, f32
      }
      %result = monoid.project %state#0, %state#1 carrier #carrier_md : f32, f32 -> f32 {
      ^bb0(%m: f32, %d: f32):
        %0 = math.log %d : f32
        %1 = arith.addf %m, %0 : f32
        monoid.yield %1 : f32
      }
      memref.store %result, %out[%b, %h, %i] : memref<1x1x2xf32>
      scf.reduce 
    }
    return
  }
}

