# H200 call (2026-12-04, sixth session): memcheck and racecheck of the tcgen05 rungs and the d128
# default under emulation at a small size (bench/san-tcgen05.txt), after their check against the
# float64 reference. Bundle the list into build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/san-tcgen05.txt" FULL="" LADDER="" SAN="sT0-cp sT1-ring sT2-tma sT3-ex2 sdef-d128" CONTROLS="" \
  REFS="" STEP_TIMEOUT=75 SAN_TIMEOUT=60 timeout 400 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -16
python3 scripts/results-json.py $OUT/v --what "bench/san-call.sh: the tcgen05 rungs and the d128 default under emulation (bench/san-tcgen05.txt), checked, then memcheck and racecheck" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
