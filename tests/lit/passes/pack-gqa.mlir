// RUN: attncc-opt %s -split-input-file -attncc-pack-gqa -verify-diagnostics | FileCheck %s

// PACK=gqa on [2, 8/2, 4, 300, 32], causal with ALiBi (the front end's IR):
// the map runs over (b, hkv, r) in (2, 2, 4 x 4); Q, O and the LSE are
// [2, 2, 16(, 32)] and keep their indices; the KV head is the map's hkv; the
// mask's diagonal reads i = r mod 4 and ALiBi's slope h = hkv * 4 + r / 4.

// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:[^:]+]]: memref<2x2x16x32xf16> {attncc.role = "q"}, %[[K:[^:]+]]: memref<2x2x300x32xf16> {attncc.role = "k"}, %{{[^:]+}}: memref<2x2x300x32xf16> {attncc.role = "v"}, %[[O:[^:]+]]: memref<2x2x16x32xf16> {attncc.role = "o"}, %[[LSE:[^:]+]]: memref<2x2x16xf32> {attncc.role = "lse"})
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: scf.parallel (%[[B:[^,]+]], %[[HKV:[^,]+]], %[[R:[^)]+]]) = ({{.+}}) to (%[[C2]], %{{[^,]+}}, %[[C16]])
// CHECK:   monoid.reduce "kv"
// CHECK:   ^bb0(%[[J:.+]]: index):
// CHECK:     %[[G:.+]] = arith.constant 4 : index
// CHECK:     %[[BASE:.+]] = arith.muli %[[HKV]], %[[G]] : index
// CHECK:     %[[SQ:.+]] = arith.constant 4 : index
// CHECK:     %[[HG:.+]] = arith.divui %[[R]], %[[SQ]] : index
// CHECK:     %[[H:.+]] = arith.addi %[[BASE]], %[[HG]] : index
// CHECK:     %[[I:.+]] = arith.remui %[[R]], %[[SQ]] : index
// CHECK-NOT: arith.divui %[[HKV]]
// CHECK:     vector.load %[[Q]][%[[B]], %[[HKV]], %[[R]], %{{.+}}] : memref<2x2x16x32xf16>
// CHECK:     vector.load %[[K]][%[[B]], %[[HKV]], %[[J]], %{{.+}}] : memref<2x2x300x32xf16>
// CHECK:     %[[DIAG:.+]] = arith.addi %[[I]], %{{.+}} : index
// CHECK:     arith.index_cast %[[H]] : index to i64
// CHECK:     arith.cmpi sle, %[[J]], %[[DIAG]] : index
// CHECK:   vector.store %{{.+}}, %[[O]][%[[B]], %[[HKV]], %[[R]], %{{.+}}] : memref<2x2x16x32xf16>
// CHECK:   memref.store %{{.+}}, %[[LSE]][%[[B]], %[[HKV]], %[[R]]] : memref<2x2x16xf32>

#carrier_mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#schedule = #monoid.schedule<"PACK=gqa">
module {
  func.func @attention(%q: memref<2x8x4x32xf16> {attncc.role = "q"}, %k: memref<2x2x300x32xf16> {attncc.role = "k"}, %v: memref<2x2x300x32xf16> {attncc.role = "v"}, %o: memref<2x8x4x32xf16> {attncc.role = "o"}, %lse: memref<2x8x4xf32> {attncc.role = "lse"}) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c4 = arith.constant 4 : index
    %c300 = arith.constant 300 : index
    %sk_minus_sq = arith.subi %c300, %c4 : index
    scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c2, %c8, %c4) step (%c1, %c1, %c1) {
      %state:3 = monoid.reduce "kv" %c0 to %c300 carrier #carrier_mdo schedule #schedule : f32, f32, vector<32xf32> {
      ^bb0(%kv: index):
        %c4_0 = arith.constant 4 : index
        %hkv = arith.divui %h, %c4_0 : index
        %q_i = vector.load %q[%b, %h, %i, %c0] : memref<2x8x4x32xf16>, vector<32xf16>
        %k_j = vector.load %k[%b, %hkv, %kv, %c0] : memref<2x2x300x32xf16>, vector<32xf16>
        %qk = monoid.contract %q_i, %k_j : vector<32xf16>, vector<32xf16> -> f32
        %cst = arith.constant 0.176776692 : f32
        %s = arith.mulf %qk, %cst : f32
        %diag = arith.addi %i, %sk_minus_sq : index
        %1 = arith.index_cast %h : index to i64
        %2 = arith.sitofp %1 : i64 to f32
        %cst_1 = arith.constant 1.000000e+00 : f32
        %3 = arith.addf %2, %cst_1 : f32
        %cst_2 = arith.constant -1.000000e+00 : f32
        %4 = arith.mulf %cst_2, %3 : f32
        %5 = math.exp2 %4 : f32
        %6 = arith.subi %diag, %kv : index
        %7 = arith.index_cast %6 : index to i64
        %8 = arith.sitofp %7 : i64 to f32
        %9 = math.absf %8 : f32
        %10 = arith.mulf %5, %9 : f32
        %11 = arith.subf %s, %10 : f32
        %12 = arith.cmpi sle, %kv, %diag : index
        %cst_3 = arith.constant 0xFF800000 : f32
        %s_4 = arith.select %12, %11, %cst_3 : f32
        %v_j = vector.load %v[%b, %hkv, %kv, %c0] : memref<2x2x300x32xf16>, vector<32xf16>
        %v_j_f32 = arith.extf %v_j : vector<32xf16> to vector<32xf32>
        %cst_5 = arith.constant 1.000000e+00 : f32
        monoid.yield %s_4, %cst_5, %v_j_f32 : f32, f32, vector<32xf32>
      }
      %result:2 = monoid.project %state#0, %state#1, %state#2 carrier #carrier_mdo : f32, f32, vector<32xf32> -> vector<32xf32>, f32 {
      ^bb0(%m: f32, %d: f32, %o_0: vector<32xf32>):
        %cst = arith.constant 0.000000e+00 : f32
        %1 = arith.cmpf oeq, %d, %cst : f32
        %2 = vector.broadcast %d : f32 to vector<32xf32>
        %3 = arith.divf %o_0, %2 : vector<32xf32>
        %cst_1 = arith.constant dense<0.000000e+00> : vector<32xf32>
        %out = arith.select %1, %cst_1, %3 : vector<32xf32>
        %4 = math.log %d : f32
        %lse_i = arith.addf %m, %4 : f32
        monoid.yield %out, %lse_i : vector<32xf32>, f32
      }
      %0 = arith.truncf %result#0 : vector<32xf32> to vector<32xf16>
      vector.store %0, %o[%b, %h, %i, %c0] : memref<2x8x4x32xf16>, vector<32xf16>
      memref.store %result#1, %lse[%b, %h, %i] : memref<2x8x4xf32>
      scf.reduce 
    }
    return
  }
}


// -----

// Decode (Sq = 1, MQA 4/1): h = hkv * 4 + r, the row i is 0.

#c = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#pack = #monoid.schedule<"PACK=gqa">

// CHECK-LABEL: func.func @decode
// CHECK-SAME: memref<1x1x4x32xf16> {attncc.role = "q"}
// CHECK-SAME: memref<1x1x4xf32> {attncc.role = "lse"}
// CHECK: scf.parallel (%{{[^,]+}}, %[[HKV:[^,]+]], %[[R:[^)]+]])
// CHECK:   ^bb0
// CHECK:     %[[BASE:.+]] = arith.muli %[[HKV]], %{{.+}} : index
// CHECK:     %[[H:.+]] = arith.addi %[[BASE]], %[[R]] : index
// CHECK:     %[[I:.+]] = arith.constant 0 : index
// CHECK-NOT: arith.remui
// CHECK:     arith.addi %[[I]], %{{.+}} : index
// CHECK:     arith.index_cast %[[H]] : index to i64
func.func @decode(%q: memref<1x4x1x32xf16> {attncc.role = "q"}, %k: memref<1x1x9x32xf16> {attncc.role = "k"},
                  %v: memref<1x1x9x32xf16> {attncc.role = "v"}, %o: memref<1x4x1x32xf16> {attncc.role = "o"},
                  %lse: memref<1x4x1xf32> {attncc.role = "lse"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %off = arith.constant 8 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c4, %c1) step (%c1, %c1, %c1) {
    %st:3 = monoid.reduce "kv" %c0 to %c9 carrier #c schedule #pack : f32, f32, vector<32xf32> {
    ^bb0(%j: index):
      %g = arith.constant 4 : index
      %hkv = arith.divui %h, %g : index
      %qi = vector.load %q[%b, %h, %i, %c0] : memref<1x4x1x32xf16>, vector<32xf16>
      %kj = vector.load %k[%b, %hkv, %j, %c0] : memref<1x1x9x32xf16>, vector<32xf16>
      %s = monoid.contract %qi, %kj : vector<32xf16>, vector<32xf16> -> f32
      %diag = arith.addi %i, %off : index
      %hi = arith.index_cast %h : index to i64
      %hf = arith.sitofp %hi : i64 to f32
      %s2 = arith.addf %s, %hf : f32
      %ok = arith.cmpi sle, %j, %diag : index
      %ninf = arith.constant 0xFF800000 : f32
      %s3 = arith.select %ok, %s2, %ninf : f32
      %vj = vector.load %v[%b, %hkv, %j, %c0] : memref<1x1x9x32xf16>, vector<32xf16>
      %vf = arith.extf %vj : vector<32xf16> to vector<32xf32>
      %one = arith.constant 1.0 : f32
      monoid.yield %s3, %one, %vf : f32, f32, vector<32xf32>
    }
    %r:2 = monoid.project %st#0, %st#1, %st#2 carrier #c : f32, f32, vector<32xf32> -> vector<32xf32>, f32 {
    ^bb0(%m: f32, %d: f32, %acc: vector<32xf32>):
      %dv = vector.broadcast %d : f32 to vector<32xf32>
      %out = arith.divf %acc, %dv : vector<32xf32>
      monoid.yield %out, %m : vector<32xf32>, f32
    }
    %t = arith.truncf %r#0 : vector<32xf32> to vector<32xf16>
    vector.store %t, %o[%b, %h, %i, %c0] : memref<1x4x1x32xf16>, vector<32xf16>
    memref.store %r#1, %lse[%b, %h, %i] : memref<1x4x1xf32>
    scf.reduce
  }
  return
}

// -----

// Heads that are not grouped (G = 1): nothing to pack, the function is unchanged.

#c = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#pack = #monoid.schedule<"PACK=gqa">

// CHECK-LABEL: func.func @mha
// CHECK-SAME: memref<1x2x3x32xf16> {attncc.role = "q"}
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}, %[[C2:.+]], %[[C3:[^)]+]])
func.func @mha(%q: memref<1x2x3x32xf16> {attncc.role = "q"}, %k: memref<1x2x9x32xf16> {attncc.role = "k"},
               %o: memref<1x2x3x32xf16> {attncc.role = "o"}, %lse: memref<1x2x3xf32> {attncc.role = "lse"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c2, %c3) step (%c1, %c1, %c1) {
    %st:2 = monoid.reduce "kv" %c0 to %c9 carrier #monoid.carrier<m: max(-inf), d: add(0) twist(m)> schedule #pack : f32, f32 {
    ^bb0(%j: index):
      %qi = vector.load %q[%b, %h, %i, %c0] : memref<1x2x3x32xf16>, vector<32xf16>
      %kj = vector.load %k[%b, %h, %j, %c0] : memref<1x2x9x32xf16>, vector<32xf16>
      %s = monoid.contract %qi, %kj : vector<32xf16>, vector<32xf16> -> f32
      %one = arith.constant 1.0 : f32
      monoid.yield %s, %one : f32, f32
    }
    memref.store %st#0, %lse[%b, %h, %i] : memref<1x2x3xf32>
    scf.reduce
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#pack = #monoid.schedule<"PACK=gqa">

func.func @bias(%q: memref<1x4x2x32xf16> {attncc.role = "q"}, %k: memref<1x2x9x32xf16> {attncc.role = "k"},
                %bias: memref<1x4x2x9xf16> {attncc.role = "bias"}, %o: memref<1x4x2x32xf16> {attncc.role = "o"},
                %lse: memref<1x4x2xf32> {attncc.role = "lse"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c4, %c2) step (%c1, %c1, %c1) {
    // expected-error @+1 {{PACK=gqa with a bias is not built yet}}
    %st:2 = monoid.reduce "kv" %c0 to %c9 carrier #md schedule #pack : f32, f32 {
    ^bb0(%j: index):
      %x = memref.load %bias[%b, %h, %i, %j] : memref<1x4x2x9xf16>
      %s = arith.extf %x : f16 to f32
      %one = arith.constant 1.0 : f32
      monoid.yield %s, %one : f32, f32
    }
    memref.store %st#0, %lse[%b, %h, %i] : memref<1x4x2xf32>
    scf.reduce
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#pack = #monoid.schedule<"PACK=gqa">

func.func @symbolic_rows(%q: memref<1x4x?x32xf16> {attncc.role = "q"}, %k: memref<1x2x9x32xf16> {attncc.role = "k"},
                         %o: memref<1x4x?x32xf16> {attncc.role = "o"}, %lse: memref<1x4x?xf32> {attncc.role = "lse"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %sq = memref.dim %q, %c2 : memref<1x4x?x32xf16>
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c4, %sq) step (%c1, %c1, %c1) {
    // expected-error @+1 {{PACK=gqa needs a static query length}}
    %st:2 = monoid.reduce "kv" %c0 to %c9 carrier #md schedule #pack : f32, f32 {
    ^bb0(%j: index):
      %qi = vector.load %q[%b, %h, %i, %c0] : memref<1x4x?x32xf16>, vector<32xf16>
      %kj = vector.load %k[%b, %h, %j, %c0] : memref<1x2x9x32xf16>, vector<32xf16>
      %s = monoid.contract %qi, %kj : vector<32xf16>, vector<32xf16> -> f32
      %one = arith.constant 1.0 : f32
      monoid.yield %s, %one : f32, f32
    }
    memref.store %st#0, %lse[%b, %h, %i] : memref<1x4x?xf32>
    scf.reduce
  }
  return
}

// -----

#md = #monoid.carrier<m: max(-inf), d: add(0) twist(m)>
#pack = #monoid.schedule<"PACK=gqa">

func.func @other_row(%q: memref<1x4x2x32xf16> {attncc.role = "q"}, %k: memref<1x2x9x32xf16> {attncc.role = "k"},
                     %o: memref<1x4x2x32xf16> {attncc.role = "o"}, %lse: memref<1x4x2xf32> {attncc.role = "lse"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c1, %c4, %c2) step (%c1, %c1, %c1) {
    %st:2 = monoid.reduce "kv" %c0 to %c9 carrier #md schedule #pack : f32, f32 {
    ^bb0(%j: index):
      // expected-error @+1 {{PACK=gqa needs every access of q, o and lse at the map's (head, query row)}}
      %qi = vector.load %q[%b, %h, %c0, %c0] : memref<1x4x2x32xf16>, vector<32xf16>
      %kj = vector.load %k[%b, %h, %j, %c0] : memref<1x2x9x32xf16>, vector<32xf16>
      %s = monoid.contract %qi, %kj : vector<32xf16>, vector<32xf16> -> f32
      %one = arith.constant 1.0 : f32
      monoid.yield %s, %one : f32, f32
    }
    memref.store %st#0, %lse[%b, %h, %i] : memref<1x4x2xf32>
    scf.reduce
  }
  return
}

// -----

// Varlen decode (THD q and o [total_q, Hq * D], one query row a sequence):
// Q and O viewed as [total_q, Hq, D]; a KV group's G = 2 heads are the rows
// of one view [1, len_q * G, D] at (seq_q0, hkv * G); the LSE likewise; the
// guard on the packed row; no argument retyped.
#carrier_mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#schedule = #monoid.schedule<"PACK=gqa">
// CHECK-LABEL: func.func @varlen_decode
// CHECK-SAME: %{{.*}}: memref<?x128xf16>
// CHECK: scf.parallel (%[[B:.*]], %[[HKV:.*]], %[[R:.*]]) = (%c0, %c0, %c0) to (%c2, %[[C2:.*]], %[[C2B:.*]])
// CHECK-DAG: %[[QH:.*]] = memref.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 4, 32] : memref<?x128xf16> into memref<?x4x32xf16>
// CHECK-DAG: %[[OH:.*]] = memref.expand_shape %arg5 {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 4, 32]
// CHECK: %[[BASE:.*]] = arith.muli %[[HKV]], %[[G:.*]] : index
// CHECK: %[[ROWS:.*]] = arith.muli %[[LEN:.*]], %[[G]] : index
// CHECK: %[[QG:.*]] = memref.subview %[[QH]][%[[SEQ0:.*]], %[[BASE]], 0] [1, %[[ROWS]], 32] [1, 1, 1] : memref<?x4x32xf16> to memref<?x32xf16, strided<[32, 1], offset: ?>>
// CHECK: %[[OG:.*]] = memref.subview %[[OH]][%[[SEQ0]], %[[BASE]], 0] [1, %[[ROWS]], 32]
// CHECK: %[[LG:.*]] = memref.subview %arg6[%[[B]], %[[BASE]], 0] [1, %[[ROWS]], 1] [1, 1, 1] : memref<2x4x1xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[R]], %[[ROWS]] : index
// CHECK: scf.if %[[IN]] {
// CHECK: vector.load %[[QG]][%[[R]], %{{.*}}] : memref<?x32xf16, strided<[32, 1], offset: ?>>, vector<32xf16>
// CHECK: vector.store %{{.*}}, %[[OG]][%[[R]], %{{.*}}] : memref<?x32xf16
// CHECK: memref.store %{{.*}}, %[[LG]][%[[R]]] : memref<?xf32
// CHECK-NOT: memref.subview %arg0
  func.func @varlen_decode(%q: memref<?x128xf16> {attncc.dims = ["total_q", "heads_q_x_head_dim"], attncc.role = "q"}, %k: memref<?x64xf16> {attncc.dims = ["total_k", "heads_kv_x_head_dim"], attncc.role = "k"}, %v: memref<?x64xf16> {attncc.dims = ["total_k", "heads_kv_x_head_dim"], attncc.role = "v"}, %cu_seqlens_q: memref<3xi32> {attncc.dims = ["batch_plus_1"], attncc.role = "cu_seqlens_q"}, %cu_seqlens_k: memref<3xi32> {attncc.dims = ["batch_plus_1"], attncc.role = "cu_seqlens_k"}, %o: memref<?x128xf16> {attncc.dims = ["total_q", "heads_q_x_head_dim"], attncc.role = "o"}, %lse: memref<2x4x1xf32> {attncc.dims = ["batch", "heads_q", "seq_q"], attncc.role = "lse"}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c1_0 = arith.constant 1 : index
    scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c2, %c4, %c1_0) step (%c1, %c1, %c1) {
      %0 = arith.addi %b, %c1 : index
      %1 = memref.load %cu_seqlens_q[%b] : memref<3xi32>
      %seq_q0 = arith.index_castui %1 : i32 to index
      %2 = memref.load %cu_seqlens_q[%0] : memref<3xi32>
      %seq_q1 = arith.index_castui %2 : i32 to index
      %len_q = arith.subi %seq_q1, %seq_q0 : index
      %3 = memref.load %cu_seqlens_k[%b] : memref<3xi32>
      %seq_k0 = arith.index_castui %3 : i32 to index
      %4 = memref.load %cu_seqlens_k[%0] : memref<3xi32>
      %seq_k1 = arith.index_castui %4 : i32 to index
      %len_k = arith.subi %seq_k1, %seq_k0 : index
      %k_seq = memref.subview %k[%seq_k0, 0] [%len_k, 64] [1, 1] : memref<?x64xf16> to memref<?x64xf16, strided<[64, 1], offset: ?>>
      %v_seq = memref.subview %v[%seq_k0, 0] [%len_k, 64] [1, 1] : memref<?x64xf16> to memref<?x64xf16, strided<[64, 1], offset: ?>>
      %len_k_minus_len_q = arith.subi %len_k, %len_q : index
      %q_seq = memref.subview %q[%seq_q0, 0] [%len_q, 128] [1, 1] : memref<?x128xf16> to memref<?x128xf16, strided<[128, 1], offset: ?>>
      %o_seq = memref.subview %o[%seq_q0, 0] [%len_q, 128] [1, 1] : memref<?x128xf16> to memref<?x128xf16, strided<[128, 1], offset: ?>>
      %lse_seq = memref.subview %lse[%b, 0, 0] [1, 4, %len_q] [1, 1, 1] : memref<2x4x1xf32> to memref<4x?xf32, strided<[1, 1], offset: ?>>
      %row_in_seq = arith.cmpi slt, %i, %len_q : index
      scf.if %row_in_seq {
        %state:3 = monoid.reduce "kv" %c0 to %len_k carrier #carrier_mdo schedule #schedule : f32, f32, vector<32xf32> {
        ^bb0(%kv: index):
          %c2_1 = arith.constant 2 : index
          %hkv = arith.divui %h, %c2_1 : index
          %c32_2 = arith.constant 32 : index
          %q_col = arith.muli %h, %c32_2 : index
          %q_i = vector.load %q_seq[%i, %q_col] : memref<?x128xf16, strided<[128, 1], offset: ?>>, vector<32xf16>
          %c32_3 = arith.constant 32 : index
          %head_col = arith.muli %hkv, %c32_3 : index
          %k_j = vector.load %k_seq[%kv, %head_col] : memref<?x64xf16, strided<[64, 1], offset: ?>>, vector<32xf16>
          %qk = monoid.contract %q_i, %k_j : vector<32xf16>, vector<32xf16> -> f32
          %cst = arith.constant 0.176776692 : f32
          %s = arith.mulf %qk, %cst : f32
          %v_j = vector.load %v_seq[%kv, %head_col] : memref<?x64xf16, strided<[64, 1], offset: ?>>, vector<32xf16>
          %v_j_f32 = arith.extf %v_j : vector<32xf16> to vector<32xf32>
          %cst_4 = arith.constant 1.000000e+00 : f32
          monoid.yield %s, %cst_4, %v_j_f32 : f32, f32, vector<32xf32>
        }
        %result:2 = monoid.project %state#0, %state#1, %state#2 carrier #carrier_mdo : f32, f32, vector<32xf32> -> vector<32xf32>, f32 {
        ^bb0(%m: f32, %d: f32, %o_1: vector<32xf32>):
          %cst = arith.constant 0.000000e+00 : f32
          %7 = arith.cmpf oeq, %d, %cst : f32
          %cst_2 = arith.constant 1.000000e+00 : f32
          %inv_d = arith.divf %cst_2, %d : f32
          %8 = vector.broadcast %inv_d : f32 to vector<32xf32>
          %9 = arith.mulf %o_1, %8 : vector<32xf32>
          %cst_3 = arith.constant dense<0.000000e+00> : vector<32xf32>
          %out = arith.select %7, %cst_3, %9 : vector<32xf32>
          %10 = math.log %d : f32
          %lse_i = arith.addf %m, %10 : f32
          monoid.yield %out, %lse_i : vector<32xf32>, f32
        }
        %5 = arith.truncf %result#0 : vector<32xf32> to vector<32xf16>
        %c32 = arith.constant 32 : index
        %6 = arith.muli %h, %c32 : index
        vector.store %5, %o_seq[%i, %6] : memref<?x128xf16, strided<[128, 1], offset: ?>>, vector<32xf16>
        memref.store %result#1, %lse_seq[%h, %i] : memref<4x?xf32, strided<[1, 1], offset: ?>>
      } {attncc.row_guard}
      scf.reduce 
    }
    return
  }

// -----

#carrier_mdo = #monoid.carrier<m: max(-inf), d: add(0) twist(m), o: add(0) twist(m)>
#schedule = #monoid.schedule<"PACK=gqa">
// Varlen with two query rows a sequence: a token's heads are not one stride.
  func.func @varlen_two_rows(%q: memref<?x128xf16> {attncc.dims = ["total_q", "heads_q_x_head_dim"], attncc.role = "q"}, %k: memref<?x64xf16> {attncc.dims = ["total_k", "heads_kv_x_head_dim"], attncc.role = "k"}, %v: memref<?x64xf16> {attncc.dims = ["total_k", "heads_kv_x_head_dim"], attncc.role = "v"}, %cu_seqlens_q: memref<3xi32> {attncc.dims = ["batch_plus_1"], attncc.role = "cu_seqlens_q"}, %cu_seqlens_k: memref<3xi32> {attncc.dims = ["batch_plus_1"], attncc.role = "cu_seqlens_k"}, %o: memref<?x128xf16> {attncc.dims = ["total_q", "heads_q_x_head_dim"], attncc.role = "o"}, %lse: memref<2x4x2xf32> {attncc.dims = ["batch", "heads_q", "seq_q"], attncc.role = "lse"}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c1_0 = arith.constant 1 : index
    scf.parallel (%b, %h, %i) = (%c0, %c0, %c0) to (%c2, %c4, %c2) step (%c1, %c1, %c1) {
      %0 = arith.addi %b, %c1 : index
      %1 = memref.load %cu_seqlens_q[%b] : memref<3xi32>
      %seq_q0 = arith.index_castui %1 : i32 to index
      %2 = memref.load %cu_seqlens_q[%0] : memref<3xi32>
      %seq_q1 = arith.index_castui %2 : i32 to index
      %len_q = arith.subi %seq_q1, %seq_q0 : index
      %3 = memref.load %cu_seqlens_k[%b] : memref<3xi32>
      %seq_k0 = arith.index_castui %3 : i32 to index
      %4 = memref.load %cu_seqlens_k[%0] : memref<3xi32>
      %seq_k1 = arith.index_castui %4 : i32 to index
      %len_k = arith.subi %seq_k1, %seq_k0 : index
      %k_seq = memref.subview %k[%seq_k0, 0] [%len_k, 64] [1, 1] : memref<?x64xf16> to memref<?x64xf16, strided<[64, 1], offset: ?>>
      %v_seq = memref.subview %v[%seq_k0, 0] [%len_k, 64] [1, 1] : memref<?x64xf16> to memref<?x64xf16, strided<[64, 1], offset: ?>>
      %len_k_minus_len_q = arith.subi %len_k, %len_q : index
      %q_seq = memref.subview %q[%seq_q0, 0] [%len_q, 128] [1, 1] : memref<?x128xf16> to memref<?x128xf16, strided<[128, 1], offset: ?>>
      %o_seq = memref.subview %o[%seq_q0, 0] [%len_q, 128] [1, 1] : memref<?x128xf16> to memref<?x128xf16, strided<[128, 1], offset: ?>>
      %lse_seq = memref.subview %lse[%b, 0, 0] [1, 4, %len_q] [1, 1, 1] : memref<2x4x2xf32> to memref<4x?xf32, strided<[2, 1], offset: ?>>
      %row_in_seq = arith.cmpi slt, %i, %len_q : index
      scf.if %row_in_seq {
        // expected-error @+1 {{PACK=gqa with varlen needs one query row a sequence (seq_q = 1), not 2}}
        %state:3 = monoid.reduce "kv" %c0 to %len_k carrier #carrier_mdo schedule #schedule : f32, f32, vector<32xf32> {
        ^bb0(%kv: index):
          %c2_1 = arith.constant 2 : index
          %hkv = arith.divui %h, %c2_1 : index
          %c32_2 = arith.constant 32 : index
          %q_col = arith.muli %h, %c32_2 : index
          %q_i = vector.load %q_seq[%i, %q_col] : memref<?x128xf16, strided<[128, 1], offset: ?>>, vector<32xf16>
          %c32_3 = arith.constant 32 : index
          %head_col = arith.muli %hkv, %c32_3 : index
          %k_j = vector.load %k_seq[%kv, %head_col] : memref<?x64xf16, strided<[64, 1], offset: ?>>, vector<32xf16>
          %qk = monoid.contract %q_i, %k_j : vector<32xf16>, vector<32xf16> -> f32
          %cst = arith.constant 0.176776692 : f32
          %s = arith.mulf %qk, %cst : f32
          %v_j = vector.load %v_seq[%kv, %head_col] : memref<?x64xf16, strided<[64, 1], offset: ?>>, vector<32xf16>
          %v_j_f32 = arith.extf %v_j : vector<32xf16> to vector<32xf32>
          %cst_4 = arith.constant 1.000000e+00 : f32
          monoid.yield %s, %cst_4, %v_j_f32 : f32, f32, vector<32xf32>
        }
        %result:2 = monoid.project %state#0, %state#1, %state#2 carrier #carrier_mdo : f32, f32, vector<32xf32> -> vector<32xf32>, f32 {
        ^bb0(%m: f32, %d: f32, %o_1: vector<32xf32>):
          %cst = arith.constant 0.000000e+00 : f32
          %7 = arith.cmpf oeq, %d, %cst : f32
          %cst_2 = arith.constant 1.000000e+00 : f32
          %inv_d = arith.divf %cst_2, %d : f32
          %8 = vector.broadcast %inv_d : f32 to vector<32xf32>
          %9 = arith.mulf %o_1, %8 : vector<32xf32>
          %cst_3 = arith.constant dense<0.000000e+00> : vector<32xf32>
          %out = arith.select %7, %cst_3, %9 : vector<32xf32>
          %10 = math.log %d : f32
          %lse_i = arith.addf %m, %10 : f32
          monoid.yield %out, %lse_i : vector<32xf32>, f32
        }
        %5 = arith.truncf %result#0 : vector<32xf32> to vector<32xf16>
        %c32 = arith.constant 32 : index
        %6 = arith.muli %h, %c32 : index
        vector.store %5, %o_seq[%i, %6] : memref<?x128xf16, strided<[128, 1], offset: ?>>, vector<32xf16>
        memref.store %result#1, %lse_seq[%h, %i] : memref<4x?xf32, strided<[2, 1], offset: ?>>
      } {attncc.row_guard}
      scf.reduce 
    }
    return
  }
