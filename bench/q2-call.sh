# H200 call (2026-12-04, seventh session): two Q tiles per CTA (TILE@kv=a:tcgen05_.../w8x1) under
# emulation (issue 14). Bundle bench/sweep-tcgen05-q2.txt into build-bundles, plus
# build-bundles/q2-planted (q2-97-c with the second Q tile's A descriptor moved to rows 0-127 of Q in
# kernel.cu: a planted wiring bug that must fail the check); carry build-deps, build-bundles;
# COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/sweep-tcgen05-q2.txt" FULL="" LADDER="" SAN="q2-97-c q2-ws6-97-c" CONTROLS="" REFS="" \
  STEP_TIMEOUT=240 SAN_TIMEOUT=150 timeout 480 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -24
python3 scripts/results-json.py $OUT/v --what "bench/q2-call.sh: two Q tiles per CTA (w8x1) under emulation (bench/sweep-tcgen05-q2.txt); memcheck and racecheck of two lines" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
source scripts/gpu-build-runner.sh > /dev/null 2>&1
timeout 60 "$R" --json $OUT/v/planted.jsonl build-bundles/q2-planted 2>&1 | tail -2
python3 - "$OUT/v/planted.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("planted (must not pass):", [(r.get("status"), r.get("max_err"), r.get("lse_err")) for r in rows])
PY
