# H200 call (written 2026-12-04, tenth session, without a GPU: NOT RUN YET): varlen prefill
# (issue 16, criterion 5). Checks every line of bench/sweep-varlen.txt against the float64
# reference (ragged lengths, a sequence without rows and one without keys, LSE rows past a
# sequence must keep their poison), memcheck and racecheck of four lines; then times
# bench/perf-varlen.txt with the runner's ragged lengths and with every sequence full, and
# PyTorch's varlen flash on the same cumulative lengths (scripts/anchors-varlen.py).
# Bundle both lists into build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/t
# The worst case of the timeouts is past one call's 10 minutes: ONLY=verify runs the checks
# alone, SKIP_VERIFY=1 the timing alone.
SAN="${SAN:-vl-wg-d128-c vl-s120-d64-c vl-mma-cp-c vl-t5-d64-c}"
if [ "${SKIP_VERIFY:-}" != 1 ]; then
  OUT=$OUT/v SWEEP="bench/sweep-varlen.txt" FULL="" LADDER="" SAN="$SAN" CONTROLS="" REFS="" \
    STEP_TIMEOUT=200 SAN_TIMEOUT=${SAN_TIMEOUT:-100} timeout 400 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -30
  python3 scripts/results-json.py $OUT/v --what "bench/varlen-call.sh: varlen prefill (bench/sweep-varlen.txt); memcheck and racecheck of $SAN" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
fi
[ "${ONLY:-}" = verify ] && exit 0
OUT=$OUT/t source scripts/gpu-build-runner.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/t/gpu.txt
for name in $(names bench/perf-varlen.txt); do
  timeout 40 $R --no-check --bench 30 --json $OUT/t/x.jsonl build-bundles/$name > /dev/null || echo "$name failed"
  timeout 40 $R --full-lengths --no-check --bench 30 --json $OUT/t/x.jsonl build-bundles/$name > /dev/null || echo "$name (full) failed"
done
timeout 120 python3 scripts/anchors-varlen.py $OUT/t/x.jsonl > $OUT/t/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
NO_FLEX=1 timeout 90 python3 scripts/anchors-all.py 16,16,16,4096,4096,128,bf16,causal 8,32,8,1,32768,128,bf16 > $OUT/t/dense-anchors.jsonl 2>/dev/null || echo dense anchors failed
python3 - $OUT/t <<'PY'
import datetime, json, os, sys
d = sys.argv[1]
runs = [json.loads(l) for l in open(os.path.join(d, "x.jsonl"))]
anch = [json.loads(l) for l in open(os.path.join(d, "anchors.jsonl"))] if os.path.exists(os.path.join(d, "anchors.jsonl")) else []
res = {"date": datetime.date.today().isoformat(), "gpu": open(os.path.join(d, "gpu.txt")).read().strip(),
       "commit": os.environ.get("COMMIT", ""), "what": "bench/varlen-call.sh: varlen prefill timing, ragged and full lengths, "
       "beside PyTorch's varlen flash on the same cumulative lengths", "runs": runs, "anchors": anch}
json.dump(res, open(os.path.join(d, "varlen-perf.json"), "w"), indent=1)
by_line = {a["line"]: a for a in anch}
for n, r in enumerate(runs):
    a = by_line.get(n, {})
    full = "full" if a.get("full_lengths") else "ragged" if a else "dense"
    print(f"{r['bundle'].split('/')[-1]:18s} {full:6s} {r.get('median_us', 0):9.1f} us {r.get('tflops', 0):6.1f} TF/s",
          f"flash varlen {a['flash_varlen_us']:9.1f} us ({a['flash_varlen_us'] / r['median_us']:.2f}x)" if "flash_varlen_us" in a
          else a.get("error", ""))
PY
cut -c1-200 $OUT/t/dense-anchors.jsonl
rm -f $OUT/t/x.jsonl
