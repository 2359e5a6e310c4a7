#!/usr/bin/env bash
# Compiles every line of bench lists through NVRTC/ptxas (no GPU:
# scripts/make-bundles.sh with PTX=1) and checks that no kernel spills.
#   scripts/check-spills.sh OUT_DIR LIST...     (TARGET=sm_90a unless a line names one)
# Prints each kernel's resource line, then "check-spills: N kernels of M
# lines, 0 B spill stores and loads in every one", or the kernels that spill;
# exits non-zero on a spill or a line that does not compile. lit runs it on
# bench/ladder.txt (tests/lit/cli/ladder-spills.test).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: check-spills.sh OUT_DIR LIST...}
shift
mkdir -p "$out"
lines=$(PTX=1 OUT="$out" bash "$root/scripts/make-bundles.sh" "$@" | wc -l)
kernels=0 spilled=0
for log in "$out"/*.log; do
  name=$(basename "$log" .log)
  while read -r line; do
    echo "$name: ${line#attncc: }"
    case "$line" in
      *" registers, "*) kernels=$((kernels + 1)) ;;
      *) continue ;; # a ptxas message on the kernel (C7517: warpgroup.wait injected), shown, not a resource line
    esac
    case "$line" in
      *" 0 B spill stores, 0 B spill loads"*) ;;
      *) spilled=$((spilled + 1)); echo "check-spills: $name SPILLS" ;;
    esac
  done < <(grep -E '^attncc: [a-z_0-9]+ \(sm_[0-9a-z]+\): ' "$log")
done
[ "$kernels" -gt 0 ] || { echo "check-spills: no kernel compiled"; exit 1; }
if [ "$spilled" = 0 ]; then
  echo "check-spills: $kernels kernels of $lines lines, 0 B spill stores and loads in every one"
else
  echo "check-spills: $spilled of $kernels kernels spill"
  exit 1
fi
