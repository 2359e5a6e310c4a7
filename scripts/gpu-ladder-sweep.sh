#!/usr/bin/env bash
# Runs on the GPU host: every bundle of $LIST (default bench/ladder-sweep.txt,
# the ladder rungs with symbolic batch and lengths) checked at the
# TESTING.md lengths against the float64 CPU reference: equal lengths
# 1, 17, 97, 128, 257, 1025, unequal (113, 203), (1, 339), (3, 1024),
# (512, 256), batch 2 on two of them. Each check: fresh random inputs,
# poisoned output, repeated for bitwise equality. Results in sweep.jsonl.
set -uo pipefail
source "$(dirname "$0")/gpu-build-runner.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
LIST=${LIST:-bench/ladder-sweep.txt}
points="1:1:1 1:17:17 2:97:97 1:128:128 1:257:257 1:1025:1025 2:113:203 1:1:339 1:3:1024 1:512:256"
t0=$(date +%s)
for b in $(grep -v '^#' "$LIST" | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d'); do
  for p in $points; do
    IFS=: read -r nb sq sk <<< "$p"
    timeout 60 $R --json "$out/sweep.jsonl" --set batch=$nb --set seq_q=$sq --set seq_k=$sk \
      "build-bundles/$b" > /tmp/ls.log 2>&1 || { echo "$b $p: FAILED"; tail -3 /tmp/ls.log; }
  done
  echo "[$(( $(date +%s) - t0 )) s] $b"
done
python3 - "$out/sweep.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
bad = [r for r in rows if not r.get("ok") or not r.get("deterministic")]
print(f"ladder sweep: {len(rows) - len(bad)} ok, {len(bad)} not ok")
for r in bad:
    print("  NOT OK", r.get("bundle"), r.get("shape"), r.get("max_err"), r.get("err_bound"), r.get("error", ""))
PY
