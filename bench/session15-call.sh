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
#   2. mask-conj.patch (bench/patches/; session14 PART=3) over the tensor-core sweeps and the
#      defaults at full size, with the patched kernels swapped in for this part only. Make them
#      here first, in a worktree with the patch applied (git am bench/patches/mask-conj.patch):
#        OUT=<main>/build-bundles-mc ATTNCC=<worktree>/build/tools/attncc/attncc bash scripts/make-bundles.sh \
#          bench/sweep-tc.txt bench/sweep-tma.txt bench/sweep-wgmma.txt bench/sweep-tma-mma.txt \
#          bench/sweep-tcgen05-rungs.txt bench/perf-default.txt bench/perf-sm120.txt
#      and carry build-deps, build-bundles and build-bundles-mc.             $OUT/m/
if [ "$PART" = 2 ]; then
  [ -d build-bundles-mc ] || { echo "PART=2 needs build-bundles-mc"; exit 1; }
  mv build-bundles build-bundles-main && mv build-bundles-mc build-bundles
  PART=3 bash bench/session14-call.sh
  mv build-bundles build-bundles-mc && mv build-bundles-main build-bundles
fi
#   3. A short call (when device time is scarce): the persistent sweep in the boustrophedon
#      (bench/sweep-persistent.txt as launched, then every line with --ctas 3), no sanitizers.
#                                                                           $OUT/p/
if [ "$PART" = 3 ]; then
  mkdir -p $OUT/p
  OUT=$OUT/p SWEEP=bench/sweep-persistent.txt FULL="" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=60 \
    timeout ${PART_TIMEOUT:-150} bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -8
  python3 scripts/results-json.py $OUT/p --what "bench/session15-call.sh PART=3: bench/sweep-persistent.txt (GRID=persistent in a boustrophedon)" > /dev/null 2>&1 || echo results-json failed
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  for b in $(grep -v '^#' bench/sweep-persistent.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d'); do
    timeout 30 $R --ctas 3 --json $OUT/p/ctas3.jsonl build-bundles/$b | tail -1 | cut -c1-160 || echo "ctas3: $b FAILED"
  done
  rm -f $OUT/p/verify.jsonl $OUT/p/gpu.txt
fi
