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
