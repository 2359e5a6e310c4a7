# Device calls written 2026-12-05 (fifteenth session). One PART per call, or several in one
# call when they fit in its 10 minutes. Bundle first (carry build-deps, build-bundles):
#   bash scripts/gpu-deps.sh
#   OUT=build-bundles bash scripts/make-bundles.sh bench/sweep-tcgen05-m64.txt
#   COMMIT=<hash> PART=1 bash bench/session15-call.sh
set -u
export COMMIT=${COMMIT:-wip}
PART=${PART:-1}
#   1. The tcgen05 m64 atom (layout F, layouts rowhalf) under emulation: bench/sweep-tcgen05-m64.txt
#      (20 lines), memcheck and racecheck of m64-masked-rows (empty folds, lanes 16-31 on unused
#      tensor memory) and m64q2-203x113-c (two Q tiles of 64 rows, the roles).   $OUT/m64/
if [ "$PART" = 1 ]; then
  mkdir -p $OUT/m64
  OUT=$OUT/m64 SWEEP=bench/sweep-tcgen05-m64.txt FULL="" LADDER="" SAN="m64-masked-rows m64q2-203x113-c" CONTROLS="" \
    REFS="" STEP_TIMEOUT=90 SAN_TIMEOUT=120 timeout ${PART_TIMEOUT:-420} bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -14
  python3 scripts/results-json.py $OUT/m64 --what "bench/session15-call.sh PART=1: bench/sweep-tcgen05-m64.txt (the tcgen05 m64 atom, layout F) under emulation; memcheck and racecheck of m64-masked-rows and m64q2-203x113-c" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/m64/verify.jsonl $OUT/m64/gpu.txt
fi
