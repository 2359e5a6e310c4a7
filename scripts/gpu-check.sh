#!/usr/bin/env bash
# Runs on the GPU host (CUDA, CMake, PyTorch; no MLIR, no network), from the
# repository root, with build-deps/ (scripts/gpu-deps.sh), build-bundles/
# (scripts/make-bundles.sh) and build-bench/anchors.py carried along.
# Builds attncc-runner from runtime/ alone, then:
#   1. the correctness sweep (every bundle of bench/sweep-scalar.txt),
#      symbolic bundles again at other sizes;
#   2. compute-sanitizer memcheck (and racecheck) on a representative set;
#   3. the scalar rung on the seed perf shape, timed, beside PyTorch's backends.
# Writes JSON lines to $OUT (or ./gpu-out) and prints a short table last.
set -uo pipefail
source "$(dirname "$0")/gpu-build-runner.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1

echo "== 1. correctness sweep"
sweep=$(grep -v '^#' bench/sweep-scalar.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|')
# shellcheck disable=SC2086
$R --json "$out/sweep.jsonl" $sweep | tail -1
$R --json "$out/sweep.jsonl" --set seq_q=1 --set seq_k=4099 build-bundles/fused-symbolic build-bundles/split-symbolic | tail -1
$R --json "$out/sweep.jsonl" --set seq_q=256 --set seq_k=97 --set batch=1 build-bundles/fused-symbolic | tail -1
$R --json "$out/sweep.jsonl" --set seq_q=512 --set seq_k=512 build-bundles/seed-perf-sym | tail -1

echo "== 2. compute-sanitizer"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in fused-len97-c cut-113x203-c split-masked-rows fused-bias split-decode sm120-split; do
  "$san" --tool memcheck --error-exitcode 3 $R --no-check "build-bundles/$b" > "$out/memcheck-$b.log" 2>&1
  echo "memcheck $b: exit $?  $(grep -E 'ERROR SUMMARY' "$out/memcheck-$b.log")"
done
"$san" --tool racecheck --error-exitcode 3 $R --no-check build-bundles/split3 > "$out/racecheck.log" 2>&1
echo "racecheck split3: exit $?  $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck.log")"

echo "== 3. an sm_100a schedule on this sm_90 device is refused"
$R --no-check build-bundles/sm100a-refused | head -1

echo "== 4. seed perf shape [1,8,4096,64] f16"
$R --no-check --bench 20 --json "$out/perf.jsonl" build-bundles/seed-perf-sym | head -1
python3 build-bench/anchors.py --shape 1,8,8,4096,4096,64 --dtype f16 > "$out/anchors.jsonl" 2> "$out/anchors.err"
cat "$out/anchors.jsonl"
echo "== 5. seed perf shape, causal"
$R --bench 20 --json "$out/perf.jsonl" build-bundles/seed-perf-causal | head -1
python3 build-bench/anchors.py --shape 1,8,8,4096,4096,64 --dtype f16 --causal >> "$out/anchors.jsonl" 2>> "$out/anchors.err"
tail -1 "$out/anchors.jsonl"
echo "== table"
python3 - "$out" <<'PY'
import json, sys, os
d = sys.argv[1]
rows = [json.loads(l) for l in open(os.path.join(d, "sweep.jsonl"))]
bad = [r for r in rows if not r.get("ok")]
print(f"sweep: {len(rows) - len(bad)} ok, {len(bad)} not ok")
for r in bad:
    print("  NOT OK", r.get("bundle"), r.get("error", ""), r.get("max_err"), r.get("err_bound"))
for r in rows:
    if r.get("checked"):
        print(f"  {os.path.basename(r['bundle']):20s} {r['shape']:22s} err {r['max_err']:.2e} <= {r['err_bound']:.2e} det={r['deterministic']}")
perf = [json.loads(l) for l in open(os.path.join(d, "perf.jsonl"))]
anc = [json.loads(l) for l in open(os.path.join(d, "anchors.jsonl"))] if os.path.getsize(os.path.join(d, "anchors.jsonl")) else []
for p in perf:
    a = next((x for x in anc if x.get("causal") == p.get("causal")), {})
    print(f"perf {p['shape']} attncc {p.get('median_us', 0):.1f} us ({p.get('tflops', 0):.2f} TFLOP/s, {p.get('timing')}); "
          f"flash {a.get('flash_us')} us, cudnn {a.get('cudnn_us')} us, flex {a.get('flex_us')} us")
PY
tar czf "$out/gpu-out.tgz" -C "$out" --exclude gpu-out.tgz . 2>/dev/null
