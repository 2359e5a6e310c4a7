// RUN: attncc-opt %s -split-input-file -attncc-atomize -verify-diagnostics | FileCheck %s
// RUN: attncc-opt %s -split-input-file -attncc-atomize -verify-diagnostics | FileCheck %s --check-prefix=COUNT

// The staged attention kernel of `attncc compile --shape 1,2,100,64
// --knobs TILE@kv=a:mma_m16n8k16_f16/w4x1/f1x8/k4,STAGE@kv=d1/cp/pad --ir tile`
// with the layouts taken off. 128 threads = 4 warps over a 64-row tile. Both
// contractions become m16n8k16 atoms; the Q tile is read as A fragments, the
// staged K and V blocks from shared memory, P feeds P*V from registers (c).

// CHECK-LABEL: gpu.func @staged
// CHECK-SAME:  kernel attributes {attncc.tile = {rows = 64 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>
// Layout-free values (splat constants, scalar broadcasts) get none.
// CHECK:       arith.constant dense<0.000000e+00> : vector<64xf32>
// CHECK:       %[[QT:.+]] = vector.transfer_read %{{.+}} {attncc.layout = #monoid.fragment<a>, in_bounds = [false, true]} : memref<1x2x100x64xf16>, vector<64x64xf16>
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    %[[KT:.+]] = vector.transfer_read %{{.+}} {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]}
// CHECK-NEXT:    %[[VT:.+]] = vector.transfer_read %{{.+}} {attncc.layout = #monoid.fragment<smem>, attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]}
// CHECK-NEXT:    %[[S:.+]] = vector.contract {{.+}} %[[QT]], %[[KT]], %{{.+}} {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
// CHECK-NEXT:    arith.mulf %[[S]], %{{.+}} {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32>
// CHECK-NEXT:    vector.step{{.*}} : vector<64xindex>
// CHECK-NEXT:    vector.broadcast %{{[^ ]+}} : index to vector<64xindex>
// The key indices of the block are columns of c.
// CHECK-NEXT:    arith.addi %{{.+}}, %{{.+}} {attncc.layout = #monoid.fragment<col>} : vector<64xindex>
// CHECK-NEXT:    arith.cmpi slt, %{{.+}}, %{{.+}} {attncc.layout = #monoid.fragment<col>} : vector<64xindex>
// CHECK-NEXT:    vector.broadcast %{{.+}} {attncc.layout = #monoid.fragment<c>} : vector<64xi1> to vector<64x64xi1>
// CHECK-NEXT:    arith.select %{{.+}} {attncc.layout = #monoid.fragment<c>} : vector<64x64xi1>, vector<64x64xf32>
// CHECK-NEXT:    vector.multi_reduction <maximumf>, %{{.+}}, %{{.+}} {attncc.layout = #monoid.fragment<row>} [1] : vector<64x64xf32> to vector<64xf32>
// CHECK:         vector.shape_cast %{{.+}} {attncc.layout = #monoid.fragment<row>} : vector<64xf32> to vector<64x1xf32>
// CHECK-NEXT:    vector.broadcast %{{.+}} {attncc.layout = #monoid.fragment<c>} : vector<64x1xf32> to vector<64x64xf32>
// CHECK:         vector.multi_reduction <add>, %{{.+}}, %{{.+}} {attncc.layout = #monoid.fragment<row>} [1] : vector<64x64xf32> to vector<64xf32>
// CHECK:         %[[P16:.+]] = arith.truncf %{{.+}} {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32> to vector<64x64xf16>
// CHECK-NEXT:    vector.contract {{.+}} %[[P16]], %[[VT]], %{{.+}} {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:  } {attncc.layouts = [#monoid.fragment<row>, #monoid.fragment<row>, #monoid.fragment<c>]}
// CHECK:       math.log %{{.+}} {attncc.layout = #monoid.fragment<row>} : vector<64xf32>
// CHECK:       arith.truncf %{{.+}} {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32> to vector<64x64xf16>
// CHECK-NEXT:  vector.transfer_write %{{.+}} {in_bounds = [false, true]} : vector<64x64xf16>, memref<1x2x100x64xf16>
// CHECK-NEXT:  vector.transfer_write %{{.+}} : vector<64xf32>, memref<1x2x100xf32>

// COUNT-LABEL:   gpu.func @staged
// COUNT-COUNT-2: attncc.atom = "mma.m16n8k16"
// COUNT-NOT:     attncc.atom
// COUNT:         gpu.return

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
module attributes {gpu.container_module} {
  gpu.module @attention_module {
    gpu.func @staged(%q: memref<1x2x100x64xf16>, %k: memref<1x2x100x64xf16>, %v: memref<1x2x100x64xf16>, %o: memref<1x2x100x64xf16>, %lse: memref<1x2x100xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %c100 = arith.constant 100 : index
      %cst = arith.constant dense<0.000000e+00> : vector<64xf32>
      %cst_0 = arith.constant dense<0xFF800000> : vector<64xf32>
      %cst_1 = arith.constant dense<0xFF800000> : vector<64x64xf32>
      %cst_2 = arith.constant dense<100> : vector<64xindex>
      %cst_3 = arith.constant dense<1.250000e-01> : vector<64x64xf32>
      %cst_4 = arith.constant dense<0.000000e+00> : vector<64x64xf32>
      %cst_5 = arith.constant 0.000000e+00 : f16
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c2 = arith.constant 2 : index
      %block_id_x = gpu.block_id  x
      %tile = arith.remui %block_id_x, %c2 : index
      %0 = arith.divui %block_id_x, %c2 : index
      %row0 = arith.muli %tile, %c64 : index
      %q_i = vector.transfer_read %q[%c0, %0, %row0, %c0], %cst_5 {in_bounds = [false, true]} : memref<1x2x100x64xf16>, vector<64x64xf16>
      %fold:3 = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%m = %cst_0, %d = %cst, %o_8 = %cst_4) -> (vector<64xf32>, vector<64xf32>, vector<64x64xf32>) {
        %k_j = vector.transfer_read %k[%c0, %0, %kv0, %c0], %cst_5 {attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]} : memref<1x2x100x64xf16>, vector<64x64xf16>
        %v_j = vector.transfer_read %v[%c0, %0, %kv0, %c0], %cst_5 {attncc.stage = #monoid.staged<cp, pad>, in_bounds = [false, true]} : memref<1x2x100x64xf16>, vector<64x64xf16>
        %qk = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %cst_4 : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        %s = arith.mulf %qk, %cst_3 : vector<64x64xf32>
        %7 = vector.step : vector<64xindex>
        %8 = vector.broadcast %kv0 : index to vector<64xindex>
        %kv = arith.addi %8, %7 : vector<64xindex>
        %9 = arith.cmpi slt, %kv, %cst_2 : vector<64xindex>
        %10 = vector.broadcast %9 : vector<64xi1> to vector<64x64xi1>
        %s_9 = arith.select %10, %s, %cst_1 : vector<64x64xi1>, vector<64x64xf32>
        %m_10 = vector.multi_reduction <maximumf>, %s_9, %m [1] : vector<64x64xf32> to vector<64xf32>
        %11 = arith.cmpf oeq, %m_10, %cst_0 : vector<64xf32>
        %m_safe = arith.select %11, %cst, %m_10 : vector<64xi1>, vector<64xf32>
        %12 = arith.subf %m, %m_safe : vector<64xf32>
        %alpha = math.exp %12 : vector<64xf32>
        %13 = vector.shape_cast %m_safe : vector<64xf32> to vector<64x1xf32>
        %14 = vector.broadcast %13 : vector<64x1xf32> to vector<64x64xf32>
        %15 = arith.subf %s_9, %14 : vector<64x64xf32>
        %p = math.exp %15 : vector<64x64xf32>
        %16 = arith.mulf %d, %alpha : vector<64xf32>
        %d_11 = vector.multi_reduction <add>, %p, %16 [1] : vector<64x64xf32> to vector<64xf32>
        %17 = vector.shape_cast %alpha : vector<64xf32> to vector<64x1xf32>
        %18 = vector.broadcast %17 : vector<64x1xf32> to vector<64x64xf32>
        %19 = arith.mulf %o_8, %18 : vector<64x64xf32>
        %20 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
        %o_12 = vector.contract {indexing_maps = [#map, #map3, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %20, %v_j, %19 : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        scf.yield %m_10, %d_11, %o_12 : vector<64xf32>, vector<64xf32>, vector<64x64xf32>
      }
      %1 = arith.cmpf oeq, %fold#1, %cst : vector<64xf32>
      %2 = vector.shape_cast %fold#1 : vector<64xf32> to vector<64x1xf32>
      %3 = vector.broadcast %2 : vector<64x1xf32> to vector<64x64xf32>
      %4 = arith.divf %fold#2, %3 : vector<64x64xf32>
      %out = vector.shape_cast %1 : vector<64xi1> to vector<64x1xi1>
      %out_6 = vector.broadcast %out : vector<64x1xi1> to vector<64x64xi1>
      %out_7 = arith.select %out_6, %cst_4, %4 : vector<64x64xi1>, vector<64x64xf32>
      %5 = math.log %fold#1 : vector<64xf32>
      %lse_i = arith.addf %fold#0, %5 : vector<64xf32>
      %6 = arith.truncf %out_7 : vector<64x64xf32> to vector<64x64xf16>
      vector.transfer_write %6, %o[%c0, %0, %row0, %c0] {in_bounds = [false, true]} : vector<64x64xf16>, memref<1x2x100x64xf16>
      vector.transfer_write %lse_i, %lse[%c0, %0, %row0] : vector<64xf32>, memref<1x2x100xf32>
      gpu.return
    }
  }
}

// -----

// Unstaged (TILE only): the K and V blocks are read straight into B
// fragments, K as [N x K] (b.nk) and V as [K x N] (b.kn).

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>

// CHECK-LABEL: gpu.func @unstaged
// CHECK-SAME:  kernel attributes {attncc.tile = {rows = 64 : i64, warps = 4 : i64}, known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK:       %[[QT:.+]] = vector.transfer_read %{{.+}} {attncc.layout = #monoid.fragment<a>, in_bounds = [false, true]}
// CHECK:       scf.for
// CHECK-NEXT:    %[[KT:.+]] = vector.transfer_read %{{.+}} {attncc.layout = #monoid.fragment<b.nk>, in_bounds = [false, true]}
// CHECK-NEXT:    %[[S:.+]] = vector.contract {{.+}} %[[QT]], %[[KT]], %{{.+}} {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>}
// CHECK-NEXT:    %[[M:.+]] = vector.multi_reduction <maximumf>, %[[S]], %{{.+}} {attncc.layout = #monoid.fragment<row>} [1]
// CHECK-NEXT:    vector.shape_cast %[[M]] {attncc.layout = #monoid.fragment<row>} : vector<64xf32> to vector<64x1xf32>
// CHECK-NEXT:    vector.broadcast %{{.+}} {attncc.layout = #monoid.fragment<c>} : vector<64x1xf32> to vector<64x64xf32>
// CHECK-NEXT:    arith.subf %{{.+}} {attncc.layout = #monoid.fragment<c>}
// CHECK-NEXT:    math.exp %{{.+}} {attncc.layout = #monoid.fragment<c>}
// CHECK-NEXT:    %[[P16:.+]] = arith.truncf %{{.+}} {attncc.layout = #monoid.fragment<c>}
// CHECK-NEXT:    %[[VT:.+]] = vector.transfer_read %{{.+}} {attncc.layout = #monoid.fragment<b.kn>, in_bounds = [false, true]}
// CHECK-NEXT:    vector.contract {{.+}} %[[P16]], %[[VT]], %{{.+}} {attncc.atom = "mma.m16n8k16", attncc.layout = #monoid.fragment<c>}
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:  } {attncc.layouts = [#monoid.fragment<row>, #monoid.fragment<c>]}

// COUNT-LABEL:   gpu.func @unstaged
// COUNT-COUNT-2: attncc.atom = "mma.m16n8k16"
// COUNT-NOT:     attncc.atom
// COUNT:         gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @unstaged(%q: memref<100x64xf16>, %k: memref<100x64xf16>, %v: memref<100x64xf16>, %o: memref<100x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c100 = arith.constant 100 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
      %fold:2 = scf.for %kv0 = %c0 to %c100 step %c64 iter_args(%m = %ninf, %acc = %zero) -> (vector<64xf32>, vector<64x64xf32>) {
        %k_j = vector.transfer_read %k[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
        %qk = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        %m1 = vector.multi_reduction <maximumf>, %qk, %m [1] : vector<64x64xf32> to vector<64xf32>
        %mc = vector.shape_cast %m1 : vector<64xf32> to vector<64x1xf32>
        %mb = vector.broadcast %mc : vector<64x1xf32> to vector<64x64xf32>
        %sub = arith.subf %qk, %mb : vector<64x64xf32>
        %p = math.exp %sub : vector<64x64xf32>
        %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
        %v_j = vector.transfer_read %v[%kv0, %c0], %pad {in_bounds = [false, true]} : memref<100x64xf16>, vector<64x64xf16>
        %o1 = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p16, %v_j, %acc : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        scf.yield %m1, %o1 : vector<64xf32>, vector<64x64xf32>
      }
      vector.transfer_write %fold#1, %o[%c0, %c0] {in_bounds = [false, true]} : vector<64x64xf32>, memref<100x64xf32>
      gpu.return
    }
  }
}

// -----

// A kernel without contractions is left alone.

// CHECK-LABEL: gpu.func @scalar
// CHECK-NOT:   attncc.tile
// CHECK-NOT:   attncc.layout
// CHECK:       gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @scalar(%x: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %r = vector.transfer_read %x[%c0], %pad : memref<64xf32>, vector<64xf32>
      %e = math.exp %r : vector<64xf32>
      vector.transfer_write %e, %x[%c0] : vector<64xf32>, memref<64xf32>
      gpu.return
    }
  }
}

// -----

// 96 threads are 3 warps: 64 rows are not a multiple of 3 x 16.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @three_warps(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      // expected-error@+1 {{'vector.contract' op attncc-atomize: a 64x64x64 contraction over 3 warps does not divide into m16n8k16 atoms (rows a multiple of 48, columns of 8, depth of 16)}}
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// A depth that is not a multiple of 16.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @depth8(%q: memref<64x8xf16>, %k: memref<64x8xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x8xf16>, vector<64x8xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad : memref<64x8xf16>, vector<64x8xf16>
      // expected-error@+1 {{'vector.contract' op attncc-atomize: a 64x64x8 contraction over 4 warps does not divide into m16n8k16 atoms (rows a multiple of 64, columns of 8, depth of 16)}}
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x8xf16>, vector<64x8xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// f32 operands have no m16n8k16 atom.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f32(%q: memref<64x64xf32>, %k: memref<64x64xf32>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf32>, vector<64x64xf32>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad : memref<64x64xf32>, vector<64x64xf32>
      // expected-error@+1 {{'vector.contract' op attncc-atomize: the mma.sync atom contracts f16 or bf16 into f32 tiles}}
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf32>, vector<64x64xf32> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// Without known_block_size the warps are unknown.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error@+1 {{'gpu.func' op attncc-atomize needs known_block_size}}
    gpu.func @no_block(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %o: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// One read used as the A operand of one contraction and the B operand of
// another needs two layouts.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two_layouts(%q: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      // expected-error@+1 {{'vector.contract' op attncc-atomize: a value needs two layouts, 'a' and 'b.nk'}}
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %q_i, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// A CTA-wide vector that reaches no contraction, reduction or broadcast has
// no layout to take.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @orphan(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %x: memref<64x64xf32>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %padf = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      // expected-error@+1 {{'vector.transfer_read' op attncc-atomize: no layout for this CTA-wide vector (it feeds no contraction, reduction or broadcast)}}
      %x0 = vector.transfer_read %x[%c0, %c0], %padf : memref<64x64xf32>, vector<64x64xf32>
      %e = math.exp %x0 : vector<64x64xf32>
      vector.transfer_write %e, %x[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// REPACK=smem (attncc-handoff marked the second contraction): its left
// operand P is in C fragments, which the handoff needs (attncc-allocate-smem
// then gives it its slab).

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#v = affine_map<(i, j, d) -> (d, j)>
// CHECK-LABEL: gpu.func @handoff
// CHECK-SAME:  attncc.tile = {rows = 64 : i64, warps = 4 : i64}
// CHECK:       vector.contract {{.+}} {attncc.atom = "mma.m16n8k16", attncc.handoff = "smem", attncc.layout = #monoid.fragment<c>}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @handoff(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %vv: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %v_j = vector.transfer_read %vv[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %p = arith.truncf %s : vector<64x64xf32> to vector<64x64xf16>
      %pv = vector.contract {indexing_maps = [#a, #v, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v_j, %zero {attncc.handoff = "smem"} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %pv, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// A handoff mark on a contraction whose left operand is read from memory
// (layout a, not C fragments) is refused.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @handoff_read(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      // expected-error@+1 {{'vector.contract' op attncc-atomize: REPACK=smem hands over a left operand held in C fragments to mma.sync; this one is 'a'}}
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero {attncc.handoff = "smem"} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}
