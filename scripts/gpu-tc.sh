#!/usr/bin/env bash
# Runs on the GPU host (see gpu-check.sh for what must be carried along).
# The tensor-core rungs (issue 4):
#   1. the correctness sweep bench/sweep-tc.txt (symbolic bundles at 2 sizes);
#   2. every ladder rung (bench/ladder.txt) checked at [1,8,1024,64], then
#      timed at [1,8,4096,64] beside PyTorch's backends (anchors.py);
#   3. compute-sanitizer memcheck and racecheck on staged kernels.
# Writes JSON lines to $OUT (or ./gpu-out) and prints a short table last.
set -uo pipefail
source "$(dirname "$0")/gpu-build-runner.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
names() { grep -v '^#' "$1" | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|'; }

echo "== 1. correctness sweep (tensor-core rungs)"
# shellcheck disable=SC2046
$R --json "$out/sweep.jsonl" $(names bench/sweep-tc.txt) | tail -1
$R --json "$out/sweep.jsonl" --set batch=2 --set seq_q=300 --set seq_k=77 build-bundles/tc-sym | tail -1
$R --json "$out/sweep.jsonl" --set batch=1 --set seq_q=1 --set seq_k=1000 build-bundles/tc-sym | tail -1

echo "== 2. ladder: check at 1024, time at 4096"
for b in $(names bench/ladder.txt); do
  $R --json "$out/sweep.jsonl" --set seq_q=1024 --set seq_k=1024 "$b" | tail -1
  $R --no-check --bench "${BENCH:-20}" --json "$out/perf.jsonl" "$b" | head -1
done
python3 build-bench/anchors.py --shape 1,8,8,4096,4096,64 --dtype f16 > "$out/anchors.jsonl" 2> "$out/anchors.err"
cat "$out/anchors.jsonl"

echo "== 3. compute-sanitizer"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in tc-len97-c tc-113x203-c tc-bias; do
  "$san" --tool memcheck --error-exitcode 3 $R --no-check "build-bundles/$b" > "$out/memcheck-$b.log" 2>&1
  echo "memcheck $b: exit $?  $(grep -E 'ERROR SUMMARY' "$out/memcheck-$b.log")"
done
for b in tc-len97-c tc-203x113-c; do
  "$san" --tool racecheck --error-exitcode 3 $R --no-check "build-bundles/$b" > "$out/racecheck-$b.log" 2>&1
  echo "racecheck $b: exit $?  $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck-$b.log")"
done

echo "== table"
python3 - "$out" <<'PY'
import json, sys, os
d = sys.argv[1]
rows = [json.loads(l) for l in open(os.path.join(d, "sweep.jsonl"))]
bad = [r for r in rows if not r.get("ok")]
print(f"sweep: {len(rows) - len(bad)} ok, {len(bad)} not ok")
for r in bad:
    print("  NOT OK", os.path.basename(r.get("bundle", "")), r.get("shape"), r.get("error", ""), r.get("max_err"), r.get("err_bound"))
for r in rows:
    if r.get("checked") and r.get("ok"):
        print(f"  {os.path.basename(r['bundle']):16s} {r['shape']:26s} err {r['max_err']:.2e} <= {r['err_bound']:.2e} det={r['deterministic']}")
anc = [json.loads(l) for l in open(os.path.join(d, "anchors.jsonl"))] if os.path.getsize(os.path.join(d, "anchors.jsonl")) else [{}]
a = anc[0]
print(f"anchors: flash {a.get('flash_us')} us, cudnn {a.get('cudnn_us')} us, flex {a.get('flex_us')} us")
for p in [json.loads(l) for l in open(os.path.join(d, "perf.jsonl"))]:
    us = p.get('median_us', 0)
    sp = a.get('flash_us', 0) / us if us and a.get('flash_us') else 0
    print(f"  {os.path.basename(p['bundle']):12s} {us:9.1f} us {p.get('tflops', 0):7.1f} TFLOP/s  x{sp:.2f} flash  regs {p.get('registers')} spills {p.get('spill_stores')}")
PY
cd "$out" && tar czf gpu-out.tgz --exclude gpu-out.tgz . 2>/dev/null; ls "$out" | head -3
