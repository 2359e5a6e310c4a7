#!/usr/bin/env bash
# Compiles every line of a bundle list (bench/*.txt: "name | attncc flags";
# a flag written '' is the empty string, as in --knobs '')
# into OUT/<name>/ (kernel.cu + contract.json). Default OUT: build-bundles/.
# With PTX=1, into OUT/<name>.ptx (NVRTC) and OUT/<name>.log (ptxas's
# resource line) instead (scripts/ptx-snapshot.sh). NO_EMULATE=1 drops
# --emulate from every line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
attncc=${ATTNCC:-$root/build/tools/attncc/attncc}
out=${OUT:-$root/build-bundles}
target_default=${TARGET:-sm_90a}
# shellcheck source=scripts/bench-list.sh
source "$root/scripts/bench-list.sh"
bundle() {
  local name=$1 target=$target_default a
  shift
  local -a args=("$@")
  for a in "${args[@]}"; do [ "$a" = "--target" ] && target=; done
  # NO_EMULATE=1: the real target's kernel of a line written with --emulate
  # (scripts/check-spills.sh on bench/sweep-tcgen05.txt: sm_100a's resources).
  if [ -n "${NO_EMULATE:-}" ]; then
    local -a kept=()
    for a in "${args[@]}"; do [ "$a" = "--emulate" ] || kept+=("$a"); done
    args=("${kept[@]}")
  fi
  if [ -n "$target" ]; then args+=(--target "$target"); fi
  if [ -n "${PTX:-}" ]; then
    "$attncc" compile --ir ptx "${args[@]}" -o "$out/$name.ptx" 2>"$out/$name.log" \
      || { echo "make-bundles: $name failed:"; cat "$out/$name.log"; exit 1; }
  else
    "$attncc" compile --ir loop "${args[@]}" --bundle "$out/$name" -o /dev/null 2>"$out.$name.log" \
      || { echo "make-bundles: $name failed:"; cat "$out.$name.log"; exit 1; }
    rm -f "$out.$name.log"
  fi
  echo "$name"
}
for list in "$@"; do
  for_each_line "$list" bundle
done
