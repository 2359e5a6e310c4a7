#!/usr/bin/env bash
# Compiles every line of bench lists ("name | attncc flags") to PTX with the
# current build (NVRTC, no GPU needed) into OUT/<name>.ptx, and ptxas's
# resource line into OUT/<name>.log. Two snapshots taken before and after an
# emitter change show which kernels it changes:
#   scripts/ptx-snapshot.sh /tmp/ptx-old        # on the old commit
#   scripts/ptx-snapshot.sh /tmp/ptx-new        # on the new one
#   diff -rq /tmp/ptx-old /tmp/ptx-new
# A change whose PTX is byte-identical cannot change what runs on the GPU.
# Default lists: the ladder, the defaults and every tensor-core sweep.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
attncc=${ATTNCC:-$root/build/tools/attncc/attncc}
out=${1:?usage: ptx-snapshot.sh OUT_DIR [LIST...]}
shift
lists=("$@")
[ ${#lists[@]} -gt 0 ] || lists=(bench/ladder.txt bench/perf-default.txt bench/perf-extra.txt bench/sweep-tc.txt \
  bench/sweep-tma.txt bench/sweep-wspec.txt bench/sweep-x4.txt bench/sweep-moves.txt bench/sweep-f16x.txt)
mkdir -p "$out"
cd "$root"
n=0
for list in "${lists[@]}"; do
  while IFS='|' read -r name flags; do
    case "$name" in ''|'#'*) continue ;; esac
    name=${name//[[:space:]]/}
    set -f
    args=($flags)
    set +f
    target=sm_90a
    for a in "${args[@]}"; do [ "$a" = "--target" ] && target=; done
    if [ -n "$target" ]; then args+=(--target "$target"); fi
    "$attncc" compile --ir ptx "${args[@]}" -o "$out/$name.ptx" 2> "$out/$name.log"
    n=$((n + 1))
  done < "$list"
done
echo "ptx-snapshot: $n kernels in $out"
