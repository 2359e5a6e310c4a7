// RUN: attncc-opt %s -split-input-file -attncc-place-waits -verify-diagnostics | FileCheck %s

// d1/cp: K and V copied at the top of each fold iteration, one barrier before
// the run of copies (every warp is done with the previous blocks), one
// commit group per copy. Q*K^T waits for K with V still in flight (1), P*V
// for V (0). Nothing is left pending after the loop.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
#bt = affine_map<(i, j, d) -> (d, j)>
// CHECK-LABEL: gpu.func @cp_d1
// CHECK:       scf.for
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.transfer_read {{.*}}attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>
// CHECK-NEXT:    nvvm.cp.async.commit.group
// CHECK-NEXT:    vector.transfer_read {{.*}}attncc.smem_offset = 9216 : i64, attncc.stage = #monoid.staged<cp, pad>
// CHECK-NEXT:    nvvm.cp.async.commit.group
// CHECK-NEXT:    nvvm.cp.async.wait.group 1
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.contract
// CHECK-NEXT:    arith.truncf
// CHECK-NEXT:    nvvm.cp.async.wait.group 0
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.contract
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  vector.transfer_write
// CHECK-NOT:   nvvm.
// CHECK-NOT:   fence.proxy
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @cp_d1(%q: vector<64x64xf16>, %k: memref<256x64xf16>, %v: memref<256x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<64x64xf32>
      %o = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
        %k_j = vector.transfer_read %k[%j, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>} : memref<256x64xf16>, vector<64x64xf16>
        %v_j = vector.transfer_read %v[%j, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 9216 : i64, attncc.stage = #monoid.staged<cp, pad>} : memref<256x64xf16>, vector<64x64xf16>
        %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_j, %zero {attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        %p = arith.truncf %s {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32> to vector<64x64xf16>
        %o2 = vector.contract {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v_j, %acc {attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        scf.yield %o2 : vector<64x64xf32>
      } {attncc.layouts = [#monoid.fragment<c>]}
      vector.transfer_write %o, %out[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// d2/ring: the first block is copied before the fold and carried in; the
// prefetch at the top of each iteration first waits for every copy in
// flight (the carried block, 0) so that one barrier says both "it landed"
// and "every warp is done with the slot the prefetch refills". The reader of
// the carried block needs no wait of its own. The last prefetch is never
// read: the loop is followed by a wait for it. A sync (not cp) block has a
// barrier but no commit and no cp.async wait.

// CHECK-LABEL: gpu.func @ring
// CHECK:       gpu.barrier
// CHECK-NEXT:  vector.transfer_read {{.*}}attncc.ring = 0
// CHECK-NEXT:  nvvm.cp.async.commit.group
// CHECK:       scf.for
// CHECK-NEXT:    nvvm.cp.async.wait.group 0
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.transfer_read {{.*}}attncc.ring = 0
// CHECK-NEXT:    nvvm.cp.async.commit.group
// CHECK-NEXT:    vector.contract
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.cp.async.wait.group 0
// CHECK-LABEL: gpu.func @sync
// CHECK:       gpu.barrier
// CHECK-NEXT:  vector.transfer_read {{.*}}attncc.stage = #monoid.staged<sync>
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  vector.contract
// CHECK-NOT:   nvvm.cp.async
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @ring(%q: vector<64x64xf16>, %k: memref<256x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 18432 : i64, warps = 4 : i64}} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<64x64xf32>
      %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>} : memref<256x64xf16>, vector<64x64xf16>
      %o:2 = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc = %zero, %kc = %k0) -> (vector<64x64xf32>, vector<64x64xf16>) {
        %k_n = vector.transfer_read %k[%j, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, pad>} : memref<256x64xf16>, vector<64x64xf16>
        %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %kc, %acc {attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        scf.yield %s, %k_n : vector<64x64xf32>, vector<64x64xf16>
      } {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<smem>]}
      vector.transfer_write %o#0, %out[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
    gpu.func @sync(%q: vector<64x64xf16>, %k: memref<64x64xf16>, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {rows = 64 : i64, smem = 9216 : i64, warps = 4 : i64}} {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<64x64xf32>
      %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<sync>} : memref<64x64xf16>, vector<64x64xf16>
      %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k0, %zero {attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      vector.transfer_write %s, %out[%c0, %c0] : vector<64x64xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}

// -----

// wgmma: each product is one group, waited for at its first reader with the
// later groups left in flight (Q*K^T: 1 while P*V runs), then its
// accumulators are fenced (nvvm.inline_ptx "" with them as read-write
// operands). Waiting for P*V completes Q*K^T too: both are fenced. A
// staged block read by wgmma is fenced for the async proxy before its
// barrier. Under WSPEC (producers = 1) the barrier is named (id 15) and
// counts the 256 consumer threads only. A Q block staged before the loop and
// not carried into it is waited for once, before the loop. Every group is
// waited for before an op with regions and at the end of the kernel.

// CHECK-LABEL: gpu.func @wgmma
// CHECK:       nvvm.barrier id
// CHECK-NEXT:  vector.transfer_read {{.*}}attncc.stage = #monoid.staged<cp, swz>
// CHECK-NEXT:  nvvm.cp.async.commit.group
// CHECK-NEXT:  nvvm.cp.async.wait.group 0
// CHECK-NEXT:  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:  %[[ID:.+]] = arith.constant 15 : i32
// CHECK-NEXT:  %[[N:.+]] = arith.constant 256 : i32
// CHECK-NEXT:  nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    %[[S:.+]] = vector.contract {{.*}}attncc.atom = "wgmma.m64n64k16"
// CHECK-NEXT:    %[[O:.+]] = vector.contract {{.*}}attncc.atom = "wgmma.m64n64k16"
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT:    nvvm.inline_ptx "" rw(%[[S]] : vector<64x64xf32>)
// CHECK-NEXT:    arith.negf %[[S]]
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.inline_ptx "" rw(%[[O]] : vector<64x64xf32>)
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    scf.yield
// CHECK:       %[[L:.+]] = vector.contract {{.*}}attncc.atom = "wgmma.m64n64k16"
// CHECK-NEXT:  %[[L2:.+]] = vector.contract {{.*}}attncc.atom = "wgmma.m64n64k16"
// CHECK-NEXT:  nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:  nvvm.inline_ptx "" rw(%[[L]], %[[L2]] : vector<64x64xf32>, vector<64x64xf32>)
// CHECK-NEXT:  scf.if
// CHECK:       } else {
// CHECK-NEXT:    %[[B:.+]] = vector.contract {{.*}}attncc.atom = "wgmma.m64n64k16"
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.inline_ptx "" rw(%[[B]] : vector<64x64xf32>)
// CHECK-NEXT:    scf.yield %[[B]]
// CHECK:       %[[E:.+]] = vector.contract {{.*}}attncc.atom = "wgmma.m64n64k16"
// CHECK-NEXT:  nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:  nvvm.inline_ptx "" rw(%[[E]] : vector<64x64xf32>)
// CHECK-NEXT:  gpu.return
#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma(%qm: memref<64x64xf16>, %kb: vector<64x64xf16>, %p: vector<64x64xf16>, %flag: i1, %out: memref<64x64xf32>) kernel attributes {attncc.tile = {producers = 1 : i64, rows = 128 : i64, smem = 9216 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<64x64xf32>
      %q = vector.transfer_read %qm[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<cp, swz>} : memref<64x64xf16>, vector<64x64xf16>
      %o = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
        %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %kb, %zero {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        %o2 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %kb, %acc {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        %n = arith.negf %s {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32>
        %sum = arith.addf %n, %o2 {attncc.layout = #monoid.fragment<c>} : vector<64x64xf32>
        scf.yield %sum : vector<64x64xf32>
      } {attncc.layouts = [#monoid.fragment<c>]}
      %l = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %kb, %o {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %l2 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %kb, %o {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      %r = scf.if %flag -> (vector<64x64xf32>) {
        scf.yield %l2 : vector<64x64xf32>
      } else {
        %bb = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %kb, %l2 {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
        scf.yield %bb : vector<64x64xf32>
      }
      %e = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %kb, %r {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<64x64xf16>, vector<64x64xf16> into vector<64x64xf32>
      gpu.return
    }
  }
}

// -----

// TMA blocks: each is waited for (monoid.tma_wait, its "full" mbarrier)
// before its first reader. A block's slot goes back to the producer
// (monoid.tma_release) right after the wgmma wait that completes its last
// reader in the iteration, here the previous K block (%k_prev) after the
// wait that completes the second Q*K^T, and V (d1, read in the body) after
// P*V's at the end of the iteration. %k_cur is passed on (it becomes the
// next %k_prev), so it is not released, and %k_prev is released unless it is
// %k_cur at run time (the first iteration carries block 0 in both).

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
// CHECK-LABEL: gpu.func @tma
// CHECK:       scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}, %[[KC:.+]] = %{{.+}}, %[[KP:.+]] = %{{.+}})
// CHECK-NEXT:    %[[KN:.+]] = vector.transfer_read
// CHECK-NEXT:    %[[V:.+]] = vector.transfer_read
// CHECK-NEXT:    monoid.tma_wait %[[KC]] : vector<64x64xf16>
// CHECK-NEXT:    %[[S:.+]] = vector.contract
// CHECK-NEXT:    monoid.tma_wait %[[KP]] : vector<64x64xf16>
// CHECK-NEXT:    %[[S2:.+]] = vector.contract
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT:    nvvm.inline_ptx "" rw(%[[S]] : vector<128x64xf32>)
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.inline_ptx "" rw(%[[S2]] : vector<128x64xf32>)
// CHECK-NEXT:    monoid.tma_release %[[KP]] unless %[[KC]] : vector<64x64xf16>, vector<64x64xf16>
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    monoid.tma_wait %[[V]] : vector<64x64xf16>
// CHECK-NEXT:    %[[O:.+]] = vector.contract
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.inline_ptx "" rw(%[[O]] : vector<128x64xf32>)
// CHECK-NEXT:    monoid.tma_release %[[V]] : vector<64x64xf16>
// CHECK-NEXT:    scf.yield %[[O]], %[[KN]], %[[KC]]
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tma(%q: vector<128x64xf16>, %p: vector<128x64xf16>, %k: memref<256x64xf16>, %v: memref<256x64xf16>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 50176 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<128x64xf32>
      %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 3 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
      %o:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc = %zero, %k_cur = %k0, %k_prev = %k0) -> (vector<128x64xf32>, vector<64x64xf16>, vector<64x64xf16>) {
        %k_n = vector.transfer_read %k[%j, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 3 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
        %v_j = vector.transfer_read %v[%j, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.smem_offset = 25600 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
        %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_cur, %zero {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
        %s2 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %k_prev, %zero {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
        %sum = arith.addf %s, %s2 {attncc.layout = #monoid.fragment<c>} : vector<128x64xf32>
        %o2 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %v_j, %acc {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
        scf.yield %o2, %k_n, %k_cur : vector<128x64xf32>, vector<64x64xf16>, vector<64x64xf16>
      } {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<smem>, #monoid.fragment<smem>]}
      gpu.return
    }
  }
}

// -----

// GRID=persistent's tile loop (attncc.tile_loop) is not a fold: the first
// block it reads goes to the fold, which waits for and releases it; the
// tile loop's own iteration releases nothing.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
// CHECK-LABEL: gpu.func @tma_tiles
// CHECK:       scf.for
// CHECK:         %[[K0:.+]] = vector.transfer_read
// CHECK:         scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}, %[[KB:.+]] = %[[K0]])
// CHECK:           monoid.tma_wait %[[KB]] : vector<64x64xf16>
// CHECK:           monoid.tma_release %[[KB]] : vector<64x64xf16>
// CHECK:           scf.yield
// CHECK-NOT:     monoid.tma_release
// CHECK:       } {attncc.tile_loop}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tma_tiles(%q: vector<128x64xf16>, %k: memref<256x64xf16>) kernel attributes {attncc.persistent, attncc.tile = {rows = 128 : i64, smem = 25600 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<128x64xf32>
      scf.for %t = %c0 to %c4 step %c1 {
        %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
        %o:2 = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc = %zero, %kb = %k0) -> (vector<128x64xf32>, vector<64x64xf16>) {
          %n = arith.addi %j, %c64 : index
          %kn = vector.transfer_read %k[%n, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
          %s = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %q, %kb, %acc {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
          scf.yield %s, %kn : vector<128x64xf32>, vector<64x64xf16>
        } {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<smem>]}
      } {attncc.tile_loop}
      gpu.return
    }
  }
}

// -----

// GRID=persistent with a block a fold carries out and an op after the fold
// reads (OVERLAP=pv's last P*V): the fold's wait count runs one ahead, so its
// ring keeps the prefetch past the end (its reads are marked
// attncc.ring_tail, which attncc-lower-copies does not guard), and the tile
// loop's iteration gives both blocks the fold carried out back: the one read
// after the fold once its product is done, the other unless it is the same.

#a = affine_map<(i, j, d) -> (i, d)>
#b = affine_map<(i, j, d) -> (j, d)>
#c = affine_map<(i, j, d) -> (i, j)>
// CHECK-LABEL: gpu.func @tma_tail
// CHECK:       scf.for
// CHECK:         vector.transfer_read {{.+}}attncc.ring_tail
// CHECK:         %[[F:.+]]:3 = scf.for
// CHECK:           vector.transfer_read {{.+}}attncc.ring_tail
// CHECK:         } {attncc.layouts
// CHECK-NEXT:    monoid.tma_wait %[[F]]#2 : vector<64x64xf16>
// CHECK-NEXT:    %[[O:.+]] = vector.contract
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.inline_ptx "" rw(%[[O]] : vector<128x64xf32>)
// CHECK-NEXT:    monoid.tma_release %[[F]]#2 : vector<64x64xf16>
// CHECK-NEXT:    monoid.tma_release %[[F]]#1 unless %[[F]]#2 : vector<64x64xf16>, vector<64x64xf16>
// CHECK-NEXT:  } {attncc.tile_loop}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tma_tail(%p: vector<128x64xf16>, %v: memref<256x64xf16>) kernel attributes {attncc.persistent, attncc.tile = {rows = 128 : i64, smem = 25600 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant {attncc.layout = #monoid.fragment<c>} dense<0.0> : vector<128x64xf32>
      scf.for %t = %c0 to %c4 step %c1 {
        %v0 = vector.transfer_read %v[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 3 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
        %r:3 = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc = %zero, %vb = %v0, %vp = %v0) -> (vector<128x64xf32>, vector<64x64xf16>, vector<64x64xf16>) {
          %n = arith.addi %j, %c64 : index
          %vn = vector.transfer_read %v[%n, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 3 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
          %o = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %vp, %acc {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
          scf.yield %o, %vn, %vb : vector<128x64xf32>, vector<64x64xf16>, vector<64x64xf16>
        } {attncc.layouts = [#monoid.fragment<c>, #monoid.fragment<smem>, #monoid.fragment<smem>]}
        %last = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p, %r#2, %r#0 {attncc.atom = "wgmma.m64n64k16", attncc.layout = #monoid.fragment<c>} : vector<128x64xf16>, vector<64x64xf16> into vector<128x64xf32>
      } {attncc.tile_loop}
      gpu.return
    }
  }
}

// -----

// Refused: a block the iteration would release (carried in, not passed on)
// that nothing read, so no thread waited for it.

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @unread(%k: memref<256x64xf16>) kernel attributes {attncc.tile = {rows = 128 : i64, smem = 25600 : i64, warps = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %k0 = vector.transfer_read %k[%c0, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
      // expected-error@+1 {{attncc-place-waits: a TMA block is released before it is read}}
      %r = scf.for %j = %c0 to %c256 step %c64 iter_args(%k_cur = %k0) -> (vector<64x64xf16>) {
        %k_n = vector.transfer_read %k[%j, %c0], %pad {attncc.layout = #monoid.fragment<smem>, attncc.ring = 0 : i64, attncc.ring_slots = 2 : i64, attncc.smem_offset = 0 : i64, attncc.stage = #monoid.staged<tma, swz>} : memref<256x64xf16>, vector<64x64xf16>
        scf.yield %k_n : vector<64x64xf16>
      } {attncc.layouts = [#monoid.fragment<smem>]}
      gpu.return
    }
  }
}
