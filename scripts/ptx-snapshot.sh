#!/usr/bin/env bash
# PTX of every kernel of bench lists with the current build (NVRTC, no GPU
# needed): OUT/<name>.ptx, and ptxas's resource line in OUT/<name>.log
# (scripts/make-bundles.sh with PTX=1). Two snapshots taken before and after
# an emitter change show which kernels it changes:
#   scripts/ptx-snapshot.sh /tmp/ptx-old        # on the old commit
#   scripts/ptx-snapshot.sh /tmp/ptx-new        # on the new one
#   diff -rq /tmp/ptx-old /tmp/ptx-new
# A change whose PTX is byte-identical cannot change what runs on the GPU.
# Default lists: the ladder, the defaults and every tensor-core sweep.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: ptx-snapshot.sh OUT_DIR [LIST...]}
shift
lists=("$@")
[ ${#lists[@]} -gt 0 ] || lists=(bench/ladder.txt bench/perf-default.txt bench/perf-extra.txt bench/sweep-tc.txt \
  bench/sweep-tma.txt bench/sweep-wspec.txt bench/sweep-x4.txt bench/sweep-moves.txt bench/sweep-f16x.txt \
  bench/perf-sm120.txt bench/sweep-tma-mma.txt bench/sweep-wgmma.txt \
  bench/sweep-tcgen05.txt bench/ladder-tcgen05.txt bench/perf-b200.txt \
  bench/sweep-lazy.txt bench/sweep-poly.txt bench/sweep-tcgen05-ws.txt bench/perf-lazy-poly.txt bench/sweep-mma-swz.txt \
  bench/sweep-paged.txt bench/sweep-varlen.txt)
mkdir -p "$out"
cd "$root"
n=$(PTX=1 OUT="$out" bash scripts/make-bundles.sh "${lists[@]}" | wc -l)
echo "ptx-snapshot: $n kernels in $out"
