# H200 call (2026-12-04, seventh session): every emulated tcgen05 list again after the emulator's MMA
# began reading its operands once (bench/sweep-tcgen05.txt, -ws, -mma, and the tcgen05 lines of
# sweep-lazy/sweep-poly, which the earlier calls of this session did not re-run), and the decode
# default of the scalar sweep's fused-3x1024-c (f1x4/d3/g4 since the sixth session, never run in that
# form). Bundle those lists into build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/sweep-tcgen05.txt bench/sweep-tcgen05-ws.txt bench/sweep-tcgen05-mma.txt bench/sweep-lazy.txt bench/sweep-poly.txt bench/sweep-scalar.txt" \
  FULL="" LADDER="" SAN="t5-97-c" CONTROLS="control-t5-causal" REFS="" STEP_TIMEOUT=300 SAN_TIMEOUT=100 \
  timeout 540 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -24
python3 scripts/results-json.py $OUT/v --what "bench/emu-regress-call.sh: the emulated tcgen05 lists after the emulator change, the lazy/poly/scalar sweeps (fused-3x1024-c's decode default), the tcgen05 negative control, memcheck and racecheck of t5-97-c" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
