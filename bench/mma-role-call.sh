# H200 call (2026-12-04, sixth session): WSPEC=load1/mma1 under emulation (issue 14) and the
# problems of one point (attncc-canonicalize). Bundle bench/sweep-tcgen05-mma.txt and
# bench/sweep-one-point.txt into build-bundles, plus build-bundles/ws6-planted (ws6-97-c with the
# mma warp's waits on mma_ready deleted from kernel.cu: a planted race that must fail the check);
# carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/sweep-tcgen05-mma.txt bench/sweep-one-point.txt" FULL="" LADDER="" \
  SAN="ws6-97-c ws6-masked-rows op-wgmma op-scalar" CONTROLS="" REFS="" STEP_TIMEOUT=240 \
  timeout 420 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -24
python3 scripts/results-json.py $OUT/v --what "bench/mma-role-call.sh: WSPEC=load1/mma1 under emulation (bench/sweep-tcgen05-mma.txt), problems of one point (bench/sweep-one-point.txt); memcheck and racecheck of four lines" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
# The planted race: the mma warp issues P*V before the row warps stored P.
source scripts/gpu-build-runner.sh > /dev/null 2>&1
timeout 120 "$R" --json $OUT/v/planted.jsonl build-bundles/ws6-planted 2>&1 | tail -2
python3 - "$OUT/v/planted.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ok = [r.get("ok") for r in rows]
print("planted race (must not pass):", [(r.get("status"), r.get("max_err"), r.get("lse_err")) for r in rows])
PY
