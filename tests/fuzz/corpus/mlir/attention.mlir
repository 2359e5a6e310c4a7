#carrier_mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#schedule = #monoid.schedule<"TILE@kv=n4/f1,REDUCE@kv=g3k">
module {
  func.func @attention(%q: memref<1x1x8x64xf16> {attncc.dims = ["batch", "heads_q", "seq_q", "head_dim"], attncc.role = "q"}, %k: memref<1x1x8x64xf16> {attncc.dims = ["batch", "heads_kv", "seq_k", "head_dim"], attncc.role = "k"}, %v: memref<1x1x8x64xf16> {attncc.dims = ["batch", "heads_kv", "seq_k", "head_dim"], attncc.role = "v"}, %bias: memref<1x1x8x8xf16> {attncc.dims = ["batch", "heads_q", "seq_q", "seq_k"], attncc.role = "bias"}, %o: memref<1x1x8x64xf16> {attncc.dims = ["batch", "heads_q", "seq_q", "head_dim"], attncc.role = "o"}, %lse: memref<1x1x8xf32> {attncc.dims = ["batch", "heads_q", "seq_q"], attncc.role = "lse"}) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_0 = arith.constant 1 : index
    %c1_1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c8_2 = arith.constant 8 : index
    %sk_minus_sq = arith.subi %c8_2, %c8 : index
    scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1_0, %c1_1, %c8) step (%c1, %c1, %c1) {
      %state:3 = monoid.reduce "kv" %c0 to %c8_2 carrier #carrier_mdo schedule #schedule : f32, f32, vector<64xf32> {
      ^bb0(%kv: index):
        %q_i = vector.load %q[%b, %h, %i, %c0] : memref<1x1x8x64xf16>, vector<64xf16>
        %k_j = vector.load %k[%b, %h, %kv, %c0] : memref<1x1x8x64xf16>, vector<64xf16>
        %qk = monoid.contract %q_i, %k_j : vector<64xf16>, vector<64xf16> -> f32
        %cst = arith.constant 1.250000e-01 : f32
        %s = arith.mulf %qk, %cst : f32
        %diag = arith.addi %i, %sk_minus_sq : index
        %1 = arith.index_cast %h : index to i64
        %2 = arith.sitofp %1 : i64 to f32
        %cst_3 = arith.constant 1.000000e+00 : f32
        %3 = arith.addf %2, %cst_3 : f32
        %cst_4 = arith.constant -8.000000e+00 : f32
        %4 = arith.mulf %cst_4, %3 : f32
        %5 = math.exp2 %4 : f32
        %6 = arith.subi %diag, %kv : index
        %7 = arith.index_cast %6 : index to i64
        %8 = arith.sitofp %7 : i64 to f32
        %9 = math.absf %8 : f32
        %10 = arith.mulf %5, %9 : f32
        %11 = arith.subf %s, %10 : f32
        %bias_ij = memref.load %bias[%b, %h, %i, %kv] : memref<1x1x8x8xf16>
        %12 = arith.extf %bias_ij : f16 to f32
        %13 = arith.addf %11, %12 : f32
        %14 = arith.cmpi sle, %kv, %diag : index
        %c2 = arith.constant 2 : index
        %15 = arith.subi %diag, %c2 : index
        %16 = arith.cmpi sge, %kv, %15 : index
        %17 = arith.andi %14, %16 : i1
        %cst_5 = arith.constant 0xFF800000 : f32
        %s_6 = arith.select %17, %13, %cst_5 : f32
        %v_j = vector.load %v[%b, %h, %kv, %c0] : memref<1x1x8x64xf16>, vector<64xf16>
        %v_j_f32 = arith.extf %v_j : vector<64xf16> to vector<64xf32>
        %cst_7 = arith.constant 1.000000e+00 : f32
        monoid.yield %s_6, %cst_7, %v_j_f32 : f32, f32, vector<64xf32>
      }
      %result:2 = monoid.project %state#0, %state#1, %state#2 carrier #carrier_mdo : f32, f32, vector<64xf32> -> vector<64xf32>, f32 {
      ^bb0(%m: f32, %d: f32, %o_3: vector<64xf32>):
        %cst = arith.constant 0.000000e+00 : f32
        %1 = arith.cmpf oeq, %d, %cst : f32
        %2 = vector.broadcast %d : f32 to vector<64xf32>
        %3 = arith.divf %o_3, %2 : vector<64xf32>
        %cst_4 = arith.constant dense<0.000000e+00> : vector<64xf32>
        %out = arith.select %1, %cst_4, %3 : vector<64xf32>
        %4 = math.log %d : f32
        %lse_i = arith.addf %m, %4 : f32
        monoid.yield %out, %lse_i : vector<64xf32>, f32
      }
      %0 = arith.truncf %result#0 : vector<64xf32> to vector<64xf16>
      vector.store %0, %o[%b, %h, %i, %c0] : memref<1x1x8x64xf16>, vector<64xf16>
      memref.store %result#1, %lse[%b, %h, %i] : memref<1x1x8xf32>
      scf.reduce 
    }
    return
  }
}

