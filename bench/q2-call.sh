# H200 calls (2026-12-04, seventh session): two Q tiles per CTA (TILE@kv=a:tcgen05_.../w8x1) under
# emulation (issue 14). Bundle bench/sweep-tcgen05-q2.txt (and, for the second call,
# bench/san-tcgen05.txt) into build-bundles, plus build-bundles/q2-planted: q2-300x113-c with the
# second Q tile's A descriptor moved to rows 0-127 of Q in kernel.cu, a planted wiring bug that must
# fail the check (the first call planted it in q2-97-c, whose 97 rows never reach the second tile,
# so it could not fail there). Carry build-deps, build-bundles; COMMIT=<hash>;
# SAN, SAN_TOOLS, SAN_TIMEOUT as in scripts/gpu-verify.sh.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="${SWEEP:-bench/sweep-tcgen05-q2.txt}" FULL="" LADDER="" SAN="${SAN:-q2-97-c q2-ws6-97-c}" CONTROLS="" REFS="" \
  STEP_TIMEOUT=240 SAN_TIMEOUT=${SAN_TIMEOUT:-150} timeout 500 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -24
python3 scripts/results-json.py $OUT/v --what "bench/q2-call.sh: two Q tiles per CTA (w8x1) under emulation (${SWEEP:-bench/sweep-tcgen05-q2.txt}); ${SAN_TOOLS:-memcheck and racecheck} of $SAN" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
source scripts/gpu-build-runner.sh > /dev/null 2>&1
timeout 60 "$R" --json $OUT/v/planted.jsonl build-bundles/q2-planted 2>&1 | tail -2
python3 - "$OUT/v/planted.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("planted (must not pass):", [(r.get("status"), r.get("max_err"), r.get("lse_err")) for r in rows])
PY
