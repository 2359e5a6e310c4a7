// RUN: attncc-opt %s -split-input-file -attncc-atomize -verify-diagnostics

// The refusals of attncc-atomize that atomize.mlir does not cover.

// known_block_size 100 x 1 x 1: a kernel with a contraction runs on whole
// warps (the atoms are warp-wide), and 100 threads are 3 warps and 4 lanes.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error@+1 {{'gpu.func' op attncc-atomize: 100 threads is not whole warps}}
    gpu.func @partial_warp(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 100, 1, 1>} {
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

// A wgmma contraction (attncc.family = "wgmma", one warpgroup, 64 rows)
// whose right operand K is read straight from global memory: wgmma takes B
// only through a shared-memory descriptor of a 128-byte swizzled block.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_rhs_unstaged(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      // expected-error@+1 {{'vector.contract' op attncc-atomize: wgmma reads its right operand from shared memory in the 128-byte swizzled layout; stage it (STAGE@<axis>=.../swz128)}}
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero {attncc.family = "wgmma"} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// The same with K staged, but padded ("cp.pad") rather than swizzled: shared
// memory, yet not the layout a wgmma descriptor describes.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_rhs_padded(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad : memref<64x64xf16>, vector<64x64xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.stage = #monoid.staged<cp, pad>} : memref<64x64xf16>, vector<64x64xf16>
      // expected-error@+1 {{'vector.contract' op attncc-atomize: wgmma reads its right operand from shared memory in the 128-byte swizzled layout; stage it (STAGE@<axis>=.../swz128)}}
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero {attncc.family = "wgmma"} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// K is staged swizzled ("cp.swz"), but the left operand Q is staged padded
// ("cp.pad", STAGE@q=d1/cp/pad): wgmma reads a left operand either from
// registers or from a swizzled block, never from a padded one.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_lhs_padded(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %q_i = vector.transfer_read %q[%c0, %c0], %pad {attncc.stage = #monoid.staged<cp, pad>} : memref<64x64xf16>, vector<64x64xf16>
      %k_j = vector.transfer_read %k[%c0, %c0], %pad {attncc.stage = #monoid.staged<cp, swz>} : memref<64x64xf16>, vector<64x64xf16>
      // expected-error@+1 {{'vector.contract' op attncc-atomize: wgmma reads a staged left operand only in the 128-byte swizzled layout (swz128)}}
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q_i, %k_j, %zero {attncc.family = "wgmma"} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %o[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// attncc.warp_roles (WSPEC's warps that own no rows, from attncc-partition)
// that take every warp of the CTA: none is left to hold the rows.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error@+1 {{'gpu.func' op attncc-atomize: attncc.warp_roles leaves no warps to own rows}}
    gpu.func @roles_take_all(%q: memref<64x64xf16>, %k: memref<64x64xf16>, %o: memref<64x64xf32>) kernel attributes {attncc.warp_roles = {load = 4 : i64}, known_block_size = array<i32: 128, 1, 1>} {
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
