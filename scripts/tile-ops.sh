#!/usr/bin/env bash
# For each line of bench lists ("name | attncc flags"), the ops of the
# tile IR (`attncc compile --ir tile`) that the GPU-shaping passes write,
# counted: one line per kernel, "name: op=N ...", ops that occur 0 times
# left out. lit cli/ladder-tile-ops.test pins the ladder's counts, so a pass
# that stops writing (or doubles) a wait, a barrier or a fence shows there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
attncc=${ATTNCC:-$root/build/tools/attncc/attncc}
ops=(gpu.dynamic_shared_memory memref.view memref.subview memref.alloca nvgpu.mbarrier.create nvgpu.mbarrier.init
     nvvm.fence.mbarrier.init nvgpu.device_async_copy vector.load vector.store nvgpu.tma.create.descriptor
     nvgpu.tma.async.load nvgpu.mbarrier.arrive.expect_tx nvgpu.mbarrier.try_wait.parity nvgpu.mbarrier.arrive
     nvvm.bar.warp.sync nvvm.cp.async.commit.group nvvm.cp.async.wait.group nvvm.fence.proxy gpu.barrier
     nvvm.barrier nvvm.wgmma.wait.group.sync.aligned 'nvvm.inline_ptx ""' nvvm.setmaxregister '{attncc.roles}'
     monoid.tma_wait monoid.tma_release nvgpu.ldmatrix nvgpu.mma.sync monoid.to_lanes monoid.from_lanes
     monoid.smem_descriptor monoid.wgmma nvvm.wgmma.fence.aligned nvvm.wgmma.commit.group.sync.aligned nvvm.barrier.arrive
     nvvm.tcgen05.alloc nvvm.tcgen05.dealloc nvvm.tcgen05.fence nvvm.tcgen05.st nvvm.tcgen05.ld nvvm.tcgen05.wait
     nvvm.tcgen05.mma nvvm.tcgen05.commit nvvm.mbarrier.init nvvm.mbarrier.try_wait.parity)
# shellcheck source=scripts/bench-list.sh
source "$root/scripts/bench-list.sh"
count() {
  local name=$1 ir line op re n a target=--target
  shift
  for a in "$@"; do [ "$a" = "--target" ] && target=; done # a line that names its target keeps it
  ir=$("$attncc" compile --ir tile ${target:+--target sm_90a} "$@")
  line="$name:"
  for op in "${ops[@]}"; do
    if [[ $op == "{"* ]]; then # an attribute: its dictionary entry
      n=$(grep -cF -- "$op" <<<"$ir" || true)
      op=${op//[\{\}]/}
    else # an op: its name, then a space or the end of the line
      re=${op//./\\.}
      n=$(grep -cE -- "(^|[ =])${re}( |\(|\$)" <<<"$ir" || true)
      op=${op%% *}
    fi
    [ "$n" = 0 ] || line+=" $op=$n"
  done
  echo "$line"
}
for list in "$@"; do
  for_each_line "$list" count
done
