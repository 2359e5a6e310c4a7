#!/usr/bin/env bash
# Before/after timing of one change, in one device call (issue 13's rule:
# the defaults within 2 % of before, in one call). For every bundle NAME in
# $NAMES (default: the names of the lists given as arguments) both
# build-bundles/NAME (after) and build-bundles-old/NAME (before) are timed,
# alternating per bundle: after, before, after (ABA), $BENCH CUDA-graph
# replays each (default 20). Then PyTorch's backends on $ANCHORS_SET
# (B,Hq,Hkv,Sq,Sk,D,dtype[,causal]; ANCHORS=0 skips), and --gpu-reference
# on the bundles of $CHECK_OLD (before) and $CHECK_NEW (after).
# Writes $out/perf-after1.jsonl, perf-before.jsonl, perf-after2.jsonl,
# anchors.jsonl, verify.jsonl and $out/before-after.json (date, GPU, commit
# $COMMIT and $COMMIT_OLD, each bundle's knobs, times and the after/before
# ratio of the mean of the two after runs); prints the table last.
# Carry build-deps, build-bundles and build-bundles-old (see gpu-verify.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build-runner.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
B=${BENCH:-20}
list=${NAMES:-$(for l in "$@"; do names "$l"; done)}
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
stamp "0. NVRTC-compile both sets into the cubin cache"
for n in $list; do echo "build-bundles/$n"; echo "build-bundles-old/$n"; done \
  | xargs -P "$(nproc)" -n 2 "$R" --compile-only > /tmp/compile.log 2>&1 || true
stamp "1. after, before, after"
for n in $list; do
  for run in after1:build-bundles before:build-bundles-old after2:build-bundles; do
    timeout 120 "$R" --no-check --bench "$B" --json "$out/perf-${run%%:*}.jsonl" "${run#*:}/$n" > /dev/null \
      || echo "gpu-before-after: ${run#*:}/$n failed"
  done
done
if [ "${ANCHORS:-1}" != 0 ] && [ -n "${ANCHORS_SET:-}" ]; then
  stamp "2. anchors"
  # shellcheck disable=SC2086
  timeout 200 python3 scripts/anchors-all.py $ANCHORS_SET > "$out/anchors.jsonl" 2> /tmp/anchors.err \
    || tail -3 /tmp/anchors.err
fi
stamp "3. full-size checks against the fp32 GPU reference"
for b in ${CHECK_OLD:-}; do timeout 150 "$R" --gpu-reference --json "$out/verify.jsonl" "build-bundles-old/$b" | tail -1 || true; done
for b in ${CHECK_NEW:-}; do timeout 150 "$R" --gpu-reference --json "$out/verify.jsonl" "build-bundles/$b" | tail -1 || true; done
stamp "4. table"
python3 - "$out" <<'PY'
import datetime, json, os, sys
d = sys.argv[1]
def load(n):
    p = os.path.join(d, n)
    return [json.loads(l) for l in open(p) if l.strip()] if os.path.exists(p) else []
runs = {k: {os.path.basename(r.get("bundle", "")): r for r in load(f"perf-{k}.jsonl")} for k in ("after1", "before", "after2")}
anchors, checks = load("anchors.jsonl"), load("verify.jsonl")
dt = {"float16": "f16", "bfloat16": "bf16"}
rows = []
for n, b in runs["before"].items():
    a1, a2 = runs["after1"].get(n, {}), runs["after2"].get(n, {})
    ta = [x.get("median_us") for x in (a1, a2) if x.get("median_us")]
    after = sum(ta) / len(ta) if ta else None
    anc = next((x for x in anchors if x.get("shape") == b.get("shape") and x.get("causal") == b.get("causal")
                and dt.get(x.get("dtype"), x.get("dtype")) == b.get("dtype")), {})
    rows.append({"bundle": n, "shape": b.get("shape"), "dtype": b.get("dtype"), "causal": b.get("causal"),
                 "knobs": b.get("knobs"), "target": b.get("target"), "before_us": b.get("median_us"),
                 "after1_us": a1.get("median_us"), "after2_us": a2.get("median_us"), "after_us": after,
                 "after_over_before": after / b["median_us"] if after and b.get("median_us") else None,
                 "after_tflops": a1.get("tflops"), "registers_before": b.get("registers"),
                 "registers_after": a1.get("registers"), "flash_us": anc.get("flash_us"),
                 "cudnn_us": anc.get("cudnn_us"),
                 "flash_over_after": anc["flash_us"] / after if anc.get("flash_us") and after else None})
gpu = open(os.path.join(d, "gpu.txt")).read().strip()
res = {"date": datetime.date.today().isoformat(), "gpu": gpu, "commit": os.environ.get("COMMIT"),
       "commit_before": os.environ.get("COMMIT_OLD"), "what": "scripts/gpu-before-after.sh", "bench": os.environ.get("BENCH", "20"),
       "rows": rows, "anchors": anchors, "checks": checks}
json.dump(res, open(os.path.join(d, "before-after.json"), "w"), indent=1)
f = lambda v, p=1: "-" if v is None else f"{v:.{p}f}"
print(f"{'bundle':18s} {'before':>9s} {'after1':>9s} {'after2':>9s} {'a/b':>6s} {'TF/s':>5s} {'flash/a':>7s} regs")
for r in rows:
    rb, ra = r["registers_before"] or {}, r["registers_after"] or {}
    print(f"{r['bundle']:18s} {f(r['before_us']):>9s} {f(r['after1_us']):>9s} {f(r['after2_us']):>9s} "
          f"{f(r['after_over_before'], 3):>6s} {f(r['after_tflops'], 0):>5s} {f(r['flash_over_after'], 2):>7s} "
          f"{list(rb.values())}->{list(ra.values())}")
for c in checks:
    print("check", os.path.basename(c.get("bundle", "")), c.get("status"), "o", c.get("max_err"), "<=", c.get("err_bound"),
          "lse", c.get("lse_err"), "<=", c.get("lse_bound"))
PY
